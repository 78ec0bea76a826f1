// Hedged requests against a heavy latency tail: TPC-H Q6 over Parquet served by nginx
// (tests/http/nginx_server.mjs, /storm/) where every request waits an exponential time of mean
// --latency-ms and a share --stall of them stall --stall-s seconds more (S3's long tail, at a
// higher rate). Q6 runs with http_hedging on and off, interleaved; prints for each the median
// and range of the wall time, the requests hedged, and the extra bytes (received beyond the
// bytes the scan asked for, in percent of them). The answers must agree.
//
//   node bench/hedged_requests.mjs [--sf 0.2] [--runs 5] [--latency-ms 15] [--stall 0.03] [--stall-s 1.5]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startNginx } from '../tests/http/nginx_server.mjs';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const argument = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const sf = argument('--sf', 0.2);
const runs = argument('--runs', 5);
const latencyMs = argument('--latency-ms', 15);
const stall = argument('--stall', 0.03);
const stallSeconds = argument('--stall-s', 1.5);

const sluice = path.join(root, 'build', 'sluice');
const data = path.join(root, 'build', 'bench-data', `hedging_sf${sf}`);
if (!fs.existsSync(path.join(data, 'lineitem.parquet'))) {
  fs.mkdirSync(data, { recursive: true });
  execFileSync(sluice, ['-c', `CALL dbgen(sf = ${sf}, path = '${data}', tables = ['lineitem'], row_group_size = 20000)`]);
}
const q6 = fs.readFileSync(path.join(root, 'tpch', 'queries', 'q06.sql'), 'utf8');

const server = await startNginx(data);
const MiB = { KiB: 1 / 1024, MiB: 1, GiB: 1024 };
const size = (text) => {
  const [value, unit] = text.split(' ');
  return Number(value) * (MiB[unit] ?? 1 / (1024 * 1024));
};
try {
  await fetch(`${server.url}/storm/config?latency_ms=${latencyMs}&stall=${stall}&stall_s=${stallSeconds}`);
  const url = `${server.url}/storm/lineitem.parquet`;
  function run(hedging) {
    const script = `SET http_hedging = ${hedging}; CREATE VIEW lineitem AS SELECT * FROM read_parquet('${url}');
      EXPLAIN ANALYZE ${q6.replace(/;\s*$/, '')}; ${q6}`;
    const start = process.hrtime.bigint();
    const out = execFileSync(sluice, ['-csv', '-c', script], { encoding: 'utf8' });
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const [, requested, received] = out.match(/bytes requested ([0-9.]+ \w+), received ([0-9.]+ \w+)/);
    const hedged = Number(out.match(/hedged (\d+)/)[1]);
    const requests = Number(out.match(/requests (\d+)/)[1]);
    const answer = out.trim().split('\n').pop();
    return { seconds, hedged, requests, extra: (size(received) / size(requested) - 1) * 100, answer };
  }
  run(true); // warm the page cache and the server
  const results = { on: [], off: [] };
  for (let i = 0; i < runs; i++) {
    results.on.push(run(true));
    results.off.push(run(false));
  }
  const answers = new Set([...results.on, ...results.off].map((r) => r.answer));
  if (answers.size !== 1) {
    console.error(`the answers differ: ${[...answers].join(' / ')}`);
    process.exit(1);
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const range = (values) => `${Math.min(...values).toFixed(2)}-${Math.max(...values).toFixed(2)}`;
  console.log(`Q6 over Parquet (SF ${sf}) on HTTP with latency exponential mean ${latencyMs} ms and ` +
    `${(stall * 100).toFixed(1)}% of requests stalled ${stallSeconds} s; ${runs} interleaved runs each`);
  for (const mode of ['on', 'off']) {
    const r = results[mode];
    console.log(`hedging ${mode.padEnd(3)}: ${median(r.map((x) => x.seconds)).toFixed(2)} s ` +
      `(${range(r.map((x) => x.seconds))}), requests ${median(r.map((x) => x.requests))}, ` +
      `hedged ${median(r.map((x) => x.hedged))} (${range(r.map((x) => x.hedged))}), ` +
      `extra bytes ${median(r.map((x) => x.extra)).toFixed(2)}% (${range(r.map((x) => x.extra))})`);
  }
  const ratio = median(results.on.map((x) => x.seconds)) / median(results.off.map((x) => x.seconds));
  console.log(`time with hedging / without: ${ratio.toFixed(2)}`);
} finally {
  server.stop();
}
