#include "formats/parquet/value_dictionary.hpp"

#include <cstring>
#include <functional>

namespace sluice::parquet {

uint64_t ValueDictionary::Hash(std::string_view value) const {
    if (width_ == 4 || width_ == 8) {
        uint64_t bits = 0;
        std::memcpy(&bits, value.data(), static_cast<size_t>(width_));
        bits *= 0x9E3779B97F4A7C15ull;
        return bits ^ (bits >> 29);
    }
    return std::hash<std::string_view>()(value);
}

void ValueDictionary::Rebuild(size_t capacity) {
    slots_.assign(capacity, 0);
    size_t mask = capacity - 1;
    for (size_t entry = 0; entry < hashes_.size(); entry++) {
        size_t slot = hashes_[entry] & mask;
        while (slots_[slot] != 0) {
            slot = (slot + 1) & mask;
        }
        slots_[slot] = static_cast<uint32_t>(entry + 1);
    }
}

bool ValueDictionary::Same(uint32_t entry, std::string_view value) const {
    const uint8_t* stored = entries_.fixed.data() + static_cast<size_t>(entry) * width_;
    if (width_ == 8) {
        uint64_t a, b;
        std::memcpy(&a, stored, 8);
        std::memcpy(&b, value.data(), 8);
        return a == b;
    }
    if (width_ == 4) {
        uint32_t a, b;
        std::memcpy(&a, stored, 4);
        std::memcpy(&b, value.data(), 4);
        return a == b;
    }
    return entries_.Value(entry, width_) == value;
}

uint32_t ValueDictionary::Insert(std::string_view value) {
    if ((hashes_.size() + 1) * 2 > slots_.size()) {
        Rebuild(slots_.empty() ? 1024 : slots_.size() * 2);
    }
    uint64_t hash = Hash(value);
    size_t mask = slots_.size() - 1;
    size_t slot = hash & mask;
    while (slots_[slot] != 0) {
        uint32_t entry = slots_[slot] - 1;
        if (hashes_[entry] == hash && Same(entry, value)) {
            return entry;
        }
        slot = (slot + 1) & mask;
    }
    auto entry = static_cast<uint32_t>(hashes_.size());
    slots_[slot] = entry + 1;
    hashes_.push_back(hash);
    if (width_ == 0) {
        entries_.AppendBinary(value);
    } else {
        entries_.fixed.insert(entries_.fixed.end(), value.begin(), value.end());
    }
    entries_.count++;
    return entry;
}

void ValueDictionary::Truncate(size_t size) {
    if (size >= hashes_.size()) {
        return;
    }
    hashes_.resize(size);
    entries_.count = size;
    if (width_ == 0) {
        entries_.ends.resize(size);
        entries_.fixed.resize(size == 0 ? 0 : entries_.ends.back());
    } else {
        entries_.fixed.resize(size * static_cast<size_t>(width_));
    }
    Rebuild(slots_.size());
}

} // namespace sluice::parquet
