// Parquet round trips, both ways, with DuckDB as the other party:
//  1. Sluice writes every type (with NULLs) under each codec and several row-group sizes; the
//     rows Sluice reads back and the rows DuckDB reads must equal the query's own rows.
//  2. DuckDB writes the same kinds of columns under each codec and row-group size; Sluice must
//     read exactly what DuckDB reads.
//
//   node parquet_roundtrip.mjs SLUICE WORK_DIR
import { DuckDBInstance } from '@duckdb/node-api';
import { sluiceAnswers } from './sluice_batch.mjs';
import { duckRows, sameRows as same } from './duckdb_rows.mjs';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const [sluice, workDir] = process.argv.slice(2);
rmSync(workDir, { recursive: true, force: true });
mkdirSync(workDir, { recursive: true });
const ROWS = 20000;


// n is NULL on every 11th row; every column derives from it, so every column has NULLs.
const sluiceColumns = `
  n % 3 = 0 AS b,
  CAST(n % 100 AS TINYINT) AS i8,
  CAST(n % 30000 AS SMALLINT) AS i16,
  CAST(n * 7 AS INTEGER) AS i32,
    n * 1000003 AS i64,
  CAST(n % 256 AS UTINYINT) AS u8,
  CAST(n * 3 AS USMALLINT) AS u16,
  CAST(n * 200000 AS UINTEGER) AS u32,
  CAST(n AS UBIGINT) * 900000000000000 AS u64,
  CAST(n AS HUGEINT) * 100000000000000000000 AS i128,
  CAST(n AS FLOAT) / 7 AS f32,
  n / 3 AS f64,
  CAST((n % 100) * 0.01 AS DECIMAL(4,2)) AS d4,
  CAST(n * 0.001 AS DECIMAL(18,3)) AS d18,
  CAST(n * 1.5 AS DECIMAL(38,10)) AS d38,
  CAST(n * -7 AS DECIMAL(20,2)) AS d20,
  DATE '1990-01-01' + n AS dt,
  CAST('1' || (n % 10) || ':' || (10 + n % 50) || ':' || (10 + n % 40) || '.5' AS TIME) AS tm,
    CAST('2020-01-' || (10 + n % 20) || ' 10:' || (10 + n % 50) || ':30.25' AS TIMESTAMP) AS ts,
    CAST('2021-03-' || (10 + n % 20) || ' 11:' || (10 + n % 50) || ':00+02' AS TIMESTAMPTZ) AS tstz,
  CAST('2022-05-' || (10 + n % 20) || ' 12:00:00.123456' || (n % 10) || '07' AS TIMESTAMP_NS) AS tsns,
  'category ' || (n % 5) AS s_low,
  'a longer string value that is not inlined, number ' || n AS s_high,
    CAST('bytes' || (n % 17) AS BLOB) AS bl,
  CAST('0000' || (n % 9) || '000-0000-0000-0000-' || (100000000000 + n) AS UUID) AS id,
  '' AS s_empty`;
const sluiceQuery = `SELECT ${sluiceColumns} FROM (SELECT range + 0 * (1 // (range % 11)) AS n FROM range(${ROWS}))`;

const codecs = ['uncompressed', 'snappy', 'gzip', 'zstd', 'lz4', 'brotli'];
const rowGroupSizes = [1000, 4096, 122880];
const layouts = codecs.flatMap((codec) => rowGroupSizes.map((rows) => ({ codec, rows })));
const failures = [];
const instance = await DuckDBInstance.create(':memory:');
const connection = await instance.connect();
const metadataQueries = (file) => [
  `SELECT row_group_id, row_group_num_rows, row_group_num_columns, column_id, num_values, path_in_schema, type,
          stats_null_count, stats_min_value, stats_max_value, compression, encodings, data_page_offset,
          dictionary_page_offset, total_compressed_size, total_uncompressed_size FROM parquet_metadata('${file}')`,
  `SELECT name, type, type_length, repetition_type, num_children, converted_type, scale, precision
   FROM parquet_schema('${file}')`];
