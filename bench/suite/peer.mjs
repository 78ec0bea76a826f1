// One TPC-H Q6 run of a peer engine, in its own process so that the suite samples its CPU and
// memory the same way as Sluice's: DuckDB (@duckdb/node-api; no httpfs here, local files only)
// or Polars (nodejs-polars; local files and http:// URLs).
//
//   node bench/suite/peer.mjs duckdb|polars SOURCE THREADS once|hot [parquet|csv]
//
// Prints "seconds revenue". `hot` runs the query once first and times the second run.
const [engine, source, threads, mode, format = 'parquet'] = process.argv.slice(2);

const Q6 = `select sum(l_extendedprice * l_discount) as revenue from lineitem
  where l_shipdate >= date '1994-01-01' and l_shipdate < date '1995-01-01'
    and l_discount between 0.05 and 0.07 and l_quantity < 24`;

async function duckdbRunner() {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:', { threads: String(threads) });
  const connection = await instance.connect();
  const reader = format === 'csv' ? 'read_csv' : 'read_parquet';
  await connection.run(`CREATE VIEW lineitem AS SELECT * FROM ${reader}('${source}')`);
  return async () => String((await connection.runAndReadAll(Q6)).getRows()[0][0]);
}

async function polarsRunner() {
  // POLARS_MAX_THREADS is read when the library loads: the suite sets it in our environment.
  const { default: pl } = await import('nodejs-polars');
  return async () => {
    // CSV dates arrive as text: parsed with their format before the comparison.
    const scan = format === 'csv'
      ? pl.scanCSV(source).withColumns(pl.col('l_shipdate').str.strptime(pl.Date, '%Y-%m-%d'))
      : pl.scanParquet(source);
    const frame = await scan
      .filter(
        pl.col('l_shipdate').gtEq(pl.lit(new Date('1994-01-01')))
          .and(pl.col('l_shipdate').lt(pl.lit(new Date('1995-01-01'))))
          .and(pl.col('l_discount').gtEq(0.05))
          .and(pl.col('l_discount').ltEq(0.07))
          .and(pl.col('l_quantity').lt(24)),
      )
      .select(pl.col('l_extendedprice').mul(pl.col('l_discount')).sum().alias('revenue'))
      .collect();
    // Decimals do not cross into JavaScript in this version: the sum comes out as text.
    return String(frame.select(pl.col('revenue').cast(pl.Utf8)).toRecords()[0].revenue);
  };
}

const run = engine === 'duckdb' ? await duckdbRunner() : await polarsRunner();
if (mode === 'hot') await run();
const start = process.hrtime.bigint();
const revenue = await run();
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
console.log(`${seconds.toFixed(4)} ${revenue}`);
