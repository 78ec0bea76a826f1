// Reads every file of the Parquet project's test corpus with Sluice and with DuckDB (the
// oracle) and compares, column by column, the type and every value. The outcome per column is
// checked against a table in the repository (tests/parquet/corpus_status.tsv), so any change,
// regression or improvement, is visible and must be recorded there.
//
//   node parquet_corpus.mjs SLUICE CORPUS_DIR STATUS_TABLE [--update]
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
  console.log(`SKIPPED: the Parquet corpus is not present at ${corpus} (it comes with ../shared)`);
  process.exit(77);
}

function parquetFiles(directory) {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return parquetFiles(path);
    return /\.parquet(\.encrypted)?$/.test(name) ? [path] : [];
  });
}


// Sluice's answers come from batches of statements in a few shells (sluice_batch.mjs): a shell
// per statement spent most of this test, under AddressSanitizer, starting processes.
function outcomeOf(answer) {
  if (answer.crashed) return { crash: answer.error };
  if (answer.error) return { error: clean(answer.error) };
  return { rows: answer.rows };
}

// Outcomes must not depend on where the corpus lives.
const clean = (message) => message.split(corpus).join('<corpus>');

const quoteIdentifier = (name) => `"${name.replaceAll('"', '""')}"`;
const quoteString = (text) => `'${text.replaceAll("'", "''")}'`;

// DuckDB's rows of `sql` as text, or null when DuckDB cannot run it.
async function duckText(sql) {
  try {
    const reader = await connection.runAndReadAll(sql);
    return reader.getRows().map(([value]) => value === null ? NULL : value);
  } catch (error) {
    return { failure: error };
  }
}

// With statistics-based skipping in play, filtered reads must still return exactly DuckDB's rows:
// =, <, >=, IS NULL against the value in the middle of the column. DuckDB's rows of each filter
// it can express (a type without ordering it cannot).
async function filterChecks(scan, column, type, values) {
  const present = values.filter((value) => value !== NULL);
  const pivot = present[Math.floor(present.length / 2)];
  const predicates = pivot === undefined ? ['IS NULL'] :
    ['=', '<', '>='].map((op) => `${op} CAST(${quoteString(pivot)} AS ${type})`).concat(['IS NULL']);
  const checks = [];
  for (const predicate of predicates) {
    const where = `${quoteIdentifier(column)} ${predicate}`;
    // Wrapped in CASE so that DuckDB evaluates the predicate row by row: its own statistics
    // pushdown drops NaN rows for "= NaN", which is not what its row-by-row semantics say.
    const expected = await duckText(`SELECT CAST(${quoteIdentifier(column)} AS VARCHAR) FROM ${scan} WHERE CASE WHEN ${where} THEN true ELSE false END`);
    if (Array.isArray(expected)) checks.push({ where, expected, sql: `SELECT ${quoteIdentifier(column)} FROM ${scan} WHERE ${where}` });
  }
  return checks;
}

// The first filter whose rows differ from DuckDB's, or null.
function filtersAgree(checks, answers) {
  for (const check of checks) {
    const ours = answers.get(check.sql);
    const actual = ours.rows ? ours.rows.slice(1).map((row) => row[0]) : null;
    if (!actual || actual.length !== check.expected.length || actual.some((value, i) => value !== check.expected[i])) {
      return `filter differs: WHERE ${check.where} (${ours.error ?? `${actual.length} vs ${check.expected.length} rows`})`;
    }
  }
  return null;
}

