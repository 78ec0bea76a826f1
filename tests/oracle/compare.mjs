// Compares Sluice with DuckDB, the independent oracle, expression by expression: the derived
// column name and result type (DESCRIBE), the value's text and NULL-ness, or the kind of error.
//
//   node compare.mjs path/to/sluice expressions.sql
//
// expressions.sql holds one SQL expression per line ('--' lines are comments).
import { DuckDBInstance } from '@duckdb/node-api';
import { readFileSync } from 'node:fs';
import { sluiceAnswers as sluiceAnswersOf } from './sluice_batch.mjs';

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

// Each expression's name and type (DESCRIBE), then its NULL-ness and text: two statements, all
// of them run in a few shells (sluice_batch.mjs) rather than a shell per expression.
const sluiceStatements = expressions.flatMap((expression) =>
  [`DESCRIBE SELECT ${expression}`, `SELECT (${expression}) IS NULL, CAST((${expression}) AS VARCHAR)`]);
const sluiceAnswers = sluiceAnswersOf(sluice, sluiceStatements);

function sluiceAnswer(index) {
  const [described, value] = sluiceAnswers.slice(2 * index, 2 * index + 2);
  const failed = described.error ?? value.error;
  if (failed) return { error: errorKind(failed) };
  // DESCRIBE's header and one row, then the value query's header and one row.
  if (described.rows.length !== 2 || value.rows.length !== 2) {
    return { error: `unexpected output: ${JSON.stringify([described.rows, value.rows])}` };
  }
  const isNull = value.rows[1][0] === 'true';
  return { name: described.rows[1][0], type: described.rows[1][1], isNull, value: isNull ? '' : value.rows[1][1] };
}

const instance = await DuckDBInstance.create(':memory:');
const connection = await instance.connect();
let failures = 0;
for (const [index, expression] of expressions.entries()) {
  const expected = await duckdbAnswer(connection, expression);
  const actual = sluiceAnswer(index);
  const same = JSON.stringify(expected) === JSON.stringify(actual);
  if (!same) {
    failures++;
    console.log(`MISMATCH  ${expression}\n  duckdb: ${JSON.stringify(expected)}\n  sluice: ${JSON.stringify(actual)}`);
  }
}
console.log(`${expressions.length - failures} of ${expressions.length} expressions match DuckDB`);
process.exit(failures === 0 && expressions.length > 0 ? 0 : 1);
