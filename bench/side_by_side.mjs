// Runs queries over TPC-H (local Parquet, hot) in Sluice and in DuckDB 1.5.6 at the same thread
// count, interleaved, and prints the medians, ranges and ratio Sluice / DuckDB per query. Each
// query returns one number, which must agree between the engines (a wrong answer fails the
// bench). Shared by the benchmarks that compare single operators with DuckDB.
import { DuckDBInstance } from '@duckdb/node-api';
import { execFileSync } from 'node:child_process';
import { generateTpch, tpchViews } from '../tests/tpch/generate.mjs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export function argument(name, fallback) {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}

export async function compareWithDuckDB(title, queries) {
  const sf = argument('--sf', 1);
  const repetitions = argument('--repetitions', 3);
  const threads = argument('--threads', cpus().length);
  const sluice = join(root, 'build', 'sluice');
  const dataDir = join(root, 'build', 'bench-data', `tpch_sf${sf}`);
  generateTpch(sluice, sf, dataDir);
  const views = tpchViews(dataDir);

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
  console.log(`${title} over TPC-H SF${sf}, local Parquet, hot, ${threads} threads, ` +
    `medians of ${repetitions} interleaved runs (range)`);
  console.log('| query | Sluice s | DuckDB s | Sluice / DuckDB |');
  console.log('|---|---:|---:|---:|');
  for (const name of names) {
    const s = median(runs[name].sluice), d = median(runs[name].duckdb);
    console.log(`| ${name} | ${s.toFixed(3)} (${range(runs[name].sluice)}) | ` +
      `${d.toFixed(3)} (${range(runs[name].duckdb)}) | ${(s / d).toFixed(2)}x |`);
  }
}
