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
    // Changes whenever the file's content may have changed (an ETag, a modification time),
    // together with Size: caches of its footer or bytes are keyed by path, size and version.
    // Empty when unknown: nothing about the file may then be cached.
    virtual std::string Version() const = 0;
    // Remote files are worth caching in memory; local ones have the page cache.
    virtual bool IsRemote() const = 0;
};

struct FileInfo {
    std::string path;
    uint64_t size = 0; // as listed; 0 for a remote path named without wildcards (not asked)
};

// Byte access to one kind of storage. Remote schemes (http, s3) plug in behind the same
// interface.
class FileSystem {
public:
    virtual ~FileSystem() = default;
    virtual std::unique_ptr<FileHandle> Open(const std::string& path) = 0;
    // Files matching a pattern with *, ? and ** (any depth), sorted by path. A pattern without
    // wildcards names one file: local file systems check that it exists, remote ones leave that
    // to Open, which asks the server anyway (one request instead of two).
    virtual std::vector<FileInfo> Glob(const std::string& pattern) = 0;
};

// The end of every Glob: matches sorted by path, or an IO error naming the pattern when none.
std::vector<FileInfo> SortedMatches(std::vector<FileInfo> files, const std::string& pattern);

} // namespace sluice
