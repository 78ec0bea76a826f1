#include "execution/window_evaluator.hpp"

#include "common/exception.hpp"
#include "execution/window_segment_tree.hpp"

#include <algorithm>
#include <cstring>

namespace sluice {

namespace {

int64_t ReadInteger(const WindowLayout& layout, idx_t column, idx_t position, bool& valid) {
    idx_t row;
    const Vector& vector = layout.At(column, position, row);
    valid = vector.RowIsValid(row);
    return valid ? vector.data<int64_t>()[row] : 0;
}

// A frame offset (ROWS or GROUPS): a non-negative row or group count.
int64_t FrameOffset(const WindowLayout& layout, idx_t column, idx_t position) {
    bool valid;
    int64_t offset = ReadInteger(layout, column, position, valid);
    if (!valid) {
        throw Exception(ErrorKind::InvalidInput, "Invalid window frame: the offset is NULL");
    }
    if (offset < 0) {
        throw Exception(ErrorKind::InvalidInput, "Invalid window frame: the offset " +
                                                     std::to_string(offset) + " is negative");
    }
    return offset;
}

struct FrameRange {
    idx_t begin, end;
};

// Computes each position's frame [begin, end) from the function's frame clause.
class FrameFinder {
public:
    FrameFinder(const WindowFrame& frame, const WindowLayout& layout, idx_t order_key,
                bool descending)
        : frame_(frame), layout_(layout), order_key_(order_key), descending_(descending) {}

    void Find(idx_t position, idx_t& begin, idx_t& end) const {
        idx_t low = layout_.PartitionBegin(position), high = layout_.PartitionEnd(position);
        begin = Bound(frame_.start, position, true, low, high);
        end = Bound(frame_.end, position, false, low, high);
        begin = std::clamp(begin, low, high);
        end = std::clamp(end, begin, high);
    }

    bool Excludes() const { return frame_.exclude != FrameExclude::NoOthers; }

    // The frame [begin, end) less what EXCLUDE takes out of it, as up to three ranges in row
    // order; returns how many.
    idx_t Pieces(idx_t position, idx_t begin, idx_t end, FrameRange pieces[3]) const {
        if (!Excludes()) {
            pieces[0] = {begin, end};
            return 1;
        }
        idx_t out_begin = position, out_end = position + 1;
        if (frame_.exclude != FrameExclude::CurrentRow) {
            out_begin = layout_.PeerBegin(position);
            out_end = layout_.PeerEnd(position);
        }
        idx_t count = 0;
        auto add = [&](idx_t from, idx_t to) {
            from = std::max(from, begin);
            to = std::min(to, end);
            if (from < to) {
                pieces[count++] = {from, to};
            }
        };
        add(begin, out_begin);
        if (frame_.exclude == FrameExclude::Ties) {
            add(position, position + 1); // the row itself stays
        }
        add(out_end, end);
        return count;
    }

private:
    // Where the frame starts (`start`) or ends (exclusive) for one bound.
    idx_t Bound(const WindowFrameBound& bound, idx_t position, bool start, idx_t low,
                idx_t high) const {
        switch (bound.kind) {
        case FrameBoundKind::UnboundedPreceding:
            return low;
        case FrameBoundKind::UnboundedFollowing:
            return high;
        case FrameBoundKind::CurrentRow:
            if (frame_.unit == FrameUnit::Rows) {
                return start ? position : position + 1;
            }
            return start ? layout_.PeerBegin(position) : layout_.PeerEnd(position);
        case FrameBoundKind::Preceding:
        case FrameBoundKind::Following:
            break;
        }
        bool preceding = bound.kind == FrameBoundKind::Preceding;
        if (frame_.unit == FrameUnit::Range) {
            return RangeBound(bound, position, start, low, high);
        }
        auto offset = static_cast<idx_t>(
            bound.constant ? *bound.constant : FrameOffset(layout_, bound.column, position));
        if (frame_.unit == FrameUnit::Rows) {
            if (preceding && offset > position - low) {
                return low; // before the partition: empty at the end, the first row at the start
            }
            if (!preceding && offset >= high - position) {
                return high;
            }
            idx_t row = preceding ? position - offset : position + offset;
            return start ? row : row + 1;
        }
        // GROUPS: whole peer groups before or after the row's.
        idx_t group = layout_.peer_of[position];
        idx_t first_group = layout_.peer_of[low], last_group = layout_.peer_of[high - 1];
        if (preceding) {
            if (offset > group - first_group) {
                return low; // before the partition: empty at the end, the first at the start
            }
            idx_t target = group - offset;
            return start ? layout_.peer_start[target] : layout_.peer_start[target + 1];
        }
        idx_t target = group + offset;
        if (target > last_group) {
            return high;
        }
        return start ? layout_.peer_start[target] : layout_.peer_start[target + 1];
    }

