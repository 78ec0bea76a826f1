#include "sql/binder.hpp"

#include "common/cast.hpp"
#include "common/exception.hpp"
#include "common/number_format.hpp"
#include "common/string_util.hpp"
#include "execution/expression_executor.hpp"
#include "execution/scalar_functions.hpp"
#include "sql/lexer.hpp"
#include "sql/type_names.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace sluice {

namespace {

size_t EditDistance(const std::string& a, const std::string& b) {
    std::vector<size_t> previous(b.size() + 1), current(b.size() + 1);
    for (size_t j = 0; j <= b.size(); j++) {
        previous[j] = j;
    }
    for (size_t i = 1; i <= a.size(); i++) {
        current[0] = i;
        for (size_t j = 1; j <= b.size(); j++) {
            size_t substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
            current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
        }
        std::swap(previous, current);
    }
    return previous[b.size()];
}

// "Did you mean" candidates: the closest names within a third of the name's length.
std::string Suggest(const std::string& name, const std::vector<std::string>& candidates) {
    std::string best;
    size_t best_distance = name.size() / 3 + 2;
    for (const auto& candidate : candidates) {
        size_t distance = EditDistance(Lower(name), Lower(candidate));
        if (distance < best_distance) {
            best_distance = distance;
            best = candidate;
        }
    }
    return best;
}

bool IsIntegerLiteralOf(const Value& value, const LogicalType& target) {
    Value cast;
    return TryCastValue(value, target, cast);
}

} // namespace

void Binder::Fail(ErrorKind kind, const std::string& message, SourceLocation location) const {
    throw Exception(kind, message + DescribeLocation(text_, location));
}

ExpressionPtr Binder::Fold(ExpressionPtr expression) {
    if (expression->kind == ExpressionKind::Constant || !expression->IsFoldable()) {
        return expression;
    }
    LogicalType type = expression->type;
    Value value = ExpressionExecutor::EvaluateConstant(*expression);
    auto folded = MakeConstant(value);
    folded->type = type;
    return folded;
}

BoundSelect Binder::BindSelect(const SelectStatement& select) {
    BoundSelect bound;
    if (select.from) {
        const TableRef& ref = *select.from;
        const TableFunction* function = catalog_.Find(ref.name);
        if (!function) {
            std::string hint = Suggest(ref.name, catalog_.Names());
            Fail(ErrorKind::Catalog,
                 "Table Function with name " + ref.name + " does not exist!" +
                     (hint.empty() ? "" : "\nDid you mean \"" + hint + "\"?"),
                 ref.location);
        }
        TableFunctionInput arguments;
        auto evaluate = [&](const ParsedExpression& argument) {
            return ExpressionExecutor::EvaluateConstant(*BindConstantExpression(argument));
        };
        for (const auto& argument : ref.arguments) {
            std::vector<Value> values;
            if (argument->kind == ParsedExpressionKind::List) {
                for (const auto& element : argument->children) {
                    values.push_back(evaluate(*element));
                }
            } else {
                values.push_back(evaluate(*argument));
            }
            arguments.positional.push_back(
                {std::move(values), argument->kind == ParsedExpressionKind::List});
        }
        for (const auto& [name, value] : ref.named_arguments) {
            if (arguments.named.count(name)) {
                Fail(ErrorKind::Binder, "parameter " + name + " given twice", ref.location);
            }
            arguments.named[name] = evaluate(*value);
        }
        try {
            bound.from = function->bind(arguments);
        } catch (const Exception& error) {
            Fail(error.Kind(), error.RawMessage(), ref.location);
        }
        columns_ = &*bound.from;
        used_columns_.assign(columns_->names.size(), false);
    }
    if (select.where) {
        bound.where = BindBoolean(*select.where, "WHERE");
    }
    for (const auto& item : select.select_list) {
        if (item->kind == ParsedExpressionKind::Star) {
            if (!columns_) {
                Fail(ErrorKind::Binder, "SELECT * expression without FROM clause!", item->location);
            }
            for (idx_t i = 0; i < columns_->names.size(); i++) {
                auto column = std::make_unique<Expression>();
                column->kind = ExpressionKind::ColumnRef;
                column->column_index = i;
                used_columns_[i] = true;
                column->type = columns_->types[i];
                bound.names.push_back(columns_->names[i]);
                bound.types.push_back(column->type);
                bound.projections.push_back(std::move(column));
            }
            continue;
        }
        Bound expression = Bind(*item);
        // A bare NULL is typed INTEGER in results, as in DuckDB.
        if (expression.expression->type.id() == LogicalTypeId::SQLNULL) {
            expression.expression =
                MakeCast(std::move(expression.expression), LogicalTypeId::INTEGER);
            expression.expression = Fold(std::move(expression.expression));
        }
        bound.names.push_back(item->alias.empty() ? item->ToString() : item->alias);
        bound.types.push_back(expression.expression->type);
        bound.projections.push_back(std::move(expression.expression));
    }
    if (select.limit) {
        bound.limit = BindCount(*select.limit, "LIMIT");
    }
    if (select.offset) {
        bound.offset = BindCount(*select.offset, "OFFSET");
    }
    if (bound.from && bound.where) {
        ExtractTableFilters(*bound.where, bound.filters);
    }
    PushDownProjection(bound);
    return bound;
}

