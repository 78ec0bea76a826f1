#pragma once

#include "common/string_type.hpp"

#include <memory>
#include <string_view>
#include <vector>

namespace sluice {

// Arena for the bytes of non-inlined strings. Blocks are never moved, so string_t pointers stay
// valid for the heap's lifetime; vectors share a heap through shared_ptr when they reference
// each other.
class StringHeap {
public:
    string_t AddString(std::string_view text);
    // Throws InvalidInput for a string longer than a string_t can say (4 GiB - 1 bytes, as in
    // DuckDB); functions that build long strings from short inputs (repeat, lpad) ask first.
    static void CheckSize(uint64_t length);
    // Room for `length` bytes the caller fills in before using the returned string_t.
    char* Allocate(size_t length);
    // Makes the next `bytes` of strings fit in one block of just that size when the current block
    // cannot take them: for a chunk of a few rows read back from a spill file, whose strings
    // would otherwise take a whole kBlockSize block (and a compacted chunk keeps many alive).
    void Reserve(size_t bytes);
    size_t AllocatedBytes() const { return allocated_; }
    // Forgets every string (their string_t values dangle): a heap reused for short-lived values
    // keeps one ordinary block, so that refilling it allocates nothing.
    void Clear();
    // Counts `bytes` its owner holds elsewhere on the heap's behalf (the sets of DISTINCT
    // aggregate states), so that AllocatedBytes is what the owner's memory reservation needs.
    void CountExternal(size_t bytes) { allocated_ += bytes; }

private:
    static constexpr size_t kBlockSize = 64 * 1024;

    std::vector<std::unique_ptr<char[]>> blocks_;
    size_t block_used_ = 0;
    size_t block_capacity_ = 0;
    size_t allocated_ = 0;
};

} // namespace sluice
