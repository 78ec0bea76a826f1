// The benchmark suite: the reference's six experiments (DuckDB's "Asynchronous I/O in DuckDB:
// Work, Thread, Work", 2026-07-31) scaled to this 2-core machine, on the emulated object-store
// link (bench/rig, with its 100 MB/s aggregate cap: root), with DuckDB and Polars beside Sluice
// where they can read the same files. Configurations run interleaved (A B A B ...); medians with
// min and max. Writes bench/results/<timestamp>/: a CSV per experiment, report.md and PNG plots.
//
//   node bench/suite/run.mjs [q6 local small rowgroups concurrent csv] [--sf 10] [--reps 3]
//                            [--profile s3] [--quick]
//
// --quick is --sf 1 --reps 1 (a few minutes). Data is generated once into
// $SLUICE_CACHE/bench-sf<N> (default ~/.cache/sluice).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dropCaches, median, runSampled, summarize } from './measure.mjs';
import { sweepPlot, throughputPlot, timelinePlot } from './plots.mjs';
import { REFERENCE } from './reference.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const sluice = path.join(root, 'build/sluice');
const concurrentDriver = path.join(root, 'build/bench/concurrent_queries');
const ALL = ['q6', 'local', 'small', 'rowgroups', 'concurrent', 'csv'];

// ---- options ----
const argv = process.argv.slice(2);
let sf = 10, reps = 3, profile = 's3';
const experiments = [];
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--sf') sf = Number(argv[++i]);
  else if (a === '--reps') reps = Number(argv[++i]);
  else if (a === '--profile') profile = argv[++i];
  else if (a === '--quick') { sf = 1; reps = 1; }
  else if (ALL.includes(a)) experiments.push(a);
  else { console.error(`bench: unknown argument ${a} (experiments: ${ALL.join(' ')})`); process.exit(2); }
}
if (experiments.length === 0) experiments.push(...ALL);
if (!(sf > 0) || !(reps >= 1)) { console.error('bench: --sf and --reps must be positive'); process.exit(2); }
if (process.getuid() !== 0) { console.error('bench: needs root (the rig\'s link cap, dropping the page cache)'); process.exit(2); }
for (const binary of [sluice, concurrentDriver]) {
  if (!fs.existsSync(binary)) { console.error(`bench: ${binary} is missing: run make first`); process.exit(2); }
}

const THREADS = os.cpus().length;
const LINK_MBPS = 100; // the rig's aggregate cap, MB/s
const cache = process.env.SLUICE_CACHE || path.join(os.homedir(), '.cache/sluice');
const data = path.join(cache, `bench-sf${sf}`);
const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
const out = path.join(root, 'bench/results', stamp);
fs.mkdirSync(out, { recursive: true });
const log = (...args) => console.log(`[${new Date().toISOString().slice(11, 19)}]`, ...args);

// ---- data ----
const lineitemRows = Math.round(sf * 6_000_000);
const SMALL_FILES = 200;
const smallRowGroup = Math.ceil(lineitemRows / (SMALL_FILES * 5));
// The reference's sweep at SF100 scaled to SF10 (the issue's list), and by sf / 10 beyond.
const SWEEP = [122_880, 1_966_080, 9_375_593, 15_000_000, 30_000_000, 60_000_000]
  .map((rows, i) => (i === 0 ? rows : Math.max(122_880, Math.round((rows * sf) / 10))));

function generate(directory, args) {
  // Data of the dbgen-identical generator, with the page index Sluice's writer now stores.
  const marker = path.join(directory, '.done-pageindex');
  if (fs.existsSync(marker)) return;
  log(`generating ${directory} (${args.join(' ')})`);
  fs.rmSync(directory, { recursive: true, force: true });
  execFileSync(sluice, ['gen-tpch', '--sf', String(sf), '--out', directory, ...args], { stdio: ['ignore', 'inherit', 'inherit'] });
  fs.writeFileSync(marker, '');
}
const layouts = {
  one: () => { generate(path.join(data, 'one'), ['--tables', 'lineitem']); return 'one/lineitem.parquet'; },
  small: () => {
    generate(path.join(data, 'small'), ['--tables', 'lineitem', '--files', String(SMALL_FILES), '--row-group-size', String(smallRowGroup)]);
    return fs.readdirSync(path.join(data, 'small/lineitem')).sort().map((f) => `small/lineitem/${f}`);
  },
  // The reference's small-file layout: five row groups of the default 122,880 rows per file.
  smallReference: () => {
    const files = Math.ceil(lineitemRows / (5 * 122_880));
    generate(path.join(data, 'small-ref'), ['--tables', 'lineitem', '--files', String(files), '--row-group-size', '122880']);
    return fs.readdirSync(path.join(data, 'small-ref/lineitem')).sort().map((f) => `small-ref/lineitem/${f}`);
  },
  rowGroups: (rows) => {
    if (rows === 122_880) return layouts.one();
    generate(path.join(data, `rg-${rows}`), ['--tables', 'lineitem', '--row-group-size', String(rows)]);
    return `rg-${rows}/lineitem.parquet`;
  },
  tpch: () => { generate(path.join(data, 'tpch'), []); return 'tpch'; },
  csv: () => { generate(path.join(data, 'csv'), ['--tables', 'lineitem', '--format', 'csv']); return 'csv/lineitem.csv'; },
};

