// The page index: Sluice's writer stores column and offset indexes that its reader decodes and
// validates; slices of a row group cut by the offset index (page-level jobs) decode exactly the
// rows of decoding the whole group; planning with a small job size cuts a row group into jobs
// that tile it (from page headers when the file has no offset index), and filters skip the rows
// whose page bounds rule them out.
#include "common/exception.hpp"
#include "formats/parquet/page_index.hpp"
#include "formats/parquet/parquet_reader.hpp"
#include "formats/parquet/parquet_scan_format.hpp"
#include "io/local_file_system.hpp"
#include "main/sluice.hpp"

#include "query_text.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>

using namespace sluice;
using namespace sluice::parquet;

namespace {

Value BigInt(int64_t value) {
    return Value::Integer(LogicalType(LogicalTypeId::BIGINT), value);
}

class PageIndexFile : public ::testing::Test {
protected:
    void SetUp() override {
        directory_ = std::filesystem::temp_directory_path() /
                     ("sluice_page_index_" + std::to_string(::getpid()));
        std::filesystem::create_directories(directory_);
        path_ = (directory_ / "one_group.parquet").string();
        // One row group of 50,000 rows in pages of about 4 KiB: many pages per column, of
        // different row counts per column, dictionary and plain, with NULLs.
        Database database;
        Connection connection(database);
        path_without_index_ = (directory_ / "without_index.parquet").string();
        for (const auto& [path, index] :
             {std::pair(path_, "true"), std::pair(path_without_index_, "false")}) {
            connection.Query(
                "COPY (SELECT range AS id, CASE WHEN range % 9 = 0 THEN NULL ELSE range % 1000 "
                "END AS small, 'name-' || (range % 300) AS dict, 'unique string ' || range AS "
                "plain, CASE WHEN range % 5 = 0 THEN NULL ELSE range / 7.0 END AS dbl, range % 2 "
                "= 0 AS flag FROM range(50000)) TO '" +
                path + "' (FORMAT parquet, ROW_GROUP_SIZE 1000000, PAGE_SIZE 4096, " +
                "WRITE_PAGE_INDEX " + index + ")");
        }
        file_ = OpenParquetFile(local_, path_);
        reader_ = std::shared_ptr<const ParquetFileReader>(file_, &file_->reader());
        for (size_t i = 0; i < reader_->columns().size(); i++) {
            columns_.push_back(i);
            types_.push_back(reader_->columns()[i].type);
        }
    }
    void TearDown() override { std::filesystem::remove_all(directory_); }

    std::vector<uint8_t> Read(const ByteRange& range) {
        std::vector<uint8_t> bytes(range.length);
        file_->handle()->Read(bytes.data(), bytes.size(), range.offset, {});
        return bytes;
    }

    OffsetIndex ReadOffsetIndex(size_t column) {
        std::optional<ByteRange> range = reader_->OffsetIndexRange(0, column);
        EXPECT_TRUE(range.has_value());
        std::vector<uint8_t> bytes = Read(*range);
        ByteRange chunk = reader_->PlanRowGroup(0, {column})[0];
        return DecodeOffsetIndex(bytes.data(), bytes.size(), chunk.offset,
                                 chunk.offset + chunk.length, reader_->RowGroupRows(0));
    }

    // Every row of `slice` as text, one line per row.
    std::vector<std::string> Decode(const RowGroupSlice& slice) {
        std::vector<ByteBuffer> buffers;
        for (const ByteRange& range : slice.ranges) {
            buffers.push_back(ByteBuffer::Allocate(range.length));
            file_->handle()->Read(buffers.back().get(), range.length, range.offset, {});
        }
        RowGroupDecoder decoder(reader_, slice, columns_, std::move(buffers));
        return Rows(decoder);
    }

    std::vector<std::string> Rows(RowGroupDecoder& decoder) {
        std::vector<std::string> rows;
        DataChunk chunk(types_);
        while (true) {
            chunk.Reset();
            if (!decoder.Next(chunk)) {
                break;
            }
            for (idx_t row = 0; row < chunk.size(); row++) {
                std::string line;
                for (idx_t column = 0; column < chunk.ColumnCount(); column++) {
                    line += chunk.column(column).GetValue(row).ToString() + "|";
                }
                rows.push_back(std::move(line));
            }
        }
        return rows;
    }

