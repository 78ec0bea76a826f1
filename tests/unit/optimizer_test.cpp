// The optimizer's decisions, read from EXPLAIN: they change speed, not results, so the
// result-comparing tests cannot see them.
#include "common/allocation_budget.hpp"
#include "main/sluice.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <unistd.h>

using namespace sluice;

namespace {

std::string Explain(Connection& connection, const std::string& query) {
    return connection.Query("EXPLAIN " + query)->GetValue(1, 0).GetString();
}

} // namespace

TEST(Optimizer, InSubqueryInWhereBecomesASemiJoinBelowTheOtherJoins) {
    Database database;
    Connection connection(database);
    std::string plan =
        Explain(connection, "SELECT count(*) FROM range(1000) a(x), range(10) b(y) "
                            "WHERE x = y AND x IN (SELECT 2 * i FROM range(5) c(i))");
    auto semi = plan.find("HASH_JOIN SEMI");
    auto inner = plan.find("HASH_JOIN INNER");
    ASSERT_NE(semi, std::string::npos) << plan;
    ASSERT_NE(inner, std::string::npos) << plan;
    EXPECT_LT(inner, semi) << "the semi join should sit below the inner join\n" << plan;
    EXPECT_EQ(plan.find("MARK"), std::string::npos) << plan;
}

TEST(Optimizer, NotInStaysAMarkJoinForItsNullSemantics) {
    Database database;
    Connection connection(database);
    std::string plan = Explain(connection, "SELECT count(*) FROM range(10) a(x) WHERE x NOT IN "
                                           "(SELECT i FROM range(5) c(i))");
    EXPECT_NE(plan.find("HASH_JOIN MARK"), std::string::npos) << plan;
}

TEST(Optimizer, FiltersReachTheScanAndTheJoinKeys) {
    Database database;
    Connection connection(database);
    std::string plan = Explain(connection, "SELECT count(*) FROM range(1000) a(x), range(100) b(y) "
                                           "WHERE x = y AND y < 50 AND x + y > 3");
    // x = y becomes the hash key; y < 50 a scan filter; x + y > 3 a residual.
    EXPECT_NE(plan.find("HASH_JOIN INNER #[0.0] = #[1.0]"), std::string::npos) << plan;
    EXPECT_NE(plan.find("filters 1"), std::string::npos) << plan;
    EXPECT_NE(plan.find(" AND "), std::string::npos) << plan;
}

TEST(Optimizer, AFilterOnOneColumnReachesTheColumnsEqualToIt) {
    Database database;
    Connection connection(database);
    connection.Query("CREATE TABLE t AS SELECT i, i % 3 AS k FROM range(10) r(i)");
    std::string plan = Explain(connection, "SELECT count(*) FROM t a, t b "
                                           "WHERE a.i = b.i AND a.i = b.k AND a.i = 2");
    // a.i = 2 gives b.i = 2 and b.k = 2: both scans filter.
    EXPECT_NE(plan.find("SCAN t #0 columns [i] filters 1"), std::string::npos) << plan;
    EXPECT_NE(plan.find("SCAN t #1 columns [i, k] filters 2"), std::string::npos) << plan;
}

TEST(Optimizer, FiltersGoIntoEverySideOfASetOperation) {
    Database database;
    Connection connection(database);
    connection.Query("CREATE TABLE t AS SELECT i, i % 3 AS k FROM range(10) r(i)");
    for (const char* operation :
         {"UNION", "UNION ALL", "EXCEPT", "EXCEPT ALL", "INTERSECT", "INTERSECT ALL"}) {
        std::string plan =
            Explain(connection, std::string("SELECT * FROM (SELECT * FROM t ") + operation +
                                    " SELECT * FROM t) WHERE i = 3 AND k < 2");
        // Both scans get both filters, below the union of the sides.
        size_t scans = 0;
        for (size_t at = plan.find("filters 2"); at != std::string::npos;
             at = plan.find("filters 2", at + 1)) {
            scans++;
        }
        EXPECT_EQ(scans, 2u) << operation << "\n" << plan;
        EXPECT_LT(plan.find("UNION ALL"), plan.find("filters 2")) << operation << "\n" << plan;
    }
}

TEST(Optimizer, SmallerInputBuildsTheHashTable) {
    Database database;
    Connection connection(database);
    std::string plan = Explain(connection, "SELECT count(*) FROM range(10) small(x), "
                                           "range(100000) big(y) WHERE x = y");
    // The probe side (first child) is the big range: its scan line comes first.
    auto big = plan.find("SCAN range #1");
    auto small = plan.find("SCAN range #0");
    ASSERT_NE(big, std::string::npos) << plan;
    ASSERT_NE(small, std::string::npos) << plan;
    EXPECT_LT(big, small) << plan;
}