// ---- the rig ----
let rigUrl = null;
function startRig() {
  if (rigUrl) return rigUrl;
  rigUrl = execFileSync(path.join(root, 'bench/rig/rig.sh'), ['start', '--profile', profile, '--dir', data, '--link'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  log(`rig (${profile}, link ${LINK_MBPS} MB/s) at ${rigUrl}`);
  return rigUrl;
}
function stopRig() {
  if (rigUrl) execFileSync(path.join(root, 'bench/rig/rig.sh'), ['stop'], { stdio: 'ignore' });
  rigUrl = null;
}
process.on('exit', stopRig);
process.on('SIGINT', () => process.exit(130));

// ---- runners ----
const Q6 = fs.readFileSync(path.join(root, 'tpch/queries/q06.sql'), 'utf8');
const quote = (s) => `'${s.replace(/'/g, "''")}'`;
const sourceSql = (files, remote) => {
  const list = (Array.isArray(files) ? files : [files]).map((f) => (remote ? `${startRig()}/${f}` : path.join(data, f)));
  return list.length === 1 ? quote(list[0]) : `[${list.map(quote).join(', ')}]`;
};

// Q6 in a fresh Sluice process: seconds from the shell's statement timer; `hot` runs it once
// before the timed run.
async function sluiceQ6({ files, remote = false, settings = '', hot = false, trace = null, reader = 'read_parquet' }) {
  const script = ['.mode csv', 'SET enable_external_file_cache = false;', settings,
    `CREATE VIEW lineitem AS SELECT * FROM ${reader}(${sourceSql(files, remote)});`,
    hot ? Q6 : '', trace ? `SET trace_file = ${quote(trace)};` : '', '.timer on', Q6].join('\n');
  const run = await runSampled(sluice, [], { input: script, inRig: remote });
  const times = [...run.stdout.matchAll(/Run Time \(s\): real ([0-9.]+)/g)].map((m) => Number(m[1]));
  if (run.code !== 0 || times.length === 0) throw new Error(`sluice failed: ${run.stderr || run.stdout}`);
  const values = run.stdout.split('\n').filter((l) => /^[0-9.]+$/.test(l.trim()));
  const seconds = times[times.length - 1];
  return { engine: 'Sluice', seconds, result: values[values.length - 1], ...summarize(run.samples, seconds), samples: run.samples };
}

async function peerQ6(engine, { files, remote = false, hot = false, format = 'parquet' }) {
  const source = Array.isArray(files) ? files[0] : files;
  const url = remote ? `${startRig()}/${source}` : path.join(data, source);
  const run = await runSampled(process.execPath, [path.join(root, 'bench/suite/peer.mjs'), engine, url, String(THREADS), hot ? 'hot' : 'once', format],
    { inRig: remote, env: { POLARS_MAX_THREADS: String(THREADS) } });
  const match = run.stdout.trim().match(/^([0-9.]+) (.*)$/m);
  if (run.code !== 0 || !match) throw new Error(`${engine} failed: ${(run.stderr || run.stdout).slice(0, 400)}`);
  const seconds = Number(match[1]);
  return { engine: engine === 'duckdb' ? 'DuckDB 1.5.6' : 'Polars 0.25.2', seconds, result: match[2], ...summarize(run.samples, seconds), samples: run.samples };
}

// Runs every configuration `reps` times, interleaved; returns [{name, runs}] with errors kept.
async function interleaved(configs, repetitions = reps) {
  const results = configs.map((c) => ({ name: c.name, runs: [], errors: [] }));
  for (let rep = 0; rep < repetitions; rep++) {
    for (let i = 0; i < configs.length; i++) {
      if (configs[i].before) configs[i].before();
      try {
        const run = await configs[i].run();
        results[i].runs.push(run);
        log(`${configs[i].name}: ${run.seconds.toFixed(2)} s`);
      } catch (error) {
        results[i].errors.push(String(error.message).split('\n')[0]);
        log(`${configs[i].name}: ${String(error.message).split('\n')[0]}`);
      }
    }
  }
  return results;
}

const stats = (result) => {
  const times = result.runs.map((r) => r.seconds);
  if (!times.length) return null;
  return { median: median(times), min: Math.min(...times), max: Math.max(...times), linkMB: median(result.runs.map((r) => r.linkMB)),
    meanCores: median(result.runs.map((r) => r.meanCores)), peakRssMB: median(result.runs.map((r) => r.peakRssMB)), result: result.runs[0].result };
};
const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : '–');
const f0 = (x) => (Number.isFinite(x) ? x.toFixed(0) : '–');
const pct = (x) => (Number.isFinite(x) ? `${(x * 100).toFixed(0)}%` : '–');

function writeCsv(name, results, extra = () => ({})) {
  const lines = ['configuration,run,seconds,link_mb,mean_cores,peak_cores,peak_rss_mb,peak_link_mbps,result'];
  for (const r of results) {
    r.runs.forEach((run, i) => lines.push([r.name, i + 1, run.seconds, f2(run.linkMB), f2(run.meanCores), f2(run.peakCores), f0(run.peakRssMB), f0(run.peakLinkMBps), run.result ?? ''].join(',')));
    r.errors.forEach((e) => lines.push([r.name, 'error', '', '', '', '', '', '', `"${e.replace(/"/g, "'")}"`].join(',')));
  }
  fs.writeFileSync(path.join(out, `${name}.csv`), lines.join('\n') + '\n');
}

function table(results, { remote = true } = {}) {
  const header = remote
    ? '| configuration | median s | min s | max s | MB over the link | link utilisation | physical limit s | mean cores | peak RSS MB |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|'
    : '| configuration | median s | min s | max s | mean cores | peak RSS MB |\n|---|---:|---:|---:|---:|---:|';
  const rows = results.map((r) => {
    const s = stats(r);
    if (!s) return `| ${r.name} | failed: ${r.errors[0] ?? 'no run'} |`;
    return remote
      ? `| ${r.name} | ${f2(s.median)} | ${f2(s.min)} | ${f2(s.max)} | ${f0(s.linkMB)} | ${pct(s.linkMB / s.median / LINK_MBPS)} | ${f2(s.linkMB / LINK_MBPS)} | ${f2(s.meanCores)} | ${f0(s.peakRssMB)} |`
      : `| ${r.name} | ${f2(s.median)} | ${f2(s.min)} | ${f2(s.max)} | ${f2(s.meanCores)} | ${f0(s.peakRssMB)} |`;
  });
  return [header, ...rows].join('\n');
}
const medianOf = (results, name) => stats(results.find((r) => r.name === name))?.median;

// ---- experiments ----
const report = [];
const targets = [];
const section = (title, body) => report.push(`## ${title}\n\n${body}\n`);

async function experimentQ6() {
  const one = layouts.one();
  // A small sweep for the best hand-tuned setting: how far ahead, and how many requests in
  // flight per host, pinned instead of self-tuned (remote reads hold no ASYNC thread, so
  // async_threads is not swept).
  const sweep = [];
  for (const depth of [-1, 32]) for (const inFlight of [16, 64, 256]) for (const ioThreads of [1, 4]) sweep.push({ depth, inFlight, ioThreads });
  const sweepConfigs = sweep.map(({ depth, inFlight, ioThreads }) => ({
    name: `read_ahead_depth=${depth}, http_max_in_flight=${inFlight}, http_io_threads=${ioThreads}`,
    run: () => sluiceQ6({ files: one, remote: true, settings: `SET read_ahead_depth = ${depth}; SET http_max_in_flight = ${inFlight}; SET http_io_threads = ${ioThreads};` }),
  }));
  const swept = await interleaved(sweepConfigs, 1);
  const best = swept.filter((r) => r.runs.length).sort((a, b) => a.runs[0].seconds - b.runs[0].seconds)[0];
  const bestSettings = sweepConfigs.find((c) => c.name === best.name);
  const configs = [
    { name: 'Sluice read_ahead_depth = 0 (synchronous)', run: () => sluiceQ6({ files: one, remote: true, settings: 'SET read_ahead_depth = 0;' }) },
    { name: 'Sluice defaults', run: () => sluiceQ6({ files: one, remote: true }) },
    { name: `Sluice best of sweep (${best.name})`, run: bestSettings.run },
    { name: 'Polars 0.25.2 over HTTP', run: () => peerQ6('polars', { files: one, remote: true }) },
  ];
  const results = await interleaved(configs);
  const traced = path.join(out, 'q6_trace.json');
  await sluiceQ6({ files: one, remote: true, trace: traced });
  const locals = await interleaved([
    { name: 'Sluice defaults, local (hot)', run: () => sluiceQ6({ files: one, hot: true }) },
    { name: 'Sluice read_ahead_depth = 0, local (hot)', run: () => sluiceQ6({ files: one, hot: true, settings: 'SET read_ahead_depth = 0;' }) },
    { name: 'DuckDB 1.5.6, local (hot)', run: () => peerQ6('duckdb', { files: one, hot: true }) },
    { name: 'Polars 0.25.2, local (hot)', run: () => peerQ6('polars', { files: one, hot: true }) },
  ]);
  writeCsv('exp1_q6_one_file', [...results, ...swept, ...locals]);
  const sync = medianOf(results, configs[0].name);
  const defaults = medianOf(results, configs[1].name);
  const defaultStats = stats(results[1]);
  const plots = [
    throughputPlot(out, 'exp1_throughput', `TPC-H Q6 SF${sf}, one Parquet file, rig ${profile}: link throughput`,
      [{ title: 'read_ahead_depth = 0', samples: results[0].runs.at(-1)?.samples ?? [] }, { title: 'defaults', samples: results[1].runs.at(-1)?.samples ?? [] }], LINK_MBPS),
    timelinePlot(out, 'exp1_timeline', `TPC-H Q6 SF${sf}, defaults: REGULAR and ASYNC threads (from SET trace_file)`, traced),
  ].filter(Boolean);
  targets.push(['Q6 one file: defaults vs synchronous', `${f2(sync / defaults)}x`, '>= 2.5x', sync / defaults >= 2.5]);
  targets.push(['Q6 one file: link utilisation with defaults', pct(defaultStats.linkMB / defaults / LINK_MBPS),
    profile === 'far' ? '>= 90%' : '>= 95%', defaultStats.linkMB / defaults / LINK_MBPS >= (profile === 'far' ? 0.9 : 0.95)]);
  const tuned = medianOf(results, configs[2].name);
  targets.push(['Q6 one file: defaults vs the best hand-tuned setting', `${f2(defaults / tuned)}x`, '<= 1.05x', defaults / tuned <= 1.05]);
  const duck = medianOf(locals, 'DuckDB 1.5.6, local (hot)');
  const ours = medianOf(locals, 'Sluice defaults, local (hot)');
  section('1. TPC-H Q6 on one Parquet file', `SF${sf} lineitem as one file (row groups of 122,880 rows), over the rig (${profile}).

${table(results)}

Sweep of \`read_ahead_depth\` x \`http_max_in_flight\` (pinned) x \`http_io_threads\` (one run each; the best is repeated above):

${table(swept)}

On the local file, hot (same file, page cache warm):

${table(locals, { remote: false })}

Results agree: ${[...results, ...locals].map((r) => stats(r)?.result).filter(Boolean).join(' / ')} (Polars multiplies DECIMAL(15,2) values at scale 2, so its sum differs in the cents).

${plots.map((p) => `![${p}](${p})`).join('\n')}

Reference (${REFERENCE.source}): ${REFERENCE.q6}`);
  return { sync, defaults, localRatio: ours / duck };
}

async function experimentLocal() {
  const one = layouts.one();
  const cold = (c) => ({ ...c, name: `${c.name}, cold`, before: () => { execFileSync('sync'); dropCaches(); } });
  const engines = [
    { name: 'Sluice read_ahead_depth = 0', run: (hot) => sluiceQ6({ files: one, hot, settings: 'SET read_ahead_depth = 0;' }) },
    { name: 'Sluice defaults', run: (hot) => sluiceQ6({ files: one, hot }) },
    { name: 'DuckDB 1.5.6', run: (hot) => peerQ6('duckdb', { files: one, hot }) },
    { name: 'Polars 0.25.2', run: (hot) => peerQ6('polars', { files: one, hot }) },
  ];
  const results = await interleaved([
    ...engines.map((e) => cold({ name: e.name, run: () => e.run(false) })),
    ...engines.map((e) => ({ name: `${e.name}, hot`, run: () => e.run(true) })),
  ]);
  writeCsv('exp2_local_cold_hot', results);
  const ours = medianOf(results, 'Sluice defaults, hot');
  const duck = medianOf(results, 'DuckDB 1.5.6, hot');
  targets.push(['Local hot: Sluice vs DuckDB', `${f2(ours / duck)}x`, '<= 1.0x', ours / duck <= 1.0]);
  section('2. Local disk, cold and hot', `SF${sf} lineitem as one Parquet file on the local disk, ${THREADS} threads for every engine. Cold runs drop the page cache first (\`echo 3 > /proc/sys/vm/drop_caches\`). On this virtual machine a "cold" read measured 0.7-2 GB/s: the host caches the virtual disk, so cold here is not a real device read.

${table(results, { remote: false })}

Reference (${REFERENCE.source}): ${REFERENCE.local}`);
}

async function experimentSmall() {
  const one = layouts.one();
  const small = layouts.small();
  const reference = layouts.smallReference();
  const results = await interleaved([
    { name: `${small.length} files, read_ahead_depth = 0`, run: () => sluiceQ6({ files: small, remote: true, settings: 'SET read_ahead_depth = 0;' }) },
    { name: `${small.length} files, defaults`, run: () => sluiceQ6({ files: small, remote: true }) },
    { name: 'one file, read_ahead_depth = 0', run: () => sluiceQ6({ files: one, remote: true, settings: 'SET read_ahead_depth = 0;' }) },
    { name: 'one file, defaults', run: () => sluiceQ6({ files: one, remote: true }) },
    { name: `${reference.length} files of 5 x 122,880 rows (the reference's layout), read_ahead_depth = 0`, run: () => sluiceQ6({ files: reference, remote: true, settings: 'SET read_ahead_depth = 0;' }) },
    { name: `${reference.length} files of 5 x 122,880 rows (the reference's layout), defaults`, run: () => sluiceQ6({ files: reference, remote: true }) },
  ]);
  writeCsv('exp3_small_files', results);
  const ratio = stats(results[1]).median / stats(results[3]).median;
  targets.push([`Small files (${small.length}) vs one file, defaults`, `${f2(ratio)}x`, '<= 1.1x', ratio <= 1.1]);
  const referenceRatio = stats(results[5]).median / stats(results[3]).median;
  targets.push([`Small files in the reference's layout (${reference.length} files) vs one file, defaults`, `${f2(referenceRatio)}x`, '<= 1.1x', referenceRatio <= 1.1]);
  section('3. Many small files', `The same rows as ${small.length} files of 5 row groups (${smallRowGroup.toLocaleString('en')} rows each), listed as URLs (HTTP has no listing), against the one file of experiment 1 (row groups of 122,880 rows), and the reference's layout (${reference.length} files of five row groups of 122,880 rows), over the rig (${profile}). The ${small.length}-file layout has row groups half as large as the one file's: twice the requests, each with its 30 ms to the first byte, and more bytes (smaller row groups compress less).

${table(results)}

Reference (${REFERENCE.source}): ${REFERENCE.small}`);
}

async function experimentRowGroups() {
  const rows = [];
  const remote = [];
  const local = [];
  for (const size of SWEEP) {
    const file = layouts.rowGroups(size);
    const r = await interleaved([
      { name: `${size.toLocaleString('en')} rows per row group, remote`, run: () => sluiceQ6({ files: file, remote: true }) },
      { name: `${size.toLocaleString('en')} rows per row group, Sluice local (hot)`, run: () => sluiceQ6({ files: file, hot: true }) },
      { name: `${size.toLocaleString('en')} rows per row group, DuckDB local (hot)`, run: () => peerQ6('duckdb', { files: file, hot: true }) },
    ]);
    remote.push(r[0]);
    local.push(r[1], r[2]);
    const s = stats(r[0]);
    rows.push({ rows: size, remote: s?.median, local: stats(r[1])?.median, duckdb: stats(r[2])?.median,
      limit: s ? s.linkMB / LINK_MBPS : NaN });
  }
  writeCsv('exp4_row_group_sweep', [...remote, ...local]);
  const times = rows.map((r) => r.remote).filter(Number.isFinite);
  const ratio = Math.max(...times) / Math.min(...times);
  targets.push(['Row-group sweep: worst vs best layout (remote)', `${f2(ratio)}x`, '<= 1.3x', ratio <= 1.3]);
  const overLimit = Math.max(...rows.map((r) => r.remote / r.limit).filter(Number.isFinite));
  targets.push(['Row-group sweep: worst layout vs its own link limit (remote)', `${f2(overLimit)}x`, '<= 1.15x', overLimit <= 1.15]);
  const overDuckdb = Math.max(...rows.map((r) => r.local / r.duckdb).filter(Number.isFinite));
  targets.push(['Row-group sweep: worst layout vs DuckDB, local hot', `${f2(overDuckdb)}x`, '<= 1.0x', overDuckdb <= 1.0]);
  const plot = sweepPlot(out, 'exp4_row_group_sweep', `TPC-H Q6 SF${sf}: time per row-group layout`, rows);
  section('4. Row-group size sweep', `SF${sf} lineitem rewritten with different row-group sizes (defaults, rig ${profile}; and local, hot, beside DuckDB).

${table(remote)}

${table(local, { remote: false })}

${plot ? `![${plot}](${plot})` : ''}

Reference (${REFERENCE.source}): ${REFERENCE.rowGroups}`);
}

async function experimentConcurrent() {
  layouts.tpch();
  const url = startRig();
  const tables = ['lineitem', 'orders', 'customer', 'part', 'partsupp', 'supplier', 'nation', 'region'];
  const setup = (extra) => {
    const file = path.join(out, `concurrent_setup_${extra ? 'sync' : 'default'}.sql`);
    fs.writeFileSync(file, ['SET enable_external_file_cache = false;', extra,
      ...tables.map((t) => `CREATE VIEW ${t} AS SELECT * FROM read_parquet('${url}/tpch/${t}.parquet');`)].join('\n'));
    return file;
  };
  const runOnce = async (name, limit, extra = '') => {
    const run = await runSampled(concurrentDriver, [setup(extra), limit, '1', '6', '9', '18'], { inRig: true });
    const total = Number((run.stdout.match(/total ([0-9.]+)/) || [])[1]);
    const queries = [...run.stdout.matchAll(/^q([0-9]+) (OK|ERROR) ([0-9.]+) ?(.*)$/gm)].map((m) => ({ q: m[1], ok: m[2] === 'OK', seconds: Number(m[3]), error: m[4] }));
    const summary = summarize(run.samples, total);
    log(`${name}: ${f2(total)} s, ${queries.filter((q) => !q.ok).length} failed`);
    return { name, limit, total, queries, ...summary, samples: run.samples, stderr: run.stderr };
  };
  // The working set is the peak RSS of a first default run; then every configuration runs
  // `reps` times, interleaved, and the figures are medians with their range.
  const first = await runOnce('Sluice defaults', 'default');
  const workingSetMB = first.peakRssMB;
  const limitOf = (fraction) => `${Math.max(64, Math.round(workingSetMB * fraction))}MB`;
  const configs = [
    { name: 'Sluice defaults', limit: 'default', extra: '' },
    { name: 'Sluice read_ahead_depth = 0', limit: 'default', extra: 'SET read_ahead_depth = 0;' },
    { name: `Sluice defaults, memory_limit ${limitOf(0.5)} (1/2 of the working set)`, limit: limitOf(0.5), extra: '', mb: Math.round(workingSetMB * 0.5) },
    { name: `Sluice defaults, memory_limit ${limitOf(0.25)} (1/4 of the working set)`, limit: limitOf(0.25), extra: '', mb: Math.round(workingSetMB * 0.25) },
  ];
  const all = configs.map(() => []);
  for (let rep = 0; rep < reps; rep++) {
    for (let c = 0; c < configs.length; c++) {
      if (rep === 0 && c === 0) { all[0].push(first); continue; }
      all[c].push(await runOnce(configs[c].name, configs[c].limit, configs[c].extra));
    }
  }
  const summaryOf = (runs, key) => ({ median: median(runs.map((r) => r[key])), min: Math.min(...runs.map((r) => r[key])), max: Math.max(...runs.map((r) => r[key])) });
  const lines = ['configuration,memory_limit,run,total_seconds,mean_cores,peak_cores,peak_link_mbps,peak_rss_mb,failed_queries'];
  configs.forEach((config, c) => all[c].forEach((r, i) => lines.push([`"${config.name}"`, config.limit, i + 1, f2(r.total), f2(r.meanCores), f2(r.peakCores), f0(r.peakLinkMBps), f0(r.peakRssMB), `"${r.queries.filter((q) => !q.ok).map((q) => `q${q.q}: ${q.error}`).join('; ')}"`].join(','))));
  fs.writeFileSync(path.join(out, 'exp5_concurrent_queries.csv'), lines.join('\n') + '\n');
  const range = (x) => `${f2(x.median)} (${f2(x.min)}–${f2(x.max)})`;
  const rows = configs.map((config, c) => {
    const runs = all[c];
    const failures = runs.flatMap((r) => r.queries.filter((q) => !q.ok).map((q) => `Q${q.q} failed: ${q.error.slice(0, 120)}`));
    const perQuery = [1, 6, 9, 18].map((q) => `Q${q} ${f2(median(runs.map((r) => (r.queries.find((x) => Number(x.q) === q) || {}).seconds).filter(Number.isFinite)))} s`).join('; ');
    return `| ${config.name} | ${range(summaryOf(runs, 'total'))} | ${f2(median(runs.map((r) => r.meanCores)))} | ${f2(median(runs.map((r) => r.peakCores)))} | ${f0(median(runs.map((r) => r.peakLinkMBps)))} | ${f0(Math.max(...runs.map((r) => r.peakRssMB)))} | ${failures.length ? failures.join('; ') : perQuery} |`;
  });
  const failedAny = all.flat().some((r) => r.queries.length !== 4 || r.queries.some((q) => !q.ok));
  targets.push(['Concurrent Q1, Q6, Q9, Q18: every query succeeds at every limit', failedAny ? 'failures' : 'all succeed', 'all succeed', !failedAny]);
  for (const c of [2, 3]) {
    const rss = Math.max(...all[c].map((r) => r.peakRssMB));
    targets.push([`Concurrent at ${configs[c].limit}: peak RSS / memory_limit`, `${f2(rss / configs[c].mb)}x`, '<= 1.1x', rss / configs[c].mb <= 1.1]);
  }
  const slowdown = median(all[3].map((r) => r.total)) / median(all[0].map((r) => r.total));
  targets.push(['Concurrent at 1/4 of the working set vs defaults (total time)', `${f2(slowdown)}x`, '<= 1.5x', slowdown <= 1.5]);
  const plot = throughputPlot(out, 'exp5_throughput', `Q1, Q6, Q9, Q18 at once, SF${sf}, rig ${profile}`,
    [{ title: 'read_ahead_depth = 0', samples: all[1][0].samples }, { title: 'defaults', samples: all[0][0].samples }, { title: '1/4 of the working set', samples: all[3][0].samples }], LINK_MBPS);
  section('5. Concurrent queries', `TPC-H Q1, Q6, Q9 and Q18 submitted at once to one Sluice process (one database, four connections: \`build/bench/concurrent_queries\`), SF${sf}, all tables over the rig (${profile}). The working set is the peak RSS of a first default run (${f0(workingSetMB)} MB); the memory limits are a half and a quarter of it, and operators past the limit spill to temp_directory. ${reps} interleaved repetitions: total time as median (range); peak RSS is the largest of the runs.

| configuration | total s | mean cores | peak cores | peak link MB/s | peak RSS MB | queries (median s) |
|---|---:|---:|---:|---:|---:|---|
${rows.join('\n')}

${plot ? `![${plot}](${plot})` : ''}

Reference (${REFERENCE.source}): ${REFERENCE.concurrent}`);
}

async function experimentCsv() {
  const file = layouts.csv();
  const csv = { files: file, reader: 'read_csv' };
  const results = await interleaved([
    { name: 'Sluice read_ahead_depth = 0 (synchronous)', run: () => sluiceQ6({ ...csv, remote: true, settings: 'SET read_ahead_depth = 0;' }) },
    { name: 'Sluice defaults', run: () => sluiceQ6({ ...csv, remote: true }) },
  ]);
  const locals = await interleaved([
    { name: 'Sluice defaults, local (hot)', run: () => sluiceQ6({ ...csv, hot: true }) },
    { name: 'DuckDB 1.5.6, local (hot)', run: () => peerQ6('duckdb', { files: file, hot: true, format: 'csv' }) },
    { name: 'Polars 0.25.2, local (hot)', run: () => peerQ6('polars', { files: file, hot: true, format: 'csv' }) },
  ]);
  writeCsv('exp6_csv', [...results, ...locals]);
  const sync = medianOf(results, results[0].name);
  const defaults = medianOf(results, results[1].name);
  const utilisation = stats(results[1]) ? stats(results[1]).linkMB / defaults / LINK_MBPS : NaN;
  const ours = medianOf(locals, locals[0].name);
  const duck = medianOf(locals, locals[1].name);
  const bytes = fs.statSync(path.join(data, file)).size;
  targets.push(['CSV Q6: link utilisation with defaults', pct(utilisation), '>= 95%', utilisation >= 0.95]);
  targets.push(['CSV Q6: defaults vs synchronous', `${f2(sync / defaults)}x`, 'reported', true]);
  targets.push(['CSV Q6 local hot: Sluice vs DuckDB', `${f2(ours / duck)}x`, '<= 0.8x', ours / duck <= 0.8]);
  const plot = throughputPlot(out, 'exp6_throughput', `TPC-H Q6 SF${sf}, one CSV file, rig ${profile}: link throughput`,
    [{ title: 'read_ahead_depth = 0', samples: results[0].runs.at(-1)?.samples ?? [] }, { title: 'defaults', samples: results[1].runs.at(-1)?.samples ?? [] }], LINK_MBPS);
  section('6. CSV', `SF${sf} lineitem as one uncompressed CSV file with a header (${f0(bytes / 1e6)} MB), TPC-H Q6, over the rig (${profile}): synchronous against defaults; and on the local file, hot, beside DuckDB and Polars (${THREADS} threads each). Sluice reads ${f0(bytes / 1e6 / ours / THREADS)} MB/s per core locally.

${table(results)}

${table(locals, { remote: false })}

Results agree: ${[...results, ...locals].map((r) => stats(r)?.result).filter(Boolean).join(' / ')} (sums of DOUBLE values in different orders differ in the last digits).

${plot ? `![${plot}](${plot})` : ''}

Reference (${REFERENCE.source}): ${REFERENCE.csv}`);
}

const started = Date.now();
let q6 = null;
for (const experiment of ALL.filter((e) => experiments.includes(e))) {
  log(`experiment ${experiment}`);
  if (experiment === 'q6') q6 = await experimentQ6();
  if (experiment === 'local') await experimentLocal();
  if (experiment === 'small') await experimentSmall();
  if (experiment === 'rowgroups') await experimentRowGroups();
  if (experiment === 'concurrent') await experimentConcurrent();
  if (experiment === 'csv') await experimentCsv();
}
stopRig();
if (q6 && !targets.some((t) => t[0].startsWith('Local hot'))) {
  targets.push(['Local hot: Sluice vs DuckDB (experiment 1)', `${f2(q6.localRatio)}x`, '<= 1.0x', q6.localRatio <= 1.0]);
}
const command = `bench/run.sh ${process.argv.slice(2).join(' ')}`.trim();
const header = `# Sluice benchmark report

\`${command}\` — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${THREADS} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, SF${sf}, ${reps} repetition(s), rig profile ${profile} (link ${LINK_MBPS} MB/s), ${((Date.now() - started) / 60000).toFixed(1)} minutes.
Sluice ${execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()}; peers DuckDB 1.5.6 (@duckdb/node-api, no httpfs here: local files only) and Polars 0.25.2 (nodejs-polars: local files and the rig's http:// URLs). Times are the engines' own statement times (Sluice's \`.timer\`, the peers' query call) medians over the repetitions; link utilisation is the bytes the rig's loopback carried during the process / time / ${LINK_MBPS} MB/s; the physical limit is those bytes / the link rate.

## Targets

| measure | ours | target | met |
|---|---:|---:|:---:|
${targets.map((t) => `| ${t[0]} | ${t[1]} | ${t[2]} | ${t[3] ? 'yes' : 'no'} |`).join('\n')}
`;
fs.writeFileSync(path.join(out, 'report.md'), [header, ...report].join('\n'));
log(`report: ${path.relative(root, path.join(out, 'report.md'))}`);
