"""The sluice Python module: results as Python objects, numpy arrays and pandas frames, parameters,
errors as DuckDB-named exception classes, the GIL released while a query runs, and Ctrl-C.

Run by CTest with Debian's /usr/bin/python3: python3 -m unittest discover -s tests/python
(PYTHONPATH pointing at build/python).
"""
import datetime
import decimal
import os
import signal
import threading
import time
import unittest
import uuid

import numpy
import pandas

import sluice

# A query that would run for minutes: ten billion rows filtered and summed.
LONG_QUERY = "SELECT sum(i % 7) FROM range(10000000000) t(i) WHERE i % 3 = 1"
# One that spends half a minute sorting 100 million rows (each task sorts its 50 million).
LONG_SORT = ("SELECT count(*), max(j) FROM (SELECT i % 1000003 AS j FROM range(100000000) t(i) "
             "ORDER BY j DESC LIMIT 50000000)")


class Results(unittest.TestCase):
    def setUp(self):
        self.con = sluice.connect()

    def test_version(self):
        self.assertRegex(sluice.__version__, r"^\d+\.\d+\.\d+$")

    def test_fetch_row_by_row_then_the_rest(self):
        result = self.con.sql("SELECT i, 'v' || i AS s FROM range(5) t(i)")
        self.assertEqual(result.fetchone(), (0, "v0"))
        self.assertEqual(result.fetchmany(2), [(1, "v1"), (2, "v2")])
        self.assertEqual(result.fetchall(), [(3, "v3"), (4, "v4")])
        self.assertIsNone(result.fetchone())
        self.assertEqual(result.fetchall(), [])

    def test_execute_fetches_from_the_connection(self):
        self.assertEqual(self.con.execute("SELECT 1 AS a, 2 AS b").fetchall(), [(1, 2)])
        self.assertEqual(self.con.description[0][:2], ("a", "INTEGER"))
        self.con.execute("SELECT i FROM range(3) t(i)")
        self.assertEqual(self.con.fetchone(), (0,))
        self.assertEqual(self.con.fetchall(), [(1,), (2,)])

    def test_values_as_python_objects(self):
        row = self.con.sql("""SELECT true, 7::TINYINT, 200::UTINYINT, 123456789012::BIGINT,
            170141183460469231731687303715884105727::HUGEINT, 1.5::FLOAT, 2.25::DOUBLE,
            12.345::DECIMAL(10,3), 'text', '\\x01\\xff'::BLOB, DATE '2024-02-29',
            TIME '13:14:15.5', TIMESTAMP '2024-02-29 13:14:15.123456',
            TIMESTAMPTZ '2024-02-29 13:14:15+00', INTERVAL '1 month 2 days 3 seconds',
            '12345678-1234-5678-1234-567812345678'::UUID, [1, NULL, 3], {'a': 1, 'b': 'x'},
            MAP {'k': 1}, NULL""").fetchone()
        utc = datetime.timezone.utc
        expected = (True, 7, 200, 123456789012, 2 ** 127 - 1, 1.5, 2.25, decimal.Decimal("12.345"),
                    "text", b"\x01\xff", datetime.date(2024, 2, 29),
                    datetime.time(13, 14, 15, 500000),
                    datetime.datetime(2024, 2, 29, 13, 14, 15, 123456),
                    datetime.datetime(2024, 2, 29, 13, 14, 15, tzinfo=utc),
                    datetime.timedelta(days=32, seconds=3),
                    uuid.UUID("12345678-1234-5678-1234-567812345678"), [1, None, 3],
                    {"a": 1, "b": "x"}, {"k": 1}, None)
        self.assertEqual(len(row), len(expected))
        for got, want in zip(row, expected):
            self.assertEqual(got, want)
            self.assertIs(type(got), type(want))

    def test_numpy_columns_masked_where_null(self):
        arrays = self.con.sql("""SELECT i::INTEGER AS i, i * 0.5 AS d,
            CASE WHEN i % 2 = 0 THEN NULL ELSE i END AS n, 'x' || i AS s
            FROM range(4) t(i)""").fetchnumpy()
        self.assertEqual(arrays["i"].dtype, numpy.int32)
        self.assertEqual(list(arrays["i"]), [0, 1, 2, 3])
        self.assertEqual(arrays["d"].dtype, numpy.float64)  # DECIMAL, as DuckDB's
        self.assertIsInstance(arrays["n"], numpy.ma.MaskedArray)
        self.assertEqual(list(arrays["n"].mask), [True, False, True, False])
        self.assertEqual(list(arrays["s"]), ["x0", "x1", "x2", "x3"])

    def test_pandas_frame(self):
        frame = self.con.sql("""SELECT i, i * 1.5::DOUBLE AS f,
            CASE WHEN i % 2 = 0 THEN NULL ELSE i END AS n, 'v' || i AS s,
            TIMESTAMP '2020-01-01' + INTERVAL (i) DAY AS t FROM range(4) t(i)""").df()
        self.assertIsInstance(frame, pandas.DataFrame)
        self.assertEqual(list(frame.columns), ["i", "f", "n", "s", "t"])
        self.assertEqual(frame["i"].dtype, numpy.int64)
        self.assertEqual(frame["f"].dtype, numpy.float64)
        self.assertEqual(frame["n"].dtype, numpy.float64)  # NULLs of an integer: NaN
        self.assertTrue(numpy.isnan(frame["n"][0]))
        self.assertEqual(frame["s"].tolist(), ["v0", "v1", "v2", "v3"])
        self.assertEqual(frame["t"][3], pandas.Timestamp("2020-01-04"))

    def test_text_of_every_length_ascii_or_not_into_pandas(self):
        # The strs are copied a word at a time, the last word overlapping: every length up to a
        # few words, with a character past ASCII first, in the middle, last or nowhere.
        texts = []
        for length in range(41):
            for copy in range(3):
                base = "".join(chr(ord("a") + (length + copy + i) % 26) for i in range(length))
                texts.append(base)
                for at in {0, length // 2, length - 1} if length else ():
                    texts.append(base[:at] + "é" + base[at + 1:])
        frame = pandas.DataFrame({"s": texts})  # noqa: F841 (queried by name)
        got = self.con.sql("SELECT s FROM frame").df()["s"].tolist()
        self.assertSameValues(got, texts)

    def test_times_and_intervals_to_numpy_and_pandas(self):
        query = """SELECT DATE '2024-02-29' AS d, TIMESTAMP '2024-02-29 13:14:15.25' AS t,
            TIMESTAMPTZ '2024-02-29 13:14:15+00' AS tz, '2024-02-29 13:14:15.123456789'::TIMESTAMP_NS AS ns,
            INTERVAL '1 month 2 days 3 seconds' AS i"""
        arrays = self.con.sql(query).fetchnumpy()
        self.assertEqual(arrays["d"].dtype, numpy.dtype("datetime64[us]"))
        self.assertEqual(arrays["d"][0], numpy.datetime64("2024-02-29T00:00:00", "us"))
        self.assertEqual(arrays["t"][0], numpy.datetime64("2024-02-29T13:14:15.250000", "us"))
        self.assertEqual(arrays["ns"][0], numpy.datetime64("2024-02-29T13:14:15.123456789", "ns"))
        self.assertEqual(arrays["i"][0], numpy.timedelta64(32 * 86400 + 3, "s"))
        frame = self.con.sql(query).df()
        self.assertEqual(frame["tz"][0], pandas.Timestamp("2024-02-29 13:14:15", tz="UTC"))
        self.assertEqual(str(frame["tz"].dtype), "datetime64[ns, UTC]")
        self.assertEqual(frame["i"][0], pandas.Timedelta(days=32, seconds=3))

    def test_nested_values_in_numpy_and_frames(self):
        # LIST, STRUCT and MAP columns are object columns of lists and dicts, NULL as None, at
        # every level.
        query = """SELECT CASE WHEN i = 1 THEN NULL ELSE [i, NULL, i + 1] END AS l,
            {'a': i::INTEGER, 'b': CASE WHEN i = 2 THEN NULL ELSE 'x' || i END} AS s,
            MAP {'k': i} AS m, [[i], []] AS ll FROM range(3) t(i)"""
        expected = {
            "l": [[0, None, 1], None, [2, None, 3]],
            "s": [{"a": 0, "b": "x0"}, {"a": 1, "b": "x1"}, {"a": 2, "b": None}],
            "m": [{"k": 0}, {"k": 1}, {"k": 2}],
            "ll": [[[0], []], [[1], []], [[2], []]],
        }
        arrays = self.con.sql(query).fetchnumpy()
        frame = self.con.sql(query).df()
        for name, values in expected.items():
            self.assertEqual(arrays[name].dtype, numpy.dtype(object))
            self.assertEqual(list(arrays[name]), values)
            self.assertEqual(str(frame[name].dtype), "object")
            self.assertEqual(frame[name].tolist(), values)

    def test_frames_hold_dates_as_pandas_does(self):
        frame = self.con.sql("""SELECT DATE '1999-12-31' + i::INTEGER AS d, 'x' || (i % 2) AS s,
            CASE WHEN i = 1 THEN NULL ELSE TIMESTAMP '2001-01-01 00:00:00.5' END AS t
            FROM range(3) t(i)""").df()
        unit = "ns" if pandas.__version__.startswith("1.") else "us"
        self.assertEqual(str(frame["d"].dtype), f"datetime64[{unit}]")
        self.assertEqual(frame["d"].tolist(), [pandas.Timestamp("1999-12-31"),
                                               pandas.Timestamp("2000-01-01"),
                                               pandas.Timestamp("2000-01-02")])
        self.assertTrue(pandas.isna(frame["t"][1]))
        self.assertEqual(frame["t"][2], pandas.Timestamp("2001-01-01 00:00:00.5"))
        self.assertEqual(frame["s"].tolist(), ["x0", "x1", "x0"])
        self.assertIs(frame["s"][0], frame["s"][2])  # a short repeated string is one object
        if unit == "ns":
            with self.assertRaisesRegex(sluice.OutOfRangeException, r"2300-01-01.*datetime64\[ns\]"):
                self.con.sql("SELECT TIMESTAMP '2300-01-01' AS far").df()

    def assertSameValues(self, values, expected):
        """values (a column) equals the list expected: names the first row that differs (without
        the diff of two long lists, which takes minutes)."""
        values = list(values)
        first = next((i for i, (a, b) in enumerate(zip(values, expected)) if a != b), None)
        self.assertEqual((len(values), first), (len(expected), None),
                         None if first is None else f"row {first}: {values[first]!r} against "
                         f"{expected[first]!r}")

    def test_frames_keep_the_rows_in_order_from_many_threads(self):
        # Row groups read by 4 threads, each chunk's objects made as it arrives: text that
        # repeats (one str per value) in the first half, distinct text in the second, NULLs in
        # both; then a filter that leaves a few rows a chunk.
        import tempfile
        con = sluice.connect(config={"threads": 4})
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "rows.parquet")
            con.execute(f"""COPY (SELECT i, CASE WHEN i % 7 = 0 THEN NULL WHEN i < 150000
                THEN 'r' || (i % 5) ELSE 'distinct text ' || i END AS s, i * 0.5::DOUBLE AS h
                FROM range(300000) t(i)) TO '{path}' (FORMAT parquet, ROW_GROUP_SIZE 10000)""")

            def text(i):
                if i % 7 == 0:
                    return None
                return f"r{i % 5}" if i < 150000 else f"distinct text {i}"

            for where, rows in [("", range(300000)), ("WHERE i % 1000 = 3", range(3, 300000, 1000))]:
                with self.subTest(where=where):
                    query = f"SELECT * FROM '{path}' {where}"
                    frame = con.sql(query).df()
                    self.assertSameValues(frame["i"], list(rows))
                    self.assertSameValues(frame["s"], [text(i) for i in rows])
                    self.assertSameValues(frame["h"], [i * 0.5 for i in rows])
                    arrays = con.sql(query).fetchnumpy()
                    self.assertSameValues(arrays["s"], [text(i) for i in rows])
                    # The same from a result that ran first (its chunks added afterwards).
                    self.assertSameValues(con.execute(query).df()["s"], [text(i) for i in rows])
            repeated = con.sql(f"SELECT s FROM '{path}' WHERE i < 1000").df()["s"]
            self.assertIs(repeated[1], repeated[6])  # 'r1' and 'r1' are one str

    def test_a_frame_made_again_reuses_the_memory_of_the_last(self):
        # The strs of a million distinct values fill pages Python's allocator frees with them;
        # the module keeps them, so the next frame's strs fault in few of those pages anew.
        import gc
        import resource
        import sys

        def page_faults():
            return resource.getrusage(resource.RUSAGE_SELF).ru_minflt

        query = "SELECT 'distinct text number ' || i AS s FROM range(1000000) t(i)"
        frame = self.con.sql(query).df()
        pages_of_strs = len(frame) * sys.getsizeof(frame["s"][0]) // 4096
        # Without the kept arenas every page of the strs faults in again (25 K faults); the
        # engine's own pages (chunks, arrays) add 3 to 6 K either way. Up to three tries: the
        # engine gives its freed memory back to the system once no statement has run for a
        # second, and on a loaded machine two frames can be that far apart (then 14 K).
        bound = pages_of_strs / 2
        faults = []
        while len(faults) < 3 and (not faults or faults[-1] >= bound):
            del frame
            gc.collect()
            before = page_faults()
            frame = self.con.sql(query).df()
            faults.append(page_faults() - before)
        self.assertEqual(frame["s"][999999], "distinct text number 999999")
        self.assertLess(min(faults), bound, f"{faults} page faults, {pages_of_strs} pages")

    def test_a_query_failing_as_its_rows_go_to_pandas(self):
        relation = self.con.sql("SELECT 'row ' || i AS s, CAST(CASE WHEN i = 2500000 THEN 'x' "
                                "ELSE i::VARCHAR END AS INTEGER) AS v FROM range(3000000) t(i)")
        with self.assertRaises(sluice.ConversionException) as caught:
            relation.df()
        self.assertIn("'x'", str(caught.exception))
        with self.assertRaises(sluice.InvalidInputException):
            relation.fetchnumpy()  # the query failed when it ran
        self.assertEqual(self.con.sql("SELECT 1").fetchall(), [(1,)])

    def test_a_million_rows_to_pandas_without_python_objects(self):
        frame = self.con.sql("SELECT i, i * 0.5::DOUBLE AS half FROM range(1000000) t(i)").df()
        self.assertEqual(len(frame), 1000000)
        self.assertEqual(frame["i"].dtype, numpy.int64)
        self.assertEqual(frame["half"].dtype, numpy.float64)
        self.assertEqual(int(frame["i"].sum()), 499999500000)

    def test_config_sets_settings(self):
        con = sluice.connect(config={"threads": 1, "memory_limit": "1GB"})
        rows = dict(con.sql("SELECT name, value FROM sluice_settings() "
                            "WHERE name IN ('threads', 'memory_limit')").fetchall())
        self.assertEqual(rows["threads"], "1")
        self.assertTrue(rows["memory_limit"].startswith("953."), rows["memory_limit"])


