#!/usr/bin/env bash
# Measures the rig itself with curl: aggregate throughput of N parallel 16 MiB range requests
# (N = 1, 2, 4 ... 32, each request on its own connection) for a profile, with and without the
# link cap (--link needs root). Prints a Markdown table (the one in bench/rig/README.md).
#
#   bench/rig/measure.sh [--profile s3] [--link]
set -euo pipefail
cd "$(dirname "$0")/../.."
profile=s3 link=()
while [ $# -gt 0 ]; do
  case "$1" in
    --profile) profile=$2; shift 2 ;;
    --link) link=(--link); shift ;;
    *) echo "measure: unknown option $1" >&2; exit 2 ;;
  esac
done
data=$(mktemp -d /tmp/sluice-rig-data.XXXXXX)
trap 'bench/rig/rig.sh stop; rm -rf "$data"' EXIT
head -c $((512 << 20)) /dev/urandom > "$data/blob"
url=$(bench/rig/rig.sh start --profile "$profile" --dir "$data" "${link[@]}")
run=()
if [ ${#link[@]} -gt 0 ]; then run=(ip netns exec sluice-rig); fi
echo "| parallel 16 MiB ranges | aggregate MiB/s | mean time to first byte (ms) |"
echo "|---:|---:|---:|"
for n in 1 2 4 8 16 32; do
  start=$(date +%s.%N)
  ttfb=$(seq 0 $((n - 1)) | "${run[@]}" xargs -P "$n" -I{} bash -c \
    'curl -s -o /dev/null -w "%{time_starttransfer}\n" -r $(( {} * 16777216 ))-$(( {} * 16777216 + 16777215 )) '"$url"'/blob' |
    awk '{ total += $1 } END { printf "%.1f", 1000 * total / NR }')
  end=$(date +%s.%N)
  echo "| $n | $(python3 -c "print(f'{$n * 16 / ($end - $start):.1f}')") | $ttfb |"
done
