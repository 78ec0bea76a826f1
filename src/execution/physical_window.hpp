#pragma once

#include "execution/physical_order.hpp"
#include "execution/window_evaluator.hpp"
#include "execution/window_function.hpp"
#include "memory/memory_manager.hpp"
#include "memory/memory_statistics.hpp"
#include "memory/spill_file.hpp"
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
//
// Without PARTITION BY, once the rows outgrow memory_limit they go to an external sort
// (OrderSink) by the ORDER BY keys and their input order instead: the sorted rows are read
// twice, first keeping only the columns the functions read (evaluated in memory), then whole,
// each row joined with its results as it streams out.
class WindowSink : public PipelineSink {
public:
    static constexpr idx_t kBuckets = 256;
    // A bucket's sort first splits it into this many ranges by hash (a counting pass).
    static constexpr idx_t kRadixRanges = 2048;

    std::string Name() const override { return "WINDOW"; }
    WindowSink(std::vector<LogicalType> input_types, idx_t passthrough,
               std::vector<idx_t> partition_columns, std::vector<SortKey> order_keys,
               std::vector<WindowFunction> functions, MemoryManager* memory);

    std::unique_ptr<LocalState> InitLocal() override;
    SinkResult Sink(DataChunk& chunk, LocalState* local, idx_t batch_index) override;
    void Combine(LocalState* local) override;
    void Finalize() override;
    std::string ProfileDetails() const override;

    std::vector<LogicalType> OutputTypes() const;
    idx_t BucketCount() const { return buckets_.size(); }
    // A reservation for the rows of a computed bucket, in this sink's statistics.
    std::unique_ptr<MemoryReservation> BucketReservation();
    // Bucket `bucket`'s rows with their window values, in window order. Thread-safe; each
    // bucket is computed once (its entries are taken).
    std::vector<std::unique_ptr<DataChunk>> ComputeBucket(idx_t bucket);

    // A bucket laid out, its passthrough columns gathered into `output` in window order and
    // some functions evaluated into it.
    struct ComputedBucket {
        std::shared_ptr<std::vector<std::unique_ptr<DataChunk>>> owner; // the rows
        WindowLayout layout;
        std::vector<std::unique_ptr<DataChunk>> output;
    };
    // ComputeBucket in two steps, for one partition computed by several tasks: sorts and lays
    // out the bucket and evaluates the functions that cannot be computed in ranges of positions
    // (all of them, and the passthrough columns gathered, unless `defer_ranges`), ...
    void PrepareBucket(idx_t bucket, bool defer_ranges, ComputedBucket& computed);
    // ... then the passthrough columns and the other functions over positions [begin, end)
    // (whole output chunks): ranges apart may be computed at once.
    void EvaluateRange(ComputedBucket& computed, idx_t begin, idx_t end) const;
    // Whether some function can be computed in ranges (EvaluatesInRanges).
    bool AnyInRanges() const;

