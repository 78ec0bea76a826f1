#pragma once

#include "execution/aggregate_function.hpp"
#include "execution/expression.hpp"
#include "execution/physical_hash_join.hpp"
#include "execution/window_function.hpp"
#include "sql/table_function.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sluice {

enum class LogicalOperatorKind : uint8_t {
    Get,        // a table function or table: function, table_index, column_ids, table_filters
    Filter,     // conjuncts in `expressions`
    Projection, // `expressions` as columns of table_index
    Aggregate,  // groups (`expressions`, table_index) and `aggregates` (aggregate_index)
    Join,       // join_type over children[0] (probe) and children[1] (build)
    Order,      // orders
    Limit,      // limit, offset
    Union,      // children's columns, positionally, as columns of table_index
    Repeat,     // each row of the child expressions[0] times (a BIGINT over the child; none when
                // NULL or below one): EXCEPT ALL and INTERSECT ALL
    Window,     // the child's columns and `windows` (table_index), over partitions by
                // `expressions` ordered by `orders`
    Unnest,     // the child's columns and one element column per list in `expressions`
                // (table_index): each row once per element of its longest list
    DelimGet,   // the distinct values of dependent join `delim_index`'s delim_columns, as
                // columns of table_index (types in delim_types)
};

struct BoundAggregate {
    AggregateFunction function; // over every value; MakeDistinct wraps it when `distinct`
    std::vector<ExpressionPtr> arguments;
    bool distinct = false;
    // grouping(k1, ...): not computed from rows but per grouping set, from which of these
    // group keys (indexes into the aggregate's expressions) the set leaves out.
    std::optional<std::vector<idx_t>> grouping_keys = std::nullopt;
};

// A window function of a Window operator. Frame offsets are expressions over the child: for
// ROWS and GROUPS the offset, for RANGE the ORDER BY key moved by it (see WindowFrameBound).
struct BoundWindow {
    WindowFunctionKind kind = WindowFunctionKind::RowNumber;
    std::string name;
    std::optional<AggregateFunction> aggregate = std::nullopt;
    std::vector<ExpressionPtr> arguments = {};
    ExpressionPtr filter = nullptr;
    FrameUnit unit = FrameUnit::Range;
    FrameBoundKind start = FrameBoundKind::UnboundedPreceding;
    FrameBoundKind end = FrameBoundKind::CurrentRow;
    ExpressionPtr start_offset = nullptr;
    ExpressionPtr end_offset = nullptr;
    FrameExclude exclude = FrameExclude::NoOthers;
    bool ignore_nulls = false;
    LogicalType type = LogicalTypeId::BIGINT;
};

struct BoundOrder {
    ExpressionPtr expression;
    bool descending = false;
    bool nulls_first = false;
};

// An equality between an expression over the left input and one over the right.
struct JoinCondition {
    ExpressionPtr left;
    ExpressionPtr right;
};

// A node of the logical plan. Columns are named by ColumnBinding, so rewrites can move
// operators without renumbering: each operator lists the bindings it outputs.
struct LogicalOperator {
    LogicalOperatorKind kind;
    std::vector<std::unique_ptr<LogicalOperator>> children;

    idx_t table_index = 0;
    std::vector<ExpressionPtr> expressions;

    // Get
    std::shared_ptr<BoundTableFunction> function;
    std::string table_name;
    std::vector<idx_t> column_ids; // after pruning: the function columns read
    // Per column of column_ids, the leaves of a nested column the query reads (empty: all; see
    // PruneNestedFields). The others may come back NULL.
    std::vector<LeafMask> leaf_masks;
    std::vector<TableFilter> table_filters;

    // Aggregate
    idx_t aggregate_index = 0;
    std::vector<BoundAggregate> aggregates;
    // GROUPING SETS, ROLLUP, CUBE: the key sets (indexes into expressions), one result part
    // each, keys outside a part's set NULL there. Empty: one set of every key.
    std::vector<std::vector<idx_t>> grouping_sets;
    // When not empty, per grouping set the aggregates it computes (indexes into `aggregates`);
    // the others are NULL in its part. grouping() aggregates are in every part regardless.
    std::vector<std::vector<idx_t>> grouping_set_aggregates;

    // Join: conditions, then `residual` (any other predicate over both sides)
    PhysicalJoinType join_type = PhysicalJoinType::Inner;
    std::vector<JoinCondition> conditions;
    ExpressionPtr residual;
    // Per condition, the JoinKeys TableFilter of a scan below the probe side that gets the
    // build's keys (its join_filter; 0: none). See PushJoinKeyFilters.
    std::vector<idx_t> join_key_filters;
    idx_t mark_index = 0; // Mark: the BOOLEAN column's binding (mark_index, 0)
    // A dependent join (a flattened correlated subquery) when nonzero: the left input is
    // computed once, and the right input reads the distinct values of `delim_columns` over it
    // through DelimGet operators with the same delim_index.
    idx_t delim_index = 0;
    std::vector<ExpressionPtr> delim_columns;

    // DelimGet (delim_index too)
    std::vector<LogicalType> delim_types;

    std::vector<BoundOrder> orders;
    std::vector<BoundWindow> windows; // Window
    // Window and Unnest: the child's columns they hand on (unset: all of them); PruneColumns
    // keeps those read above, since they consume their own keys, arguments and lists.
    std::optional<std::vector<ColumnBinding>> passthrough;
    std::optional<uint64_t> limit;
    uint64_t offset = 0;
    // LIMIT / OFFSET known only when the query runs (a subquery's value): evaluated then, in
    // place of `limit` and `offset`. They read no columns.
    ExpressionPtr limit_expression;
    ExpressionPtr offset_expression;

    double estimated_rows = 0;

    explicit LogicalOperator(LogicalOperatorKind k) : kind(k) {}

    std::vector<ColumnBinding> Bindings() const;
    // Calls `visit` on each of this operator's own expressions (not its children's).
    void ForEachExpression(const std::function<void(ExpressionPtr&)>& visit);
    std::vector<LogicalType> Types() const;
    // The plan as an indented tree, for EXPLAIN.
    std::string ToString(int indent = 0) const;

private:
    // Window and Unnest: the types of the child's columns they hand on; EXPLAIN's note of them.
    std::vector<LogicalType> PassedTypes() const;
    std::string PassingText() const;
};

using LogicalOperatorPtr = std::unique_ptr<LogicalOperator>;

// A projection of `expressions` over `child`, its outputs bound as (table_index, position).
LogicalOperatorPtr MakeProjection(idx_t table_index, std::vector<ExpressionPtr> expressions,
                                  LogicalOperatorPtr child);

} // namespace sluice
