#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace sluice {

// A shared, uninitialised byte buffer: fetched file ranges and decompressed pages. Vectors whose
// strings point into one keep it alive (Vector::KeepAlive), which saves copying every string.
struct ByteBuffer {
    std::shared_ptr<uint8_t[]> data;
    size_t size = 0;

    static ByteBuffer Allocate(size_t size) {
        // new[] without () leaves the bytes uninitialised: they are about to be overwritten.
        return ByteBuffer{std::shared_ptr<uint8_t[]>(new uint8_t[size == 0 ? 1 : size]), size};
    }
    uint8_t* get() const { return data.get(); }
    // Bytes [offset, offset + length) of this buffer, sharing (and keeping alive) its memory.
    ByteBuffer Slice(size_t offset, size_t length) const {
        return ByteBuffer{std::shared_ptr<uint8_t[]>(data, data.get() + offset), length};
    }
};

} // namespace sluice
