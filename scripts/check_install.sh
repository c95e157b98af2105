#!/usr/bin/env bash
# check_install.sh BUILD_DIR [WORK_DIR]: installs BUILD_DIR into a temporary
# prefix and builds examples/embed.c out of tree against it twice, through
# find_package(canopy) and through pkg-config, then runs both (on the default
# Vulkan device: lavapipe without a GPU). Fails on any step.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" && pwd)
work=${2:-$(mktemp -d)}
trap '[ -z "${2:-}" ] && rm -rf "$work"' EXIT
prefix=$work/prefix

cmake --install "$build" --prefix "$prefix" >/dev/null
for f in include/canopy/canopy.h lib/cmake/canopy/canopyConfig.cmake lib/cmake/canopy/canopyConfigVersion.cmake \
         lib/pkgconfig/canopy.pc lib/pkgconfig/canopy-svg.pc bin/canopy share/canopy/scenes/default.svg; do
  [ -e "$prefix/$f" ] || { echo "check_install: $prefix/$f not installed" >&2; exit 1; }
done
# Nothing private may be installed.
if find "$prefix/include" -name 'internal.h' -o -name '*_internal.h' | grep -q .; then
  echo "check_install: an internal header was installed" >&2; exit 1
fi

echo "== find_package(canopy)"
cmake -S "$src/examples" -B "$work/cmake-build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/cmake-build" >/dev/null
"$work/cmake-build/embed"

echo "== pkg-config canopy"
PKG_CONFIG_PATH=$prefix/lib/pkgconfig
export PKG_CONFIG_PATH
# shellcheck disable=SC2046
cc -std=c11 -Wall -Werror "$src/examples/embed.c" $(pkg-config --cflags --libs canopy) -o "$work/embed-pc" \
   -Wl,-rpath,"$prefix/lib"
"$work/embed-pc"

echo "== installed CLI finds its bundled scene"
"$prefix/bin/canopy" stats "$prefix/share/canopy/scenes/default.svg" >/dev/null
echo "check_install: ok"