    // RANGE with an offset: the first row whose key reaches the bound column's value (key moved
    // by the offset), searched among the partition's rows with a key; rows without one have
    // their peers as the frame.
    idx_t RangeBound(const WindowFrameBound& bound, idx_t position, bool start, idx_t low,
                     idx_t high) const {
        idx_t key_row;
        const Vector& key = layout_.At(order_key_, position, key_row);
        if (!key.RowIsValid(key_row)) {
            return start ? layout_.PeerBegin(position) : layout_.PeerEnd(position);
        }
        idx_t target_row;
        const Vector& target = layout_.At(bound.column, position, target_row);
        if (!target.RowIsValid(target_row)) {
            throw Exception(ErrorKind::InvalidInput, "Invalid window frame: the offset is NULL");
        }
        // The rows with a key: NULL keys sort together at one end.
        idx_t row;
        if (!layout_.At(order_key_, low, row).RowIsValid(row)) {
            low = layout_.PeerEnd(low);
        }
        if (!layout_.At(order_key_, high - 1, row).RowIsValid(row)) {
            high = layout_.PeerBegin(high - 1);
        }
        // Keys ascend in the window order once the direction is applied.
        auto before = [&](idx_t candidate) {
            idx_t candidate_row;
            const Vector& candidate_key = layout_.At(order_key_, candidate, candidate_row);
            int order = CompareRows(candidate_key, candidate_row, target, target_row);
            if (descending_) {
                order = -order;
            }
            return start ? order < 0 : order <= 0;
        };
        while (low < high) {
            idx_t middle = low + (high - low) / 2;
            if (before(middle)) {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        return low;
    }

    const WindowFrame& frame_;
    const WindowLayout& layout_;
    idx_t order_key_;
    bool descending_;
};

void WriteInteger(const WindowOutput& output, idx_t position, int64_t value) {
    idx_t row;
    Vector& vector = output.At(position, row);
    vector.data<int64_t>()[row] = value;
}

void WriteDouble(const WindowOutput& output, idx_t position, double value) {
    idx_t row;
    Vector& vector = output.At(position, row);
    vector.data<double>()[row] = value;
}

void WriteNull(const WindowOutput& output, idx_t position) {
    idx_t row;
    output.At(position, row).SetNull(row);
}

// The value of column `column` at `source` into the result at `position`.
void CopyValue(const WindowLayout& layout, idx_t column, idx_t source, const WindowOutput& output,
               idx_t position) {
    idx_t source_row, row;
    const Vector& vector = layout.At(column, source, source_row);
    output.At(position, row).CopyRow(vector, source_row, row);
}

bool IsValid(const WindowLayout& layout, idx_t column, idx_t position) {
    idx_t row;
    return layout.At(column, position, row).RowIsValid(row);
}

void EvaluateRanking(const WindowFunction& function, const WindowLayout& layout,
                     const WindowOutput& output, idx_t first, idx_t last) {
    for (idx_t position = first; position < last; position++) {
        idx_t begin = layout.PartitionBegin(position);
        auto rows = static_cast<int64_t>(layout.PartitionEnd(position) - begin);
        auto rank = static_cast<int64_t>(layout.PeerBegin(position) - begin) + 1;
        // Peer groups since the partition's first.
        auto dense = static_cast<int64_t>(layout.peer_of[position] - layout.peer_of[begin]) + 1;
        switch (function.kind) {
        case WindowFunctionKind::RowNumber:
            WriteInteger(output, position, static_cast<int64_t>(position - begin) + 1);
            break;
        case WindowFunctionKind::Rank:
            WriteInteger(output, position, rank);
            break;
        case WindowFunctionKind::DenseRank:
            WriteInteger(output, position, dense);
            break;
        case WindowFunctionKind::PercentRank:
            WriteDouble(output, position,
                        rows > 1 ? static_cast<double>(rank - 1) / static_cast<double>(rows - 1)
                                 : 0.0);
            break;
        case WindowFunctionKind::CumeDist:
            WriteDouble(output, position,
                        static_cast<double>(layout.PeerEnd(position) - begin) /
                            static_cast<double>(rows));
            break;
        case WindowFunctionKind::Ntile: {
            bool valid;
            int64_t buckets = ReadInteger(layout, function.arguments[0], position, valid);
            if (!valid) {
                WriteNull(output, position);
                break;
            }
            if (buckets <= 0) {
                throw Exception(ErrorKind::InvalidInput,
                                "Argument for ntile must be greater than zero");
            }
            // As many rows in each bucket as can be, the first `large` buckets one more.
            buckets = std::min(buckets, rows);
            int64_t size = rows / buckets;
            int64_t large = rows - buckets * size;
            auto index = static_cast<int64_t>(position - begin);
            int64_t in_large = large * (size + 1);
            WriteInteger(output, position,
                         index < in_large ? 1 + index / (size + 1)
                                          : 1 + large + (index - in_large) / size);
            break;
        }
        default:
            break;
        }
    }
}

// lag and lead: the value `offset` rows before or after (counting only non-NULL values with
// IGNORE NULLS), else the default.
void EvaluateShift(const WindowFunction& function, const WindowLayout& layout,
                   const WindowOutput& output, idx_t first, idx_t last) {
    idx_t value = function.arguments[0];
    for (idx_t position = first; position < last; position++) {
        int64_t offset = 1;
        if (function.arguments.size() > 1) {
            bool valid;
            offset = ReadInteger(layout, function.arguments[1], position, valid);
            if (!valid) {
                WriteNull(output, position);
                continue;
            }
        }
        // Offsets beyond any partition (up to the whole int64 range) leave it all the same.
        constexpr int64_t kFar = int64_t(1) << 40;
        offset = std::clamp<int64_t>(offset, -kFar, kFar);
        if (function.kind == WindowFunctionKind::Lag) {
            offset = -offset;
        }
        auto low = static_cast<int64_t>(layout.PartitionBegin(position));
        auto high = static_cast<int64_t>(layout.PartitionEnd(position));
        auto current = static_cast<int64_t>(position);
        int64_t target = current + offset;
        if (function.ignore_nulls && offset != 0) {
            int64_t step = offset > 0 ? 1 : -1;
            int64_t remaining = offset > 0 ? offset : -offset;
            target = current;
            while (remaining > 0) {
                target += step;
                if (target < low || target >= high) {
                    break;
                }
                remaining -= IsValid(layout, value, static_cast<idx_t>(target)) ? 1 : 0;
            }
        }
        if (target >= low && target < high) {
            CopyValue(layout, value, static_cast<idx_t>(target), output, position);
        } else if (function.arguments.size() > 2) {
            CopyValue(layout, function.arguments[2], position, output, position);
        } else {
            WriteNull(output, position);
        }
    }
}

// first_value, last_value, nth_value over each row's frame.
void EvaluateFrameValue(const WindowFunction& function, const WindowLayout& layout,
                        const FrameFinder& frames, const WindowOutput& output, idx_t first,
                        idx_t last) {
    idx_t value = function.arguments[0];
    for (idx_t position = first; position < last; position++) {
        idx_t begin, end;
        frames.Find(position, begin, end);
        int64_t n = 1;
        if (function.kind == WindowFunctionKind::NthValue) {
            bool valid;
            n = ReadInteger(layout, function.arguments[1], position, valid);
            if (!valid) {
                WriteNull(output, position);
                continue;
            }
            if (n < 1) {
                throw Exception(ErrorKind::InvalidInput,
                                "Argument for nth_value must be greater than zero");
            }
        }
        FrameRange pieces[3];
        idx_t piece_count = frames.Pieces(position, begin, end, pieces);
        std::optional<idx_t> found;
        if (function.kind == WindowFunctionKind::LastValue) {
            for (idx_t p = piece_count; p > 0 && !found; p--) {
                for (idx_t i = pieces[p - 1].end; i > pieces[p - 1].begin && !found; i--) {
                    if (!function.ignore_nulls || IsValid(layout, value, i - 1)) {
                        found = i - 1;
                    }
                }
            }
        } else {
            for (idx_t p = 0; p < piece_count && !found; p++) {
                for (idx_t i = pieces[p].begin; i < pieces[p].end && !found; i++) {
                    if (!function.ignore_nulls || IsValid(layout, value, i)) {
                        found = --n == 0 ? std::optional<idx_t>(i) : std::nullopt;
                    }
                }
            }
        }
        if (found) {
            CopyValue(layout, value, *found, output, position);
        } else {
            WriteNull(output, position);
        }
    }
}

// Frames combined without a segment tree, whose leaves can be made as the frames reach them
// and dropped behind them: edges that never move back (no per-row offsets), and either a
// running frame (from the partition's start, only growing, without EXCLUDE) or one of at most
// `direct_rows` rows.
bool FramesStream(const WindowFrame& frame, idx_t direct_rows) {
    auto fixed = [&](const WindowFrameBound& bound) {
        bool offset =
            bound.kind == FrameBoundKind::Preceding || bound.kind == FrameBoundKind::Following;
        return !offset || (frame.unit != FrameUnit::Range && bound.constant);
    };
    if (!fixed(frame.start) || !fixed(frame.end)) {
        return false;
    }
    if (frame.start.kind == FrameBoundKind::UnboundedPreceding) {
        return frame.exclude == FrameExclude::NoOthers;
    }
    // ROWS between two offsets from the row: the frame's width.
    auto place = [](const WindowFrameBound& bound) -> std::optional<int64_t> {
        switch (bound.kind) {
        case FrameBoundKind::Preceding:
            return -*bound.constant;
        case FrameBoundKind::CurrentRow:
            return 0;
        case FrameBoundKind::Following:
            return *bound.constant;
        default:
            return std::nullopt;
        }
    };
    std::optional<int64_t> start = place(frame.start), end = place(frame.end);
    return frame.unit == FrameUnit::Rows && start && end &&
           *end - *start < static_cast<int64_t>(direct_rows);
}

// An aggregate over each row's frame: a state per row (the leaves), then per row the frame's
// states combined, reusing the previous row's result when the frame only grew at its end (a
// running total), and a segment tree for wide frames that move. Leaves live in blocks: all of
// them at once where a tree may need them, else (FramesStream) a block made when a frame first
// reaches it and dropped once frames have passed it, so that memory stays a few blocks.
class FrameAggregator {
public:
    FrameAggregator(const WindowFunction& function, const WindowLayout& layout)
        : function_(function), aggregate_(*function.aggregate), layout_(layout),
          size_((aggregate_.state_size + 15) / 16 * 16), streaming_(Streams(function.frame)),
          block_rows_(streaming_ ? kStreamedBlockRows : std::max<idx_t>(layout.size(), 1)),
          blocks_((layout.size() + block_rows_ - 1) / block_rows_), running_(size_) {
        aggregate_.initialize(running_.data());
        if (!streaming_) {
            for (idx_t block = 0; block < blocks_.size(); block++) {
                FillBlock(block);
            }
        }
    }
    ~FrameAggregator() {
        tree_.reset();
        for (idx_t block = 0; block < blocks_.size(); block++) {
            DropBlock(block);
        }
        if (aggregate_.destroy) {
            aggregate_.destroy(running_.data());
        }
    }
    FrameAggregator(const FrameAggregator&) = delete;
    FrameAggregator& operator=(const FrameAggregator&) = delete;

    static bool Streams(const WindowFrame& frame) { return FramesStream(frame, kDirectRows); }

    void Evaluate(const FrameFinder& frames, const WindowOutput& output, idx_t first, idx_t last) {
        idx_t previous_begin = 0, previous_end = 0;
        bool running = false;
        for (idx_t position = first; position < last; position++) {
            idx_t begin, end;
            frames.Find(position, begin, end);
            idx_t row;
            Vector& result = output.At(position, row);
            if (frames.Excludes()) {
                // EXCLUDE: each row's frame has a hole of its own; no reuse.
                ResetRunning();
                FrameRange pieces[3];
                idx_t count = frames.Pieces(position, begin, end, pieces);
                for (idx_t p = 0; p < count; p++) {
                    CombineRange(position, pieces[p].begin, pieces[p].end);
                }
                aggregate_.finalize(running_.data(), result, row);
                continue;
            }
            if (running && begin == previous_begin && end == previous_end) {
                idx_t previous_row;
                Vector& previous = output.At(position - 1, previous_row);
                result.CopyRow(previous, previous_row, row);
                continue;
            }
            if (running && begin == previous_begin && end >= previous_end) {
                CombineLeaves(previous_end, end);
            } else {
                ResetRunning();
                CombineRange(position, begin, end);
            }
            running = true;
            previous_begin = begin;
            previous_end = end;
            aggregate_.finalize(running_.data(), result, row);
            if (streaming_) {
                // Frames never reach back before this one's start.
                for (; first_block_ < begin / block_rows_; first_block_++) {
                    DropBlock(first_block_);
                }
            }
        }
    }

private:
    // Frames up to this many rows combine the rows' states directly.
    static constexpr idx_t kDirectRows = 64;
    static constexpr idx_t kStreamedBlockRows = 4 * kVectorSize;

    uint8_t* Leaf(idx_t position) {
        idx_t block = position / block_rows_;
        if (!blocks_[block]) {
            FillBlock(block);
        }
        return blocks_[block].get() + (position % block_rows_) * size_;
    }

    void FillBlock(idx_t block) {
        idx_t begin = block * block_rows_;
        idx_t end = std::min(layout_.size(), begin + block_rows_);
        // Left uninitialised (not zeroed): every state is initialised below.
        blocks_[block].reset(new uint8_t[(end - begin) * size_]);
        for (idx_t i = 0; i < end - begin; i++) {
            aggregate_.initialize(blocks_[block].get() + i * size_);
        }
        FillLeaves(begin, end);
    }

    void DropBlock(idx_t block) {
        if (!blocks_[block]) {
            return;
        }
        if (aggregate_.destroy) {
            idx_t rows = std::min(layout_.size() - block * block_rows_, block_rows_);
            for (idx_t i = 0; i < rows; i++) {
                aggregate_.destroy(blocks_[block].get() + i * size_);
            }
        }
        blocks_[block].reset();
    }

    // Rows [begin, end)'s argument values into their own states, a vector of rows at a time.
    void FillLeaves(idx_t begin, idx_t end) {
        std::vector<Vector> arguments;
        for (idx_t column : function_.arguments) {
            idx_t row;
            LogicalType type = layout_.size() ? layout_.At(column, 0, row).type()
                                              : LogicalType(LogicalTypeId::INTEGER);
            arguments.emplace_back(type);
        }
        std::vector<const Vector*> pointers;
        for (const auto& argument : arguments) {
            pointers.push_back(&argument);
        }
        std::vector<RowLocation> locations;
        std::vector<uint8_t*> states;
        auto owner = std::shared_ptr<const void>(layout_.chunks, [](const void*) {});
        for (idx_t start = begin; start < end; start += kVectorSize) {
            idx_t count = std::min(kVectorSize, end - start);
            locations.clear();
            states.clear();
            for (idx_t position = start; position < start + count; position++) {
                if (function_.filter && !FilterPasses(position)) {
                    continue;
                }
                locations.push_back(layout_.rows[position]);
                states.push_back(Leaf(position));
            }
            for (idx_t i = 0; i < arguments.size(); i++) {
                arguments[i].Reset();
                GatherRows(*layout_.chunks, function_.arguments[i], locations.data(),
                           locations.size(), arguments[i], 0, owner);
            }
            aggregate_.update(pointers, locations.size(), states.data(), 0, heap_);
        }
    }

    bool FilterPasses(idx_t position) const {
        idx_t row;
        const Vector& filter = layout_.At(*function_.filter, position, row);
        return filter.RowIsValid(row) && filter.data<bool>()[row];
    }

    void CombineLeaves(idx_t begin, idx_t end) {
        for (idx_t position = begin; position < end; position++) {
            aggregate_.combine(Leaf(position), running_.data(), running_heap_);
        }
    }

    // Rows [begin, end) of `position`'s partition into the running state: directly when
    // few, else through the partition's segment tree.
    void CombineRange(idx_t position, idx_t begin, idx_t end) {
        if (end - begin > kDirectRows && !streaming_) {
            idx_t low = layout_.PartitionBegin(position);
            Tree(position).Combine(begin - low, end - low, running_.data(), running_heap_);
        } else {
            CombineLeaves(begin, end);
        }
    }

    void ResetRunning() {
        if (aggregate_.destroy) {
            aggregate_.destroy(running_.data());
        }
        running_heap_.Clear();
        aggregate_.initialize(running_.data());
    }

    // The segment tree of the row's partition, built the first time a wide frame needs it.
    const WindowSegmentTree& Tree(idx_t position) {
        idx_t partition = layout_.partition_of[position];
        if (!tree_ || tree_partition_ != partition) {
            tree_.reset();
            idx_t low = layout_.PartitionBegin(position);
            tree_ = std::make_unique<WindowSegmentTree>(
                aggregate_, Leaf(low), layout_.PartitionEnd(position) - low, size_);
            tree_partition_ = partition;
        }
        return *tree_;
    }

    const WindowFunction& function_;
    const AggregateFunction& aggregate_;
    const WindowLayout& layout_;
    idx_t size_; // a state's bytes, rounded up to keep every state aligned
    bool streaming_;
    idx_t block_rows_;
    std::vector<std::unique_ptr<uint8_t[]>> blocks_; // of the leaves, null where not made
    idx_t first_block_ = 0;                          // streaming: the blocks before are dropped
    std::vector<uint8_t> running_;
    StringHeap heap_;         // long strings the leaves keep
    StringHeap running_heap_; // what the running state owns, until the next reset
    std::unique_ptr<WindowSegmentTree> tree_;
    idx_t tree_partition_ = 0;
};

} // namespace

void EvaluateWindowFunction(const WindowFunction& function, const WindowLayout& layout,
                            idx_t order_key, bool descending, const WindowOutput& output,
                            idx_t begin, idx_t end) {
    FrameFinder frames(function.frame, layout, order_key, descending);
    switch (function.kind) {
    case WindowFunctionKind::Aggregate: {
        FrameAggregator aggregator(function, layout);
        aggregator.Evaluate(frames, output, begin, end);
        return;
    }
    case WindowFunctionKind::Lag:
    case WindowFunctionKind::Lead:
        EvaluateShift(function, layout, output, begin, end);
        return;
    case WindowFunctionKind::FirstValue:
    case WindowFunctionKind::LastValue:
    case WindowFunctionKind::NthValue:
        EvaluateFrameValue(function, layout, frames, output, begin, end);
        return;
    default:
        EvaluateRanking(function, layout, output, begin, end);
        return;
    }
}

bool EvaluatesInRanges(const WindowFunction& function) {
    return function.kind != WindowFunctionKind::Aggregate ||
           (FrameAggregator::Streams(function.frame) &&
            function.frame.start.kind != FrameBoundKind::UnboundedPreceding);
}

} // namespace sluice
