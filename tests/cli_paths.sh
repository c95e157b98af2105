#!/usr/bin/env bash
# cli_paths.sh: data directories come from options or from the binary's place,
# never from the current directory; a missing suite or scene folder is an error
# that says what to do; long commands print progress on stderr when piped.
# usage: cli_paths.sh path/to/canopy source-dir
set -u
canopy=$1; src=$2
. "$(dirname "$0")/lib_cli.sh"
dir=$(mktemp -d); out=$dir/out; err=$dir/err; trap 'rm -rf "$dir"' EXIT
real_src=$(cd "$src" && pwd -P)

# Defaults are found from the binary, the same from any directory.
(cd "$dir" && "$canopy" bench --help) >"$out" 2>"$err"; expect bench-help 0 $?
contains bench-default-scenes "$out" "$real_src/tests/data/scenes-real"
(cd / && "$canopy" bench --help) >"$dir/out2" 2>"$err"
cmp -s "$out" "$dir/out2" && passes=$((passes+1)) || { echo "FAIL bench-help differs with the current directory"; fails=$((fails+1)); }

# A copy of the binary away from any tree finds nothing: clear errors, exit 1.
mkdir -p "$dir/bin" && cp "$canopy" "$dir/bin/canopy"
(cd "$src" && "$dir/bin/canopy" conformance) >"$out" 2>"$err"; expect suite-missing 1 $?
contains suite-missing "$err" "resvg test suite is not installed"
contains suite-missing-how "$err" "--suite DIR"
(cd "$src" && "$dir/bin/canopy" bench render --quick) >"$out" 2>"$err"; expect scenes-missing 1 $?
contains scenes-missing "$err" "pass --scenes DIR"
"$canopy" conformance --suite "$dir/nowhere" >"$out" 2>"$err"; expect suite-bad 1 $?
contains suite-bad "$err" "is not the resvg suite"
"$canopy" bench scene --scenes "$dir/nowhere" >"$out" 2>"$err"; expect scenes-bad 1 $?
contains scenes-bad "$err" "not a directory"

# A tiny suite in the suite's layout: progress lines on stderr when piped, one per test.
mkdir -p "$dir/suite/shapes/rect"
printf '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="red"/></svg>' \
  >"$dir/suite/shapes/rect/red.svg"
printf '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="blue"/></svg>' \
  >"$dir/suite/shapes/rect/blue.svg"
"$canopy" render "$dir/suite/shapes/rect/red.svg" -o "$dir/suite/shapes/rect/red.png" 2>"$err"
"$canopy" render "$dir/suite/shapes/rect/red.svg" -o "$dir/suite/shapes/rect/blue.png" 2>"$err"
printf '# test\ttags\nshapes/rect/red\t\nshapes/rect/blue\t\n' >"$dir/suite/FEATURES.tsv"
"$canopy" conformance --suite="$dir/suite" --failures "$dir/fail.txt" 2>"$err" | cat >"$out"; expect conformance 0 ${PIPESTATUS[0]}
contains conformance-rate "$out" "overall *2 *1 *50.0%"
contains progress-1 "$err" "^canopy conformance: \[1/2\] "
contains progress-2 "$err" "^canopy conformance: \[2/2\] 1 passed  shapes/rect/blue  FAIL$"
contains failures-file "$dir/fail.txt" "^shapes/rect/blue"

# bench progress, piped
"$canopy" bench flatten --quick --runs 1 --warmup 0 --scenes "$src/tests/data/scenes-real" 2>"$err" | cat >"$out"
expect bench-flatten 0 ${PIPESTATUS[0]}
contains bench-progress "$err" "^canopy bench flatten: \[1/3\] synthetic 1000$"

finish cli_paths
