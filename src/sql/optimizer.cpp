#include "sql/optimizer.hpp"

#include "common/exception.hpp"
#include "execution/nested_functions.hpp"
#include "execution/scalar_functions.hpp"
#include "sql/join_key_filters.hpp"
#include "sql/join_order.hpp"
#include "sql/nested_field_pruning.hpp"
#include "sql/plan_predicates.hpp"

#include <algorithm>
#include <functional>

namespace sluice {

namespace {

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

// Points references to `table_index` columns at `bindings` (same position, same type).
ExpressionPtr Rebind(ExpressionPtr expression, idx_t table_index,
                     const std::vector<ColumnBinding>& bindings) {
    if (expression->kind == ExpressionKind::BoundColumn &&
        expression->binding.table_index == table_index) {
        expression->binding = bindings[expression->binding.column_index];
    }
    for (auto& child : expression->children) {
        child = Rebind(std::move(child), table_index, bindings);
    }
    return expression;
}

// A filter on the scan column of `table`, or on the struct field of one (s.a.b), that
// `expression` reads uncast; its op and constants are left to fill in.
std::optional<TableFilter> FilterTarget(const Expression& expression, idx_t table) {
    std::vector<idx_t> fields;
    const Expression* at = &expression;
    while (std::optional<idx_t> field = StructExtractField(*at)) {
        fields.insert(fields.begin(), *field);
        at = at->children[0].get();
    }
    if (at->kind != ExpressionKind::BoundColumn || at->binding.table_index != table) {
        return std::nullopt;
    }
    TableFilter filter;
    filter.column = at->binding.column_index;
    filter.fields = std::move(fields);
    return filter;
}

// TableFilters for a scan: `x op constant`, `x IS [NOT] NULL` and `x IN (constants)` conjuncts
// where x is one of its columns, or a field of a struct column, of a flat type (readers keep no
// statistics of lists).
void ExtractTableFilters(LogicalOperator& get, const std::vector<ExpressionPtr>& filters) {
    using Op = TableFilter::Op;
    for (const auto& predicate : filters) {
        if (std::any_of(predicate->children.begin(), predicate->children.end(),
                        [](const ExpressionPtr& child) { return child->type.IsNested(); })) {
            continue;
        }
        std::optional<TableFilter> first =
            predicate->children.empty() ? std::nullopt
                                        : FilterTarget(*predicate->children[0], get.table_index);
        if ((predicate->kind == ExpressionKind::IsNull ||
             predicate->kind == ExpressionKind::IsNotNull) &&
            first) {
            first->op = predicate->kind == ExpressionKind::IsNull ? Op::IsNull : Op::IsNotNull;
            get.table_filters.push_back(std::move(*first));
            continue;
        }
        if (predicate->kind == ExpressionKind::Function && predicate->function_name == "in_list" &&
            first) {
            // x IN (constants): the non-NULL constants (NULL never makes a row pass).
            TableFilter in = std::move(*first);
            in.op = Op::In;
            bool constants = true;
            for (size_t i = 1; i < predicate->children.size(); i++) {
                const Expression& value = *predicate->children[i];
                constants = constants && value.kind == ExpressionKind::Constant &&
                            value.type == predicate->children[0]->type;
                if (constants && !value.value.IsNull()) {
                    in.values.push_back(value.value);
                }
            }
            if (constants) {
                get.table_filters.push_back(std::move(in));
            }
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
        if (left->kind == ExpressionKind::Constant && FilterTarget(*right, get.table_index)) {
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
        std::optional<TableFilter> target = FilterTarget(*left, get.table_index);
        if (target && right->kind == ExpressionKind::Constant && right->type == left->type) {
            target->op = comparison;
            target->constant = right->value;
            get.table_filters.push_back(std::move(*target));
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

LogicalOperatorPtr Optimizer::Optimize(LogicalOperatorPtr plan) {
    plan = PushDown(std::move(plan), {});
    PruneColumns(*plan);
    PruneNestedFields(*plan);
    estimator_.Estimate(*plan);
    PushJoinKeyFilters(*plan, estimator_);
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
        // A dependent inner join (a lateral join) keeps its inputs: it stays out of join
        // regions.
        if (op->join_type == PhysicalJoinType::Inner && !op->delim_index) {
            return PushDownJoinRegion(std::move(op), std::move(filters));
        }
        return PushDownOuterJoin(std::move(op), std::move(filters));
    case LogicalOperatorKind::Projection:
    case LogicalOperatorKind::Aggregate: {
        // A filter on a projection's columns, or on an aggregate's groups, applies below it;
        // not with grouping sets, whose parts make keys NULL that were not.
        std::vector<ExpressionPtr> below, above;
        bool sets = !op->grouping_sets.empty();
        for (auto& filter : filters) {
            auto tables = TablesOf(*filter);
            if (!sets && tables.size() == 1 && *tables.begin() == op->table_index) {
                below.push_back(Substitute(std::move(filter), op->table_index, op->expressions));
            } else {
                above.push_back(std::move(filter));
            }
        }
        op->children[0] = PushDown(std::move(op->children[0]), std::move(below));
        return WrapInFilter(std::move(op), std::move(above));
    }
    case LogicalOperatorKind::Order:
    case LogicalOperatorKind::Repeat: // a row passes a filter however often it repeats
        op->children[0] = PushDown(std::move(op->children[0]), std::move(filters));
        return op;
    case LogicalOperatorKind::Get:
        ExtractTableFilters(*op, filters);
        return WrapInFilter(std::move(op), std::move(filters));
    case LogicalOperatorKind::DelimGet:
        return WrapInFilter(std::move(op), std::move(filters));
    case LogicalOperatorKind::Union:
        return PushDownUnion(std::move(op), std::move(filters));
    case LogicalOperatorKind::Limit:
    case LogicalOperatorKind::Window: // a filter below would change the partitions
    case LogicalOperatorKind::Unnest:
        for (auto& child : op->children) {
            child = PushDown(std::move(child), {});
        }
        return WrapInFilter(std::move(op), std::move(filters));
    }
    return op;
}

LogicalOperatorPtr Optimizer::PushDownUnion(LogicalOperatorPtr op,
                                            std::vector<ExpressionPtr> filters) {
    // A row of the union passes a filter on its columns as the child's row it came from does:
    // the filter goes into every child. Above a UNION's, EXCEPT's or INTERSECT's grouping
    // (which compares whole rows) this removes rows before they are grouped.
    std::vector<std::vector<ExpressionPtr>> below(op->children.size());
    std::vector<ExpressionPtr> above;
    for (auto& filter : filters) {
        auto tables = TablesOf(*filter);
        if (tables.size() != 1 || *tables.begin() != op->table_index) {
            above.push_back(std::move(filter));
            continue;
        }
        for (size_t c = 0; c < op->children.size(); c++) {
            below[c].push_back(
                Rebind(filter->Copy(), op->table_index, op->children[c]->Bindings()));
        }
    }
    for (size_t c = 0; c < op->children.size(); c++) {
        op->children[c] = PushDown(std::move(op->children[c]), std::move(below[c]));
    }
    return WrapInFilter(std::move(op), std::move(above));
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
        double values = estimator_.Estimate(*op->children[0]);
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
                node.join_type == PhysicalJoinType::Inner && !node.delim_index) {
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
    double preserved = estimator_.Estimate(*join.children[0]);
    double other = estimator_.Estimate(*join.children[1]);
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
        if (node->kind == LogicalOperatorKind::Join && node->join_type == PhysicalJoinType::Inner &&
            !node->delim_index) {
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
    AddTransitiveFilters(filters);
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
    auto joined = OrderJoins(std::move(relations), predicates, estimator_);
    return WrapInFilter(std::move(joined), std::move(predicates));
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
                    // Rows still need counting: by the first flat column, cheaper to read than a
                    // nested one.
                    auto flat =
                        std::find_if(op.column_ids.begin(), op.column_ids.end(),
                                     [&](idx_t id) { return !op.function->types[id].IsNested(); });
                    kept.push_back(flat == op.column_ids.end() ? op.column_ids[0] : *flat);
                }
                op.column_ids = std::move(kept);
                return;
            }
            if (op.kind == LogicalOperatorKind::Window || op.kind == LogicalOperatorKind::Unnest) {
                // It hands on the child's columns read above it: sorting (a window) or
                // repeating per element (UNNEST, the unnested list itself among them) a column
                // nobody reads costs as much as one that is read.
                std::set<std::pair<idx_t, idx_t>> above;
                for (const auto& binding : root.Bindings()) {
                    above.insert({binding.table_index, binding.column_index});
                }
                std::function<void(LogicalOperator&)> collect = [&](LogicalOperator& node) {
                    if (&node == &op) {
                        return; // its own keys and arguments, and what lies below
                    }
                    node.ForEachExpression(
                        [&](ExpressionPtr& expression) { CollectReferences(*expression, above); });
                    for (auto& child : node.children) {
                        collect(*child);
                    }
                };
                collect(root);
                std::vector<ColumnBinding> kept;
                for (const ColumnBinding& binding : op.children[0]->Bindings()) {
                    if (above.count({binding.table_index, binding.column_index})) {
                        kept.push_back(binding);
                    }
                }
                op.passthrough = std::move(kept);
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
