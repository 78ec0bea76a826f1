#include "scan/range_coalescer.hpp"

#include <algorithm>
#include <numeric>

namespace sluice {

namespace {
constexpr double kRequestUtilisation = 0.9; // of a request's time spent receiving its body
constexpr uint64_t kMinGap = 4 * 1024;
constexpr uint64_t kMaxGap = 4 * 1024 * 1024;
constexpr uint64_t kMinRequest = 1024 * 1024;
constexpr uint64_t kMaxRequest = 64 * 1024 * 1024;

uint64_t Bounded(double bytes, uint64_t low, uint64_t high) {
    return static_cast<uint64_t>(
        std::clamp(bytes, static_cast<double>(low), static_cast<double>(high)));
}
} // namespace

CoalescingOptions CoalescingForLink(double first_byte_seconds, double bytes_per_second,
                                    bool link_full) {
    double break_even = first_byte_seconds * bytes_per_second;
    CoalescingOptions options;
    options.max_gap = link_full ? kMinGap : Bounded(break_even, kMinGap, kMaxGap);
    options.max_request = Bounded(break_even * kRequestUtilisation / (1 - kRequestUtilisation),
                                  kMinRequest, kMaxRequest);
    return options;
}

CoalescedRanges CoalesceRanges(const std::vector<ByteRange>& ranges,
                               const CoalescingOptions& options) {
    CoalescedRanges result;
    result.placements.resize(ranges.size());
    std::vector<size_t> order(ranges.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return ranges[a].offset < ranges[b].offset; });
    std::vector<std::vector<size_t>> members;
    for (size_t index : order) {
        const ByteRange& range = ranges[index];
        if (!result.regions.empty() &&
            range.offset <= result.regions.back().end() + options.max_gap) {
            ByteRange& region = result.regions.back();
            region.length = std::max(region.end(), range.end()) - region.offset;
            members.back().push_back(index);
        } else {
            result.regions.push_back(range);
            members.push_back({index});
        }
    }
    for (size_t r = 0; r < result.regions.size(); r++) {
        const ByteRange& region = result.regions[r];
        for (size_t index : members[r]) {
            result.placements[index] = {r, ranges[index].offset - region.offset};
        }
        uint64_t max_request = std::max<uint64_t>(1, options.max_request);
        uint64_t pieces = std::max<uint64_t>(1, (region.length + max_request - 1) / max_request);
        // Even pieces: 9 MiB becomes two of 4.5 MiB, not 8 + 1.
        uint64_t piece = (region.length + pieces - 1) / pieces;
        for (uint64_t start = 0; start < region.length || start == 0; start += piece) {
            uint64_t length = std::min(piece, region.length - start);
            result.requests.push_back({region.offset + start, length});
            result.request_region.push_back(r);
            if (region.length == 0) {
                break;
            }
        }
    }
    return result;
}

} // namespace sluice
