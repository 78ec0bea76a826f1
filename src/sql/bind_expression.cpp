#include "sql/binder.hpp"

#include "common/cast.hpp"
#include "common/date_time.hpp"
#include "common/exception.hpp"
#include "common/number_format.hpp"
#include "common/string_util.hpp"
#include "execution/conditional_functions.hpp"
#include "execution/date_functions.hpp"
#include "execution/expression_executor.hpp"
#include "execution/list_functions.hpp"
#include "execution/physical_limit.hpp"
#include "execution/scalar_functions.hpp"
#include "execution/string_functions.hpp"
#include "sql/lexer.hpp"
#include "sql/type_names.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <limits>

namespace sluice {

namespace {

bool IsIntegerLiteralOf(const Value& value, const LogicalType& target) {
    Value cast;
    return TryCastValue(value, target, cast);
}

} // namespace

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

} // namespace

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

void Binder::Relocate(const Exception& error, SourceLocation location) const {
    // Errors that already point somewhere (a subexpression's) keep their place; others, such as
    // those of folding constants (overflow, bad casts), point at this expression.
    if (error.RawMessage().find("\nLINE ") != std::string::npos) {
        throw error;
    }
    Fail(error.Kind(), error.RawMessage(), location);
}

void Binder::Fail(ErrorKind kind, const std::string& message, SourceLocation location) const {
    throw Exception(kind, message + DescribeLocation(text_, location));
}

ExpressionPtr Binder::Fold(ExpressionPtr expression) {
    if (expression->kind == ExpressionKind::Constant || !expression->IsFoldable()) {
        return expression;
    }
    // Lists of more elements than this, and values that take more memory than this to compute,
    // stay expressions (see EvaluateSmallConstant).
    constexpr idx_t kMaxFoldedElements = 4096;
    constexpr idx_t kMaxFoldingBytes = 16 << 20;
    LogicalType type = expression->type;
    std::optional<Value> value = ExpressionExecutor::EvaluateSmallConstant(
        *expression, kMaxFoldedElements, kMaxFoldingBytes);
    if (!value) {
        return expression;
    }
    auto folded = MakeConstant(*value);
    folded->type = type;
    return folded;
}

