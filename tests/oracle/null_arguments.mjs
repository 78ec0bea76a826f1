// Every scalar and aggregate function DuckDB has, called by Sluice with NULL arguments: untyped
// NULLs and NULLs of each overload's parameter types, at each overload's arity. Sluice must never
// crash or fail with an INTERNAL error on them (list_concat(NULL, NULL) once ended the process),
// and where both engines answer, Sluice's answer must be DuckDB's. A function Sluice lacks is a
// clear error and passes here. The statements run in batches, one shell per batch
// (sluice_batch.mjs).
//
//   node tests/oracle/null_arguments.mjs SLUICE
import { DuckDBInstance } from '@duckdb/node-api';
import { sluiceAnswers } from './sluice_batch.mjs';
import { NULL } from './sluice_cli.mjs';

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

const all = [...statements];
const failures = [];
let compared = 0, sluiceErrors = 0;
const answers = sluiceAnswers(sluice, all, [], 250);
for (let i = 0; i < all.length; i++) {
  const answer = answers[i];
  if (answer.crashed || (answer.error && /INTERNAL/.test(answer.error))) {
    failures.push(`${all[i]}: ${answer.error}`);
  }
  if (answer.error) { sluiceErrors++; continue; }
  const expected = await duckAnswer(all[i]);
  if (expected === null) continue;
  compared++;
  const value = answer.rows.length === 2 ? answer.rows[1][0] : JSON.stringify(answer.rows);
  if (expected !== value) failures.push(`${all[i]}: ${JSON.stringify(value)}, DuckDB ${JSON.stringify(expected)}`);
}
for (const failure of failures) console.log(`FAIL ${failure}`);
console.log(`${all.length} calls with NULL arguments: ${compared} answered by both engines, ` +
  `${sluiceErrors} errors in Sluice (functions it lacks or refuses), ${failures.length} failures`);
process.exit(failures.length ? 1 : 0);
