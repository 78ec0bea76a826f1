#pragma once

#include "io/byte_range.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sluice {

// How a job's byte ranges become requests. Ranges closer than `max_gap` are fetched as one
// region (a request costs a round trip, a gap only its bytes), and regions longer than
// `max_request` are split into pieces so that one large row group still puts several requests in
// flight. Each original range then lies inside one region.
struct CoalescedRanges {
    struct Placement {
        size_t region;
        uint64_t offset_in_region;
    };
    std::vector<ByteRange> regions;  // sorted, disjoint
    std::vector<ByteRange> requests; // pieces of the regions, in order
    std::vector<size_t> request_region;
    std::vector<Placement> placements; // per original range

    // What fetching all regions transfers (the ranges and the gaps read through).
    uint64_t RegionBytes() const {
        uint64_t total = 0;
        for (const ByteRange& region : regions) {
            total += region.length;
        }
        return total;
    }
};

struct CoalescingOptions {
    // A gap worth a request: about time-to-first-byte x per-connection bandwidth would be the
    // break-even, but with many requests in flight the link, not the round trip, is the limit,
    // so gap bytes cost more than extra requests. Small gaps (dictionary pages, short columns
    // between projected ones) are still read through.
    uint64_t max_gap = 64 * 1024;
    uint64_t max_request = 8 * 1024 * 1024;
};

CoalescedRanges CoalesceRanges(const std::vector<ByteRange>& ranges,
                               const CoalescingOptions& options);

} // namespace sluice