BoundCopy Binder::BindCopy(const Statement& statement) {
    BoundCopy copy;
    copy.query = BindStatementQuery(*statement.select);
    copy.path = statement.copy_path;
    std::string lower_path = Lower(copy.path);
    copy.format = EndsWith(lower_path, ".csv") ? "csv" : "parquet";
    if (EndsWith(lower_path, ".arrow") || EndsWith(lower_path, ".feather") ||
        EndsWith(lower_path, ".arrows")) {
        copy.format = "arrow";
        copy.arrow_stream = EndsWith(lower_path, ".arrows");
    }
    std::vector<std::pair<const CopyOption*, Value>> options;
    for (const auto& option : statement.copy_options) {
        Value value =
            option.value ? EvaluateConstant(*option.value, "COPY option") : Value::Boolean(true);
        if (option.name == "format") {
            copy.format = Lower(value.ToString());
            // FORMAT arrows: the IPC stream form, as DuckDB's arrow extension names it.
            copy.arrow_stream =
                copy.format == "arrows" || (copy.format == "arrow" && copy.arrow_stream);
            copy.format = copy.format == "arrows" ? "arrow" : copy.format;
        } else {
            options.emplace_back(&option, value);
        }
    }
    if (copy.format != "parquet" && copy.format != "csv" && copy.format != "arrow") {
        Fail(ErrorKind::NotImplemented,
             "COPY TO " + Upper(copy.format) +
                 " is not supported; FORMAT parquet, csv, arrow (the IPC file) or arrows (the "
                 "IPC stream) is",
             statement.location);
    }
    auto one_character = [&](const CopyOption& option, const Value& value) {
        std::string text = value.IsNull() ? "" : value.ToString();
        if (text.size() != 1) {
            Fail(ErrorKind::Binder,
                 Upper(option.name) + " must be a single character, got '" + text + "'",
                 option.location);
        }
        return text[0];
    };
    for (const auto& [option, value] : options) {
        const std::string& name = option->name;
        if (copy.format == "parquet" && name == "row_group_size") {
            Value rows;
            if (!TryCastValue(value, LogicalTypeId::BIGINT, rows) || rows.IsNull() ||
                rows.GetInteger() < 1) {
                Fail(ErrorKind::Binder,
                     "ROW_GROUP_SIZE must be a positive integer, got " + value.ToString(),
                     option->location);
            }
            copy.options.row_group_size = static_cast<uint64_t>(rows.GetInteger());
        } else if (copy.format == "parquet" && name == "page_size") {
            // Sluice's own option: the uncompressed bytes of values per data page.
            Value bytes;
            if (!TryCastValue(value, LogicalTypeId::BIGINT, bytes) || bytes.IsNull() ||
                bytes.GetInteger() < 1 || bytes.GetInteger() > (int64_t(1) << 30)) {
                Fail(ErrorKind::Binder,
                     "PAGE_SIZE must be between 1 and 1073741824 bytes, got " + value.ToString(),
                     option->location);
            }
            copy.options.page_size = static_cast<uint64_t>(bytes.GetInteger());
        } else if (copy.format == "parquet" && name == "write_page_index") {
            Value flag;
            if (!TryCastValue(value, LogicalTypeId::BOOLEAN, flag) || flag.IsNull()) {
                Fail(ErrorKind::Binder,
                     "WRITE_PAGE_INDEX must be true or false, got " + value.ToString(),
                     option->location);
            }
            copy.options.write_page_index = flag.GetBoolean();
        } else if (copy.format == "parquet" && (name == "compression" || name == "codec")) {
            try {
                copy.options.codec = parquet::CodecFromName(value.ToString());
            } catch (const Exception& error) {
                Fail(ErrorKind::Binder, error.RawMessage(), option->location);
            }
        } else if (copy.format == "arrow" && name == "stream") {
            Value flag;
            if (!TryCastValue(value, LogicalTypeId::BOOLEAN, flag) || flag.IsNull()) {
                Fail(ErrorKind::Binder, "STREAM must be true or false, got " + value.ToString(),
                     option->location);
            }
            copy.arrow_stream = flag.GetBoolean();
        } else if (copy.format == "csv" && name == "header") {
            Value flag;
            if (!TryCastValue(value, LogicalTypeId::BOOLEAN, flag) || flag.IsNull()) {
                Fail(ErrorKind::Binder, "HEADER must be true or false, got " + value.ToString(),
                     option->location);
            }
            copy.csv_options.header = flag.GetBoolean();
        } else if (copy.format == "csv" &&
                   (name == "delimiter" || name == "sep" || name == "delim")) {
            copy.csv_options.delimiter = one_character(*option, value);
        } else if (copy.format == "csv" && name == "quote") {
            copy.csv_options.quote = one_character(*option, value);
        } else if (copy.format == "csv" && name == "escape") {
            copy.csv_options.escape = one_character(*option, value);
        } else if (copy.format == "csv" && (name == "nullstr" || name == "null")) {
            copy.csv_options.null_string = value.IsNull() ? "" : value.ToString();
        } else {
            Fail(ErrorKind::Binder,
                 "unknown COPY option " + Upper(name) + " for FORMAT " + Upper(copy.format),
                 option->location);
        }
    }
    if (copy.format == "csv" &&
        (copy.csv_options.delimiter == copy.csv_options.quote ||
         copy.csv_options.delimiter == '\n' || copy.csv_options.delimiter == '\r')) {
        Fail(ErrorKind::Binder, "CSV DELIMITER must differ from QUOTE, ESCAPE and line breaks",
             statement.location);
    }
    return copy;
}

ExpressionPtr Binder::BindCountExpression(const ParsedExpression& expression, const char* clause) {
    // Bound without a FROM clause: it reads no columns, so what is not a constant reads the
    // values of uncorrelated subqueries.
    (void)clause;
    return BindConstantExpression(expression);
}

std::optional<uint64_t> Binder::CountOf(const Expression& count,
                                        const ParsedExpression& expression) {
    try {
        return LimitCount(ExpressionExecutor::EvaluateConstant(count), false);
    } catch (const Exception& error) {
        Relocate(error, expression.location);
    }
}

