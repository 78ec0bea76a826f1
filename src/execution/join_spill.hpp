#pragma once

#include "common/data_chunk.hpp"
#include "execution/join_hash_table.hpp"
#include "memory/memory_manager.hpp"
#include "memory/spill_file.hpp"

#include <atomic>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace sluice {

// The partitions of a hash join whose build side did not fit under memory_limit (a hybrid
// grace hash join). Build rows are split by key hash into kPartitions spill files; after the
// build, the partitions that fit are loaded into the join's table and probed as usual, and probe
// rows of the others are appended to those partitions' probe files. Once every probe is done,
// each partition left on disk is joined on its own: its build rows loaded into a table of their
// own, its probe rows read back and probed (the continuation pipeline). A partition whose build
// rows alone do not fit is split again by the next bits of the hash, up to kMaxLevel times (only
// rows of one key, which no split separates, are then admitted past the limit).
// Thread-safe.
class JoinSpill {
public:
    static constexpr idx_t kPartitions = 32;
    static constexpr idx_t kMaxLevel = 3;
    // Level 0 partitions by hash bits 40-44, level 1 by bits 45-49, and so on.
    static idx_t PartitionOf(uint64_t hash, idx_t level = 0) {
        return (hash >> (40 + 5 * level)) & (kPartitions - 1);
    }

    // A partition on disk: its build rows ([keys..., payload...]) and the probe rows whose keys
    // hash to it.
    struct Part {
        std::unique_ptr<SpillFile> build;
        std::unique_ptr<SpillFile> probe;
        idx_t level = 0;
    };
    // Hashes the probe keys of a chunk of probe input (as the probe does).
    using ProbeHasher = std::function<void(DataChunk& probe_input, uint64_t* hashes)>;

    // `build_types`: [keys..., payload...] of the build chunks; `probe_types`: the probe input;
    // `emits_unmatched_build`: a right or full join, whose parts without probe rows still count.
    JoinSpill(MemoryManager& memory, idx_t key_count, std::vector<LogicalType> build_types,
              std::vector<LogicalType> probe_types, bool emits_unmatched_build);

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

    // Continuation: claims the next part left on disk (the partitions not resident, then the
    // parts split from those too large); null when none is left.
    std::shared_ptr<Part> NextPart();
    // A table over the build rows of `part`, with the build side's facts, reserved in
    // `reservation`. When they do not fit and the part can still be split, it is split into
    // kPartitions parts by the next hash bits (its probe rows hashed by `probe_hasher`), which
    // NextPart hands out, and null is returned.
    std::shared_ptr<JoinHashTable> LoadPart(Part& part, MemoryReservation& reservation,
                                            const ProbeHasher& probe_hasher);
    const std::vector<LogicalType>& probe_types() const { return probe_types_; }
    MemoryStatistics& statistics() { return statistics_; }
    // Parts that were split again because their build rows alone did not fit.
    uint64_t splits() const { return splits_.load(); }

private:
    std::vector<std::unique_ptr<DataChunk>> ReadBuild(const Part& part);
    // Appends the rows of `chunk` (those not in `skip`) to the files of their partition at
    // `level` (build or probe files of `parts`).
    void Append(std::vector<std::shared_ptr<Part>>& parts, bool build, const DataChunk& chunk,
                const uint64_t* hashes, const bool* skip, idx_t level);
    std::vector<std::shared_ptr<Part>> NewParts(idx_t level);
    void Split(Part& part, const ProbeHasher& probe_hasher);
    void HashBuildKeys(const DataChunk& chunk, uint64_t* hashes) const;

    MemoryManager& memory_;
    idx_t key_count_;
    std::vector<LogicalType> build_types_;
    std::vector<LogicalType> probe_types_;
    bool emits_unmatched_build_;
    std::vector<std::shared_ptr<Part>> partitions_; // level 0
    MemoryReservation buffers_;                     // the level-0 files' write buffers
    std::vector<bool> resident_;
    std::atomic<uint64_t> build_rows_{0};
    std::atomic<bool> build_has_null_key_{false};
    std::mutex mutex_;
    std::deque<std::shared_ptr<Part>> pending_; // under mutex_
    std::atomic<uint64_t> splits_{0};
    MemoryStatistics statistics_;
};

} // namespace sluice
