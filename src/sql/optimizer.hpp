#pragma once

#include "sql/cardinality_estimator.hpp"
#include "sql/logical_operator.hpp"

#include <vector>

namespace sluice {

// Rewrites a logical plan: pushes filters down through projections, aggregates and joins into
// scans (as TableFilters, so Parquet can skip row groups), turns WHERE x IN (subquery) into a
// semi join, splits join conditions into hash keys and residuals, orders each region of inner
// joins by estimated cardinality (OrderJoins), builds outer joins on their smaller side, and
// prunes columns nobody reads.
class Optimizer {
public:
    LogicalOperatorPtr Optimize(LogicalOperatorPtr plan);

private:
    LogicalOperatorPtr PushDown(LogicalOperatorPtr op, std::vector<ExpressionPtr> filters);
    // `semi_joins` (semi and anti joins whose keys come from one relation of the region, their
    // left child detached) are applied to that relation before the joins are ordered.
    LogicalOperatorPtr PushDownJoinRegion(LogicalOperatorPtr op, std::vector<ExpressionPtr> filters,
                                          std::vector<LogicalOperatorPtr> semi_joins = {});
    LogicalOperatorPtr PushDownUnion(LogicalOperatorPtr op, std::vector<ExpressionPtr> filters);
    LogicalOperatorPtr PushDownOuterJoin(LogicalOperatorPtr op, std::vector<ExpressionPtr> filters);
    LogicalOperatorPtr PushDownAroundFullJoin(LogicalOperatorPtr op,
                                              std::vector<ExpressionPtr> filters);
    void BuildOnSmallerSide(LogicalOperator& join);
    void PruneColumns(LogicalOperator& root);

    CardinalityEstimator estimator_;
};

} // namespace sluice
