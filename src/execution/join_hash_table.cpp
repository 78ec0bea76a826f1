#include "execution/join_hash_table.hpp"

#include "common/exception.hpp"
#include "common/physical_dispatch.hpp"

#include <algorithm>

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

bool JoinHashTable::DenseKeys(idx_t buckets) {
    // The keys as InlineKey gives them (a signed key's bytes zero-extended: negative keys look
    // far apart from positive ones, and such a table keeps hashing).
    bool any = false;
    uint64_t low = 0, high = 0;
    for (const auto& chunk : chunks_) {
        const Vector& keys = chunk->column(0);
        for (idx_t row = 0; row < chunk->size(); row++) {
            if (!keys.RowIsValid(row)) {
                continue;
            }
            uint64_t key = InlineKey(keys, row);
            low = any ? std::min(low, key) : key;
            high = any ? std::max(high, key) : key;
            any = true;
        }
    }
    // Within the heads a hashed table would have: no more memory than reserved for it.
    if (!any || high - low >= buckets) {
        return false;
    }
    key_min_ = low;
    key_range_ = high - low + 1;
    return true;
}

idx_t JoinHashTable::IndexMemory(idx_t rows) {
    return BucketCount(rows) * sizeof(uint32_t) + rows * (sizeof(Entry) + sizeof(uint8_t));
}

void JoinHashTable::Build() {
    if (row_count_ >= UINT32_MAX - 1) {
        throw Exception(ErrorKind::OutOfMemory, "hash join build side has too many rows");
    }
    entries_.reserve(row_count_);
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
    idx_t buckets = BucketCount(row_count_);
    perfect_ = inline_key_ && DenseKeys(buckets);
    heads_.assign(perfect_ ? key_range_ : buckets, 0);
    perfect_unique_ = perfect_;
    mask_ = buckets - 1;
    uint64_t hashes[kVectorSize];
    for (idx_t c = 0; c < chunks_.size(); c++) {
        DataChunk& chunk = *chunks_[c];
        idx_t count = chunk.size();
        if (key_count_ == 0) {
            std::fill(hashes, hashes + count, 0);
        }
        for (idx_t k = 0; k < key_count_; k++) {
            HashVector(chunk.column(k), count, hashes, k == 0);
        }
        for (idx_t row = 0; row < count; row++) {
            bool null_key = false;
            for (idx_t k = 0; k < key_count_; k++) {
                null_key |= !chunk.column(k).RowIsValid(row);
            }
            if (null_key) {
                has_null_key_ = true;
                null_key_rows_.push_back({static_cast<uint32_t>(c), static_cast<uint32_t>(row)});
                continue;
            }
            uint64_t key = inline_key_ ? InlineKey(chunk.column(0), row) : hashes[row];
            uint32_t& head = heads_[perfect_ ? key - key_min_ : hashes[row] & mask_];
            perfect_unique_ = perfect_unique_ && head == 0;
            entries_.push_back({key, {static_cast<uint32_t>(c), static_cast<uint32_t>(row)}, head});
            head = static_cast<uint32_t>(entries_.size());
        }
    }
    matched_.assign(entries_.size(), 0);
}

idx_t JoinHashTable::CollectUnmatched(idx_t from, idx_t to, RowLocation* rows) const {
    idx_t count = 0;
    for (idx_t position = from; position < std::min<idx_t>(to, entries_.size()); position++) {
        std::atomic_ref<uint8_t> matched(matched_[position]);
        if (matched.load(std::memory_order_relaxed) == 0) {
            rows[count++] = entries_[position].row;
        }
    }
    for (idx_t position = std::max<idx_t>(from, entries_.size()); position < to; position++) {
        rows[count++] = null_key_rows_[position - entries_.size()];
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
