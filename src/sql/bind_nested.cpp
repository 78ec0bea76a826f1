#include "execution/conditional_functions.hpp"
#include "execution/list_functions.hpp"
#include "execution/nested_functions.hpp"
#include "execution/string_functions.hpp"
#include "sql/binder.hpp"

#include "common/cast.hpp"
#include "common/string_util.hpp"

#include <algorithm>

namespace sluice {

std::optional<Binder::Bound> Binder::BindNestedCall(const ParsedExpression& expression) {
    const std::string& name = expression.text;
    bool constructor =
        name == "list_value" || name == "list_pack" || name == "struct_pack" || name == "map";
    bool extract = name == "struct_extract" || name == "array_extract" || name == "list_extract" ||
                   name == "list_element";
    // Functions whose text arguments must be constants: list_sort's order, the aggregate's name.
    bool with_options = name == "list_sort" || name == "array_sort" ||
                        name == "list_reverse_sort" || name == "array_reverse_sort" ||
                        name == "list_aggregate" || name == "array_aggregate" ||
                        name == "list_aggr" || name == "aggregate";
    bool transform = name == "list_transform" || name == "array_transform" || name == "apply" ||
                     name == "list_apply" || name == "array_apply";
    bool filter = name == "list_filter" || name == "array_filter" || name == "filter";
    bool reduce = name == "list_reduce" || name == "array_reduce" || name == "reduce";
    if (transform || filter || reduce) {
        return BindLambdaCall(expression, transform ? ListLambda::Transform
                                          : filter  ? ListLambda::Filter
                                                    : ListLambda::Reduce);
    }
    if (!constructor && !extract && !with_options) {
        return std::nullopt;
    }
    std::vector<ExpressionPtr> arguments;
    for (const auto& child : expression.children) {
        arguments.push_back(Bind(*child).expression);
    }
    // `label` names the function for expression equality and EXPLAIN: constants the call no
    // longer passes (a field's name, an aggregate's) are part of it.
    auto finish = [&](BoundFunction function, const std::string& label) -> Bound {
        try {
            return {Fold(MakeFunction(label, std::move(function), std::move(arguments))),
                    LiteralOrigin::None};
        } catch (const Exception& error) {
            Fail(error.Kind(), error.RawMessage(), expression.location);
        }
    };
    auto wrong_arguments = [&]() {
        std::string shown;
        for (size_t i = 0; i < arguments.size(); i++) {
            shown += (i ? ", " : "") + arguments[i]->type.ToString();
        }
        Fail(ErrorKind::Binder,
             "No function matches the given name and argument types '" + name + "(" + shown +
                 ")'. You might need to add explicit type casts.",
             expression.location);
    };
    if (name == "list_value" || name == "list_pack") {
        LogicalType element = LogicalTypeId::SQLNULL;
        for (const auto& argument : arguments) {
            auto common = CommonSuperType(element, argument->type);
            if (!common) {
                Fail(ErrorKind::Binder,
                     "Cannot create a list of types " + element.ToString() + " and " +
                         argument->type.ToString() + " - an explicit cast is required",
                     expression.location);
            }
            element = *common;
        }
        return finish(BindListValue(element, arguments.size()), name);
    }
    if (name == "struct_pack") {
        std::vector<StructField> fields;
        for (size_t i = 0; i < arguments.size(); i++) {
            const std::string& field = expression.children[i]->alias;
            if (field.empty()) {
                Fail(ErrorKind::Binder,
                     "Need named argument for struct pack, e.g., STRUCT_PACK(a := b)",
                     expression.children[i]->location);
            }
            for (const StructField& earlier : fields) {
                if (Lower(earlier.name) == Lower(field)) {
                    Fail(ErrorKind::Binder, "Duplicate struct entry name \"" + field + "\"",
                         expression.children[i]->location);
                }
            }
            fields.push_back(StructField{field, arguments[i]->type});
        }
        if (fields.empty()) {
            Fail(ErrorKind::Binder, "Can't pack nothing into a struct", expression.location);
        }
        return finish(BindStructPack(fields), name);
    }
    if (name == "map") {
        if (arguments.size() != 2) {
            wrong_arguments();
        }
        auto element_of = [&](const ExpressionPtr& argument) -> LogicalType {
            if (argument->type.id() == LogicalTypeId::SQLNULL) {
                return LogicalTypeId::INTEGER;
            }
            if (argument->type.id() != LogicalTypeId::LIST) {
                wrong_arguments();
            }
            return argument->type.element();
        };
        return finish(BindMap(element_of(arguments[0]), element_of(arguments[1])), name);
    }
    if (with_options) {
        std::vector<std::string> options;
        for (size_t i = 1; i < arguments.size(); i++) {
            if (arguments[i]->kind != ExpressionKind::Constant || arguments[i]->value.IsNull() ||
                arguments[i]->type.id() != LogicalTypeId::VARCHAR) {
                Fail(ErrorKind::Binder,
                     name + ": argument " + std::to_string(i + 1) + " must be a constant string",
                     expression.location);
            }
            options.push_back(arguments[i]->value.GetString());
        }
        if (arguments.empty()) {
            wrong_arguments();
        }
        std::vector<LogicalType> types = {arguments[0]->type};
        std::optional<BoundFunction> function;
        std::string label = name;
        try {
            if (name.find("sort") != std::string::npos) {
                types.resize(arguments.size(), LogicalTypeId::VARCHAR);
                function = BindListFunction(name, types, options);
            } else if (options.size() == 1) {
                arguments.resize(1);
                label = "list_" + Lower(options[0]);
                function = BindListFunction(label, types);
            }
        } catch (const Exception& error) {
            Fail(error.Kind(), error.RawMessage(), expression.location);
        }
        if (!function) {
            wrong_arguments();
        }
        return finish(std::move(*function), label);
    }
    // Element access: x[i] on lists, maps and strings; s.field, s['field'] on structs.
    if (arguments.size() != 2) {
        wrong_arguments();
    }
    const LogicalType& type = arguments[0]->type;
    if (type.id() == LogicalTypeId::STRUCT) {
        if (arguments[1]->kind != ExpressionKind::Constant || arguments[1]->value.IsNull() ||
            arguments[1]->type.id() != LogicalTypeId::VARCHAR) {
            Fail(ErrorKind::Binder, "Key name for struct_extract needs to be a constant string",
                 expression.location);
        }
        idx_t index = FieldIndex(type, arguments[1]->value.GetString(), expression.location);
        arguments.pop_back();
        return finish(BindStructExtract(type, index), StructExtractName(type, index));
    }
    if (name != "struct_extract" && type.id() == LogicalTypeId::VARCHAR) {
        // 'abc'[2] is the second character
        arguments.push_back(MakeConstant(Value::Integer(LogicalTypeId::BIGINT, 1)));
        return finish(BindSubstring(3), name);
    }
    std::vector<LogicalType> types;
    for (const auto& argument : arguments) {
        types.push_back(argument->type);
    }
    auto function = BindNestedFunction(name == "struct_extract" ? "" : name, types);
    if (!function) {
        wrong_arguments();
    }
    return finish(std::move(*function), name);
}

Binder::Bound Binder::BindUnnest(const ParsedExpression& expression) {
    if (!unnest_) {
        Fail(ErrorKind::Binder, "UNNEST not supported here", expression.location);
    }
    if (expression.children.empty()) {
        Fail(ErrorKind::Binder, "UNNEST requires a single list as input", expression.location);
    }
    // Nested unnest(unnest(x)) unnests the inner one first, in the same operator's input.
    UnnestContext* context = unnest_;
    unnest_ = nullptr;
    ExpressionPtr list = Bind(*expression.children[0]).expression;
    // recursive := true unnests every list level (and expands structs in turn); max_depth := n
    // unnests n list levels.
    bool recursive = false;
    int64_t max_depth = 1;
    for (size_t i = 1; i < expression.children.size(); i++) {
        const ParsedExpression& option = *expression.children[i];
        std::string name = Lower(option.alias);
        ExpressionPtr value = Bind(option).expression;
        Value constant;
        bool known =
            (name == "recursive" || name == "max_depth") &&
            value->kind == ExpressionKind::Constant &&
            TryCastValue(value->value,
                         name == "recursive" ? LogicalTypeId::BOOLEAN : LogicalTypeId::BIGINT,
                         constant) &&
            !constant.IsNull();
        if (!known) {
            Fail(ErrorKind::Binder,
                 "UNNEST - unsupported extra argument, unnest only supports recursive := "
                 "[true/false] or max_depth := #",
                 option.location);
        }
        if (name == "recursive") {
            recursive = constant.GetBoolean();
        } else {
            max_depth = static_cast<int64_t>(constant.GetInteger());
            if (max_depth < 1) {
                Fail(ErrorKind::Binder,
                     "UNNEST cannot have a max depth of " + std::to_string(max_depth),
                     option.location);
            }
        }
    }
    unnest_ = context;
    if (aggregate_) {
        list = ReplaceGroupKeys(std::move(list), expression.location);
    }
    if (list->type.id() == LogicalTypeId::SQLNULL) {
        list = CastTo(std::move(list), LogicalType::List(LogicalTypeId::INTEGER));
    }
    if (list->type.id() == LogicalTypeId::STRUCT) {
        if (&expression != context->item) {
            Fail(ErrorKind::Binder,
                 "UNNEST() on a struct column can only be applied as the root element of a "
                 "SELECT expression",
                 expression.location);
        }
        context->struct_unnest = recursive; // the SELECT item becomes the fields
        return {std::move(list), LiteralOrigin::None};
    }
    if (list->type.id() != LogicalTypeId::LIST) {
        Fail(ErrorKind::Binder,
             "UNNEST() can only be applied to lists, structs and NULL, not " +
                 list->type.ToString(),
             expression.location);
    }
    // Levels below the first are flattened into it first (flatten drops NULL inner lists,
    // as unnesting them does).
    for (int64_t depth = 1;
         (recursive || depth < max_depth) && list->type.element().id() == LogicalTypeId::LIST;
         depth++) {
        std::vector<ExpressionPtr> arguments;
        LogicalType type = list->type;
        arguments.push_back(std::move(list));
        list =
            MakeFunction("flatten", *BindNestedFunction("flatten", {type}), std::move(arguments));
    }
    LogicalOperator& op = *context->op;
    idx_t index = op.expressions.size();
    LogicalType element = list->type.element();
    op.expressions.push_back(std::move(list));
    binding_names_[{op.table_index, index}] = expression.ToString();
    if (recursive && element.id() == LogicalTypeId::STRUCT && &expression == context->item) {
        context->struct_unnest = true;
    }
    return {MakeBoundColumn({op.table_index, index}, element), LiteralOrigin::None};
}

void Binder::ExpandStruct(ExpressionPtr expression, bool recursive,
                          std::vector<std::pair<ExpressionPtr, std::string>>& columns) {
    const LogicalType type = expression->type;
    for (idx_t field = 0; field < type.fields().size(); field++) {
        std::vector<ExpressionPtr> arguments;
        arguments.push_back(expression->Copy());
        ExpressionPtr value = MakeFunction(StructExtractName(type, field),
                                           BindStructExtract(type, field), std::move(arguments));
        if (recursive && value->type.id() == LogicalTypeId::STRUCT) {
            ExpandStruct(std::move(value), true, columns);
        } else {
            columns.emplace_back(std::move(value), type.fields()[field].name);
        }
    }
}

namespace {

// The lambda's parameters, bound as columns of `table`, become columns 0.. of the chunk the body
// runs on; any other column becomes a capture, read from the column after the parameters.
void ResolveLambdaColumns(Expression& expression, idx_t table, idx_t parameters,
                          std::vector<ExpressionPtr>& captures) {
    if (expression.kind == ExpressionKind::SubqueryValue) {
        throw Exception(ErrorKind::Binder, "subqueries in lambda expressions are not supported");
    }
    if (expression.kind == ExpressionKind::BoundColumn) {
        idx_t column = expression.binding.column_index;
        if (expression.binding.table_index != table) {
            auto same = [&](const ExpressionPtr& capture) {
                return capture->binding.table_index == expression.binding.table_index &&
                       capture->binding.column_index == expression.binding.column_index;
            };
            auto found = std::find_if(captures.begin(), captures.end(), same);
            column = parameters + static_cast<idx_t>(found - captures.begin());
            if (found == captures.end()) {
                captures.push_back(expression.Copy());
            }
        }
        expression.kind = ExpressionKind::ColumnRef;
        expression.column_index = column;
    }
    for (auto& child : expression.children) {
        ResolveLambdaColumns(*child, table, parameters, captures);
    }
}

} // namespace

Binder::Bound Binder::BindLambdaCall(const ParsedExpression& expression, ListLambda kind) {
    const std::string& name = expression.text;
    bool reduce = kind == ListLambda::Reduce;
    std::string usage = reduce ? "a list, a lambda ((acc, x) -> ...) and an optional initial value"
                               : "a list and a lambda (x -> ...)";
    if (expression.children.empty()) {
        Fail(ErrorKind::Binder, name + " takes " + usage, expression.location);
    }
    ExpressionPtr list = Bind(*expression.children[0]).expression;
    size_t arguments_allowed = reduce ? 3 : 2;
    if (expression.children.size() < 2 || expression.children.size() > arguments_allowed ||
        expression.children[1]->kind != ParsedExpressionKind::Lambda) {
        Fail(ErrorKind::Binder,
             "No function matches the given name and argument types '" + name + "(" +
                 list->type.ToString() + ", ...)': it takes " + usage,
             expression.location);
    }
    if (list->type.id() == LogicalTypeId::SQLNULL) {
        list = CastTo(std::move(list), LogicalType::List(LogicalTypeId::INTEGER));
    }
    if (list->type.id() != LogicalTypeId::LIST) {
        Fail(ErrorKind::Binder, name + " takes a list, not " + list->type.ToString(),
             expression.location);
    }
    const LogicalType& element = list->type.element();
    // list_reduce's accumulator starts as the initial value or the first element: their common
    // type, which each step's value is cast back to.
    ExpressionPtr initial;
    LogicalType accumulator = element;
    if (expression.children.size() == 3) {
        initial = Bind(*expression.children[2]).expression;
        auto common = CommonSuperType(element, initial->type);
        if (!common) {
            Fail(ErrorKind::Binder,
                 "Cannot reduce a list of " + element.ToString() + " from an initial value of " +
                     initial->type.ToString(),
                 expression.children[2]->location);
        }
        accumulator = *common;
        initial = CastTo(std::move(initial), accumulator);
    }
    // The parameters: (x[, i]) or, reducing, (acc, x[, i]); i is the element's position from 1.
    const ParsedExpression& lambda = *expression.children[1];
    std::vector<LogicalType> parameters = {accumulator, element, LogicalTypeId::BIGINT};
    if (!reduce) {
        parameters.erase(parameters.begin());
    }
    if (lambda.names.size() + 1 != parameters.size() && lambda.names.size() != parameters.size()) {
        Fail(ErrorKind::Binder,
             name + (reduce ? " takes a lambda of two parameters (the accumulator and the "
                              "element) or three (and the element's index)"
                            : " takes a lambda of one parameter (the element) or two (the "
                              "element and its index)"),
             lambda.location);
    }
    parameters.resize(lambda.names.size());
    std::vector<ExpressionPtr> captures;
    auto body = BindLambda(lambda, parameters, captures);
    if (reduce && body->type != accumulator) {
        body = CastTo(body->Copy(), accumulator);
    }
    // list_filter keeps the elements whose lambda is true: any other result is cast to BOOLEAN
    // (DuckDB's rule: [5, 6, 2, 0] filtered by y -> y keeps 5, 6 and 2).
    if (kind == ListLambda::Filter && body->type.id() != LogicalTypeId::BOOLEAN) {
        body = CastTo(body->Copy(), LogicalTypeId::BOOLEAN);
    }
    std::vector<LogicalType> capture_types;
    for (const auto& capture : captures) {
        capture_types.push_back(capture->type);
    }
    bool with_index = lambda.names.size() == (reduce ? 3u : 2u);
    BoundFunction function =
        reduce ? BindListReduce(list->type, body, initial != nullptr, with_index, capture_types)
               : BindListLambda(list->type, body, kind == ListLambda::Filter, with_index,
                                capture_types);
    std::vector<ExpressionPtr> arguments;
    arguments.push_back(std::move(list));
    if (initial) {
        arguments.push_back(std::move(initial));
    }
    for (auto& capture : captures) {
        arguments.push_back(std::move(capture));
    }
    try {
        std::string shown = name + "[" + lambda.ToString() + "]";
        return Bound{Fold(MakeFunction(shown, std::move(function), std::move(arguments))),
                     LiteralOrigin::None};
    } catch (const Exception& error) {
        Fail(error.Kind(), error.RawMessage(), expression.location);
    }
}

std::shared_ptr<const Expression> Binder::BindLambda(const ParsedExpression& lambda,
                                                     const std::vector<LogicalType>& parameters,
                                                     std::vector<ExpressionPtr>& captures) {
    idx_t table = next_table_index_++;
    ScopeEntry entry{"", lambda.names, parameters, {}, std::vector<bool>(parameters.size())};
    for (idx_t i = 0; i < parameters.size(); i++) {
        entry.bindings.push_back({table, i});
    }
    Scope scope;
    scope.entries.push_back(std::move(entry));
    scope.outer = scope_; // the query's columns, which the body may capture

    // An aggregate or window function in the body is the query's (x -> x + sum(v)): a capture
    // like any other column of the query.
    ExpressionPtr body =
        BindIsolated(*lambda.children[0], scope, /*query_functions=*/true).expression;
    try {
        ResolveLambdaColumns(*body, table, parameters.size(), captures);
    } catch (const Exception& error) {
        Fail(error.Kind(), error.RawMessage(), lambda.location);
    }
    return std::shared_ptr<const Expression>(std::move(body));
}

idx_t Binder::FieldIndex(const LogicalType& type, const std::string& field,
                         SourceLocation location) {
    const std::vector<StructField>& fields = type.fields();
    for (idx_t i = 0; i < fields.size(); i++) {
        if (Lower(fields[i].name) == Lower(field)) {
            return i;
        }
    }
    Fail(ErrorKind::Binder, "Could not find key \"" + field + "\" in struct", location);
}

Binder::Bound Binder::BindFieldPath(Bound base, const std::vector<std::string>& fields,
                                    SourceLocation location) {
    for (const std::string& field : fields) {
        const LogicalType type = base.expression->type;
        if (type.id() != LogicalTypeId::STRUCT) {
            Fail(ErrorKind::Binder,
                 "Cannot extract field \"" + field + "\" from expression of type " +
                     type.ToString(),
                 location);
        }
        std::vector<ExpressionPtr> arguments;
        arguments.push_back(std::move(base.expression));
        idx_t index = FieldIndex(type, field, location);
        base.expression = Fold(MakeFunction(StructExtractName(type, index),
                                            BindStructExtract(type, index), std::move(arguments)));
    }
    return base;
}

} // namespace sluice
