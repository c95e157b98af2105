#!/usr/bin/env bash
# cli_render_frame.sh: `canopy render --stats` on scenes that test how a frame
# is sized: result boxes bound every element's tiles (2000 large circles inside
# one small clip allocate one tile each, and the picture matches
# rsvg-convert's), and dense scenes render in at most two passes (every buffer
# grows to the GPU's count in one step).
# usage: cli_render_frame.sh path/to/canopy source-dir
set -u
canopy=$1
. "$(dirname "$0")/lib_cli.sh"
dir=$(mktemp -d); err=$dir/err; trap 'rm -rf "$dir"' EXIT
ok() { pass; }
bad() { fail "$@"; }
stat() { # stat FILE NAME: the value of "NAME: value"
  sed -n "s/^$2: //p" "$1"
}

# match NAME A.png B.png: the conformance metric (cli/cmd_conformance.c): both
# premultiplied, at most 1% of the pixels differ by more than 24 in a channel
match() {
  if python3 - "$2" "$3" >"$dir/match" 2>&1 <<'PY'
import struct, sys, zlib
def load(path):
    data = open(path, 'rb').read()
    pos, idat, w, h, ctype = 8, b'', 0, 0, 6
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
            assert depth == 8 and ctype in (2, 6), (depth, ctype)
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    bpp = 4 if ctype == 6 else 3
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line); prev = line
    px = []
    for line in rows:
        for x in range(w):
            q = line[x * bpp:(x + 1) * bpp]
            al = q[3] if bpp == 4 else 255
            px.append((q[0] * al // 255, q[1] * al // 255, q[2] * al // 255, al))
    return w, h, px
wa, ha, a = load(sys.argv[1]); wb, hb, b = load(sys.argv[2])
if (wa, ha) != (wb, hb): print('sizes differ', wa, ha, wb, hb); sys.exit(1)
diff = sum(1 for p, q in zip(a, b) if max(abs(p[i] - q[i]) for i in range(4)) > 24)
print('differing pixels:', diff, 'of', wa * ha)
sys.exit(0 if diff <= 0.01 * wa * ha else 1)
PY
  then ok; else bad "$1: pictures differ"; cat "$dir/match"; fi
}

# --- 2000 large circles inside one small clip --------------------------------
# Every circle's box contains the 4x4 clip at (98,98), which lies inside the
# one tile (6,6) (pixels 96..111, also after the one-pixel margin), so each
# circle and the clip path get exactly one tile record: 2001.
python3 - "$dir" <<'PY'
import sys
d = sys.argv[1]
seed = 12345
def rnd():
    global seed
    seed = (seed * 1103515245 + 12345) & 0x7fffffff
    return seed / 0x7fffffff
circles = []
for i in range(2000):
    cx, cy, r = 75 + 50 * rnd(), 75 + 50 * rnd(), 75 + 20 * rnd()
    col = '#%02x%02x%02x' % (int(255 * rnd()), int(255 * rnd()), int(255 * rnd()))
    circles.append('<circle cx="%.2f" cy="%.2f" r="%.2f" fill="%s"/>' % (cx, cy, r, col))
head = '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200">'
open(d + '/clipped.svg', 'w').write(head + '<clipPath id="c"><rect x="98" y="98" width="4" height="4"/></clipPath>'
    '<g clip-path="url(#c)">' + ''.join(circles) + '</g></svg>')
open(d + '/open.svg', 'w').write(head + '<g>' + ''.join(circles) + '</g></svg>')
PY
for f in clipped open; do
  if "$canopy" render "$dir/$f.svg" -o "$dir/$f.png" --stats >"$dir/$f.stats" 2>"$err"; then ok
  else bad "render $f.svg"; cat "$err"; fi
done
if rsvg-convert -w 200 -h 200 -f png -o "$dir/clipped.ref.png" "$dir/clipped.svg" 2>"$err"; then ok
else bad "rsvg-convert clipped.svg"; cat "$err"; fi
tc=$(stat "$dir/clipped.stats" tiles); to=$(stat "$dir/open.stats" tiles)
[ "$tc" = 2001 ] && ok || { bad "clipped circles: tiles '$tc', want 2001"; cat "$dir/clipped.stats"; }
[ "$(stat "$dir/clipped.stats" elements)" = 2002 ] && ok || bad "clipped circles: elements, want 2002"
# without the clip every circle covers hundreds of tiles: the clip saves more than 95%
if [ -n "$to" ] && [ -n "$tc" ] && [ $((tc * 20)) -lt "$to" ]; then ok; else bad "tiles clipped $tc, open $to: not under 5%"; fi
for f in clipped open; do
  r=$(stat "$dir/$f.stats" reruns)
  [ -n "$r" ] && [ "$r" -le 1 ] && ok || { bad "$f circles: $r re-runs, want at most 1"; cat "$dir/$f.stats"; }
done
# (the open picture's 2000 antialiased outlines in 200x200 differ from
# rsvg-convert's in about 1.1% of the pixels, as before the boxes bounded tiles)
match "clipped circles vs rsvg-convert" "$dir/clipped.png" "$dir/clipped.ref.png"

# --- dense scenes: at most two passes -----------------------------------------
# 30 000 one-pixel rects on a 16x16 canvas (one tile with 30 000 commands),
# 10 000 rects on 200x200, a <use> fan-out of 10 000, and 40 overlapping
# 1000-segment strokes (sized for a CPU rasterizer; the H200 runs larger ones).
python3 - "$dir" <<'PY'
import sys
d = sys.argv[1]
def svg(name, w, h, body):
    open('%s/%s.svg' % (d, name), 'w').write(
        '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d">%s</svg>' % (w, h, body))
svg('tiny', 16, 16, ''.join('<rect x="%d" y="%d" width="1" height="1" fill="#%06x"/>' % (i % 16, (i // 16) % 16, i * 2654435761 % 0xffffff) for i in range(30000)))
svg('rects', 200, 200, ''.join('<rect x="%d" y="%d" width="1" height="1" fill="#%06x"/>' % (i % 200, (i * 7) % 200, i * 40503 % 0xffffff) for i in range(10000)))
uses = '<defs><rect id="r" width="3" height="3" fill="#336699"/></defs>' + ''.join(
    '<use href="#r" x="%d" y="%d"/>' % (i % 97, (i * 13) % 89) for i in range(10000))
svg('fanout', 100, 100, uses)
paths = []
for k in range(40):
    pts = ' '.join('%.1f,%.1f' % (10 + (j * 37 + k * 11) % 180, 10 + (j * 53 + k * 7) % 180) for j in range(1000))
    paths.append('<polyline points="%s" fill="none" stroke="#%06x" stroke-width="3" stroke-opacity="0.5"/>' % (pts, k * 99991 % 0xffffff))
svg('strokes', 200, 200, ''.join(paths))
PY
for f in tiny rects fanout strokes; do
  if "$canopy" render "$dir/$f.svg" -o "$dir/$f.png" --stats >"$dir/$f.stats" 2>"$err"; then
    ok
    r=$(stat "$dir/$f.stats" reruns)
    if [ -n "$r" ] && [ "$r" -le 1 ]; then ok; else bad "$f: $r re-runs, want at most 1"; cat "$dir/$f.stats"; fi
  else
    bad "render $f.svg"; cat "$err"
  fi
done
# the dense rects still match rsvg-convert
rsvg-convert -w 200 -h 200 -f png -o "$dir/rects.ref.png" "$dir/rects.svg" && match "dense rects vs rsvg-convert" "$dir/rects.png" "$dir/rects.ref.png"

finish cli_render_frame
