#include "sql/distinct_aggregates.hpp"

#include "execution/aggregate_function.hpp"
#include "execution/filtered_aggregate.hpp"
#include "execution/scalar_functions.hpp"

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

namespace {

bool SameArguments(const BoundAggregate& a, const BoundAggregate& b) {
    if (a.arguments.size() != b.arguments.size()) {
        return false;
    }
    for (idx_t i = 0; i < a.arguments.size(); i++) {
        if (!a.arguments[i]->Equals(*b.arguments[i])) {
            return false;
        }
    }
    return true;
}

// `marker = bits`: the rows of one grouping set, told apart by the grouping() marker.
ExpressionPtr IsGroupingSet(const ColumnBinding& marker, int64_t bits) {
    LogicalType type = LogicalTypeId::BIGINT;
    std::vector<ExpressionPtr> sides;
    sides.push_back(MakeBoundColumn(marker, type));
    sides.push_back(MakeConstant(Value::Integer(type, bits)));
    return MakeFunction("=", BindComparison("=", type), std::move(sides));
}

} // namespace

bool ExpandDistinctAggregates(LogicalOperator& aggregate, idx_t table_index,
                              idx_t aggregate_index) {
    auto& aggregates = aggregate.aggregates;
    // The DISTINCT argument lists, and which list each DISTINCT aggregate uses.
    std::vector<const BoundAggregate*> lists;
    std::vector<idx_t> list_of(aggregates.size(), 0);
    idx_t key_columns = 0;
    bool ordinary = false;
    for (idx_t a = 0; a < aggregates.size(); a++) {
        const BoundAggregate& bound = aggregates[a];
        if (bound.grouping_keys) {
            return false;
        }
        if (!bound.distinct) {
            ordinary = true;
            continue;
        }
        idx_t list = 0;
        while (list < lists.size() && !SameArguments(*lists[list], bound)) {
            list++;
        }
        if (list == lists.size()) {
            lists.push_back(&bound);
            key_columns += bound.arguments.size();
        }
        list_of[a] = list;
    }
    if (lists.empty() || key_columns > 62 || !aggregate.grouping_sets.empty()) {
        return false;
    }
    auto below = std::make_unique<LogicalOperator>(LogicalOperatorKind::Aggregate);
    below->table_index = table_index;
    below->aggregate_index = aggregate_index;
    below->children = std::move(aggregate.children);
    idx_t group_count = aggregate.expressions.size();
    std::vector<idx_t> groups;
    for (auto& group : aggregate.expressions) {
        groups.push_back(below->expressions.size());
        LogicalType type = group->type;
        ColumnBinding binding{table_index, below->expressions.size()};
        below->expressions.push_back(std::move(group));
        group = MakeBoundColumn(binding, type);
    }
    // Per list: its key columns below, its grouping set, and the grouping() bits of its rows
    // (1 for each key column it leaves out, the first key column the highest bit).
    std::vector<std::vector<idx_t>> list_keys(lists.size());
    for (size_t list = 0; list < lists.size(); list++) {
        std::vector<idx_t> set = groups;
        for (const auto& argument : lists[list]->arguments) {
            list_keys[list].push_back(below->expressions.size());
            set.push_back(below->expressions.size());
            below->expressions.push_back(argument->Copy());
        }
        below->grouping_sets.push_back(std::move(set));
        below->grouping_set_aggregates.emplace_back();
    }
    auto bits_of = [&](const std::vector<idx_t>& kept) {
        int64_t bits = 0;
        for (idx_t column = group_count; column < below->expressions.size(); column++) {
            bool left_out = std::find(kept.begin(), kept.end(), column) == kept.end();
            bits = (bits << 1) | (left_out ? 1 : 0);
        }
        return bits;
    };
    std::vector<idx_t> marker_keys;
    for (idx_t column = group_count; column < below->expressions.size(); column++) {
        marker_keys.push_back(column);
    }
    AggregateFunction grouping;
    grouping.name = "grouping";
    grouping.return_type = LogicalTypeId::BIGINT;
    BoundAggregate marker{std::move(grouping), {}, false};
    marker.grouping_keys = std::move(marker_keys);
    below->aggregates.push_back(std::move(marker));
    ColumnBinding marker_column{aggregate_index, 0};
    if (ordinary) {
        below->grouping_sets.push_back(groups);
        below->grouping_set_aggregates.emplace_back();
    }
    // Above: each DISTINCT aggregate over its list's rows; each ordinary one moves below, into
    // the groups' set, and above takes the value of that set's one row per group.
    for (idx_t a = 0; a < aggregates.size(); a++) {
        BoundAggregate& bound = aggregates[a];
        std::vector<ExpressionPtr> arguments;
        if (bound.distinct) {
            idx_t list = list_of[a];
            for (idx_t i = 0; i < bound.arguments.size(); i++) {
                LogicalType type = bound.arguments[i]->type;
                arguments.push_back(MakeBoundColumn({table_index, list_keys[list][i]}, type));
            }
            arguments.push_back(IsGroupingSet(marker_column, bits_of(list_keys[list])));
            bound.function = MakeFiltered(std::move(bound.function));
            bound.distinct = false;
            bound.arguments = std::move(arguments);
            continue;
        }
        LogicalType type = bound.function.return_type;
        below->grouping_set_aggregates.back().push_back(below->aggregates.size());
        below->aggregates.push_back(std::move(bound));
        arguments.push_back(MakeBoundColumn({aggregate_index, below->aggregates.size() - 1}, type));
        arguments.push_back(IsGroupingSet(marker_column, bits_of(groups)));
        bound = BoundAggregate{MakeFiltered(*BindAggregateFunction("first", {type})),
                               std::move(arguments), false};
    }
    aggregate.children.clear();
    aggregate.children.push_back(std::move(below));
    return true;
}

} // namespace sluice
