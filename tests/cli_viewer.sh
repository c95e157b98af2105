#!/usr/bin/env bash
# cli_viewer.sh: build/canopy-view's command line and its headless check.
# usage: cli_viewer.sh path/to/canopy source-dir
#
# Runs the viewer under Xvfb (xvfb-run, started once for the whole script when
# there is no DISPLAY) with `--frames N --screenshot OUT.png` and checks the
# pictures with build/viewer/vw-pngcheck:
#   - the screenshot has the window's size (the scene's, or --size);
#   - each box overlay changes pixels exactly along the element boxes the viewer
#     reports (--print-boxes), clip/blend overlays only inside their group boxes,
#     and the other overlays change the picture;
#   - a file that fails to load: its error on stderr and in the window (a red
#     panel mid-window), exit 1 even though the screenshot is written;
#   - no display: exit 1 and a message pointing at `canopy render`;
#   - with CANOPY_VALIDATION=1 (CTest sets it) no validation message;
#   - one queue submission per frame (--print-frames), more only when canopy's buffers grew;
#   - the hovered element highlighted;
#   - once `canopy render` exists: the viewer's picture of the default scene
#     matches it (conformance metric, premultiplied RGBA8 over white).
set -u
canopy=$1
src=$2
bin=$(dirname "$canopy")
view=$bin/canopy-view
check=$bin/viewer/vw-pngcheck

if [ -z "${DISPLAY:-}" ] && [ -z "${VW_UNDER_XVFB:-}" ]; then
  if ! command -v xvfb-run >/dev/null; then echo "FAIL: no DISPLAY and no xvfb-run (scripts/setup.sh)"; exit 1; fi
  VW_UNDER_XVFB=1 exec xvfb-run -a -s "-screen 0 1600x1200x24" bash "$0" "$@"
fi

# Sanitizer builds: the Vulkan driver (lavapipe) leaks a little while drawing to
# an X11 window, and it is unloaded before LeakSanitizer reports, so those
# stacks cannot be symbolised or suppressed (tests/lsan.supp). Viewer runs
# therefore report leaks without failing, and one run below fails when a
# reported leak passes through canopy's or the viewer's own code.
export ASAN_OPTIONS="${ASAN_OPTIONS:-}:exitcode=23"
export LSAN_OPTIONS="${LSAN_OPTIONS:-}:exitcode=0"

. "$(dirname "$0")/lib_cli.sh"
lacks() { # lacks NAME FILE PATTERN
  if grep -q -- "$3" "$2"; then fail "$1: '$3' in:"; cat "$2"; else pass; fi
}
tool() { # tool NAME ARGS...: vw-pngcheck must exit 0
  local name=$1; shift
  if "$check" "$@" >"$out" 2>&1; then pass; else fail "$name: vw-pngcheck $*"; cat "$out"; fi
}
size_is() { # size_is NAME PNG "W H"
  local s; s=$("$check" size "$2" 2>&1)
  if [ "$s" = "$3" ]; then pass; else fail "$1: $2 is '$s', want '$3'"; fi
}

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
out=$tmp/out; err=$tmp/err

[ -x "$view" ] || { echo "FAIL: $view was not built (needs libglfw3-dev, libstb-dev)"; exit 1; }
[ -x "$check" ] || { echo "FAIL: $check was not built"; exit 1; }

# --- command line
"$view" --help >"$out" 2>"$err"; expect help 0 $?
contains help "$out" "usage: canopy-view"
contains help-overlays "$out" "boxes clips blends bins tiles depth segments"
"$view" --frob >"$out" 2>"$err"; expect unknown-option 2 $?
contains unknown-option "$err" "unknown option '--frob'"
"$view" --demo --overlay nonsense >"$out" 2>"$err"; expect bad-overlay 2 $?
contains bad-overlay "$err" "unknown overlay 'nonsense'"
"$view" --demo --screenshot "$tmp/x.png" >"$out" 2>"$err"; expect screenshot-needs-frames 2 $?
"$view" --demo --frames 0 >"$out" 2>"$err"; expect frames-zero 2 $?
"$view" --demo --size 10by10 --frames 1 >"$out" 2>"$err"; expect bad-size 2 $?
"$view" --demo --print-hud >"$out" 2>"$err"; expect print-hud-needs-frames 2 $?

# --- interactive mode keeps running until closed (here: until timeout stops it)
timeout 6 "$view" --demo >"$out" 2>"$err"; expect interactive-keeps-running 124 $?

