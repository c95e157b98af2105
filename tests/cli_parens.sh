#!/usr/bin/env bash
# cli_parens.sh: `canopy parens` (every variant, output bytes, errors, exit codes)
# and `canopy bench parens --quick`.
# usage: cli_parens.sh path/to/canopy source-dir
set -u
canopy=$1
. "$(dirname "$0")/lib_cli.sh"
same() { # same NAME GOT WANT
  if [ "$2" = "$3" ]; then pass; else fail "$1: got '$2', want '$3'"; fi
}
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
ints() { od -An -v -t d4 "$1" | tr -s ' \n' ' ' | sed 's/^ //; s/ $//'; }

# The blog's example, with a trailing newline; unbalanced input.
printf '((()((())(()()))))\n' > "$dir/a.txt"
want="-1 0 1 2 1 4 5 6 5 4 9 10 9 12 9 4 1 0"
for v in auto simple efficient lookback lowmark; do
  "$canopy" parens --variant $v --in "$dir/a.txt" --out "$dir/a.bin" 2>"$dir/err"; expect "parens-$v" 0 $?
  same "parens-$v-output" "$(ints "$dir/a.bin")" "$want"
done
printf '))(()))(' > "$dir/u.txt"
"$canopy" parens --in "$dir/u.txt" --out "$dir/u.bin"; expect unbalanced 0 $?
same unbalanced-output "$(ints "$dir/u.bin")" "-1 -1 -1 2 3 2 -1 -1"
same unbalanced-size "$(stat -c %s "$dir/u.bin")" 32

# A larger random input: every variant agrees with the others byte for byte.
head -c 300000 /dev/urandom | tr '\000-\377' '()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()()' > "$dir/r.txt"
for v in simple efficient lookback lowmark; do "$canopy" parens --variant $v --in "$dir/r.txt" --out "$dir/r.$v"; expect "random-$v" 0 $?; done
cmp -s "$dir/r.simple" "$dir/r.efficient"; expect random-simple-efficient 0 $?
cmp -s "$dir/r.simple" "$dir/r.lookback"; expect random-simple-lookback 0 $?
cmp -s "$dir/r.simple" "$dir/r.lowmark"; expect random-simple-lowmark 0 $?
same random-size "$(stat -c %s "$dir/r.lookback")" 1200000

# Empty input gives empty output; a lone newline is empty input.
: > "$dir/e.txt"
"$canopy" parens --in "$dir/e.txt" --out "$dir/e.bin"; expect empty 0 $?
same empty-size "$(stat -c %s "$dir/e.bin")" 0
printf '\n' > "$dir/nl.txt"
"$canopy" parens --in "$dir/nl.txt" --out "$dir/nl.bin"; expect newline-only 0 $?
same newline-only-size "$(stat -c %s "$dir/nl.bin")" 0

# Bad bytes name their offset; two newlines are one too many.
printf '(()x)' > "$dir/bad.txt"
"$canopy" parens --in "$dir/bad.txt" --out "$dir/bad.bin" 2>"$dir/err"; expect bad-byte 1 $?
contains bad-byte "$dir/err" "byte offset 3"
printf '()\n\n' > "$dir/nl2.txt"
"$canopy" parens --in "$dir/nl2.txt" --out "$dir/nl2.bin" 2>"$dir/err"; expect two-newlines 1 $?
contains two-newlines "$dir/err" "byte offset 2"
# Reading stops early: at the first bad byte of an endless stream, at a
# directory (nothing leaks: the sanitizer build checks), and a regular file
# over the element limit is refused from its size before it is read.
timeout 20 "$canopy" parens --in /dev/zero --out "$dir/z.bin" 2>"$dir/err"; expect dev-zero 1 $?
contains dev-zero "$dir/err" "/dev/zero: byte offset 0: unexpected byte 0x00"
"$canopy" parens --in "$dir" --out "$dir/d.bin" 2>"$dir/err"; expect directory 1 $?
contains directory "$dir/err" "cannot read it: Is a directory"
truncate -s 3G "$dir/huge.txt"
timeout 20 "$canopy" parens --in "$dir/huge.txt" --out "$dir/h.bin" 2>"$dir/err"; expect huge-file 1 $?
contains huge-file "$dir/err" "3221225472 bytes: more than the limit of 2147483647 elements"
"$canopy" parens --in "$dir/missing.txt" --out "$dir/m.bin" 2>"$dir/err"; expect missing-file 1 $?
contains missing-file "$dir/err" "missing.txt"
"$canopy" parens --in "$dir/a.txt" --out "$dir/no/such/dir/x.bin" 2>"$dir/err"; expect unwritable 1 $?

# Usage errors.
"$canopy" parens --in "$dir/a.txt" 2>"$dir/err"; expect no-out 2 $?
"$canopy" parens --out "$dir/x.bin" 2>"$dir/err"; expect no-in 2 $?
"$canopy" parens --variant fast --in "$dir/a.txt" --out "$dir/x.bin" 2>"$dir/err"; expect bad-variant 2 $?
contains bad-variant "$dir/err" "unknown variant 'fast'"
"$canopy" parens --frob 2>"$dir/err"; expect unknown-option 2 $?
"$canopy" parens --in 2>"$dir/err"; expect missing-value 2 $?
"$canopy" parens --help >"$dir/out"; expect help 0 $?
contains help "$dir/out" "usage: canopy parens"