TEST(Optimizer, LeftJoinBuildsOnItsSmallerPreservedSide) {
    Database database;
    Connection connection(database);
    std::string plan = Explain(connection, "SELECT count(y) FROM range(100) small(x) LEFT JOIN "
                                           "range(100000) big(y) ON x = y");
    // A right join probing with the big range, whose scan then comes first.
    EXPECT_NE(plan.find("HASH_JOIN RIGHT"), std::string::npos) << plan;
    EXPECT_LT(plan.find("SCAN range #1"), plan.find("SCAN range #0")) << plan;
    plan = Explain(connection, "SELECT count(y) FROM range(100000) big(x) LEFT JOIN "
                               "range(100) small(y) ON x = y");
    EXPECT_NE(plan.find("HASH_JOIN LEFT"), std::string::npos) << plan;
}

TEST(Optimizer, UnusedColumnsArePruned) {
    Database database;
    Connection connection(database);
    connection.Query("CREATE TABLE t AS SELECT i AS a, i * 2 AS b, i * 3 AS c FROM range(10) r(i)");
    std::string plan = Explain(connection, "SELECT b FROM (SELECT * FROM t) WHERE b > 4");
    EXPECT_NE(plan.find("columns [b]"), std::string::npos) << plan;
}

TEST(Optimizer, ExplainAnalyzeReportsRowsPerOperator) {
    Database database;
    Connection connection(database);
    auto result =
        connection.Query("EXPLAIN ANALYZE SELECT x % 3, count(*) FROM range(1000) t(x) GROUP BY 1");
    std::string report = result->GetValue(1, 0).GetString();
    EXPECT_NE(report.find("RANGE"), std::string::npos) << report;
    EXPECT_NE(report.find("1000 rows"), std::string::npos) << report;
    EXPECT_NE(report.find("HASH_GROUP_BY"), std::string::npos) << report;
    EXPECT_NE(report.find("total: 3 rows"), std::string::npos) << report;
}

namespace {

size_t Occurrences(const std::string& text, const std::string& word) {
    size_t count = 0;
    for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
        count++;
    }
    return count;
}

} // namespace

TEST(Optimizer, CteNamedTwiceIsComputedOnceAndScannedByBothReferences) {
    Database database;
    Connection connection(database);
    const std::string twice = "WITH s AS (SELECT x % 7 AS k, sum(x) AS v FROM range(1000) t(x) "
                              "GROUP BY 1) SELECT k FROM s WHERE v = (SELECT max(v) FROM s)";
    std::string plan = Explain(connection, twice);
    EXPECT_EQ(Occurrences(plan, "MATERIALIZED CTE s"), 1u) << plan;
    EXPECT_EQ(Occurrences(plan, "SCAN range"), 1u) << plan;
    EXPECT_EQ(Occurrences(plan, "SCAN s"), 2u) << plan;
    EXPECT_EQ(connection.Query(twice)->GetValue(0, 0).GetInteger(), 5); // 999 % 7 = 5

    // Named once, a CTE is inlined, so filters reach its scan; NOT MATERIALIZED inlines always.
    std::string once = Explain(connection, "WITH s AS (SELECT x FROM range(10) t(x)) "
                                           "SELECT x FROM s WHERE x > 3");
    EXPECT_EQ(Occurrences(once, "MATERIALIZED"), 0u) << once;
    std::string inlined = Explain(connection, "WITH s AS NOT MATERIALIZED (SELECT 1 AS x) "
                                              "SELECT * FROM s a, s b");
    EXPECT_EQ(Occurrences(inlined, "MATERIALIZED"), 0u) << inlined;
    std::string forced = Explain(connection, "WITH s AS MATERIALIZED (SELECT 1 AS x) "
                                             "SELECT * FROM s");
    EXPECT_EQ(Occurrences(forced, "MATERIALIZED CTE s"), 1u) << forced;
}