void Binder::ExtractTableFilters(const Expression& predicate, std::vector<TableFilter>& filters) {
    using Op = TableFilter::Op;
    if (predicate.kind == ExpressionKind::And) {
        for (const auto& child : predicate.children) {
            ExtractTableFilters(*child, filters);
        }
        return;
    }
    if ((predicate.kind == ExpressionKind::IsNull || predicate.kind == ExpressionKind::IsNotNull) &&
        predicate.children[0]->kind == ExpressionKind::ColumnRef) {
        filters.push_back({predicate.children[0]->column_index,
                           predicate.kind == ExpressionKind::IsNull ? Op::IsNull : Op::IsNotNull,
                           Value()});
        return;
    }
    if (predicate.kind != ExpressionKind::Function || predicate.children.size() != 2) {
        return;
    }
    static const std::vector<std::pair<std::string, Op>> kOps = {
        {"=", Op::Equal},      {"!=", Op::NotEqual}, {"<", Op::Less},
        {"<=", Op::LessEqual}, {">", Op::Greater},   {">=", Op::GreaterEqual}};
    auto op = std::find_if(kOps.begin(), kOps.end(), [&](const auto& entry) {
        return entry.first == predicate.function_name;
    });
    if (op == kOps.end()) {
        return;
    }
    const Expression* left = predicate.children[0].get();
    const Expression* right = predicate.children[1].get();
    Op comparison = op->second;
    if (left->kind == ExpressionKind::Constant && right->kind == ExpressionKind::ColumnRef) {
        std::swap(left, right); // c < col is col > c
        static const std::vector<std::pair<Op, Op>> kMirror = {{Op::Less, Op::Greater},
                                                               {Op::LessEqual, Op::GreaterEqual},
                                                               {Op::Greater, Op::Less},
                                                               {Op::GreaterEqual, Op::LessEqual}};
        for (const auto& [from, to] : kMirror) {
            if (comparison == from) {
                comparison = to;
                break;
            }
        }
    }
    // Only an uncast column against a constant of its own type: casts may change the order.
    if (left->kind == ExpressionKind::ColumnRef && right->kind == ExpressionKind::Constant &&
        right->type == left->type) {
        filters.push_back({left->column_index, comparison, right->value});
    }
}

namespace {

void RemapColumns(Expression& expression, const std::vector<idx_t>& position) {
    if (expression.kind == ExpressionKind::ColumnRef) {
        expression.column_index = position[expression.column_index];
    }
    for (auto& child : expression.children) {
        RemapColumns(*child, position);
    }
}

} // namespace

void Binder::PushDownProjection(BoundSelect& bound) {
    if (!bound.from) {
        return;
    }
    // The source produces only the referenced columns; references are renumbered to match.
    std::vector<idx_t> position(used_columns_.size(), 0);
    for (idx_t i = 0; i < used_columns_.size(); i++) {
        if (used_columns_[i]) {
            position[i] = bound.column_ids.size();
            bound.column_ids.push_back(i);
        }
    }
    if (bound.where) {
        RemapColumns(*bound.where, position);
    }
    for (auto& projection : bound.projections) {
        RemapColumns(*projection, position);
    }
}

