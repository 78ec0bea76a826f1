// Every kind of bad input a user can feed Sluice, each answered by one of the engine's error kinds
// with what and where: corrupt Parquet and CSV files (local and over HTTP), absurd settings and
// options, malformed SQL, unknown names, unreachable hosts, HTTP and S3 errors, wrong
// credentials (never echoed), a memory limit, an interrupt. The shell must fail cleanly (exit
// status 1, no crash signal) with "<Kind> Error: " first, as DuckDB prints it.
// Usage: node bad_input_errors.mjs <sluice> <work directory>
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startNginx } from '../http/nginx_server.mjs';
import { S3_ACCESS_KEY, S3_SECRET_KEY, startSwift } from '../s3/swift_server.mjs';
import { Codec, Type, dataPage, writeParquet } from '../parquet/handmade_parquet.mjs';
import zlib from 'node:zlib';

const [sluice, work] = process.argv.slice(2).map((p) => path.resolve(p));
fs.rmSync(work, { recursive: true, force: true });
const data = path.join(work, 'data');
fs.mkdirSync(data, { recursive: true });

// The files: a good Parquet and CSV file, then damaged copies of each. One thread writes the
// Parquet file, so that its row groups lie in the file in their order: encoded in parallel, they
// are placed as each is done (the footer gives their order), and the page scrambled below,
// the first in the file, would then belong to whichever row group was done first.
execFileSync(sluice, ['-c', `
  SET threads = 1;
  COPY (SELECT range AS id, 'row ' || range AS label FROM range(100000)) TO '${data}/good.parquet' (ROW_GROUP_SIZE 30000);
  COPY (SELECT range AS id, 'row ' || range AS label FROM range(1000)) TO '${data}/good.csv';`]);
const parquet = fs.readFileSync(path.join(data, 'good.parquet'));
const footerLength = parquet.readUInt32LE(parquet.length - 8);
const footerStart = parquet.length - 8 - footerLength;
const damaged = (name, bytes) => fs.writeFileSync(path.join(data, name), bytes);
damaged('truncated.parquet', parquet.subarray(0, parquet.length >> 1));
damaged('tiny.parquet', Buffer.from('PAR1'));
damaged('badfooter.parquet', Buffer.from(parquet).map((b, i) => (i >= footerStart + 10 && i < footerStart + 40 ? b ^ 0x5a : b)));
// The first column chunk's first page: its bytes scrambled after the page header.
damaged('badpage.parquet', Buffer.from(parquet).map((b, i) => (i >= 2000 && i < 2600 ? 0xff : b)));
// A decompression bomb: one page of 256 MiB of zeros, 48 KiB as brotli (the SQL fuzzer's file
// of 4 KiB declared a 1 GiB page). Its buffer must be reserved under memory_limit.
const zeros = Buffer.alloc(256 << 20);
writeParquet(path.join(data, 'bomb.parquet'), [{
  name: 'zero', type: Type.INT32, codec: Codec.BROTLI,
  pages: [dataPage({ rows: zeros.length / 4, values: zeros,
    compress: (b) => zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } }) })],
}]);
const csvLines = fs.readFileSync(path.join(data, 'good.csv'), 'utf8').split('\n');
const withLine = (index, line) => csvLines.map((l, i) => (i === index ? line : l)).join('\n');
damaged('badutf8.csv', Buffer.concat([Buffer.from(csvLines.slice(0, 700).join('\n') + '\n7,'), Buffer.from([0xff, 0xfe]),
  Buffer.from(' bad\n' + csvLines.slice(701).join('\n'))]));
damaged('badint.csv', withLine(800, 'x799,row 799'));
damaged('quoted.csv', withLine(300, '299,"a quote never closed') + '\n');
damaged('truncated.csv.gz', execFileSync('gzip', ['-c', path.join(data, 'good.csv')]).subarray(0, 900));

let failures = 0;
function report(ok, what, detail = '') {
  console.log(`${ok ? 'ok' : 'FAIL'} ${what}${detail ? ': ' + detail : ''}`);
  if (!ok) failures++;
}

// Runs `sql`; the error's first line, or why there was none.
function errorOf(sql, env = {}) {
  const run = spawnSync(sluice, ['-c', sql], { cwd: data, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 120000 });
  if (run.error) return { crash: String(run.error) };
  if (run.signal) return { crash: `killed by ${run.signal}`, stderr: run.stderr };
  return { status: run.status, first: run.stderr.split('\n')[0], stderr: run.stderr, stdout: run.stdout };
}

