// TLS for real: nginx serving HTTPS with certificates from an authority made by the test
// (tests/http/test_ca.mjs). The authority is trusted through ca_cert_file or the usual variables
// (SSL_CERT_FILE, CURL_CA_BUNDLE, SSL_CERT_DIR), and not otherwise; an expired certificate, one
// for another host name and one from an untrusted authority are clear errors naming the URL and
// the cause; and connections and TLS sessions are reused: counted by Sluice (connections opened,
// handshakes) and by the server (connections, sessions resumed), the two counts agreeing.
// Usage: node tls.mjs <sluice> <work directory>
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sluiceRows } from '../oracle/sluice_cli.mjs';
import { startNginx } from './nginx_server.mjs';
import { makeTestCertificates } from './test_ca.mjs';

const [sluice, work] = process.argv.slice(2).map((p) => path.resolve(p));
// Machines often point these at the system's bundle; each case below sets the ones it tests.
const tlsVariables = ['SSL_CERT_FILE', 'SSL_CERT_DIR', 'CURL_CA_BUNDLE'];
for (const name of tlsVariables) delete process.env[name];
fs.rmSync(work, { recursive: true, force: true });
const data = path.join(work, 'data');
fs.mkdirSync(data, { recursive: true });
execFileSync(sluice, ['-c', `
  COPY (SELECT range AS id, 'row ' || range AS label FROM range(400000)) TO '${data}/numbers.parquet' (ROW_GROUP_SIZE 2000);`]);
const certificates = makeTestCertificates(path.join(work, 'certificates'));

let failures = 0;
function report(ok, what, detail = '') {
  console.log(`${ok ? 'ok' : 'FAIL'} ${what}${detail ? ': ' + detail : ''}`);
  if (!ok) failures++;
}
function run(sql, env = {}) {
  try {
    return { rows: sluiceRows(sluice, sql, env) };
  } catch (error) {
    return { error: String(error.stderr || error.message).split('\n')[0] };
  }
}
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

const server = await startNginx(data, {
  tls: certificates.good,
  servers: [
    { name: 'expired', ...certificates.expired },
    { name: 'wrongHost', ...certificates.wrongHost },
    { name: 'untrusted', ...certificates.untrusted },
  ],
});
const tlsLog = path.join(server.work, 'tls.log');
// The server's view of the HTTPS requests since `from` (a byte offset of tls.log).
// tls.log's requests since `from` (a byte offset), each [connection, request on it, reused, port, path].
const logLines = (from) => fs.readFileSync(tlsLog, 'utf8').slice(from).trim().split('\n').filter(Boolean)
  .map((line) => line.split(' '));
function serverView(from) {
  const lines = logLines(from);
  const connections = new Map(); // connection number -> session reused on its first request
  for (const [connection, request, reused] of lines) {
    if (request === '1') connections.set(connection, reused === 'r');
  }
  return {
    requests: lines.length,
    connections: connections.size,
    resumed: [...connections.values()].filter(Boolean).length,
  };
}
const logSize = () => fs.statSync(tlsLog, { throwIfNoEntry: false })?.size ?? 0;

