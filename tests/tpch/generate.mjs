// TPC-H Parquet (or CSV) files made by Sluice's own generator (CALL dbgen), cached in a directory
// with a DONE marker naming the scale factor and format, so repeated test and benchmark runs reuse
// them.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const TPCH_TABLES = ['part', 'supplier', 'partsupp', 'customer', 'orders', 'lineitem',
  'nation', 'region'];

export function generateTpch(sluice, sf, dir, format = 'parquet') {
  const done = path.join(dir, 'DONE');
  const marker = `sluice dbgen (dbgen 2.14 data) sf=${sf}${format === 'parquet' ? '' : ' ' + format}`;
  if (fs.existsSync(done) && fs.readFileSync(done, 'utf8') === marker) return;
  fs.rmSync(dir, { recursive: true, force: true });
  execFileSync(sluice, ['-c', `CALL dbgen(sf = ${sf}, path = '${dir}', format = '${format}')`],
    { stdio: 'ignore' });
  fs.writeFileSync(done, marker);
}

// CREATE VIEW statements naming each table's file like the TPC-H table (CSV files are sniffed,
// by Sluice and DuckDB alike).
export function tpchViews(dir, format = 'parquet') {
  const reader = format === 'parquet' ? 'read_parquet' : 'read_csv';
  return TPCH_TABLES.map((t) =>
    `create view ${t} as select * from ${reader}('${path.join(dir, `${t}.${format}`)}');`).join('\n');
}