// One case: the kind, and patterns the message must contain (what and where).
function expectError(what, sql, kind, patterns, { env = {}, secret } = {}) {
  const result = errorOf(sql, env);
  if (result.crash) {
    report(false, what, result.crash);
    if (result.stderr) console.log(result.stderr.slice(0, 8000));
    return;
  }
  const prefix = `${kind} Error: `;
  const missing = patterns.filter((p) => !p.test(result.first));
  const leaked = secret && (result.stderr + result.stdout).includes(secret);
  const ok = result.status === 1 && result.first.startsWith(prefix) && missing.length === 0 && !leaked;
  report(ok, `${what} -> ${kind}`,
    `${result.first}${missing.length ? ` (missing ${missing.join(', ')})` : ''}${leaked ? ' (the secret is shown)' : ''}`);
  if (!ok && !leaked) console.log(result.stderr.slice(0, 8000)); // a sanitizer's stack, say
}

// Corrupt files, read from the local disk.
expectError('Parquet file cut in half', "SELECT count(*) FROM 'truncated.parquet'", 'Invalid Input',
  [/'truncated\.parquet'/, /PAR1/]);
expectError('Parquet file of four bytes', "SELECT count(*) FROM 'tiny.parquet'", 'Invalid Input',
  [/'tiny\.parquet'/, /too small/]);
expectError('Parquet footer scrambled', "SELECT count(*) FROM 'badfooter.parquet'", 'Invalid Input',
  [/'badfooter\.parquet'/, /footer/, /byte \d+/]);
expectError('Parquet page scrambled', "SELECT sum(id) FROM 'badpage.parquet'", 'Invalid Input',
  [/'badpage\.parquet'/, /row group 0/, /column 'id'/, /page 0 at file offset \d+/]);
expectError('CSV with invalid UTF-8', "SELECT max(label) FROM 'badutf8.csv'", 'Invalid Input',
  [/'badutf8\.csv'/, /line 701/, /UTF-8/]);
expectError('CSV value of the wrong type', "SELECT sum(id) FROM read_csv('badint.csv', columns = {'id': 'INTEGER', 'label': 'VARCHAR'})",
  'Invalid Input', [/'badint\.csv'/, /line 801/, /column "id"/, /"x799"/]);
expectError('CSV quote never closed', "SELECT count(*), max(label) FROM read_csv('quoted.csv', header = true, quote = '\"', delim = ',')", 'Invalid Input',
  [/'quoted\.csv'/, /line 301/, /quote/]);
expectError('gzip CSV cut short', "SELECT count(*) FROM 'truncated.csv.gz'", 'Invalid Input',
  [/'truncated\.csv\.gz'/, /gzip/i]);
expectError('missing file', "SELECT * FROM 'no_such_file.parquet'", 'IO', [/no_such_file\.parquet/]);
expectError('glob matching nothing', "SELECT * FROM read_csv('nothing_*.csv')", 'IO', [/nothing_\*\.csv/]);

// Absurd settings and options: the setting, the allowed range, the value given.
expectError('threads = 0', 'SET threads = 0', 'Invalid Input', [/"threads"/, /between 1 and/, /got 0/]);
expectError('async_threads over the maximum', 'SET async_threads = 1000', 'Invalid Input', [/"async_threads"/, /256/, /got 1000/]);
expectError('memory_limit not a size', "SET memory_limit = 'lots'", 'Invalid Input', [/"memory_limit"/, /'lots'/]);
expectError('read_ahead_depth = -2', 'SET read_ahead_depth = -2', 'Invalid Input', [/"read_ahead_depth"/, /got -2/]);
expectError('http_retries negative', 'SET http_retries = -1', 'Invalid Input', [/"http_retries"/, /got -1/]);
expectError('unknown setting', 'SET no_such_setting = 1', 'Catalog', [/"no_such_setting"/]);
expectError('read_csv buffer_size = 0', "SELECT * FROM read_csv('good.csv', buffer_size = 0)", 'Binder', [/buffer_size/, /got 0/]);
expectError('read_csv empty delimiter', "SELECT * FROM read_csv('good.csv', delim = '')", 'Binder', [/delim/]);

// Malformed SQL and unknown names: where in the statement, and what.
expectError('misspelt keyword', 'SELEC 1', 'Parser', [/"SELEC"/, /line 1, column 1/]);
expectError('unclosed parenthesis', 'SELECT (1', 'Parser', [/end of input/, /column 10/]);
expectError('unknown column', 'SELECT x FROM range(3) t(y)', 'Binder', [/"x"/]);
expectError('unknown function', 'SELECT no_such_function(1)', 'Catalog', [/no_such_function/]);
expectError('unknown table', 'SELECT * FROM no_such_table', 'Catalog', [/no_such_table/]);

// Memory: the limit and what wanted more.
expectError('Parquet page that decompresses past the memory limit',
  "SET memory_limit = '64MB'; SELECT sum(zero) FROM 'bomb.parquet'", 'Out of Memory',
  [/'bomb\.parquet'/, /column 'zero'/, /page 0 at file offset \d+/, /256\.0 MiB for Parquet page buffers/, /memory_limit/]);
