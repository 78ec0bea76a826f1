// Many statements through one sluice shell: each statement's answer (its CSV rows, header first)
// or its error, told apart by a marker query before each. A batch whose shell dies is run again a
// statement at a time, so that the statement that ended the process is named.
import { spawnSync } from 'node:child_process';
import { NULL, parseCsv } from './sluice_cli.mjs';

function runBatch(sluice, statements, setup) {
  const script = ['.mode csv', `.nullvalue ${NULL}`, ...setup];
  statements.forEach((sql, i) => script.push(`SELECT 'statement ${i}' AS sluice_marker;`, `${sql};`));
  const run = spawnSync('bash', ['-c', `"${sluice}" 2>&1`], { input: script.join('\n') + '\n',
    encoding: 'utf8', maxBuffer: 1 << 28, timeout: 600_000 });
  const answers = statements.map(() => ({ error: 'no answer (the shell ended before it)' }));
  const parts = run.stdout.split(/^sluice_marker\nstatement (\d+)\n/m);
  for (let p = 1; p < parts.length; p += 2) {
    const text = parts[p + 1];
    // An error replaces the statement's answer: it is the first line, not a value in its rows.
    const failed = /^[A-Za-z ]*Error: /.test(text);
    answers[Number(parts[p])] = failed ? { error: text.trim().split('\n')[0] } : { rows: parseCsv(text) };
  }
  const crashed = run.signal !== null || (run.status !== 0 && run.status !== 1);
  return { answers, crashed, how: run.signal ?? `status ${run.status}` };
}

// Answers of `statements` after the `setup` statements (each run first in every shell): per
// statement { rows } (header first) or { error }, and { crashed } where the shell died on it.
export function sluiceAnswers(sluice, statements, setup = [], batchSize = 400) {
  const answers = [];
  for (let start = 0; start < statements.length; start += batchSize) {
    const batch = statements.slice(start, start + batchSize);
    const result = runBatch(sluice, batch, setup);
    if (!result.crashed) {
      answers.push(...result.answers);
      continue;
    }
    for (const sql of batch) {
      const one = runBatch(sluice, [sql], setup);
      answers.push(one.crashed ? { error: `the process ended (${one.how})`, crashed: true } : one.answers[0]);
    }
  }
  return answers;
}
