#!/bin/bash
# bench_flatten_h200.sh: one `device` tool call's worth of flatten-stage
# measurements on the H200 (docs/PERF.md): `canopy bench flatten` (synthetic
# scenes of 1k/10k/100k curved paths, fills only / 30% strokes / zoom 4, and
# tests/data/scenes-real fitted to 3840x2160; per-pass GPU medians, lines,
# CPU reference time). Run in the checkout root with `.gpu` and `.gl`
# carried (docs/GPU.md): B names the Release binary (default
# .gpu/flatten/canopy); the report lands in $OUT/flatten.txt.
B=${B:-.gpu/flatten/canopy}
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig; mkdir -p /tmp/libs; for f in .gl/extra/*.deb; do dpkg -x $f /tmp/libs; done
export LD_LIBRARY_PATH=/tmp/libs/usr/lib/x86_64-linux-gnu:$LD_LIBRARY_PATH __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
$B info > $OUT/info.txt 2>&1 || { cat $OUT/info.txt; exit 1; }
head -8 $OUT/info.txt
$B bench flatten ${ARGS:-} --out $OUT/flatten.txt > /dev/null 2> $OUT/flatten.err; echo "rc=$?"
cat $OUT/flatten.err; cat $OUT/flatten.txt
