// Runs the records of Sluice's sqllogictest files on DuckDB, so every expected result in them is
// DuckDB's answer too and not something we made up. Records marked `onlyif sluice` (Sluice's own
// settings and functions) are skipped here and run only by the sqllogictest runner.
//
//   node check_test_files.mjs tests/sql
import { DuckDBInstance } from '@duckdb/node-api';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function testFiles(directory) {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return name.endsWith('.test') ? [path] : [];
  });
}

// The same record grammar as tests/sqllogic/test_file.cpp, including loops.
function parseRecords(text) {
  const lines = text.split('\n').map((line) => line.replace(/\r$/, ''));
  const records = [];
  let onlyIf = '', skipIf = '';
  for (let i = 0; i < lines.length;) {
    const line = lines[i];
    if (!line.trim() || line.startsWith('#')) { i++; continue; }
    const words = line.trim().split(/\s+/);
    if (words[0] === 'onlyif') { onlyIf = words[1]; i++; continue; }
    if (words[0] === 'skipif') { skipIf = words[1]; i++; continue; }
    const record = { kind: words[0], line: i + 1, words, onlyIf, skipIf, sql: '', expected: [] };
    onlyIf = skipIf = '';
    i++;
    if (record.kind === 'statement' || record.kind === 'query') {
      const sql = [];
      while (i < lines.length && lines[i].trim() && lines[i] !== '----') sql.push(lines[i++]);
      record.sql = sql.join('\n');
      if (lines[i] === '----') {
        i++;
        while (i < lines.length && lines[i].trim()) record.expected.push(lines[i++]);
      }
    }
    records.push(record);
  }
  return records;
}

function render(value) {
  if (value === null) return 'NULL';
  if (typeof value === 'bigint') return value.toString();
  return value === '' ? '(empty)' : value;
}

async function runRecords(connection, records, variables, file) {
  let failures = 0, checked = 0;
  for (let r = 0; r < records.length; r++) {
    const record = records[r];
    if (record.kind === 'loop') {
      let depth = 1, close = r + 1;
      for (; close < records.length && depth > 0; close++) {
        if (records[close].kind === 'loop') depth++;
        if (records[close].kind === 'endloop') depth--;
      }
      const [, name, from, to] = record.words;
      for (let v = Number(from); v < Number(to); v++) {
        const result = await runRecords(connection, records.slice(r + 1, close - 1), { ...variables, [name]: String(v) }, file);
        failures += result.failures; checked += result.checked;
      }
      r = close - 1;
      continue;
    }
    if (record.kind !== 'statement' && record.kind !== 'query') continue;
    if (record.onlyIf === 'sluice' || record.skipIf === 'duckdb') continue;
        const substitute = (text) => text.replace(/\$\{(\w+)\}/g, (_, name) => variables[name] ?? '')
      .replaceAll('__TEST_DIR__', testDir);
    const sql = substitute(record.sql);
    const where = `${file}:${record.line}`;
    checked++;
    // A text of several statements: DuckDB runs all; the last one's result counts.
    const statements = sql.split(';').map((s) => s.trim()).filter(Boolean);
    let error = null, rows = null;
    try {
      for (const statement of statements.slice(0, -1)) await connection.run(statement);
      const last = statements[statements.length - 1];
      if (record.kind === 'query') {
        // Queries are wrapped to read every value as text; INSERT and CREATE ... AS report
        // their row count, which reads as is.
        const isQuery = /^\s*(select|with|values|from|\()/i.test(last);
        const reader = await connection.runAndReadAll(
          isQuery ? `SELECT COLUMNS(*)::VARCHAR FROM (${last})` : last);
        rows = reader.getRows().map((row) => row.map(render));
      } else {
        await connection.run(last);
      }
    } catch (e) {
      error = e.message;
    }
    const expectError = record.kind === 'statement' && record.words[1] === 'error';
    if (record.kind === 'statement') {
      const expectedMessage = record.expected.map(substitute).join('\n');
      if (expectError !== (error !== null)) {
        failures++;
        console.log(`${where}: DuckDB ${error ? `failed: ${error}` : 'succeeded'} where the test expects ${expectError ? 'an error' : 'success'}`);
      } else if (expectError && expectedMessage && !error.includes(expectedMessage)) {
        failures++;
        console.log(`${where}: DuckDB's error does not contain "${expectedMessage}":\n  ${error}`);
      }
      continue;
    }
    if (error) {
      failures++;
      console.log(`${where}: DuckDB failed: ${error}`);
      continue;
    }
    let expected = record.expected.flatMap((line) => substitute(line).split('\t'));
    let actual = rows.flat();
    const sort = record.words[2];
    if (sort === 'rowsort' || sort === 'valuesort') {
      const columns = record.words[1].length;
      const group = (values) => sort === 'valuesort' ? values.map((v) => [v])
        : Array.from({ length: values.length / columns }, (_, k) => values.slice(k * columns, (k + 1) * columns));
      const key = (rowValues) => JSON.stringify(rowValues);
      expected = group(expected).sort((a, b) => key(a) < key(b) ? -1 : 1).flat();
      actual = group(actual).sort((a, b) => key(a) < key(b) ? -1 : 1).flat();
    }
    if (JSON.stringify(expected) !== JSON.stringify(actual)) {
      failures++;
      console.log(`${where}: DuckDB returns ${JSON.stringify(actual)}, the test expects ${JSON.stringify(expected)}`);
    }
  }
  return { failures, checked };
}

const root = process.argv[2];
const testDir = mkdtempSync(join(tmpdir(), 'sluice_duckdb_check_'));
let failures = 0, checked = 0;
for (const file of testFiles(root).sort()) {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const result = await runRecords(connection, parseRecords(readFileSync(file, 'utf8')), {}, file);
  failures += result.failures; checked += result.checked;
}
console.log(`${checked - failures} of ${checked} records agree with DuckDB`);
process.exit(failures === 0 && checked > 0 ? 0 : 1);