# --- no display: a clear message, exit 1
env -u DISPLAY -u WAYLAND_DISPLAY "$view" --demo --frames 1 >"$out" 2>"$err"; expect no-display 1 $?
contains no-display "$err" "canopy render"

# --- the headless check on the built-in demo scene (800x600), shown at half
# size (--size 400x300: the scene is fitted at 50%). One run writes the
# screenshot and, for the same view, one per overlay (--overlay-shots), so
# lavapipe compiles canopy's kernels once.
demo="--demo --size 400x300"
# (--overlay-shots creates its folder, here two levels of it)
"$view" $demo --frames 3 --screenshot "$tmp/plain.png" --overlay-shots "$tmp/new/shots" --print-boxes \
  >"$tmp/boxes.tsv" 2>"$err"
expect demo 0 $?
mv "$tmp/new/shots" "$tmp/shots"
lacks demo-validation "$err" "validation"
size_is demo-size "$tmp/plain.png" "400 300"
contains demo-boxes "$tmp/boxes.tsv" "^0	fill	0	0.00	0.00	400.00	300.00$"
contains demo-clip "$tmp/boxes.tsv" "clip group	0"
contains demo-blend "$tmp/boxes.tsv" "blend group	0"
# the overlay-free shot of the same view is the screenshot itself
if "$check" differ "$tmp/plain.png" "$tmp/shots/none.png" >"$out"; then fail "none-shot: $(cat "$out")"; else pass; fi

# overlays: each changes the picture where its boxes are, and nowhere else
tool boxes-along-boxes changes "$tmp/plain.png" "$tmp/shots/boxes.png" "$tmp/boxes.tsv" frame
tool clips-in-clip-boxes changes "$tmp/plain.png" "$tmp/shots/clips.png" "$tmp/boxes.tsv" clip
tool blends-in-blend-boxes changes "$tmp/plain.png" "$tmp/shots/blends.png" "$tmp/boxes.tsv" blend
for o in bins tiles depth segments; do
  size_is "shot-$o-size" "$tmp/shots/$o.png" "400 300"
  tool "overlay-$o-changes" differ "$tmp/plain.png" "$tmp/shots/$o.png"
done
# in combination: all of them at once differs from each alone
tool all-vs-boxes differ "$tmp/shots/boxes.png" "$tmp/shots/all.png"
tool all-vs-bins differ "$tmp/shots/bins.png" "$tmp/shots/all.png"
# --overlay on the command line, with the HUD: the HUD draws over the picture
"$view" $demo --frames 2 --screenshot "$tmp/boxes.png" --overlay boxes --hud >"$out" 2>"$err"; expect overlay-boxes 0 $?
lacks hud-run-validation "$err" "validation"
tool hud-changes differ "$tmp/shots/boxes.png" "$tmp/boxes.png"
# leaks (sanitizer builds): none through our own code (checked on the HUD run)
if grep -q "LeakSanitizer" "$err" && grep -E "^ +#[0-9]+ .*(/viewer/|/engine/|/stages/|canopy-view\+)" "$err"; then
  fail "leaks through canopy or the viewer:"; cat "$err"
else
  pass
fi

# --- navigation, through the same handlers as real input (--input); the demo's
# blend group is (60,320)-(390,550) in the scene, (30,160)-(195,275) at 50%
"$view" $demo --frames 1 --input "wheel:1@100,200" --print-boxes >"$out" 2>"$err"; expect nav-wheel 0 $?
contains wheel-zooms-about-cursor "$out" "^10	blend group	0	19.50	154.00	209.25	286.25$"
# fit again, drag by (+30,-20), widen the window by 200 (the view keeps its centre)
"$view" $demo --frames 1 --input "wheel:1@100,200 + left 0 drag:100,100,130,80 resize:600x300" --print-boxes \
  --screenshot "$tmp/nav.png" >"$out" 2>"$err"; expect nav-combo 0 $?
contains fit-drag-resize "$out" "^10	blend group	0	160.00	140.00	325.00	255.00$"
size_is resize-screenshot "$tmp/nav.png" "600 300"
# --- one recording and one submission per frame: canopy's work, the overlays (drawn on the GPU from
# the renderer's buffers) and the HUD; a frame is recorded and submitted again only when a buffer of
# canopy's grew (regrown) or canopy refused it. Columns of --print-frames: frame N submissions S
# canopy C regrown R refused F uploads U.
"$view" $demo --frames 1 --hud --overlay bins --overlay depth --overlay segments --overlay boxes --overlay clips \
  --input "wheel:1@100,200 + left 0 drag:100,100,130,80 i" --print-frames >"$out" 2>"$err"; expect frames 0 $?
