// COPY ... TO Parquet and CSV, Sluice beside DuckDB 1.5.6 (see side_by_side.mjs): a whole table,
// a sorted result, a filtered one and nested columns rewritten, both engines keeping the query's
// row order on every thread. Each COPY reports its row count, which both must agree on.
//
//   node bench/copy_files.mjs [--sf 1] [--repetitions 3] [--threads N]
import { argument, compareWithDuckDB } from './side_by_side.mjs';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const sf = argument('--sf', 1);
const dataDir = join(root, 'build', 'bench-data', `tpch_sf${sf}`);
const out = join(root, 'build', 'bench-data', 'copy_out');
mkdirSync(out, { recursive: true });
// orders_nested.parquet is written by bench/nested_data.mjs (run it once first).
const nested = join(dataDir, 'orders_nested.parquet');

await compareWithDuckDB('COPY to files', {
  lineitem: `COPY (SELECT * FROM lineitem) TO '${out}/lineitem.parquet'`,
  lineitem_sorted: `COPY (SELECT * FROM lineitem ORDER BY l_shipdate, l_orderkey, l_linenumber)
    TO '${out}/lineitem_sorted.parquet'`,
  lineitem_filtered: `COPY (SELECT * FROM lineitem WHERE l_quantity < 10)
    TO '${out}/lineitem_filtered.parquet'`,
  orders_nested: `COPY (SELECT * FROM read_parquet('${nested}')) TO '${out}/orders_nested.parquet'`,
  lineitem_csv: `COPY (SELECT * FROM lineitem) TO '${out}/lineitem.csv'`,
});
