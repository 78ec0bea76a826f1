// SUMMARIZE against DuckDB's on the same table: the same columns, and per summarized column the same name, type, min, max, avg, std, count and
// null_percentage. approx_unique (HyperLogLog in both, hashed differently) must be within 10%
// of the exact distinct count, and the quartiles, exact in Sluice (quantile_disc) where
// DuckDB's are approximations, must be values the column holds, in order.
//
//   node summarize.mjs SLUICE
import { DuckDBInstance } from '@duckdb/node-api';
import { NULL, sluiceRows } from './sluice_cli.mjs';

const [sluice] = process.argv.slice(2);
const instance = await DuckDBInstance.create(':memory:');
const duck = await instance.connect();
const failures = [];
const check = (ok, what) => { console.log(`${ok ? 'ok' : 'FAIL'} ${what}`); if (!ok) failures.push(what); };

const table = `CREATE TABLE t AS SELECT i, i % 7 AS g, 'x' || (i % 13) AS s,
  DATE '2020-01-01' + (i % 100)::INT AS d,
  CASE WHEN i % 5 = 0 THEN NULL ELSE i * 1.5 END AS f, (i % 3)::DECIMAL(10,2) AS dec,
  i % 2 = 0 AS b, CASE WHEN i % 4 = 0 THEN NULL ELSE (i % 50)::DOUBLE / 8 END AS dbl
  FROM range(5000) t(i)`;
await duck.run(table);
const reader = await duck.runAndReadAll('SUMMARIZE t');
const duckNames = reader.columnNames();
const duckRows = reader.getRowsJS();
const ours = sluiceRows(sluice, `${table}; SUMMARIZE t`);
// The CREATE's count, then SUMMARIZE's header and rows.
const header = ours[2];
const rows = ours.slice(3);
check(JSON.stringify(header) === JSON.stringify(duckNames), `the columns are DuckDB's: ${header.join(', ')}`);
check(rows.length === duckRows.length, `one row per column (${rows.length})`);
const column = (name) => header.indexOf(name);
const text = (value) => value === null ? NULL : typeof value === 'object' && 'toString' in value ? value.toString() : String(value);
const close = (a, b) => {
  if (a === b) return true;
  const x = Number(a), y = Number(b);
  return Number.isFinite(x) && Number.isFinite(y) && Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(y));
};
for (const [r, duckRow] of duckRows.entries()) {
  const row = rows[r];
  const name = duckRow[0];
  for (const field of ['column_name', 'column_type', 'min', 'max', 'std', 'count', 'null_percentage']) {
    const expected = text(duckRow[column(field)]);
    const actual = row[column(field)];
    check(close(actual, expected), `${name}.${field}: ${actual} (DuckDB ${expected})`);
  }
  // avg: DuckDB gives dates an average timestamp; Sluice averages numbers only.
  const duckAvg = text(duckRow[column('avg')]);
  const avg = row[column('avg')];
  check(close(avg, duckAvg) || (avg === NULL && /^\d{4}-/.test(duckAvg)), `${name}.avg: ${avg} (DuckDB ${duckAvg})`);
  const exact = Number((await duck.runAndReadAll(`SELECT count(DISTINCT "${name}") FROM t`)).getRowsJS()[0][0]);
  const approx = Number(row[column('approx_unique')]);
  check(Math.abs(approx - exact) <= 0.1 * exact, `${name}.approx_unique: ${approx} (exactly ${exact})`);
  const quartiles = ['q25', 'q50', 'q75'].map((q) => row[column(q)]);
  if (quartiles[0] !== NULL) {
    const held = (await duck.runAndReadAll(`SELECT count(*) FROM t WHERE CAST("${name}" AS VARCHAR) IN ('${quartiles.join("','")}')`)).getRowsJS()[0][0];
    const ordered = (await duck.runAndReadAll(`SELECT CAST('${quartiles[0]}' AS ${duckRow[1]}) <= CAST('${quartiles[1]}' AS ${duckRow[1]}) AND CAST('${quartiles[1]}' AS ${duckRow[1]}) <= CAST('${quartiles[2]}' AS ${duckRow[1]})`)).getRowsJS()[0][0];
    check(Number(held) > 0 && ordered, `${name} quartiles ${quartiles.join(' ')} are values of the column, in order`);
  } else {
    check(text(duckRow[column('q25')]) === NULL, `${name} has no quartiles, as in DuckDB`);
  }
}
if (failures.length) {
  console.error(`${failures.length} checks failed`);
  process.exit(1);
}