    // The rows went to the external sort (one partition larger than memory): read through
    // EvaluateSorted by one task instead of ComputeBucket.
    bool external() const { return external_.load(); }
    // The sorted rows (the input's columns, then the two of input order) and, per full chunk of
    // them in the same order, the functions' results.
    struct SortedResults {
        std::vector<LogicalType> types; // of the sorted rows
        std::vector<std::unique_ptr<DataChunk>> results;
        std::unique_ptr<SortedRows> rows;
    };
    // Evaluates the functions over the external sort's rows; `reservation` then holds the memory
    // of the results.
    SortedResults EvaluateSorted(MemoryReservation& reservation);

private:
    // The first ORDER BY keys whose OrderPrefix an entry carries.
    static constexpr idx_t kPrefixKeys = 2;
    struct Entry {
        uint64_t hash;
        uint64_t prefix[kPrefixKeys]; // OrderPrefix of the first ORDER BY keys
        RowLocation location;
    };
    // Sorts a bucket by partition (hash, then keys) and ORDER BY keys. `trust_hash`: rows with
    // equal hashes are taken to be one partition and ordered by prefix before their keys are
    // compared; ComputeBucket sorts again without it when two partitions share a hash. Ties
    // follow the input (ArrivedBefore).
    // EntryBefore trusting the hash, the comparisons most end at (the hash, the first two
    // prefixes: a date, then an id within it) inline.
    struct EntryLess {
        const WindowSink& sink;
        const std::vector<std::unique_ptr<DataChunk>>& chunks;
        const std::vector<idx_t>* chunk_batches;
        bool operator()(const Entry& a, const Entry& b) const {
            if (a.hash != b.hash) {
                return a.hash < b.hash;
            }
            if (a.prefix[0] != b.prefix[0]) {
                return a.prefix[0] < b.prefix[0];
            }
            if (sink.prefix_keys_ > 1 && a.prefix[1] != b.prefix[1] &&
                sink.PrefixDecides(0, a.prefix[0])) {
                return a.prefix[1] < b.prefix[1];
            }
            return sink.EntryBefore(chunks, a, b, true, chunk_batches);
        }
    };
    void SortBucket(const std::vector<std::unique_ptr<DataChunk>>& chunks,
                    std::vector<Entry>& entries, bool trust_hash,
                    const std::vector<idx_t>* chunk_batches) const;
    bool EntryBefore(const std::vector<std::unique_ptr<DataChunk>>& chunks, const Entry& a,
                     const Entry& b, bool trust_hash,
                     const std::vector<idx_t>* chunk_batches) const;
    // Input order: by the batch index of the rows' chunks when known, then as they arrived.
    static bool ArrivedBefore(const Entry& a, const Entry& b,
                              const std::vector<idx_t>* chunk_batches);
    void SetPrefixes(const std::vector<std::unique_ptr<DataChunk>>& chunks,
                     std::vector<Entry>& entries) const;
    // Equal prefixes of key `key` mean equal keys (its type maps exactly, and the prefix is not
    // one a NULL shares).
    bool PrefixDecides(idx_t key, uint64_t prefix) const {
        return exact_prefix_[key] && prefix != 0 && prefix != ~uint64_t(0);
    }
    // Lays out a sorted bucket's partitions and peer groups. With `trust_hash`, false when two
    // partitions turn out to share a hash (the bucket must be sorted by its keys then).
    bool LayOut(const std::vector<std::unique_ptr<DataChunk>>& chunks,
                const std::vector<Entry>& entries, bool trust_hash, WindowLayout& layout) const;
    // Whether two entries' rows are equal in `columns` (NULL equal to NULL).
    static bool SameKeys(const std::vector<std::unique_ptr<DataChunk>>& chunks,
                         const std::vector<idx_t>& columns, const Entry& a, const Entry& b);
    // Whether the entries at `a` and `b` of a sorted bucket are peers in the ORDER BY keys.
    bool Peers(const std::vector<std::unique_ptr<DataChunk>>& chunks, const Entry& a,
               const Entry& b) const;
    // Output chunk `chunk` of a computed bucket, its size set.
    void NewOutputChunk(ComputedBucket& computed, idx_t chunk) const;
    // The passthrough columns of output chunk `chunk`, gathered in window order.
    void GatherPassthrough(ComputedBucket& computed, idx_t chunk) const;
    // The functions over positions [begin, end) of `layout` into `output`, the first
    // function's column `first_column`: all of them, or only those computed (or not) in ranges.
    enum class Deferral : uint8_t { None, NotInRanges, OnlyInRanges };
    void EvaluateFunctions(const WindowLayout& layout,
                           std::vector<std::unique_ptr<DataChunk>>& output, idx_t first_column,
                           Deferral deferral = Deferral::None, idx_t begin = 0,
                           idx_t end = ~idx_t(0)) const;

    // The external sort's input: a task's rows so far, then each chunk as it comes.
    void HandToSort(LocalState& local);
    void AppendToSort(LocalState& local, const DataChunk& chunk, idx_t batch_index);
    // Adds the last of `chunks` to `layout`, rows in window order of one partition.
    void LayOutSorted(const std::vector<std::unique_ptr<DataChunk>>& chunks,
                      WindowLayout& layout) const;
    // The columns the functions read: ORDER BY keys, arguments, filters, frame offsets.
    std::vector<bool> ColumnsEvaluated() const;

