#pragma once

#include "execution/physical_order.hpp"
#include "execution/window_function.hpp"
#include "memory/memory_manager.hpp"
#include "memory/memory_statistics.hpp"
#include "parallel/pipeline.hpp"

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

namespace sluice {

// Window functions sharing one PARTITION BY and ORDER BY. The sink collects its input, each
// row copied into one of kBuckets buckets by the hash of its partition keys (all rows into one
// without PARTITION BY); WindowSource then computes the buckets in parallel, each sorted by
// partition and ORDER BY keys and every function evaluated over it. Output: the first
// `passthrough` input columns and one column per function, in no particular row order.
class WindowSink : public PipelineSink {
public:
    static constexpr idx_t kBuckets = 256;

    std::string Name() const override { return "WINDOW"; }
    WindowSink(std::vector<LogicalType> input_types, idx_t passthrough,
               std::vector<idx_t> partition_columns, std::vector<SortKey> order_keys,
               std::vector<WindowFunction> functions, MemoryManager* memory);

    std::unique_ptr<LocalState> InitLocal() override;
    SinkResult Sink(DataChunk& chunk, LocalState* local, idx_t batch_index) override;
    void Combine(LocalState* local) override;
    std::string ProfileDetails() const override;

    std::vector<LogicalType> OutputTypes() const;
    idx_t BucketCount() const { return buckets_.size(); }
    // Bucket `bucket`'s rows with their window values, in window order. Thread-safe.
    std::vector<std::unique_ptr<DataChunk>> ComputeBucket(idx_t bucket) const;

private:
    struct Entry {
        uint64_t hash;
        uint64_t prefix; // OrderPrefix of the first ORDER BY key
        RowLocation location;
    };
    // Sorts a bucket by partition (hash, then keys) and ORDER BY keys. `trust_hash`: rows with
    // equal hashes are taken to be one partition and ordered by prefix before their keys are
    // compared; ComputeBucket sorts again without it when two partitions share a hash.
    void SortBucket(const std::vector<std::unique_ptr<DataChunk>>& chunks,
                    std::vector<Entry>& entries, bool trust_hash) const;
    // Equal prefixes mean equal first keys (the key's type maps exactly, and the prefix is not
    // one a NULL shares).
    bool PrefixDecides(uint64_t prefix) const {
        return exact_prefix_ && prefix != 0 && prefix != ~uint64_t(0);
    }

    std::vector<LogicalType> input_types_;
    idx_t passthrough_;
    std::vector<idx_t> partition_columns_;
    std::vector<SortKey> order_keys_;
    std::vector<WindowFunction> functions_;
    bool exact_prefix_ = false; // the first ORDER BY key's OrderPrefix is one-to-one
    MemoryManager* memory_;
    MemoryStatistics statistics_;
    std::mutex mutex_;
    std::vector<std::unique_ptr<MemoryReservation>> reservations_;
    // A bucket's rows: with PARTITION BY copied into chunks of their own, so that sorting and
    // evaluating a bucket reads memory of its own; without, the input chunks as they came.
    struct Bucket {
        std::shared_ptr<std::vector<std::unique_ptr<DataChunk>>> chunks =
            std::make_shared<std::vector<std::unique_ptr<DataChunk>>>();
        std::vector<Entry> entries;
    };
    std::vector<Bucket> buckets_;
};

// Emits the rows of a finished WindowSink: each task computes a bucket at a time.
class WindowSource : public PipelineSource {
public:
    std::string Name() const override { return "WINDOW (scan)"; }
    explicit WindowSource(std::shared_ptr<WindowSink> sink) : sink_(std::move(sink)) {}

    std::vector<LogicalType> OutputTypes() const override { return sink_->OutputTypes(); }
    std::unique_ptr<LocalState> InitLocal() override;
    SourceResult GetData(DataChunk& out, LocalState* local, TaskContext& context) override;
    idx_t MaxThreads() const override { return 64; }
    double Progress() const override;

private:
    std::shared_ptr<WindowSink> sink_;
    std::atomic<idx_t> next_bucket_{0};
};

} // namespace sluice
