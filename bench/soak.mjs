// The soak: eight connections of one Sluice database run a mix of TPC-H queries (Q1, Q3, Q5, Q6,
// Q10, Q12, Q14, Q19) for --minutes over S3 (Swift with its s3api, signed requests) behind the
// rig's s3 profile (30 ms to the first byte, 30 MB/s per connection), with an EXPLAIN ANALYZE
// every 20th query, a query of a missing object every 25th, and the first query traced. The
// external file cache is off, so that every query reads from the store.
// Passes when no query failed, the resident memory, open descriptors and sockets stop growing
// after the warm-up (the first quarter: the last quarter's mean memory within 5% or 20 MB of the
// second quarter's, and its peaks of descriptors and sockets within 10% + 4), and the secret key appears nowhere in the whole output,
// the error messages, the EXPLAIN ANALYZE text and the trace.
//
//   node bench/soak.mjs [--minutes 20] [--sf 0.1] [--connections 8]
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { S3_ACCESS_KEY, S3_SECRET_KEY, startSwift } from '../tests/s3/swift_server.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const argument = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const minutes = argument('--minutes', 20);
const sf = argument('--sf', 0.1);
const connections = argument('--connections', 8);
const sluice = path.join(root, 'build', 'sluice');
const work = path.join(root, 'build', 'soak');
fs.rmSync(work, { recursive: true, force: true });
fs.mkdirSync(work, { recursive: true });
const data = path.join(root, 'build', 'bench-data', `soak_sf${sf}`);
if (!fs.existsSync(path.join(data, 'lineitem.parquet'))) {
  fs.mkdirSync(data, { recursive: true });
  execFileSync(sluice, ['-c', `CALL dbgen(sf = ${sf}, path = '${data}')`]);
}
const tables = fs.readdirSync(data).filter((f) => f.endsWith('.parquet')).map((f) => f.replace('.parquet', ''));

