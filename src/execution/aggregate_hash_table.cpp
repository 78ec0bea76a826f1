#include "execution/aggregate_hash_table.hpp"

#include "common/exception.hpp"
#include "common/physical_dispatch.hpp"
#include "execution/row_operations.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace sluice {

namespace {

// Marks the candidate rows whose key `k` differs from their group's stored key.
template <class T>
void VerifyKeys(const std::vector<std::unique_ptr<DataChunk>>& key_chunks, idx_t k,
                const Vector& keys, const uint32_t* groups, const idx_t* candidates,
                idx_t candidate_count, bool* mismatch) {
    const T* values = keys.data<T>();
    bool constant = keys.vector_type() == VectorType::CONSTANT;
    const ValidityMask& validity = keys.validity();
    // The stored chunk of the previous candidate: with fewer than kVectorSize groups there is
    // one, and the loop reads a key's two values without walking to its chunk.
    idx_t chunk_index = ~idx_t(0);
    const Vector* stored = nullptr;
    const T* stored_values = nullptr;
    if (key_chunks.size() == 1 && !constant && validity.AllValid() &&
        key_chunks[0]->column(k).validity().AllValid()) {
        // Few groups and no NULL keys on either side (Q1's flags): values only.
        stored_values = key_chunks[0]->column(k).template data<T>();
        for (idx_t c = 0; c < candidate_count; c++) {
            idx_t row = candidates[c];
            mismatch[row] |= !(values[row] == stored_values[groups[row]]);
        }
        return;
    }
    for (idx_t c = 0; c < candidate_count; c++) {
        idx_t row = candidates[c];
        uint32_t group = groups[row];
        if (group / kVectorSize != chunk_index) {
            chunk_index = group / kVectorSize;
            stored = &key_chunks[chunk_index]->column(k);
            stored_values = stored->data<T>();
        }
        idx_t stored_row = group % kVectorSize;
        idx_t index = constant ? 0 : row;
        bool valid = validity.RowIsValid(index);
        bool stored_valid = stored->validity().RowIsValid(stored_row);
        bool equal = valid && stored_valid ? values[index] == stored_values[stored_row]
                                           : valid == stored_valid;
        mismatch[row] |= !equal;
    }
}

constexpr idx_t kInitialSlots = 1024;
constexpr idx_t kStateAlignment = 16;

idx_t AlignUp(idx_t value) {
    return (value + kStateAlignment - 1) / kStateAlignment * kStateAlignment;
}

} // namespace

AggregateHashTable::KeysVerifier AggregateHashTable::KeysVerifierFor(PhysicalType type) {
    // Floating keys (NaN equals NaN and -0 equals 0 when grouping) and nested ones compare
    // row by row; the others in typed loops.
    KeysVerifier by_rows = [](const std::vector<std::unique_ptr<DataChunk>>& key_chunks, idx_t k,
                              const Vector& keys, const uint32_t* groups, const idx_t* candidates,
                              idx_t candidate_count, bool* mismatch) {
        for (idx_t c = 0; c < candidate_count; c++) {
            idx_t row = candidates[c];
            uint32_t group = groups[row];
            mismatch[row] |= !RowsEqual(key_chunks[group / kVectorSize]->column(k),
                                        group % kVectorSize, keys, row);
        }
    };
    if (type == PhysicalType::LIST || type == PhysicalType::STRUCT) {
        return by_rows;
    }
    return DispatchPhysical(type, [by_rows](auto tag) -> KeysVerifier {
        using T = decltype(tag);
        if constexpr (!std::is_floating_point_v<T>) {
            return &VerifyKeys<T>;
        } else {
            return by_rows;
        }
    });
}

AggregateHashTable::AggregateHashTable(
    std::vector<LogicalType> key_types,
    std::shared_ptr<const std::vector<AggregateFunction>> aggregates)
    : key_types_(std::move(key_types)), aggregates_(std::move(aggregates)) {
    for (const auto& type : key_types_) {
        key_equal_.push_back(RowsEqualFor(type.physical()));
        key_verify_.push_back(KeysVerifierFor(type.physical()));
    }
    for (const auto& aggregate : *aggregates_) {
        offsets_.push_back(stride_);
        stride_ += AlignUp(aggregate.state_size);
    }
    slots_.assign(kInitialSlots, Slot{0, 0});
    mask_ = kInitialSlots - 1;
}

