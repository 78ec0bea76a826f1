#pragma once

#include "execution/aggregate_function.hpp"

#include <vector>

namespace sluice {

// Aggregate states over a partition's rows, level upon level (each node the combination of
// kFanout nodes below), so that the aggregate of any frame combines O(kFanout x log n) states
// instead of one per row: moving frames cost the same whatever their width.
class WindowSegmentTree {
public:
    static constexpr idx_t kFanout = 16;

    // `leaves`: one state per row of the partition, `count` of them `stride` bytes apart (the
    // state size rounded up for alignment), which outlive the tree.
    WindowSegmentTree(const AggregateFunction& function, const uint8_t* leaves, idx_t count,
                      idx_t stride);
    ~WindowSegmentTree();
    WindowSegmentTree(const WindowSegmentTree&) = delete;
    WindowSegmentTree& operator=(const WindowSegmentTree&) = delete;

    // Combines rows [begin, end) into `target` (an initialised state, whose owner's `heap` takes
    // what it must own), left to right, so that order-sensitive aggregates (first, string_agg)
    // see the rows in order.
    void Combine(idx_t begin, idx_t end, uint8_t* target, StringHeap& heap) const;

private:
    const uint8_t* Level(idx_t level) const {
        return level == 0 ? leaves_ : levels_[level - 1].data();
    }
    void CombineRange(idx_t level, idx_t begin, idx_t end, uint8_t* target, StringHeap& heap) const;

    const AggregateFunction& function_;
    const uint8_t* leaves_;
    idx_t stride_;
    std::vector<std::vector<uint8_t>> levels_; // above the leaves
    std::vector<idx_t> counts_;                // states per level, the leaves first
    StringHeap heap_;                          // what the nodes above the leaves own
};

} // namespace sluice
