#!/usr/bin/env bash
# bench_scene_ab_h200.sh: the scene stage's forms against each other in one
# `device` call (../shared/docs/GPU.md says how to bring the Vulkan loader
# along). Run from the repository root on the device; results land in $OUT.
#   VARIANTS  forms to compare, separated by ';', each NAME or NAME:VAR=VALUE[,VAR=VALUE...]
#             of one binary (a value may hold commas: CANOPY_BBOX_SHAPE=256,2,1024; a new
#             variable starts at a comma followed by NAME=): default "head;plainfill:CANOPY_BINS_OWN_FILL=off"
#   BINS      NAME=BINARY pairs, separated by spaces: the binary of each form
#             (default: every form runs build/canopy, a Release build carried along)
#   SIZES     log2 of the synthetic stream sizes (default "14 16 20 21 22")
#   ROUNDS    rounds over the sizes and forms (default 2), the forms alternating
#   TESTS     test binaries to run first (default none), each output in $OUT/tests.txt
# One process per size and form, after one warm-up process. Prints per form and
# size the synthetic row's columns: compact parens clip draws blend bincount
# binscan binfill total_us bbox/cp plain_us (µs; plain_us: runs without the timestamps between
# stages, empty for binaries without that column). Every row is checked against the CPU
# reference by the benchmark before it prints.
set -u
VARIANTS=${VARIANTS:-"head;plainfill:CANOPY_BINS_OWN_FILL=off"}
SIZES=${SIZES:-"14 16 20 21 22"}
ROUNDS=${ROUNDS:-2}
empty=$(mktemp -d)

binary_of() { # NAME
  local b
  for b in ${BINS:-}; do
    [ "${b%%=*}" = "$1" ] && { echo "${b#*=}"; return; }
  done
  echo build/canopy
}

row() { # NAME E
  local name=$1 e=$2 spec vars=() bin
  IFS=';' read -ra forms <<<"$VARIANTS"
  for spec in "${forms[@]}"; do
    [ "${spec%%:*}" = "$name" ] || continue
    [ "$spec" != "${spec#*:}" ] &&
      mapfile -t vars < <(sed -E 's/,([A-Za-z_][A-Za-z0-9_]*=)/\n\1/g' <<<"${spec#*:}")
  done
  bin=$(binary_of "$name")
  local out
  out=$(env "${vars[@]}" "$bin" bench scene --min-log2 "$e" --max-log2 "$e" --scenes "$empty" --out /dev/stdout 2>"$empty.err" |
    awk -v name="$name" '$1 == "synthetic" {
      printf "%-12s %-6s %8s %8s %8s %8s %8s %8s %8s %8s %9s %7s %9s\n", name, $2, $6, $7, $8, $9, $10, $12, $13, $14, $17, $19, $22 }')
  # a form that prints no row failed (a check, a pipeline): say so, with its last message
  if [ -n "$out" ]; then echo "$out"; else printf "%-12s 2^%-4s FAILED: %s\n" "$name" "$e" "$(tail -1 "$empty.err")"; fi
}

if [ -n "${TESTS:-}" ]; then
  for t in $TESTS; do echo "== $t"; "$t" 2>&1 | tail -3; done > "$OUT/tests.txt" 2>&1
  grep -E '^==|passed' "$OUT/tests.txt"
fi
IFS=';' read -ra forms <<<"$VARIANTS"
names=()
for spec in "${forms[@]}"; do names+=("${spec%%:*}"); done
"$(binary_of "${names[0]}")" bench scene --min-log2 14 --max-log2 14 --scenes "$empty" --out /dev/null >/dev/null 2>&1 # warm-up
{
  printf "%-12s %-6s %8s %8s %8s %8s %8s %8s %8s %8s %9s %7s %9s\n" form size compact parens clip draws blend \
    bincount binscan binfill total_us bbox/cp plain_us
  for ((r = 0; r < ROUNDS; r++)); do
    for e in $SIZES; do
      for name in "${names[@]}"; do row "$name" "$e"; done
    done
  done
} | tee "$OUT/scene_ab.txt"
rm -rf "$empty" "$empty.err"
