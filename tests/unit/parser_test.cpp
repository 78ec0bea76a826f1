#include "common/exception.hpp"
#include "sql/parser.hpp"

#include <gtest/gtest.h>

using namespace sluice;

namespace {

std::string ParseError(const std::string& sql) {
    try {
        Parser(sql).ParseStatements();
    } catch (const Exception& error) {
        EXPECT_EQ(error.Kind(), ErrorKind::Parser);
        return error.what();
    }
    return "";
}

} // namespace

TEST(Parser, SplitsStatementsAndKeepsTheirText) {
    auto statements = Parser("SET threads = 2; SELECT 1 -- comment\n; /* block */ RESET threads")
                          .ParseStatements();
    ASSERT_EQ(statements.size(), 3u);
    EXPECT_EQ(statements[0].kind, StatementKind::Set);
    EXPECT_EQ(statements[0].setting_name, "threads");
    EXPECT_EQ(statements[1].kind, StatementKind::Select);
    EXPECT_EQ(statements[1].text, "SELECT 1 -- comment\n");
    EXPECT_EQ(statements[2].kind, StatementKind::Reset);
}

TEST(Parser, PrecedenceFollowsSql) {
    auto statements = Parser("SELECT 1 + 2 * 3 = 7 AND NOT 1 > 2 OR x IS NULL").ParseStatements();
    const auto& expression = statements[0].select->select_list[0];
    EXPECT_EQ(expression->ToString(), "((((1 + (2 * 3)) = 7) AND (NOT (1 > 2))) OR (x IS NULL))");
    auto cast = Parser("SELECT -1::TINYINT, CAST(2.5 AS DECIMAL(5, 2)), DATE '2020-01-01'")
                    .ParseStatements();
    // :: binds tighter than unary minus, as in PostgreSQL and DuckDB.
    EXPECT_EQ(cast[0].select->select_list[0]->ToString(), "-(CAST(1 AS \"TINYINT\"))");
    EXPECT_EQ(cast[0].select->select_list[1]->ToString(), "CAST(2.5 AS DECIMAL(5, 2))");
    EXPECT_EQ(cast[0].select->select_list[2]->ToString(), "CAST('2020-01-01' AS \"DATE\")");
}

TEST(Parser, SyntaxErrorsPointAtTheOffendingToken) {
    EXPECT_EQ(ParseError("SELECT 1 +"),
              "Parser Error: syntax error at end of input at line 1, column 11\n\n"
              "LINE 1: SELECT 1 +\n"
              "                  ^");
    std::string error = ParseError("SELECT 1,\n  2 FROM FROM");
    EXPECT_NE(error.find("syntax error at or near \"FROM\" at line 2, column 10"),
              std::string::npos)
        << error;
    EXPECT_NE(error.find("LINE 2:   2 FROM FROM\n                 ^"), std::string::npos) << error;
    EXPECT_NE(
        ParseError("SELECT 'unterminated").find("unterminated quoted string at line 1, column 8"),
        std::string::npos);
    EXPECT_NE(ParseError("SELECT 1 /* open").find("unterminated /* comment"), std::string::npos);
    EXPECT_NE(ParseError("SELEC 1").find("\"SELEC\""), std::string::npos);
    EXPECT_NE(ParseError("SELECT 12abc").find("syntax error"), std::string::npos);
    EXPECT_NE(ParseError("SELECT 1 AS FROM").find("\"FROM\""), std::string::npos);
    EXPECT_NE(ParseError("SELECT 'é', #").find("at or near \"#\" at line 1, column 13"),
              std::string::npos);
}

TEST(Parser, SurvivesHostileInput) {
    // Deep nesting and garbage must give errors or parse, never crash.
    std::string nested = "SELECT " + std::string(100, '(') + "1" + std::string(100, ')');
    EXPECT_NO_THROW(Parser(nested).ParseStatements());
    std::string deep = "SELECT " + std::string(100000, '(') + "1" + std::string(100000, ')');
    EXPECT_NE(ParseError(deep).find("nested too deeply"), std::string::npos);
    std::string minus = "SELECT ";
    for (int i = 0; i < 100000; i++) {
        minus += "- "; // "--" would start a comment
    }
    minus += "1";
    EXPECT_NE(ParseError(minus).find("nested too deeply"), std::string::npos);
    std::string chain = "SELECT 1";
    for (int i = 0; i < 5000; i++) {
        chain += " + 1";
    }
    EXPECT_NE(ParseError(chain).find("nested too deeply"), std::string::npos);
    // Nested type names, as lists and as structs.
    std::string lists = "SELECT NULL::INTEGER";
    std::string structs = "SELECT NULL::";
    for (int i = 0; i < 100000; i++) {
        lists += "[]";
        structs += "STRUCT(a ";
    }
    structs += "INTEGER" + std::string(100000, ')');
    EXPECT_NE(ParseError(lists).find("nested too deeply"), std::string::npos);
    EXPECT_NE(ParseError(structs).find("nested too deeply"), std::string::npos);
    std::string garbage;
    for (int i = 0; i < 2000; i++) {
        garbage += static_cast<char>((i * 7919) % 256);
    }
    EXPECT_THROW(Parser(garbage).ParseStatements(), Exception);
}