expectError('a memory limit too small for the query', "SET memory_limit = '30MB'; SELECT list(range) FROM range(20000000)",
  'Out of Memory', [/memory_limit/, /hash aggregate/]);

// Unreachable hosts: the URL and the cause, after the retries.
expectError('connection refused', 'SET http_retries = 1; SET http_retry_wait_ms = 10; SELECT * FROM \'http://127.0.0.1:1/a.parquet\'', 'IO',
  [/http:\/\/127\.0\.0\.1:1\/a\.parquet/, /connect/i, /after 2 attempts/]);
expectError('unknown host', 'SET http_retries = 0; SELECT * FROM \'http://no-such-host.invalid/a.parquet\'', 'IO',
  [/no-such-host\.invalid/, /resolve/i]);

const nginx = await startNginx(data);
try {
  expectError('HTTP 404', `SELECT * FROM '${nginx.url}/no_such_file.parquet'`, 'IO', [/no_such_file\.parquet/, /404/]);
  expectError('HTTP 503 until the retries run out', `SET http_retries = 2; SET http_retry_wait_ms = 10; SELECT * FROM '${nginx.url}/always503/good.parquet'`, 'IO',
    [/\/always503\/good\.parquet/, /503/, /after 3 attempts/]);
  expectError('corrupt Parquet over HTTP', `SELECT sum(id) FROM '${nginx.url}/badpage.parquet'`, 'Invalid Input',
    [/\/badpage\.parquet/, /row group 0/, /column 'id'/, /page 0/]);
  expectError('corrupt CSV over HTTP', `SELECT max(label) FROM '${nginx.url}/badutf8.csv'`, 'Invalid Input',
    [/\/badutf8\.csv/, /line 701/]);
} finally {
  nginx.stop();
}

const swift = await startSwift();
try {
  swift.aws('s3', 'mb', 's3://data');
  swift.aws('s3', 'cp', '--quiet', path.join(data, 'good.parquet'), 's3://data/good.parquet');
  const settings = (secret) => `SET s3_endpoint = '${swift.endpoint}'; SET s3_access_key_id = '${S3_ACCESS_KEY}';
    SET s3_secret_access_key = '${secret}'; SET s3_url_style = 'path'; SET s3_region = 'us-east-1';`;
  const wrongSecret = 'wrong-secret-4f9c2e';
  expectError('wrong S3 secret', `${settings(wrongSecret)} SELECT count(*) FROM 's3://data/good.parquet'`, 'IO',
    [/s3:\/\/data\/good\.parquet/, /403/, /SignatureDoesNotMatch/], { secret: wrongSecret });
  expectError('wrong S3 secret from the environment', `SET s3_endpoint = '${swift.endpoint}'; SET s3_url_style = 'path'; SET s3_region = 'us-east-1'; SELECT count(*) FROM 's3://data/good.parquet'`, 'IO',
    [/s3:\/\/data\/good\.parquet/, /403/], { env: { AWS_ACCESS_KEY_ID: S3_ACCESS_KEY, AWS_SECRET_ACCESS_KEY: wrongSecret }, secret: wrongSecret });
  expectError('missing S3 bucket', `${settings(S3_SECRET_KEY)} SELECT count(*) FROM 's3://no-such-bucket/good.parquet'`, 'IO',
    [/s3:\/\/no-such-bucket\/good\.parquet/, /404/]);
  expectError('missing S3 key', `${settings(S3_SECRET_KEY)} SELECT count(*) FROM 's3://data/no_such_key.parquet'`, 'IO',
    [/s3:\/\/data\/no_such_key\.parquet/, /404/]);
} finally {
  swift.stop();
}

// Interrupted: Ctrl-C during a long query.
{
  // The signal goes once the first statement's row is out (the shell is up, its handler in
  // place, however slowly a loaded machine started it), while the long one runs.
  const child = spawn(sluice, ['-csv', '-c', "SELECT 'started' AS s; SELECT sum(a.range * b.range) FROM range(100000) a, range(100000) b"]);
  let stderr = '';
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  let signalled = false;
  child.stdout.on('data', (chunk) => {
    if (!signalled && String(chunk).includes('started')) {
      signalled = true;
      setTimeout(() => child.kill('SIGINT'), 300);
    }
  });
  const [code, signal] = await new Promise((resolve) => child.on('exit', (c, s) => resolve([c, s])));
  report(code === 1 && !signal && stderr.startsWith('Interrupted Error: '), 'Ctrl-C during a query -> Interrupted', stderr.split('\n')[0] || `exit ${code} ${signal}`);
}

console.log(failures ? `${failures} failed` : 'all bad input answered with the right kind and context');
process.exit(failures ? 1 : 0);
