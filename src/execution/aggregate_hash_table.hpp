#pragma once

#include "common/data_chunk.hpp"
#include "common/string_heap.hpp"
#include "execution/aggregate_function.hpp"
#include "execution/row_operations.hpp"
#include "memory/huge_page_allocator.hpp"
#include "memory/spill_file.hpp"

#include <memory>
#include <vector>

namespace sluice {

// Groups rows by key columns and keeps one state per aggregate per group. Group keys are stored
// in chunks of kVectorSize groups (so results scan out as chunks); the index is an open-addressing
// table of (hash, group) slots; states are one flat byte array, `stride_` bytes per group.
// One table per thread; tables of the same query are combined at the end.
class AggregateHashTable {
public:
    AggregateHashTable(std::vector<LogicalType> key_types,
                       std::shared_ptr<const std::vector<AggregateFunction>> aggregates);
    ~AggregateHashTable();
    AggregateHashTable(const AggregateHashTable&) = delete;
    AggregateHashTable& operator=(const AggregateHashTable&) = delete;

    // `chunk` holds the key columns first, then the aggregates' arguments; `argument_columns[a]`
    // lists the chunk columns of aggregate a.
    void Sink(const DataChunk& chunk, const std::vector<std::vector<idx_t>>& argument_columns);
    // Folds every group of `other` into this table. `other` must outlive this table and is
    // not read again: states may take its memory over (AggregateFunction::absorb).
    void Combine(AggregateHashTable& other);
    // Folds the listed groups of `other` into this table, as Combine.
    void CombineGroups(AggregateHashTable& other, const std::vector<uint32_t>& groups);
    // This table's groups by partition (a function of the key hash, so equal keys of different
    // tables meet in the same partition); `partition_count` is a power of two.
    std::vector<std::vector<uint32_t>> PartitionGroups(idx_t partition_count) const;
    // An aggregate without GROUP BY returns one row even over no input.
    void EnsureSingleGroup();

    // Spilling. Every aggregate's states can be written out (no DISTINCT).
    bool Spillable() const;
    // The types of a spilled group: the keys, then one BLOB of every aggregate's state.
    std::vector<LogicalType> SpilledTypes() const;
    // Appends every group to `file`, partition by partition (PartitionGroups); `offsets` gets
    // where each partition's chunks start, and the file's end. The table is left as it was.
    void SpillTo(SpillFile& file, idx_t partition_count, std::vector<uint64_t>& offsets);
    // Folds spilled groups (a chunk of SpilledTypes) into this table.
    void CombineSpilled(const DataChunk& spilled);

    idx_t GroupCount() const { return group_count_; }
    // The bytes the table holds: slots, keys, states.
    idx_t MemoryUsage() const;
    // The most the table can hold while it takes `rows` more rows, all of them new groups: it
    // grows in steps (slots, states and hashes double), and during a step the old and the new
    // arrays are both alive. Reserved before Sink, so that growth never passes the limit.
    idx_t MemoryForSink(idx_t rows) const;
    idx_t ChunkCount() const { return key_chunks_.size(); }
    // The groups of key chunk `chunk_index`: key columns, then one column per aggregate.
    void Scan(idx_t chunk_index, DataChunk& out) const;

private:
    void FindOrCreateGroups(const std::vector<const Vector*>& keys, idx_t count, uint32_t* groups);
    uint32_t AddGroup(const std::vector<const Vector*>& keys, idx_t row);
    // Walks the slots from `position`: the first empty slot gets a new group (`created`), the
    // first slot with the hash's salt (and, if `compare_keys`, equal keys) gives its group.
    uint32_t Probe(const std::vector<const Vector*>& keys, idx_t row, uint64_t hash,
                   uint64_t position, bool compare_keys, uint64_t& found_at, bool& created);
    bool KeysEqual(uint32_t group, const std::vector<const Vector*>& keys, idx_t row) const;
    // Up to this many groups, Sink updates states group by group (update_one_state).
    static constexpr idx_t kFewGroups = 16;
    // A counting sort of the rows by group: group g's rows are rows[group_start[g],
    // group_start[g + 1]), ascending. Needs group_count_ <= kFewGroups.
    void SortRowsByGroup(const uint32_t* groups, idx_t count, uint32_t* rows,
                         uint32_t* group_start) const;
    void Grow();
    uint8_t* State(uint32_t group, idx_t aggregate) {
        return states_.data() + group * stride_ + offsets_[aggregate];
    }

    std::vector<LogicalType> key_types_;
    std::vector<RowsEqualFunction> key_equal_;
    using KeysVerifier = void (*)(const std::vector<std::unique_ptr<DataChunk>>& key_chunks,
                                  idx_t k, const Vector& keys, const uint32_t* groups,
                                  const idx_t* candidates, idx_t candidate_count, bool* mismatch);
    static KeysVerifier KeysVerifierFor(PhysicalType type);
    std::vector<KeysVerifier> key_verify_;
    std::shared_ptr<const std::vector<AggregateFunction>> aggregates_;
    std::vector<idx_t> offsets_;
    idx_t stride_ = 0;

    std::vector<std::unique_ptr<DataChunk>> key_chunks_;
    std::vector<uint8_t, RandomAccessAllocator<uint8_t>> states_;
    StringHeap heap_;            // long strings held by min/max states
    idx_t key_string_bytes_ = 0; // long strings of the keys, in the key chunks' heaps
    idx_t group_count_ = 0;

    // 8 bytes, so that a probe touches as little memory as possible: the high half of the
    // hash (the low bits pick the slot) and the group.
    struct Slot {
        uint32_t salt;
        uint32_t group_plus_one; // 0: empty
    };
    static uint32_t Salt(uint64_t hash) { return static_cast<uint32_t>(hash >> 32); }
    // Slot positions are recomputed from the keys when the table grows.
    std::vector<uint64_t> group_hashes_;
    std::vector<Slot, RandomAccessAllocator<Slot>> slots_;
    uint64_t mask_ = 0;
};

} // namespace sluice
