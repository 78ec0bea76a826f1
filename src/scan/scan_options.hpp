#pragma once

#include "io/external_file_cache.hpp"
#include "io/file_system.hpp"
#include "memory/temporary_memory_manager.hpp"
#include "parallel/task_scheduler.hpp"
#include "scan/range_coalescer.hpp"

#include <cstdint>

namespace sluice {

struct ScanOptions {
    // -1: read ahead as far as the memory budget allows; N > 0: at most N jobs queued or in
    // flight; 0: none, each task fetches its own job on its own thread (the synchronous
    // baseline).
    int64_t read_ahead_depth = -1;
    // Keep fetched ranges of remote files in the ExternalFileCache and reuse them.
    bool cache_remote_ranges = false;
    // For local files, and remote ones until their link is measured; pinned values (set by
    // scan_coalesce_gap, scan_request_size) apply to every file.
    CoalescingOptions coalescing;
    bool fit_gap_to_link = true;
    bool fit_request_to_link = true;
};

// What a scan borrows from its database.
struct ScanServices {
    TaskScheduler* scheduler = nullptr;
    FileSystem* file_system = nullptr;                  // opens the files not opened at bind time
    TemporaryMemoryManager* temporary_memory = nullptr; // null: no budget (depth -1 unbounded)
    ExternalFileCache* cache = nullptr;
};

} // namespace sluice
