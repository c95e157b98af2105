#!/bin/bash
# bench_lowmark_h200.sh: one `device` tool call's worth of lowmark measurements
# on the H200 (docs/PERF.md, "Parentheses matching"): a baseline binary and
# this checkout's, alternating (base, new, base, new) so that clock changes
# affect both alike, at 2^26 with lowmark's optional forms one at a time and
# together (the next partition's input loaded ahead in the reduce pass,
# previous-smaller links one shuffle per lane (binary lifting is the default), the window's first entries cached
# in shared memory, 64 x 16 partitions), then the defaults and the best
# combination at 2^28 with the depth inputs. Every run checks its results
# against the CPU reference. Run in the checkout root with `.gl` and both
# binaries' folders carried: B names the new Release binary, BASE the
# baseline; everything lands in $OUT/lowmark.txt.
B=${B:-.gpu-lowmark/canopy}
BASE=${BASE:-.gpu-base/canopy}
BEST=${BEST:-"CANOPY_PARENS_LOWMARK=64,16"}
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; mkdir -p /tmp/libs; for f in .gl/extra/*.deb; do dpkg -x $f /tmp/libs; done
export LD_LIBRARY_PATH=/tmp/libs/usr/lib/x86_64-linux-gnu:$LD_LIBRARY_PATH VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
O=$OUT/lowmark.txt
# one run: a label, then the environment and the command
run() {
  local label=$1
  shift
  echo "=== $label ($(date -u +%H:%M:%S))" >> $O
  env CANOPY_BENCH_PARENS_VARIANTS=lowmark "$@" 2>&1 | grep -E "^2\^|passes|^  lowmark|^  parens_lm|^random|^nested|^drift|^sawtooth|rror|differs" >> $O
  echo "rc=${PIPESTATUS[0]}" >> $O
}
A26="bench parens --min-log2 26 --max-log2 26"
$BASE bench parens --min-log2 24 --max-log2 24 > /dev/null 2>&1 # clocks up
run base $BASE $A26
run new $B $A26
run "base 64x16" CANOPY_PARENS_LOWMARK=64,16 $BASE $A26
run "new 64x16" CANOPY_PARENS_LOWMARK=64,16 $B $A26
for r in 2 4 8; do run "new reduce parts $r" CANOPY_PARENS_LOWMARK_REDUCE_PARTS=$r $B $A26; done
run "new per-lane links" CANOPY_PARENS_LOWMARK_LIFT=0 $B $A26
run "new window cache" CANOPY_PARENS_LOWMARK_WINDOW_CACHE=1 $B $A26
run "new best: $BEST" $BEST $B $A26
run "new best 64x16" $BEST CANOPY_PARENS_LOWMARK=64,16 $B $A26
run base $BASE $A26
run new $B $A26
A28="bench parens --min-log2 28 --max-log2 28"
run "base 2^28" $BASE $A28
run "new best 2^28" $BEST $B $A28
echo "=== end ($(date -u +%H:%M:%S))" >> $O
cat $O
