#pragma once

#include "scan/scan_options.hpp"
#include "scan/scan_statistics.hpp"

#include <cstdint>
#include <memory>

namespace sluice {

// The size a scan's jobs should not much exceed: the size at which every REGULAR thread decoding
// one job while the next arrives holds no more than the ASYNC threads' requests in flight do (so
// a huge row group is cut into jobs that many threads fetch and decode at once); smaller under a
// memory limit that could not hold that many such jobs; never below one request.
uint64_t MaxJobBytes(uint32_t regular_threads, uint32_t async_threads,
                     const CoalescingOptions& coalescing, uint64_t memory_limit);

// How far a scan reads ahead of its decoding: the jobs created whose decoding has not started
// ("outstanding") and the bytes of the jobs not yet released ("held"), and whether one more job
// may go. With a fixed read_ahead_depth, at most that many jobs are outstanding; with -1 the held
// bytes stay within what the temporary memory manager grants (shared with joins, aggregates and
// sorts, so it shrinks under pressure). One job always goes, so a scan always progresses.
// Not thread-safe: the scan calls it under its own lock.
class ReadAheadWindow {
public:
    ReadAheadWindow(const ScanOptions& options, const ScanServices& services,
                    ScanStatistics& statistics);

    // Whether a job of `bytes` may be created now.
    bool Admit(uint64_t bytes);
    // A job of `bytes` was created.
    void Add(uint64_t bytes);
    // A job's decoding started: it no longer counts as outstanding.
    void DecodingStarted();
    // A job of `bytes` let go of its buffers (decoded, or abandoned before decoding started).
    void Release(uint64_t bytes, bool decoding_started);

    uint64_t BudgetShrinks() const;
    // The scan is over: the grant goes back to the temporary memory manager now, even while a
    // finished fetch task still holds the scan's state for a moment.
    void Close();

private:
    void ReportInUse();

    const ScanOptions& options_;
    const ScanServices& services_;
    ScanStatistics& statistics_;
    std::unique_ptr<TemporaryMemoryState> budget_; // with read_ahead_depth = -1
    uint64_t outstanding_ = 0;
    uint64_t held_bytes_ = 0;
    uint64_t shrinks_at_close_ = 0;
};

} // namespace sluice
