-- What `make run` shows until the asynchronous scan and the TPC-H generator land: SQL with
-- DuckDB's types and formatting, the settings registry, and the two thread pools resizing.
SELECT 'Sluice' AS engine, 6 * 7 AS answer, 1.5 + 2.25 AS exact_decimal, 5 / 2 AS division,
       DATE '2026-11-30' + 1 AS tomorrow, TIMESTAMP '2026-11-30 12:00:00.25' AS ts;
SELECT name, value, description FROM sluice_settings()
WHERE name = 'threads' OR name = 'async_threads' OR name = 'read_ahead_depth' OR name = 'memory_limit';
SET threads = 1;
SELECT name, value, "default" FROM sluice_settings() WHERE name = 'threads' OR name = 'async_threads';
RESET threads;
