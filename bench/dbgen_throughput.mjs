// Throughput of Sluice's TPC-H generator (dbgen-identical data) writing lineitem: rows per
// second and per core to dbgen's .tbl text and to Parquet, at each scale factor and thread
// count, with the process's peak memory beside the size of the data (generation streams).
//
//   node bench/dbgen_throughput.mjs [--sf 1,10] [--threads 1,2] [--formats tbl,parquet]
//                                   [--reps 3] [--dir DIR]
//
// Each configuration runs `sluice gen-tpch --tables lineitem` under /usr/bin/time; the
// repetitions are interleaved (every configuration once, then again), and the table shows the
// median with the range. The time is gen-tpch's own: building dbgen's 300 MiB text pool (once per
// process, about 0.6 s), generating and writing the table; the files are deleted after each run.
// tpchgen-rs, the fastest generator known, is a Rust crate that neither Debian nor npm ships,
// so it cannot run here beside Sluice.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const option = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const scaleFactors = option('--sf', '1,10').split(',').map(Number);
const threadCounts = option('--threads', '1,2').split(',').map(Number);
const formats = option('--formats', 'tbl,parquet').split(',');
const reps = Number(option('--reps', '3'));
const dir = option('--dir', join(root, 'build', 'bench-data', 'dbgen_throughput'));
const sluice = join(root, 'build', 'sluice');

function run(sf, format, threads) {
  const out = join(dir, `sf${sf}_${format}_${threads}`);
  fs.rmSync(out, { recursive: true, force: true });
  const result = spawnSync('/usr/bin/time', ['-f', 'peak_kb=%M', sluice, 'gen-tpch', '--sf', String(sf),
    '--out', out, '--tables', 'lineitem', '--format', format, '--threads', String(threads)],
  { encoding: 'utf8' });
  if (result.status !== 0) {
    console.error(result.stdout, result.stderr);
    process.exit(1);
  }
  // gen-tpch's summary: table, rows, "rows", files, "file", MB, "MB", seconds, "s", ...
  const fields = result.stdout.trim().split(/\s+/);
  const bytes = fs.statSync(join(out, `lineitem.${format}`)).size;
  fs.rmSync(out, { recursive: true, force: true });
  return { rows: Number(fields[1]), seconds: Number(fields[7]), bytes,
    peakMb: Number(/peak_kb=(\d+)/.exec(result.stderr)[1]) / 1024 };
}

const configurations = [];
for (const sf of scaleFactors) {
  for (const format of formats) {
    for (const threads of threadCounts) configurations.push({ sf, format, threads, runs: [] });
  }
}
for (let rep = 0; rep < reps; rep++) {
  for (const configuration of configurations) {
    configuration.runs.push(run(configuration.sf, configuration.format, configuration.threads));
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const millions = (value) => (value / 1e6).toFixed(2);
console.log(`sluice gen-tpch --tables lineitem; medians of ${reps} interleaved runs (range)\n`);
console.log('| SF | format | threads | rows | file MB | seconds | M rows/s | M rows/s per core | peak RSS MB |');
console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|');
for (const { sf, format, threads, runs } of configurations) {
  const rates = runs.map((r) => r.rows / r.seconds);
  const seconds = runs.map((r) => r.seconds);
  console.log(`| ${sf} | ${format} | ${threads} | ${runs[0].rows.toLocaleString('en-US')} | ` +
    `${(runs[0].bytes / 1e6).toFixed(0)} | ${median(seconds).toFixed(2)} | ` +
    `${millions(median(rates))} (${millions(Math.min(...rates))}-${millions(Math.max(...rates))}) | ` +
    `${millions(median(rates) / threads)} | ${median(runs.map((r) => r.peakMb)).toFixed(0)} |`);
}
