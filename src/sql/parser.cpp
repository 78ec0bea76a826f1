#include "sql/parser.hpp"

#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "sql/lexer.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <set>

namespace sluice {

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
    question_marks_ = 0;
    Statement statement;
    if (AtQueryStart()) {
        statement.kind = StatementKind::Select;
        statement.select = ParseQuery();
    } else if (IsKeyword("DESCRIBE") || IsKeyword("SUMMARIZE")) {
        bool summarize = IsKeyword("SUMMARIZE");
        Take();
        statement.kind = summarize ? StatementKind::Summarize : StatementKind::Describe;
        size_t start = Peek().location.offset;
        bool query = AtQueryStart();
        statement.select = query ? ParseQuery() : SelectAllFromTable();
        std::string text(text_.substr(start, Peek().location.offset - start));
        statement.query_text = query ? text : "SELECT * FROM " + text;
    } else if (IsKeyword("SHOW")) {
        // SHOW TABLES lists them (as .tables); SHOW table describes it.
        Take();
        if (AcceptKeyword("TABLES")) {
            Parser listing("SELECT name FROM sluice_tables() ORDER BY name");
            statement.select = listing.ParseQuery();
        } else {
            statement.kind = StatementKind::Describe;
            statement.select = SelectAllFromTable();
        }
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
    } else if (IsKeyword("CALL") || IsKeyword("PRAGMA")) {
        statement = ParseCall();
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
           IsKeyword("FROM", ahead) || (IsOperator("(", ahead) && AtQueryStart(ahead + 1));
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
        ParseColumnNames(statement);
    }
    statement.select = ParseQuery();
    return statement;
}

