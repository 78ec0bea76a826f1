#include "sql/join_order.hpp"

#include "execution/scalar_functions.hpp"
#include "sql/plan_predicates.hpp"

#include <algorithm>
#include <bit>
#include <functional>
#include <map>
#include <optional>
#include <set>

namespace sluice {

namespace {

// Join regions of up to this many relations are ordered exhaustively (3^n splits).
constexpr size_t kMaxExhaustiveRelations = 12;

// Columns equal by the join predicates, at most one per relation.
using EquivalenceClass = std::vector<ExpressionPtr>;

// Moves the equalities between columns of different relations (`relation_tables`: the tables of
// each) out of `predicates` into classes, each holding at most one column of a relation, so
// that joining two relations' sides needs one equality per shared class.
std::vector<EquivalenceClass>
ExtractEquivalenceClasses(std::vector<ExpressionPtr>& predicates,
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

} // namespace

LogicalOperatorPtr OrderJoins(std::vector<LogicalOperatorPtr> relations,
                              std::vector<ExpressionPtr>& predicates,
                              CardinalityEstimator& estimator) {
    struct Node {
        LogicalOperatorPtr op;
        std::set<idx_t> tables;
        double rows;
    };
    std::vector<Node> nodes;
    std::vector<std::set<idx_t>> relation_tables;
    for (auto& relation : relations) {
        double rows = estimator.Estimate(*relation);
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
                widen(std::min(estimator.DistinctEstimate(*predicate->children[0], x.rows),
                               estimator.DistinctEstimate(*predicate->children[1], y.rows)));
            } else if (IsSubset(left, y.tables) && IsSubset(right, x.tables)) {
                widen(std::min(estimator.DistinctEstimate(*predicate->children[1], x.rows),
                               estimator.DistinctEstimate(*predicate->children[0], y.rows)));
            }
        }
        for (const auto& equivalence : classes) {
            auto in_x = members_in(equivalence, x.tables);
            auto in_y = members_in(equivalence, y.tables);
            if (!in_x.empty() && !in_y.empty()) {
                widen(std::min(estimator.DistinctEstimate(*in_x[0], x.rows),
                               estimator.DistinctEstimate(*in_y[0], y.rows)));
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

} // namespace sluice
