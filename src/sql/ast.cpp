#include "sql/ast.hpp"

#include "common/number_format.hpp"
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

} // namespace

std::string ParsedExpression::ToString() const {
    switch (kind) {
    case ParsedExpressionKind::Constant:
        return ConstantToString(*this);
    case ParsedExpressionKind::ColumnRef:
        return names.back();
    case ParsedExpressionKind::Star:
        return "*";
    case ParsedExpressionKind::Function: {
        std::string out = text + "(";
        for (size_t i = 0; i < children.size(); i++) {
            out += (i ? ", " : "") + children[i]->ToString();
        }
        return out + ")";
    }
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

} // namespace sluice
