#pragma once

#include "sql/logical_operator.hpp"

#include <map>
#include <set>
#include <vector>

namespace sluice {

// Rewrites a logical plan: pushes filters down through projections, aggregates and joins into
// scans (as TableFilters, so Parquet can skip row groups), turns WHERE x IN (subquery) into a
// semi join, splits join conditions into hash keys and residuals, orders inner joins greedily by
// estimated cardinality (smaller input builds), and prunes columns nobody reads.
class Optimizer {
public:
    LogicalOperatorPtr Optimize(LogicalOperatorPtr plan);

private:
    LogicalOperatorPtr PushDown(LogicalOperatorPtr op, std::vector<ExpressionPtr> filters);
    // `semi_joins` (semi and anti joins whose keys come from one relation of the region, their
    // left child detached) are applied to that relation before the joins are ordered.
    LogicalOperatorPtr PushDownJoinRegion(LogicalOperatorPtr op, std::vector<ExpressionPtr> filters,
                                          std::vector<LogicalOperatorPtr> semi_joins = {});
    LogicalOperatorPtr PushDownOuterJoin(LogicalOperatorPtr op, std::vector<ExpressionPtr> filters);
    LogicalOperatorPtr PushDownAroundFullJoin(LogicalOperatorPtr op,
                                              std::vector<ExpressionPtr> filters);
    void BuildOnSmallerSide(LogicalOperator& join);
    LogicalOperatorPtr ReorderJoins(std::vector<LogicalOperatorPtr> relations,
                                    std::vector<ExpressionPtr>& predicates);
    // Columns equal by the join predicates: a = b and b = c also join a's and c's relations
    // (TPC-H Q5: customers of the region's nations, before orders and lineitem).
    using EquivalenceClass = std::vector<ExpressionPtr>;
    // Moves the equalities between columns of different relations (`relation_tables`: the
    // tables of each) out of `predicates` into classes, each holding at most one column of a
    // relation, so that joining two relations' sides needs one equality per shared class.
    static std::vector<EquivalenceClass>
    ExtractEquivalenceClasses(std::vector<ExpressionPtr>& predicates,
                              const std::vector<std::set<idx_t>>& relation_tables);
    double Estimate(LogicalOperator& op);
    double DistinctEstimate(const Expression& key, double fallback) const;
    void PruneColumns(LogicalOperator& root);

    std::map<idx_t, double> base_rows_; // table index -> rows before filters
    // (table index, column) -> at most how many distinct values (from scan statistics)
    std::map<std::pair<idx_t, idx_t>, double> column_distinct_;
};

// The table indexes an expression's columns come from.
std::set<idx_t> TablesOf(const Expression& expression);

} // namespace sluice
