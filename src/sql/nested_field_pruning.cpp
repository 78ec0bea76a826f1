#include "sql/nested_field_pruning.hpp"

#include "execution/nested_functions.hpp"

#include <map>
#include <optional>
#include <utility>

namespace sluice {

namespace {

using BindingKey = std::pair<idx_t, idx_t>;

// What a plan reads of a nested value: all of it, or some of its children (a STRUCT's fields by
// index, a LIST's or MAP's element as child 0).
struct FieldUse {
    bool whole = false;
    // Its shape is needed (the lengths of the lists an UNNEST expands), so at least one leaf.
    bool shape = false;
    std::map<idx_t, FieldUse> children;
};

// A nested Get column, or a path of accesses into one.
struct FieldPath {
    BindingKey column;
    std::vector<idx_t> steps;
};

// len(l), length(l), array_length(l) of a list: they read only its shape.
bool IsListLength(const Expression& expression) {
    const std::string& name = expression.function_name;
    return expression.kind == ExpressionKind::Function && expression.children.size() == 1 &&
           expression.children[0]->type.id() == LogicalTypeId::LIST &&
           (name == "len" || name == "length" || name == "array_length");
}

class NestedFieldPruner {
public:
    void Run(LogicalOperator& root) {
        FindGets(root);
        if (uses_.empty()) {
            return;
        }
        Visit(root);
        for (const ColumnBinding& binding : root.Bindings()) {
            UseWhole({binding.table_index, binding.column_index});
        }
        Apply(root);
    }

private:
    void FindGets(LogicalOperator& op) {
        for (auto& child : op.children) {
            FindGets(*child);
        }
        if (op.kind != LogicalOperatorKind::Get) {
            return;
        }
        for (idx_t id : op.column_ids) {
            if (op.function->types[id].IsNested()) {
                BindingKey key{op.table_index, id};
                paths_[key] = {key, {}};
                uses_[key] = {};
            }
        }
    }

    // The path `expression` is when it is a chain of field and list element accesses over a
    // nested Get column (or over such a path another operator outputs).
    std::optional<FieldPath> PathOf(const Expression& expression) const {
        if (expression.kind == ExpressionKind::BoundColumn) {
            auto found =
                paths_.find({expression.binding.table_index, expression.binding.column_index});
            if (found == paths_.end()) {
                return std::nullopt;
            }
            return found->second;
        }
        if (expression.kind != ExpressionKind::Function || expression.children.empty()) {
            return std::nullopt;
        }
        const Expression& base = *expression.children[0];
        std::optional<idx_t> step;
        if (base.type.id() == LogicalTypeId::STRUCT) {
            step = StructExtractField(expression);
        } else if (base.type.id() == LogicalTypeId::LIST && expression.children.size() == 2 &&
                   (expression.function_name == "array_extract" ||
                    expression.function_name == "list_extract" ||
                    expression.function_name == "list_element")) {
            step = 0;
        }
        if (!step) {
            return std::nullopt;
        }
        std::optional<FieldPath> path = PathOf(base);
        if (path) {
            path->steps.push_back(*step);
        }
        return path;
    }

    FieldUse& UseOf(const FieldPath& path) {
        FieldUse* use = &uses_.at(path.column);
        for (idx_t step : path.steps) {
            use = &use->children[step];
        }
        return *use;
    }

    void UseWhole(BindingKey binding) {
        auto found = paths_.find(binding);
        if (found != paths_.end()) {
            UseOf(found->second).whole = true;
        }
    }

    // Records the list indexes along the path `access` spells: they are read as values.
    void CollectIndexes(const Expression& access) {
        for (const Expression* step = &access; step->kind == ExpressionKind::Function;
             step = step->children[0].get()) {
            for (size_t i = 1; i < step->children.size(); i++) {
                Collect(*step->children[i]);
            }
        }
    }

    // Records the use of path `path` that `access` spells, and its list indexes.
    void CollectPath(const Expression& access, const FieldPath& path, bool shape_only) {
        FieldUse& use = UseOf(path);
        (shape_only ? use.shape : use.whole) = true;
        CollectIndexes(access);
    }