class Parameters(unittest.TestCase):
    def setUp(self):
        self.con = sluice.connect()

    def test_numbered_and_positional(self):
        self.assertEqual(self.con.execute("SELECT $2 || $1 || $2", ["a", "b"]).fetchone(), ("bab",))
        self.assertEqual(self.con.execute("SELECT ? + ?", [40, 2]).fetchone(), (42,))
        self.assertEqual(self.con.sql("SELECT ? * 2", [2.5]).fetchone(), (5.0,))

    def test_parameters_in_insert_and_create_table_as(self):
        self.con.execute("CREATE TABLE t (a INTEGER, b DECIMAL(12, 2))")
        self.con.execute("INSERT INTO t VALUES (?, ?), (?, ?)", [1, decimal.Decimal("2.50"), 3, None])
        self.con.execute("CREATE TABLE u AS SELECT $1::INTEGER * 2 AS v", [21])
        self.assertEqual(self.con.sql("SELECT * FROM t ORDER BY a").fetchall(),
                         [(1, decimal.Decimal("2.50")), (3, None)])
        self.assertEqual(self.con.sql("SELECT v FROM u").fetchall(), [(42,)])

    def test_python_values_as_parameters(self):
        values = [None, True, 2 ** 70, b"\x00\x01", datetime.date(2024, 1, 31),
                  datetime.datetime(2024, 1, 31, 12, 30), datetime.time(1, 2, 3),
                  datetime.timedelta(days=2, seconds=5)]
        row = self.con.execute("SELECT " + ", ".join("?" for _ in values), values).fetchone()
        self.assertEqual(list(row), values)

    def test_string_parameter_compared_to_a_date(self):
        self.con.execute("CREATE TABLE t AS SELECT DATE '2020-01-01' + i::INTEGER AS d FROM range(10) r(i)")
        self.assertEqual(self.con.execute("SELECT count(*) FROM t WHERE d > ?", ["2020-01-05"]).fetchone(), (5,))

    def test_wrong_number_of_values(self):
        with self.assertRaises(sluice.InvalidInputException) as caught:
            self.con.execute("SELECT ?, ?", [1])
        self.assertIn("takes 2 parameters, but 1 were given", str(caught.exception))


