#pragma once

#include "common/data_chunk.hpp"
#include "execution/join_hash_table.hpp"
#include "memory/memory_manager.hpp"
#include "memory/spill_file.hpp"

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

namespace sluice {

// The partitions of a hash join whose build side did not fit under memory_limit (a hybrid
// grace hash join). Build rows are split by key hash into kPartitions spill files; after the
// build, the partitions that fit are loaded into the join's table and probed as usual, and probe
// rows of the others are appended to those partitions' probe files. Once every probe is done,
// each partition left on disk is joined on its own: its build rows loaded into a table of their
// own, its probe rows read back and probed (JoinSpilledPartitions, the continuation pipeline).
// Thread-safe.
class JoinSpill {
public:
    static constexpr idx_t kPartitions = 32;
    static idx_t PartitionOf(uint64_t hash) { return (hash >> 40) & (kPartitions - 1); }

    // `build_types`: [keys..., payload...] of the build chunks; `probe_types`: the probe input.
    JoinSpill(MemoryManager& memory, idx_t key_count, std::vector<LogicalType> build_types,
              std::vector<LogicalType> probe_types);

    // Build side: the rows of `chunk` to their partitions' files.
    void AppendBuild(const DataChunk& chunk);
    // After the build: loads partitions into `table` (in order, while they fit in `budget`
    // bytes); the rest stay on disk. Sets the table's facts about the whole build side.
    void LoadResident(JoinHashTable& table, idx_t budget, MemoryReservation& reservation);
    bool resident(idx_t partition) const { return resident_[partition]; }

    // Probe side: rows of `chunk` whose (non-NULL) keys hash to a partition on disk go to that
    // partition's probe file. Returns in `keep` the rows to probe now; their count.
    idx_t DeferProbeRows(const DataChunk& chunk, const uint64_t* hashes, const bool* key_null,
                         idx_t* keep);

    // Continuation: claims the next partition left on disk; false when none is left.
    bool NextPartition(idx_t& partition);
    // A table over the build rows of `partition`, with the build side's facts.
    std::shared_ptr<JoinHashTable> LoadPartition(idx_t partition, MemoryReservation& reservation);
    const SpillFile& probe_file(idx_t partition) const { return *probe_[partition]; }
    const std::vector<LogicalType>& probe_types() const { return probe_types_; }
    MemoryStatistics& statistics() { return statistics_; }

private:
    std::vector<std::unique_ptr<DataChunk>> ReadBuild(idx_t partition);
    void Append(std::vector<std::unique_ptr<SpillFile>>& files, const DataChunk& chunk,
                const uint64_t* hashes, const bool* skip);

    idx_t key_count_;
    std::vector<LogicalType> build_types_;
    std::vector<LogicalType> probe_types_;
    std::vector<std::unique_ptr<SpillFile>> build_;
    std::vector<std::unique_ptr<SpillFile>> probe_;
    MemoryReservation buffers_; // the files' write buffers
    std::vector<bool> resident_;
    std::atomic<uint64_t> build_rows_{0};
    std::atomic<bool> build_has_null_key_{false};
    std::atomic<idx_t> next_partition_{0};
    MemoryStatistics statistics_;
};

} // namespace sluice
