"""sluice.dask on a Dask LocalCluster of two worker processes: TPC-H Q1 and Q6 over 40 Parquet
files (and over partitions cut from row groups) equal the single-process answer exactly, and a
worker killed while it holds partitions' results makes Dask run those again, the answer still
exact. Debian's python3-dask and python3-distributed.
"""
import os
import pathlib
import shutil
import signal
import subprocess
import tempfile
import time
import unittest

from dask.distributed import Client, LocalCluster

import sluice
import sluice.dask

ROOT = pathlib.Path(__file__).resolve().parents[2]


def tpch_query(number):
    return (ROOT / "tpch" / "queries" / f"q{number:02d}.sql").read_text().strip().rstrip(";")


def sluice_binary():
    return os.environ.get("SLUICE_BINARY", str(ROOT / "build" / "sluice"))


class DaskScaleOut(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.data = pathlib.Path(tempfile.mkdtemp(prefix="sluice_dask_"))
        # SF 0.1 lineitem in 40 files of several row groups each.
        subprocess.run([sluice_binary(), "gen-tpch", "--out", str(cls.data), "--sf", "0.1",
                        "--tables", "lineitem", "--files", "40", "--row-group-size", "4000"],
                       check=True, capture_output=True)
        cls.pattern = str(cls.data / "lineitem" / "*.parquet")
        cls.files = sorted((cls.data / "lineitem").glob("*.parquet"))
        cls.cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                   dashboard_address=None, silence_logs=50)
        cls.client = Client(cls.cluster)

    @classmethod
    def tearDownClass(cls):
        cls.client.close()
        cls.cluster.close()
        shutil.rmtree(cls.data, ignore_errors=True)

    def single_process(self, query):
        con = sluice.connect()
        con.execute(f"CREATE VIEW lineitem AS SELECT * FROM read_parquet('{self.pattern}')")
        return con.sql(query).fetchall()

    def distributed(self, query, **options):
        return sluice.dask.sql(query, {"lineitem": self.pattern}, client=self.client,
                               config={"threads": 1}, form="rows", **options)

    def test_forty_files(self):
        self.assertEqual(len(self.files), 40)
        for number in (1, 6):
            expected = self.single_process(tpch_query(number))
            self.assertTrue(expected and expected[0][0] is not None)
            for files_per_partition in (1, None):  # a file each, and the default grouping
                with self.subTest(query=number, files_per_partition=files_per_partition):
                    self.assertEqual(self.distributed(tpch_query(number),
                                                      files_per_partition=files_per_partition),
                                     expected)

    def test_row_group_partitions(self):
        partitions = sluice.dask.plan_partitions(self.pattern, rows_per_partition=4000)
        self.assertGreater(len(partitions), 2 * len(self.files))  # files cut by row groups
        covered = {}
        for files, first, last in partitions:
            covered.setdefault(files[0], []).append((first, last))
        rows = dict(sluice.connect().sql(
            f"SELECT filename, count(*) FROM read_parquet('{self.pattern}', filename = true) "
            "GROUP BY filename").fetchall())
        for file, ranges in covered.items():  # each file's rows, once, in order
            self.assertEqual(ranges[0][0], 0)
            self.assertEqual(ranges[-1][1], rows[file] - 1)
            self.assertTrue(all(a[1] + 1 == b[0] for a, b in zip(ranges, ranges[1:])))
        for number in (1, 6):
            with self.subTest(query=number):
                self.assertEqual(self.distributed(tpch_query(number), rows_per_partition=4000),
                                 self.single_process(tpch_query(number)))

    def test_rows_concatenated_and_a_dataframe(self):
        query = ("SELECT l_orderkey, l_linenumber, l_comment FROM lineitem WHERE l_quantity = 7 "
                 "ORDER BY l_orderkey, l_linenumber LIMIT 500")
        self.assertEqual(self.distributed(query), self.single_process(query))
        frame = sluice.dask.sql("SELECT l_returnflag, count(*) AS n, avg(l_tax) AS tax FROM "
                                "lineitem GROUP BY l_returnflag ORDER BY l_returnflag",
                                {"lineitem": self.pattern}, client=self.client)
        expected = self.single_process("SELECT l_returnflag, count(*) AS n, avg(l_tax) AS tax "
                                       "FROM lineitem GROUP BY l_returnflag ORDER BY 1")
        self.assertEqual(list(frame.columns), ["l_returnflag", "n", "tax"])
        self.assertEqual([tuple(row) for row in frame.itertuples(index=False)], expected)

    def test_what_does_not_distribute_is_refused(self):
        tables = {"lineitem": self.pattern}
        for query, words in [
                ("SELECT count(DISTINCT l_partkey) FROM lineitem", "DISTINCT"),
                ("SELECT * FROM lineitem JOIN orders ON l_orderkey = o_orderkey", "join"),
                ("SELECT 1 FROM lineitem UNION SELECT 2 FROM lineitem", "twice")]:
            with self.subTest(query=query), self.assertRaisesRegex(NotImplementedError, words):
                sluice.dask.sql(query, tables, client=self.client)

    def test_a_killed_worker_is_recovered(self):
        query = tpch_query(1)
        expected = self.single_process(query)
        partials, final = sluice.dask.delayed_query(query, {"lineitem": self.pattern},
                                                    config={"threads": 1}, form="rows")
        futures = self.client.compute(partials)
        self.client.gather(futures)  # every partition done, its result held by a worker
        holders = self.client.who_has(futures)
        pids = self.client.run(os.getpid)
        victim = next(iter(holders[futures[0].key]))
        lost = [f.key for f in futures if victim in holders[f.key]]
        self.assertTrue(lost)
        os.kill(pids[victim], signal.SIGKILL)  # before the partials are combined
        deadline = time.time() + 60
        while victim in self.client.scheduler_info()["workers"] and time.time() < deadline:
            time.sleep(0.1)
        self.assertNotIn(victim, self.client.scheduler_info()["workers"])
        # The lost partitions run again (the nanny also restarts the worker) and the answer is
        # the same.
        self.assertEqual(self.client.compute(final).result(), expected)
        del futures


if __name__ == "__main__":
    unittest.main()
