#include "main/sluice.hpp"

#include <gtest/gtest.h>

using namespace sluice;

TEST(Connection, ReturnsTypedValuesAndChunks) {
    Database database;
    Connection connection(database);
    auto result = connection.Query("SELECT 42 AS x, 'text' AS s, 1.5 * 2.25 AS d, NULL AS n");
    ASSERT_EQ(result->ColumnCount(), 4u);
    EXPECT_EQ(result->names()[2], "d");
    EXPECT_EQ(result->types()[2], LogicalType::Decimal(5, 3));
    EXPECT_EQ(result->GetValue(0, 0).GetInteger(), 42);
    EXPECT_EQ(result->GetValue(1, 0).GetString(), "text");
    EXPECT_EQ(result->GetValue(2, 0).ToString(), "3.375");
    EXPECT_TRUE(result->GetValue(3, 0).IsNull());
    auto chunk = result->Fetch();
    ASSERT_TRUE(chunk);
    EXPECT_EQ(chunk->size(), 1u);
    EXPECT_FALSE(result->Fetch());
}

TEST(Connection, WhereAndLimitFilterRows) {
    Database database;
    Connection connection(database);
    auto result = connection.Query(
        "SELECT name FROM sluice_settings() WHERE name = 'threads' OR name = 'async_threads'");
    ASSERT_EQ(result->RowCount(), 2u);
    EXPECT_EQ(result->GetValue(0, 0).GetString(), "threads");
    EXPECT_EQ(connection.Query("SELECT * FROM sluice_settings() LIMIT 3")->RowCount(), 3u);
    // OFFSET past all but the last setting leaves one row of the two asked for.
    std::string last = std::to_string(Settings::Definitions().size() - 1);
    EXPECT_EQ(
        connection.Query("SELECT * FROM sluice_settings() LIMIT 2 OFFSET " + last)->RowCount(), 1u);
    EXPECT_EQ(connection.Query("SELECT 1 WHERE 1 = 0")->RowCount(), 0u);
}

TEST(Connection, ErrorsCarryTheirKind) {
    Database database;
    Connection connection(database);
    auto kind_of = [&](const std::string& sql) {
        try {
            connection.Query(sql);
        } catch (const Exception& error) {
            return error.Kind();
        }
        return ErrorKind::Internal;
    };
    EXPECT_EQ(kind_of("SELECT"), ErrorKind::Parser);
    EXPECT_EQ(kind_of("SELECT x"), ErrorKind::Binder);
    EXPECT_EQ(kind_of("SELECT 2147483647 + 1"), ErrorKind::OutOfRange);
    EXPECT_EQ(kind_of("SELECT 'x'::INTEGER"), ErrorKind::Conversion);
    EXPECT_EQ(kind_of("SELECT * FROM nope()"), ErrorKind::Catalog);
    EXPECT_EQ(kind_of("SELECT 1::NOTATYPE"), ErrorKind::Catalog);
    // Ordinals of more digits than an int64_t holds (the SQL fuzzer's 10-minute run: they
    // escaped as std::out_of_range from stoll).
    EXPECT_EQ(kind_of("SELECT 1 AS a GROUP BY 99999999999999999999999"), ErrorKind::Binder);
    EXPECT_EQ(kind_of("SELECT 1 AS a ORDER BY 99999999999999999999999"), ErrorKind::Binder);
    // A literal of bytes that are not UTF-8 (the SQL fuzzer's: lpad with a fill of a lone
    // continuation byte, which counts no character, divided by zero).
    EXPECT_EQ(kind_of("SELECT lpad('ab', 7, '\xa9')"), ErrorKind::Parser);
    EXPECT_EQ(
        connection.Query("SELECT lpad('ab', 7, ''), rpad('ab', 1, '')")->GetValue(0, 0).ToString(),
        "ab");
    // The connection stays usable after errors.
    EXPECT_EQ(connection.Query("SELECT 1")->GetValue(0, 0).GetInteger(), 1);
}

TEST(Connection, UnknownColumnSuggestsTheClosestName) {
    Database database;
    Connection connection(database);
    try {
        connection.Query("SELECT nme FROM sluice_settings()");
        FAIL();
    } catch (const Exception& error) {
        std::string message = error.what();
        EXPECT_NE(message.find("Referenced column \"nme\" not found"), std::string::npos);
        EXPECT_NE(message.find("Did you mean \"name\"?"), std::string::npos);
        EXPECT_NE(message.find("LINE 1: SELECT nme FROM"), std::string::npos);
    }
}

// Statements with parameters: $n by number, ? in order, values binding as literals written
// there would (a string against a DATE, an integer against a DECIMAL), NULL, and the errors.
TEST(Connection, ParametersTakeTheirValues) {
    Database database;
    Connection connection(database);
    auto one = [&](const std::string& sql, const std::vector<Value>& values) {
        return connection.Query(sql, values)->GetValue(0, 0).ToString();
    };
    EXPECT_EQ(one("SELECT $1 + $2", {Value::Integer(LogicalTypeId::INTEGER, 40),
                                     Value::Integer(LogicalTypeId::BIGINT, 2)}),
              "42");
    EXPECT_EQ(one("SELECT ? || '-' || ?", {Value::Varchar("a"), Value::Varchar("b")}), "a-b");
    EXPECT_EQ(one("SELECT $2 || $1 || $2", {Value::Varchar("x"), Value::Varchar("y")}), "yxy");
    EXPECT_EQ(one("SELECT $1 IS NULL", {Value()}), "true");
    connection.Query(
        "CREATE TABLE t AS SELECT DATE '2020-01-01' + i AS d, (i * 1.25)::DECIMAL(9,2) "
        "AS m FROM range(10) r(i)");
    EXPECT_EQ(one("SELECT count(*) FROM t WHERE d > ?", {Value::Varchar("2020-01-05")}), "5");
    EXPECT_EQ(one("SELECT sum(m) FROM t WHERE m >= ?", {Value::Integer(LogicalTypeId::INTEGER, 5)}),
              "48.75");
    EXPECT_EQ(connection.ParameterCount("SELECT $3, ?"), 3u);
    EXPECT_EQ(connection.ParameterCount("SELECT ?, ?, '?'"), 2u);
    auto error = [&](const std::string& sql, const std::vector<Value>& values) {
        try {
            connection.Query(sql, values);
        } catch (const Exception& caught) {
            return std::string(caught.what());
        }
        return std::string("no error");
    };
    EXPECT_EQ(error("SELECT ?", {}),
              "Invalid Input Error: the statement takes 1 parameters, but 0 were given");
    EXPECT_EQ(error("SELECT 1; SELECT ?", {Value()}),
              "Invalid Input Error: a statement with parameters must be one statement, not 2");
    EXPECT_NE(error("SELECT ?", {}).find("Invalid Input Error"), std::string::npos);
    // Without values, a parameter is an error, not a NULL.
    EXPECT_NE(error("SELECT $1", {}).find("1 parameters, but 0"), std::string::npos);
    EXPECT_NE(std::string(error("SELECT $2", {Value()})).find("2 parameters"), std::string::npos);
    EXPECT_NE(error("SELECT $0", {}).find("out of range"), std::string::npos);
}
