#!/usr/bin/env bash
# Checks that every #include between src/ folders points down the layers of docs/architecture.md:
#   cli | python -> main -> sql -> execution -> scan -> formats -> io | memory | parallel -> common
#   main -> tpch -> parallel, common
# (each layer may include any layer below it; io, memory and parallel not each other). The CMake
# libraries enforce the same at link time for calls; this also catches header-only uses.
set -euo pipefail
cd "$(dirname "$0")/.."
declare -A allowed=(
  [common]=""
  [parallel]="common"
  [io]="common"
  [memory]="common"
  [formats]="io memory parallel common"
  [scan]="formats io memory parallel common"
  [tpch]="parallel common"
  [execution]="scan formats io memory parallel common"
  [sql]="execution scan formats io memory parallel common"
  [main]="sql execution scan formats io memory parallel tpch common"
  [cli]="main sql execution scan formats io memory parallel tpch common"
  [python]="main sql execution scan formats io memory parallel tpch common"
)
status=0
for layer in "${!allowed[@]}"; do
  [ -d "src/$layer" ] || continue
  while IFS=: read -r file line include; do
    target=${include#*\"}
    target=${target%%/*}
    [ "$target" = "$layer" ] && continue
    [ -d "src/$target" ] || continue # a generated or system header
    if [[ " ${allowed[$layer]} " != *" $target "* ]]; then
      echo "layering: $file:$line includes $target/ (a $layer file may include: ${allowed[$layer]:-nothing else})"
      status=1
    fi
  done < <(grep -rnE '^#include "[a-z_]+/' "src/$layer" || true)
done
for folder in src/*/; do
  name=$(basename "$folder")
  [ -n "${allowed[$name]+set}" ] || { echo "layering: src/$name/ is no layer of the list"; status=1; }
done
[ $status -eq 0 ] && echo "layering: every include points down"
exit $status
