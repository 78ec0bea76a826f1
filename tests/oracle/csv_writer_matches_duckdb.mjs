// COPY ... TO CSV in Sluice and in DuckDB (the oracle) with the same query and options: the two
// files must be byte-identical. Covers every type's text form, NULLs, empty strings, quoting of
// delimiters, quotes and line breaks, and the HEADER / DELIMITER / QUOTE / NULLSTR options.
// Usage: node csv_writer_matches_duckdb.mjs <sluice> <work directory>
import { DuckDBInstance } from '@duckdb/node-api';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const [sluice, work] = process.argv.slice(2);
fs.rmSync(work, { recursive: true, force: true });
fs.mkdirSync(work, { recursive: true });

const values = `SELECT * FROM (VALUES
  (true, 1::TINYINT, -2::SMALLINT, 3::INTEGER, -4::BIGINT, 200::UTINYINT, 60000::USMALLINT,
   4000000000::UINTEGER, 18000000000000000000::UBIGINT, 170141183460469231731687303715884105727::HUGEINT,
   1.5::DECIMAL(4,1), -12345.678::DECIMAL(9,3), 123456789012.34::DECIMAL(18,2),
   -1234567890123456789012.345678::DECIMAL(38,6), 1.0::FLOAT, 0.1::DOUBLE, 'plain',
   DATE '1992-01-01', TIME '12:34:56.789', TIMESTAMP '1998-12-01 23:59:59.123456',
   '2001-02-03 04:05:06.123456789'::TIMESTAMP_NS, INTERVAL 3 DAY, '\\x00\\xFFab'::BLOB,
   'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::UUID),
  (false, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
   -0.0::FLOAT, 1e20::DOUBLE, '', NULL, NULL, NULL, NULL, INTERVAL '1 year 2 months 3 seconds',
   NULL, NULL),
  (NULL, (-128)::TINYINT, 32767::SMALLINT, (-2147483648)::INTEGER, 9223372036854775807::BIGINT, 0::UTINYINT,
   0::USMALLINT, 0::UINTEGER, 0::UBIGINT, -1::HUGEINT, -0.5::DECIMAL(4,1), 0::DECIMAL(9,3),
   -0.01::DECIMAL(18,2), 0.000001::DECIMAL(38,6), 'inf'::FLOAT, 'nan'::DOUBLE, 'a,b "c"
d', DATE '0044-03-15', TIME '00:00:00', TIMESTAMP '1970-01-01 00:00:00', NULL, NULL, ''::BLOB,
   NULL)
) t(b, ti, si, i, bi, ut, us, ui, ub, hi, d1, d2, d3, d4, f, d, s, dt, tm, ts, tns, iv, bl, u)`;

const cases = [
  ['all_types', values, "(HEADER, DELIMITER ',')"],
  ['no_header', values, '(HEADER false)'],
  ['pipe', values, "(HEADER, DELIMITER '|')"],
  ['tab', values, "(DELIMITER '\t')"],
  ['quote', values, "(HEADER, QUOTE '''')"],
  ['nullstr', values, "(HEADER, NULLSTR 'NULL')"],
  ['escape', values, "(HEADER, QUOTE '''', ESCAPE '\\')"],
  ['null_text', `SELECT * FROM (VALUES ('NULL'), (NULL), (''), ('N')) t(s)`, "(HEADER, NULLSTR 'NULL')"],
  ['strings', `SELECT * FROM (VALUES ('x'), (''), (NULL), ('"'), ('a''b'), (' lead'), ('trail '),
     ('semi;colon'), ('line\rbreak'), ('tab\there'), ('ünïcode ✓')) t("odd, ""name""")`, '(HEADER)'],
  ['range', 'SELECT range AS n, range * 0.5 AS half, range::VARCHAR || \'x\' AS s FROM range(5000)', '(HEADER)'],
];

const db = await DuckDBInstance.create(':memory:');
const duck = await db.connect();
let failures = 0;
for (const [name, query, options] of cases) {
  const ours = path.join(work, `${name}.sluice.csv`);
  const theirs = path.join(work, `${name}.duckdb.csv`);
  await duck.run(`COPY (${query}) TO '${theirs}' ${options}`);
  try {
    execFileSync(sluice, ['-c', `COPY (${query}) TO '${ours}' ${options}`], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    console.log(`FAIL ${name}: sluice failed: ${error.stderr}`);
    failures++;
    continue;
  }
  const a = fs.readFileSync(ours), b = fs.readFileSync(theirs);
  if (Buffer.compare(a, b) === 0) {
    console.log(`ok ${name}: ${a.length} identical bytes`);
  } else {
    const lineA = a.toString().split('\n'), lineB = b.toString().split('\n');
    const at = lineA.findIndex((l, i) => l !== lineB[i]);
    console.log(`FAIL ${name}: line ${at + 1} differs:\n  sluice: ${JSON.stringify(lineA[at])}\n  duckdb: ${JSON.stringify(lineB[at])}`);
    failures++;
  }
}
process.exit(failures ? 1 : 0);
