// Parquet shapes that writers in the wild produce and DuckDB reads: pages compressed as several
// concatenated gzip members, version 2 pages whose values take zero bytes (all NULL; nothing
// to hand a decompressor), and INT96 timestamps outside the range of TIMESTAMP. Each file is
// laid out by tests/parquet/handmade_parquet.mjs; Sluice must read exactly what DuckDB reads.
//
//   node parquet_odd_files.mjs SLUICE WORK_DIR
import { DuckDBInstance } from '@duckdb/node-api';
import { sluiceRows } from './sluice_cli.mjs';
import { duckRows, sameRows } from './duckdb_rows.mjs';
import { Codec, Type, dataPage, plain, writeParquet } from '../parquet/handmade_parquet.mjs';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import zlib from 'node:zlib';

const [sluice, workDir] = process.argv.slice(2);
rmSync(workDir, { recursive: true, force: true });
mkdirSync(workDir, { recursive: true });

// Codecs. `members` splits the input into that many pieces and gzips each on its own, as
// writers that flush a gzip stream per buffer do (RFC 1952 allows a file of several members).
const gzipMembers = (members) => (bytes) => {
  const pieces = [];
  const step = Math.ceil(bytes.length / members);
  for (let i = 0; i < members; i++) pieces.push(zlib.gzipSync(bytes.subarray(i * step, (i + 1) * step)));
  return Buffer.concat(pieces);
};
// Snappy's framing-free format with literals only: a valid stream every decoder must accept.
const snappyLiterals = (bytes) => {
  const varint = [];
  for (let v = bytes.length; ; v >>>= 7) {
    if (v < 0x80) { varint.push(v); break; }
    varint.push((v & 0x7f) | 0x80);
  }
  const parts = [Buffer.from(varint)];
  for (let i = 0; i < bytes.length; i += 65536) {
    const piece = bytes.subarray(i, i + 65536);
    const tag = Buffer.alloc(3);
    tag[0] = 61 << 2; // literal, length - 1 in the next two bytes
    tag.writeUInt16LE(piece.length - 1, 1);
    parts.push(tag, piece);
  }
  return Buffer.concat(parts);
};
const brotli = (bytes) => zlib.brotliCompressSync(bytes);

const range = (n, f) => Array.from({ length: n }, (_, i) => f(i));
const files = [];

// 1. GZIP pages made of several members, in v1 pages (levels and values compressed together)
// and v2 pages (values only), required and optional columns.
{
  const rowsPerPage = 3000, pages = 4;
  const ints = (page) => range(rowsPerPage, (i) => (page * rowsPerPage + i) * 7 - 5000);
  const strings = (page) => range(rowsPerPage, (i) => (i % 5 === 0 ? null : `row ${page * rowsPerPage + i} ${'z'.repeat(i % 9)}`));
  const file = join(workDir, 'gzip_members.parquet');
  writeParquet(file, [
    { name: 'a', type: Type.INT64, codec: Codec.GZIP,
      pages: range(pages, (p) => dataPage({ rows: rowsPerPage, values: plain.int64(ints(p)), compress: gzipMembers(p + 2) })) },
    { name: 'b', type: Type.BYTE_ARRAY, convertedType: 0, optional: true, codec: Codec.GZIP,
      pages: range(pages, (p) => {
        const values = strings(p);
        return dataPage({ version: p % 2 ? 2 : 1, rows: rowsPerPage, defined: values.map((v) => v !== null),
          values: plain.string(values.filter((v) => v !== null)), compress: gzipMembers(3) });
      }) },
  ]);
  files.push({ file, aggregates: 'count(*), sum(a), min(a), count(b), max(b), sum(length(b))' });
}

// 2. Version 2 pages whose values section is empty: every row of the page is NULL, so only the
// definition levels remain, and the compressed values are zero bytes under every codec.
{
  const rowsPerPage = 1000;
  const pageValues = [range(rowsPerPage, (i) => i), null, range(rowsPerPage, (i) => -i), null];
  const pagesFor = (compress, isCompressed = true) => pageValues.map((values) => values
    ? dataPage({ version: 2, rows: rowsPerPage, defined: values.map(() => true), values: plain.int32(values), compress, isCompressed })
    : dataPage({ version: 2, rows: rowsPerPage, defined: range(rowsPerPage, () => false), values: Buffer.alloc(0),
      compress: () => Buffer.alloc(0), isCompressed }));
  const file = join(workDir, 'v2_empty_values.parquet');
  writeParquet(file, [
    { name: 'snappy', type: Type.INT32, optional: true, codec: Codec.SNAPPY, pages: pagesFor(snappyLiterals) },
    { name: 'gzip', type: Type.INT32, optional: true, codec: Codec.GZIP, pages: pagesFor(gzipMembers(1)) },
    { name: 'brotli', type: Type.INT32, optional: true, codec: Codec.BROTLI, pages: pagesFor(brotli) },
    { name: 'not_compressed', type: Type.INT32, optional: true, codec: Codec.SNAPPY, pages: pagesFor((b) => b, false) },
  ]);
  files.push({ file, aggregates: 'count(*), count(snappy), sum(gzip), min(brotli), max(not_compressed)' });
}

// 3. INT96 timestamps (nanoseconds of the day, Julian day) inside and outside TIMESTAMP's
// range: the Julian calendar's first day, days far beyond year 294247, negative and
// over-long times of day.
{
  const unixEpochDay = 2440588;
  const values = [
    [0, unixEpochDay], [43200_000_000_000, unixEpochDay + 19000], null, [1, unixEpochDay - 1],
    [0, 0], [86399_999_999_999, 1721426], [0, 5373484], [0, 2147483647], [0, -2147483648],
    [-1, unixEpochDay], [86400_000_000_000 * 3, unixEpochDay], ['9223372036854775807', 1000000000],
    ['-9223372036854775808', unixEpochDay], [999, 109000000],
  ];
  const file = join(workDir, 'int96_range.parquet');
  writeParquet(file, [
    { name: 'id', type: Type.INT32, codec: Codec.UNCOMPRESSED,
      pages: [dataPage({ rows: values.length, values: plain.int32(range(values.length, (i) => i)) })] },
    { name: 'ts', type: Type.INT96, optional: true, codec: Codec.SNAPPY,
      pages: [dataPage({ rows: values.length, defined: values.map((v) => v !== null),
        values: plain.int96(values.filter((v) => v !== null)), compress: snappyLiterals })] },
  ]);
  files.push({ file, aggregates: 'count(ts), min(ts), max(ts)' });
}

const instance = await DuckDBInstance.create(':memory:');
const connection = await instance.connect();
const failures = [];
let compared = 0;
for (const { file, aggregates } of files) {
  const scan = `read_parquet('${file}')`;
  const queries = [`SELECT * FROM ${scan}`, `SELECT ${aggregates} FROM ${scan}`];
  for (const sql of queries) {
    const label = `${file}: ${sql}`;
    let expected;
    try {
      expected = await duckRows(connection, sql);
    } catch (error) {
      failures.push(`${label}: DuckDB failed: ${error.message.split('\n')[0]}`);
      continue;
    }
    try {
      const difference = sameRows(label, expected, sluiceRows(sluice, sql));
      if (difference) failures.push(difference);
    } catch (error) {
      failures.push(`${label}: sluice failed: ${(error.stderr || error.message).trim().split('\n')[0]}`);
    }
    compared++;
  }
}
console.log(`${compared} queries over ${files.length} handmade files compared with DuckDB`);
if (failures.length) {
  console.error(failures.join('\n'));
  process.exit(1);
}
