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

// The fixed values serve local files, and remote ones until their link has been measured
// (CoalescingForLink); the scan_coalesce_gap and scan_request_size settings pin them.
struct CoalescingOptions {
    uint64_t max_gap = 64 * 1024;
    uint64_t max_request = 8 * 1024 * 1024;
};

CoalescedRanges CoalesceRanges(const std::vector<ByteRange>& ranges,
                               const CoalescingOptions& options);

// Coalescing fitted to what one request sees of the link: `first_byte_seconds` until its first
// byte, then `bytes_per_second` (its share of the link while the others run). Arrow's rule from
// network metrics (CacheOptions::MakeFromNetworkMetrics) holds while requests are what is
// scarce:
//   - a gap costs its bytes at the request's bandwidth, a separate request one more wait for a
//     first byte: a gap is read through when shorter than first byte x bandwidth;
//   - a request is long enough when the wait for its first byte is at most a tenth of its time
//     (9 x first byte x bandwidth): longer ones put fewer requests of a large job in flight at
//     once and gain at most that tenth.
// On a full link (`link_full`: more requests in flight bring no more bandwidth) a request's wait
// costs nothing (others fill the link meanwhile) and every byte of a gap costs link time, so
// only gaps of the smallest size are read through. On the rig's far profile, TPC-H Q6 read 8%
// more bytes and took 4% longer with Arrow's gaps there.
// Bounded: a gap to [4 KiB, 4 MiB], a request to [1 MiB, 64 MiB].
CoalescingOptions CoalescingForLink(double first_byte_seconds, double bytes_per_second,
                                    bool link_full);

} // namespace sluice
