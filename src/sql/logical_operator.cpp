#include "sql/logical_operator.hpp"

#include <cmath>

namespace sluice {

namespace {

// The paths of the leaves of `type` that `mask` selects, below `path`, as "[].part" for the
// `part` field of a list's element structs.
void AppendLeafPaths(const LogicalType& type, const LeafMask& mask, size_t& leaf,
                     const std::string& path, std::vector<std::string>& out) {
    switch (type.id()) {
    case LogicalTypeId::LIST:
    case LogicalTypeId::MAP:
        AppendLeafPaths(type.element(), mask, leaf, path + "[]", out);
        return;
    case LogicalTypeId::STRUCT:
        for (const StructField& field : type.fields()) {
            AppendLeafPaths(field.type, mask, leaf, path + "." + field.name, out);
        }
        return;
    default:
        if (mask[leaf++]) {
            out.push_back(path);
        }
    }
}

// "{[].part, [].quantity}": which leaves of a nested column a scan reads.
std::string ReadLeaves(const LogicalType& type, const LeafMask& mask) {
    std::vector<std::string> paths;
    size_t leaf = 0;
    AppendLeafPaths(type, mask, leaf, "", paths);
    std::string out = "{";
    for (size_t i = 0; i < paths.size(); i++) {
        out += (i ? ", " : "") + paths[i];
    }
    return out + "}";
}

} // namespace

void LogicalOperator::ForEachExpression(const std::function<void(ExpressionPtr&)>& visit) {
    for (auto& expression : expressions) {
        visit(expression);
    }
    for (auto& aggregate : aggregates) {
        for (auto& argument : aggregate.arguments) {
            visit(argument);
        }
    }
    for (auto& condition : conditions) {
        visit(condition.left);
        visit(condition.right);
    }
    if (residual) {
        visit(residual);
    }
    for (auto& order : orders) {
        visit(order.expression);
    }
    for (auto& column : delim_columns) {
        visit(column);
    }
    for (auto& window : windows) {
        for (auto& argument : window.arguments) {
            visit(argument);
        }
        for (ExpressionPtr* expression :
             {&window.filter, &window.start_offset, &window.end_offset}) {
            if (*expression) {
                visit(*expression);
            }
        }
    }
}

std::vector<ColumnBinding> LogicalOperator::Bindings() const {
    std::vector<ColumnBinding> bindings;
    switch (kind) {
    case LogicalOperatorKind::Get:
        for (idx_t id : column_ids) {
            bindings.push_back({table_index, id});
        }
        return bindings;
    case LogicalOperatorKind::Projection:
    case LogicalOperatorKind::Union:
    case LogicalOperatorKind::DelimGet: {
        idx_t count = kind == LogicalOperatorKind::Projection ? expressions.size()
                      : kind == LogicalOperatorKind::Union    ? children[0]->Types().size()
                                                              : delim_types.size();
        for (idx_t i = 0; i < count; i++) {
            bindings.push_back({table_index, i});
        }
        return bindings;
    }
    case LogicalOperatorKind::Aggregate:
        for (idx_t i = 0; i < expressions.size(); i++) {
            bindings.push_back({table_index, i});
        }
        for (idx_t i = 0; i < aggregates.size(); i++) {
            bindings.push_back({aggregate_index, i});
        }
        return bindings;
    case LogicalOperatorKind::Window:
        bindings = passthrough ? *passthrough : children[0]->Bindings();
        for (idx_t i = 0; i < windows.size(); i++) {
            bindings.push_back({table_index, i});
        }
        return bindings;
    case LogicalOperatorKind::Unnest:
        bindings = passthrough ? *passthrough : children[0]->Bindings();
        for (idx_t i = 0; i < expressions.size(); i++) {
            bindings.push_back({table_index, i});
        }
        return bindings;
    case LogicalOperatorKind::Join: {
        bindings = children[0]->Bindings();
        if (EmitsPairs(join_type)) {
            auto right = children[1]->Bindings();
            bindings.insert(bindings.end(), right.begin(), right.end());
        } else if (join_type == PhysicalJoinType::Mark) {
            bindings.push_back({mark_index, 0});
        }
        return bindings;
    }
    default:
        return children[0]->Bindings();
    }
}

std::vector<LogicalType> LogicalOperator::Types() const {
    std::vector<LogicalType> types;
    switch (kind) {
    case LogicalOperatorKind::Get:
        for (idx_t id : column_ids) {
            types.push_back(function->types[id]);
        }
        return types;
    case LogicalOperatorKind::Projection:
        for (const auto& expression : expressions) {
            types.push_back(expression->type);
        }
        return types;
    case LogicalOperatorKind::DelimGet:
        return delim_types;
    case LogicalOperatorKind::Aggregate:
        for (const auto& expression : expressions) {
            types.push_back(expression->type);
        }
        for (const auto& aggregate : aggregates) {
            types.push_back(aggregate.function.return_type);
        }
        return types;
    case LogicalOperatorKind::Window:
        types = PassedTypes();
        for (const auto& window : windows) {
            types.push_back(window.type);
        }
        return types;
    case LogicalOperatorKind::Unnest:
        types = PassedTypes();
        for (const auto& list : expressions) {
            types.push_back(list->type.element());
        }
        return types;
    case LogicalOperatorKind::Join: {
        types = children[0]->Types();
        if (EmitsPairs(join_type)) {
            auto right = children[1]->Types();
            types.insert(types.end(), right.begin(), right.end());
        } else if (join_type == PhysicalJoinType::Mark) {
            types.push_back(LogicalTypeId::BOOLEAN);
        }
        return types;
    }
    default:
        return children[0]->Types();
    }
}

std::vector<LogicalType> LogicalOperator::PassedTypes() const {
    std::vector<LogicalType> child_types = children[0]->Types();
    if (!passthrough) {
        return child_types;
    }
    std::vector<ColumnBinding> child_bindings = children[0]->Bindings();
    std::vector<LogicalType> types;
    for (const ColumnBinding& binding : *passthrough) {
        auto found = std::find(child_bindings.begin(), child_bindings.end(), binding);
        types.push_back(child_types[found - child_bindings.begin()]);
    }
    return types;
}

std::string LogicalOperator::PassingText() const {
    if (!passthrough) {
        return "";
    }
    std::string out = " passing [";
    for (size_t i = 0; i < passthrough->size(); i++) {
        out += (i ? ", " : "") + std::string("#[") + std::to_string((*passthrough)[i].table_index) +
               "." + std::to_string((*passthrough)[i].column_index) + "]";
    }
    return out + "]";
}

std::string LogicalOperator::ToString(int indent) const {
    std::string pad(indent * 2, ' ');
    std::string out = pad;
    auto list = [](const std::vector<ExpressionPtr>& expressions) {
        std::string text;
        for (size_t i = 0; i < expressions.size(); i++) {
            text += (i ? ", " : "") + expressions[i]->ToString();
        }
        return text;
    };
    switch (kind) {
    case LogicalOperatorKind::Get:
        out += "SCAN " + table_name + " #" + std::to_string(table_index) + " columns [";
        for (size_t i = 0; i < column_ids.size(); i++) {
            out += (i ? ", " : "") + function->names[column_ids[i]];
            if (i < leaf_masks.size() && !leaf_masks[i].empty()) {
                out += " reading " + ReadLeaves(function->types[column_ids[i]], leaf_masks[i]);
            }
        }
        out += "]";
        {
            std::string join_filters;
            size_t predicates = 0;
            for (const TableFilter& filter : table_filters) {
                if (filter.op == TableFilter::Op::JoinKeys) {
                    join_filters += " #" + std::to_string(filter.join_filter);
                } else {
                    predicates++;
                }
            }
            if (predicates) {
                out += " filters " + std::to_string(predicates);
            }
            if (!join_filters.empty()) {
                out += " join keys" + join_filters;
            }
        }
        break;
    case LogicalOperatorKind::Filter:
        out += "FILTER " + list(expressions);
        break;
    case LogicalOperatorKind::Repeat:
        out += "REPEAT_ROWS " + list(expressions) + " times";
        break;
    case LogicalOperatorKind::Projection:
        out += "PROJECTION #" + std::to_string(table_index) + " " + list(expressions);
        break;
    case LogicalOperatorKind::Aggregate: {
        out += "HASH_GROUP_BY #" + std::to_string(table_index) + " [" + list(expressions) + "]";
        if (!grouping_sets.empty()) {
            out += " in " + std::to_string(grouping_sets.size()) + " grouping sets";
        }
        for (const auto& aggregate : aggregates) {
            out += " " + aggregate.function.name + "(" + (aggregate.distinct ? "DISTINCT " : "") +
                   list(aggregate.arguments) + ")";
        }
        break;
    }
    case LogicalOperatorKind::Join: {
        static const char* kNames[] = {"INNER", "LEFT", "SEMI", "ANTI", "MARK", "RIGHT", "FULL"};
        out += std::string(delim_index ? "DELIM_JOIN " : "HASH_JOIN ") +
               kNames[static_cast<int>(join_type)];
        if (delim_index) {
            out += " #" + std::to_string(delim_index) + " distinct [" + list(delim_columns) + "]";
        }
        for (idx_t c = 0; c < conditions.size(); c++) {
            out += " " + conditions[c].left->ToString() + " = " + conditions[c].right->ToString();
            if (c < join_key_filters.size() && join_key_filters[c]) {
                out += " (keys to scan #" + std::to_string(join_key_filters[c]) + ")";
            }
        }
        if (residual) {
            out += " AND " + residual->ToString();
        }
        break;
    }
    case LogicalOperatorKind::Order:
        out += "ORDER_BY";
        for (const auto& order : orders) {
            out += " " + order.expression->ToString() + (order.descending ? " DESC" : " ASC");
        }
        break;
    case LogicalOperatorKind::Unnest:
        out += "UNNEST #" + std::to_string(table_index) + " [" + list(expressions) + "]" +
               PassingText();
        break;
    case LogicalOperatorKind::Window:
        out += "WINDOW #" + std::to_string(table_index) + " PARTITION BY [" + list(expressions) +
               "] ORDER BY [";
        for (size_t i = 0; i < orders.size(); i++) {
            out += (i ? ", " : "") + orders[i].expression->ToString() +
                   (orders[i].descending ? " DESC" : "");
        }
        out += "]";
        for (const auto& window : windows) {
            out += " " + window.name + "(" + list(window.arguments) + ")";
        }
        out += PassingText();
        break;
    case LogicalOperatorKind::Limit:
        out += "LIMIT " +
               (limit_expression ? limit_expression->ToString()
                : limit          ? std::to_string(*limit)
                                 : std::string("ALL")) +
               " OFFSET " +
               (offset_expression ? offset_expression->ToString() : std::to_string(offset));
        break;
    case LogicalOperatorKind::Union:
        out += "UNION ALL #" + std::to_string(table_index);
        break;
    case LogicalOperatorKind::DelimGet:
        out += "DELIM_SCAN #" + std::to_string(table_index) + " of DELIM_JOIN #" +
               std::to_string(delim_index);
        break;
    }
    out +=
        "  (~" + std::to_string(static_cast<long long>(std::llround(estimated_rows))) + " rows)\n";
    for (const auto& child : children) {
        out += child->ToString(indent + 1);
    }
    return out;
}

LogicalOperatorPtr MakeProjection(idx_t table_index, std::vector<ExpressionPtr> expressions,
                                  LogicalOperatorPtr child) {
    auto projection = std::make_unique<LogicalOperator>(LogicalOperatorKind::Projection);
    projection->table_index = table_index;
    projection->expressions = std::move(expressions);
    projection->children.push_back(std::move(child));
    return projection;
}

} // namespace sluice
