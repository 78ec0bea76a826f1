// Event-driven HTTP reads against a real nginx whose GETs each take 200 ms (tests/http/
// nginx_server.mjs, /latency/, which counts GETs in progress on the server): hundreds of requests
// are in flight at once on two event threads and one ASYNC thread, results equal the local read
// and the synchronous path's, a 503 storm shrinks the concurrency window, and a LIMIT, Ctrl-C or a failing file aborts every transfer in
// flight, leaving the next query working.
// Usage: node http_event_io.mjs <sluice> <work directory>
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { sluiceRows } from '../oracle/sluice_cli.mjs';
import { startNginx } from './nginx_server.mjs';

const [sluice, work] = process.argv.slice(2);
fs.rmSync(work, { recursive: true, force: true });
const data = path.join(work, 'data');
fs.mkdirSync(path.join(data, 'long'), { recursive: true });
// 2,000 row groups of 300 rows: one small request each, enough for the in-flight controller to
// climb from its first target to hundreds while the query runs.
execFileSync(sluice, ['-c', `COPY (SELECT range AS id, range % 13 AS bucket FROM range(600000))
  TO '${data}/many.parquet' (ROW_GROUP_SIZE 300);`], { stdio: 'ignore' });
fs.copyFileSync(path.join(data, 'many.parquet'), path.join(data, 'long', 'many.parquet'));
// Row groups of 25,000 rows: answers of a few hundred KB, large enough to time.
execFileSync(sluice, ['-c', `COPY (SELECT range AS id, range * 7919 % 1000003 AS scrambled FROM range(1000000))
  TO '${data}/wide.parquet' (ROW_GROUP_SIZE 25000);`], { stdio: 'ignore' });

let failures = 0;
function report(ok, what, detail = '') {
  console.log(`${ok ? 'ok' : 'FAIL'} ${what}${detail ? ': ' + detail : ''}`);
  if (!ok) failures++;
}
function run(sql) {
  try {
    return { rows: sluiceRows(sluice, sql) };
  } catch (error) {
    return { error: String(error.stderr || error.message) };
  }
}
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// Few threads everywhere: what is in flight cannot be a thread per request.
const fewThreads = 'SET threads = 2; SET async_threads = 1; SET http_io_threads = 2;';
// The cancellation checks need hundreds of 5-second GETs in flight at once; the in-flight
// controller would take tens of seconds to learn that from answers that slow, so they pin it.
const hundredsInFlight = `${fewThreads} SET http_max_in_flight = 512;`;

const server = await startNginx(data);
// A fresh connection each time (agent: false): nothing idles between long queries.
function counters(reset = false) {
  return new Promise((resolve, reject) => {
    const request = http.request(`${server.url}/counters`, { method: reset ? 'DELETE' : 'GET', agent: false }, (answer) => {
      let text = '';
      answer.on('data', (chunk) => { text += chunk; });
      answer.on('end', () => {
        const [active, peak, aborted] = text.trim().split(' ').map(Number);
        resolve({ active, peak, aborted });
      });
    });
    request.on('error', reject);
    request.end();
  });
}
// The server's count of GETs in progress drops to zero (aborted ones leave at once).
async function settled() {
  for (let i = 0; i < 100; i++) {
    const now = await counters();
    if (now.active === 0) return now;
    await sleep(100);
  }
  return counters();
}

