#version 460
// render_tile_seg: per line, the pieces of the line in every tile of its
// element that it touches, and the backdrop deltas. It runs twice a frame
// (bit 31 of the push word picks the pass):
//   counting (before render_backdrop): the backdrop deltas, and per tile
//     record how many pieces it gets (an atomic add on seg_count);
//   writing (after render_seg_alloc, which gave every record its run of
//     piece records, and beside render_coarse): each piece stored at its
//     tile's seg_next (an atomic add), so fine reads a tile's pieces as one
//     contiguous run instead of a list with a dependent load per piece.
// Both passes cut the lines into pieces with the same code of one pipeline,
// so they find the same pieces (the arithmetic that places a piece is marked
// precise besides); a piece past its tile's run is dropped all the same.
//
// The winding number at a pixel counts the edges crossing the horizontal ray
// from the pixel to the left. Inside tile (c, r) it splits into
//   - the winding at the tile's top-left corner, coming from the left: each
//     crossing of the row's top line y = r*T at x adds its sign to the tiles
//     right of x (a delta at column floor(x/T)+1, prefix-summed later);
//   - for a line that crosses the tile's left edge x = c*T at height y within
//     the row, a change of the winding below y (the "y edge"): -1 when the
//     line moves right across it, +1 when it moves left;
//   - the piece of the line inside the tile itself.
// Fine rasterization integrates exactly these three (see render_fine.comp).
// For a closed path the parts of lines left of the tile telescope into the
// first two terms, so each tile lists only the pieces that touch it.
//
// Work is spread evenly over the workgroup, whatever the lines' lengths: a
// line that crosses a hundred tile rows would otherwise keep one invocation
// busy with a hundred dependent atomics while the others idle. The workgroup
// takes L lines (the push word: WG, or fewer when the grid would otherwise
// leave most of the device idle: a few hundred lines in one workgroup walk
// their row items a batch at a time); each line is cut into rows of its
// element's tiles (row items, numbered by a workgroup scan), the row items
// are taken WG at a time:
// each adds its backdrop delta and counts its pieces (tiles of the row it
// touches), a second scan numbers the pieces, and each invocation takes one
// piece at a time: counts it in its tile record, or computes and stores it.
// The pieces are computed with the same arithmetic whichever invocation
// computes them. Pieces of an element left without tile records (the frame
// re-runs) are only counted, in bump.segs (render_seg_alloc adds the others),
// so the counter is the whole need.
#include "render_common.glsl"

// The workgroup is 256 invocations (the host asks for 256: the slot searches
// below are unrolled for it).
layout(local_size_x = 256) in;
const uint WG = 256u;

const float T = float(CN_TILE);

// per line slot
shared vec4 sh_ab[WG];    // top end (x, y), bottom end (x, y); horizontal: (x1, y1, x0, y0)
shared ivec4 sh_rect[WG]; // the element's tile rectangle tx0, ty0, tx1, ty1
shared uint sh_toff[WG];  // the element's first tile record (CN_NONE: count only)
shared uint sh_flags[WG]; // F_* bits
shared int sh_r0[WG];     // first row
shared uint sh_rend[WG];  // inclusive end of the slot's row items (non-decreasing)
// per row item of the current batch
shared uint sh_islot[WG];
shared int sh_irow[WG];
shared int sh_ic0[WG];
shared uint sh_pend[WG];  // inclusive end of the item's pieces (non-decreasing)
shared uint sh_sg[WG];    // per subgroup: its total

const uint F_DOWN = 1u;       // the line runs downwards (y1 > y0)
const uint F_HORIZ = 2u;      // y0 == y1
const uint F_RIGHT = 4u;      // x1 > x0 (y edge sign -1)

// Exclusive workgroup scan of v; *total gets the sum. Uses sh_sg (barriers
// inside). The barrier comes first: the subgroup operations then follow no
// branch of the caller's (Vulkan does not promise that a subgroup
// reconverges after one), and the previous scan is done with sh_sg.
uint wg_scan(uint v, out uint total) {
  barrier();
  uint incl = subgroupInclusiveAdd(v);
  uint sgsum = subgroupAdd(v);
  if (subgroupElect()) sh_sg[gl_SubgroupID] = sgsum;
  barrier();
  uint base;
  CN_SUBGROUP_TOTALS(sh_sg, base, total)
  return base + incl - v;
}

// The first index whose inclusive end is above k (ends non-decreasing, k below the last end).
#define SLOT_STEP(arr, k, step) if (arr[lo + (step) - 1u] <= (k)) lo += (step);
#define SLOT_SEARCH(arr, k) \
  SLOT_STEP(arr, k, 128u) SLOT_STEP(arr, k, 64u) SLOT_STEP(arr, k, 32u) SLOT_STEP(arr, k, 16u) \
  SLOT_STEP(arr, k, 8u) SLOT_STEP(arr, k, 4u) SLOT_STEP(arr, k, 2u) SLOT_STEP(arr, k, 1u)
