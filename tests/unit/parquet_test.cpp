#include "common/exception.hpp"
#include "formats/parquet/delta_decoders.hpp"
#include "formats/parquet/parquet_metadata.hpp"
#include "formats/parquet/parquet_scan_format.hpp"
#include "formats/parquet/rle_bit_packed_decoder.hpp"
#include "io/local_file_system.hpp"
#include "main/sluice.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>

using namespace sluice;
using namespace sluice::parquet;

namespace {

const std::filesystem::path kCorpus =
    std::filesystem::path(SLUICE_SOURCE_DIR) / ".." / "shared" / "corpus" / "parquet-testing";

std::vector<std::filesystem::path> CorpusFiles() {
    std::vector<std::filesystem::path> files;
    if (!std::filesystem::exists(kCorpus)) {
        return files;
    }
    for (const auto& entry : std::filesystem::recursive_directory_iterator(kCorpus)) {
        if (entry.path().extension() == ".parquet") {
            files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

std::string ReadFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

} // namespace

TEST(RleBitPackedDecoder, DecodesPackedAndRepeatedRuns) {
    // Bit-packed run of one group (header (1 << 1) | 1): 0..7 at 3 bits, as in the spec's
    // example; then an RLE run of five 7s (header 5 << 1).
    const uint8_t data[] = {0x03, 0x88, 0xC6, 0xFA, 0x0A, 0x07};
    RleBitPackedDecoder decoder(data, sizeof(data), 3);
    uint32_t values[13];
    decoder.GetBatch(values, 13);
    for (uint32_t i = 0; i < 8; i++) {
        EXPECT_EQ(values[i], i);
    }
    for (int i = 8; i < 13; i++) {
        EXPECT_EQ(values[i], 7u);
    }
    EXPECT_THROW(decoder.GetBatch(values, 1), std::runtime_error);
    RleBitPackedDecoder counter(data, sizeof(data), 3);
    EXPECT_EQ(counter.CountEqual(13, 7), 6u);
    EXPECT_THROW(RleBitPackedDecoder(data, sizeof(data), 33), std::runtime_error);
}

TEST(RleBitPackedDecoder, UnpacksEveryWidthFromEveryOffset) {
    // Values packed LSB-first by hand, then unpacked from many starting points and lengths:
    // the byte-aligned groups of 8 and the value-by-value edges must agree.
    for (uint32_t width = 1; width <= 32; width++) {
        std::vector<uint32_t> values(300);
        for (size_t i = 0; i < values.size(); i++) {
            uint64_t mixed = (i + 1) * 0x9E3779B97F4A7C15ULL >> 7;
            values[i] = static_cast<uint32_t>(width == 32 ? mixed : mixed & ((1ULL << width) - 1));
        }
        std::vector<uint8_t> packed((values.size() * width + 7) / 8, 0);
        for (size_t i = 0; i < values.size(); i++) {
            for (uint32_t b = 0; b < width; b++) {
                uint64_t bit = i * width + b;
                packed[bit / 8] |= static_cast<uint8_t>(((values[i] >> b) & 1) << (bit % 8));
            }
        }
        for (uint64_t first : {0, 1, 7, 8, 13, 64, 250}) {
            size_t count = values.size() - first;
            std::vector<uint32_t> out(count);
            parquet::UnpackBits(packed.data(), packed.size(), width, first, out.data(), count);
            for (size_t i = 0; i < count; i++) {
                ASSERT_EQ(out[i], values[first + i])
                    << "width " << width << " first " << first << " value " << i;
            }
        }
    }
}

TEST(DeltaBinaryPacked, DecodesTheSpecificationExample) {
    // 1, 2, 3, 4, 5: block size 128, 4 miniblocks, 5 values, first value 1; min delta 1 and
    // all bit widths 0.
    const uint8_t data[] = {0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00};
    size_t consumed = 0;
    auto values = DecodeDeltaBinaryPacked(data, sizeof(data), 5, consumed);
    EXPECT_EQ(values, (std::vector<int64_t>{1, 2, 3, 4, 5}));
    EXPECT_EQ(consumed, sizeof(data));
    // A header announcing a different count than the page holds is rejected, not spun on.
    EXPECT_THROW(DecodeDeltaBinaryPacked(data, sizeof(data), 4, consumed), std::runtime_error);
    const uint8_t bad_layout[] = {0x81, 0x01, 0x04, 0x05, 0x02};
    EXPECT_THROW(DecodeDeltaBinaryPacked(bad_layout, sizeof(bad_layout), 5, consumed),
                 std::runtime_error);
}

TEST(ThriftMetadata, RandomBytesNeverCrash) {
    std::mt19937 random(42);
    for (int round = 0; round < 20000; round++) {
        std::vector<uint8_t> bytes(random() % 64);
        for (auto& byte : bytes) {
            byte = static_cast<uint8_t>(random());
        }
        try {
            DecodeFileMetaData(bytes.data(), bytes.size());
        } catch (const std::runtime_error&) {
        }
        try {
            size_t header_size;
            DecodePageHeader(bytes.data(), bytes.size(), header_size);
        } catch (const std::runtime_error&) {
        }
    }
    // Struct inside struct inside ... must hit the depth limit, not the stack.
    std::vector<uint8_t> deep(100000, 0x1C); // field delta 1, type STRUCT
    EXPECT_THROW(DecodeFileMetaData(deep.data(), deep.size()), std::runtime_error);
}

TEST(ParquetCorpus, CorruptedFilesGiveErrorsNotCrashes) {
    auto files = CorpusFiles();
    if (files.empty()) {
        GTEST_SKIP() << "the Parquet corpus is not present at " << kCorpus;
    }
    Database database;
    Connection connection(database);
    connection.Query("SET threads = 1");
    std::mt19937 random(7);
    auto path = std::filesystem::temp_directory_path() / "sluice_mutated.parquet";
    int errors = 0, reads = 0;
    for (const auto& file : files) {
        // The columns this build reads from the intact file: those are what gets decoded when
        // the file is damaged.
        std::string readable;
        try {
            // Files that expand to gigabytes (large_string_map.brotli.parquet) would spend
            // minutes decompressing without testing anything more.
            auto expanded =
                connection.Query("SELECT sum(total_uncompressed_size) FROM parquet_metadata('" +
                                 file.string() + "')");
            if (expanded->GetValue(0, 0).GetInteger() > (256 << 20)) {
                continue;
            }
            auto described =
                connection.Query("DESCRIBE SELECT * FROM read_parquet('" + file.string() + "')");
            for (idx_t row = 0; row < described->RowCount(); row++) {
                std::string column = "\"" + described->GetValue(0, row).GetString() + "\"";
                try {
                    connection.Query("SELECT " + column + " FROM read_parquet('" + file.string() +
                                     "')");
                    readable += (readable.empty() ? "" : ", ") + column;
                } catch (const Exception&) {
                }
            }
        } catch (const Exception&) {
        }
        if (readable.empty()) {
            continue;
        }
        std::string original = ReadFile(file);
        for (int round = 0; round < 25; round++) {
            std::string mutated = original;
            int flips = 1 + static_cast<int>(random() % 8);
            for (int i = 0; i < flips; i++) {
                // Aim half the damage at the footer, where the sizes and offsets live.
                size_t tail = std::min<size_t>(mutated.size(), 512);
                size_t at =
                    random() % 2 ? mutated.size() - 1 - random() % tail : random() % mutated.size();
                mutated[at] = static_cast<char>(random());
            }
            if (random() % 4 == 0) {
                mutated.resize(random() % mutated.size()); // truncated file
            }
            std::ofstream(path, std::ios::binary | std::ios::trunc) << mutated;
            try {
                connection.Query("SELECT " + readable + " FROM read_parquet('" + path.string() +
                                 "')");
                reads++;
            } catch (const Exception& error) {
                errors++;
                EXPECT_NE(error.Kind(), ErrorKind::Internal) << file << ": " << error.what();
            }
        }
    }
    std::filesystem::remove(path);
    EXPECT_GT(errors, 0);
    std::cout << "mutated corpus files: " << reads << " read, " << errors
              << " rejected with an error\n";
}

TEST(ParquetCorpus, ByteStreamSplitColumnsEqualTheirPlainTwins) {
    auto file = kCorpus / "data" / "byte_stream_split_extended.gzip.parquet";
    if (!std::filesystem::exists(file)) {
        GTEST_SKIP() << "the Parquet corpus is not present at " << kCorpus;
    }
    Database database;
    Connection connection(database);
    auto result = connection.Query("SELECT * FROM read_parquet('" + file.string() + "')");
    ASSERT_EQ(result->ColumnCount(), 14u);
    ASSERT_EQ(result->RowCount(), 200u);
    for (idx_t column = 0; column < 14; column += 2) {
        EXPECT_EQ(result->names()[column + 1],
                  result->names()[column].substr(0, result->names()[column].size() - 5) +
                      "byte_stream_split");
        for (idx_t row = 0; row < 200; row++) {
            ASSERT_EQ(result->GetValue(column, row).ToString(),
                      result->GetValue(column + 1, row).ToString())
                << result->names()[column] << " row " << row;
        }
    }
}

TEST(ParquetCorpus, LegacyLz4FramingsReadLikeLz4Raw) {
    auto data = kCorpus / "data";
    if (!std::filesystem::exists(data)) {
        GTEST_SKIP() << "the Parquet corpus is not present at " << kCorpus;
    }
    Database database;
    Connection connection(database);
    auto dump = [&](const std::string& name) {
        auto result =
            connection.Query("SELECT * FROM read_parquet('" + (data / name).string() + "')");
        std::string text;
        for (idx_t row = 0; row < result->RowCount(); row++) {
            for (idx_t column = 0; column < result->ColumnCount(); column++) {
                text += result->GetValue(column, row).ToString() + ",";
            }
        }
        return text;
    };
    // DuckDB reads only the LZ4_RAW file; the other two hold the same rows in older framings.
    std::string expected = dump("lz4_raw_compressed.parquet");
    EXPECT_EQ(expected,
              "1593604800,abc,42.0,1593604800,def,7.7,1593604801,abc,42.125,1593604801,def,7.7,");
    EXPECT_EQ(dump("hadoop_lz4_compressed.parquet"), expected);
    EXPECT_EQ(dump("non_hadoop_lz4_compressed.parquet"), expected);
}

TEST(ParquetPruning, StatisticsSkipRowGroupsThatCannotMatch) {
    auto path = std::filesystem::temp_directory_path() / "sluice_pruning.parquet";
    Database database;
    Connection connection(database);
    // 100 row groups of 1000 sorted ids; text and a NULL-only column for the other filters.
    connection.Query("COPY (SELECT range AS id, 'k' || (range // 1000) AS key, "
                     "0 * (1 // (range % 1)) AS nothing FROM range(100000)) TO '" +
                     path.string() + "' (ROW_GROUP_SIZE 1000)");
    LocalFileSystem file_system;
    auto file = OpenParquetFile(file_system, path.string());
    ASSERT_EQ(file->reader().RowGroupCount(), 100u);
    auto groups_read = [&](std::vector<TableFilter> filters) {
        FileJobs planned = file->PlanJobs(FileProjection{{0}, {0}, filters, 0, {}}, {});
        EXPECT_EQ(planned.jobs.size() + planned.jobs_pruned, 100u);
        return planned.jobs.size();
    };
    using Op = TableFilter::Op;
    auto id = [](int64_t value) { return Value::Integer(LogicalTypeId::BIGINT, value); };
    EXPECT_EQ(groups_read({}), 100u);
    EXPECT_EQ(groups_read({{0, Op::Equal, id(54321), {}}}), 1u);
    EXPECT_EQ(groups_read({{0, Op::GreaterEqual, id(99000), {}}}), 1u);
    EXPECT_EQ(groups_read({{0, Op::Greater, id(98999), {}}}), 1u);
    EXPECT_EQ(groups_read({{0, Op::Less, id(2000), {}}}), 2u);
    EXPECT_EQ(groups_read({{0, Op::LessEqual, id(2000), {}}}), 3u);
    EXPECT_EQ(groups_read({{0, Op::Less, id(0), {}}}), 0u);
    EXPECT_EQ(groups_read({{0, Op::In, Value(), {id(54321), id(99999), id(54400)}}}), 2u);
    EXPECT_EQ(groups_read({{0, Op::In, Value(), {id(-5), id(100000)}}}), 0u);
    EXPECT_EQ(groups_read({{0, Op::GreaterEqual, id(10000), {}}, {0, Op::Less, id(12000), {}}}),
              2u);
    EXPECT_EQ(groups_read({{0, Op::NotEqual, id(5), {}}}), 100u);
    EXPECT_EQ(groups_read({{1, Op::Equal, Value::Varchar("k42"), {}}}), 1u);
    EXPECT_EQ(groups_read({{1, Op::Equal, Value::Varchar("nope"), {}}}), 0u);
    EXPECT_EQ(groups_read({{2, Op::IsNotNull, Value(), {}}}), 0u);
    EXPECT_EQ(groups_read({{2, Op::IsNull, Value(), {}}}), 100u);
    EXPECT_EQ(groups_read({{0, Op::IsNull, Value(), {}}}), 0u);
    // Through SQL, the pruned scan still returns exactly the matching rows.
    auto result = connection.Query("SELECT id FROM read_parquet('" + path.string() +
                                   "') WHERE id >= 99998 OR id = 3");
    ASSERT_EQ(result->RowCount(), 3u);
    result = connection.Query("SELECT id FROM read_parquet('" + path.string() +
                              "') WHERE 1000 > id AND id >= 998");
    ASSERT_EQ(result->RowCount(), 2u);
    EXPECT_EQ(result->GetValue(0, 1).GetInteger(), 999);
    std::filesystem::remove(path);
}

// A range of file_row_number reads only the row groups holding those rows (how sluice.dask cuts
// a large file into partitions), and still exactly those rows.
TEST(ParquetPruning, FileRowNumberRangesSkipOtherRowGroups) {
    auto path = std::filesystem::temp_directory_path() / "sluice_row_number_pruning.parquet";
    Database database;
    Connection connection(database);
    connection.Query("COPY (SELECT range AS id FROM range(10000)) TO '" + path.string() +
                     "' (ROW_GROUP_SIZE 1000)");
    std::string scan = "FROM read_parquet('" + path.string() + "', file_row_number = true) WHERE ";
    auto result = connection.Query("SELECT count(*), min(id), max(id) " + scan +
                                   "file_row_number BETWEEN 2500 AND 4499");
    EXPECT_EQ(result->GetValue(0, 0).GetInteger(), 2000);
    EXPECT_EQ(result->GetValue(1, 0).GetInteger(), 2500);
    EXPECT_EQ(result->GetValue(2, 0).GetInteger(), 4499);
    auto jobs = [&](const std::string& predicate) {
        std::string plan = connection.Query("EXPLAIN ANALYZE SELECT count(*) " + scan + predicate)
                               ->GetValue(1, 0)
                               .ToString();
        auto at = plan.find(" scanned, ");
        return at == std::string::npos ? std::string("none")
                                       : plan.substr(plan.rfind("jobs ", at),
                                                     plan.find(" (", at) - plan.rfind("jobs ", at));
    };
    EXPECT_EQ(jobs("file_row_number BETWEEN 2500 AND 4499"), "jobs 3 scanned, 7 pruned");
    EXPECT_EQ(jobs("file_row_number >= 9000"), "jobs 1 scanned, 9 pruned");
    EXPECT_EQ(jobs("file_row_number < 0"), "jobs 0 scanned, 10 pruned");
    EXPECT_EQ(jobs("id >= 0"), "jobs 10 scanned, 0 pruned");
    std::filesystem::remove(path);
}

TEST(TableFilter, NaNCanSatisfyComparisonsStatisticsLeaveOut) {
    ColumnStatistics statistics;
    statistics.min = Value::Double(1);
    statistics.max = Value::Double(2);
    statistics.row_count = 10;
    statistics.null_count = 0;
    statistics.may_contain_nan = true;
    using Op = TableFilter::Op;
    // NaN sorts above every number, so "> 5" may hold for a NaN the statistics do not show.
    EXPECT_TRUE(MayMatch({0, Op::Greater, Value::Double(5), {}}, statistics));
    EXPECT_TRUE(MayMatch({0, Op::Equal, Value::Double(NAN), {}}, statistics));
    EXPECT_FALSE(MayMatch({0, Op::Less, Value::Double(0.5), {}}, statistics));
    EXPECT_FALSE(MayMatch({0, Op::Equal, Value::Double(7), {}}, statistics));
    statistics.may_contain_nan = false;
    EXPECT_FALSE(MayMatch({0, Op::Greater, Value::Double(5), {}}, statistics));
}
