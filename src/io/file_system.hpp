#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "io/glob_pattern.hpp"

namespace sluice {

// An open file. Read is positional and thread-safe, and it blocks: callers run it on the ASYNC
// pool (or, in synchronous drivers, accept the wait).
class FileHandle {
public:
    virtual ~FileHandle() = default;
    virtual const std::string& path() const = 0;
    virtual uint64_t Size() const = 0;
    // Reads exactly `length` bytes at `offset`; throws an IO error naming the file otherwise.
    virtual void Read(void* buffer, uint64_t length, uint64_t offset) = 0;
};

struct FileInfo {
    std::string path;
    uint64_t size = 0;
};

// Byte access to one kind of storage. Remote schemes (http, s3) plug in behind the same
// interface.
class FileSystem {
public:
    virtual ~FileSystem() = default;
    virtual std::unique_ptr<FileHandle> Open(const std::string& path) = 0;
    // Files matching a pattern with *, ? and ** (any depth), sorted by path. A pattern without
    // wildcards names one file, which must exist.
    virtual std::vector<FileInfo> Glob(const std::string& pattern) = 0;
};

} // namespace sluice
