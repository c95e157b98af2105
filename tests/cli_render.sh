#!/usr/bin/env bash
# cli_render.sh: canopy render: exit codes, messages, and the PNG it writes
# (size, colour type, straight-alpha pixels read back with a small decoder).
# usage: cli_render.sh path/to/canopy source-dir
set -u
canopy=$1
. "$(dirname "$0")/lib_cli.sh"
dir=$(mktemp -d); out=$dir/out; err=$dir/err; trap 'rm -rf "$dir"' EXIT

# pixel NAME PNG X Y "R G B A": decodes an 8-bit RGBA PNG (python3, zlib) and compares one pixel
pixel() {
  local got
  got=$(python3 - "$2" "$3" "$4" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n'
pos, idat, w, h = 8, b'', 0, 0
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b'IHDR':
        w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
        assert depth == 8 and ctype == 6, (depth, ctype)
    elif kind == b'IDAT':
        idat += body
    pos += 12 + n
raw, stride, rows, prev = zlib.decompress(idat), w * 4, [], bytearray(w * 4)
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - 4] if i >= 4 else 0
        b = prev[i]
        c = prev[i - 4] if i >= 4 else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line); prev = line
x, y = int(sys.argv[2]), int(sys.argv[3])
print(w, h, *rows[y][4 * x:4 * x + 4])
PY
)
  if [ "$got" = "$5" ]; then passes=$((passes+1)); else echo "FAIL $1: pixel ($3,$4) of $2: '$got', want '$5'"; fails=$((fails+1)); fi
}

cat >"$dir/a.svg" <<'SVG'
<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 40 20">
  <rect x="0" y="0" width="20" height="20" fill="#ff0000"/>
  <rect x="20" y="0" width="20" height="20" fill="#0000ff" fill-opacity="0.5"/>
</svg>
SVG
"$canopy" render "$dir/a.svg" -o "$dir/a.png" >"$out" 2>"$err"; expect render 0 $?
pixel opaque "$dir/a.png" 5 5 "40 20 255 0 0 255"
pixel straight-alpha "$dir/a.png" 30 5 "40 20 0 0 255 128"
"$canopy" render "$dir/a.svg" -o "$dir/b.png" --width 80 --background white >"$out" 2>"$err"; expect width 0 $?
pixel aspect "$dir/b.png" 10 10 "80 40 255 0 0 255"
pixel background "$dir/b.png" 60 10 "80 40 128 128 255 255"
"$canopy" render "$dir/a.svg" -o "$dir/d.png" --scale 0.5 --background "rgba(0,0,0,0)" >"$out" 2>"$err"; expect scale 0 $?
pixel scale "$dir/d.png" 2 2 "20 10 255 0 0 255"

# --aa: the frame the resvg suite's image tests draw (a 1-unit stroke at 3.75 px per unit, its
# edges at 1.875 and 5.625 px): exact area 32 and 159, tiny-skia's 4x4 samples 0 and 192
cat >"$dir/frame.svg" <<'SVG'
<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300" viewBox="0 0 80 80">
  <rect x="1" y="1" width="78" height="78" stroke="black" fill="none"/>
</svg>
SVG
"$canopy" render "$dir/frame.svg" -o "$dir/frame-area.png" >"$out" 2>"$err"; expect aa-default 0 $?
pixel aa-area-outer "$dir/frame-area.png" 1 150 "300 300 0 0 0 32"
pixel aa-area-inner "$dir/frame-area.png" 5 150 "300 300 0 0 0 159"
"$canopy" render --aa ss16 "$dir/frame.svg" -o "$dir/frame-ss16.png" >"$out" 2>"$err"; expect aa-ss16 0 $?
pixel aa-ss16-outer "$dir/frame-ss16.png" 1 150 "300 300 0 0 0 0"
pixel aa-ss16-inside "$dir/frame-ss16.png" 3 150 "300 300 0 0 0 255"
pixel aa-ss16-inner "$dir/frame-ss16.png" 5 150 "300 300 0 0 0 192"
pixel aa-ss16-top "$dir/frame-ss16.png" 150 5 "300 300 0 0 0 192"
"$canopy" render --aa=area "$dir/frame.svg" -o "$dir/frame-area2.png" >"$out" 2>"$err"; expect aa-area 0 $?
pixel aa-area-named "$dir/frame-area2.png" 5 150 "300 300 0 0 0 159"
"$canopy" render --aa msaa8 "$dir/frame.svg" -o "$dir/frame-bad.png" >"$out" 2>"$err"; expect aa-bad 2 $?
contains aa-bad "$err" "neither area nor ss16"

# errors
"$canopy" render >"$out" 2>"$err"; expect no-args 2 $?
printf '<svg xmlns="http://www.w3.org/2000/svg"><rect' >"$dir/bad.svg"

