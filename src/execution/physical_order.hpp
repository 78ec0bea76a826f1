#pragma once

#include "execution/row_operations.hpp"
#include "execution/sorted_run_merger.hpp"
#include "memory/memory_manager.hpp"
#include "memory/memory_statistics.hpp"
#include "memory/spill_file.hpp"
#include "parallel/pipeline.hpp"

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace sluice {

struct SortKey {
    idx_t column;
    bool descending = false;
    bool nulls_first = false;
};

// ORDER BY: collects its input, each task sorting its own rows; Finalize merges the sorted runs.
// With `limit` (ORDER BY ... LIMIT n, the top-N) each run keeps only its first n rows.
// When a task's rows no longer fit under memory_limit it sorts them and spills them as a run
// to the temporary directory; the result is then an external merge of the runs (several passes
// when there are more runs than merge cursors fit in memory), streamed by OrderSource.
class OrderSink : public PipelineSink {
public:
    std::string Name() const override { return "ORDER_BY"; }
    OrderSink(std::vector<LogicalType> types, std::vector<SortKey> keys, std::optional<idx_t> limit,
              MemoryManager* memory);

    // The share of the free memory the final merge's cursors may take (half by default): less
    // for a consumer that needs memory of its own while it reads the merge.
    void SetMergeMemoryShare(double share) { merge_memory_share_ = share; }

    std::unique_ptr<LocalState> InitLocal() override;
    SinkResult Sink(DataChunk& chunk, LocalState* local, idx_t batch_index) override;
    void Combine(LocalState* local) override;
    void Finalize() override;

    std::string ProfileDetails() const override;

    const std::vector<LogicalType>& types() const { return types_; }
    idx_t RowCount() const { return order_.size(); }
    // Rows [offset, offset + count) of the sorted result into `out`.
    void Scan(idx_t offset, idx_t count, DataChunk& out) const;
    // The runs were spilled: the result is read through merger() (one task) instead of Scan.
    bool external() const { return external_; }
    SortedRunMerger& merger() { return *merger_; }
    // The merge (external() only), for a consumer that reads the sorted rows more than once:
    // the first time the one Finalize made (whose memory the sink keeps reserved), then a new
    // one from the runs' first rows. One at a time.
    std::unique_ptr<SortedRunMerger> TakeMerger();

private:
    struct Run {
        std::vector<std::unique_ptr<DataChunk>> chunks;
        std::vector<RowLocation> order;
    };
    bool RowBefore(const DataChunk& left, idx_t a, const DataChunk& right, idx_t b) const;
    bool Less(const std::vector<std::unique_ptr<DataChunk>>& chunks, const RowLocation& a,
              const RowLocation& b) const {
        return RowBefore(*chunks[a.chunk], a.row, *chunks[b.chunk], b.row);
    }
    void SortRun(Run& run) const;
    // Writes a sorted run to a new spill file.
    std::unique_ptr<SpillFile> SpillRun(const Run& run);
    // Merges spilled runs until at most `fan_in` are left.
    void MergePasses(idx_t fan_in);
    std::string SpillReason() const;
    RowLess MergeOrder() const; // RowBefore, for the merger

    std::vector<LogicalType> types_;
    std::vector<SortKey> keys_;
    std::optional<idx_t> limit_;
    MemoryManager* memory_;
    std::mutex mutex_;
    std::vector<std::unique_ptr<MemoryReservation>> reservations_;
    std::vector<std::unique_ptr<Run>> runs_;
    // The merged result: rows of `chunks_` in order.
    std::shared_ptr<std::vector<std::unique_ptr<DataChunk>>> chunks_;
    std::vector<RowLocation> order_;
    // External sort: the spilled runs and, after Finalize, their merge.
    std::vector<std::unique_ptr<SpillFile>> spilled_;
    std::unique_ptr<SortedRunMerger> merger_;
    bool external_ = false;
    double merge_memory_share_ = 0.5;
    std::unique_ptr<MemoryReservation> merge_reservation_;
    MemoryStatistics statistics_;
    idx_t merge_passes_ = 0;
};

// Reads a finished OrderSink's rows in order from the first, a full chunk at a time (the last
// may be short): scanned from memory, or merged again from the runs on disk. Readers of one
// sink may follow one another, each seeing the same rows in the same order.
class SortedRows {
public:
    explicit SortedRows(OrderSink& sink);
    bool Next(DataChunk& out);

private:
    OrderSink& sink_;
    std::unique_ptr<SortedRunMerger> merger_;
    idx_t offset_ = 0;
};

// Emits the rows of a finished OrderSink in order, a chunk per call; batch indices keep the
// order however many tasks scan. A batch is kChunksPerBatch chunks in memory, a Parquet row
// group's worth (which COPY then encodes on the task that scanned it), one chunk of an external
// merge.
class OrderSource : public PipelineSource {
public:
    std::string Name() const override { return "ORDER_BY (scan)"; }
    explicit OrderSource(std::shared_ptr<OrderSink> sink) : sink_(std::move(sink)) {}

    std::vector<LogicalType> OutputTypes() const override { return sink_->types(); }
    std::unique_ptr<LocalState> InitLocal() override;
    SourceResult GetData(DataChunk& out, LocalState* local, TaskContext& context) override;
    idx_t MaxThreads() const override { return sink_->external() ? 1 : 64; }
    idx_t BatchIndex(LocalState* local) const override;

private:
    static constexpr idx_t kChunksPerBatch = 60; // 122,880 rows

    std::shared_ptr<OrderSink> sink_;
    std::atomic<idx_t> next_batch_{0};
};

} // namespace sluice
