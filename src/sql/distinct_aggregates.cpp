#include "sql/distinct_aggregates.hpp"

#include "execution/aggregate_function.hpp"
#include "execution/filtered_aggregate.hpp"
#include "execution/scalar_functions.hpp"

#include <algorithm>
#include <optional>

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

// The DISTINCT argument lists of an aggregate's aggregates.
struct DistinctLists {
    std::vector<const BoundAggregate*> lists;
    std::vector<idx_t> list_of; // per aggregate, its list when DISTINCT
    idx_t key_columns = 0;      // arguments over all lists
    bool plain = false;         // some aggregate is not DISTINCT
};

std::optional<DistinctLists> FindDistinctLists(const std::vector<BoundAggregate>& aggregates) {
    DistinctLists found;
    found.list_of.assign(aggregates.size(), 0);
    for (idx_t a = 0; a < aggregates.size(); a++) {
        const BoundAggregate& bound = aggregates[a];
        if (bound.grouping_keys) {
            return std::nullopt;
        }
        if (!bound.distinct) {
            found.plain = true;
            continue;
        }
        idx_t list = 0;
        while (list < found.lists.size() && !SameArguments(*found.lists[list], bound)) {
            list++;
        }
        if (list == found.lists.size()) {
            found.lists.push_back(&bound);
            found.key_columns += bound.arguments.size();
        }
        found.list_of[a] = list;
    }
    if (found.lists.empty() || found.key_columns > 62) {
        return std::nullopt;
    }
    return found;
}

// The aggregation below: the groups (moved from `aggregate`, which then reads them from here),
// then each list's arguments as keys, one grouping set per list (and one of the groups alone
// for plain aggregates), and the grouping() marker over the argument keys as aggregate 0.
// `list_keys` gets each list's key columns.
LogicalOperatorPtr DistinctSetsBelow(LogicalOperator& aggregate, const DistinctLists& found,
                                     idx_t table_index, idx_t aggregate_index,
                                     std::vector<std::vector<idx_t>>& list_keys) {
    auto below = std::make_unique<LogicalOperator>(LogicalOperatorKind::Aggregate);
    below->table_index = table_index;
    below->aggregate_index = aggregate_index;
    below->children = std::move(aggregate.children);
    std::vector<idx_t> groups;
    for (auto& group : aggregate.expressions) {
        groups.push_back(below->expressions.size());
        LogicalType type = group->type;
        ColumnBinding binding{table_index, below->expressions.size()};
        below->expressions.push_back(std::move(group));
        group = MakeBoundColumn(binding, type);
    }
    list_keys.assign(found.lists.size(), {});
    for (size_t list = 0; list < found.lists.size(); list++) {
        std::vector<idx_t> set = groups;
        for (const auto& argument : found.lists[list]->arguments) {
            list_keys[list].push_back(below->expressions.size());
            set.push_back(below->expressions.size());
            below->expressions.push_back(argument->Copy());
        }
        below->grouping_sets.push_back(std::move(set));
        below->grouping_set_aggregates.emplace_back();
    }
    if (found.plain) {
        below->grouping_sets.push_back(groups);
        below->grouping_set_aggregates.emplace_back();
    }
    AggregateFunction grouping;
    grouping.name = "grouping";
    grouping.return_type = LogicalTypeId::BIGINT;
    BoundAggregate marker{std::move(grouping), {}, false};
    marker.grouping_keys.emplace();
    for (idx_t column = groups.size(); column < below->expressions.size(); column++) {
        marker.grouping_keys->push_back(column);
    }
    below->aggregates.push_back(std::move(marker));
    return below;
}

// The grouping() bits of a set that keeps `kept` of the argument keys `keys`: 1 for each key
// left out, the first key the highest bit.
int64_t MarkerBits(const std::vector<idx_t>& keys, const std::vector<idx_t>& kept) {
    int64_t bits = 0;
    for (idx_t key : keys) {
        bool left_out = std::find(kept.begin(), kept.end(), key) == kept.end();
        bits = (bits << 1) | (left_out ? 1 : 0);
    }
    return bits;
}

} // namespace

bool ExpandDistinctAggregates(LogicalOperator& aggregate, idx_t table_index,
                              idx_t aggregate_index) {
    std::optional<DistinctLists> found = FindDistinctLists(aggregate.aggregates);
    if (!found || !aggregate.grouping_sets.empty()) {
        return false;
    }
    std::vector<std::vector<idx_t>> list_keys;
    LogicalOperatorPtr below =
        DistinctSetsBelow(aggregate, *found, table_index, aggregate_index, list_keys);
    const std::vector<idx_t> keys = *below->aggregates[0].grouping_keys; // a copy: aggregates grow
    ColumnBinding marker{aggregate_index, 0};
    // Above: each DISTINCT aggregate over its list's rows; each plain one moves below, into the
    // groups' set, and above takes the value of that set's one row per group.
    for (idx_t a = 0; a < aggregate.aggregates.size(); a++) {
        BoundAggregate& bound = aggregate.aggregates[a];
        std::vector<ExpressionPtr> arguments;
        if (bound.distinct) {
            const std::vector<idx_t>& columns = list_keys[found->list_of[a]];
            for (idx_t i = 0; i < bound.arguments.size(); i++) {
                LogicalType type = bound.arguments[i]->type;
                arguments.push_back(MakeBoundColumn({table_index, columns[i]}, type));
            }
            arguments.push_back(IsGroupingSet(marker, MarkerBits(keys, columns)));
            bound.function = MakeFiltered(std::move(bound.function));
            bound.distinct = false;
            bound.arguments = std::move(arguments);
            continue;
        }
        LogicalType type = bound.function.return_type;
        below->grouping_set_aggregates.back().push_back(below->aggregates.size());
        below->aggregates.push_back(std::move(bound));
        arguments.push_back(MakeBoundColumn({aggregate_index, below->aggregates.size() - 1}, type));
        arguments.push_back(IsGroupingSet(marker, MarkerBits(keys, {})));
        bound = BoundAggregate{MakeFiltered(*BindAggregateFunction("first", {type})),
                               std::move(arguments), false};
    }
    aggregate.children.clear();
    aggregate.children.push_back(std::move(below));
    return true;
}

} // namespace sluice
