-- What `make run` shows until the asynchronous scan and the TPC-H generator land: SQL with
-- DuckDB's types and formatting, Parquet written and read back with row-group pruning, the
-- settings registry, and the two thread pools resizing.
SELECT 'Sluice' AS engine, 6 * 7 AS answer, 1.5 + 2.25 AS exact_decimal, 5 / 2 AS division,
       DATE '2026-11-30' + 1 AS tomorrow, TIMESTAMP '2026-11-30 12:00:00.25' AS ts;
.timer on
COPY (SELECT range AS id, 'order ' || range AS label, DATE '1992-01-01' + range % 2557 AS shipdate,
             CAST((range % 1000) * 0.01 AS DECIMAL(15,2)) AS discount
      FROM range(1000000)) TO 'build/demo.parquet' (FORMAT parquet, COMPRESSION zstd);
SELECT id, label, shipdate, discount FROM read_parquet('build/demo.parquet')
WHERE id >= 777777 AND id < 777780;
-- Grouping, joining and sorting in parallel: per-year totals, and the years' share of the whole.
WITH yearly AS (
    SELECT extract(year FROM shipdate) AS year, count(*) AS orders, sum(discount) AS discounts
    FROM read_parquet('build/demo.parquet')
    WHERE shipdate < DATE '1992-01-01' + INTERVAL '4' YEAR
    GROUP BY year)
SELECT y.year, y.orders, y.discounts, 100.0 * y.orders / t.total AS percent
FROM yearly y, (SELECT sum(orders) AS total FROM yearly) t
ORDER BY y.year DESC;
.timer off
SELECT row_group_id, row_group_num_rows, path_in_schema, compression, stats_min_value, stats_max_value
FROM parquet_metadata('build/demo.parquet') WHERE column_id = 0 LIMIT 3;
SELECT name, value, description FROM sluice_settings()
WHERE name = 'threads' OR name = 'async_threads' OR name = 'read_ahead_depth' OR name = 'memory_limit';
SET threads = 1;
SELECT name, value, "default" FROM sluice_settings() WHERE name = 'threads' OR name = 'async_threads';
RESET threads;
