#include "scan/range_coalescer.hpp"

#include <algorithm>
#include <numeric>

namespace sluice {

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
