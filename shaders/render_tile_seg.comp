#version 460
// render_tile_seg: per line, the pieces of the line in every tile of its
// element that it touches, and the backdrop deltas.
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
// Each invocation counts its pieces, bump-allocates them at once and links
// each into its tile's list (atomic exchange of the head). Past cap_segs it
// sets CN_FAIL_SEGS and writes nothing; for an element left without tile
// records it only counts (the counter stays exact for the re-run).
#include "render_common.glsl"

layout(constant_id = CN_SPEC_WG_SIZE) const uint WG_SIZE = 256;
layout(local_size_x_id = CN_SPEC_WG_SIZE) in;

const float T = float(CN_TILE);

void main() {
  CnRenderConfig cfg = pc.config;
  uint i = cn_group_id() * WG_SIZE + gl_LocalInvocationID.x;
  if (i >= cn_line_count(cfg)) return;
  cn_render_line l = cfg.lines.v[i];
  if (l.element >= cfg.n_elements) return;
  if (any(isnan(vec4(l.x0, l.y0, l.x1, l.y1))) || any(isinf(vec4(l.x0, l.y0, l.x1, l.y1)))) return;
  cn_render_elem E = cfg.elem.v[l.element];
  if (E.tx1 <= E.tx0 || E.ty1 <= E.ty0) return;
  bool store = E.tile_off != CN_NONE; // else: count the pieces only (the frame re-runs)
  int w = E.tx1 - E.tx0;
  TileBuf tb = cfg.tiles;
  SegBuf sb = cfg.segs;

  if (l.y0 == l.y1) {
    // Horizontal: no area and no row crossings, but where it crosses a tile's
    // left edge the winding below it changes (a y edge, no piece).
    int r = cn_tile_of(l.y0);
    // Exactly on a row's top line it counts as the bottom of the row above
    // (where its y edge is empty): the same convention as the row-top
    // crossings of the backdrop (a line crosses y = rT when y0 <= rT < y1).
    if (l.y0 == float(r) * T) return;
    if (r < E.ty0 || r >= E.ty1) return;
    float xl = min(l.x0, l.x1), xr = max(l.x0, l.x1);
    int c0 = max(cn_tile_of(xl) + 1, E.tx0), c1 = min(cn_tile_of(xr), E.tx1 - 1);
    if (c1 < c0) return;
    uint count = uint(c1 - c0 + 1);
    uint off = atomicAdd(cfg.bump.v.segs, count) + 1;
    if (!store) return;
    if (off > cfg.cap_segs || count > cfg.cap_segs - off) {
      atomicOr(cfg.bump.v.failed, CN_FAIL_SEGS);
      return;
    }
    float ly = clamp(l.y0 - float(r) * T, 0.0, T);
    for (int c = c0; c <= c1; c++) {
      cn_render_seg seg;
      seg.x0 = seg.x1 = 0.0;
      seg.y0 = seg.y1 = ly;
      seg.yedge = ly;
      seg.yedge_sign = l.x1 > l.x0 ? -1.0 : 1.0;
      seg.line = i;
      uint t = E.tile_off + uint(r - E.ty0) * uint(w) + uint(c - E.tx0);
      seg.next = atomicExchange(tb.v[t].seg_head, off);
      sb.v[off] = seg;
      off++;
    }
    return;
  }

  bool down = l.y1 > l.y0;
  vec2 a = down ? vec2(l.x0, l.y0) : vec2(l.x1, l.y1); // top end
  vec2 b = down ? vec2(l.x1, l.y1) : vec2(l.x0, l.y0); // bottom end
  int s = down ? 1 : -1;
  float yedge_sign = l.x1 > l.x0 ? -1.0 : 1.0;
  float dxdy = (b.x - a.x) / (b.y - a.y);
  int r0 = max(cn_tile_of(a.y), E.ty0);
  int r1 = min(cn_tile_of(b.y), E.ty1 - 1);

  uint next = 0;
  for (int pass = 0; pass < 2; pass++) {
    uint count = 0;
    for (int r = r0; r <= r1; r++) {
      float top = float(r) * T;
      float yt = max(a.y, top), yb = min(b.y, top + T);
      if (yb <= yt) continue;
      float xt = yt == a.y ? a.x : a.x + (yt - a.y) * dxdy;
      float xb = yb == b.y ? b.x : a.x + (yb - a.y) * dxdy;
      if (pass == 1 && a.y <= top) {
        int col = max(cn_tile_of(xt) + 1, E.tx0);
        if (col < E.tx1) atomicAdd(tb.v[E.tile_off + uint(r - E.ty0) * uint(w) + uint(col - E.tx0)].backdrop, s);
      }
      float xl = min(xt, xb), xr = max(xt, xb);
      int cl = cn_tile_of(xl);
      int c0 = max(cl, E.tx0), c1 = min(cn_tile_of(xr), E.tx1 - 1);
      if (c1 < c0) continue;
      if (pass == 0) {
        count += uint(c1 - c0 + 1);
        continue;
      }
      float dydx = xb != xt ? (yb - yt) / (xb - xt) : 0.0;
      for (int c = c0; c <= c1; c++) {
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
        cn_render_seg seg;
        if (down) { seg.x0 = pt.x; seg.y0 = pt.y; seg.x1 = pb.x; seg.y1 = pb.y; }
        else { seg.x0 = pb.x; seg.y0 = pb.y; seg.x1 = pt.x; seg.y1 = pt.y; }
        seg.yedge = 1e9;
        seg.yedge_sign = yedge_sign;
        if (c > cl) {
          float ye = xt != xb ? yt + (left - xt) * dydx : yt;
          seg.yedge = clamp(ye - top, 0.0, T);
        }
        uint t = E.tile_off + uint(r - E.ty0) * uint(w) + uint(c - E.tx0);
        seg.next = atomicExchange(tb.v[t].seg_head, next);
        seg.line = i;
        sb.v[next] = seg;
        next++;
      }
    }
    if (pass == 0) {
      if (!store) {
        if (count > 0) atomicAdd(cfg.bump.v.segs, count);
        return;
      }
      if (count == 0) {
        // still needs the backdrop pass
        next = 0;
      } else {
        uint off = atomicAdd(cfg.bump.v.segs, count) + 1; // record 0 is the null link
        if (off > cfg.cap_segs || count > cfg.cap_segs - off) {
          atomicOr(cfg.bump.v.failed, CN_FAIL_SEGS);
          return;
        }
        next = off;
      }
    }
  }
}
