#pragma once

#include "common/exception.hpp"
#include "io/file_system.hpp"

#include <cstring>
#include <string>

namespace sluice {

// A file held in memory, for fuzzers that hand the engine arbitrary bytes as a "file".
class MemoryFileHandle : public FileHandle {
public:
    MemoryFileHandle(const uint8_t* data, size_t size, std::string path = "fuzz-input.parquet")
        : data_(data), size_(size), path_(std::move(path)) {}
    const std::string& path() const override { return path_; }
    uint64_t Size() const override { return size_; }
    std::string Version() const override { return ""; }
    bool IsRemote() const override { return false; }
    void Read(void* buffer, uint64_t length, uint64_t offset, const IoContext&) override {
        if (offset > size_ || length > size_ - offset) {
            throw Exception(ErrorKind::IO, "read past the end of the fuzz input");
        }
        std::memcpy(buffer, data_ + offset, length);
    }

private:
    const uint8_t* data_;
    size_t size_;
    std::string path_;
};

// A file system of one in-memory file, whatever the path.
class MemoryFileSystem : public FileSystem {
public:
    MemoryFileSystem(const uint8_t* data, size_t size) : data_(data), size_(size) {}
    std::unique_ptr<FileHandle> Open(const std::string& path, const IoContext&) override {
        return std::make_unique<MemoryFileHandle>(data_, size_, path);
    }
    std::vector<FileInfo> Glob(const std::string& pattern) override { return {{pattern, size_}}; }

private:
    const uint8_t* data_;
    size_t size_;
};

} // namespace sluice
