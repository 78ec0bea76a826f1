// TPC-H Q1 and Q6 over Parquet and CSV served by nginx in a fault storm (tests/http/
// nginx_server.mjs, /storm/: 30% 503 SlowDown, a tenth with Retry-After, 5% connections reset
// before an answer, 2% bodies cut off half way), at every kind of read_ahead_depth: the results
// must equal a clean run's, and the server must have served whole the same bytes as in the clean
// run, no range twice (nothing skipped, nothing accepted twice). EXPLAIN ANALYZE must count the
// same from the scan's side: its range reads, the bytes of them, and a retry for every fault the
// server injected. An exhausted retry budget must fail with the URL, the last status and the
// attempts, after exactly that many requests.
//
//   node fault_storm.mjs SLUICE WORK_DIR
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sluiceRows } from '../oracle/sluice_cli.mjs';
import { startNginx } from './nginx_server.mjs';

const [sluice, work] = process.argv.slice(2);
fs.rmSync(work, { recursive: true, force: true });
const data = path.join(work, 'data');
fs.mkdirSync(data, { recursive: true });
execFileSync(sluice, ['-c', `
  CALL dbgen(sf = 0.05, path = '${data}/parquet', tables = ['lineitem'], row_group_size = 10000);
  CALL dbgen(sf = 0.05, path = '${data}/csv', tables = ['lineitem'], format = 'csv');`], { stdio: 'ignore' });

const queries = Object.fromEntries(['q01', 'q06'].map((q) => [q, fs.readFileSync(
  path.join(path.dirname(process.argv[1]), `../../tpch/queries/${q}.sql`), 'utf8')]));
const formats = { parquet: 'read_parquet', csv: 'read_csv' };
const CALM = { p503: 0, p500: 0, reset: 0, cut: 0, truncate: 0, stall: 0, latency_ms: 0 };
const STORM = { ...CALM, p503: 0.3, reset: 0.05, truncate: 0.02 };
// Retries are many and quick so that a storm is survived; Retry-After still waits a second.
// Hedging is off where the server's counts must be exact (a hedge asks for a range again by
// design); the hedged storm below has it on.
const RETRIES = 'SET http_retries = 30; SET http_retry_wait_ms = 5; SET http_retry_backoff = 1.5; SET http_hedging = false;';
// The storm with a latency tail: 20% of requests stall 2 s, the rest wait 5 ms on average.
const TAIL = { ...STORM, stall: 0.2, stall_s: 2, latency_ms: 5 };

let failures = 0;
function check(ok, what, detail = '') {
  console.log(`${ok ? 'ok' : 'FAIL'} ${what}${detail ? ': ' + detail : ''}`);
  if (!ok) failures++;
}

// Results equal, numbers within 1e-12 relative: CSV's DOUBLE sums may add in another order when
// jobs complete in another order, storm or not.
function sameResult(a, b) {
  if (a.length !== b.length) return false;
  return a.every((row, r) => row.length === b[r].length && row.every((value, c) => {
    const other = b[r][c];
    if (value === other) return true;
    const x = Number(value), y = Number(other);
    return value !== '' && Number.isFinite(x) && Number.isFinite(y) &&
      Math.abs(x - y) <= 1e-12 * Math.max(Math.abs(x), Math.abs(y));
  }));
}