BoundCopy Binder::BindCopy(const Statement& statement) {
    BoundCopy copy;
    copy.select = BindSelect(*statement.select);
    copy.path = statement.copy_path;
    std::string format = Lower(copy.path).size() >= 4 &&
                                 Lower(copy.path).compare(copy.path.size() - 4, 4, ".csv") == 0
                             ? "csv"
                             : "parquet";
    for (const auto& option : statement.copy_options) {
        Value value =
            option.value
                ? ExpressionExecutor::EvaluateConstant(*BindConstantExpression(*option.value))
                : Value::Boolean(true);
        if (option.name == "format") {
            format = Lower(value.ToString());
        } else if (option.name == "row_group_size") {
            Value rows;
            if (!TryCastValue(value, LogicalTypeId::BIGINT, rows) || rows.IsNull() ||
                rows.GetInteger() < 1) {
                Fail(ErrorKind::Binder,
                     "ROW_GROUP_SIZE must be a positive integer, got " + value.ToString(),
                     option.location);
            }
            copy.options.row_group_size = static_cast<uint64_t>(rows.GetInteger());
        } else if (option.name == "compression" || option.name == "codec") {
            static const std::vector<std::pair<std::string, parquet::Codec>> kCodecs = {
                {"uncompressed", parquet::Codec::UNCOMPRESSED},
                {"snappy", parquet::Codec::SNAPPY},
                {"gzip", parquet::Codec::GZIP},
                {"zstd", parquet::Codec::ZSTD},
                {"lz4", parquet::Codec::LZ4_RAW},
                {"lz4_raw", parquet::Codec::LZ4_RAW},
                {"brotli", parquet::Codec::BROTLI}};
            std::string name = Lower(value.ToString());
            auto codec = std::find_if(kCodecs.begin(), kCodecs.end(),
                                      [&](const auto& entry) { return entry.first == name; });
            if (codec == kCodecs.end()) {
                Fail(ErrorKind::Binder,
                     "unknown COMPRESSION '" + name +
                         "'; use uncompressed, snappy, gzip, zstd, lz4 or brotli",
                     option.location);
            }
            copy.options.codec = codec->second;
        } else {
            Fail(ErrorKind::Binder, "unknown COPY option " + Upper(option.name), option.location);
        }
    }
    if (format != "parquet") {
        Fail(ErrorKind::NotImplemented,
             "COPY TO " + Upper(format) + " is not supported yet; FORMAT parquet is",
             statement.location);
    }
    return copy;
}

uint64_t Binder::BindCount(const ParsedExpression& expression, const char* clause) {
    Value value = ExpressionExecutor::EvaluateConstant(*BindConstantExpression(expression));
    Value count;
    if (value.IsNull() || !TryCastValue(value, LogicalTypeId::BIGINT, count) ||
        count.GetInteger() < 0) {
        Fail(ErrorKind::Binder,
             std::string(clause) + " must be a non-negative integer, got " + value.ToString(),
             expression.location);
    }
    return static_cast<uint64_t>(count.GetInteger());
}

ExpressionPtr Binder::BindConstantExpression(const ParsedExpression& expression) {
    const BoundTableFunction* saved = columns_;
    columns_ = nullptr;
    Bound bound = Bind(expression);
    columns_ = saved;
    return Fold(std::move(bound.expression));
}

ExpressionPtr Binder::BindBoolean(const ParsedExpression& expression, const char* clause) {
    Bound bound = Bind(expression);
    const LogicalType& type = bound.expression->type;
    if (type.id() != LogicalTypeId::BOOLEAN && type.id() != LogicalTypeId::SQLNULL &&
        !type.IsNumeric()) {
        Fail(ErrorKind::Binder,
             std::string(clause) + " clause must be a BOOLEAN expression, got " + type.ToString(),
             expression.location);
    }
    return Fold(MakeCast(std::move(bound.expression), LogicalTypeId::BOOLEAN));
}

Binder::Bound Binder::Bind(const ParsedExpression& expression) {
    switch (expression.kind) {
    case ParsedExpressionKind::Constant:
        return BindConstant(expression);
    case ParsedExpressionKind::ColumnRef:
        return BindColumn(expression);
    case ParsedExpressionKind::Cast:
        return BindCast(expression);
    case ParsedExpressionKind::Function:
        return BindFunction(expression);
    case ParsedExpressionKind::Operator:
        return BindOperator(expression);
    case ParsedExpressionKind::Comparison:
        return BindComparison(expression);
    case ParsedExpressionKind::And:
    case ParsedExpressionKind::Or:
    case ParsedExpressionKind::Not:
    case ParsedExpressionKind::IsNull:
    case ParsedExpressionKind::IsNotNull:
        return BindLogical(expression);
    case ParsedExpressionKind::Star:
        Fail(ErrorKind::Binder, "* can only be used in the SELECT list", expression.location);
    case ParsedExpressionKind::List:
        Fail(ErrorKind::NotImplemented,
             "list values are supported only as table function arguments", expression.location);
    }
    Fail(ErrorKind::Internal, "unknown expression kind", expression.location);
}

