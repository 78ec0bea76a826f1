// TPC-H Parquet files made by Sluice's own generator (CALL dbgen), cached in a directory with a
// DONE marker naming the scale factor, so repeated test and benchmark runs reuse them.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const TPCH_TABLES = ['part', 'supplier', 'partsupp', 'customer', 'orders', 'lineitem',
  'nation', 'region'];

export function generateTpch(sluice, sf, dir) {
  const done = path.join(dir, 'DONE');
  const marker = `sluice dbgen sf=${sf}`;
  if (fs.existsSync(done) && fs.readFileSync(done, 'utf8') === marker) return;
  fs.rmSync(dir, { recursive: true, force: true });
  execFileSync(sluice, ['-c', `CALL dbgen(sf = ${sf}, path = '${dir}')`], { stdio: 'ignore' });
  fs.writeFileSync(done, marker);
}

// CREATE VIEW statements naming each table's Parquet file like the TPC-H table.
export function tpchViews(dir) {
  return TPCH_TABLES.map((t) =>
    `create view ${t} as select * from read_parquet('${path.join(dir, t + '.parquet')}');`).join('\n');
}
