#pragma once

#include "sql/logical_operator.hpp"

#include <map>
#include <optional>
#include <utility>

namespace sluice {

// Estimated row counts of logical operators, for ordering joins and choosing build sides:
// scans from their files' metadata, filters by a fixed selectivity per conjunct, joins by the
// distinct values of their keys (from scan statistics where known). Remembers what it learns
// about the tables it has seen, so later estimates can use their columns' distinct counts.
class CardinalityEstimator {
public:
    // The rows `op` is estimated to produce (also stored in op.estimated_rows).
    double Estimate(LogicalOperator& op);
    // At most how many distinct values `key` takes: its column's statistics, else its table's
    // rows, else `fallback`.
    double DistinctEstimate(const Expression& key, double fallback) const;
    // The same without a fallback: nullopt when neither statistics nor the table are known.
    std::optional<double> KnownDistinct(const Expression& key) const;

private:
    std::map<idx_t, double> base_rows_; // table index -> rows before filters
    // (table index, column) -> at most how many distinct values (from scan statistics)
    std::map<std::pair<idx_t, idx_t>, double> column_distinct_;
};

} // namespace sluice
