#!/usr/bin/env bash
# Concurrent 1 MiB range reads on the emulated object store's s3 profile (bench/rig, with the
# 100 MB/s link cap: root), Sluice's HTTP file system beside curl in the same run: 1, 8, 32 and
# 64 requests in flight, each configuration reading the same number of ranges. curl runs one
# process per range (a new connection each time); Sluice reuses pooled connections.
#
#   bench/http_ranges.sh [--profile s3] [--ranges 256]
set -euo pipefail
cd "$(dirname "$0")/.."
profile=s3 ranges=256
while [ $# -gt 0 ]; do
  case "$1" in
    --profile) profile=$2; shift 2 ;;
    --ranges) ranges=$2; shift 2 ;;
    *) echo "http_ranges: unknown option $1" >&2; exit 2 ;;
  esac
done
data=$(mktemp -d /tmp/sluice-ranges.XXXXXX)
trap 'bench/rig/rig.sh stop; rm -rf "$data"' EXIT
head -c $((256 << 20)) /dev/urandom > "$data/blob"
url=$(bench/rig/rig.sh start --profile "$profile" --dir "$data" --link 2>/dev/null)
in_rig=(ip netns exec sluice-rig)
echo "$ranges ranges of 1 MiB, rig profile $profile (link 100 MB/s = 95.4 MiB/s)"
echo
echo "| in flight | Sluice MiB/s | curl MiB/s | Sluice / curl |"
echo "|---:|---:|---:|---:|"
for n in 1 8 32 64; do
  ours=$("${in_rig[@]}" build/bench/http_range_bench "$url/blob" "$n" "$ranges")
  start=$(date +%s.%N)
  seq 0 $((ranges - 1)) | "${in_rig[@]}" xargs -P "$n" -I{} bash -c \
    'curl -s -o /dev/null -r $(( ({} % 256) * 1048576 ))-$(( ({} % 256) * 1048576 + 1048575 )) '"$url"'/blob'
  end=$(date +%s.%N)
  theirs=$(python3 -c "print(f'{$ranges / ($end - $start):.1f}')")
  echo "| $n | $ours | $theirs | $(python3 -c "print(f'{$ours / $theirs:.2f}')") |"
done
