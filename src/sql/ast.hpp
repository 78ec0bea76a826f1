#pragma once

#include "execution/window_function.hpp"
#include "sql/token.hpp"

#include <memory>
#include <string>
#include <vector>

namespace sluice {

// A type as written in SQL: a name and optional modifiers, e.g. DECIMAL(12, 2).
struct TypeNameField;

struct TypeName {
    std::string name; // upper-cased; LIST (written T[]), STRUCT and MAP for nested types
    std::vector<int64_t> modifiers;
    // LIST: the element; STRUCT: its fields, named; MAP: the key and the value.
    std::vector<TypeNameField> children;
};

struct TypeNameField {
    std::string name;
    TypeName type;
};

enum class ParsedExpressionKind : uint8_t {
    Constant,   // literal_kind + text
    ColumnRef,  // names
    Star,       // *
    Function,   // name(children)
    Operator,   // name is the operator symbol: binary + - * / // % ||, unary -
    Comparison, // name is = != < <= > >=
    And,
    Or,
    Not,
    IsNull,
    IsNotNull,
    Cast,      // children[0] AS cast_type
    List,      // [children...], in table function arguments
    Between,   // children[0] [NOT] BETWEEN children[1] AND children[2]
    InList,    // children[0] [NOT] IN (children[1..])
    Like,      // children[0] [NOT] LIKE|ILIKE children[1]; text is LIKE or ILIKE
    Case,      // children: when, then, when, then, ..., [else]
    Interval,  // INTERVAL 'text' unit: children[0] the quantity, text the unit (lower-case)
    Subquery,  // subquery_kind over `subquery`; IN, ANY and ALL have children[0] the operand
    Lambda,    // names[0] -> children[0], an argument of list_transform and list_filter
    Parameter, // a prepared statement's ? or $n: `parameter` is n (1-based)
};

// x op ANY (subquery) is true when x op v holds for some row v, x op ALL (...) when for every
// one; x IN (subquery) is x = ANY (subquery). `text` of a quantified comparison is its operator.
enum class SubqueryKind : uint8_t { Scalar, Exists, In, Any, All };

struct SelectStatement;
struct WindowSpec;
struct OrderTerm;

enum class LiteralKind : uint8_t { Integer, Decimal, Float, String, Null, Boolean };

// How a function call was written, for the column name DuckDB derives: [1, 2] is list_value(1, 2)
// named "main.list_value(1, 2)", x[1] is array_extract(x, 1) named "x[1]".
enum class CallSyntax : uint8_t {
    Call,
    ListLiteral,   // [a, b]
    StructLiteral, // {'a': x}
    MapLiteral,    // MAP {k: v}
    Subscript,     // x[i]
    Slice,         // x[a:b]
    FieldAccess,   // (x).field
    LambdaKeyword, // lambda x, i: body (the arrow form x -> body is Call)
};

// Parsed, unbound expression. One struct for all kinds keeps the parser small; the binder
// turns it into typed Expressions.
struct ParsedExpression {
    ParsedExpressionKind kind = ParsedExpressionKind::Constant;
    SourceLocation location;
    std::string alias;

    LiteralKind literal_kind = LiteralKind::Null;
    std::string text; // literal text, or function/operator name

    std::vector<std::string> names; // column reference parts
    TypeName cast_type;
    std::vector<std::unique_ptr<ParsedExpression>> children;
    bool negated = false;      // NOT BETWEEN, NOT IN, NOT LIKE, NOT EXISTS
    bool distinct = false;     // count(DISTINCT x)
    bool has_else = false;     // CASE ... ELSE
    bool from_extract = false; // date_part written as EXTRACT(part FROM x), named differently
    bool omitted = false;      // a slice's left-out bound (x[:b]), printed as nothing
    SubqueryKind subquery_kind = SubqueryKind::Scalar;
    std::shared_ptr<SelectStatement> subquery;
    std::string subquery_text; // ANY / ALL: the subquery's own text (`text` is the operator)
    std::shared_ptr<ParsedExpression> filter; // an aggregate's FILTER (WHERE ...) condition
    std::shared_ptr<WindowSpec> window;       // f(...) OVER (...): a window function
    // agg(x ORDER BY k): the order an aggregate sees its rows in (immutable once parsed).
    std::shared_ptr<const std::vector<OrderTerm>> order_by;
    bool ignore_nulls = false; // f(x IGNORE NULLS) OVER (...)
    size_t parameter = 0;      // Parameter
    CallSyntax call_syntax = CallSyntax::Call;

