// Binding window functions: f(...) OVER (...) becomes a column of a Window operator, one
// operator per distinct PARTITION BY and ORDER BY, stacked over the query's FROM (and GROUP BY)
// plan below its SELECT list.
#include "common/string_util.hpp"
#include "sql/binder.hpp"

namespace sluice {

namespace {

// A key naming the partitioning and order: functions with equal keys share a Window operator.
std::string SpecKey(const std::vector<ExpressionPtr>& partitions,
                    const std::vector<BoundOrder>& orders) {
    std::string key;
    for (const auto& partition : partitions) {
        key += partition->ToString() + "," + partition->type.ToString() + ";";
    }
    key += "|";
    for (const auto& order : orders) {
        key += order.expression->ToString() + "," + order.expression->type.ToString() +
               (order.descending ? " DESC" : "") + (order.nulls_first ? " NULLS FIRST" : "") + ";";
    }
    return key;
}

} // namespace

ExpressionPtr Binder::BindWindowInput(const ParsedExpression& expression) {
    ExpressionPtr bound = Bind(expression).expression;
    if (aggregate_) {
        bound = ReplaceGroupKeys(std::move(bound), expression.location);
    }
    return bound;
}

std::vector<const ParsedExpression*>
Binder::WindowArgumentsInOrder(const ParsedExpression& expression, const std::string& name) const {
    // Named arguments (lead(col := x, "offset" := 2)) go where DuckDB's parameter names say;
    // taken in the order written they would silently swap.
    static const std::vector<std::string> kLeadLag = {"col", "offset", "default"};
    std::vector<const ParsedExpression*> ordered;
    bool lead_lag = name == "lead" || name == "lag";
    for (const auto& child : expression.children) {
        if (child->alias.empty()) {
            ordered.push_back(child.get());
            continue;
        }
        auto found = std::find(kLeadLag.begin(), kLeadLag.end(), Lower(child->alias));
        if (!lead_lag || found == kLeadLag.end()) {
            Fail(ErrorKind::Binder, name + "() has no parameter named \"" + child->alias + "\"",
                 child->location);
        }
        size_t at = static_cast<size_t>(found - kLeadLag.begin());
        if (ordered.size() <= at) {
            ordered.resize(at + 1, nullptr);
        }
        if (ordered[at]) {
            Fail(ErrorKind::Binder, name + "() is given \"" + child->alias + "\" twice",
                 child->location);
        }
        ordered[at] = child.get();
    }
    if (std::find(ordered.begin(), ordered.end(), nullptr) != ordered.end()) {
        Fail(ErrorKind::Binder, name + "() is missing an argument before its named ones",
             expression.location);
    }
    return ordered;
}

Binder::Bound Binder::BindWindow(const ParsedExpression& expression) {
    if (!window_) {
        Fail(ErrorKind::Binder, no_windows_reason_, expression.location);
    }
    if (expression.order_by) {
        Fail(ErrorKind::NotImplemented,
             "not supported: ORDER BY inside the call of a window function (order its window)",
             expression.location);
    }
    WindowContext* context = window_;
    const char* reason = no_windows_reason_;
    // The arguments, keys and frame see the query's columns, also from a lambda's body.
    struct RestoreScope {
        Scope*& scope;
        Scope* saved;
        ~RestoreScope() { scope = saved; }
    } restore_scope{scope_, scope_};
    ScopedValue<UnnestContext*> no_unnest(unnest_, nullptr); // as in aggregates' arguments
    scope_ = context->scope;
    window_ = nullptr;
    no_windows_reason_ = "window function calls cannot be nested";
    const WindowSpec& spec = *expression.window;
    std::vector<ExpressionPtr> partitions;
    for (const auto& partition : spec.partitions) {
        partitions.push_back(BindWindowInput(*partition));
    }
    std::vector<BoundOrder> orders;
    for (const auto& term : spec.orders) {
        orders.push_back({BindWindowInput(*term.expression), term.descending, term.nulls_first});
    }

    BoundWindow window;
    window.name = expression.text == "count_star" ? "count_star" : Lower(expression.text);
    window.ignore_nulls = expression.ignore_nulls;
    auto arity = [&](size_t low, size_t high) {
        if (expression.children.size() < low || expression.children.size() > high) {
            Fail(ErrorKind::Binder,
                 "No function matches the given name and argument count " + window.name + "(" +
                     std::to_string(expression.children.size()) + ")",
                 expression.location);
        }
    };
    for (const ParsedExpression* child : WindowArgumentsInOrder(expression, window.name)) {
        window.arguments.push_back(BindWindowInput(*child));
    }
    if (IsAggregateFunctionName(window.name) && window.name != "grouping" &&
        window.name != "grouping_id") {
        std::vector<LogicalType> types;
        for (const auto& argument : window.arguments) {
            types.push_back(argument->type);
        }
        auto [function, distinct] = ResolveAggregate(window.name, types, window.arguments,
                                                     expression.distinct, expression.location);
        if (expression.filter) {
            window.filter = CastTo(BindWindowInput(*expression.filter), LogicalTypeId::BOOLEAN);
        }
        window.kind = WindowFunctionKind::Aggregate;
        window.type = function.return_type;
        // DISTINCT: each frame's set of values (the rows' sets combined).
        window.aggregate = distinct ? MakeDistinct(std::move(function)) : std::move(function);
    } else if (auto kind = WindowFunctionKindOf(window.name)) {
        if (expression.filter || expression.distinct) {
            Fail(ErrorKind::Binder,
                 "DISTINCT and FILTER apply to aggregates, not to the window function " +
                     window.name + "()",
                 expression.location);
        }
        window.kind = *kind;
        auto value_type = [&]() {
            LogicalType type = window.arguments[0]->type;
            return type.id() == LogicalTypeId::SQLNULL ? LogicalType(LogicalTypeId::INTEGER) : type;
        };
        switch (*kind) {
        case WindowFunctionKind::RowNumber:
        case WindowFunctionKind::Rank:
        case WindowFunctionKind::DenseRank:
            arity(0, 0);
            window.type = LogicalTypeId::BIGINT;
            break;
        case WindowFunctionKind::PercentRank:
        case WindowFunctionKind::CumeDist:
            arity(0, 0);
            window.type = LogicalTypeId::DOUBLE;
            break;
        case WindowFunctionKind::Ntile:
            arity(1, 1);
            window.arguments[0] = CastTo(std::move(window.arguments[0]), LogicalTypeId::BIGINT);
            window.type = LogicalTypeId::BIGINT;
            break;
        case WindowFunctionKind::Lag:
        case WindowFunctionKind::Lead:
            arity(1, 3);
            window.type = value_type();
            window.arguments[0] = CastTo(std::move(window.arguments[0]), window.type);
            if (window.arguments.size() > 1) {
                window.arguments[1] = CastTo(std::move(window.arguments[1]), LogicalTypeId::BIGINT);
            }
            if (window.arguments.size() > 2) {
                window.arguments[2] = CastTo(std::move(window.arguments[2]), window.type);
            }
            break;
        case WindowFunctionKind::FirstValue:
        case WindowFunctionKind::LastValue:
        case WindowFunctionKind::NthValue:
            arity(*kind == WindowFunctionKind::NthValue ? 2 : 1,
                  *kind == WindowFunctionKind::NthValue ? 2 : 1);
            window.type = value_type();
            window.arguments[0] = CastTo(std::move(window.arguments[0]), window.type);
            if (window.arguments.size() > 1) {
                window.arguments[1] = CastTo(std::move(window.arguments[1]), LogicalTypeId::BIGINT);
            }
            break;
        case WindowFunctionKind::Aggregate:
            break;
        }
    } else {
        Fail(ErrorKind::Binder, "Function \"" + window.name + "\" is not a window function",
             expression.location);
    }
    if (window.ignore_nulls && window.kind != WindowFunctionKind::Lag &&
        window.kind != WindowFunctionKind::Lead && window.kind != WindowFunctionKind::FirstValue &&
        window.kind != WindowFunctionKind::LastValue &&
        window.kind != WindowFunctionKind::NthValue) {
        Fail(ErrorKind::Binder,
             "IGNORE NULLS applies to lag, lead, first_value, last_value and "
             "nth_value only",
             expression.location);
    }
    BindWindowFrame(spec, orders, window);

    // The Window operator of this partitioning and order, and the function's column in it.
    std::string key = SpecKey(partitions, orders);
    LogicalOperator* op = nullptr;
    for (auto& [existing_key, existing] : context->operators) {
        if (existing_key == key) {
            op = existing.get();
        }
    }
    if (!op) {
        auto created = std::make_unique<LogicalOperator>(LogicalOperatorKind::Window);
        created->table_index = next_table_index_++;
        created->expressions = std::move(partitions);
        created->orders = std::move(orders);
        op = created.get();
        context->operators.emplace_back(key, std::move(created));
    }
    std::string text = expression.ToString();
    idx_t index = op->windows.size();
    for (idx_t i = 0; i < context->texts[op->table_index].size(); i++) {
        if (context->texts[op->table_index][i] == text) {
            index = i;
        }
    }
    if (index == op->windows.size()) {
        context->texts[op->table_index].push_back(text);
        binding_names_[{op->table_index, index}] = text;
        op->windows.push_back(std::move(window));
    }
    window_ = context;
    no_windows_reason_ = reason;
    return {MakeBoundColumn({op->table_index, index}, op->windows[index].type),
            LiteralOrigin::None};
}

void Binder::BindWindowFrame(const WindowSpec& spec, const std::vector<BoundOrder>& orders,
                             BoundWindow& window) {
    if (!spec.has_frame) {
        return; // RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    }
    window.unit = spec.unit;
    window.start = spec.start.kind;
    window.end = spec.end.kind;
    window.exclude = spec.exclude;
    auto offset = [&](const FrameBound& bound) -> ExpressionPtr {
        if (!bound.offset) {
            return nullptr;
        }
        if (spec.unit != FrameUnit::Range) {
            return CastTo(BindWindowInput(*bound.offset), LogicalTypeId::BIGINT);
        }
        // RANGE: the ORDER BY key moved by the offset, toward the preceding or following rows.
        if (orders.size() != 1) {
            Fail(ErrorKind::Binder, "RANGE frames must have only one ORDER BY expression",
                 spec.location);
        }
        const OrderTerm& term = spec.orders[0];
        bool subtract = (bound.kind == FrameBoundKind::Preceding) != term.descending;
        auto moved = std::make_unique<ParsedExpression>();
        moved->kind = ParsedExpressionKind::Operator;
        moved->text = subtract ? "-" : "+";
        moved->location = bound.offset->location;
        moved->children.push_back(CloneExpression(*term.expression));
        moved->children.push_back(CloneExpression(*bound.offset));
        return CastTo(BindWindowInput(*moved), orders[0].expression->type);
    };
    window.start_offset = offset(spec.start);
    window.end_offset = offset(spec.end);
}

} // namespace sluice
