#include "sql/distinct_aggregates.hpp"

namespace sluice {

bool SplitDistinctAggregates(LogicalOperator& aggregate, idx_t table_index, idx_t aggregate_index) {
    auto& aggregates = aggregate.aggregates;
    if (aggregates.empty() || aggregates[0].arguments.empty()) {
        return false;
    }
    for (const auto& bound : aggregates) {
        if (!bound.distinct || bound.arguments.size() != aggregates[0].arguments.size()) {
            return false;
        }
        for (idx_t i = 0; i < bound.arguments.size(); i++) {
            if (!bound.arguments[i]->Equals(*aggregates[0].arguments[i])) {
                return false;
            }
        }
    }
    // Below: the groups and the arguments as keys, no aggregates (a DISTINCT of both).
    auto below = std::make_unique<LogicalOperator>(LogicalOperatorKind::Aggregate);
    below->table_index = table_index;
    below->aggregate_index = aggregate_index;
    below->children = std::move(aggregate.children);
    idx_t group_count = aggregate.expressions.size();
    for (auto& group : aggregate.expressions) {
        ColumnBinding binding{table_index, below->expressions.size()};
        LogicalType type = group->type;
        below->expressions.push_back(std::move(group));
        group = MakeBoundColumn(binding, type);
    }
    for (auto& argument : aggregates[0].arguments) {
        below->expressions.push_back(argument->Copy());
    }
    // Above: the same aggregates without DISTINCT, over the distinct arguments.
    for (auto& bound : aggregates) {
        bound.distinct = false;
        for (idx_t i = 0; i < bound.arguments.size(); i++) {
            LogicalType type = bound.arguments[i]->type;
            bound.arguments[i] = MakeBoundColumn({table_index, group_count + i}, type);
        }
    }
    aggregate.children.clear();
    aggregate.children.push_back(std::move(below));
    return true;
}

} // namespace sluice
