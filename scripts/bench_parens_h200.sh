#!/bin/bash
# bench_parens_h200.sh: one `device` tool call's worth of parentheses-matching
# measurements on the H200 (docs/PERF.md): lowmark shape sweep, lowmark's passes
# timed by difference, the full `canopy bench parens`, and adversarial inputs
# compared byte for byte across the four variants. Run in the lead's checkout
# root with `.gpu` and `.gl` carried (docs/GPU.md): B names the Release binary
# (default .gpu/parens2/canopy); results land in $OUT.
B=${B:-.gpu/parens2/canopy}
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; mkdir -p /tmp/libs; for f in .gl/extra/*.deb; do dpkg -x $f /tmp/libs; done
export LD_LIBRARY_PATH=/tmp/libs/usr/lib/x86_64-linux-gnu:$LD_LIBRARY_PATH __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
$B info > $OUT/info.txt 2>&1 || { cat $OUT/info.txt; exit 1; }
head -8 $OUT/info.txt
SW=${SW:-"128,16 256,16 64,32 128,32"}
for s in $SW; do
  echo "== LOWMARK=$s" >> $OUT/sweep.txt
  CANOPY_BENCH_PARENS_VARIANTS=${SWV:-lowmark} CANOPY_PARENS_LOWMARK=$s $B bench parens --min-log2 ${SWMIN:-20} --max-log2 26 2>&1 | grep -E "^2\^|partition of|differs|rror" >> $OUT/sweep.txt
done
for st in reduce tree window; do # lowmark's passes, timed by difference (default shape)
  echo "== LOWMARK_STOP=$st" >> $OUT/sweep.txt
  CANOPY_PARENS_LOWMARK_STOP=$st CANOPY_BENCH_PARENS_VARIANTS=lowmark $B bench parens --min-log2 ${SWMIN:-20} --max-log2 26 2>&1 | grep -E "^2\^|rror" >> $OUT/sweep.txt
done
cat $OUT/sweep.txt
[ -n "$NOFULL" ] && exit 0
$B bench parens $MAIN --out $OUT/parens.txt > /dev/null 2> $OUT/parens.err; echo "main rc=$?"
cat $OUT/parens.err; grep -E "^2\^(2[0-8]) |fastest|at 2|faster|checked" $OUT/parens.txt
# Adversarial inputs on the GPU: the four variants must agree byte for byte.
if command -v python3 >/dev/null; then
python3 - <<'PY'
import random
n = 1 << 24
random.seed(7)
open('/tmp/nested.txt', 'w').write('(' * (n // 2) + ')' * (n // 2))
open('/tmp/closeopen.txt', 'w').write(')' * (n // 4) + '(' * (n // 2) + ')' * (n // 4))
s = []
while sum(map(len, s)) < n:
    k = random.randint(1, 40000); up = random.random() < 0.5
    s.append(''.join('(' if (random.random() < 0.9) == up else ')' for _ in range(k)))
open('/tmp/saw.txt', 'w').write(''.join(s)[:n])
stairs = ''.join('()()()(' if i % 2 == 0 else '()' for i in range(n // 9))
open('/tmp/stairs.txt', 'w').write(stairs + ')' * (len(stairs) // 3))
PY
for f in nested closeopen saw stairs; do
  for v in simple efficient lookback lowmark; do $B parens --variant $v --in /tmp/$f.txt --out /tmp/$f.$v || echo "$f $v failed"; done
  cmp -s /tmp/$f.simple /tmp/$f.efficient && cmp -s /tmp/$f.simple /tmp/$f.lookback && cmp -s /tmp/$f.simple /tmp/$f.lowmark && echo "adversarial $f: variants agree" || echo "adversarial $f: DIFFER"
done | tee -a $OUT/parens.txt
fi
