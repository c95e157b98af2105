#!/bin/bash
# bench_lowmark_h200.sh: one `device` tool call's worth of lowmark measurements
# on the H200 (docs/PERF.md, "Parentheses matching"): a baseline binary and
# this checkout's, alternating (base, new, base, new) so that clock changes
# affect both alike, at 2^26 (fair coin and the depth inputs, each pass timed)
# with the reduce kernel's slice staging and the window kernel's batch one at a
# time (CANOPY_PARENS_LOWMARK_SLICE_STAGE=1 stages every slice,
# CANOPY_PARENS_LOWMARK_WINDOW_BATCH=1 copies one entry at a time: the
# baseline's kernels), and with 64 x 16 partitions. ROUND=2 instead runs the
# defaults against the baseline from 2^18 to 2^28 (depth inputs at 2^26 and
# 2^28), then other partition shapes at 2^26. Every run checks its
# results against the CPU reference. Run in the checkout root with `.gl` and
# both binaries' folders carried: B names the new Release binary, BASE the
# baseline; everything lands in $OUT/lowmark.txt.
B=${B:-.gpu-lowmark/canopy}
BASE=${BASE:-.gpu-base/canopy}
ROUND=${ROUND:-1}
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; mkdir -p /tmp/libs; for f in .gl/extra/*.deb; do dpkg -x $f /tmp/libs; done
export LD_LIBRARY_PATH=/tmp/libs/usr/lib/x86_64-linux-gnu:$LD_LIBRARY_PATH VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
O=$OUT/lowmark.txt
# one run: a label, then the environment and the command
run() {
  local label=$1
  shift
  echo "=== $label ($(date -u +%H:%M:%S))" >> $O
  env CANOPY_BENCH_PARENS_VARIANTS=lowmark "$@" 2>&1 | grep --line-buffered -E "^2\^|passes|^  lowmark|^  parens_lm|^random|^nested|^drift|^sawtooth|rror|differs" >> $O
  echo "rc=${PIPESTATUS[0]}" >> $O
}
A26="bench parens --min-log2 26 --max-log2 26"
$BASE bench parens --min-log2 24 --max-log2 24 > /dev/null 2>&1 # clocks up
if [ "$ROUND" = 1 ]; then
  run base $BASE $A26
  run new $B $A26
  run "new, baseline's kernels" CANOPY_PARENS_LOWMARK_SLICE_STAGE=1 CANOPY_PARENS_LOWMARK_WINDOW_BATCH=1 $B $A26
  run "new, window batch only" CANOPY_PARENS_LOWMARK_SLICE_STAGE=1 $B $A26
  run "new, short slices straight only" CANOPY_PARENS_LOWMARK_WINDOW_BATCH=1 $B $A26
  run "new, no slice staged, batch 16" CANOPY_PARENS_LOWMARK_SLICE_STAGE=1000000 CANOPY_PARENS_LOWMARK_WINDOW_BATCH=16 $B $A26
  run "base 64x16" CANOPY_PARENS_LOWMARK=64,16 $BASE $A26
  run "new 64x16" CANOPY_PARENS_LOWMARK=64,16 $B $A26
  run base $BASE $A26
  run new $B $A26
else
  run "base 2^18..2^28" $BASE bench parens --min-log2 18 --max-log2 28
  run "new 2^18..2^28" $B bench parens --min-log2 18 --max-log2 28
  for shape in 32,16 64,32 32,32; do run "new $shape" CANOPY_PARENS_LOWMARK=$shape $B $A26; done
fi
echo "=== end ($(date -u +%H:%M:%S))" >> $O
cat $O