    // The jobs of `planned` decode the group's ids in order, each holding well under the group.
    void CheckJobsTileTheGroup(ParquetScanFile& file, const FileJobs& planned,
                               uint64_t whole_bytes) {
        std::vector<std::string> rows;
        int64_t next_row = 0;
        for (const ScanJobPlan& job : planned.jobs) {
            EXPECT_EQ(job.first_row, next_row);
            EXPECT_LT(job.Bytes(), whole_bytes / 2);
            next_row += job.rows;
            std::vector<ByteBuffer> buffers;
            for (const ByteRange& range : job.ranges) {
                buffers.push_back(ByteBuffer::Allocate(range.length));
                file.handle()->Read(buffers.back().get(), range.length, range.offset, {});
            }
            auto decoder = file.Decode(job, std::move(buffers), {});
            DataChunk chunk(types_);
            int64_t decoded = 0;
            while (true) {
                chunk.Reset();
                if (!decoder->Next(chunk)) {
                    break;
                }
                decoded += int64_t(chunk.size());
                for (idx_t row = 0; row < chunk.size(); row++) {
                    rows.push_back(chunk.column(0).GetValue(row).ToString());
                }
            }
            EXPECT_EQ(decoded, job.rows);
        }
        EXPECT_EQ(next_row, 50000);
        for (size_t i = 0; i < rows.size(); i++) {
            ASSERT_EQ(rows[i], std::to_string(i));
        }
    }

    std::filesystem::path directory_;
    std::string path_, path_without_index_;
    LocalFileSystem local_;
    std::shared_ptr<ParquetScanFile> file_;
    std::shared_ptr<const ParquetFileReader> reader_;
    std::vector<size_t> columns_;
    std::vector<LogicalType> types_;
};

} // namespace

TEST(PageIndex, EncodedIndexesDecodeToTheSame) {
    OffsetIndex offsets;
    offsets.page_locations = {{100, 50, 0}, {150, 70, 1000}, {220, 30, 2500}};
    std::vector<uint8_t> bytes;
    EncodeOffsetIndex(offsets, bytes);
    OffsetIndex decoded = DecodeOffsetIndex(bytes.data(), bytes.size(), 100, 250, 3000);
    ASSERT_EQ(decoded.page_locations.size(), 3u);
    EXPECT_EQ(decoded.page_locations[2].offset, 220);
    EXPECT_EQ(decoded.page_locations[1].compressed_page_size, 70);
    EXPECT_EQ(decoded.page_locations[2].first_row_index, 2500);

    ColumnIndex bounds;
    bounds.null_pages = {false, true, false};
    bounds.min_values = {"a", "", "q"};
    bounds.max_values = {"k", "", "z"};
    bounds.null_counts = {3, 1500, 0};
    bytes.clear();
    EncodeColumnIndex(bounds, bytes);
    ColumnIndex back = DecodeColumnIndex(bytes.data(), bytes.size(), 3);
    EXPECT_EQ(back.null_pages, bounds.null_pages);
    EXPECT_EQ(back.min_values, bounds.min_values);
    EXPECT_EQ(back.max_values, bounds.max_values);
    EXPECT_EQ(back.null_counts, bounds.null_counts);
}