lacks frames-validation "$err" "validation"
awk '$1 != "frame" || $4 != 1 + $8 + $10 {bad++} END {exit bad > 0 || NR != 7}' "$out" && pass ||
  fail "frames: submissions not one per frame plus its re-runs: $(cat "$out")"
steady=$(awk '$6 == 1 && $4 == 1' "$out" | wc -l)
[ "$steady" -ge 3 ] && pass || fail "frames: $steady frames ran canopy in one submission, want >= 3: $(cat "$out")"
if awk '$12 != ($2 == 1)' "$out" | grep -q .; then fail "frames: the scene uploaded other than once: $(cat "$out")"; else pass; fi
# hover (the pointer moved into the window): the topmost element under it, the demo's frame stroke #14
# (box (6,6)-(394,294)), highlighted in yellow by the GPU from the renderer's boxes and lines
"$view" $demo --frames 1 --hud --input "move:100,75" --screenshot "$tmp/hover.png" >"$out" 2>"$err"; expect hover 0 $?
lacks hover-validation "$err" "validation"
px=$("$check" pixel "$tmp/hover.png" 393 200)
[ "$px" = "255 230 0 255" ] && pass || fail "hover: pixel (393,200) is '$px', not the highlight"
px=$("$check" pixel "$tmp/plain.png" 393 200)
[ "$px" != "255 230 0 255" ] && pass || fail "no hover: pixel (393,200) is the highlight's"
# an overlay key draws what --overlay draws
"$view" $demo --frames 1 --input "b" --screenshot "$tmp/key-b.png" >"$out" 2>"$err"; expect key-b 0 $?
if "$check" differ "$tmp/key-b.png" "$tmp/shots/boxes.png" >"$out"; then fail "key-b: $(cat "$out")"; else pass; fi
"$view" $demo --frames 1 --input "wheel:x@1,2" >"$out" 2>"$err"; expect bad-input 2 $?
# --aa: the supersampled mode draws the same scene with other edge pixels
"$view" $demo --frames 1 --no-hud --screenshot "$tmp/aa-area.png" >"$out" 2>"$err"; expect aa-area 0 $?
"$view" $demo --frames 1 --no-hud --aa ss16 --screenshot "$tmp/aa-ss16.png" >"$out" 2>"$err"; expect aa-ss16 0 $?
if "$check" differ "$tmp/aa-area.png" "$tmp/aa-ss16.png" >"$out"; then pass; else fail "aa: ss16 drew what area drew"; fi
"$view" --demo --aa msaa >"$out" 2>"$err"; expect bad-aa 2 $?
contains bad-aa "$err" "want area or ss16"

# --- files: reload when the file changes on disk, drag-and-drop, a bad reload keeps the scene
rect() { printf '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect x="%s" y="%s" width="%s" height="%s" fill="%s"/></svg>' "$@"; }
rect 10 10 50 30 red >"$tmp/live.svg"
rect 50 50 30 20 green >"$tmp/other.svg"
(sleep 2; rect 20 30 100 40 blue >"$tmp/live.svg.new" && mv "$tmp/live.svg.new" "$tmp/live.svg") &
"$view" "$tmp/live.svg" --frames 1 --input "await-change" --print-boxes >"$out" 2>"$err"; expect reload 0 $?
wait
contains reloaded-on-change "$out" "^0	fill	0	20.00	30.00	120.00	70.00$"
"$view" "$tmp/live.svg" --frames 1 --input "drop:$tmp/other.svg" --print-boxes >"$out" 2>"$err"; expect drop 0 $?
contains dropped-file-shown "$out" "^0	fill	0	50.00	50.00	80.00	70.00$"
(sleep 2; printf '<svg xmlns="http://www.w3.org/2000/svg"><rect' >"$tmp/live.svg.new" && mv "$tmp/live.svg.new" "$tmp/live.svg") &
"$view" "$tmp/live.svg" --frames 1 --input "await-change" --print-boxes >"$out" 2>"$err"; expect bad-reload 1 $?
wait
contains bad-reload-message "$err" "live.svg: line 1"
contains bad-reload-keeps-scene "$out" "^0	fill	0	20.00	30.00	120.00	70.00$"
# the watched file replaced by a FIFO: refused at once (never opened: that would wait for a writer)
cp "$tmp/other.svg" "$tmp/live.svg"
(sleep 2; rm -f "$tmp/live.svg" && mkfifo "$tmp/live.svg") &
timeout 60 "$view" "$tmp/live.svg" --frames 1 --input "await-change" --print-boxes >"$out" 2>"$err"; expect fifo-reload 1 $?
wait
contains fifo-reload-message "$err" "live.svg: not a regular file"
contains fifo-reload-keeps-scene "$out" "^0	fill	0	50.00	50.00	80.00	70.00$"
timeout 60 "$view" "$tmp/live.svg" --frames 1 >"$out" 2>"$err"; expect fifo-open 1 $?
contains fifo-open-message "$err" "live.svg: not a regular file"
rm -f "$tmp/live.svg"

