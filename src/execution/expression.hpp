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

enum class ExpressionKind : uint8_t {
    Constant,  // value
    ColumnRef, // column_index into the input chunk
    Cast,      // children[0] to type
    Function,  // function(children)
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
    std::string function_name;
    ScalarFunctionBody function;
    bool try_cast = false;
    std::vector<std::unique_ptr<Expression>> children;

    bool IsFoldable() const;
};

using ExpressionPtr = std::unique_ptr<Expression>;

ExpressionPtr MakeConstant(Value value);
ExpressionPtr MakeCast(ExpressionPtr child, LogicalType target, bool try_cast = false);

} // namespace sluice