idx_t AggregateHashTable::MemoryUsage() const {
    idx_t keys = key_chunks_.empty() ? 0 : key_chunks_.size() * ChunkMemory(*key_chunks_[0]);
    return slots_.capacity() * sizeof(Slot) + states_.capacity() +
           group_hashes_.capacity() * sizeof(uint64_t) + keys + heap_.AllocatedBytes() +
           key_string_bytes_;
}

idx_t AggregateHashTable::MemoryForSink(idx_t rows) const {
    idx_t groups = group_count_ + rows;
    idx_t extra = 0;
    idx_t slots = slots_.size();
    while (groups * 2 > slots) {
        slots *= 2;
    }
    if (slots > slots_.size()) {
        extra += slots * sizeof(Slot);
    }
    // std::vector grows to at least twice its capacity.
    auto grown = [](idx_t needed, idx_t capacity) {
        return needed > capacity ? std::max(needed, 2 * capacity) : 0;
    };
    extra += grown(groups * stride_, states_.capacity());
    extra += grown(groups, group_hashes_.capacity()) * sizeof(uint64_t);
    idx_t chunks = (groups + kVectorSize - 1) / kVectorSize;
    if (chunks > key_chunks_.size()) {
        idx_t chunk_bytes = 0;
        for (const auto& type : key_types_) {
            chunk_bytes += kVectorSize * PhysicalTypeSize(type.physical());
        }
        extra += (chunks - key_chunks_.size()) * chunk_bytes;
    }
    return MemoryUsage() + extra;
}

AggregateHashTable::~AggregateHashTable() {
    for (idx_t a = 0; a < aggregates_->size(); a++) {
        const auto& destroy = (*aggregates_)[a].destroy;
        if (!destroy) {
            continue;
        }
        for (idx_t group = 0; group < group_count_; group++) {
            destroy(State(static_cast<uint32_t>(group), a));
        }
    }
}

uint32_t AggregateHashTable::AddGroup(const std::vector<const Vector*>& keys, idx_t row) {
    if (group_count_ >= UINT32_MAX - 1) {
        throw Exception(ErrorKind::OutOfMemory, "too many groups in one aggregate");
    }
    auto group = static_cast<uint32_t>(group_count_++);
    idx_t in_chunk = group % kVectorSize;
    if (in_chunk == 0) {
        key_chunks_.push_back(std::make_unique<DataChunk>(key_types_));
    }
    DataChunk& chunk = *key_chunks_.back();
    for (idx_t k = 0; k < keys.size(); k++) {
        chunk.column(k).CopyRow(*keys[k], row, in_chunk);
        if (key_types_[k].physical() == PhysicalType::VARCHAR &&
            chunk.column(k).RowIsValid(in_chunk)) {
            uint32_t length = chunk.column(k).data<string_t>()[in_chunk].size();
            key_string_bytes_ += length > string_t::kInlineLength ? length : 0;
        }
    }
    chunk.SetSize(in_chunk + 1);
    states_.resize(group_count_ * stride_);
    for (idx_t a = 0; a < aggregates_->size(); a++) {
        (*aggregates_)[a].initialize(State(group, a));
    }
    return group;
}

bool AggregateHashTable::KeysEqual(uint32_t group, const std::vector<const Vector*>& keys,
                                   idx_t row) const {
    const DataChunk& chunk = *key_chunks_[group / kVectorSize];
    idx_t in_chunk = group % kVectorSize;
    for (idx_t k = 0; k < keys.size(); k++) {
        if (!key_equal_[k](chunk.column(k), in_chunk, *keys[k], row)) {
            return false;
        }
    }
    return true;
}

void AggregateHashTable::Grow() {
    slots_.assign(slots_.size() * 2, Slot{0, 0});
    mask_ = slots_.size() - 1;
    for (idx_t group = 0; group < group_count_; group++) {
        uint64_t hash = group_hashes_[group];
        uint64_t position = hash & mask_;
        while (slots_[position].group_plus_one != 0) {
            position = (position + 1) & mask_;
        }
        slots_[position] = Slot{Salt(hash), static_cast<uint32_t>(group + 1)};
    }
}

