// The parallel operators under several threads: results must not depend on how the work was
// split. Also run under ThreadSanitizer by `make test`.
#include "main/sluice.hpp"

#include <gtest/gtest.h>

using namespace sluice;

namespace {

std::string Row(Connection& connection, const std::string& query) {
    auto result = connection.Query(query);
    std::string row;
    for (idx_t column = 0; column < result->ColumnCount(); column++) {
        row += (column ? "|" : "") + result->GetValue(column, 0).ToString();
    }
    return row;
}

} // namespace

TEST(ParallelOperators, ResultsDoNotDependOnTheThreadCount) {
    Database database;
    Connection connection(database);
    for (int threads : {1, 4}) {
        SCOPED_TRACE("threads = " + std::to_string(threads));
        connection.Query("SET threads = " + std::to_string(threads));
        // Enough groups across tasks for the partitioned merge.
        EXPECT_EQ(Row(connection, "SELECT count(*), sum(k), sum(c), min(s) FROM (SELECT i % 60000 "
                                  "AS k, count(*) AS c, min('s' || i) AS s FROM range(240000) "
                                  "t(i) GROUP BY k)"),
                  "60000|1799970000|240000|s0");
        EXPECT_EQ(Row(connection, "SELECT count(*), sum(a.i) FROM range(100000) a(i) JOIN "
                                  "range(0, 100000, 3) b(j) ON a.i = b.j"),
                  "33334|1666683333");
        EXPECT_EQ(Row(connection, "SELECT count(*), count(b.j) FROM range(20000) a(i) LEFT JOIN "
                                  "range(0, 20000, 7) b(j) ON a.i = b.j"),
                  "20000|2858");
        EXPECT_EQ(Row(connection, "SELECT count(DISTINCT i % 777) FROM range(50000) t(i)"), "777");
        EXPECT_EQ(Row(connection,
                      "SELECT i FROM range(60000) t(i) ORDER BY (i * 7919) % 60000 DESC LIMIT 1"),
                  "22321");
        EXPECT_EQ(Row(connection, "SELECT count(*) FROM (SELECT i FROM range(30000) t(i) UNION "
                                  "SELECT i + 10000 FROM range(30000) t(i))"),
                  "40000");
        EXPECT_EQ(Row(connection, "SELECT count(*) FROM range(10000) t(i) WHERE i IN (SELECT j * "
                                  "2 FROM range(10000) s(j))"),
                  "5000");
        // Window buckets computed by several tasks: 1000 partitions of 1..100, and each row in
        // the frames of itself and the next two rows of its partition (14997750133 =
        // 3 * sum(0..99999) - sum(99993..99999) - sum(99986..99999)).
        EXPECT_EQ(Row(connection, "SELECT sum(rn), sum(s) FROM (SELECT row_number() OVER "
                                  "(PARTITION BY i % 1000 ORDER BY i) rn, sum(i) OVER (PARTITION "
                                  "BY i % 7 ORDER BY i ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) "
                                  "s FROM range(100000) t(i))"),
                  "5050000|14997750133");
        // One partition shared out in ranges of 131,072 positions, a running sum evaluated
        // whole beside them: row numbers 1..300000; each row in its own frame and the next two
        // rows' (3 * sum(0..299999) - 2 * 299999 - 299998); each row in the running sums of
        // itself and every later row (sum of i * (300000 - i)).
        EXPECT_EQ(Row(connection, "SELECT sum(rn), sum(s), sum(r) FROM (SELECT row_number() OVER "
                                  "w rn, sum(i) OVER (w ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) "
                                  "s, sum(i) OVER w r FROM range(300000) t(i) WINDOW w AS (ORDER "
                                  "BY i))"),
                  "45000150000|134998650004|4499999999950000");
    }
}
