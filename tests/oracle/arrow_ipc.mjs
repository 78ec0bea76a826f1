// COPY ... TO (FORMAT arrow / arrows): Sluice's Arrow IPC files and streams read by two independent
// consumers, the npm packages apache-arrow and nodejs-polars, must hold DuckDB's result of the
// same query: the same column names, each Sluice type as the Arrow type DuckDB exports it as, and
// the same values, NULLs included, over several record batches.
//
//   node arrow_ipc.mjs SLUICE WORK_DIRECTORY
import { DuckDBInstance } from '@duckdb/node-api';
import { tableFromIPC } from 'apache-arrow';
import pl from 'nodejs-polars';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const [sluice, work] = process.argv.slice(2).map((p) => path.resolve(p));
fs.rmSync(work, { recursive: true, force: true });
fs.mkdirSync(work, { recursive: true });

// Each query: its SQL (the same text in both engines, ordered), the Arrow type names
// apache-arrow must see, and whether nodejs-polars can take it (it has no JS form for BLOB and
// no import of month_day_nano intervals).
const queries = [
  {
    name: 'numbers',
    sql: `SELECT i::TINYINT AS t, (i * 300)::SMALLINT AS s, i::INTEGER AS i, i * 1000000007 AS b,
            i::UTINYINT AS ut, (i * 7)::USMALLINT AS us, i::UINTEGER AS ui, i::UBIGINT AS ub,
            (i / 8)::FLOAT AS f, i / 3 AS d, i % 2 = 0 AS even,
            CASE WHEN i % 7 = 0 THEN NULL ELSE i END AS sometimes
          FROM range(100) t(i) ORDER BY i`,
    types: ['Int8', 'Int16', 'Int32', 'Int64', 'Uint8', 'Uint16', 'Uint32', 'Uint64', 'Float32',
      'Float64', 'Bool', 'Int64'],
    polars: true,
  },
  {
    // Negative and positive values of each storage width (16, 32, 64 and 128 bits).
    name: 'decimals',
    sql: `SELECT (i * 1.25)::DECIMAL(4, 2) AS d4, (i * -3.5)::DECIMAL(9, 1) AS d9,
            (i * 123456789.123)::DECIMAL(18, 3) AS d18,
            (i * 1234567890123456789.5)::DECIMAL(38, 1) AS d38,
            i::HUGEINT * 170141183460469231731687303715884105 AS huge,
            CASE WHEN i % 3 = 0 THEN NULL ELSE (i / 7)::DECIMAL(12, 4) END AS maybe
          FROM range(-30, 30) t(i) ORDER BY i`,
    types: ['Decimal[4e+2]', 'Decimal[9e+1]', 'Decimal[18e+3]', 'Decimal[38e+1]',
      'Decimal[38e0]', 'Decimal[12e+4]'],
    polars: true,
  },
  {
    name: 'dates and times',
    sql: `SELECT DATE '1969-12-25' + i::INTEGER * 400 AS day, TIME '00:00:01' + INTERVAL (i * 3777) SECOND AS time,
            TIMESTAMP '1999-12-31 23:59:59.999999' + INTERVAL (i * 100003) SECOND AS ts,
            TIMESTAMPTZ '2024-03-01 12:00:00+00' + INTERVAL (i * 17) MINUTE AS tz,
            CAST('2001-02-03 04:05:06.123456789' AS TIMESTAMP_NS) AS ns,
            CASE WHEN i % 4 = 0 THEN NULL ELSE DATE '2000-01-01' + i::INTEGER END AS maybe
          FROM range(50) t(i) ORDER BY i`,
    types: ['Date32<DAY>', 'Time64<MICROSECOND>', 'Timestamp<MICROSECOND>',
      'Timestamp<MICROSECOND, UTC>', 'Timestamp<NANOSECOND>', 'Date32<DAY>'],
    polars: true,
  },
  {
    name: 'text, blobs, uuids and intervals',
    sql: `SELECT 'row ' || i AS s, CASE WHEN i % 5 = 0 THEN NULL WHEN i % 5 = 1 THEN '' ELSE repeat('é', i::INTEGER) END AS u,
            ('\\x00\\xFF' || i)::BLOB AS bl, ('8a2b5e8e-5c1a-4f0e-9b0e-1c2d3e4f5a' || (10 + i))::UUID AS id,
            INTERVAL (i) MONTH + INTERVAL (i * 3) DAY + INTERVAL (i * 1001) MILLISECOND AS iv
          FROM range(40) t(i) ORDER BY i`,
    types: ['Utf8', 'Utf8', 'Binary', 'Utf8', 'Interval<MONTH_DAY_NANO>'],
    polars: false,
  },
  {
    name: 'nested',
    sql: `SELECT i, CASE WHEN i % 6 = 0 THEN NULL WHEN i % 6 = 1 THEN [] ELSE [i, NULL, i * 2] END AS list,
            {'a': i, 'b': CASE WHEN i % 4 = 0 THEN NULL ELSE 'b' || i END} AS st,
            CASE WHEN i % 5 = 0 THEN NULL ELSE [{'x': i, 'y': ['p', 'q' || i]}] END AS deep,
            MAP {'k' || i: i, 'z': NULL} AS m
          FROM range(3000) t(i) ORDER BY i`,
    types: ['Int64', 'List<Int64>', 'Struct<{a:Int64, b:Utf8}>',
      'List<Struct<{x:Int64, y:List<Utf8>}>>', 'Map<{key:Utf8, value:Int64}>'],
    polars: true,
  },
  {
    // Lists whose elements no longer follow one another once rows are filtered out.
    name: 'filtered lists',
    sql: `SELECT i, l, l[2:] AS tail, list_filter(l, x -> x % 2 = 1) AS odd
          FROM (SELECT i, CASE WHEN i % 7 = 0 THEN [] ELSE range(i % 5) END AS l
            FROM range(5000) t(i)) WHERE i % 3 <> 1 ORDER BY i`,
    types: ['Int64', 'List<Int64>', 'List<Int64>', 'List<Int64>'],
    polars: true,
  },
  {
    name: 'an aggregate over many batches',
    sql: `SELECT i % 97 AS k, count(*) AS n, sum(i) AS total, avg(i) AS mean, min('v' || i) AS least,
            list(i ORDER BY i) FILTER (WHERE i % 1000 = i % 97) AS picked
          FROM range(200000) t(i) GROUP BY k ORDER BY k`,
    types: ['Int64', 'Int64', 'Decimal[38e0]', 'Float64', 'Utf8', 'List<Int64>'],
    polars: true,
  },
  {
    name: 'many rows',
    sql: `SELECT i, i * 0.5 AS half, 'name ' || (i % 1000) AS name FROM range(100000) t(i) ORDER BY i`,
    types: ['Int64', 'Decimal[21e+1]', 'Utf8'],
    polars: true,
  },
];

