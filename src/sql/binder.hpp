#pragma once

#include "common/exception.hpp"
#include "execution/expression.hpp"
#include "formats/csv/csv_writer.hpp"
#include "formats/parquet/parquet_writer.hpp"
#include "sql/ast.hpp"
#include "sql/catalog.hpp"
#include "sql/logical_operator.hpp"
#include "sql/materialized_cte.hpp"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sluice {

// "Did you mean" candidate: the closest of `candidates` within a third of the name's length.
std::string Suggest(const std::string& name, const std::vector<std::string>& candidates);

// A plan that runs before the query's own, in the order bound (a later one may read an earlier
// one): an uncorrelated scalar or EXISTS subquery filling `value`, or a CTE materialised into
// `cte` for every reference to scan.
struct Subplan {
    LogicalOperatorPtr plan;
    std::shared_ptr<SubqueryValue> value;
    LogicalType type;
    bool exists = false;
    std::shared_ptr<MaterializedCte> cte;
};

// A query with names resolved and types decided: a logical plan whose output bindings are the
// result columns, in order.
struct BoundQuery {
    LogicalOperatorPtr plan;
    std::vector<std::string> names;
    std::vector<LogicalType> types;
    std::vector<Subplan> subplans; // to run before `plan`
};

// COPY (select) TO 'path' (options), bound.
struct BoundCopy {
    BoundQuery query;
    std::string path;
    std::string format; // "parquet", "csv" or "arrow"
    parquet::ParquetWriteOptions options;
    csv::CsvWriteOptions csv_options;
    bool arrow_stream = false; // Arrow's IPC stream form rather than its file form
};

// Sets `slot` to `value` for a scope and puts the old value back when it ends, also when an
// error leaves it: the binder's context (which scope, aggregate, unnest applies) is saved so.
template <class T>
class ScopedValue {
public:
    ScopedValue(T& slot, T value) : slot_(slot), saved_(slot) { slot_ = std::move(value); }
    ~ScopedValue() { slot_ = std::move(saved_); }
    ScopedValue(const ScopedValue&) = delete;
    ScopedValue& operator=(const ScopedValue&) = delete;

private:
    T& slot_;
    T saved_;
};

// Resolves names and types and builds the logical plan. Errors name the offending expression's
// line and column. One binder per statement.
class Binder {
public:
    // `parameters`: the values of a prepared statement's $1, $2, ... (? counts in order).
    // `replacement`: asked for names that are no table, view or CTE.
    Binder(const Catalog& catalog, std::string_view query_text,
           const std::vector<Value>* parameters = nullptr,
           const ReplacementScan* replacement = nullptr)
        : catalog_(catalog), text_(query_text), parameters_(parameters), replacement_(replacement) {
    }

    BoundQuery BindStatementQuery(const SelectStatement& select);
    BoundCopy BindCopy(const Statement& statement);
    // The evaluated arguments of a table function call (CALL and PRAGMA use them directly).
    TableFunctionInput BindTableFunctionInput(const TableRef& ref);
    // Binds an expression that may not reference columns (SET values, function arguments).
    ExpressionPtr BindConstantExpression(const ParsedExpression& expression);
    // The value of an expression known before the statement runs, which therefore holds no
    // subquery (`what` names it in the error: "SET value", "Table function").
    Value EvaluateConstant(const ParsedExpression& expression, const char* what);

private:
    enum class LiteralOrigin : uint8_t { None, Integer, String };
    struct Bound {
        ExpressionPtr expression;
        LiteralOrigin origin = LiteralOrigin::None;
    };
    // The columns of one FROM item, as the query can name them.
    struct ScopeEntry {
        std::string alias;
        std::vector<std::string> names;
        std::vector<LogicalType> types;
        std::vector<ColumnBinding> bindings;
        std::vector<bool> hidden; // USING duplicates, skipped by *
    };
    struct Scope {
        std::vector<ScopeEntry> entries;
        const Scope* outer = nullptr; // the enclosing query's, to recognise correlation
    };
    // While binding the SELECT list, HAVING and ORDER BY of an aggregate query.
    struct AggregateContext {
        LogicalOperator* aggregate = nullptr;
        // The columns the aggregates' arguments see: the FROM clause's, also where a call
        // stands in a lambda's body, whose parameters are not columns of the groups.
        Scope* scope = nullptr;
        std::vector<std::string> keys; // the aggregates' text, to share equal calls
    };
    // While binding the SELECT list, QUALIFY and ORDER BY: the Window operators so far, one
    // per partitioning and order (keyed by it), and the text of each one's functions.
    struct WindowContext {
        Scope* scope = nullptr; // the columns the functions' arguments see (as AggregateContext)
        std::vector<std::pair<std::string, LogicalOperatorPtr>> operators;
        std::map<idx_t, std::vector<std::string>> texts;
    };
    // unnest(...) calls of a SELECT list: their lists, computed by one Unnest operator below
    // the projection.
    struct UnnestContext {
        LogicalOperatorPtr op;
        // The SELECT item being bound. Set when it is an unnest of a struct (only a whole item
        // may be): its fields become columns (recursively, for recursive := true).
        const ParsedExpression* item = nullptr;
        std::optional<bool> struct_unnest;
    };
    struct CteScope {
        std::map<std::string, const CommonTableExpression*> ctes;
        const CteScope* outer = nullptr;
    };

