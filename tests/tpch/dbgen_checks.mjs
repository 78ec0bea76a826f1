// Checks Sluice's TPC-H generator (CALL dbgen) against the TPC-H specification (v3.0.1, clause
// 4.2) as dbgen implements it (exact values are checked against dbgen's own output by
// dbgen_matches_tpc.mjs) with DuckDB as the independent reader of the files it writes:
//  - row counts per table at each scale factor; primary keys unique; foreign keys resolve;
//  - value domains and derived values (prices, dates, flags, statuses, phone numbers, names);
//  - DuckDB reads the Parquet and the CSV files and computes the same aggregates as Sluice does
//    over the tables it generates in memory;
//  - the layout options (row_group_size, files) give exactly the layout asked for, seen through
//    DuckDB's and Sluice's parquet_metadata;
//  - determinism: two runs write byte-identical files.
// Usage: node dbgen_checks.mjs <sluice> <work directory> <scale factor...>
import { DuckDBInstance } from '@duckdb/node-api';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { NULL, sluiceRows } from '../oracle/sluice_cli.mjs';
import { TPCH_TABLES } from './generate.mjs';

const [sluice, work, ...scaleFactors] = process.argv.slice(2);
fs.rmSync(work, { recursive: true, force: true });
fs.mkdirSync(work, { recursive: true });

let failures = 0;
function report(ok, what, detail = '') {
  console.log(`${ok ? 'ok' : 'FAIL'} ${what}${detail ? ': ' + detail : ''}`);
  if (!ok) failures++;
}