void AggregateHashTable::FindOrCreateGroups(const std::vector<const Vector*>& keys, idx_t count,
                                            uint32_t* groups) {
    if (keys.empty()) {
        if (group_count_ == 0) {
            AddGroup(keys, 0);
        }
        for (idx_t row = 0; row < count; row++) {
            groups[row] = 0;
        }
        return;
    }
    uint64_t hashes[kVectorSize];
    for (idx_t k = 0; k < keys.size(); k++) {
        HashVector(*keys[k], count, hashes, k == 0);
    }
    // Room for every row to be a new group, so the table cannot grow mid-chunk; then the slots
    // the chunk will touch are prefetched, hiding the cache misses of a large table.
    while ((group_count_ + count) * 2 > slots_.size()) {
        Grow();
    }
    for (idx_t row = 0; row < count; row++) {
        __builtin_prefetch(&slots_[hashes[row] & mask_]);
    }
    // First pass: the first slot with the row's salt is taken as its group (or a new group is
    // made at the first empty slot); the keys of the matches are then checked column by column
    // in typed loops, and only rows whose salt collided go through the full probe.
    uint64_t positions[kVectorSize];
    idx_t candidates[kVectorSize];
    idx_t candidate_count = 0;
    for (idx_t row = 0; row < count; row++) {
        bool created = false;
        groups[row] =
            Probe(keys, row, hashes[row], hashes[row] & mask_, false, positions[row], created);
        if (!created) {
            candidates[candidate_count++] = row;
        }
    }
    bool mismatch[kVectorSize];
    std::fill(mismatch, mismatch + count, false);
    for (idx_t k = 0; k < keys.size(); k++) {
        key_verify_[k](key_chunks_, k, *keys[k], groups, candidates, candidate_count, mismatch);
    }
    for (idx_t c = 0; c < candidate_count; c++) {
        idx_t row = candidates[c];
        if (!mismatch[row]) {
            continue;
        }
        bool created = false;
        uint64_t position = 0;
        groups[row] =
            Probe(keys, row, hashes[row], (positions[row] + 1) & mask_, true, position, created);
    }
}

uint32_t AggregateHashTable::Probe(const std::vector<const Vector*>& keys, idx_t row, uint64_t hash,
                                   uint64_t position, bool compare_keys, uint64_t& found_at,
                                   bool& created) {
    uint32_t salt = Salt(hash);
    while (true) {
        Slot& slot = slots_[position];
        if (slot.group_plus_one == 0) {
            uint32_t group = AddGroup(keys, row);
            group_hashes_.push_back(hash);
            slot = Slot{salt, group + 1};
            created = true;
            found_at = position;
            return group;
        }
        if (slot.salt == salt && (!compare_keys || KeysEqual(slot.group_plus_one - 1, keys, row))) {
            found_at = position;
            return slot.group_plus_one - 1;
        }
        position = (position + 1) & mask_;
    }
}

void AggregateHashTable::Sink(const DataChunk& chunk,
                              const std::vector<std::vector<idx_t>>& argument_columns) {
    idx_t count = chunk.size();
    if (count == 0) {
        return;
    }
    std::vector<const Vector*> keys;
    for (idx_t k = 0; k < key_types_.size(); k++) {
        keys.push_back(&chunk.column(k));
    }
    uint32_t groups[kVectorSize];
    FindOrCreateGroups(keys, count, groups);
    // With few groups, consecutive rows often update the same state, and each waits for the
    // previous one's write: instead the rows are sorted by group (stably, so sums of doubles
    // add in the same order) and each group's rows go to its state in one tight loop.
    bool few_groups = group_count_ <= kFewGroups;
    uint32_t group_rows[kVectorSize];
    uint32_t group_start[kFewGroups + 1];
    if (few_groups) {
        SortRowsByGroup(groups, count, group_rows, group_start);
    }
    uint8_t* states[kVectorSize];
    bool states_made = false;
    std::vector<const Vector*> arguments;
    for (idx_t a = 0; a < aggregates_->size(); a++) {
        const AggregateFunction& aggregate = (*aggregates_)[a];
        arguments.clear();
        for (idx_t column : argument_columns[a]) {
            arguments.push_back(&chunk.column(column));
        }
        if (few_groups && aggregate.update_one_state) {
            for (uint32_t group = 0; group < group_count_; group++) {
                idx_t rows = group_start[group + 1] - group_start[group];
                if (rows > 0) {
                    aggregate.update_one_state(arguments, group_rows + group_start[group], rows,
                                               State(group, a));
                }
            }
            continue;
        }
        if (!states_made) {
            for (idx_t row = 0; row < count; row++) {
                states[row] = states_.data() + groups[row] * stride_;
            }
            states_made = true;
        }
        aggregate.update(arguments, count, states, offsets_[a], heap_);
    }
}

