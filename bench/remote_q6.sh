#!/usr/bin/env bash
# TPC-H Q6 on lineitem as one Parquet file (Sluice's default row groups of 122,880 rows) served
# by the emulated object-store link (bench/rig, with the aggregate link cap: root). Configurations
# run interleaved (A B A B ...), each in a fresh process with the external file cache off, so
# every run reads from the store; medians and min/max over the repetitions.
#
#   bench/remote_q6.sh [--sf 10] [--reps 3] [--profile s3|far|lan] [--sweep "16 64"]
#                      [--fixed-coalescing] [--baseline OTHER/build/sluice]
#
# Prints per configuration: wall time, bytes received, requests, mean requests in flight, link
# utilisation (bytes / time / 100 MB/s), the physical limit (bytes / link rate) and the process's
# CPU time (user + system) per GB received. --sweep adds
# hand-tuned http_max_in_flight values (requests in flight per host, pinned instead of
# self-tuned); --fixed-coalescing adds the defaults with the coalescing pinned to the values used
# before it was fitted to the link (gaps of 64 KiB, requests of 8 MiB); --baseline runs another build (an older commit) in the same interleaving, with its
# defaults and with async_threads = 32.
set -euo pipefail
cd "$(dirname "$0")/.."
sf=10 reps=3 profile=s3 sweep="" baseline="" fixed_coalescing=""
while [ $# -gt 0 ]; do
  case "$1" in
    --sf) sf=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --profile) profile=$2; shift 2 ;;
    --sweep) sweep=$2; shift 2 ;;
    --baseline) baseline=$2; shift 2 ;;
    --fixed-coalescing) fixed_coalescing=1; shift ;;
    *) echo "remote_q6: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -x build/sluice ] || { echo "remote_q6: build first (make)" >&2; exit 2; }
data=${SLUICE_CACHE:-$HOME/.cache/sluice}/tpch-sf$sf
if [ ! -f "$data/lineitem.parquet.done-dbgen214" ]; then
  build/sluice gen-tpch --sf "$sf" --out "$data" --tables lineitem >&2
  touch "$data/lineitem.parquet.done-dbgen214"
fi
trap 'bench/rig/rig.sh stop' EXIT
url=$(bench/rig/rig.sh start --profile "$profile" --dir "$data" --link 2>/dev/null)
link_bytes_per_second=100000000 # s3 and far; lan's is 1 GB/s
[ "$profile" = lan ] && link_bytes_per_second=1000000000
q6=$(tr '\n' ' ' < tpch/queries/q06.sql)

# One run: prints "seconds bytes requests mean_in_flight cpu_seconds" (cpu: user + system).
run() {
  local binary=$1 settings=$2 out start end cpu
  cpu=$(mktemp)
  start=$(date +%s.%N)
  out=$( { TIMEFORMAT='%U %S'; time ip netns exec sluice-rig "$binary" -csv -c "SET enable_external_file_cache = false;
    $settings
    CREATE VIEW lineitem AS SELECT * FROM read_parquet('$url/lineitem.parquet');
    EXPLAIN ANALYZE $q6"; } 2>"$cpu")
  end=$(date +%s.%N)
  printf '%s' "$out" | python3 -c '
import re, sys
text = sys.stdin.read()
units = {"bytes": 1, "KiB": 1024, "MiB": 1024**2, "GiB": 1024**3}
received = re.search(r"received ([0-9.]+) (bytes|KiB|MiB|GiB)", text)
requests = re.search(r"requests ([0-9]+)", text)
mean = re.search(r"in flight max [0-9]+ mean ([0-9.]+)", text)
user, system = open(sys.argv[3]).read().split()[-2:]
print(float(sys.argv[2]) - float(sys.argv[1]),
      float(received.group(1)) * units[received.group(2)], requests.group(1), mean.group(1),
      float(user) + float(system))
' "$start" "$end" "$cpu"
  rm -f "$cpu"
}

declare -A settings binaries
names=("read_ahead_depth=0" "default")
settings["read_ahead_depth=0"]="SET read_ahead_depth = 0;"
settings["default"]=""
for in_flight in $sweep; do
  names+=("http_max_in_flight=$in_flight")
  settings["http_max_in_flight=$in_flight"]="SET http_max_in_flight = $in_flight;"
done
if [ -n "$fixed_coalescing" ]; then
  names+=("fixed coalescing")
  settings["fixed coalescing"]="SET scan_coalesce_gap = 65536; SET scan_request_size = 8388608;"
fi
for name in "${names[@]}"; do binaries[$name]=build/sluice; done
if [ -n "$baseline" ]; then
  names+=("baseline default" "baseline async_threads=32")
  settings["baseline default"]=""
  settings["baseline async_threads=32"]="SET async_threads = 32;"
  binaries["baseline default"]=$baseline
  binaries["baseline async_threads=32"]=$baseline
fi
declare -A results
for rep in $(seq "$reps"); do
  for name in "${names[@]}"; do
    results[$name]+="$(run "${binaries[$name]}" "${settings[$name]}")"$'\n'
  done
done

echo "TPC-H Q6, SF $sf lineitem.parquet over the rig, profile $profile (link $((link_bytes_per_second / 1000000)) MB/s), $reps runs each, $(nproc) cores"
echo
echo "| configuration | median s | min s | max s | MB received | requests | mean in flight | link utilisation | physical limit s | CPU s per GB |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for name in "${names[@]}"; do
  printf '%s' "${results[$name]}" | python3 -c "
import statistics, sys
rows = [line.split() for line in sys.stdin if line.strip()]
times = [float(r[0]) for r in rows]
received = statistics.median(float(r[1]) for r in rows)
median = statistics.median(times)
print(f'| $name | {median:.2f} | {min(times):.2f} | {max(times):.2f} | {received / 1e6:.0f} | '
      f'{rows[0][2]} | {statistics.median(float(r[3]) for r in rows):.1f} | '
      f'{received / median / $link_bytes_per_second:.0%} | {received / $link_bytes_per_second:.2f} | '
      f'{statistics.median(float(r[4]) / float(r[1]) * 1e9 for r in rows):.2f} |')"
done
printf '%s' "${results[read_ahead_depth=0]}" > /tmp/remote_q6.sync
printf '%s' "${results[default]}" > /tmp/remote_q6.default
python3 -c "
import statistics
sync = statistics.median(float(l.split()[0]) for l in open('/tmp/remote_q6.sync') if l.strip())
default = statistics.median(float(l.split()[0]) for l in open('/tmp/remote_q6.default') if l.strip())
print()
print(f'default vs read_ahead_depth = 0: {sync / default:.2f}x faster')"
