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
