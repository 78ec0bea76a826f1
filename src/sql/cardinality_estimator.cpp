#include "sql/cardinality_estimator.hpp"

#include <algorithm>
#include <cmath>

namespace sluice {

namespace {

constexpr double kFilterSelectivity = 0.2;

} // namespace

std::optional<double> CardinalityEstimator::KnownDistinct(const Expression& key) const {
    if (key.kind == ExpressionKind::BoundColumn) {
        auto known = column_distinct_.find({key.binding.table_index, key.binding.column_index});
        if (known != column_distinct_.end()) {
            return std::max(1.0, known->second);
        }
        auto found = base_rows_.find(key.binding.table_index);
        if (found != base_rows_.end()) {
            return std::max(1.0, found->second);
        }
    }
    if (key.kind == ExpressionKind::Cast) {
        return KnownDistinct(*key.children[0]);
    }
    return std::nullopt;
}

double CardinalityEstimator::DistinctEstimate(const Expression& key, double fallback) const {
    return KnownDistinct(key).value_or(std::max(1.0, fallback));
}

double CardinalityEstimator::Estimate(LogicalOperator& op) {
    double rows = 1;
    switch (op.kind) {
    case LogicalOperatorKind::Get:
        rows = op.function->estimated_rows >= 0 ? op.function->estimated_rows : 1000;
        base_rows_[op.table_index] = rows;
        for (idx_t id = 0; id < op.function->distinct_estimates.size(); id++) {
            if (op.function->distinct_estimates[id] >= 0) {
                column_distinct_[{op.table_index, id}] = op.function->distinct_estimates[id];
            }
        }
        break;
    case LogicalOperatorKind::Filter:
        rows = Estimate(*op.children[0]) *
               std::pow(kFilterSelectivity, static_cast<double>(op.expressions.size()));
        break;
    case LogicalOperatorKind::Projection:
        rows = Estimate(*op.children[0]);
        base_rows_[op.table_index] = rows;
        for (idx_t i = 0; i < op.expressions.size(); i++) {
            const Expression& expression = *op.expressions[i];
            if (expression.kind != ExpressionKind::BoundColumn) {
                continue;
            }
            auto known = column_distinct_.find(
                {expression.binding.table_index, expression.binding.column_index});
            if (known != column_distinct_.end()) {
                column_distinct_[{op.table_index, i}] = known->second;
            }
        }
        break;
    case LogicalOperatorKind::Aggregate:
        rows = Estimate(*op.children[0]);
        rows = op.expressions.empty() ? 1 : std::max(1.0, rows / 4);
        base_rows_[op.table_index] = rows;
        break;
    case LogicalOperatorKind::Join: {
        double left = Estimate(*op.children[0]);
        double right = Estimate(*op.children[1]);
        switch (op.join_type) {
        case PhysicalJoinType::Inner:
            rows = op.estimated_rows > 0
                       ? op.estimated_rows
                       : (op.conditions.empty() ? left * right : std::max(left, right));
            break;
        case PhysicalJoinType::Left:
            rows = std::max(left, op.estimated_rows > 0 ? op.estimated_rows : left);
            break;
        case PhysicalJoinType::Right:
            rows = std::max(right, op.estimated_rows > 0 ? op.estimated_rows : right);
            break;
        case PhysicalJoinType::Full:
            rows = std::max(left + right, op.estimated_rows);
            break;
        case PhysicalJoinType::Semi:
        case PhysicalJoinType::Anti: {
            // The share of the left rows with a match: the right side's keys among all the
            // values the key can take (half, without keys to judge by).
            double matching = 0.5;
            for (const auto& condition : op.conditions) {
                // Base rows, or the statistics' range: the values the key can take at all.
                if (auto values = KnownDistinct(*condition.right)) {
                    matching = std::min(matching, std::min(1.0, right / *values));
                }
            }
            rows = std::max(1.0, left * (op.join_type == PhysicalJoinType::Semi
                                             ? matching
                                             : 1.0 - std::min(matching, 0.9)));
            break;
        }
        case PhysicalJoinType::Mark:
            rows = left;
            break;
        }
        break;
    }
    case LogicalOperatorKind::Order:
    case LogicalOperatorKind::Repeat:
    case LogicalOperatorKind::Window:
    case LogicalOperatorKind::Unnest: // lists' lengths are unknown: as many rows as come in
        rows = Estimate(*op.children[0]);
        break;
    case LogicalOperatorKind::Limit:
        rows = Estimate(*op.children[0]);
        if (op.limit) {
            rows = std::min(rows, static_cast<double>(*op.limit));
        }
        break;
    case LogicalOperatorKind::Union:
        rows = Estimate(*op.children[0]) + Estimate(*op.children[1]);
        base_rows_[op.table_index] = rows;
        break;
    case LogicalOperatorKind::DelimGet:
        rows = op.estimated_rows > 0 ? op.estimated_rows : 1000;
        base_rows_[op.table_index] = rows;
        break;
    }
    op.estimated_rows = std::max(1.0, rows);
    return op.estimated_rows;
}

} // namespace sluice