uint row_slot(uint k) { uint lo = 0u; SLOT_SEARCH(sh_rend, k) return lo; }
uint piece_item(uint p) { uint lo = 0u; SLOT_SEARCH(sh_pend, p) return lo; }

// The part of a (non-horizontal) line inside row r: top (xt, yt), bottom (xb, yb).
// Empty when yb <= yt.
void row_span(vec2 a, vec2 b, int r, out precise float xt, out precise float yt, out precise float xb,
              out precise float yb) {
  precise float dxdy = (b.x - a.x) / (b.y - a.y);
  precise float top = float(r) * T;
  yt = max(a.y, top);
  yb = min(b.y, top + T);
  xt = yt == a.y ? a.x : a.x + (yt - a.y) * dxdy;
  xb = yb == b.y ? b.x : a.x + (yb - a.y) * dxdy;
}

void main() {
  CnRenderConfig cfg = pc.config;
  uint t = gl_LocalInvocationID.x;
  bool write = (pc.arg & CN_TILE_SEG_WRITE) != 0u;
  uint arg = pc.arg & ~CN_TILE_SEG_WRITE;
  uint L = arg - 1u < WG ? arg : WG; // lines per workgroup (0: WG)
  uint first = cn_group_id() * L;
  uint nlines = cn_line_count(cfg);
  if (first >= nlines) return; // uniform over the workgroup
  TileBuf tb = cfg.tiles;
  SegBuf sb = cfg.segs;

  // --- per line: its element's rectangle and its rows
  uint i = first + t;
  uint nrows = 0u;
  if (t < L && i < nlines) {
    cn_render_line l = cfg.lines.v[i];
    if (cfg.aa == CN_AA_SS16) l = cn_ss_snap(l); // pieces of the line Skia's edge follows
    bool ok = l.element < cfg.n_elements && !any(isnan(vec4(l.x0, l.y0, l.x1, l.y1))) &&
              !any(isinf(vec4(l.x0, l.y0, l.x1, l.y1)));
    cn_render_elem E;
    if (ok) {
      E = cfg.elem.v[l.element];
      ok = E.tx1 > E.tx0 && E.ty1 > E.ty0;
    }
    if (ok) {
      bool down = l.y1 > l.y0;
      vec2 a = down ? vec2(l.x0, l.y0) : vec2(l.x1, l.y1); // top end
      vec2 b = down ? vec2(l.x1, l.y1) : vec2(l.x0, l.y0); // bottom end
      uint flags = (down ? F_DOWN : 0u) | (l.x1 > l.x0 ? F_RIGHT : 0u);
      int r0, r1;
      if (l.y0 == l.y1) {
        // Horizontal: no area and no row crossings, but where it crosses a tile's
        // left edge the winding below it changes (a y edge, no piece). Exactly
        // on a row's top line it counts as the bottom of the row above (where
        // its y edge is empty): the same convention as the row-top crossings
        // of the backdrop (a line crosses y = rT when y0 <= rT < y1).
        flags |= F_HORIZ;
        r0 = r1 = cn_tile_of(l.y0);
        if (l.y0 == float(r0) * T || r0 < E.ty0 || r0 >= E.ty1) r1 = r0 - 1;
      } else {
        r0 = max(cn_tile_of(a.y), E.ty0);
        r1 = min(cn_tile_of(b.y), E.ty1 - 1);
      }
      if (r1 >= r0) {
        nrows = uint(r1 - r0 + 1);
        sh_ab[t] = vec4(a, b);
        sh_rect[t] = ivec4(E.tx0, E.ty0, E.tx1, E.ty1);
        sh_toff[t] = E.tile_off;
        sh_flags[t] = flags;
        sh_r0[t] = r0;
      }
    }
  }
  uint total_rows;
  uint rstart = wg_scan(nrows, total_rows);
  sh_rend[t] = rstart + nrows;
  barrier();

  // --- row items, WG at a time
  for (uint kb = 0u; kb < total_rows; kb += WG) {
    uint k = kb + t;
    uint npieces = 0u;
    if (k < total_rows) {
      uint s = row_slot(k);
      int r = sh_r0[s] + int(k - (s > 0u ? sh_rend[s - 1u] : 0u));
      vec4 ab = sh_ab[s];
      ivec4 R = sh_rect[s];
      uint flags = sh_flags[s];
      uint toff = sh_toff[s];
      int c0, c1;
      if ((flags & F_HORIZ) != 0u) {
        float xl = min(ab.x, ab.z), xr = max(ab.x, ab.z);
        c0 = max(cn_tile_of(xl) + 1, R.x);
        c1 = min(cn_tile_of(xr), R.z - 1);
      } else {
        float xt, yt, xb, yb;
        row_span(ab.xy, ab.zw, r, xt, yt, xb, yb);
        c0 = 0;
        c1 = -1;
        if (yb > yt) {
          float top = float(r) * T;
          if (!write && toff != CN_NONE && ab.y <= top) {
            int col = max(cn_tile_of(xt) + 1, R.x);
            int w = R.z - R.x;
            if (col < R.z)
              atomicAdd(tb.v[toff + uint(r - R.y) * uint(w) + uint(col - R.x)].backdrop, (flags & F_DOWN) != 0u ? 1 : -1);
          }
          c0 = max(cn_tile_of(min(xt, xb)), R.x);
          c1 = min(cn_tile_of(max(xt, xb)), R.z - 1);
        }
      }
      if (c1 >= c0) npieces = uint(c1 - c0 + 1);
      if (toff == CN_NONE && npieces > 0u && !write) atomicAdd(cfg.bump.v.segs, npieces); // counted only
      sh_islot[t] = s;
      sh_irow[t] = r;
      sh_ic0[t] = c0;
    }
    uint total_pieces;
    uint pstart = wg_scan(npieces, total_pieces);
    sh_pend[t] = pstart + npieces;
    barrier();
    for (uint p = t; p < total_pieces; p += WG) {
      uint m = piece_item(p);
      uint s = sh_islot[m];
      uint toff = sh_toff[s];
      if (toff == CN_NONE) continue; // counted only
      int r = sh_irow[m];
      int c = sh_ic0[m] + int(p - (m > 0u ? sh_pend[m - 1u] : 0u));
      ivec4 R = sh_rect[s];
      uint tile = toff + uint(r - R.y) * uint(R.z - R.x) + uint(c - R.x);
      if (!write) {
        atomicAdd(tb.v[tile].seg_count, 1u);
        continue;
      }
      vec4 ab = sh_ab[s];
      uint flags = sh_flags[s];
      float yedge_sign = (flags & F_RIGHT) != 0u ? -1.0 : 1.0;
      float top = float(r) * T;
      cn_render_seg seg;
      if ((flags & F_HORIZ) != 0u) {
        float ly = clamp(ab.y - top, 0.0, T);
        seg.x0 = seg.x1 = 0.0;
        seg.y0 = seg.y1 = ly;
        seg.yedge = ly;
      } else {
        vec2 a = ab.xy, b = ab.zw;
        float xt, yt, xb, yb;
        row_span(a, b, r, xt, yt, xb, yb);
        float xl = min(xt, xb), xr = max(xt, xb);
        int cl = cn_tile_of(xl);
        float dydx = xb != xt ? (yb - yt) / (xb - xt) : 0.0;
        float left = float(c) * T;
        // the piece inside [left, left + T], from its top end to its bottom end
        vec2 pt = vec2(xt, yt), pb = vec2(xb, yb);
        if (xt != xb) {
          float u0 = max(xl, left), u1 = min(xr, left + T);
          float y0 = u0 == xt ? yt : (u0 == xb ? yb : yt + (u0 - xt) * dydx);
          float y1 = u1 == xt ? yt : (u1 == xb ? yb : yt + (u1 - xt) * dydx);
          if (xt < xb) { pt = vec2(u0, y0); pb = vec2(u1, y1); }
          else { pt = vec2(u1, y1); pb = vec2(u0, y0); }
        }
        vec2 org = vec2(left, top);
        pt = clamp(pt - org, vec2(0.0), vec2(T));
        pb = clamp(pb - org, vec2(0.0), vec2(T));
        if ((flags & F_DOWN) != 0u) { seg.x0 = pt.x; seg.y0 = pt.y; seg.x1 = pb.x; seg.y1 = pb.y; }
        else { seg.x0 = pb.x; seg.y0 = pb.y; seg.x1 = pt.x; seg.y1 = pt.y; }
        seg.yedge = 1e9;
        if (c > cl) {
          float ye = xt != xb ? yt + (left - xt) * dydx : yt;
          seg.yedge = clamp(ye - top, 0.0, T);
        }
      }
      seg.yedge_sign = yedge_sign;
      seg.line = first + s; // the line of slot s
      seg.pad0 = 0u;
      // the tile's next record: inside its run, unless the run was not given
      // (past cap_segs: seg_first = seg_next = cap_segs)
      uint slot = atomicAdd(tb.v[tile].seg_next, 1u);
      cn_render_tile rec = tb.v[tile];
      if (slot >= rec.seg_first && slot - rec.seg_first < rec.seg_count && slot < cfg.cap_segs) sb.v[slot] = seg;
    }
    barrier(); // the next batch reuses the item arrays and sh_sg
  }
}