class Errors(unittest.TestCase):
    def setUp(self):
        self.con = sluice.connect()

    def test_each_kind_has_its_class(self):
        cases = [
            ("SELEC 1", sluice.ParserException, sluice.ProgrammingError),
            ("SELECT x", sluice.BinderException, sluice.ProgrammingError),
            ("SELECT * FROM nope", sluice.CatalogException, sluice.ProgrammingError),
            ("SELECT 'x'::INTEGER", sluice.ConversionException, sluice.DataError),
            ("SELECT 2147483647::INTEGER + 1", sluice.OutOfRangeException, sluice.DataError),
            ("SELECT * FROM read_parquet('/nonexistent/file.parquet')", sluice.IOException,
             sluice.OperationalError),
            ("SET threads = 0", sluice.InvalidInputException, sluice.ProgrammingError),
        ]
        for query, kind, family in cases:
            with self.subTest(query=query):
                with self.assertRaises(kind) as caught:
                    self.con.sql(query)
                self.assertIsInstance(caught.exception, family)
                self.assertIsInstance(caught.exception, sluice.Error)

    def test_a_file_database_is_refused(self):
        with self.assertRaises(sluice.InvalidInputException):
            sluice.connect("data.db")

    def test_closed_connection(self):
        self.con.close()
        with self.assertRaises(sluice.InvalidInputException):
            self.con.sql("SELECT 1")


