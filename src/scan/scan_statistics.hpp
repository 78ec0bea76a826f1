#pragma once

#include "io/file_system.hpp"
#include "io/io_context.hpp"
#include "scan/range_coalescer.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace sluice {

// Requests in flight over time: the peak, and the mean over the time from the first request's
// start to the last one's end.
class InFlightGauge {
public:
    void Begin();
    void End();
    uint64_t peak() const;
    double Mean() const;

private:
    using Clock = std::chrono::steady_clock;
    void Advance(Clock::time_point now);

    mutable std::mutex mutex_;
    uint64_t current_ = 0;
    uint64_t peak_ = 0;
    double area_ = 0; // requests x seconds
    bool started_ = false;
    Clock::time_point first_;
    Clock::time_point last_change_;
    Clock::time_point last_end_;
};

// What one scan did, for EXPLAIN ANALYZE.
struct ScanStatistics {
    std::atomic<uint64_t> files{0};
    std::atomic<uint64_t> files_planned{0};
    std::atomic<uint64_t> files_pruned{0};   // ruled out by partition values before any request
    std::atomic<uint64_t> files_in_order{0}; // whose jobs are decoded one after the other
    std::atomic<uint64_t> jobs_scanned{0};
    std::atomic<uint64_t> jobs_pruned{0};
    std::atomic<uint64_t> jobs_pruned_by_bloom{0}; // of jobs_pruned
    std::atomic<uint64_t> units_cut{0};            // cut into page-level jobs
    std::atomic<uint64_t> rows_pruned_by_page_index{0};
    std::atomic<uint64_t> rows_filtered{0}; // dropped by pushed-down filters while decoding
    std::atomic<uint64_t> bytes_requested{0};
    std::atomic<uint64_t> bytes_from_cache{0};
    std::atomic<uint64_t> fetches{0}; // range requests the scan issued (footer reads aside)
    std::atomic<uint64_t> parks{0};
    std::atomic<uint64_t> park_nanos{0};
    std::atomic<uint64_t> depth_reached{0};  // most jobs queued or in flight at once
    std::atomic<uint64_t> budget_granted{0}; // the largest read-ahead budget granted
    std::atomic<uint64_t> budget_shrinks{0};
    std::atomic<uint64_t> held_peak{0};   // most buffer bytes held at once
    std::atomic<uint64_t> largest_job{0}; // bytes
    ReadStatistics reads; // what the file systems counted: requests, retries, bytes received
    InFlightGauge in_flight;

    void RaiseTo(std::atomic<uint64_t>& counter, uint64_t value);
    // How the scan's fetches were carried out ("io_uring", ...): each distinct one, in order.
    void NoteReadRoute(const std::string& route);
    // The handle's route, and for a remote file the controller of its host's requests in flight
    // (described as it stands when the profile is rendered).
    void NoteReads(const FileHandle& handle);
    // The coalescing a job was laid out with; `estimate` when fitted to its measured link.
    void NoteCoalescing(const CoalescingOptions& chosen,
                        const std::optional<InFlightController::RequestEstimate>& estimate);
    // Indented lines under the scan's profile line.
    std::string Render(const char* unit_name, int64_t read_ahead_depth) const;

private:
    mutable std::mutex routes_mutex_;
    std::vector<std::string> routes_;
    std::vector<std::shared_ptr<const InFlightController>> links_;
    struct CoalescingSeen {
        uint64_t jobs = 0;
        uint64_t fitted = 0;
        CoalescingOptions smallest{UINT64_MAX, UINT64_MAX};
        CoalescingOptions largest{0, 0};
        InFlightController::RequestEstimate last_estimate;
    };
    CoalescingSeen coalescing_; // under routes_mutex_
};

} // namespace sluice
