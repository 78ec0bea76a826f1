// A minimal Parquet writer for tests, written from the format specification and independent of
// Sluice's own writer: it lays out exactly the pages it is given, so a test can produce the odd
// shapes real writers produce (concatenated gzip members, v2 pages without value bytes, INT96
// timestamps) that DuckDB and Sluice must both read.
//
// One row group; each column is a flat REQUIRED or OPTIONAL leaf under the root.
import { writeFileSync } from 'node:fs';

export const Type = { BOOLEAN: 0, INT32: 1, INT64: 2, INT96: 3, FLOAT: 4, DOUBLE: 5, BYTE_ARRAY: 6 };
export const Codec = { UNCOMPRESSED: 0, SNAPPY: 1, GZIP: 2, BROTLI: 4, ZSTD: 6 };
const Encoding = { PLAIN: 0, RLE: 3 };
const PageType = { DATA_PAGE: 0, DATA_PAGE_V2: 3 };

// Thrift compact protocol (the encoding of every Parquet header and of the footer).
const T = { TRUE: 1, FALSE: 2, I32: 5, I64: 6, BINARY: 8, LIST: 9, STRUCT: 12 };

function varint(value) {
  let v = BigInt(value);
  const bytes = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v !== 0n) byte |= 0x80;
    bytes.push(byte);
  } while (v !== 0n);
  return Buffer.from(bytes);
}
const zigzag = (value) => { const v = BigInt(value); return (v << 1n) ^ (v >> 63n); };

// A struct is a list of [fieldId, kind, value]: kind is 'i32', 'i64', 'bool', 'string',
// 'struct' or ['list', elementKind]; fields must come in increasing id order.
function struct(fields) {
  const parts = [];
  let last = 0;
  const header = (id, type) => {
    const delta = id - last;
    last = id;
    return delta > 0 && delta <= 15 ? Buffer.from([(delta << 4) | type])
      : Buffer.concat([Buffer.from([type]), varint(zigzag(id))]);
  };
  for (const [id, kind, value] of fields) {
    if (value === undefined) continue;
    if (kind === 'bool') {
      parts.push(header(id, value ? T.TRUE : T.FALSE));
      continue;
    }
    const [type, body] = encode(kind, value);
    parts.push(header(id, type), body);
  }
  parts.push(Buffer.from([0]));
  return Buffer.concat(parts);
}

function encode(kind, value) {
  if (kind === 'i32') return [T.I32, varint(zigzag(value))];
  if (kind === 'i64') return [T.I64, varint(zigzag(value))];
  if (kind === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return [T.BINARY, Buffer.concat([varint(bytes.length), bytes])];
  }
  if (kind === 'struct') return [T.STRUCT, struct(value)];
  const elementKind = kind[1];
  const elementType = encode(elementKind, elementKind === 'struct' ? [] : elementKind === 'string' ? '' : 0)[0];
  const head = value.length < 15 ? Buffer.from([(value.length << 4) | elementType])
    : Buffer.concat([Buffer.from([0xf0 | elementType]), varint(value.length)]);
  return [T.LIST, Buffer.concat([head, ...value.map((element) => encode(elementKind, element)[1])])];
}

// Definition levels of an OPTIONAL leaf (1 = value, 0 = NULL) as RLE runs, bit width 1.
export function definitionLevels(defined) {
  const runs = [];
  for (let i = 0; i < defined.length;) {
    let j = i;
    while (j < defined.length && defined[j] === defined[i]) j++;
    runs.push(varint((j - i) << 1), Buffer.from([defined[i] ? 1 : 0]));
    i = j;
  }
  return Buffer.concat(runs);
}

// PLAIN values.
export const plain = {
  int32: (values) => Buffer.concat(values.map((v) => { const b = Buffer.alloc(4); b.writeInt32LE(v); return b; })),
  int64: (values) => Buffer.concat(values.map((v) => { const b = Buffer.alloc(8); b.writeBigInt64LE(BigInt(v)); return b; })),
  // [nanoseconds of the day, Julian day] pairs.
  int96: (values) => Buffer.concat(values.map(([nanos, day]) => {
    const b = Buffer.alloc(12);
    b.writeBigInt64LE(BigInt(nanos));
    b.writeInt32LE(day, 8);
    return b;
  })),
  string: (values) => Buffer.concat(values.map((v) => {
    const bytes = Buffer.from(v, 'utf8');
    const length = Buffer.alloc(4);
    length.writeUInt32LE(bytes.length);
    return Buffer.concat([length, bytes]);
  })),
};