    BoundQuery BindQuery(const SelectStatement& select, const Scope* outer);
    BoundQuery BindSelectBlock(const SelectStatement& select, const Scope* outer);
    BoundQuery BindSetOperation(const SelectStatement& select, const Scope* outer);
    // EXCEPT and INTERSECT over `both` (the UNION ALL of the sides, each row tagged by a last
    // BOOLEAN column: false on the left, true on the right).
    LogicalOperatorPtr KeepBySide(const SelectStatement& select, LogicalOperatorPtr both,
                                  const std::vector<LogicalType>& types);
    BoundQuery BindValues(const SelectStatement& select, const Scope* outer);
    LogicalOperatorPtr BindTableRef(const TableRef& ref, Scope& scope);
    LogicalOperatorPtr BindTableFunction(const TableRef& ref, Scope& scope);
    // A scan of an in-memory table (of the catalog, or a replacement scan's).
    LogicalOperatorPtr BindTable(const TableEntry& table, const TableRef& ref, Scope& scope);
    // Both inputs of a join, bound, with the scope over both and the ON / USING condition.
    struct JoinInputs {
        LogicalOperatorPtr left;
        LogicalOperatorPtr right;
        ExpressionPtr condition;
        Scope scope;
        size_t left_entries = 0; // scope entries from the left input, then the right's
        // An inner join's inputs already joined, with the dependent joins of correlated
        // subqueries in its condition on top (the condition then filters it).
        LogicalOperatorPtr joined;
        // USING columns: each side's column (the left's and the right's hidden from
        // unqualified names in right and full joins, which show the merged column instead).
        struct UsingColumn {
            std::string name;
            ExpressionPtr left;
            ExpressionPtr right;
        };
        std::vector<UsingColumn> using_columns;
        // A lateral join: the left columns the right input reads, and (once flattened) the
        // dependent join's number and where the right input gives them back.
        std::vector<ColumnBinding> correlated;
        std::vector<LogicalType> correlated_types;
        idx_t delim_index = 0;
        std::vector<ColumnBinding> delim;
    };
    // The right input of a lateral join flattened (SubqueryFlattener); its scope's columns
    // renamed where the flattening moved them.
    void FlattenLateral(const TableRef& ref, JoinInputs& inputs, Scope& right_scope);
    // Right and full joins with USING: the join's columns and each USING column merged (the
    // right side's, or the first non-NULL of both), named by the unqualified name.
    LogicalOperatorPtr MergeUsingColumns(LogicalOperatorPtr join, JoinType type,
                                         JoinInputs& inputs);
    JoinInputs BindJoinInputs(const TableRef& ref, const Scope* outer);
    LogicalOperatorPtr BindJoin(const TableRef& ref, Scope& scope);
    LogicalOperatorPtr BindNamedTable(const TableRef& ref, Scope& scope);
    LogicalOperatorPtr MakeGet(std::shared_ptr<BoundTableFunction> function, std::string name,
                               const TableRef& ref, Scope& scope);
    void AddScopeEntry(Scope& scope, const std::string& alias, const BoundQuery& query,
                       const TableRef& ref);
    // alias(a, b, ...) may not name more columns than there are.
    void CheckColumnAliases(const TableRef& ref, size_t columns) const;
    void ApplyOrderAndLimit(const SelectStatement& select, BoundQuery& query,
                            const std::vector<const ParsedExpression*>& select_items,
                            std::vector<ExpressionPtr>* pre_projection, bool distinct);