void Parser::ParseColumnNames(Statement& statement) {
    ExpectOperator("(");
    do {
        ColumnDefinition column;
        column.name = ParseObjectName();
        statement.columns.push_back(std::move(column));
    } while (AcceptOperator(","));
    ExpectOperator(")");
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

std::shared_ptr<SelectStatement> Parser::SelectAll(std::unique_ptr<TableRef> from,
                                                   SourceLocation location) {
    auto select = std::make_shared<SelectStatement>();
    select->location = location;
    select->select_list.push_back(MakeExpression(ParsedExpressionKind::Star, location));
    select->from = std::move(from);
    return select;
}

std::shared_ptr<SelectStatement> Parser::SelectAllFromTable() {
    SourceLocation location = Peek().location;
    auto table = std::make_unique<TableRef>();
    table->kind = TableRefKind::Table;
    table->location = location;
    table->name = ParseObjectName();
    return SelectAll(std::move(table), location);
}

Statement Parser::ParseCall() {
    Statement statement;
    statement.kind = IsKeyword("CALL") ? StatementKind::Call : StatementKind::Pragma;
    Take();
    SourceLocation location = Peek().location;
    if (Peek().type != TokenType::Identifier) {
        SyntaxError(Peek());
    }
    auto function = std::make_unique<TableRef>();
    function->kind = TableRefKind::TableFunction;
    function->location = location;
    function->name = Lower(Take().text);
    if (IsOperator("(")) {
        ParseTableFunctionArguments(*function);
    } else if (statement.kind == StatementKind::Call) {
        ExpectOperator("(");
    }
    statement.select = SelectAll(std::move(function), location);
    return statement;
}

Statement Parser::ParseCopy() {
    ExpectKeyword("COPY");
    Statement statement;
    statement.kind = StatementKind::Copy;
    if (AcceptOperator("(")) {
        statement.select = ParseQuery();
        ExpectOperator(")");
        ExpectKeyword("TO");
    } else if (IsKeyword("FROM", 1) || IsOperator("(", 1)) { // COPY table [(columns)] FROM ...
        statement.kind = StatementKind::CopyFrom;
        statement.object_name = ParseObjectName();
        if (IsOperator("(")) {
            ParseColumnNames(statement);
        }
        ExpectKeyword("FROM");
    } else { // COPY table TO ...: all of the table
        statement.select = SelectAllFromTable();
        ExpectKeyword("TO");
    }
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
                cte.materialization = CteMaterialization::Never;
            } else if (AcceptKeyword("MATERIALIZED")) {
                cte.materialization = CteMaterialization::Always;
            }
            ExpectOperator("(");
            cte.query = ParseQuery();
            ExpectOperator(")");
            ctes.push_back(std::move(cte));
        } while (AcceptOperator(","));
    }
    // INTERSECT binds tighter than UNION and EXCEPT, which apply left to right.
    auto set_operation = [&](QueryKind kind, std::shared_ptr<SelectStatement> left,
                             auto parse_right) {
        auto node = std::make_shared<SelectStatement>();
        node->kind = kind;
        node->location = Take().location;
        node->all = AcceptKeyword("ALL");
        if (!node->all) {
            AcceptKeyword("DISTINCT");
        }
        node->left = std::move(left);
        node->right = parse_right();
        return node;
    };
    auto parse_intersections = [&] {
        auto query = ParseQueryTerm();
        while (IsKeyword("INTERSECT")) {
            query = set_operation(QueryKind::Intersect, std::move(query),
                                  [&] { return ParseQueryTerm(); });
        }
        return query;
    };
    auto query = parse_intersections();
    while (IsKeyword("UNION") || IsKeyword("EXCEPT")) {
        query = set_operation(IsKeyword("UNION") ? QueryKind::Union : QueryKind::Except,
                              std::move(query), parse_intersections);
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
        query->order_by_all = AcceptKeyword("ALL");
        do {
            query->order_by.push_back(ParseOrderTerm(!query->order_by_all));
        } while (!query->order_by_all && AcceptOperator(","));
    }
    if (query->kind == QueryKind::Select) {
        ResolveNamedWindows(*query);
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
    // DuckDB's FROM-first form: FROM t [SELECT list] ...; without a SELECT list, SELECT *.
    bool from_first = AcceptKeyword("FROM");
    if (from_first) {
        select->from = ParseFrom();
        if (!IsKeyword("SELECT")) {
            select->select_list.push_back(
                MakeExpression(ParsedExpressionKind::Star, select->location));
        }
    }
    if (!from_first || IsKeyword("SELECT")) {
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
    }
    if (!from_first && AcceptKeyword("FROM")) {
        select->from = ParseFrom();
    }
    if (AcceptKeyword("WHERE")) {
        select->where = ParseExpression();
    }
    if (IsKeyword("GROUP") && IsKeyword("BY", 1)) {
        Take();
        Take();
        select->group_by_all = AcceptKeyword("ALL");
        if (!select->group_by_all) {
            ParseGroupBy(*select);
        }
    }
    if (AcceptKeyword("HAVING")) {
        select->having = ParseExpression();
    }
    if (AcceptKeyword("WINDOW")) {
        ParseWindowClause(*select);
    }
    if (AcceptKeyword("QUALIFY")) {
        select->qualify = ParseExpression();
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
            if (AcceptKeyword("LEFT")) {
                type = JoinType::Left;
            } else if (AcceptKeyword("RIGHT")) {
                type = JoinType::Right;
            } else if (AcceptKeyword("FULL")) {
                type = JoinType::Full;
            } else {
                AcceptKeyword("INNER");
            }
            if (type != JoinType::Inner) {
                AcceptKeyword("OUTER");
            }
        } else if (!IsKeyword("JOIN")) {
            return left;
        }
        ExpectKeyword("JOIN");
        auto join = std::make_unique<TableRef>();
        join->kind = TableRefKind::Join;
        join->join_type = type;
        join->location = location;
        join->left = std::move(left);
        join->right = ParseTableRef();
        join->natural = natural;
        if (type != JoinType::Cross && !natural) {
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
    // LATERAL (subquery): every subquery in FROM sees the columns left of it, as in DuckDB.
    if (IsKeyword("LATERAL") && IsOperator("(", 1)) {
        Take();
    }
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
    } else if (Peek().type == TokenType::String && !ReplacementScan(Peek().text).empty()) {
        // FROM 'data/*.parquet': the reader its extension names, as DuckDB's replacement scans.
        ref->kind = TableRefKind::TableFunction;
        ref->name = ReplacementScan(Peek().text);
        auto path = MakeExpression(ParsedExpressionKind::Constant, Peek().location);
        path->literal_kind = LiteralKind::String;
        path->text = Take().text;
        std::string stem = path->text.substr(path->text.find_last_of('/') + 1);
        ref->alias = stem.substr(0, stem.find('.'));
        ref->arguments.push_back(std::move(path));
        std::string alias = ParseAlias(false);
        if (!alias.empty()) {
            ref->alias = alias;
        }
        return ref;
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

ParsedExpressionPtr Parser::ParseListLiteral() {
    // A table function's list argument: the elements of [a, b, ...] as they are.
    ParsedExpressionPtr list = ParseListValue();
    list->kind = ParsedExpressionKind::List;
    list->text.clear();
    list->call_syntax = CallSyntax::Call;
    return list;
}

std::string Parser::ReplacementScan(const std::string& path) {
    std::string lower = Lower(path);
    if (EndsWith(lower, ".parquet")) {
        return "read_parquet";
    }
    for (const char* suffix : {".csv", ".tsv", ".csv.gz", ".tsv.gz", ".csv.zst"}) {
        if (EndsWith(lower, suffix)) {
            return "read_csv";
        }
    }
    return "";
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
                if (AcceptOperator("{")) {
                    std::vector<std::pair<std::string, ParsedExpressionPtr>> fields;
                    if (!IsOperator("}")) {
                        do {
                            if (Peek().type != TokenType::String &&
                                Peek().type != TokenType::Identifier &&
                                Peek().type != TokenType::QuotedIdentifier) {
                                SyntaxError(Peek());
                            }
                            std::string key = Take().text;
                            ExpectOperator(":");
                            fields.emplace_back(key, ParseExpression());
                        } while (AcceptOperator(","));
                    }
                    ExpectOperator("}");
                    ref.named_structs.emplace_back(name, std::move(fields));
                    continue;
                }
                ref.named_arguments.emplace_back(name, IsOperator("[") ? ParseListLiteral()
                                                                       : ParseExpression());
                continue;
            }
            if (IsOperator("[")) {
                ref.arguments.push_back(ParseListLiteral());
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

} // namespace sluice
