// The segment tree behind moving window frames: every range of every size combines to what the
// rows themselves give, in row order (string_agg sees the rows left to right).
#include "execution/aggregate_function.hpp"
#include "execution/window_segment_tree.hpp"

#include <gtest/gtest.h>

#include <random>

using namespace sluice;

namespace {

// One state per row of `values` through the aggregate's update, `stride` bytes apart.
std::vector<uint8_t> Leaves(const AggregateFunction& function, const Vector& values, idx_t count,
                            idx_t stride, StringHeap& heap) {
    std::vector<uint8_t> leaves(count * stride);
    std::vector<uint8_t*> states;
    for (idx_t row = 0; row < count; row++) {
        function.initialize(leaves.data() + row * stride);
        states.push_back(leaves.data() + row * stride);
    }
    function.update({&values}, count, states.data(), 0, heap);
    return leaves;
}

Value Finalize(const AggregateFunction& function, const uint8_t* state) {
    Vector result(function.return_type);
    function.finalize(state, result, 0);
    return result.GetValue(0);
}

} // namespace

TEST(WindowSegmentTree, EveryRangeSumsItsRows) {
    constexpr idx_t kRows = 700; // three levels above the leaves at fan-out 16
    auto sum = *BindAggregateFunction("sum", {LogicalTypeId::BIGINT});
    Vector values(LogicalTypeId::BIGINT);
    std::mt19937 random(7);
    for (idx_t row = 0; row < kRows; row++) {
        values.data<int64_t>()[row] = static_cast<int64_t>(random() % 1000) - 500;
    }
    idx_t stride = (sum.state_size + 15) / 16 * 16;
    StringHeap heap;
    auto leaves = Leaves(sum, values, kRows, stride, heap);
    WindowSegmentTree tree(sum, leaves.data(), kRows, stride);
    std::vector<uint8_t> state(stride);
    for (idx_t begin = 0; begin <= kRows; begin += 13) {
        for (idx_t end = begin; end <= kRows; end += 7) {
            int64_t expected = 0;
            for (idx_t row = begin; row < end; row++) {
                expected += values.data<int64_t>()[row];
            }
            sum.initialize(state.data());
            tree.Combine(begin, end, state.data(), heap);
            Value got = Finalize(sum, state.data());
            if (begin == end) {
                EXPECT_TRUE(got.IsNull());
            } else {
                EXPECT_EQ(static_cast<int64_t>(got.GetInteger()), expected)
                    << "rows [" << begin << ", " << end << ")";
            }
        }
    }
}

TEST(WindowSegmentTree, RangesCombineInRowOrder) {
    constexpr idx_t kRows = 300;
    auto concat = *BindAggregateFunction("string_agg", {LogicalTypeId::VARCHAR});
    Vector values(LogicalTypeId::VARCHAR);
    for (idx_t row = 0; row < kRows; row++) {
        values.data<string_t>()[row] = values.AddString(std::to_string(row));
    }
    idx_t stride = (concat.state_size + 15) / 16 * 16;
    StringHeap heap;
    auto leaves = Leaves(concat, values, kRows, stride, heap);
    {
        WindowSegmentTree tree(concat, leaves.data(), kRows, stride);
        std::vector<uint8_t> state(stride);
        for (auto [begin, end] : {std::pair<idx_t, idx_t>{0, 300}, {5, 290}, {17, 33}, {31, 289}}) {
            std::string expected;
            for (idx_t row = begin; row < end; row++) {
                expected += (row == begin ? "" : ",") + std::to_string(row);
            }
            concat.initialize(state.data());
            tree.Combine(begin, end, state.data(), heap);
            EXPECT_EQ(Finalize(concat, state.data()).GetString(), expected);
            concat.destroy(state.data());
        }
    }
    for (idx_t row = 0; row < kRows; row++) {
        concat.destroy(leaves.data() + row * stride);
    }
}