TEST(Optimizer, NestedColumnsReadOnlyTheFieldsTheQueryUses) {
    Database database;
    Connection connection(database);
    connection.Query("CREATE TABLE t AS SELECT i AS k, {'a': i, 'b': {'c': i, 'd': 'x'}} AS s, "
                     "[{'a': i, 'b': 'y'}] AS l FROM range(10) r(i)");
    auto reads = [&](const std::string& query, const std::string& expected) {
        std::string plan = Explain(connection, query);
        EXPECT_NE(plan.find(expected), std::string::npos) << query << "\n" << plan;
    };
    reads("SELECT s.a, s.b.d FROM t", "s reading {.a, .b.d}");
    reads("SELECT x.b.c FROM (SELECT s AS x FROM t) WHERE x.a > 2", "s reading {.a, .b.c}");
    reads("SELECT l[1].b FROM t", "l reading {[].b}");
    reads("SELECT e.a FROM (SELECT unnest(l) AS e FROM t)", "l reading {[].a}");
    reads("SELECT count(*) FROM (SELECT unnest(l) FROM t)", "l reading {[].a}");
    reads("SELECT len(l) FROM t", "l reading {[].a}");
    // A list index is read as a value, also where a subquery's column is the path.
    reads("SELECT x.b FROM (SELECT l[s.b.c] AS x FROM t)", "s reading {.b.c}");
    // Whole values, values a lambda or a UNION reads, keep every leaf.
    reads("SELECT s.a, s FROM t", "columns [s]");
    reads("SELECT list_transform(l, e -> e.a) FROM t", "columns [l]");
    reads("SELECT x.a FROM (SELECT s AS x FROM t UNION ALL SELECT s FROM t)", "columns [s]");
    reads("SELECT s.b.c FROM t GROUP BY s", "columns [s]");
}

TEST(Optimizer, FiltersOnStructFieldsReachTheScan) {
    Database database;
    Connection connection(database);
    connection.Query("CREATE TABLE t AS SELECT {'a': i, 'b': {'c': i}} AS s, [i] AS l "
                     "FROM range(10) r(i)");
    std::string plan =
        Explain(connection, "SELECT s.b.c FROM t WHERE s.a > 2 AND s.b.c IS NOT NULL");
    EXPECT_NE(plan.find("filters 2"), std::string::npos) << plan;
    // Not through lists: a row holds any number of their values.
    plan = Explain(connection, "SELECT s.a FROM t WHERE l[1] > 2");
    EXPECT_EQ(plan.find("filters"), std::string::npos) << plan;
}

TEST(Optimizer, ListConstantsOfThousandsOfElementsAreNotFoldedIntoValues) {
    // A folded constant is a Value, one object per element: range(20000000) folded would take
    // gigabytes where its vector takes 160 MB. Small lists still fold.
    Database database;
    Connection connection(database);
    std::string plan = Explain(connection, "SELECT range(5000) AS big, range(3) AS small");
    EXPECT_NE(plan.find("range(CAST(5000"), std::string::npos) << plan;
    EXPECT_EQ(plan.find("range(CAST(3"), std::string::npos) << plan;
    EXPECT_NE(plan.find("[0, 1, 2]"), std::string::npos) << plan;
}

TEST(Optimizer, WindowsAndUnnestHandOnOnlyTheColumnsReadAboveThem) {
    // A window sorts every column it hands on; UNNEST repeats each per element (the unnested
    // list among them). Only those read above are handed on: here the window sorts by b and
    // reads c, UNNEST reads l, and only a is read above them.
    Database database;
    Connection connection(database);
    connection.Query("CREATE TABLE t AS SELECT range AS a, range % 7 AS b, range * 2 AS c, "
                     "[range, range + 1] AS l, 'text ' || range AS s FROM range(100)");
    for (const char* one_column_read :
         {"SELECT a, sum(c) OVER (ORDER BY b) FROM t", "SELECT a, unnest(l) FROM t"}) {
        std::string plan = Explain(connection, one_column_read);
        EXPECT_NE(plan.find("passing [#[0.0]]"), std::string::npos) << plan;
    }
    for (const char* none_read :
         {"SELECT sum(s) FROM (SELECT sum(c) OVER (ORDER BY b) AS s FROM t)",
          "SELECT sum(e) FROM (SELECT unnest(l) AS e FROM t)"}) {
        std::string plan = Explain(connection, none_read);
        EXPECT_NE(plan.find("passing []"), std::string::npos) << plan;
    }
    auto value = [&](const std::string& sql) {
        return connection.Query(sql)->GetValue(0, 0).ToString();
    };
    EXPECT_EQ(value("SELECT sum(s) FROM (SELECT sum(c) OVER (ORDER BY b, a) AS s FROM t)"),
              value("SELECT sum(s) FROM (SELECT sum(c) OVER (ORDER BY b, a) AS s, a, b, c "
                    "FROM t)"));
    // DuckDB's answers.
    EXPECT_EQ(value("SELECT sum(a * e) FROM (SELECT a, unnest(l) AS e, s FROM t)"), "661650");
    EXPECT_EQ(value("SELECT max(s || e) FROM (SELECT a, unnest(l) AS e, s FROM t)"), "text 9999");
}