    std::vector<LogicalType> input_types_;
    idx_t passthrough_;
    std::vector<idx_t> partition_columns_;
    std::vector<SortKey> order_keys_;
    std::vector<WindowFunction> functions_;
    idx_t prefix_keys_ = 0;               // ORDER BY keys with a prefix in entries
    bool exact_prefix_[kPrefixKeys] = {}; // whose OrderPrefix is one-to-one
    MemoryManager* memory_;
    mutable MemoryStatistics statistics_; // read-back counted by the const ReadBackBucket
    std::mutex mutex_;
    std::vector<std::unique_ptr<MemoryReservation>> reservations_;
    // A bucket's rows: with PARTITION BY copied into chunks of their own, so that sorting and
    // evaluating a bucket reads memory of its own; without, the input chunks as they came.
    struct Bucket {
        std::shared_ptr<std::vector<std::unique_ptr<DataChunk>>> chunks =
            std::make_shared<std::vector<std::unique_ptr<DataChunk>>>();
        std::vector<Entry> entries;
        // Without PARTITION BY: each task's sorted run (instead of `entries`), and each
        // chunk's batch index.
        std::vector<std::vector<Entry>> runs;
        std::vector<idx_t> chunk_batches;
        // Rows spilled once the input outgrew memory_limit; read back when computed.
        std::unique_ptr<SpillFile> spill;
    };
    // Write buffer of each bucket's spill file: small, as there are many.
    static constexpr size_t kSpillBuffer = 16 << 10;
    // Moves a task's buckets to their spill files (with PARTITION BY only).
    void SpillBuckets(LocalState& local);
    // A spilled bucket's rows, in memory and on disk, as chunks and `entries` over them.
    std::shared_ptr<std::vector<std::unique_ptr<DataChunk>>>
    ReadBackBucket(idx_t bucket, std::vector<Entry>& entries) const;
    std::atomic<bool> spilled_{false};
    std::vector<Bucket> buckets_;
    // Without PARTITION BY: the external sort, by the ORDER BY keys, then the batch index and
    // the place in its task's input (two BIGINT columns after the input's).
    std::unique_ptr<OrderSink> sort_;
    std::atomic<bool> external_{false};
};

// Emits the rows of a finished WindowSink: each task computes a bucket at a time. One partition
// (without PARTITION BY) is one bucket: the first task sorts and lays it out while the others
// wait (parked), then every task takes ranges of its positions to evaluate and emit.
class WindowSource : public PipelineSource {
public:
    std::string Name() const override { return "WINDOW (scan)"; }
    explicit WindowSource(std::shared_ptr<WindowSink> sink) : sink_(std::move(sink)) {}

    std::vector<LogicalType> OutputTypes() const override { return sink_->OutputTypes(); }
    std::unique_ptr<LocalState> InitLocal() override;
    SourceResult GetData(DataChunk& out, LocalState* local, TaskContext& context) override;
    idx_t MaxThreads() const override { return sink_->external() ? 1 : 64; }
    double Progress() const override;

private:
    // Positions per range of one partition: small enough to share out evenly.
    static constexpr idx_t kRangeRows = 64 * kVectorSize;

    // The next bucket computed into the task's pending chunks.
    SourceResult NextBucket(LocalState& local);
    // One partition: the next range evaluated into the task's pending chunks.
    SourceResult NextRange(LocalState& local, TaskContext& context);
    // After an external sort: the one task evaluates, then streams the rows with the results.
    SourceResult GetSorted(DataChunk& out, LocalState& local);

    std::shared_ptr<WindowSink> sink_;
    std::atomic<idx_t> next_bucket_{0};

    struct OnePartition {
        std::mutex mutex;
        bool preparing = false;
        bool ready = false;  // laid out (or failed)
        bool failed = false; // the task preparing it threw (the query fails with its error)
        std::vector<Waker> waiting;
        WindowSink::ComputedBucket bucket;
        idx_t ranges = 0;
        std::atomic<idx_t> next_range{0};
        std::atomic<idx_t> ranges_done{0};
        std::unique_ptr<MemoryReservation> reservation; // of the output
    };
    OnePartition one_;
};

} // namespace sluice
