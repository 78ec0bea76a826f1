#pragma once

#include "sql/logical_operator.hpp"

#include <map>
#include <set>
#include <vector>

namespace sluice {

// The columns `expression` reads, added to `out`.
void CollectColumns(const Expression& expression, std::set<ColumnBinding>& out);

// The columns a plan reads that no operator inside it produces: for a subquery's plan, the
// outer query's columns it is correlated with.
std::vector<ColumnBinding> FreeColumns(const LogicalOperator& plan);

// Replaces references to the columns `map` names throughout `plan`, or in one expression.
void RemapColumns(LogicalOperator& plan, const std::map<ColumnBinding, ColumnBinding>& map);
ExpressionPtr RemapColumns(ExpressionPtr expression,
                           const std::map<ColumnBinding, ColumnBinding>& map);

// Equality of two values where NULL equals NULL, as hash join keys: (a IS NULL, coalesce(a, 0))
// against the same of b. Appends the conditions to `conditions`.
void AddNullSafeConditions(std::vector<ExpressionPtr> left, std::vector<ExpressionPtr> right,
                           std::vector<JoinCondition>& conditions);

// Flattens a correlated subquery into joins, by the general method of Neumann and Kemper
// ("Unnesting Arbitrary Queries", BTW 2015), as DuckDB does. The subquery is evaluated once for
// every distinct value D of the outer columns it is correlated with, instead of once per outer
// row: D is pushed down the subquery's plan, operator by operator, until no operator below
// depends on the outer query (there D is crossed with the independent part). Each operator
// passes the D columns up: filters and projections keep them, aggregates group by them, joins
// match them. The result is joined to the outer rows on D (DELIM_JOIN; see LogicalOperator).
//
// Aggregates without GROUP BY need care: they give one row even for no input, so the flattened
// aggregate is left-joined to D, COUNT turning NULL into 0.
class SubqueryFlattener {
public:
    struct Result {
        LogicalOperatorPtr plan;
        std::vector<ColumnBinding> delim;             // where each D column is in plan's output
        std::map<ColumnBinding, ColumnBinding> moved; // old column -> its new binding
    };

    // `correlated` are the outer columns D is made of (their types beside), `delim_index` the
    // dependent join's number; new operators take table indexes from `next_table_index`.
    SubqueryFlattener(std::vector<ColumnBinding> correlated, std::vector<LogicalType> types,
                      idx_t delim_index, idx_t& next_table_index);

    Result Flatten(LogicalOperatorPtr plan);

private:
    bool DependsOnOuter(const LogicalOperator& op) const;
    LogicalOperatorPtr MakeDelimGet();
    // Rewrites the operator's own expressions: outer columns to `delim`, moved columns.
    void Rewrite(LogicalOperator& op, const std::vector<ColumnBinding>& delim,
                 const std::map<ColumnBinding, ColumnBinding>& moved) const;
    Result FlattenAggregate(LogicalOperatorPtr op);
    // LIMIT and OFFSET (over an ORDER BY or not): a row_number() per D value, filtered.
    Result FlattenLimit(LogicalOperatorPtr op);
    Result FlattenJoin(LogicalOperatorPtr op);
    Result FlattenUnion(LogicalOperatorPtr op);

    std::vector<ColumnBinding> correlated_;
    std::vector<LogicalType> types_;
    idx_t delim_index_;
    idx_t& next_table_index_;
};

} // namespace sluice