// Sluice's statements go through one shell (tests/oracle/sluice_batch.mjs); an error is a
// failure of its own.
function sluiceBatch(statements) {
  return sluiceAnswers(sluice, statements).map((answer, i) => {
    if (answer.error) failures.push(`${statements[i].slice(0, 80)}...: ${answer.error}`);
    return answer.rows ?? [];
  });
}

// 1. Sluice's files: per layout its COPY, its rows read back and its metadata, in one shell.
const sluiceFile = ({ codec, rows }) => join(workDir, `sluice_${codec}_${rows}.parquet`);
const written = [sluiceQuery];
for (const layout of layouts) {
  const file = sluiceFile(layout);
  written.push(`COPY (${sluiceQuery}) TO '${file}' (FORMAT parquet, COMPRESSION ${layout.codec}, ROW_GROUP_SIZE ${layout.rows})`,
    `SELECT * FROM read_parquet('${file}')`, ...metadataQueries(file));
}
const [expected, ...perLayout] = sluiceBatch(written);
for (const [i, layout] of layouts.entries()) {
  const file = sluiceFile(layout);
  const [, ours, metadata, schema] = perLayout.slice(4 * i, 4 * i + 4);
  const theirs = await duckRows(connection, `SELECT * FROM read_parquet('${file}')`);
  for (const problem of [same(`Sluice reading ${file}`, expected, ours), same(`DuckDB reading ${file}`, expected, theirs)]) {
    if (problem) failures.push(problem);
  }
  for (const [sql, mine] of [[metadataQueries(file)[0], metadata], [metadataQueries(file)[1], schema]]) {
    const problem = same(`${sql.trim().slice(0, 40)}... of ${file}`, await duckRows(connection, sql), mine);
    if (problem) failures.push(problem);
  }
  const groups = await connection.runAndReadAll(`SELECT count(*)::INTEGER FROM parquet_metadata('${file}') WHERE column_id = 0`);
  const expectedGroups = Math.ceil(ROWS / layout.rows);
  if (groups.getRows()[0][0] !== expectedGroups) failures.push(`${file}: ${groups.getRows()[0][0]} row groups, expected ${expectedGroups}`);
}

// 2. DuckDB's own files, read by Sluice in one shell.
const duckColumns = sluiceColumns
  .replace('CAST(n AS HUGEINT) * 100000000000000000000 AS i128', 'CAST(n AS HUGEINT) AS i128_as_double')
  .replace('CAST(n AS FLOAT) / 7 AS f32', 'CAST(n AS FLOAT) / 7::FLOAT AS f32')
  .replace("DATE '1990-01-01' + n AS dt", "DATE '1990-01-01' + CAST(n AS INTEGER) AS dt");
const duckFiles = layouts.map(({ codec, rows }) => join(workDir, `duckdb_${codec}_${rows}.parquet`));
for (const [i, { codec, rows }] of layouts.entries()) {
  await connection.run(`COPY (SELECT ${duckColumns} FROM (SELECT CASE WHEN range % 11 = 0 THEN NULL ELSE range END AS n FROM range(${ROWS}))) TO '${duckFiles[i]}' (FORMAT parquet, COMPRESSION ${codec === 'lz4' ? 'lz4_raw' : codec}, ROW_GROUP_SIZE ${rows})`);
}
const oursOfDuck = sluiceBatch(duckFiles.map((file) => `SELECT * FROM read_parquet('${file}')`));
for (const [i, file] of duckFiles.entries()) {
  const theirs = await duckRows(connection, `SELECT * FROM read_parquet('${file}')`);
  const problem = same(`Sluice reading DuckDB's ${file}`, theirs, oursOfDuck[i]);
  if (problem) failures.push(problem);
}

for (const failure of failures) console.log(`FAIL ${failure}`);
const total = layouts.length;
console.log(`${total} Sluice-written files read back by Sluice and DuckDB, ${total} DuckDB-written files read by Sluice: ${failures.length} failures`);
rmSync(workDir, { recursive: true, force: true });
process.exit(failures.length === 0 ? 0 : 1);
