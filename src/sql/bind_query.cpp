#include "common/cast.hpp"
#include "common/string_util.hpp"
#include "execution/conditional_functions.hpp"
#include "execution/expression_executor.hpp"
#include "execution/rows_source.hpp"
#include "sql/binder.hpp"
#include "sql/distinct_aggregates.hpp"
#include "sql/lexer.hpp"
#include "sql/parser.hpp"

#include <algorithm>
#include <charconv>
#include <functional>
#include <limits>
#include <set>

namespace sluice {

namespace {

// `type` with every untyped NULL in it (the type of NULL, [], {'a': NULL}) made INTEGER.
LogicalType WithoutNullType(const LogicalType& type) {
    switch (type.id()) {
    case LogicalTypeId::SQLNULL:
        return LogicalTypeId::INTEGER;
    case LogicalTypeId::LIST:
        return LogicalType::List(WithoutNullType(type.element()));
    case LogicalTypeId::MAP:
        return LogicalType::Map(WithoutNullType(type.key()), WithoutNullType(type.value()));
    case LogicalTypeId::STRUCT: {
        std::vector<StructField> fields;
        for (const StructField& field : type.fields()) {
            fields.push_back(StructField{field.name, WithoutNullType(field.type)});
        }
        return LogicalType::Struct(std::move(fields));
    }
    default:
        return type;
    }
}

constexpr int kMaxViewDepth = 64;

// A copy of `expression` with column names that are aliases of `items` (and not columns of
// the FROM clause) replaced by the aliased expressions.
ParsedExpressionPtr SubstituteAliases(const ParsedExpression& expression,
                                      const std::vector<const ParsedExpression*>& items,
                                      const std::function<bool(const std::string&)>& from_column) {
    if (expression.kind == ParsedExpressionKind::ColumnRef && expression.names.size() == 1 &&
        !from_column(expression.names[0])) {
        for (const auto* item : items) {
            if (!item->alias.empty() && Lower(item->alias) == Lower(expression.names[0])) {
                return CloneExpression(*item);
            }
        }
    }
    auto copy = CloneExpression(expression);
    copy->children.clear();
    for (const auto& child : expression.children) {
        copy->children.push_back(SubstituteAliases(*child, items, from_column));
    }
    return copy;
}

bool IsIntegerLiteral(const ParsedExpression& expression) {
    return expression.kind == ParsedExpressionKind::Constant &&
           expression.literal_kind == LiteralKind::Integer;
}

// An integer literal's value as a GROUP BY or ORDER BY ordinal; one of more digits than an
// int64_t holds is out of range like any ordinal past the column count.
int64_t OrdinalOf(const ParsedExpression& literal) {
    const std::string& text = literal.text;
    int64_t value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return error == std::errc() && end == text.data() + text.size()
               ? value
               : std::numeric_limits<int64_t>::max();
}

} // namespace

BoundQuery Binder::BindStatementQuery(const SelectStatement& select) {
    BoundQuery query = BindQuery(select, nullptr);
    query.subplans = std::move(subplans_);
    return query;
}

BoundQuery Binder::BindQuery(const SelectStatement& select, const Scope* outer) {
    CteScope cte_scope;
    const CteScope* saved = ctes_;
    if (!select.ctes.empty()) {
        for (const auto& cte : select.ctes) {
            cte_scope.ctes[Lower(cte.name)] = &cte;
            if (cte.materialization == CteMaterialization::Always ||
                (cte.materialization == CteMaterialization::Auto &&
                 CountTableReferences(select, cte.name) > 1)) {
                materialized_.emplace(&cte, nullptr);
            }
        }
        cte_scope.outer = ctes_;
        ctes_ = &cte_scope;
    }
    BoundQuery query;
    switch (select.kind) {
    case QueryKind::Select:
        query = BindSelectBlock(select, outer);
        break;
    case QueryKind::Union:
    case QueryKind::Except:
    case QueryKind::Intersect:
        query = BindSetOperation(select, outer);
        break;
    case QueryKind::Values:
        query = BindValues(select, outer);
        break;
    }
    ctes_ = saved;
    return query;
}

namespace {

// VALUES (a, b), (c, d) as SELECT a AS col0, b AS col1 UNION ALL SELECT c, d: for rows that are
// not constants (a subquery's value is known only when the query runs).
std::shared_ptr<SelectStatement> ValuesAsUnion(const SelectStatement& values) {
    std::shared_ptr<SelectStatement> all;
    for (const auto& row : values.values) {
        auto select = std::make_shared<SelectStatement>();
        select->location = values.location;
        for (size_t i = 0; i < row.size(); i++) {
            select->select_list.push_back(CloneExpression(*row[i]));
            select->select_list.back()->alias = "col" + std::to_string(i);
        }
        if (!all) {
            all = std::move(select);
            continue;
        }
        auto both = std::make_shared<SelectStatement>();
        both->kind = QueryKind::Union;
        both->all = true;
        both->location = values.location;
        both->left = std::move(all);
        both->right = std::move(select);
        all = std::move(both);
    }
    return all;
}

bool HasSubquery(const ParsedExpression& expression) {
    if (expression.kind == ParsedExpressionKind::Subquery) {
        return true;
    }
    return std::any_of(expression.children.begin(), expression.children.end(),
                       [](const auto& child) { return HasSubquery(*child); });
}

} // namespace

BoundQuery Binder::BindValues(const SelectStatement& select, const Scope* outer) {
    for (const auto& parsed_row : select.values) {
        if (std::any_of(parsed_row.begin(), parsed_row.end(),
                        [](const auto& parsed) { return HasSubquery(*parsed); })) {
            return BindQuery(*ValuesAsUnion(select), outer);
        }
    }
    std::vector<std::vector<ExpressionPtr>> bound;
    for (const auto& parsed_row : select.values) {
        bound.emplace_back();
        for (const auto& parsed : parsed_row) {
            bound.back().push_back(BindConstantExpression(*parsed));
            if (bound.back().back()->kind != ExpressionKind::Constant) {
                return BindQuery(*ValuesAsUnion(select), outer);
            }
        }
    }
    std::vector<std::vector<Value>> rows;
    size_t width = select.values[0].size();
    std::vector<LogicalType> types(width, LogicalTypeId::SQLNULL);
    for (size_t r = 0; r < bound.size(); r++) {
        const auto& parsed_row = select.values[r];
        std::vector<Value> row;
        for (size_t i = 0; i < width; i++) {
            Value value = bound[r][i]->value;
            auto common = CommonSuperType(types[i], value.type());
            if (!common) {
                Fail(ErrorKind::Binder,
                     "VALUES column " + std::to_string(i + 1) + " mixes " + types[i].ToString() +
                         " and " + value.type().ToString(),
                     parsed_row[i]->location);
            }
            types[i] = *common;
            row.push_back(std::move(value));
        }
        rows.push_back(std::move(row));
    }
    for (auto& type : types) {
        if (type.id() == LogicalTypeId::SQLNULL) {
            type = LogicalTypeId::INTEGER;
        }
    }
    for (auto& row : rows) {
        for (size_t i = 0; i < width; i++) {
            row[i] = CastValue(row[i], types[i]);
        }
    }
    auto function = std::make_shared<BoundTableFunction>();
    for (size_t i = 0; i < width; i++) {
        function->names.push_back("col" + std::to_string(i));
    }
    function->types = types;
    function->estimated_rows = static_cast<double>(rows.size());
    auto shared_rows = std::make_shared<std::vector<std::vector<Value>>>(std::move(rows));
    function->make_source = [types, shared_rows](const std::vector<idx_t>& column_ids,
                                                 const std::vector<TableFilter>&,
                                                 const std::vector<LeafMask>&) {
        std::vector<LogicalType> projected;
        std::vector<std::vector<Value>> projected_rows;
        for (idx_t id : column_ids) {
            projected.push_back(types[id]);
        }
        for (const auto& row : *shared_rows) {
            std::vector<Value> values;
            for (idx_t id : column_ids) {
                values.push_back(row[id]);
            }
            projected_rows.push_back(std::move(values));
        }
        return std::make_shared<RowsSource>(std::move(projected), std::move(projected_rows));
    };
    TableRef ref;
    ref.location = select.location;
    Scope scope;
    BoundQuery query;
    query.plan = MakeGet(function, "VALUES", ref, scope);
    query.plan->column_ids.clear();
    for (size_t i = 0; i < width; i++) {
        query.plan->column_ids.push_back(i);
    }
    query.names = function->names;
    query.types = types;
    return query;
}

LogicalOperatorPtr Binder::MakeGet(std::shared_ptr<BoundTableFunction> function, std::string name,
                                   const TableRef& ref, Scope& scope) {
    CheckColumnAliases(ref, function->names.size());
    auto get = std::make_unique<LogicalOperator>(LogicalOperatorKind::Get);
    get->table_index = next_table_index_++;
    get->table_name = std::move(name);
    ScopeEntry entry;
    entry.alias = ref.alias.empty() ? get->table_name : ref.alias;
    for (idx_t i = 0; i < function->names.size(); i++) {
        get->column_ids.push_back(i);
        entry.names.push_back(i < ref.column_aliases.size() ? ref.column_aliases[i]
                                                            : function->names[i]);
        entry.types.push_back(function->types[i]);
        entry.bindings.push_back({get->table_index, i});
        entry.hidden.push_back(false);
        binding_names_[{get->table_index, i}] = entry.names.back();
    }
    get->function = std::move(function);
    scope.entries.push_back(std::move(entry));
    return get;
}

void Binder::CheckColumnAliases(const TableRef& ref, size_t columns) const {
    if (ref.column_aliases.size() > columns) {
        Fail(ErrorKind::Binder,
             "table \"" + ref.alias + "\" has " + std::to_string(columns) +
                 " columns available but " + std::to_string(ref.column_aliases.size()) +
                 " columns specified",
             ref.location);
    }
}

void Binder::AddScopeEntry(Scope& scope, const std::string& alias, const BoundQuery& query,
                           const TableRef& ref) {
    CheckColumnAliases(ref, query.names.size());
    ScopeEntry entry;
    entry.alias = alias;
    auto bindings = query.plan->Bindings();
    // Names repeated in a subquery's, a view's or a CTE's columns (SELECT t1.*, t2.*) are told
    // apart as DuckDB does (c, c_1): else each would name the first.
    std::vector<std::string> names = query.names;
    for (idx_t i = 0; i < ref.column_aliases.size() && i < names.size(); i++) {
        names[i] = ref.column_aliases[i];
    }
    names = UniqueColumnNames(names);
    for (idx_t i = 0; i < query.names.size(); i++) {
        entry.names.push_back(names[i]);
        entry.types.push_back(query.types[i]);
        entry.bindings.push_back(bindings[i]);
        entry.hidden.push_back(false);
        binding_names_[{bindings[i].table_index, bindings[i].column_index}] = entry.names.back();
    }
    scope.entries.push_back(std::move(entry));
}

LogicalOperatorPtr Binder::BindNamedTable(const TableRef& ref, Scope& scope) {
    // A CTE, then a view, then a table.
    for (const CteScope* ctes = ctes_; ctes; ctes = ctes->outer) {
        auto found = ctes->ctes.find(Lower(ref.name));
        if (found == ctes->ctes.end()) {
            continue;
        }
        const CommonTableExpression& cte = *found->second;
        // A CTE sees only the CTEs before it (no recursion).
        const CteScope* saved = ctes_;
        CteScope visible;
        visible.outer = ctes->outer;
        for (const auto& [name, other] : ctes->ctes) {
            if (other != &cte && other < &cte) {
                visible.ctes[name] = other;
            }
        }
        auto materialized = materialized_.find(&cte);
        if (materialized != materialized_.end() && materialized->second) {
            return MakeGet(materialized->second->Function(), cte.name, ref, scope);
        }
        ctes_ = &visible;
        BoundQuery query = BindQuery(*cte.query, nullptr);
        ctes_ = saved;
        // As DuckDB, names beyond the CTE's columns are ignored.
        for (size_t i = 0; i < cte.column_names.size() && i < query.names.size(); i++) {
            query.names[i] = cte.column_names[i];
        }
        if (materialized != materialized_.end()) {
            materialized->second =
                std::make_shared<MaterializedCte>(cte.name, query.names, query.types);
            Subplan subplan;
            subplan.plan = std::move(query.plan);
            subplan.cte = materialized->second;
            subplans_.push_back(std::move(subplan));
            return MakeGet(materialized->second->Function(), cte.name, ref, scope);
        }
        AddScopeEntry(scope, ref.alias.empty() ? cte.name : ref.alias, query, ref);
        return std::move(query.plan);
    }
    if (auto view = catalog_.FindView(ref.name)) {
        if (++view_depth_ > kMaxViewDepth) {
            Fail(ErrorKind::Binder, "view " + ref.name + " refers to itself", ref.location);
        }
        const CteScope* saved = ctes_;
        ctes_ = nullptr;
        BoundQuery query = BindQuery(*view->query, nullptr);
        ctes_ = saved;
        view_depth_--;
        AddScopeEntry(scope, ref.alias.empty() ? view->name : ref.alias, query, ref);
        return std::move(query.plan);
    }
    if (auto table = catalog_.FindTable(ref.name)) {
        return BindTable(*table, ref, scope);
    }
    if (replacement_ && *replacement_) {
        if (auto table = (*replacement_)(ref.name)) {
            return BindTable(*table, ref, scope);
        }
    }
    std::vector<std::string> candidates = catalog_.Names();
    for (const CteScope* ctes = ctes_; ctes; ctes = ctes->outer) {
        for (const auto& [name, cte] : ctes->ctes) {
            candidates.push_back(cte->name);
        }
    }
    std::string hint = Suggest(ref.name, candidates);
    Fail(ErrorKind::Catalog,
         "Table with name " + ref.name + " does not exist!" +
             (hint.empty() ? "" : "\nDid you mean \"" + hint + "\"?"),
         ref.location);
}

LogicalOperatorPtr Binder::BindTableRef(const TableRef& ref, Scope& scope) {
    switch (ref.kind) {
    case TableRefKind::Table:
        return BindNamedTable(ref, scope);
    case TableRefKind::Subquery: {
        // A derived table sees the queries around a subquery it is part of (not its siblings).
        BoundQuery query = BindQuery(*ref.subquery, scope.outer);
        std::string alias = ref.alias;
        if (alias.empty()) {
            // DuckDB's names: unnamed_subquery, unnamed_subquery2, ... within a statement.
            alias = "unnamed_subquery" +
                    (unnamed_subqueries_++ == 0 ? "" : std::to_string(unnamed_subqueries_));
        }
        AddScopeEntry(scope, alias, query, ref);
        return std::move(query.plan);
    }
    case TableRefKind::Join:
        return BindJoin(ref, scope);
    case TableRefKind::TableFunction:
        return BindTableFunction(ref, scope);
    }
    return nullptr;
}

TableFunctionInput Binder::BindTableFunctionInput(const TableRef& ref) {
    TableFunctionInput arguments;
    auto evaluate = [&](const ParsedExpression& argument) {
        return EvaluateConstant(argument, "Table function");
    };
    for (const auto& argument : ref.arguments) {
        std::vector<Value> values;
        if (argument->kind == ParsedExpressionKind::List) {
            for (const auto& element : argument->children) {
                values.push_back(evaluate(*element));
            }
        } else {
            values.push_back(evaluate(*argument));
        }
        arguments.positional.push_back(
            {std::move(values), argument->kind == ParsedExpressionKind::List});
    }
    for (const auto& [name, value] : ref.named_arguments) {
        if (arguments.named.count(name) || arguments.named_lists.count(name)) {
            Fail(ErrorKind::Binder, "parameter " + name + " given twice", ref.location);
        }
        if (value->kind == ParsedExpressionKind::List) {
            auto& list = arguments.named_lists[name];
            for (const auto& element : value->children) {
                list.push_back(evaluate(*element));
            }
        } else {
            arguments.named[name] = evaluate(*value);
        }
    }
    for (const auto& [name, fields] : ref.named_structs) {
        if (arguments.named.count(name) || arguments.named_lists.count(name) ||
            arguments.named_structs.count(name)) {
            Fail(ErrorKind::Binder, "parameter " + name + " given twice", ref.location);
        }
        auto& bound = arguments.named_structs[name];
        for (const auto& [key, value] : fields) {
            bound.emplace_back(key, evaluate(*value));
        }
    }
    return arguments;
}

LogicalOperatorPtr Binder::BindTableFunction(const TableRef& ref, Scope& scope) {
    const TableFunction* function = catalog_.table_functions().Find(ref.name);
    if (!function) {
        std::string hint = Suggest(ref.name, catalog_.table_functions().Names());
        Fail(ErrorKind::Catalog,
             "Table Function with name " + ref.name + " does not exist!" +
                 (hint.empty() ? "" : "\nDid you mean \"" + hint + "\"?"),
             ref.location);
    }
    TableFunctionInput arguments = BindTableFunctionInput(ref);
    std::shared_ptr<BoundTableFunction> bound;
    try {
        bound = std::make_shared<BoundTableFunction>(function->bind(arguments));
    } catch (const Exception& error) {
        Fail(error.Kind(), error.RawMessage(), ref.location);
    }
    return MakeGet(std::move(bound), ref.name, ref, scope);
}

BoundQuery Binder::BindSelectBlock(const SelectStatement& select, const Scope* outer) {
    Scope scope;
    scope.outer = outer;
    Scope* saved_scope = scope_;
    AggregateContext* saved_aggregate = aggregate_;
    LogicalOperatorPtr* saved_from = from_plan_;
    WindowContext* saved_window = window_;
    UnnestContext* saved_unnest = unnest_;
    unnest_ = nullptr;
    aggregate_ = nullptr;
    window_ = nullptr;

    LogicalOperatorPtr plan;
    if (select.from) {
        scope_ = &scope;
        from_plan_ = nullptr;
        plan = BindTableRef(*select.from, scope);
    } else {
        auto function = std::make_shared<BoundTableFunction>();
        function->estimated_rows = 1;
        function->make_source = [](const std::vector<idx_t>&, const std::vector<TableFilter>&,
                                   const std::vector<LeafMask>&) {
            return RowsSource::SingleRow();
        };
        Scope none;
        TableRef ref;
        plan = MakeGet(std::move(function), "dummy", ref, none);
    }
    scope_ = &scope;
    from_plan_ = &plan;

    if (select.where) {
        const char* reason = no_aggregates_reason_;
        no_aggregates_reason_ = "WHERE clause cannot contain aggregates!";
        const char* window_reason = no_windows_reason_;
        no_windows_reason_ = "WHERE clause cannot contain window functions!";
        ExpressionPtr where = BindBoolean(*select.where, "WHERE");
        no_windows_reason_ = window_reason;
        no_aggregates_reason_ = reason;
        auto filter = std::make_unique<LogicalOperator>(LogicalOperatorKind::Filter);
        filter->expressions.push_back(std::move(where));
        filter->children.push_back(std::move(plan));
        plan = std::move(filter);
    }

    // The SELECT list with * expanded; each item's parsed expression and name.
    std::vector<ParsedExpressionPtr> star_columns;
    std::vector<const ParsedExpression*> items;
    std::vector<std::string> names;
    for (const auto& item : select.select_list) {
        if (item->kind != ParsedExpressionKind::Star) {
            items.push_back(item.get());
            names.push_back(item->alias.empty() ? item->ColumnName() : item->alias);
            continue;
        }
        if (scope.entries.empty()) {
            Fail(ErrorKind::Binder, "SELECT * expression without FROM clause!", item->location);
        }
        bool found = false;
        for (const auto& entry : scope.entries) {
            if (!item->names.empty() && Lower(entry.alias) != Lower(item->names.back())) {
                continue;
            }
            found = true;
            for (idx_t i = 0; i < entry.names.size(); i++) {
                if (entry.hidden[i]) {
                    continue;
                }
                auto column = std::make_unique<ParsedExpression>();
                column->kind = ParsedExpressionKind::ColumnRef;
                column->location = item->location;
                column->names = {entry.alias, entry.names[i]};
                items.push_back(column.get());
                names.push_back(entry.names[i]);
                star_columns.push_back(std::move(column));
            }
        }
        if (!found) {
            Fail(ErrorKind::Binder, "Referenced table \"" + item->names.back() + "\" not found!",
                 item->location);
        }
    }

    // Aggregation: GROUP BY, or aggregate calls anywhere in SELECT / HAVING / ORDER BY.
    std::function<bool(const ParsedExpression&)> has_aggregate = [&](const ParsedExpression& e) {
        if (e.window) {
            // A window function aggregates over its frame, not the query's groups; its
            // arguments and keys may hold aggregates of the groups.
            bool found = e.filter && has_aggregate(*e.filter);
            for (const auto& partition : e.window->partitions) {
                found |= has_aggregate(*partition);
            }
            for (const auto& order : e.window->orders) {
                found |= has_aggregate(*order.expression);
            }
            for (const auto& child : e.children) {
                found |= has_aggregate(*child);
            }
            return found;
        }
        if (e.kind == ParsedExpressionKind::Function && IsAggregateFunctionName(e.text)) {
            return true;
        }
        if (e.kind == ParsedExpressionKind::Subquery) {
            return !e.children.empty() && has_aggregate(*e.children[0]);
        }
        for (const auto& child : e.children) {
            if (has_aggregate(*child)) {
                return true;
            }
        }
        return false;
    };
    bool aggregated = !select.group_by.empty() || !select.grouping_sets.empty() ||
                      select.group_by_all || select.having;
    for (const auto* item : items) {
        aggregated |= has_aggregate(*item);
    }
    for (const auto& term : select.order_by) {
        aggregated |= term.expression && has_aggregate(*term.expression);
    }
    AggregateContext context;
    LogicalOperator* aggregate_node = nullptr;
    if (aggregated) {
        auto aggregate = std::make_unique<LogicalOperator>(LogicalOperatorKind::Aggregate);
        aggregate->table_index = next_table_index_++;
        aggregate->aggregate_index = next_table_index_++;
        // GROUP BY ALL: the SELECT items without an aggregate, as if listed.
        std::vector<const ParsedExpression*> targets;
        if (select.group_by_all) {
            for (const auto* item : items) {
                if (!has_aggregate(*item)) {
                    targets.push_back(item);
                }
            }
        }
        for (const auto& group : select.group_by) {
            const ParsedExpression* target = group.get();
            if (IsIntegerLiteral(*group)) {
                int64_t ordinal = OrdinalOf(*group);
                if (ordinal < 1 || ordinal > static_cast<int64_t>(items.size())) {
                    Fail(ErrorKind::Binder,
                         "GROUP BY term out of range - should be between 1 and " +
                             std::to_string(items.size()),
                         group->location);
                }
                target = items[ordinal - 1];
            } else if (group->kind == ParsedExpressionKind::ColumnRef && group->names.size() == 1) {
                // A SELECT alias, unless a FROM column has that name.
                bool from_column = false;
                for (const auto& entry : scope.entries) {
                    for (const auto& name : entry.names) {
                        from_column |= Lower(name) == Lower(group->names[0]);
                    }
                }
                for (size_t i = 0; i < items.size() && !from_column; i++) {
                    if (!items[i]->alias.empty() &&
                        Lower(items[i]->alias) == Lower(group->names[0])) {
                        target = items[i];
                    }
                }
            }
            if (has_aggregate(*target)) {
                Fail(ErrorKind::Binder, "GROUP BY clause cannot contain aggregates!",
                     group->location);
            }
            targets.push_back(target);
        }
        for (const ParsedExpression* target : targets) {
            ExpressionPtr key = Bind(*target).expression;
            binding_names_[{aggregate->table_index, aggregate->expressions.size()}] =
                target->alias.empty() ? target->ColumnName() : target->alias;
            aggregate->expressions.push_back(std::move(key));
        }
        if (!select.grouping_sets.empty()) {
            aggregate->grouping_sets = select.grouping_sets;
        }
        aggregate->children.push_back(std::move(plan));
        aggregate_node = aggregate.get();
        plan = std::move(aggregate);
        context.aggregate = aggregate_node;
        context.scope = &scope;
        aggregate_ = &context;
        // Subqueries in the SELECT list, HAVING and ORDER BY join above the aggregate.
        from_plan_ = &plan;
    }
    auto bind_output = [&](const ParsedExpression& parsed) {
        ExpressionPtr expression = Bind(parsed).expression;
        if (aggregate_) {
            expression = ReplaceGroupKeys(std::move(expression), parsed.location);
        }
        return expression;
    };

    // Window functions in the SELECT list, QUALIFY and ORDER BY; unnest in the SELECT list.
    WindowContext windows;
    windows.scope = &scope;
    window_ = &windows;
    UnnestContext unnests;
    unnests.op = std::make_unique<LogicalOperator>(LogicalOperatorKind::Unnest);
    unnests.op->table_index = next_table_index_++;
    std::vector<ExpressionPtr> projections;
    std::vector<LogicalType> types;
    // unnest of a struct makes one item a column per field: items and names grow with them.
    std::vector<const ParsedExpression*> output_items;
    std::vector<std::string> output_names;
    for (size_t i = 0; i < items.size(); i++) {
        const ParsedExpression* item = items[i];
        unnest_ = &unnests;
        unnests.item = item;
        unnests.struct_unnest.reset();
        ExpressionPtr expression = bind_output(*item);
        unnest_ = nullptr;
        std::vector<std::pair<ExpressionPtr, std::string>> columns;
        if (unnests.struct_unnest) {
            ExpandStruct(std::move(expression), *unnests.struct_unnest, columns);
        } else {
            columns.emplace_back(std::move(expression), names[i]);
        }
        for (auto& [column, name] : columns) {
            // A bare NULL is typed INTEGER in results, as in DuckDB, inside lists and structs.
            LogicalType result_type = WithoutNullType(column->type);
            if (result_type != column->type) {
                column = CastTo(std::move(column), result_type);
            }
            types.push_back(column->type);
            projections.push_back(std::move(column));
            output_items.push_back(item);
            output_names.push_back(std::move(name));
        }
    }
    items = std::move(output_items);
    names = std::move(output_names);
    ExpressionPtr qualify;
    if (select.qualify) {
        // QUALIFY may name SELECT items by their aliases (rn in QUALIFY rn = 1).
        auto from_column = [&](const std::string& name) {
            for (const auto& entry : scope.entries) {
                for (const auto& column : entry.names) {
                    if (Lower(column) == Lower(name)) {
                        return true;
                    }
                }
            }
            return false;
        };
        qualify = CastTo(bind_output(*SubstituteAliases(*select.qualify, items, from_column)),
                         LogicalTypeId::BOOLEAN);
    }
    if (select.having) {
        if (!aggregate_) {
            Fail(ErrorKind::Binder, "HAVING clause without aggregation", select.having->location);
        }
        window_ = nullptr;
        const char* reason = no_windows_reason_;
        no_windows_reason_ = "HAVING clause cannot contain window functions!";
        ExpressionPtr having = bind_output(*select.having);
        no_windows_reason_ = reason;
        window_ = &windows;
        having = CastTo(std::move(having), LogicalTypeId::BOOLEAN);
        auto filter = std::make_unique<LogicalOperator>(LogicalOperatorKind::Filter);
        filter->expressions.push_back(std::move(having));
        filter->children.push_back(std::move(plan));
        plan = std::move(filter);
    }

    BoundQuery query;
    query.names = names;
    query.types = types;
    // ORDER BY terms not in the SELECT list are bound here, as hidden projection columns.
    std::vector<BoundOrder> orders;
    size_t visible = projections.size();
    for (const auto& term : select.order_by) {
        if (select.order_by_all) {
            // ORDER BY ALL: every output column, left to right, in the term's direction.
            for (size_t i = 0; i < visible; i++) {
                BoundOrder order;
                order.descending = term.descending;
                order.nulls_first = term.nulls_first;
                order.expression = MakeBoundColumn({0, i}, projections[i]->type);
                orders.push_back(std::move(order));
            }
            continue;
        }
        const ParsedExpression& parsed = *term.expression;
        std::optional<size_t> column;
        if (IsIntegerLiteral(parsed)) {
            int64_t ordinal = OrdinalOf(parsed);
            if (ordinal < 1 || ordinal > static_cast<int64_t>(visible)) {
                Fail(ErrorKind::Binder,
                     "ORDER term out of range - should be between 1 and " + std::to_string(visible),
                     parsed.location);
            }
            column = static_cast<size_t>(ordinal - 1);
        } else if (parsed.kind == ParsedExpressionKind::ColumnRef && parsed.names.size() == 1) {
            for (size_t i = 0; i < visible && !column; i++) {
                if (Lower(names[i]) == Lower(parsed.names[0])) {
                    column = i;
                }
            }
        }
        if (!column) {
            std::string text = parsed.ToString();
            for (size_t i = 0; i < visible && !column; i++) {
                if (items[i]->alias.empty() && items[i]->ToString() == text) {
                    column = i;
                }
            }
        }
        if (!column) {
            ExpressionPtr expression = bind_output(parsed);
            for (size_t i = 0; i < projections.size() && !column; i++) {
                if (projections[i]->Equals(*expression)) {
                    column = i;
                }
            }
            if (!column) {
                column = projections.size();
                projections.push_back(std::move(expression));
            }
        }
        if (projections[*column]->type.id() == LogicalTypeId::INTERVAL) {
            // Intervals sort by length (a hidden key column), not by their stored fields.
            std::vector<ExpressionPtr> interval;
            interval.push_back(projections[*column]->Copy());
            projections.push_back(
                MakeFunction("interval_order_key", BindIntervalOrderKey(), std::move(interval)));
            column = projections.size() - 1;
        }
        BoundOrder order;
        order.descending = term.descending;
        order.nulls_first = term.nulls_first;
        order.expression = MakeBoundColumn({0, *column}, projections[*column]->type);
        orders.push_back(std::move(order));
    }

    if (aggregate_node) {
        idx_t table_index = next_table_index_;
        if (aggregate_node->grouping_sets.empty() &&
            (SplitDistinctAggregates(*aggregate_node, table_index, table_index + 1) ||
             ExpandDistinctAggregates(*aggregate_node, table_index, table_index + 1))) {
            next_table_index_ += 2;
        }
    }
    window_ = nullptr;
    if (qualify && windows.operators.empty()) {
        Fail(ErrorKind::Binder,
             "at least one window function must appear in the SELECT column or QUALIFY clause",
             select.qualify->location);
    }
    for (auto& [key, window] : windows.operators) {
        window->children.push_back(std::move(plan));
        plan = std::move(window);
    }
    if (qualify) {
        auto filter = std::make_unique<LogicalOperator>(LogicalOperatorKind::Filter);
        filter->expressions.push_back(std::move(qualify));
        filter->children.push_back(std::move(plan));
        plan = std::move(filter);
    }
    if (!unnests.op->expressions.empty()) {
        unnests.op->children.push_back(std::move(plan));
        plan = std::move(unnests.op);
    }
    idx_t projection_index = next_table_index_++;
    for (size_t i = 0; i < projections.size(); i++) {
        binding_names_[{projection_index, i}] =
            i < names.size() ? names[i] : "#" + std::to_string(i);
    }
    plan = MakeProjection(projection_index, std::move(projections), std::move(plan));
    for (auto& order : orders) {
        order.expression->binding.table_index = projection_index;
    }
    if (select.distinct) {
        auto distinct = std::make_unique<LogicalOperator>(LogicalOperatorKind::Aggregate);
        distinct->table_index = next_table_index_++;
        distinct->aggregate_index = next_table_index_++;
        for (size_t i = 0; i < visible; i++) {
            distinct->expressions.push_back(MakeBoundColumn({projection_index, i}, types[i]));
            binding_names_[{distinct->table_index, i}] = names[i];
        }
        // ORDER BY terms the SELECT list lacks: each distinct row is ordered by the smallest of
        // its values (the largest, descending). DuckDB takes an arbitrary one; any is allowed.
        std::map<size_t, idx_t> hidden;
        for (auto& order : orders) {
            idx_t column = order.expression->binding.column_index;
            if (column < visible) {
                order.expression->binding.table_index = distinct->table_index;
                continue;
            }
            if (!hidden.count(column)) {
                LogicalType type = order.expression->type;
                std::vector<ExpressionPtr> arguments;
                arguments.push_back(MakeBoundColumn({projection_index, column}, type));
                hidden[column] = distinct->aggregates.size();
                distinct->aggregates.push_back(
                    {*BindAggregateFunction(order.descending ? "max" : "min", {type}),
                     std::move(arguments), false});
            }
            order.expression->binding = {distinct->aggregate_index, hidden[column]};
        }
        distinct->children.push_back(std::move(plan));
        plan = std::move(distinct);
    }
    if (!orders.empty()) {
        auto order = std::make_unique<LogicalOperator>(LogicalOperatorKind::Order);
        order->orders = std::move(orders);
        order->children.push_back(std::move(plan));
        plan = std::move(order);
    }
    scope_ = saved_scope;
    aggregate_ = saved_aggregate;
    from_plan_ = saved_from;
    window_ = saved_window;
    unnest_ = saved_unnest;
    if (select.limit || select.offset) {
        auto limit = std::make_unique<LogicalOperator>(LogicalOperatorKind::Limit);
        if (select.limit) {
            ExpressionPtr count = BindCountExpression(*select.limit, "LIMIT");
            if (count->kind == ExpressionKind::Constant) {
                limit->limit = CountOf(*count, *select.limit);
            } else {
                limit->limit_expression = std::move(count);
            }
        }
        if (select.offset) {
            ExpressionPtr count = BindCountExpression(*select.offset, "OFFSET");
            if (count->kind == ExpressionKind::Constant) {
                limit->offset = CountOf(*count, *select.offset).value_or(0);
            } else {
                limit->offset_expression = std::move(count);
            }
        }
        limit->children.push_back(std::move(plan));
        plan = std::move(limit);
    }
    if (plan->Bindings().size() > visible) {
        // Drop the hidden ORDER BY columns.
        std::vector<ExpressionPtr> outputs;
        auto bindings = plan->Bindings();
        for (size_t i = 0; i < visible; i++) {
            outputs.push_back(MakeBoundColumn(bindings[i], types[i]));
        }
        idx_t index = next_table_index_++;
        for (size_t i = 0; i < visible; i++) {
            binding_names_[{index, i}] = names[i];
        }
        plan = MakeProjection(index, std::move(outputs), std::move(plan));
    }
    query.plan = std::move(plan);
    return query;
}

LogicalOperatorPtr Binder::BindTable(const TableEntry& table, const TableRef& ref, Scope& scope) {
    auto function = std::make_shared<BoundTableFunction>();
    function->names = table.names;
    function->types = table.types;
    auto chunks = table.chunks;
    double rows = 0;
    for (const auto& chunk : *chunks) {
        rows += static_cast<double>(chunk->size());
    }
    function->estimated_rows = rows;
    auto types = table.types;
    std::shared_ptr<const ChunkSequence> sequence =
        std::make_shared<const ChunkListSequence>(chunks);
    function->make_source = [types, sequence](const std::vector<idx_t>& column_ids,
                                              const std::vector<TableFilter>&,
                                              const std::vector<LeafMask>&) {
        return std::make_shared<ChunkScanSource>(
            types, [sequence] { return sequence; }, column_ids);
    };
    return MakeGet(std::move(function), table.name, ref, scope);
}

} // namespace sluice
