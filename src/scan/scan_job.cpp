#include "scan/scan_job.hpp"

namespace sluice {

ScanJob::ScanJob(size_t file, size_t sequence, ScanJobPlan plan, CoalescedRanges layout,
                 std::shared_ptr<FileHandle> handle)
    : file(file), sequence(sequence), plan(std::move(plan)), layout(std::move(layout)),
      handle(std::move(handle)) {
    regions.resize(this->layout.regions.size());
    from_cache.resize(this->layout.regions.size());
}

void ScanJob::ExpectFetches(size_t count) {
    remaining_.store(count, std::memory_order_release);
}

bool ScanJob::FetchDone(std::exception_ptr error) {
    if (error) {
        std::lock_guard<std::mutex> guard(mutex_);
        if (!error_) {
            error_ = std::move(error);
        }
    }
    if (remaining_.fetch_sub(1, std::memory_order_acq_rel) != 1) {
        return false;
    }
    Waker parked;
    {
        std::lock_guard<std::mutex> guard(mutex_);
        parked = std::move(parked_);
        parked_ = Waker();
    }
    parked.Wake();
    return true;
}

bool ScanJob::ReadyOrPark(const Waker& waker) {
    if (Ready()) {
        return true;
    }
    std::lock_guard<std::mutex> guard(mutex_);
    // Checked again under the lock: the last fetch takes the waker under the same lock after
    // counting down, so either it sees this waker or this sees the count at zero.
    if (Ready()) {
        return true;
    }
    parked_ = waker;
    return false;
}

std::exception_ptr ScanJob::error() const {
    std::lock_guard<std::mutex> guard(mutex_);
    return error_;
}

std::vector<ByteBuffer> ScanJob::RangeBuffers() const {
    std::vector<ByteBuffer> buffers;
    for (size_t i = 0; i < plan.ranges.size(); i++) {
        const CoalescedRanges::Placement& placement = layout.placements[i];
        buffers.push_back(
            regions[placement.region].Slice(placement.offset_in_region, plan.ranges[i].length));
    }
    return buffers;
}

} // namespace sluice
