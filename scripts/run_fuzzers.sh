#!/usr/bin/env bash
# Runs Sluice's libFuzzer targets for a while each; fails on the first crash, leak or timeout.
# Seeds: the Parquet and CSV corpora when given, and for the other targets the inputs that
# fuzz/make_seeds.mjs derives from the repository (handmade metadata, server answers, the
# statements of the sqllogictest files).
#
#   scripts/run_fuzzers.sh BUILD_DIR SECONDS [PARQUET_SEED_DIR [CSV_SEED_DIR]]
#
# FUZZ_TARGETS="a b" runs only those targets, and FUZZ_WORK sets the working folder (corpora,
# seeds), so that a long campaign can run as parallel halves, one per core.
set -euo pipefail
build=$1
seconds=$2
seeds=${3:-}
csv_seeds=${4:-}
work=${FUZZ_WORK:-$build/fuzz-work}
only=${FUZZ_TARGETS:-}
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
# The CSV fuzzer's first byte picks the job size; seeds are the corpus files behind one such byte.
if [ -n "$csv_seeds" ] && [ -d "$csv_seeds" ]; then
  find "$csv_seeds" -name '*.csv' -size -16k | sort | while read -r file; do
    { printf '\x07'; cat "$file"; } > "$work/csv/$(basename "$file")"
  done
fi
node "$(dirname "$0")/../fuzz/make_seeds.mjs" "$work/seeds"

# fuzz TARGET CORPUS_DIR [libFuzzer options]: new inputs go to CORPUS_DIR.
fuzz() {
  local target=$1 corpus=$2
  shift 2
  if [ -n "$only" ] && [[ " $only " != *" $target "* ]]; then
    return
  fi
  mkdir -p "$corpus"
  echo "fuzz: $target for ${seconds}s"
  "$build/fuzz/$target" "$corpus" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
    -print_final_stats=1 -close_fd_mask=3 "$@" 2>&1 | tail -12
  # libFuzzer exits non-zero on a finding; pipefail carries it out of the pipe.
}
fuzz parquet_file_fuzzer "$work/file"
fuzz parquet_page_fuzzer "$work/page"
fuzz thrift_fuzzer "$work/seeds/thrift" -max_len=65536
# The snappy fuzzer starts from nothing: its round-trip mode makes valid blocks of any input.
fuzz snappy_fuzzer "$work/snappy" -max_len=65536
fuzz csv_fuzzer "$work/csv" -max_len=16384
fuzz sql_fuzzer "$work/seeds/sql" -max_len=4096
fuzz http_response_fuzzer "$work/seeds/http" -max_len=16384
fuzz s3_listing_fuzzer "$work/seeds/s3_listing" -max_len=16384
