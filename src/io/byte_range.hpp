#pragma once

#include <cstdint>

namespace sluice {

// Bytes [offset, offset + length) of a file.
struct ByteRange {
    uint64_t offset = 0;
    uint64_t length = 0;

    uint64_t end() const { return offset + length; }
};

} // namespace sluice
