// Reading Parquet over HTTP from a real nginx (tests/http/nginx_server.mjs): results equal to
// reading the same files locally (and to DuckDB's local answer for the TPC-H queries), range
// requests verified, servers that ignore ranges or refuse HEAD handled, transient faults (503,
// Retry-After, bodies cut short, stalls) retried until they pass and reported clearly with
// http_retries = 0, and permanent errors (404, refused connections, unknown schemes, globs over
// HTTP, a file changing under the query) failing with the URL and the cause.
// With "https" the same checks run over TLS, the server's certificate from a test authority
// trusted through SSL_CERT_FILE.
// Usage: node http_read.mjs <sluice> <work directory> [https]
import { DuckDBInstance } from '@duckdb/node-api';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { NULL, sluiceRows } from '../oracle/sluice_cli.mjs';
import { freePort, startNginx } from './nginx_server.mjs';
import { makeTestCertificates } from './test_ca.mjs';

const [sluice, work, scheme] = process.argv.slice(2);
const https = scheme === 'https';
fs.rmSync(work, { recursive: true, force: true });
const data = path.join(work, 'data');
fs.mkdirSync(data, { recursive: true });
execFileSync(sluice, ['-c', `
  COPY (SELECT range AS id, 'row ' || range AS label, range % 13 AS bucket FROM range(300000))
    TO '${data}/numbers.parquet' (ROW_GROUP_SIZE 50000);
  CALL dbgen(sf = 0.01, path = '${data}/tpch', tables = ['lineitem']);
  COPY (SELECT range AS id, 'row, "quoted" ' || range AS label, range % 13 AS bucket FROM range(100000))
    TO '${data}/numbers.csv';`], { stdio: 'ignore' });
fs.writeFileSync(path.join(data, 'numbers.csv.gz'), zlib.gzipSync(fs.readFileSync(path.join(data, 'numbers.csv'))));

let failures = 0;
function report(ok, what, detail = '') {
  console.log(`${ok ? 'ok' : 'FAIL'} ${https ? '(HTTPS) ' : ''}${what}${detail ? ': ' + detail : ''}`);
  if (!ok) failures++;
}
function run(sql) {
  const start = Date.now();
  try {
    return { rows: sluiceRows(sluice, sql), seconds: (Date.now() - start) / 1000 };
  } catch (error) {
    return { error: String(error.stderr || error.message), seconds: (Date.now() - start) / 1000 };
  }
}
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

