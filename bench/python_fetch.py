"""Results into Python: fetchall(), df(), fetchnumpy() and arrow() of TPC-H lineitem (SF1: 6 M
rows, 16 columns) beside the query alone, repetitions interleaved, medians and ranges.

arrow() without pyarrow (not in Debian 12) gives an Arrow C stream; it is timed to the last
batch imported, as a consumer drains it (here through ctypes: get_next, then release).

The query alone is con.execute(query): it runs the query and holds its rows (what the shell does
before writing anything). Each way is con.sql(query) read that way: the relation runs when read
(arrow() with each chunk exported by the thread that produced it), so the figure "x the query" is
(query and fetch) / query.

    make && /usr/bin/python3 bench/python_fetch.py [--sf 1] [--repetitions 3] [--threads 2]
(the data is build/bench-data/tpch_sf<SF>/lineitem.parquet, written by the other benchmarks'
generator: node bench/window_functions.mjs makes it.)
"""
import argparse
import ctypes
import gc
import os
import statistics
import sys
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(ROOT, "build", "python"))
import sluice  # noqa: E402


class ArrowArray(ctypes.Structure):
    _fields_ = [("length", ctypes.c_int64), ("null_count", ctypes.c_int64),
                ("offset", ctypes.c_int64), ("n_buffers", ctypes.c_int64),
                ("n_children", ctypes.c_int64), ("buffers", ctypes.c_void_p),
                ("children", ctypes.c_void_p), ("dictionary", ctypes.c_void_p),
                ("release", ctypes.CFUNCTYPE(None, ctypes.c_void_p)),
                ("private_data", ctypes.c_void_p)]


class ArrowArrayStream(ctypes.Structure):
    _fields_ = [("get_schema", ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)),
                ("get_next", ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)),
                ("get_last_error", ctypes.c_void_p),
                ("release", ctypes.CFUNCTYPE(None, ctypes.c_void_p)),
                ("private_data", ctypes.c_void_p)]


ctypes.pythonapi.PyCapsule_GetPointer.restype = ctypes.c_void_p
ctypes.pythonapi.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


def drain_arrow(table):
    """Imports every batch of an arrow() result: a pyarrow.Table is already imported."""
    if not hasattr(table, "__arrow_c_stream__") or hasattr(table, "num_rows"):
        return table.num_rows
    capsule = table.__arrow_c_stream__()
    address = ctypes.pythonapi.PyCapsule_GetPointer(capsule, b"arrow_array_stream")
    stream = ArrowArrayStream.from_address(address)
    rows = 0
    batch = ArrowArray()
    while stream.get_next(address, ctypes.addressof(batch)) == 0 and batch.release:
        rows += batch.length
        batch.release(ctypes.addressof(batch))
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sf", default="1")
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--numeric", action="store_true",
                        help="only lineitem's 12 columns that are not text (no str objects)")
    args = parser.parse_args()
    path = os.path.join(ROOT, "build", "bench-data", f"tpch_sf{args.sf}", "lineitem.parquet")
    if not os.path.exists(path):
        sys.exit(f"{path} is missing: run node bench/window_functions.mjs --sf {args.sf} first")
    con = sluice.connect(config={"threads": args.threads})
    columns = "*"
    if args.numeric:
        columns = ("l_orderkey, l_partkey, l_suppkey, l_linenumber, l_quantity, l_extendedprice, "
                   "l_discount, l_tax, l_shipdate, l_commitdate, l_receiptdate, l_orderkey + 1")
    query = f"SELECT {columns} FROM read_parquet('{path}')"
    con.execute(query)  # warm the page cache
    # fetchall() after the others' interleaved runs: its 100 M Python objects, once freed, leave
    # memory fragmented, and the next way's large arrays then fault in 4 KiB pages instead of
    # huge ones (up to 10x slower here), which would charge that way for fetchall()'s litter.
    # Each way gives (what holds the result, what was fetched): both are freed after the clock
    # stops, as the query alone's rows are.
    def read(way):
        relation = con.sql(query)
        return relation, way(relation)

    ways = {
        "query alone": lambda: (con.execute(query), None),
        "df()": lambda: read(lambda relation: relation.df()),
        "fetchnumpy()": lambda: read(lambda relation: relation.fetchnumpy()),
        "arrow()": lambda: read(lambda relation: drain_arrow(relation.arrow())),
        "fetchall()": lambda: read(lambda relation: relation.fetchall()),
    }
    times = {name: [] for name in ways}
    rows = None
    order = [[name for name in ways if name != "fetchall()"]] * args.repetitions
    order += [["fetchall()"]] * args.repetitions
    for names in order:
        for name in names:
            fetch = ways[name]
            gc.collect()  # the previous way's objects are gone before the clock starts
            started = time.perf_counter()
            holder, fetched = fetch()
            done = time.perf_counter()
            times[name].append(done - started)
            if name == "fetchall()":
                rows = len(fetched)
            del holder, fetched
            con.execute("SELECT 1")  # the query alone's rows go before the next way runs
    alone = statistics.median(times["query alone"])
    width = 12 if args.numeric else 16
    print(f"Results of {query.split('/')[-1][:-2]} (SF{args.sf}, {rows:,} rows, {width} columns) into "
          f"Python, {args.threads} threads, medians of {args.repetitions} interleaved runs (range)")
    print("| way | seconds | M rows/s | x the query |")
    print("|---|---:|---:|---:|")
    for name in ways:
        median = statistics.median(times[name])
        print(f"| {name} | {median:.3f} ({min(times[name]):.3f}-{max(times[name]):.3f}) | "
              f"{rows / median / 1e6:.2f} | {median / alone:.2f}x |")


if __name__ == "__main__":
    main()
