// Reads every CSV file of DuckDB's own CSV tests (../shared/corpus/csv) with Sluice and with
// DuckDB (the oracle), both sniffing: column names, types and every value as text must agree.
// Every file Sluice reads is also read at 2 and 4 threads in tiny jobs, which must give the rows
// of one thread reading in order.
// The outcome per file is checked against tests/csv/corpus_status.tsv, so that every
// difference, regression or improvement, is visible and recorded there.
//
//   node csv_corpus.mjs SLUICE CORPUS_DIR STATUS_TABLE [--update]
//
// Exits 77 (skipped) when the corpus is not present.
import { DuckDBInstance } from '@duckdb/node-api';
import { NULL } from './sluice_cli.mjs';
import { sluiceAnswers } from './sluice_batch.mjs';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const [sluice, corpusArgument, tablePath, flag] = process.argv.slice(2);
const corpus = resolve(corpusArgument);
if (!existsSync(corpus)) {
  console.log(`SKIPPED: the CSV corpus is not present at ${corpus} (it comes with ../shared)`);
  process.exit(77);
}

function csvFiles(directory) {
  return readdirSync(directory).sort().flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return csvFiles(path);
    return /\.(csv|tsv|txt|gz)$/.test(name) ? [path] : [];
  });
}

const clean = (message) => message.split(corpus).join('<corpus>').split('\n')[0].slice(0, 120);
const quoteString = (text) => `'${text.replaceAll("'", "''")}'`;

// Sluice's answers come from batches of statements in a few shells (sluice_batch.mjs): a shell
// per statement spent most of this test, under AddressSanitizer, starting processes. Each
// statement resets the settings an earlier one of the batch may have made.
const statementsOf = (path) => {
  const scan = `read_csv(${quoteString(path)})`;
  const serial = `SET threads = 1; SELECT * FROM read_csv(${quoteString(path)}, parallel = false)`;
  const parallel = [[2, 4096], [4, 256]].map(([threads, size]) =>
    `SET threads = ${threads}; SELECT * FROM read_csv(${quoteString(path)}, buffer_size = ${size})`);
  return { describe: `RESET threads; DESCRIBE SELECT * FROM ${scan}`, read: `RESET threads; SELECT * FROM ${scan}`, serial, parallel };
};

let answers;
function runSluice(sql) {
  const answer = answers.get(sql);
  if (answer.crashed) return { crash: answer.error };
  if (answer.error) return { error: clean(answer.error) };
  return { rows: answer.rows };
}

const instance = await DuckDBInstance.create(':memory:');
const duck = await instance.connect();

async function runDuck(path) {
  try {
    const scan = `read_csv(${quoteString(path)})`;
    const typed = await duck.runAndReadAll(`DESCRIBE SELECT * FROM ${scan}`);
    const columns = typed.getRows().map(([name, type]) => ({ name, type }));
    const values = await duck.runAndReadAll(`SELECT COLUMNS(*)::VARCHAR FROM ${scan}`);
    const rows = values.getRows().map((row) => row.map((v) => (v === null ? NULL : String(v))));
    return { columns, rows };
  } catch (error) {
    return { error: clean(error.message) };
  }
}

// Sluice's rows read in order on one thread, against 2 and 4 threads with tiny jobs (most rows
// cross a job boundary): they must be the same rows in the same order, or the same error.
function parallelMismatch(path) {
  const read = (sql) => {
    const result = runSluice(sql);
    return JSON.stringify(result.rows ?? result.error ?? result.crash);
  };
  const statements = statementsOf(path);
  const serial = read(statements.serial);
  for (const [i, [threads, size]] of [[2, 4096], [4, 256]].entries()) {
    if (read(statements.parallel[i]) !== serial) {
      return `; ${threads} threads at buffer_size ${size} differ from one thread in order`;
    }
  }
  return '';
}

function outcome(expected, path) {
  const result = readOutcome(expected, path);
  return result.startsWith('Sluice fails (') || result === 'both fail' ? result : result + parallelMismatch(path);
}

function readOutcome(expected, path) {
  const statements = statementsOf(path);
  const described = runSluice(statements.describe);
  if (described.crash) return `Sluice crashes (${described.crash})`;
  if (expected.error && described.error) return 'both fail';
  if (expected.error) return `DuckDB fails (${expected.error}), Sluice reads`;
  if (described.error) return `Sluice fails (${described.error})`;
  const columns = described.rows.slice(1).map(([name, type]) => ({ name, type }));
  const names = (list) => list.map((c) => c.name).join(',');
  const types = (list) => list.map((c) => c.type).join(',');
  if (names(columns) !== names(expected.columns)) {
    return `names differ (DuckDB ${names(expected.columns).slice(0, 60)}; Sluice ${names(columns).slice(0, 60)})`;
  }
  if (types(columns) !== types(expected.columns)) {
    return `types differ (DuckDB ${types(expected.columns)}; Sluice ${types(columns)})`;
  }
  const read = runSluice(statements.read);
  if (read.crash) return `Sluice crashes (${read.crash})`;
  if (read.error) return `Sluice fails reading (${read.error})`;
  const rows = read.rows.slice(1);
  if (rows.length !== expected.rows.length) {
    return `row counts differ (DuckDB ${expected.rows.length}, Sluice ${rows.length})`;
  }
  for (let r = 0; r < rows.length; r++) {
    const a = JSON.stringify(rows[r]), b = JSON.stringify(expected.rows[r]);
    if (a !== b) return `values differ from row ${r + 1} (DuckDB ${b.slice(0, 50)}; Sluice ${a.slice(0, 50)})`;
  }
  return 'identical';
}

const paths = csvFiles(corpus);
const sluiceStatements = paths.flatMap((path) => {
  const { describe, read, serial, parallel } = statementsOf(path);
  return [describe, read, serial, ...parallel];
});
answers = new Map(sluiceAnswers(sluice, sluiceStatements).map((answer, i) => [sluiceStatements[i], answer]));
const results = [];
for (const path of paths) {
  const expected = await runDuck(path);
  results.push([relative(corpus, path), outcome(expected, path)]);
}
const table = ['file\toutcome', ...results.map((r) => r.join('\t'))].join('\n') + '\n';
const counts = {};
for (const [, result] of results) {
  const key = result.replace(/ \(.*$/, '');
  counts[key] = (counts[key] ?? 0) + 1;
}
console.log(`${results.length} files:`, JSON.stringify(counts));
if (flag === '--update') {
  writeFileSync(tablePath, table);
  process.exit(0);
}
const recorded = existsSync(tablePath) ? readFileSync(tablePath, 'utf8') : '';
if (recorded !== table) {
  const before = new Map(recorded.split('\n').slice(1).filter(Boolean).map((l) => l.split('\t')));
  for (const [file, result] of results) {
    if (before.get(file) !== result) console.log(`CHANGED ${file}: ${before.get(file)} -> ${result}`);
  }
  console.log(`outcomes differ from ${tablePath}; rerun with --update to record them`);
  process.exit(1);
}
console.log('every outcome is as recorded');
