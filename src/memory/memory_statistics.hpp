#pragma once

#include "common/types.hpp"

#include <atomic>
#include <cstdint>
#include <string>

namespace sluice {

// What one operator holds, held at most and spilled, for EXPLAIN ANALYZE (its reservations
// report to it). Thread-safe.
struct MemoryStatistics {
    std::atomic<uint64_t> memory{0};
    std::atomic<uint64_t> peak_memory{0};
    std::atomic<uint64_t> spilled_bytes{0};
    std::atomic<uint64_t> spill_files{0};
    std::atomic<uint64_t> read_back_bytes{0};

    void Grow(uint64_t bytes) {
        uint64_t now = memory.fetch_add(bytes) + bytes;
        uint64_t peak = peak_memory.load();
        while (now > peak && !peak_memory.compare_exchange_weak(peak, now)) {
        }
    }
    void Shrink(uint64_t bytes) { memory.fetch_sub(bytes); }
    // "    memory: peak 12.0 MiB; spilled 80.0 MiB in 9 files, read back 80.0 MiB\n"
    std::string Render() const;
};

} // namespace sluice