Value Binder::EvaluateConstant(const ParsedExpression& expression, const char* what) {
    std::string reason = std::string(what) + " cannot contain subqueries";
    ScopedValue<const char*> no_subqueries(no_subqueries_reason_, reason.c_str());
    return ExpressionExecutor::EvaluateConstant(*BindConstantExpression(expression));
}

ExpressionPtr Binder::BindConstantExpression(const ParsedExpression& expression) {
    Scope empty;
    return Fold(BindIsolated(expression, empty).expression);
}

Binder::Bound Binder::BindIsolated(const ParsedExpression& expression, Scope& scope,
                                   bool query_functions) {
    struct SavedContext {
        Binder& binder;
        Scope* scope = binder.scope_;
        AggregateContext* aggregate = binder.aggregate_;
        LogicalOperatorPtr* from = binder.from_plan_;
        WindowContext* window = binder.window_;
        UnnestContext* unnest = binder.unnest_;
        ~SavedContext() {
            binder.scope_ = scope;
            binder.aggregate_ = aggregate;
            binder.from_plan_ = from;
            binder.window_ = window;
            binder.unnest_ = unnest;
        }
    } saved{*this};
    scope_ = &scope;
    aggregate_ = query_functions ? aggregate_ : nullptr;
    window_ = query_functions ? window_ : nullptr;
    from_plan_ = nullptr;
    unnest_ = nullptr;
    return Bind(expression);
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
    case ParsedExpressionKind::Parameter:
        return BindParameter(expression);
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
    case ParsedExpressionKind::Between:
        return BindBetween(expression);
    case ParsedExpressionKind::InList:
        return BindInList(expression);
    case ParsedExpressionKind::Like:
        return BindLike(expression);
    case ParsedExpressionKind::Case:
        return BindCase(expression);
    case ParsedExpressionKind::Interval:
        return BindInterval(expression);
    case ParsedExpressionKind::Subquery:
        return BindSubquery(expression);
    case ParsedExpressionKind::Lambda:
        Fail(ErrorKind::Binder,
             "a lambda (" + expression.ToString() +
                 ") is only an argument of list_transform or list_filter",
             expression.location);
    }
    Fail(ErrorKind::Internal, "unknown expression kind", expression.location);
}

Binder::Bound Binder::BindParameter(const ParsedExpression& expression) {
    size_t given = parameters_ ? parameters_->size() : 0;
    if (expression.parameter > given) {
        Fail(ErrorKind::InvalidInput,
             "parameter $" + std::to_string(expression.parameter) +
                 " has no value: the statement was given " + std::to_string(given),
             expression.location);
    }
    // A value given for a parameter binds as a literal written there would: strings and
    // integers adapt to what they meet (a date column, a DECIMAL).
    const Value& value = (*parameters_)[expression.parameter - 1];
    LiteralOrigin origin = LiteralOrigin::None;
    if (value.type().id() == LogicalTypeId::VARCHAR) {
        origin = LiteralOrigin::String;
    } else if (value.type().IsInteger()) {
        origin = LiteralOrigin::Integer;
    }
    return {MakeConstant(value), origin};
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
        if (left_null != right_null && op != "||") {
            // An untyped NULL beside an integer or a floating-point number takes its type
            // (NULL + 1 is an INTEGER, NULL / 2 a DOUBLE), as DuckDB resolves the overload.
            const LogicalType& other = left_null ? right.expression->type : left.expression->type;
            if (other.IsInteger() || other.IsFloating()) {
                Bound& null = left_null ? left : right;
                null.expression = Fold(MakeCast(std::move(null.expression), other));
                left_null = right_null = false;
            }
        }
        if (left_null != right_null || (left_null && op == "||")) {
            // Beside other types an untyped NULL makes the whole operation an untyped NULL, as in
            // DuckDB.
            return {MakeConstant(Value()), LiteralOrigin::None};
        }
        if (left_null) {
            // NULL op NULL resolves to the BIGINT overload.
            left.expression = Fold(MakeCast(std::move(left.expression), LogicalTypeId::BIGINT));
            right.expression = Fold(MakeCast(std::move(right.expression), LogicalTypeId::BIGINT));
        }
        std::optional<BoundFunction> function;
        if (op == "||" && left.expression->type.id() == LogicalTypeId::LIST &&
            right.expression->type.id() == LogicalTypeId::LIST) {
            // [1] || [2] concatenates lists, of their common type
            auto common = CommonSuperType(left.expression->type, right.expression->type);
            if (common) {
                function = BindListFunction("||", {*common, *common});
            }
        } else if (op == "||") {
            function = BindConcat();
        } else if (op.size() == 1 && (function = BindIntervalArithmetic(
                                          op[0], left.expression->type, right.expression->type))) {
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
        Relocate(error, expression.location);
    }
}

