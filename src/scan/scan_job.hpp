#pragma once

#include "formats/scan_format.hpp"
#include "parallel/task.hpp"
#include "scan/background_gate.hpp"
#include "scan/range_coalescer.hpp"

#include <atomic>
#include <exception>
#include <functional>
#include <mutex>

namespace sluice {

// One job on its way from the store to a decoder: its plan, the region buffers its fetches fill,
// and the countdown they share. The fetch that brings the countdown to zero completes the job's
// I/O and wakes the scan task parked on it, if any.
class ScanJob {
public:
    ScanJob(size_t file, size_t sequence, ScanJobPlan plan, CoalescedRanges layout,
            std::shared_ptr<FileHandle> handle);

    const size_t file;
    const size_t sequence; // position among all jobs of the scan, in file / row-group order
    const ScanJobPlan plan;
    const CoalescedRanges layout;
    const std::shared_ptr<FileHandle> handle;
    // One buffer per region of `layout`: allocated for fetching, or handed out by the cache
    // (`from_cache`: nothing to fetch, nothing to keep again).
    std::vector<ByteBuffer> regions;
    std::vector<bool> from_cache;
    // Each fetch reads inside this gate; the job's handle closes it before the buffers go.
    BackgroundGate fetches;

    uint64_t Bytes() const { return layout.RegionBytes(); }
    // Arms the countdown. With zero fetches (everything cached, nothing to read) it is complete.
    void ExpectFetches(size_t count);
    // One fetch finished (with its error, if any). True for the fetch that completed the job.
    bool FetchDone(std::exception_ptr error);
    // True once every fetch is done; otherwise keeps `waker` for the last fetch to call.
    bool ReadyOrPark(const Waker& waker);
    bool Ready() const { return remaining_.load(std::memory_order_acquire) == 0; }
    // The first fetch error (only meaningful once Ready).
    std::exception_ptr error() const;
    // The plan's ranges as slices of the region buffers, in the plan's order.
    std::vector<ByteBuffer> RangeBuffers() const;

private:
    std::atomic<size_t> remaining_{0};
    mutable std::mutex mutex_;
    Waker parked_;
    std::exception_ptr error_;
};

// Owns a job for whoever holds it: the read-ahead queue, then the scan task that claimed it. When
// the handle lets go (decoded, abandoned by a LIMIT, an error, a cancellation) the job's fetches
// are stopped and waited for, and `release` gives its buffers back to the scan's accounting,
// told whether decoding had started.
class ScanJobHandle {
public:
    using Release = std::function<void(ScanJob& job, bool decoding_started)>;

    ScanJobHandle() = default;
    ScanJobHandle(std::shared_ptr<ScanJob> job, Release release)
        : job_(std::move(job)), release_(std::move(release)) {}
    ScanJobHandle(ScanJobHandle&& other) noexcept = default;
    ScanJobHandle& operator=(ScanJobHandle&& other) noexcept {
        if (this != &other) {
            Reset();
            job_ = std::move(other.job_);
            release_ = std::move(other.release_);
            decoding_ = other.decoding_;
        }
        return *this;
    }
    ScanJobHandle(const ScanJobHandle&) = delete;
    ScanJobHandle& operator=(const ScanJobHandle&) = delete;
    ~ScanJobHandle() { Reset(); }

    explicit operator bool() const { return job_ != nullptr; }
    ScanJob* operator->() const { return job_.get(); }
    ScanJob& operator*() const { return *job_; }
    void MarkDecoding() { decoding_ = true; }

    void Reset() {
        if (!job_) {
            return;
        }
        job_->fetches.CloseAndWait();
        release_(*job_, decoding_);
        job_.reset();
        decoding_ = false;
    }

private:
    std::shared_ptr<ScanJob> job_;
    Release release_;
    bool decoding_ = false;
};

} // namespace sluice
