#!/bin/bash
# bench_scan_h200.sh: one `device` tool call's worth of scan and small-input
# parentheses measurements on the H200 (docs/PERF.md, "Scan" and
# "Parentheses matching"), a baseline binary and the candidate alternating in
# the same call so that clocks affect both alike. Run in the checkout root
# with `.gl` and the binaries' folders carried (docs/GPU.md); results land in
# $OUT.
#   B     the canopy binary to measure (default .gpu/canopy)
#   BASE  the baseline canopy binary (default: none, B alone)
# Scan at 2^26 only, each process timing its rows after the copy of the same
# bytes: the default, the block's total before its rows' scans (`a`), the
# output apart from the input (`o`, the copy's own pattern), both, and larger
# blocks with the total first. Parentheses: single and auto from 2^9 (so that
# 2^10 is not the table's first row), 2^9 .. 2^14, single with subgroup
# links instead of min tables, and single with 128 x 32 up to 2^12. Every
# row is checked against the CPU reference before it prints.
set -u
B=${B:-.gpu/canopy}
BASE=${BASE:-}
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; mkdir -p /tmp/libs; for f in .gl/extra/*.deb; do dpkg -x $f /tmp/libs; done
export LD_LIBRARY_PATH=/tmp/libs/usr/lib/x86_64-linux-gnu VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
date -u > "$OUT/date.txt"
S="--min-log2 26 --max-log2 26"
P="--min-log2 9 --max-log2 14"
shapes="0,0 0,0,0,0,0,1 0,0,0,0,0,0,1 0,0,0,0,0,1,1 512,32,0,0,0,1 256,16,0,0,0,1 0,0"
{
  for round in 1 2; do
    if [ -n "$BASE" ]; then
      echo "== base (round $round)"
      CANOPY_BENCH_SCAN_BASE=0 CANOPY_BENCH_SCAN_SHAPES="0,0" $BASE bench scan $S 2>&1 | grep -E "^2\^|rror|differs"
    fi
    echo "== candidate (round $round)"
    CANOPY_BENCH_SCAN_BASE=0 CANOPY_BENCH_SCAN_SHAPES="$shapes" $B bench scan $S 2>&1 | grep -E "^2\^|rror|differs"
  done
} > "$OUT/scan.txt"
{
  if [ -n "$BASE" ]; then
    echo "== base"
    CANOPY_BENCH_PARENS_VARIANTS=single,auto $BASE bench parens $P 2>&1 | grep -E "^2\^|^auto at|faster|rror|differs"
  fi
  echo "== candidate"
  CANOPY_BENCH_PARENS_VARIANTS=single,auto $B bench parens $P 2>&1 | grep -E "^2\^|^auto at|faster|rror|differs"
  echo "== candidate, single with subgroup links (single_psv_links)"
  CANOPY_PARENS_SINGLE_LINKS=1 CANOPY_BENCH_PARENS_VARIANTS=single $B bench parens $P 2>&1 | grep -E "^2\^|rror|differs"
  echo "== candidate, single 128 x 32"
  CANOPY_PARENS_SINGLE=128,32 CANOPY_BENCH_PARENS_VARIANTS=single $B bench parens --min-log2 9 --max-log2 12 2>&1 |
    grep -E "^2\^|rror|differs"
} > "$OUT/parens.txt"
$B info --kernels > "$OUT/kernels.txt" 2>&1
date -u >> "$OUT/date.txt"
cat "$OUT/scan.txt" "$OUT/parens.txt"
