// A certificate authority made for one test run with openssl, and the server certificates the
// TLS tests need: a good one for 127.0.0.1, one that expired, one for another host name, and one
// from a second authority nobody trusts.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const openssl = (...args) => execFileSync('openssl', args, { stdio: ['ignore', 'pipe', 'pipe'] });

// A self-signed authority in `dir`: { cert, key, dir }.
function makeAuthority(dir, name) {
  fs.mkdirSync(path.join(dir, 'issued'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'index.txt'), '');
  fs.writeFileSync(path.join(dir, 'serial'), '1000\n');
  const cert = path.join(dir, 'ca.pem');
  const key = path.join(dir, 'ca.key');
  openssl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
    '-keyout', key, '-out', cert, '-days', '30', '-subj', `/CN=${name}`,
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  // `openssl ca` rather than `x509 -req`: it can date a certificate in the past.
  fs.writeFileSync(path.join(dir, 'ca.cnf'), `[ca]
default_ca = test
[test]
database = ${dir}/index.txt
new_certs_dir = ${dir}/issued
serial = ${dir}/serial
default_md = sha256
policy = any
copy_extensions = copy
unique_subject = no
[any]
commonName = supplied
`);
  return { cert, key, dir };
}

// A server certificate from `authority` for the subjectAltName `names`, valid from `start` to
// `end` (openssl's YYYYMMDDHHMMSSZ): { cert, key }.
function issue(authority, name, names, start, end) {
  const key = path.join(authority.dir, `${name}.key`);
  const csr = path.join(authority.dir, `${name}.csr`);
  const cert = path.join(authority.dir, `${name}.pem`);
  openssl('req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
    '-keyout', key, '-out', csr, '-subj', `/CN=${name}`, '-addext', `subjectAltName=${names}`);
  openssl('ca', '-batch', '-config', path.join(authority.dir, 'ca.cnf'), '-cert', authority.cert,
    '-keyfile', authority.key, '-in', csr, '-out', cert, '-notext', '-startdate', start, '-enddate', end);
  return { cert, key };
}

const stamp = (date) => date.toISOString().replace(/[-:T]/g, '').slice(0, 14) + 'Z';

export function makeTestCertificates(dir) {
  fs.rmSync(dir, { recursive: true, force: true });
  const now = Date.now();
  const day = 24 * 3600 * 1000;
  const from = stamp(new Date(now - day));
  const until = stamp(new Date(now + 30 * day));
  const trusted = makeAuthority(path.join(dir, 'trusted'), 'Sluice Test CA');
  const other = makeAuthority(path.join(dir, 'other'), 'Sluice Untrusted CA');
  return {
    ca: trusted.cert,
    caDir: trusted.dir,
    good: issue(trusted, 'good', 'IP:127.0.0.1,DNS:localhost', from, until),
    expired: issue(trusted, 'expired', 'IP:127.0.0.1,DNS:localhost',
      stamp(new Date(now - 60 * day)), stamp(new Date(now - 30 * day))),
    wrongHost: issue(trusted, 'elsewhere', 'DNS:elsewhere.example', from, until),
    untrusted: issue(other, 'untrusted', 'IP:127.0.0.1,DNS:localhost', from, until),
  };
}