    // DuckDB's text of this expression, e.g. "(1 + 2)" or "t.\"name\"".
    std::string ToString() const;
    // The column name DuckDB derives for this expression as a SELECT item: a column's (or a
    // struct field's) own name, else its text.
    std::string ColumnName() const;
};

using ParsedExpressionPtr = std::unique_ptr<ParsedExpression>;

// A deep copy (subqueries are shared: they are immutable once parsed).
ParsedExpressionPtr CloneExpression(const ParsedExpression& expression);

enum class TableRefKind : uint8_t { TableFunction, Table, Subquery, Join };
enum class JoinType : uint8_t { Inner, Left, Right, Full, Semi, Anti, Cross };

struct TableRef {
    TableRefKind kind = TableRefKind::Table;
    std::string name; // table function, table, view or CTE name
    std::vector<ParsedExpressionPtr> arguments;
    std::vector<std::pair<std::string, ParsedExpressionPtr>> named_arguments; // name = value
    // name = {'key': value, ...}, as read_csv's columns and types
    std::vector<std::pair<std::string, std::vector<std::pair<std::string, ParsedExpressionPtr>>>>
        named_structs;
    std::string alias;
    std::vector<std::string> column_aliases; // alias(a, b): renames the first columns
    SourceLocation location;

    std::shared_ptr<SelectStatement> subquery; // Subquery
    JoinType join_type = JoinType::Inner;      // Join: left and right, ON or USING
    std::unique_ptr<TableRef> left;
    std::unique_ptr<TableRef> right;
    ParsedExpressionPtr condition;
    std::vector<std::string> using_columns;
    bool natural = false; // NATURAL: USING every column name both sides have
};

struct OrderTerm {
    ParsedExpressionPtr expression;
    bool descending = false;
    // Unset: DuckDB's default, NULLS LAST.
    bool nulls_first = false;
    // Written out (ASC, NULLS ...): DuckDB's names of aggregates show them as written.
    bool asc_written = false;
    bool nulls_written = false;
};

struct FrameBound {
    FrameBoundKind kind = FrameBoundKind::UnboundedPreceding;
    std::shared_ptr<ParsedExpression> offset; // Preceding and Following
};

// OVER ([base] [PARTITION BY ...] [ORDER BY ...] [frame]). Unsaid, the frame is RANGE BETWEEN
// UNBOUNDED PRECEDING AND CURRENT ROW (the whole partition without ORDER BY).
struct WindowSpec {
    std::string base;        // a named window this one extends (WINDOW w AS (...)), or empty
    bool whole_base = false; // OVER name: the named window as it is, its frame too
    std::vector<ParsedExpressionPtr> partitions;
    std::vector<OrderTerm> orders;
    bool has_frame = false;
    FrameUnit unit = FrameUnit::Range;
    FrameBound start;
    FrameBound end{FrameBoundKind::CurrentRow, nullptr};
    FrameExclude exclude = FrameExclude::NoOthers;
    SourceLocation location;

    // DuckDB's text of the clause, for the column name: "PARTITION BY a ORDER BY b".
    std::string ToString() const;
};

// WITH name AS [NOT] MATERIALIZED (...); unsaid, a CTE is materialised when named more than once.
enum class CteMaterialization : uint8_t { Auto, Always, Never };

struct CommonTableExpression {
    std::string name;
    std::vector<std::string> column_names;
    std::shared_ptr<SelectStatement> query;
    CteMaterialization materialization = CteMaterialization::Auto;
};

// How often `name` appears as a table in `select` (its subqueries, joins, CTE bodies and UNION
// branches included). Shadowing is ignored: it can only overcount.
size_t CountTableReferences(const SelectStatement& select, const std::string& name);

enum class QueryKind : uint8_t { Select, Union, Except, Intersect, Values };

// A query: a SELECT block, VALUES rows, or a set operation (UNION, EXCEPT, INTERSECT, each
// [ALL]) of two queries, with its own WITH, ORDER BY and LIMIT.
struct SelectStatement {
    QueryKind kind = QueryKind::Select;
    std::vector<CommonTableExpression> ctes;