TEST(Optimizer, FoldingGivesUpOnConstantsThatTakeMuchMemoryToCompute) {
    // Folding range(250000000) evaluated it in full (2 GB) before finding it too large to keep
    // (the SQL fuzzer's out-of-memory finding); repeat builds big strings from small inputs.
    // The budget here counts everything binding allocates: it is spent only if folding does
    // not stop after its own few megabytes.
    Database database;
    Connection connection(database);
    std::string plan;
    {
        AllocationBudget whole_bind(256 << 20);
        plan =
            Explain(connection, "SELECT len(range(250000000)) AS n, repeat('ab', 400000000) AS s");
    }
    EXPECT_NE(plan.find("range(CAST(250000000"), std::string::npos) << plan;
    EXPECT_NE(plan.find("repeat('ab'"), std::string::npos) << plan;
}

TEST(Optimizer, JoinsHandTheirBuildKeysToTheParquetScanBelowTheirProbeSide) {
    Database database;
    Connection connection(database);
    std::string directory =
        (std::filesystem::temp_directory_path() / ("sluice_join_keys_" + std::to_string(getpid())))
            .string();
    std::filesystem::create_directories(directory);
    connection.Query("COPY (SELECT range AS id, range % 1000 AS k FROM range(200000)) TO '" +
                     directory + "/facts.parquet' (FORMAT parquet)");
    connection.Query("CREATE VIEW facts AS SELECT * FROM '" + directory + "/facts.parquet'");
    connection.Query("CREATE TABLE dims AS SELECT range * 10 AS k FROM range(5)");
    const std::string join = "SELECT count(*) FROM facts f JOIN dims d ON f.k = d.k";

    std::string plan = Explain(connection, join);
    EXPECT_NE(plan.find("(keys to scan #"), std::string::npos) << plan;
    EXPECT_NE(plan.find("columns [k] join keys #"), std::string::npos) << plan;
    // A preserved probe side, and rows below a LIMIT or a window, are left alone; a table
    // (not filtered while read) is never handed keys.
    for (const char* query :
         {"SELECT count(*) FROM facts f LEFT JOIN dims d ON f.k = d.k",
          "SELECT count(*) FROM (SELECT k FROM facts LIMIT 10) f JOIN dims d ON f.k = d.k",
          "SELECT count(*) FROM (SELECT k, row_number() OVER () AS r FROM facts) f JOIN dims d "
          "ON f.k = d.k",
          "SELECT count(*) FROM dims d JOIN (SELECT * FROM range(3) t(k)) r ON d.k = r.k"}) {
        plan = Explain(connection, query);
        EXPECT_EQ(plan.find("join keys"), std::string::npos) << query << "\n" << plan;
    }

    std::string report = connection.Query("EXPLAIN ANALYZE " + join)->GetValue(1, 0).GetString();
    EXPECT_NE(report.find("keys handed to the probe side's scan: 5 keys in [0, 40], bloom filter"),
              std::string::npos)
        << report;
    // 1,000 rows of the 200,000 have one of the five keys: the scan drops nearly all others.
    std::smatch filtered;
    ASSERT_TRUE(
        std::regex_search(report, filtered, std::regex("rows filtered while decoding ([0-9]+)")))
        << report;
    EXPECT_GE(std::stoull(filtered[1]), 190000u) << report;
    EXPECT_EQ(connection.Query(join)->GetValue(0, 0).GetInteger(), 1000);
    std::filesystem::remove_all(directory);
}

TEST(Optimizer, JoinsOnDenseIntegerKeysIndexTheirHeadsByTheKey) {
    Database database;
    Connection connection(database);
    auto profile = [&](const std::string& query) {
        return connection.Query("EXPLAIN ANALYZE " + query)->GetValue(1, 0).GetString();
    };
    // Keys 1000..1999 (each twice): a direct index of 1000 heads.
    std::string dense =
        profile("SELECT count(*) FROM range(5000) a(x) JOIN (SELECT 1000 + i % 1000 "
                "AS y FROM range(2000) t(i)) b ON x = y");
    EXPECT_NE(dense.find("heads indexed by the key itself (1000 values)"), std::string::npos)
        << dense;
    EXPECT_NE(dense.find("total: 1 rows"), std::string::npos) << dense;
    // Keys spread far apart keep hashing.
    std::string sparse = profile("SELECT count(*) FROM range(5000) a(x) JOIN (SELECT i * 1000000 "
                                 "AS y FROM range(2000) t(i)) b ON x = y");
    EXPECT_EQ(sparse.find("heads indexed"), std::string::npos) << sparse;
}