try {
  const query = (where) => `SELECT count(*), sum(id), sum(bucket) FROM read_parquet('${where}')`;
  const local = run(query(`${data}/many.parquet`));

  await counters(true);
  // Hedging off: a hedge's aborted twin would count as an abandoned GET on the server.
  const remote = run(fewThreads + 'SET http_hedging = false;' + query(`${server.url}/latency/many.parquet`));
  const after = await settled();
  report(!remote.error && same(remote.rows, local.rows), 'the event-driven read equals the local read',
    remote.error || JSON.stringify(remote.rows));
  report(after.peak >= 256, 'at least 256 GETs were in progress at once on the server, with 2 event threads and 1 ASYNC thread',
    `peak ${after.peak}`);
  report(after.active === 0 && after.aborted === 0, 'every GET ended, none abandoned', JSON.stringify(after));

  // Every mode (0: the synchronous path, blocking reads) on the same file without the latency.
  for (const depth of [0, 1, 8]) {
    const moded = run(`SET read_ahead_depth = ${depth};` + query(`${server.url}/many.parquet`));
    report(!moded.error && same(moded.rows, local.rows), `read_ahead_depth = ${depth} gives the same result`,
      moded.error || JSON.stringify(moded.rows));
  }

  // Coalescing fitted to the link: once enough answers were timed, jobs are laid out by the
  // measured first byte (the server's 200 ms) and per-request bandwidth, and EXPLAIN ANALYZE
  // says so. read_ahead_depth 8 lays jobs out as the scan goes rather than all at its start.
  const wide = (where) => `SELECT sum(id), sum(scrambled) FROM read_parquet('${where}')`;
  const analyzed = run(`${fewThreads} SET read_ahead_depth = 8; EXPLAIN ANALYZE ${wide(`${server.url}/latency/wide.parquet`)}`);
  const text = analyzed.error || analyzed.rows.flat().join('\n');
  const fitted = text.match(/coalescing gaps up to .*\((\d+) of (\d+) jobs fitted to the link: first byte (\d+) ms/);
  report(fitted && Number(fitted[1]) > 0 && Number(fitted[3]) >= 150,
    'jobs are coalesced by the measured link (first byte at least the server\'s 200 ms delay)',
    fitted ? fitted[0] : text);
  const pinned = run(`${fewThreads} SET read_ahead_depth = 8; SET scan_coalesce_gap = 0; SET scan_request_size = 65536;
    EXPLAIN ANALYZE ${wide(`${server.url}/latency/wide.parquet`)}`);
  const pinnedText = pinned.error || pinned.rows.flat().join('\n');
  report(/coalescing gaps up to 0 bytes, requests up to 64\.0 KiB \(fixed\)/.test(pinnedText),
    'scan_coalesce_gap and scan_request_size pin the coalescing', pinnedText.split('\n').find((l) => l.includes('coalescing')) || pinnedText);
  const wideLocal = run(wide(`${data}/wide.parquet`));
  const widePinned = run(`SET scan_request_size = 65536; ${wide(`${server.url}/wide.parquet`)}`);
  report(!widePinned.error && same(widePinned.rows, wideLocal.rows), 'requests of 64 KiB give the same result',
    widePinned.error || JSON.stringify(widePinned.rows));

  // A 503 storm (every request refused once, half the requests made): each host's window halves,
  // the query succeeds with one retry allowed per request, and the result is unchanged.
  const storm = run(`SET http_retries = 1; SET http_retry_wait_ms = 10; ${query(`${server.url}/flaky503/many.parquet`)};
    SELECT retries, throttled, smallest_window FROM sluice_http_stats()`);
  report(!storm.error && same(storm.rows.slice(0, 2), local.rows), 'a 503 storm: the query succeeds with http_retries = 1',
    storm.error || JSON.stringify(storm.rows));
  if (!storm.error) {
    const [retries, throttled, smallest] = storm.rows[3].map(Number);
    report(retries >= 600 && throttled > 0 && smallest < 256,
      'the 503s lowered the concurrency window', `retries ${retries}, halved ${throttled} times, smallest window ${smallest}`);
  }

  // LIMIT: the query ends with the first rows; the hundreds of 5-second GETs still in flight are
  // abandoned, and the next query in the same process works.
  await counters(true);
  const limited = run(`${hundredsInFlight} SELECT id FROM read_parquet('${server.url}/latency/long/many.parquet') LIMIT 1;
    ${query(`${server.url}/latency/many.parquet`)}`);
  const afterLimit = await settled();
  report(!limited.error && limited.rows.length === 4 && same(limited.rows.slice(2), local.rows),
    'a LIMIT query ends and the next query in the process works', limited.error || JSON.stringify(limited.rows));
  report(afterLimit.active === 0 && afterLimit.aborted > 100, 'LIMIT aborted the transfers in flight, none left running',
    JSON.stringify(afterLimit));

  // An error in another part of the scan (a missing file) aborts the transfers of the others.
  await counters(true);
  const failed = run(`${hundredsInFlight} SELECT count(*) FROM read_parquet(['${server.url}/latency/long/many.parquet',
    '${server.url}/latency/long/missing.parquet'])`);
  const afterError = await settled();
  report(failed.error && failed.error.includes('missing.parquet') && failed.error.includes('404'),
    'a missing file is the query\'s error, naming it', failed.error || 'no error');
  report(afterError.active === 0, 'the failed query left no transfer running', JSON.stringify(afterError));

  // Ctrl-C while hundreds of GETs are in flight.
  await counters(true);
  const child = spawn(sluice, ['-c', `${hundredsInFlight} ${query(`${server.url}/latency/long/many.parquet`)}`],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  for (let i = 0; i < 600 && (await counters()).active < 100; i++) await sleep(50);
  const before = await counters();
  child.kill('SIGINT');
  const code = await exited;
  const afterInterrupt = await settled();
  report(before.active >= 100 && code !== 0 && /interrupt/i.test(stderr),
    'Ctrl-C interrupts a query with its transfers in flight', `active ${before.active}, exit ${code}, ${stderr.trim()}`);
  report(afterInterrupt.active === 0 && afterInterrupt.aborted >= 100, 'Ctrl-C aborted the transfers in flight',
    JSON.stringify(afterInterrupt));
} finally {
  server.stop();
}
console.log(failures ? `${failures} checks failed` : 'all checks passed');
process.exit(failures ? 1 : 0);
