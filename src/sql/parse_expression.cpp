// The expression half of the parser: precedence climbing from OR down to primaries, and the
// special forms (CASE, EXTRACT, INTERVAL, subqueries, typed literals).
#include "common/exception.hpp"
#include "common/number_format.hpp"
#include "common/string_util.hpp"
#include "sql/parser.hpp"

#include <limits>

namespace sluice {

ParsedExpressionPtr Parser::MakeExpression(ParsedExpressionKind kind, SourceLocation location) {
    auto expression = std::make_unique<ParsedExpression>();
    expression->kind = kind;
    expression->location = location;
    return expression;
}

ParsedExpressionPtr Parser::MakeBinary(ParsedExpressionKind kind, std::string name,
                                       ParsedExpressionPtr left, ParsedExpressionPtr right,
                                       SourceLocation location) {
    auto expression = MakeExpression(kind, location);
    expression->text = std::move(name);
    expression->children.push_back(std::move(left));
    expression->children.push_back(std::move(right));
    return expression;
}

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
            if (AcceptKeyword("DISTINCT")) {
                // x IS [NOT] DISTINCT FROM y: equality that takes NULL as a value.
                ExpectKeyword("FROM");
                auto expression = MakeExpression(ParsedExpressionKind::Comparison, location);
                expression->text = negated ? "IS NOT DISTINCT FROM" : "IS DISTINCT FROM";
                expression->children.push_back(std::move(left));
                expression->children.push_back(ParseConcat());
                left = std::move(expression);
                continue;
            }
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
        if (IsKeyword("NOT") &&
            (IsKeyword("BETWEEN", 1) || IsKeyword("IN", 1) || IsKeyword("LIKE", 1) ||
             IsKeyword("ILIKE", 1) || IsKeyword("SIMILAR", 1))) {
            negated = true;
            ahead = 1;
        }
        // x SIMILAR TO p and x ~ p: p matches the whole of x (RE2); !~ negates.
        bool similar = IsKeyword("SIMILAR", ahead) && IsKeyword("TO", ahead + 1);
        if (similar ||
            (token.type == TokenType::Operator && (token.text == "~" || token.text == "!~"))) {
            SourceLocation location = Peek().location;
            negated |= !similar && token.text == "!~";
            pos_ += similar ? ahead + 2 : 1;
            auto match = MakeExpression(ParsedExpressionKind::Function, location);
            match->text = "regexp_full_match";
            match->children.push_back(std::move(left));
            match->children.push_back(ParseConcat());
            if (negated) {
                auto negation = MakeExpression(ParsedExpressionKind::Not, location);
                negation->children.push_back(std::move(match));
                match = std::move(negation);
            }
            left = std::move(match);
            continue;
        }
        // x ~~ p is LIKE, ~~* ILIKE, each negated by a leading !.
        if (token.type == TokenType::Operator && (token.text == "~~" || token.text == "!~~" ||
                                                  token.text == "~~*" || token.text == "!~~*")) {
            SourceLocation location = Take().location;
            auto expression = MakeExpression(ParsedExpressionKind::Like, location);
            expression->negated = token.text[0] == '!';
            expression->text = token.text.back() == '*' ? "ILIKE" : "LIKE";
            expression->children.push_back(std::move(left));
            expression->children.push_back(ParseConcat());
            left = std::move(expression);
            continue;
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
        if ((IsKeyword("ANY") || IsKeyword("SOME") || IsKeyword("ALL")) && IsOperator("(", 1)) {
            bool all = IsKeyword("ALL");
            pos_ += 2;
            if (!AtQueryStart()) {
                Fail("ANY and ALL take a subquery", Peek().location);
            }
            auto expression = MakeExpression(ParsedExpressionKind::Subquery, location);
            expression->subquery_kind = all ? SubqueryKind::All : SubqueryKind::Any;
            expression->text = op;
            expression->children.push_back(std::move(left));
            size_t start = Peek().location.offset;
            expression->subquery = ParseQuery();
            expression->subquery_text =
                std::string(text_.substr(start, Peek().location.offset - start));
            ExpectOperator(")");
            left = std::move(expression);
            continue;
        }
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
    // A column reference in parentheses takes a field as (s).a; bare, s.a is a column name.
    bool parenthesized = IsOperator("(");
    auto expression = ParsePrimary();
    while (true) {
        if (IsOperator("::")) {
            SourceLocation location = Take().location;
            auto cast = MakeExpression(ParsedExpressionKind::Cast, location);
            cast->cast_type = ParseTypeName();
            cast->children.push_back(std::move(expression));
            expression = std::move(cast);
        } else if (IsOperator("[")) {
            expression = ParseSubscript(std::move(expression));
        } else if (IsOperator(".") &&
                   (parenthesized || expression->kind != ParsedExpressionKind::ColumnRef)) {
            // (expression).field and f(x).field: a struct's field
            SourceLocation location = Take().location;
            const Token& part = Peek();
            if (part.type != TokenType::Identifier && part.type != TokenType::QuotedIdentifier) {
                SyntaxError(part);
            }
            auto name = MakeExpression(ParsedExpressionKind::Constant, part.location);
            name->literal_kind = LiteralKind::String;
            name->text = Take().text;
            auto extract = MakeExpression(ParsedExpressionKind::Function, location);
            extract->text = "struct_extract";
            extract->call_syntax = CallSyntax::FieldAccess;
            extract->children.push_back(std::move(expression));
            extract->children.push_back(std::move(name));
            expression = std::move(extract);
        } else {
            return expression;
        }
    }
}

ParsedExpressionPtr Parser::ParseSubscript(ParsedExpressionPtr operand) {
    // x[i] is array_extract(x, i); x[a:b] is array_slice(x, a, b), either bound may be left out.
    SourceLocation location = Take().location;
    // A left-out bound is the list's edge: 1, or the largest BIGINT (clamped to the length). It
    // is not NULL, which is a bound of its own: [1, 2, 3][NULL:2] is NULL.
    auto missing = [&](bool end) {
        auto edge = MakeExpression(ParsedExpressionKind::Constant, Peek().location);
        edge->literal_kind = LiteralKind::Integer;
        edge->text = end ? std::to_string(std::numeric_limits<int64_t>::max()) : "1";
        edge->omitted = true;
        return edge;
    };
    auto function = MakeExpression(ParsedExpressionKind::Function, location);
    function->children.push_back(std::move(operand));
    ParsedExpressionPtr first = IsOperator(":") ? missing(false) : ParseExpression();
    if (AcceptOperator(":")) {
        function->text = "array_slice";
        function->call_syntax = CallSyntax::Slice;
        function->children.push_back(std::move(first));
        function->children.push_back(IsOperator("]") ? missing(true) : ParseExpression());
    } else {
        function->text = "array_extract";
        function->call_syntax = CallSyntax::Subscript;
        function->children.push_back(std::move(first));
    }
    ExpectOperator("]");
    return function;
}

TypeName Parser::ParseTypeName() {
    // Nested types nest like expressions: as deep, no deeper (binding them recurses).
    DepthGuard guard(*this);
    TypeName type = ParseBaseTypeName();
    // INTEGER[], INTEGER[][]: lists of lists
    std::vector<std::unique_ptr<DepthGuard>> list_levels;
    while (IsOperator("[") && IsOperator("]", 1)) {
        list_levels.push_back(std::make_unique<DepthGuard>(*this));
        pos_ += 2;
        TypeName list;
        list.name = "LIST";
        list.children.push_back(TypeNameField{"", std::move(type)});
        type = std::move(list);
    }
    // VARCHAR[3] is DuckDB's fixed-size ARRAY type, not a subscript of the casted value.
    if (IsOperator("[") && Peek(1).type == TokenType::Integer && IsOperator("]", 2)) {
        throw Exception(ErrorKind::NotImplemented,
                        "fixed-size ARRAY types (" + type.name + "[" + Peek(1).text +
                            "]) are not supported; use a list type (" + type.name + "[])");
    }
    return type;
}

TypeName Parser::ParseBaseTypeName() {
    const Token& token = Peek();
    if (token.type != TokenType::Identifier && token.type != TokenType::QuotedIdentifier) {
        SyntaxError(token);
    }
    TypeName type;
    type.name = Upper(Take().text);
    if ((type.name == "STRUCT" || type.name == "ROW") && AcceptOperator("(")) {
        // STRUCT(name type, ...)
        type.name = "STRUCT";
        do {
            const Token& field = Peek();
            if (field.type != TokenType::Identifier && field.type != TokenType::QuotedIdentifier) {
                SyntaxError(field);
            }
            std::string name = Take().text;
            type.children.push_back(TypeNameField{std::move(name), ParseTypeName()});
        } while (AcceptOperator(","));
        ExpectOperator(")");
        return type;
    }
    if (type.name == "MAP" && AcceptOperator("(")) {
        type.children.push_back(TypeNameField{"key", ParseTypeName()});
        ExpectOperator(",");
        type.children.push_back(TypeNameField{"value", ParseTypeName()});
        ExpectOperator(")");
        return type;
    }
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
    case TokenType::Parameter: {
        auto expression = MakeExpression(ParsedExpressionKind::Parameter, location);
        std::string digits = Take().text;
        if (digits.empty()) {
            expression->parameter = ++question_marks_;
        } else {
            hugeint_t number;
            if (!TryParseHugeint(digits, number) || number < 1 || number > 65535) {
                Fail("parameter $" + digits + " is out of range (1 to 65535)", location);
            }
            expression->parameter = static_cast<size_t>(number);
        }
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
        if (IsOperator("[")) {
            return ParseListValue();
        }
        if (IsOperator("{")) {
            return ParseStructValue();
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
    if (word == "MAP" && IsOperator("{", 1)) {
        Take();
        return ParseMapValue(location);
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
    if (IsReservedKeyword(word) && !((word == "LEFT" || word == "RIGHT") && IsOperator("(", 1))) {
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
        AcceptFilter(*function);
        AcceptOver(*function);
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
    if (function->text == "position" && !IsOperator(")")) {
        // POSITION(needle IN text) is strpos(text, needle).
        auto needle = ParseConcat();
        if (AcceptKeyword("IN")) {
            function->children.push_back(ParseExpression());
            function->children.push_back(std::move(needle));
        } else {
            function->children.push_back(std::move(needle));
            while (AcceptOperator(",")) {
                function->children.push_back(ParseExpression());
            }
        }
        ExpectOperator(")");
        return function;
    }
    if (AcceptKeyword("DISTINCT")) {
        function->distinct = true;
    } else {
        AcceptKeyword("ALL");
    }
    if (!IsOperator(")")) {
        function->children.push_back(ParseFunctionArgument());
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
                function->children.push_back(ParseFunctionArgument());
            }
        }
    }
    if (IsKeyword("ORDER") && IsKeyword("BY", 1)) {
        // string_agg(s, ',' ORDER BY k): the order an aggregate sees its rows in.
        pos_ += 2;
        auto orders = std::make_shared<std::vector<OrderTerm>>();
        do {
            orders->push_back(ParseOrderTerm(true));
        } while (AcceptOperator(","));
        function->order_by = std::move(orders);
    }
    if (IsKeyword("IGNORE") && IsKeyword("NULLS", 1)) {
        // first_value(x IGNORE NULLS) OVER (...)
        pos_ += 2;
        function->ignore_nulls = true;
    } else if (IsKeyword("RESPECT") && IsKeyword("NULLS", 1)) {
        pos_ += 2;
    }
    ExpectOperator(")");
    AcceptFilter(*function);
    AcceptOver(*function);
    return function;
}

void Parser::AcceptFilter(ParsedExpression& function) {
    if (IsKeyword("FILTER") && IsOperator("(", 1)) {
        // agg(...) FILTER (WHERE condition): only rows meeting the condition are aggregated.
        pos_ += 2;
        ExpectKeyword("WHERE");
        function.filter = ParseExpression();
        ExpectOperator(")");
    }
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

namespace sluice {

ParsedExpressionPtr Parser::ParseFunctionArgument() {
    // Lambdas: x -> body, (x, i) -> body, and DuckDB's newer lambda x, i: body.
    auto lambda_of = [&](std::vector<std::string> names) {
        auto lambda = MakeExpression(ParsedExpressionKind::Lambda, Peek().location);
        lambda->names = std::move(names);
        lambda->children.push_back(ParseExpression());
        return lambda;
    };
    if (Peek().type == TokenType::Identifier && IsOperator("->", 1)) {
        std::vector<std::string> names = {Take().text};
        Take();
        return lambda_of(std::move(names));
    }
    if (IsOperator("(") && Peek(1).type == TokenType::Identifier) {
        // (a, b, ...) -> body: the names must close with ")" followed by "->".
        size_t ahead = 1;
        while (Peek(ahead).type == TokenType::Identifier && IsOperator(",", ahead + 1)) {
            ahead += 2;
        }
        if (Peek(ahead).type == TokenType::Identifier && IsOperator(")", ahead + 1) &&
            IsOperator("->", ahead + 2)) {
            Take();
            std::vector<std::string> names;
            do {
                names.push_back(Take().text);
            } while (AcceptOperator(","));
            ExpectOperator(")");
            Take();
            return lambda_of(std::move(names));
        }
    }
    if (Peek().type == TokenType::Identifier && Lower(Peek().text) == "lambda" &&
        Peek(1).type == TokenType::Identifier) {
        Take();
        std::vector<std::string> names;
        do {
            if (Peek().type != TokenType::Identifier) {
                SyntaxError(Peek());
            }
            names.push_back(Take().text);
        } while (AcceptOperator(","));
        ExpectOperator(":");
        auto lambda = lambda_of(std::move(names));
        lambda->call_syntax = CallSyntax::LambdaKeyword;
        return lambda;
    }
    // name := value, as struct_pack(a := 1) and unnest(x, recursive := true): the alias names it
    if ((Peek().type == TokenType::Identifier || Peek().type == TokenType::QuotedIdentifier) &&
        IsOperator(":=", 1)) {
        std::string name = Take().text;
        Take();
        auto value = ParseExpression();
        value->alias = std::move(name);
        return value;
    }
    return ParseExpression();
}

ParsedExpressionPtr Parser::ParseListValue() {
    // [a, b, ...] is list_value(a, b, ...)
    auto list = MakeExpression(ParsedExpressionKind::Function, Take().location);
    list->text = "list_value";
    list->call_syntax = CallSyntax::ListLiteral;
    if (!IsOperator("]")) {
        do {
            list->children.push_back(ParseExpression());
        } while (AcceptOperator(","));
    }
    ExpectOperator("]");
    return list;
}

ParsedExpressionPtr Parser::ParseStructValue() {
    // {'name': value, name: value} is struct_pack(name := value, ...): the children's aliases
    // name the fields.
    auto pack = MakeExpression(ParsedExpressionKind::Function, Take().location);
    pack->text = "struct_pack";
    pack->call_syntax = CallSyntax::StructLiteral;
    do {
        const Token& name = Peek();
        if (name.type != TokenType::String && name.type != TokenType::Identifier &&
            name.type != TokenType::QuotedIdentifier) {
            SyntaxError(name);
        }
        std::string field = Take().text;
        ExpectOperator(":");
        auto value = ParseExpression();
        value->alias = std::move(field);
        pack->children.push_back(std::move(value));
    } while (AcceptOperator(","));
    ExpectOperator("}");
    return pack;
}

ParsedExpressionPtr Parser::ParseMapValue(SourceLocation location) {
    // MAP {k: v, ...} is map(list_value(k, ...), list_value(v, ...))
    Take(); // '{'
    auto keys = MakeExpression(ParsedExpressionKind::Function, location);
    keys->text = "list_value";
    keys->call_syntax = CallSyntax::ListLiteral;
    auto values = MakeExpression(ParsedExpressionKind::Function, location);
    values->text = "list_value";
    values->call_syntax = CallSyntax::ListLiteral;
    if (!IsOperator("}")) {
        do {
            keys->children.push_back(ParseExpression());
            ExpectOperator(":");
            values->children.push_back(ParseExpression());
        } while (AcceptOperator(","));
    }
    ExpectOperator("}");
    auto map = MakeExpression(ParsedExpressionKind::Function, location);
    map->text = "map";
    map->call_syntax = CallSyntax::MapLiteral;
    map->children.push_back(std::move(keys));
    map->children.push_back(std::move(values));
    return map;
}

} // namespace sluice
