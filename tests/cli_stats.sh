#!/usr/bin/env bash
# cli_stats.sh: `canopy stats`: counts of a known file, exit 1 with a clear
# message (and the line) on each kind of bad input, exit 2 on usage errors.
# usage: cli_stats.sh path/to/canopy source-dir
set -u
canopy=$1
src=$2
. "$(dirname "$0")/lib_cli.sh"
tmp=$(mktemp -d); out=$tmp/out; err=$tmp/err; trap 'rm -rf $tmp' EXIT
svg='<svg xmlns="http://www.w3.org/2000/svg"'

"$canopy" --help >"$out" 2>"$err"; expect help 0 $?
contains help-lists-stats "$out" "stats"
"$canopy" stats --help >"$out" 2>"$err"; expect stats-help 0 $?
contains stats-help "$out" "usage: canopy stats"
"$canopy" stats >"$out" 2>"$err"; expect no-file 2 $?
contains no-file "$err" "no SVG file given"
"$canopy" stats --bogus x.svg >"$out" 2>"$err"; expect bad-option 2 $?
"$canopy" stats --width abc x.svg >"$out" 2>"$err"; expect bad-width 2 $?

# a known file: exact counts
cat >"$tmp/ok.svg" <<EOF
$svg width="100" height="50">
  <text font-family="Noto Mono" y="20">drawn</text>
  <clipPath id="c"><rect width="10" height="10"/></clipPath>
  <mask id="m"><rect width="100" height="100" fill="white"/></mask>
  <g opacity="0.5" clip-path="url(#c)">
    <rect width="20" height="20" fill="red" stroke="blue"/>
    <path d="M0 0 C 1 1 2 2 3 3" stroke="black" fill="none"/>
  </g>
  <circle cx="5" cy="5" r="5" mask="url(#m)"/>
</svg>
EOF
fonts="$src/tests/data/fonts"
"$canopy" stats --font-dir "$fonts" "$tmp/ok.svg" >"$out" 2>"$err"; expect ok 0 $?
contains ok-size "$out" "^size: *100 x 50 px$"
contains ok-fills "$out" "^fills: *4$"
contains ok-glyphs "$out" "^glyphs: *5$"
contains ok-strokes "$out" "^strokes: *2$"
contains ok-clips "$out" "^clips: *2$"
contains ok-masks "$out" "^masks: *1$"
contains ok-blends "$out" "^blend groups: *2$"
contains ok-depth "$out" "^max depth: *2$"
contains ok-segments "$out" "^segments: *"
contains ok-skipped "$out" "^skipped: *none$"
# a family that is not there: a warning naming the font used, counted as a font fallback
sed 's/Noto Mono/Nope/' "$tmp/ok.svg" >"$tmp/nope.svg"
"$canopy" stats --font-dir "$fonts" "$tmp/nope.svg" >"$out" 2>"$err"; expect nope 0 $?
contains nope-warning "$err" "warning: .*line 2: font family 'Nope' not found; Noto Mono used"
contains nope-skipped "$out" "^skipped: *font=1$"
"$canopy" stats --font-dir /nonexistent/fonts "$tmp/ok.svg" >"$out" 2>"$err"; expect bad-font-dir 1 $?
contains bad-font-dir "$err" "font directory /nonexistent/fonts cannot be read"
"$canopy" stats --font-dir >"$out" 2>"$err"; expect font-dir-no-value 2 $?
"$canopy" stats --font-dir "$fonts" --width 200 "$tmp/ok.svg" >"$out" 2>"$err"; expect width 0 $?
contains width "$out" "^size: *200 x 100 px$"

# --dump: the encoded scene as text
printf '%s' "$svg width=\"10\" height=\"10\"><rect width=\"4\" height=\"2\" fill=\"red\" transform=\"translate(1 2)\"/></svg>" >"$tmp/dump.svg"
"$canopy" stats --dump "$tmp/dump.svg" >"$out" 2>"$err"; expect dump 0 $?
contains dump-element "$out" "^element 0: FILL path=0 paint=0 solid(1 0 0 1) nonzero$"
contains dump-transform "$out" "^path 0: transform \[1 0 0 1 1 2\]$"
contains dump-segment "$out" "^  line  4,2 0,2 closed$"
contains dump-closing "$out" "^  line  0,2 0,0 closed end$"

