#!/usr/bin/env bash
# fuzz.sh: builds the libFuzzer targets with clang and runs each for a
# bounded time (CI runs it from scripts/check.sh).
#   scripts/fuzz.sh [SECONDS [TARGET...]]
# SECONDS (default 60) is the total: fuzz_svg gets half, fuzz_element_text,
# fuzz_parens and fuzz_image a sixth each; naming targets splits it evenly among them.
# Every target runs with -timeout=10: an input that takes longer is a failure,
# like a crash, a sanitizer report or memory past -rss_limit_mb.
# Seeds: fuzz_svg from tests/data/svg-crash/ (every crash ever found),
# tests/data/scenes-real/ and, when present, the resvg suite in $CANOPY_SHARED
# (default ../shared beside the repository)/conformance/resvg/; the others from
# tests/fuzz/seeds/ (fuzz_image: tests/fuzz/seeds/image/). The growing corpora stay in build-fuzz/corpus-TARGET/
# between runs. A failure leaves build-fuzz/crash-* (or leak-*, timeout-*,
# oom-*) and a non-zero exit: keep the input as a regression seed with the fix.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
dir=build-fuzz
jobs=$(nproc 2>/dev/null || echo 2)

echo "== fuzz: configure and build ($dir, clang)"
cmake -S . -B "$dir" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCANOPY_FUZZ=ON \
  -DCANOPY_WERROR=ON >/dev/null
cmake --build "$dir" --target fuzz_svg fuzz_element_text fuzz_parens fuzz_image -j "$jobs"

seeds_svg() {
  local i=0 out="$dir/seeds-fuzz_svg"
  add() { # add DIR MAXBYTES
    [ -d "$1" ] || return 0
    while IFS= read -r -d '' f; do
      cp "$f" "$out/$i.svg"; i=$((i+1))
    done < <(find "$1" -name '*.svg' -size -"$2"c -print0 | sort -z)
  }
  add tests/data/svg-crash 1000000
  add tests/data/scenes-real 65536
  local shared=${CANOPY_SHARED:-../shared}
  [ -d "$shared" ] || shared=/work/shared
  add "$shared/conformance/resvg" 65536
}

run_target() { # run_target NAME SECONDS
  local name=$1 secs=$2 extra=()
  mkdir -p "$dir/corpus-$name" "$dir/seeds-$name"
  rm -f "$dir/seeds-$name"/*
  case $name in
    fuzz_svg) seeds_svg; extra=(-max_len=65536 -dict=../tests/fuzz/svg.dict) ;;
    fuzz_element_text) cp tests/fuzz/seeds/element_text/* "$dir/seeds-$name/"; extra=(-max_len=4096) ;;
    fuzz_parens) cp tests/fuzz/seeds/parens/* "$dir/seeds-$name/"; extra=(-max_len=8192) ;;
    fuzz_image) cp tests/fuzz/seeds/image/* "$dir/seeds-$name/"; extra=(-max_len=65536) ;;
    *) echo "fuzz.sh: unknown target $name" >&2; return 2 ;;
  esac
  echo "== fuzz: $name, $(ls "$dir/seeds-$name" | wc -l) seed files, ${secs}s"
  (cd "$dir" &&
    ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "./tests/fuzz/$name" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 "${extra[@]}" \
      -print_final_stats=1 "corpus-$name" "seeds-$name" >"$name.log" 2>&1)
  local rc=$?
  tail -25 "$dir/$name.log"
  echo "== fuzz: $name exit $rc (full log: $dir/$name.log)"
  return $rc
}

if [ ${#targets[@]} -eq 0 ]; then
  plan=("fuzz_svg $((seconds / 2))" "fuzz_element_text $((seconds / 6))" "fuzz_parens $((seconds / 6))"
        "fuzz_image $((seconds / 6))")
else
  plan=()
  for t in "${targets[@]}"; do plan+=("$t $((seconds / ${#targets[@]}))"); done
fi
status=0
set +e
for p in "${plan[@]}"; do
  run_target $p || status=1
done
exit $status
