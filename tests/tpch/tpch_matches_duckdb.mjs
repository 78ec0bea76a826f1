// TPC-H queries over the same Parquet (or, with --format csv, CSV) files made by Sluice's CALL
// dbgen, in Sluice and in DuckDB (the oracle): the results must be identical, DECIMALs exactly and
// DOUBLEs to 1e-9 relative. Over CSV both engines sniff the files (prices become DOUBLE). With
// --tbl DIR the data is instead TPC's own dbgen output (DIR/*.tbl), loaded as tables by each
// engine (typed as Sluice's generator types them).
// Usage: node tpch_matches_duckdb.mjs <sluice> <data directory> <scale factor>
//          [--format csv | --tbl DIR] <query files...>
import { DuckDBInstance } from '@duckdb/node-api';
import fs from 'node:fs';
import path from 'node:path';
import { NULL, sluiceRows } from '../oracle/sluice_cli.mjs';
import { generateTpch, tblTables, tpchViews } from './generate.mjs';

const [sluice, dataDir, sf, ...rest] = process.argv.slice(2);
let format = 'parquet';
let tblDir = null;
if (rest[0] === '--format') {
  format = rest[1];
  rest.splice(0, 2);
}
if (rest[0] === '--tbl') {
  tblDir = rest[1];
  rest.splice(0, 2);
}
const queries = rest;
let views;
if (tblDir && !fs.existsSync(tblDir)) {
  console.log(`skipped: no dbgen output at ${tblDir}`);
  process.exit(77);
}
if (tblDir) {
  views = tblTables(sluice, tblDir);
} else {
  generateTpch(sluice, sf, dataDir, format);
  views = tpchViews(dataDir, format);
}

const db = await DuckDBInstance.create(':memory:');
const duck = await db.connect();
// DuckDB reads the files once, into tables; each Sluice run reads them through the views.
await duck.run(views.replaceAll('create view ', 'create table '));

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
  // The result types from preparing the query; the query run once, each value as DuckDB's own
  // text rendering (what Sluice prints) under the query's column names (COLUMNS keeps them).
  const query = sql.replace(/;\s*$/, '');
  const prepared = await duck.prepare(query);
  const types = Array.from({ length: prepared.columnCount }, (_, i) => prepared.columnType(i).toString());
  const textReader = await duck.runAndReadAll(`select columns(*)::varchar from (${query})`);
  const expectedText = [textReader.columnNames(), ...textReader.getRows().map((row) =>
    row.map((v) => (v === null ? NULL : String(v))))];
  let actual;
  try {
    actual = sluiceRows(sluice, views + '\n' + sql);
    // CREATE TABLE ... AS reports its row count first.
    while (tblDir && actual.length > 2 && actual[0].length === 1 && actual[0][0] === 'Count') {
      actual.splice(0, 2);
    }
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