const server = await startNginx(data);
const storm = (shares) => fetch(`${server.url}/storm/config?${new URLSearchParams(shares)}`).then((r) => r.text());
// The server's counters since the last call ({"served:URI RANGE": n, "fault:KIND": n, ...}).
async function counters() {
  const taken = await (await fetch(`${server.url}/storm/counters`)).json();
  await fetch(`${server.url}/storm/counters`, { method: 'DELETE' });
  return taken;
}
const served = (taken) => Object.fromEntries(Object.entries(taken).filter(([k]) => k.startsWith('served:')));
const sum = (taken, prefix) => Object.entries(taken).filter(([k]) => k.startsWith(prefix)).reduce((s, [, n]) => s + n, 0);
const isProbe = (key) => key.endsWith('bytes=-65536'); // an open's size probe
// The bytes the served ranges cover, merged ("0-99,200-299"): CSV jobs are cut by timing at
// small depths and overlap by design, so a storm run need not cut them as the clean run did.
function coverage(counts) {
  const ranges = Object.keys(served(counts)).filter((k) => !isProbe(k)).map((k) => {
    const [, first, last] = k.match(/bytes=(\d+)-(\d+)$/);
    return [Number(first), Number(last)];
  }).sort((a, b) => a[0] - b[0]);
  const merged = [];
  for (const [first, last] of ranges) {
    const top = merged[merged.length - 1];
    if (top && first <= top[1] + 1) top[1] = Math.max(top[1], last);
    else merged.push([first, last]);
  }
  return merged.map(([first, last]) => `${first}-${last}`).join(',');
}
const view = (format) => `CREATE VIEW lineitem AS SELECT * FROM ${formats[format]}('${server.url}/storm/${format}/lineitem.${format}');`;
const run = (sql) => {
  try {
    return { rows: sluiceRows(sluice, sql) };
  } catch (error) {
    return { error: String(error.stderr || error.message).trim() };
  }
};

