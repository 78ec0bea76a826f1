// Starts a real S3-compatible server that checks signatures: OpenStack Swift from Debian (proxy
// with the s3api and tempauth middlewares, one account, container and object server on one
// device, memcached), all on 127.0.0.1 and free ports, configured in a fresh temporary directory
// (swift_dir points there, nothing in /etc is used). Credentials: access key "test:tester",
// secret "testing". stop() ends every process (also on exit).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../http/nginx_server.mjs';

export const S3_ACCESS_KEY = 'test:tester';
export const S3_SECRET_KEY = 'testing';

async function waitForPort(port, children, log) {
  for (let i = 0; i < 300; i++) {
    const up = await new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => { socket.end(); resolve(true); });
      socket.on('error', () => resolve(false));
    });
    if (up) return;
    if (children.some((c) => c.exitCode !== null)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`swift did not come up on port ${port}: ${fs.existsSync(log) ? fs.readFileSync(log, 'utf8').slice(-3000) : ''}`);
}

export async function startSwift() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-swift-'));
  const etc = path.join(work, 'etc'), devices = path.join(work, 'srv');
  fs.mkdirSync(etc);
  fs.mkdirSync(path.join(devices, 'd1'), { recursive: true });
  const ports = { account: await freePort(), container: await freePort(), object: await freePort(),
    proxy: await freePort(), memcached: await freePort() };
  fs.writeFileSync(path.join(etc, 'swift.conf'), `[swift-hash]
swift_hash_path_suffix = sluice-test
swift_hash_path_prefix = sluice-test
[storage-policy:0]
name = Policy-0
default = yes
`);
  for (const ring of ['account', 'container', 'object']) {
    const builder = path.join(etc, `${ring}.builder`);
    execFileSync('/usr/bin/swift-ring-builder', [builder, 'create', '4', '1', '1']);
    execFileSync('/usr/bin/swift-ring-builder', [builder, 'add', `r1z1-127.0.0.1:${ports[ring]}/d1`, '1']);
    try {
      execFileSync('/usr/bin/swift-ring-builder', [builder, 'rebalance'], { stdio: 'ignore' });
    } catch (error) {
      if (error.status !== 1) throw error; // 1 is a warning (e.g. one replica)
    }
  }
  const common = (port) => `[DEFAULT]
bind_ip = 127.0.0.1
bind_port = ${port}
workers = 0
devices = ${devices}
mount_check = false
swift_dir = ${etc}
log_level = WARNING
`;
  for (const server of ['account', 'container', 'object']) {
    fs.writeFileSync(path.join(etc, `${server}-server.conf`), `${common(ports[server])}
[pipeline:main]
pipeline = ${server}-server
[app:${server}-server]
use = egg:swift#${server}
`);
  }
  fs.writeFileSync(path.join(etc, 'proxy-server.conf'), `${common(ports.proxy)}
[pipeline:main]
pipeline = catch_errors proxy-logging cache s3api tempauth proxy-logging proxy-server
[app:proxy-server]
use = egg:swift#proxy
account_autocreate = true
[filter:catch_errors]
use = egg:swift#catch_errors
[filter:proxy-logging]
use = egg:swift#proxy_logging
[filter:cache]
use = egg:swift#memcache
memcache_servers = 127.0.0.1:${ports.memcached}
[filter:s3api]
use = egg:swift#s3api
location = us-east-1
# Listings of at most 100 keys a page (S3's is 1,000): continuation is tested with few objects.
max_bucket_listing = 100
[filter:tempauth]
use = egg:swift#tempauth
user_test_tester = ${S3_SECRET_KEY} .admin
`);
  const log = path.join(work, 'servers.log');
  const out = fs.openSync(log, 'a');
  const children = [spawn('/usr/bin/memcached', ['-l', '127.0.0.1', '-p', String(ports.memcached), '-U', '0', '-u', 'root'],
    { stdio: ['ignore', out, out] })];
  for (const server of ['account', 'container', 'object', 'proxy']) {
    children.push(spawn('/usr/bin/python3', [`/usr/bin/swift-${server}-server`, path.join(etc, `${server}-server.conf`)],
      { stdio: ['ignore', out, out], env: { ...process.env, PYTHONPATH: '' } }));
  }
  const stop = () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  };
  process.on('exit', stop);
  try {
    for (const port of Object.values(ports)) await waitForPort(port, children, log);
  } catch (error) {
    stop();
    throw error;
  }
  const endpoint = `http://127.0.0.1:${ports.proxy}`;
  // awscli (Debian's) puts objects and makes buckets for the tests.
  const aws = (...args) => execFileSync('/usr/bin/aws', ['--endpoint-url', endpoint, '--region', 'us-east-1', ...args], {
    encoding: 'utf8', env: { ...process.env, AWS_ACCESS_KEY_ID: S3_ACCESS_KEY, AWS_SECRET_ACCESS_KEY: S3_SECRET_KEY,
      AWS_CONFIG_FILE: '/dev/null', AWS_SHARED_CREDENTIALS_FILE: '/dev/null', PYTHONPATH: '' } });
  return { endpoint, port: ports.proxy, stop, aws, work };
}
