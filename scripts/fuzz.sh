#!/usr/bin/env bash
# fuzz.sh: builds the libFuzzer target of the SVG loader with clang and runs
# it for a bounded time (CI runs it from scripts/check.sh).
#   scripts/fuzz.sh [SECONDS]     default 60
# Seeds: tests/data/svg-crash/ (every crash ever found), tests/data/scenes-real/
# and, when present, the resvg suite in $CANOPY_SHARED (default ../shared beside
# the repository)/conformance/resvg/. The
# growing corpus stays in build-fuzz/corpus/ between runs. A crash leaves
# build-fuzz/crash-* (or leak-*, timeout-*, oom-*) and a non-zero exit: add the
# input to tests/data/svg-crash/ as crash-<sha1>.svg with the fix.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
dir=build-fuzz
jobs=$(nproc 2>/dev/null || echo 2)

echo "== fuzz: configure and build ($dir, clang)"
cmake -S . -B "$dir" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCANOPY_FUZZ=ON \
  -DCANOPY_WERROR=ON >/dev/null
cmake --build "$dir" --target fuzz_svg -j "$jobs"

mkdir -p "$dir/corpus" "$dir/seeds"
rm -f "$dir"/seeds/*
i=0
add_seeds() { # add_seeds DIR MAXBYTES
  [ -d "$1" ] || return 0
  while IFS= read -r -d '' f; do
    cp "$f" "$dir/seeds/$i.svg"; i=$((i+1))
  done < <(find "$1" -name '*.svg' -size -"$2"c -print0 | sort -z)
}
add_seeds tests/data/svg-crash 1000000
add_seeds tests/data/scenes-real 65536
shared=${CANOPY_SHARED:-../shared}
[ -d "$shared" ] || shared=/work/shared
add_seeds "$shared/conformance/resvg" 65536
echo "== fuzz: $i seed files, ${seconds}s"
cd "$dir"
set +e
ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ./tests/fuzz/fuzz_svg -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
  -dict=../tests/fuzz/svg.dict -print_final_stats=1 corpus seeds >fuzz.log 2>&1
rc=$?
tail -60 fuzz.log
echo "== fuzz: exit $rc (full log: $dir/fuzz.log)"
exit $rc
