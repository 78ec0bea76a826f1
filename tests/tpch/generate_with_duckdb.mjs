// Writes TPC-H-shaped Parquet files with DuckDB (until Sluice's own dbgen exists): the TPC-H
// schema and types, the specification's cardinalities per scale factor, keys that join as in
// dbgen (each lineitem's supplier is one of its part's four partsupp suppliers) and value ranges
// like dbgen's. Usage: node generate_with_duckdb.mjs <scale factor> <directory>
import { DuckDBInstance } from '@duckdb/node-api';
import fs from 'node:fs';
import path from 'node:path';

const [sf, dir] = [Number(process.argv[2]), process.argv[3]];
if (!(sf > 0) || !dir) {
  console.error('usage: generate_with_duckdb.mjs <scale factor> <directory>');
  process.exit(2);
}
const done = path.join(dir, 'DONE');
if (fs.existsSync(done) && fs.readFileSync(done, 'utf8') === String(sf)) process.exit(0);
fs.mkdirSync(dir, { recursive: true });

const parts = Math.max(1, Math.round(200000 * sf));
const suppliers = Math.max(4, Math.round(10000 * sf));
const customers = Math.max(1, Math.round(150000 * sf));
const orders = Math.max(1, Math.round(1500000 * sf));
const colors = ['almond', 'antique', 'aquamarine', 'azure', 'beige', 'bisque', 'black', 'blanched',
  'blue', 'blush', 'brown', 'burlywood', 'burnished', 'chartreuse', 'chiffon', 'chocolate', 'coral',
  'cornflower', 'cornsilk', 'cream', 'cyan', 'dark', 'deep', 'dim', 'dodger', 'drab', 'firebrick',
  'floral', 'forest', 'frosted', 'gainsboro', 'ghost', 'goldenrod', 'green', 'grey', 'honeydew',
  'hot', 'indian', 'ivory', 'khaki', 'lace', 'lavender', 'lawn', 'lemon', 'light', 'lime', 'linen',
  'magenta', 'maroon', 'medium', 'metallic', 'midnight', 'mint', 'misty', 'moccasin', 'navajo',
  'navy', 'olive', 'orange', 'orchid', 'pale', 'papaya', 'peach', 'peru', 'pink', 'plum', 'powder',
  'puff', 'purple', 'red', 'rose', 'rosy', 'royal', 'saddle', 'salmon', 'sandy', 'seashell',
  'sienna', 'sky', 'slate', 'smoke', 'snow', 'spring', 'steel', 'tan', 'thistle', 'tomato',
  'turquoise', 'violet', 'wheat', 'white', 'yellow'];
const colorList = '[' + colors.map((c) => `'${c}'`).join(',') + ']';
const nations = ['ALGERIA', 'ARGENTINA', 'BRAZIL', 'CANADA', 'EGYPT', 'ETHIOPIA', 'FRANCE',
  'GERMANY', 'INDIA', 'INDONESIA', 'IRAN', 'IRAQ', 'JAPAN', 'JORDAN', 'KENYA', 'MOROCCO',
  'MOZAMBIQUE', 'PERU', 'CHINA', 'ROMANIA', 'SAUDI ARABIA', 'VIETNAM', 'RUSSIA',
  'UNITED KINGDOM', 'UNITED STATES'];
const nationList = '[' + nations.map((n) => `'${n}'`).join(',') + ']';
// A deterministic pseudo-random integer in [0, n) from a row key and a salt.
const rnd = (key, salt, n) => `(hash(${key}, ${salt}) % ${n})::BIGINT`;
// dbgen's supplier of part p's j-th partsupp entry.
const supplierOf = (p, j) =>
  `((${p} + ${j} * (${Math.floor(suppliers / 4)} + (${p} - 1) // ${suppliers})) % ${suppliers} + 1)`;

