#pragma once

#include "common/types.hpp"

#include <cstdint>
#include <vector>

namespace sluice {

// One bit per row, 1 = valid. An empty mask means "all rows valid", so columns without NULLs
// never pay for the bitmap.
class ValidityMask {
public:
    bool AllValid() const { return bits_.empty(); }
    bool RowIsValid(idx_t row) const {
        return bits_.empty() || ((bits_[row / 64] >> (row % 64)) & 1) != 0;
    }
    void SetInvalid(idx_t row, idx_t capacity) {
        if (bits_.empty()) {
            bits_.assign((capacity + 63) / 64, ~uint64_t(0));
        }
        bits_[row / 64] &= ~(uint64_t(1) << (row % 64));
    }
    // Rows [begin, begin + count), a word at a time.
    void SetInvalidRange(idx_t begin, idx_t count, idx_t capacity) {
        if (count == 0) {
            return;
        }
        if (bits_.empty()) {
            bits_.assign((capacity + 63) / 64, ~uint64_t(0));
        }
        idx_t end = begin + count;
        for (idx_t row = begin; row < end && row % 64 != 0; row++) {
            bits_[row / 64] &= ~(uint64_t(1) << (row % 64));
        }
        idx_t word = (begin + 63) / 64;
        for (; (word + 1) * 64 <= end; word++) {
            bits_[word] = 0;
        }
        for (idx_t row = std::max(begin, word * 64); row < end; row++) {
            bits_[row / 64] &= ~(uint64_t(1) << (row % 64));
        }
    }
    void SetValid(idx_t row) {
        if (!bits_.empty()) {
            bits_[row / 64] |= uint64_t(1) << (row % 64);
        }
    }
    void Set(idx_t row, bool valid, idx_t capacity) {
        if (valid) {
            SetValid(row);
        } else {
            SetInvalid(row, capacity);
        }
    }
    void Reset() { bits_.clear(); }
    // The bitmap as 64-bit words (row r is bit r % 64 of word r / 64, the layout of Arrow's
    // validity bitmaps on a little-endian machine); null when every row is valid.
    const uint64_t* words() const { return bits_.empty() ? nullptr : bits_.data(); }
    // How many of rows [0, count) are NULL.
    idx_t CountInvalid(idx_t count) const {
        if (bits_.empty()) {
            return 0;
        }
        idx_t valid = 0;
        for (idx_t word = 0; word < count / 64; word++) {
            valid += static_cast<idx_t>(__builtin_popcountll(bits_[word]));
        }
        if (count % 64 != 0) {
            uint64_t tail = bits_[count / 64] & ((uint64_t(1) << (count % 64)) - 1);
            valid += static_cast<idx_t>(__builtin_popcountll(tail));
        }
        return count - valid;
    }
    // The bits of rows [offset, offset + count) of `source` as rows [0, count).
    void Slice(const ValidityMask& source, idx_t offset, idx_t count) {
        if (source.bits_.empty()) {
            bits_.clear();
            return;
        }
        bits_.assign((count + 63) / 64, 0);
        idx_t shift = offset % 64;
        idx_t first = offset / 64;
        for (idx_t word = 0; word < bits_.size(); word++) {
            uint64_t low = source.bits_[first + word] >> shift;
            uint64_t high = shift != 0 && first + word + 1 < source.bits_.size()
                                ? source.bits_[first + word + 1] << (64 - shift)
                                : 0;
            bits_[word] = low | high;
        }
    }
    // Keeps the bits of a vector whose capacity grows; new rows are valid.
    void Grow(idx_t capacity) {
        if (!bits_.empty()) {
            bits_.resize((capacity + 63) / 64, ~uint64_t(0));
        }
    }

private:
    std::vector<uint64_t> bits_;
};

} // namespace sluice