    // Records what `expression` reads: a path's leaves, only the shape of a list whose length
    // is taken, any other nested column whole.
    void Collect(const Expression& expression) {
        if (std::optional<FieldPath> path = PathOf(expression)) {
            CollectPath(expression, *path, false);
            return;
        }
        if (IsListLength(expression)) {
            if (std::optional<FieldPath> path = PathOf(*expression.children[0])) {
                CollectPath(*expression.children[0], *path, true);
                return;
            }
        }
        if (expression.kind == ExpressionKind::BoundColumn) {
            UseWhole({expression.binding.table_index, expression.binding.column_index});
        }
        for (const auto& child : expression.children) {
            Collect(*child);
        }
    }

    // Children first, so that the paths a projection or an unnest outputs are known before the
    // operators above read them.
    void Visit(LogicalOperator& op) {
        for (auto& child : op.children) {
            Visit(*child);
        }
        switch (op.kind) {
        case LogicalOperatorKind::Union: // reads its inputs' columns by position
            for (auto& child : op.children) {
                for (const ColumnBinding& binding : child->Bindings()) {
                    UseWhole({binding.table_index, binding.column_index});
                }
            }
            break;
        case LogicalOperatorKind::Projection:
            for (idx_t i = 0; i < op.expressions.size(); i++) {
                if (std::optional<FieldPath> path = PathOf(*op.expressions[i])) {
                    paths_[{op.table_index, i}] = *path;
                    CollectIndexes(*op.expressions[i]);
                } else {
                    Collect(*op.expressions[i]);
                }
            }
            return;
        case LogicalOperatorKind::Unnest:
            for (idx_t i = 0; i < op.expressions.size(); i++) {
                std::optional<FieldPath> path = PathOf(*op.expressions[i]);
                if (!path) {
                    Collect(*op.expressions[i]);
                    continue;
                }
                UseOf(*path).shape = true;
                CollectIndexes(*op.expressions[i]);
                path->steps.push_back(0);
                paths_[{op.table_index, i}] = *path;
            }
            return;
        default:
            break;
        }
        op.ForEachExpression([&](ExpressionPtr& expression) { Collect(*expression); });
    }

    // Selects the leaves of `type` (starting at leaf `first` of `mask`) that `use` reads;
    // returns how many leaves the type has.
    static size_t Select(const LogicalType& type, const FieldUse* use, LeafMask& mask,
                         size_t first) {
        size_t count = LeafCount(type);
        if (!use) {
            return count;
        }
        if (use->whole || !type.IsNested()) {
            std::fill(mask.begin() + first, mask.begin() + first + count, true);
            return count;
        }
        auto child = [&](idx_t index) -> const FieldUse* {
            auto found = use->children.find(index);
            return found == use->children.end() ? nullptr : &found->second;
        };
        if (type.id() == LogicalTypeId::STRUCT) {
            size_t leaf = first;
            for (idx_t i = 0; i < type.fields().size(); i++) {
                leaf += Select(type.fields()[i].type, child(i), mask, leaf);
            }
        } else {
            Select(type.element(), child(0), mask, first);
        }
        bool any = std::find(mask.begin() + first, mask.begin() + first + count, true) !=
                   mask.begin() + first + count;
        if (use->shape && !any) {
            mask[first] = true; // any one leaf spells out the lists' lengths
        }
        return count;
    }

    void Apply(LogicalOperator& op) {
        for (auto& child : op.children) {
            Apply(*child);
        }
        if (op.kind != LogicalOperatorKind::Get) {
            return;
        }
        op.leaf_masks.assign(op.column_ids.size(), {});
        for (size_t i = 0; i < op.column_ids.size(); i++) {
            auto found = uses_.find({op.table_index, op.column_ids[i]});
            if (found == uses_.end() || found->second.whole) {
                continue;
            }
            const LogicalType& type = op.function->types[op.column_ids[i]];
            LeafMask mask(LeafCount(type), false);
            Select(type, &found->second, mask, 0);
            if (std::find(mask.begin(), mask.end(), false) == mask.end()) {
                continue;
            }
            if (std::find(mask.begin(), mask.end(), true) == mask.end()) {
                mask[0] = true; // read only to count rows
            }
            op.leaf_masks[i] = std::move(mask);
        }
    }

    std::map<BindingKey, FieldPath> paths_;
    std::map<BindingKey, FieldUse> uses_; // per nested Get column
};

} // namespace

void PruneNestedFields(LogicalOperator& root) {
    NestedFieldPruner().Run(root);
}

} // namespace sluice
