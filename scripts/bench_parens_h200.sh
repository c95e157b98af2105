#!/bin/bash
# bench_parens_h200.sh: one `device` tool call's worth of parentheses-matching
# and scan measurements on the H200 (docs/PERF.md): the driver's kernel
# statistics (`canopy info --kernels`), the full `canopy bench parens` (every
# variant 2^10 .. 2^28, the depth inputs, each pass timed apart, kernel
# statistics), `canopy bench scan` with a block-shape sweep, a lowmark shape
# sweep at 2^26, and adversarial inputs at 2^24 compared byte for byte across
# the variants. Run in the checkout root with `.gl` and the binary's folder
# carried (docs/GPU.md): B names the Release binary; results land in $OUT.
# NOSWEEP=1 skips the lowmark sweep; SCAN_SHAPES sets the scan sweep,
# SINGLE_SHAPES single's (wg,k: one k for every n, against the default).
B=${B:-.gpu-parens/canopy}
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; mkdir -p /tmp/libs; for f in .gl/extra/*.deb; do dpkg -x $f /tmp/libs; done
export LD_LIBRARY_PATH=/tmp/libs/usr/lib/x86_64-linux-gnu:$LD_LIBRARY_PATH VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
$B info > $OUT/info.txt 2>&1 || { cat $OUT/info.txt; exit 1; }
head -8 $OUT/info.txt
$B info --kernels > $OUT/kernels.txt 2>&1; echo "info --kernels rc=$?"; cat $OUT/kernels.txt
CANOPY_BENCH_SCAN_SHAPES="${SCAN_SHAPES-256,32 512,16 512,32 1024,16 128,32 1024,8}" $B bench scan --min-log2 ${SCANMIN:-10} --out $OUT/scan.txt > /dev/null 2> $OUT/scan.err
echo "scan rc=$?"; cat $OUT/scan.err; grep -E "^2\^(1[0246]|2[0-8]) |at 2|checked|scan_" $OUT/scan.txt
$B bench parens --out $OUT/parens.txt > /dev/null 2> $OUT/parens.err; echo "parens rc=$?"
cat $OUT/parens.err; sed -n '/^n /,$p' $OUT/parens.txt | grep -vE "^2\^(1[13579]|2[13579]) "
# single's elements per invocation: the default (4, 8 or 16 by n) against 16 throughout
for s in ${SINGLE_SHAPES-1024,16 1024,8}; do
  echo "== SINGLE=$s" >> $OUT/single.txt
  CANOPY_BENCH_PARENS_VARIANTS=single,simple CANOPY_PARENS_SINGLE=$s $B bench parens --min-log2 10 --max-log2 14 2>&1 | grep -E "^2\^1[0-4] |^  single|rror" >> $OUT/single.txt
done
cat $OUT/single.txt
if [ -z "$NOSWEEP" ]; then
  for s in 128,32 256,16 64,32; do
    echo "== LOWMARK=$s" >> $OUT/sweep.txt
    CANOPY_BENCH_PARENS_VARIANTS=lowmark CANOPY_PARENS_LOWMARK=$s $B bench parens --min-log2 26 --max-log2 26 2>&1 | grep -E "^2\^26|^  lowmark|rror" >> $OUT/sweep.txt
  done
  cat $OUT/sweep.txt
fi
# Adversarial inputs on the GPU: the variants must agree byte for byte.
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
