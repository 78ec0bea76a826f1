#include "common/string_heap.hpp"

#include <cstring>

namespace sluice {

char* StringHeap::Allocate(size_t length) {
    if (block_used_ + length > block_capacity_) {
        size_t capacity = length > kBlockSize ? length : kBlockSize;
        blocks_.push_back(std::make_unique<char[]>(capacity));
        block_capacity_ = capacity;
        block_used_ = 0;
        allocated_ += capacity;
    }
    char* result = blocks_.back().get() + block_used_;
    block_used_ += length;
    return result;
}

void StringHeap::Reserve(size_t bytes) {
    if (bytes == 0 || block_used_ + bytes <= block_capacity_) {
        return;
    }
    blocks_.push_back(std::make_unique<char[]>(bytes));
    block_capacity_ = bytes;
    block_used_ = 0;
    allocated_ += bytes;
}

string_t StringHeap::AddString(std::string_view text) {
    auto length = static_cast<uint32_t>(text.size());
    if (length <= string_t::kInlineLength) {
        return string_t(text.data(), length);
    }
    char* target = Allocate(length);
    std::memcpy(target, text.data(), length);
    return string_t(target, length);
}

} // namespace sluice
