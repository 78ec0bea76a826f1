// Coalescing a job's ranges into requests: gaps read through up to the limit, long regions split,
// and the limits fitted to a measured link by the network-metrics rule.
#include "scan/range_coalescer.hpp"

#include <gtest/gtest.h>

namespace sluice {
namespace {

TEST(RangeCoalescer, ReadsThroughShortGapsAndSplitsLongRegions) {
    CoalescingOptions options{100, 1000};
    // Two ranges 50 bytes apart become one region; one 200 bytes further is another; a range
    // of 2500 bytes is split into requests of at most 1000.
    std::vector<ByteRange> ranges{{0, 100}, {150, 100}, {450, 50}, {1000, 2500}};
    CoalescedRanges layout = CoalesceRanges(ranges, options);
    ASSERT_EQ(layout.regions.size(), 3u);
    EXPECT_EQ(layout.regions[0].offset, 0u);
    EXPECT_EQ(layout.regions[0].length, 250u);
    EXPECT_EQ(layout.regions[1].offset, 450u);
    EXPECT_EQ(layout.RegionBytes(), 250u + 50u + 2500u);
    ASSERT_EQ(layout.requests.size(), 1u + 1u + 3u);
    for (const ByteRange& request : layout.requests) {
        EXPECT_LE(request.length, 1000u);
    }
    EXPECT_EQ(layout.placements[1].region, 0u);
    EXPECT_EQ(layout.placements[1].offset_in_region, 150u);
    EXPECT_EQ(layout.placements[3].region, 2u);
}

TEST(RangeCoalescer, FitsGapAndRequestSizeToTheLink) {
    // 80 ms to first byte at 1.6 MB/s per request: a gap shorter than 128 KB costs less than a
    // request's wait, and requests of 9 x 128 KB spend 90% of their time receiving.
    CoalescingOptions far = CoalescingForLink(0.080, 1.6e6, false);
    EXPECT_EQ(far.max_gap, 128000u);
    EXPECT_EQ(far.max_request, 1152000u);
    // A fast, near link: the bounds hold (requests of at least 1 MiB, gaps of at least 4 KiB).
    CoalescingOptions lan = CoalescingForLink(0.0005, 100e6, false);
    EXPECT_EQ(lan.max_gap, 50000u);
    EXPECT_EQ(lan.max_request, 1024u * 1024u);
    CoalescingOptions local = CoalescingForLink(0.00001, 10e6, false);
    EXPECT_EQ(local.max_gap, 4096u);
    // A slow, far one: at most 4 MiB of gap and 64 MiB per request.
    CoalescingOptions slow = CoalescingForLink(1.0, 50e6, false);
    EXPECT_EQ(slow.max_gap, 4u * 1024 * 1024);
    EXPECT_EQ(slow.max_request, 64u * 1024 * 1024);
    // On a full link only the smallest gaps are read through; requests are sized as before.
    CoalescingOptions full = CoalescingForLink(0.080, 1.6e6, true);
    EXPECT_EQ(full.max_gap, 4096u);
    EXPECT_EQ(full.max_request, far.max_request);
}

} // namespace
} // namespace sluice
