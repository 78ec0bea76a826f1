#include "sql/parser.hpp"

#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "sql/lexer.hpp"

#include <algorithm>
#include <cctype>
#include <set>

namespace sluice {

namespace {

ParsedExpressionPtr MakeExpression(ParsedExpressionKind kind, SourceLocation location) {
    auto expression = std::make_unique<ParsedExpression>();
    expression->kind = kind;
    expression->location = location;
    return expression;
}

ParsedExpressionPtr MakeBinary(ParsedExpressionKind kind, std::string name,
                               ParsedExpressionPtr left, ParsedExpressionPtr right,
                               SourceLocation location) {
    auto expression = MakeExpression(kind, location);
    expression->text = std::move(name);
    expression->children.push_back(std::move(left));
    expression->children.push_back(std::move(right));
    return expression;
}

} // namespace

bool IsReservedKeyword(const std::string& word) {
    static const std::set<std::string> kReserved = {
        "ALL",    "AND",      "AS",        "ASC",  "BETWEEN", "BY",      "CASE",   "CAST",
        "DESC",   "DISTINCT", "ELSE",      "END",  "EXCEPT",  "FALSE",   "FROM",   "GROUP",
        "HAVING", "IN",       "INTERSECT", "IS",   "JOIN",    "LIKE",    "LIMIT",  "NOT",
        "NULL",   "OFFSET",   "ON",        "OR",   "ORDER",   "QUALIFY", "SELECT", "THEN",
        "TRUE",   "UNION",    "USING",     "WHEN", "WHERE",   "WINDOW",  "WITH",
    };
    return kReserved.count(Upper(word)) > 0;
}

class Parser::DepthGuard {
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

// Operator chains such as 1+1+...+1 are parsed by loops, not recursion, but still build deep
// trees that later passes walk recursively; measure them without recursing.
void Parser::CheckExpressionDepth(const ParsedExpression& expression) const {
    std::vector<std::pair<const ParsedExpression*, size_t>> stack = {{&expression, 1}};
    while (!stack.empty()) {
        auto [node, depth] = stack.back();
        stack.pop_back();
        if (depth > kMaxExpressionDepth) {
            Fail("expression nested too deeply (more than " + std::to_string(kMaxExpressionDepth) +
                     " levels)",
                 node->location);
        }
        for (const auto& child : node->children) {
            stack.emplace_back(child.get(), depth + 1);
        }
    }
}

Parser::Parser(std::string_view text) : text_(text) {
    tokens_ = Lexer(text).Tokenize();
}

const Token& Parser::Peek(size_t ahead) const {
    size_t index = std::min(pos_ + ahead, tokens_.size() - 1);
    return tokens_[index];
}

Token Parser::Take() {
    Token token = Peek();
    if (pos_ < tokens_.size() - 1) {
        pos_++;
    }
    return token;
}

bool Parser::IsKeyword(const char* keyword, size_t ahead) const {
    const Token& token = Peek(ahead);
    return token.type == TokenType::Identifier && Upper(token.text) == keyword;
}

bool Parser::AcceptKeyword(const char* keyword) {
    if (IsKeyword(keyword)) {
        Take();
        return true;
    }
    return false;
}

void Parser::ExpectKeyword(const char* keyword) {
    if (!AcceptKeyword(keyword)) {
        SyntaxError(Peek());
    }
}

bool Parser::IsOperator(const char* op, size_t ahead) const {
    const Token& token = Peek(ahead);
    return token.type == TokenType::Operator && token.text == op;
}

bool Parser::AcceptOperator(const char* op) {
    if (IsOperator(op)) {
        Take();
        return true;
    }
    return false;
}

void Parser::ExpectOperator(const char* op) {
    if (!AcceptOperator(op)) {
        SyntaxError(Peek());
    }
}

void Parser::Fail(const std::string& message, SourceLocation location) const {
    throw Exception(ErrorKind::Parser, message + " at line " + std::to_string(location.line) +
                                           ", column " + std::to_string(location.column) +
                                           DescribeLocation(text_, location));
}

void Parser::SyntaxError(const Token& token) const {
    if (token.type == TokenType::EndOfInput) {
        Fail("syntax error at end of input", token.location);
    }
    std::string shown = token.type == TokenType::String ? "'" + token.text + "'" : token.text;
    Fail("syntax error at or near \"" + shown + "\"", token.location);
}

std::vector<Statement> Parser::ParseStatements() {
    std::vector<Statement> statements;
    while (true) {
        while (AcceptOperator(";")) {
        }
        if (Peek().type == TokenType::EndOfInput) {
            return statements;
        }
        size_t start = Peek().location.offset;
        Statement statement = ParseStatement();
        if (!IsOperator(";") && Peek().type != TokenType::EndOfInput) {
            SyntaxError(Peek());
        }
        size_t end = Peek().location.offset;
        statement.text = std::string(text_.substr(start, end - start));
        statements.push_back(std::move(statement));
    }
}

Statement Parser::ParseStatement() {
    SourceLocation location = Peek().location;
    Statement statement;
    if (IsKeyword("SELECT")) {
        statement.kind = StatementKind::Select;
        statement.select = ParseSelect();
    } else if (IsKeyword("DESCRIBE")) {
        Take();
        statement.kind = StatementKind::Describe;
        statement.select = ParseSelect();
    } else if (IsKeyword("SET")) {
        statement = ParseSet();
    } else if (IsKeyword("RESET")) {
        statement = ParseReset();
    } else if (IsKeyword("COPY")) {
        statement = ParseCopy();
    } else {
        SyntaxError(Peek());
    }
    statement.location = location;
    return statement;
}

std::string Parser::ParseSettingName() {
    const Token& token = Peek();
    if (token.type != TokenType::Identifier && token.type != TokenType::QuotedIdentifier) {
        SyntaxError(token);
    }
    std::string name = Take().text;
    for (char& c : name) {
        c = static_cast<char>(std::tolower((unsigned char)c));
    }
    return name;
}

Statement Parser::ParseSet() {
    ExpectKeyword("SET");
    // SET [SESSION|GLOBAL] name = value | SET name TO value
    if (IsKeyword("SESSION") || IsKeyword("GLOBAL")) {
        if (Peek(1).type == TokenType::Identifier) {
            Take();
        }
    }
    Statement statement;
    statement.kind = StatementKind::Set;
    statement.setting_name = ParseSettingName();
    if (!AcceptOperator("=") && !AcceptKeyword("TO")) {
        SyntaxError(Peek());
    }
    statement.value = ParseExpression();
    return statement;
}

Statement Parser::ParseReset() {
    ExpectKeyword("RESET");
    if (IsKeyword("SESSION") || IsKeyword("GLOBAL")) {
        if (Peek(1).type == TokenType::Identifier) {
            Take();
        }
    }
    Statement statement;
    statement.kind = StatementKind::Reset;
    statement.setting_name = ParseSettingName();
    return statement;
}

Statement Parser::ParseCopy() {
    ExpectKeyword("COPY");
    Statement statement;
    statement.kind = StatementKind::Copy;
    ExpectOperator("(");
    statement.select = ParseSelect();
    ExpectOperator(")");
    ExpectKeyword("TO");
    if (Peek().type != TokenType::String) {
        SyntaxError(Peek());
    }
    statement.copy_path = Take().text;
    if (AcceptOperator("(")) {
        do {
            CopyOption option;
            option.location = Peek().location;
            if (Peek().type != TokenType::Identifier) {
                SyntaxError(Peek());
            }
            option.name = Lower(Take().text);
            if (!IsOperator(",") && !IsOperator(")")) {
                if (Peek().type == TokenType::Identifier && !IsReservedKeyword(Peek().text)) {
                    // FORMAT parquet, COMPRESSION zstd: a bare word is a string value.
                    auto word = std::make_unique<ParsedExpression>();
                    word->kind = ParsedExpressionKind::Constant;
                    word->literal_kind = LiteralKind::String;
                    word->location = Peek().location;
                    word->text = Take().text;
                    option.value = std::move(word);
                } else {
                    option.value = ParseExpression();
                }
            }
            statement.copy_options.push_back(std::move(option));
        } while (AcceptOperator(","));
        ExpectOperator(")");
    }
    return statement;
}

std::unique_ptr<SelectStatement> Parser::ParseSelect() {
    ExpectKeyword("SELECT");
    auto select = std::make_unique<SelectStatement>();
    do {
        auto expression = ParseExpression();
        std::string alias = ParseAlias(false);
        if (!alias.empty()) {
            expression->alias = alias;
        }
        select->select_list.push_back(std::move(expression));
    } while (AcceptOperator(","));
    if (AcceptKeyword("FROM")) {
        select->from = ParseTableRef();
    }
    if (AcceptKeyword("WHERE")) {
        select->where = ParseExpression();
    }
    if (AcceptKeyword("LIMIT")) {
        select->limit = ParseExpression();
    }
    if (AcceptKeyword("OFFSET")) {
        select->offset = ParseExpression();
    }
    return select;
}

std::unique_ptr<TableRef> Parser::ParseTableRef() {
    auto ref = std::make_unique<TableRef>();
    ref->location = Peek().location;
    if (Peek().type != TokenType::Identifier || IsReservedKeyword(Peek().text)) {
        SyntaxError(Peek());
    }
    ref->name = Take().text;
    for (char& c : ref->name) {
        c = static_cast<char>(std::tolower((unsigned char)c));
    }
    ExpectOperator("(");
    if (!IsOperator(")")) {
        do {
            // name = value is a named parameter (filename = true), as in DuckDB.
            if (Peek().type == TokenType::Identifier && IsOperator("=", 1) &&
                !IsReservedKeyword(Peek().text)) {
                std::string name = Lower(Take().text);
                Take();
                ref->named_arguments.emplace_back(name, ParseExpression());
                continue;
            }
            if (IsOperator("[")) {
                auto list = MakeExpression(ParsedExpressionKind::List, Take().location);
                if (!IsOperator("]")) {
                    do {
                        list->children.push_back(ParseExpression());
                    } while (AcceptOperator(","));
                }
                ExpectOperator("]");
                ref->arguments.push_back(std::move(list));
                continue;
            }
            ref->arguments.push_back(ParseExpression());
        } while (AcceptOperator(","));
    }
    ExpectOperator(")");
    ref->alias = ParseAlias(false);
    return ref;
}

std::string Parser::ParseAlias(bool require_as) {
    bool has_as = AcceptKeyword("AS");
    const Token& token = Peek();
    if (token.type == TokenType::QuotedIdentifier ||
        (token.type == TokenType::Identifier && !IsReservedKeyword(token.text))) {
        return Take().text;
    }
    if (has_as) {
        // AS may be followed by a reserved word only when quoted.
        SyntaxError(token);
    }
    if (require_as) {
        SyntaxError(token);
    }
    return "";
}

ParsedExpressionPtr Parser::ParseSingleExpression() {
    auto expression = ParseExpression();
    if (Peek().type != TokenType::EndOfInput) {
        SyntaxError(Peek());
    }
    return expression;
}

ParsedExpressionPtr Parser::ParseExpression() {
    DepthGuard guard(*this);
    auto expression = ParseOr();
    if (depth_ == 1) {
        CheckExpressionDepth(*expression);
    }
    return expression;
}

ParsedExpressionPtr Parser::ParseOr() {
    auto left = ParseAnd();
    while (IsKeyword("OR")) {
        SourceLocation location = Take().location;
        left = MakeBinary(ParsedExpressionKind::Or, "OR", std::move(left), ParseAnd(), location);
    }
    return left;
}

ParsedExpressionPtr Parser::ParseAnd() {
    auto left = ParseNot();
    while (IsKeyword("AND")) {
        SourceLocation location = Take().location;
        left = MakeBinary(ParsedExpressionKind::And, "AND", std::move(left), ParseNot(), location);
    }
    return left;
}

ParsedExpressionPtr Parser::ParseNot() {
    DepthGuard guard(*this);
    if (IsKeyword("NOT")) {
        SourceLocation location = Take().location;
        auto expression = MakeExpression(ParsedExpressionKind::Not, location);
        expression->children.push_back(ParseNot());
        return expression;
    }
    return ParseComparison();
}

ParsedExpressionPtr Parser::ParseComparison() {
    auto left = ParseConcat();
    while (true) {
        const Token& token = Peek();
        if (IsKeyword("IS")) {
            SourceLocation location = Take().location;
            bool negated = AcceptKeyword("NOT");
            ExpectKeyword("NULL");
            auto expression = MakeExpression(
                negated ? ParsedExpressionKind::IsNotNull : ParsedExpressionKind::IsNull, location);
            expression->children.push_back(std::move(left));
            left = std::move(expression);
            continue;
        }
        if (token.type != TokenType::Operator) {
            return left;
        }
        std::string op = token.text;
        if (op == "==") {
            op = "=";
        } else if (op == "<>") {
            op = "!=";
        }
        if (op != "=" && op != "!=" && op != "<" && op != "<=" && op != ">" && op != ">=") {
            return left;
        }
        SourceLocation location = Take().location;
        left = MakeBinary(ParsedExpressionKind::Comparison, op, std::move(left), ParseConcat(),
                          location);
    }
}

ParsedExpressionPtr Parser::ParseConcat() {
    auto left = ParseAdditive();
    while (IsOperator("||")) {
        SourceLocation location = Take().location;
        left = MakeBinary(ParsedExpressionKind::Operator, "||", std::move(left), ParseAdditive(),
                          location);
    }
    return left;
}

ParsedExpressionPtr Parser::ParseAdditive() {
    auto left = ParseMultiplicative();
    while (IsOperator("+") || IsOperator("-")) {
        Token op = Take();
        left = MakeBinary(ParsedExpressionKind::Operator, op.text, std::move(left),
                          ParseMultiplicative(), op.location);
    }
    return left;
}

ParsedExpressionPtr Parser::ParseMultiplicative() {
    auto left = ParseUnary();
    while (IsOperator("*") || IsOperator("/") || IsOperator("//") || IsOperator("%")) {
        Token op = Take();
        left = MakeBinary(ParsedExpressionKind::Operator, op.text, std::move(left), ParseUnary(),
                          op.location);
    }
    return left;
}

ParsedExpressionPtr Parser::ParseUnary() {
    DepthGuard guard(*this);
    if (IsOperator("-") || IsOperator("+")) {
        Token op = Take();
        auto operand = ParseUnary();
        if (op.text == "+") {
            return operand;
        }
        // A minus directly before a numeric literal is part of the literal, as in DuckDB.
        bool numeric = operand->kind == ParsedExpressionKind::Constant &&
                       (operand->literal_kind == LiteralKind::Integer ||
                        operand->literal_kind == LiteralKind::Decimal ||
                        operand->literal_kind == LiteralKind::Float) &&
                       operand->text[0] != '-';
        if (numeric) {
            operand->text = "-" + operand->text;
            operand->location = op.location;
            return operand;
        }
        auto expression = MakeExpression(ParsedExpressionKind::Operator, op.location);
        expression->text = "-";
        expression->children.push_back(std::move(operand));
        return expression;
    }
    return ParsePostfix();
}

ParsedExpressionPtr Parser::ParsePostfix() {
    auto expression = ParsePrimary();
    while (IsOperator("::")) {
        SourceLocation location = Take().location;
        auto cast = MakeExpression(ParsedExpressionKind::Cast, location);
        cast->cast_type = ParseTypeName();
        cast->children.push_back(std::move(expression));
        expression = std::move(cast);
    }
    return expression;
}

TypeName Parser::ParseTypeName() {
    const Token& token = Peek();
    if (token.type != TokenType::Identifier && token.type != TokenType::QuotedIdentifier) {
        SyntaxError(token);
    }
    TypeName type;
    type.name = Upper(Take().text);
    if (type.name == "DOUBLE" && IsKeyword("PRECISION")) {
        Take();
    }
    if (type.name == "TIMESTAMP" && IsKeyword("WITH") && IsKeyword("TIME", 1) &&
        IsKeyword("ZONE", 2)) {
        Take();
        Take();
        Take();
        type.name = "TIMESTAMP WITH TIME ZONE";
    }
    if (AcceptOperator("(")) {
        do {
            const Token& modifier = Peek();
            if (modifier.type != TokenType::Integer) {
                SyntaxError(modifier);
            }
            try {
                type.modifiers.push_back(std::stoll(Take().text));
            } catch (const std::exception&) {
                Fail("type modifier out of range", modifier.location);
            }
        } while (AcceptOperator(","));
        ExpectOperator(")");
    }
    return type;
}

ParsedExpressionPtr Parser::ParsePrimary() {
    const Token& token = Peek();
    SourceLocation location = token.location;
    switch (token.type) {
    case TokenType::Integer:
    case TokenType::Decimal:
    case TokenType::Float:
    case TokenType::String: {
        auto expression = MakeExpression(ParsedExpressionKind::Constant, location);
        expression->literal_kind = token.type == TokenType::Integer   ? LiteralKind::Integer
                                   : token.type == TokenType::Decimal ? LiteralKind::Decimal
                                   : token.type == TokenType::Float   ? LiteralKind::Float
                                                                      : LiteralKind::String;
        expression->text = Take().text;
        return expression;
    }
    case TokenType::QuotedIdentifier: {
        auto expression = MakeExpression(ParsedExpressionKind::ColumnRef, location);
        expression->names.push_back(Take().text);
        return expression;
    }
    case TokenType::Operator:
        if (AcceptOperator("(")) {
            auto expression = ParseExpression();
            ExpectOperator(")");
            return expression;
        }
        if (AcceptOperator("*")) {
            return MakeExpression(ParsedExpressionKind::Star, location);
        }
        SyntaxError(token);
    case TokenType::EndOfInput:
        SyntaxError(token);
    case TokenType::Identifier:
        break;
    }
    std::string word = Upper(token.text);
    if (word == "NULL" || word == "TRUE" || word == "FALSE") {
        Take();
        auto expression = MakeExpression(ParsedExpressionKind::Constant, location);
        expression->literal_kind = word == "NULL" ? LiteralKind::Null : LiteralKind::Boolean;
        expression->text = word == "TRUE" ? "t" : word == "FALSE" ? "f" : "";
        return expression;
    }
    if (word == "CAST" || word == "TRY_CAST") {
        Take();
        ExpectOperator("(");
        auto cast = MakeExpression(ParsedExpressionKind::Cast, location);
        cast->children.push_back(ParseExpression());
        ExpectKeyword("AS");
        cast->cast_type = ParseTypeName();
        ExpectOperator(")");
        if (word == "TRY_CAST") {
            cast->text = "TRY_CAST";
        }
        return cast;
    }
    // Typed literals: DATE '2020-01-01', TIME '...', TIMESTAMP '...'
    if ((word == "DATE" || word == "TIME" || word == "TIMESTAMP" || word == "TIMESTAMPTZ" ||
         word == "DECIMAL") &&
        Peek(1).type == TokenType::String) {
        Take();
        auto literal = MakeExpression(ParsedExpressionKind::Constant, Peek().location);
        literal->literal_kind = LiteralKind::String;
        literal->text = Take().text;
        auto cast = MakeExpression(ParsedExpressionKind::Cast, location);
        cast->cast_type.name = word;
        cast->children.push_back(std::move(literal));
        return cast;
    }
    if (IsReservedKeyword(word)) {
        SyntaxError(token);
    }
    std::string name = Take().text;
    if (AcceptOperator("(")) {
        auto function = MakeExpression(ParsedExpressionKind::Function, location);
        function->text = name;
        for (char& c : function->text) {
            c = static_cast<char>(std::tolower((unsigned char)c));
        }
        if (!IsOperator(")")) {
            do {
                function->children.push_back(ParseExpression());
            } while (AcceptOperator(","));
        }
        ExpectOperator(")");
        return function;
    }
    auto column = MakeExpression(ParsedExpressionKind::ColumnRef, location);
    column->names.push_back(name);
    while (AcceptOperator(".")) {
        const Token& part = Peek();
        if (part.type != TokenType::Identifier && part.type != TokenType::QuotedIdentifier) {
            SyntaxError(part);
        }
        column->names.push_back(Take().text);
    }
    return column;
}

} // namespace sluice
