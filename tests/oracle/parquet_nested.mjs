// Nested Parquet columns (LIST, STRUCT, MAP, nested any depth, NULLs at every level) written by
// DuckDB under several codecs, page versions and row-group sizes: Sluice must read exactly what
// DuckDB reads, whole, through filters on flat columns, and through field access and unnest.
// Then Sluice writes each file again (small pages, so that long lists span pages): DuckDB and
// Sluice must both read back what DuckDB read from the original.
//
//   node parquet_nested.mjs SLUICE WORK_DIR
import { DuckDBInstance } from '@duckdb/node-api';
import { sluiceRows as runCsv } from './sluice_cli.mjs';
import { duckRows, sameRows as same } from './duckdb_rows.mjs';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const [sluice, workDir] = process.argv.slice(2);
rmSync(workDir, { recursive: true, force: true });
mkdirSync(workDir, { recursive: true });
const ROWS = 20000;

// Every nested column has NULL values, empty lists and NULL elements, at each of its levels.
const columns = `
  n AS id,
  CASE WHEN n % 7 = 0 THEN NULL WHEN n % 7 = 1 THEN []::INTEGER[]
       ELSE list_transform(range(n % 5), x -> CASE WHEN x = 2 THEN NULL ELSE CAST(x + n AS INTEGER) END) END AS l_int,
  CASE WHEN n % 9 = 0 THEN NULL
       ELSE list_transform(range(n % 4), x -> CASE WHEN x = 1 AND n % 2 = 0 THEN NULL
                                              ELSE 'value ' || (n % 13) || repeat('x', CAST(x * 5 AS INTEGER)) END) END AS l_str,
  CASE WHEN n % 11 = 0 THEN NULL
       ELSE list_transform(range(n % 3), y -> CASE WHEN y = 1 AND n % 5 = 0 THEN NULL
                                              ELSE list_transform(range((n + y) % 4), x -> CAST(x * y AS BIGINT)) END) END AS ll,
  CASE WHEN n % 13 = 0 THEN NULL
       ELSE {'a': CASE WHEN n % 3 = 0 THEN NULL ELSE CAST(n AS INTEGER) END,
             'b': 'name ' || (n % 17),
             'c': CASE WHEN n % 4 = 0 THEN NULL ELSE [n / 2, n / 3] END} END AS s,
  CASE WHEN n % 6 = 0 THEN NULL
       ELSE list_transform(range(n % 4), x -> CASE WHEN x = 1 THEN NULL
                                              ELSE {'x': CAST(x AS INTEGER), 'y': CASE WHEN n % 2 = 0 THEN NULL ELSE 'y' || x END} END) END AS ls,
  CASE WHEN n % 8 = 0 THEN NULL
       ELSE map_from_entries(list_transform(range(n % 3), x -> {'k': 'k' || x, 'v': CASE WHEN x = 1 THEN NULL ELSE CAST(n * x AS INTEGER) END})) END AS m,
  {'inner': CASE WHEN n % 10 = 0 THEN NULL
                 ELSE {'v': [CAST(n AS SMALLINT), NULL],
                       'w': map([CAST(n % 5 AS INTEGER)], [CASE WHEN n % 3 = 0 THEN NULL ELSE ['w' || n, NULL] END])} END} AS deep,
  CASE WHEN n % 500 = 3 THEN list_transform(range(3000), x -> CAST(x * n AS BIGINT)) ELSE [n] END AS big`;

