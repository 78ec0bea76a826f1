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
import { NULL, sluiceRows } from './sluice_cli.mjs';
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

function runSluice(sql) {
  try {
    return { rows: sluiceRows(sluice, sql) };
  } catch (failure) {
    if (failure.status === null && failure.signal) return { crash: `killed by ${failure.signal}` };
    if (failure.status === null) throw failure;
    return { error: clean(String(failure.stderr).trim()) };
  }
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
  const read = (threads, options) => {
    const result = runSluice(`SET threads = ${threads}; SELECT * FROM read_csv(${quoteString(path)}${options})`);
    return JSON.stringify(result.rows ?? result.error ?? result.crash);
  };
  const serial = read(1, ', parallel = false');
  for (const [threads, size] of [[2, 4096], [4, 256]]) {
    if (read(threads, `, buffer_size = ${size}`) !== serial) {
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
  const scan = `read_csv(${quoteString(path)})`;
  const described = runSluice(`DESCRIBE SELECT * FROM ${scan}`);
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
  const read = runSluice(`SELECT * FROM ${scan}`);
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

const results = [];
for (const path of csvFiles(corpus)) {
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