class Concurrency(unittest.TestCase):
    def test_the_gil_is_released_while_a_query_runs(self):
        con = sluice.connect()
        ticks = []
        done = threading.Event()

        def count():
            while not done.is_set():
                ticks.append(1)
                time.sleep(0.01)

        counter = threading.Thread(target=count)
        counter.start()
        started = time.monotonic()
        con.sql("SELECT count(*) FROM (SELECT i % 1000003 AS j FROM range(20000000) t(i) "
                "ORDER BY j)").fetchall()
        elapsed = time.monotonic() - started
        done.set()
        counter.join()
        # The other thread kept running: a tick per 10 ms for most of the query's time.
        self.assertGreater(len(ticks), 0.3 * elapsed / 0.01)

    def test_ctrl_c_interrupts_a_relation_as_it_is_read(self):
        # arrow() exports, and df() makes the rows' objects, while the query runs: a query of one
        # row, and one whose few rows come as it goes (each a chunk of its own, copied).
        sparse = "SELECT i, 'n' || i AS s FROM range(10000000000) t(i) WHERE i % 100000000 = 0"
        for way, query in [("arrow", LONG_QUERY), ("df", LONG_QUERY), ("df", sparse)]:
            with self.subTest(way=way, query=query):
                con = sluice.connect()
                relation = con.sql(query)  # bound, not run
                timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
                started = time.monotonic()
                timer.start()
                with self.assertRaises(KeyboardInterrupt):
                    getattr(relation, way)()
                timer.join()
                self.assertLess(time.monotonic() - started, 3.0)
                with self.assertRaises(sluice.InvalidInputException) as caught:
                    relation.fetchall()  # its query ran, and did not finish
                self.assertIn("interrupted", str(caught.exception))
                self.assertEqual(con.sql("SELECT 1").fetchall(), [(1,)])

    def test_ctrl_c_interrupts_a_running_query(self):
        # A streaming query, and one interrupted while a task sorts its 50 million rows (the
        # sort itself looks for the cancellation).
        for query, delay in [(LONG_QUERY, 0.5), (LONG_SORT, 1.5)]:
            with self.subTest(query=query):
                con = sluice.connect()
                timer = threading.Timer(delay, lambda: os.kill(os.getpid(), signal.SIGINT))
                started = time.monotonic()
                timer.start()
                with self.assertRaises(KeyboardInterrupt):
                    con.sql(query).fetchall()  # a relation runs when read
                timer.join()
                self.assertLess(time.monotonic() - started, delay + 2.5)
                self.assertEqual(con.sql("SELECT 1").fetchall(), [(1,)])  # still works


