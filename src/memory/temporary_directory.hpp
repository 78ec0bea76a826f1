#pragma once

#include "common/types.hpp"

#include <atomic>
#include <mutex>
#include <optional>
#include <string>

namespace sluice {

// Where operators that run out of memory write their spill files (`temp_directory`), and how
// much they may write there together (`max_temp_directory_size`). The directory is created on
// the first spill and removed again when its last file closes (if this process created it);
// files are named after the process, so a later process removes what a crashed one left.
// Thread-safe.
class TemporaryDirectory {
public:
    explicit TemporaryDirectory(std::string path);
    ~TemporaryDirectory();
    TemporaryDirectory(const TemporaryDirectory&) = delete;
    TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;

    // Takes effect for files created afterwards.
    void SetPath(std::string path);
    std::string path() const;
    // nullopt: 90% of the free space of the file system when the first file is created.
    void SetMaxSize(std::optional<uint64_t> bytes);
    // The bound in force (the default computed now when unset).
    uint64_t MaxSize() const;
    uint64_t used() const { return used_.load(); }
    uint64_t files() const { return open_files_.load(); }
    uint64_t files_created() const { return next_file_.load(); }
    // Spilling is possible at all (max_temp_directory_size is not 0).
    bool enabled() const { return !max_size_ || *max_size_ > 0; }

    // Creates the directory when needed and a new, empty file in it; returns its descriptor and
    // its path. Clear errors when the directory cannot be created or written.
    int CreateFile(std::string& path);
    // The file was closed and removed.
    void FileClosed(uint64_t bytes);
    // Counts `bytes` more against max_temp_directory_size; throws OutOfMemory naming the limit
    // (and why memory was short: `reason`) when it would be passed.
    void Grow(uint64_t bytes, const std::string& reason);

    // Removes spill files of processes that no longer run from `path` (start-up cleanup).
    static void RemoveLeftovers(const std::string& path);

private:
    void RemoveDirectoryIfEmpty();

    mutable std::mutex mutex_;
    std::string path_;
    std::optional<uint64_t> max_size_;
    mutable std::optional<uint64_t> default_max_size_;
    std::string created_; // the directory this process created, removed when empty
    std::atomic<uint64_t> used_{0};
    std::atomic<uint64_t> open_files_{0};
    std::atomic<uint64_t> next_file_{0};
};

} // namespace sluice
