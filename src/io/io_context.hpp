#pragma once

#include <atomic>
#include <cstdint>

namespace sluice {

// Counters of the requests made for one consumer (a scan), whichever file system served them.
struct ReadStatistics {
    std::atomic<uint64_t> requests{0};
    std::atomic<uint64_t> retries{0};
    std::atomic<uint64_t> hedged{0}; // requests sent again because the first was slow to answer
    std::atomic<uint64_t> bytes{0};  // received
    // Connections opened for these requests: each a TLS handshake for HTTPS.
    std::atomic<uint64_t> connections{0};
    // Time to first byte, summed over requests that reported it (remote ones).
    std::atomic<uint64_t> first_byte_micros{0};
    std::atomic<uint64_t> first_byte_samples{0};
};

// What a read is for: a flag that aborts it (HTTP transfers in flight stop within milliseconds)
// and the statistics it counts into. Every read and every open carries one explicitly, blocking
// or not: a transfer may be driven by a thread that knows nothing of its caller. An empty
// context (nothing to cancel, nothing to count) is the simple caller's.
struct IoContext {
    const std::atomic<bool>* cancel = nullptr;
    ReadStatistics* statistics = nullptr;

    bool Cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }
};

} // namespace sluice
