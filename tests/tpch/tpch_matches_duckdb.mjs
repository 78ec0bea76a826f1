// TPC-H queries over the same Parquet files in Sluice and in DuckDB (the oracle): the results
// must be identical, DECIMALs exactly and DOUBLEs to 1e-9 relative.
// Usage: node tpch_matches_duckdb.mjs <sluice> <data directory> <scale factor> <query files...>
import { DuckDBInstance } from '@duckdb/node-api';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NULL, sluiceRows } from '../oracle/sluice_cli.mjs';

const [sluice, dataDir, sf, ...queries] = process.argv.slice(2);
const here = path.dirname(fileURLToPath(import.meta.url));
execFileSync('node', [path.join(here, 'generate_with_duckdb.mjs'), sf, dataDir], { stdio: 'inherit' });

const tables = ['nation', 'supplier', 'part', 'partsupp', 'customer', 'orders', 'lineitem'];
const views = tables
  .map((t) => `create view ${t} as select * from read_parquet('${path.join(dataDir, t + '.parquet')}');`)
  .join('\n');

const db = await DuckDBInstance.create(':memory:');
const duck = await db.connect();
await duck.run(views);

function sameValue(a, b, type) {
  if (a === b) return true;
  if (type === 'DOUBLE' || type === 'FLOAT') {
    const x = Number(a), y = Number(b);
    return Math.abs(x - y) <= 1e-9 * Math.max(Math.abs(x), Math.abs(y));
  }
  return false;
}

let failures = 0;
for (const file of queries) {
  const sql = fs.readFileSync(file, 'utf8');
  const name = path.basename(file);
  const reader = await duck.runAndReadAll(sql);
  const types = reader.columnTypes().map((t) => t.toString());
  // DuckDB's own text rendering of each value, which is what Sluice prints.
  const columns = reader.columnNames().map((n) => `cast("${n.replace(/"/g, '""')}" as varchar)`);
  const textReader = await duck.runAndReadAll(
    `select ${columns.join(', ')} from (${sql.replace(/;\s*$/, '')})`);
  const expectedText = [reader.columnNames(), ...textReader.getRows().map((row) =>
    row.map((v) => (v === null ? NULL : String(v))))];
  let actual;
  try {
    actual = sluiceRows(sluice, views + '\n' + sql);
  } catch (error) {
    console.log(`FAIL ${name}: sluice failed: ${error.stderr || error.message}`);
    failures++;
    continue;
  }
  let problem = '';
  if (JSON.stringify(actual[0]) !== JSON.stringify(expectedText[0])) {
    problem = `column names ${JSON.stringify(actual[0])} != ${JSON.stringify(expectedText[0])}`;
  } else if (actual.length !== expectedText.length) {
    problem = `${actual.length - 1} rows, DuckDB has ${expectedText.length - 1}`;
  } else {
    for (let r = 1; r < actual.length && !problem; r++) {
      for (let c = 0; c < types.length && !problem; c++) {
        if (!sameValue(actual[r][c], expectedText[r][c], types[c])) {
          problem = `row ${r} column ${actual[0][c]}: ${actual[r][c]} != ${expectedText[r][c]}`;
        }
      }
    }
  }
  if (problem) {
    console.log(`FAIL ${name} (sf ${sf}): ${problem}`);
    failures++;
  } else {
    console.log(`ok ${name} (sf ${sf}): ${actual.length - 1} rows identical`);
  }
}
process.exit(failures ? 1 : 0);
