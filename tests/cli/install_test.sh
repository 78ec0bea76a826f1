#!/usr/bin/env bash
# cmake --install into a fresh prefix, then use what was installed as a user would: the shell,
# the C++ library through pkg-config (examples/embed.cpp built and run), the Python package.
#
#   install_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
BUILD=$(realpath "$1")
SOURCE=$(realpath "$2")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
PREFIX="$WORK/prefix"
cmake --install "$BUILD" --prefix "$PREFIX" >/dev/null
failures=0
check() { # name expected actual
  if [[ "$3" != *"$2"* ]]; then
    echo "FAIL: $1: $(printf '%q' "$2") not in $(printf '%q' "$3")"
    failures=$((failures + 1))
  else
    echo "ok: $1"
  fi
}
check "installed shell runs" "42" "$("$PREFIX/bin/sluice" -csv -c "SELECT 42 AS x")"
export PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig"
check "pkg-config knows sluice" "0.1.0" "$(pkg-config --modversion sluice)"
# shellcheck disable=SC2046
g++ -O1 -o "$WORK/embed" "$SOURCE/examples/embed.cpp" $(pkg-config --cflags --libs sluice)
check "a program built against the installed library runs" "answer (INTEGER) = 42" "$("$WORK/embed")"
PYTHON_DIR=$(echo "$PREFIX"/lib/python3.*/dist-packages)
if [ -d "$PYTHON_DIR/sluice" ]; then
  check "the installed Python package imports and queries" "[(42,)]" \
    "$(cd "$WORK" && PYTHONPATH="$PYTHON_DIR" /usr/bin/python3 -c \
      'import sluice; print(sluice.connect().sql("SELECT 42").fetchall())')"
fi
if [ "$failures" -ne 0 ]; then
  echo "$failures install checks failed"
  exit 1
fi
echo "all install checks passed"
