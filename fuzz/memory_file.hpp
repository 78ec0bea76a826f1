#pragma once

#include "common/exception.hpp"
#include "io/file_system.hpp"

#include <cstring>
#include <string>

namespace sluice {

// A file held in memory, for fuzzers that hand the engine arbitrary bytes as a "file".
class MemoryFileHandle : public FileHandle {
public:
    MemoryFileHandle(const uint8_t* data, size_t size) : data_(data), size_(size) {}
    const std::string& path() const override { return path_; }
    uint64_t Size() const override { return size_; }
    std::string Version() const override { return ""; }
    bool IsRemote() const override { return false; }
    void Read(void* buffer, uint64_t length, uint64_t offset) override {
        if (offset > size_ || length > size_ - offset) {
            throw Exception(ErrorKind::IO, "read past the end of the fuzz input");
        }
        std::memcpy(buffer, data_ + offset, length);
    }

private:
    const uint8_t* data_;
    size_t size_;
    std::string path_ = "fuzz-input.parquet";
};

} // namespace sluice
