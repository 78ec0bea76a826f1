#!/usr/bin/env bash
# Installs everything Sluice's build and tests need on Debian 12. Idempotent: when all is in
# place it only checks, in well under a second.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  g++ cmake ninja-build ccache make pkg-config
  time                       # peak memory in benchmarks (/usr/bin/time)
  libgtest-dev libgmock-dev  # unit tests
  libedit-dev                # shell line editing and history (BSD licence)
  libsnappy-dev libzstd-dev liblz4-dev zlib1g-dev libbrotli-dev  # Parquet codecs
  libxxhash-dev              # Parquet bloom filters (XXH64)
  libcurl4-openssl-dev libssl-dev  # HTTP(S) and S3 request signing
  openssl                    # the TLS tests make their own certificate authority
  liburing-dev               # local reads through io_uring
  libre2-dev                 # regular expressions (regexp_matches, regexp_replace, ...)
  libflatbuffers-dev         # the FlatBuffers of Arrow IPC messages (COPY ... (FORMAT arrow))
  nginx-extras               # HTTP test server (range requests, Lua fault injection)
  swift swift-proxy swift-object swift-container swift-account memcached  # S3 test server
  awscli python3-botocore    # puts objects into the S3 test server; a second SigV4 signer to compare with
  gnuplot-nox                # the benchmark suite's plots
  bison flex                 # TPC's TPC-DS generator, built from ../shared/tools/tpcds
  clang-format               # style check
  clang libclang-rt-14-dev   # libFuzzer targets
  pybind11-dev python3-dev   # the sluice Python module, for Debian's /usr/bin/python3
  python3-numpy python3-pandas  # its fetchnumpy() and df(), and their tests
  python3-dask python3-distributed  # sluice.dask (scans fanned out on a Dask cluster) and its tests
)

missing=()
for package in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
# Node.js runs the DuckDB oracle. The base image may carry its own build (which bundles npm and
# conflicts with Debian's npm package), so ask for Debian's only when the commands are missing.
if ! command -v node >/dev/null 2>&1; then
  missing+=(nodejs)
fi
if ! command -v npm >/dev/null 2>&1; then
  missing+=(npm)
fi

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: missing Debian packages: ${missing[*]}" >&2
    echo "setup: run as root, or: sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# DuckDB, the oracle of the tests and the peer of the benchmarks, pinned in package-lock.json.
if [ ! -f node_modules/@duckdb/node-api/package.json ] ||
   [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing DuckDB for the tests and benchmarks (npm)"
  npm ci --no-audit --no-fund --loglevel=error
fi