# bad input: exit 1, a message naming what and where
bad() { # bad NAME CONTENT PATTERN
  printf '%s' "$2" >"$tmp/$1.svg"
  "$canopy" stats "$tmp/$1.svg" >"$out" 2>"$err"; expect "$1" 1 $?
  contains "$1" "$err" "$3"
}
bad empty "" "empty input"
bad truncated "$svg width=\"10\" height=\"10\">
<g>
<rect width=\"5\"" "line 3: malformed XML"
bad not-svg "<html/>" "the root element is <html>, not an SVG <svg>"
bad huge-size "$svg width=\"1e38\" height=\"10\"/>" "line 1: <svg> size 1e+38x10 is beyond the limit"
bad huge-coord "$svg width=\"10\" height=\"10\">
<rect width=\"1e30\" height=\"1\"/></svg>" "line 2: <rect> reaches device coordinate 1e+30"
bad laughs '<?xml version="1.0"?>
<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>
<svg xmlns="http://www.w3.org/2000/svg" fill="&c;"/>' "entity"
deep=$(printf '<g>%.0s' $(seq 1 300))
bad unclosed "$svg width=\"10\" height=\"10\">
$deep" "line 2: malformed XML"
# a very wide SVG at --width 64: the height is clamped to one pixel
echo "$svg width=\"60000\" height=\"10\"><rect width=\"60000\" height=\"10\"/></svg>" >"$tmp/wide.svg"
"$canopy" stats --width 64 "$tmp/wide.svg" >"$out" 2>"$err"; expect wide 0 $?
contains wide-size "$out" "size: *64 x 1 px"
# nesting has no fixed limit: 5 000 nested groups with opacity load
{ echo "$svg width=\"10\" height=\"10\">"; printf '<g opacity=".5">%.0s' $(seq 1 5000); echo '<rect width="1" height="1"/>'
  printf '</g>%.0s' $(seq 1 5000); echo '</svg>'; } >"$tmp/deep.svg"
"$canopy" stats "$tmp/deep.svg" >"$out" 2>"$err"; expect deep 0 $?
contains deep-depth "$out" "max depth: *5000$"
"$canopy" stats "$tmp/missing.svg" >"$out" 2>"$err"; expect missing-file 1 $?
contains missing-file "$err" "cannot open $tmp/missing.svg"

# a reference cycle: skipped with a warning; --strict makes it an error
cat >"$tmp/cycle.svg" <<EOF
$svg width="10" height="10">
<g id="a"><use href="#a"/></g>
</svg>
EOF
"$canopy" stats "$tmp/cycle.svg" >"$out" 2>"$err"; expect cycle 0 $?
contains cycle-warning "$err" "warning: .*line 2: <use> references #a, which contains it (a cycle); skipped"
contains cycle-skipped "$out" "cycle=1"
"$canopy" stats --strict "$tmp/cycle.svg" >"$out" 2>"$err"; expect cycle-strict 1 $?
contains cycle-strict "$err" "^canopy stats: .*cycle.svg: line 2: <use> references #a"
"$canopy" stats --strict --verbose "$tmp/cycle.svg" >"$out" 2>"$err"; expect cycle-strict-verbose 1 $?
contains cycle-strict-verbose "$err" "CN_ERROR_PARSE: line 2: <use> references #a.*(svg_[a-z]*\.c:[0-9]*)"
"$canopy" stats "$tmp/missing.svg" >"$out" 2>"$err"; expect missing 1 $?
contains missing "$err" "^canopy stats: cannot open .*missing.svg: No such file or directory$"

# what is printed must reach standard output: a full disk is an error
"$canopy" stats "$tmp/cycle.svg" >/dev/full 2>"$err"; expect stdout-full 1 $?
contains stdout-full "$err" "error writing standard output: No space left on device"
# options: --opt=value and -- before operands
"$canopy" stats --width=20 -- "$tmp/cycle.svg" >"$out" 2>"$err"; expect opt-equals 0 $?
contains opt-equals "$out" "^size: *20 x 20 px$"

# images and files outside the document's tree: a warning per reference and one line per kind;
# --resource-root allows another tree
mkdir -p "$tmp/doc" "$tmp/res"
printf 'GIF89a' >"$tmp/doc/bad.gif"
cat >"$tmp/res/lib.svg" <<EOF
$svg width="10" height="10"><rect id="r" width="5" height="5"/></svg>
EOF
cat >"$tmp/doc/img.svg" <<EOF
$svg width="10" height="10">
<image width="5" height="5" href="https://example.com/a.png"/>
<image width="5" height="5" href="bad.gif"/>
<use href="../res/lib.svg#r"/>
</svg>
EOF
"$canopy" stats "$tmp/doc/img.svg" >"$out" 2>"$err"; expect images 0 $?
contains image-https "$err" "warning: .*line 2: <image> https://example.com/a.png: the https: scheme is refused"
contains image-bad "$err" "warning: .*line 3: <image> not drawn: GIF image"
contains image-escape "$err" "warning: .*line 4: <use> ../res/lib.svg: '..' leads outside the document's tree; refused"
contains image-kind-refused "$err" "not drawn: 2 x refused-ref"
contains image-kind-image "$err" "not drawn: 1 x image"
contains image-skipped "$out" "^skipped: *image=1 refused-ref=2$"
"$canopy" stats --resource-root "$tmp/res" "$tmp/doc/img.svg" >"$out" 2>"$err"; expect images-root 0 $?
contains image-root-skipped "$out" "^skipped: *image=1 refused-ref=1$"
contains image-root-fills "$out" "^fills: *1$"
"$canopy" stats --strict "$tmp/doc/img.svg" >"$out" 2>"$err"; expect images-strict 1 $?
"$canopy" stats --resource-root >"$out" 2>"$err"; expect resource-root-usage 2 $?

# real files load
"$canopy" stats "$src/tests/data/scenes-real/flag-icons/ni.svg" >"$out" 2>"$err"; expect ni 0 $?
contains ni-clips "$out" "^clips: *1$"

finish