void AggregateHashTable::SortRowsByGroup(const uint32_t* groups, idx_t count, uint32_t* rows,
                                         uint32_t* group_start) const {
    if (group_count_ == 1) {
        // No GROUP BY (or one group so far): every row, in order.
        std::iota(rows, rows + count, 0u);
        group_start[0] = 0;
        group_start[1] = static_cast<uint32_t>(count);
        return;
    }
    std::fill(group_start, group_start + group_count_ + 1, 0);
    for (idx_t row = 0; row < count; row++) {
        group_start[groups[row] + 1]++;
    }
    for (idx_t group = 0; group < group_count_; group++) {
        group_start[group + 1] += group_start[group];
    }
    uint32_t next[kFewGroups];
    std::copy(group_start, group_start + group_count_, next);
    for (idx_t row = 0; row < count; row++) {
        rows[next[groups[row]]++] = static_cast<uint32_t>(row);
    }
}

void AggregateHashTable::Combine(AggregateHashTable& other) {
    std::vector<uint32_t> groups(other.group_count_);
    for (idx_t group = 0; group < groups.size(); group++) {
        groups[group] = static_cast<uint32_t>(group);
    }
    CombineGroups(other, groups);
}

void AggregateHashTable::CombineGroups(AggregateHashTable& other,
                                       const std::vector<uint32_t>& groups) {
    std::vector<std::unique_ptr<Vector>> key_vectors;
    std::vector<const Vector*> keys;
    for (const auto& type : key_types_) {
        key_vectors.push_back(std::make_unique<Vector>(type));
        keys.push_back(key_vectors.back().get());
    }
    RowLocation locations[kVectorSize];
    uint32_t targets[kVectorSize];
    std::shared_ptr<const void> no_owner; // the other table outlives this merge
    for (idx_t offset = 0; offset < groups.size(); offset += kVectorSize) {
        idx_t count = std::min(kVectorSize, groups.size() - offset);
        for (idx_t i = 0; i < count; i++) {
            uint32_t group = groups[offset + i];
            locations[i] = {static_cast<uint32_t>(group / kVectorSize),
                            static_cast<uint32_t>(group % kVectorSize)};
        }
        for (idx_t k = 0; k < key_types_.size(); k++) {
            key_vectors[k]->Reset();
            GatherRows(other.key_chunks_, k, locations, count, *key_vectors[k], 0, no_owner);
        }
        FindOrCreateGroups(keys, count, targets);
        for (idx_t i = 0; i < count; i++) {
            for (idx_t a = 0; a < aggregates_->size(); a++) {
                const AggregateFunction& aggregate = (*aggregates_)[a];
                uint8_t* source = other.State(groups[offset + i], a);
                if (aggregate.absorb) {
                    aggregate.absorb(source, State(targets[i], a));
                } else {
                    aggregate.combine(source, State(targets[i], a), heap_);
                }
            }
        }
    }
}

std::vector<std::vector<uint32_t>>
AggregateHashTable::PartitionGroups(idx_t partition_count) const {
    std::vector<std::vector<uint32_t>> partitions(partition_count);
    for (idx_t group = 0; group < group_count_; group++) {
        // High hash bits: the low ones choose slots inside each partition's table.
        idx_t partition = (group_hashes_[group] >> 48) & (partition_count - 1);
        partitions[partition].push_back(static_cast<uint32_t>(group));
    }
    return partitions;
}

