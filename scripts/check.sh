#!/usr/bin/env bash
# check.sh: the whole test suite, as README.md and .ci/run call it.
#   scripts/check.sh            setup, then the plain and the sanitizer builds, each with all tests
#   scripts/check.sh plain      only build/ (RelWithDebInfo, -Werror)
#   scripts/check.sh sanitize   only build-asan/ (AddressSanitizer + UBSan, -Werror)
#   scripts/check.sh install    install build/ (static) and a shared build (build-shared/), build
#                               examples/embed.c against each through find_package and pkg-config, run it
#   scripts/check.sh fuzz       only the libFuzzer runs (build-fuzz/, clang, 60 s in all;
#                               CANOPY_FUZZ_SECONDS overrides)
# Tests run on the chosen Vulkan device (lavapipe without a GPU) with the
# validation layer on. Extra arguments after the configuration go to ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

which=${1:-all}
shift || true
jobs=$(nproc 2>/dev/null || echo 2)

run_config() { # NAME DIR CMAKE-ARGS...
  local name=$1 dir=$2
  shift 2
  echo "== $name: configure and build ($dir)"
  cmake -S . -B "$dir" -DCANOPY_WERROR=ON "$@" >/dev/null
  cmake --build "$dir" -j "$jobs"
  echo "== $name: tests"
  (cd "$dir" && ctest --output-on-failure -j "$jobs" "${extra[@]}")
}

check_install() {
  echo "== install: static (build/)"
  bash scripts/check_install.sh build
  echo "== install: shared (build-shared/)"
  cmake -S . -B build-shared -DCANOPY_WERROR=ON -DBUILD_SHARED_LIBS=ON -DCANOPY_BUILD_TESTS=OFF \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build build-shared -j "$jobs"
  bash scripts/check_install.sh build-shared
}

extra=("$@")
case "$which" in
  all)
    run_config plain build -DCMAKE_BUILD_TYPE=RelWithDebInfo
    run_config sanitize build-asan -DCMAKE_BUILD_TYPE=Debug -DCANOPY_SANITIZE=ON
    check_install
    bash scripts/fuzz.sh "${CANOPY_FUZZ_SECONDS:-60}"
    ;;
  plain) run_config plain build -DCMAKE_BUILD_TYPE=RelWithDebInfo ;;
  sanitize) run_config sanitize build-asan -DCMAKE_BUILD_TYPE=Debug -DCANOPY_SANITIZE=ON ;;
  install) check_install ;;
  fuzz) bash scripts/fuzz.sh "${CANOPY_FUZZ_SECONDS:-60}" ;;
  *) echo "usage: scripts/check.sh [all|plain|sanitize|install|fuzz] [ctest args...]" >&2; exit 2 ;;
esac
