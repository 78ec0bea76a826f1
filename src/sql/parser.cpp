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
        "ALL",
        "AND",
        "AS",
        "ASC",
        "BETWEEN",
        "BY",
        "CASE",
        "CAST",
        "DESC",
        "DISTINCT",
        "ELSE",
        "END",
        "EXCEPT",
        "FALSE",
        "FROM",
        "GROUP",
        "HAVING",
        "IN",
        "INTERSECT",
        "IS",
        "JOIN",
        "LIKE",
        "LIMIT",
        "NOT",
        "NULL",
        "OFFSET",
        "ON",
        "OR",
        "ORDER",
        "QUALIFY",
        "SELECT",
        "THEN",
        "TRUE",
        "UNION",
        "USING",
        "WHEN",
        "WHERE",
        "WINDOW",
        "WITH",
        // Join words cannot be bare aliases either: "FROM a LEFT JOIN b" must not alias a.
        "LEFT",
        "RIGHT",
        "FULL",
        "INNER",
        "CROSS",
        "NATURAL",
        "OUTER",
        "SEMI",
        "ANTI",
        "LATERAL",
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
    if (AtQueryStart()) {
        statement.kind = StatementKind::Select;
        statement.select = ParseQuery();
    } else if (IsKeyword("DESCRIBE")) {
        Take();
        statement.kind = StatementKind::Describe;
        statement.select = ParseQuery();
    } else if (IsKeyword("EXPLAIN")) {
        Take();
        statement.kind = StatementKind::Explain;
        statement.analyze = AcceptKeyword("ANALYZE");
        statement.select = ParseQuery();
    } else if (IsKeyword("SET")) {
        statement = ParseSet();
    } else if (IsKeyword("RESET")) {
        statement = ParseReset();
    } else if (IsKeyword("COPY")) {
        statement = ParseCopy();
    } else if (IsKeyword("CREATE")) {
        statement = ParseCreate();
    } else if (IsKeyword("INSERT")) {
        statement = ParseInsert();
    } else if (IsKeyword("DROP")) {
        statement = ParseDrop();
    } else {
        SyntaxError(Peek());
    }
    statement.location = location;
    return statement;
}

bool Parser::AtQueryStart(size_t ahead) const {
    return IsKeyword("SELECT", ahead) || IsKeyword("WITH", ahead) || IsKeyword("VALUES", ahead) ||
           (IsOperator("(", ahead) && AtQueryStart(ahead + 1));
}

std::string Parser::ParseObjectName() {
    const Token& token = Peek();
    if (token.type == TokenType::QuotedIdentifier) {
        return Take().text;
    }
    if (token.type != TokenType::Identifier || IsReservedKeyword(token.text)) {
        SyntaxError(token);
    }
    std::string name = Take().text;
    // main.name and memory.main.name address the one schema there is.
    while (AcceptOperator(".")) {
        const Token& part = Peek();
        if (part.type != TokenType::Identifier && part.type != TokenType::QuotedIdentifier) {
            SyntaxError(part);
        }
        name = Take().text;
    }
    return name;
}

Statement Parser::ParseCreate() {
    ExpectKeyword("CREATE");
    Statement statement;
    if (AcceptKeyword("OR")) {
        ExpectKeyword("REPLACE");
        statement.or_replace = true;
    }
    AcceptKeyword("TEMP") || AcceptKeyword("TEMPORARY");
    if (AcceptKeyword("VIEW")) {
        statement.kind = StatementKind::CreateView;
    } else {
        ExpectKeyword("TABLE");
        statement.kind = StatementKind::CreateTable;
    }
    if (IsKeyword("IF")) {
        Take();
        ExpectKeyword("NOT");
        ExpectKeyword("EXISTS");
        statement.if_not_exists = true;
    }
    statement.object_name = ParseObjectName();
    if (statement.kind == StatementKind::CreateTable && IsOperator("(") && !AtQueryStart(1)) {
        Take();
        do {
            ColumnDefinition column;
            column.name = ParseObjectName();
            column.type = ParseTypeName();
            statement.columns.push_back(std::move(column));
        } while (AcceptOperator(","));
        ExpectOperator(")");
        return statement;
    }
    ExpectKeyword("AS");
    statement.select = ParseQuery();
    return statement;
}

