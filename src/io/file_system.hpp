#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "io/glob_pattern.hpp"
#include "io/in_flight_controller.hpp"
#include "io/io_context.hpp"

namespace sluice {

// A read that returns at once: `done` runs when the bytes are in `buffer` (a null error) or the
// read failed, on an I/O thread. It must be quick and must not throw or wait on other I/O.
struct AsyncRead {
    void* buffer = nullptr;
    uint64_t length = 0;
    uint64_t offset = 0;
    IoContext context;
    std::function<void(std::exception_ptr error)> done;
};

// An open file. Read is positional and thread-safe, and it blocks: callers run it on the ASYNC
// pool (or, in synchronous drivers, accept the wait). Handles whose storage can be driven by
// events (HTTP, S3) also take asynchronous reads, which hold no thread while they wait.
class FileHandle {
public:
    virtual ~FileHandle() = default;
    virtual const std::string& path() const = 0;
    virtual uint64_t Size() const = 0;
    // Reads exactly `length` bytes at `offset`; throws an IO error naming the file otherwise.
    // `context` cancels the read and counts it.
    virtual void Read(void* buffer, uint64_t length, uint64_t offset, const IoContext& context) = 0;
    // Whether ReadAsync returns before the bytes arrive. When not, callers that must not wait
    // run Read on a thread that may (the ASYNC pool).
    virtual bool ReadsAsynchronously() const { return false; }
    // How asynchronous reads are carried out, for EXPLAIN ANALYZE ("io_uring", ...).
    virtual std::string ReadRoute() const { return "blocking reads on the ASYNC pool"; }
    // For remote files: what decides how many requests to their host are in flight.
    virtual std::shared_ptr<const InFlightController> InFlight() const { return nullptr; }
    // Starts `read`; `done` runs once, possibly before ReadAsync returns. The handle must outlive
    // the read. By default: Read, here.
    virtual void ReadAsync(AsyncRead read);
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
    // Opens `path` (for remote files, one request that answers the size and the last bytes,
    // made under `context`).
    virtual std::unique_ptr<FileHandle> Open(const std::string& path, const IoContext& context) = 0;
    // Files matching a pattern with *, ? and ** (any depth), sorted by path. A pattern without
    // wildcards names one file: local file systems check that it exists, remote ones leave that
    // to Open, which asks the server anyway (one request instead of two).
    virtual std::vector<FileInfo> Glob(const std::string& pattern) = 0;
};

// The end of every Glob: matches sorted by path, or an IO error naming the pattern when none.
std::vector<FileInfo> SortedMatches(std::vector<FileInfo> files, const std::string& pattern);

} // namespace sluice
