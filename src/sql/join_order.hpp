#pragma once

#include "sql/cardinality_estimator.hpp"
#include "sql/logical_operator.hpp"

#include <vector>

namespace sluice {

// Joins `relations` (the inputs of a region of inner joins, their own filters already inside)
// into one tree by `predicates` (the conditions over several of them). Regions of up to 12
// relations are ordered exhaustively, by dynamic programming over subsets, for the least sum of
// estimated intermediate rows; larger ones greedily, the connected pair with the smallest
// result first. Equalities between columns form equivalence classes, so a = b and b = c also
// join a's and c's relations. Each join builds on its smaller input. The predicates no join
// used stay in `predicates`.
LogicalOperatorPtr OrderJoins(std::vector<LogicalOperatorPtr> relations,
                              std::vector<ExpressionPtr>& predicates,
                              CardinalityEstimator& estimator);

} // namespace sluice
