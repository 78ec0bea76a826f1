#pragma once

#include "common/types.hpp"
#include "common/value.hpp"
#include "common/vector.hpp"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace sluice {

// Evaluates a scalar function over `count` rows of its argument vectors into `result`.
// Arguments may be CONSTANT vectors; the function writes a FLAT or CONSTANT result.
using ScalarFunctionBody =
    std::function<void(const std::vector<const Vector*>& arguments, idx_t count, Vector& result)>;

// A column as the planner names it: the operator that produces it (table_index) and its
// position there. Survives plan rewrites; resolved to a ColumnRef just before execution.
struct ColumnBinding {
    idx_t table_index = 0;
    idx_t column_index = 0;
    bool operator==(const ColumnBinding& other) const {
        return table_index == other.table_index && column_index == other.column_index;
    }
    bool operator<(const ColumnBinding& other) const {
        return table_index != other.table_index ? table_index < other.table_index
                                                : column_index < other.column_index;
    }
};

// The value of an uncorrelated scalar or EXISTS subquery, filled in by the pipeline that runs
// the subquery before any pipeline that reads it starts.
struct SubqueryValue {
    Value value;
    bool filled = false;
};

enum class ExpressionKind : uint8_t {
    Constant,      // value
    ColumnRef,     // column_index into the input chunk
    BoundColumn,   // binding, before resolution
    SubqueryValue, // subquery_value->value
    Cast,          // children[0] to type
    Function,      // function(children)
    And,
    Or,
    Not,
    IsNull,
    IsNotNull,
};

// A bound, typed expression: what the binder produces and the ExpressionExecutor runs.
struct Expression {
    ExpressionKind kind = ExpressionKind::Constant;
    LogicalType type;
    Value value;
    idx_t column_index = 0;
    ColumnBinding binding;
    std::shared_ptr<SubqueryValue> subquery_value;
    std::string function_name;
    ScalarFunctionBody function;
    bool try_cast = false;
    std::vector<std::unique_ptr<Expression>> children;

    bool IsFoldable() const;
    // A deep copy (function bodies are shared).
    std::unique_ptr<Expression> Copy() const;
    // Same computation on the same inputs.
    bool Equals(const Expression& other) const;
    // A readable form for EXPLAIN: "(l_quantity > 24)", "sum(#3)".
    std::string ToString() const;
};

using ExpressionPtr = std::unique_ptr<Expression>;

ExpressionPtr MakeConstant(Value value);
ExpressionPtr MakeBoundColumn(ColumnBinding binding, LogicalType type);
// left AND right; a null `left` gives `right` (for building conjunctions in a loop).
ExpressionPtr MakeAnd(ExpressionPtr left, ExpressionPtr right);
ExpressionPtr MakeOr(ExpressionPtr left, ExpressionPtr right);
ExpressionPtr MakeNot(ExpressionPtr child);
ExpressionPtr MakeIsNull(ExpressionPtr child);
ExpressionPtr MakeCast(ExpressionPtr child, LogicalType target, bool try_cast = false);

} // namespace sluice
