#pragma once

#include "sql/ast.hpp"

#include <string_view>
#include <vector>

namespace sluice {

// How deeply expressions may nest (DuckDB's default max_expression_depth).
constexpr size_t kMaxExpressionDepth = 1000;

// Recursive-descent SQL parser. Precedence, lowest first: OR, AND, NOT, IS / comparison,
// ||, + -, * / // %, unary -, ::, primary.
class Parser {
public:
    explicit Parser(std::string_view text);
    std::vector<Statement> ParseStatements();

    // Parses a lone expression (used for settings and tests).
    ParsedExpressionPtr ParseSingleExpression();

private:
    Statement ParseStatement();
    // A whole query: [WITH ...] blocks joined by UNION, then ORDER BY / LIMIT / OFFSET.
    std::shared_ptr<SelectStatement> ParseQuery();
    std::shared_ptr<SelectStatement> ParseQueryBody();
    std::shared_ptr<SelectStatement> ParseQueryTerm();
    std::shared_ptr<SelectStatement> ParseSelectBlock();
    std::shared_ptr<SelectStatement> ParseValues();
    bool AtQueryStart(size_t ahead = 0) const;
    std::unique_ptr<TableRef> ParseFrom();
    // The GROUP BY list: expressions, ROLLUP (...), CUBE (...), GROUPING SETS (...).
    void ParseGroupBy(SelectStatement& select);
    std::unique_ptr<TableRef> ParseJoins();
    std::unique_ptr<TableRef> ParseTableRef();
    void ParseTableFunctionArguments(TableRef& ref);
    ParsedExpressionPtr ParseListLiteral(); // [a, b, ...]
    Statement ParseCreate();
    Statement ParseInsert();
    // (a, b, ...): the column list of INSERT INTO t (...) and COPY t (...) FROM.
    void ParseColumnNames(Statement& statement);
    Statement ParseDrop();
    std::string ParseObjectName();
    Statement ParseSet();
    Statement ParseReset();
    Statement ParseCopy();
    Statement ParseCall();                                 // CALL f(args) and PRAGMA name[(args)]
    std::shared_ptr<SelectStatement> SelectAllFromTable(); // a table name: SELECT * FROM it
    std::shared_ptr<SelectStatement> SelectAll(std::unique_ptr<TableRef> from,
                                               SourceLocation location);
    std::string ParseSettingName();

    ParsedExpressionPtr ParseExpression();
    ParsedExpressionPtr ParseOr();
    ParsedExpressionPtr ParseAnd();
    ParsedExpressionPtr ParseNot();
    ParsedExpressionPtr ParseComparison();
    ParsedExpressionPtr ParseConcat();
    ParsedExpressionPtr ParseAdditive();
    ParsedExpressionPtr ParseMultiplicative();
    ParsedExpressionPtr ParseUnary();
    ParsedExpressionPtr ParsePostfix();
    ParsedExpressionPtr ParsePrimary();
    ParsedExpressionPtr ParseCase(SourceLocation location);
    ParsedExpressionPtr ParseFunctionCall(std::string name, SourceLocation location);
    ParsedExpressionPtr ParseInterval(SourceLocation location);
    ParsedExpressionPtr ParseSubqueryExpression(SubqueryKind kind, SourceLocation location);
    // An aggregate call's FILTER (WHERE ...), if one follows.
    void AcceptFilter(ParsedExpression& function);
    // [IGNORE NULLS | RESPECT NULLS] OVER name | OVER (spec), if they follow a call.
    void AcceptOver(ParsedExpression& function);
    // Inside OVER (...) or WINDOW w AS (...): [base] [PARTITION BY] [ORDER BY] [frame].
    std::shared_ptr<WindowSpec> ParseWindowSpec(SourceLocation location);
    FrameBound ParseFrameBound();
    // WINDOW name AS (spec), ...
    void ParseWindowClause(SelectStatement& select);
    // Replaces references to named windows (OVER w, OVER (w ORDER BY ...)) in the SELECT list,
    // QUALIFY and ORDER BY by the specifications they name.
    void ResolveNamedWindows(SelectStatement& select) const;
    // expression [ASC | DESC] [NULLS FIRST | LAST]; ORDER BY ALL has no expression.
    OrderTerm ParseOrderTerm(bool expression_required);
    TypeName ParseTypeName();
    TypeName ParseBaseTypeName();
    ParsedExpressionPtr ParseSubscript(ParsedExpressionPtr operand);
    ParsedExpressionPtr ParseFunctionArgument();
    ParsedExpressionPtr ParseListValue();
    ParsedExpressionPtr ParseStructValue();
    ParsedExpressionPtr ParseMapValue(SourceLocation location);
    // The table function a quoted path in FROM stands for ("" for none).
    static std::string ReplacementScan(const std::string& path);
    std::string ParseAlias(bool require_as);

    const Token& Peek(size_t ahead = 0) const;
    Token Take();
    bool IsKeyword(const char* keyword, size_t ahead = 0) const;
    bool AcceptKeyword(const char* keyword);
    void ExpectKeyword(const char* keyword);
    bool IsOperator(const char* op, size_t ahead = 0) const;
    bool AcceptOperator(const char* op);
    void ExpectOperator(const char* op);
    [[noreturn]] void SyntaxError(const Token& token) const;
    [[noreturn]] void Fail(const std::string& message, SourceLocation location) const;

    static ParsedExpressionPtr MakeExpression(ParsedExpressionKind kind, SourceLocation location);
    static ParsedExpressionPtr MakeBinary(ParsedExpressionKind kind, std::string name,
                                          ParsedExpressionPtr left, ParsedExpressionPtr right,
                                          SourceLocation location);

    // Guards recursion so hostile input gets an error instead of a stack overflow.
    class DepthGuard {
    public:
        explicit DepthGuard(Parser& parser) : parser_(parser) {
            if (++parser_.depth_ > kMaxExpressionDepth) {
                parser_.Fail("expression nested too deeply (more than " +
                                 std::to_string(kMaxExpressionDepth) + " levels)",
                             parser_.Peek().location);
            }
        }
        ~DepthGuard() { parser_.depth_--; }

    private:
        Parser& parser_;
    };
    void CheckExpressionDepth(const ParsedExpression& expression) const;

    std::string_view text_;
    std::vector<Token> tokens_;
    size_t pos_ = 0;
    size_t depth_ = 0;
    size_t expression_nesting_ = 0; // ParseExpression calls in progress
    size_t question_marks_ = 0;     // ? parameters of the statement so far
};

// Words that cannot be used as bare column aliases or names.
bool IsReservedKeyword(const std::string& word);

} // namespace sluice