try {
  const numbers = (url) => `SELECT count(*), sum(id), min(label), max(label) FROM read_parquet('${url}/numbers.parquet')`;
  const local = run(numbers(data));
  const url = server.tlsUrl;

  // Trust: the setting, each variable, and nothing.
  const trusted = run(`SET ca_cert_file = '${certificates.ca}'; ${numbers(url)}`);
  report(!trusted.error && same(trusted.rows, local.rows), 'HTTPS read with ca_cert_file equals the local read', trusted.error || JSON.stringify(trusted.rows[1]));
  for (const variable of ['SSL_CERT_FILE', 'CURL_CA_BUNDLE']) {
    const viaEnv = run(numbers(url), { [variable]: certificates.ca });
    report(!viaEnv.error && same(viaEnv.rows, local.rows), `the CA trusted through ${variable}`, viaEnv.error || '');
  }
  // SSL_CERT_DIR: a directory of certificates named by their subject hash (what c_rehash makes).
  const hashed = path.join(work, 'hashed');
  fs.mkdirSync(hashed);
  const hash = execFileSync('openssl', ['x509', '-hash', '-noout', '-in', certificates.ca], { encoding: 'utf8' }).trim();
  fs.copyFileSync(certificates.ca, path.join(hashed, `${hash}.0`));
  const viaDir = run(numbers(url), { SSL_CERT_DIR: hashed });
  report(!viaDir.error && same(viaDir.rows, local.rows), 'the CA trusted through SSL_CERT_DIR', viaDir.error || '');
  const untrustedCa = run(numbers(url));
  report(/^IO Error: .*https:\/\/127\.0\.0\.1:\d+\/numbers\.parquet .*SSL certificate problem: unable to get local issuer certificate \(verified against the certificate authorities of the system; ca_cert_file sets others\)/.test(untrustedCa.error || ''),
    'the test CA not trusted: a clear error naming the URL and ca_cert_file', untrustedCa.error || 'no error');
  const missingFile = run(`SET ca_cert_file = '${work}/no-such-ca.pem'`);
  report(/^Invalid Input Error: .*"ca_cert_file".*no-such-ca\.pem/.test(missingFile.error || ''), 'ca_cert_file naming a missing file is refused', missingFile.error || 'no error');

  // Certificates to refuse, even with the test CA trusted.
  const trust = `SET ca_cert_file = '${certificates.ca}';`;
  const refusals = [
    ['expired', /certificate has expired/, 'an expired certificate'],
    ['wrongHost', /no alternative certificate subject name matches target host name '127\.0\.0\.1'/, 'a certificate for another host name'],
    ['untrusted', /unable to get local issuer certificate/, 'a certificate from an untrusted authority'],
  ];
  for (const [name, cause, what] of refusals) {
    const start = Date.now();
    const result = run(`${trust} ${numbers(server.serverUrls[name])}`);
    const ok = result.error && result.error.startsWith('IO Error: ') && cause.test(result.error) &&
      result.error.includes(`${server.serverUrls[name]}/numbers.parquet`) && !/attempts/.test(result.error);
    report(ok && Date.now() - start < 5000, `${what} is refused at once (no retries)`, result.error || 'no error');
  }

  // Reuse. One statement of 200 row groups read ahead with at most 16 requests in flight: at
  // most 16 connections, whatever the timing, and one full handshake (the footer's connection;
  // the connections opened for the read-ahead resume its session); Sluice's count of
  // connections equals the server's. The limit is pinned because the self-tuned one rises on a
  // slow machine (ASan under load reached 59), and hedging is off: a hedge may be sent and
  // abandoned while it connects, a connection Sluice counts and the server never sees a
  // request on.
  const inFlight = 16;
  const reuse = `${trust} SET http_io_threads = 1; SET http_hedging = false; SET http_max_in_flight = ${inFlight};`;
  let from = logSize();
  const one = run(`${reuse} ${numbers(url)}; SELECT requests, connections, tls_handshakes FROM sluice_http_stats()`);
  let view = serverView(from);
  const [requests, connections, handshakes] = one.rows ? one.rows[one.rows.length - 1].map(Number) : [];
  report(!one.error && requests === view.requests && connections === view.connections && handshakes === connections &&
    connections <= inFlight && view.connections - view.resumed === 1,
    'connections reused, and every connection after the first resumes its TLS session; Sluice counts what the server saw',
    one.error || `${requests} requests, ${connections} connections (${handshakes} handshakes); server: ${view.requests} requests on ${view.connections} connections, ${view.resumed} resuming a session`);
  // Two statements in one process, the second reading a copy of the file so that the server's
  // log tells them apart: the second reuses the first's connections (kept between statements),
  // opening new ones, which resume a TLS session, only beyond them: never more than 16 in all.
  fs.copyFileSync(path.join(data, 'numbers.parquet'), path.join(data, 'again.parquet'));
  from = logSize();
  const two = run(`${reuse} ${numbers(url)}; SELECT connections FROM sluice_http_stats();
    ${numbers(url).replace('numbers.parquet', 'again.parquet')}; SELECT connections FROM sluice_http_stats();`);
  const lines = logLines(from);
  const opened = lines.filter(([, request, , , uri]) => request === '1' && uri === '/again.parquet');
  const counts = two.rows ? two.rows.filter((row) => row.length === 1 && /^\d+$/.test(row[0])).map(Number) : [];
  report(!two.error && counts.length === 2 && counts[1] - counts[0] === opened.length &&
    counts[1] <= inFlight &&
    opened.every(([, , reused]) => reused === 'r') &&
    lines.some(([, request, , , uri]) => request !== '1' && uri === '/again.parquet'),
    'a second statement keeps the connections and resumes TLS sessions on new ones (no full handshake)',
    two.error || `connections ${counts.join(' then ')}; the second statement opened ${opened.length}, ` +
      `${opened.filter(([, , reused]) => reused === 'r').length} resuming a session`);
} finally {
  server.stop();
}

console.log(failures ? `${failures} failed` : 'TLS verified, refused where it must be, and reused');
process.exit(failures ? 1 : 0);
