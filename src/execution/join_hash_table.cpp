#include "execution/join_hash_table.hpp"

#include "common/exception.hpp"
#include "common/physical_dispatch.hpp"
#include "parallel/run_concurrently.hpp"

#include <algorithm>
#include <utility>

namespace sluice {

void JoinHashTable::Append(std::vector<std::unique_ptr<DataChunk>> chunks) {
    std::lock_guard<std::mutex> guard(mutex_);
    for (auto& chunk : chunks) {
        row_count_ += chunk->size();
        build_rows_ += chunk->size();
        chunks_.push_back(std::move(chunk));
    }
}

std::vector<std::unique_ptr<DataChunk>> JoinHashTable::TakeChunks() {
    std::lock_guard<std::mutex> guard(mutex_);
    row_count_ = 0;
    build_rows_ = 0;
    return std::move(chunks_);
}

idx_t JoinHashTable::BucketCount(idx_t rows) {
    // Two buckets a row; eight for small tables, whose heads stay in cache anyway: most probes
    // of a selective join (TPC-H Q17: 60 million rows against 2,000) then end at an empty head.
    idx_t per_row = rows <= 65536 ? 8 : 2;
    idx_t buckets = 1;
    while (buckets < rows * per_row) {
        buckets *= 2;
    }
    return buckets;
}

bool JoinHashTable::DenseKeys(idx_t buckets, idx_t items) {
    // The keys as InlineKey gives them (a signed key's bytes zero-extended: negative keys look
    // far apart from positive ones, and such a table keeps hashing).
    struct Range {
        bool any = false;
        uint64_t low = 0, high = 0;
    };
    std::vector<Range> ranges(items);
    RunSharingWithIdleThreads(items, [&](size_t item) {
        Range& range = ranges[item];
        idx_t end = std::min<idx_t>((item + 1) * kChunksPerItem, chunks_.size());
        for (idx_t c = item * kChunksPerItem; c < end; c++) {
            const Vector& keys = chunks_[c]->column(0);
            for (idx_t row = 0; row < chunks_[c]->size(); row++) {
                if (!keys.RowIsValid(row)) {
                    continue;
                }
                uint64_t key = InlineKey(keys, row);
                range.low = range.any ? std::min(range.low, key) : key;
                range.high = range.any ? std::max(range.high, key) : key;
                range.any = true;
            }
        }
    });
    Range all;
    for (const Range& range : ranges) {
        if (range.any) {
            all.low = all.any ? std::min(all.low, range.low) : range.low;
            all.high = all.any ? std::max(all.high, range.high) : range.high;
            all.any = true;
        }
    }
    // Within the heads a hashed table would have: no more memory than reserved for it.
    if (!all.any || all.high - all.low >= buckets) {
        return false;
    }
    key_min_ = all.low;
    key_range_ = all.high - all.low + 1;
    return true;
}

idx_t JoinHashTable::IndexMemory(idx_t rows) {
    return BucketCount(rows) * sizeof(uint32_t) + rows * (sizeof(Entry) + sizeof(uint8_t));
}

void JoinHashTable::Build() {
    if (row_count_ >= UINT32_MAX - 1) {
        throw Exception(ErrorKind::OutOfMemory, "hash join build side has too many rows");
    }
    for (idx_t k = 0; k < key_count_; k++) {
        key_equal_.push_back(RowsEqualFor(types_[k].physical()));
    }
    views_.assign(types_.size(), {});
    for (idx_t column = 0; column < types_.size(); column++) {
        for (const auto& chunk : chunks_) {
            const Vector& vector = chunk->column(column);
            views_[column].push_back({vector.data<uint8_t>(),
                                      vector.validity().AllValid() ? nullptr : &vector.validity(),
                                      vector.vector_type() == VectorType::CONSTANT});
        }
    }
    flat_keys_ = key_count_ > 0;
    for (idx_t k = 0; k < key_count_; k++) {
        PhysicalType physical = types_[k].physical();
        bool integer = physical != PhysicalType::VARCHAR && physical != PhysicalType::FLOAT &&
                       physical != PhysicalType::DOUBLE && physical != PhysicalType::BOOL &&
                       !types_[k].IsNested();
        key_widths_.push_back(PhysicalTypeSize(physical));
        flat_keys_ = flat_keys_ && integer;
        for (const ColumnView& view : views_[k]) {
            flat_keys_ = flat_keys_ && !view.constant;
        }
    }
    inline_key_ = flat_keys_ && key_count_ == 1 && key_widths_[0] <= sizeof(uint64_t);
    // Every build row gets an entry, at its position among the chunks' rows (so each thread
    // knows where its rows go); a NULL key's entry is in no chain.
    std::vector<idx_t> chunk_start(chunks_.size() + 1, 0);
    for (idx_t c = 0; c < chunks_.size(); c++) {
        chunk_start[c + 1] = chunk_start[c] + chunks_[c]->size();
    }
    idx_t items = (chunks_.size() + kChunksPerItem - 1) / kChunksPerItem;
    idx_t buckets = BucketCount(row_count_);
    perfect_ = inline_key_ && DenseKeys(buckets, items);
    heads_ = RandomAccessArray<uint32_t>(perfect_ ? key_range_ : buckets);
    entries_ = RandomAccessArray<Entry>(row_count_);
    matched_ = RandomAccessArray<uint8_t>(row_count_);
    mask_ = buckets - 1;
    idx_t slices = std::max<idx_t>(items, 1); // the heads of an empty table are zeroed too
    RunSharingWithIdleThreads(slices, [&](size_t slice) {
        auto zero = [&](auto& array) {
            size_t from = array.size() * slice / slices;
            size_t to = array.size() * (slice + 1) / slices;
            std::fill(array.data() + from, array.data() + to, 0);
        };
        zero(heads_);
        zero(matched_);
    });
    std::atomic<bool> duplicate_keys{false}, null_keys{false};
    RunSharingWithIdleThreads(items, [&](size_t item) {
        bool duplicate = false, null_key = false;
        idx_t end = std::min<idx_t>((item + 1) * kChunksPerItem, chunks_.size());
        for (idx_t c = item * kChunksPerItem; c < end; c++) {
            LinkChunk(c, chunk_start[c], items > 1, duplicate, null_key);
        }
        if (duplicate) {
            duplicate_keys.store(true);
        }
        if (null_key) {
            null_keys.store(true);
        }
    });
    perfect_unique_ = perfect_ && !duplicate_keys.load();
    has_null_key_ = has_null_key_ || null_keys.load();
}

void JoinHashTable::LinkChunk(idx_t c, idx_t first_entry, bool shared, bool& duplicate,
                              bool& null_key) {
    const DataChunk& chunk = *chunks_[c];
    idx_t count = chunk.size();
    uint64_t hashes[kVectorSize];
    if (key_count_ == 0) {
        std::fill(hashes, hashes + count, 0);
    }
    for (idx_t k = 0; k < key_count_; k++) {
        HashVector(chunk.column(k), count, hashes, k == 0);
    }
    for (idx_t row = 0; row < count; row++) {
        Entry& entry = entries_[first_entry + row];
        entry = {0, {static_cast<uint32_t>(c), static_cast<uint32_t>(row)}, 0};
        bool null = false;
        for (idx_t k = 0; k < key_count_; k++) {
            null |= !chunk.column(k).RowIsValid(row);
        }
        if (null) {
            null_key = true;
            continue;
        }
        uint64_t key = inline_key_ ? InlineKey(chunk.column(0), row) : hashes[row];
        entry.hash = key;
        uint32_t& head = heads_[perfect_ ? key - key_min_ : hashes[row] & mask_];
        auto position = static_cast<uint32_t>(first_entry + row + 1);
        // Threads building other chunks may push onto the same chain.
        entry.next =
            shared ? std::atomic_ref<uint32_t>(head).exchange(position, std::memory_order_relaxed)
                   : std::exchange(head, position);
        duplicate |= entry.next != 0;
    }
}

idx_t JoinHashTable::CollectUnmatched(idx_t from, idx_t to, RowLocation* rows) const {
    idx_t count = 0;
    for (idx_t position = from; position < std::min<idx_t>(to, entries_.size()); position++) {
        std::atomic_ref<uint8_t> matched(matched_[position]);
        if (matched.load(std::memory_order_relaxed) == 0) {
            rows[count++] = entries_[position].row;
        }
    }
    return count;
}

bool JoinHashTable::KeysEqualGeneric(uint32_t entry, const std::vector<const Vector*>& keys,
                                     idx_t row) const {
    const RowLocation& location = entries_[entry - 1].row;
    const DataChunk& chunk = *chunks_[location.chunk];
    for (idx_t k = 0; k < key_count_; k++) {
        if (!key_equal_[k](chunk.column(k), location.row, *keys[k], row)) {
            return false;
        }
    }
    return true;
}

void JoinHashTable::Gather(idx_t column, const RowLocation* rows, idx_t count, Vector& target,
                           const std::shared_ptr<const void>& owner) const {
    if (types_[column].physical() == PhysicalType::VARCHAR || types_[column].IsNested()) {
        GatherRows(chunks_, column, rows, count, target, 0, owner);
        return;
    }
    const std::vector<ColumnView>& views = views_[column];
    DispatchPhysical(types_[column].physical(), [&](auto tag) {
        using T = decltype(tag);
        if constexpr (!std::is_same_v<T, string_t>) {
            T* out = target.data<T>();
            for (idx_t i = 0; i < count; i++) {
                const ColumnView& view = views[rows[i].chunk];
                idx_t index = view.constant ? 0 : rows[i].row;
                if (!view.validity || view.validity->RowIsValid(index)) {
                    out[i] = reinterpret_cast<const T*>(view.data)[index];
                    target.validity().SetValid(i);
                } else {
                    target.SetNull(i);
                }
            }
        }
    });
}

} // namespace sluice
