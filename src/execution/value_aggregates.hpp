#pragma once

#include "execution/aggregate_function.hpp"

#include <optional>
#include <string>
#include <vector>

namespace sluice {

// Aggregates whose state keeps input values themselves rather than a fixed-size summary:
// first, last, any_value, arg_min / arg_max (one row's values), string_agg (the text so far),
// median, quantile_cont and quantile_disc (every value of the group). DuckDB's names, result
// types and NULL rules. Their states own heap memory, so they do not spill (like DISTINCT).
std::optional<AggregateFunction> BindValueAggregate(const std::string& name,
                                                    const std::vector<LogicalType>& arguments);
bool IsValueAggregateName(const std::string& name);
// min and max of LIST, STRUCT and MAP values, which order as values (Value::Compare).
AggregateFunction NestedMinMax(const std::string& name, const LogicalType& type);

} // namespace sluice