TEST(PageIndex, MalformedIndexesAreRejected) {
    auto offsets_fail = [](std::vector<PageLocation> pages, uint64_t begin, uint64_t end,
                           int64_t rows) {
        OffsetIndex index;
        index.page_locations = std::move(pages);
        std::vector<uint8_t> bytes;
        EncodeOffsetIndex(index, bytes);
        EXPECT_THROW(DecodeOffsetIndex(bytes.data(), bytes.size(), begin, end, rows),
                     std::runtime_error);
    };
    offsets_fail({{100, 50, 0}, {120, 50, 10}}, 100, 300, 100);  // overlapping pages
    offsets_fail({{100, 50, 0}, {150, 500, 10}}, 100, 300, 100); // past the chunk
    offsets_fail({{90, 50, 0}}, 100, 300, 100);                  // before the chunk
    offsets_fail({{100, 50, 5}}, 100, 300, 100);                 // not starting at row 0
    offsets_fail({{100, 50, 0}, {150, 50, 0}}, 100, 300, 100);   // rows not ascending
    offsets_fail({{100, 50, 0}, {150, 50, 100}}, 100, 300, 100); // past the group's rows
    offsets_fail({}, 100, 300, 100);                             // no pages
    offsets_fail({{100, 0, 0}}, 100, 300, 100);                  // an empty page

    ColumnIndex bounds;
    bounds.null_pages = {false, false};
    bounds.min_values = {"a", "b"};
    bounds.max_values = {"c", "d"};
    std::vector<uint8_t> bytes;
    EncodeColumnIndex(bounds, bytes);
    EXPECT_THROW(DecodeColumnIndex(bytes.data(), bytes.size(), 3), std::runtime_error);
    for (size_t cut = 0; cut < bytes.size(); cut++) {
        EXPECT_THROW(DecodeColumnIndex(bytes.data(), cut, 2), std::runtime_error) << cut;
    }
    // A list of the wrong element type where page locations belong.
    std::vector<uint8_t> wrong = {0x19, 0x15, 0x02, 0x00};
    EXPECT_THROW(DecodeOffsetIndex(wrong.data(), wrong.size(), 0, 100, 10), std::runtime_error);
}

TEST_F(PageIndexFile, WriterStoresAnIndexOfEveryPage) {
    for (size_t column : columns_) {
        OffsetIndex offsets = ReadOffsetIndex(column);
        EXPECT_GT(offsets.page_locations.size(), 3u) << reader_->columns()[column].name;
        std::optional<ByteRange> range = reader_->ColumnIndexRange(0, column);
        ASSERT_TRUE(range.has_value());
        std::vector<uint8_t> bytes = Read(*range);
        ColumnIndex bounds =
            DecodeColumnIndex(bytes.data(), bytes.size(), offsets.page_locations.size());
        // The id column ascends: each page's bounds are its first and last id.
        if (reader_->columns()[column].name == "id") {
            for (size_t p = 0; p < offsets.page_locations.size(); p++) {
                ColumnStatistics statistics =
                    PageStatistics(reader_->columns()[column], bounds, p, 1);
                ASSERT_TRUE(statistics.min.has_value());
                EXPECT_EQ(statistics.min->GetInteger(), offsets.page_locations[p].first_row_index);
            }
        }
    }
}

TEST_F(PageIndexFile, SlicesDecodeTheRowsOfTheWholeGroup) {
    std::vector<std::string> whole = Decode(reader_->WholeRowGroup(0, columns_));
    ASSERT_EQ(whole.size(), 50000u);
    std::vector<OffsetIndex> offsets;
    for (size_t column : columns_) {
        offsets.push_back(ReadOffsetIndex(column));
    }
    std::vector<std::pair<uint64_t, uint64_t>> slices = {
        {0, 50000}, {0, 1}, {49999, 1}, {1, 49999}, {12345, 1}, {2047, 2}, {30000, 20000}};
    // Slices starting and ending at the page boundaries of one column, and inside pages.
    for (const PageLocation& page : offsets[3].page_locations) {
        auto first = static_cast<uint64_t>(page.first_row_index);
        slices.emplace_back(first, std::min<uint64_t>(3000, 50000 - first));
    }
    std::mt19937 random(7);
    for (int i = 0; i < 20; i++) {
        uint64_t first = random() % 50000;
        slices.emplace_back(first, 1 + random() % (50000 - first));
    }
    for (const auto& [first, rows] : slices) {
        RowGroupSlice slice = reader_->SliceRowGroup(0, columns_, offsets, first, rows);
        uint64_t bytes = 0, whole_bytes = 0;
        for (const ByteRange& range : slice.ranges) {
            bytes += range.length;
        }
        for (const ByteRange& range : reader_->PlanRowGroup(0, columns_)) {
            whole_bytes += range.length;
        }
        if (rows < 5000) {
            EXPECT_LT(bytes * 2, whole_bytes) << first << "+" << rows; // only the pages needed
        }
        std::vector<std::string> expected(whole.begin() + long(first),
                                          whole.begin() + long(first + rows));
        ASSERT_EQ(Decode(slice), expected) << "rows " << first << " + " << rows;
    }
}