const swift = await startSwift();
const rig = path.join(root, 'bench', 'rig', 'rig.sh');
const rigEnv = { ...process.env, RIG_DIR: path.join(work, 'rig') };
let failed = false;
try {
  swift.aws('s3', 'mb', 's3://tpch');
  // One PUT per file (awscli would cut the large ones into a multipart upload).
  for (const table of tables) {
    swift.aws('s3api', 'put-object', '--bucket', 'tpch', '--key', `${table}.parquet`, '--body', path.join(data, `${table}.parquet`));
  }
  const rigUrl = execFileSync('bash', [rig, 'start', '--profile', 's3', '--upstream', swift.endpoint],
    { encoding: 'utf8', env: rigEnv }).trim();
  const setup = path.join(work, 'setup.sql');
  fs.writeFileSync(setup, `SET s3_endpoint = '${rigUrl}'; SET s3_url_style = 'path'; SET s3_region = 'us-east-1';
SET s3_access_key_id = '${S3_ACCESS_KEY}'; SET s3_secret_access_key = '${S3_SECRET_KEY}';
SET enable_external_file_cache = false; -- every query goes to the store
${tables.map((t) => `CREATE VIEW ${t} AS SELECT * FROM read_parquet('s3://tpch/${t}.parquet');`).join('\n')}
`);
  const trace = path.join(work, 'trace.json');
  const log = path.join(work, 'soak.log');
  const seconds = minutes * 60;
  console.log(`soak: ${connections} connections, ${minutes} min, TPC-H SF ${sf} over S3 (Swift behind the rig's s3 profile); log ${log}`);
  const child = spawn(path.join(root, 'build', 'bench', 'soak'),
    [setup, String(connections), String(seconds), String(Math.max(5, seconds / 60)), 's3://tpch/missing.parquet', trace],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  const out = fs.createWriteStream(log);
  child.stdout.pipe(out);
  child.stderr.pipe(out);
  const code = await new Promise((resolve) => child.on('exit', resolve));
  await new Promise((resolve) => out.end(resolve));
  execFileSync('bash', [rig, 'stop'], { env: rigEnv });

  const text = fs.readFileSync(log, 'utf8');
  const samples = [...text.matchAll(/^sample ([0-9.]+) rss_mb (\d+) fds (\d+) sockets (\d+) queries (\d+) failures (\d+)$/gm)]
    .map((m) => ({ t: Number(m[1]), rss: Number(m[2]), fds: Number(m[3]), sockets: Number(m[4]), queries: Number(m[5]) }));
  const warm = samples.filter((s) => s.t <= seconds / 4);
  const after = samples.filter((s) => s.t > seconds / 4);
  const last = samples.filter((s) => s.t > (3 * seconds) / 4);
  const max = (list, key) => Math.max(...list.map((s) => s[key]));
  const mean = (list, key) => list.reduce((t, s) => t + s[key], 0) / list.length;
  const done = text.match(/^done queries (\d+) failures (\d+)$/m);
  const failures = [...text.matchAll(/^failure .*$/gm)].map((m) => m[0]);
  const explains = (text.match(/^explain q/gm) || []).length;
  const expected = (text.match(/^expected-error /gm) || []).length;
  const traceText = fs.existsSync(trace) ? fs.readFileSync(trace, 'utf8') : '';
  const leaks = [text, traceText].reduce((n, t) => n + t.split(S3_SECRET_KEY).length - 1, 0);

  // Growth after the warm-up: the last quarter's mean against the second quarter's, and no new
  // peak of descriptors.
  const second = samples.filter((s) => s.t > seconds / 4 && s.t <= seconds / 2);
  const rssGrowth = mean(last, 'rss') / mean(second, 'rss') - 1;
  const checks = [
    [code === 0 && done && Number(done[2]) === 0 && failures.length === 0,
      `no failed query: ${done ? done[1] : '?'} queries, ${failures.length} failures${failures.length ? ` (${failures[0]})` : ''}`],
    [rssGrowth <= 0.05 || mean(last, 'rss') - mean(second, 'rss') <= 20,
      `resident memory flat after the warm-up: warm-up peak ${max(warm, 'rss')} MB, second quarter mean ${mean(second, 'rss').toFixed(0)} MB, ` +
      `last quarter mean ${mean(last, 'rss').toFixed(0)} MB (${(rssGrowth * 100).toFixed(1)}%), peak after warm-up ${max(after, 'rss')} MB`],
    // Connections follow the in-flight target, which keeps probing: their count moves, but its
    // peaks must not climb from the second quarter to the last.
    [max(last, 'fds') <= 1.1 * max(second, 'fds') + 4,
      `open descriptors flat: peak ${max(warm, 'fds')} in the warm-up, ${max(second, 'fds')} in the second quarter, ${max(last, 'fds')} in the last; last ${samples[samples.length - 1].fds}`],
    [max(last, 'sockets') <= 1.1 * max(second, 'sockets') + 4,
      `sockets (connections) flat: peak ${max(warm, 'sockets')} in the warm-up, ${max(second, 'sockets')} in the second quarter, ${max(last, 'sockets')} in the last`],
    [leaks === 0 && explains > 0 && expected > 0 && traceText.length > 0,
      `the secret appears ${leaks} times in ${(text.length / 1e6).toFixed(1)} MB of output (${explains} EXPLAIN ANALYZE, ${expected} errors) and a ${(traceText.length / 1e6).toFixed(1)} MB trace`],
  ];
  for (const [ok, what] of checks) {
    console.log(`${ok ? 'ok' : 'FAIL'} ${what}`);
    failed ||= !ok;
  }
  console.log(`samples (t s, rss MB, fds, sockets, queries): ${samples.map((s) => `${s.t.toFixed(0)}:${s.rss}/${s.fds}/${s.sockets}/${s.queries}`).join(' ')}`);
} finally {
  swift.stop();
}
process.exit(failed ? 1 : 0);
