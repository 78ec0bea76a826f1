#!/usr/bin/env bash
# Runs Sluice's libFuzzer targets for a while each; fails on the first crash, leak or timeout.
#
#   scripts/run_fuzzers.sh BUILD_DIR SECONDS [PARQUET_SEED_DIR [CSV_SEED_DIR]]
set -euo pipefail
build=$1
seconds=$2
seeds=${3:-}
csv_seeds=${4:-}
work=$build/fuzz-work
mkdir -p "$work/file" "$work/page" "$work/snappy" "$work/csv"
if [ -n "$seeds" ] && [ -d "$seeds" ]; then
  # Whole files for the file fuzzer; for the page fuzzer, the bytes after each file's magic
  # (where the first column chunk starts) behind the two column-choice bytes.
  find "$seeds" -name '*.parquet' -size -200k | sort | while read -r file; do
    name=$(basename "$file")
    cp "$file" "$work/file/$name"
    for choice in '\x01\x01' '\x08\x03' '\x03\x06'; do
      { printf "$choice"; head -c 65540 "$file" | tail -c +5; } > "$work/page/${name}_${choice//\\x/}"
    done
  done
else
  echo "fuzz: no seed corpus at '$seeds'; starting from empty inputs"
fi
for target in file page; do
  echo "fuzz: parquet_${target}_fuzzer for ${seconds}s"
  "$build/fuzz/parquet_${target}_fuzzer" "$work/$target" -max_total_time="$seconds" \
    -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 -close_fd_mask=3 2>&1 | tail -12
  # libFuzzer exits non-zero on a finding; pipefail carries it out of the pipe.
done
# The snappy fuzzer starts from nothing: its round-trip mode makes valid blocks of any input.
echo "fuzz: snappy_fuzzer for ${seconds}s"
"$build/fuzz/snappy_fuzzer" "$work/snappy" -max_total_time="$seconds" -max_len=65536 \
  -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 -close_fd_mask=3 2>&1 | tail -12
# The CSV fuzzer's first byte picks the job size; seeds are the corpus files behind one such byte.
if [ -n "$csv_seeds" ] && [ -d "$csv_seeds" ]; then
  find "$csv_seeds" -name '*.csv' -size -16k | sort | while read -r file; do
    { printf '\x07'; cat "$file"; } > "$work/csv/$(basename "$file")"
  done
fi
echo "fuzz: csv_fuzzer for ${seconds}s"
"$build/fuzz/csv_fuzzer" "$work/csv" -max_total_time="$seconds" -max_len=16384 \
  -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 -close_fd_mask=3 2>&1 | tail -12
