// Throughput of Sluice's TPC-H generator writing lineitem: rows/s and MB/s to Parquet and to
// CSV at each scale factor, with the process's peak memory beside the size of the data, to show
// that generation streams (memory stays far below the table).
//
//   node bench/dbgen_throughput.mjs [--sf 1,10] [--threads N] [--dir DIR]
//
// Each configuration runs `sluice gen-tpch` once under /usr/bin/time (peak RSS); the files are
// deleted afterwards. Rows in memory are about 130 bytes each (16 columns of 8-16 byte slots).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const option = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const scaleFactors = option('--sf', '1,10').split(',').map(Number);
const threads = Number(option('--threads', cpus().length));
const dir = option('--dir', join(root, 'build', 'bench-data', 'dbgen_throughput'));
const sluice = join(root, 'build', 'sluice');

console.log(`sluice gen-tpch --tables lineitem, ${threads} threads\n`);
console.log('| SF | format | rows | file MB | seconds | M rows/s | MB/s | peak RSS MB | RSS / file |');
console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|');
for (const sf of scaleFactors) {
  for (const format of ['parquet', 'csv']) {
    const out = join(dir, `sf${sf}_${format}`);
    fs.rmSync(out, { recursive: true, force: true });
    const run = spawnSync('/usr/bin/time', ['-f', 'peak_kb=%M', sluice, 'gen-tpch', '--sf', String(sf),
      '--out', out, '--tables', 'lineitem', '--format', format, '--threads', String(threads)],
    { encoding: 'utf8' });
    if (run.status !== 0) {
      console.error(run.stdout, run.stderr);
      process.exit(1);
    }
    // gen-tpch's summary: table, rows, "rows", files, "file", MB, "MB", seconds, "s", ...
    const fields = run.stdout.trim().split(/\s+/);
    const rows = Number(fields[1]);
    const seconds = Number(fields[7]);
    const bytes = fs.statSync(join(out, `lineitem.${format}`)).size;
    const peakMb = Number(/peak_kb=(\d+)/.exec(run.stderr)[1]) / 1024;
    const fileMb = bytes / 1e6;
    console.log(`| ${sf} | ${format} | ${rows.toLocaleString('en-US')} | ${fileMb.toFixed(0)} | ` +
      `${seconds.toFixed(1)} | ${(rows / seconds / 1e6).toFixed(2)} | ${(fileMb / seconds).toFixed(1)} | ` +
      `${peakMb.toFixed(0)} | ${(peakMb / fileMb).toFixed(3)} |`);
    fs.rmSync(out, { recursive: true, force: true });
  }
}
