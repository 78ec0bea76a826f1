// Operators larger than memory_limit spill to temp_directory: results identical to the run
// without a limit at 1, 2 and 4 threads; clear errors when spilling is impossible.

#include "main/sluice.hpp"

#include "query_text.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/mount.h>
#include <thread>
#include <unistd.h>

using namespace sluice;

namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

const char* const kTables[] = {"lineitem", "orders",   "customer", "part",
                               "partsupp", "supplier", "nation",   "region"};

// TPC-H as Parquet files, generated once for every test process of the build (beside the
// test binary) and reused.
std::filesystem::path TpchDirectory(const std::string& scale) {
    std::filesystem::path directory =
        std::filesystem::canonical("/proc/self/exe").parent_path() / ("spill_tpch_sf" + scale);
    if (std::filesystem::exists(directory / "DONE")) {
        return directory;
    }
    std::filesystem::path partial = directory.string() + ".partial." + std::to_string(getpid());
    std::filesystem::create_directories(partial);
    {
        Database database;
        Connection connection(database);
        connection.Query("CALL dbgen(sf = " + scale + ")");
        for (const char* table : kTables) {
            connection.Query(std::string("COPY ") + table + " TO '" +
                             (partial / (std::string(table) + ".parquet")).string() + "'");
        }
    }
    std::ofstream(partial / "DONE") << "complete\n";
    std::error_code error;
    std::filesystem::rename(partial, directory, error);
    if (error) { // another process was first
        std::filesystem::remove_all(partial);
    }
    return directory;
}

// Views over the Parquet files (views belong to the database).
void AddViews(Connection& connection, const std::string& scale = "0.1") {
    std::filesystem::path directory = TpchDirectory(scale);
    for (const char* table : kTables) {
        connection.Query(std::string("CREATE VIEW ") + table + " AS SELECT * FROM '" +
                         (directory / (std::string(table) + ".parquet")).string() + "'");
    }
}

std::string Rows(Connection& connection, const std::string& sql) {
    return QueryText(connection, sql);
}

// A query's result as bytes, row after row (NULL flags, fixed-width values, strings with their
// lengths), whatever the chunking: exact, and much cheaper than rendering each value.
std::string ResultBytes(Connection& connection, const std::string& sql) {
    auto result = connection.Query(sql);
    std::string bytes;
    while (auto chunk = result->Fetch()) {
        chunk->Flatten();
        for (idx_t row = 0; row < chunk->size(); row++) {
            for (idx_t column = 0; column < chunk->ColumnCount(); column++) {
                const Vector& vector = chunk->column(column);
                bool valid = vector.RowIsValid(row);
                bytes += valid ? '1' : '0';
                if (!valid) {
                    continue;
                }
                PhysicalType type = vector.type().physical();
                if (type == PhysicalType::VARCHAR) {
                    string_t text = vector.data<string_t>()[row];
                    bytes += std::to_string(text.size()) + ":";
                    bytes += text.view();
                    continue;
                }
                idx_t width = PhysicalTypeSize(type);
                bytes.append(vector.data<char>() + row * width, width);
            }
        }
    }
    return bytes;
}

