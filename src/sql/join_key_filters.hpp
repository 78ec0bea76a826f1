#pragma once

#include "sql/cardinality_estimator.hpp"
#include "sql/logical_operator.hpp"

namespace sluice {

// Hands hash joins' build keys sideways to the scans below their probe sides. For a join that
// drops probe rows without a match (inner, semi, right) and an equality whose probe key is a
// scan's column, traced down through projections, filters, sorts, aggregates' keys and the
// sides of other joins (where a row the scan drops could only have made rows that this join
// drops), the scan gets a JoinKeys TableFilter on that column when it drops rows while it reads
// (Parquet; BoundTableFunction::filters_rows): the join's
// `join_key_filters[condition]` and the filter's `join_filter` carry the same number. A build
// side estimated to have at least as many rows as the probe key has values (`estimator`, run
// over the plan) likely holds every key: it gets none.
void PushJoinKeyFilters(LogicalOperator& root, const CardinalityEstimator& estimator);

} // namespace sluice
