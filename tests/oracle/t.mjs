import { DuckDBInstance } from '@duckdb/node-api';
const inst = await DuckDBInstance.create(':memory:');
const con = await inst.connect();
const qs = [process.argv[2]];
for (const q of qs) {
  try {
  const r = await con.runAndReadAll(q);
  console.log(JSON.stringify(r.columnNames()));
  console.log(JSON.stringify(r.columnTypes().map(t=>t.toString())));
  const r2 = await con.runAndReadAll(`SELECT COLUMNS(*)::VARCHAR FROM (${q})`);
  console.log(JSON.stringify(r2.getRows()));
  } catch (e) { console.log("ERR", e.message); }
}
