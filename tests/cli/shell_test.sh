#!/usr/bin/env bash
# The `sluice` shell end to end: options, output modes, dot commands, errors and exit status,
# piped input, and the interactive REPL on a pseudo-terminal.
#
#   shell_test.sh path/to/sluice
set -uo pipefail
SLUICE=$(realpath "$1")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
failures=0

check() { # name expected actual
  if [ "$2" != "$3" ]; then
    echo "FAIL: $1"
    echo "  expected: $(printf '%q' "$2")"
    echo "  actual:   $(printf '%q' "$3")"
    failures=$((failures + 1))
  else
    echo "ok: $1"
  fi
}

contains() { # name needle haystack
  if [[ "$3" != *"$2"* ]]; then
    echo "FAIL: $1: $(printf '%q' "$2") not in:"
    echo "$3" | head -20
    failures=$((failures + 1))
  else
    echo "ok: $1"
  fi
}

check "csv of a constant" $'x\n42' "$("$SLUICE" -csv -c "SELECT 42 AS x")"

cores=$(nproc)
async_default=$((4 * cores < 256 ? 4 * cores : 256))
settings=$("$SLUICE" -csv -c "SELECT * FROM sluice_settings()")
check "settings header" "name,value,default,description,type" "$(head -1 <<<"$settings")"
check "async_threads default" "async_threads,$async_default,$async_default" "$(grep '^async_threads,' <<<"$settings" | cut -d, -f1-3)"
check "read_ahead_depth default" "read_ahead_depth,-1,-1" "$(grep '^read_ahead_depth,' <<<"$settings" | cut -d, -f1-3)"

err=$("$SLUICE" -c "SET async_threads = 1000" 2>&1 >/dev/null); status=$?
check "bad setting exits non-zero" 1 "$status"
contains "bad setting names setting and range" 'Invalid Input Error: Invalid value for setting "async_threads": must be between 1 and 256, got 1000' "$err"

err=$("$SLUICE" -c "SELECT 1 +" 2>&1 >/dev/null); status=$?
check "syntax error exits non-zero" 1 "$status"
contains "syntax error on stderr" "Parser Error: syntax error at end of input at line 1, column 11" "$err"

box=$("$SLUICE" -c "SELECT 42 AS x, 'hi' AS s")
expected_box=$'┌───────┬─────────┐\n│   x   │    s    │\n│ int32 │ varchar │\n├───────┼─────────┤\n│    42 │ hi      │\n└───────┴─────────┘'
check "box output like DuckDB" "$expected_box" "$box"

check "json output" '[{"x":42,"s":"a\"b","n":null,"d":1.50}]' "$("$SLUICE" -json -c "SELECT 42 AS x, 'a\"b' AS s, NULL AS n, 1.50 AS d")"
check "line output" $'     x = 1\nlonger = two' "$("$SLUICE" -line -c "SELECT 1 AS x, 'two' AS longer")"
check "-nullvalue" $'a,b\n<NULL>,x' "$("$SLUICE" -csv -nullvalue '<NULL>' -c "SELECT NULL AS a, 'x' AS b")"
check ".nullvalue" $'a\n(nil)' "$(printf '.nullvalue (nil)\nSELECT NULL AS a;\n' | "$SLUICE" -csv)"
check "csv quoting" $'a\n"x,""y"""' "$("$SLUICE" -csv -c "SELECT 'x,\"y\"' AS a")"

piped=$(printf 'SELECT 1 AS a;\nSELECT\n  2 AS b;\n' | "$SLUICE" -csv)
check "statements from stdin, multi-line" $'a\n1\nb\n2' "$piped"

piped=$(printf '.mode line\nSELECT 3 AS c;\n.exit\nSELECT 4 AS d;\n' | "$SLUICE")
check "dot commands in piped input" "c = 3" "$piped"

timer=$(printf '.timer on\nSELECT 1;\n' | "$SLUICE" -csv)
contains "timer" "Run Time (s): real" "$timer"

printf 'SELECT 5 AS e;\n' > "$WORK/five.sql"
printf '.mode csv\n' > "$WORK/init.sql"
check "-f file" $'e\n5' "$("$SLUICE" -csv -f "$WORK/five.sql")"
check ".read file" $'e\n5' "$(printf '.read %s\n' "$WORK/five.sql" | "$SLUICE" -csv)"
check "-init file" $'e\n5' "$("$SLUICE" -init "$WORK/init.sql" -f "$WORK/five.sql")"

err=$("$SLUICE" -f "$WORK/missing.sql" 2>&1); status=$?
check "missing file exits non-zero" 1 "$status"
contains "missing file named" "cannot open file \"$WORK/missing.sql\"" "$err"

out=$(printf 'SELECT x;\nSELECT 6 AS f;\n' | "$SLUICE" -csv 2>"$WORK/err"); status=$?
check "later statements still run after an error" $'f\n6' "$out"
check "error in piped input sets exit status" 1 "$status"
contains "binder error on stderr" 'Binder Error: Referenced column "x" was not found' "$(cat "$WORK/err")"

contains "help lists dot commands" ".timer on|off" "$(printf '.help\n' | "$SLUICE")"
err=$(printf '.bogus\n' | "$SLUICE" 2>&1)
contains "unknown dot command" 'unknown command ".bogus"' "$err"
"$SLUICE" -nosuchflag >/dev/null 2>&1; check "unknown option exits 2" 2 "$?"

