// Binding function calls: scalar functions by name, aggregates into the query's Aggregate
// operator, and the GROUP BY checks on the expressions above it.
#include "common/cast.hpp"
#include "common/date_time.hpp"
#include "common/string_util.hpp"
#include "execution/conditional_functions.hpp"
#include "execution/date_functions.hpp"
#include "execution/filtered_aggregate.hpp"
#include "execution/math_functions.hpp"
#include "execution/nested_functions.hpp"
#include "execution/ordered_aggregate.hpp"
#include "execution/regexp_functions.hpp"
#include "execution/scalar_functions.hpp"
#include "execution/string_functions.hpp"
#include "sql/binder.hpp"
#include "sql/subquery_flattener.hpp"

#include <algorithm>
#include <chrono>

namespace sluice {

namespace {

// Whether DuckDB passes `argument` to a parameter `parameter` of a text function without an
// explicit cast: text parameters take no numbers, dates or nested values (length(123) is an
// error, not 3), integer parameters no fractions; a string literal or a NULL goes anywhere.
bool TextFunctionAccepts(const Expression& argument, const LogicalType& parameter) {
    LogicalTypeId id = argument.type.id();
    if (id == LogicalTypeId::SQLNULL || id == parameter.id() ||
        (id == LogicalTypeId::VARCHAR && argument.kind == ExpressionKind::Constant)) {
        return true;
    }
    return parameter.IsInteger() && argument.type.IsInteger();
}

} // namespace

LogicalType Binder::CommonTypeOf(const std::vector<ExpressionPtr>& arguments,
                                 const std::string& function, SourceLocation location) {
    LogicalType type = arguments[0]->type;
    for (const auto& argument : arguments) {
        auto common = CommonSuperType(type, argument->type);
        if (!common) {
            Fail(ErrorKind::Binder,
                 "Cannot mix values of type " + type.ToString() + " and " +
                     argument->type.ToString() + " in " + function +
                     " - an explicit cast is required",
                 location);
        }
        type = *common;
    }
    return type.id() == LogicalTypeId::SQLNULL ? LogicalType(LogicalTypeId::INTEGER) : type;
}

Binder::Bound Binder::BindFunction(const ParsedExpression& expression) {
    const std::string& name = expression.text;
    auto arity = [&](size_t low, size_t high) {
        if (expression.children.size() < low || expression.children.size() > high) {
            Fail(ErrorKind::Binder,
                 "No function matches the given name and argument count " + name + "(" +
                     std::to_string(expression.children.size()) + ")",
                 expression.location);
        }
    };
    if (expression.window) {
        return BindWindow(expression);
    }
    if (IsAggregateFunctionName(name)) {
        return BindAggregate(expression);
    }
    if (expression.filter || expression.order_by) {
        Fail(ErrorKind::Binder,
             "Function \"" + name +
                 "\" is a Scalar Function. \"DISTINCT\", \"FILTER\", and \"ORDER BY\" are only "
                 "applicable to aggregate functions.",
             expression.location);
    }
    if (name == "unnest" || name == "unlist") {
        return BindUnnest(expression);
    }
    if (auto nested = BindNestedCall(expression)) {
        return std::move(*nested);
    }
    if (name == "now" || name == "get_current_timestamp" || name == "transaction_timestamp" ||
        name == "today" || name == "current_date") {
        arity(0, 0);
        return {CurrentTime(name == "today" || name == "current_date"), LiteralOrigin::None};
    }
    if (name == "typeof") {
        arity(1, 1);
        Bound child = Bind(*expression.children[0]);
        return {MakeConstant(Value::Varchar(child.expression->type.ToString())),
                LiteralOrigin::None};
    }
    if (name == "nullif") {
        // nullif(a, b) is CASE WHEN a = b THEN NULL ELSE a END.
        arity(2, 2);
        Bound value = Bind(*expression.children[0]);
        Bound other = Bind(*expression.children[1]);
        ExpressionPtr kept = value.expression->Copy();
        ExpressionPtr equal =
            BindComparisonOf("=", std::move(value), std::move(other), expression.location);
        LogicalType type = kept->type.id() == LogicalTypeId::SQLNULL
                               ? LogicalType(LogicalTypeId::INTEGER)
                               : kept->type;
        std::vector<ExpressionPtr> branches;
        branches.push_back(std::move(equal));
        branches.push_back(MakeConstant(Value::Null(type)));
        branches.push_back(CastTo(std::move(kept), type));
        return {Fold(MakeFunction("nullif", sluice::BindCase(1, type), std::move(branches))),
                LiteralOrigin::None};
    }
    std::vector<ExpressionPtr> arguments;
    for (const auto& child : expression.children) {
        arguments.push_back(Bind(*child).expression);
    }
    bool lists = std::any_of(arguments.begin(), arguments.end(), [](const ExpressionPtr& argument) {
        return argument->type.id() == LogicalTypeId::LIST;
    });
    bool all_null =
        !arguments.empty() &&
        std::all_of(arguments.begin(), arguments.end(), [](const ExpressionPtr& argument) {
            return argument->type.id() == LogicalTypeId::SQLNULL;
        });
    if (all_null && (name == "coalesce" || name == "ifnull" || name == "greatest" ||
                     name == "least" || name == "nullif")) {
        return {MakeConstant(Value()), LiteralOrigin::None}; // untyped NULL, as in DuckDB
    }
    if (name == "concat" && lists) {
        // concat of lists is their list_concat, NULLs skipped (DuckDB's rule), not their text.
        ExpressionPtr joined = std::move(arguments[0]);
        for (size_t i = 1; i < arguments.size(); i++) {
            auto concat = BindNestedFunction("list_concat", {joined->type, arguments[i]->type});
            if (!concat) {
                Fail(ErrorKind::Binder,
                     "concat: cannot concatenate " + joined->type.ToString() + " and " +
                         arguments[i]->type.ToString(),
                     expression.location);
            }
            std::vector<ExpressionPtr> pair;
            pair.push_back(std::move(joined));
            pair.push_back(std::move(arguments[i]));
            joined = MakeFunction("list_concat", std::move(*concat), std::move(pair));
        }
        return {Fold(std::move(joined)), LiteralOrigin::None};
    }
    std::optional<BoundFunction> function;
    bool text_function = false; // DuckDB's stricter argument rules apply (TextFunctionAccepts)
    std::string label = name;
    if (name == "date_part" || name == "datepart" || name == "year" || name == "month" ||
        name == "day" || name == "quarter" || name == "dayofweek" || name == "dayofyear" ||
        name == "hour" || name == "minute" || name == "second") {
        std::string part = name;
        if (name == "date_part" || name == "datepart") {
            arity(2, 2);
            if (arguments[0]->kind != ExpressionKind::Constant ||
                arguments[0]->type.id() != LogicalTypeId::VARCHAR) {
                Fail(ErrorKind::Binder, "date_part requires a constant part name",
                     expression.location);
            }
            part = Lower(arguments[0]->value.GetString());
            arguments.erase(arguments.begin());
            // The part is no argument any more: it names the function, so that
            // date_part('year', d) and date_part('month', d) are not taken for one expression.
            label = name + "('" + part + "')";
        } else {
            arity(1, 1);
        }
        if (arguments[0]->type.id() == LogicalTypeId::VARCHAR &&
            arguments[0]->kind == ExpressionKind::Constant) {
            arguments[0] = CastTo(std::move(arguments[0]), LogicalTypeId::TIMESTAMP);
        }
        function = BindDatePart(part, arguments[0]->type);
        if (!function) {
            Fail(ErrorKind::Binder,
                 "date_part: unsupported part '" + part + "' for type " +
                     arguments[0]->type.ToString(),
                 expression.location);
        }
    } else if (name == "substring" || name == "substr") {
        arity(2, 3);
        function = BindSubstring(arguments.size());
        text_function = true;
    } else if (name == "coalesce" || name == "ifnull") {
        if (arguments.empty()) {
            arity(1, SIZE_MAX);
        }
        function = sluice::BindCoalesce(arguments.size(),
                                        CommonTypeOf(arguments, "COALESCE", expression.location));
    } else if (name == "greatest" || name == "least") {
        if (arguments.empty()) {
            arity(1, SIZE_MAX);
        }
        function = BindGreatestLeast(name == "greatest", arguments.size(),
                                     CommonTypeOf(arguments, name, expression.location));
    } else if (name == "mod" || name == "fmod") {
        arity(2, 2);
        function = BindArithmetic("%", arguments[0]->type, arguments[1]->type);
    } else if (name.rfind("to_", 0) == 0 && name.size() > 4 && name.back() == 's') {
        arity(1, 1);
        function = BindToInterval(name.substr(3, name.size() - 4));
    } else {
        std::vector<LogicalType> types;
        for (const auto& argument : arguments) {
            types.push_back(argument->type);
        }
        std::optional<int64_t> digits;
        if (name == "round" && arguments.size() == 2) {
            Value count;
            if (arguments[1]->kind != ExpressionKind::Constant ||
                !TryCastValue(arguments[1]->value, LogicalTypeId::BIGINT, count) ||
                count.IsNull()) {
                Fail(ErrorKind::Binder, "round: the number of digits must be a constant integer",
                     expression.location);
            }
            digits = static_cast<int64_t>(count.GetInteger());
        }
        function = BindNestedFunction(name, types);
        if (!function) {
            function = BindMathFunction(name, types, digits);
        }
        if (!function) {
            // String literals stand for dates and timestamps here, as in DuckDB.
            for (size_t i = 0; i < arguments.size(); i++) {
                if (i > 0 && arguments[i]->kind == ExpressionKind::Constant &&
                    arguments[i]->type.id() == LogicalTypeId::VARCHAR &&
                    (name == "date_diff" || name == "datediff")) {
                    arguments[i] = CastTo(std::move(arguments[i]), LogicalTypeId::TIMESTAMP);
                    types[i] = arguments[i]->type;
                }
            }
            function = BindDateFunction(name, types);
        }
        if (!function) {
            function = BindStringFunction(name, arguments.size());
            if (!function) {
                function = BindRegexpFunction(name, arguments.size());
            }
            if (function) {
                arity(function->argument_types.size(), function->argument_types.size());
                text_function = true;
            }
        }
    }
    if (!function) {
        Fail(ErrorKind::Catalog, "Scalar Function with name " + name + " does not exist!",
             expression.location);
    }
    // concat and concat_ws take values of any type after the separator, as text.
    size_t any_from = name == "concat" ? 0 : name == "concat_ws" ? 1 : SIZE_MAX;
    for (size_t i = 0; i < arguments.size(); i++) {
        bool accepted = CastExists(arguments[i]->type, function->argument_types[i]) &&
                        (!text_function || i >= any_from ||
                         TextFunctionAccepts(*arguments[i], function->argument_types[i]));
        if (!accepted) {
            std::string types;
            for (const auto& argument : arguments) {
                types += (types.empty() ? "" : ", ") + argument->type.ToString();
            }
            Fail(ErrorKind::Binder,
                 "No function matches the given name and argument types '" + name + "(" + types +
                     ")'. You might need to add explicit type casts.",
                 expression.location);
        }
    }
    try {
        return {Fold(MakeFunction(label, std::move(*function), std::move(arguments))),
                LiteralOrigin::None};
    } catch (const Exception& error) {
        Fail(error.Kind(), error.RawMessage(), expression.location);
    }
}

bool Binder::ReadsOnlyOuterColumns(const std::vector<ExpressionPtr>& arguments,
                                   const Scope& scope) {
    std::set<ColumnBinding> columns;
    for (const auto& argument : arguments) {
        CollectColumns(*argument, columns);
    }
    auto in = [](const Scope& level, const ColumnBinding& binding) {
        for (const auto& entry : level.entries) {
            if (std::find(entry.bindings.begin(), entry.bindings.end(), binding) !=
                entry.bindings.end()) {
                return true;
            }
        }
        return false;
    };
    auto outer = [&](const ColumnBinding& binding) {
        for (const Scope* level = scope.outer; level; level = level->outer) {
            if (in(*level, binding)) {
                return true;
            }
        }
        return false;
    };
    return !columns.empty() && std::all_of(columns.begin(), columns.end(), outer) &&
           std::none_of(columns.begin(), columns.end(),
                        [&](const ColumnBinding& binding) { return in(scope, binding); });
}

Binder::Bound Binder::BindAggregate(const ParsedExpression& expression) {
    if (!aggregate_) {
        Fail(ErrorKind::Binder, no_aggregates_reason_, expression.location);
    }
    // Arguments see the FROM clause, not other aggregates; subqueries in them join below it. An
    // UNNEST in them has no operator to go to (DuckDB: "UNNEST not supported here").
    ScopedValue<UnnestContext*> no_unnest(unnest_, nullptr);
    AggregateContext* context = aggregate_;
    const char* reason = no_aggregates_reason_;
    LogicalOperatorPtr* saved_from = from_plan_;
    Scope* saved_scope = scope_;
    aggregate_ = nullptr;
    scope_ = context->scope;
    from_plan_ = &context->aggregate->children[0];
    no_aggregates_reason_ = "aggregate function calls cannot be nested";
    std::vector<ExpressionPtr> arguments;
    std::vector<LogicalType> types;
    for (const auto& child : expression.children) {
        arguments.push_back(Bind(*child).expression);
        types.push_back(arguments.back()->type);
    }
    if (ReadsOnlyOuterColumns(arguments, *context->scope)) {
        // SQL gives such an aggregate to the outer query (max(o.x) in a subquery aggregates o's
        // rows); evaluated here it would aggregate a copy of one outer row per inner row.
        Fail(ErrorKind::NotImplemented,
             "an aggregate whose arguments read only an outer query's columns (it belongs to "
             "that query) is not supported inside a subquery",
             expression.location);
    }
    std::string name = expression.text;
    if (name == "grouping" || name == "grouping_id") {
        aggregate_ = context;
        from_plan_ = saved_from;
        scope_ = saved_scope;
        no_aggregates_reason_ = reason;
        return BindGrouping(expression, std::move(arguments));
    }
    // agg(x) FILTER (WHERE c): aggregates that skip NULLs (and DISTINCT ones) take
    // CASE WHEN c THEN x END, which keeps their fast paths; the others (list, first, arg_max
    // ...) a filtered wrapper whose last argument is the condition.
    bool skips_nulls = name == "count" || name == "count_star" || name == "sum" || name == "avg" ||
                       name == "min" || name == "max" || expression.distinct;
    ExpressionPtr filter_condition;
    if (expression.filter && !skips_nulls) {
        filter_condition = BindBoolean(*expression.filter, "FILTER");
    } else if (expression.filter) {
        ExpressionPtr condition = BindBoolean(*expression.filter, "FILTER");
        if (name == "count_star") {
            name = "count";
            arguments.push_back(MakeConstant(Value::Integer(LogicalTypeId::INTEGER, 1)));
            types.push_back(LogicalTypeId::INTEGER);
        }
        for (auto& argument : arguments) {
            LogicalType type = argument->type.id() == LogicalTypeId::SQLNULL
                                   ? LogicalType(LogicalTypeId::INTEGER)
                                   : argument->type;
            std::vector<ExpressionPtr> branches;
            branches.push_back(condition->Copy());
            branches.push_back(CastTo(std::move(argument), type));
            branches.push_back(MakeConstant(Value::Null(type)));
            argument = MakeFunction("case", sluice::BindCase(1, type), std::move(branches));
        }
    }
    // agg(x ORDER BY k): the keys are further arguments of an ordered wrapper. The order
    // changes nothing for count, min and max, nor for sum and avg of exact numbers; floating-point
    // sums round differently in another order (DuckDB adds them in the order asked).
    std::vector<ExpressionPtr> order_keys;
    std::vector<AggregateOrder> orders;
    bool inexact = std::any_of(types.begin(), types.end(), [](const LogicalType& type) {
        return type.id() == LogicalTypeId::FLOAT || type.id() == LogicalTypeId::DOUBLE;
    });
    bool order_matters = name != "count" && name != "count_star" && name != "min" &&
                         name != "max" && ((name != "sum" && name != "avg") || inexact);
    if (expression.order_by && order_matters) {
        for (const OrderTerm& term : *expression.order_by) {
            order_keys.push_back(Bind(*term.expression).expression);
            orders.push_back({term.descending, term.nulls_first});
            // Each distinct value stands for rows that may differ in any other key.
            if (expression.distinct &&
                std::none_of(expression.children.begin(), expression.children.end(),
                             [&](const auto& child) {
                                 return Bind(*child).expression->Equals(*order_keys.back());
                             })) {
                throw Exception(ErrorKind::Binder, "In a DISTINCT aggregate, ORDER BY expressions "
                                                   "must appear in the argument list");
            }
        }
    }
    aggregate_ = context;
    from_plan_ = saved_from;
    scope_ = saved_scope;
    no_aggregates_reason_ = reason;
    if ((name == "min" || name == "max") && types.size() == 1 &&
        types[0].id() == LogicalTypeId::INTERVAL) {
        // The shortest or longest interval: the one of least or greatest length.
        std::vector<ExpressionPtr> interval;
        interval.push_back(arguments[0]->Copy());
        arguments.push_back(
            MakeFunction("interval_order_key", BindIntervalOrderKey(), std::move(interval)));
        types.push_back(LogicalTypeId::HUGEINT);
        name = name == "min" ? "arg_min" : "arg_max";
    }
    auto [function, distinct] =
        ResolveAggregate(name, types, arguments, expression.distinct, expression.location);
    std::string key = name + (distinct ? "(DISTINCT " : "(");
    if (!order_keys.empty()) {
        std::vector<LogicalType> key_types;
        for (auto& order_key : order_keys) {
            key_types.push_back(order_key->type);
            arguments.push_back(std::move(order_key));
        }
        function = MakeOrdered(std::move(function), key_types, orders, distinct);
        distinct = false;
        key += "ORDER BY ";
        for (const AggregateOrder& order : orders) {
            key += std::string(order.descending ? "d" : "a") + (order.nulls_first ? "f" : "l");
        }
    }
    if (filter_condition) {
        arguments.push_back(std::move(filter_condition));
        function = MakeFiltered(std::move(function));
        key += "FILTER ";
    }
    for (const auto& argument : arguments) {
        key += argument->ToString() + "," + argument->type.ToString() + ";";
    }
    LogicalOperator& aggregate = *context->aggregate;
    idx_t index = context->keys.size();
    for (idx_t i = 0; i < context->keys.size(); i++) {
        if (context->keys[i] == key) {
            index = i;
        }
    }
    if (index == context->keys.size()) {
        context->keys.push_back(key);
        aggregate.aggregates.push_back({std::move(function), std::move(arguments), distinct});
        binding_names_[{aggregate.aggregate_index, index}] = expression.ToString();
    }
    return {MakeBoundColumn({aggregate.aggregate_index, index},
                            aggregate.aggregates[index].function.return_type),
            LiteralOrigin::None};
}

Binder::ResolvedAggregate Binder::ResolveAggregate(const std::string& name,
                                                   const std::vector<LogicalType>& types,
                                                   std::vector<ExpressionPtr>& arguments,
                                                   bool distinct, SourceLocation location) {
    auto function = BindAggregateFunction(name, types);
    if (!function) {
        std::string shown;
        for (size_t i = 0; i < types.size(); i++) {
            shown += (i ? ", " : "") + types[i].ToString();
        }
        Fail(ErrorKind::Binder,
             "No function matches the given name and argument types '" + name + "(" + shown +
                 ")'. You might need to add explicit type casts.",
             location);
    }
    for (size_t i = 0; i < arguments.size(); i++) {
        arguments[i] = CastTo(std::move(arguments[i]), function->argument_types[i]);
    }
    // DISTINCT changes nothing for min and max.
    distinct = distinct && name != "min" && name != "max" && !arguments.empty();
    if (distinct && arguments.size() > 1) {
        Fail(ErrorKind::NotImplemented,
             "not supported: DISTINCT in " + name + "() with more than one argument", location);
    }
    return {std::move(*function), distinct};
}

Binder::Bound Binder::BindGrouping(const ParsedExpression& expression,
                                   std::vector<ExpressionPtr> arguments) {
    LogicalOperator& aggregate = *aggregate_->aggregate;
    if (arguments.empty()) {
        Fail(ErrorKind::Binder, "GROUPING requires at least one argument", expression.location);
    }
    if (arguments.size() > 62) {
        Fail(ErrorKind::Binder, "GROUPING takes at most 62 arguments", expression.location);
    }
    std::vector<idx_t> keys;
    for (const auto& argument : arguments) {
        std::optional<idx_t> key;
        for (idx_t i = 0; i < aggregate.expressions.size() && !key; i++) {
            if (aggregate.expressions[i]->Equals(*argument)) {
                key = i;
            }
        }
        if (!key) {
            Fail(ErrorKind::Binder,
                 "GROUPING child \"" + argument->ToString() + "\" must be a grouping column",
                 expression.location);
        }
        keys.push_back(*key);
    }
    AggregateFunction function;
    function.name = "grouping";
    function.return_type = LogicalTypeId::BIGINT;
    idx_t index = aggregate.aggregates.size();
    BoundAggregate bound{std::move(function), {}, false};
    bound.grouping_keys = std::move(keys);
    aggregate.aggregates.push_back(std::move(bound));
    aggregate_->keys.push_back("grouping#" + std::to_string(index)); // never shared
    binding_names_[{aggregate.aggregate_index, index}] = expression.ToString();
    return {MakeBoundColumn({aggregate.aggregate_index, index}, LogicalTypeId::BIGINT),
            LiteralOrigin::None};
}

ExpressionPtr Binder::ReplaceGroupKeys(ExpressionPtr expression, SourceLocation location) {
    LogicalOperator& aggregate = *aggregate_->aggregate;
    for (idx_t i = 0; i < aggregate.expressions.size(); i++) {
        if (aggregate.expressions[i]->Equals(*expression)) {
            return MakeBoundColumn({aggregate.table_index, i}, expression->type);
        }
    }
    // A column of this query's FROM clause; others are the aggregate's, a subquery's result, or
    // an enclosing query's (constant here).
    bool from_column = false;
    if (expression->kind == ExpressionKind::BoundColumn && scope_) {
        for (const auto& entry : scope_->entries) {
            from_column |= std::find(entry.bindings.begin(), entry.bindings.end(),
                                     expression->binding) != entry.bindings.end();
        }
    }
    if (from_column) {
        Fail(ErrorKind::Binder,
             "column \"" + NameOf(expression->binding) +
                 "\" must appear in the GROUP BY clause or must be part of an aggregate "
                 "function.\nEither add it to the GROUP BY list, or use \"ANY_VALUE(" +
                 NameOf(expression->binding) + ")\" if the exact value of \"" +
                 NameOf(expression->binding) + "\" is not important.",
             location);
    }
    for (auto& child : expression->children) {
        child = ReplaceGroupKeys(std::move(child), location);
    }
    return expression;
}

ExpressionPtr Binder::CurrentTime(bool date_only) {
    if (!statement_start_) {
        statement_start_ = std::chrono::duration_cast<std::chrono::microseconds>(
                               std::chrono::system_clock::now().time_since_epoch())
                               .count();
    }
    if (date_only) {
        return MakeConstant(
            Value::Integer(LogicalTypeId::DATE, timestamp::ToDate(*statement_start_)));
    }
    return MakeConstant(Value::Integer(LogicalTypeId::TIMESTAMP_TZ, *statement_start_));
}

} // namespace sluice
