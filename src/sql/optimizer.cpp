#include "sql/optimizer.hpp"

#include "common/exception.hpp"
#include "execution/scalar_functions.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>

namespace sluice {

namespace {

constexpr double kFilterSelectivity = 0.2;
// Join regions of up to this many relations are ordered exhaustively (3^n splits).
constexpr size_t kMaxExhaustiveRelations = 12;

void CollectTables(const Expression& expression, std::set<idx_t>& tables) {
    if (expression.kind == ExpressionKind::BoundColumn) {
        tables.insert(expression.binding.table_index);
    }
    for (const auto& child : expression.children) {
        CollectTables(*child, tables);
    }
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

void SplitConjuncts(ExpressionPtr expression, std::vector<ExpressionPtr>& out);
ExpressionPtr CombineConjuncts(std::vector<ExpressionPtr> conjuncts);

void CollectDisjuncts(ExpressionPtr expression, std::vector<ExpressionPtr>& out) {
    if (expression->kind == ExpressionKind::Or) {
        CollectDisjuncts(std::move(expression->children[0]), out);
        CollectDisjuncts(std::move(expression->children[1]), out);
        return;
    }
    out.push_back(std::move(expression));
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

// From a disjunction over several relations, the weaker filter it implies for the relation
// `tables` alone: (A1 AND B1) OR (A2 AND B2) with the A's over that relation implies (A1 OR A2).
// TPC-H Q7's nation pairs then filter each nation scan. Null when some branch says nothing
// about the relation.
ExpressionPtr ImpliedFilter(const Expression& disjunction, const std::set<idx_t>& tables) {
    std::vector<ExpressionPtr> disjuncts;
    CollectDisjuncts(disjunction.Copy(), disjuncts);
    ExpressionPtr implied;
    for (auto& disjunct : disjuncts) {
        std::vector<ExpressionPtr> conjuncts, own;
        SplitConjuncts(std::move(disjunct), conjuncts);
        for (auto& conjunct : conjuncts) {
            auto used = TablesOf(*conjunct);
            if (!used.empty() && IsSubset(used, tables)) {
                own.push_back(std::move(conjunct));
            }
        }
        if (own.empty()) {
            return nullptr;
        }
        ExpressionPtr branch = CombineConjuncts(std::move(own));
        implied = implied ? MakeOr(std::move(implied), std::move(branch)) : std::move(branch);
    }
    return implied;
}

ExpressionPtr CombineConjuncts(std::vector<ExpressionPtr> conjuncts) {
    ExpressionPtr result;
    for (auto& conjunct : conjuncts) {
        result = MakeAnd(std::move(result), std::move(conjunct));
    }
    return result;
}

LogicalOperatorPtr WrapInFilter(LogicalOperatorPtr op, std::vector<ExpressionPtr> filters) {
    if (filters.empty()) {
        return op;
    }
    auto filter = std::make_unique<LogicalOperator>(LogicalOperatorKind::Filter);
    filter->expressions = std::move(filters);
    filter->children.push_back(std::move(op));
    return filter;
}

// Replaces references to `table_index` columns by copies of `expressions`.
ExpressionPtr Substitute(ExpressionPtr expression, idx_t table_index,
                         const std::vector<ExpressionPtr>& expressions) {
    if (expression->kind == ExpressionKind::BoundColumn &&
        expression->binding.table_index == table_index) {
        return expressions[expression->binding.column_index]->Copy();
    }
    for (auto& child : expression->children) {
        child = Substitute(std::move(child), table_index, expressions);
    }
    return expression;
}

// If `predicate` is `a = b` with one side over `left` tables and the other over `right`, the
// join condition (left side first).
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

// TableFilters for a scan: `column op constant` conjuncts on its own columns.
void ExtractTableFilters(LogicalOperator& get, const std::vector<ExpressionPtr>& filters) {
    using Op = TableFilter::Op;
    for (const auto& predicate : filters) {
        if ((predicate->kind == ExpressionKind::IsNull ||
             predicate->kind == ExpressionKind::IsNotNull) &&
            predicate->children[0]->kind == ExpressionKind::BoundColumn &&
            predicate->children[0]->binding.table_index == get.table_index) {
            get.table_filters.push_back(
                {predicate->children[0]->binding.column_index,
                 predicate->kind == ExpressionKind::IsNull ? Op::IsNull : Op::IsNotNull, Value()});
            continue;
        }
        if (predicate->kind != ExpressionKind::Function || predicate->children.size() != 2) {
            continue;
        }
        static const std::vector<std::pair<std::string, Op>> kOps = {
            {"=", Op::Equal},      {"!=", Op::NotEqual}, {"<", Op::Less},
            {"<=", Op::LessEqual}, {">", Op::Greater},   {">=", Op::GreaterEqual}};
        auto op = std::find_if(kOps.begin(), kOps.end(), [&](const auto& entry) {
            return entry.first == predicate->function_name;
        });
        if (op == kOps.end()) {
            continue;
        }
        const Expression* left = predicate->children[0].get();
        const Expression* right = predicate->children[1].get();
        Op comparison = op->second;
        if (left->kind == ExpressionKind::Constant && right->kind == ExpressionKind::BoundColumn) {
            std::swap(left, right);
            static const std::vector<std::pair<Op, Op>> kMirror = {
                {Op::Less, Op::Greater},
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
        if (left->kind == ExpressionKind::BoundColumn &&
            left->binding.table_index == get.table_index &&
            right->kind == ExpressionKind::Constant && right->type == left->type) {
            get.table_filters.push_back({left->binding.column_index, comparison, right->value});
        }
    }
}

// Every expression of `op` and the operators below it.
void ForEachExpression(LogicalOperator& op, const std::function<void(ExpressionPtr&)>& visit) {
    op.ForEachExpression(visit);
    for (auto& child : op.children) {
        ForEachExpression(*child, visit);
    }
}

void CollectReferences(const Expression& expression, std::set<std::pair<idx_t, idx_t>>& out) {
    if (expression.kind == ExpressionKind::BoundColumn) {
        out.insert({expression.binding.table_index, expression.binding.column_index});
    }
    for (const auto& child : expression.children) {
        CollectReferences(*child, out);
    }
}

} // namespace

std::set<idx_t> TablesOf(const Expression& expression) {
    std::set<idx_t> tables;
    CollectTables(expression, tables);
    return tables;
}

LogicalOperatorPtr Optimizer::Optimize(LogicalOperatorPtr plan) {
    plan = PushDown(std::move(plan), {});
    PruneColumns(*plan);
    Estimate(*plan);
    return plan;
}

LogicalOperatorPtr Optimizer::PushDown(LogicalOperatorPtr op, std::vector<ExpressionPtr> filters) {
    switch (op->kind) {
    case LogicalOperatorKind::Filter: {
        for (auto& expression : op->expressions) {
            SplitConjuncts(std::move(expression), filters);
        }
        return PushDown(std::move(op->children[0]), std::move(filters));
    }
    case LogicalOperatorKind::Join:
        if (op->join_type == PhysicalJoinType::Inner) {
            return PushDownJoinRegion(std::move(op), std::move(filters));
        }
        return PushDownOuterJoin(std::move(op), std::move(filters));
    case LogicalOperatorKind::Projection:
    case LogicalOperatorKind::Aggregate: {
        // A filter on a projection's columns, or on an aggregate's groups, applies below it.
        std::vector<ExpressionPtr> below, above;
        for (auto& filter : filters) {
            auto tables = TablesOf(*filter);
            if (tables.size() == 1 && *tables.begin() == op->table_index) {
                below.push_back(Substitute(std::move(filter), op->table_index, op->expressions));
            } else {
                above.push_back(std::move(filter));
            }
        }
        op->children[0] = PushDown(std::move(op->children[0]), std::move(below));
        return WrapInFilter(std::move(op), std::move(above));
    }
    case LogicalOperatorKind::Order:
        op->children[0] = PushDown(std::move(op->children[0]), std::move(filters));
        return op;
    case LogicalOperatorKind::Get:
        ExtractTableFilters(*op, filters);
        return WrapInFilter(std::move(op), std::move(filters));
    case LogicalOperatorKind::DelimGet:
        return WrapInFilter(std::move(op), std::move(filters));
    case LogicalOperatorKind::Limit:
    case LogicalOperatorKind::Union:
        for (auto& child : op->children) {
            child = PushDown(std::move(child), {});
        }
        return WrapInFilter(std::move(op), std::move(filters));
    }
    return op;
}

LogicalOperatorPtr Optimizer::PushDownOuterJoin(LogicalOperatorPtr op,
                                                std::vector<ExpressionPtr> filters) {
    if (EmitsUnmatchedBuild(op->join_type)) {
        return PushDownAroundFullJoin(std::move(op), std::move(filters));
    }
    auto left_tables = TablesOfOperator(*op->children[0]);
    auto right_tables = TablesOfOperator(*op->children[1]);
    std::vector<ExpressionPtr> left_filters, right_filters, above;
    for (auto& filter : filters) {
        if (op->join_type == PhysicalJoinType::Mark &&
            filter->kind == ExpressionKind::BoundColumn &&
            filter->binding.table_index == op->mark_index) {
            // WHERE x IN (subquery): keep only rows with a match, a semi join.
            op->join_type = PhysicalJoinType::Semi;
            continue;
        }
        if (op->join_type == PhysicalJoinType::Mark && op->delim_index &&
            filter->kind == ExpressionKind::Not &&
            filter->children[0]->kind == ExpressionKind::BoundColumn &&
            filter->children[0]->binding.table_index == op->mark_index) {
            // WHERE NOT EXISTS (correlated subquery): its mark is never NULL, an anti join.
            op->join_type = PhysicalJoinType::Anti;
            continue;
        }
        auto tables = TablesOf(*filter);
        if (!tables.empty() && IsSubset(tables, left_tables)) {
            left_filters.push_back(std::move(filter));
        } else {
            above.push_back(std::move(filter));
        }
    }
    // The ON clause: equalities become hash keys; conjuncts over the right side alone filter
    // the right input; the rest stays a residual.
    if (op->residual) {
        std::vector<ExpressionPtr> conjuncts, rest;
        SplitConjuncts(std::move(op->residual), conjuncts);
        for (auto& conjunct : conjuncts) {
            auto tables = TablesOf(*conjunct);
            if (auto condition = AsJoinCondition(*conjunct, left_tables, right_tables)) {
                op->conditions.push_back(std::move(*condition));
            } else if (!tables.empty() && IsSubset(tables, right_tables)) {
                right_filters.push_back(std::move(conjunct));
            } else {
                rest.push_back(std::move(conjunct));
            }
        }
        op->residual = CombineConjuncts(std::move(rest));
    }
    if (op->delim_index) {
        // A dependent join stays above the whole left input (its rows are buffered once), and
        // the right input's joins with the left's distinct values are ordered knowing how many
        // there are at most.
        op->children[0] = PushDown(std::move(op->children[0]), std::move(left_filters));
        double values = Estimate(*op->children[0]);
        std::function<void(LogicalOperator&)> size_values = [&](LogicalOperator& node) {
            if (node.kind == LogicalOperatorKind::DelimGet && node.delim_index == op->delim_index) {
                node.estimated_rows = values;
            }
            for (auto& child : node.children) {
                size_values(*child);
            }
        };
        size_values(*op->children[1]);
        op->children[1] = PushDown(std::move(op->children[1]), std::move(right_filters));
        return WrapInFilter(std::move(op), std::move(above));
    }
    op->children[1] = PushDown(std::move(op->children[1]), std::move(right_filters));
    bool filters_left =
        op->join_type == PhysicalJoinType::Semi || op->join_type == PhysicalJoinType::Anti;
    LogicalOperator* left = op->children[0].get();
    while (left->kind == LogicalOperatorKind::Filter) {
        left = left->children[0].get();
    }
    if (filters_left && op->residual == nullptr && !op->conditions.empty() &&
        left->kind == LogicalOperatorKind::Join && left->join_type == PhysicalJoinType::Inner) {
        // WHERE x IN (subquery) over a join: semi-join the one input x comes from, so the
        // other joins see fewer rows (TPC-H Q18's orders).
        std::set<idx_t> keys;
        for (const auto& condition : op->conditions) {
            auto used = TablesOf(*condition.left);
            keys.insert(used.begin(), used.end());
        }
        bool single_relation = false;
        std::function<void(const LogicalOperator&)> find = [&](const LogicalOperator& node) {
            if (node.kind == LogicalOperatorKind::Join &&
                node.join_type == PhysicalJoinType::Inner) {
                find(*node.children[0]);
                find(*node.children[1]);
            } else if (node.kind == LogicalOperatorKind::Filter) {
                find(*node.children[0]);
            } else if (IsSubset(keys, TablesOfOperator(node))) {
                single_relation = true;
            }
        };
        find(*op->children[0]);
        if (single_relation) {
            LogicalOperatorPtr region = std::move(op->children[0]);
            std::vector<LogicalOperatorPtr> semis;
            semis.push_back(std::move(op));
            return WrapInFilter(
                PushDownJoinRegion(std::move(region), std::move(left_filters), std::move(semis)),
                std::move(above));
        }
    }
    op->children[0] = PushDown(std::move(op->children[0]), std::move(left_filters));
    if (op->join_type == PhysicalJoinType::Left && !op->conditions.empty()) {
        BuildOnSmallerSide(*op);
    }
    return WrapInFilter(std::move(op), std::move(above));
}

LogicalOperatorPtr Optimizer::PushDownAroundFullJoin(LogicalOperatorPtr op,
                                                     std::vector<ExpressionPtr> filters) {
    // Both sides keep rows without a match (a right join: the build side): no filter goes
    // below, only the ON clause's equalities become hash keys.
    auto left_tables = TablesOfOperator(*op->children[0]);
    auto right_tables = TablesOfOperator(*op->children[1]);
    if (op->residual) {
        std::vector<ExpressionPtr> conjuncts, rest;
        SplitConjuncts(std::move(op->residual), conjuncts);
        for (auto& conjunct : conjuncts) {
            if (auto condition = AsJoinCondition(*conjunct, left_tables, right_tables)) {
                op->conditions.push_back(std::move(*condition));
            } else {
                rest.push_back(std::move(conjunct));
            }
        }
        op->residual = CombineConjuncts(std::move(rest));
    }
    for (auto& child : op->children) {
        child = PushDown(std::move(child), {});
    }
    return WrapInFilter(std::move(op), std::move(filters));
}

void Optimizer::BuildOnSmallerSide(LogicalOperator& join) {
    // A left join builds on its right input; when the left (preserved) input is the smaller,
    // a right join with the inputs swapped builds on it instead and emits its rows without a
    // match last (TPC-H Q13: 1.5 million customers against 15 million orders at SF10).
    double preserved = Estimate(*join.children[0]);
    double other = Estimate(*join.children[1]);
    if (preserved >= other) {
        return;
    }
    std::swap(join.children[0], join.children[1]);
    for (auto& condition : join.conditions) {
        std::swap(condition.left, condition.right);
    }
    join.join_type = PhysicalJoinType::Right;
}

LogicalOperatorPtr Optimizer::PushDownJoinRegion(LogicalOperatorPtr op,
                                                 std::vector<ExpressionPtr> filters,
                                                 std::vector<LogicalOperatorPtr> semi_joins) {
    // Flatten the tree of inner joins (and filters between them) into relations and predicates.
    std::vector<LogicalOperatorPtr> relations;
    std::function<void(LogicalOperatorPtr)> flatten = [&](LogicalOperatorPtr node) {
        if (node->kind == LogicalOperatorKind::Join && node->join_type == PhysicalJoinType::Inner) {
            if (node->residual) {
                SplitConjuncts(std::move(node->residual), filters);
            }
            // Keys set before (a flattened subquery's D columns) are equalities like any other.
            for (auto& condition : node->conditions) {
                LogicalType type = condition.left->type;
                std::vector<ExpressionPtr> sides;
                sides.push_back(std::move(condition.left));
                sides.push_back(std::move(condition.right));
                filters.push_back(MakeFunction("=", BindComparison("=", type), std::move(sides)));
            }
            node->conditions.clear();
            flatten(std::move(node->children[0]));
            flatten(std::move(node->children[1]));
            return;
        }
        if (node->kind == LogicalOperatorKind::Filter) {
            for (auto& expression : node->expressions) {
                SplitConjuncts(std::move(expression), filters);
            }
            flatten(std::move(node->children[0]));
            return;
        }
        relations.push_back(std::move(node));
    };
    flatten(std::move(op));
    // Predicates over one relation go into it.
    std::vector<std::set<idx_t>> tables;
    for (const auto& relation : relations) {
        tables.push_back(TablesOfOperator(*relation));
    }
    std::vector<std::vector<ExpressionPtr>> pushed(relations.size());
    std::vector<ExpressionPtr> predicates;
    for (auto& filter : filters) {
        auto used = TablesOf(*filter);
        bool placed = false;
        for (size_t i = 0; i < relations.size() && !placed && !used.empty(); i++) {
            if (IsSubset(used, tables[i])) {
                pushed[i].push_back(std::move(filter));
                placed = true;
            }
        }
        if (!placed) {
            if (filter->kind == ExpressionKind::Or) {
                for (size_t i = 0; i < relations.size(); i++) {
                    if (auto implied = ImpliedFilter(*filter, tables[i])) {
                        pushed[i].push_back(std::move(implied));
                    }
                }
            }
            predicates.push_back(std::move(filter));
        }
    }
    for (size_t i = 0; i < relations.size(); i++) {
        relations[i] = PushDown(std::move(relations[i]), std::move(pushed[i]));
    }
    // Semi and anti joins filter the relation their keys come from, before the joins.
    for (auto& semi : semi_joins) {
        std::set<idx_t> keys;
        for (const auto& condition : semi->conditions) {
            auto used = TablesOf(*condition.left);
            keys.insert(used.begin(), used.end());
        }
        size_t target = 0;
        for (size_t i = 0; i < relations.size(); i++) {
            if (IsSubset(keys, tables[i])) {
                target = i;
            }
        }
        semi->children[0] = std::move(relations[target]);
        relations[target] = std::move(semi);
    }
    auto joined = ReorderJoins(std::move(relations), predicates);
    return WrapInFilter(std::move(joined), std::move(predicates));
}

std::vector<Optimizer::EquivalenceClass>
Optimizer::ExtractEquivalenceClasses(std::vector<ExpressionPtr>& predicates,
                                     const std::vector<std::set<idx_t>>& relation_tables) {
    auto relation_of = [&](const Expression& column) {
        for (size_t r = 0; r < relation_tables.size(); r++) {
            if (relation_tables[r].count(column.binding.table_index)) {
                return r;
            }
        }
        return relation_tables.size();
    };
    auto class_of = [](std::vector<EquivalenceClass>& classes, const Expression& column) {
        for (size_t c = 0; c < classes.size(); c++) {
            for (const auto& member : classes[c]) {
                if (member->binding == column.binding) {
                    return c;
                }
            }
        }
        classes.push_back({});
        classes.back().push_back(column.Copy());
        return classes.size() - 1;
    };
    std::vector<EquivalenceClass> classes;
    std::vector<ExpressionPtr> rest;
    for (auto& predicate : predicates) {
        bool columns = predicate->kind == ExpressionKind::Function &&
                       predicate->function_name == "=" && predicate->children.size() == 2 &&
                       predicate->children[0]->kind == ExpressionKind::BoundColumn &&
                       predicate->children[1]->kind == ExpressionKind::BoundColumn &&
                       predicate->children[0]->type == predicate->children[1]->type;
        if (!columns) {
            rest.push_back(std::move(predicate));
            continue;
        }
        size_t a = class_of(classes, *predicate->children[0]);
        size_t b = class_of(classes, *predicate->children[1]);
        // A class holds at most one column per relation; an equality that would put two of
        // one relation's columns in a class stays a predicate of its own.
        std::set<size_t> relations;
        bool distinct_relations = a != b;
        for (size_t c : {a, b}) {
            for (const auto& member : classes[c]) {
                distinct_relations =
                    distinct_relations && relations.insert(relation_of(*member)).second;
            }
        }
        if (!distinct_relations) {
            rest.push_back(std::move(predicate));
            continue;
        }
        for (auto& member : classes[b]) {
            classes[a].push_back(std::move(member));
        }
        classes.erase(classes.begin() + static_cast<std::ptrdiff_t>(b));
    }
    // Columns that never joined anything (a class of one, left by an equality kept above).
    std::erase_if(classes, [](const EquivalenceClass& c) { return c.size() < 2; });
    predicates = std::move(rest);
    return classes;
}

double Optimizer::DistinctEstimate(const Expression& key, double fallback) const {
    if (key.kind == ExpressionKind::BoundColumn) {
        auto known = column_distinct_.find({key.binding.table_index, key.binding.column_index});
        if (known != column_distinct_.end()) {
            return std::max(1.0, known->second);
        }
        auto found = base_rows_.find(key.binding.table_index);
        if (found != base_rows_.end()) {
            return std::max(1.0, found->second);
        }
    }
    if (key.kind == ExpressionKind::Cast) {
        return DistinctEstimate(*key.children[0], fallback);
    }
    return std::max(1.0, fallback);
}

LogicalOperatorPtr Optimizer::ReorderJoins(std::vector<LogicalOperatorPtr> relations,
                                           std::vector<ExpressionPtr>& predicates) {
    struct Node {
        LogicalOperatorPtr op;
        std::set<idx_t> tables;
        double rows;
    };
    std::vector<Node> nodes;
    std::vector<std::set<idx_t>> relation_tables;
    for (auto& relation : relations) {
        double rows = Estimate(*relation);
        auto tables = TablesOfOperator(*relation);
        relation_tables.push_back(tables);
        nodes.push_back({std::move(relation), std::move(tables), rows});
    }
    std::vector<EquivalenceClass> classes = ExtractEquivalenceClasses(predicates, relation_tables);
    // A class's members among `tables`: its columns from those relations (at most one per
    // relation, so the first stands for all: they were made equal when the relations joined).
    auto members_in = [&](const EquivalenceClass& equivalence, const std::set<idx_t>& tables) {
        std::vector<const Expression*> found;
        for (const auto& member : equivalence) {
            if (tables.count(member->binding.table_index)) {
                found.push_back(member.get());
            }
        }
        return found;
    };
    // How much an equality between `x` and `y` divides their product (the larger key's
    // distinct values, over all the equalities between them); none when nothing connects them.
    auto divisor_between = [&](const Node& x, const Node& y) -> std::optional<double> {
        std::optional<double> divisor;
        auto widen = [&](double value) { divisor = std::max(divisor.value_or(0), value); };
        for (const auto& predicate : predicates) {
            if (predicate->kind != ExpressionKind::Function || predicate->function_name != "=" ||
                predicate->children.size() != 2) {
                continue;
            }
            auto left = TablesOf(*predicate->children[0]);
            auto right = TablesOf(*predicate->children[1]);
            if (left.empty() || right.empty()) {
                continue;
            }
            if (IsSubset(left, x.tables) && IsSubset(right, y.tables)) {
                widen(std::min(DistinctEstimate(*predicate->children[0], x.rows),
                               DistinctEstimate(*predicate->children[1], y.rows)));
            } else if (IsSubset(left, y.tables) && IsSubset(right, x.tables)) {
                widen(std::min(DistinctEstimate(*predicate->children[1], x.rows),
                               DistinctEstimate(*predicate->children[0], y.rows)));
            }
        }
        for (const auto& equivalence : classes) {
            auto in_x = members_in(equivalence, x.tables);
            auto in_y = members_in(equivalence, y.tables);
            if (!in_x.empty() && !in_y.empty()) {
                widen(std::min(DistinctEstimate(*in_x[0], x.rows),
                               DistinctEstimate(*in_y[0], y.rows)));
            }
        }
        return divisor;
    };
    // Joins two nodes: the smaller builds; the predicates over both become keys and residual.
    auto join_nodes = [&](Node a, Node b, double rows) {
        bool a_builds = a.rows < b.rows;
        Node& probe = a_builds ? b : a;
        Node& build = a_builds ? a : b;
        auto join = std::make_unique<LogicalOperator>(LogicalOperatorKind::Join);
        join->join_type = PhysicalJoinType::Inner;
        std::set<idx_t> all = probe.tables;
        all.insert(build.tables.begin(), build.tables.end());
        std::vector<ExpressionPtr> residual, remaining;
        for (auto& predicate : predicates) {
            if (auto condition = AsJoinCondition(*predicate, probe.tables, build.tables)) {
                join->conditions.push_back(std::move(*condition));
            } else if (IsSubset(TablesOf(*predicate), all) && !TablesOf(*predicate).empty()) {
                residual.push_back(std::move(predicate));
            } else {
                remaining.push_back(std::move(predicate));
            }
        }
        predicates = std::move(remaining);
        // One equality per class the two sides share: each side's members are equal already.
        for (const auto& equivalence : classes) {
            auto in_probe = members_in(equivalence, probe.tables);
            auto in_build = members_in(equivalence, build.tables);
            if (!in_probe.empty() && !in_build.empty()) {
                join->conditions.push_back({in_probe[0]->Copy(), in_build[0]->Copy()});
            }
        }
        join->residual = CombineConjuncts(std::move(residual));
        join->estimated_rows = std::max(1.0, rows);
        join->children.push_back(std::move(probe.op));
        join->children.push_back(std::move(build.op));
        return Node{std::move(join), std::move(all), std::max(1.0, rows)};
    };

    if (nodes.size() > 2 && nodes.size() <= kMaxExhaustiveRelations) {
        // Every connected join tree, by dynamic programming over subsets of relations: the
        // cheapest by the sum of its intermediate results' estimated rows. A greedy choice of
        // the smallest next join misses plans whose first join is larger but whose later ones
        // shrink (TPC-H Q5: customers of a region before orders and lineitem).
        size_t count = nodes.size();
        std::vector<std::vector<std::optional<double>>> divisors(
            count, std::vector<std::optional<double>>(count));
        for (size_t i = 0; i < count; i++) {
            for (size_t j = i + 1; j < count; j++) {
                divisors[i][j] = divisors[j][i] = divisor_between(nodes[i], nodes[j]);
            }
        }
        struct Best {
            double cost = -1; // negative: no connected tree
            double rows = 0;
            uint32_t left = 0;
        };
        uint32_t full = (1u << count) - 1;
        std::vector<Best> best(full + 1);
        for (size_t i = 0; i < count; i++) {
            best[1u << i] = {0, nodes[i].rows, 0};
        }
        for (uint32_t set = 1; set <= full; set++) {
            if ((set & (set - 1)) == 0) {
                continue;
            }
            // Each split once: the part holding the lowest relation on the left.
            uint32_t lowest = set & (~set + 1);
            for (uint32_t left = (set - 1) & set; left > 0; left = (left - 1) & set) {
                uint32_t right = set & ~left;
                if (!(left & lowest) || best[left].cost < 0 || best[right].cost < 0) {
                    continue;
                }
                std::optional<double> divisor;
                for (size_t i = 0; i < count; i++) {
                    for (size_t j = 0; j < count && (left >> i & 1); j++) {
                        if ((right >> j & 1) && divisors[i][j]) {
                            divisor = std::max(divisor.value_or(0), *divisors[i][j]);
                        }
                    }
                }
                if (!divisor) {
                    continue;
                }
                double rows = std::max(1.0, best[left].rows * best[right].rows / *divisor);
                double cost = best[left].cost + best[right].cost + rows;
                if (best[set].cost < 0 || cost < best[set].cost) {
                    best[set] = {cost, rows, left};
                }
            }
        }
        if (best[full].cost >= 0) {
            std::vector<std::optional<Node>> base(count);
            for (size_t i = 0; i < count; i++) {
                base[i] = std::move(nodes[i]);
            }
            std::function<Node(uint32_t)> build_tree = [&](uint32_t set) -> Node {
                if ((set & (set - 1)) == 0) {
                    return std::move(*base[std::countr_zero(set)]);
                }
                Node left = build_tree(best[set].left);
                Node right = build_tree(set & ~best[set].left);
                return join_nodes(std::move(left), std::move(right), best[set].rows);
            };
            return std::move(build_tree(full).op);
        }
    }

    // Greedy: join the connected pair with the smallest estimated result until one is left;
    // without any connected pair, the two smallest relations are crossed.
    while (nodes.size() > 1) {
        size_t best_a = 0, best_b = 1;
        double best_rows = -1;
        for (size_t x = 0; x < nodes.size(); x++) {
            for (size_t y = x + 1; y < nodes.size(); y++) {
                auto divisor = divisor_between(nodes[x], nodes[y]);
                if (!divisor) {
                    continue;
                }
                double rows = nodes[x].rows * nodes[y].rows / std::max(1.0, *divisor);
                if (best_rows < 0 || rows < best_rows) {
                    best_a = x;
                    best_b = y;
                    best_rows = rows;
                }
            }
        }
        if (best_rows < 0) {
            std::vector<size_t> order(nodes.size());
            for (size_t n = 0; n < nodes.size(); n++) {
                order[n] = n;
            }
            std::partial_sort(order.begin(), order.begin() + 2, order.end(),
                              [&](size_t x, size_t y) { return nodes[x].rows < nodes[y].rows; });
            best_a = std::min(order[0], order[1]);
            best_b = std::max(order[0], order[1]);
            best_rows = nodes[best_a].rows * nodes[best_b].rows;
        }
        Node merged = join_nodes(std::move(nodes[best_a]), std::move(nodes[best_b]), best_rows);
        nodes.erase(nodes.begin() + static_cast<long>(best_b));
        nodes.erase(nodes.begin() + static_cast<long>(best_a));
        nodes.push_back(std::move(merged));
    }
    return std::move(nodes[0].op);
}

double Optimizer::Estimate(LogicalOperator& op) {
    double rows = 1;
    switch (op.kind) {
    case LogicalOperatorKind::Get:
        rows = op.function->estimated_rows >= 0 ? op.function->estimated_rows : 1000;
        base_rows_[op.table_index] = rows;
        for (idx_t id = 0; id < op.function->distinct_estimates.size(); id++) {
            if (op.function->distinct_estimates[id] >= 0) {
                column_distinct_[{op.table_index, id}] = op.function->distinct_estimates[id];
            }
        }
        break;
    case LogicalOperatorKind::Filter:
        rows = Estimate(*op.children[0]) *
               std::pow(kFilterSelectivity, static_cast<double>(op.expressions.size()));
        break;
    case LogicalOperatorKind::Projection:
        rows = Estimate(*op.children[0]);
        base_rows_[op.table_index] = rows;
        for (idx_t i = 0; i < op.expressions.size(); i++) {
            const Expression& expression = *op.expressions[i];
            if (expression.kind != ExpressionKind::BoundColumn) {
                continue;
            }
            auto known = column_distinct_.find(
                {expression.binding.table_index, expression.binding.column_index});
            if (known != column_distinct_.end()) {
                column_distinct_[{op.table_index, i}] = known->second;
            }
        }
        break;
    case LogicalOperatorKind::Aggregate:
        rows = Estimate(*op.children[0]);
        rows = op.expressions.empty() ? 1 : std::max(1.0, rows / 4);
        base_rows_[op.table_index] = rows;
        break;
    case LogicalOperatorKind::Join: {
        double left = Estimate(*op.children[0]);
        double right = Estimate(*op.children[1]);
        switch (op.join_type) {
        case PhysicalJoinType::Inner:
            rows = op.estimated_rows > 0
                       ? op.estimated_rows
                       : (op.conditions.empty() ? left * right : std::max(left, right));
            break;
        case PhysicalJoinType::Left:
            rows = std::max(left, op.estimated_rows > 0 ? op.estimated_rows : left);
            break;
        case PhysicalJoinType::Right:
            rows = std::max(right, op.estimated_rows > 0 ? op.estimated_rows : right);
            break;
        case PhysicalJoinType::Full:
            rows = std::max(left + right, op.estimated_rows);
            break;
        case PhysicalJoinType::Semi:
        case PhysicalJoinType::Anti: {
            // The share of the left rows with a match: the right side's keys among all the
            // values the key can take (half, without keys to judge by).
            double matching = 0.5;
            for (const auto& condition : op.conditions) {
                // Base rows, or the statistics' range: the values the key can take at all.
                double values = DistinctEstimate(*condition.right, 1e18);
                if (values < 1e18) {
                    matching = std::min(matching, std::min(1.0, right / std::max(1.0, values)));
                }
            }
            rows = std::max(1.0, left * (op.join_type == PhysicalJoinType::Semi
                                             ? matching
                                             : 1.0 - std::min(matching, 0.9)));
            break;
        }
        case PhysicalJoinType::Mark:
            rows = left;
            break;
        }
        break;
    }
    case LogicalOperatorKind::Order:
        rows = Estimate(*op.children[0]);
        break;
    case LogicalOperatorKind::Limit:
        rows = Estimate(*op.children[0]);
        if (op.limit) {
            rows = std::min(rows, static_cast<double>(*op.limit));
        }
        break;
    case LogicalOperatorKind::Union:
        rows = Estimate(*op.children[0]) + Estimate(*op.children[1]);
        base_rows_[op.table_index] = rows;
        break;
    case LogicalOperatorKind::DelimGet:
        rows = op.estimated_rows > 0 ? op.estimated_rows : 1000;
        base_rows_[op.table_index] = rows;
        break;
    }
    op.estimated_rows = std::max(1.0, rows);
    return op.estimated_rows;
}

void Optimizer::PruneColumns(LogicalOperator& root) {
    std::set<idx_t> union_inputs; // projections read positionally by a UNION: keep whole
    std::function<void(LogicalOperator&)> find_union_inputs = [&](LogicalOperator& op) {
        if (op.kind == LogicalOperatorKind::Union) {
            for (auto& child : op.children) {
                union_inputs.insert(child->table_index);
            }
        }
        for (auto& child : op.children) {
            find_union_inputs(*child);
        }
    };
    find_union_inputs(root);
    for (int round = 0; round < 3; round++) {
        std::set<std::pair<idx_t, idx_t>> used;
        for (const auto& binding : root.Bindings()) {
            used.insert({binding.table_index, binding.column_index});
        }
        ForEachExpression(root,
                          [&](ExpressionPtr& expression) { CollectReferences(*expression, used); });
        std::function<void(LogicalOperator&, bool)> prune = [&](LogicalOperator& op, bool is_root) {
            for (auto& child : op.children) {
                prune(*child, false);
            }
            if (op.kind == LogicalOperatorKind::Get) {
                std::vector<idx_t> kept;
                for (idx_t id : op.column_ids) {
                    if (used.count({op.table_index, id})) {
                        kept.push_back(id);
                    }
                }
                if (kept.empty() && !op.column_ids.empty()) {
                    kept.push_back(op.column_ids[0]); // rows still need counting
                }
                op.column_ids = std::move(kept);
                return;
            }
            if (op.kind != LogicalOperatorKind::Projection || is_root ||
                union_inputs.count(op.table_index)) {
                return;
            }
            idx_t used_count = 0;
            for (idx_t i = 0; i < op.expressions.size(); i++) {
                used_count += used.count({op.table_index, i});
            }
            if (used_count == op.expressions.size()) {
                return;
            }
            std::vector<idx_t> new_index(op.expressions.size(), 0);
            std::vector<ExpressionPtr> kept;
            for (idx_t i = 0; i < op.expressions.size(); i++) {
                if (used.count({op.table_index, i})) {
                    new_index[i] = kept.size();
                    kept.push_back(std::move(op.expressions[i]));
                }
            }
            if (kept.empty()) {
                kept.push_back(MakeConstant(Value::Boolean(true)));
            }
            op.expressions = std::move(kept);
            idx_t table = op.table_index;
            ForEachExpression(root, [&](ExpressionPtr& expression) {
                std::function<void(Expression&)> remap = [&](Expression& e) {
                    if (e.kind == ExpressionKind::BoundColumn && e.binding.table_index == table) {
                        e.binding.column_index = new_index[e.binding.column_index];
                    }
                    for (auto& child : e.children) {
                        remap(*child);
                    }
                };
                remap(*expression);
            });
        };
        prune(root, true);
    }
}

} // namespace sluice
