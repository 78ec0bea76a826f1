#pragma once

#include "execution/scalar_functions.hpp"

#include <optional>
#include <vector>

namespace sluice {

// The type values of both types can be brought to without loss, as DuckDB picks it for CASE
// branches, COALESCE arguments and UNION columns: NULL -> the other, numbers -> the common
// numeric type, DATE with TIMESTAMP -> TIMESTAMP. nullopt when there is none.
std::optional<LogicalType> CommonSuperType(const LogicalType& left, const LogicalType& right);

// CASE WHEN c1 THEN v1 ... ELSE e END over arguments (c1, v1, ..., e), all values of `type`.
BoundFunction BindCase(size_t branch_count, const LogicalType& type);
// COALESCE(a, b, ...): the first non-NULL argument.
BoundFunction BindCoalesce(size_t argument_count, const LogicalType& type);
// x IN (c1, c2, ...) over constants of x's type `type`, with x evaluated once: true when x
// equals one, else NULL when x or a constant is NULL, else false (as x = c1 OR x = c2 ...).
// Arguments (x, c1, c2, ...); nullopt for types it does not cover (floating point, whose NaN
// the comparisons treat specially, and non-primitive layouts).
std::optional<BoundFunction> BindInConstantList(const LogicalType& type,
                                                const std::vector<Value>& constants);
// The value of a correlated scalar subquery from (rows, value) of its outer row's group: the
// value, or an error when the subquery gave more than one row.
BoundFunction BindSingleRowCheck(const LogicalType& type);

} // namespace sluice
