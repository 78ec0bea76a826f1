#include "execution/parquet_copy_sink.hpp"
#include "main/sluice.hpp"

#include <gtest/gtest.h>

#include <filesystem>

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

// One task stays on batch 0 while another sinks 100 MB of later batches: they cannot be merged
// before batch 0 is done, and past the sink's limit they are written as row groups of their own.
// The file still holds every row once, in batch order.
TEST(ParquetCopySink, BatchesHeldPastTheLimitAreWrittenAloneAndStayInOrder) {
    auto path = std::filesystem::temp_directory_path() / "sluice_copy_sink_alone.parquet";
    parquet::ParquetWriteOptions options;
    options.row_group_size = 100000;
    ParquetCopySink sink(path.string(), {"x", "y", "z"},
                         {LogicalTypeId::BIGINT, LogicalTypeId::BIGINT, LogicalTypeId::BIGINT},
                         options);
    auto slow = sink.InitLocal();
    auto fast = sink.InitLocal();
    constexpr idx_t kBatchRows = 50 * kVectorSize; // a batch of 102,400 rows
    constexpr idx_t kFastBatches = 50;             // about 150 MB of copies
    auto sink_batch = [&](LocalState* local, idx_t batch) {
        for (idx_t chunk = 0; chunk < kBatchRows / kVectorSize; chunk++) {
            DataChunk rows = Numbers(static_cast<int64_t>(batch * kBatchRows + chunk * kVectorSize),
                                     kVectorSize);
            sink.Sink(rows, local, batch);
        }
    };
    DataChunk first = Numbers(0, kVectorSize);
    sink.Sink(first, slow.get(), 0); // batch 0 begun, not finished
    for (idx_t batch = 1; batch <= kFastBatches; batch++) {
        sink_batch(fast.get(), batch);
    }
    sink.Combine(fast.get());
    for (idx_t chunk = 1; chunk < kBatchRows / kVectorSize; chunk++) {
        DataChunk rows = Numbers(static_cast<int64_t>(chunk * kVectorSize), kVectorSize);
        sink.Sink(rows, slow.get(), 0);
    }
    sink.Combine(slow.get());
    sink.Finalize();
    const idx_t total = (kFastBatches + 1) * kBatchRows;
    EXPECT_EQ(sink.rows_written(), total);

    Database database;
    Connection connection(database);
    connection.Query("SET threads = 1");
    std::string file = "'" + path.string() + "'";
    auto groups = connection.Query("SELECT count(*), min(row_group_num_rows) FROM "
                                   "parquet_metadata(" +
                                   file + ") WHERE column_id = 0");
    // Merged full row groups would be 6 (and a short one); batches written alone are more.
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

} // namespace
} // namespace sluice