function sluiceRun(sql) {
  return execFileSync(sluice, ['-csv', '-c', sql], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

const db = await DuckDBInstance.create(':memory:');
const duck = await db.connect();
async function scalar(sql) {
  const rows = (await duck.runAndReadAll(sql)).getRows();
  return rows[0][0];
}
// Rows as DuckDB's VARCHAR text under the query's own column names (COLUMNS keeps them), the
// query run once.
async function textRows(sql) {
  const text = await duck.runAndReadAll(`select columns(*)::varchar from (${sql})`);
  return [text.columnNames(), ...text.getRows().map((r) => r.map((v) => (v === null ? NULL : String(v))))];
}

// Schema of each table as Sluice declares it (DESCRIBE), for typed CSV reading in DuckDB: one
// process for all (each builds dbgen's text pool first).
const schemas = {};
{
  const out = sluiceRows(sluice, `CALL dbgen(sf = 0.001); ${TPCH_TABLES.map((t) => `DESCRIBE ${t};`).join(' ')}`);
  let table = -1;
  for (const row of out) {
    if (row[0] === 'column_name') table++;
    else if (table >= 0) (schemas[TPCH_TABLES[table]] ||= []).push([row[0], row[1]]);
  }
}

// Aggregates over every column: what DuckDB computes from the files must equal what Sluice
// computes over its in-memory tables.
function aggregateSql(table) {
  const parts = ['count(*) as n'];
  for (const [name, type] of schemas[table]) {
    if (type === 'VARCHAR') {
      parts.push(`sum(length(${name})) as ${name}_len`, `min(${name}) as ${name}_min`,
        `max(${name}) as ${name}_max`, `count(distinct ${name}) as ${name}_distinct`);
    } else if (type === 'DATE') {
      parts.push(`min(${name}) as ${name}_min`, `max(${name}) as ${name}_max`,
        `count(distinct ${name}) as ${name}_distinct`);
    } else {
      parts.push(`sum(${name}) as ${name}_sum`, `min(${name}) as ${name}_min`,
        `max(${name}) as ${name}_max`);
    }
  }
  return `select ${parts.join(', ')} from ${table}`;
}

function sha(file) {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}
function filesUnder(dir) {
  return fs.readdirSync(dir, { recursive: true })
    .filter((f) => fs.statSync(path.join(dir, f)).isFile()).sort();
}

for (const sfText of scaleFactors) {
  const sf = Number(sfText);
  const dir = path.join(work, `sf${sfText}`);
  sluiceRun(`CALL dbgen(sf = ${sf}, path = '${dir}/parquet'); CALL dbgen(sf = ${sf}, path = '${dir}/csv', format = 'csv')`);
  for (const table of TPCH_TABLES) {
    await duck.run(`create or replace view ${table} as select * from read_parquet('${dir}/parquet/${table}.parquet')`);
    const columns = '{' + schemas[table].map(([n, t]) => `'${n}': '${t}'`).join(', ') + '}';
    await duck.run(`create or replace view csv_${table} as select * from read_csv('${dir}/csv/${table}.csv', header = true, columns = ${columns})`);
  }

  // Cardinalities (clause 4.2.5).
  const scaled = (base) => Math.max(1, Math.floor(base * sf + 1e-9));
  const expected = { part: scaled(200000), supplier: Math.max(4, scaled(10000)),
    partsupp: 4 * scaled(200000), customer: scaled(150000), orders: scaled(1500000),
    nation: 25, region: 5 };
  for (const [table, count] of Object.entries(expected)) {
    const actual = Number(await scalar(`select count(*) from ${table}`));
    report(actual === count, `sf ${sf} ${table} rows`, `${actual}, specification ${count}`);
  }
  const lines = Number(await scalar('select count(*) from lineitem'));
  const perOrder = lines / expected.orders;
  report(Math.abs(perOrder - 4) < 0.05, `sf ${sf} lineitem rows`,
    `${lines} (${perOrder.toFixed(4)} per order; 1-7 uniform gives 4; dbgen has 6,001,215 at sf 1)`);

  const violations = {
    'primary keys unique': `select (select count(*) - count(distinct p_partkey) from part)
        + (select count(*) - count(distinct s_suppkey) from supplier)
        + (select count(*) - count(distinct c_custkey) from customer)
        + (select count(*) - count(distinct o_orderkey) from orders)
        + (select count(*) from (select 1 from partsupp group by ps_partkey, ps_suppkey having count(*) > 1))
        + (select count(*) from (select 1 from lineitem group by l_orderkey, l_linenumber having count(*) > 1))
        + (select count(*) - count(distinct n_nationkey) from nation)
        + (select count(*) - count(distinct r_regionkey) from region)`,
    'keys dense from 1': `select (select count(*) from part where p_partkey not between 1 and ${expected.part})
        + (select count(*) from supplier where s_suppkey not between 1 and ${expected.supplier})
        + (select count(*) from customer where c_custkey not between 1 and ${expected.customer})`,
    'foreign keys resolve': `select (select count(*) from lineitem anti join orders on l_orderkey = o_orderkey)
        + (select count(*) from lineitem anti join part on l_partkey = p_partkey)
        + (select count(*) from lineitem anti join supplier on l_suppkey = s_suppkey)
        + (select count(*) from lineitem anti join partsupp on l_partkey = ps_partkey and l_suppkey = ps_suppkey)
        + (select count(*) from orders anti join customer on o_custkey = c_custkey)
        + (select count(*) from orders anti join lineitem on o_orderkey = l_orderkey)
        + (select count(*) from partsupp anti join part on ps_partkey = p_partkey)
        + (select count(*) from partsupp anti join supplier on ps_suppkey = s_suppkey)
        + (select count(*) from customer anti join nation on c_nationkey = n_nationkey)
        + (select count(*) from supplier anti join nation on s_nationkey = n_nationkey)
        + (select count(*) from nation anti join region on n_regionkey = r_regionkey)`,
    'lineitem domains': `select count(*) from lineitem join orders on l_orderkey = o_orderkey
        join part on l_partkey = p_partkey where not (
          l_quantity between 1 and 50 and l_quantity = round(l_quantity)
          and l_discount between 0.00 and 0.10 and l_tax between 0.00 and 0.08
          and l_extendedprice = l_quantity * p_retailprice
          and l_linenumber between 1 and 7
          and l_shipdate between o_orderdate + 1 and o_orderdate + 121
          and l_commitdate between o_orderdate + 30 and o_orderdate + 90
          and l_receiptdate between l_shipdate + 1 and l_shipdate + 30
          and l_returnflag = case when l_receiptdate <= date '1995-06-17' then l_returnflag else 'N' end
          and (l_receiptdate > date '1995-06-17' or l_returnflag in ('R', 'A'))
          and l_linestatus = case when l_shipdate > date '1995-06-17' then 'O' else 'F' end
          and l_shipinstruct in ('DELIVER IN PERSON', 'COLLECT COD', 'NONE', 'TAKE BACK RETURN')
          and l_shipmode in ('REG AIR', 'AIR', 'RAIL', 'SHIP', 'TRUCK', 'MAIL', 'FOB')
          and length(l_comment) between 10 and 43)`,
    'line numbers 1..n per order': `select count(*) from (select l_orderkey from lineitem group by l_orderkey
        having min(l_linenumber) <> 1 or max(l_linenumber) <> count(*))`,
    'orders domains': `select count(*) from orders where not (
          o_orderdate between date '1992-01-01' and date '1998-12-31' - 151
          and o_orderkey % 32 < 8 and o_custkey % 3 <> 0
          and o_orderpriority in ('1-URGENT', '2-HIGH', '3-MEDIUM', '4-NOT SPECIFIED', '5-LOW')
          and regexp_full_match(o_clerk, 'Clerk#[0-9]{9}')
          and cast(substr(o_clerk, 7) as integer) between 1 and ${Math.max(1000, Math.floor(1000 * sf))}
          and o_shippriority = 0 and length(o_comment) between 19 and 78)`,
    'order status and total price from the lines': `select count(*) from orders join (
          select l_orderkey, count(*) as n, count(*) filter (where l_linestatus = 'F') as f,
            sum((l_extendedprice * 100)::bigint * (100 - (l_discount * 100)::bigint) // 100
                * (100 + (l_tax * 100)::bigint) // 100) as total_cents
          from lineitem group by l_orderkey) on o_orderkey = l_orderkey
        where o_orderstatus <> case when f = n then 'F' when f = 0 then 'O' else 'P' end
          or (o_totalprice * 100)::bigint <> total_cents`,
    'part domains': `select count(*) from part where not (
          p_retailprice = (90000 + ((p_partkey // 10) % 20001) + 100 * (p_partkey % 1000)) / 100
          and len(list_distinct(string_split(p_name, ' '))) = 5
          and regexp_full_match(p_mfgr, 'Manufacturer#[1-5]')
          and p_brand = 'Brand#' || substr(p_mfgr, 14) || substr(p_brand, 8)
          and regexp_full_match(p_brand, 'Brand#[1-5][1-5]')
          and regexp_full_match(p_type, '(STANDARD|SMALL|MEDIUM|LARGE|ECONOMY|PROMO) (ANODIZED|BURNISHED|PLATED|POLISHED|BRUSHED) (TIN|NICKEL|BRASS|STEEL|COPPER)')
          and p_size between 1 and 50
          and regexp_full_match(p_container, '(SM|LG|MED|JUMBO|WRAP) (CASE|BOX|BAG|JAR|PKG|PACK|CAN|DRUM)')
          and length(p_comment) between 5 and 22)`,
    'p_name words are colours': `select count(*) from (select unnest(string_split(p_name, ' ')) as w from part)
        where w not in ('almond','antique','aquamarine','azure','beige','bisque','black','blanched','blue','blush','brown','burlywood','burnished','chartreuse','chiffon','chocolate','coral','cornflower','cornsilk','cream','cyan','dark','deep','dim','dodger','drab','firebrick','floral','forest','frosted','gainsboro','ghost','goldenrod','green','grey','honeydew','hot','indian','ivory','khaki','lace','lavender','lawn','lemon','light','lime','linen','magenta','maroon','medium','metallic','midnight','mint','misty','moccasin','navajo','navy','olive','orange','orchid','pale','papaya','peach','peru','pink','plum','powder','puff','purple','red','rose','rosy','royal','saddle','salmon','sandy','seashell','sienna','sky','slate','smoke','snow','spring','steel','tan','thistle','tomato','turquoise','violet','wheat','white','yellow')`,
    'partsupp domains': `select count(*) from read_parquet('${dir}/parquet/partsupp.parquet', file_row_number = true)
        where not (ps_partkey = file_row_number // 4 + 1
          and ps_suppkey = (ps_partkey + (file_row_number % 4) * (${expected.supplier} // 4 + (ps_partkey - 1) // ${expected.supplier})) % ${expected.supplier} + 1
          and ps_availqty between 1 and 9999 and ps_supplycost between 1.00 and 1000.00
          and length(ps_comment) between 49 and 198)`,
    'customer and supplier domains': `select (select count(*) from customer where not (
          c_name = 'Customer#' || lpad(c_custkey::varchar, 9, '0')
          and length(c_address) between 10 and 40 and c_nationkey between 0 and 24
          and regexp_full_match(c_phone, '[0-9]{2}-[0-9]{3}-[0-9]{3}-[0-9]{4}')
          and cast(substr(c_phone, 1, 2) as integer) = c_nationkey + 10
          and c_acctbal between -999.99 and 9999.99
          and c_mktsegment in ('AUTOMOBILE', 'BUILDING', 'FURNITURE', 'MACHINERY', 'HOUSEHOLD')
          and length(c_comment) between 29 and 116))
        + (select count(*) from supplier where not (
          s_name = 'Supplier#' || lpad(s_suppkey::varchar, 9, '0')
          and length(s_address) between 10 and 40 and s_nationkey between 0 and 24
          and regexp_full_match(s_phone, '[0-9]{2}-[0-9]{3}-[0-9]{3}-[0-9]{4}')
          and cast(substr(s_phone, 1, 2) as integer) = s_nationkey + 10
          and s_acctbal between -999.99 and 9999.99 and length(s_comment) between 25 and 100))`,
    'nation and region contents': `select count(*) from (select n_nationkey, n_name, r_name from nation join region on n_regionkey = r_regionkey)
        full join (values (0,'ALGERIA','AFRICA'),(1,'ARGENTINA','AMERICA'),(2,'BRAZIL','AMERICA'),(3,'CANADA','AMERICA'),(4,'EGYPT','MIDDLE EAST'),(5,'ETHIOPIA','AFRICA'),(6,'FRANCE','EUROPE'),(7,'GERMANY','EUROPE'),(8,'INDIA','ASIA'),(9,'INDONESIA','ASIA'),(10,'IRAN','MIDDLE EAST'),(11,'IRAQ','MIDDLE EAST'),(12,'JAPAN','ASIA'),(13,'JORDAN','MIDDLE EAST'),(14,'KENYA','AFRICA'),(15,'MOROCCO','AFRICA'),(16,'MOZAMBIQUE','AFRICA'),(17,'PERU','AMERICA'),(18,'CHINA','ASIA'),(19,'ROMANIA','EUROPE'),(20,'SAUDI ARABIA','MIDDLE EAST'),(21,'VIETNAM','ASIA'),(22,'RUSSIA','EUROPE'),(23,'UNITED KINGDOM','EUROPE'),(24,'UNITED STATES','AMERICA')) v(k, n, r)
        on n_nationkey = k and n_name = n and r_name = r where k is null or n_nationkey is null`,
  };
  for (const [what, sql] of Object.entries(violations)) {
    const bad = Number(await scalar(sql));
    report(bad === 0, `sf ${sf} ${what}`, bad ? `${bad} violations` : '');
  }

  // The same aggregates: DuckDB over the Parquet files, over the CSV files, Sluice in memory
  // (one process for every table; each result starts with its header row, 'n' first).
  const sluiceResults = [];
  for (const row of sluiceRows(sluice, `CALL dbgen(sf = ${sf}); ${TPCH_TABLES.map((t) => aggregateSql(t) + ';').join(' ')}`)) {
    if (row[0] === 'n') sluiceResults.push([row]);
    else if (sluiceResults.length) sluiceResults[sluiceResults.length - 1].push(row);
  }
  for (const [t, table] of TPCH_TABLES.entries()) {
    const fromParquet = await textRows(aggregateSql(table));
    const fromCsv = await textRows(aggregateSql(table).replace(` from ${table}`, ` from csv_${table}`));
    const ours = sluiceResults[t];
    const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
    report(same(fromParquet, ours), `sf ${sf} ${table}: DuckDB on our Parquet = Sluice in memory`,
      same(fromParquet, ours) ? '' : `${JSON.stringify(fromParquet[1])} vs ${JSON.stringify(ours[1])}`);
    report(same(fromCsv, fromParquet), `sf ${sf} ${table}: DuckDB on our CSV = on our Parquet`,
      same(fromCsv, fromParquet) ? '' : `${JSON.stringify(fromCsv[1])} vs ${JSON.stringify(fromParquet[1])}`);
  }
}

// Layouts: row groups of exactly row_group_size rows (the last of each file shorter), rows split
// evenly over `files` files; and one row group per file.
const layoutDir = path.join(work, 'layout');
const layouts = [[10000, 3], [1000000000, 2], [4096, 1]];
sluiceRun(layouts.map(([rowGroup, files]) => `CALL dbgen(sf = 0.01, path = '${path.join(layoutDir, `${rowGroup}_${files}`)}', ` +
  `tables = ['lineitem'], row_group_size = ${rowGroup}, files = ${files});`).join(' '));
for (const [rowGroup, files] of layouts) {
  const dir = path.join(layoutDir, `${rowGroup}_${files}`);
  const pattern = files === 1 ? `${dir}/lineitem.parquet` : `${dir}/lineitem/*.parquet`;
  const total = Number(await scalar(`select count(*) from read_parquet('${pattern}')`));
  const groups = await textRows(`select file_name, row_group_id, row_group_num_rows from parquet_metadata('${pattern}')
      group by all order by file_name, row_group_id`);
  const fileNames = [...new Set(groups.slice(1).map((g) => g[0]))];
  let ok = fileNames.length === files;
  let detail = `${fileNames.length} files`;
  fileNames.forEach((name, f) => {
    const rows = Math.floor(total * (f + 1) / files) - Math.floor(total * f / files);
    const sizes = groups.slice(1).filter((g) => g[0] === name).map((g) => Number(g[2]));
    const want = [];
    for (let left = rows; left > 0; left -= rowGroup) want.push(Math.min(rowGroup, left));
    if (JSON.stringify(sizes) !== JSON.stringify(want)) {
      ok = false;
      detail += `; ${path.basename(name)} has row groups ${JSON.stringify(sizes.slice(0, 5))}..., expected ${JSON.stringify(want.slice(0, 5))}...`;
    }
  });
  const ours = sluiceRows(sluice, `select count(*), sum(row_group_num_rows) from (select distinct file_name, row_group_id, row_group_num_rows from parquet_metadata('${pattern}'))`);
  const expectedGroups = groups.length - 1;
  if (Number(ours[1][0]) !== expectedGroups || Number(ours[1][1]) !== total) {
    ok = false;
    detail += `; Sluice's parquet_metadata sees ${ours[1][0]} row groups / ${ours[1][1]} rows`;
  }
  report(ok, `layout row_group_size=${rowGroup} files=${files}`, `${detail}, ${expectedGroups} row groups, ${total} rows`);
}

// Determinism: the same call twice writes the same bytes (Parquet and CSV, several files).
const runs = ['a', 'b'].map((run) => {
  const dir = path.join(work, 'determinism', run);
  sluiceRun(`CALL dbgen(sf = 0.01, path = '${dir}/parquet', files = 2, row_group_size = 5000); ` +
    `CALL dbgen(sf = 0.01, path = '${dir}/csv', format = 'csv')`);
  return Object.fromEntries(filesUnder(dir).map((f) => [f, sha(path.join(dir, f))]));
});
const identical = JSON.stringify(runs[0]) === JSON.stringify(runs[1]) && Object.keys(runs[0]).length > 0;
report(identical, 'two runs write byte-identical files', `${Object.keys(runs[0]).length} files`);

process.exit(failures ? 1 : 0);
