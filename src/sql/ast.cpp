#include "sql/ast.hpp"

#include "common/number_format.hpp"
#include "common/sql_keywords.hpp"
#include "common/string_util.hpp"
#include "sql/type_names.hpp"

#include <cctype>
#include <cstdlib>

namespace sluice {

namespace {

std::string QuoteString(const std::string& text) {
    std::string out = "'";
    for (char c : text) {
        out += c;
        if (c == '\'') {
            out += '\'';
        }
    }
    return out + "'";
}

std::string ConstantToString(const ParsedExpression& expression) {
    switch (expression.literal_kind) {
    case LiteralKind::Null:
        return "NULL";
    case LiteralKind::Boolean:
        return "CAST(" + QuoteString(expression.text) + " AS BOOLEAN)";
    case LiteralKind::String:
        return QuoteString(expression.text);
    case LiteralKind::Decimal: {
        // Literals with more digits than DECIMAL(38) holds are DOUBLEs and print as such.
        size_t digits = 0;
        for (char c : expression.text) {
            digits += std::isdigit(static_cast<unsigned char>(c)) ? 1 : 0;
        }
        if (digits > 38) {
            return FormatDouble(std::strtod(expression.text.c_str(), nullptr));
        }
        return expression.text;
    }
    case LiteralKind::Integer: {
        hugeint_t value;
        if (TryParseHugeint(expression.text, value)) {
            return FormatHugeint(value);
        }
        return FormatDouble(std::strtod(expression.text.c_str(), nullptr));
    }
    case LiteralKind::Float:
        return FormatDouble(std::strtod(expression.text.c_str(), nullptr));
    }
    return expression.text;
}

std::string JoinChildren(const std::vector<ParsedExpressionPtr>& children, size_t from);

// A bound of x[a:b]; a left-out one prints as nothing.
std::string SliceBound(const ParsedExpression& bound) {
    return bound.omitted ? "" : bound.ToString();
}

std::string CallSyntaxToString(const ParsedExpression& call) {
    const auto& children = call.children;
    switch (call.call_syntax) {
    case CallSyntax::ListLiteral:
    case CallSyntax::StructLiteral:
        return "main." + call.text + "(" + JoinChildren(children, 0) + ")";
    case CallSyntax::MapLiteral:
        return "main.\"map\"(" + JoinChildren(children, 0) + ")";
    case CallSyntax::Subscript:
        return children[0]->ToString() + "[" + children[1]->ToString() + "]";
    case CallSyntax::Slice:
        return children[0]->ToString() + "[" + SliceBound(*children[1]) + ":" +
               SliceBound(*children[2]) + "]";
    case CallSyntax::FieldAccess: {
        return "(" + children[0]->ToString() + ")." + children[1]->text;
    }
    case CallSyntax::Call:
    case CallSyntax::LambdaKeyword: // (lambdas are no calls)
        break;
    }
    return call.text + "(" + JoinChildren(children, 0) + ")";
}

std::string OrderTermsToString(const std::vector<OrderTerm>& orders) {
    std::string text;
    for (size_t i = 0; i < orders.size(); i++) {
        const OrderTerm& order = orders[i];
        text += (i ? ", " : "") + order.expression->ToString() +
                (order.descending    ? " DESC"
                 : order.asc_written ? " ASC"
                                     : "") +
                (order.nulls_first     ? " NULLS FIRST"
                 : order.nulls_written ? " NULLS LAST"
                                       : "");
    }
    return text;
}

// agg(x ORDER BY k) as DuckDB names it; list(x ORDER BY x), which DuckDB rewrites into a sort
// of the list, by that sort.
std::string OrderedAggregateToString(const ParsedExpression& call) {
    const std::vector<OrderTerm>& orders = *call.order_by;
    std::string filter =
        call.filter ? " FILTER (WHERE " + call.filter->ToString() + ")" : std::string();
    std::string arguments = (call.distinct ? "DISTINCT " : "") + JoinChildren(call.children, 0);
    bool list = call.text == "list" || call.text == "array_agg";
    if (list && orders.size() == 1 && call.children.size() == 1 && !orders[0].nulls_first &&
        orders[0].expression->ToString() == call.children[0]->ToString()) {
        return "list_sort(" + call.text + "(" + arguments + ")" + filter + ", '" +
               (orders[0].descending ? "DESCENDING" : "ORDER_DEFAULT") + "', 'ORDER_DEFAULT')";
    }
    std::string name =
        call.text == "first" || call.text == "last" ? "\"" + call.text + "\"" : call.text;
    return name + "(" + arguments + " ORDER BY " + OrderTermsToString(orders) + ")" + filter;
}

std::string JoinChildren(const std::vector<ParsedExpressionPtr>& children, size_t from) {
    std::string out;
    for (size_t i = from; i < children.size(); i++) {
        // A named argument, struct_pack(a := 1), keeps its name.
        std::string name = children[i]->alias.empty()
                               ? ""
                               : QuoteIdentifierIfNeeded(children[i]->alias, true) + " := ";
        out += (i > from ? ", " : "") + name + children[i]->ToString();
    }
    return out;
}

} // namespace

ParsedExpressionPtr CloneExpression(const ParsedExpression& expression) {
    auto copy = std::make_unique<ParsedExpression>();
    copy->kind = expression.kind;
    copy->location = expression.location;
    copy->alias = expression.alias;
    copy->literal_kind = expression.literal_kind;
    copy->text = expression.text;
    copy->names = expression.names;
    copy->cast_type = expression.cast_type;
    copy->negated = expression.negated;
    copy->distinct = expression.distinct;
    copy->has_else = expression.has_else;
    copy->from_extract = expression.from_extract;
    copy->omitted = expression.omitted;
    copy->subquery_kind = expression.subquery_kind;
    copy->subquery = expression.subquery;
    copy->subquery_text = expression.subquery_text;
    copy->filter = expression.filter;
    copy->window = expression.window;
    copy->order_by = expression.order_by;
    copy->ignore_nulls = expression.ignore_nulls;
    copy->call_syntax = expression.call_syntax;
    copy->parameter = expression.parameter;
    for (const auto& child : expression.children) {
        copy->children.push_back(CloneExpression(*child));
    }
    return copy;
}

std::string ParsedExpression::ColumnName() const {
    return kind == ParsedExpressionKind::ColumnRef ? names.back() : ToString();
}

std::string ParsedExpression::ToString() const {
    switch (kind) {
    case ParsedExpressionKind::Constant:
        return ConstantToString(*this);
    case ParsedExpressionKind::Parameter:
        return "$" + std::to_string(parameter);
    case ParsedExpressionKind::ColumnRef: {
        std::string text;
        for (const std::string& name : names) {
            text += (text.empty() ? "" : ".") + QuoteIdentifierIfNeeded(name, false);
        }
        return text;
    }
    case ParsedExpressionKind::Star:
        return names.empty() ? "*" : names.back() + ".*";
    case ParsedExpressionKind::Function:
        if (call_syntax != CallSyntax::Call) {
            return CallSyntaxToString(*this);
        }
        if (text == "coalesce") {
            return "COALESCE(" + JoinChildren(children, 0) + ")";
        }
        if (from_extract || text == "substring") {
            return "main." + (text == "substring" ? "\"substring\"" : text) + "(" +
                   JoinChildren(children, 0) + ")";
        }
        if (text == "year" || text == "month" || text == "day" || text == "map") {
            return "\"" + text + "\"(" + JoinChildren(children, 0) + ")";
        }
        if (window) {
            // DuckDB names count(*) OVER (...) "count() OVER (...)".
            return (text == "count_star" ? std::string("count") : text) + "(" +
                   (distinct ? "DISTINCT " : "") + JoinChildren(children, 0) +
                   (ignore_nulls ? " IGNORE NULLS" : "") + ")" +
                   (filter ? " FILTER (WHERE " + filter->ToString() + ")" : "") + " OVER (" +
                   window->ToString() + ")";
        }
        if (order_by) {
            return OrderedAggregateToString(*this);
        }
        return text + "(" + (distinct ? "DISTINCT " : "") + JoinChildren(children, 0) + ")" +
               (filter ? " FILTER (WHERE " + filter->ToString() + ")" : "");
    case ParsedExpressionKind::Lambda: {
        // As DuckDB names them: (x -> b), (main."row"(x, i) -> b), (lambda x, i: b).
        std::string parameters;
        for (const std::string& name : names) {
            parameters += (parameters.empty() ? "" : ", ") + name;
        }
        if (call_syntax == CallSyntax::LambdaKeyword) {
            return "(lambda " + parameters + ": " + children[0]->ToString() + ")";
        }
        if (names.size() > 1) {
            parameters = "main.\"row\"(" + parameters + ")";
        }
        return "(" + parameters + " -> " + children[0]->ToString() + ")";
    }
    case ParsedExpressionKind::Between:
        return std::string(negated ? "(NOT " : "") + "(" + children[0]->ToString() + " BETWEEN " +
               children[1]->ToString() + " AND " + children[2]->ToString() + ")" +
               (negated ? ")" : "");
    case ParsedExpressionKind::InList:
        return "(" + children[0]->ToString() + (negated ? " NOT IN (" : " IN (") +
               JoinChildren(children, 1) + "))";
    case ParsedExpressionKind::Like: {
        if (children.size() == 3) {
            std::string name = std::string(negated ? "not_" : "") +
                               (text == "ILIKE" ? "ilike_escape" : "like_escape");
            return "main." + name + "(" + JoinChildren(children, 0) + ")";
        }
        std::string op = text == "ILIKE" ? "~~*" : "~~";
        return "(" + children[0]->ToString() + (negated ? " !" : " ") + op + " " +
               children[1]->ToString() + ")";
    }
    case ParsedExpressionKind::Case: {
        std::string out = "CASE ";
        size_t pairs = (children.size() - (has_else ? 1 : 0)) / 2;
        for (size_t i = 0; i < pairs; i++) {
            out += " WHEN (" + children[2 * i]->ToString() + ") THEN (" +
                   children[2 * i + 1]->ToString() + ")";
        }
        return out + " ELSE " + (has_else ? children.back()->ToString() : "NULL") + " END";
    }
    case ParsedExpressionKind::Interval: {
        std::string unit = text.empty() ? "" : text;
        if (unit.empty()) {
            return "CAST(" + children[0]->ToString() + " AS INTERVAL)";
        }
        bool big = unit == "hour" || unit == "minute" || unit == "second" ||
                   unit == "millisecond" || unit == "microsecond";
        return "to_" + unit + "s(CAST(trunc(CAST(" + children[0]->ToString() + " AS DOUBLE)) AS " +
               (big ? "BIGINT" : "INTEGER") + "))";
    }
    case ParsedExpressionKind::Subquery:
        if (subquery_kind == SubqueryKind::In) {
            return "(" + children[0]->ToString() + (negated ? " NOT IN (" : " IN (") + text + "))";
        }
        if (subquery_kind == SubqueryKind::Any || subquery_kind == SubqueryKind::All) {
            return "(" + children[0]->ToString() + " " + text +
                   (subquery_kind == SubqueryKind::All ? " ALL(" : " ANY(") + subquery_text + "))";
        }
        return (subquery_kind == SubqueryKind::Exists ? "EXISTS(" : "(") + text + ")";
    case ParsedExpressionKind::Operator:
        if (children.size() == 1) {
            return text + "(" + children[0]->ToString() + ")";
        }
        return "(" + children[0]->ToString() + " " + text + " " + children[1]->ToString() + ")";
    case ParsedExpressionKind::Comparison:
        return "(" + children[0]->ToString() + " " + text + " " + children[1]->ToString() + ")";
    case ParsedExpressionKind::And:
    case ParsedExpressionKind::Or: {
        // Chains print flat: (a AND b AND c).
        std::string out;
        std::vector<const ParsedExpression*> operands{children[1].get()};
        const ParsedExpression* node = children[0].get();
        while (node->kind == kind && node->alias.empty()) {
            operands.push_back(node->children[1].get());
            node = node->children[0].get();
        }
        operands.push_back(node);
        for (size_t i = operands.size(); i-- > 0;) {
            out += operands[i]->ToString();
            if (i > 0) {
                out += " " + text + " ";
            }
        }
        return "(" + out + ")";
    }
    case ParsedExpressionKind::Not:
        return "(NOT " + children[0]->ToString() + ")";
    case ParsedExpressionKind::IsNull:
        return "(" + children[0]->ToString() + " IS NULL)";
    case ParsedExpressionKind::IsNotNull:
        return "(" + children[0]->ToString() + " IS NOT NULL)";
    case ParsedExpressionKind::List: {
        std::string out = "[";
        for (size_t i = 0; i < children.size(); i++) {
            out += (i ? ", " : "") + children[i]->ToString();
        }
        return out + "]";
    }
    case ParsedExpressionKind::Cast:
        return (text.empty() ? "CAST(" : text + "(") + children[0]->ToString() + " AS " +
               TypeNameToString(cast_type) + ")";
    }
    return text;
}

namespace {

size_t CountInTableRef(const TableRef& ref, const std::string& name);

size_t CountInExpression(const ParsedExpression* expression, const std::string& name) {
    if (!expression) {
        return 0;
    }
    size_t count = expression->subquery ? CountTableReferences(*expression->subquery, name) : 0;
    for (const auto& child : expression->children) {
        count += CountInExpression(child.get(), name);
    }
    return count;
}

size_t CountInTableRef(const TableRef& ref, const std::string& name) {
    size_t count = 0;
    if (ref.kind == TableRefKind::Table && EqualsIgnoreCase(ref.name, name)) {
        count++;
    }
    if (ref.subquery) {
        count += CountTableReferences(*ref.subquery, name);
    }
    for (const auto& argument : ref.arguments) {
        count += CountInExpression(argument.get(), name);
    }
    for (const auto* side : {ref.left.get(), ref.right.get()}) {
        if (side) {
            count += CountInTableRef(*side, name);
        }
    }
    return count + CountInExpression(ref.condition.get(), name);
}

} // namespace

size_t CountTableReferences(const SelectStatement& select, const std::string& name) {
    size_t count = 0;
    for (const auto& cte : select.ctes) {
        count += CountTableReferences(*cte.query, name);
    }
    for (const auto& item : select.select_list) {
        count += CountInExpression(item.get(), name);
    }
    if (select.from) {
        count += CountInTableRef(*select.from, name);
    }
    for (const auto* expression : {select.where.get(), select.having.get()}) {
        count += CountInExpression(expression, name);
    }
    for (const auto& key : select.group_by) {
        count += CountInExpression(key.get(), name);
    }
    for (const auto& term : select.order_by) {
        count += CountInExpression(term.expression.get(), name);
    }
    for (const auto* branch : {select.left.get(), select.right.get()}) {
        if (branch) {
            count += CountTableReferences(*branch, name);
        }
    }
    for (const auto& row : select.values) {
        for (const auto& value : row) {
            count += CountInExpression(value.get(), name);
        }
    }
    return count;
}

std::string WindowSpec::ToString() const {
    std::vector<std::string> parts;
    if (!base.empty()) {
        parts.push_back(base);
    }
    if (!partitions.empty()) {
        parts.push_back("PARTITION BY " + JoinChildren(partitions, 0));
    }
    if (!orders.empty()) {
        parts.push_back("ORDER BY " + OrderTermsToString(orders));
    }
    if (has_frame) {
        auto bound = [](const FrameBound& b) -> std::string {
            switch (b.kind) {
            case FrameBoundKind::UnboundedPreceding:
                return "UNBOUNDED PRECEDING";
            case FrameBoundKind::Preceding:
                return b.offset->ToString() + " PRECEDING";
            case FrameBoundKind::CurrentRow:
                return "CURRENT ROW";
            case FrameBoundKind::Following:
                return b.offset->ToString() + " FOLLOWING";
            case FrameBoundKind::UnboundedFollowing:
                return "UNBOUNDED FOLLOWING";
            }
            return "";
        };
        const char* unit_name = unit == FrameUnit::Rows    ? "ROWS"
                                : unit == FrameUnit::Range ? "RANGE"
                                                           : "GROUPS";
        parts.push_back(std::string(unit_name) + " BETWEEN " + bound(start) + " AND " + bound(end));
    }
    std::string text;
    for (size_t i = 0; i < parts.size(); i++) {
        text += (i ? " " : "") + parts[i];
    }
    return text;
}

} // namespace sluice