const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
const statements = [
  `create table nation as select i::INTEGER as n_nationkey, ${nationList}[i + 1] as n_name,
     (i % 5)::INTEGER as n_regionkey, 'nation comment ' || i as n_comment from range(25) t(i)`,
  `create table supplier as select (i + 1)::INTEGER as s_suppkey,
     'Supplier#' || lpad((i + 1)::VARCHAR, 9, '0') as s_name, 'address ' || i as s_address,
     ${rnd('i', 1, 25)}::INTEGER as s_nationkey, '10-100-' || i as s_phone,
     ((${rnd('i', 2, 1099999)} - 99999) / 100)::DECIMAL(15,2) as s_acctbal,
     'supplier comment' as s_comment from range(${suppliers}) t(i)`,
  `create table part as select (i + 1)::INTEGER as p_partkey,
     ${colorList}[${rnd('i', 3, colors.length)} + 1] || ' ' || ${colorList}[${rnd('i', 4, colors.length)} + 1]
       || ' ' || ${colorList}[${rnd('i', 5, colors.length)} + 1] || ' ' ||
       ${colorList}[${rnd('i', 6, colors.length)} + 1] || ' ' || ${colorList}[${rnd('i', 7, colors.length)} + 1]
       as p_name,
     'Manufacturer#' || (${rnd('i', 8, 5)} + 1) as p_mfgr, 'Brand#' || (${rnd('i', 9, 5)} + 1)
       || (${rnd('i', 10, 5)} + 1) as p_brand, 'STANDARD POLISHED TIN' as p_type,
     (${rnd('i', 11, 50)} + 1)::INTEGER as p_size, 'SM BOX' as p_container,
     ((90000 + ((i + 1) // 10) % 20001 + 100 * ((i + 1) % 1000)) / 100)::DECIMAL(15,2)
       as p_retailprice, 'part comment' as p_comment from range(${parts}) t(i)`,
  `create table partsupp as select p_partkey as ps_partkey,
     ${supplierOf('p_partkey', 'j')}::INTEGER as ps_suppkey,
     (${rnd('p_partkey * 4 + j', 12, 9999)} + 1)::INTEGER as ps_availqty,
     ((${rnd('p_partkey * 4 + j', 13, 99901)} + 100) / 100)::DECIMAL(15,2) as ps_supplycost,
     'partsupp comment' as ps_comment from part, range(4) t(j)`,
  `create table customer as select (i + 1)::INTEGER as c_custkey,
     'Customer#' || lpad((i + 1)::VARCHAR, 9, '0') as c_name, 'address ' || i as c_address,
     ${rnd('i', 14, 25)}::INTEGER as c_nationkey, '11-111-' || i as c_phone,
     ((${rnd('i', 15, 1099999)} - 99999) / 100)::DECIMAL(15,2) as c_acctbal,
     ['AUTOMOBILE','BUILDING','FURNITURE','MACHINERY','HOUSEHOLD'][${rnd('i', 16, 5)} + 1]
       as c_mktsegment, 'customer comment' as c_comment from range(${customers}) t(i)`,
  `create table orders as select (i + 1)::BIGINT as o_orderkey,
     (${rnd('i', 17, customers)} + 1)::INTEGER as o_custkey,
     ['O','F','P'][${rnd('i', 18, 3)} + 1] as o_orderstatus,
     ((${rnd('i', 19, 50000000)} + 85000) / 100)::DECIMAL(15,2) as o_totalprice,
     (date '1992-01-01' + ${rnd('i', 20, 2406)}::INTEGER) as o_orderdate,
     (${rnd('i', 21, 5)} + 1) || '-PRIORITY' as o_orderpriority,
     'Clerk#' || lpad((${rnd('i', 22, 1000)} + 1)::VARCHAR, 9, '0') as o_clerk,
     0::INTEGER as o_shippriority, 'order comment' as o_comment from range(${orders}) t(i)`,
  `create table lineitem as
   with lines as (
     select o_orderkey, o_orderdate, (j + 1)::INTEGER as l_linenumber,
       (${rnd('o_orderkey * 8 + j', 23, parts)} + 1)::INTEGER as l_partkey,
       ${rnd('o_orderkey * 8 + j', 24, 4)} as supplier_slot,
       (${rnd('o_orderkey * 8 + j', 25, 50)} + 1) as quantity
     from orders, range(7) t(j) where j <= ${rnd('o_orderkey', 26, 7)})
   select o_orderkey as l_orderkey, l_partkey,
     ${supplierOf('l_partkey', 'supplier_slot')}::INTEGER as l_suppkey, l_linenumber,
     quantity::DECIMAL(15,2) as l_quantity,
     (quantity * (90000 + (l_partkey // 10) % 20001 + 100 * (l_partkey % 1000)) / 100)::DECIMAL(15,2)
       as l_extendedprice,
     (${rnd('o_orderkey * 8 + l_linenumber', 27, 11)} / 100)::DECIMAL(15,2) as l_discount,
     (${rnd('o_orderkey * 8 + l_linenumber', 28, 9)} / 100)::DECIMAL(15,2) as l_tax,
     case when o_orderdate + 60 <= date '1995-06-17'
          then ['R','A'][${rnd('o_orderkey * 8 + l_linenumber', 29, 2)} + 1] else 'N' end
       as l_returnflag,
     case when o_orderdate + 60 > date '1995-06-17' then 'O' else 'F' end as l_linestatus,
     (o_orderdate + (${rnd('o_orderkey * 8 + l_linenumber', 30, 121)} + 1)::INTEGER) as l_shipdate,
     (o_orderdate + (${rnd('o_orderkey * 8 + l_linenumber', 31, 61)} + 30)::INTEGER) as l_commitdate,
     (o_orderdate + (${rnd('o_orderkey * 8 + l_linenumber', 32, 30)} + 122)::INTEGER) as l_receiptdate,
     'DELIVER IN PERSON' as l_shipinstruct, 'TRUCK' as l_shipmode, 'lineitem comment' as l_comment
   from lines order by l_orderkey, l_linenumber`,
];
for (const sql of statements) await c.run(sql);
for (const table of ['nation', 'supplier', 'part', 'partsupp', 'customer', 'orders', 'lineitem']) {
  await c.run(`copy ${table} to '${path.join(dir, table + '.parquet')}' (format parquet, row_group_size 100000)`);
}
fs.writeFileSync(done, String(sf));
