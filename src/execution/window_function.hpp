#pragma once

#include "execution/aggregate_function.hpp"

#include <optional>
#include <vector>

namespace sluice {

enum class WindowFunctionKind : uint8_t {
    Aggregate, // any aggregate over the frame
    RowNumber,
    Rank,
    DenseRank,
    PercentRank,
    CumeDist,
    Ntile,      // arguments: bucket count
    Lag,        // arguments: value [, offset [, default]]
    Lead,       // arguments: value [, offset [, default]]
    FirstValue, // arguments: value; over the frame
    LastValue,  // arguments: value; over the frame
    NthValue,   // arguments: value, n; over the frame
};

enum class FrameUnit : uint8_t { Rows, Range, Groups };
enum class FrameBoundKind : uint8_t {
    UnboundedPreceding,
    Preceding,
    CurrentRow,
    Following,
    UnboundedFollowing
};

// A frame bound as the sink evaluates it. Preceding and Following read `column` of the sink's
// input: for ROWS and GROUPS the offset (a BIGINT, rows or peer groups), for RANGE the ORDER BY
// key moved by the offset (key - offset for PRECEDING in ascending order), which the frame's
// edge is searched for.
struct WindowFrameBound {
    FrameBoundKind kind = FrameBoundKind::UnboundedPreceding;
    idx_t column = 0;
    // ROWS and GROUPS with a constant offset: the offset itself (no column read per row).
    std::optional<int64_t> constant = std::nullopt;
};

// EXCLUDE: rows taken out of every frame: none, the current row, its peer group, or its peers
// but itself.
enum class FrameExclude : uint8_t { NoOthers, CurrentRow, Group, Ties };

struct WindowFrame {
    FrameUnit unit = FrameUnit::Range;
    WindowFrameBound start;
    WindowFrameBound end{FrameBoundKind::CurrentRow, 0};
    FrameExclude exclude = FrameExclude::NoOthers;
};

// One window function of a WindowSink, over columns of the sink's input.
struct WindowFunction {
    WindowFunctionKind kind = WindowFunctionKind::RowNumber;
    std::optional<AggregateFunction> aggregate = std::nullopt; // Aggregate
    std::vector<idx_t> arguments = {};
    std::optional<idx_t> filter = std::nullopt; // FILTER (WHERE ...): a BOOLEAN column
    WindowFrame frame = {};
    bool ignore_nulls = false;
    LogicalType type = LogicalTypeId::BIGINT;
};

// The non-aggregate window function called `name` (row_number, rank, lag, ...), if it is one.
std::optional<WindowFunctionKind> WindowFunctionKindOf(const std::string& name);
// Whether the function reads the frame (aggregates, first_value, last_value, nth_value); the
// others read the partition and the row's peers only.
bool UsesFrame(WindowFunctionKind kind);

} // namespace sluice