if __name__ == "__main__":
    unittest.main()


class DataFrames(unittest.TestCase):
    def test_a_dataframe_in_scope_is_queried_by_name(self):
        con = sluice.connect()
        frame = pandas.DataFrame({
            "a": [1, 2, 3],
            "s": ["x", None, "z"],
            "f": [1.5, numpy.nan, 3.0],
            "t": pandas.to_datetime(["2020-01-01", None, "2020-01-03"]),
            "n": pandas.array([1, None, 3], dtype="Int64"),
            "flag": [True, False, True],
            "small": numpy.array([1, 2, 3], dtype=numpy.int16),
        })
        self.assertEqual(con.sql("SELECT * FROM frame").fetchall(), [
            (1, "x", 1.5, datetime.datetime(2020, 1, 1), 1, True, 1),
            (2, None, None, None, None, False, 2),
            (3, "z", 3.0, datetime.datetime(2020, 1, 3), 3, True, 3),
        ])
        self.assertEqual([row[1] for row in con.sql("DESCRIBE frame").fetchall()],
                         ["BIGINT", "VARCHAR", "DOUBLE", "TIMESTAMP", "BIGINT", "BOOLEAN", "SMALLINT"])

    def test_locals_before_globals_and_tables_before_both(self):
        con = sluice.connect()
        con.execute("CREATE TABLE shadowed AS SELECT 'table' AS origin")
        shadowed = pandas.DataFrame({"origin": ["frame"]})  # noqa: F841 (found by name)
        self.assertEqual(con.sql("SELECT origin FROM shadowed").fetchall(), [("table",)])

        def inner():
            numbers = pandas.DataFrame({"v": range(5000)})  # noqa: F841 (found by name)
            return con.sql("SELECT sum(v), count(*) FROM numbers").fetchall()

        self.assertEqual(inner(), [(12497500, 5000)])
        with self.assertRaises(sluice.CatalogException):
            con.sql("SELECT * FROM numbers")  # inner's local is gone

    def test_a_column_of_unreadable_objects_is_an_error_naming_it(self):
        con = sluice.connect()
        odd = pandas.DataFrame({"ok": [1], "bad": [object()]})  # noqa: F841 (found by name)
        with self.assertRaises(sluice.InvalidInputException) as caught:
            con.sql("SELECT * FROM odd")
        self.assertIn('column "bad"', str(caught.exception))


