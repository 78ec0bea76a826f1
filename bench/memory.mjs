#!/usr/bin/env node
// Memory governance figures, measured side by side in one run:
//   - TPC-H Q9, Q13 and Q18 over local Parquet (hot page cache), unlimited against a
//     memory_limit far below their working set (they spill): time and peak RSS;
//   - the allocator: glibc malloc against jemalloc and mimalloc (Debian's libjemalloc2 and
//     libmimalloc2.0, preloaded), for the same runs.
// Every configuration runs --reps times, interleaved; figures are medians with their range.
//
//   node bench/memory.mjs [--sf 10] [--limit 500MB] [--reps 3] [--queries 9,13,18]
//
// Data: $SLUICE_CACHE/bench-sf<N>/tpch (the suite's layout), generated when missing.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sluice = path.join(root, 'build/sluice');
let sf = 10, limit = '500MB', reps = 3, queries = [9, 13, 18];
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--sf') sf = Number(argv[++i]);
  else if (argv[i] === '--limit') limit = argv[++i];
  else if (argv[i] === '--reps') reps = Number(argv[++i]);
  else if (argv[i] === '--queries') queries = argv[++i].split(',').map(Number);
  else { console.error(`memory.mjs: unknown argument ${argv[i]}`); process.exit(2); }
}
if (!fs.existsSync(sluice)) { console.error('memory.mjs: build first (make)'); process.exit(2); }

const allocators = [
  { name: 'glibc', preload: '' },
  // glibc with a fixed mmap threshold: large blocks come from mmap and go back at free,
  // instead of the threshold rising to 32 MiB and the blocks staying in the heap.
  { name: 'glibc, mmap threshold 256 KiB', preload: '', tunables: 'glibc.malloc.mmap_threshold=262144' },
  { name: 'jemalloc', preload: '/usr/lib/x86_64-linux-gnu/libjemalloc.so.2' },
  { name: 'mimalloc', preload: '/usr/lib/x86_64-linux-gnu/libmimalloc.so.2' },
];
for (const allocator of allocators) {
  if (allocator.preload && !fs.existsSync(allocator.preload)) {
    console.error(`memory.mjs: ${allocator.preload} is missing: apt-get install libjemalloc2 libmimalloc2.0`);
    process.exit(2);
  }
}

const cache = process.env.SLUICE_CACHE || path.join(os.homedir(), '.cache/sluice');
const data = path.join(cache, `bench-sf${sf}`, 'tpch');
if (!fs.existsSync(path.join(data, '.done-dbgen214'))) {
  console.log(`generating ${data}`);
  fs.rmSync(data, { recursive: true, force: true });
  execFileSync(sluice, ['gen-tpch', '--sf', String(sf), '--out', data], { stdio: 'inherit' });
  fs.writeFileSync(path.join(data, '.done-dbgen214'), '');
}
const tables = ['lineitem', 'orders', 'customer', 'part', 'partsupp', 'supplier', 'nation', 'region'];
const views = tables.map((t) => `CREATE VIEW ${t} AS SELECT * FROM '${data}/${t}.parquet';`).join(' ');
const queryText = (n) => fs.readFileSync(path.join(root, `tpch/queries/q${String(n).padStart(2, '0')}.sql`), 'utf8');

// One process: wall seconds and peak RSS (MB) by GNU time, the result's text for comparison.
function run(allocator, memoryLimit, sql) {
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-memory-bench-'));
  const setup = `SET temp_directory = '${temp}/spill'; ${memoryLimit ? `SET memory_limit = '${memoryLimit}';` : ''} ${views}`;
  const env = { ...process.env, ...(allocator.preload ? { LD_PRELOAD: allocator.preload } : {}),
    ...(allocator.tunables ? { GLIBC_TUNABLES: allocator.tunables } : {}) };
  const stats = path.join(temp, 'time');
  const result = spawnSync('/usr/bin/time', ['-f', '%e %M', '-o', stats, sluice, '-csv', '-c', `${setup} ${sql}`], { env, encoding: 'utf8', maxBuffer: 1 << 28 });
  const [seconds, kb] = fs.readFileSync(stats, 'utf8').trim().split(/\s+/).slice(-2).map(Number);
  const leftover = fs.existsSync(path.join(temp, 'spill'));
  fs.rmSync(temp, { recursive: true, force: true });
  if (result.status !== 0) throw new Error(`${allocator.name} ${memoryLimit || 'unlimited'}: ${(result.stderr || result.stdout).slice(0, 300)}`);
  if (leftover) throw new Error('spill files left behind');
  return { seconds, rssMB: kb / 1024, output: result.stdout };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const summary = (values) => `${median(values).toFixed(2)} (${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)})`;

const baseline = run(allocators[0], '', 'SELECT 1;');
const configs = [];
for (const q of queries) {
  for (const allocator of allocators) {
    for (const memoryLimit of ['', limit]) configs.push({ q, allocator, memoryLimit, runs: [] });
  }
}
for (let rep = 0; rep < reps; rep++) {
  for (const config of configs) {
    const r = run(config.allocator, config.memoryLimit, queryText(config.q));
    config.runs.push(r);
    console.log(`rep ${rep + 1} Q${config.q} ${config.allocator.name} ${config.memoryLimit || 'unlimited'}: ${r.seconds.toFixed(2)} s, ${r.rssMB.toFixed(0)} MB`);
  }
}
// Every run of a query gives the same rows as glibc's unlimited run.
for (const config of configs) {
  const reference = configs.find((c) => c.q === config.q && c.allocator.name === 'glibc' && !c.memoryLimit).runs[0].output;
  for (const r of config.runs) {
    if (r.output !== reference) throw new Error(`Q${config.q} ${config.allocator.name} ${config.memoryLimit}: result differs`);
  }
}

const limitMB = Number(limit.replace(/MB$/i, '')) * 1e6 / 2 ** 20;
const lines = [
  `SF${sf}, local Parquet (hot), ${os.cpus().length} cores, ${reps} interleaved repetitions; memory_limit ${limit} = ${limitMB.toFixed(0)} MiB.`,
  `Idle process (SELECT 1): ${baseline.rssMB.toFixed(0)} MB RSS.`,
  '',
  '| query | allocator | memory_limit | seconds median (range) | vs unlimited | peak RSS MB (max) | RSS / limit |',
  '|---|---|---|---:|---:|---:|---:|',
];
for (const config of configs) {
  const unlimited = configs.find((c) => c.q === config.q && c.allocator === config.allocator && !c.memoryLimit);
  const times = config.runs.map((r) => r.seconds);
  const rss = Math.max(...config.runs.map((r) => r.rssMB));
  const ratio = median(times) / median(unlimited.runs.map((r) => r.seconds));
  lines.push(`| Q${config.q} | ${config.allocator.name} | ${config.memoryLimit || 'default'} | ${summary(times)} | ${config.memoryLimit ? `${ratio.toFixed(2)}x` : ''} | ${rss.toFixed(0)} | ${config.memoryLimit ? `${(rss / limitMB).toFixed(2)}x` : ''} |`);
}
const report = lines.join('\n') + '\n';
console.log('\n' + report);
const out = path.join(root, 'bench/results', `memory-${new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)}`);
fs.mkdirSync(out, { recursive: true });
fs.writeFileSync(path.join(out, 'report.md'), report);
console.log(`written to ${path.relative(root, out)}/report.md`);
