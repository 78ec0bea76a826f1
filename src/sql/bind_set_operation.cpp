// Binding UNION, EXCEPT and INTERSECT (each [ALL]): both sides in common types; EXCEPT and
// INTERSECT as the sides' tagged rows grouped by every column.
#include "execution/conditional_functions.hpp"
#include "execution/math_functions.hpp"
#include "sql/binder.hpp"

namespace sluice {

BoundQuery Binder::BindSetOperation(const SelectStatement& select, const Scope* outer) {
    BoundQuery left = BindQuery(*select.left, outer);
    BoundQuery right = BindQuery(*select.right, outer);
    if (left.types.size() != right.types.size()) {
        Fail(ErrorKind::Binder,
             "Set operations can only apply to expressions with the same number of result "
             "columns",
             select.location);
    }
    // A NULL constant of a SELECT list (typed INTEGER for results) takes the other side's type.
    auto type_of = [](const BoundQuery& side, size_t column) -> LogicalType {
        const LogicalOperator& plan = *side.plan;
        if (plan.kind == LogicalOperatorKind::Projection && column < plan.expressions.size()) {
            const Expression& expression = *plan.expressions[column];
            if (expression.kind == ExpressionKind::Constant && expression.value.IsNull()) {
                return LogicalTypeId::SQLNULL;
            }
        }
        return side.types[column];
    };
    std::vector<LogicalType> types;
    for (size_t i = 0; i < left.types.size(); i++) {
        auto common = CommonSuperType(type_of(left, i), type_of(right, i));
        if (!common) {
            Fail(ErrorKind::Binder,
                 "UNION column " + std::to_string(i + 1) + " mixes " + left.types[i].ToString() +
                     " and " + right.types[i].ToString(),
                 select.location);
        }
        types.push_back(common->id() == LogicalTypeId::SQLNULL ? LogicalTypeId::INTEGER : *common);
    }
    bool union_of_sides = select.kind == QueryKind::Union;
    // Each side in the common types; for EXCEPT and INTERSECT, tagged with its side.
    auto cast_side = [&](BoundQuery& side, bool right_side) {
        std::vector<ExpressionPtr> expressions;
        auto bindings = side.plan->Bindings();
        for (size_t i = 0; i < types.size(); i++) {
            expressions.push_back(CastTo(MakeBoundColumn(bindings[i], side.types[i]), types[i]));
        }
        if (!union_of_sides) {
            expressions.push_back(MakeConstant(Value::Boolean(right_side)));
        }
        return MakeProjection(next_table_index_++, std::move(expressions), std::move(side.plan));
    };
    auto node = std::make_unique<LogicalOperator>(LogicalOperatorKind::Union);
    node->table_index = next_table_index_++;
    node->children.push_back(cast_side(left, false));
    node->children.push_back(cast_side(right, true));
    BoundQuery query;
    query.names = left.names;
    query.types = types;
    query.plan = std::move(node);
    if (!union_of_sides) {
        query.plan = KeepBySide(select, std::move(query.plan), types);
    } else if (!select.all) {
        // UNION removes duplicates: group by every column.
        auto distinct = std::make_unique<LogicalOperator>(LogicalOperatorKind::Aggregate);
        distinct->table_index = next_table_index_++;
        distinct->aggregate_index = next_table_index_++;
        auto bindings = query.plan->Bindings();
        for (size_t i = 0; i < types.size(); i++) {
            distinct->expressions.push_back(MakeBoundColumn(bindings[i], types[i]));
        }
        distinct->children.push_back(std::move(query.plan));
        query.plan = std::move(distinct);
    }
    for (size_t i = 0; i < types.size(); i++) {
        binding_names_[{query.plan->Bindings()[i].table_index, i}] = query.names[i];
    }
    return query;
}

LogicalOperatorPtr Binder::KeepBySide(const SelectStatement& select, LogicalOperatorPtr both,
                                      const std::vector<LogicalType>& types) {
    // Group by every column (NULLs equal, as set operations compare rows). Without ALL: per
    // group, whether some row came from the right and whether all did. With ALL: how many
    // rows came from each side.
    auto groups = std::make_unique<LogicalOperator>(LogicalOperatorKind::Aggregate);
    groups->table_index = next_table_index_++;
    groups->aggregate_index = next_table_index_++;
    auto bindings = both->Bindings();
    for (size_t i = 0; i < types.size(); i++) {
        groups->expressions.push_back(MakeBoundColumn(bindings[i], types[i]));
    }
    LogicalType boolean = LogicalTypeId::BOOLEAN;
    for (int aggregate = 0; aggregate < 2; aggregate++) {
        const char* name = select.all ? "count_if" : aggregate == 0 ? "bool_or" : "bool_and";
        ExpressionPtr side = MakeBoundColumn(bindings[types.size()], boolean);
        if (select.all && aggregate == 0) {
            side = MakeNot(std::move(side)); // count_if(left), count_if(right)
        }
        std::vector<ExpressionPtr> arguments;
        arguments.push_back(std::move(side));
        groups->aggregates.push_back(
            {*BindAggregateFunction(name, {boolean}), std::move(arguments), false});
    }
    groups->children.push_back(std::move(both));
    std::vector<ExpressionPtr> columns;
    for (size_t i = 0; i < types.size(); i++) {
        columns.push_back(MakeBoundColumn({groups->table_index, i}, types[i]));
    }
    LogicalType count_type = groups->aggregates[0].function.return_type;
    ExpressionPtr first = MakeBoundColumn({groups->aggregate_index, 0}, count_type);
    ExpressionPtr second = MakeBoundColumn({groups->aggregate_index, 1}, count_type);
    if (select.all) {
        // EXCEPT ALL: each row as often as the left has it more than the right; INTERSECT
        // ALL: as often as the side with fewer has it.
        std::vector<ExpressionPtr> counts;
        counts.push_back(std::move(first));
        counts.push_back(std::move(second));
        ExpressionPtr times =
            select.kind == QueryKind::Except
                ? MakeFunction("-", *BindArithmetic("-", count_type, count_type), std::move(counts))
                : MakeFunction("least", BindGreatestLeast(false, 2, count_type), std::move(counts));
        auto repeat = std::make_unique<LogicalOperator>(LogicalOperatorKind::Repeat);
        repeat->expressions.push_back(CastTo(std::move(times), LogicalTypeId::BIGINT));
        repeat->children.push_back(std::move(groups));
        return MakeProjection(next_table_index_++, std::move(columns), std::move(repeat));
    }
    // EXCEPT keeps the left's rows that the right lacks; INTERSECT the rows both have.
    auto filter = std::make_unique<LogicalOperator>(LogicalOperatorKind::Filter);
    if (select.kind == QueryKind::Except) {
        filter->expressions.push_back(MakeNot(std::move(first)));
    } else {
        filter->expressions.push_back(std::move(first));
        filter->expressions.push_back(MakeNot(std::move(second)));
    }
    filter->children.push_back(std::move(groups));
    return MakeProjection(next_table_index_++, std::move(columns), std::move(filter));
}

} // namespace sluice