std::string TpchQuery(int number) {
    char name[16];
    std::snprintf(name, sizeof(name), "q%02d.sql", number);
    std::ifstream file(std::string(SLUICE_SOURCE_DIR) + "/tpch/queries/" + name);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

std::filesystem::path TempDirectory(const std::string& name) {
    return std::filesystem::temp_directory_path() /
           ("sluice_" + name + "_" + std::to_string(getpid()));
}

struct SpillCase {
    std::string name;
    std::string sql;
    bool spills = true;                // at the limit on SF 0.1
    std::string memory_limit = "10MB"; // far below the query's working set
    std::string profile_shows = "";    // what EXPLAIN ANALYZE at the limit must mention
};

std::vector<SpillCase> SpillCases() {
    return {
        {"sort", "SELECT l_orderkey, l_linenumber, l_comment, l_shipdate FROM lineitem "
                 "ORDER BY l_comment, l_orderkey, l_linenumber"},
        {"aggregate", "SELECT l_orderkey, sum(l_quantity), min(l_comment), max(l_shipmode), "
                      "count(*), avg(l_extendedprice) FROM lineitem GROUP BY l_orderkey "
                      "ORDER BY l_orderkey"},
        {"inner_join", "SELECT o_orderkey, l_linenumber, o_orderpriority, l_comment FROM lineitem "
                       "JOIN orders ON l_orderkey = o_orderkey ORDER BY o_orderkey, l_linenumber"},
        {"left_join",
         "SELECT l_linenumber, count(o_orderkey), sum(o_totalprice), count(*) FROM "
         "lineitem LEFT JOIN orders ON l_orderkey = o_orderkey AND o_orderstatus = "
         "'F' GROUP BY l_linenumber ORDER BY l_linenumber",
         true, "3MB"},
        // Built on orders, the preserved side; every partition's unmatched rows emitted.
        {"right_join", "SELECT o_orderpriority, count(l_orderkey), sum(l_quantity), count(*) FROM "
                       "orders LEFT JOIN lineitem ON o_orderkey = l_orderkey AND l_linenumber > "
                       "o_shippriority + 5 GROUP BY o_orderpriority ORDER BY o_orderpriority"},
        {"full_join", "SELECT count(*), count(o_orderkey), count(l_orderkey), sum(l_quantity), "
                      "sum(o_totalprice) FROM orders FULL JOIN lineitem ON o_orderkey = "
                      "l_orderkey AND l_quantity < 10"},
        {"in_and_not_in",
         "SELECT (SELECT count(*) FROM lineitem WHERE l_orderkey IN (SELECT o_orderkey FROM "
         "orders WHERE o_orderstatus = 'F')), (SELECT count(*) FROM lineitem WHERE l_partkey NOT "
         "IN (SELECT ps_partkey FROM partsupp WHERE ps_availqty > 5000))",
         false},
        {"union_all_inputs",
         "SELECT count(*), sum(k), max(c) FROM (SELECT l_orderkey AS k, l_comment AS c FROM "
         "lineitem UNION ALL SELECT o_orderkey, o_comment FROM orders)"},
        {"cte_named_twice",
         "WITH t AS (SELECT l_orderkey, l_comment FROM lineitem) SELECT (SELECT count(*) FROM t), "
         "(SELECT max(l_comment) FROM t)"},
        {"distinct_aggregates",
         "SELECT (SELECT count(DISTINCT l_comment) FROM lineitem), sum(c), sum(s) FROM (SELECT "
         "l_suppkey, count(DISTINCT l_orderkey) AS c, sum(DISTINCT l_orderkey) AS s FROM "
         "lineitem GROUP BY l_suppkey)"},
        // Two window operators, each partitioned: buckets spilled and computed one at a time.
        {"window",
         "SELECT l_orderkey, l_linenumber, sum(l_quantity) OVER (PARTITION BY l_orderkey ORDER "
         "BY l_linenumber), rank() OVER (PARTITION BY l_suppkey ORDER BY l_extendedprice, "
         "l_orderkey, l_linenumber), l_comment FROM lineitem ORDER BY l_orderkey, l_linenumber"},
        // Without PARTITION BY, one partition: the external sort, ties (l_shipdate) kept in
        // input order, a moving frame and lag across the runs' edges.
        {"window_one_partition",
         "SELECT l_orderkey, l_linenumber, l_comment, l_shipinstruct, row_number() OVER (ORDER BY "
         "l_shipdate) AS rn, lag(l_partkey) OVER (ORDER BY l_shipdate), sum(l_quantity) OVER "
         "(ORDER BY l_orderkey, l_linenumber ROWS BETWEEN 3 PRECEDING AND 3 FOLLOWING) FROM "
         "lineitem ORDER BY rn",
         true, "56MB", "one partition larger than memory: external sort"},
        // Nested keys and values through the aggregate's, the join's and the sort's spill files.
        {"nested",
         "SELECT k, s, count(*), sum(q) FROM (SELECT [l_orderkey, l_linenumber % 2] AS k, "
         "{'mode': l_shipmode, 'flags': [l_returnflag, l_linestatus]} AS s, l_quantity AS q FROM "
         "lineitem JOIN (SELECT o_orderkey, [o_orderkey] AS ok FROM orders) ON [l_orderkey] = ok "
         "WHERE l_orderkey % 4 = 0) GROUP BY k, s ORDER BY k DESC, s",
         true, "4MB"},
        {"tpch_q9", TpchQuery(9), true, "3MB"}, // its joins hold about 10 MB
        {"tpch_q13", TpchQuery(13), false},
        {"tpch_q18", TpchQuery(18)},
    };
}

class SpillingQuery : public ::testing::TestWithParam<std::tuple<size_t, int>> {};

// A query run without a limit, then at 10 MB (far below its working set; less for queries that
// need little): the same rows, something spilled, no spill file left behind.
TEST_P(SpillingQuery, GivesTheUnlimitedResultAtTenMegabytes) {
    auto [index, threads] = GetParam();
    SpillCase spill = SpillCases()[index];
    std::filesystem::path temp = TempDirectory("spill_query");
    std::string expected;
    {
        Database database;
        Connection connection(database);
        AddViews(connection);
        expected = ResultBytes(connection, spill.sql);
    }
    ASSERT_GT(expected.size(), 4u);
    Database database;
    Connection connection(database);
    AddViews(connection);
    connection.Query("SET threads = " + std::to_string(threads));
    connection.Query("SET memory_limit = '" + spill.memory_limit + "'");
    connection.Query("SET temp_directory = '" + temp.string() + "'");
    EXPECT_TRUE(ResultBytes(connection, spill.sql) == expected) << "results differ";
    if (!spill.profile_shows.empty()) {
        std::string profile = Rows(connection, "EXPLAIN ANALYZE " + spill.sql);
        EXPECT_NE(profile.find(spill.profile_shows), std::string::npos) << profile;
    }
    if (spill.spills) {
        EXPECT_GT(database.temporary_directory().files_created(), 0u) << "nothing spilled";
    }
    EXPECT_FALSE(std::filesystem::exists(temp)) << "spill files left behind";
    EXPECT_EQ(database.memory().used(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Spill, SpillingQuery,
                         ::testing::Combine(::testing::Range<size_t>(0, SpillCases().size()),
                                            ::testing::Values(1, 2, 4)),
                         [](const auto& info) {
                             return SpillCases()[std::get<0>(info.param)].name + "_threads" +
                                    std::to_string(std::get<1>(info.param));
                         });

// Q1, Q6, Q9 and Q18 on SF1 (SF 0.1 under sanitizers) on four connections at once, under a
// quarter of the memory the four need when each runs alone: every result exact, something
// spilled, no temporary file left.
TEST(Spill, FourConcurrentQueriesShareAQuarterOfTheirWorkingSet) {
    std::string scale = kSanitized ? "0.1" : "1";
    std::filesystem::path temp = TempDirectory("spill_concurrent");
    const int numbers[] = {1, 6, 9, 18};
    std::vector<std::string> expected;
    idx_t working_set = 0;
    {
        // The operators' working set: read-ahead held to one job, which the limited run's
        // memory-governed read-ahead must then shrink to.
        Database database;
        Connection connection(database);
        AddViews(connection, scale);
        connection.Query("SET read_ahead_depth = 1");
        for (int number : numbers) {
            database.memory().ResetPeak();
            expected.push_back(Rows(connection, TpchQuery(number)));
            working_set += database.memory().peak();
        }
    }
    Database database;
    {
        Connection setup(database);
        AddViews(setup, scale);
        setup.Query("SET memory_limit = '" + std::to_string(working_set / 4) + "B'");
        setup.Query("SET temp_directory = '" + temp.string() + "'");
    }
    std::vector<std::string> results(4);
    std::vector<std::string> errors(4);
    std::vector<std::thread> threads;
    for (int i = 0; i < 4; i++) {
        threads.emplace_back([&, i] {
            try {
                Connection connection(database);
                results[i] = Rows(connection, TpchQuery(numbers[i]));
            } catch (const std::exception& error) {
                errors[i] = error.what();
            }
        });
    }
    for (auto& thread : threads) {
        thread.join();
    }
    for (int i = 0; i < 4; i++) {
        SCOPED_TRACE("Q" + std::to_string(numbers[i]) + " at memory_limit " +
                     std::to_string(working_set / 4));
        EXPECT_EQ(errors[i], "");
        EXPECT_EQ(results[i], expected[i]);
    }
    EXPECT_GT(database.temporary_directory().files_created(), 0u) << "nothing spilled";
    EXPECT_FALSE(std::filesystem::exists(temp)) << "spill files left behind";
    EXPECT_EQ(database.memory().used(), 0u);
}

// Spilling on generated numbers at 4 threads, with answers known in closed form: the spilling
// operators (aggregate, join, sort, window), cheap enough to run under ThreadSanitizer.
TEST(SpillOnRangeData, AggregateJoinAndSortSpillAndAgreeWithArithmetic) {
    Database database;
    Connection connection(database);
    std::filesystem::path temp = TempDirectory("spill_range");
    connection.Query("SET threads = 4");
    connection.Query("SET memory_limit = '8MB'");
    connection.Query("SET temp_directory = '" + temp.string() + "'");
    const std::pair<const char*, const char*> cases[] = {
        {"SELECT count(*), sum(i) FROM (SELECT i FROM range(1000000) t(i) GROUP BY i)",
         "1000000|499999500000|\n"},
        {"SELECT count(*), sum(j) FROM range(1000000) a(i) JOIN range(1000000) b(j) ON i = j",
         "1000000|499999500000|\n"},
        {"SELECT i FROM range(1000000) t(i) ORDER BY i DESC OFFSET 999998", "1|\n0|\n"},
        {"SELECT count(DISTINCT i % 700000), sum(DISTINCT i % 700000) FROM range(1000000) t(i)",
         "700000|244999650000|\n"},
        // 1000 partitions of 1000 rows, numbered 1..1000 each.
        {"SELECT count(*), sum(rn) FROM (SELECT row_number() OVER (PARTITION BY i % 1000 ORDER BY "
         "i) AS rn FROM range(1000000) t(i))",
         "1000000|500500000|\n"},
    };
    for (const auto& [sql, expected] : cases) {
        SCOPED_TRACE(sql);
        uint64_t files = database.temporary_directory().files_created();
        EXPECT_EQ(Rows(connection, sql), expected);
        EXPECT_GT(database.temporary_directory().files_created(), files) << "nothing spilled";
        std::string profile = Rows(connection, std::string("EXPLAIN ANALYZE ") + sql);
        EXPECT_NE(profile.find("spilled"), std::string::npos) << profile;
    }
    EXPECT_FALSE(std::filesystem::exists(temp));
}

// A join whose every partition alone is larger than memory_limit: each partition on disk is
// split again by the next bits of the hash (recursively) instead of being loaded past the limit.
TEST(SpillOnRangeData, AJoinPartitionLargerThanMemoryIsSplitAgain) {
    Database database;
    Connection connection(database);
    std::filesystem::path temp = TempDirectory("spill_split");
    connection.Query("SET threads = 2");
    connection.Query("SET memory_limit = '3MB'");
    connection.Query("SET temp_directory = '" + temp.string() + "'");
    // The build side (the smaller input) holds 300,000 rows of 200-byte strings, 60 MB: a
    // thirty-second of it is about 2 MB, with its index more than the limit leaves.
    const std::string sql = "SELECT count(*), sum(j), sum(length(s)) FROM range(600000) a(i) "
                            "JOIN (SELECT j, '" +
                            std::string(200, 'x') + "' AS s FROM range(300000) b(j)) ON i = j";
    EXPECT_EQ(Rows(connection, sql), "300000|44999850000|60000000|\n");
    std::string profile = Rows(connection, "EXPLAIN ANALYZE " + sql);
    EXPECT_NE(profile.find("split again"), std::string::npos) << profile;
    EXPECT_FALSE(std::filesystem::exists(temp));
    EXPECT_EQ(database.memory().used(), 0u);
}

// Spilling that cannot happen; range() makes the data, larger than 10 MB once materialised.
class SpillErrors : public ::testing::Test {
protected:
    static constexpr const char* kLargeSort =
        "SELECT i FROM range(3000000) t(i) ORDER BY i DESC OFFSET 2999999";
    std::filesystem::path temp_ = TempDirectory("spill_errors");
};

TEST_F(SpillErrors, WithSpillingDisabledTheQueryFailsClearlyAndTheDatabaseStaysUsable) {
    Database database;
    Connection connection(database);
    connection.Query("SET memory_limit = '10MB'");
    connection.Query("SET temp_directory = '" + temp_.string() + "'");
    connection.Query("SET max_temp_directory_size = '0'");
    for (const char* sql :
         {"SELECT count(*) FROM (SELECT i FROM range(3000000) t(i) GROUP BY i)",
          "SELECT count(*) FROM range(3000000) a(i) JOIN range(3000000) b(j) ON i = j",
          kLargeSort}) {
        SCOPED_TRACE(sql);
        try {
            connection.Query(sql);
            FAIL() << "expected an Out of Memory error";
        } catch (const Exception& error) {
            EXPECT_EQ(error.Kind(), ErrorKind::OutOfMemory);
            EXPECT_NE(std::string(error.what()).find("max_temp_directory_size = 0"),
                      std::string::npos)
                << error.what();
        }
        EXPECT_FALSE(std::filesystem::exists(temp_));
        EXPECT_EQ(database.memory().used(), 0u);
    }
    // A bound above zero but below what the query needs names the bound.
    connection.Query("SET max_temp_directory_size = '1MB'");
    try {
        connection.Query(kLargeSort);
        FAIL() << "expected an Out of Memory error";
    } catch (const Exception& error) {
        EXPECT_NE(std::string(error.what()).find("would pass max_temp_directory_size (976.6 KiB"),
                  std::string::npos)
            << error.what();
    }
    EXPECT_EQ(
        connection.Query("SELECT count(*) FROM range(1000) t(i)")->GetValue(0, 0).GetInteger(),
        1000);
}

// An aggregate that cannot spill fails when TryResize is refused; if memory was freed in
// between (another task's failure, in CI), the retry succeeds and the task must go on, not
// spill: it once spilled a table without keys and crashed. Made certain here: the reclaimer
// frees a ballast on its second call, the one the retry makes.
TEST_F(SpillErrors, AnUnspillableAggregateGoesOnWhenItsRetryFindsMemory) {
    Database database;
    Connection connection(database);
    connection.Query("SET threads = 1");
    connection.Query("SET memory_limit = '30MB'");
    connection.Query("SET temp_directory = '" + temp_.string() + "'");
    MemoryReservation ballast(&database.memory(), "a ballast");
    ballast.Resize(8 << 20);
    int calls = 0;
    database.memory().SetReclaimer([&] {
        if (++calls == 2) {
            ballast.Resize(0);
        }
    });
    try {
        connection.Query("SELECT list(range) FROM range(20000000)");
        FAIL() << "expected an Out of Memory error";
    } catch (const Exception& error) {
        EXPECT_EQ(error.Kind(), ErrorKind::OutOfMemory) << error.what();
    }
    EXPECT_GE(calls, 3); // the retry found memory, and the query later ran out again
    database.memory().SetReclaimer(nullptr);
    EXPECT_EQ(database.memory().used(), 0u);
}

// DISTINCT aggregates beside others keep a set of values per group in memory, which cannot
// spill: the sets count against the limit, and passing it is an Out of Memory error.
TEST_F(SpillErrors, DistinctAggregatesOverDifferentArgumentsSpillAsGroupingSets) {
    Database database;
    Connection connection(database);
    connection.Query("SET memory_limit = '20MB'");
    connection.Query("SET temp_directory = '" + temp_.string() + "'");
    EXPECT_EQ(Rows(connection, "SELECT count(DISTINCT i), count(DISTINCT i % 7), sum(i) FROM "
                               "range(3000000) t(i)"),
              "3000000|7|4499998500000|\n");
    EXPECT_EQ(database.memory().used(), 0u);
}

// Under ROLLUP a DISTINCT aggregate keeps a set of values per group, in memory and counted.
TEST_F(SpillErrors, DistinctSetsBesideOtherAggregatesCountAgainstTheLimit) {
    Database database;
    Connection connection(database);
    connection.Query("SET memory_limit = '20MB'");
    connection.Query("SET temp_directory = '" + temp_.string() + "'");
    try {
        connection.Query("SELECT i % 2 AS k, count(DISTINCT i), sum(i) FROM range(3000000) t(i) "
                         "GROUP BY ROLLUP (k)");
        FAIL() << "expected an Out of Memory error";
    } catch (const Exception& error) {
        EXPECT_EQ(error.Kind(), ErrorKind::OutOfMemory);
        EXPECT_NE(std::string(error.what()).find("hash aggregate"), std::string::npos)
            << error.what();
    }
    EXPECT_EQ(database.memory().used(), 0u);
    EXPECT_EQ(Rows(connection, "SELECT count(DISTINCT i % 7), sum(i) FROM range(300000) t(i)"),
              "7|44999850000|\n");
}

TEST_F(SpillErrors, ATempDirectoryThatCannotBeCreatedIsAClearError) {
    Database database;
    Connection connection(database);
    std::string file =
        (std::filesystem::temp_directory_path() / ("sluice_spill_file_" + std::to_string(getpid())))
            .string();
    std::ofstream(file) << "a file, not a directory";
    connection.Query("SET memory_limit = '10MB'");
    connection.Query("SET temp_directory = '" + file + "/spill'");
    try {
        connection.Query(kLargeSort);
        FAIL() << "expected an IO error";
    } catch (const Exception& error) {
        EXPECT_EQ(error.Kind(), ErrorKind::IO);
        EXPECT_NE(std::string(error.what()).find("could not create temp_directory '" + file),
                  std::string::npos)
            << error.what();
    }
    std::filesystem::remove(file);
}

TEST_F(SpillErrors, AFullTempDirectoryIsAClearError) {
    std::filesystem::create_directories(temp_);
    // A 2 MB file system as the temporary directory (root only: mounting needs it).
    if (geteuid() != 0 || mount("tmpfs", temp_.c_str(), "tmpfs", 0, "size=2m") != 0) {
        std::filesystem::remove(temp_);
        GTEST_SKIP() << "cannot mount a tmpfs here (needs root)";
    }
    {
        Database database;
        Connection connection(database);
        connection.Query("SET memory_limit = '10MB'");
        connection.Query("SET max_temp_directory_size = '1GB'");
        connection.Query("SET temp_directory = '" + temp_.string() + "'");
        try {
            connection.Query(kLargeSort);
            ADD_FAILURE() << "expected an IO error";
        } catch (const Exception& error) {
            EXPECT_EQ(error.Kind(), ErrorKind::IO);
            EXPECT_NE(std::string(error.what()).find("No space left on device"), std::string::npos)
                << error.what();
        }
        EXPECT_TRUE(std::filesystem::is_empty(temp_)) << "spill files left behind";
    }
    umount(temp_.c_str());
    std::filesystem::remove(temp_);
}

} // namespace