let tls;
if (https) {
  const certificates = makeTestCertificates(path.join(work, 'certificates'));
  tls = certificates.good;
  process.env.SSL_CERT_FILE = certificates.ca; // every sluice started below trusts the test CA
}
const server = await startNginx(data, { tls });
const base = https ? server.tlsUrl : server.url;
try {
  const numbers = 'SELECT count(*), sum(id), min(label), max(label), sum(bucket) FROM read_parquet';
  const local = run(`${numbers}('${data}/numbers.parquet')`);
  const q1 = fs.readFileSync(path.join(path.dirname(process.argv[1]), '../../tpch/queries/q01.sql'), 'utf8');
  const q6 = fs.readFileSync(path.join(path.dirname(process.argv[1]), '../../tpch/queries/q06.sql'), 'utf8');
  const view = (where) => `CREATE VIEW lineitem AS SELECT * FROM read_parquet('${where}');`;

  // DuckDB's answer on the local file, to anchor the HTTP results.
  const db = await DuckDBInstance.create(':memory:');
  const duck = await db.connect();
  await duck.run(view(`${data}/tpch/lineitem.parquet`));
  const duckQ6 = (await duck.runAndReadAll(`select cast(revenue as varchar) from (${q6.replace(/;\s*$/, '')})`)).getRows()[0][0];

  const plain = run(`${numbers}('${base}/numbers.parquet')`);
  report(!plain.error && same(plain.rows, local.rows), 'read_parquet over HTTP equals the local read',
    plain.error || JSON.stringify(plain.rows[1]));
  const httpQ6 = run(view(`${base}/tpch/lineitem.parquet`) + q6);
  report(!httpQ6.error && httpQ6.rows[1][0] === String(duckQ6), 'TPC-H Q6 over HTTP equals DuckDB on the local file',
    httpQ6.error || `${httpQ6.rows[1][0]} vs ${duckQ6}`);
  const httpQ1 = run(view(`${base}/tpch/lineitem.parquet`) + q1);
  const localQ1 = run(view(`${data}/tpch/lineitem.parquet`) + q1);
  report(!httpQ1.error && same(httpQ1.rows, localQ1.rows), 'TPC-H Q1 over HTTP equals the local read', httpQ1.error || '');
  for (const depth of [0, 2]) {
    const moded = run(`SET read_ahead_depth = ${depth};` + view(`${base}/tpch/lineitem.parquet`) + q1);
    report(!moded.error && same(moded.rows, localQ1.rows), `TPC-H Q1 over HTTP with read_ahead_depth = ${depth} equals the local read`,
      moded.error || '');
  }

  // The external file cache: a repeated query asks only for the object's size and version; the footer
  // comes from the footer cache, the data from the file cache. With the cache off, ranges again.
  const requestsAfter = (rows) => rows.flatMap((row, i) => (row[0] === 'requests' ? [Number(rows[i + 1][0])] : []));
  for (const [enabled, check, what] of [[true, (d) => d === 1, 'a repeated query is served by enable_external_file_cache (one request, for the size and version)'],
    [false, (d) => d > 1, 'with enable_external_file_cache = false the ranges are requested again']]) {
    const twice = run(`SET enable_external_file_cache = ${enabled};
      ${numbers}('${base}/numbers.parquet'); SELECT requests FROM sluice_http_stats();
      ${numbers}('${base}/numbers.parquet'); SELECT requests FROM sluice_http_stats();`);
    const counts = twice.error ? [] : requestsAfter(twice.rows);
    report(!twice.error && counts.length === 2 && check(counts[1] - counts[0]), what,
      twice.error || `second query: ${counts[1] - counts[0]} requests`);
  }

  // Ctrl-C while range requests are waiting for their first byte (1 s each on /slow/): the
  // transfers are aborted and the shell reports the interruption at once.
  {
    const child = spawn(sluice, ['-c', `${numbers}('${base}/slow/numbers.parquet')`]);
    let stderr = '';
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const signalled = Date.now();
    child.kill('SIGINT');
    await exited;
    const ms = Date.now() - signalled;
    report(/Interrupted/.test(stderr) && ms < 1000, 'Ctrl-C aborts requests in flight and the query stops',
      `${ms} ms after the signal; ${stderr.split('\n')[0]}`);
  }

  const list = run(`SELECT count(*) FROM read_parquet(['${base}/numbers.parquet', '${base}/tpch/lineitem.parquet'], union_by_name = true)`);
  report(!list.error, 'a list of URLs', list.error || list.rows[1][0]);

  const counted = run(`${numbers}('${base}/flaky503/numbers.parquet'); SELECT retries > 0, failures = retries, failures_by_status LIKE '503: %' FROM sluice_http_stats()`);
  report(!counted.error && same(counted.rows[counted.rows.length - 1], ['true', 'true', 'true']),
    'sluice_http_stats() counts the retries and the 503s', counted.error || JSON.stringify(counted.rows.slice(-2)));
  for (const [prefix, what] of [['noranges', 'a server that ignores Range (200, whole object)'],
    ['nohead', 'a server that refuses HEAD (size from a one-byte range)'],
    ['flaky503', '503 once per request, retried'],
    ['truncate', 'bodies cut short once per request, retried']]) {
    const result = run(`${numbers}('${base}/${prefix}/numbers.parquet')`);
    report(!result.error && same(result.rows, local.rows), what, result.error || `${result.seconds.toFixed(2)} s`);
  }
  // CSV over HTTP, in small jobs (rows cross job boundaries), also through the faults.
  const csvNumbers = (where) => `SELECT count(*), sum(id), min(label), max(label), sum(bucket) FROM read_csv('${where}', buffer_size = 50000)`;
  const csvLocal = run(csvNumbers(`${data}/numbers.csv`));
  report(!csvLocal.error && csvLocal.rows[1][0] === '100000', 'read_csv of the local file', csvLocal.error || '');
  for (const prefix of ['', 'noranges/', 'nohead/', 'flaky503/', 'truncate/']) {
    const result = run(csvNumbers(`${base}/${prefix}numbers.csv`));
    report(!result.error && same(result.rows, csvLocal.rows), `read_csv over HTTP ${prefix || '(plain) '}equals the local read`,
      result.error || `${result.seconds.toFixed(2)} s`);
  }

  // Gzip-compressed, read as one stream of small jobs fetched ahead, also through the faults.
  for (const prefix of ['', 'flaky503/', 'truncate/']) {
    const result = run(csvNumbers(`${base}/${prefix}numbers.csv.gz`));
    report(!result.error && same(result.rows, csvLocal.rows), `read_csv of a .csv.gz over HTTP ${prefix || '(plain) '}equals the local read`,
      result.error || `${result.seconds.toFixed(2)} s`);
  }

  // A CSV file sniffed once is not read again for its sniffing while it is unchanged.
  {
    const bytesAfter = (rows) => rows.flatMap((row, i) => (row[0] === 'bytes' ? [Number(rows[i + 1][0])] : []));
    const twice = run(`SET enable_external_file_cache = false;
      SELECT count(*) FROM read_csv('${base}/numbers.csv'); SELECT bytes FROM sluice_http_stats();
      SELECT count(*) FROM read_csv('${base}/numbers.csv'); SELECT bytes FROM sluice_http_stats();`);
    const bytes = twice.error ? [] : bytesAfter(twice.rows);
    const size = fs.statSync(path.join(data, 'numbers.csv')).size;
    // The first query sniffs the whole (small) file and scans it; the second only scans it.
    report(!twice.error && bytes.length === 2 && bytes[0] > 1.9 * size && bytes[1] - bytes[0] < 1.1 * size,
      'a CSV file is sniffed once while unchanged', twice.error || `first ${bytes[0]} bytes, second ${bytes[1] - bytes[0]}, file ${size}`);
  }

  // Retry-After: 1 is honoured: the retries waited at least a second.
  const honoured = run(`SET http_retry_wait_ms = 1; SELECT count(*) FROM read_parquet('${base}/retryafter/numbers.parquet')`);
  report(!honoured.error && honoured.rows[1][0] === '300000' && honoured.seconds >= 1,
    '503 with Retry-After: 1, retried after the second asked for (not the 1 ms backoff)',
    honoured.error || `${honoured.seconds.toFixed(2)} s`);
  const stalled = run(`SET http_timeout = 1; ${numbers}('${base}/stall/numbers.parquet')`);
  report(!stalled.error && same(stalled.rows, local.rows), 'a stalled transfer times out (http_timeout) and is retried',
    stalled.error || `${stalled.seconds.toFixed(2)} s`);

  // With retries off, each fault is a clear error naming the URL and the cause.
  for (const [prefix, expected] of [['flaky503', /failed: HTTP 503 Service Unavailable/],
    ['truncate', /failed: .*(transfer closed|partial|Partial)/i],
    ['stall', /failed: .*(too slow|timed out).*http_timeout is 1 s/i]]) {
    const result = run(`SET http_retries = 0; SET http_timeout = 1; ${numbers}('${base}/${prefix}/tpch/lineitem.parquet')`);
    const ok = result.error && expected.test(result.error) && result.error.includes(`${base}/${prefix}/`);
    report(ok, `http_retries = 0: ${prefix} fails clearly`, (result.error || 'no error').split('\n')[0]);
  }
  const always = run(`SET http_retry_wait_ms = 10; ${numbers}('${base}/always503/numbers.parquet')`);
  report(always.error && /HTTP 503 .*after 4 attempts; http_retries is 3/.test(always.error),
    'a server failing every time: gives up after http_retries', (always.error || '').split('\n')[0]);

  const missing = run(`${numbers}('${base}/nothing_here.parquet')`);
  report(missing.error && /GET .*nothing_here.parquet failed: HTTP 404 Not Found/.test(missing.error) && missing.seconds < 1,
    '404: at once, with the URL', (missing.error || '').split('\n')[0]);
  const closedPort = await freePort();
  const refused = run(`SET http_retry_wait_ms = 10; ${numbers}('http://127.0.0.1:${closedPort}/x.parquet')`);
  report(refused.error && refused.error.includes(`http://127.0.0.1:${closedPort}/x.parquet`) && /onnect/.test(refused.error),
    'connection refused: the URL and the cause after the retries', (refused.error || '').split('\n')[0]);
  const dns = run(`SET http_retries = 0; ${numbers}('http://no-such-host.invalid/x.parquet')`);
  report(dns.error && /no-such-host.invalid/.test(dns.error) && /resolve/i.test(dns.error),
    'unknown host: the URL and the cause', (dns.error || '').split('\n')[0]);
  const scheme = run(`${numbers}('ftp://127.0.0.1/x.parquet')`);
  report(scheme.error && /unknown scheme ftp:\/\//.test(scheme.error), 'unknown scheme refused by name',
    (scheme.error || '').split('\n')[0]);
  const glob = run(`${numbers}('${base}/*.parquet')`);
  report(glob.error && /HTTP has no listing/.test(glob.error), 'a glob over HTTP is a clear error',
    (glob.error || '').split('\n')[0]);
  const flip = run(`${numbers}('${base}/etagflip/numbers.parquet')`);
  report(flip.error && /changed while it was being read/.test(flip.error), 'a file whose ETag changes mid-query',
    (flip.error || '').split('\n')[0]);
  const csvFlip = run(`SELECT count(*) FROM read_csv('${base}/etagflip/numbers.csv', buffer_size = 50000)`);
  report(csvFlip.error && /changed while it was being read/.test(csvFlip.error), 'a CSV file whose ETag changes mid-query',
    (csvFlip.error || '').split('\n')[0]);
} finally {
  server.stop();
}
process.exit(failures ? 1 : 0);
