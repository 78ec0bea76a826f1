// Binding subqueries in expressions: uncorrelated ones as values, IN and EXISTS over the plan
// they filter; correlated ones flattened into dependent joins (SubqueryFlattener); quantified
// comparisons (ANY / ALL) by the counts of rows that compare true, false and NULL.
#include "sql/binder.hpp"

#include "common/exception.hpp"
#include "execution/conditional_functions.hpp"
#include "execution/scalar_functions.hpp"
#include "sql/subquery_flattener.hpp"

#include <algorithm>

namespace sluice {

Binder::Bound Binder::BindSubquery(const ParsedExpression& expression) {
    if (no_subqueries_reason_) {
        Fail(ErrorKind::Binder, no_subqueries_reason_, expression.location);
    }
    AggregateContext* saved_aggregate = aggregate_;
    aggregate_ = nullptr;
    BoundQuery query = BindQuery(*expression.subquery, scope_);
    aggregate_ = saved_aggregate;
    if (expression.subquery_kind != SubqueryKind::Exists && query.types.size() != 1) {
        Fail(ErrorKind::Binder,
             "Subquery returns " + std::to_string(query.types.size()) + " columns - expected 1",
             expression.location);
    }
    bool correlated = !FreeColumns(*query.plan).empty();
    if (expression.subquery_kind == SubqueryKind::In && !correlated && from_plan_ && *from_plan_ &&
        !aggregate_) {
        // x IN (uncorrelated subquery) over the FROM rows: a mark join on x.
        Bound operand = Bind(*expression.children[0]);
        auto column = query.plan->Bindings()[0];
        Bound value{MakeBoundColumn(column, query.types[0]), LiteralOrigin::None};
        AdaptLiterals(operand, value, true);
        auto common = CommonSuperType(operand.expression->type, value.expression->type);
        if (!common) {
            Fail(ErrorKind::Binder,
                 "Cannot compare values of type " + operand.expression->type.ToString() +
                     " and type " + value.expression->type.ToString() + " in IN (subquery)",
                 expression.location);
        }
        auto join = std::make_unique<LogicalOperator>(LogicalOperatorKind::Join);
        join->join_type = PhysicalJoinType::Mark;
        join->mark_index = next_table_index_++;
        join->conditions.push_back({CastTo(std::move(operand.expression), *common),
                                    CastTo(std::move(value.expression), *common)});
        join->children.push_back(std::move(*from_plan_));
        join->children.push_back(std::move(query.plan));
        ExpressionPtr mark = MakeBoundColumn({join->mark_index, 0}, LogicalTypeId::BOOLEAN);
        *from_plan_ = std::move(join);
        if (expression.negated) {
            mark = MakeNot(std::move(mark));
        }
        return {std::move(mark), LiteralOrigin::None};
    }
    if (expression.subquery_kind != SubqueryKind::Scalar &&
        expression.subquery_kind != SubqueryKind::Exists) {
        return BindQuantifiedComparison(expression, std::move(query));
    }
    SubqueryUse use{expression.subquery_kind == SubqueryKind::Exists, expression.negated,
                    expression.location};
    if (correlated) {
        return BindCorrelatedSubquery(use, std::move(query));
    }
    return BindUncorrelatedSubquery(use, std::move(query));
}

Binder::Bound Binder::BindUncorrelatedSubquery(const SubqueryUse& use, BoundQuery query) {
    Subplan subquery;
    subquery.value = std::make_shared<SubqueryValue>();
    subquery.exists = use.exists;
    subquery.type = subquery.exists ? LogicalType(LogicalTypeId::BOOLEAN) : query.types[0];
    if (subquery.type.id() == LogicalTypeId::SQLNULL) {
        subquery.type = LogicalTypeId::INTEGER;
    }
    subquery.plan = std::move(query.plan);
    auto result = std::make_unique<Expression>();
    result->kind = ExpressionKind::SubqueryValue;
    result->type = subquery.type;
    result->subquery_value = subquery.value;
    subplans_.push_back(std::move(subquery));
    ExpressionPtr value = std::move(result);
    if (use.negated) {
        value = MakeNot(std::move(value));
    }
    return {std::move(value), LiteralOrigin::None};
}

namespace {

// The plan gives at most one row: an aggregate without GROUP BY, under filters, projections
// and orders.
bool AtMostOneRow(const LogicalOperator& op) {
    switch (op.kind) {
    case LogicalOperatorKind::Aggregate:
        return op.expressions.empty();
    case LogicalOperatorKind::Filter:
    case LogicalOperatorKind::Projection:
    case LogicalOperatorKind::Order:
        return AtMostOneRow(*op.children[0]);
    case LogicalOperatorKind::Limit:
        return op.limit && *op.limit <= 1;
    default:
        return false;
    }
}

// For EXISTS only whether a row exists matters: ORDER BY and a LIMIT of at least one row go.
LogicalOperatorPtr StripForExists(LogicalOperatorPtr plan) {
    while (plan->kind == LogicalOperatorKind::Order ||
           (plan->kind == LogicalOperatorKind::Limit && plan->offset == 0 &&
            !plan->limit_expression && !plan->offset_expression &&
            (!plan->limit || *plan->limit > 0))) {
        plan = std::move(plan->children[0]);
    }
    return plan;
}

} // namespace

Binder::Bound Binder::BindCorrelatedSubquery(const SubqueryUse& use, BoundQuery query) {
    if (!from_plan_ || !*from_plan_) {
        Fail(ErrorKind::NotImplemented,
             "correlated subqueries are not supported here (they are in WHERE, SELECT lists, "
             "HAVING, ORDER BY, inner join conditions and aggregate arguments)",
             use.location);
    }
    bool exists = use.exists;
    LogicalOperatorPtr plan = std::move(query.plan);
    if (exists) {
        plan = StripForExists(std::move(plan));
    } else if (!AtMostOneRow(*plan)) {
        // A scalar subquery must give one row per outer row: count them, and fail beyond one.
        LogicalType type = plan->Types()[0];
        auto aggregate = std::make_unique<LogicalOperator>(LogicalOperatorKind::Aggregate);
        aggregate->table_index = next_table_index_++;
        aggregate->aggregate_index = next_table_index_++;
        std::vector<ExpressionPtr> arguments;
        arguments.push_back(MakeBoundColumn(plan->Bindings()[0], type));
        aggregate->aggregates.push_back({*BindAggregateFunction("count_star", {}), {}, false});
        aggregate->aggregates.push_back(
            {*BindAggregateFunction("min", {type}), std::move(arguments), false});
        aggregate->children.push_back(std::move(plan));
        std::vector<ExpressionPtr> checked;
        checked.push_back(MakeBoundColumn({aggregate->aggregate_index, 0}, LogicalTypeId::BIGINT));
        checked.push_back(MakeBoundColumn({aggregate->aggregate_index, 1}, type));
        auto projection = std::make_unique<LogicalOperator>(LogicalOperatorKind::Projection);
        projection->table_index = next_table_index_++;
        projection->expressions.push_back(
            MakeFunction("single_row_of_subquery", BindSingleRowCheck(type), std::move(checked)));
        projection->children.push_back(std::move(aggregate));
        plan = std::move(projection);
    }
    // The outer columns of this query level: what the plan the subquery joins to gives. Columns
    // of queries further out stay free, for those levels to flatten.
    std::map<ColumnBinding, LogicalType> here;
    {
        auto bindings = (*from_plan_)->Bindings();
        auto types = (*from_plan_)->Types();
        for (size_t i = 0; i < bindings.size(); i++) {
            here[bindings[i]] = types[i];
        }
    }
    if (aggregate_) {
        // Above an aggregate the subquery sees the FROM columns it groups by, as group keys.
        const LogicalOperator& aggregate = *aggregate_->aggregate;
        std::map<ColumnBinding, ColumnBinding> keys;
        for (const auto& binding : FreeColumns(*plan)) {
            for (const auto& entry : scope_->entries) {
                for (size_t c = 0; c < entry.bindings.size(); c++) {
                    if (!(entry.bindings[c] == binding)) {
                        continue;
                    }
                    ExpressionPtr column = MakeBoundColumn(binding, entry.types[c]);
                    for (idx_t k = 0; k < aggregate.expressions.size(); k++) {
                        if (aggregate.expressions[k]->Equals(*column)) {
                            keys[binding] = {aggregate.table_index, k};
                        }
                    }
                    if (!keys.count(binding)) {
                        Fail(ErrorKind::Binder,
                             "column \"" + entry.names[c] +
                                 "\" must appear in the GROUP BY clause or must be part of an "
                                 "aggregate function. The subquery uses it.",
                             use.location);
                    }
                }
            }
        }
        RemapColumns(*plan, keys);
    }
    std::vector<ColumnBinding> correlated;
    std::vector<LogicalType> types;
    for (const auto& binding : FreeColumns(*plan)) {
        if (auto found = here.find(binding); found != here.end()) {
            correlated.push_back(binding);
            types.push_back(found->second);
        }
    }
    ColumnBinding value = plan->Bindings()[0];
    LogicalType value_type = plan->Types()[0];
    auto join = std::make_unique<LogicalOperator>(LogicalOperatorKind::Join);
    join->children.push_back(std::move(*from_plan_));
    if (correlated.empty()) {
        // Correlated only with a query further out: joined as it is, flattened with that one.
        join->children.push_back(std::move(plan));
    } else {
        join->delim_index = next_table_index_++;
        try {
            SubqueryFlattener flattener(correlated, types, join->delim_index, next_table_index_);
            SubqueryFlattener::Result flat = flattener.Flatten(std::move(plan));
            if (auto moved = flat.moved.find(value); moved != flat.moved.end()) {
                value = moved->second;
            }
            std::vector<ExpressionPtr> outer, inner;
            for (size_t i = 0; i < correlated.size(); i++) {
                join->delim_columns.push_back(MakeBoundColumn(correlated[i], types[i]));
                outer.push_back(MakeBoundColumn(correlated[i], types[i]));
                inner.push_back(MakeBoundColumn(flat.delim[i], types[i]));
            }
            AddNullSafeConditions(std::move(outer), std::move(inner), join->conditions);
            join->children.push_back(std::move(flat.plan));
        } catch (const Exception& error) {
            Relocate(error, use.location);
        }
    }
    ExpressionPtr result;
    if (exists) {
        join->join_type = PhysicalJoinType::Mark;
        join->mark_index = next_table_index_++;
        result = MakeBoundColumn({join->mark_index, 0}, LogicalTypeId::BOOLEAN);
        if (use.negated) {
            result = MakeNot(std::move(result));
        }
    } else {
        join->join_type = PhysicalJoinType::Left;
        result = MakeBoundColumn(value, value_type);
        if (value_type.id() == LogicalTypeId::SQLNULL) {
            result = CastTo(std::move(result), LogicalTypeId::INTEGER);
        }
    }
    *from_plan_ = std::move(join);
    return {std::move(result), LiteralOrigin::None};
}

namespace {

// The comparison that is false exactly where `op` is true (NULL stays NULL): for x op ALL (...).
std::string Complement(const std::string& op) {
    if (op == "=") {
        return "!=";
    }
    if (op == "!=") {
        return "=";
    }
    if (op == "<") {
        return ">=";
    }
    if (op == "<=") {
        return ">";
    }
    if (op == ">") {
        return "<=";
    }
    return "<";
}

ExpressionPtr IntegerConstant(int32_t value) {
    return MakeConstant(Value::Integer(LogicalTypeId::INTEGER, value));
}

ExpressionPtr Case(std::vector<ExpressionPtr> arguments, const LogicalType& type) {
    size_t branches = arguments.size() / 2;
    return MakeFunction("case", BindCase(branches, type), std::move(arguments));
}

} // namespace

Binder::Bound Binder::BindQuantifiedComparison(const ParsedExpression& expression,
                                               BoundQuery query) {
    // x op ANY (subquery) as an aggregate over the subquery's rows: 2 if x op v is true for some
    // row, else 1 if it is NULL for some, else 0 (or no row at all); then TRUE, NULL or FALSE.
    // SQL's three-valued answer exactly, and an ordinary (correlated) scalar subquery to plan.
    // x op ALL (...) is NOT (x complement(op) ANY (...)); x NOT IN (...) is NOT (x IN (...)).
    bool all = expression.subquery_kind == SubqueryKind::All;
    std::string op = expression.subquery_kind == SubqueryKind::In ? "=" : expression.text;
    if (all) {
        op = Complement(op);
    }
    Bound operand = Bind(*expression.children[0]);
    if (aggregate_) {
        operand.expression = ReplaceGroupKeys(std::move(operand.expression), expression.location);
    }
    auto column = query.plan->Bindings()[0];
    Bound value{MakeBoundColumn(column, query.types[0]), LiteralOrigin::None};
    ExpressionPtr compared =
        BindComparisonOf(op, std::move(operand), std::move(value), expression.location);
    ExpressionPtr is_null = MakeIsNull(compared->Copy());
    std::vector<ExpressionPtr> code;
    code.push_back(std::move(compared));
    code.push_back(IntegerConstant(2));
    code.push_back(std::move(is_null));
    code.push_back(IntegerConstant(1));
    code.push_back(IntegerConstant(0));

    auto aggregate = std::make_unique<LogicalOperator>(LogicalOperatorKind::Aggregate);
    aggregate->table_index = next_table_index_++;
    aggregate->aggregate_index = next_table_index_++;
    std::vector<ExpressionPtr> arguments;
    arguments.push_back(Case(std::move(code), LogicalTypeId::INTEGER));
    aggregate->aggregates.push_back(
        {*BindAggregateFunction("max", {LogicalTypeId::INTEGER}), std::move(arguments), false});
    aggregate->children.push_back(std::move(query.plan));
    BoundQuery found;
    found.plan = std::move(aggregate);
    found.names = {"found"};
    found.types = {LogicalTypeId::INTEGER};

    SubqueryUse scalar{false, false, expression.location};
    Bound result = FreeColumns(*found.plan).empty()
                       ? BindUncorrelatedSubquery(scalar, std::move(found))
                       : BindCorrelatedSubquery(scalar, std::move(found));
    auto equals = [&](int32_t code) {
        std::vector<ExpressionPtr> sides;
        sides.push_back(result.expression->Copy());
        sides.push_back(IntegerConstant(code));
        return MakeFunction("=", sluice::BindComparison("=", LogicalTypeId::INTEGER),
                            std::move(sides));
    };
    std::vector<ExpressionPtr> answer;
    answer.push_back(equals(2));
    answer.push_back(MakeConstant(Value::Boolean(true)));
    answer.push_back(equals(1));
    answer.push_back(MakeConstant(Value::Null(LogicalTypeId::BOOLEAN)));
    answer.push_back(MakeConstant(Value::Boolean(false)));
    ExpressionPtr truth = Case(std::move(answer), LogicalTypeId::BOOLEAN);
    if (all != expression.negated) {
        truth = MakeNot(std::move(truth));
    }
    return {std::move(truth), LiteralOrigin::None};
}

} // namespace sluice
