// Reading Parquet from a real S3-compatible server that checks signatures (OpenStack Swift's
// s3api, tests/s3/swift_server.mjs): SigV4-signed range reads equal to local reads and to
// DuckDB's answers, ListObjectsV2 globbing over more than 1,000 keys (continuation tokens),
// keys with spaces, '+' and unicode, credentials from settings, from AWS_* variables and from
// ~/.aws profiles, and clear errors for missing keys and buckets, wrong secrets and anonymous
// access, with the secret never shown.
// With "https" Sluice reaches Swift through an HTTPS front (nginx with a certificate from a test
// authority, trusted through SSL_CERT_FILE), so signing, listing and errors are checked over TLS.
// Usage: node s3_read.mjs <sluice> <work directory> [https]
import { DuckDBInstance } from '@duckdb/node-api';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startNginx } from '../http/nginx_server.mjs';
import { makeTestCertificates } from '../http/test_ca.mjs';
import { sluiceRows } from '../oracle/sluice_cli.mjs';
import { S3_ACCESS_KEY, S3_SECRET_KEY, startSwift } from './swift_server.mjs';

const [sluice, work, scheme] = process.argv.slice(2);
const https = scheme === 'https';
fs.rmSync(work, { recursive: true, force: true });
const data = path.join(work, 'data');
fs.mkdirSync(path.join(data, 'many'), { recursive: true });
fs.mkdirSync(path.join(data, 'odd keys'), { recursive: true });
execFileSync(sluice, ['-c', `
  COPY (SELECT range AS id, 'row ' || range AS label FROM range(200000)) TO '${data}/numbers.parquet' (ROW_GROUP_SIZE 40000);
  COPY (SELECT range AS id, 'row ' || range AS label FROM range(10)) TO '${data}/odd keys/a+b ü.parquet';
  CALL dbgen(sf = 0.01, path = '${data}/tpch', tables = ['lineitem']);`], { stdio: 'ignore' });
// CSV in hive partitions: year=2020 and year=2021, quoted fields with delimiters inside.
for (const year of [2020, 2021]) {
  fs.mkdirSync(path.join(data, 'csv', `year=${year}`), { recursive: true });
  execFileSync(sluice, ['-c', `COPY (SELECT range AS id, 'a, "b" ' || range AS label FROM range(${year - 1990}000))
    TO '${data}/csv/year=${year}/part.csv'`], { stdio: 'ignore' });
}
// 250 keys: three pages of Swift's listings (100 keys each, swift_server.mjs).
for (let i = 0; i < 250; i++) {
  fs.copyFileSync(path.join(data, 'odd keys', 'a+b ü.parquet'), path.join(data, 'many', `part_${String(i).padStart(4, '0')}.parquet`));
}

let failures = 0;
function report(ok, what, detail = '') {
  console.log(`${ok ? 'ok' : 'FAIL'} ${https ? '(HTTPS) ' : ''}${what}${detail ? ': ' + detail : ''}`);
  if (!ok) failures++;
}
function run(sql, env = {}) {
  try {
    return { rows: sluiceRows(sluice, sql, env) };
  } catch (error) {
    return { error: String(error.stderr || error.message) };
  }
}
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const first = (result) => (result.error || '').split('\n')[0];