    bool distinct = false;
    std::vector<ParsedExpressionPtr> select_list;
    std::unique_ptr<TableRef> from;
    ParsedExpressionPtr where;
    std::vector<ParsedExpressionPtr> group_by;
    bool group_by_all = false; // GROUP BY ALL: every SELECT item without an aggregate
    // GROUPING SETS, ROLLUP, CUBE: the sets of `group_by` entries (by index) grouped by, one
    // result part each. Empty: one set of every entry.
    std::vector<std::vector<size_t>> grouping_sets;
    ParsedExpressionPtr having;
    // WINDOW name AS (...), in order; OVER name or OVER (name ...) refers to them.
    std::vector<std::pair<std::string, std::shared_ptr<WindowSpec>>> windows;
    ParsedExpressionPtr qualify; // QUALIFY: a filter over window function results

    bool all = false; // set operations (of left and right): ALL keeps duplicates
    std::shared_ptr<SelectStatement> left;
    std::shared_ptr<SelectStatement> right;

    std::vector<std::vector<ParsedExpressionPtr>> values; // Values: rows

    // ORDER BY ALL: one term without an expression, whose direction applies to every column.
    std::vector<OrderTerm> order_by;
    bool order_by_all = false;
    ParsedExpressionPtr limit;
    ParsedExpressionPtr offset;
    SourceLocation location;
};

enum class StatementKind : uint8_t {
    Select,
    Describe,  // DESCRIBE select | table, SHOW table
    Summarize, // SUMMARIZE select | table: query_text holds the summarized query
    Set,
    Reset,
    Copy,        // COPY (select) | table TO 'path' (options)
    CopyFrom,    // COPY table [(columns)] FROM 'path' (options)
    Call,        // CALL function(args): select holds SELECT * FROM function(args)
    Pragma,      // PRAGMA name[(args)]: select holds SELECT * FROM name(args)
    CreateTable, // CREATE [OR REPLACE] TABLE name AS select | (columns)
    CreateView,  // CREATE [OR REPLACE] VIEW name AS select
    Insert,      // INSERT INTO name select|VALUES
    Drop,        // DROP TABLE|VIEW [IF EXISTS] name
    Explain,     // EXPLAIN [ANALYZE] select
};

struct ColumnDefinition {
    std::string name;
    TypeName type;
};

// An option of COPY ... TO ... (NAME value, ...); a bare NAME means true.
struct CopyOption {
    std::string name; // lower-cased
    ParsedExpressionPtr value;
    SourceLocation location;
};

struct Statement {
    StatementKind kind = StatementKind::Select;
    std::string text;                        // this statement's own SQL text
    std::shared_ptr<SelectStatement> select; // SELECT, DESCRIBE, CREATE ... AS, INSERT, EXPLAIN
    std::string setting_name;                // SET/RESET
    ParsedExpressionPtr value;               // SET
    std::string copy_path;                   // COPY (select) TO 'path' (options)
    std::vector<CopyOption> copy_options;
    std::string object_name; // CREATE / INSERT / DROP
    bool or_replace = false;
    bool if_exists = false;     // DROP ... IF EXISTS
    bool if_not_exists = false; // CREATE ... IF NOT EXISTS
    bool drop_view = false;
    bool analyze = false;                  // EXPLAIN ANALYZE
    std::vector<ColumnDefinition> columns; // CREATE TABLE name (columns)
    std::string query_text;                // SUMMARIZE
    SourceLocation location;
};

} // namespace sluice
