// COPY ... TO 'f.parquet' and 'f.csv' run on every thread and must still write the query's rows
// in the query's order; Parquet in full row groups, cut in order from batches of any size
// (chunks of a sorted result, filtered row groups, batches between empty ones). DuckDB reads
// each file back in file order (file_row_number; a CSV's line order) and checks the order, the
// rows against its own answer to the query, and the row group sizes.
//
//   node copy_order.mjs SLUICE WORK_DIR
import { DuckDBInstance } from '@duckdb/node-api';
import { sluiceRows } from './sluice_cli.mjs';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const [sluice, workDir] = process.argv.slice(2);
rmSync(workDir, { recursive: true, force: true });
mkdirSync(workDir, { recursive: true });
const instance = await DuckDBInstance.create(':memory:');
const duck = await instance.connect();
const one = async (sql) => (await duck.runAndReadAll(sql)).getRows()[0];
const failures = [];

// A source of 2,000,000 rows in 200 row groups of 10,000 (200 scan jobs).
const source = join(workDir, 'source.parquet');
sluiceRows(sluice, `COPY (SELECT range AS x, 'value ' || range AS s FROM range(2000000))
  TO '${source}' (ROW_GROUP_SIZE 10000)`);

// name, the query (x is its order key), its direction (1 increasing, -1 decreasing, 0 the
// sorted case's two keys) and the row group size.
const cases = [
  ['range', `SELECT range AS x, 'v' || range AS s FROM range(1000000)`, 1, 122880],
  ['sorted', `SELECT x, s FROM '${source}' ORDER BY x * 7919 % 1000, x`, 0, 122880],
  ['sorted_desc', `SELECT range AS x, [range, range + 1] AS l, {'a': range} AS st
    FROM range(700000) ORDER BY range DESC`, -1, 122880],
  ['scan', `SELECT * FROM '${source}'`, 1, 122880],
  // A seventh of each row group: every batch small, merged into full row groups.
  ['filtered', `SELECT * FROM '${source}' WHERE x % 7 = 0`, 1, 122880],
  // Rows from one row group in ten: batches between them produce nothing.
  ['sparse', `SELECT * FROM '${source}' WHERE x % 100000 < 1000`, 1, 5000],
  ['limit', `SELECT * FROM '${source}' WHERE x % 3 = 1 LIMIT 123456`, 1, 122880],
];

for (const threads of [2, 4]) {
  for (const [name, query, direction, rowGroupSize] of cases) {
    const label = `${name} on ${threads} threads`;
    const file = join(workDir, `${name}_${threads}.parquet`);
    const csv = join(workDir, `${name}_${threads}.csv`);
    sluiceRows(sluice, `SET threads = ${threads};
      COPY (${query}) TO '${file}' (ROW_GROUP_SIZE ${rowGroupSize});
      COPY (SELECT x FROM (${query})) TO '${csv}'`);
    const [count, sum] = await one(`SELECT count(*), sum(x) FROM (${query})`);
    // Strictly increasing (0: the sorted case's two keys) or decreasing in file order.
    const key = direction === 0 ? '(x * 7919 % 1000, x)' : 'x';
    const wrong = direction < 0 ? 'key >= previous' : 'key <= previous';
    for (const [format, source, position] of [
      ['parquet', `read_parquet('${file}', file_row_number = true)`, 'file_row_number'],
      ['csv', `(SELECT *, row_number() OVER () AS line FROM read_csv('${csv}'))`, 'line']]) {
      const [gotCount, gotSum] = await one(`SELECT count(*), sum(x) FROM ${source}`);
      if (gotCount !== count || gotSum !== sum) {
        failures.push(`${label}, ${format}: ${gotCount} rows summing to ${gotSum}, DuckDB ` +
          `${count}, ${sum}`);
      }
      const [disordered] = await one(`SELECT count(*) FROM (SELECT ${key} AS key,
          lag(${key}) OVER (ORDER BY ${position}) AS previous FROM ${source})
        WHERE previous IS NOT NULL AND ${wrong}`);
      if (disordered !== 0n) {
        failures.push(`${label}, ${format}: ${disordered} rows out of order`);
      }
    }
    // Full row groups: all but the last hold exactly ROW_GROUP_SIZE rows.
    const [groups, short] = await one(`SELECT count(*), count(*) FILTER (WHERE
        row_group_num_rows <> ${rowGroupSize} AND row_group_id < (SELECT max(row_group_id)
          FROM parquet_metadata('${file}')))
      FROM parquet_metadata('${file}') WHERE column_id = 0`);
    if (short !== 0n || groups !== BigInt(Math.ceil(Number(count) / rowGroupSize))) {
      failures.push(`${label}: ${groups} row groups, ${short} of them short before the last`);
    }
    console.log(`${label}: ${count} rows in order, ${groups} row groups`);
  }
}
if (failures.length) {
  console.log(failures.join('\n'));
  process.exit(1);
}
