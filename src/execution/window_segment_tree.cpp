#include "execution/window_segment_tree.hpp"

#include <algorithm>

namespace sluice {

WindowSegmentTree::WindowSegmentTree(const AggregateFunction& function, const uint8_t* leaves,
                                     idx_t count, idx_t stride)
    : function_(function), leaves_(leaves), stride_(stride) {
    counts_.push_back(count);
    idx_t size = stride;
    while (counts_.back() > kFanout) {
        idx_t below = counts_.back();
        idx_t nodes = (below + kFanout - 1) / kFanout;
        std::vector<uint8_t> level(nodes * size);
        const uint8_t* children = Level(levels_.size());
        for (idx_t node = 0; node < nodes; node++) {
            uint8_t* state = level.data() + node * size;
            function.initialize(state);
            idx_t end = std::min(below, (node + 1) * kFanout);
            for (idx_t child = node * kFanout; child < end; child++) {
                function.combine(children + child * size, state, heap_);
            }
        }
        levels_.push_back(std::move(level));
        counts_.push_back(nodes);
    }
}

WindowSegmentTree::~WindowSegmentTree() {
    if (!function_.destroy) {
        return;
    }
    for (idx_t level = 0; level < levels_.size(); level++) {
        for (idx_t node = 0; node < counts_[level + 1]; node++) {
            function_.destroy(levels_[level].data() + node * stride_);
        }
    }
}

void WindowSegmentTree::CombineRange(idx_t level, idx_t begin, idx_t end, uint8_t* target,
                                     StringHeap& heap) const {
    const uint8_t* states = Level(level);
    for (idx_t i = begin; i < end; i++) {
        function_.combine(states + i * stride_, target, heap);
    }
}

void WindowSegmentTree::Combine(idx_t begin, idx_t end, uint8_t* target, StringHeap& heap) const {
    // Climb while whole nodes of the level above fit: the left edge's pieces are combined on
    // the way up, the right edge's (which lie right of everything above them) on the way down.
    struct Piece {
        idx_t level, begin, end;
    };
    Piece right_pieces[64];
    idx_t right_count = 0;
    idx_t level = 0;
    while (begin < end) {
        idx_t parent_begin = (begin + kFanout - 1) / kFanout;
        idx_t parent_end = end / kFanout;
        if (level + 1 >= counts_.size() || parent_begin >= parent_end) {
            CombineRange(level, begin, end, target, heap);
            break;
        }
        CombineRange(level, begin, parent_begin * kFanout, target, heap);
        if (parent_end * kFanout < end) {
            right_pieces[right_count++] = {level, parent_end * kFanout, end};
        }
        begin = parent_begin;
        end = parent_end;
        level++;
    }
    while (right_count > 0) {
        const Piece& piece = right_pieces[--right_count];
        CombineRange(piece.level, piece.begin, piece.end, target, heap);
    }
}

} // namespace sluice