class SqlRelations(unittest.TestCase):
    """sql() of a SELECT gives a relation, as DuckDB's does: bound at once, run when read."""

    def test_errors_in_binding_come_from_sql_itself(self):
        con = sluice.connect()
        with self.assertRaises(sluice.BinderException):
            con.sql("SELECT no_such_column FROM range(3)")

    def test_the_columns_are_known_before_it_runs(self):
        relation = sluice.connect().sql("SELECT 1::INTEGER AS a, 'x' AS b")
        self.assertEqual(relation.columns, ["a", "b"])
        self.assertEqual(relation.types, ["INTEGER", "VARCHAR"])
        self.assertEqual(relation.fetchall(), [(1, "x")])

    def test_a_relation_keeps_its_connection(self):
        # The connection object is gone at once; the relation still runs on it.
        self.assertEqual(sluice.connect().sql("SELECT 42").fetchall(), [(42,)])

    def test_a_relation_of_a_closed_connection_is_an_error(self):
        con = sluice.connect()
        relation = con.sql("SELECT 42")
        con.close()
        with self.assertRaises(sluice.InvalidInputException) as caught:
            relation.fetchall()
        self.assertIn("closed", str(caught.exception))

    def test_a_dataframe_is_taken_when_the_relation_is_made(self):
        con = sluice.connect()

        def make():
            frame = pandas.DataFrame({"v": [1, 2, 3]})  # noqa: F841 (named in the query)
            return con.sql("SELECT sum(v) FROM frame")

        self.assertEqual(make().fetchall(), [(6,)])

    def test_a_result_past_the_memory_limit_is_an_error(self):
        # arrow() and df() hold the whole result in memory as the query runs.
        for way, named, other in [("arrow", "Arrow", "df"), ("df", "pandas", "arrow")]:
            with self.subTest(way=way):
                con = sluice.connect(config={"memory_limit": "20MB"})
                relation = con.sql("SELECT i, 'a longer string than twelve bytes ' || i "
                                   "FROM range(3000000) t(i)")
                with self.assertRaises(sluice.OutOfMemoryException) as caught:
                    getattr(relation, way)()
                self.assertIn(named, str(caught.exception))
                with self.assertRaises(sluice.InvalidInputException):
                    getattr(relation, other)()  # the query failed when it ran
                self.assertEqual(con.sql("SELECT 1").fetchall(), [(1,)])


