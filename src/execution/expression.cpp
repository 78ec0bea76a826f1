#include "execution/expression.hpp"

#include <cctype>

namespace sluice {

bool Expression::IsFoldable() const {
    if (kind == ExpressionKind::ColumnRef || kind == ExpressionKind::BoundColumn ||
        kind == ExpressionKind::SubqueryValue) {
        return false;
    }
    for (const auto& child : children) {
        if (!child->IsFoldable()) {
            return false;
        }
    }
    return true;
}

std::unique_ptr<Expression> Expression::Copy() const {
    auto copy = std::make_unique<Expression>();
    copy->kind = kind;
    copy->type = type;
    copy->value = value;
    copy->column_index = column_index;
    copy->binding = binding;
    copy->subquery_value = subquery_value;
    copy->function_name = function_name;
    copy->function = function;
    copy->try_cast = try_cast;
    for (const auto& child : children) {
        copy->children.push_back(child->Copy());
    }
    return copy;
}

bool Expression::Equals(const Expression& other) const {
    if (kind != other.kind || type != other.type || children.size() != other.children.size()) {
        return false;
    }
    switch (kind) {
    case ExpressionKind::Constant:
        if (!(value == other.value)) {
            return false;
        }
        break;
    case ExpressionKind::ColumnRef:
        if (column_index != other.column_index) {
            return false;
        }
        break;
    case ExpressionKind::BoundColumn:
        if (!(binding == other.binding)) {
            return false;
        }
        break;
    case ExpressionKind::SubqueryValue:
        if (subquery_value != other.subquery_value) {
            return false;
        }
        break;
    case ExpressionKind::Function:
        if (function_name != other.function_name) {
            return false;
        }
        break;
    case ExpressionKind::Cast:
        if (try_cast != other.try_cast) {
            return false;
        }
        break;
    default:
        break;
    }
    for (size_t i = 0; i < children.size(); i++) {
        if (!children[i]->Equals(*other.children[i])) {
            return false;
        }
    }
    return true;
}

std::string Expression::ToString() const {
    auto list = [&](size_t from) {
        std::string out;
        for (size_t i = from; i < children.size(); i++) {
            out += (i > from ? ", " : "") + children[i]->ToString();
        }
        return out;
    };
    switch (kind) {
    case ExpressionKind::Constant:
        return value.type().physical() == PhysicalType::VARCHAR && !value.IsNull()
                   ? "'" + value.ToString() + "'"
                   : value.ToString();
    case ExpressionKind::ColumnRef:
        return "#" + std::to_string(column_index);
    case ExpressionKind::BoundColumn:
        return "#[" + std::to_string(binding.table_index) + "." +
               std::to_string(binding.column_index) + "]";
    case ExpressionKind::SubqueryValue:
        return "SUBQUERY";
    case ExpressionKind::Cast:
        return "CAST(" + children[0]->ToString() + " AS " + type.ToString() + ")";
    case ExpressionKind::Function: {
        bool symbol = !function_name.empty() && !std::isalpha((unsigned char)function_name[0]);
        if (symbol && children.size() == 2) {
            return "(" + children[0]->ToString() + " " + function_name + " " +
                   children[1]->ToString() + ")";
        }
        return function_name + "(" + list(0) + ")";
    }
    case ExpressionKind::And:
    case ExpressionKind::Or:
        return "(" + children[0]->ToString() + (kind == ExpressionKind::And ? " AND " : " OR ") +
               children[1]->ToString() + ")";
    case ExpressionKind::Not:
        return "(NOT " + children[0]->ToString() + ")";
    case ExpressionKind::IsNull:
        return "(" + children[0]->ToString() + " IS NULL)";
    case ExpressionKind::IsNotNull:
        return "(" + children[0]->ToString() + " IS NOT NULL)";
    }
    return "?";
}

namespace {

ExpressionPtr MakeConjunction(ExpressionKind kind, ExpressionPtr left, ExpressionPtr right) {
    auto both = std::make_unique<Expression>();
    both->kind = kind;
    both->type = LogicalTypeId::BOOLEAN;
    both->children.push_back(std::move(left));
    both->children.push_back(std::move(right));
    return both;
}

} // namespace

ExpressionPtr MakeAnd(ExpressionPtr left, ExpressionPtr right) {
    if (!left) {
        return right;
    }
    return MakeConjunction(ExpressionKind::And, std::move(left), std::move(right));
}

ExpressionPtr MakeOr(ExpressionPtr left, ExpressionPtr right) {
    return MakeConjunction(ExpressionKind::Or, std::move(left), std::move(right));
}

ExpressionPtr MakeNot(ExpressionPtr child) {
    auto negation = std::make_unique<Expression>();
    negation->kind = ExpressionKind::Not;
    negation->type = LogicalTypeId::BOOLEAN;
    negation->children.push_back(std::move(child));
    return negation;
}

ExpressionPtr MakeIsNull(ExpressionPtr child) {
    auto result = std::make_unique<Expression>();
    result->kind = ExpressionKind::IsNull;
    result->type = LogicalTypeId::BOOLEAN;
    result->children.push_back(std::move(child));
    return result;
}

ExpressionPtr MakeBoundColumn(ColumnBinding binding, LogicalType type) {
    auto expression = std::make_unique<Expression>();
    expression->kind = ExpressionKind::BoundColumn;
    expression->binding = binding;
    expression->type = std::move(type);
    return expression;
}

ExpressionPtr MakeConstant(Value value) {
    auto expression = std::make_unique<Expression>();
    expression->kind = ExpressionKind::Constant;
    expression->type = value.type();
    expression->value = std::move(value);
    return expression;
}

ExpressionPtr MakeCast(ExpressionPtr child, LogicalType target, bool try_cast) {
    if (child->type == target) {
        return child;
    }
    auto expression = std::make_unique<Expression>();
    expression->kind = ExpressionKind::Cast;
    expression->type = target;
    expression->try_cast = try_cast;
    expression->children.push_back(std::move(child));
    return expression;
}

} // namespace sluice
