#pragma once

#include "execution/aggregate_hash_table.hpp"
#include "memory/memory_manager.hpp"
#include "parallel/pipeline.hpp"

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

namespace sluice {

// The sink of GROUP BY (and of aggregates without GROUP BY, and DISTINCT): each task aggregates
// into its own hash table; Finalize folds them into one, which AggregateResultSource scans.
// When a task's table cannot grow under memory_limit, its groups are spilled, partition by
// partition of the key hash, and it starts an empty table; the result is then merged one
// partition at a time from the spilled groups (radix-partitioned aggregation).
class HashAggregateSink : public PipelineSink {
public:
    std::string Name() const override { return "HASH_GROUP_BY"; }
    // Input chunks hold the key columns, then the aggregates' arguments (`argument_columns`).
    HashAggregateSink(std::vector<LogicalType> key_types, std::vector<AggregateFunction> aggregates,
                      std::vector<std::vector<idx_t>> argument_columns, MemoryManager* memory);

    std::unique_ptr<LocalState> InitLocal() override;
    SinkResult Sink(DataChunk& chunk, LocalState* local, idx_t batch_index) override;
    void Combine(LocalState* local) override;
    void Finalize() override;
    std::string ProfileDetails() const override { return statistics_.Render(); }

    std::vector<LogicalType> OutputTypes() const;
    // Small results are merged into one table by Finalize; large ones are merged partition by
    // partition, in parallel, by the tasks that scan them.
    bool partitioned() const { return partition_count_ > 0; }
    MemoryManager* memory() const { return memory_; }
    idx_t partition_count() const { return partition_count_; }
    const AggregateHashTable& result() const { return *tables_.front(); }
    // Merges every task's groups of partition `partition` into a new table.
    std::unique_ptr<AggregateHashTable> MergePartition(idx_t partition);
    MemoryStatistics& statistics() { return statistics_; }

private:
    // One table's groups on disk, partition p's chunks between offsets[p] and offsets[p + 1].
    struct SpilledTable {
        std::unique_ptr<SpillFile> file;
        std::vector<uint64_t> offsets;
    };
    bool CanSpill(const AggregateHashTable& table) const;
    SpilledTable Spill(AggregateHashTable& table);

    std::vector<LogicalType> key_types_;
    std::shared_ptr<const std::vector<AggregateFunction>> aggregates_;
    std::vector<std::vector<idx_t>> argument_columns_;
    std::mutex mutex_;
    // Every task's table stays alive until the query ends: min/max states may point into the
    // string memory of the table they came from.
    std::vector<std::unique_ptr<AggregateHashTable>> tables_;
    MemoryManager* memory_;
    std::vector<std::unique_ptr<MemoryReservation>> reservations_; // one per table
    idx_t partition_count_ = 0;
    std::vector<std::vector<std::vector<uint32_t>>> partition_groups_; // [table][partition]
    std::vector<SpilledTable> spilled_; // under mutex_ until Finalize
    MemoryStatistics statistics_;
};

// Scans the groups of a finished HashAggregateSink, a chunk of groups per call, in parallel.
class AggregateResultSource : public PipelineSource {
public:
    std::string Name() const override { return "HASH_GROUP_BY (scan)"; }
    explicit AggregateResultSource(std::shared_ptr<HashAggregateSink> sink)
        : sink_(std::move(sink)) {}

    std::vector<LogicalType> OutputTypes() const override { return sink_->OutputTypes(); }
    std::unique_ptr<LocalState> InitLocal() override;
    SourceResult GetData(DataChunk& out, LocalState* local, TaskContext& context) override;
    idx_t MaxThreads() const override { return 64; }
    idx_t BatchIndex(LocalState* local) const override;

private:
    SourceResult ScanPartitions(DataChunk& out, LocalState* local);

    std::shared_ptr<HashAggregateSink> sink_;
    std::atomic<idx_t> next_chunk_{0};
    std::atomic<idx_t> next_partition_{0};
};

} // namespace sluice
