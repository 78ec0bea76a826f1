#include "sql/join_key_filters.hpp"

#include <algorithm>
#include <atomic>

namespace sluice {

namespace {

bool Outputs(const LogicalOperator& op, const ColumnBinding& binding) {
    std::vector<ColumnBinding> bindings = op.Bindings();
    return std::find(bindings.begin(), bindings.end(), binding) != bindings.end();
}

// The scan whose column `binding` is, below `op`, through operators that leave a row's value
// of that column as it was and whose output rows each carry it; null when there is none.
// `binding` becomes the scan's own binding of the column.
LogicalOperator* ScanOf(LogicalOperator& op, ColumnBinding& binding) {
    switch (op.kind) {
    case LogicalOperatorKind::Get:
        return binding.table_index == op.table_index ? &op : nullptr;
    case LogicalOperatorKind::Filter:
    case LogicalOperatorKind::Order:
        return ScanOf(*op.children[0], binding);
    case LogicalOperatorKind::Projection:
    case LogicalOperatorKind::Aggregate: {
        // Dropping a group's rows drops only that group; grouping sets are left alone.
        bool own = binding.table_index == op.table_index &&
                   binding.column_index < op.expressions.size() && op.grouping_sets.empty();
        if (!own) {
            return nullptr;
        }
        const Expression& expression = *op.expressions[binding.column_index];
        if (expression.kind != ExpressionKind::BoundColumn) {
            return nullptr;
        }
        binding = expression.binding;
        return ScanOf(*op.children[0], binding);
    }
    case LogicalOperatorKind::Join:
        // A row of either side without a partner above makes only rows that carry the same
        // value (or NULL, where an outer join pads), which the join above drops as well.
        if (op.delim_index) {
            return nullptr; // its left side also feeds the subquery's distinct values
        }
        for (auto& child : op.children) {
            if (Outputs(*child, binding)) {
                return ScanOf(*child, binding);
            }
        }
        return nullptr;
    default:
        // Limits, windows, unions, unnests: which rows come out depends on the others.
        return nullptr;
    }
}

void Push(LogicalOperator& op, const CardinalityEstimator& estimator, std::atomic<idx_t>& last_id) {
    for (auto& child : op.children) {
        Push(*child, estimator, last_id);
    }
    if (op.kind != LogicalOperatorKind::Join || op.delim_index ||
        (op.join_type != PhysicalJoinType::Inner && op.join_type != PhysicalJoinType::Semi &&
         op.join_type != PhysicalJoinType::Right)) {
        return;
    }
    op.join_key_filters.assign(op.conditions.size(), 0);
    for (idx_t c = 0; c < op.conditions.size(); c++) {
        const Expression& probe = *op.conditions[c].left;
        const Expression& build = *op.conditions[c].right;
        if (probe.kind != ExpressionKind::BoundColumn || probe.type != build.type ||
            !JoinKeyFilter::Supports(probe.type)) {
            continue;
        }
        std::optional<double> probe_values = estimator.KnownDistinct(probe);
        if (probe_values && op.children[1]->estimated_rows >= *probe_values) {
            continue;
        }
        ColumnBinding column = probe.binding;
        LogicalOperator* scan = ScanOf(*op.children[0], column);
        if (!scan || !scan->function->filters_rows ||
            scan->function->types[column.column_index] != probe.type) {
            continue;
        }
        TableFilter filter;
        filter.column = column.column_index;
        filter.op = TableFilter::Op::JoinKeys;
        filter.join_filter = ++last_id;
        op.join_key_filters[c] = filter.join_filter;
        scan->table_filters.push_back(std::move(filter));
    }
}

} // namespace

void PushJoinKeyFilters(LogicalOperator& root, const CardinalityEstimator& estimator) {
    // Unique in the process: plans of CTEs and subqueries may share one physical planner.
    static std::atomic<idx_t> last_id{0};
    Push(root, estimator, last_id);
}

} // namespace sluice
