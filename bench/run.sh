#!/usr/bin/env bash
# The benchmark suite (bench/suite/run.mjs): the reference's six experiments on the emulated
# object store, beside DuckDB and Polars; writes bench/results/<timestamp>/report.md, CSVs and
# plots. Needs root (the rig's link cap, dropping the page cache).
#
#   bench/run.sh [q6 local small rowgroups concurrent csv] [--sf 10] [--reps 3] [--profile s3]
#   bench/run.sh --quick          # SF 1, one repetition: a few minutes
set -euo pipefail
cd "$(dirname "$0")/.."
command -v gnuplot > /dev/null || { echo "bench: gnuplot is missing: run scripts/setup.sh" >&2; exit 2; }
[ -x build/sluice ] && [ -x build/bench/concurrent_queries ] || { echo "bench: build first (make)" >&2; exit 2; }
exec node bench/suite/run.mjs "$@"