try {
  for (const format of Object.keys(formats)) {
    for (const [name, sql] of Object.entries(queries)) {
      for (const depth of [0, 1, 4, -1]) {
        // The clean run at the same depth: how CSV is cut into jobs depends on it.
        const settings = `${RETRIES} SET read_ahead_depth = ${depth};`;
        await storm(CALM);
        await counters();
        const clean = run(settings + view(format) + sql);
        const cleanServed = served(await counters());
        check(!clean.error, `${name} over ${format}, read_ahead_depth ${depth}, without faults`, clean.error);
        await storm(STORM);
        const label = `${name} over ${format}, read_ahead_depth ${depth}, in a storm`;
        const stormy = run(settings + view(format) + sql);
        const taken = await counters();
        check(!stormy.error && sameResult(stormy.rows, clean.rows), `${label}: the clean run's result`,
          stormy.error || `${sum(taken, 'fault:')} faults injected`);
        const twice = Object.entries(served(taken)).filter(([k, n]) => n > 1 && !isProbe(k));
        const probes = (counts) => Object.entries(served(counts)).filter(([k]) => isProbe(k)).reduce((t, [, n]) => t + n, 0);
        check(twice.length === 0 && coverage(taken) === coverage(cleanServed) &&
          probes(taken) === probes(cleanServed) && sum(taken, 'fault:') > 0,
          `${label}: the server served whole each byte of the clean run's ranges, no range twice`,
          twice.length ? `twice: ${JSON.stringify(twice.slice(0, 3))}`
            : `${probes(taken)} opens (clean ${probes(cleanServed)}), ${sum(taken, 'fault:')} faults injected`);
      }
    }
    // The scan's own account of a storm run, against the server's requests less those of
    // binding (the size probes and, for CSV, the sniffer's sample).
    await storm(CALM);
    await counters();
    run(view(format) + 'DESCRIBE lineitem');
    const binding = served(await counters());
    await storm(STORM);
    const explained = run(`${RETRIES}` + view(format) + `EXPLAIN ANALYZE ${queries.q06}`);
    const taken = await counters();
    if (explained.error) {
      check(false, `EXPLAIN ANALYZE of Q6 over ${format} in a storm`, explained.error);
      continue;
    }
    const plan = explained.rows[1][1];
    const scanRanges = Object.keys(served(taken)).filter((k) => !k.endsWith('bytes=-65536') && !binding[k]);
    const scanFaults = Object.entries(taken).filter(([k]) => k.startsWith('faulted:') &&
      !k.endsWith('bytes=-65536') && !binding[k.replace('faulted:', 'served:')]).reduce((s, [, n]) => s + n, 0);
    const bytes = scanRanges.reduce((total, k) => {
      const [, first, last] = k.match(/bytes=(\d+)-(\d+)$/);
      return total + Number(last) - Number(first) + 1;
    }, 0);
    const reads = Number((plan.match(/requests \d+ \((\d+) range reads\)/) || [])[1]);
    const retries = Number((plan.match(/retries (\d+)/) || [])[1]);
    const requested = (plan.match(/bytes requested ([^,]+),/) || [])[1];
    check(reads === scanRanges.length, `Q6 over ${format}: the scan's range reads are the ranges served whole`,
      `${reads} reads, ${scanRanges.length} ranges`);
    check(requested === `${(bytes / 1048576).toFixed(1)} MiB`, `Q6 over ${format}: the bytes the scan requested were served`,
      `${requested}, served ${bytes} bytes`);
    // libcurl itself retries a request whose reused connection was closed before any answer
    // (a reset), unseen by Sluice: those are the only faults without a retry of Sluice's.
    check(retries <= scanFaults && scanFaults - retries <= sum(taken, 'fault:reset'),
      `Q6 over ${format}: a retry per fault injected into the scan's reads, but resets libcurl retried`,
      `${retries} retries, ${scanFaults} faults, ${sum(taken, 'fault:reset')} of them resets`);
  }

  // The storm with a latency tail, hedging on: the clean run's result; every byte of the clean
  // run's ranges served, a range served again only for a hedge. Only a stall after the first
  // answers (which set the hedging delay) is hedged: with Q6's 30 Parquet reads one is likely
  // (a round without one has about a 4% chance), so up to three rounds run until one is seen.
  let hedgedInAll = 0;
  for (let round = 0; round < 3 && hedgedInAll === 0; round++) for (const format of Object.keys(formats)) {
    const settings = RETRIES.replace('SET http_hedging = false;', 'SET http_hedging = true;');
    await storm(CALM);
    await counters();
    const clean = run(settings + view(format) + queries.q06);
    const cleanServed = served(await counters());
    await storm(TAIL);
    const hedgedRun = run(settings + view(format) + queries.q06 + 'SELECT hedged FROM sluice_http_stats();');
    const taken = await counters();
    const label = `Q6 over ${format} in a storm with a latency tail, hedging on (round ${round + 1})`;
    if (clean.error || hedgedRun.error) {
      check(false, label, clean.error || hedgedRun.error);
      continue;
    }
    const hedged = Number(hedgedRun.rows[hedgedRun.rows.length - 1][0]);
    const result = hedgedRun.rows.slice(0, -2);
    const twice = Object.entries(served(taken)).filter(([k, n]) => n > 1 && !isProbe(k)).reduce((t, [, n]) => t + n - 1, 0);
    check(sameResult(result, clean.rows), `${label}: the clean run's result`,
      `${sum(taken, 'fault:stall')} stalls, ${sum(taken, 'fault:')} faults, ${hedged} requests hedged`);
    hedgedInAll += hedged;
    check(coverage(taken) === coverage(cleanServed) && twice <= hedged,
      `${label}: every byte served, a range again only for a hedge`, `${twice} ranges served again, ${hedged} hedged`);
  }

  check(hedgedInAll > 0, 'stalled requests were hedged', `${hedgedInAll} hedged`);

  // An exhausted budget: every request answered 503, http_retries = 2, so three attempts.
  await storm({ ...CALM, p503: 1 });
  try {
    sluiceRows(sluice, `SET http_retries = 2; SET http_retry_wait_ms = 1; SELECT count(*) FROM read_parquet('${server.url}/storm/parquet/lineitem.parquet')`);
    check(false, 'an exhausted retry budget fails the query');
  } catch (error) {
    const message = String(error.stderr || error.message);
    check(/IO Error/.test(message) && message.includes(`${server.url}/storm/parquet/lineitem.parquet`) &&
      message.includes('503') && message.includes('after 3 attempts; http_retries is 2'),
    'an exhausted retry budget names the URL, the last status and the attempts', message.trim().split('\n')[0]);
  }
  const taken = await counters();
  check(taken['fault:p503'] === 3 && sum(taken, 'served:') === 0,
    'an exhausted budget of 2 retries made exactly 3 requests', JSON.stringify(taken));
} finally {
  server.stop();
}
if (failures) {
  console.error(`${failures} checks failed`);
  process.exit(1);
}