Binder::Bound Binder::BindConstant(const ParsedExpression& expression) {
    const std::string& text = expression.text;
    switch (expression.literal_kind) {
    case LiteralKind::Null:
        return {MakeConstant(Value()), LiteralOrigin::None};
    case LiteralKind::Boolean:
        return {MakeConstant(Value::Boolean(text == "t")), LiteralOrigin::None};
    case LiteralKind::String:
        return {MakeConstant(Value::Varchar(text)), LiteralOrigin::String};
    case LiteralKind::Integer: {
        // The magnitude decides INTEGER; beyond that the signed value picks BIGINT or HUGEINT.
        std::string magnitude = text[0] == '-' ? text.substr(1) : text;
        hugeint_t value;
        if (TryParseHugeint(magnitude, value) && value <= INT32_MAX) {
            return {MakeConstant(
                        Value::Integer(LogicalTypeId::INTEGER, text[0] == '-' ? -value : value)),
                    LiteralOrigin::Integer};
        }
        if (TryParseHugeint(text, value)) {
            bool big = value >= INT64_MIN && value <= INT64_MAX;
            return {MakeConstant(Value::Integer(
                        big ? LogicalTypeId::BIGINT : LogicalTypeId::HUGEINT, value)),
                    LiteralOrigin::Integer};
        }
        return {MakeConstant(Value::Double(std::strtod(text.c_str(), nullptr))),
                LiteralOrigin::None};
    }
    case LiteralKind::Decimal: {
        size_t digits = 0, scale = 0;
        bool after_point = false;
        for (char c : text) {
            if (c == '.') {
                after_point = true;
            } else if (std::isdigit((unsigned char)c)) {
                digits++;
                scale += after_point ? 1 : 0;
            }
        }
        if (digits > kMaxDecimalWidth) {
            return {MakeConstant(Value::Double(std::strtod(text.c_str(), nullptr))),
                    LiteralOrigin::None};
        }
        LogicalType type = LogicalType::Decimal(static_cast<uint8_t>(std::max<size_t>(digits, 1)),
                                                static_cast<uint8_t>(scale));
        Value value;
        if (!TryParseValue(text, type, value)) {
            Fail(ErrorKind::Parser, "invalid numeric literal " + text, expression.location);
        }
        return {MakeConstant(value), LiteralOrigin::None};
    }
    case LiteralKind::Float:
        return {MakeConstant(Value::Double(std::strtod(text.c_str(), nullptr))),
                LiteralOrigin::None};
    }
    Fail(ErrorKind::Internal, "unknown literal", expression.location);
}

Binder::Bound Binder::BindColumn(const ParsedExpression& expression) {
    const std::string& name = expression.names.back();
    if (!columns_) {
        Fail(ErrorKind::Binder,
             "Referenced column \"" + name + "\" was not found because the FROM clause is missing",
             expression.location);
    }
    for (idx_t i = 0; i < columns_->names.size(); i++) {
        if (Lower(columns_->names[i]) == Lower(name)) {
            auto column = std::make_unique<Expression>();
            column->kind = ExpressionKind::ColumnRef;
            column->column_index = i;
            column->type = columns_->types[i];
            used_columns_[i] = true;
            return {std::move(column), LiteralOrigin::None};
        }
    }
    std::string hint = Suggest(name, columns_->names);
    Fail(ErrorKind::Binder,
         "Referenced column \"" + name + "\" not found in FROM clause!" +
             (hint.empty() ? "" : "\nDid you mean \"" + hint + "\"?"),
         expression.location);
}

