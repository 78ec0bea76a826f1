"""TPC-H Q1 and Q6 over 8 Parquet files on a Dask LocalCluster of two worker processes, each
worker scanning and partially aggregating its files in a Sluice of its own (docs/scale-out.md).

    PYTHONPATH=build/python /usr/bin/python3 examples/dask_tpch.py [DIRECTORY]
"""
import pathlib
import sys
import tempfile

from dask.distributed import Client, LocalCluster

import sluice
import sluice.dask

QUERIES = pathlib.Path(__file__).resolve().parents[1] / "tpch" / "queries"


def main():
    directory = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp())
    (directory / "lineitem").mkdir(parents=True, exist_ok=True)
    con = sluice.connect()
    con.execute("CALL dbgen(sf = 0.05)")
    for part in range(8):
        con.execute(f"COPY (SELECT * FROM lineitem WHERE l_orderkey % 8 = {part}) "
                    f"TO '{directory}/lineitem/part{part}.parquet'")
    tables = {"lineitem": f"{directory}/lineitem/*.parquet"}
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        for number in (1, 6):
            query = (QUERIES / f"q{number:02d}.sql").read_text().strip().rstrip(";")
            frame = sluice.dask.sql(query, tables, client=client)
            print(f"TPC-H Q{number} on {len(cluster.workers)} Dask workers:")
            print(frame.to_string(index=False))
            # The same answer from one Sluice reading the files:
            local = sluice.connect()
            local.execute(f"CREATE VIEW lineitem AS SELECT * FROM read_parquet('{tables['lineitem']}')")
            same = sluice.dask.sql(query, tables, client=client, form="rows") == \
                local.sql(query).fetchall()
            print("equals one Sluice's answer:", same)
            if not same:
                sys.exit(1)


if __name__ == "__main__":
    main()
