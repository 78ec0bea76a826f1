// Parquet decode throughput, Sluice beside DuckDB 1.5.6 in the same run.
//
//   node bench/parquet_decode.mjs [--rows N] [--repetitions K]
//
// Generates (once, cached under build/bench-data) a file of N rows (default 10 million) with the
// column types of TPC-H lineitem, written by Sluice with DuckDB's defaults (snappy, 122,880-row
// row groups). Then, alternating the engines, with 1 thread and with all threads:
//   Sluice: SELECT <all columns> FROM read_parquet(f) WHERE l_orderkey + 1 < 0
//           (decodes every column of every row; the filter keeps nothing, so no result is built;
//           timed by the shell's .timer, without process start-up)
//   DuckDB: SELECT sum(...) of every column FROM read_parquet(f)
// Prints rows/s, MB/s (of the file) and the time ratio Sluice / DuckDB per thread count.
import { DuckDBInstance } from '@duckdb/node-api';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const argument = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const rows = argument('--rows', 10_000_000);
const repetitions = argument('--repetitions', 3);
const sluice = join(root, 'build', 'sluice');
const dataDir = join(root, 'build', 'bench-data');
mkdirSync(dataDir, { recursive: true });
const file = join(dataDir, `lineitem_like_${rows}.parquet`);

const columns = `
  range // 4 AS l_orderkey,
  (range * 7919) % 200000 + 1 AS l_partkey,
  (range * 104729) % 10000 + 1 AS l_suppkey,
  CAST(range % 7 + 1 AS INTEGER) AS l_linenumber,
  CAST((range * 31) % 50 + 1 AS DECIMAL(15,2)) AS l_quantity,
  CAST(((range * 7919) % 10000000) * 0.01 AS DECIMAL(15,2)) AS l_extendedprice,
  CAST(((range * 13) % 11) * 0.01 AS DECIMAL(15,2)) AS l_discount,
  CAST(((range * 17) % 9) * 0.01 AS DECIMAL(15,2)) AS l_tax,
  'R' || (range % 3) AS l_returnflag,
  'F' || (range % 2) AS l_linestatus,
  DATE '1992-01-02' + (range * 7) % 2526 AS l_shipdate,
  DATE '1992-01-31' + (range * 11) % 2466 AS l_commitdate,
  DATE '1992-01-03' + (range * 13) % 2554 AS l_receiptdate,
  'DELIVER IN PERSON ' || (range % 4) AS l_shipinstruct,
  'MODE' || (range % 7) AS l_shipmode,
  'comment text number ' || ((range * 7919) % 1000003) AS l_comment`;

if (!existsSync(file)) {
  console.log(`generating ${file} ...`);
  execFileSync(sluice, ['-c', `COPY (SELECT ${columns} FROM range(${rows})) TO '${file}' (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE 122880)`], { stdio: 'inherit' });
}
const names = ['l_orderkey', 'l_partkey', 'l_suppkey', 'l_linenumber', 'l_quantity', 'l_extendedprice', 'l_discount', 'l_tax',
  'l_returnflag', 'l_linestatus', 'l_shipdate', 'l_commitdate', 'l_receiptdate', 'l_shipinstruct', 'l_shipmode', 'l_comment'];
const megabytes = statSync(file).size / 1e6;

const instance = await DuckDBInstance.create(':memory:');
const connection = await instance.connect();
const duckSums = names.map((name) => /date/.test(name) ? `max(${name})` : /flag|status|instruct|mode|comment/.test(name) ? `max(length(${name}))` : `sum(${name})`).join(', ');

// The query's own run time as the shell's timer reports it, so that process start-up is not
// counted (DuckDB runs inside this process).
function timeSluice(threads) {
  const out = execFileSync(sluice, ['-csv'], {
    input: `SET threads = ${threads};\n.timer on\nSELECT ${names.join(', ')} FROM read_parquet('${file}') WHERE l_orderkey + 1 < 0;\n`,
    encoding: 'utf8',
  });
  const match = /Run Time \(s\): real ([0-9.]+)/.exec(out);
  if (!match) throw new Error(`no timing in ${out}`);
  return Number(match[1]);
}
async function timeDuckDB(threads) {
  await connection.run(`SET threads = ${threads}`);
  const start = process.hrtime.bigint();
  await connection.runAndReadAll(`SELECT ${duckSums} FROM read_parquet('${file}')`);
  return Number(process.hrtime.bigint() - start) / 1e9;
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

console.log(`file: ${rows.toLocaleString()} rows, ${megabytes.toFixed(1)} MB, 16 lineitem-typed columns`);
for (const threads of [1, cpus().length]) {
  const ours = [], theirs = [];
  for (let i = 0; i < repetitions; i++) { // interleaved: A B A B ...
    ours.push(timeSluice(threads));
    theirs.push(await timeDuckDB(threads));
  }
  const s = median(ours), d = median(theirs);
  console.log(`threads=${threads}: Sluice ${s.toFixed(2)} s (${(rows / s / 1e6).toFixed(1)} M rows/s, ${(megabytes / s).toFixed(0)} MB/s)` +
    ` | DuckDB ${d.toFixed(2)} s (${(rows / d / 1e6).toFixed(1)} M rows/s) | ratio Sluice/DuckDB ${(s / d).toFixed(2)}` +
    `  [min/max Sluice ${Math.min(...ours).toFixed(2)}/${Math.max(...ours).toFixed(2)}, DuckDB ${Math.min(...theirs).toFixed(2)}/${Math.max(...theirs).toFixed(2)}]`);
}
