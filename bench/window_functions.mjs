// Window functions over TPC-H lineitem (local Parquet, hot), Sluice beside DuckDB 1.5.6 in one
// run at the same thread count: medians and ranges of interleaved repetitions and the ratio
// Sluice / DuckDB per query. Each query sums its window column, so both engines compute every
// value and return one row; the sums are compared (a wrong answer fails the bench).
//
//   node bench/window_functions.mjs [--sf 1] [--repetitions 3] [--threads N]
import { DuckDBInstance } from '@duckdb/node-api';
import { execFileSync } from 'node:child_process';
import { generateTpch, tpchViews } from '../tests/tpch/generate.mjs';
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
const sluice = join(root, 'build', 'sluice');
const dataDir = join(root, 'build', 'bench-data', `tpch_sf${sf}`);
generateTpch(sluice, sf, dataDir);
const views = tpchViews(dataDir);

const queries = {
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
};

const instance = await DuckDBInstance.create(':memory:');
const duck = await instance.connect();
await duck.run(`SET threads = ${threads}`);
await duck.run(views);

// One shell per query and repetition: the views, the query once to warm the cache, then once
// timed by .timer (no process start-up in the figure).
function runSluice(sql) {
  const script = `SET threads = ${threads};\n${views}\n.timer on\n` + `${sql};\n`.repeat(2);
  const out = execFileSync(sluice, ['-csv'], { input: script, encoding: 'utf8' });
  const times = [...out.matchAll(/Run Time \(s\): real ([0-9.]+)/g)].map((m) => Number(m[1]));
  const values = out.split('\n').filter((line) => /^-?[0-9.e+]+$/.test(line.trim()));
  return { seconds: times[times.length - 1], value: Number(values[values.length - 1]) };
}
async function runDuckDB(sql) {
  const start = process.hrtime.bigint();
  const reader = await duck.runAndReadAll(sql);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return { seconds, value: Number(reader.getRows()[0][0]) };
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const range = (values) => `${Math.min(...values).toFixed(3)}-${Math.max(...values).toFixed(3)}`;

const names = Object.keys(queries);
for (const name of names) await runDuckDB(queries[name]); // DuckDB's warm-up
const runs = Object.fromEntries(names.map((n) => [n, { sluice: [], duckdb: [] }]));
for (let rep = 0; rep < repetitions; rep++) {
  for (const name of names) {
    const s = runSluice(queries[name]);
    const d = await runDuckDB(queries[name]);
    if (Math.abs(s.value - d.value) > 1e-9 * Math.max(1, Math.abs(d.value))) {
      console.error(`${name}: Sluice gives ${s.value}, DuckDB ${d.value}`);
      process.exit(1);
    }
    runs[name].sluice.push(s.seconds);
    runs[name].duckdb.push(d.seconds);
  }
}
console.log(`Window functions over TPC-H SF${sf} lineitem, local Parquet, hot, ${threads} threads, ` +
  `medians of ${repetitions} interleaved runs (range)`);
console.log('| query | Sluice s | DuckDB s | Sluice / DuckDB |');
console.log('|---|---:|---:|---:|');
for (const name of names) {
  const s = median(runs[name].sluice), d = median(runs[name].duckdb);
  console.log(`| ${name} | ${s.toFixed(3)} (${range(runs[name].sluice)}) | ` +
    `${d.toFixed(3)} (${range(runs[name].duckdb)}) | ${(s / d).toFixed(2)}x |`);
}