class Relations(unittest.TestCase):
    def setUp(self):
        import tempfile
        self.directory = tempfile.TemporaryDirectory()
        self.con = sluice.connect()
        self.parquet = os.path.join(self.directory.name, "numbers.parquet")
        self.csv = os.path.join(self.directory.name, "numbers.csv")
        self.con.execute(f"COPY (SELECT i, i % 3 AS g, 'n' || i AS s FROM range(100) t(i)) "
                         f"TO '{self.parquet}'")
        self.con.execute(f"COPY (SELECT i, i % 3 AS g FROM range(10) t(i)) TO '{self.csv}'")

    def tearDown(self):
        self.directory.cleanup()

    def test_steps_run_only_when_rows_are_asked_for(self):
        relation = self.con.read_parquet(self.parquet)
        self.assertIsInstance(relation, sluice.Relation)
        self.assertEqual(relation.columns, ["i", "g", "s"])
        self.assertEqual(relation.types, ["BIGINT", "BIGINT", "VARCHAR"])
        self.assertEqual(relation.shape, (100, 3))
        top = relation.filter("i > 90").order("i DESC").limit(2)
        self.assertEqual(top.fetchall(), [(99, 0, "n99"), (98, 2, "n98")])
        groups = relation.aggregate("g, count(*) AS n", "g").order("g").df()
        self.assertEqual(groups["n"].tolist(), [34, 33, 33])
        self.assertEqual(relation.filter("i = 7").project("s").fetchone(), ("n7",))

    def test_csv_with_options_and_writing_back(self):
        relation = self.con.read_csv(self.csv, header=True)
        self.assertEqual(relation.count("*").fetchone(), (10,))
        copy = os.path.join(self.directory.name, "copy.parquet")
        relation.filter("g = 1").write_parquet(copy)
        self.assertEqual(self.con.read_parquet(copy).fetchall(), [(1, 1), (4, 1), (7, 1)])
        relation.create("kept")
        self.assertEqual(self.con.table("kept").shape, (10, 2))

    def test_a_missing_file_fails_when_read(self):
        relation = self.con.read_parquet(os.path.join(self.directory.name, "missing.parquet"))
        with self.assertRaises(sluice.IOException):
            relation.fetchall()
