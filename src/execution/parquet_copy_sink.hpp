#pragma once

#include "formats/parquet/parquet_writer.hpp"
#include "parallel/pipeline.hpp"

#include <atomic>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace sluice {

// The sink of COPY (query) TO 'file.parquet' on as many tasks as the query runs on, the file's
// rows in the query's order and its row groups full all the same (as DuckDB's batch copy).
//
// Each task copies the rows of the batch it is producing; a finished batch is held until it is
// known what comes before it. Sources hand batches out in increasing order and each task takes
// them in that order, so every batch below the lowest one a running task is on is complete (the
// watermark). Held batches below it are cut, in order, into row groups of exactly
// `row_group_size` rows (the last one of the file excepted), and every row group cut is encoded
// by whichever task comes by next (each takes one per chunk it sinks, all once it has no rows
// left), so row groups are encoded in parallel and placed in the file as they are done; the
// footer, which alone says in what order row groups are read, lists them in order. Past
// kHeldBytes held above the watermark (a task slow on an early batch), those batches are
// written as they are, cut alone: memory stays bounded, a few row groups come out short.
//
// Memory: about a row group of rows per task, and the batches held. ParquetWriter's own
// streaming (one task) suits very large row groups: see kMaxRowGroupRows.
class ParquetCopySink : public PipelineSink {
public:
    ParquetCopySink(std::string path, std::vector<std::string> names,
                    std::vector<LogicalType> types, parquet::ParquetWriteOptions options);

    std::string Name() const override { return "COPY_TO_PARQUET"; }
    std::unique_ptr<LocalState> InitLocal() override;
    SinkResult Sink(DataChunk& chunk, LocalState* local, idx_t batch_index) override;
    void Combine(LocalState* local) override;
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

    void FinishBatch(Local& local);
    // Under mutex_: the lowest batch a running task is on (all below it are complete).
    idx_t Watermark() const;
    // Under mutex_: cuts the complete held batches into row groups ready to encode (`final`:
    // all of them, the last row group short).
    void CutGroups(bool final);
    // Under mutex_: appends `batch`'s rows to the group being cut.
    void Cut(idx_t batch, Rows rows);
    void Ready(Group group); // under mutex_
    // Encodes up to `most` ready row groups and places them in the file.
    void EncodeReady(idx_t most);

    parquet::WriteSchema schema_;
    parquet::ParquetWriteOptions options_;
    parquet::ColumnEncodeOptions column_options_;

    std::mutex mutex_;
    std::unique_ptr<parquet::ParquetWriter> writer_;
    std::vector<Position> placed_; // each row group appended, in file order
    std::vector<Local*> running_;  // tasks that have not combined
    std::map<idx_t, Rows> held_;   // complete batches not cut yet
    idx_t held_bytes_ = 0;
    std::set<idx_t> alone_; // batches cut alone: the group being cut ends before them
    // The row group being cut, from the complete batches in order.
    Group cutting_;
    bool cut_any_ = false;
    idx_t last_cut_batch_ = 0;
    idx_t parts_in_last_batch_ = 0; // row groups started inside it
    std::deque<Group> ready_;       // cut, to be encoded
    std::atomic<idx_t> ready_count_{0};
};

} // namespace sluice
