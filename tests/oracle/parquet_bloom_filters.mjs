// Bloom filter pruning on files DuckDB writes (it stores a split-block bloom filter for each
// dictionary-encoded chunk): equality and IN filters whose values lie inside a row group's
// min/max but not in the group are pruned by the bloom filter, exactly those groups, and the
// results equal DuckDB's.
//
//   node parquet_bloom_filters.mjs SLUICE WORK_DIR
import { DuckDBInstance } from '@duckdb/node-api';
import { sluiceRows } from './sluice_cli.mjs';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const [sluice, workDir] = process.argv.slice(2);
rmSync(workDir, { recursive: true, force: true });
mkdirSync(workDir, { recursive: true });
const file = join(workDir, 'bloom.parquet');

// Three row groups of 122,880 rows (DuckDB cuts row groups at multiples of its 2048-row
// vectors). Group 0 holds the even numbers 0..1998 (and strings 'key-0000'..'key-1998'), groups
// 1 and 2 the odd numbers 1..1999 ('key-0001'..'key-1999'): min/max overlap, the values do not.
const instance = await DuckDBInstance.create(':memory:');
const connection = await instance.connect();
await connection.run(`COPY (SELECT range AS id,
    CASE WHEN range < 122880 THEN (range % 1000) * 2 ELSE (range % 1000) * 2 + 1 END AS k,
    'key-' || lpad(CAST(CASE WHEN range < 122880 THEN (range % 1000) * 2
                             ELSE (range % 1000) * 2 + 1 END AS VARCHAR), 4, '0') AS s,
    CAST(range % 700 AS INTEGER) AS i32
  FROM range(368640)) TO '${file}' (FORMAT parquet, ROW_GROUP_SIZE 122880)`);
const groups = await connection.runAndReadAll(
  `SELECT DISTINCT row_group_num_rows FROM parquet_metadata('${file}')`);
if (groups.getRows().length !== 1 || Number(groups.getRows()[0][0]) !== 122880) {
  console.error(`DuckDB cut other row groups than expected: ${JSON.stringify(groups.getRows())}`);
  process.exit(1);
}
const blooms = await connection.runAndReadAll(
  `SELECT count(*) FROM parquet_metadata('${file}') WHERE bloom_filter_offset IS NOT NULL`);
if (Number(blooms.getRows()[0][0]) === 0) {
  console.error('DuckDB wrote no bloom filters: nothing to test');
  process.exit(1);
}

const cases = [
  // [predicate, row groups the bloom filters must prune]
  ['k = 500', 2],            // even: only group 0
  ['k = 501', 1],            // odd: groups 1 and 2
  ['k IN (10, 12, 14)', 2],
  ['k IN (10, 11)', 0],      // one value in each kind of group
  ["s = 'key-0501'", 1],
  ["s IN ('key-0010', 'key-1998')", 2],
  ["s = 'key-0500x'", 3],   // inside every group's min/max, in no group
  ['i32 = 5', 0],            // in every group
  ["k = 500 AND s = 'key-0251'", 3],
];
let failures = 0;
for (const [predicate, expected] of cases) {
  const query = `SELECT count(*), sum(id), min(s), max(k) FROM read_parquet('${file}') WHERE ${predicate}`;
  const ours = sluiceRows(sluice, query).slice(1);
  const reader = await connection.runAndReadAll(
    `SELECT count(*)::VARCHAR, sum(id)::VARCHAR, min(s), max(k)::VARCHAR FROM read_parquet('${file}') WHERE ${predicate}`);
  const theirs = reader.getRows().map((row) => row.map((value) => value === null ? '<<NULL>>' : value));
  if (JSON.stringify(ours) !== JSON.stringify(theirs)) {
    console.error(`${predicate}: Sluice ${JSON.stringify(ours)}, DuckDB ${JSON.stringify(theirs)}`);
    failures++;
  }
  const analyzed = sluiceRows(sluice, `EXPLAIN ANALYZE ${query}`).flat().join('\n');
  const match = analyzed.match(/(\d+) pruned \((\d+) by bloom filters\)/);
  if (!match || Number(match[2]) !== expected) {
    console.error(`${predicate}: ${match ? match[2] : 'no'} row groups pruned by bloom filters, expected ${expected}`);
    failures++;
  }
}
rmSync(workDir, { recursive: true, force: true });
if (failures > 0) {
  process.exit(1);
}
console.log(`${cases.length} bloom filter cases agree with DuckDB and prune the expected row groups`);
