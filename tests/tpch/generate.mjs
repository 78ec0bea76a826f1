// TPC-H Parquet (or CSV) files made by Sluice's own generator (CALL dbgen), cached in a directory
// with a DONE marker naming the scale factor and format, so repeated test and benchmark runs reuse
// them.
import { execFileSync } from 'node:child_process';
import { parseCsv } from '../oracle/sluice_cli.mjs';
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

// CREATE TABLE statements loading dbgen's own .tbl files from `dir` (fields ended by '|', no
// header), each column typed as Sluice's generator types it.
export function tblTables(sluice, dir) {
  const described = parseCsv(execFileSync(sluice, ['-csv', '-c',
    `CALL dbgen(sf = 0.001); ${TPCH_TABLES.map((t) => `DESCRIBE ${t};`).join(' ')}`],
  { encoding: 'utf8' }));
  const schemas = {};
  let table = -1;
  for (const row of described) {
    if (row[0] === 'column_name') table++;
    else if (table >= 0) (schemas[TPCH_TABLES[table]] ||= []).push([row[0], row[1]]);
  }
  return TPCH_TABLES.map((t) => {
    const columns = [...schemas[t], ['after_last', 'VARCHAR']].map(([n, ty]) => `'${n}': '${ty}'`);
    return `create table ${t} as select ${schemas[t].map(([n]) => n).join(', ')} from read_csv(` +
      `'${path.join(dir, `${t}.tbl`)}', delim = '|', header = false, columns = {${columns.join(', ')}});`;
  }).join('\n');
}