# rsvg-convert conventions: stdout when no -o (not a terminal), - for stdin and stdout,
# -w/-h/-z/-b/--dpi, --opt=value, --
"$canopy" render "$dir/a.svg" >"$dir/stdout.png" 2>"$err"; expect no-output-is-stdout 0 $?
pixel stdout "$dir/stdout.png" 5 5 "40 20 255 0 0 255"
"$canopy" render - -o "$dir/stdin.png" <"$dir/a.svg" >"$out" 2>"$err"; expect stdin 0 $?
pixel stdin "$dir/stdin.png" 30 5 "40 20 0 0 255 128"
cat "$dir/a.svg" | "$canopy" render - -o - 2>"$err" >"$dir/pipe.png"; expect stdin-stdout 0 $?
pixel stdin-stdout "$dir/pipe.png" 5 5 "40 20 255 0 0 255"
"$canopy" render -w 80 -b white "$dir/a.svg" -o "$dir/w.png" >"$out" 2>"$err"; expect short-width 0 $?
pixel short-width "$dir/w.png" 60 10 "80 40 128 128 255 255"
"$canopy" render --width=80 --background=white "$dir/a.svg" --output="$dir/w2.png" >"$out" 2>"$err"; expect opt-equals 0 $?
pixel opt-equals "$dir/w2.png" 60 10 "80 40 128 128 255 255"
"$canopy" render -h 10 "$dir/a.svg" -o "$dir/h.png" >"$out" 2>"$err"; expect short-height 0 $?
pixel short-height "$dir/h.png" 2 2 "20 10 255 0 0 255"
"$canopy" render -z 2 "$dir/a.svg" -o "$dir/z.png" >"$out" 2>"$err"; expect zoom 0 $?
pixel zoom "$dir/z.png" 70 30 "80 40 0 0 255 128"
"$canopy" render --dpi 48 "$dir/a.svg" -o "$dir/dpi.png" >"$out" 2>"$err"; expect dpi 0 $?
pixel dpi "$dir/dpi.png" 2 2 "20 10 255 0 0 255"
"$canopy" render -z0.5 "$dir/a.svg" -o"$dir/z2.png" >"$out" 2>"$err"; expect attached-values 0 $?
pixel attached-values "$dir/z2.png" 2 2 "20 10 255 0 0 255"
cp "$dir/a.svg" "$dir/-dash.svg"
(cd "$dir" && "$canopy" render -o dash.png -- -dash.svg) >"$out" 2>"$err"; expect double-dash 0 $?
pixel double-dash "$dir/dash.png" 5 5 "40 20 255 0 0 255"
"$canopy" render "$dir/a.svg" -o "$dir/d.jpg" >"$out" 2>"$err"; expect not-png 2 $?
contains not-png "$err" "PNG only"
[ ! -e "$dir/d.jpg" ] && passes=$((passes+1)) || { echo "FAIL not-png: d.jpg written"; fails=$((fails+1)); }
"$canopy" render "$dir/a.svg" -h >"$out" 2>"$err"; expect h-is-height 2 $?
contains h-is-height "$err" "needs"
"$canopy" render -? >"$out" 2>"$err"; expect help-question 0 $?
contains help-question "$out" "usage: canopy render"
"$canopy" render "$dir/a.svg" --width=abc -o "$dir/x.png" >"$out" 2>"$err"; expect bad-equals 2 $?
"$canopy" render "$dir/a.svg" --frob=1 -o "$dir/x.png" >"$out" 2>"$err"; expect unknown-equals 2 $?
contains unknown-equals "$err" "unknown option '--frob'"

# several inputs and directories into -o DIR (one context); a failing input does not stop the others
mkdir -p "$dir/in"
cp "$dir/a.svg" "$dir/in/one.svg"
sed 's/#ff0000/#00ff00/' "$dir/a.svg" >"$dir/in/two.svg"
echo 'not svg' >"$dir/in/notes.txt"
"$canopy" render "$dir/in" -o "$dir/outdir" >"$out" 2>"$err"; expect batch-dir 0 $?
pixel batch-one "$dir/outdir/one.png" 5 5 "40 20 255 0 0 255"
pixel batch-two "$dir/outdir/two.png" 5 5 "40 20 0 255 0 255"
n=$(ls "$dir/outdir" | wc -l)
[ "$n" -eq 2 ] && passes=$((passes+1)) || { echo "FAIL batch-dir: $n files in outdir, want 2"; ls -a "$dir/outdir"; fails=$((fails+1)); }
"$canopy" render "$dir/a.svg" "$dir/bad.svg" "$dir/in/two.svg" -o "$dir/out2" >"$out" 2>"$err"; expect batch-partial 1 $?
contains batch-partial "$err" "bad.svg: line 1"
contains batch-partial "$err" "1 of 3 inputs failed"
pixel batch-partial-a "$dir/out2/a.png" 5 5 "40 20 255 0 0 255"
pixel batch-partial-two "$dir/out2/two.png" 5 5 "40 20 0 255 0 255"
[ ! -e "$dir/out2/bad.png" ] && passes=$((passes+1)) || { echo "FAIL batch-partial: bad.png written"; fails=$((fails+1)); }
"$canopy" render "$dir/a.svg" "$dir/in/two.svg" -o "$dir/x.png" >"$out" 2>"$err"; expect batch-needs-dir 2 $?
contains batch-needs-dir "$err" "need -o DIR"
"$canopy" render "$dir/a.svg" "$dir/in/two.svg" >"$out" 2>"$err"; expect batch-no-output 2 $?
"$canopy" render - "$dir/a.svg" -o "$dir/outdir" <"$dir/a.svg" >"$out" 2>"$err"; expect batch-stdin 2 $?

