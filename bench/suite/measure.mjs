// How the benchmark suite runs one configuration and what it records: wall time of the query
// (the engine's own statement timer), and, sampled every 50 ms from /proc, the process's CPU
// (cores busy), resident memory and, inside the rig's network namespace, the bytes its loopback
// carried (the link's throughput over time).
import { spawn } from 'node:child_process';
import fs from 'node:fs';

export const SAMPLE_MS = 50;
const TICKS_PER_SECOND = 100; // USER_HZ on Linux

function readStat(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime, stime are fields 14 and 15 of stat; rss (pages) is 24 (1-based, with pid and comm).
    return { ticks: Number(fields[11]) + Number(fields[12]), rssPages: Number(fields[21]) };
  } catch {
    return null;
  }
}

// The rig's namespace, by inode: a process counts toward the link only once it is inside (the
// first samples of `ip netns exec` may still see the root namespace's loopback).
function rigNamespace() {
  try {
    return `net:[${fs.statSync('/run/netns/sluice-rig').ino}]`;
  } catch {
    return null;
  }
}

function readLoopbackBytes(pid, namespace) {
  try {
    if (fs.readlinkSync(`/proc/${pid}/ns/net`) !== namespace) return null;
    const line = fs.readFileSync(`/proc/${pid}/net/dev`, 'utf8').split('\n').find((l) => l.trim().startsWith('lo:'));
    return Number(line.split(':')[1].trim().split(/\s+/)[8]); // transmitted bytes
  } catch {
    return null;
  }
}

// Samples a running process until it exits: [{t, cores, rssMB, linkMBps}].
export function sampleProcess(pid, { link = false } = {}) {
  const samples = [];
  const start = Date.now();
  let last = readStat(pid);
  const namespace = link ? rigNamespace() : null;
  let lastBytes = link ? readLoopbackBytes(pid, namespace) : null;
  let lastTime = start;
  const timer = setInterval(() => {
    const now = Date.now();
    const stat = readStat(pid);
    if (!stat || !last) return;
    const seconds = (now - lastTime) / 1000;
    const sample = {
      t: (now - start) / 1000,
      cores: (stat.ticks - last.ticks) / TICKS_PER_SECOND / seconds,
      rssMB: (stat.rssPages * 4096) / 1e6,
    };
    if (link) {
      const bytes = readLoopbackBytes(pid, namespace);
      if (bytes !== null && lastBytes !== null && bytes >= lastBytes) sample.linkMBps = (bytes - lastBytes) / 1e6 / seconds;
      lastBytes = bytes;
    }
    samples.push(sample);
    last = stat;
    lastTime = now;
  }, SAMPLE_MS);
  return { stop: () => { clearInterval(timer); return samples; } };
}

// Summary of samples: mean and peak cores, peak RSS, peak link MB/s, bytes over the link.
export function summarize(samples, seconds) {
  const busy = samples.filter((s) => Number.isFinite(s.cores));
  const link = samples.filter((s) => Number.isFinite(s.linkMBps));
  return {
    meanCores: busy.length ? busy.reduce((a, s) => a + s.cores, 0) / busy.length : NaN,
    peakCores: busy.length ? Math.max(...busy.map((s) => s.cores)) : NaN,
    peakRssMB: samples.length ? Math.max(...samples.map((s) => s.rssMB)) : NaN,
    peakLinkMBps: link.length ? Math.max(...link.map((s) => s.linkMBps)) : NaN,
    linkMB: link.reduce((a, s) => a + (s.linkMBps * SAMPLE_MS) / 1000, 0),
    seconds,
  };
}

// Runs a program (inside the rig's namespace when `inRig`), feeding `input` on stdin, sampling
// it; resolves with its output, exit code and samples.
export function runSampled(program, args, { input = '', inRig = false, env = {} } = {}) {
  const command = inRig ? 'ip' : program;
  const argv = inRig ? ['netns', 'exec', 'sluice-rig', program, ...args] : args;
  return new Promise((resolve) => {
    const child = spawn(command, argv, { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const started = Date.now();
    const sampler = sampleProcess(child.pid, { link: inRig });
    child.on('exit', (code) => {
      const samples = sampler.stop();
      resolve({ code, stdout, stderr, samples, wall: (Date.now() - started) / 1000 });
    });
    child.stdin.end(input);
  });
}

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

// Empties the page cache (root): the next read of any file comes from the (virtual) disk.
export function dropCaches() {
  fs.writeFileSync('/proc/sys/vm/drop_caches', '3');
}