    Bound Bind(const ParsedExpression& expression);
    Bound BindConstant(const ParsedExpression& expression);
    Bound BindParameter(const ParsedExpression& expression);
    Bound BindColumn(const ParsedExpression& expression);
    Bound BindColumnName(const ParsedExpression& expression);
    // list_value, struct_pack, map and element access (x[i], s.field); nullopt for other names.
    std::optional<Bound> BindNestedCall(const ParsedExpression& expression);
    Bound BindUnnest(const ParsedExpression& expression);
    // The fields of STRUCT `expression` as (expression, name) columns; with `recursive`, fields
    // that are structs are expanded in turn.
    void ExpandStruct(ExpressionPtr expression, bool recursive,
                      std::vector<std::pair<ExpressionPtr, std::string>>& columns);
    // Binds `expression` with only `scope` visible, outside any unnest or FROM context, and
    // outside any aggregate or window context unless `query_functions` (a lambda's body, where
    // sum(v) or rank() OVER (...) are the query's); the binder's own context comes back however
    // the binding ends.
    Bound BindIsolated(const ParsedExpression& expression, Scope& scope,
                       bool query_functions = false);
    enum class ListLambda : uint8_t { Transform, Filter, Reduce };
    // list_transform, list_filter and list_reduce: a list, a lambda and (list_reduce) an
    // initial value.
    Bound BindLambdaCall(const ParsedExpression& expression, ListLambda kind);
    // The body of `lambda`, whose parameters (of types `parameters`) become columns 0.. of the
    // chunk it will run on. Columns of the query it reads (captures) become the columns after
    // them; their expressions go to `captures`, to be passed as the function's further
    // arguments, so each element sees its own row's values.
    std::shared_ptr<const Expression> BindLambda(const ParsedExpression& lambda,
                                                 const std::vector<LogicalType>& parameters,
                                                 std::vector<ExpressionPtr>& captures);
    // The field of STRUCT `type` named `field` (case-insensitive), or a binder error.
    idx_t FieldIndex(const LogicalType& type, const std::string& field, SourceLocation location);
    // base.f1.f2...: fields of nested structs.
    Bound BindFieldPath(Bound base, const std::vector<std::string>& fields,
                        SourceLocation location);
    Bound BindCast(const ParsedExpression& expression);
    Bound BindFunction(const ParsedExpression& expression);
    Bound BindAggregate(const ParsedExpression& expression);
    // A window function's arguments in its parameters' order (named ones put in place).
    std::vector<const ParsedExpression*> WindowArgumentsInOrder(const ParsedExpression& expression,
                                                                const std::string& name) const;
    // An aggregate's arguments read columns, all of them of enclosing queries (none of `scope`).
    static bool ReadsOnlyOuterColumns(const std::vector<ExpressionPtr>& arguments,
                                      const Scope& scope);
    // The aggregate `name` for argument `types`, `arguments` cast to what it takes (an error
    // naming the types when none fits), and whether DISTINCT applies (not to min and max).
    struct ResolvedAggregate {
        AggregateFunction function;
        bool distinct;
    };
    ResolvedAggregate ResolveAggregate(const std::string& name,
                                       const std::vector<LogicalType>& types,
                                       std::vector<ExpressionPtr>& arguments, bool distinct,
                                       SourceLocation location);
    // current_date (a DATE) or current_timestamp / now() (a TIMESTAMP WITH TIME ZONE): when
    // the statement began, the same everywhere in it.
    ExpressionPtr CurrentTime(bool date_only);
    // f(...) OVER (...): a column of the Window operator for its partitioning and order.
    Bound BindWindow(const ParsedExpression& expression);
    // A window's argument, key or offset: over the rows after GROUP BY, if any.
    ExpressionPtr BindWindowInput(const ParsedExpression& expression);
    void BindWindowFrame(const WindowSpec& spec, const std::vector<BoundOrder>& orders,
                         BoundWindow& window);
    // grouping(k1, ...) / grouping_id: a bit per argument (the last is bit 0), set where the
    // grouping set leaves that key out.
    Bound BindGrouping(const ParsedExpression& expression, std::vector<ExpressionPtr> arguments);
    Bound BindOperator(const ParsedExpression& expression);
    Bound BindComparison(const ParsedExpression& expression);
    Bound BindLogical(const ParsedExpression& expression);
    Bound BindBetween(const ParsedExpression& expression);
    Bound BindInList(const ParsedExpression& expression);
    Bound BindLike(const ParsedExpression& expression);
    Bound BindCase(const ParsedExpression& expression);
    Bound BindInterval(const ParsedExpression& expression);
    Bound BindSubquery(const ParsedExpression& expression);
    // How an expression uses a scalar or EXISTS subquery: its value, or whether it has rows;
    // negated or not.
    struct SubqueryUse {
        bool exists = false;
        bool negated = false;
        SourceLocation location;
    };
    // A subquery that reads columns of the query around it, flattened into a dependent join
    // (SubqueryFlattener) on the current FROM plan.
    Bound BindCorrelatedSubquery(const SubqueryUse& use, BoundQuery query);
    // A scalar or EXISTS subquery computed once, before the query (a Subplan).
    Bound BindUncorrelatedSubquery(const SubqueryUse& use, BoundQuery query);
    // x IN / op ANY / op ALL (subquery) where no mark join can do: as an aggregate subquery.
    Bound BindQuantifiedComparison(const ParsedExpression& expression, BoundQuery query);
    ExpressionPtr BindComparisonOf(const std::string& op, Bound left, Bound right,
                                   SourceLocation location);
    void ComparePlainDates(std::vector<ExpressionPtr>& arguments, LogicalType& type);
    ExpressionPtr BindBoolean(const ParsedExpression& expression, const char* clause);
    // LIMIT's or OFFSET's count: a constant, or an expression of uncorrelated subqueries whose
    // value is known when the query runs.
    ExpressionPtr BindCountExpression(const ParsedExpression& expression, const char* clause);
    std::optional<uint64_t> CountOf(const Expression& count, const ParsedExpression& expression);
    ExpressionPtr CastTo(ExpressionPtr expression, const LogicalType& type);
    // The type every argument can be brought to (NULL alone: INTEGER); an error naming
    // `function` when there is none.
    LogicalType CommonTypeOf(const std::vector<ExpressionPtr>& arguments,
                             const std::string& function, SourceLocation location);
    // Lets integer and string literals take the type of the other operand, as DuckDB does.
    void AdaptLiterals(Bound& left, Bound& right, bool strings_too);
    ExpressionPtr Fold(ExpressionPtr expression);
    // Replaces subexpressions equal to GROUP BY keys by references to them, and rejects columns
    // that are neither grouped nor aggregated.
    ExpressionPtr ReplaceGroupKeys(ExpressionPtr expression, SourceLocation location);
    std::string NameOf(ColumnBinding binding) const;
    // NATURAL JOIN's columns: the names (case-insensitive, not hidden) both sides have, in the
    // left side's order; an error naming the candidates when there are none.
    std::vector<std::string> CommonColumnNames(const Scope& left, const Scope& right,
                                               SourceLocation location);
    [[noreturn]] void Fail(ErrorKind kind, const std::string& message,
                           SourceLocation location) const;
    [[noreturn]] void Relocate(const Exception& error, SourceLocation location) const;