// A data page. `defined` (OPTIONAL columns only) marks each row's value present or NULL;
// `values` holds the PLAIN bytes of the present ones. `compress` turns bytes into the codec's.
// Version 2 pages keep their levels uncompressed and compress only the values (when
// `isCompressed`), as the specification says.
export function dataPage({ version = 1, rows, defined, values, compress = (b) => b, isCompressed = true }) {
  const levels = defined ? definitionLevels(defined) : Buffer.alloc(0);
  const nulls = defined ? defined.filter((d) => !d).length : 0;
  if (version === 1) {
    const lengthPrefix = Buffer.alloc(4);
    lengthPrefix.writeUInt32LE(levels.length);
    const raw = Buffer.concat(defined ? [lengthPrefix, levels, values] : [values]);
    const body = compress(raw);
    const header = struct([
      [1, 'i32', PageType.DATA_PAGE], [2, 'i32', raw.length], [3, 'i32', body.length],
      [5, 'struct', [[1, 'i32', rows], [2, 'i32', Encoding.PLAIN], [3, 'i32', Encoding.RLE], [4, 'i32', Encoding.RLE]]],
    ]);
    return { header, body, rows, uncompressed: raw.length };
  }
  const compressedValues = isCompressed ? compress(values) : values;
  const body = Buffer.concat([levels, compressedValues]);
  const header = struct([
    [1, 'i32', PageType.DATA_PAGE_V2], [2, 'i32', levels.length + values.length], [3, 'i32', body.length],
    [8, 'struct', [[1, 'i32', rows], [2, 'i32', nulls], [3, 'i32', rows], [4, 'i32', Encoding.PLAIN],
      [5, 'i32', levels.length], [6, 'i32', 0], [7, 'bool', isCompressed]]],
  ]);
  return { header, body, rows, uncompressed: levels.length + values.length };
}

// columns: [{ name, type, optional, codec, pages, convertedType?, typeLength? }]; every column's
// pages must hold the same number of rows.
export function writeParquet(file, columns) {
  const parts = [Buffer.from('PAR1')];
  let offset = 4;
  const chunks = [];
  for (const column of columns) {
    const start = offset;
    let uncompressed = 0, compressed = 0, values = 0;
    for (const page of column.pages) {
      parts.push(page.header, page.body);
      offset += page.header.length + page.body.length;
      uncompressed += page.header.length + page.uncompressed;
      compressed += page.header.length + page.body.length;
      values += page.rows;
    }
    chunks.push({ column, start, uncompressed, compressed, values });
  }
  const rows = chunks[0].values;
  const schema = [[[4, 'string', 'schema'], [5, 'i32', columns.length]],
    ...columns.map((c) => [[1, 'i32', c.type], [2, 'i32', c.typeLength], [3, 'i32', c.optional ? 1 : 0],
      [4, 'string', c.name], [6, 'i32', c.convertedType]])];
  const rowGroup = [
    [1, ['list', 'struct'], chunks.map(({ column, start, uncompressed, compressed, values }) => [
      [2, 'i64', start],
      [3, 'struct', [[1, 'i32', column.type], [2, ['list', 'i32'], [Encoding.PLAIN, Encoding.RLE]],
        [3, ['list', 'string'], [column.name]], [4, 'i32', column.codec], [5, 'i64', values],
        [6, 'i64', uncompressed], [7, 'i64', compressed], [9, 'i64', start]]],
    ])],
    [2, 'i64', chunks.reduce((sum, c) => sum + c.uncompressed, 0)],
    [3, 'i64', rows],
  ];
  const footer = struct([
    [1, 'i32', 1], [2, ['list', 'struct'], schema], [3, 'i64', rows], [4, ['list', 'struct'], [rowGroup]],
    [6, 'string', 'sluice handmade_parquet.mjs'],
  ]);
  const footerLength = Buffer.alloc(4);
  footerLength.writeUInt32LE(footer.length);
  parts.push(footer, footerLength, Buffer.from('PAR1'));
  writeFileSync(file, Buffer.concat(parts));
}
