#pragma once

#include "formats/parquet/parquet_value_layout.hpp"

#include <cstdint>
#include <string_view>
#include <vector>

namespace sluice::parquet {

// The distinct values of a column chunk being dictionary encoded, in first-seen order, with an
// open-addressing index over them. Values are PLAIN bytes of a fixed width, or strings.
class ValueDictionary {
public:
    explicit ValueDictionary(int32_t width) : width_(width) {}

    // The index of `value`, added if new.
    uint32_t Insert(std::string_view value);
    // Forgets the entries from `size` on (a page that did not fit is rolled back).
    void Truncate(size_t size);
    void Clear() { Truncate(0); }

    size_t size() const { return hashes_.size(); }
    // Bytes of the dictionary page's PLAIN values.
    uint64_t plain_bytes() const { return entries_.fixed.size() + (width_ == 0 ? 4 * size() : 0); }
    const ColumnValues& entries() const { return entries_; }

private:
    uint64_t Hash(std::string_view value) const;
    bool Same(uint32_t entry, std::string_view value) const;
    void Rebuild(size_t capacity);

    int32_t width_;
    ColumnValues entries_;
    std::vector<uint64_t> hashes_; // per entry
    std::vector<uint32_t> slots_;  // entry index + 1; 0 is empty
};

} // namespace sluice::parquet
