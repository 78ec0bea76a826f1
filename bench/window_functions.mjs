// Window functions over TPC-H lineitem, Sluice beside DuckDB 1.5.6 (see side_by_side.mjs).
// Each query sums its window column, so both engines compute every value and return one row.
//
//   node bench/window_functions.mjs [--sf 1] [--repetitions 3] [--threads N]
import { compareWithDuckDB } from './side_by_side.mjs';

await compareWithDuckDB('Window functions', {
  // A running total within each order.
  running_sum: `SELECT sum(s) FROM (SELECT sum(l_quantity) OVER (PARTITION BY l_orderkey
    ORDER BY l_linenumber) AS s FROM lineitem)`,
  // Ranking within each part, with ties.
  rank: `SELECT sum(r) FROM (SELECT rank() OVER (PARTITION BY l_partkey
    ORDER BY l_extendedprice) AS r FROM lineitem)`,
  // A 7-row moving average per supplier over time.
  moving_avg_7: `SELECT sum(m) FROM (SELECT avg(l_extendedprice) OVER (PARTITION BY l_suppkey
    ORDER BY l_shipdate, l_orderkey, l_linenumber ROWS BETWEEN 6 PRECEDING AND CURRENT ROW) AS m
    FROM lineitem)`,
  // The same over the whole table: one partition, one sort.
  moving_avg_7_global: `SELECT sum(m) FROM (SELECT avg(l_extendedprice) OVER (
    ORDER BY l_shipdate, l_orderkey, l_linenumber ROWS BETWEEN 6 PRECEDING AND CURRENT ROW) AS m
    FROM lineitem)`,
});
