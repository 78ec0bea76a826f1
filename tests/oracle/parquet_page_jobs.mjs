// Page-level jobs: files of one huge row group, cut into jobs at page boundaries (from the offset
// index Sluice writes, or, for a local file without one, from its page headers), give DuckDB's
// results at 1, 2 and 4 threads (2 for the file without an index), on local files and over nginx; the cut is visible in EXPLAIN
// ANALYZE and the scan never holds the whole group at once. Filters on the sorted column skip
// pages by the column index.
//
//   node parquet_page_jobs.mjs SLUICE WORK_DIR
import { DuckDBInstance } from '@duckdb/node-api';
import { NULL, sluiceRows } from './sluice_cli.mjs';
import { startNginx } from '../http/nginx_server.mjs';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

const [sluice, workDir] = process.argv.slice(2);
rmSync(workDir, { recursive: true, force: true });
mkdirSync(workDir, { recursive: true });

// 2.5M rows in one row group: about 45 MB, so that a 60 MB memory limit cuts it into jobs of
// one 8 MiB request each.
const ROWS = 2_500_000;
const select = `SELECT range AS id, CAST(range % 97 AS INTEGER) AS k,
    CASE WHEN range % 11 = 0 THEN NULL ELSE (range * 7919) % 1000003 END AS v,
    CASE WHEN range % 13 = 0 THEN NULL ELSE 'name-' || (range % 5000) END AS s,
    'row ' || range AS unique_s, (range % 1000) / 8.0 AS d
  FROM range(${ROWS})`;
const files = { indexed: 'indexed.parquet', unindexed: 'unindexed.parquet' };
sluiceRows(sluice, `COPY (${select}) TO '${join(workDir, files.indexed)}'
  (FORMAT parquet, ROW_GROUP_SIZE 10000000)`);
sluiceRows(sluice, `COPY (${select}) TO '${join(workDir, files.unindexed)}'
  (FORMAT parquet, ROW_GROUP_SIZE 10000000, WRITE_PAGE_INDEX false)`);
const groupBytes = statSync(join(workDir, files.indexed)).size;

const queries = [
  'SELECT count(*), sum(id), sum(k), sum(v), count(s), min(unique_s), max(unique_s), sum(d) FROM F',
  'SELECT k, count(*), sum(v), max(s) FROM F WHERE v > 500000 GROUP BY k ORDER BY k',
  'SELECT file_row_number, id, s, v FROM read_parquet(P, file_row_number = true) WHERE id BETWEEN 1234567 AND 1240000 AND k < 50 ORDER BY 1',
  "SELECT count(*), sum(file_row_number), min(id), max(id) FROM read_parquet(P, file_row_number = true) WHERE s IN ('name-17', 'name-4999') OR v < 1000",
  'SELECT id, unique_s FROM F ORDER BY v DESC NULLS LAST, id LIMIT 5',
];
const instance = await DuckDBInstance.create(':memory:');
const duck = await instance.connect();
const expected = [];
for (const query of queries) {
  const local = join(workDir, files.indexed);
  const sql = query.replaceAll('FROM F', `FROM read_parquet('${local}')`).replaceAll('P,', `'${local}',`);
  const reader = await duck.runAndReadAll(sql);
  expected.push(reader.getRows().map((row) => row.map((value) => (value === null ? NULL : String(value)))));
}

const server = await startNginx(workDir);
let failures = 0, checks = 0;
const jobsCut = /(\d+) cut into page-level jobs/;
for (const [name, file] of Object.entries(files)) {
  for (const where of ['local', 'http']) {
    const location = where === 'local' ? join(workDir, file) : `${server.url}/${file}`;
    // Thread counts matter for the cut jobs' order; the file without an index differs only in
    // how its pages are found, so two threads suffice there (and keep the test short under ASan).
    for (const threads of name === 'indexed' ? [1, 2, 4] : [2]) {
      const settings = `SET threads = ${threads}; SET memory_limit = '60MB';`;
      queries.forEach((query, i) => {
        const sql = query.replaceAll('FROM F', `FROM read_parquet('${location}')`).replaceAll('P,', `'${location}',`);
        const ours = sluiceRows(sluice, `${settings} ${sql}`).slice(1);
        // DuckDB prints doubles in its own shortest form; compare numbers as numbers.
        const same = ours.length === expected[i].length && ours.every((row, r) => row.every((value, c) => {
          const theirs = expected[i][r][c];
          return value === theirs || (value !== NULL && theirs !== NULL && Number(value) === Number(theirs));
        }));
        checks++;
        if (!same) {
          failures++;
          console.error(`${name} ${where} threads ${threads}: ${sql}\n  Sluice ${JSON.stringify(ours).slice(0, 400)}\n  DuckDB ${JSON.stringify(expected[i]).slice(0, 400)}`);
        }
      });
    }
    // The indexed file is cut wherever it is; the unindexed one only where its headers are local.
    const analyzed = sluiceRows(sluice, `SET threads = 2; SET memory_limit = '60MB'; EXPLAIN ANALYZE ${queries[0].replaceAll('FROM F', `FROM read_parquet('${location}')`)}`).flat().join('\n');
    const cut = Number((analyzed.match(jobsCut) || [0, -1])[1]);
    const wantCut = name === 'indexed' || where === 'local';
    const held = analyzed.match(/held max ([0-9.]+) (KiB|MiB|GiB)/);
    const heldBytes = held ? Number(held[1]) * { KiB: 1024, MiB: 1 << 20, GiB: 1 << 30 }[held[2]] : -1;
    checks++;
    if ((cut === 1) !== wantCut || (wantCut && !(heldBytes > 0 && heldBytes < groupBytes * 0.75))) {
      failures++;
      console.error(`${name} ${where}: ${cut} row groups cut, held max ${held ? held[0] : '?'} of a ${groupBytes}-byte group\n${analyzed}`);
    }
  }
}
// The sorted id column's page bounds leave most pages out of a narrow range.
const narrow = sluiceRows(sluice, `EXPLAIN ANALYZE SELECT sum(v) FROM read_parquet('${join(workDir, files.indexed)}') WHERE id BETWEEN 100000 AND 100100`).flat().join('\n');
const skipped = Number((narrow.match(/rows skipped by page index (\d+)/) || [0, 0])[1]);
checks++;
if (!(skipped > ROWS * 0.9)) {
  failures++;
  console.error(`a narrow id range skipped ${skipped} rows by the page index\n${narrow}`);
}
server.stop();
rmSync(workDir, { recursive: true, force: true });
if (failures > 0) {
  console.error(`${failures} of ${checks} checks failed`);
  process.exit(1);
}
console.log(`${checks} checks: page-level jobs give DuckDB's results at 1, 2 and 4 threads, local and over nginx`);