void AggregateHashTable::EnsureSingleGroup() {
    if (group_count_ == 0 && key_types_.empty()) {
        uint32_t group;
        FindOrCreateGroups({}, 1, &group);
    }
}

bool AggregateHashTable::Spillable() const {
    return std::all_of(aggregates_->begin(), aggregates_->end(),
                       [](const AggregateFunction& aggregate) { return aggregate.spillable; });
}

std::vector<LogicalType> AggregateHashTable::SpilledTypes() const {
    std::vector<LogicalType> types = key_types_;
    types.push_back(LogicalTypeId::BLOB);
    return types;
}

void AggregateHashTable::SpillTo(SpillFile& file, idx_t partition_count,
                                 std::vector<uint64_t>& offsets) {
    auto partitions = PartitionGroups(partition_count);
    DataChunk out(SpilledTypes());
    std::shared_ptr<const void> no_owner; // the chunk is written before the table changes
    RowLocation locations[kVectorSize];
    std::string states;
    offsets.clear();
    for (const auto& groups : partitions) {
        offsets.push_back(file.bytes());
        for (idx_t offset = 0; offset < groups.size(); offset += kVectorSize) {
            idx_t count = std::min(kVectorSize, groups.size() - offset);
            out.Reset();
            Vector& blob = out.column(key_types_.size());
            for (idx_t i = 0; i < count; i++) {
                uint32_t group = groups[offset + i];
                locations[i] = {static_cast<uint32_t>(group / kVectorSize),
                                static_cast<uint32_t>(group % kVectorSize)};
                states.clear();
                for (idx_t a = 0; a < aggregates_->size(); a++) {
                    const AggregateFunction& aggregate = (*aggregates_)[a];
                    if (aggregate.serialize) {
                        aggregate.serialize(State(group, a), states);
                    } else {
                        states.append(reinterpret_cast<const char*>(State(group, a)),
                                      aggregate.state_size);
                    }
                }
                blob.data<string_t>()[i] = blob.AddString(states);
            }
            for (idx_t k = 0; k < key_types_.size(); k++) {
                GatherRows(key_chunks_, k, locations, count, out.column(k), 0, no_owner);
            }
            out.SetSize(count);
            file.Append(out);
        }
    }
    offsets.push_back(file.bytes());
}

void AggregateHashTable::CombineSpilled(const DataChunk& spilled) {
    idx_t count = spilled.size();
    std::vector<const Vector*> keys;
    for (idx_t k = 0; k < key_types_.size(); k++) {
        keys.push_back(&spilled.column(k));
    }
    uint32_t targets[kVectorSize];
    FindOrCreateGroups(keys, count, targets);
    const string_t* blobs = spilled.column(key_types_.size()).data<string_t>();
    std::vector<uint8_t> scratch(std::max<idx_t>(stride_, 1));
    for (idx_t row = 0; row < count; row++) {
        const auto* in = reinterpret_cast<const uint8_t*>(blobs[row].data());
        for (idx_t a = 0; a < aggregates_->size(); a++) {
            const AggregateFunction& aggregate = (*aggregates_)[a];
            uint8_t* state = scratch.data() + offsets_[a];
            aggregate.initialize(state);
            if (aggregate.deserialize) {
                aggregate.deserialize(in, state, heap_);
            } else {
                std::memcpy(state, in, aggregate.state_size);
                in += aggregate.state_size;
            }
            aggregate.combine(state, State(targets[row], a), heap_);
        }
    }
}

void AggregateHashTable::Scan(idx_t chunk_index, DataChunk& out) const {
    const DataChunk& keys = *key_chunks_[chunk_index];
    idx_t count = keys.size();
    for (idx_t k = 0; k < key_types_.size(); k++) {
        out.column(k).Reset();
        out.column(k).Reference(keys.column(k));
    }
    for (idx_t a = 0; a < aggregates_->size(); a++) {
        Vector& result = out.column(key_types_.size() + a);
        result.Reset();
        for (idx_t row = 0; row < count; row++) {
            auto group = static_cast<uint32_t>(chunk_index * kVectorSize + row);
            const uint8_t* state = states_.data() + group * stride_ + offsets_[a];
            (*aggregates_)[a].finalize(state, result, row);
        }
    }
    out.SetSize(count);
}

} // namespace sluice