# atomic output: a failed render leaves an existing file as it was, and no temporary file
printf 'precious' >"$dir/keep.png"
"$canopy" render "$dir/bad.svg" -o "$dir/keep.png" >"$out" 2>"$err"; expect atomic-failed 1 $?
[ "$(cat "$dir/keep.png")" = precious ] && passes=$((passes+1)) || { echo "FAIL atomic: keep.png changed"; fails=$((fails+1)); }
printf '<svg xmlns="http://www.w3.org/2000/svg" width="999999" height="999999"/>' >"$dir/huge.svg"
"$canopy" render "$dir/huge.svg" -o "$dir/keep.png" >"$out" 2>"$err"; expect atomic-too-large 1 $?
[ "$(cat "$dir/keep.png")" = precious ] && passes=$((passes+1)) || { echo "FAIL atomic-too-large: keep.png changed"; fails=$((fails+1)); }
chmod 640 "$dir/keep.png"
"$canopy" render "$dir/a.svg" -o "$dir/keep.png" >"$out" 2>"$err"; expect atomic-replace 0 $?
pixel atomic-replace "$dir/keep.png" 5 5 "40 20 255 0 0 255"
[ "$(stat -c %a "$dir/keep.png")" = 640 ] && passes=$((passes+1)) || { echo "FAIL atomic-replace: mode $(stat -c %a "$dir/keep.png"), want 640"; fails=$((fails+1)); }
left=$(ls -A "$dir" | grep -c '^\.' || true)
[ "$left" -eq 0 ] && passes=$((passes+1)) || { echo "FAIL atomic: temporary files left:"; ls -A "$dir"; fails=$((fails+1)); }
# a full standard output is an error
"$canopy" render "$dir/a.svg" -o - >/dev/full 2>"$err"; expect stdout-full 1 $?
contains stdout-full "$err" "standard output"

# messages: file and line for people; the library's source locations only with --verbose
"$canopy" render "$dir/bad.svg" -o "$dir/x.png" >"$out" 2>"$err"
contains message-file-line "$err" "bad.svg: line 1: malformed XML"
if grep -q '\.c:[0-9]' "$err"; then echo "FAIL message: source location without --verbose:"; cat "$err"; fails=$((fails+1)); else passes=$((passes+1)); fi
"$canopy" render --verbose "$dir/bad.svg" -o "$dir/x.png" >"$out" 2>"$err"
contains verbose-location "$err" "CN_ERROR_PARSE: .*(svg_load\.c:[0-9]*)"
"$canopy" render "$dir/a.svg" -o "$dir/x.png" --width -3 >"$out" 2>"$err"; expect bad-width 2 $?
"$canopy" render "$dir/a.svg" -o "$dir/x.png" --background nocolour >"$out" 2>"$err"; expect bad-colour 2 $?
contains bad-colour "$err" "not a colour"
"$canopy" render "$dir/a.svg" -o "$dir/x.png" --frob >"$out" 2>"$err"; expect unknown-option 2 $?
"$canopy" render "$dir/missing.svg" -o "$dir/x.png" >"$out" 2>"$err"; expect missing-file 1 $?
contains missing-file "$err" "missing.svg"
printf '<svg xmlns="http://www.w3.org/2000/svg"><rect' >"$dir/bad.svg"
"$canopy" render "$dir/bad.svg" -o "$dir/x.png" >"$out" 2>"$err"; expect malformed 1 $?
contains malformed "$err" "line"
"$canopy" render "$dir/a.svg" -o "$dir/no/such/dir/x.png" >"$out" 2>"$err"; expect unwritable 1 $?
contains unwritable "$err" "no/such/dir/x.png"
# the ends of the --tolerance range are accepted (0.001 as typed, not only as a float), past them refused
"$canopy" render "$dir/a.svg" -o "$dir/t.png" --tolerance 0.001 >"$out" 2>"$err"; expect tolerance-low-end 0 $?
"$canopy" render "$dir/a.svg" -o "$dir/t.png" --tolerance 100 >"$out" 2>"$err"; expect tolerance-high-end 0 $?
"$canopy" render "$dir/a.svg" -o "$dir/t.png" --tolerance 0.0009 >"$out" 2>"$err"; expect tolerance-below 2 $?
contains tolerance-below "$err" "0.001..100"

"$canopy" render --help >"$out" 2>"$err"; expect help 0 $?
contains help "$out" "usage: canopy render"

finish cli_render