Statement Parser::ParseInsert() {
    ExpectKeyword("INSERT");
    ExpectKeyword("INTO");
    Statement statement;
    statement.kind = StatementKind::Insert;
    statement.object_name = ParseObjectName();
    if (IsOperator("(") && !AtQueryStart(1)) {
        Take();
        do {
            ColumnDefinition column;
            column.name = ParseObjectName();
            statement.columns.push_back(std::move(column));
        } while (AcceptOperator(","));
        ExpectOperator(")");
    }
    statement.select = ParseQuery();
    return statement;
}

Statement Parser::ParseDrop() {
    ExpectKeyword("DROP");
    Statement statement;
    statement.kind = StatementKind::Drop;
    if (AcceptKeyword("VIEW")) {
        statement.drop_view = true;
    } else {
        ExpectKeyword("TABLE");
    }
    if (AcceptKeyword("IF")) {
        ExpectKeyword("EXISTS");
        statement.if_exists = true;
    }
    statement.object_name = ParseObjectName();
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
    statement.select = ParseQuery();
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

std::shared_ptr<SelectStatement> Parser::ParseQuery() {
    DepthGuard guard(*this);
    // A subquery's expressions are checked on their own: the outer check does not enter it.
    size_t outer_nesting = expression_nesting_;
    expression_nesting_ = 0;
    auto query = ParseQueryBody();
    expression_nesting_ = outer_nesting;
    return query;
}

std::shared_ptr<SelectStatement> Parser::ParseQueryBody() {
    std::vector<CommonTableExpression> ctes;
    if (AcceptKeyword("WITH")) {
        AcceptKeyword("RECURSIVE");
        do {
            CommonTableExpression cte;
            cte.name = ParseObjectName();
            if (AcceptOperator("(")) {
                do {
                    cte.column_names.push_back(ParseObjectName());
                } while (AcceptOperator(","));
                ExpectOperator(")");
            }
            ExpectKeyword("AS");
            if (AcceptKeyword("NOT")) {
                ExpectKeyword("MATERIALIZED");
            } else {
                AcceptKeyword("MATERIALIZED");
            }
            ExpectOperator("(");
            cte.query = ParseQuery();
            ExpectOperator(")");
            ctes.push_back(std::move(cte));
        } while (AcceptOperator(","));
    }
    auto query = ParseQueryTerm();
    while (IsKeyword("UNION")) {
        SourceLocation location = Take().location;
        auto node = std::make_shared<SelectStatement>();
        node->kind = QueryKind::Union;
        node->location = location;
        node->union_all = AcceptKeyword("ALL");
        if (!node->union_all) {
            AcceptKeyword("DISTINCT");
        }
        node->left = std::move(query);
        node->right = ParseQueryTerm();
        query = std::move(node);
    }
    if (IsKeyword("EXCEPT") || IsKeyword("INTERSECT")) {
        Fail(Upper(Peek().text) + " is not supported yet", Peek().location);
    }
    bool has_modifiers = IsKeyword("ORDER") || IsKeyword("LIMIT") || IsKeyword("OFFSET");
    if (has_modifiers && (query->kind != QueryKind::Select || !query->order_by.empty() ||
                          query->limit || query->offset)) {
        // ORDER BY / LIMIT after a UNION apply to the union as a whole: wrap it.
        auto wrapper = std::make_shared<SelectStatement>();
        wrapper->location = query->location;
        auto star = std::make_unique<ParsedExpression>();
        star->kind = ParsedExpressionKind::Star;
        star->location = query->location;
        wrapper->select_list.push_back(std::move(star));
        wrapper->from = std::make_unique<TableRef>();
        wrapper->from->kind = TableRefKind::Subquery;
        wrapper->from->location = query->location;
        wrapper->from->subquery = std::move(query);
        query = std::move(wrapper);
    }
    if (AcceptKeyword("ORDER")) {
        ExpectKeyword("BY");
        do {
            OrderTerm term;
            term.expression = ParseExpression();
            if (AcceptKeyword("DESC")) {
                term.descending = true;
            } else {
                AcceptKeyword("ASC");
            }
            if (AcceptKeyword("NULLS")) {
                if (AcceptKeyword("FIRST")) {
                    term.nulls_first = true;
                } else {
                    ExpectKeyword("LAST");
                }
            }
            query->order_by.push_back(std::move(term));
        } while (AcceptOperator(","));
    }
    if (AcceptKeyword("LIMIT")) {
        query->limit = ParseExpression();
    }
    if (AcceptKeyword("OFFSET")) {
        query->offset = ParseExpression();
    }
    if (!ctes.empty()) {
        for (auto& cte : query->ctes) {
            ctes.push_back(std::move(cte));
        }
        query->ctes = std::move(ctes);
    }
    return query;
}

std::shared_ptr<SelectStatement> Parser::ParseQueryTerm() {
    if (IsOperator("(")) {
        Take();
        auto query = ParseQuery();
        ExpectOperator(")");
        return query;
    }
    if (IsKeyword("VALUES")) {
        return ParseValues();
    }
    return ParseSelectBlock();
}

std::shared_ptr<SelectStatement> Parser::ParseValues() {
    auto query = std::make_shared<SelectStatement>();
    query->kind = QueryKind::Values;
    query->location = Peek().location;
    ExpectKeyword("VALUES");
    do {
        ExpectOperator("(");
        std::vector<ParsedExpressionPtr> row;
        do {
            row.push_back(ParseExpression());
        } while (AcceptOperator(","));
        ExpectOperator(")");
        if (!query->values.empty() && row.size() != query->values[0].size()) {
            Fail("VALUES lists must all be the same length", query->location);
        }
        query->values.push_back(std::move(row));
    } while (AcceptOperator(","));
    return query;
}

std::shared_ptr<SelectStatement> Parser::ParseSelectBlock() {
    auto select = std::make_shared<SelectStatement>();
    select->location = Peek().location;
    ExpectKeyword("SELECT");
    if (AcceptKeyword("DISTINCT")) {
        select->distinct = true;
    } else {
        AcceptKeyword("ALL");
    }
    do {
        auto expression = ParseExpression();
        std::string alias = ParseAlias(false);
        if (!alias.empty()) {
            expression->alias = alias;
        }
        select->select_list.push_back(std::move(expression));
    } while (AcceptOperator(","));
    if (AcceptKeyword("FROM")) {
        select->from = ParseFrom();
    }
    if (AcceptKeyword("WHERE")) {
        select->where = ParseExpression();
    }
    if (IsKeyword("GROUP") && IsKeyword("BY", 1)) {
        Take();
        Take();
        do {
            select->group_by.push_back(ParseExpression());
        } while (AcceptOperator(","));
    }
    if (AcceptKeyword("HAVING")) {
        select->having = ParseExpression();
    }
    return select;
}

std::unique_ptr<TableRef> Parser::ParseFrom() {
    auto left = ParseJoins();
    while (IsOperator(",")) {
        SourceLocation location = Take().location;
        auto join = std::make_unique<TableRef>();
        join->kind = TableRefKind::Join;
        join->join_type = JoinType::Cross;
        join->location = location;
        join->left = std::move(left);
        join->right = ParseJoins();
        left = std::move(join);
    }
    return left;
}

std::unique_ptr<TableRef> Parser::ParseJoins() {
    auto left = ParseTableRef();
    while (true) {
        SourceLocation location = Peek().location;
        JoinType type = JoinType::Inner;
        bool natural = false;
        if (AcceptKeyword("CROSS")) {
            type = JoinType::Cross;
        } else if (AcceptKeyword("INNER")) {
        } else if (AcceptKeyword("LEFT")) {
            type = JoinType::Left;
            if (AcceptKeyword("SEMI")) {
                type = JoinType::Semi;
            } else if (AcceptKeyword("ANTI")) {
                type = JoinType::Anti;
            } else {
                AcceptKeyword("OUTER");
            }
        } else if (AcceptKeyword("RIGHT")) {
            type = JoinType::Right;
            AcceptKeyword("OUTER");
        } else if (AcceptKeyword("FULL")) {
            type = JoinType::Full;
            AcceptKeyword("OUTER");
        } else if (AcceptKeyword("SEMI")) {
            type = JoinType::Semi;
        } else if (AcceptKeyword("ANTI")) {
            type = JoinType::Anti;
        } else if (AcceptKeyword("NATURAL")) {
            natural = true;
        } else if (!IsKeyword("JOIN")) {
            return left;
        }
        if (natural) {
            Fail("NATURAL JOIN is not supported yet; use USING", location);
        }
        ExpectKeyword("JOIN");
        auto join = std::make_unique<TableRef>();
        join->kind = TableRefKind::Join;
        join->join_type = type;
        join->location = location;
        join->left = std::move(left);
        join->right = ParseTableRef();
        if (type != JoinType::Cross) {
            if (AcceptKeyword("ON")) {
                join->condition = ParseExpression();
            } else if (AcceptKeyword("USING")) {
                ExpectOperator("(");
                do {
                    join->using_columns.push_back(ParseObjectName());
                } while (AcceptOperator(","));
                ExpectOperator(")");
            } else {
                SyntaxError(Peek());
            }
        }
        left = std::move(join);
    }
}

std::unique_ptr<TableRef> Parser::ParseTableRef() {
    auto ref = std::make_unique<TableRef>();
    ref->location = Peek().location;
    if (IsOperator("(")) {
        if (!AtQueryStart(1)) {
            // A parenthesised join: (a JOIN b ON ...)
            Take();
            auto inner = ParseFrom();
            ExpectOperator(")");
            return inner;
        }
        Take();
        ref->kind = TableRefKind::Subquery;
        ref->subquery = ParseQuery();
        ExpectOperator(")");
    } else {
        if (Peek().type == TokenType::QuotedIdentifier) {
            ref->kind = TableRefKind::Table;
            ref->name = ParseObjectName();
        } else {
            if (Peek().type != TokenType::Identifier || IsReservedKeyword(Peek().text)) {
                SyntaxError(Peek());
            }
            if (IsOperator("(", 1)) {
                ref->kind = TableRefKind::TableFunction;
                ref->name = Lower(Take().text);
                ParseTableFunctionArguments(*ref);
            } else {
                ref->kind = TableRefKind::Table;
                ref->name = ParseObjectName();
            }
        }
    }
    ref->alias = ParseAlias(false);
    if (!ref->alias.empty() && AcceptOperator("(")) {
        do {
            ref->column_aliases.push_back(ParseObjectName());
        } while (AcceptOperator(","));
        ExpectOperator(")");
    }
    return ref;
}

void Parser::ParseTableFunctionArguments(TableRef& ref) {
    ExpectOperator("(");
    if (!IsOperator(")")) {
        do {
            // name = value is a named parameter (filename = true), as in DuckDB.
            if (Peek().type == TokenType::Identifier && IsOperator("=", 1) &&
                !IsReservedKeyword(Peek().text)) {
                std::string name = Lower(Take().text);
                Take();
                ref.named_arguments.emplace_back(name, ParseExpression());
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
                ref.arguments.push_back(std::move(list));
                continue;
            }
            ref.arguments.push_back(ParseExpression());
        } while (AcceptOperator(","));
    }
    ExpectOperator(")");
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
    expression_nesting_++;
    auto expression = ParseOr();
    if (--expression_nesting_ == 0) {
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
        if (IsKeyword("ISNULL") || IsKeyword("NOTNULL")) {
            bool negated = IsKeyword("NOTNULL");
            auto expression = MakeExpression(negated ? ParsedExpressionKind::IsNotNull
                                                     : ParsedExpressionKind::IsNull,
                                             Take().location);
            expression->children.push_back(std::move(left));
            left = std::move(expression);
            continue;
        }
        bool negated = false;
        size_t ahead = 0;
        if (IsKeyword("NOT") && (IsKeyword("BETWEEN", 1) || IsKeyword("IN", 1) ||
                                 IsKeyword("LIKE", 1) || IsKeyword("ILIKE", 1))) {
            negated = true;
            ahead = 1;
        }
        if (IsKeyword("BETWEEN", ahead)) {
            SourceLocation location = Peek().location;
            pos_ += ahead + 1;
            auto expression = MakeExpression(ParsedExpressionKind::Between, location);
            expression->negated = negated;
            expression->children.push_back(std::move(left));
            expression->children.push_back(ParseConcat());
            ExpectKeyword("AND");
            expression->children.push_back(ParseConcat());
            left = std::move(expression);
            continue;
        }
        if (IsKeyword("IN", ahead)) {
            SourceLocation location = Peek().location;
            pos_ += ahead + 1;
            ExpectOperator("(");
            if (AtQueryStart()) {
                auto expression = MakeExpression(ParsedExpressionKind::Subquery, location);
                expression->subquery_kind = SubqueryKind::In;
                expression->negated = negated;
                expression->children.push_back(std::move(left));
                size_t start = Peek().location.offset;
                expression->subquery = ParseQuery();
                expression->text = std::string(text_.substr(start, Peek().location.offset - start));
                ExpectOperator(")");
                left = std::move(expression);
                continue;
            }
            auto expression = MakeExpression(ParsedExpressionKind::InList, location);
            expression->negated = negated;
            expression->children.push_back(std::move(left));
            do {
                expression->children.push_back(ParseExpression());
            } while (AcceptOperator(","));
            ExpectOperator(")");
            left = std::move(expression);
            continue;
        }
        if (IsKeyword("LIKE", ahead) || IsKeyword("ILIKE", ahead)) {
            SourceLocation location = Peek().location;
            std::string word = Upper(Peek(ahead).text);
            pos_ += ahead + 1;
            auto expression = MakeExpression(ParsedExpressionKind::Like, location);
            expression->negated = negated;
            expression->text = word;
            expression->children.push_back(std::move(left));
            expression->children.push_back(ParseConcat());
            if (AcceptKeyword("ESCAPE")) {
                expression->children.push_back(ParseConcat());
            }
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
        if (IsOperator("(") && AtQueryStart(1)) {
            Take();
            return ParseSubqueryExpression(SubqueryKind::Scalar, location);
        }
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
    if (word == "CASE") {
        Take();
        return ParseCase(location);
    }
    if (word == "INTERVAL") {
        Take();
        return ParseInterval(location);
    }
    if (word == "EXISTS" && IsOperator("(", 1)) {
        Take();
        ExpectOperator("(");
        return ParseSubqueryExpression(SubqueryKind::Exists, location);
    }
    if (word == "NOT" && IsKeyword("EXISTS", 1)) {
        // NOT EXISTS binds like EXISTS; NOT is handled by ParseNot.
        SyntaxError(token);
    }
    if (IsReservedKeyword(word)) {
        SyntaxError(token);
    }
    std::string name = Take().text;
    if (AcceptOperator("(")) {
        return ParseFunctionCall(Lower(name), location);
    }
    auto column = MakeExpression(ParsedExpressionKind::ColumnRef, location);
    column->names.push_back(name);
    while (AcceptOperator(".")) {
        if (AcceptOperator("*")) {
            // table.*: every column of one FROM item
            auto star = MakeExpression(ParsedExpressionKind::Star, location);
            star->names = std::move(column->names);
            return star;
        }
        const Token& part = Peek();
        if (part.type != TokenType::Identifier && part.type != TokenType::QuotedIdentifier) {
            SyntaxError(part);
        }
        column->names.push_back(Take().text);
    }
    return column;
}

ParsedExpressionPtr Parser::ParseSubqueryExpression(SubqueryKind kind, SourceLocation location) {
    auto expression = MakeExpression(ParsedExpressionKind::Subquery, location);
    expression->subquery_kind = kind;
    size_t start = Peek().location.offset;
    expression->subquery = ParseQuery();
    // The subquery's own text names the column, as "(SELECT ...)" does in DuckDB.
    expression->text = std::string(text_.substr(start, Peek().location.offset - start));
    ExpectOperator(")");
    return expression;
}

ParsedExpressionPtr Parser::ParseFunctionCall(std::string name, SourceLocation location) {
    auto function = MakeExpression(ParsedExpressionKind::Function, location);
    function->text = std::move(name);
    if (function->text == "count" && IsOperator("*") && IsOperator(")", 1)) {
        Take();
        Take();
        function->text = "count_star";
        return function;
    }
    if (function->text == "extract") {
        // EXTRACT(part FROM value) is date_part('part', value).
        const Token& part = Peek();
        if (part.type != TokenType::Identifier && part.type != TokenType::String) {
            SyntaxError(part);
        }
        auto literal = MakeExpression(ParsedExpressionKind::Constant, part.location);
        literal->literal_kind = LiteralKind::String;
        literal->text = Lower(Take().text);
        ExpectKeyword("FROM");
        function->text = "date_part";
        function->from_extract = true;
        function->children.push_back(std::move(literal));
        function->children.push_back(ParseExpression());
        ExpectOperator(")");
        return function;
    }
    if (AcceptKeyword("DISTINCT")) {
        function->distinct = true;
    } else {
        AcceptKeyword("ALL");
    }
    if (!IsOperator(")")) {
        function->children.push_back(ParseExpression());
        if ((function->text == "substring" || function->text == "substr") &&
            (IsKeyword("FROM") || IsKeyword("FOR"))) {
            // SUBSTRING(s FROM start [FOR length])
            if (AcceptKeyword("FROM")) {
                function->children.push_back(ParseExpression());
            } else {
                auto one = MakeExpression(ParsedExpressionKind::Constant, Peek().location);
                one->literal_kind = LiteralKind::Integer;
                one->text = "1";
                function->children.push_back(std::move(one));
            }
            if (AcceptKeyword("FOR")) {
                function->children.push_back(ParseExpression());
            }
        } else {
            while (AcceptOperator(",")) {
                function->children.push_back(ParseExpression());
            }
        }
    }
    ExpectOperator(")");
    return function;
}

ParsedExpressionPtr Parser::ParseCase(SourceLocation location) {
    auto expression = MakeExpression(ParsedExpressionKind::Case, location);
    ParsedExpressionPtr operand;
    if (!IsKeyword("WHEN")) {
        operand = ParseExpression();
    }
    while (IsKeyword("WHEN")) {
        SourceLocation when_location = Take().location;
        auto condition = ParseExpression();
        if (operand) {
            // CASE x WHEN v is CASE WHEN x = v.
            condition = MakeBinary(ParsedExpressionKind::Comparison, "=", CloneExpression(*operand),
                                   std::move(condition), when_location);
        }
        ExpectKeyword("THEN");
        expression->children.push_back(std::move(condition));
        expression->children.push_back(ParseExpression());
    }
    if (expression->children.empty()) {
        SyntaxError(Peek());
    }
    if (AcceptKeyword("ELSE")) {
        expression->has_else = true;
        expression->children.push_back(ParseExpression());
    }
    ExpectKeyword("END");
    return expression;
}

ParsedExpressionPtr Parser::ParseInterval(SourceLocation location) {
    auto expression = MakeExpression(ParsedExpressionKind::Interval, location);
    // INTERVAL '3' MONTH, INTERVAL 3 MONTH, INTERVAL '3 months', INTERVAL (x) DAY
    if (AcceptOperator("(")) {
        expression->children.push_back(ParseExpression());
        ExpectOperator(")");
    } else {
        const Token& quantity = Peek();
        if (quantity.type != TokenType::String && quantity.type != TokenType::Integer &&
            quantity.type != TokenType::Decimal) {
            SyntaxError(quantity);
        }
        expression->children.push_back(ParsePrimary());
    }
    static const char* kUnits[] = {
        "YEAR",        "YEARS",        "MONTH",       "MONTHS",       "DAY",     "DAYS",    "HOUR",
        "HOURS",       "MINUTE",       "MINUTES",     "SECOND",       "SECONDS", "WEEK",    "WEEKS",
        "MILLISECOND", "MILLISECONDS", "MICROSECOND", "MICROSECONDS", "QUARTER", "QUARTERS"};
    for (const char* unit : kUnits) {
        if (IsKeyword(unit)) {
            std::string name = Lower(Take().text);
            if (name.back() == 's') {
                name.pop_back();
            }
            expression->text = name;
            break;
        }
    }
    return expression;
}

} // namespace sluice
