#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace sluice {

// A 16-byte string reference. Strings of up to 12 bytes live inside the struct itself (no pointer
// chase, no allocation); longer ones keep a 4-byte prefix for fast comparisons and point into an
// arena owned by the vector (StringHeap).
class string_t { // NOLINT: named like a primitive on purpose
public:
    static constexpr uint32_t kInlineLength = 12;

    string_t() { std::memset(this, 0, sizeof(*this)); }
    // Inline strings copy the bytes; longer strings point at `data`, which must outlive this.
    string_t(const char* data, uint32_t length) {
        value_.inlined.length = length;
        if (length <= kInlineLength) {
            std::memset(value_.inlined.inlined, 0, kInlineLength);
            if (length > 0) { // an empty view's data may be null
                std::memcpy(value_.inlined.inlined, data, length);
            }
        } else {
            std::memcpy(value_.pointer.prefix, data, 4);
            value_.pointer.ptr = data;
        }
    }

    uint32_t size() const { return value_.inlined.length; }
    bool IsInlined() const { return size() <= kInlineLength; }
    const char* data() const { return IsInlined() ? value_.inlined.inlined : value_.pointer.ptr; }
    std::string_view view() const { return {data(), size()}; }
    std::string str() const { return std::string(data(), size()); }

    // Length and the first four bytes decide most comparisons; inlined strings are zero-padded,
    // so two of them are equal exactly when their 16 bytes are.
    bool operator==(const string_t& other) const {
        uint64_t head, other_head;
        std::memcpy(&head, this, 8);
        std::memcpy(&other_head, &other, 8);
        if (head != other_head) {
            return false;
        }
        if (IsInlined()) {
            uint64_t tail, other_tail;
            std::memcpy(&tail, reinterpret_cast<const char*>(this) + 8, 8);
            std::memcpy(&other_tail, reinterpret_cast<const char*>(&other) + 8, 8);
            return tail == other_tail;
        }
        return std::memcmp(value_.pointer.ptr, other.value_.pointer.ptr, size()) == 0;
    }
    // The 16 bytes of an inlined string (its whole value), for hashing.
    void InlinedWords(uint64_t& head, uint64_t& tail) const {
        std::memcpy(&head, this, 8);
        std::memcpy(&tail, reinterpret_cast<const char*>(this) + 8, 8);
    }
    bool operator<(const string_t& other) const { return view() < other.view(); }

private:
    union {
        struct {
            uint32_t length;
            char prefix[4];
            const char* ptr;
        } pointer;
        struct {
            uint32_t length;
            char inlined[kInlineLength];
        } inlined;
    } value_;
};

static_assert(sizeof(string_t) == 16, "string_t must stay 16 bytes");

} // namespace sluice
