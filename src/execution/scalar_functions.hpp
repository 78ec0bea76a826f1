#pragma once

#include "execution/expression.hpp"

#include <optional>
#include <string>
#include <vector>

namespace sluice {

// A function chosen for concrete argument types: the binder casts each argument to
// `argument_types[i]` and then calls `body`.
struct BoundFunction {
    std::vector<LogicalType> argument_types;
    LogicalType return_type;
    ScalarFunctionBody body;
};

// The expression calling `function` on `arguments`, each cast to the type the function takes.
ExpressionPtr MakeFunction(const std::string& name, BoundFunction function,
                           std::vector<ExpressionPtr> arguments);

// The type both sides of a comparison or arithmetic are brought to, with DuckDB's rules
// (INTEGER + DECIMAL(2,1) -> DECIMAL(11,1) for comparison, FLOAT + DECIMAL -> FLOAT ...).
// nullopt when the types have no common type.
std::optional<LogicalType> CommonNumericType(const LogicalType& left, const LogicalType& right);

// Binary arithmetic: + - * / // % on numbers, DATE +/- INTEGER, DATE - DATE.
std::optional<BoundFunction> BindArithmetic(const std::string& op, const LogicalType& left,
                                            const LogicalType& right);
// Unary minus.
std::optional<BoundFunction> BindNegate(const LogicalType& operand);
// = != < <= > >= on two values of the same type (the binder brings them to one type first).
BoundFunction BindComparison(const std::string& op, const LogicalType& type);
// An INTERVAL's place in DuckDB's order as a HUGEINT (its length in microseconds, a month taken
// as 30 days): ORDER BY, min and max of intervals sort by it.
BoundFunction BindIntervalOrderKey();
// || on two VARCHARs.
BoundFunction BindConcat();

} // namespace sluice
