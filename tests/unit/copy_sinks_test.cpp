#include "execution/csv_copy_sink.hpp"
#include "execution/parquet_copy_sink.hpp"
#include "main/sluice.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace sluice {
namespace {

// Rows [first, first + count) of x, a chunk of kVectorSize at most.
DataChunk Numbers(int64_t first, idx_t count) {
    DataChunk chunk({LogicalTypeId::BIGINT, LogicalTypeId::BIGINT, LogicalTypeId::BIGINT});
    for (idx_t row = 0; row < count; row++) {
        for (idx_t column = 0; column < 3; column++) {
            chunk.column(column).data<int64_t>()[row] = first + static_cast<int64_t>(row);
        }
    }
    chunk.SetSize(count);
    return chunk;
}

// One task begins batch 0 and stays on it while another sinks batches 1..fast_batches whole;
// then the first finishes. Every batch is `batch_chunks` chunks of consecutive numbers. Returns
// the rows sunk.
idx_t SinkBehindASlowTask(PipelineSink& sink, idx_t batch_chunks, idx_t fast_batches) {
    auto slow = sink.InitLocal();
    auto fast = sink.InitLocal();
    const idx_t batch_rows = batch_chunks * kVectorSize;
    auto sink_chunk = [&](LocalState* local, idx_t batch, idx_t chunk) {
        DataChunk rows =
            Numbers(static_cast<int64_t>(batch * batch_rows + chunk * kVectorSize), kVectorSize);
        sink.Sink(rows, local, batch);
    };
    sink_chunk(slow.get(), 0, 0);
    for (idx_t batch = 1; batch <= fast_batches; batch++) {
        for (idx_t chunk = 0; chunk < batch_chunks; chunk++) {
            sink_chunk(fast.get(), batch, chunk);
        }
    }
    sink.Combine(fast.get());
    for (idx_t chunk = 1; chunk < batch_chunks; chunk++) {
        sink_chunk(slow.get(), 0, chunk);
    }
    sink.Combine(slow.get());
    sink.Finalize();
    return (fast_batches + 1) * batch_rows;
}

// One task stays on batch 0 while another sinks 150 MB of later batches: they cannot be merged
// before batch 0 is done, and past the sink's limit they are written as row groups of their own.
// The file still holds every row once, in batch order.
TEST(ParquetCopySink, BatchesHeldPastTheLimitAreWrittenAloneAndStayInOrder) {
    auto path = std::filesystem::temp_directory_path() / "sluice_copy_sink_alone.parquet";
    parquet::ParquetWriteOptions options;
    options.row_group_size = 100000;
    ParquetCopySink sink(path.string(), {"x", "y", "z"},
                         {LogicalTypeId::BIGINT, LogicalTypeId::BIGINT, LogicalTypeId::BIGINT},
                         options, nullptr);
    // Batches of 102,400 rows, about 150 MB of copies in all.
    const idx_t total = SinkBehindASlowTask(sink, 50, 50);
    EXPECT_EQ(sink.rows_written(), total);

    Database database;
    Connection connection(database);
    connection.Query("SET threads = 1");
    std::string file = "'" + path.string() + "'";
    auto groups = connection.Query("SELECT count(*), min(row_group_num_rows) FROM "
                                   "parquet_metadata(" +
                                   file + ") WHERE column_id = 0");
    // Merged, the rows would make 53 row groups; batches written alone make more.
    EXPECT_GT(groups->GetValue(0, 0).GetInteger(), 60);
    auto order = connection.Query("SELECT count(*), sum(x), min(d), max(d) FROM (SELECT x, x - "
                                  "lag(x) OVER () AS d FROM " +
                                  file + ")");
    EXPECT_EQ(order->GetValue(0, 0).GetInteger(), static_cast<int64_t>(total));
    EXPECT_EQ(order->GetValue(1, 0).GetInteger(),
              static_cast<int64_t>(total) * static_cast<int64_t>(total - 1) / 2);
    EXPECT_EQ(order->GetValue(2, 0).GetInteger(), 1); // every row one after the one before
    EXPECT_EQ(order->GetValue(3, 0).GetInteger(), 1);
    std::filesystem::remove(path);
}

// The rows held count against memory_limit: at 4 MB, 10 MB of later batches (far below
// kHeldBytes) are cut alone too; the reservation is given back at the end.
TEST(ParquetCopySink, BatchesHeldPastMemoryLimitAreWrittenAlone) {
    auto path = std::filesystem::temp_directory_path() / "sluice_copy_sink_limit.parquet";
    parquet::ParquetWriteOptions options;
    options.row_group_size = 100000;
    auto row_groups = [&](idx_t limit) {
        Database database;
        database.memory().SetLimit(limit);
        {
            ParquetCopySink sink(
                path.string(), {"x", "y", "z"},
                {LogicalTypeId::BIGINT, LogicalTypeId::BIGINT, LogicalTypeId::BIGINT}, options,
                &database.memory());
            // Batches of 40,960 rows, about 10 MB of copies after the first.
            const idx_t total = SinkBehindASlowTask(sink, 20, 10);
            EXPECT_EQ(sink.rows_written(), total);
        }
        EXPECT_EQ(database.memory().used(), 0u);
        Connection connection(database);
        auto groups = connection.Query("SELECT count(*) FROM parquet_metadata('" + path.string() +
                                       "') WHERE column_id = 0");
        return groups->GetValue(0, 0).GetInteger();
    };
    EXPECT_EQ(row_groups(idx_t(1) << 30), 5); // 450,560 rows merged into full row groups
    EXPECT_GT(row_groups(4 << 20), 5);
    std::filesystem::remove(path);
}

// The same for CSV, whose text cannot be written out of order: past the limit it waits in a
// temporary file, and the file still holds every row once, in batch order.
TEST(CsvCopySink, TextHeldPastTheLimitWaitsOnDiskAndStaysInOrder) {
    auto path = std::filesystem::temp_directory_path() / "sluice_copy_sink_spill.csv";
    Database database;
    CsvCopySink sink(path.string(), {"x", "y", "z"}, csv::CsvWriteOptions(), &database.memory());
    // Batches of 204,800 rows, about 6 MB of text each.
    const idx_t total = SinkBehindASlowTask(sink, 100, 20);
    EXPECT_EQ(sink.rows_written(), total);
    EXPECT_GT(sink.spilled_bytes(), 0u);
    std::ifstream file(path);
    std::string line;
    std::getline(file, line);
    EXPECT_EQ(line, "x,y,z");
    idx_t expected = 0;
    while (std::getline(file, line)) {
        std::string number = std::to_string(expected);
        ASSERT_EQ(line, number + "," + number + "," + number) << "line " << expected + 2;
        expected++;
    }
    EXPECT_EQ(expected, total);
    std::filesystem::remove(path);
}

// Text held counts against memory_limit: at 4 MB it waits on disk though far below kHeldBytes.
TEST(CsvCopySink, TextHeldPastMemoryLimitWaitsOnDisk) {
    auto path = std::filesystem::temp_directory_path() / "sluice_copy_sink_limit.csv";
    auto temp = std::filesystem::temp_directory_path() / "sluice_copy_sink_limit_temp";
    auto spilled = [&](idx_t limit) {
        Database database;
        Connection connection(database);
        connection.Query("SET temp_directory = '" + temp.string() + "'");
        database.memory().SetLimit(limit);
        CsvCopySink sink(path.string(), {"x", "y", "z"}, csv::CsvWriteOptions(),
                         &database.memory());
        // Batches of 40,960 rows, about 1.2 MB of text each.
        const idx_t total = SinkBehindASlowTask(sink, 20, 10);
        EXPECT_EQ(sink.rows_written(), total);
        EXPECT_EQ(database.memory().used(), 0u);
        return sink.spilled_bytes();
    };
    EXPECT_EQ(spilled(idx_t(1) << 30), 0u);
    EXPECT_GT(spilled(4 << 20), 0u);
    std::filesystem::remove(path);
}

} // namespace
} // namespace sluice