# an empty scene: canopy draws the background, the overlays have nothing to show (and need no data)
printf '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="80"></svg>' >"$tmp/empty.svg"
"$view" "$tmp/empty.svg" --frames 2 --overlay bins --overlay boxes --overlay segments --overlay depth \
  --screenshot "$tmp/empty.png" >"$out" 2>"$err"; expect empty-scene 0 $?
lacks empty-scene-validation "$err" "validation"
size_is empty-scene-size "$tmp/empty.png" "100 80"

# --- several files, or a folder: PgDn/] and PgUp/[ switch scenes (wrapping around)
rect 20 30 100 40 blue >"$tmp/first.svg"
"$view" "$tmp/first.svg" "$tmp/other.svg" --frames 1 --input "]" --print-boxes >"$out" 2>"$err"; expect list-next 0 $?
contains list-next-shows-second "$out" "^0	fill	0	50.00	50.00	80.00	70.00$"
"$view" "$tmp/first.svg" "$tmp/other.svg" --frames 1 --input "] pgdn" --print-boxes >"$out" 2>"$err"; expect list-wraps 0 $?
contains list-wraps-to-first "$out" "^0	fill	0	20.00	30.00	120.00	70.00$"
"$view" "$tmp/first.svg" "$tmp/other.svg" --frames 1 --input "[" --print-boxes >"$out" 2>"$err"; expect list-prev 0 $?
contains list-prev-wraps-to-last "$out" "^0	fill	0	50.00	50.00	80.00	70.00$"
mkdir -p "$tmp/folder"
rect 1 2 3 4 red >"$tmp/folder/a.svg"; rect 5 6 7 8 red >"$tmp/folder/b.svg"; echo notes >"$tmp/folder/c.txt"
"$view" "$tmp/folder" --frames 1 --input "pgdn" --print-boxes >"$out" 2>"$err"; expect folder 0 $?
contains folder-second-file "$out" "^0	fill	0	5.00	6.00	12.00	14.00$"
"$view" "$tmp/folder" --frames 1 --input "pgup pgup" --print-boxes >"$out" 2>"$err"; expect folder-back 0 $?
contains folder-back-to-first "$out" "^0	fill	0	1.00	2.00	4.00	6.00$"
mkdir -p "$tmp/empty"
"$view" "$tmp/empty" --frames 1 >"$out" 2>"$err"; expect empty-folder 1 $?
contains empty-folder "$err" "no .svg files in"
"$view" "$tmp/first.svg" --frames 1 --input "]" >"$out" 2>"$err"; expect one-scene-key 0 $?
contains one-scene-key "$err" "one scene"

# --- V: vsync off (MAILBOX, else IMMEDIATE) and on (FIFO), the swapchain recreated
"$view" $demo --frames 1 --vsync --input "v" --screenshot "$tmp/novsync.png" >"$out" 2>"$err"; expect vsync-off 0 $?
contains vsync-off "$err" "vsync off: \(MAILBOX\|IMMEDIATE\|FIFO (no other mode on this display)\)"
size_is vsync-off-size "$tmp/novsync.png" "400 300"
"$view" $demo --frames 2 --input "v v" >"$out" 2>"$err"; expect vsync-twice 0 $?
contains vsync-on "$err" "vsync on: FIFO"

