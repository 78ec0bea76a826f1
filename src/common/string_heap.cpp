#include "common/string_heap.hpp"

#include "common/allocation_budget.hpp"

#include "common/exception.hpp"

#include <cstdint>
#include <cstring>
#include <limits>

namespace sluice {

void StringHeap::CheckSize(uint64_t length) {
    constexpr uint64_t kMaxLength = std::numeric_limits<uint32_t>::max();
    if (length > kMaxLength) {
        throw Exception(ErrorKind::InvalidInput, "Cannot create a string of size: '" +
                                                     std::to_string(length) +
                                                     "', the maximum supported string size is: '" +
                                                     std::to_string(kMaxLength) + "'");
    }
}

char* StringHeap::Allocate(size_t length) {
    CheckSize(length);
    if (block_used_ + length > block_capacity_) {
        size_t capacity = length > kBlockSize ? length : kBlockSize;
        AllocationBudget::Charge(capacity);
        blocks_.push_back(std::make_unique<char[]>(capacity));
        block_capacity_ = capacity;
        block_used_ = 0;
        allocated_ += capacity;
    }
    char* result = blocks_.back().get() + block_used_;
    block_used_ += length;
    return result;
}

void StringHeap::Clear() {
    if (!blocks_.empty() && block_capacity_ == kBlockSize) {
        blocks_.erase(blocks_.begin(), blocks_.end() - 1);
    } else {
        blocks_.clear();
        block_capacity_ = 0;
    }
    block_used_ = 0;
    allocated_ = block_capacity_;
}

void StringHeap::Reserve(size_t bytes) {
    if (bytes == 0 || block_used_ + bytes <= block_capacity_) {
        return;
    }
    AllocationBudget::Charge(bytes);
    blocks_.push_back(std::make_unique<char[]>(bytes));
    block_capacity_ = bytes;
    block_used_ = 0;
    allocated_ += bytes;
}

string_t StringHeap::AddString(std::string_view text) {
    CheckSize(text.size());
    auto length = static_cast<uint32_t>(text.size());
    if (length <= string_t::kInlineLength) {
        return string_t(text.data(), length);
    }
    char* target = Allocate(length);
    std::memcpy(target, text.data(), length);
    return string_t(target, length);
}

} // namespace sluice
