#!/usr/bin/env bash
# bench_all_h200.sh: every benchmark table of docs/PERF.md in one `device` call
# (../shared/docs/GPU.md says how to bring the Vulkan loader along). Run from
# the repository root on the device; results land in $OUT.
#   B     the canopy binary to measure (default .gpu/canopy)
#   BASE  optional: an earlier canopy binary, measured in the same call on the
#         scene stage, rendering and flatten (the same-run baseline)
# Every bench checks its results against the CPU reference before it prints.
set -u
B=${B:-.gpu/canopy}
scenes=tests/data/scenes-real
{ $B info; $B info --kernels; } > "$OUT/info.txt" 2>&1
head -12 "$OUT/info.txt"
step() { echo "== $*" >&2; }
step scan;    $B bench scan --out "$OUT/scan.txt" >/dev/null
step parens;  $B bench parens --out "$OUT/parens.txt" >/dev/null
step scene
for e in 20 24; do $B bench scene --min-log2 $e --max-log2 $e --out /tmp/scene_$e.txt >/dev/null; done
$B bench scene --max-log2 16 --scenes $scenes --out /tmp/scene_real.txt >/dev/null
cat /tmp/scene_20.txt /tmp/scene_24.txt /tmp/scene_real.txt > "$OUT/scene.txt"
step render;  $B bench render --scenes $scenes --out "$OUT/render.txt" >/dev/null
step flatten; $B bench flatten --scenes $scenes --out "$OUT/flatten.txt" >/dev/null
step startup; bash scripts/bench_startup.sh "$B" 7 > "$OUT/startup.txt" 2>&1
if [ -n "${BASE:-}" ]; then
  step "baseline $BASE"
  {
    for e in 20 24; do $BASE bench scene --min-log2 $e --max-log2 $e --out /dev/stdout; done
    CANOPY_SCENES=$scenes $BASE bench scene --max-log2 16 --out /dev/stdout
    CANOPY_SCENES=$scenes $BASE bench render --out /dev/stdout
    CANOPY_SCENES=$scenes $BASE bench flatten --out /dev/stdout
  } > "$OUT/baseline.txt" 2>&1
fi
grep -hE '^(2\^2[0-8]|input|anne|mapWaadt|batikLogo|synthetic|floor)' "$OUT"/*.txt | head -80
