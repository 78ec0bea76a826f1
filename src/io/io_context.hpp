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

// What a read is for: a flag that aborts it (HTTP transfers in flight stop within milliseconds)
// and the statistics it counts into. Asynchronous reads carry theirs explicitly, since they
// finish on an I/O thread that knows nothing of the caller.
struct IoContext {
    const std::atomic<bool>* cancel = nullptr;
    ReadStatistics* statistics = nullptr;

    bool Cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }
};

// The context of the blocking reads made on this thread. FileHandle::Read has no room for one
// and most callers need none, so the caller of a blocking read sets it for its duration with
// ScopedIoContext; the I/O layer copies it into the explicit context of the request it makes.
const IoContext& CurrentIoContext();

class ScopedIoContext {
public:
    explicit ScopedIoContext(IoContext context);
    ~ScopedIoContext();
    ScopedIoContext(const ScopedIoContext&) = delete;
    ScopedIoContext& operator=(const ScopedIoContext&) = delete;

private:
    IoContext previous_;
};

} // namespace sluice
