"""TPC-H Q6 through sluice.dask over lineitem in many Parquet files served by the emulated object
store (bench/rig, profile s3 with the aggregate link cap: root), on a Dask LocalCluster of 1 and
of 2 worker processes, runs interleaved; medians and ranges. Per run: the wall time of the query
(the cluster is started before), the bytes each worker's Sluice received (sluice_http_stats) and
the link utilisation. The answer is checked against one Sluice reading the same files.

    make && /usr/bin/python3 bench/dask_q6.py [--sf 10] [--files 100] [--reps 3] [--profile s3]
"""
import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
LINK_BYTES_PER_SECOND = {"s3": 100e6, "far": 100e6, "lan": 1e9}


def q6():
    return (ROOT / "tpch" / "queries" / "q06.sql").read_text().strip().rstrip(";")


def inner(args):
    """Inside the rig's network namespace: the measured runs, printed as JSON lines."""
    sys.path.insert(0, str(ROOT / "build" / "python"))
    import sluice
    import sluice.dask
    from dask.distributed import Client, LocalCluster

    files = [f"{args.url}/lineitem/{name}" for name in args.names.split(",")]
    config = {"enable_external_file_cache": False}
    reference = sluice.connect(config=config)
    reference.execute("CREATE VIEW lineitem AS SELECT * FROM read_parquet(["
                      + ", ".join(f"'{f}'" for f in files) + "])")
    expected = reference.sql(q6()).fetchall()
    cores = os.cpu_count()
    for rep in range(args.reps):
        for workers in (1, 2):
            threads = max(1, cores // workers)
            with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                              dashboard_address=None, silence_logs=50) as cluster, \
                    Client(cluster) as client:
                worker_config = dict(config, threads=threads)
                client.run(lambda: __import__("sluice.dask"))  # imported before the clock
                started = time.perf_counter()
                rows = sluice.dask.sql(q6(), {"lineitem": files}, client=client,
                                       config=worker_config, form="rows")
                seconds = time.perf_counter() - started

                def received(config=worker_config):
                    import sluice.dask as sd
                    return sd._connection(config).sql(
                        "SELECT bytes FROM sluice_http_stats()").fetchone()[0]

                shares = sorted(client.run(received).values())
                print(json.dumps({"rep": rep, "workers": workers, "seconds": seconds,
                                  "bytes": shares, "exact": rows == expected}), flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sf", default="10")
    parser.add_argument("--files", type=int, default=100)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--profile", default="s3")
    parser.add_argument("--inner", action="store_true")
    parser.add_argument("--url")
    parser.add_argument("--names")
    args = parser.parse_args()
    if args.inner:
        return inner(args)
    cache = pathlib.Path(os.environ.get("SLUICE_CACHE", pathlib.Path.home() / ".cache" / "sluice"))
    data = cache / f"tpch-sf{args.sf}-{args.files}files"
    if not (data / "lineitem.done").exists():
        subprocess.run([str(ROOT / "build" / "sluice"), "gen-tpch", "--sf", args.sf, "--tables",
                        "lineitem", "--files", str(args.files), "--out", str(data)], check=True)
        (data / "lineitem.done").touch()
    names = sorted(p.name for p in (data / "lineitem").glob("*.parquet"))
    rig = ROOT / "bench" / "rig" / "rig.sh"
    url = subprocess.run([str(rig), "start", "--profile", args.profile, "--dir", str(data),
                          "--link"], check=True, capture_output=True, text=True).stdout.strip()
    try:
        run = subprocess.run(["ip", "netns", "exec", "sluice-rig", sys.executable, __file__,
                              "--inner", "--url", url, "--names", ",".join(names), "--reps",
                              str(args.reps)], check=True, capture_output=True, text=True)
    finally:
        subprocess.run([str(rig), "stop"], check=False, capture_output=True)
    results = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    link = LINK_BYTES_PER_SECOND[args.profile]
    print(f"TPC-H Q6 through sluice.dask, SF {args.sf} lineitem in {args.files} files over the "
          f"rig (profile {args.profile}, link {link / 1e6:.0f} MB/s), {args.reps} interleaved runs, "
          f"{os.cpu_count()} cores")
    print()
    print("| workers | median s | min s | max s | MB received | each worker's share | "
          "link utilisation | exact |")
    print("|---:|---:|---:|---:|---:|---|---:|---|")
    medians = {}
    for workers in (1, 2):
        mine = [r for r in results if r["workers"] == workers]
        times = [r["seconds"] for r in mine]
        total = statistics.median(sum(r["bytes"]) for r in mine)
        shares = " / ".join(f"{statistics.median(r['bytes'][i] for r in mine) / total:.0%}"
                            for i in range(workers))
        medians[workers] = statistics.median(times)
        print(f"| {workers} | {medians[workers]:.2f} | {min(times):.2f} | {max(times):.2f} | "
              f"{total / 1e6:.0f} | {shares} | {total / medians[workers] / link:.0%} | "
              f"{all(r['exact'] for r in mine)} |")
    print()
    print(f"2 workers vs 1: {medians[1] / medians[2]:.2f}x")


if __name__ == "__main__":
    main()
