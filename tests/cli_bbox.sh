#!/usr/bin/env bash
# cli_bbox.sh: `canopy bbox` and `canopy bins` on hand-made element streams,
# against outputs worked out by hand; errors with their line numbers.
# usage: cli_bbox.sh path/to/canopy source-dir
set -u
canopy=$1
. "$(dirname "$0")/lib_cli.sh"
dir=$(mktemp -d); err=$dir/err; trap 'rm -rf $dir' EXIT
same() { # same NAME FILE EXPECTED_FILE
  if cmp -s "$2" "$3"; then pass; else fail "$1: output differs:"; diff "$2" "$3"; fi
}

cat > $dir/scene.txt <<'S'
# a small scene: element indices in the comments
viewport 0 0 600 300

draw 10 10 50 50
clip 100 0 400 200
  draw 50 50 150 150
  blend
    draw 350 150 500 250
    draw 0 250 600 300
  endblend
  clip 0 0 120 300
    draw 0 0 600 300
  endclip
endclip
blend
endblend
draw 590 290 700 400
draw -5.5 -5.5 0.25 0.125
S
# 0 draw: inside the viewport; 1/10 clip group: union of 2, 4, 8; 2: clipped by 1;
# 3/6 blend group: union of 4 and 5 (5 is empty: y 250..200); 7/9: clip 1 ∩ clip 7;
# 11/12: an empty group; 13, 14: cut by the viewport.
cat > $dir/scene.bbox <<'S'
10 10 50 50
100 0 400 200
100 50 150 150
350 150 400 200
350 150 400 200
empty
350 150 400 200
100 0 120 200
100 0 120 200
100 0 120 200
100 0 400 200
empty
empty
590 290 600 300
0 0 0.25 0.125
S
"$canopy" bbox --in $dir/scene.txt --out $dir/out 2>$dir/err; expect bbox 0 $?
same bbox $dir/out $dir/scene.bbox
"$canopy" bbox --in $dir/scene.txt --cpu --out $dir/out 2>$dir/err; expect bbox-cpu 0 $?
same bbox-cpu $dir/out $dir/scene.bbox
"$canopy" bbox --in $dir/scene.txt >$dir/out 2>$dir/err; expect bbox-stdout 0 $?
same bbox-stdout $dir/out $dir/scene.bbox

# 600 x 300 at 256 px: 3 x 2 bins; a box touching a bin edge is not in that bin.
cat > $dir/scene.bins <<'S'
0 0: 0 1 2 7 8 9 10 14
1 0: 1 3 4 6 10
2 1: 13
S
"$canopy" bins --in $dir/scene.txt --out $dir/out 2>$dir/err; expect bins 0 $?
same bins $dir/out $dir/scene.bins
"$canopy" bins --in $dir/scene.txt --out $dir/out --cpu 2>$dir/err; expect bins-cpu 0 $?
same bins-cpu $dir/out $dir/scene.bins
# at 100 px: 6 x 3 bins
cat > $dir/scene.bins100 <<'S'
0 0: 0 14
1 0: 1 2 7 8 9 10
2 0: 1 10
3 0: 1 10
1 1: 1 2 7 8 9 10
2 1: 1 10
3 1: 1 3 4 6 10
5 2: 13
S
"$canopy" bins --in $dir/scene.txt --bin-size 100 --out $dir/out 2>$dir/err; expect bins-100 0 $?
same bins-100 $dir/out $dir/scene.bins100

# no viewport: unbounded; %.9g of floats
printf 'draw -1e30 0 1e30 5\nclip 0 0 10 10\ndraw 5 5 20 20\nendclip\n' > $dir/nov.txt
printf -- '-1.00000002e+30 0 1.00000002e+30 5\n5 5 10 10\n5 5 10 10\n5 5 10 10\n' > $dir/nov.want
"$canopy" bbox --in $dir/nov.txt --out $dir/out 2>$dir/err; expect no-viewport 0 $?
same no-viewport $dir/out $dir/nov.want
"$canopy" bins --in $dir/nov.txt --out $dir/out 2>$dir/err; expect bins-needs-viewport 1 $?
contains bins-needs-viewport $dir/err "must be 'viewport x0 y0 x1 y1'"

# an empty stream
printf '# nothing\n\n' > $dir/empty.txt
"$canopy" bbox --in $dir/empty.txt --out $dir/out 2>$dir/err; expect empty 0 $?
[ ! -s $dir/out ] && passes=$((passes+1)) || { echo "FAIL empty: output not empty"; fails=$((fails+1)); }

