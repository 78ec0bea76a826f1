// The reference's published figures, quoted as published (DuckDB v1.5.5 synchronous against
// v2.0.0-dev with asynchronous I/O; TPC-H SF100, data on S3, an r7i.16xlarge EC2 machine with
// 64 vCPUs and 512 GB of RAM on a 25 Gbit/s network; mean of five runs, external file cache off).
export const REFERENCE = {
  source: '"Asynchronous I/O in DuckDB: Work, Thread, Work", duckdb.org, 2026-07-31',
  q6: 'Parquet, one file (~22 GB, ~4,880 row groups of ~122,880 rows): v1.5.5 (synchronous) 8.230 s, '
    + 'v2.0.0-dev (asynchronous I/O) 2.844 s ("almost 3x faster"); tuned (read-ahead capped at 64 jobs, '
    + 'async_threads = 48, http_retries = 8, http_retry_wait_ms = 50, http_retry_backoff = 2) 2.227 s, '
    + '"about 3.7x faster than DuckDB v1.5.5"; v1.5.5 "stays around 5 Gbit/s" of the 25 Gbit/s network.',
  local: 'MacBook Pro (Apple M4 Max, 14 cores, 36 GB), SF100 Parquet on the local disk, OS caches purged between '
    + 'runs: v1.5.5 (synchronous) 1.321 s, v2.0.0-dev (asynchronous I/O) 0.883 s ("approximately 1.5x faster"); '
    + '"For hot runs, the difference is negligible".',
  small: '976 files with five row groups each (~615,000 rows, ~22 MB per file): v1.5.5 (synchronous) 9.344 s, '
    + 'v2.0.0-dev (asynchronous I/O) 2.945 s ("around 3x faster"), against 2.844 s for the one file.',
  rowGroups: 'v2.0.0-dev, Q6 per layout (rows per row group: time): 122,880: 2.74 s; 1,966,080: 2.11 s; '
    + '9,375,593: 2.27 s; 62,914,560: 3.69 s; 150,009,476: 8.01 s; 600,037,902 (one row group): 25.26 s — '
    + 'worst/best 12.0x.',
  concurrent: 'Q1, Q6, Q9, Q18 at once, one instance. Default memory: v1.5.5 35.8 s (avg CPU 5.9, peak 35.7, '
    + 'peak bw. 10.7 Gbit/s, peak RSS 14.5 GB), v2.0.0-dev 15.6 s (48.1, 64.0, 24.9 Gbit/s, 20.1 GB); '
    + '16 GB: v1.5.5 35.6 s, v2.0.0-dev 22.7 s (15.7 GB RSS); 8 GB: v1.5.5 35.9 s, v2.0.0-dev 24.2 s (11.5 GB RSS).',
  csv: 'one 80.89 GB CSV file: v1.5.5 (synchronous) 877.563 s, v2.0.0-dev (asynchronous I/O) 45.264 s '
    + '("almost 20x faster").',
};
