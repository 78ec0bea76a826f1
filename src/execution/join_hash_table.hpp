#pragma once

#include "common/data_chunk.hpp"
#include "execution/row_operations.hpp"

#include <memory>
#include <mutex>
#include <vector>

namespace sluice {

// The build side of a hash join: the build rows as chunks of [key columns..., payload columns...]
// and a chained hash index over the rows whose keys are all non-NULL (NULL never equals).
class JoinHashTable {
public:
    JoinHashTable(idx_t key_count, std::vector<LogicalType> types)
        : key_count_(key_count), types_(std::move(types)) {}

    // Thread-safe: takes a finished task's chunks.
    void Append(std::vector<std::unique_ptr<DataChunk>> chunks);
    // Builds the index once every chunk is in.
    void Build();
    // Hands the rows appended so far back (before Build), leaving the table empty.
    std::vector<std::unique_ptr<DataChunk>> TakeChunks();

    idx_t key_count() const { return key_count_; }
    const std::vector<LogicalType>& types() const { return types_; }
    const std::vector<std::unique_ptr<DataChunk>>& chunks() const { return chunks_; }
    bool empty() const { return row_count_ == 0; }
    idx_t RowCount() const { return row_count_; }
    // The bytes the index over `rows` rows takes.
    static idx_t IndexMemory(idx_t rows);
    // Some build row has a NULL key (IN then yields NULL instead of false).
    bool has_null_key() const { return has_null_key_; }
    // The whole build side has no rows (the table may hold one partition of it).
    bool BuildSideEmpty() const { return build_rows_ == 0; }
    // A table holding part of the build side (a spilled join's partition) learns the facts
    // of the whole: its row count and whether any key was NULL.
    void SetBuildFacts(idx_t rows, bool has_null_key) {
        build_rows_ = rows;
        has_null_key_ = has_null_key;
    }

    // The first entry (1-based; 0: none) of the chain `hash` falls in, and the entry after `entry`.
    uint32_t FirstEntry(uint64_t hash) const { return heads_[hash & mask_]; }
    void PrefetchChain(uint64_t hash) const { __builtin_prefetch(&heads_[hash & mask_]); }
    void PrefetchEntry(uint32_t entry) const {
        if (entry != 0) {
            __builtin_prefetch(&entries_[entry - 1]);
        }
    }
    uint32_t NextEntry(uint32_t entry) const { return entries_[entry - 1].next; }
    uint64_t EntryHash(uint32_t entry) const { return entries_[entry - 1].hash; }
    const RowLocation& EntryRow(uint32_t entry) const { return entries_[entry - 1].row; }
    // The build row of `entry` has keys equal to row `row` of `keys`.
    bool KeysEqual(uint32_t entry, const std::vector<const Vector*>& keys, idx_t row) const;

private:
    idx_t key_count_;
    std::vector<LogicalType> types_;
    std::mutex mutex_;
    std::vector<std::unique_ptr<DataChunk>> chunks_;
    idx_t row_count_ = 0;
    idx_t build_rows_ = 0; // of the whole build side
    bool has_null_key_ = false;

    // One entry per build row with non-NULL keys; a chain's entries in one array, so that
    // following a chain touches one cache line per entry.
    struct Entry {
        uint64_t hash;
        RowLocation row;
        uint32_t next; // 1-based; 0 ends the chain
    };
    std::vector<uint32_t> heads_;
    std::vector<Entry> entries_;
    std::vector<RowsEqualFunction> key_equal_;
    uint64_t mask_ = 0;
};

} // namespace sluice
