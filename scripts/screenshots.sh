#!/usr/bin/env bash
# screenshots.sh: the pictures of the viewer in docs/images/, made with the
# viewer's headless mode under Xvfb (so they are regenerated, never edited by
# hand): one per overlay on a real scene, and the HUD with the stats panel on
# the bundled default scene.
# usage: scripts/screenshots.sh [BUILD_DIR]   (default: build; run from anywhere)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
view=$build/canopy-view
[ -x "$view" ] || { echo "screenshots.sh: $view is not built" >&2; exit 1; }
if [ -z "${DISPLAY:-}" ] && [ -z "${SCREENSHOTS_UNDER_XVFB:-}" ]; then
  command -v xvfb-run >/dev/null || { echo "screenshots.sh: no DISPLAY and no xvfb-run (scripts/setup.sh)" >&2; exit 1; }
  SCREENSHOTS_UNDER_XVFB=1 exec xvfb-run -a -s "-screen 0 1600x1200x24" bash "$0" "$@"
fi
out=$root/docs/images
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

# Each overlay alone on a flag with a clip group, 45 blend groups and two levels of nesting.
# Paths relative to the repository: the HUD shows the file name as given.
cd "$root"
scene=tests/data/scenes-real/flag-icons/ni.svg
"$view" --size 480x360 --frames 3 --overlay-shots "$tmp/shots" "$scene" >/dev/null
for name in boxes clips blends bins tiles depth segments; do
  cp "$tmp/shots/$name.png" "$out/overlay-$name.png"
done
# The HUD with the stats panel, on the bundled scene.
"$view" --size 800x600 --frames 3 --hud --stats --screenshot "$out/viewer-stats.png" \
  scenes/bundled/default.svg >/dev/null
# Smaller files where pngquant is installed (optional: the pictures are the same).
if command -v pngquant >/dev/null; then
  for f in "$out"/overlay-*.png "$out"/viewer-stats.png; do pngquant --force --skip-if-larger --output "$f" 64 "$f" || true; done
fi
du -ch "$out"/*.png | tail -1
