#include "execution/join_hash_table.hpp"

#include "common/exception.hpp"

namespace sluice {

void JoinHashTable::Append(std::vector<std::unique_ptr<DataChunk>> chunks) {
    std::lock_guard<std::mutex> guard(mutex_);
    for (auto& chunk : chunks) {
        row_count_ += chunk->size();
        chunks_.push_back(std::move(chunk));
    }
}

idx_t JoinHashTable::IndexMemory(idx_t rows) {
    idx_t buckets = 1;
    while (buckets < rows * 2) {
        buckets *= 2;
    }
    return buckets * sizeof(uint32_t) +
           rows * (sizeof(uint32_t) + sizeof(uint64_t) + sizeof(RowLocation));
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
    rows_.reserve(row_count_);
    hashes_.reserve(row_count_);
    next_.reserve(row_count_);
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
            rows_.push_back({static_cast<uint32_t>(c), static_cast<uint32_t>(row)});
            hashes_.push_back(hashes[row]);
            auto entry = static_cast<uint32_t>(rows_.size());
            uint32_t& head = heads_[hashes[row] & mask_];
            next_.push_back(head);
            head = entry;
        }
    }
}

bool JoinHashTable::KeysEqual(uint32_t entry, const std::vector<const Vector*>& keys,
                              idx_t row) const {
    const RowLocation& location = rows_[entry - 1];
    const DataChunk& chunk = *chunks_[location.chunk];
    for (idx_t k = 0; k < key_count_; k++) {
        if (!RowsEqual(chunk.column(k), location.row, *keys[k], row)) {
            return false;
        }
    }
    return true;
}

} // namespace sluice
