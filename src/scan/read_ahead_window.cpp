#include "scan/read_ahead_window.hpp"

#include <algorithm>

namespace sluice {

namespace {

// The budget a scan asks for: enough for every ASYNC thread to have two full requests of data
// (one arriving, one waiting to be decoded), and for every REGULAR thread to decode a job while
// the next one arrives (large row groups: with less, jobs would be decoded one at a time). More
// would only hold memory, not add speed.
uint64_t WantedBudget(uint32_t regular_threads, uint32_t async_threads, uint64_t largest_job,
                      const CoalescingOptions& coalescing) {
    return std::max<uint64_t>(2ULL * std::max<uint32_t>(1, async_threads) * coalescing.max_request,
                              (uint64_t{regular_threads} + 1) * largest_job);
}

} // namespace

uint64_t MaxJobBytes(uint32_t regular_threads, uint32_t async_threads,
                     const CoalescingOptions& coalescing, uint64_t memory_limit) {
    uint64_t jobs_in_hand = uint64_t{regular_threads} + 1;
    uint64_t size =
        2ULL * std::max<uint32_t>(1, async_threads) * coalescing.max_request / jobs_in_hand;
    // Read-ahead may hold half the limit (TemporaryMemoryManager): jobs in hand within half of
    // that leave room for more than one job when memory is tight.
    if (memory_limit > 0) {
        size = std::min<uint64_t>(size, memory_limit / 4 / jobs_in_hand);
    }
    return std::max<uint64_t>(size, coalescing.max_request);
}

ReadAheadWindow::ReadAheadWindow(const ScanOptions& options, const ScanServices& services,
                                 ScanStatistics& statistics)
    : options_(options), services_(services), statistics_(statistics) {
    if (options.read_ahead_depth < 0 && services.temporary_memory) {
        budget_ = services.temporary_memory->Register(0);
    }
}

bool ReadAheadWindow::Admit(uint64_t bytes) {
    if (options_.read_ahead_depth > 0) {
        return outstanding_ < static_cast<uint64_t>(options_.read_ahead_depth);
    }
    if (held_bytes_ == 0 || !budget_) {
        return true; // one job always goes: the scan must make progress
    }
    uint64_t largest_job = std::max<uint64_t>(bytes, statistics_.largest_job.load());
    uint64_t granted = budget_->Request(WantedBudget(services_.scheduler->RegularThreads(),
                                                     services_.scheduler->AsyncThreads(),
                                                     largest_job, options_.coalescing));
    statistics_.RaiseTo(statistics_.budget_granted, granted);
    return held_bytes_ + bytes <= granted;
}

void ReadAheadWindow::Add(uint64_t bytes) {
    outstanding_++;
    held_bytes_ += bytes;
    ReportInUse();
    statistics_.RaiseTo(statistics_.depth_reached, outstanding_);
    statistics_.RaiseTo(statistics_.held_peak, held_bytes_);
    statistics_.RaiseTo(statistics_.largest_job, bytes);
}

void ReadAheadWindow::DecodingStarted() {
    outstanding_--;
}

void ReadAheadWindow::Release(uint64_t bytes, bool decoding_started) {
    held_bytes_ -= bytes;
    if (!decoding_started) {
        outstanding_--;
    }
    ReportInUse();
}

uint64_t ReadAheadWindow::BudgetShrinks() const {
    return budget_ ? budget_->shrinks() : shrinks_at_close_;
}

void ReadAheadWindow::Close() {
    if (budget_) {
        shrinks_at_close_ = budget_->shrinks();
        budget_.reset();
    }
}

void ReadAheadWindow::ReportInUse() {
    if (budget_) {
        budget_->SetInUse(held_bytes_);
    }
}

} // namespace sluice
