#!/bin/bash
# bench_scan_h200.sh: one `device` tool call's worth of scan measurements on
# the H200 (docs/PERF.md, "Scan"), a baseline binary and the candidate
# alternating in the same call so that clocks affect both alike. Run in the
# checkout root with `.gl` and the binaries' folders carried (docs/GPU.md);
# results land in $OUT.
#   B       the canopy binary to measure (default .gpu/canopy)
#   BASE    the baseline canopy binary (default: none, B alone)
#   SHAPES  the candidate's rows at 2^26 (CANOPY_BENCH_SCAN_SHAPES; default:
#           the default shape and larger blocks with the block's total first
#           or the rows streamed, some with the static order or the early
#           first look-back window)
#   SIZES   the candidate's rows at 2^16 .. 2^25 (default: the default shape
#           and the larger blocks)
#   PARENS  1: also the small-input parentheses rows (single and auto, 2^9 ..
#           2^14)
# A warm-up first (the first process on a fresh machine often runs with
# clocks down, and in one call the later rows of the first 2^26 process ran
# at half speed), then two rounds at 2^26 (each process times its rows after a
# copy of the same bytes), then 2^16 .. 2^25, base and candidate. Every row is
# checked against the CPU reference before it prints; the kernels' register
# counts (VK_KHR_pipeline_executable_properties) of every shape timed close
# the candidate's output.
set -u
B=${B:-.gpu/canopy}
BASE=${BASE:-}
SHAPES=${SHAPES:-"0,0 512,32,0,0,0,1 512,32,0,1,0,1 256,64,0,0,0,1 256,64,0,0,0,0,0,0,1 256,64,0,0,0,0,0,1,1 256,64,0,1,0,0,0,0,1 128,64,0,0,0,0,0,0,1 256,48,0,0,0,0,0,0,1 256,32,0,0,0,0,0,0,1 512,32,0,0,0,0,0,0,1 512,24,0,0,0,0,0,0,1 128,48,0,0,0,0,0,0,1"}
SIZES=${SIZES:-"0,0 512,32,0,0,0,1 256,64,0,0,0,0,0,0,1 256,48,0,0,0,0,0,0,1 128,64,0,0,0,0,0,0,1 256,32,0,0,0,0,0,0,1"}
PARENS=${PARENS:-0}
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; mkdir -p /tmp/libs; for f in .gl/extra/*.deb; do dpkg -x $f /tmp/libs; done
export LD_LIBRARY_PATH=/tmp/libs/usr/lib/x86_64-linux-gnu VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
date -u > "$OUT/date.txt"
keep() { grep -E "^2\^|rror|differs|scan_u32_add|copy_u32x4"; }
S="--min-log2 26 --max-log2 26"
M="--min-log2 16 --max-log2 25"
# warm-up: a short run, then the candidate's rows at 2^26 once, discarded
${BASE:-$B} bench scan --min-log2 20 --max-log2 22 > /dev/null 2>&1
CANOPY_BENCH_SCAN_BASE=0 CANOPY_BENCH_SCAN_SHAPES="$SHAPES" $B bench scan $S > /dev/null 2>&1
{
  for round in 1 2; do
    if [ -n "$BASE" ]; then
      echo "== base (round $round)"
      CANOPY_BENCH_SCAN_BASE=0 CANOPY_BENCH_SCAN_SHAPES="0,0" $BASE bench scan $S 2>&1 | grep -E "^2\^|rror|differs"
    fi
    echo "== candidate (round $round)"
    CANOPY_BENCH_SCAN_BASE=0 CANOPY_BENCH_SCAN_SHAPES="$SHAPES" $B bench scan $S 2>&1 | keep
  done
} > "$OUT/scan.txt"
{
  if [ -n "$BASE" ]; then
    echo "== base"
    CANOPY_BENCH_SCAN_BASE=0 CANOPY_BENCH_SCAN_SHAPES="0,0" $BASE bench scan $M 2>&1 | grep -E "^2\^|rror|differs"
  fi
  echo "== candidate"
  CANOPY_BENCH_SCAN_BASE=0 CANOPY_BENCH_SCAN_SHAPES="$SIZES" $B bench scan $M 2>&1 | keep
} > "$OUT/sizes.txt"
if [ "$PARENS" = 1 ]; then
  P="--min-log2 9 --max-log2 14"
  {
    if [ -n "$BASE" ]; then
      echo "== base"
      CANOPY_BENCH_PARENS_VARIANTS=single,auto $BASE bench parens $P 2>&1 | grep -E "^2\^|^auto at|faster|rror|differs"
    fi
    echo "== candidate"
    CANOPY_BENCH_PARENS_VARIANTS=single,auto $B bench parens $P 2>&1 | grep -E "^2\^|^auto at|faster|rror|differs"
  } > "$OUT/parens.txt"
fi
date -u >> "$OUT/date.txt"
cat "$OUT/scan.txt" "$OUT/sizes.txt"