# The benchmark, small.
"$canopy" bench parens --quick --max-log2 12 --runs 3 --warmup 1 --out "$dir/bench.txt" >"$dir/out" 2>"$dir/err"; expect bench 0 $?
contains bench-file "$dir/bench.txt" "of copy"
contains bench-rows "$dir/bench.txt" "^2^12 *lookback"
contains bench-checked "$dir/bench.txt" "checked against the CPU reference"
contains bench-single "$dir/bench.txt" "^2^10 *single"
contains bench-passes "$dir/bench.txt" "^  lowmark  *reduce [0-9.]* window [0-9.]* match"
# The partition tree in dispatches of its own (the benchmark passes tickets: the reduce pass builds it).
CANOPY_PARENS_TREE_APART=1 CANOPY_BENCH_PARENS_VARIANTS=lowmark "$canopy" bench parens --quick --max-log2 12 --runs 3 \
  --warmup 1 --out "$dir/bench-apart.txt" >"$dir/out" 2>"$dir/err"; expect bench-apart 0 $?
contains bench-passes-apart "$dir/bench-apart.txt" "^  lowmark  *reduce [0-9.]* tree [0-9.]* window [0-9.]* match"
contains bench-kernel-stats "$dir/bench.txt" "^  parens_lm_match .* n/a"
contains bench-traffic "$dir/bench.txt" "^nested  *[0-9.]*  *[0-9.]*  *[0-9.]*  *[0-9.]*  *[0-9.]*   at copy:"
CANOPY_BENCH_PARENS_TRAFFIC=only "$canopy" bench parens --min-log2 16 --max-log2 16 >"$dir/out" 2>"$dir/err"; expect bench-traffic-only 0 $?
contains bench-traffic-only "$dir/out" "lowmark traffic model at n = 2^16, partition 2048"
contains bench-traffic-only-rows "$dir/out" "^sawtooth  *[0-9.]*"
CANOPY_PARENS_LOWMARK=48,16 "$canopy" bench parens --quick --max-log2 10 --runs 1 >"$dir/out" 2>"$dir/err"; expect bench-bad-shape 1 $?
contains bench-bad-shape "$dir/err" "wg 48"
"$canopy" bench scan --quick --min-log2 12 --max-log2 14 --runs 3 --warmup 1 --out "$dir/scan.txt" >"$dir/out" 2>"$dir/err"; expect bench-scan 0 $?
contains bench-scan-rows "$dir/scan.txt" "^2^14 *one-pass"
contains bench-scan-two "$dir/scan.txt" "^2^13 *two-pass"
contains bench-scan-checked "$dir/scan.txt" "checked against the CPU scan"
# The scene benchmark's passes inside the box stages (the multi-pass stages at 2^14).
mkdir -p "$dir/no-scenes"
"$canopy" bench scene --quick --min-log2 14 --max-log2 14 --runs 3 --warmup 1 --passes --scenes "$dir/no-scenes" \
  --out "$dir/scene.txt" >"$dir/out" 2>"$dir/err"; expect bench-scene-passes 0 $?
contains bench-scene-passes-row "$dir/scene.txt" "^  passes (us)  *bbox_count [0-9.]*  parens "
contains bench-scene-passes-last "$dir/scene.txt" "  parens [a-z]* [0-9.]*  bbox_pyramid [0-9.]*$"
# ... and with the clip boxes' pass over the group nodes (CANOPY_BBOX_CLIP_JOIN=nodes: cn_tuning.bbox_clip_join)
CANOPY_BBOX_CLIP_JOIN=nodes "$canopy" bench scene --quick --min-log2 14 --max-log2 14 --runs 3 --warmup 1 --passes \
  --scenes "$dir/no-scenes" --out "$dir/scene.txt" >"$dir/out" 2>"$dir/err"; expect bench-scene-clip-nodes 0 $?
contains bench-scene-passes-clip-nodes "$dir/scene.txt" "  bbox_clip_nodes [0-9.]*  bbox_pyramid [0-9.]*$"
# ... and the whole stage timed again without the timestamps between its stages (plain_us, last)
contains bench-scene-plain-head "$dir/scene.txt" " vs_cpu  *plain_us$"
contains bench-scene-plain-row "$dir/scene.txt" "^synthetic 2^14 .*x  *[0-9][0-9.]*$"
# The same with the compaction's scan pass (CANOPY_BBOX_COMPACT_SCAN=off: cn_tuning.bbox_compact_scan_max).
CANOPY_BBOX_COMPACT_SCAN=off "$canopy" bench scene --quick --min-log2 14 --max-log2 14 --runs 3 --warmup 1 --passes \
  --scenes "$dir/no-scenes" --out "$dir/scene.txt" >"$dir/out" 2>"$dir/err"; expect bench-scene-scan 0 $?
contains bench-scene-scan-row "$dir/scene.txt" "^  passes (us)  *bbox_count [0-9.]*  bbox counts' scan [0-9.]*  parens "
"$canopy" bench 2>"$dir/err"; expect bench-no-target 2 $?
"$canopy" bench frob 2>"$dir/err"; expect bench-bad-target 2 $?
"$canopy" bench parens --runs x 2>"$dir/err"; expect bench-bad-runs 2 $?

finish
