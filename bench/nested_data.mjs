// Nested data over TPC-H lineitem, Sluice beside DuckDB 1.5.6 (see side_by_side.mjs): lists
// built per row and unnested again, lists aggregated per group and taken apart, structs built
// and read, and nested Parquet columns (each order's line items as a list of structs, written by
// DuckDB) read whole, unnested and taken apart. Each query reduces to one number both engines
// must agree on.
//
//   node bench/nested_data.mjs [--sf 1] [--repetitions 3] [--threads N]
import { DuckDBInstance } from '@duckdb/node-api';
import { argument, compareWithDuckDB } from './side_by_side.mjs';
import { generateTpch } from '../tests/tpch/generate.mjs';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const sf = argument('--sf', 1);
const dataDir = join(root, 'build', 'bench-data', `tpch_sf${sf}`);
generateTpch(join(root, 'build', 'sluice'), sf, dataDir);
const orders = join(dataDir, 'orders_nested.parquet');
if (!existsSync(orders)) {
  const instance = await DuckDBInstance.create(':memory:');
  const duck = await instance.connect();
  await duck.run(`COPY (SELECT l_orderkey AS orderkey,
      list({'part': l_partkey, 'quantity': l_quantity, 'price': l_extendedprice,
            'mode': l_shipmode} ORDER BY l_linenumber) AS items,
      list(l_comment ORDER BY l_linenumber) AS comments
    FROM read_parquet('${join(dataDir, 'lineitem.parquet')}') GROUP BY l_orderkey)
    TO '${orders}' (FORMAT parquet)`);
}
const scan = `read_parquet('${orders}')`;

await compareWithDuckDB('Nested data', {
  // unnest of a generated four-element list column: four rows out per row in.
  unnest: `SELECT sum(u) FROM (SELECT unnest([l_orderkey, l_partkey, l_suppkey, l_linenumber])
    AS u FROM lineitem)`,
  // A list per order, then its length and its largest element (its order is arbitrary).
  list_per_group: `SELECT sum(len(l) + list_max(l)) FROM (SELECT list(l_partkey) AS l FROM lineitem
    GROUP BY l_orderkey)`,
  // A struct per row, a field read back.
  struct_field: `SELECT sum(s.q * s.d) FROM (SELECT {'q': l_quantity, 'd': l_discount} AS s
    FROM lineitem)`,
  // Nested Parquet: a list of structs and a list of strings per order, read whole.
  parquet_lists: `SELECT sum(len(items) + len(comments)) FROM ${scan}`,
  // The same list's struct fields, read from every element.
  parquet_unnest: `SELECT sum(i.quantity * i.price) FROM (SELECT unnest(items) AS i FROM ${scan})`,
  // One element's field per order.
  parquet_element: `SELECT sum(items[1].part) FROM ${scan}`,
});