# --- I: the stats panel; the HUD scales with the window and covers at most a third of it
"$view" --demo --frames 1 --hud --screenshot "$tmp/hud.png" --print-hud >"$tmp/hud1" 2>"$err"; expect hud 0 $?
"$view" --demo --frames 1 --hud --input "i" --screenshot "$tmp/stats.png" --print-hud >"$tmp/hud2" 2>"$err"
expect stats-key 0 $?
tool stats-panel-drawn differ "$tmp/hud.png" "$tmp/stats.png"
hud_area() { awk '{print ($4 - $2) * ($5 - $3)}' "$1"; }
[ "$(hud_area "$tmp/hud2")" -gt "$(hud_area "$tmp/hud1")" ] && pass || fail "stats panel: HUD $(cat "$tmp/hud2") not larger than $(cat "$tmp/hud1")"
# at several window sizes, with everything on: the panel's rectangle and the pixels it changes
for size in 1280x960 800x600 400x300 200x150; do
  "$view" --demo --size $size --frames 1 --hud --stats --screenshot "$tmp/h-$size.png" --print-hud >"$tmp/h-$size" 2>"$err"
  expect "hud-$size" 0 $?
  "$view" --demo --size $size --frames 1 --no-hud --screenshot "$tmp/n-$size.png" >"$out" 2>"$err"
  read -r _ x0 y0 x1 y1 scale _ w h <"$tmp/h-$size"
  awk -v a="$(( (x1 - x0) * (y1 - y0) ))" -v w="$w" -v h="$h" 'BEGIN {exit !(a > 0 && a * 3 <= w * h)}' && pass ||
    fail "hud-$size: panel $(cat "$tmp/h-$size") covers more than a third"
  changed=$("$check" differ "$tmp/n-$size.png" "$tmp/h-$size.png" | cut -d' ' -f1)
  awk -v c="$changed" -v w="$w" -v h="$h" 'BEGIN {exit !(c > 0 && c * 3 <= w * h)}' && pass ||
    fail "hud-$size: $changed of $w x $h pixels changed by the HUD"
done
# text scale follows the window: larger at 1280x960 than at 400x300
s_big=$(awk '{print $6}' "$tmp/h-1280x960"); s_small=$(awk '{print $6}' "$tmp/h-400x300")
awk -v a="$s_big" -v b="$s_small" 'BEGIN {exit !(a > b)}' && pass || fail "hud scale: $s_big at 1280x960, $s_small at 400x300"

# --- legends of the colour-coded overlays: the bottom-right corner shows them
"$view" $demo --frames 1 --overlay depth --screenshot "$tmp/depth.png" >"$out" 2>"$err"; expect legend-depth 0 $?
px=$("$check" pixel "$tmp/depth.png" 394 294); set -- $px
[ "${1:-255}" -lt 60 ] && [ "${2:-255}" -lt 60 ] && [ "${3:-255}" -lt 60 ] && pass || fail "depth legend: corner pixel $px is not the legend panel"
"$view" $demo --frames 1 --overlay bins --screenshot "$tmp/bins.png" >"$out" 2>"$err"; expect legend-bins 0 $?
px=$("$check" pixel "$tmp/bins.png" 394 294); set -- $px
[ "${1:-255}" -lt 60 ] && [ "${2:-255}" -lt 60 ] && [ "${3:-255}" -lt 60 ] && pass || fail "bins legend: corner pixel $px is not the legend panel"

# --size: the window and the screenshot
"$view" --demo --frames 1 --size 160x90 --screenshot "$tmp/small.png" >"$out" 2>"$err"; expect size 0 $?
size_is size-png "$tmp/small.png" "160 90"

# --- a file that fails to load: error on stderr and in the window, exit 1
printf '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="200"><rect width="10" height=' >"$tmp/bad.svg"
"$view" --frames 1 --size 640x480 --screenshot "$tmp/bad.png" "$tmp/bad.svg" >"$out" 2>"$err"; expect bad-file 1 $?
contains bad-file-names-file "$err" "bad.svg"
size_is bad-file-screenshot "$tmp/bad.png" "640 480"
px=$("$check" pixel "$tmp/bad.png" 628 240)  # right part of the panel, clear of text
set -- $px
if [ "${1:-0}" -gt 120 ] && [ "${2:-255}" -lt 90 ] && [ "${3:-255}" -lt 90 ]; then pass; else fail "bad-file: centre pixel $px is not the red error panel"; fi
"$view" --frames 1 "$tmp/missing.svg" >"$out" 2>"$err"; expect missing-file 1 $?
contains missing-file "$err" "missing.svg: No such file or directory"

# --- with canopy's SVG loader and renderer: the default scene matches `canopy render`
if "$canopy" render --help >/dev/null 2>&1; then
  "$view" --frames 3 --screenshot "$tmp/default.png" >"$out" 2>"$err"; expect default-scene 0 $?
  size_is default-size "$tmp/default.png" "800 600"
  "$canopy" render "$src/scenes/bundled/default.svg" -o "$tmp/ref.png" >"$out" 2>"$err"; expect canopy-render 0 $?
  tool matches-canopy-render match "$tmp/default.png" "$tmp/ref.png" --white
else
  echo "note: canopy render is not in this build; the comparison with it is not run"
fi

finish
