#include "execution/join_hash_table.hpp"

#include "common/exception.hpp"

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

idx_t JoinHashTable::IndexMemory(idx_t rows) {
    idx_t buckets = 1;
    while (buckets < rows * 2) {
        buckets *= 2;
    }
    return buckets * sizeof(uint32_t) + rows * sizeof(Entry);
}

void JoinHashTable::Build() {
    if (row_count_ >= UINT32_MAX - 1) {
        throw Exception(ErrorKind::OutOfMemory, "hash join build side has too many rows");
    }
    idx_t buckets = 1;
    while (buckets < row_count_ * 2) {
        buckets *= 2;
    }
    heads_.assign(buckets, 0);
    mask_ = buckets - 1;
    entries_.reserve(row_count_);
    for (idx_t k = 0; k < key_count_; k++) {
        key_equal_.push_back(RowsEqualFor(types_[k].physical()));
    }
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
                continue;
            }
            uint32_t& head = heads_[hashes[row] & mask_];
            entries_.push_back(
                {hashes[row], {static_cast<uint32_t>(c), static_cast<uint32_t>(row)}, head});
            head = static_cast<uint32_t>(entries_.size());
        }
    }
}

bool JoinHashTable::KeysEqual(uint32_t entry, const std::vector<const Vector*>& keys,
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

} // namespace sluice