Binder::Bound Binder::BindComparison(const ParsedExpression& expression) {
    Bound left = Bind(*expression.children[0]);
    Bound right = Bind(*expression.children[1]);
    bool distinct = expression.text == "IS DISTINCT FROM";
    if (distinct || expression.text == "IS NOT DISTINCT FROM") {
        // Not distinct: both NULL, or neither and equal; never NULL itself.
        ExpressionPtr a = left.expression->Copy(), b = right.expression->Copy();
        ExpressionPtr equal =
            BindComparisonOf("=", std::move(left), std::move(right), expression.location);
        ExpressionPtr both_null = MakeAnd(MakeIsNull(a->Copy()), MakeIsNull(b->Copy()));
        ExpressionPtr neither =
            MakeAnd(MakeNot(MakeIsNull(std::move(a))), MakeNot(MakeIsNull(std::move(b))));
        ExpressionPtr same =
            MakeOr(std::move(both_null), MakeAnd(std::move(neither), std::move(equal)));
        return {Fold(distinct ? MakeNot(std::move(same)) : std::move(same)), LiteralOrigin::None};
    }
    return {
        BindComparisonOf(expression.text, std::move(left), std::move(right), expression.location),
        LiteralOrigin::None};
}

// A DATE column compared with a TIMESTAMP constant at midnight compares as dates: the same
// answer without casting every row, and a filter the scan can use to skip row groups.
void Binder::ComparePlainDates(std::vector<ExpressionPtr>& arguments, LogicalType& type) {
    if (type.id() != LogicalTypeId::TIMESTAMP) {
        return;
    }
    for (int side = 0; side < 2; side++) {
        Expression& cast = *arguments[side];
        Expression& constant = *arguments[1 - side];
        if (cast.kind != ExpressionKind::Cast ||
            cast.children[0]->type.id() != LogicalTypeId::DATE ||
            constant.kind != ExpressionKind::Constant || constant.value.IsNull()) {
            continue;
        }
        auto micros = static_cast<int64_t>(constant.value.GetInteger());
        int32_t days = timestamp::ToDate(micros);
        if (timestamp::FromDate(days) != micros || micros == timestamp::kInfinity ||
            micros == timestamp::kNegativeInfinity) {
            return;
        }
        arguments[side] = std::move(cast.children[0]);
        arguments[1 - side] = MakeConstant(Value::Integer(LogicalTypeId::DATE, days));
        type = LogicalTypeId::DATE;
        return;
    }
}

