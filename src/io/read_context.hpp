#pragma once

#include <atomic>
#include <cstdint>

namespace sluice {

// Counters of the requests made for one consumer (a scan), whichever file system served them.
struct ReadStatistics {
    std::atomic<uint64_t> requests{0};
    std::atomic<uint64_t> retries{0};
    std::atomic<uint64_t> bytes{0}; // received
    // Time to first byte, summed over requests that reported it (remote ones).
    std::atomic<uint64_t> first_byte_micros{0};
    std::atomic<uint64_t> first_byte_samples{0};
};

// What the reads made on this thread are for: a flag that aborts them (HTTP transfers in flight
// stop within milliseconds) and the statistics they count into. FileHandle::Read
// has no room for these, and most callers need neither, so the caller of a read sets them for
// its duration with ScopedReadContext.
struct ReadContext {
    const std::atomic<bool>* cancel = nullptr;
    ReadStatistics* statistics = nullptr;

    bool Cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }
};

const ReadContext& CurrentReadContext();

class ScopedReadContext {
public:
    explicit ScopedReadContext(ReadContext context);
    ~ScopedReadContext();
    ScopedReadContext(const ScopedReadContext&) = delete;
    ScopedReadContext& operator=(const ScopedReadContext&) = delete;

private:
    ReadContext previous_;
};

} // namespace sluice