# errors name the line
err_case() { # err_case NAME TEXT PATTERN
  printf "$2" > $dir/bad.txt
  "$canopy" bbox --in $dir/bad.txt --out $dir/out 2>$dir/err; expect "$1" 1 $?
  contains "$1" $dir/err "$3"
}
err_case never-closed 'clip 0 0 1 1\ndraw 0 0 1 1\n' 'line 1: clip is never closed'
err_case wrong-kind 'blend\nendclip\n' 'line 2: endclip closes the blend opened at line 1'
err_case wrong-kind2 'clip 0 0 5 5\nblend\nendblend\nendblend\n' 'line 4: endblend closes the clip opened at line 1'
err_case no-begin '# c\n\nendblend\n' 'line 3: endblend without an open blend'
err_case few-numbers 'viewport 0 0 10 10\ndraw 1 2 3\n' "line 2: 'draw' takes 4 numbers"
err_case not-number 'draw 1 2 x 4\n' "line 1: 'x' is not a number"
err_case not-finite 'draw 1 2 inf 4\n' "line 1: 'inf' is not a finite float"
err_case unknown 'draw 0 0 1 1\nfrob\n' "line 2: unknown element 'frob'"
err_case extra 'endclip 3\n' "line 1: 'endclip' takes no arguments"
err_case late-viewport 'draw 0 0 1 1\nviewport 0 0 5 5\n' 'line 2: the viewport must come before every element'
# reading stops early: a NUL byte at once (/dev/zero), a regular file over
# the limit from its size, a directory with a read error
timeout 20 "$canopy" bbox --in /dev/zero --out $dir/out 2>$dir/err; expect dev-zero 1 $?
contains dev-zero $dir/err "/dev/zero: line 1: NUL byte"
timeout 20 "$canopy" bins --in /dev/zero --out $dir/out 2>$dir/err; expect bins-dev-zero 1 $?
contains bins-dev-zero $dir/err "/dev/zero: line 1: NUL byte"
printf 'draw 0 0 1 1\nblend\n\0endblend\n' > $dir/nul.txt
"$canopy" bbox --in $dir/nul.txt --out $dir/out 2>$dir/err; expect nul-line 1 $?
contains nul-line $dir/err "nul.txt: line 3: NUL byte"
truncate -s 3G $dir/huge.txt
timeout 20 "$canopy" bbox --in $dir/huge.txt --out $dir/out 2>$dir/err; expect huge-file 1 $?
contains huge-file $dir/err "3221225472 bytes: larger than the limit of 2147483648 bytes (CN_ELEMENT_TEXT_MAX_BYTES)"
"$canopy" bbox --in $dir 2>$dir/err; expect directory 1 $?
contains directory $dir/err "cannot read $dir: Is a directory"
"$canopy" bbox --in $dir/missing.txt 2>$dir/err; expect missing-file 1 $?
contains missing-file $dir/err "cannot open"

# an SVG: a fill, a clip group (the clip path's box cuts the fill), a group with opacity around a
# stroked circle (path box 70 50 110 90 grown by half the width 2 times the default miter limit 4,
# then cut by the 100 x 80 viewport)
cat > $dir/t.svg <<'S'
<svg xmlns="http://www.w3.org/2000/svg" width="100" height="80">
  <rect x="10" y="20" width="30" height="40" fill="red"/>
  <clipPath id="c"><rect x="0" y="0" width="50" height="50"/></clipPath>
  <g clip-path="url(#c)"><rect x="20" y="30" width="60" height="60" fill="blue"/></g>
  <g opacity="0.5"><circle cx="90" cy="70" r="20" fill="none" stroke="green" stroke-width="4"/></g>
</svg>
S
cat > $dir/t.want <<'S'
0 fill 10 20 40 60
1 clip 20 30 50 50
2 fill 20 30 50 50
3 endclip 20 30 50 50
4 blend 62 42 100 80
5 stroke 62 42 100 80
6 endblend 62 42 100 80
S
"$canopy" bbox $dir/t.svg --out $dir/out 2>$dir/err; expect svg 0 $?
same svg $dir/out $dir/t.want
"$canopy" bbox $dir/t.svg --cpu --out $dir/out 2>$dir/err; expect svg-cpu 0 $?
same svg-cpu $dir/out $dir/t.want
printf '<svg' > $dir/bad.svg
"$canopy" bbox $dir/bad.svg 2>$dir/err; expect svg-bad 1 $?
contains svg-bad $dir/err "^canopy bbox: .*bad.svg: line 1: malformed XML"

# usage errors
"$canopy" bbox 2>$dir/err; expect bbox-no-input 2 $?
"$canopy" bbox --in 2>$dir/err; expect bbox-in-no-file 2 $?
"$canopy" bbox --in $dir/scene.txt --frob 2>$dir/err; expect bbox-unknown-option 2 $?
"$canopy" bins --in $dir/scene.txt --bin-size 0 2>$dir/err; expect bins-size-0 2 $?
"$canopy" bins --in $dir/scene.txt --bin-size 12x 2>$dir/err; expect bins-size-bad 2 $?
"$canopy" bbox --help >$dir/out 2>$dir/err; expect bbox-help 0 $?
contains bbox-help $dir/out "usage: canopy bbox"
"$canopy" bins --help >$dir/out 2>$dir/err; expect bins-help 0 $?

# 1100 viewport-covering draws on one-pixel bins: 4.6e9 entries, refused at once (GPU and CPU)
{ echo "viewport 0 0 2048 2048"; for i in $(seq 1100); do echo "draw 0 0 2048 2048"; done; } >$dir/many.txt
timeout 60 "$canopy" bins --in $dir/many.txt --bin-size 1 >$dir/out 2>$dir/err; expect bins-too-many 1 $?
contains bins-too-many-message $dir/err "4613734400 (bin, element) entries, more than 2^32 - 2"
timeout 60 "$canopy" bins --in $dir/many.txt --bin-size 1 --cpu >$dir/out 2>$dir/err; expect bins-too-many-cpu 1 $?
contains bins-too-many-cpu-message $dir/err "4613734400 (bin, element) entries"

finish