ExpressionPtr Binder::BindComparisonOf(const std::string& op, Bound left, Bound right,
                                       SourceLocation location) {
    try {
        AdaptLiterals(left, right, true);
        const LogicalType& l = left.expression->type;
        const LogicalType& r = right.expression->type;
        std::optional<LogicalType> common;
        if (l == r) {
            common = l.id() == LogicalTypeId::SQLNULL ? LogicalType(LogicalTypeId::INTEGER) : l;
        } else if (l.IsNumeric() && r.IsNumeric()) {
            common = CommonNumericType(l, r);
        } else if (l.id() != LogicalTypeId::VARCHAR && r.id() != LogicalTypeId::VARCHAR) {
            common = CommonSuperType(l, r);
        }
        if (!common) {
            Fail(ErrorKind::Binder,
                 "Cannot compare values of type " + l.ToString() + " and type " + r.ToString() +
                     " - an explicit cast is required",
                 location);
        }
        std::vector<ExpressionPtr> arguments;
        arguments.push_back(CastTo(std::move(left.expression), *common));
        arguments.push_back(CastTo(std::move(right.expression), *common));
        ComparePlainDates(arguments, *common);
        LogicalType compared = arguments[0]->type;
        return Fold(MakeFunction(op, sluice::BindComparison(op, compared), std::move(arguments)));
    } catch (const Exception& error) {
        Relocate(error, location);
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

ExpressionPtr Binder::CastTo(ExpressionPtr expression, const LogicalType& type) {
    return Fold(MakeCast(std::move(expression), type));
}

std::string Binder::NameOf(ColumnBinding binding) const {
    auto found = binding_names_.find({binding.table_index, binding.column_index});
    return found == binding_names_.end() ? "?" : found->second;
}

Binder::Bound Binder::BindColumn(const ParsedExpression& expression) {
    if (expression.names.size() < 2) {
        return BindColumnName(expression);
    }
    // t.c names table t's column c; failing that, a.b.c may name column a's field b's field c
    // (or table a's column b's field c), as in DuckDB.
    try {
        return BindColumnName(expression);
    } catch (const Exception&) {
        for (size_t prefix = expression.names.size() - 1; prefix >= 1; prefix--) {
            auto column = CloneExpression(expression);
            column->names.resize(prefix);
            std::optional<Bound> base;
            try {
                base = BindColumnName(*column);
            } catch (const Exception&) {
                continue;
            }
            std::vector<std::string> fields(expression.names.begin() + prefix,
                                            expression.names.end());
            return BindFieldPath(std::move(*base), fields, expression.location);
        }
        throw;
    }
}

Binder::Bound Binder::BindColumnName(const ParsedExpression& expression) {
    const std::string& name = expression.names.back();
    std::string table =
        expression.names.size() > 1 ? expression.names[expression.names.size() - 2] : "";
    auto lookup = [&](const Scope& scope, const ScopeEntry** entry_out, idx_t* column_out) {
        int matches = 0;
        for (const auto& entry : scope.entries) {
            if (!table.empty() && Lower(entry.alias) != Lower(table)) {
                continue;
            }
            for (idx_t i = 0; i < entry.names.size(); i++) {
                if (Lower(entry.names[i]) == Lower(name) && !(table.empty() && entry.hidden[i])) {
                    if (matches == 0) {
                        *entry_out = &entry;
                        *column_out = i;
                    }
                    matches++;
                    break;
                }
            }
        }
        return matches;
    };
    const ScopeEntry* entry = nullptr;
    idx_t column = 0;
    int matches = scope_ ? lookup(*scope_, &entry, &column) : 0;
    if (matches > 1) {
        Fail(ErrorKind::Binder,
             "Ambiguous reference to column name \"" + name +
                 "\" (use: a qualified name such as \"table." + name + "\")",
             expression.location);
    }
    if (matches == 1) {
        return {MakeBoundColumn(entry->bindings[column], entry->types[column]),
                LiteralOrigin::None};
    }
    // A column of an enclosing query: the subquery is correlated with it, and BindSubquery
    // flattens it into joins.
    for (const Scope* outer = scope_ ? scope_->outer : nullptr; outer; outer = outer->outer) {
        int outer_matches = lookup(*outer, &entry, &column);
        if (outer_matches > 1) {
            Fail(ErrorKind::Binder,
                 "Ambiguous reference to column name \"" + name +
                     "\" (use: a qualified name such as \"table." + name + "\")",
                 expression.location);
        }
        if (outer_matches == 1) {
            return {MakeBoundColumn(entry->bindings[column], entry->types[column]),
                    LiteralOrigin::None};
        }
    }
    if (table.empty()) {
        // current_date and current_timestamp read as columns when no column has the name.
        std::string lower = Lower(name);
        if (lower == "current_date" || lower == "current_timestamp") {
            return {CurrentTime(lower == "current_date"), LiteralOrigin::None};
        }
    }
    if (!scope_ || scope_->entries.empty()) {
        Fail(ErrorKind::Binder,
             "Referenced column \"" + name + "\" was not found because the FROM clause is missing",
             expression.location);
    }
    if (!table.empty()) {
        std::vector<std::string> tables;
        for (const Scope* level = scope_; level; level = level->outer) {
            for (const auto& candidate_entry : level->entries) {
                if (Lower(candidate_entry.alias) == Lower(table)) {
                    Fail(ErrorKind::Binder,
                         "Table \"" + table + "\" does not have a column named \"" + name + "\"",
                         expression.location);
                }
                tables.push_back(candidate_entry.alias);
            }
        }
        // The closest name, however far: DuckDB names a candidate table whenever there is one.
        std::string hint;
        size_t closest = std::numeric_limits<size_t>::max();
        for (const auto& candidate : tables) {
            size_t distance = EditDistance(Lower(table), Lower(candidate));
            if (distance < closest) {
                closest = distance;
                hint = candidate;
            }
        }
        Fail(ErrorKind::Binder,
             "Referenced table \"" + table + "\" not found!" +
                 (hint.empty() ? "" : "\nCandidate tables: \"" + hint + "\""),
             expression.location);
    }
    std::vector<std::string> candidates;
    for (const auto& candidate_entry : scope_->entries) {
        for (const auto& candidate : candidate_entry.names) {
            candidates.push_back(candidate);
        }
    }
    std::string hint = Suggest(name, candidates);
    std::string shown = table.empty() ? name : table + "." + name;
    Fail(ErrorKind::Binder,
         "Referenced column \"" + shown + "\" not found in FROM clause!" +
             (hint.empty() ? "" : "\nDid you mean \"" + hint + "\"?"),
         expression.location);
}

Binder::Bound Binder::BindBetween(const ParsedExpression& expression) {
    // x BETWEEN a AND b is x >= a AND x <= b, x evaluated twice.
    auto lower = BindComparisonOf(">=", Bind(*expression.children[0]),
                                  Bind(*expression.children[1]), expression.location);
    auto upper = BindComparisonOf("<=", Bind(*expression.children[0]),
                                  Bind(*expression.children[2]), expression.location);
    ExpressionPtr result = MakeAnd(std::move(lower), std::move(upper));
    if (expression.negated) {
        result = MakeNot(std::move(result));
    }
    return {Fold(std::move(result)), LiteralOrigin::None};
}

Binder::Bound Binder::BindInList(const ParsedExpression& expression) {
    // x IN (a, b) is x = a OR x = b, with the same NULL semantics.
    std::vector<ExpressionPtr> equalities;
    for (size_t i = 1; i < expression.children.size(); i++) {
        equalities.push_back(BindComparisonOf("=", Bind(*expression.children[0]),
                                              Bind(*expression.children[i]), expression.location));
    }
    // Against constants only, x is evaluated once and looked up among them (TPC-H Q22's
    // substring(c_phone, 1, 2) IN (seven codes)).
    bool constants = equalities.size() > 1;
    for (auto& equal : equalities) {
        constants = constants && equal->kind == ExpressionKind::Function &&
                    equal->function_name == "=" && equal->children.size() == 2;
        if (!constants) {
            break;
        }
        equal->children[1] = Fold(std::move(equal->children[1]));
        constants = equal->children[1]->kind == ExpressionKind::Constant &&
                    equal->children[1]->type == equal->children[0]->type &&
                    equal->children[0]->Equals(*equalities[0]->children[0]) &&
                    !equal->children[0]->IsFoldable();
    }
    if (constants) {
        std::vector<Value> values;
        for (const auto& equal : equalities) {
            values.push_back(equal->children[1]->value);
        }
        LogicalType type = equalities[0]->children[0]->type;
        if (auto function = BindInConstantList(type, values)) {
            std::vector<ExpressionPtr> arguments;
            arguments.push_back(std::move(equalities[0]->children[0]));
            for (auto& equal : equalities) {
                arguments.push_back(std::move(equal->children[1]));
            }
            ExpressionPtr result = MakeFunction("in_list", *function, std::move(arguments));
            if (expression.negated) {
                result = MakeNot(std::move(result));
            }
            return {std::move(result), LiteralOrigin::None};
        }
    }
    ExpressionPtr result;
    for (auto& equal : equalities) {
        if (!result) {
            result = std::move(equal);
            continue;
        }
        auto either = std::make_unique<Expression>();
        either->kind = ExpressionKind::Or;
        either->type = LogicalTypeId::BOOLEAN;
        either->children.push_back(std::move(result));
        either->children.push_back(std::move(equal));
        result = std::move(either);
    }
    if (expression.negated) {
        result = MakeNot(std::move(result));
    }
    return {Fold(std::move(result)), LiteralOrigin::None};
}

Binder::Bound Binder::BindLike(const ParsedExpression& expression) {
    std::vector<ExpressionPtr> arguments;
    for (const auto& child : expression.children) {
        ExpressionPtr argument = Bind(*child).expression;
        if (argument->type.id() != LogicalTypeId::VARCHAR &&
            argument->type.id() != LogicalTypeId::SQLNULL) {
            Fail(ErrorKind::Binder,
                 "No function matches the given name and argument types '~~(" +
                     argument->type.ToString() + ")'. You might need to add explicit type casts.",
                 expression.location);
        }
        arguments.push_back(CastTo(std::move(argument), LogicalTypeId::VARCHAR));
    }
    BoundFunction function = sluice::BindLike(expression.text == "ILIKE");
    if (arguments.size() > 2) {
        function.argument_types.push_back(LogicalTypeId::VARCHAR);
    }
    ExpressionPtr result = MakeFunction(expression.text == "ILIKE" ? "~~*" : "~~",
                                        std::move(function), std::move(arguments));
    if (expression.negated) {
        result = MakeNot(std::move(result));
    }
    return {Fold(std::move(result)), LiteralOrigin::None};
}

Binder::Bound Binder::BindCase(const ParsedExpression& expression) {
    size_t branches = (expression.children.size() - (expression.has_else ? 1 : 0)) / 2;
    std::vector<ExpressionPtr> conditions;
    std::vector<ExpressionPtr> values;
    for (size_t i = 0; i < branches; i++) {
        conditions.push_back(BindBoolean(*expression.children[2 * i], "CASE WHEN"));
        values.push_back(Bind(*expression.children[2 * i + 1]).expression);
    }
    values.push_back(expression.has_else ? Bind(*expression.children.back()).expression
                                         : MakeConstant(Value()));
    LogicalType type = LogicalTypeId::SQLNULL;
    for (const auto& value : values) {
        auto common = CommonSuperType(type, value->type);
        if (!common) {
            Fail(ErrorKind::Binder,
                 "Cannot mix values of type " + type.ToString() + " and " + value->type.ToString() +
                     " in CASE expression - an explicit cast is required",
                 expression.location);
        }
        type = *common;
    }
    if (type.id() == LogicalTypeId::SQLNULL) {
        // Every branch an untyped NULL: so is the CASE (DuckDB: upper(CASE ... THEN NULL END)).
        return {MakeConstant(Value()), LiteralOrigin::None};
    }
    std::vector<ExpressionPtr> arguments;
    for (size_t i = 0; i < branches; i++) {
        arguments.push_back(std::move(conditions[i]));
        arguments.push_back(std::move(values[i]));
    }
    arguments.push_back(std::move(values.back()));
    try {
        return {Fold(MakeFunction("case", sluice::BindCase(branches, type), std::move(arguments))),
                LiteralOrigin::None};
    } catch (const Exception& error) {
        Fail(error.Kind(), error.RawMessage(), expression.location);
    }
}

Binder::Bound Binder::BindInterval(const ParsedExpression& expression) {
    Bound quantity = Bind(*expression.children[0]);
    try {
        if (expression.text.empty()) {
            // INTERVAL '1 year 2 days'
            return {CastTo(std::move(quantity.expression), LogicalTypeId::INTERVAL),
                    LiteralOrigin::None};
        }
        ExpressionPtr count = std::move(quantity.expression);
        if (count->type.id() == LogicalTypeId::VARCHAR) {
            count = CastTo(std::move(count), LogicalTypeId::DOUBLE);
        }
        count = CastTo(std::move(count), LogicalTypeId::BIGINT);
        auto function = BindToInterval(expression.text);
        if (!function) {
            Fail(ErrorKind::Parser, "unknown interval unit " + expression.text,
                 expression.location);
        }
        std::vector<ExpressionPtr> arguments;
        arguments.push_back(std::move(count));
        return {Fold(MakeFunction("to_" + expression.text + "s", std::move(*function),
                                  std::move(arguments))),
                LiteralOrigin::None};
    } catch (const Exception& error) {
        Relocate(error, expression.location);
    }
}

} // namespace sluice
