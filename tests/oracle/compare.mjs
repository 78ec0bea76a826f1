// Compares Sluice with DuckDB, the independent oracle, expression by expression: the derived
// column name and result type (DESCRIBE), the value's text and NULL-ness, or the kind of error.
//
//   node compare.mjs path/to/sluice expressions.sql
//
// expressions.sql holds one SQL expression per line ('--' lines are comments).
import { DuckDBInstance } from '@duckdb/node-api';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseCsv } from './sluice_cli.mjs';

const [sluice, expressionsFile] = process.argv.slice(2);
const expressions = readFileSync(expressionsFile, 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('--'));


function errorKind(message) {
  const match = /^([A-Za-z ]+) Error:/.exec(message);
  return match ? match[1] : `unrecognised error: ${message}`;
}

async function duckdbAnswer(connection, expression) {
  try {
    const described = await connection.runAndReadAll(`DESCRIBE SELECT ${expression}`);
    const [name, type] = described.getRows()[0];
    const text = await connection.runAndReadAll(`SELECT CAST((${expression}) AS VARCHAR)`);
    const value = text.getRows()[0][0];
    return { name, type, isNull: value === null, value: value ?? '' };
  } catch (error) {
    return { error: errorKind(error.message) };
  }
}

function sluiceAnswer(expression) {
  const sql = `DESCRIBE SELECT ${expression}; SELECT (${expression}) IS NULL, CAST((${expression}) AS VARCHAR);`;
  let output;
  try {
    output = execFileSync(sluice, ['-csv', '-c', sql], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (failure) {
    return { error: errorKind(String(failure.stderr).trim()) };
  }
  // DESCRIBE's header and one row, then the value query's header and one row.
  const records = parseCsv(output);
  if (records.length !== 4) {
    return { error: `unexpected output: ${JSON.stringify(output)}` };
  }
  const isNull = records[3][0] === 'true';
  return { name: records[1][0], type: records[1][1], isNull, value: isNull ? '' : records[3][1] };
}

const instance = await DuckDBInstance.create(':memory:');
const connection = await instance.connect();
let failures = 0;
for (const expression of expressions) {
  const expected = await duckdbAnswer(connection, expression);
  const actual = sluiceAnswer(expression);
  const same = JSON.stringify(expected) === JSON.stringify(actual);
  if (!same) {
    failures++;
    console.log(`MISMATCH  ${expression}\n  duckdb: ${JSON.stringify(expected)}\n  sluice: ${JSON.stringify(actual)}`);
  }
}
console.log(`${expressions.length - failures} of ${expressions.length} expressions match DuckDB`);
process.exit(failures === 0 && expressions.length > 0 ? 0 : 1);
