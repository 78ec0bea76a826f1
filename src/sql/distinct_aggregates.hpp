#pragma once

#include "sql/logical_operator.hpp"

namespace sluice {

// count(DISTINCT x), sum(DISTINCT x), ... as two ordinary aggregations, as DuckDB plans them when
// it can: GROUP BY (groups, x) removes the duplicates, then GROUP BY groups runs count(x), sum(x)
// over what is left. Both are hash aggregates that account their memory and spill, where the
// per-group sets of a DISTINCT state would hold every value in memory, uncounted.
//
// Applies when every aggregate of `aggregate` is DISTINCT over the same arguments; the aggregate
// keeps its bindings (its table and aggregate indexes), and the new aggregate below it gets
// `table_index` and `aggregate_index`. Returns whether it applied.
bool SplitDistinctAggregates(LogicalOperator& aggregate, idx_t table_index, idx_t aggregate_index);

// DISTINCT aggregates over different arguments, or beside ordinary aggregates, as two
// aggregations too: below, one grouping set per DISTINCT argument list, GROUP BY (groups,
// arguments) with no aggregate (the distinct values), plus a set of the groups alone for the
// ordinary aggregates; above, GROUP BY groups, each DISTINCT aggregate over its set's rows and
// each ordinary one taking its value from the groups' set. One pass over the input, each set a
// hash aggregate that spills, instead of a set of values per group in memory.
//
// Applies to an aggregate without grouping sets or grouping() with some DISTINCT aggregate;
// the same bindings as SplitDistinctAggregates. Returns whether it applied.
bool ExpandDistinctAggregates(LogicalOperator& aggregate, idx_t table_index, idx_t aggregate_index);

} // namespace sluice
