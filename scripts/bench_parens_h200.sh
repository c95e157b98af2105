#!/bin/bash
# bench_parens_h200.sh: one `device` tool call's worth of parentheses-matching
# measurements on the H200 (docs/PERF.md): lowmark shape sweep, lowmark's passes
# timed by difference, the full `canopy bench parens`, and adversarial inputs
# compared byte for byte across the four variants. Run in the lead's checkout
# root with `.gpu` and `.gl` carried (docs/GPU.md): B names the Release binary
# (default .gpu/parens3/canopy); results land in $OUT. SW: lowmark forms swept
# (wg,k:STAGE:REWALK), STOPSW: shapes whose passes are timed by difference (from
# 2^STOPMIN), with the fastest form's STAGE and REWALK.
B=${B:-.gpu/parens3/canopy}
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; mkdir -p /tmp/libs; for f in .gl/extra/*.deb; do dpkg -x $f /tmp/libs; done
export LD_LIBRARY_PATH=/tmp/libs/usr/lib/x86_64-linux-gnu:$LD_LIBRARY_PATH __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
$B info > $OUT/info.txt 2>&1 || { cat $OUT/info.txt; exit 1; }
head -8 $OUT/info.txt
SW=${SW:-"128,16:0:0 128,16:0:1 256,16:0:1 128,32:0:1 64,32:0:1 128,32:1:0"}
for e in $SW; do # shape:STAGE:REWALK of lowmark's matching kernel (parens_lm_match.comp)
  IFS=: read -r s st rw <<< "$e"
  echo "== LOWMARK=$s STAGE=$st REWALK=$rw" >> $OUT/sweep.txt
  CANOPY_PARENS_LOWMARK_STAGE=$st CANOPY_PARENS_LOWMARK_REWALK=$rw CANOPY_BENCH_PARENS_VARIANTS=${SWV:-lowmark} CANOPY_PARENS_LOWMARK=$s $B bench parens --min-log2 ${SWMIN:-20} --max-log2 26 2>&1 | grep -E "^2\^|partition of lowmark|differs|rror" >> $OUT/sweep.txt
done
cat $OUT/sweep.txt
# The full bench and the adversarial runs use the sweep's fastest lowmark shape at 2^26.
best=$(awk '/^== LOWMARK=.* REWALK=/ { split($2, a, "="); split($3, b, "="); split($4, c, "="); s = a[2]; st = b[2]; rw = c[2]; next }
  /^== / { s = "" } s != "" && /^2\^26 +lowmark/ { if (bt == "" || $3 + 0 < bt) { bt = $3 + 0; bs = s; bst = st; brw = rw } }
  END { if (bs != "") print bs, bst, brw }' $OUT/sweep.txt)
if [ -n "$best" ]; then
  read -r CANOPY_PARENS_LOWMARK CANOPY_PARENS_LOWMARK_STAGE CANOPY_PARENS_LOWMARK_REWALK <<< "$best"
  export CANOPY_PARENS_LOWMARK CANOPY_PARENS_LOWMARK_STAGE CANOPY_PARENS_LOWMARK_REWALK
  echo "fastest lowmark form at 2^26: CANOPY_PARENS_LOWMARK=$CANOPY_PARENS_LOWMARK CANOPY_PARENS_LOWMARK_STAGE=$CANOPY_PARENS_LOWMARK_STAGE CANOPY_PARENS_LOWMARK_REWALK=$CANOPY_PARENS_LOWMARK_REWALK" | tee -a $OUT/sweep.txt
fi
[ -z "$NOFULL" ] && {
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
}
# lowmark's passes, timed by difference (at the end: the least needed part of the call)
for s in ${STOPSW:-128,16}; do
  for st in reduce tree window; do
    echo "== LOWMARK=$s STOP=$st" >> $OUT/passes.txt
    CANOPY_PARENS_LOWMARK=$s CANOPY_PARENS_LOWMARK_STOP=$st CANOPY_BENCH_PARENS_VARIANTS=lowmark $B bench parens --min-log2 ${STOPMIN:-22} --max-log2 26 2>&1 | grep -E "^2\^|rror" >> $OUT/passes.txt
  done
done
cat $OUT/passes.txt
