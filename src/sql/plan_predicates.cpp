#include "sql/plan_predicates.hpp"

#include "execution/scalar_functions.hpp"

#include <algorithm>
#include <map>

namespace sluice {

namespace {

void CollectTables(const Expression& expression, std::set<idx_t>& tables) {
    if (expression.kind == ExpressionKind::BoundColumn) {
        tables.insert(expression.binding.table_index);
    }
    for (const auto& child : expression.children) {
        CollectTables(*child, tables);
    }
}

// (A AND B) OR (A AND C) is A AND (B OR C) (distributivity holds in SQL's three-valued logic):
// a join condition repeated in every branch of an OR, as in TPC-H Q19, becomes a join key
// instead of a filter over a cross product.
void SplitDisjunction(ExpressionPtr expression, std::vector<ExpressionPtr>& out) {
    std::vector<ExpressionPtr> disjuncts;
    CollectDisjuncts(std::move(expression), disjuncts);
    std::vector<std::vector<ExpressionPtr>> branches(disjuncts.size());
    for (size_t i = 0; i < disjuncts.size(); i++) {
        SplitConjuncts(std::move(disjuncts[i]), branches[i]);
    }
    std::vector<ExpressionPtr> common;
    for (auto& candidate : branches[0]) {
        bool everywhere = true;
        for (size_t i = 1; i < branches.size() && everywhere; i++) {
            everywhere = std::any_of(branches[i].begin(), branches[i].end(),
                                     [&](const ExpressionPtr& e) { return e->Equals(*candidate); });
        }
        if (everywhere) {
            common.push_back(candidate->Copy());
        }
    }
    bool always_true = false; // a branch left without conditions
    ExpressionPtr rest;
    for (auto& branch : branches) {
        std::vector<ExpressionPtr> remaining;
        for (auto& conjunct : branch) {
            bool shared = std::any_of(common.begin(), common.end(),
                                      [&](const ExpressionPtr& e) { return e->Equals(*conjunct); });
            if (!shared) {
                remaining.push_back(std::move(conjunct));
            }
        }
        if (remaining.empty()) {
            always_true = true;
            continue;
        }
        ExpressionPtr conjunction = CombineConjuncts(std::move(remaining));
        rest = rest ? MakeOr(std::move(rest), std::move(conjunction)) : std::move(conjunction);
    }
    for (auto& conjunct : common) {
        out.push_back(std::move(conjunct));
    }
    if (!always_true && rest) {
        out.push_back(std::move(rest));
    }
}

} // namespace

std::set<idx_t> TablesOf(const Expression& expression) {
    std::set<idx_t> tables;
    CollectTables(expression, tables);
    return tables;
}

std::set<idx_t> TablesOfOperator(const LogicalOperator& op) {
    std::set<idx_t> tables;
    for (const auto& binding : op.Bindings()) {
        tables.insert(binding.table_index);
    }
    return tables;
}

bool IsSubset(const std::set<idx_t>& inner, const std::set<idx_t>& outer) {
    return std::includes(outer.begin(), outer.end(), inner.begin(), inner.end());
}

void CollectDisjuncts(ExpressionPtr expression, std::vector<ExpressionPtr>& out) {
    if (expression->kind == ExpressionKind::Or) {
        CollectDisjuncts(std::move(expression->children[0]), out);
        CollectDisjuncts(std::move(expression->children[1]), out);
        return;
    }
    out.push_back(std::move(expression));
}

void SplitConjuncts(ExpressionPtr expression, std::vector<ExpressionPtr>& out) {
    if (expression->kind == ExpressionKind::And) {
        SplitConjuncts(std::move(expression->children[0]), out);
        SplitConjuncts(std::move(expression->children[1]), out);
        return;
    }
    if (expression->kind == ExpressionKind::Or) {
        SplitDisjunction(std::move(expression), out);
        return;
    }
    // TRUE is no condition at all.
    if (expression->kind == ExpressionKind::Constant && !expression->value.IsNull() &&
        expression->type.id() == LogicalTypeId::BOOLEAN && expression->value.GetBoolean()) {
        return;
    }
    out.push_back(std::move(expression));
}

ExpressionPtr CombineConjuncts(std::vector<ExpressionPtr> conjuncts) {
    ExpressionPtr result;
    for (auto& conjunct : conjuncts) {
        result = MakeAnd(std::move(result), std::move(conjunct));
    }
    return result;
}

namespace {

bool IsComparison(const Expression& expression) {
    static const std::set<std::string> kComparisons = {"=", "<>", "<", "<=", ">", ">="};
    return expression.kind == ExpressionKind::Function && expression.children.size() == 2 &&
           kComparisons.count(expression.function_name) > 0;
}

bool IsColumn(const Expression& expression) {
    return expression.kind == ExpressionKind::BoundColumn;
}

// The column side of `column op constant` (either order), or -1.
int ConstantComparisonColumn(const Expression& filter) {
    if (!IsComparison(filter)) {
        return -1;
    }
    for (int side = 0; side < 2; side++) {
        if (IsColumn(*filter.children[side]) &&
            filter.children[1 - side]->kind == ExpressionKind::Constant) {
            return side;
        }
    }
    return -1;
}

// Classes of columns equal to each other: each column's representative.
class ColumnClasses {
public:
    void Join(const ColumnBinding& a, const ColumnBinding& b) { parent_[Find(a)] = Find(b); }
    ColumnBinding Find(const ColumnBinding& column) {
        auto found = parent_.find(column);
        if (found == parent_.end() || found->second == column) {
            return column;
        }
        ColumnBinding root = Find(found->second);
        parent_[column] = root;
        return root;
    }
    std::vector<ColumnBinding> Members() const {
        std::vector<ColumnBinding> members;
        for (const auto& entry : parent_) {
            members.push_back(entry.first);
        }
        return members;
    }

private:
    std::map<ColumnBinding, ColumnBinding> parent_;
};

} // namespace

void AddTransitiveFilters(std::vector<ExpressionPtr>& filters) {
    ColumnClasses classes;
    std::map<ColumnBinding, LogicalType> types;
    for (const auto& filter : filters) {
        if (IsComparison(*filter) && filter->function_name == "=" &&
            IsColumn(*filter->children[0]) && IsColumn(*filter->children[1]) &&
            filter->children[0]->type == filter->children[1]->type) {
            const Expression& a = *filter->children[0];
            const Expression& b = *filter->children[1];
            types[a.binding] = a.type;
            types[b.binding] = b.type;
            classes.Join(a.binding, a.binding);
            classes.Join(b.binding, b.binding);
            classes.Join(a.binding, b.binding);
        }
    }
    if (types.empty()) {
        return;
    }
    std::vector<ColumnBinding> members = classes.Members();
    size_t original = filters.size();
    for (size_t i = 0; i < original; i++) {
        int side = ConstantComparisonColumn(*filters[i]);
        if (side < 0 || !types.count(filters[i]->children[side]->binding)) {
            continue;
        }
        const Expression& column = *filters[i]->children[side];
        ColumnBinding root = classes.Find(column.binding);
        for (const ColumnBinding& other : members) {
            if (other == column.binding || !(classes.Find(other) == root)) {
                continue;
            }
            ExpressionPtr implied = filters[i]->Copy();
            implied->children[side] = MakeBoundColumn(other, types[other]);
            bool known = std::any_of(filters.begin(), filters.end(),
                                     [&](const ExpressionPtr& f) { return f->Equals(*implied); });
            if (!known) {
                filters.push_back(std::move(implied));
            }
        }
    }
}

std::optional<JoinCondition> AsJoinCondition(const Expression& predicate,
                                             const std::set<idx_t>& left,
                                             const std::set<idx_t>& right) {
    if (predicate.kind != ExpressionKind::Function || predicate.function_name != "=" ||
        predicate.children.size() != 2) {
        return std::nullopt;
    }
    auto a = TablesOf(*predicate.children[0]);
    auto b = TablesOf(*predicate.children[1]);
    if (a.empty() || b.empty()) {
        return std::nullopt;
    }
    if (IsSubset(a, left) && IsSubset(b, right)) {
        return JoinCondition{predicate.children[0]->Copy(), predicate.children[1]->Copy()};
    }
    if (IsSubset(a, right) && IsSubset(b, left)) {
        return JoinCondition{predicate.children[1]->Copy(), predicate.children[0]->Copy()};
    }
    return std::nullopt;
}

} // namespace sluice