    const Catalog& catalog_;
    std::string_view text_;
    const std::vector<Value>* parameters_;
    const ReplacementScan* replacement_;
    idx_t next_table_index_ = 0;
    size_t unnamed_subqueries_ = 0; // derived tables without an alias so far
    Scope* scope_ = nullptr;
    AggregateContext* aggregate_ = nullptr;
    WindowContext* window_ = nullptr;
    UnnestContext* unnest_ = nullptr;
    const char* no_windows_reason_ = "window functions are not allowed here";
    // Set where subqueries cannot be (their values are known only when the statement runs).
    const char* no_subqueries_reason_ = nullptr;
    // Why aggregates are not allowed where binding happens now, for the error message.
    const char* no_aggregates_reason_ = "aggregate function calls cannot be used here";
    // Where an IN (subquery) attaches its mark join: the current FROM plan.
    LogicalOperatorPtr* from_plan_ = nullptr;
    const CteScope* ctes_ = nullptr;
    std::vector<Subplan> subplans_; // of the whole statement, however deeply nested
    // CTEs computed once: null until the first reference binds the CTE's query.
    std::map<const CommonTableExpression*, std::shared_ptr<MaterializedCte>> materialized_;
    std::map<std::pair<idx_t, idx_t>, std::string> binding_names_;
    int view_depth_ = 0;
    std::optional<int64_t> statement_start_; // microseconds since 1970, once asked for
};

} // namespace sluice
