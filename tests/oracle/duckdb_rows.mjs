// DuckDB's answer to a query in the form sluiceRows gives Sluice's (header, then each value as
// its VARCHAR cast, NULL as the NULL marker), and the first difference between two answers.
import { NULL } from './sluice_cli.mjs';

export async function duckRows(connection, sql) {
  const described = await connection.runAndReadAll(`DESCRIBE ${sql}`);
  const names = described.getRows().map(([name]) => name);
  const reader = await connection.runAndReadAll(`SELECT COLUMNS(*)::VARCHAR FROM (${sql})`);
  return [names, ...reader.getRows().map((row) => row.map((value) => value === null ? NULL : value))];
}

// Null when `actual` equals `expected` (names and values); else where they first differ.
export function sameRows(label, expected, actual) {
  if (expected.length !== actual.length) {
    return `${label}: ${actual.length - 1} rows, expected ${expected.length - 1}`;
  }
  for (let r = 0; r < expected.length; r++) {
    for (let c = 0; c < expected[r].length; c++) {
      if (expected[r][c] !== actual[r][c]) {
        return `${label}: row ${r} column ${expected[0][c]}: ${JSON.stringify(actual[r][c])}, expected ${JSON.stringify(expected[r][c])}`;
      }
    }
  }
  return null;
}
