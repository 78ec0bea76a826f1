// The 99 TPC-DS queries on Sluice and on DuckDB over the same Parquet files (TPC's dsdgen data,
// ../shared/tools/tpcds/generate.sh): each answer compared as a multiset of rows, every value as
// its VARCHAR text (DOUBLE columns to 1e-9 relative). Every query ends in ORDER BY ... LIMIT 100:
// where its ORDER BY keys tie at the cut the two engines may rightly keep different rows, so the
// queries run without their last LIMIT (with --limit, as written). Prints one line per query and
// the sums of both engines' times.
//
//   node tests/oracle/tpcds.mjs SLUICE DATA_DIR TPCDS_TOOLS [--sf 1] [--threads N] [--queries 4,11]
//
// TPCDS_TOOLS is ../shared/tools/tpcds (exit 77, skipped, when it is absent); the data is made
// by its generate.sh into DATA_DIR once and kept there.
import { DuckDBInstance } from '@duckdb/node-api';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NULL, parseCsv } from './sluice_cli.mjs';

const [sluice, dataDir, tools] = process.argv.slice(2);
const option = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : fallback;
};
if (!existsSync(join(tools, 'generate.sh'))) {
  console.log(`SKIPPED: no TPC-DS tools at ${tools}`);
  process.exit(77);
}
const queriesDir = join(tools, 'queries');
if (!existsSync(join(dataDir, '.done'))) {
  const sf = option('--sf', '1');
  console.log(`generating TPC-DS SF${sf} into ${dataDir} (TPC's dsdgen)`);
  execFileSync('bash', [join(tools, 'generate.sh'), sf, dataDir], { stdio: 'inherit' });
  writeFileSync(join(dataDir, '.done'), '');
}
const threads = Number(option('--threads', 2));
const only = option('--queries', '');
const wanted = only ? new Set(only.split(',').map(Number)) : null;
const keepLimit = process.argv.includes('--limit');

const tables = readdirSync(dataDir).filter((f) => f.endsWith('.parquet')).map((f) => f.slice(0, -8));
const views = tables.map((t) => `CREATE VIEW ${t} AS SELECT * FROM read_parquet('${join(dataDir, t)}.parquet');`).join('\n');
const instance = await DuckDBInstance.create(':memory:');
const duck = await instance.connect();
await duck.run(`SET threads = ${threads}`);
await duck.run(views);

// Sluice's answer and its own run time (the shell's .timer, no process start-up).
function runSluice(sql) {
  const script = `${views}\nSET threads = ${threads};\n.mode csv\n.nullvalue ${NULL}\n.timer on\n${sql}`;
  const out = execFileSync(sluice, [], { input: script, encoding: 'utf8', maxBuffer: 1 << 30,
    stdio: ['pipe', 'pipe', 'pipe'] });
  const timings = [...out.matchAll(/^Run Time \(s\): real ([0-9.]+).*$/gm)];
  const seconds = Number(timings[timings.length - 1][1]);
  const csv = out.replace(/^Run Time \(s\):.*\n?/gm, '');
  return { rows: parseCsv(csv).slice(1), seconds };
}

// DuckDB's answer, run once: values as its VARCHAR casts (the text Sluice prints), the result
// types from preparing the query (DOUBLE columns compare with a tolerance). Its time includes
// those casts, a small share of a query that reads SF1.
async function runDuck(sql) {
  const query = sql.replace(/;\s*$/, '');
  const prepared = await duck.prepare(query);
  const types = Array.from({ length: prepared.columnCount }, (_, i) => prepared.columnType(i).toString());
  const start = performance.now();
  const text = await duck.runAndReadAll(`SELECT COLUMNS(*)::VARCHAR FROM (${query})`);
  const seconds = (performance.now() - start) / 1000;
  const rows = text.getRows().map((row) => row.map((v) => (v === null ? NULL : String(v))));
  return { rows, seconds, types };
}

const close = (a, b, type) => {
  if (a === b) return true;
  if (type !== 'DOUBLE' && type !== 'FLOAT') return false;
  const x = Number(a), y = Number(b);
  return Number.isFinite(x) && Number.isFinite(y) && Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y));
};
const sameRow = (a, b, types) => a.length === b.length && a.every((v, i) => close(v, b[i], types[i]));

// Rows of `left` without a match in `right` (each match used once).
function unmatched(left, right, types) {
  const pool = [...right];
  return left.filter((row) => {
    const at = pool.findIndex((other) => sameRow(row, other, types));
    if (at < 0) return true;
    pool.splice(at, 1);
    return false;
  });
}

let right = 0;
const failures = [];
let sluiceTotal = 0, duckTotal = 0;
for (const file of readdirSync(queriesDir).filter((f) => /^\d+\.sql$/.test(f)).sort()) {
  const number = Number(file.slice(0, -4));
  if (wanted && !wanted.has(number)) continue;
  const text = readFileSync(join(queriesDir, file), 'utf8');
  const sql = keepLimit ? text : text.replace(/\s+limit\s+100\s*;?\s*$/i, ';\n');
  let expected, actual;
  try {
    expected = await runDuck(sql);
  } catch (error) {
    console.log(`Q${number}: DuckDB failed: ${error.message.split('\n')[0]}`);
    continue;
  }
  try {
    actual = runSluice(sql);
  } catch (error) {
    const message = String(error.stderr || error.message).split('\n')[0];
    console.log(`Q${number}: ERROR ${message}`);
    failures.push(`Q${number}`);
    continue;
  }
  sluiceTotal += actual.seconds;
  duckTotal += expected.seconds;
  const missing = unmatched(expected.rows, actual.rows, expected.types);
  const extra = unmatched(actual.rows, expected.rows, expected.types);
  const timing = `${actual.seconds.toFixed(3)} s, DuckDB ${expected.seconds.toFixed(3)} s (${(actual.seconds / expected.seconds).toFixed(2)}x)`;
  if (!missing.length && !extra.length && actual.rows.length === expected.rows.length) {
    right++;
    console.log(`Q${number}: ok, ${actual.rows.length} rows; ${timing}`);
    continue;
  }
  failures.push(`Q${number}`);
  console.log(`Q${number}: WRONG: ${actual.rows.length} rows, expected ${expected.rows.length}; ` +
    `missing ${JSON.stringify(missing.slice(0, 2))}, extra ${JSON.stringify(extra.slice(0, 2))}`);
}
console.log(`${right} right, ${failures.length} wrong or failed` +
  (failures.length ? ` (${failures.join(', ')})` : '') +
  `; sum of times Sluice ${sluiceTotal.toFixed(2)} s, DuckDB ${duckTotal.toFixed(2)} s (${(sluiceTotal / duckTotal).toFixed(2)}x)`);
process.exit(failures.length ? 1 : 0);
