#include "execution/expression.hpp"

namespace sluice {

bool Expression::IsFoldable() const {
    if (kind == ExpressionKind::ColumnRef) {
        return false;
    }
    for (const auto& child : children) {
        if (!child->IsFoldable()) {
            return false;
        }
    }
    return true;
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
