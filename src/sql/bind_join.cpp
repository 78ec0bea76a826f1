// Binding joins in FROM: both inputs with the scope over them, the ON or USING condition, and the
// merged USING columns of right and full joins.
#include "common/string_util.hpp"
#include "execution/conditional_functions.hpp"
#include "sql/binder.hpp"
#include "sql/subquery_flattener.hpp"

#include <map>

namespace sluice {

std::vector<std::string> Binder::CommonColumnNames(const Scope& left, const Scope& right,
                                                   SourceLocation location) {
    auto visible = [](const Scope& side) {
        std::vector<std::pair<std::string, std::string>> names; // name, alias.name
        for (const auto& entry : side.entries) {
            for (size_t i = 0; i < entry.names.size(); i++) {
                if (!entry.hidden[i]) {
                    names.push_back({entry.names[i], entry.alias + "." + entry.names[i]});
                }
            }
        }
        return names;
    };
    auto left_names = visible(left), right_names = visible(right);
    std::vector<std::string> common;
    for (const auto& [name, qualified] : left_names) {
        for (const auto& [other, other_qualified] : right_names) {
            if (Lower(name) == Lower(other) &&
                std::find(common.begin(), common.end(), name) == common.end()) {
                common.push_back(name);
            }
        }
    }
    if (common.empty()) {
        auto list = [](const std::vector<std::pair<std::string, std::string>>& names) {
            std::string out;
            for (const auto& name : names) {
                out += (out.empty() ? "" : ", ") + name.second;
            }
            return out;
        };
        Fail(ErrorKind::Binder,
             "No columns found to join on in NATURAL JOIN.\nUse CROSS JOIN if you intended for "
             "this to be a cross-product.\n   Left candidates: " +
                 list(left_names) + "\n   Right candidates: " + list(right_names),
             location);
    }
    return common;
}

Binder::JoinInputs Binder::BindJoinInputs(const TableRef& ref, const Scope* outer) {
    JoinInputs inputs;
    Scope left_scope, right_scope;
    left_scope.outer = outer;
    right_scope.outer = outer;
    inputs.left = BindTableRef(*ref.left, left_scope);
    // The right input sees the left one's columns (a lateral join, LATERAL said or not, as in
    // DuckDB); the plan is correlated when it reads them.
    Scope lateral = left_scope;
    lateral.outer = outer;
    right_scope.outer = &lateral;
    inputs.right = BindTableRef(*ref.right, right_scope);
    right_scope.outer = outer;
    inputs.left_entries = left_scope.entries.size();
    {
        std::map<ColumnBinding, LogicalType> left_columns;
        for (const auto& entry : left_scope.entries) {
            for (size_t i = 0; i < entry.bindings.size(); i++) {
                left_columns[entry.bindings[i]] = entry.types[i];
            }
        }
        for (const auto& binding : FreeColumns(*inputs.right)) {
            if (auto found = left_columns.find(binding); found != left_columns.end()) {
                inputs.correlated.push_back(binding);
                inputs.correlated_types.push_back(found->second);
            }
        }
    }
    if (!inputs.correlated.empty()) {
        FlattenLateral(ref, inputs, right_scope);
    }
    // The combined scope: the condition sees both sides.
    Scope& combined = inputs.scope;
    combined.outer = outer;
    for (auto& entry : left_scope.entries) {
        combined.entries.push_back(entry);
    }
    for (auto& entry : right_scope.entries) {
        combined.entries.push_back(entry);
    }
    ExpressionPtr condition;
    std::vector<std::string> using_columns =
        ref.natural ? CommonColumnNames(left_scope, right_scope, ref.location) : ref.using_columns;
    if (!using_columns.empty()) {
        for (const auto& name : using_columns) {
            auto find = [&](Scope& side, const char* which) -> std::pair<ScopeEntry*, idx_t> {
                for (auto& entry : side.entries) {
                    for (idx_t i = 0; i < entry.names.size(); i++) {
                        if (Lower(entry.names[i]) == Lower(name)) {
                            return {&entry, i};
                        }
                    }
                }
                Fail(ErrorKind::Binder,
                     "Column \"" + name + "\" does not exist on " + which + " side of join!",
                     ref.location);
            };
            // Plain variables, not structured bindings: lambdas capture them (C++20 allows
            // capturing bindings, but clang before 16 does not).
            std::pair<ScopeEntry*, idx_t> left_found = find(left_scope, "left");
            std::pair<ScopeEntry*, idx_t> right_found = find(right_scope, "right");
            ScopeEntry* l_entry = left_found.first;
            idx_t l_column = left_found.second;
            ScopeEntry* r_entry = right_found.first;
            idx_t r_column = right_found.second;
            auto l_column_of = [&]() {
                return MakeBoundColumn(l_entry->bindings[l_column], l_entry->types[l_column]);
            };
            auto r_column_of = [&]() {
                return MakeBoundColumn(r_entry->bindings[r_column], r_entry->types[r_column]);
            };
            inputs.using_columns.push_back({name, l_column_of(), r_column_of()});
            ExpressionPtr equal =
                BindComparisonOf("=", Bound{l_column_of()}, Bound{r_column_of()}, ref.location);
            condition = MakeAnd(std::move(condition), std::move(equal));
            // The right side's copy is not repeated by *; in right and full joins neither is
            // (MergeUsingColumns adds the merged one).
            size_t offset = left_scope.entries.size();
            for (size_t e = 0; e < right_scope.entries.size(); e++) {
                if (&right_scope.entries[e] == r_entry) {
                    combined.entries[offset + e].hidden[r_column] = true;
                }
            }
            if (ref.join_type == JoinType::Right || ref.join_type == JoinType::Full) {
                for (size_t e = 0; e < left_scope.entries.size(); e++) {
                    if (&left_scope.entries[e] == l_entry) {
                        combined.entries[e].hidden[l_column] = true;
                    }
                }
            }
        }
    } else if (ref.condition) {
        Scope* saved = scope_;
        scope_ = &combined;
        LogicalOperatorPtr* saved_from = from_plan_;
        from_plan_ = nullptr;
        // An inner join's condition is a filter over both inputs: a correlated subquery in it
        // joins over their product, as it would in WHERE.
        LogicalOperatorPtr product;
        LogicalOperator* plain = nullptr;
        if (ref.join_type == JoinType::Inner) {
            product = std::make_unique<LogicalOperator>(LogicalOperatorKind::Join);
            product->join_type = PhysicalJoinType::Inner;
            product->children.push_back(std::move(inputs.left));
            product->children.push_back(std::move(inputs.right));
            plain = product.get();
            from_plan_ = &product;
        }
        const char* reason = no_aggregates_reason_;
        no_aggregates_reason_ = "WHERE clause cannot contain aggregates!"; // DuckDB's words
        condition = BindBoolean(*ref.condition, "JOIN ON");
        no_aggregates_reason_ = reason;
        scope_ = saved;
        from_plan_ = saved_from;
        if (product && product.get() == plain) {
            inputs.left = std::move(product->children[0]);
            inputs.right = std::move(product->children[1]);
        } else if (product) {
            inputs.joined = std::move(product);
        }
    }
    inputs.condition = std::move(condition);
    return inputs;
}

void Binder::FlattenLateral(const TableRef& ref, JoinInputs& inputs, Scope& right_scope) {
    if (ref.join_type != JoinType::Inner && ref.join_type != JoinType::Cross &&
        ref.join_type != JoinType::Left) {
        Fail(ErrorKind::Binder,
             "The combining JOIN type must be INNER or LEFT for a LATERAL reference", ref.location);
    }
    inputs.delim_index = next_table_index_++;
    SubqueryFlattener::Result flat;
    try {
        SubqueryFlattener flattener(inputs.correlated, inputs.correlated_types, inputs.delim_index,
                                    next_table_index_);
        flat = flattener.Flatten(std::move(inputs.right));
    } catch (const Exception& error) {
        Relocate(error, ref.location);
    }
    inputs.right = std::move(flat.plan);
    inputs.delim = std::move(flat.delim);
    // Columns the flattening moved are named by their new bindings from here on.
    for (auto& entry : right_scope.entries) {
        for (auto& binding : entry.bindings) {
            if (auto moved = flat.moved.find(binding); moved != flat.moved.end()) {
                binding = moved->second;
            }
        }
    }
}

LogicalOperatorPtr Binder::MergeUsingColumns(LogicalOperatorPtr join, JoinType type,
                                             JoinInputs& inputs) {
    std::vector<ExpressionPtr> columns;
    idx_t projection_index = next_table_index_++;
    for (auto& entry : inputs.scope.entries) {
        for (idx_t i = 0; i < entry.bindings.size(); i++) {
            columns.push_back(MakeBoundColumn(entry.bindings[i], entry.types[i]));
            entry.bindings[i] = {projection_index, columns.size() - 1};
        }
    }
    ScopeEntry merged;
    for (auto& column : inputs.using_columns) {
        ExpressionPtr value;
        if (type == JoinType::Right) {
            value = std::move(column.right);
        } else {
            std::vector<ExpressionPtr> both;
            both.push_back(std::move(column.left));
            both.push_back(std::move(column.right));
            LogicalType common = CommonTypeOf(both, "USING", {});
            for (auto& side : both) {
                side = CastTo(std::move(side), common);
            }
            value = MakeFunction("coalesce", BindCoalesce(2, common), std::move(both));
        }
        merged.names.push_back(column.name);
        merged.types.push_back(value->type);
        merged.bindings.push_back({projection_index, columns.size()});
        merged.hidden.push_back(false);
        columns.push_back(std::move(value));
    }
    // First, so that * lists the merged columns where the left side's would be.
    inputs.scope.entries.insert(inputs.scope.entries.begin(), std::move(merged));
    return MakeProjection(projection_index, std::move(columns), std::move(join));
}

LogicalOperatorPtr Binder::BindJoin(const TableRef& ref, Scope& scope) {
    JoinInputs inputs = BindJoinInputs(ref, scope.outer);
    bool merge_using = !inputs.using_columns.empty() &&
                       (ref.join_type == JoinType::Right || ref.join_type == JoinType::Full);
    // A semi or anti join gives the left rows only: the right side's columns are out of scope
    // above it (its condition saw them).
    bool left_only = ref.join_type == JoinType::Semi || ref.join_type == JoinType::Anti;
    if (left_only) {
        inputs.scope.entries.resize(inputs.left_entries);
    }
    if (!merge_using) {
        for (auto& entry : inputs.scope.entries) {
            scope.entries.push_back(std::move(entry));
        }
    }
    if (inputs.joined) {
        auto filter = std::make_unique<LogicalOperator>(LogicalOperatorKind::Filter);
        filter->expressions.push_back(std::move(inputs.condition));
        filter->children.push_back(std::move(inputs.joined));
        return filter;
    }
    LogicalOperatorPtr left = std::move(inputs.left);
    LogicalOperatorPtr right = std::move(inputs.right);
    auto join = std::make_unique<LogicalOperator>(LogicalOperatorKind::Join);
    switch (ref.join_type) {
    case JoinType::Inner:
    case JoinType::Cross:
        join->join_type = PhysicalJoinType::Inner;
        break;
    case JoinType::Left:
    case JoinType::Right:
        join->join_type = PhysicalJoinType::Left;
        break;
    case JoinType::Semi:
        join->join_type = PhysicalJoinType::Semi;
        break;
    case JoinType::Anti:
        join->join_type = PhysicalJoinType::Anti;
        break;
    case JoinType::Full:
        join->join_type = PhysicalJoinType::Full;
        break;
    }
    if (ref.join_type == JoinType::Right) {
        std::swap(left, right); // output columns are named by binding, so order is free
    }
    join->children.push_back(std::move(left));
    join->children.push_back(std::move(right));
    // The optimizer splits the condition into equalities (hash keys) and the rest.
    join->residual = std::move(inputs.condition);
    if (inputs.delim_index) {
        // A lateral join: the right input computed once per distinct value of the left
        // columns it reads, and matched to the left rows on them.
        join->delim_index = inputs.delim_index;
        std::vector<ExpressionPtr> outer, inner;
        for (size_t i = 0; i < inputs.correlated.size(); i++) {
            const LogicalType& type = inputs.correlated_types[i];
            join->delim_columns.push_back(MakeBoundColumn(inputs.correlated[i], type));
            outer.push_back(MakeBoundColumn(inputs.correlated[i], type));
            inner.push_back(MakeBoundColumn(inputs.delim[i], type));
        }
        AddNullSafeConditions(std::move(outer), std::move(inner), join->conditions);
    }
    if (merge_using) {
        LogicalOperatorPtr merged = MergeUsingColumns(std::move(join), ref.join_type, inputs);
        for (auto& entry : inputs.scope.entries) {
            scope.entries.push_back(std::move(entry));
        }
        return merged;
    }
    return join;
}

} // namespace sluice