Binder::Bound Binder::BindCast(const ParsedExpression& expression) {
    Bound child = Bind(*expression.children[0]);
    std::optional<LogicalType> target;
    try {
        target = ResolveTypeName(expression.cast_type);
    } catch (const Exception& error) {
        Fail(error.Kind(), error.RawMessage(), expression.location);
    }
    if (!target) {
        Fail(ErrorKind::Catalog, "Type with name " + expression.cast_type.name + " does not exist!",
             expression.location);
    }
    if (!CastExists(child.expression->type, *target)) {
        Fail(ErrorKind::Binder,
             "Unimplemented type for cast (" + child.expression->type.ToString() + " -> " +
                 target->ToString() + ")",
             expression.location);
    }
    bool try_cast = expression.text == "TRY_CAST";
    auto cast = std::make_unique<Expression>();
    cast->kind = ExpressionKind::Cast;
    cast->type = *target;
    cast->try_cast = try_cast;
    cast->children.push_back(std::move(child.expression));
    try {
        return {Fold(std::move(cast)), LiteralOrigin::None};
    } catch (const Exception& error) {
        Fail(error.Kind(), error.RawMessage(), expression.location);
    }
}

Binder::Bound Binder::BindFunction(const ParsedExpression& expression) {
    if (expression.text == "typeof") {
        if (expression.children.size() != 1) {
            Fail(ErrorKind::Binder, "typeof takes exactly one argument", expression.location);
        }
        Bound child = Bind(*expression.children[0]);
        return {MakeConstant(Value::Varchar(child.expression->type.ToString())),
                LiteralOrigin::None};
    }
    Fail(ErrorKind::Catalog, "Scalar Function with name " + expression.text + " does not exist!",
         expression.location);
}

void Binder::AdaptLiterals(Bound& left, Bound& right, bool strings_too) {
    auto adapt = [&](Bound& literal, const Bound& other) {
        const LogicalType& target = other.expression->type;
        if (literal.expression->type.id() == LogicalTypeId::SQLNULL) {
            if (target.id() != LogicalTypeId::SQLNULL) {
                literal.expression = Fold(MakeCast(std::move(literal.expression), target));
            }
            return;
        }
        if (literal.origin == LiteralOrigin::Integer && other.origin == LiteralOrigin::None &&
            target.IsInteger() && IsIntegerLiteralOf(literal.expression->value, target)) {
            literal.expression = Fold(MakeCast(std::move(literal.expression), target));
            literal.origin = LiteralOrigin::None;
        } else if (strings_too && literal.origin == LiteralOrigin::String &&
                   other.origin != LiteralOrigin::String && target.id() != LogicalTypeId::VARCHAR &&
                   target.id() != LogicalTypeId::SQLNULL) {
            literal.expression = Fold(MakeCast(std::move(literal.expression), target));
            literal.origin = LiteralOrigin::None;
        }
    };
    adapt(left, right);
    adapt(right, left);
}

namespace {

ExpressionPtr MakeFunction(const std::string& name, BoundFunction function,
                           std::vector<ExpressionPtr> arguments) {
    auto expression = std::make_unique<Expression>();
    expression->kind = ExpressionKind::Function;
    expression->function_name = name;
    expression->type = function.return_type;
    expression->function = std::move(function.body);
    for (size_t i = 0; i < arguments.size(); i++) {
        expression->children.push_back(
            MakeCast(std::move(arguments[i]), function.argument_types[i]));
    }
    return expression;
}

} // namespace

Binder::Bound Binder::BindOperator(const ParsedExpression& expression) {
    const std::string& op = expression.text;
    try {
        if (expression.children.size() == 1) {
            Bound operand = Bind(*expression.children[0]);
            if (operand.expression->type.id() == LogicalTypeId::SQLNULL) {
                // -NULL picks the BIGINT overload, as in DuckDB.
                operand.expression =
                    Fold(MakeCast(std::move(operand.expression), LogicalTypeId::BIGINT));
            }
            auto function = BindNegate(operand.expression->type);
            if (!function) {
                Fail(ErrorKind::Binder,
                     "No function matches the given name and argument types '-(" +
                         operand.expression->type.ToString() +
                         ")'. You might need to add explicit type casts.",
                     expression.location);
            }
            std::vector<ExpressionPtr> arguments;
            arguments.push_back(std::move(operand.expression));
            return {Fold(MakeFunction("-", std::move(*function), std::move(arguments))),
                    LiteralOrigin::None};
        }
        Bound left = Bind(*expression.children[0]);
        Bound right = Bind(*expression.children[1]);
        bool left_null = left.expression->type.id() == LogicalTypeId::SQLNULL;
        bool right_null = right.expression->type.id() == LogicalTypeId::SQLNULL;
        if (left_null != right_null || (left_null && op == "||")) {
            // An untyped NULL operand makes the whole operation an untyped NULL, as in DuckDB.
            return {MakeConstant(Value()), LiteralOrigin::None};
        }
        if (left_null) {
            // NULL op NULL resolves to the BIGINT overload.
            left.expression = Fold(MakeCast(std::move(left.expression), LogicalTypeId::BIGINT));
            right.expression = Fold(MakeCast(std::move(right.expression), LogicalTypeId::BIGINT));
        }
        std::optional<BoundFunction> function;
        if (op == "||") {
            function = BindConcat();
        } else {
            AdaptLiterals(left, right, false);
            function = BindArithmetic(op, left.expression->type, right.expression->type);
        }
        if (!function) {
            Fail(ErrorKind::Binder,
                 "No function matches the given name and argument types '" + op + "(" +
                     left.expression->type.ToString() + ", " + right.expression->type.ToString() +
                     ")'. You might need to add explicit type casts.",
                 expression.location);
        }
        std::vector<ExpressionPtr> arguments;
        arguments.push_back(std::move(left.expression));
        arguments.push_back(std::move(right.expression));
        return {Fold(MakeFunction(op, std::move(*function), std::move(arguments))),
                LiteralOrigin::None};
    } catch (const Exception& error) {
        // Errors raised while folding constants (overflow, bad casts) point at the operator.
        if (error.RawMessage().find("\nLINE ") != std::string::npos) {
            throw;
        }
        Fail(error.Kind(), error.RawMessage(), expression.location);
    }
}