const swift = await startSwift();
let front;
try {
  // Where Sluice reaches S3: Swift itself, or the HTTPS front passing requests on to it.
  let endpoint = swift.endpoint;
  if (https) {
    const certificates = makeTestCertificates(path.join(work, 'certificates'));
    process.env.SSL_CERT_FILE = certificates.ca;
    front = await startNginx(work, { servers: [{ name: 's3', ...certificates.good, proxyTo: swift.endpoint }] });
    endpoint = front.serverUrls.s3;
  }
  swift.aws('s3', 'mb', 's3://data');
  swift.aws('s3', 'cp', '--recursive', '--quiet', data, 's3://data/');
  const settings = `SET s3_endpoint = '${endpoint}'; SET s3_access_key_id = '${S3_ACCESS_KEY}';
    SET s3_secret_access_key = '${S3_SECRET_KEY}'; SET s3_url_style = 'path'; SET s3_region = 'us-east-1';`;
  const numbers = 'SELECT count(*), sum(id), min(label), max(label) FROM read_parquet';
  const local = run(`${numbers}('${data}/numbers.parquet')`);

  const remote = run(`${settings} ${numbers}('s3://data/numbers.parquet')`);
  report(!remote.error && same(remote.rows, local.rows), 'read_parquet from s3:// equals the local read', remote.error || JSON.stringify(remote.rows[1]));

  const q6 = fs.readFileSync(path.join(path.dirname(process.argv[1]), '../../tpch/queries/q06.sql'), 'utf8');
  const db = await DuckDBInstance.create(':memory:');
  const duck = await db.connect();
  await duck.run(`CREATE VIEW lineitem AS SELECT * FROM read_parquet('${data}/tpch/lineitem.parquet')`);
  const duckQ6 = (await duck.runAndReadAll(`select cast(revenue as varchar) from (${q6.replace(/;\s*$/, '')})`)).getRows()[0][0];
  const s3Q6 = run(`${settings} CREATE VIEW lineitem AS SELECT * FROM read_parquet('s3://data/tpch/lineitem.parquet'); ${q6}`);
  report(!s3Q6.error && s3Q6.rows[1][0] === String(duckQ6), 'TPC-H Q6 from S3 equals DuckDB on the local file', s3Q6.error || s3Q6.rows[1][0]);

  const replaced = run(`${settings} SELECT count(*), sum(id), min(label), max(label) FROM 's3://data/numbers.parquet'`);
  report(!replaced.error && same(replaced.rows, local.rows), "FROM 's3://...parquet' (a replacement scan) equals the local read", first(replaced));

  const csvQuery = (where) => `SELECT year, count(*), sum(id), min(label), max(label) FROM read_csv('${where}/csv/*/*.csv', buffer_size = 20000) GROUP BY year ORDER BY year`;
  const csvLocal = run(csvQuery(data));
  const csvRemote = run(`${settings} ${csvQuery('s3://data')}`);
  report(!csvRemote.error && csvLocal.rows.length === 3 && same(csvRemote.rows, csvLocal.rows),
    'read_csv over an S3 glob of hive partitions equals the local read', first(csvRemote) || JSON.stringify(csvRemote.rows.slice(1)));
  const pruned = run(`${settings} EXPLAIN ANALYZE SELECT count(*) FROM read_csv('s3://data/csv/*/*.csv') WHERE year = 2021`);
  report(!pruned.error && /1 pruned by partition/.test(JSON.stringify(pruned.rows)),
    'a filter on a hive partition prunes the other file before any request', first(pruned));

  const many = run(`${settings} SELECT count(*), min(file), max(file) FROM glob('s3://data/many/*.parquet')`);
  report(!many.error && many.rows[1][0] === '250' && many.rows[1][2] === 's3://data/many/part_0249.parquet',
    'glob over 250 keys follows continuation tokens (pages of 100)', many.error || JSON.stringify(many.rows[1]));
  const manyRows = run(`${settings} SELECT count(*) FROM read_parquet('s3://data/many/part_01[0-4]?.parquet')`);
  report(!manyRows.error && manyRows.rows[1][0] === '500', 'read_parquet over a [..] ? glob of 50 files', manyRows.error || manyRows.rows[1][0]);
  const deep = run(`${settings} SELECT file FROM glob('s3://data/**/*ü.parquet')`);
  report(!deep.error && same(deep.rows.slice(1).map((r) => r[0]), ['s3://data/odd keys/a+b ü.parquet']), '** across segments; keys with space, + and unicode listed',
    deep.error || JSON.stringify(deep.rows.slice(1)));
  const odd = run(`${settings} SELECT count(*) FROM read_parquet('s3://data/odd keys/a+b ü.parquet')`);
  report(!odd.error && odd.rows[1][0] === '10', 'a key with space, + and unicode read (signed)', first(odd));

  const viaEnv = run(`${numbers}('s3://data/numbers.parquet')`, { AWS_ACCESS_KEY_ID: S3_ACCESS_KEY,
    AWS_SECRET_ACCESS_KEY: S3_SECRET_KEY, AWS_ENDPOINT_URL: endpoint, AWS_REGION: 'us-east-1' });
  report(!viaEnv.error && same(viaEnv.rows, local.rows), 'credentials and endpoint from AWS_* variables', first(viaEnv));
  const home = path.join(work, 'home');
  fs.mkdirSync(path.join(home, '.aws'), { recursive: true });
  fs.writeFileSync(path.join(home, '.aws', 'credentials'), `[default]\naws_access_key_id = wrong\naws_secret_access_key = wrong\n\n[swift]\naws_access_key_id = ${S3_ACCESS_KEY}\naws_secret_access_key = ${S3_SECRET_KEY}\n`);
  fs.writeFileSync(path.join(home, '.aws', 'config'), `[profile swift]\nregion = us-east-1\nendpoint_url = ${endpoint}\n`);
  const viaProfile = run(`${numbers}('s3://data/numbers.parquet')`, { HOME: home, AWS_PROFILE: 'swift' });
  report(!viaProfile.error && same(viaProfile.rows, local.rows), 'credentials and endpoint from the ~/.aws profile AWS_PROFILE names', first(viaProfile));

  const missingKey = run(`${settings} ${numbers}('s3://data/nothing.parquet')`);
  report(/s3:\/\/data\/nothing.parquet failed: HTTP 404 NoSuchKey/.test(missingKey.error || ''), 'missing key: S3\'s NoSuchKey and the path', first(missingKey));
  const missingBucket = run(`${settings} ${numbers}('s3://nobucket/x.parquet')`);
  report(/s3:\/\/nobucket\/x.parquet failed: HTTP 404 NoSuchBucket/.test(missingBucket.error || ''), 'missing bucket: NoSuchBucket', first(missingBucket));
  const wrong = run(`${settings} SET s3_secret_access_key = 'not-the-secret'; ${numbers}('s3://data/numbers.parquet')`);
  report(/HTTP 403 SignatureDoesNotMatch/.test(wrong.error || '') && !(wrong.error || '').includes('not-the-secret'),
    'wrong secret: SignatureDoesNotMatch, the secret not shown', first(wrong));
  const listWrong = run(`${settings} SET s3_secret_access_key = 'not-the-secret'; SELECT * FROM glob('s3://data/many/*')`);
  report(/listing s3:\/\/data\/ .*HTTP 403 SignatureDoesNotMatch/.test(listWrong.error || ''), 'wrong secret when listing', first(listWrong));
  const anonymous = run(`SET s3_endpoint = '${endpoint}'; ${numbers}('s3://data/numbers.parquet')`, { HOME: path.join(work, 'nohome') });
  report(/HTTP 40[013] .*anonymous/.test(anonymous.error || ''), 'anonymous request to a private bucket: refused, saying it was anonymous', first(anonymous));
  const shown = run(`${settings} SELECT value FROM sluice_settings() WHERE name LIKE 's3_%' ORDER BY name`);
  report(!shown.error && !JSON.stringify(shown.rows).includes(S3_SECRET_KEY) && JSON.stringify(shown.rows).includes('<redacted>'),
    'sluice_settings() shows the secret redacted', JSON.stringify(shown.rows && shown.rows.slice(1)));
  // The rig's shaping in front of Swift (a reverse proxy keeping the Host header): signatures
  // still validate, so s3:// can be benchmarked on the emulated link.
  const rigDir = path.join(work, 'rig');
  const rigUrl = execFileSync('bash', [path.join(path.dirname(process.argv[1]), '../../bench/rig/rig.sh'), 'start',
    '--profile', 'lan', '--upstream', swift.endpoint], { encoding: 'utf8', env: { ...process.env, RIG_DIR: rigDir } }).trim();
  try {
    const shaped = run(`${settings} SET s3_endpoint = '${rigUrl}'; ${numbers}('s3://data/numbers.parquet')`);
    report(!shaped.error && same(shaped.rows, local.rows), 'through the rig\'s shaping proxy in front of Swift (SigV4 still valid)', first(shaped));
  } finally {
    execFileSync('bash', [path.join(path.dirname(process.argv[1]), '../../bench/rig/rig.sh'), 'stop'], { env: { ...process.env, RIG_DIR: rigDir } });
  }
  const noBucket = run(`${settings} ${numbers}('s3:///x.parquet')`);
  report(/malformed S3 URL/.test(noBucket.error || ''), 'malformed s3:// URL', first(noBucket));
} finally {
  if (front) front.stop();
  swift.stop();
}
process.exit(failures ? 1 : 0);
