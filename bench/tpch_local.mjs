// The 22 TPC-H queries on local Parquet (hot cache), Sluice beside DuckDB 1.5.6 in one run, at
// the same thread count; medians and ranges of interleaved repetitions, the ratio Sluice /
// DuckDB per query, and the sums of the medians.
//
//   node bench/tpch_local.mjs [--sf 1] [--repetitions 5] [--threads N] [--queries 1,6,9,18]
//                             [--writer duckdb] [--baseline path/to/another/sluice]
//
// The data is TPC-H Parquet written by Sluice's CALL dbgen (tests/tpch/generate.mjs), cached
// under build/bench-data; with --writer duckdb, the same rows rewritten by DuckDB (its default
// row groups of 122,880 rows, snappy, its encodings and bloom filters). Both engines read it
// through views over read_parquet. With --baseline, another Sluice binary (an earlier commit's
// build) runs beside them, interleaved, for A/B figures of a change. Sluice's
// times are its shell's .timer figures (no process start-up); DuckDB runs in this process.
import { DuckDBInstance } from '@duckdb/node-api';
import { execFileSync } from 'node:child_process';
import { generateTpch, tpchViews } from '../tests/tpch/generate.mjs';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const argument = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const sf = argument('--sf', 1);
const repetitions = argument('--repetitions', 3);
const threads = argument('--threads', cpus().length);
const writerAt = process.argv.indexOf('--writer');
const writer = writerAt > 0 ? process.argv[writerAt + 1] : 'sluice';
if (writer !== 'sluice' && writer !== 'duckdb') {
  console.error('--writer is sluice or duckdb');
  process.exit(2);
}
const sluice = join(root, 'build', 'sluice');
const baselineAt = process.argv.indexOf('--baseline');
const baseline = baselineAt > 0 ? process.argv[baselineAt + 1] : null;
const sluiceDir = join(root, 'build', 'bench-data', `tpch_sf${sf}`);
generateTpch(sluice, sf, sluiceDir);
const dataDir = writer === 'duckdb' ? `${sluiceDir}_duckdb` : sluiceDir;

const instance = await DuckDBInstance.create(':memory:');
const duck = await instance.connect();
if (writer === 'duckdb' && !existsSync(join(dataDir, '.done'))) {
  mkdirSync(dataDir, { recursive: true });
  for (const table of ['nation', 'region', 'part', 'supplier', 'partsupp', 'customer', 'orders', 'lineitem']) {
    await duck.run(`COPY (SELECT * FROM read_parquet('${join(sluiceDir, `${table}.parquet`)}'))
      TO '${join(dataDir, `${table}.parquet`)}' (FORMAT parquet, ROW_GROUP_SIZE 122880)`);
  }
  writeFileSync(join(dataDir, '.done'), '');
}
const views = tpchViews(dataDir);
const queryArgument = process.argv.indexOf('--queries');
const queries = (queryArgument > 0 ? process.argv[queryArgument + 1].split(',').map(Number)
  : Array.from({ length: 22 }, (_, i) => i + 1)).map((n) => `q${String(n).padStart(2, '0')}`);
const text = (q) => readFileSync(join(root, 'tpch', 'queries', `${q}.sql`), 'utf8');

await duck.run(`SET threads = ${threads}`);
await duck.run(views);

// One shell per query and repetition: the views, the query once to warm the cache, then once
// timed by .timer (no process start-up in the figure).
function timeSluice(query, binary = sluice) {
  const script = `SET threads = ${threads};\n${views}\n.timer on\n` + (text(query) + '\n').repeat(2);
  const out = execFileSync(binary, ['-csv'], { input: script, encoding: 'utf8', maxBuffer: 1 << 28 });
  const times = [...out.matchAll(/Run Time \(s\): real ([0-9.]+)/g)].map((m) => Number(m[1]));
  return times[times.length - 1];
}
async function timeDuckDB(query) {
  const start = process.hrtime.bigint();
  await duck.runAndReadAll(text(query));
  return Number(process.hrtime.bigint() - start) / 1e9;
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

// Repetitions interleaved: every query on both engines, then again (the machine is shared and
// noisy; a slow minute then touches both).
for (const query of queries) await duck.runAndReadAll(text(query)); // DuckDB's warm-up
const runs = Object.fromEntries(queries.map((q) => [q, { sluice: [], duckdb: [], baseline: [] }]));
for (let rep = 0; rep < repetitions; rep++) {
  for (const query of queries) {
    runs[query].sluice.push(timeSluice(query));
    if (baseline) runs[query].baseline.push(timeSluice(query, baseline));
    runs[query].duckdb.push(await timeDuckDB(query));
  }
}
const range = (values) => `${Math.min(...values).toFixed(3)}-${Math.max(...values).toFixed(3)}`;
console.log(`TPC-H SF${sf}, local Parquet written by ${writer === 'duckdb' ? 'DuckDB' : 'Sluice'}, hot, ${threads} threads, medians of ${repetitions} interleaved runs (range)`);
const extra = baseline ? ' baseline s | Sluice / baseline |' : '';
console.log(`| query | Sluice s | DuckDB s | Sluice / DuckDB |${extra}`);
console.log(`|---|---:|---:|---:|${baseline ? '---:|---:|' : ''}`);
let sluiceSum = 0, duckSum = 0, baseSum = 0;
for (const query of queries) {
  const s = median(runs[query].sluice), d = median(runs[query].duckdb);
  sluiceSum += s;
  duckSum += d;
  let line = `| ${query} | ${s.toFixed(3)} (${range(runs[query].sluice)}) | ` +
    `${d.toFixed(3)} (${range(runs[query].duckdb)}) | ${(s / d).toFixed(2)}x |`;
  if (baseline) {
    const b = median(runs[query].baseline);
    baseSum += b;
    line += ` ${b.toFixed(3)} (${range(runs[query].baseline)}) | ${(s / b).toFixed(2)}x |`;
  }
  console.log(line);
}
console.log(`| sum | ${sluiceSum.toFixed(3)} | ${duckSum.toFixed(3)} | ${(sluiceSum / duckSum).toFixed(2)}x |` +
  (baseline ? ` ${baseSum.toFixed(3)} | ${(sluiceSum / baseSum).toFixed(2)}x |` : ''));
