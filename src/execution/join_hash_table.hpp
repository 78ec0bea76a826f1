#pragma once

#include "common/data_chunk.hpp"
#include "execution/row_operations.hpp"
#include "memory/huge_page_allocator.hpp"

#include <atomic>
#include <cstring>
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
    // The chain heads of an index over `rows` rows (a power of two).
    static idx_t BucketCount(idx_t rows);
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
    // One integer key whose values span no more than the buckets a hashed table would have:
    // the heads are indexed by the key itself (its chain holds only that key), and probes look
    // them up with FirstEntryOfKey, without hashing.
    bool perfect() const { return perfect_; }
    uint64_t KeyRange() const { return key_range_; }
    uint32_t FirstEntryOfKey(const Vector& keys, idx_t row) const {
        uint64_t at = InlineKey(keys, row) - key_min_;
        return at < key_range_ ? heads_[at] : 0;
    }
    void PrefetchHeadOfKey(const Vector& keys, idx_t row) const {
        uint64_t at = InlineKey(keys, row) - key_min_;
        if (at < key_range_) {
            __builtin_prefetch(&heads_[at]);
        }
    }
    void PrefetchChain(uint64_t hash) const { __builtin_prefetch(&heads_[hash & mask_]); }
    void PrefetchEntry(uint32_t entry) const {
        if (entry != 0) {
            __builtin_prefetch(&entries_[entry - 1]);
        }
    }
    void PrefetchMatched(uint32_t entry) const {
        if (entry != 0) {
            __builtin_prefetch(&matched_[entry - 1], 1);
        }
    }
    // With unique keys in a perfect table no chain has a second entry, and the answer comes
    // without touching the entry (a cache miss on a large build).
    uint32_t NextEntry(uint32_t entry) const {
        return perfect_unique_ ? 0 : entries_[entry - 1].next;
    }
    // Every build key is different and the heads are indexed by the key: a probe's match is
    // its head's entry alone, so only a pair's build payload needs the entry.
    bool perfect_unique() const { return perfect_unique_; }
    // The build row of `entry` has the keys of probe row `row` (whose keys hash to `hash`).
    bool Matches(uint32_t entry, uint64_t hash, const std::vector<const Vector*>& keys,
                 idx_t row) const {
        if (perfect_) {
            return true; // a perfect table's chain holds only the key that indexes its head
        }
        if (inline_key_) {
            // One integer key of at most 8 bytes: the entry holds the key itself.
            return entries_[entry - 1].hash == InlineKey(*keys[0], row);
        }
        return entries_[entry - 1].hash == hash && KeysEqual(entry, keys, row);
    }
    const RowLocation& EntryRow(uint32_t entry) const { return entries_[entry - 1].row; }
    // The build row of `entry` has keys equal to row `row` of `keys`.
    bool KeysEqual(uint32_t entry, const std::vector<const Vector*>& keys, idx_t row) const {
        if (flat_keys_) {
            // Integer keys: compared as bytes straight from the build chunks' buffers (rows
            // with NULL keys are not in the index, and the probe skips NULL keys).
            const RowLocation& location = entries_[entry - 1].row;
            for (idx_t k = 0; k < key_count_; k++) {
                const ColumnView& view = views_[k][location.chunk];
                idx_t width = key_widths_[k];
                const Vector& probe = *keys[k];
                idx_t index = probe.vector_type() == VectorType::CONSTANT ? 0 : row;
                if (std::memcmp(view.data + location.row * width,
                                probe.data<uint8_t>() + index * width, width) != 0) {
                    return false;
                }
            }
            return true;
        }
        return KeysEqualGeneric(entry, keys, row);
    }
    // Right and full joins: the build row of `entry` has a match (any thread, any time
    // before the unmatched rows are collected).
    void MarkMatched(uint32_t entry) const {
        std::atomic_ref<uint8_t> matched(matched_[entry - 1]);
        if (matched.load(std::memory_order_relaxed) == 0) {
            matched.store(1, std::memory_order_relaxed); // written once: no contended line
        }
    }
    // The build rows that never matched, collected in pieces once every probe is done:
    // positions [0, UnmatchedPositions()) cover every build row, NULL keys included.
    idx_t UnmatchedPositions() const { return entries_.size(); }
    // The unmatched rows among positions [from, to) into `rows`; their count.
    idx_t CollectUnmatched(idx_t from, idx_t to, RowLocation* rows) const;

    // Column `column` of the build rows `rows[0..count)` into `target` from row 0.
    void Gather(idx_t column, const RowLocation* rows, idx_t count, Vector& target,
                const std::shared_ptr<const void>& owner) const;

private:
    template <class T>
    static uint64_t Load(const uint8_t* bytes) {
        T value;
        std::memcpy(&value, bytes, sizeof(T));
        return value;
    }
    uint64_t InlineKey(const Vector& keys, idx_t row) const {
        idx_t index = keys.vector_type() == VectorType::CONSTANT ? 0 : row;
        const uint8_t* bytes = keys.data<uint8_t>() + index * key_widths_[0];
        // Fixed-size copies compile to one load each (a variable one is a call per row).
        switch (key_widths_[0]) {
        case 8:
            return Load<uint64_t>(bytes);
        case 4:
            return Load<uint32_t>(bytes);
        case 2:
            return Load<uint16_t>(bytes);
        default:
            return Load<uint8_t>(bytes);
        }
    }
    bool KeysEqualGeneric(uint32_t entry, const std::vector<const Vector*>& keys, idx_t row) const;
    // Build's work is cut into items of this many chunks, shared with idle threads.
    static constexpr idx_t kChunksPerItem = 16;
    // Whether the inline keys span less than `buckets` values (then sets key_min_, key_range_).
    bool DenseKeys(idx_t buckets, idx_t items);
    // The entries of chunk `c`'s rows, from `first_entry` on, pushed onto their chains
    // (`shared`: other threads push onto the same heads); notes duplicate and NULL keys.
    void LinkChunk(idx_t c, idx_t first_entry, bool shared, bool& duplicate, bool& null_key);

    // One column of one build chunk, found without going through the chunk (probes touch
    // rows of random chunks: each indirection would be a cache miss).
    struct ColumnView {
        const uint8_t* data;
        const ValidityMask* validity; // null when every row is valid
        bool constant;
    };

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
        uint64_t hash; // or, with inline_key_, the key's bytes
        RowLocation row;
        uint32_t next; // 1-based; 0 ends the chain
    };
    RandomAccessArray<uint32_t> heads_;
    RandomAccessArray<Entry> entries_;
    // MarkMatched's flags, one byte per entry apart from the entries: a right join whose pairs
    // need nothing else from the build (TPC-H Q13) then never touches an entry.
    mutable RandomAccessArray<uint8_t> matched_;
    std::vector<RowsEqualFunction> key_equal_;
    std::vector<std::vector<ColumnView>> views_; // [column][chunk], set by Build
    std::vector<idx_t> key_widths_;
    bool flat_keys_ = false;  // every key an integer column, flat in every chunk
    bool inline_key_ = false; // one flat integer key of at most 8 bytes, held in the entries
    bool perfect_ = false;    // heads_ indexed by key - key_min_ (see perfect())
    bool perfect_unique_ = false;
    uint64_t key_min_ = 0, key_range_ = 0;
    uint64_t mask_ = 0;
};

} // namespace sluice
