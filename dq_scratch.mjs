import { DuckDBInstance } from '@duckdb/node-api';
const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
for (const q of process.argv.slice(2)) {
  try {
    const r = await c.runAndReadAll(`SELECT COLUMNS(*)::VARCHAR FROM (${q})`);
    const t = await c.runAndReadAll(q);
    console.log(q, '|', t.columnNames().join(','), '|', t.columnTypes().map(String).join(','), '|', JSON.stringify(r.getRows()));
  } catch (e) { console.log(q, 'ERROR', e.message.split('\n')[0]); }
}