# The interactive REPL on a pseudo-terminal (script(1) allocates one): a statement split over
# two lines, a dot command, history written on exit.
export HOME="$WORK"
# Lines arrive one at a time, as typed: line editing discards input typed ahead of the prompt.
repl=$( (printf 'SELECT\n'; sleep 0.3; printf '40 + 2 AS answer;\n'; sleep 0.3; printf '.exit\n'; sleep 0.3) |
  script -qec "$SLUICE" /dev/null 2>&1)
contains "REPL runs multi-line statements" "│     42 │" "$repl"
contains "REPL history saved" "AS\\040answer;" "$(cat "$WORK/.sluice_history" 2>/dev/null)"

# What a DuckDB user reaches for, typed on a pseudo-terminal: .tables, .schema, DESCRIBE,
# SUMMARIZE, EXPLAIN ANALYZE drawn as a plan (not one giant table cell), .maxrows, markdown,
# .width, .output and .once, and a progress bar for a statement that is no scan.
session=$( (for line in \
    "CREATE TABLE sales AS SELECT i AS id, 'r' || (i % 3) AS region FROM range(100) t(i);" \
    "CREATE VIEW north AS SELECT * FROM sales WHERE region = 'r0';" \
    ".tables" ".schema" "DESCRIBE sales;" "SUMMARIZE sales;" \
    "EXPLAIN ANALYZE SELECT region, count(*) FROM sales GROUP BY region;" \
    ".maxrows 4" "SELECT * FROM range(10);" ".maxrows 40" \
    ".mode markdown" "SELECT 7 AS n, 'a|b' AS s;" ".width 12" "SELECT 7 AS n;" ".width" ".mode box" \
    ".output $WORK/out.txt" "SELECT 'to the file' AS w;" ".output" \
    ".once $WORK/once.txt" "SELECT 'once' AS o;" "SELECT 'after' AS a;" \
    "SET progress_bar_time = 0;" \
    "CREATE TABLE sorted AS SELECT i % 1000003 AS j FROM range(20000000) t(i) ORDER BY j;" \
    ".exit"; do printf '%s\n' "$line"; sleep 0.2; done) | script -qec "$SLUICE" /dev/null 2>&1 | tr -d '\r')
contains ".tables lists tables and views" "north  sales" "$session"
contains ".schema shows CREATE TABLE" "CREATE TABLE sales(id BIGINT, region VARCHAR);" "$session"
contains ".schema shows CREATE VIEW" "CREATE VIEW north AS SELECT * FROM sales WHERE region = 'r0';" "$session"
contains "DESCRIBE" "│ region      │ VARCHAR     │ YES" "$session"
contains "SUMMARIZE" "│ id          │ BIGINT      │ 0       │ 99      │" "$session"
contains "EXPLAIN ANALYZE titled" "│ Analyzed Plan │" "$session"
check "EXPLAIN in csv mode stays data for scripts" "explain_key,explain_value" \
  "$("$SLUICE" -csv -c "EXPLAIN SELECT 1" | head -1)"
contains "EXPLAIN ANALYZE plan lines outside any table cell" $'\nHASH_GROUP_BY (scan)' "$(sed 's/^ *//' <<<"$session")"
contains ".maxrows elides the middle" "│ 10 rows (4 shown) │" "$session"
contains "markdown mode" $'|   n | s    |\n|----:|------|\n|   7 | a\\|b |' "$session"
contains ".width" "|            n |" "$session"
check ".output writes results to the file" $'┌─────────────┐\n│      w      │\n│   varchar   │\n├─────────────┤\n│ to the file │\n└─────────────┘' "$(cat "$WORK/out.txt")"
contains ".once writes one result to the file" "│ once    │" "$(cat "$WORK/once.txt")"
contains ".once then back to the terminal" "│ after   │" "$session"
contains "progress bar for a statement that is no scan" "% ▕" "$session"
out=$(printf 'SELECT x;\nSELECT 6 AS f;\n' | "$SLUICE" -csv -bail 2>/dev/null); status=$?
check "-bail stops at the first error" "" "$out"
check "-bail exits non-zero" 1 "$status"

# sluice gen-tpch: files, a summary line per table, errors for absurd options.
out=$("$SLUICE" gen-tpch --sf 0.01 --out "$WORK/tpch" --tables nation,orders --files 2 --row-group-size 5000)
contains "gen-tpch summary" "orders" "$out"
check "gen-tpch writes the files" "2" "$(ls "$WORK/tpch/orders" | wc -l)"
check "gen-tpch rows readable" $'count_star()\n15000' \
  "$("$SLUICE" -csv -c "SELECT count(*) FROM read_parquet('$WORK/tpch/orders/*.parquet')")"
err=$("$SLUICE" gen-tpch --sf -3 --out "$WORK/tpch" 2>&1); status=$?
check "gen-tpch bad scale factor exits 2" 2 "$status"
contains "gen-tpch names the bad scale factor" "scale factor must be greater than 0" "$err"
err=$("$SLUICE" gen-tpch --sf 0.01 2>&1); status=$?
contains "gen-tpch needs --out" "--out DIR is required" "$err"
# A progress bar on a terminal, labelled with the table.
bar=$(script -qec "$SLUICE gen-tpch --sf 0.3 --out $WORK/tpch_tty --tables lineitem" /dev/null 2>&1)
contains "gen-tpch progress bar on a terminal" "% ▕" "$bar"

if [ "$failures" -ne 0 ]; then
  echo "$failures shell checks failed"
  exit 1
fi
echo "all shell checks passed"
