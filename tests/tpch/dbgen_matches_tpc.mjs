// Sluice's TPC-H generator against TPC's own dbgen 2.14 output (../shared/corpus/tpch-dbgen):
//  - `gen-tpch --format tbl` at SF 0.01 is byte-identical to dbgen's eight .tbl files;
//  - at SF 0.1, split into several files per table (so generation starts mid-table, with the
//    random streams advanced to each file's first row), the files put together have dbgen's
//    sha256 and line count;
//  - the Parquet files of the same data, read by DuckDB, hold exactly dbgen's rows.
// Exits 77 (skipped) when the corpus is absent.
// Usage: node dbgen_matches_tpc.mjs <sluice> <work directory> <corpus directory>
import { DuckDBInstance } from '@duckdb/node-api';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { TPCH_TABLES } from './generate.mjs';

const [sluice, work, corpus] = process.argv.slice(2);
if (!fs.existsSync(path.join(corpus, 'sf0.01'))) {
  console.log(`skipped: no dbgen corpus at ${corpus}`);
  process.exit(77);
}
fs.rmSync(work, { recursive: true, force: true });
fs.mkdirSync(work, { recursive: true });

let failures = 0;
function report(ok, what, detail = '') {
  console.log(`${ok ? 'ok' : 'FAIL'} ${what}${detail ? ': ' + detail : ''}`);
  if (!ok) failures++;
}
function gen(dir, ...options) {
  execFileSync(sluice, ['gen-tpch', '--out', dir, ...options], { stdio: ['ignore', 'ignore', 'inherit'] });
}

// SF 0.01: byte for byte.
const small = path.join(work, 'sf0.01');
gen(small, '--sf', '0.01', '--format', 'tbl');
for (const table of TPCH_TABLES) {
  const ours = fs.readFileSync(path.join(small, `${table}.tbl`));
  const theirs = fs.readFileSync(path.join(corpus, 'sf0.01', `${table}.tbl`));
  let at = 0;
  while (at < ours.length && at < theirs.length && ours[at] === theirs[at]) at++;
  const line = ours.subarray(0, at).toString().split('\n').length;
  report(ours.equals(theirs), `sf 0.01 ${table}.tbl is dbgen's`,
    ours.equals(theirs) ? '' : `first difference on line ${line}`);
}

// SF 0.1 in 7 files per table: put together, dbgen's sha256 and row count.
const sums = Object.fromEntries(fs.readFileSync(path.join(corpus, 'SHA256SUMS-sf0.1'), 'utf8')
  .trim().split('\n').map((l) => l.split(/\s+/)).map(([sum, file]) => [file, sum]));
const rows = Object.fromEntries(fs.readFileSync(path.join(corpus, 'ROWS-sf0.1'), 'utf8')
  .trim().split('\n').map((l) => l.split(': ')).map(([file, n]) => [file, Number(n)]));
const tenth = path.join(work, 'sf0.1');
gen(tenth, '--sf', '0.1', '--format', 'tbl', '--files', '7', '--threads', '2');
for (const table of TPCH_TABLES) {
  const dir = path.join(tenth, table);
  const parts = fs.existsSync(dir) ? fs.readdirSync(dir).sort().map((f) => path.join(dir, f))
    : [path.join(tenth, `${table}.tbl`)];
  const hash = crypto.createHash('sha256');
  let lines = 0;
  for (const part of parts) {
    const bytes = fs.readFileSync(part);
    hash.update(bytes);
    for (const b of bytes) if (b === 10) lines++;
  }
  const sum = hash.digest('hex');
  report(sum === sums[`${table}.tbl`] && lines === rows[`${table}.tbl`],
    `sf 0.1 ${table}.tbl in ${parts.length} file(s) is dbgen's`, `${lines} rows, sha256 ${sum.slice(0, 16)}...`);
}

// Parquet at SF 0.01 (small row groups, several files) holds dbgen's rows, seen by DuckDB.
const parquet = path.join(work, 'parquet');
gen(parquet, '--sf', '0.01', '--row-group-size', '1000', '--files', '3');
const db = await DuckDBInstance.create(':memory:');
const duck = await db.connect();
for (const table of TPCH_TABLES) {
  const dir = path.join(parquet, table);
  const files = fs.existsSync(dir) ? `${dir}/*.parquet` : path.join(parquet, `${table}.parquet`);
  await duck.run(`create view ours as select * from read_parquet('${files}')`);
  const columns = (await duck.runAndReadAll('describe ours')).getRows().map((r) => `'${r[0]}': '${r[1]}'`);
  await duck.run(`create view theirs as select * exclude (after_last) from read_csv(
      '${path.join(corpus, 'sf0.01', `${table}.tbl`)}', delim = '|', header = false, quote = '',
      columns = {${columns.join(', ')}, 'after_last': 'VARCHAR'})`);
  const missing = Number((await duck.runAndReadAll(
    'select (select count(*) from (select * from theirs except all select * from ours)) + ' +
    '(select count(*) from (select * from ours except all select * from theirs))')).getRows()[0][0]);
  const count = Number((await duck.runAndReadAll('select count(*) from ours')).getRows()[0][0]);
  report(missing === 0 && count > 0, `sf 0.01 ${table} Parquet holds dbgen's rows`,
    `${count} rows, ${missing} differ`);
  await duck.run('drop view ours; drop view theirs');
}

console.log(`${failures === 0 ? 'all passed' : failures + ' failed'}`);
process.exit(failures === 0 ? 0 : 1);
