// Nested data over TPC-H lineitem, Sluice beside DuckDB 1.5.6 (see side_by_side.mjs): lists
// built per row and unnested again, lists aggregated per group and taken apart, structs built
// and read. Each query reduces to one number both engines must agree on.
//
//   node bench/nested_data.mjs [--sf 1] [--repetitions 3] [--threads N]
import { compareWithDuckDB } from './side_by_side.mjs';

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
});
