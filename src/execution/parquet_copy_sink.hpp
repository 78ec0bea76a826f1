#pragma once

#include "execution/ordered_batch_sink.hpp"
#include "formats/parquet/parquet_writer.hpp"
#include "memory/memory_manager.hpp"

#include <atomic>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace sluice {

// The sink of COPY (query) TO 'file.parquet' on as many tasks as the query runs on, the file's
// rows in the query's order and its row groups full all the same (as DuckDB's batch copy).
//
// Each task copies the rows of the batch it is producing; a finished batch is held until it is
// known what comes before it (BatchWatermark). Held batches below the watermark are cut, in order,
// into row groups of exactly `row_group_size` rows (the last one of the file excepted), and every
// row group cut is encoded by whichever task comes by next (each takes one per chunk it sinks, all
// once it has no rows left), so row groups are encoded in parallel and placed in the file as they
// are done; the footer, which alone says in what order row groups are read, lists them in order.
// Past kHeldBytes held above the watermark (a task slow on an early batch), or past what
// memory_limit allows, those batches are written as they are, cut alone: memory stays bounded,
// a few row groups come out short.
//
// Memory: about a row group of rows per task, and the rows held, cut and waiting to be encoded
// (counted against memory_limit). ParquetWriter's own streaming (one task) suits very large
// row groups: see kMaxRowGroupRows.
class ParquetCopySink : public OrderedBatchSink {
public:
    ParquetCopySink(std::string path, std::vector<std::string> names,
                    std::vector<LogicalType> types, parquet::ParquetWriteOptions options,
                    MemoryManager* memory);

    std::string Name() const override { return "COPY_TO_PARQUET"; }
    void Finalize() override;
    uint64_t rows_written() const { return writer_->rows_written(); }

    // Larger row groups are written by one task streaming (its rows are not held).
    static constexpr uint64_t kMaxRowGroupRows = 1 << 20;
    static constexpr idx_t kHeldBytes = 64 << 20;

private:
    // Where a row group goes in the file's order: the batch of its first row, then 0 if it
    // starts with the batch, else the row groups starting inside the batch, in order.
    struct Position {
        idx_t batch = 0;
        idx_t part = 0;
        bool operator<(const Position& other) const {
            return batch != other.batch ? batch < other.batch : part < other.part;
        }
    };
    struct Rows {
        std::vector<std::unique_ptr<DataChunk>> chunks;
        idx_t rows = 0;
        idx_t bytes = 0;
        void Add(std::unique_ptr<DataChunk> chunk);
    };
    struct Group {
        Position position;
        Rows rows;
    };
    struct Local;

    std::unique_ptr<TaskState> NewTaskState() override;
    void Append(DataChunk& chunk, TaskState& task) override;
    void FinishBatch(TaskState& task) override;
    void WatermarkMoved() override { CutGroups(false); }
    void AfterWatermarkMoved(bool task_done) override;
    // Under mutex_: cuts the complete held batches into row groups ready to encode (`final`:
    // all of them, the last row group short).
    void CutGroups(bool final);
    // Under mutex_: appends `batch`'s rows to the group being cut.
    void Cut(idx_t batch, Rows rows);
    // Under mutex_: appends `batch`'s rows to `group`, readying each that fills; a group that
    // starts inside the batch is placed after the `parts` already started there.
    void CutInto(idx_t batch, Rows rows, Group& group, idx_t& parts);
    void Ready(Group group); // under mutex_
    // Under mutex_: the reservation made the bytes held, cut and ready (past the limit if
    // need be: they are needed to progress).
    void Account();
    // Encodes up to `most` ready row groups and places them in the file.
    void EncodeReady(idx_t most);

    parquet::WriteSchema schema_;
    parquet::ParquetWriteOptions options_;
    parquet::ColumnEncodeOptions column_options_;

    // Under mutex_:
    std::unique_ptr<parquet::ParquetWriter> writer_;
    std::vector<Position> placed_; // each row group appended, in file order
    std::map<idx_t, Rows> held_;   // complete batches not cut yet
    idx_t held_bytes_ = 0;
    std::set<idx_t> alone_; // batches cut alone: the group being cut ends before them
    // The row group being cut, from the complete batches in order.
    Group cutting_;
    idx_t last_cut_batch_ = 0;
    std::deque<Group> ready_; // cut, to be encoded
    idx_t ready_bytes_ = 0;
    MemoryReservation reservation_;
    std::atomic<idx_t> ready_count_{0};
};

} // namespace sluice