const failures = [];
const check = (ok, what) => { console.log(`${ok ? 'ok' : 'FAIL'} ${what}`); if (!ok) failures.push(what); };

// Sluice writes each query both ways, in one run.
execFileSync(sluice, ['-c', queries.map((q, n) =>
  `COPY (${q.sql}) TO '${work}/q${n}.arrow' (FORMAT arrow); COPY (${q.sql}) TO '${work}/q${n}.arrows' (FORMAT arrows);`).join('\n')],
{ encoding: 'utf8' });

// DuckDB's values in its own JSON form (node-api's getRowObjectsJson).
const instance = await DuckDBInstance.create(':memory:');
const duck = await instance.connect();

// An Arrow value (apache-arrow's reading) in that JSON form, by its Arrow type.
const pad = (n, width = 2) => String(n).padStart(width, '0');
const fraction = (digits) => (/^0+$/.test(digits) ? '' : '.' + digits.replace(/0+$/, ''));
function dayText(days) {
  return new Date(Number(days) * 86400000).toISOString().slice(0, 10);
}
function clockText(units, perSecond) {
  const seconds = units / perSecond;
  const rest = String(units % perSecond).padStart(String(perSecond).length - 1, '0');
  return `${pad(seconds / 3600n)}:${pad((seconds / 60n) % 60n)}:${pad(seconds % 60n)}${fraction(rest)}`;
}
function timestampText(units, perSecond) {
  const perDay = 86400n * perSecond;
  let day = units / perDay;
  let within = units % perDay;
  if (within < 0n) { within += perDay; day -= 1n; }
  return `${dayText(day)} ${clockText(within, perSecond)}`;
}
function decimalText(words, scale) {
  let value = 0n;
  for (let i = words.length - 1; i >= 0; i--) value = (value << 32n) | BigInt(words[i]);
  if (value >= 1n << 127n) value -= 1n << 128n;
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, '0');
  const text = scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
  return negative ? '-' + text : text;
}
function blobText(bytes) {
  let out = '';
  for (const b of bytes) {
    out += b >= 32 && b < 127 && b !== 92 ? String.fromCharCode(b) : `\\x${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
// The raw stored value of row `row` of a column (64-bit times come as BigInts, not rounded
// to milliseconds as get() gives them).
function rawValue(vector, row) {
  for (const data of vector.data) {
    if (row < data.length) return data.values[data.offset + row];
    row -= data.length;
  }
  throw new Error('row out of range');
}
function arrowJson(type, value, vector, row) {
  if (value === null || value === undefined) return null;
  const name = type.toString();
  if (name.startsWith('Decimal')) return decimalText(value, type.scale);
  if (name.startsWith('Date32')) return dayText(rawValue(vector, row));
  if (name.startsWith('Time64')) return clockText(BigInt(rawValue(vector, row)), 1000000n);
  if (name.startsWith('Timestamp')) {
    const nanos = name.includes('NANOSECOND');
    const text = timestampText(BigInt(rawValue(vector, row)), nanos ? 1000000000n : 1000000n);
    return type.timezone ? text + '+00' : text;
  }
  if (name.startsWith('Interval')) {
    const [months, days, low, high] = value;
    const nanos = (BigInt(high) << 32n) | BigInt(low >>> 0);
    return { months, days, micros: String(nanos / 1000n) };
  }
  if (name === 'Binary') return blobText(value);
  if (name === 'Int64' || name === 'Uint64') return String(value);
  if (name.startsWith('Map')) {
    return [...value].map(([key, item]) => ({ key: json(type.children[0].type.children[0].type, key),
      value: json(type.children[0].type.children[1].type, item) }));
  }
  if (name.startsWith('List')) {
    return [...value].map((item) => json(type.children[0].type, item));
  }
  if (name.startsWith('Struct')) {
    return Object.fromEntries(type.children.map((field) => [field.name, json(field.type, value[field.name])]));
  }
  return value;
}
// Inside nested values there is no vector to read raw values from: times there are not tested.
const json = (type, value) => arrowJson(type, value, null, 0);

function readWithArrow(file) {
  const table = tableFromIPC(fs.readFileSync(file));
  const columns = table.schema.fields.map((field, c) => ({ field, vector: table.getChildAt(c) }));
  const rows = [];
  for (let row = 0; row < table.numRows; row++) {
    rows.push(Object.fromEntries(columns.map(({ field, vector }) =>
      [field.name, arrowJson(field.type, vector.get(row), vector, row)])));
  }
  return { names: table.schema.fields.map((f) => f.name), types: table.schema.fields.map((f) => String(f.type)),
    batches: table.batches.length, rows };
}

// For nodejs-polars: temporal columns as their stored integers and decimals as text (it has no
// JS form of them), everything else as it collects it; leaves compared as text.
const leaves = (value) => value === null || value === undefined ? null
  : Array.isArray(value) ? value.map(leaves)
  : typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, leaves(v)]))
  : String(value);
function canonicalSql(sql, types) {
  const columns = types.map(([name, type]) => {
    const column = `"${name}"`;
    if (type === 'DATE') return `(${column} - DATE '1970-01-01') AS ${column}`;
    if (type === 'TIME') return `epoch_ns(DATE '1970-01-01' + ${column}) AS ${column}`;
    if (type === 'TIMESTAMP_NS') return `epoch_ns(${column}) AS ${column}`;
    if (type.startsWith('TIMESTAMP')) return `epoch_us(${column}) AS ${column}`;
    if (type.startsWith('DECIMAL') || type === 'HUGEINT') return `${column}::VARCHAR AS ${column}`;
    return column;
  });
  return `SELECT ${columns.join(', ')} FROM (${sql})`;
}
function readWithPolars(file, stream) {
  const frame = stream ? pl.readIPCStream(fs.readFileSync(file)) : pl.readIPC(fs.readFileSync(file));
  const casts = frame.columns.map((name) => {
    const dtype = frame.getColumn(name).dtype.variant;
    if (dtype === 'Decimal') return pl.col(name).cast(pl.Utf8);
    if (dtype === 'Date') return pl.col(name).cast(pl.Int32);
    // As text: JS numbers would round nanoseconds since the epoch.
    if (dtype === 'Datetime' || dtype === 'Time') return pl.col(name).cast(pl.Int64).cast(pl.Utf8);
    return pl.col(name);
  });
  return frame.select(...casts).toRecords().map(leaves);
}

for (const [n, query] of queries.entries()) {
  const reader = await duck.runAndReadAll(query.sql);
  const expected = reader.getRowObjectsJson();
  const names = reader.columnNames();
  for (const form of ['arrow', 'arrows']) {
    const file = path.join(work, `q${n}.${form}`);
    const what = `${query.name} (${form === 'arrow' ? 'IPC file' : 'IPC stream'})`;
    const got = readWithArrow(file);
    check(JSON.stringify(got.names) === JSON.stringify(names), `${what}: column names ${got.names.join(', ')}`);
    check(JSON.stringify(got.types) === JSON.stringify(query.types), `${what}: Arrow types ${got.types.join(', ')}`);
    let mismatch = got.rows.length === expected.length ? -1 : Math.min(got.rows.length, expected.length);
    for (let r = 0; mismatch < 0 && r < expected.length; r++) {
      if (JSON.stringify(got.rows[r]) !== JSON.stringify(expected[r])) mismatch = r;
    }
    check(mismatch < 0, `${what}: apache-arrow reads DuckDB's ${expected.length} rows in ${got.batches} batches` +
      (mismatch < 0 ? '' : `; row ${mismatch}: ${JSON.stringify(got.rows[mismatch])} vs ${JSON.stringify(expected[mismatch])}`));
    if (!query.polars) continue;
    const types = reader.columnTypes().map((t, c) => [names[c], String(t)]);
    const canonical = (await duck.runAndReadAll(canonicalSql(query.sql, types))).getRowObjectsJS().map(leaves);
    const polarsRows = readWithPolars(file, form === 'arrows');
    mismatch = polarsRows.length === canonical.length ? -1 : Math.min(polarsRows.length, canonical.length);
    for (let r = 0; mismatch < 0 && r < canonical.length; r++) {
      if (JSON.stringify(polarsRows[r]) !== JSON.stringify(canonical[r])) mismatch = r;
    }
    check(mismatch < 0, `${what}: nodejs-polars reads DuckDB's ${canonical.length} rows` +
      (mismatch < 0 ? '' : `; row ${mismatch}: ${JSON.stringify(polarsRows[mismatch])} vs ${JSON.stringify(canonical[mismatch])}`));
  }
}

// A file that cannot be created is an IO error naming it.
let message = '';
try {
  execFileSync(sluice, ['-c', `COPY (SELECT 1) TO '${work}/no/such/dir/x.arrow'`], { stdio: 'pipe' });
} catch (error) {
  message = String(error.stderr);
}
check(/IO Error: cannot create ".*no\/such\/dir\/x\.arrow"/.test(message), `an unwritable path: ${message.trim()}`);

if (failures.length) {
  console.log(`${failures.length} failed`);
  process.exit(1);
}