// Phase one: DuckDB's answers, and every statement Sluice is to run.
const instance = await DuckDBInstance.create(':memory:');
const connection = await instance.connect();
const plans = [];
const statements = new Set();
for (const file of parquetFiles(corpus).sort()) {
  const scan = `read_parquet(${quoteString(file)})`;
  const plan = { name: relative(corpus, file), scan, describe: `DESCRIBE SELECT * FROM ${scan}`, columns: [] };
  plans.push(plan);
  statements.add(plan.describe);
  try {
    const described = await connection.runAndReadAll(plan.describe);
    plan.duckColumns = described.getRows().map(([column, type]) => ({ column, type }));
  } catch (error) {
    plan.readAll = `SELECT * FROM ${scan}`;
    statements.add(plan.readAll);
    continue;
  }
  for (const { column, type } of plan.duckColumns) {
    const sql = `SELECT ${quoteIdentifier(column)} FROM ${scan}`;
    const expected = await duckText(`SELECT CAST(${quoteIdentifier(column)} AS VARCHAR) FROM ${scan}`);
    // Filters on nested columns are not pushed into the readers: nothing for them to check.
    const nested = /\[\]$|^STRUCT\(|^MAP\(/.test(type);
    const checks = Array.isArray(expected) && !nested ? await filterChecks(scan, column, type, expected) : [];
    plan.columns.push({ column, type, sql, expected, checks });
    statements.add(sql);
    checks.forEach((check) => statements.add(check.sql));
  }
}

// Phase two: Sluice's answers, all at once.
const list = [...statements];
const answers = new Map(sluiceAnswers(sluice, list).map((answer, i) => [list[i], outcomeOf(answer)]));

// Phase three: each column's outcome.
const results = [];
for (const plan of plans) {
  const { name } = plan;
  if (!plan.duckColumns) {
    const ours = answers.get(plan.readAll);
    const outcome = ours.crash ? `CRASH ${ours.crash}` : ours.error ? `both fail (sluice: ${ours.error.replace(/:.*/, '')})`
      : 'DuckDB fails, Sluice reads';
    results.push([name, '*', outcome]);
    continue;
  }
  const described = answers.get(plan.describe);
  if (described.crash) { results.push([name, '*', `CRASH ${described.crash}`]); continue; }
  if (described.error) { results.push([name, '*', `sluice fails: ${described.error}`]); continue; }
  const ourTypes = new Map(described.rows.slice(1).map((row) => [row[0], row[1]]));
  for (const { column, type, sql, expected, checks } of plan.columns) {
    const ours = answers.get(sql);
    if (!Array.isArray(expected)) {
      const error = expected.failure;
      results.push([name, column, ours.crash ? `CRASH ${ours.crash}` : `DuckDB fails (${clean(error.message.split('\n')[0]).slice(0, 60)}), Sluice ${ours.error ? 'fails' : 'reads'}`]);
      continue;
    }
    let outcome;
    if (ours.crash) outcome = `CRASH ${ours.crash}`;
    else if (ours.error) outcome = /not supported/.test(ours.error) ? `unsupported: ${ours.error.replace(/^.*not supported: /, '').replace(/ in column.*/, '')}` : `error: ${ours.error}`;
    else {
      const actual = ours.rows.slice(1).map((row) => row[0]);
      const sameValues = actual.length === expected.length && actual.every((value, i) => value === expected[i]);
      const sameType = ourTypes.get(column) === type;
      if (sameValues && sameType) outcome = filtersAgree(checks, answers) ?? 'identical';
      else if (sameValues) outcome = `type differs (DuckDB ${type}, Sluice ${ourTypes.get(column)})`;
      else {
        const first = actual.findIndex((value, i) => value !== expected[i]);
        outcome = `values differ (${actual.length} vs ${expected.length} rows; first at row ${first}: ${JSON.stringify(actual[first])} vs ${JSON.stringify(expected[first])})`;
      }
    }
    results.push([name, column, outcome]);
  }
}

const header = 'file\tcolumn\toutcome';
const rendered = [header, ...results.map((row) => row.join('\t'))].join('\n') + '\n';
const counts = {};
for (const [, , outcome] of results) {
  const key = outcome.split(/[ :(]/)[0];
  counts[key] = (counts[key] || 0) + 1;
}
console.log(`Parquet corpus: ${results.length} columns: ${Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(', ')}`);
if (flag === '--update') {
  writeFileSync(tablePath, rendered);
  console.log(`wrote ${tablePath}`);
  process.exit(results.some(([, , outcome]) => outcome.startsWith('CRASH')) ? 1 : 0);
}
const recorded = existsSync(tablePath) ? readFileSync(tablePath, 'utf8') : '';
if (recorded === rendered) {
  console.log('matches the recorded table');
  process.exit(0);
}
const before = new Map(recorded.split('\n').slice(1).filter(Boolean).map((line) => {
  const [f, c, ...o] = line.split('\t');
  return [`${f}\t${c}`, o.join('\t')];
}));
for (const [f, c, outcome] of results) {
  const was = before.get(`${f}\t${c}`);
  if (was !== outcome) console.log(`CHANGED ${f} ${c}\n  recorded: ${was}\n  now:      ${outcome}`);
  before.delete(`${f}\t${c}`);
}
for (const key of before.keys()) console.log(`GONE ${key}`);
console.log(`differs from ${tablePath}; rerun with --update once the change is understood`);
process.exit(1);
