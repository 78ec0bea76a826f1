#include "sql/subquery_flattener.hpp"

#include "common/cast.hpp"
#include "common/exception.hpp"
#include "execution/conditional_functions.hpp"
#include "execution/scalar_functions.hpp"

#include <algorithm>
#include <functional>
#include <set>

namespace sluice {

void CollectColumns(const Expression& expression, std::set<ColumnBinding>& out) {
    if (expression.kind == ExpressionKind::BoundColumn) {
        out.insert(expression.binding);
    }
    for (const auto& child : expression.children) {
        CollectColumns(*child, out);
    }
}

namespace {

void CollectProducedAndRead(LogicalOperator& op, std::set<ColumnBinding>& produced,
                            std::set<ColumnBinding>& read) {
    for (const auto& binding : op.Bindings()) {
        produced.insert(binding);
    }
    if (op.kind == LogicalOperatorKind::Get) {
        // A scan produces every column of its table, read or not.
        for (idx_t id = 0; id < op.function->types.size(); id++) {
            produced.insert({op.table_index, id});
        }
    }
    if (op.kind == LogicalOperatorKind::Aggregate) {
        for (idx_t i = 0; i < op.aggregates.size(); i++) {
            produced.insert({op.aggregate_index, i});
        }
    }
    op.ForEachExpression([&](ExpressionPtr& expression) { CollectColumns(*expression, read); });
    for (auto& child : op.children) {
        CollectProducedAndRead(*child, produced, read);
    }
}

// 0 of `type`, the stand-in for NULL in null-safe join keys.
Value ZeroOf(const LogicalType& type) {
    switch (type.id()) {
    case LogicalTypeId::VARCHAR:
        return Value::Varchar("");
    case LogicalTypeId::BLOB:
        return Value::Blob("");
    case LogicalTypeId::BOOLEAN:
        return Value::Boolean(false);
    case LogicalTypeId::INTERVAL:
        return Value::Interval(interval_t{});
    default:
        break;
    }
    Value zero;
    if (TryCastValue(Value::Integer(LogicalTypeId::INTEGER, 0), type, zero)) {
        return zero;
    }
    throw Exception(ErrorKind::NotImplemented, "correlated subqueries over columns of type " +
                                                   type.ToString() + " are not supported");
}

std::vector<ExpressionPtr> NullSafeKey(ExpressionPtr value) {
    LogicalType type = value->type;
    ExpressionPtr is_null = MakeIsNull(value->Copy());
    std::vector<ExpressionPtr> arguments;
    arguments.push_back(std::move(value));
    arguments.push_back(MakeConstant(ZeroOf(type)));
    std::vector<ExpressionPtr> key;
    key.push_back(std::move(is_null));
    key.push_back(MakeFunction("coalesce", BindCoalesce(2, type), std::move(arguments)));
    return key;
}

bool IsCount(const AggregateFunction& function) {
    return function.name == "count" || function.name == "count_star";
}

LogicalOperatorPtr MakeJoin(PhysicalJoinType type, LogicalOperatorPtr left,
                            LogicalOperatorPtr right) {
    auto join = std::make_unique<LogicalOperator>(LogicalOperatorKind::Join);
    join->join_type = type;
    join->children.push_back(std::move(left));
    join->children.push_back(std::move(right));
    return join;
}

std::vector<ExpressionPtr> Columns(const std::vector<ColumnBinding>& bindings,
                                   const std::vector<LogicalType>& types) {
    std::vector<ExpressionPtr> columns;
    for (size_t i = 0; i < bindings.size(); i++) {
        columns.push_back(MakeBoundColumn(bindings[i], types[i]));
    }
    return columns;
}

} // namespace

std::vector<ColumnBinding> FreeColumns(const LogicalOperator& plan) {
    std::set<ColumnBinding> produced, read;
    CollectProducedAndRead(const_cast<LogicalOperator&>(plan), produced, read);
    std::vector<ColumnBinding> free;
    for (const auto& binding : read) {
        if (!produced.count(binding)) {
            free.push_back(binding);
        }
    }
    return free;
}

ExpressionPtr RemapColumns(ExpressionPtr expression,
                           const std::map<ColumnBinding, ColumnBinding>& map) {
    if (expression->kind == ExpressionKind::BoundColumn) {
        auto found = map.find(expression->binding);
        if (found != map.end()) {
            expression->binding = found->second;
        }
    }
    for (auto& child : expression->children) {
        child = RemapColumns(std::move(child), map);
    }
    return expression;
}

void RemapColumns(LogicalOperator& plan, const std::map<ColumnBinding, ColumnBinding>& map) {
    plan.ForEachExpression(
        [&](ExpressionPtr& expression) { expression = RemapColumns(std::move(expression), map); });
    for (auto& child : plan.children) {
        RemapColumns(*child, map);
    }
}

void AddNullSafeConditions(std::vector<ExpressionPtr> left, std::vector<ExpressionPtr> right,
                           std::vector<JoinCondition>& conditions) {
    for (size_t i = 0; i < left.size(); i++) {
        auto left_key = NullSafeKey(std::move(left[i]));
        auto right_key = NullSafeKey(std::move(right[i]));
        for (size_t k = 0; k < left_key.size(); k++) {
            conditions.push_back({std::move(left_key[k]), std::move(right_key[k])});
        }
    }
}

SubqueryFlattener::SubqueryFlattener(std::vector<ColumnBinding> correlated,
                                     std::vector<LogicalType> types, idx_t delim_index,
                                     idx_t& next_table_index)
    : correlated_(std::move(correlated)), types_(std::move(types)), delim_index_(delim_index),
      next_table_index_(next_table_index) {
}

bool SubqueryFlattener::DependsOnOuter(const LogicalOperator& op) const {
    bool depends = false;
    std::function<void(const Expression&)> check = [&](const Expression& expression) {
        if (expression.kind == ExpressionKind::BoundColumn &&
            std::find(correlated_.begin(), correlated_.end(), expression.binding) !=
                correlated_.end()) {
            depends = true;
        }
        for (const auto& child : expression.children) {
            check(*child);
        }
    };
    std::function<void(LogicalOperator&)> walk = [&](LogicalOperator& node) {
        node.ForEachExpression([&](ExpressionPtr& expression) { check(*expression); });
        for (auto& child : node.children) {
            walk(*child);
        }
    };
    walk(const_cast<LogicalOperator&>(op));
    return depends;
}

LogicalOperatorPtr SubqueryFlattener::MakeDelimGet() {
    auto get = std::make_unique<LogicalOperator>(LogicalOperatorKind::DelimGet);
    get->table_index = next_table_index_++;
    get->delim_index = delim_index_;
    get->delim_types = types_;
    return get;
}

void SubqueryFlattener::Rewrite(LogicalOperator& op, const std::vector<ColumnBinding>& delim,
                                const std::map<ColumnBinding, ColumnBinding>& moved) const {
    std::map<ColumnBinding, ColumnBinding> map = moved;
    for (size_t i = 0; i < correlated_.size(); i++) {
        map[correlated_[i]] = delim[i];
    }
    op.ForEachExpression(
        [&](ExpressionPtr& expression) { expression = RemapColumns(std::move(expression), map); });
}

SubqueryFlattener::Result SubqueryFlattener::Flatten(LogicalOperatorPtr op) {
    if (!DependsOnOuter(*op)) {
        // Nothing below depends on the outer query: its result is the same for every D value.
        auto get = MakeDelimGet();
        std::vector<ColumnBinding> delim = get->Bindings();
        return {MakeJoin(PhysicalJoinType::Inner, std::move(op), std::move(get)), delim, {}};
    }
    switch (op->kind) {
    case LogicalOperatorKind::Filter:
    case LogicalOperatorKind::Repeat:
    case LogicalOperatorKind::Unnest: { // the outer row's values pass through every element

        Result child = Flatten(std::move(op->children[0]));
        Rewrite(*op, child.delim, child.moved);
        op->children[0] = std::move(child.plan);
        return {std::move(op), std::move(child.delim), std::move(child.moved)};
    }
    case LogicalOperatorKind::Projection: {
        Result child = Flatten(std::move(op->children[0]));
        Rewrite(*op, child.delim, child.moved);
        std::vector<ColumnBinding> delim;
        for (size_t i = 0; i < child.delim.size(); i++) {
            delim.push_back({op->table_index, op->expressions.size()});
            op->expressions.push_back(MakeBoundColumn(child.delim[i], types_[i]));
        }
        op->children[0] = std::move(child.plan);
        return {std::move(op), std::move(delim), std::move(child.moved)};
    }
    case LogicalOperatorKind::Window: {
        // Windows per outer row: the correlated values become partition keys too.
        Result child = Flatten(std::move(op->children[0]));
        Rewrite(*op, child.delim, child.moved);
        std::vector<ExpressionPtr> partitions;
        for (size_t i = 0; i < child.delim.size(); i++) {
            partitions.push_back(MakeBoundColumn(child.delim[i], types_[i]));
        }
        for (auto& partition : op->expressions) {
            partitions.push_back(std::move(partition));
        }
        op->expressions = std::move(partitions);
        op->children[0] = std::move(child.plan);
        return {std::move(op), std::move(child.delim), std::move(child.moved)};
    }
    case LogicalOperatorKind::Aggregate:
        return FlattenAggregate(std::move(op));
    case LogicalOperatorKind::Join:
        return FlattenJoin(std::move(op));
    case LogicalOperatorKind::Order:
        // The subquery's rows are a set to the outer query: the order does not matter.
        return Flatten(std::move(op->children[0]));
    case LogicalOperatorKind::Limit:
        return FlattenLimit(std::move(op));
    case LogicalOperatorKind::Union:
        return FlattenUnion(std::move(op));
    case LogicalOperatorKind::Get:
    case LogicalOperatorKind::DelimGet:
        break;
    }
    throw Exception(ErrorKind::Internal, "cannot flatten a correlated subquery over this plan");
}

SubqueryFlattener::Result SubqueryFlattener::FlattenLimit(LogicalOperatorPtr op) {
    // LIMIT n OFFSET m for each D value: the rows numbered m + 1 ... m + n within their D
    // value, in the ORDER BY below the limit if there is one.
    if (op->limit_expression || op->offset_expression) {
        throw Exception(ErrorKind::NotImplemented,
                        "LIMIT or OFFSET of a subquery's value in a correlated subquery");
    }
    LogicalOperatorPtr child = std::move(op->children[0]);
    auto window = std::make_unique<LogicalOperator>(LogicalOperatorKind::Window);
    if (child->kind == LogicalOperatorKind::Order) {
        window->orders = std::move(child->orders);
        child = std::move(child->children[0]);
    }
    Result flat = Flatten(std::move(child));
    window->table_index = next_table_index_++;
    for (size_t i = 0; i < flat.delim.size(); i++) {
        window->expressions.push_back(MakeBoundColumn(flat.delim[i], types_[i]));
    }
    Rewrite(*window, flat.delim, flat.moved);
    BoundWindow row_number;
    row_number.kind = WindowFunctionKind::RowNumber;
    row_number.name = "row_number";
    window->windows.push_back(std::move(row_number));
    window->children.push_back(std::move(flat.plan));
    ColumnBinding number{window->table_index, 0};
    auto compare = [&](const char* op_name, uint64_t bound) {
        std::vector<ExpressionPtr> sides;
        sides.push_back(MakeBoundColumn(number, LogicalTypeId::BIGINT));
        sides.push_back(
            MakeConstant(Value::Integer(LogicalTypeId::BIGINT, static_cast<hugeint_t>(bound))));
        return MakeFunction(op_name, BindComparison(op_name, LogicalTypeId::BIGINT),
                            std::move(sides));
    };
    auto filter = std::make_unique<LogicalOperator>(LogicalOperatorKind::Filter);
    if (op->offset > 0) {
        filter->expressions.push_back(compare(">", op->offset));
    }
    if (op->limit) {
        filter->expressions.push_back(compare("<=", op->offset + *op->limit));
    }
    if (filter->expressions.empty()) {
        return {std::move(window), std::move(flat.delim), std::move(flat.moved)};
    }
    filter->children.push_back(std::move(window));
    return {std::move(filter), std::move(flat.delim), std::move(flat.moved)};
}

SubqueryFlattener::Result SubqueryFlattener::FlattenAggregate(LogicalOperatorPtr op) {
    if (!op->grouping_sets.empty()) {
        throw Exception(ErrorKind::NotImplemented,
                        "GROUPING SETS, ROLLUP and CUBE in a correlated subquery are not "
                        "supported yet");
    }
    Result child = Flatten(std::move(op->children[0]));
    Rewrite(*op, child.delim, child.moved);
    op->children[0] = std::move(child.plan);
    bool ungrouped = op->expressions.empty();
    std::vector<ColumnBinding> delim;
    for (size_t i = 0; i < child.delim.size(); i++) {
        delim.push_back({op->table_index, op->expressions.size()});
        op->expressions.push_back(MakeBoundColumn(child.delim[i], types_[i]));
    }
    if (!ungrouped) {
        return {std::move(op), std::move(delim), std::move(child.moved)};
    }
    // Without GROUP BY every D value has a row, with or without input rows: D left-joined to
    // the groups, and COUNT 0 where there were none.
    auto get = MakeDelimGet();
    std::vector<ColumnBinding> values = get->Bindings();
    idx_t aggregate_index = op->aggregate_index;
    std::vector<AggregateFunction> functions;
    for (const auto& aggregate : op->aggregates) {
        functions.push_back(aggregate.function);
    }
    auto join = MakeJoin(PhysicalJoinType::Left, std::move(get), std::move(op));
    AddNullSafeConditions(Columns(values, types_), Columns(delim, types_), join->conditions);

    auto projection = std::make_unique<LogicalOperator>(LogicalOperatorKind::Projection);
    projection->table_index = next_table_index_++;
    std::map<ColumnBinding, ColumnBinding> moved = std::move(child.moved);
    for (idx_t i = 0; i < functions.size(); i++) {
        ExpressionPtr value = MakeBoundColumn({aggregate_index, i}, functions[i].return_type);
        if (IsCount(functions[i])) {
            std::vector<ExpressionPtr> arguments;
            arguments.push_back(std::move(value));
            arguments.push_back(MakeConstant(ZeroOf(functions[i].return_type)));
            value = MakeFunction("coalesce", BindCoalesce(2, functions[i].return_type),
                                 std::move(arguments));
        }
        moved[{aggregate_index, i}] = {projection->table_index, i};
        projection->expressions.push_back(std::move(value));
    }
    std::vector<ColumnBinding> projected;
    for (size_t i = 0; i < values.size(); i++) {
        projected.push_back({projection->table_index, projection->expressions.size()});
        projection->expressions.push_back(MakeBoundColumn(values[i], types_[i]));
    }
    projection->children.push_back(std::move(join));
    return {std::move(projection), std::move(projected), std::move(moved)};
}

SubqueryFlattener::Result SubqueryFlattener::FlattenJoin(LogicalOperatorPtr op) {
    bool left_depends = DependsOnOuter(*op->children[0]);
    bool right_depends = DependsOnOuter(*op->children[1]);
    if (op->join_type == PhysicalJoinType::Inner && (left_depends != right_depends)) {
        // An inner join passes D through from the one side that depends on the outer query.
        size_t side = left_depends ? 0 : 1;
        Result child = Flatten(std::move(op->children[side]));
        op->children[side] = std::move(child.plan);
        Rewrite(*op, child.delim, child.moved);
        return {std::move(op), std::move(child.delim), std::move(child.moved)};
    }
    if (!right_depends && left_depends) {
        // Outer, semi, anti and mark joins keep their left rows: D comes from the left side.
        Result left = Flatten(std::move(op->children[0]));
        op->children[0] = std::move(left.plan);
        Rewrite(*op, left.delim, left.moved);
        return {std::move(op), std::move(left.delim), std::move(left.moved)};
    }
    // Both sides (or only the right, or only the join's own condition): each computed for every
    // D value, and joined on D as well.
    Result left = Flatten(std::move(op->children[0]));
    Result right = Flatten(std::move(op->children[1]));
    std::map<ColumnBinding, ColumnBinding> moved = std::move(left.moved);
    moved.insert(right.moved.begin(), right.moved.end());
    op->children[0] = std::move(left.plan);
    op->children[1] = std::move(right.plan);
    Rewrite(*op, left.delim, moved);
    AddNullSafeConditions(Columns(left.delim, types_), Columns(right.delim, types_),
                          op->conditions);
    return {std::move(op), std::move(left.delim), std::move(moved)};
}

SubqueryFlattener::Result SubqueryFlattener::FlattenUnion(LogicalOperatorPtr op) {
    // Each input is flattened and gives its columns, then D, to the union in the same places.
    for (auto& input : op->children) {
        std::vector<ColumnBinding> outputs = input->Bindings();
        std::vector<LogicalType> types = input->Types();
        Result child = Flatten(std::move(input));
        auto projection = std::make_unique<LogicalOperator>(LogicalOperatorKind::Projection);
        projection->table_index = next_table_index_++;
        for (size_t i = 0; i < outputs.size(); i++) {
            auto moved = child.moved.find(outputs[i]);
            projection->expressions.push_back(
                MakeBoundColumn(moved == child.moved.end() ? outputs[i] : moved->second, types[i]));
        }
        for (size_t i = 0; i < child.delim.size(); i++) {
            projection->expressions.push_back(MakeBoundColumn(child.delim[i], types_[i]));
        }
        projection->children.push_back(std::move(child.plan));
        input = std::move(projection);
    }
    idx_t width = op->children[0]->Bindings().size() - correlated_.size();
    std::vector<ColumnBinding> delim;
    for (size_t i = 0; i < correlated_.size(); i++) {
        delim.push_back({op->table_index, width + i});
    }
    return {std::move(op), std::move(delim), {}};
}

} // namespace sluice
