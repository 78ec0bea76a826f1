// Differential testing against DuckDB: queries generated from a seed (random expressions, filters,
// joins, aggregates, window functions, subqueries) over small random tables with NULLs and
// duplicates, run on Sluice and on DuckDB, their answers compared as multisets (DOUBLE values to
// 1e-9 relative). A second oracle needs no DuckDB: ternary logic partitioning (SQLancer's TLP):
// a query's rows are exactly those of the same query filtered by p, by NOT p and by p IS NULL.
// A different answer, an INTERNAL error or a crash fails, printing the query and both answers.
// Errors where DuckDB answers (a function Sluice lacks) are counted, not failed.
//
//   node tests/oracle/differential.mjs SLUICE [--seed N] [--queries N]
import { DuckDBInstance } from '@duckdb/node-api';
import { sluiceAnswers } from './sluice_batch.mjs';
import { NULL } from './sluice_cli.mjs';

const sluice = process.argv[2];
const option = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const seed = option('--seed', 20261207);
const queryCount = option('--queries', 3000);

// mulberry32: a small seeded generator, so that a failure can be run again.
let state = seed >>> 0;
function random() {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (list) => list[Math.floor(random() * list.length)];
const chance = (p) => random() < p;
const integer = (low, high) => low + Math.floor(random() * (high - low + 1));

// Tables t0, t1, t2 (k unique, for orders without ties): few distinct values, many NULLs.
const tables = ['t0', 't1', 't2'];
const columns = { a: 'INTEGER', b: 'BIGINT', c: 'VARCHAR', d: 'DOUBLE', e: 'BOOLEAN' };
function literal(type) {
  if (chance(0.2)) return 'NULL';
  switch (type) {
    case 'INTEGER': case 'BIGINT': return String(integer(-5, 5));
    case 'VARCHAR': return `'${pick(['', 'a', 'b', 'ab', 'B', 'abc', 'z z'])}'`;
    case 'DOUBLE': return pick(['0.5', '-1.25', '2.0', '0.0', '3.75', '-0.0']);
    default: return pick(['true', 'false']);
  }
}
const setup = [];
for (const table of tables) {
  setup.push(`CREATE TABLE ${table} (k INTEGER, ${Object.entries(columns).map(([n, t]) => `${n} ${t}`).join(', ')});`);
  const rows = [];
  for (let k = 0; k < integer(5, 25); k++) {
    rows.push(`(${k}, ${Object.values(columns).map(literal).join(', ')})`);
  }
  setup.push(`INSERT INTO ${table} VALUES ${rows.join(', ')};`);
}

// Expressions of a type over the columns of `scope` (qualified names), `depth` levels deep.
function expression(type, scope, depth = 2) {
  const column = () => {
    const names = Object.keys(columns).filter((n) => columns[n] === type ||
      (type === 'BIGINT' && columns[n] === 'INTEGER'));
    return names.length ? `${pick(scope)}.${pick(names)}` : literal(type);
  };
  if (depth === 0 || chance(0.3)) return chance(0.7) ? column() : literal(type);
  const sub = (t) => expression(t, scope, depth - 1);
  switch (type) {
    case 'INTEGER': case 'BIGINT':
      return pick([
        () => `(${sub('INTEGER')} ${pick(['+', '-', '*'])} ${sub('INTEGER')})`,
        () => `(${sub('INTEGER')} // ${sub('INTEGER')})`,
        () => `(${sub('INTEGER')} % ${sub('INTEGER')})`,
        () => `abs(${sub('INTEGER')})`,
        () => `CASE WHEN ${sub('BOOLEAN')} THEN ${sub('INTEGER')} ELSE ${sub('INTEGER')} END`,
        () => `coalesce(${sub('INTEGER')}, ${sub('INTEGER')})`,
        () => `nullif(${sub('INTEGER')}, ${sub('INTEGER')})`,
        () => `length(${sub('VARCHAR')})`,
        () => `greatest(${sub('INTEGER')}, ${sub('INTEGER')})`,
        () => `CAST(${sub('DOUBLE')} AS INTEGER)`,
      ])();
    case 'DOUBLE':
      return pick([
        () => `(${sub('DOUBLE')} ${pick(['+', '-', '*'])} ${sub('DOUBLE')})`,
        () => `(${sub('INTEGER')} / ${sub('INTEGER')})`,
        () => `round(${sub('DOUBLE')}, ${integer(0, 2)})`,
        () => `CAST(${sub('INTEGER')} AS DOUBLE)`,
        () => `coalesce(${sub('DOUBLE')}, ${sub('DOUBLE')})`,
      ])();
    case 'VARCHAR':
      return pick([
        () => `(${sub('VARCHAR')} || ${sub('VARCHAR')})`,
        () => `upper(${sub('VARCHAR')})`,
        () => `lower(${sub('VARCHAR')})`,
        () => `substr(${sub('VARCHAR')}, ${integer(0, 3)}, ${integer(0, 3)})`,
        () => `CASE WHEN ${sub('BOOLEAN')} THEN ${sub('VARCHAR')} END`,
        () => `CAST(${sub('INTEGER')} AS VARCHAR)`,
        () => `replace(${sub('VARCHAR')}, 'a', 'x')`,
      ])();
    default:
      return pick([
        () => `(${sub('INTEGER')} ${pick(['=', '<>', '<', '<=', '>', '>='])} ${sub('INTEGER')})`,
        () => `(${sub('VARCHAR')} ${pick(['=', '<', '>='])} ${sub('VARCHAR')})`,
        () => `(${sub('DOUBLE')} ${pick(['=', '<', '>'])} ${sub('DOUBLE')})`,
        () => `(${sub('BOOLEAN')} ${pick(['AND', 'OR'])} ${sub('BOOLEAN')})`,
        () => `(NOT ${sub('BOOLEAN')})`,
        () => `(${sub('INTEGER')} IS ${pick(['', 'NOT '])}NULL)`,
        () => `(${sub('INTEGER')} ${pick(['', 'NOT '])}BETWEEN ${sub('INTEGER')} AND ${sub('INTEGER')})`,
        () => `(${sub('INTEGER')} ${pick(['', 'NOT '])}IN (${literal('INTEGER')}, ${literal('INTEGER')}, ${literal('INTEGER')}))`,
        () => `(${sub('VARCHAR')} ${pick(['', 'NOT '])}LIKE '${pick(['a%', '%b', '_', '%', 'a_c'])}')`,
        () => `(${sub('INTEGER')} IS DISTINCT FROM ${sub('INTEGER')})`,
      ])();
  }
}
const anyType = () => pick(['INTEGER', 'BIGINT', 'DOUBLE', 'VARCHAR', 'BOOLEAN']);

// One query of a random shape; `where` is its filter, given apart for TLP.
function query() {
  const t = pick(tables), u = pick(tables);
  const shapes = [
    () => { // projection and filter
      const where = expression('BOOLEAN', ['x']);
      return { select: `SELECT x.k, ${expression(anyType(), ['x'])} AS v FROM ${t} x`, where };
    },
    () => { // grouped aggregate
      const key = expression(pick(['INTEGER', 'VARCHAR', 'BOOLEAN']), ['x'], 1);
      const agg = pick(['count(*)', `count(x.${pick(['a', 'c', 'e'])})`, `sum(x.${pick(['a', 'b'])})`,
        `min(${expression('VARCHAR', ['x'], 1)})`, `max(x.d)`, `avg(x.a)`, `count(DISTINCT x.a)`,
        `bool_or(x.e)`, `string_agg(x.c, ',' ORDER BY x.k)`, `sum(x.a) FILTER (WHERE x.e)`]);
      return { select: `SELECT ${key} AS g, ${agg} AS v FROM ${t} x`, where: expression('BOOLEAN', ['x']), group: 'g' };
    },
    () => { // join
      const kind = pick(['JOIN', 'LEFT JOIN', 'FULL JOIN', 'RIGHT JOIN']);
      const on = chance(0.7) ? `x.a = y.${pick(['a', 'b'])}` : expression('BOOLEAN', ['x', 'y']);
      return { select: `SELECT x.k, y.k AS k2, ${expression(anyType(), ['x', 'y'])} AS v FROM ${t} x ${kind} ${u} y ON ${on}`,
        where: expression('BOOLEAN', ['x', 'y']) };
    },
    () => { // subqueries: correlated scalar, EXISTS, IN
      const inner = pick([
        `(SELECT max(y.b) FROM ${u} y WHERE y.a = x.a) AS v`,
        `(SELECT count(*) FROM ${u} y WHERE y.c = x.c) AS v`,
        `EXISTS (SELECT 1 FROM ${u} y WHERE y.a = x.b) AS v`,
        `x.a IN (SELECT y.b FROM ${u} y) AS v`,
        `x.a NOT IN (SELECT y.a FROM ${u} y WHERE y.a IS NOT NULL) AS v`,
      ]);
      return { select: `SELECT x.k, ${inner} FROM ${t} x`, where: expression('BOOLEAN', ['x']) };
    },
    () => { // window functions, ordered without ties by k
      const fn = pick(['row_number()', 'rank()', 'dense_rank()', 'sum(x.a)', 'count(x.c)', 'min(x.b)',
        'lag(x.a)', 'lead(x.c, 2)', 'first_value(x.d)', 'avg(x.a)']);
      const frame = fn.includes('sum') || fn.includes('count') || fn.includes('min')
        ? pick(['', ' ROWS BETWEEN 1 PRECEDING AND CURRENT ROW', ' ROWS BETWEEN UNBOUNDED PRECEDING AND 1 FOLLOWING']) : '';
      const partition = chance(0.6) ? `PARTITION BY x.${pick(['a', 'c', 'e'])} ` : '';
      return { select: `SELECT x.k, ${fn} OVER (${partition}ORDER BY x.${pick(['a', 'b'])}, x.k${frame}) AS v FROM ${t} x`,
        where: null };
    },
    () => { // aggregates over a join, HAVING, ROLLUP
      const group = pick(['x.a', 'y.c', 'x.e', 'ROLLUP (x.a, y.e)', 'CUBE (x.e, y.e)']);
      const having = chance(0.5) ? ` HAVING ${pick(['count(*) > 1', 'sum(x.b) IS NOT NULL', 'min(y.a) < 2'])}` : '';
      return { select: `SELECT ${group.startsWith('ROLLUP') ? 'x.a, y.e' : group.startsWith('CUBE') ? 'x.e, y.e' : group} AS g2, count(*) AS n, sum(y.b) AS s ` +
        `FROM ${t} x ${pick(['JOIN', 'LEFT JOIN'])} ${u} y ON x.a = y.a GROUP BY ${group}${having}`, where: null };
    },
    () => { // ORDER BY without ties, LIMIT and OFFSET
      return { select: `SELECT x.k, ${expression(anyType(), ['x'])} AS v FROM ${t} x WHERE ${expression('BOOLEAN', ['x'])} ` +
        `ORDER BY ${pick(['x.k', 'x.a NULLS FIRST, x.k', 'x.c DESC, x.k', 'x.d, x.k DESC'])} LIMIT ${integer(0, 8)} OFFSET ${integer(0, 3)}`, where: null };
    },
    () => { // RANGE frames, CTEs read twice, filters by correlated subqueries
      return pick([
        () => ({ select: `SELECT x.k, sum(x.b) OVER (ORDER BY x.a RANGE BETWEEN ${integer(0, 2)} PRECEDING AND ${integer(0, 2)} FOLLOWING) AS v FROM ${t} x`, where: null }),
        () => ({ select: `WITH w AS (SELECT x.a, count(*) AS n FROM ${t} x GROUP BY x.a) SELECT w1.a, w1.n, w2.n AS n2 FROM w w1 JOIN w w2 ON w1.a = w2.a - 1`, where: null }),
        () => ({ select: `SELECT x.k FROM ${t} x WHERE x.b > (SELECT avg(y.b) FROM ${u} y WHERE y.e = x.e)`, where: null }),
        () => ({ select: `SELECT x.k FROM ${t} x WHERE x.a ${pick(['=', '>', '<>'])} ${pick(['ANY', 'ALL'])} (SELECT y.a FROM ${u} y WHERE y.c = x.c)`, where: null }),
        () => ({ select: `SELECT x.k FROM ${t} x WHERE NOT EXISTS (SELECT 1 FROM ${u} y WHERE y.a = x.a AND y.k <> x.k)`, where: null }),
      ])();
    },
    () => { // set operations and DISTINCT
      const op = pick(['UNION', 'UNION ALL', 'INTERSECT', 'EXCEPT']);
      return { select: `SELECT ${chance(0.5) ? 'DISTINCT ' : ''}${expression('INTEGER', ['x'], 1)} AS v FROM ${t} x ${op} SELECT y.a FROM ${u} y`,
        where: null };
    },
  ];
  return pick(shapes)();
}

function text({ select, where, group }) {
  return `${select}${where ? ` WHERE ${where}` : ''}${group ? ` GROUP BY ${group}` : ''}`;
}

const instance = await DuckDBInstance.create(':memory:');
const duck = await instance.connect();
await duck.run('SET threads = 2');
for (const statement of setup) await duck.run(statement);

async function duckAnswer(sql) {
  try {
    const reader = await duck.runAndReadAll(`SELECT COLUMNS(*)::VARCHAR FROM (${sql})`);
    const types = (await duck.runAndReadAll(`DESCRIBE ${sql}`)).getRows().map((row) => row[1]);
    return { rows: reader.getRows().map((row) => row.map((v) => (v === null ? NULL : String(v)))), types };
  } catch (error) {
    return { error: error.message.split('\n')[0] };
  }
}

const same = (a, b, type) => a === b || (type === 'DOUBLE' && a !== NULL && b !== NULL &&
  Math.abs(Number(a) - Number(b)) <= 1e-9 * Math.max(1, Math.abs(Number(a))));
function sameMultiset(left, right, types) {
  if (left.length !== right.length) return false;
  // Sorted by a key in which DOUBLEs are rounded, then compared pairwise within the tolerance.
  const key = (row) => JSON.stringify(row.map((v, i) => (types[i] === 'DOUBLE' && v !== NULL ? Number(v).toPrecision(9) : v)));
  const order = (rows) => rows.map((row) => [key(row), row]).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const a = order(left), b = order(right);
  return a.every(([, row], r) => row.every((v, i) => same(v, b[r][1][i], types[i])));
}

// The queries, and for those with a filter, TLP's three parts as one query.
const generated = [];
for (let i = 0; i < queryCount; i++) {
  const q = query();
  generated.push({ sql: text(q), tlp: null });
  if (q.where && !q.group) {
    const base = q.select;
    generated.push({ sql: base, tlp: `${base} WHERE ${q.where} UNION ALL ${base} WHERE NOT (${q.where}) UNION ALL ${base} WHERE (${q.where}) IS NULL` });
  }
}
const statements = generated.flatMap((g) => (g.tlp ? [g.sql, g.tlp] : [g.sql]));
const answers = sluiceAnswers(sluice, statements, setup);

const failures = [];
let compared = 0, sluiceOnlyErrors = 0, bothErrors = 0, at = 0;
for (const g of generated) {
  const mine = answers[at++];
  const tlp = g.tlp ? answers[at++] : null;
  const broken = (answer) => answer.crashed || (answer.error && /INTERNAL/.test(answer.error));
  if (broken(mine) || (tlp && broken(tlp))) {
    failures.push(`${g.tlp ?? g.sql}\n  Sluice: ${(broken(mine) ? mine : tlp).error}`);
    continue;
  }
  const expected = await duckAnswer(g.sql);
  if (expected.error || mine.error) {
    if (expected.error && mine.error) bothErrors++;
    else if (mine.error) {
      sluiceOnlyErrors++;
      if (process.argv.includes("--verbose")) console.log(`SLUICE ERROR ${g.sql}\n  ${mine.error}`);
    }
    else failures.push(`${g.sql}\n  Sluice answered; DuckDB: ${expected.error}`);
    continue;
  }
  compared++;
  const rows = mine.rows.slice(1);
  if (!sameMultiset(expected.rows, rows, expected.types)) {
    failures.push(`${g.sql}\n  Sluice (${rows.length} rows): ${JSON.stringify(rows.slice(0, 6))}\n  DuckDB (${expected.rows.length} rows): ${JSON.stringify(expected.rows.slice(0, 6))}`);
    continue;
  }
  if (tlp && !tlp.error && !sameMultiset(rows, tlp.rows.slice(1), expected.types)) {
    failures.push(`TLP: ${g.tlp}\n  parts give ${tlp.rows.length - 1} rows, the whole ${rows.length}`);
  }
}
for (const failure of failures.slice(0, 20)) console.log(`FAIL ${failure}`);
console.log(`seed ${seed}: ${generated.length} queries, ${compared} answered by both engines and compared ` +
  `(TLP on those with a filter), ${bothErrors} refused by both, ${sluiceOnlyErrors} errors in Sluice only, ` +
  `${failures.length} failures`);
process.exit(failures.length ? 1 : 0);