TEST_F(PageIndexFile, PlannedJobsTileTheGroupAndFiltersSkipPages) {
    FileProjection projection;
    projection.columns = columns_;
    for (size_t i = 0; i < columns_.size(); i++) {
        projection.positions.push_back(i);
    }
    uint64_t whole_bytes = 0;
    for (const ByteRange& range : reader_->PlanRowGroup(0, columns_)) {
        whole_bytes += range.length;
    }
    projection.max_job_bytes = whole_bytes / 5;
    for (const std::string& path : {path_, path_without_index_}) {
        auto file = OpenParquetFile(local_, path);
        FileJobs planned = file->PlanJobs(projection, {});
        ASSERT_GE(planned.jobs.size(), 4u) << path;
        EXPECT_EQ(planned.units_cut, 1u);
        CheckJobsTileTheGroup(*file, planned, whole_bytes);
    }

    // Without a column index nothing is skipped.
    auto unindexed = OpenParquetFile(local_, path_without_index_);
    projection.max_job_bytes = 0;
    projection.filters = {{0, TableFilter::Op::GreaterEqual, BigInt(20000), {}}};
    FileJobs whole = unindexed->PlanJobs(projection, {});
    ASSERT_EQ(whole.jobs.size(), 1u);
    EXPECT_EQ(whole.rows_pruned_by_page_index, 0u);

    // id BETWEEN 20000 AND 20999: only the pages around those ids are planned.
    auto file = OpenParquetFile(local_, path_);
    projection.filters = {{0, TableFilter::Op::GreaterEqual, BigInt(20000), {}},
                          {0, TableFilter::Op::LessEqual, BigInt(20999), {}}};
    FileJobs filtered = file->PlanJobs(projection, {});
    ASSERT_EQ(filtered.jobs.size(), 1u);
    EXPECT_LE(filtered.jobs[0].first_row, 20000);
    EXPECT_GE(filtered.jobs[0].first_row + filtered.jobs[0].rows, 21000);
    EXPECT_LT(filtered.jobs[0].rows, 5000);
    EXPECT_EQ(filtered.rows_pruned_by_page_index, 50000u - uint64_t(filtered.jobs[0].rows));

    // Nothing can match: no job at all.
    auto empty_file = OpenParquetFile(local_, path_);
    projection.filters = {{0, TableFilter::Op::Equal, BigInt(-5), {}},
                          {4, TableFilter::Op::IsNull, Value(), {}}};
    FileJobs none = empty_file->PlanJobs(projection, {});
    EXPECT_TRUE(none.jobs.empty());
}

TEST_F(PageIndexFile, QueriesOverCutGroupsMatchTheWholeGroup) {
    // Through SQL at several thread counts: the same results, and the filtered query skips pages.
    Database database;
    Connection connection(database);
    auto dump = [&](const std::string& sql) { return QueryText(connection, sql); };
    std::string from = " FROM read_parquet('" + path_ + "', file_row_number = true)";
    std::string query = "SELECT count(*), sum(id), sum(small), count(dict), max(plain), "
                        "sum(dbl), sum(file_row_number) FILTER (WHERE flag)" +
                        from;
    std::string filtered = "SELECT file_row_number, id, plain" + from +
                           " WHERE id BETWEEN 31000 AND 33000 AND small > 500 ORDER BY 1";
    std::string expected = dump(query), expected_filtered = dump(filtered);
    EXPECT_NE(expected_filtered, "");
    auto analyzed = dump("EXPLAIN ANALYZE " + filtered);
    EXPECT_NE(analyzed.find("rows skipped by page index"), std::string::npos);
    EXPECT_EQ(analyzed.find("rows skipped by page index 0,"), std::string::npos) << analyzed;
    for (const char* threads : {"1", "2", "4"}) {
        connection.Query(std::string("SET threads = ") + threads);
        EXPECT_EQ(dump(query), expected) << threads;
        EXPECT_EQ(dump(filtered), expected_filtered) << threads;
    }
}
