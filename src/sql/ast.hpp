#pragma once

#include "sql/token.hpp"

#include <memory>
#include <string>
#include <vector>

namespace sluice {

// A type as written in SQL: a name and optional modifiers, e.g. DECIMAL(12, 2).
struct TypeName {
    std::string name; // upper-cased
    std::vector<int64_t> modifiers;
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
    Cast, // children[0] AS cast_type
    List, // [children...], in table function arguments
};

enum class LiteralKind : uint8_t { Integer, Decimal, Float, String, Null, Boolean };

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

    // The column name DuckDB would derive for this expression, e.g. "(1 + 2)".
    std::string ToString() const;
};

using ParsedExpressionPtr = std::unique_ptr<ParsedExpression>;

struct TableRef {
    std::string name; // table function name
    std::vector<ParsedExpressionPtr> arguments;
    std::vector<std::pair<std::string, ParsedExpressionPtr>> named_arguments; // name = value
    std::string alias;
    SourceLocation location;
};

struct SelectStatement {
    std::vector<ParsedExpressionPtr> select_list;
    std::unique_ptr<TableRef> from;
    ParsedExpressionPtr where;
    ParsedExpressionPtr limit;
    ParsedExpressionPtr offset;
};

enum class StatementKind : uint8_t { Select, Describe, Set, Reset, Copy };

// An option of COPY ... TO ... (NAME value, ...); a bare NAME means true.
struct CopyOption {
    std::string name; // lower-cased
    ParsedExpressionPtr value;
    SourceLocation location;
};

struct Statement {
    StatementKind kind = StatementKind::Select;
    std::string text;                        // this statement's own SQL text
    std::unique_ptr<SelectStatement> select; // SELECT, DESCRIBE
    std::string setting_name;                // SET/RESET
    ParsedExpressionPtr value;               // SET
    std::string copy_path;                   // COPY (select) TO 'path' (options)
    std::vector<CopyOption> copy_options;
    SourceLocation location;
};

} // namespace sluice
