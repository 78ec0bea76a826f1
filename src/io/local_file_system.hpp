#pragma once

#include "io/file_system.hpp"

#include <mutex>

namespace sluice {

class IoUringReader;

// Local files: blocking reads through pread(2), asynchronous ones through io_uring (one ring for
// the file system, made on first use) unless the kernel refuses it or local_io_uring is off, in
// which case asynchronous reads fall back to pread on the caller's ASYNC pool, once decided and
// said in each handle's ReadRoute. Accepts plain paths and file:// URLs.
class LocalFileSystem : public FileSystem {
public:
    LocalFileSystem();
    ~LocalFileSystem() override;

    std::unique_ptr<FileHandle> Open(const std::string& path, const IoContext& context) override;
    std::vector<FileInfo> Glob(const std::string& pattern) override;

    // Handles opened from now on read through io_uring or not (local_io_uring).
    void SetUseIoUring(bool use);

private:
    // The ring handles get, or null with `route` saying why not.
    IoUringReader* Ring(std::string& route);

    std::mutex mutex_;
    bool use_io_uring_ = true;
    std::unique_ptr<IoUringReader> ring_; // kept once made: open handles point to it
    std::string ring_failure_;
};

} // namespace sluice
