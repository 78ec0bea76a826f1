#pragma once

#include "sql/logical_operator.hpp"

#include <optional>
#include <set>
#include <vector>

namespace sluice {

// Predicates over the tables of a logical plan, as the optimizer moves them: which tables an
// expression or operator reads, conjunctions split and rebuilt, and equalities recognised as
// join conditions.

// The table indexes an expression's columns come from.
std::set<idx_t> TablesOf(const Expression& expression);
// The table indexes of the columns an operator outputs.
std::set<idx_t> TablesOfOperator(const LogicalOperator& op);
bool IsSubset(const std::set<idx_t>& inner, const std::set<idx_t>& outer);

// The conjuncts of `expression` into `out`: ANDs split, TRUE dropped, and what every branch of
// an OR shares factored out of it.
void SplitConjuncts(ExpressionPtr expression, std::vector<ExpressionPtr>& out);
// The disjuncts of an OR chain into `out`.
void CollectDisjuncts(ExpressionPtr expression, std::vector<ExpressionPtr>& out);
// The conjunction of `conjuncts` (null when there are none).
ExpressionPtr CombineConjuncts(std::vector<ExpressionPtr> conjuncts);

// Adds to the conjuncts `filters` what their column equalities imply: with `a = b` and
// `a op constant` (a comparison), also `b op constant`, across every column equal to `a`
// (columns of one type only). A filter on one relation of a join then reaches the others.
void AddTransitiveFilters(std::vector<ExpressionPtr>& filters);

// If `predicate` is `a = b` with one side over `left` tables and the other over `right`, the
// join condition (left side first).
std::optional<JoinCondition> AsJoinCondition(const Expression& predicate,
                                             const std::set<idx_t>& left,
                                             const std::set<idx_t>& right);

} // namespace sluice