Binder::Bound Binder::BindComparison(const ParsedExpression& expression) {
    try {
        Bound left = Bind(*expression.children[0]);
        Bound right = Bind(*expression.children[1]);
        AdaptLiterals(left, right, true);
        const LogicalType& l = left.expression->type;
        const LogicalType& r = right.expression->type;
        std::optional<LogicalType> common;
        if (l == r) {
            common = l.id() == LogicalTypeId::SQLNULL ? LogicalType(LogicalTypeId::INTEGER) : l;
        } else if (l.IsNumeric() && r.IsNumeric()) {
            common = CommonNumericType(l, r);
        } else {
            // DATE < TIMESTAMP < TIMESTAMP WITH TIME ZONE: compare in the later one.
            auto temporal_rank = [](LogicalTypeId id) {
                return id == LogicalTypeId::DATE           ? 1
                       : id == LogicalTypeId::TIMESTAMP    ? 2
                       : id == LogicalTypeId::TIMESTAMP_TZ ? 3
                                                           : 0;
            };
            int left_rank = temporal_rank(l.id()), right_rank = temporal_rank(r.id());
            if (left_rank > 0 && right_rank > 0) {
                common = left_rank > right_rank ? l : r;
            }
        }
        if (!common) {
            Fail(ErrorKind::Binder,
                 "Cannot compare values of type " + l.ToString() + " and type " + r.ToString() +
                     " - an explicit cast is required",
                 expression.location);
        }
        std::vector<ExpressionPtr> arguments;
        arguments.push_back(std::move(left.expression));
        arguments.push_back(std::move(right.expression));
        return {Fold(MakeFunction(expression.text, sluice::BindComparison(expression.text, *common),
                                  std::move(arguments))),
                LiteralOrigin::None};
    } catch (const Exception& error) {
        if (error.RawMessage().find("\nLINE ") != std::string::npos) {
            throw;
        }
        Fail(error.Kind(), error.RawMessage(), expression.location);
    }
}

Binder::Bound Binder::BindLogical(const ParsedExpression& expression) {
    auto result = std::make_unique<Expression>();
    result->type = LogicalTypeId::BOOLEAN;
    switch (expression.kind) {
    case ParsedExpressionKind::And:
        result->kind = ExpressionKind::And;
        break;
    case ParsedExpressionKind::Or:
        result->kind = ExpressionKind::Or;
        break;
    case ParsedExpressionKind::Not:
        result->kind = ExpressionKind::Not;
        break;
    case ParsedExpressionKind::IsNull:
        result->kind = ExpressionKind::IsNull;
        break;
    default:
        result->kind = ExpressionKind::IsNotNull;
        break;
    }
    bool null_test =
        result->kind == ExpressionKind::IsNull || result->kind == ExpressionKind::IsNotNull;
    for (const auto& child : expression.children) {
        if (null_test) {
            result->children.push_back(Bind(*child).expression);
        } else {
            result->children.push_back(BindBoolean(*child, "AND/OR/NOT"));
        }
    }
    return {Fold(std::move(result)), LiteralOrigin::None};
}

} // namespace sluice
