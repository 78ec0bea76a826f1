#include "execution/conditional_functions.hpp"
#include "execution/list_functions.hpp"
#include "execution/nested_functions.hpp"
#include "execution/string_functions.hpp"
#include "sql/binder.hpp"

#include "common/string_util.hpp"

namespace sluice {

namespace {

// struct_extract's name in expressions: the field is no argument, so it names the function.
std::string StructExtractLabel(const LogicalType& type, idx_t index) {
    return "struct_extract('" + type.fields()[index].name + "')";
}

} // namespace

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
    if (transform || filter) {
        if (expression.children.empty()) {
            Fail(ErrorKind::Binder, name + " takes a list and a lambda (x -> ...)",
                 expression.location);
        }
        ExpressionPtr list = Bind(*expression.children[0]).expression;
        if (expression.children.size() != 2 ||
            expression.children[1]->kind != ParsedExpressionKind::Lambda) {
            Fail(ErrorKind::Binder,
                 "No function matches the given name and argument types '" + name + "(" +
                     list->type.ToString() + ", ...)': it takes a list and a lambda (x -> ...)",
                 expression.location);
        }
        if (list->type.id() == LogicalTypeId::SQLNULL) {
            list = CastTo(std::move(list), LogicalType::List(LogicalTypeId::INTEGER));
        }
        if (list->type.id() != LogicalTypeId::LIST) {
            Fail(ErrorKind::Binder, name + " takes a list, not " + list->type.ToString(),
                 expression.location);
        }
        auto body = BindLambda(*expression.children[1], list->type.element());
        std::string shown = name + "[" + expression.children[1]->ToString() + "]";
        BoundFunction function = BindListLambda(list->type, body, filter);
        std::vector<ExpressionPtr> arguments;
        arguments.push_back(std::move(list));
        try {
            return Bound{Fold(MakeFunction(shown, std::move(function), std::move(arguments))),
                         LiteralOrigin::None};
        } catch (const Exception& error) {
            Fail(error.Kind(), error.RawMessage(), expression.location);
        }
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
        return finish(BindStructExtract(type, index), StructExtractLabel(type, index));
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
    unnest_ = context;
    if (aggregate_) {
        list = ReplaceGroupKeys(std::move(list), expression.location);
    }
    for (size_t i = 1; i < expression.children.size(); i++) {
        Fail(ErrorKind::NotImplemented,
             "not supported: unnest parameter " + (expression.children[i]->alias.empty()
                                                       ? std::to_string(i + 1)
                                                       : expression.children[i]->alias),
             expression.children[i]->location);
    }
    if (list->type.id() == LogicalTypeId::SQLNULL) {
        list = CastTo(std::move(list), LogicalType::List(LogicalTypeId::INTEGER));
    }
    if (list->type.id() != LogicalTypeId::LIST) {
        Fail(ErrorKind::Binder,
             "UNNEST() can only be applied to lists, structs and NULL, not " +
                 list->type.ToString(),
             expression.location);
    }
    LogicalOperator& op = *context->op;
    idx_t index = op.expressions.size();
    LogicalType element = list->type.element();
    op.expressions.push_back(std::move(list));
    binding_names_[{op.table_index, index}] = expression.ToString();
    return {MakeBoundColumn({op.table_index, index}, element), LiteralOrigin::None};
}

namespace {

// The lambda's parameter, bound as a column of `table`, becomes column 0 of the chunk of
// elements the body runs on.
void ResolveParameter(Expression& expression, idx_t table) {
    if (expression.kind == ExpressionKind::BoundColumn && expression.binding.table_index == table) {
        expression.kind = ExpressionKind::ColumnRef;
        expression.column_index = 0;
    }
    for (auto& child : expression.children) {
        ResolveParameter(*child, table);
    }
}

bool ReadsOtherColumns(const Expression& expression) {
    if (expression.kind == ExpressionKind::BoundColumn ||
        expression.kind == ExpressionKind::SubqueryValue) {
        return true;
    }
    for (const auto& child : expression.children) {
        if (ReadsOtherColumns(*child)) {
            return true;
        }
    }
    return false;
}

} // namespace

std::shared_ptr<const Expression> Binder::BindLambda(const ParsedExpression& lambda,
                                                     const LogicalType& element) {
    idx_t table = next_table_index_++;
    Scope scope;
    scope.entries.push_back(ScopeEntry{"", {lambda.names[0]}, {element}, {{table, 0}}, {false}});
    scope.outer = scope_; // found there, a column is named in the error below

    ExpressionPtr body = BindIsolated(*lambda.children[0], scope).expression;
    ResolveParameter(*body, table);
    if (ReadsOtherColumns(*body)) {
        Fail(ErrorKind::NotImplemented,
             "not supported: a lambda reading anything but its parameter (" + lambda.ToString() +
                 ")",
             lambda.location);
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
        base.expression = Fold(MakeFunction(StructExtractLabel(type, index),
                                            BindStructExtract(type, index), std::move(arguments)));
    }
    return base;
}

} // namespace sluice
