#!/usr/bin/env bash
# TPC-H Q6 over the emulated object-store link (bench/rig, root) on SF10 lineitem as one Parquet
# file and as 200 files of 5 row groups, interleaved, defaults, the file cache off: wall time of
# each run, and when its first data request left (the earliest "fetch" in the statement's trace,
# whose clock starts with the statement: binding, opening and footers come before it).
#
#   bench/remote_files.sh [--reps 3] [--profile s3|far|lan]
set -euo pipefail
cd "$(dirname "$0")/.."
reps=3 profile=s3
while [ $# -gt 0 ]; do
  case "$1" in
    --reps) reps=$2; shift 2 ;;
    --profile) profile=$2; shift 2 ;;
    *) echo "remote_files: unknown option $1" >&2; exit 2 ;;
  esac
done
[ -x build/sluice ] || { echo "remote_files: build first (make)" >&2; exit 2; }
data=${SLUICE_CACHE:-$HOME/.cache/sluice}/bench-sf10
if [ ! -f "$data/one/.done" ]; then
  build/sluice gen-tpch --sf 10 --out "$data/one-gen" --tables lineitem >&2
  mkdir -p "$data/one" && mv "$data/one-gen/lineitem.parquet" "$data/one/" && rm -rf "$data/one-gen"
  touch "$data/one/.done"
fi
if [ ! -f "$data/small/.done" ]; then
  # 59,986,052 rows / (200 files x 5 row groups)
  build/sluice gen-tpch --sf 10 --out "$data/small" --tables lineitem --files 200 \
    --row-group-size 59987 >&2
  touch "$data/small/.done"
fi
trap 'bench/rig/rig.sh stop' EXIT
url=$(bench/rig/rig.sh start --profile "$profile" --dir "$data" --link 2>/dev/null)
q6=$(tr '\n' ' ' < tpch/queries/q06.sql)
many=$(ls "$data/small/lineitem" | sed "s|.*|'$url/small/lineitem/&'|" | paste -sd,)
trace=$(mktemp --suffix .json)

# One run: prints "seconds first_request_ms".
run() {
  local source=$1 start end
  start=$(date +%s.%N)
  ip netns exec sluice-rig build/sluice -c "SET enable_external_file_cache = false;
    CREATE VIEW lineitem AS SELECT * FROM read_parquet($source);
    SET trace_file = '$trace'; $q6" > /dev/null
  end=$(date +%s.%N)
  python3 -c "
import json, sys
events = json.load(open(sys.argv[3]))['traceEvents']
first = min(e['ts'] for e in events if e.get('name') == 'fetch') / 1000
print(float(sys.argv[2]) - float(sys.argv[1]), first)" "$start" "$end" "$trace"
}

declare -A results
for rep in $(seq "$reps"); do
  results[one]+="$(run "'$url/one/lineitem.parquet'")"$'\n'
  results[many]+="$(run "[$many]")"$'\n'
done
rm -f "$trace"

echo "TPC-H Q6, SF 10 lineitem over the rig, profile $profile, defaults, $reps runs each, $(nproc) cores"
echo
echo "| layout | median s | min s | max s | first data request, median ms (min-max) |"
echo "|---|---:|---:|---:|---:|"
for layout in one many; do
  printf '%s' "${results[$layout]}" | python3 -c "
import statistics, sys
rows = [[float(x) for x in line.split()] for line in sys.stdin if line.strip()]
times = [r[0] for r in rows]
first = [r[1] for r in rows]
name = {'one': 'one file', 'many': '200 files x 5 row groups'}['$layout']
print(f'| {name} | {statistics.median(times):.2f} | {min(times):.2f} | {max(times):.2f} | '
      f'{statistics.median(first):.1f} ({min(first):.1f}-{max(first):.1f}) |')"
done
printf '%s' "${results[one]}" > /tmp/remote_files.one
printf '%s' "${results[many]}" > /tmp/remote_files.many
python3 -c "
import statistics
one = statistics.median(float(l.split()[0]) for l in open('/tmp/remote_files.one') if l.strip())
many = statistics.median(float(l.split()[0]) for l in open('/tmp/remote_files.many') if l.strip())
print()
print(f'200 files vs one file: {many / one:.2f}x')"
