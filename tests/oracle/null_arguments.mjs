// Every scalar and aggregate function DuckDB has, called by Sluice with NULL arguments: untyped
// NULLs and NULLs of each overload's parameter types, at each overload's arity. Sluice must never
// crash or fail with an INTERNAL error on them (list_concat(NULL, NULL) once ended the process),
// and where both engines answer, Sluice's answer must be DuckDB's. A function Sluice lacks is a
// clear error and passes here. The statements run in batches, one shell per batch; a batch that
// crashes is run again a statement at a time to name the culprit.
//
//   node tests/oracle/null_arguments.mjs SLUICE
import { DuckDBInstance } from '@duckdb/node-api';
import { spawnSync } from 'node:child_process';
import { NULL, parseCsv } from './sluice_cli.mjs';

const sluice = process.argv[2];
const instance = await DuckDBInstance.create(':memory:');
const duck = await instance.connect();

// Functions whose answer is not a function of their arguments, or that act on the session.
const skipped = new Set(['random', 'uuid', 'gen_random_uuid', 'uuidv4', 'uuidv7', 'setseed', 'now',
  'current_timestamp', 'get_current_timestamp', 'transaction_timestamp', 'current_time', 'current_date',
  'today', 'get_current_time', 'txid_current', 'current_setting', 'current_query', 'getvariable',
  'sleep_ms', 'version', 'pragma_version', 'current_database', 'current_schema', 'current_schemas',
  'current_catalog', 'current_user', 'session_user', 'user', 'nextval', 'currval', 'checkpoint',
  'force_checkpoint', 'error', 'getenv', 'bit_count']);
const reader = await duck.runAndReadAll(`
  SELECT DISTINCT function_name, function_type, parameter_types::VARCHAR[] AS types, varargs
  FROM duckdb_functions()
  WHERE function_type IN ('scalar', 'aggregate') AND function_name NOT LIKE '\\_\\_%' ESCAPE '\\'
    AND function_name SIMILAR TO '[a-z_][a-z0-9_]*'
  ORDER BY ALL`);
const statements = new Set();
for (const [name, , types, varargs] of reader.getRows()) {
  if (skipped.has(name)) continue;
  const parameterTypes = types.items ?? types;
  const arity = parameterTypes.length;
  statements.add(`SELECT ${name}(${Array(arity).fill('NULL').join(', ')}) AS v`);
  if (varargs) statements.add(`SELECT ${name}(${Array(arity + 2).fill('NULL').join(', ')}) AS v`);
  const typed = parameterTypes.filter((t) => !/ANY|TEMPLATE|T\b|\$|LAMBDA|UNKNOWN|TABLE/.test(t));
  if (typed.length === arity && arity > 0) {
    statements.add(`SELECT ${name}(${parameterTypes.map((t) => `NULL::${t}`).join(', ')}) AS v`);
  }
}

// DuckDB's answer: the value's text, or null when it fails.
async function duckAnswer(sql) {
  try {
    const rows = (await duck.runAndReadAll(`SELECT v::VARCHAR FROM (${sql})`)).getRows();
    return rows.length === 1 ? (rows[0][0] === null ? NULL : String(rows[0][0])) : null;
  } catch {
    return null;
  }
}

// Sluice's answers to a batch: per statement, { value } or { error }; crashed when the shell died.
function sluiceAnswers(batch) {
  const script = ['.mode csv', `.nullvalue ${NULL}`];
  batch.forEach((sql, i) => script.push(`SELECT 'statement ${i}' AS marker;`, `${sql};`));
  const run = spawnSync('bash', ['-c', `"${sluice}" 2>&1`], { input: script.join('\n') + '\n',
    encoding: 'utf8', maxBuffer: 1 << 28, timeout: 600_000 });
  const answers = batch.map(() => ({ error: 'no output' }));
  const parts = run.stdout.split(/^marker\nstatement (\d+)\n/m);
  for (let p = 1; p < parts.length; p += 2) {
    const text = parts[p + 1];
    const records = parseCsv(text);
    answers[Number(parts[p])] = records.length === 2 && records[0][0] === 'v' && !/Error/.test(text)
      ? { value: records[1][0] } : { error: text.trim().split('\n')[0] };
  }
  return { answers, crashed: run.status !== 0 && run.status !== 1 || run.signal !== null, run };
}

const all = [...statements];
const failures = [];
let compared = 0, sluiceErrors = 0;
for (let start = 0; start < all.length; start += 250) {
  const batch = all.slice(start, start + 250);
  let { answers, crashed } = sluiceAnswers(batch);
  if (crashed) {
    answers = batch.map((sql) => {
      const one = sluiceAnswers([sql]);
      if (one.crashed) failures.push(`${sql}: the process ended (${one.run.signal ?? `status ${one.run.status}`})`);
      return one.answers[0];
    });
  }
  for (let i = 0; i < batch.length; i++) {
    const answer = answers[i];
    if (answer.error && /INTERNAL/.test(answer.error)) failures.push(`${batch[i]}: ${answer.error}`);
    if (answer.error) { sluiceErrors++; continue; }
    const expected = await duckAnswer(batch[i]);
    if (expected === null) continue;
    compared++;
    if (expected !== answer.value) failures.push(`${batch[i]}: ${JSON.stringify(answer.value)}, DuckDB ${JSON.stringify(expected)}`);
  }
}
for (const failure of failures) console.log(`FAIL ${failure}`);
console.log(`${all.length} calls with NULL arguments: ${compared} answered by both engines, ` +
  `${sluiceErrors} errors in Sluice (functions it lacks or refuses), ${failures.length} failures`);
process.exit(failures.length ? 1 : 0);