const variants = [
  { codec: 'snappy', rowGroup: 122880, version: 'V1' },
  { codec: 'zstd', rowGroup: 1000, version: 'V2' },
  { codec: 'uncompressed', rowGroup: 4096, version: 'V1' },
  { codec: 'gzip', rowGroup: 122880, version: 'V2' },
];
const failures = [];
const instance = await DuckDBInstance.create(':memory:');
const connection = await instance.connect();
for (const { codec, rowGroup, version } of variants) {
  const file = join(workDir, `nested_${codec}_${rowGroup}_${version}.parquet`);
  await connection.run(`COPY (SELECT ${columns} FROM (SELECT range AS n FROM range(${ROWS})))
    TO '${file}' (FORMAT parquet, COMPRESSION ${codec}, ROW_GROUP_SIZE ${rowGroup}, PARQUET_VERSION ${version})`);
  const scan = `read_parquet('${file}')`;
  // Each with the leaves its scan must read, as EXPLAIN lists them.
  const pruning = [
    [`SELECT id, s.a, s.c, ls[2].y, deep.inner.v[1] FROM ${scan} WHERE id % 7 = 2`,
     ['s reading {.a, .c[]}', 'ls reading {[].y}', 'deep reading {.inner.v[]}']],
    [`SELECT e.y, count(*) FROM (SELECT unnest(ls) AS e FROM ${scan}) GROUP BY ALL ORDER BY ALL`,
     ['ls reading {[].y}']],
    [`SELECT count(*) FROM (SELECT unnest(ls) FROM ${scan})`, ['ls reading {[].x}']],
    [`SELECT id, len(ls), len(s.c), s.b FROM ${scan} WHERE id % 11 = 3`,
     ['ls reading {[].x}', 's reading {.b, .c[]}']],
    [`SELECT id FROM ${scan} WHERE s.a > 100 AND deep.inner.v[1] < 500 ORDER BY id`,
     ['s reading {.a}', 'deep reading {.inner.v[]}']],
    [`SELECT k, t.a, t.b FROM (SELECT id AS k, s AS t FROM ${scan}) WHERE k % 5 = 1 ORDER BY k`,
     ['s reading {.a, .b}']],
  ];
  // Filters on struct fields: pushed into the scan, row groups pruned by the field's statistics.
  const fieldFilters = [
    `SELECT count(*), sum(id) FROM ${scan} WHERE s.a IS NULL`,
    `SELECT count(*), sum(id) FROM ${scan} WHERE s.a IS NOT NULL AND deep.inner IS NULL`,
    `SELECT count(*), sum(s.a) FROM ${scan} WHERE s.a < 1500`,
    `SELECT count(*), min(id) FROM ${scan} WHERE s.b IN ('name 3', 'name 5') AND s.a >= 18000`,
  ];
  if (rowGroup === 1000) {
    // s.a is the row number where not NULL, and DuckDB rounds the groups up to 2048 rows: only
    // the first of the ten can hold a value below 1500.
    const analyzed = execFileSync(sluice, ['-csv', '-c', `EXPLAIN ANALYZE ${fieldFilters[2]}`]).toString();
    if (!analyzed.includes('jobs 1 scanned, 9 pruned')) {
      failures.push(`s.a < 1500 on ${file} did not prune 9 of 10 row groups:\n${analyzed}`);
    }
  }
  const pruned = [...pruning.map(([sql]) => sql), ...fieldFilters];
  for (const [sql, leaves] of pruning) {
    const plan = execFileSync(sluice, ['-csv', '-c', `EXPLAIN ${sql}`]).toString();
    for (const read of leaves) {
      if (!plan.includes(read)) failures.push(`EXPLAIN ${sql.slice(0, 60)}: no '${read}' in\n${plan}`);
    }
  }
  const queries = [
    `SELECT * FROM ${scan}`,
    // Nested columns read only for the rows a filter on a flat column keeps.
    `SELECT id, l_int, m, deep FROM ${scan} WHERE id % 3 = 0`,
    `SELECT id, big, ls FROM ${scan} WHERE id BETWEEN 15000 AND 15100`,
    `SELECT id, s.b, s.c[2], ls[1].x, m['k0'], deep.inner.w, len(big) FROM ${scan} WHERE id % 97 = 1`,
    `SELECT count(*), sum(x) FROM (SELECT unnest(l_int) AS x FROM ${scan})`,
    `SELECT count(*) FROM ${scan} WHERE s IS NULL OR l_str IS NULL`,
    // Read through field paths only: the scan reads just the leaves below them.
    ...pruned,
  ];
  for (const sql of queries) {
    let ours;
    try {
      ours = runCsv(sluice, sql);
    } catch (failure) {
      failures.push(`${sql.slice(0, 60)} on ${file}: ${String(failure.stderr ?? failure).trim().split('\n')[0]}`);
      continue;
    }
    const problem = same(`${sql.slice(0, 60)} on ${file}`, await duckRows(connection, sql), ours);
    if (problem) failures.push(problem);
  }

  const written = join(workDir, `sluice_${codec}_${rowGroup}.parquet`);
  try {
    execFileSync(sluice, ['-c', `COPY (SELECT * FROM ${scan}) TO '${written}'
      (FORMAT parquet, COMPRESSION ${codec}, ROW_GROUP_SIZE ${rowGroup}, PAGE_SIZE 16384)`], { stdio: 'pipe' });
  } catch (failure) {
    failures.push(`Sluice writing ${written}: ${String(failure.stderr ?? failure).trim().split('\n')[0]}`);
    continue;
  }
  const original = await duckRows(connection, `SELECT * FROM ${scan}`);
  const check = async (reader, rows) => {
    const problem = same(`${reader} reading ${written}`, original, rows);
    if (problem) failures.push(problem);
  };
  const types = async (path) => (await connection.runAndReadAll(
    `SELECT column_type FROM (DESCRIBE SELECT * FROM read_parquet('${path}'))`)).getRows().join('; ');
  if (await types(written) !== await types(file)) {
    failures.push(`DuckDB reads ${written} as ${await types(written)}, expected ${await types(file)}`);
  }
  await check('DuckDB', await duckRows(connection, `SELECT * FROM read_parquet('${written}')`));
  await check('Sluice', runCsv(sluice, `SELECT * FROM read_parquet('${written}')`));
}

for (const failure of failures) console.log(`FAIL ${failure}`);
console.log(`${variants.length} DuckDB-written files of nested columns read by Sluice: ${failures.length} failures`);
rmSync(workDir, { recursive: true, force: true });
process.exit(failures.length === 0 ? 0 : 1);
