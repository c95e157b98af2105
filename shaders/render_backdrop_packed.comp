#version 460
#extension GL_EXT_control_flow_attributes : enable
// render_backdrop_packed: render_backdrop's sums (per element, prefix sum
// along each row of its tiles of the backdrop deltas render_tile_seg left)
// for scenes of many elements. A workgroup takes `per` consecutive elements
// (the push word: up to four per subgroup, stages/render.c) and numbers their
// rows with a workgroup scan, short rows (at most SHORT tiles) and long ones
// apart. Each invocation sums a short row by itself: its records' deltas
// loaded at once (one memory round trip), added up in registers, stored.
// Each subgroup takes a long row in turn (first, right after the barrier, as
// its subgroup scans need every lane): LOADS subgroup-wide chunks a round
// trip, each chunk summed by a subgroup scan. Both find a row's element by a
// binary search over the scan; every row's sums are the same integer
// additions whatever the split.
//
// Most elements of a many-element scene fill a few tiles: with a row group
// a subgroup (render_backdrop's way) a load or a scan used a few lanes of a
// subgroup for a row of a few tiles; with one element a workgroup most
// invocations idled, and the pass was bound by how many workgroups an SM
// holds (H200, the 100 000-path scene: 0.147 -> 0.080 ms, docs/PERF.md). Its
// own kernel: in render_backdrop's file, behind a specialization constant,
// the unsliced pipeline took 48-60 registers instead of 40 and
// material_design_icons' pass 0.010 -> 0.013 ms.
#include "render_common.glsl"

layout(constant_id = CN_SPEC_WG_SIZE) const uint WG_SIZE = 256;
layout(local_size_x_id = CN_SPEC_WG_SIZE) in;

const uint SHORT = 16u; // the longest row an invocation sums by itself
const uint LOADS = 8u;  // subgroup-wide chunks a long row's round trip loads

shared uint sh_short[WG_SIZE];  // the short rows of the workgroup's elements before each
shared uint sh_long[WG_SIZE];   // ... and the long rows
shared uvec4 sh_elem[WG_SIZE];  // each element's first tile record, width, height
shared uvec2 sh_sg[WG_SIZE];    // each subgroup's short and long rows

// A row of W tiles from record base, longer than SHORT: LOADS chunks a round
// trip (the whole subgroup calls it).
void long_row(TileBuf tb, uint base, uint W) {
  uint lane = gl_SubgroupInvocationID, sg = gl_SubgroupSize;
  int carry = 0;
  for (uint c0 = 0u; c0 < W; c0 += LOADS * sg) {
    int v[LOADS];
    [[unroll]] for (uint j = 0u; j < LOADS; j++) {
      uint c = c0 + j * sg + lane;
      v[j] = c < W ? tb.v[base + c].backdrop : 0;
    }
    [[unroll]] for (uint j = 0u; j < LOADS; j++) {
      uint c = c0 + j * sg + lane;
      int incl = subgroupInclusiveAdd(v[j]) + carry;
      carry += subgroupAdd(v[j]);
      if (c < W) tb.v[base + c].backdrop = incl;
    }
  }
}

// Element e's tile records (first, width, height); width 0 where it has no
// row to sum (a single column, no rows, or no records).
uvec3 element_rows(CnRenderConfig cfg, uint e) {
  cn_render_elem E = cfg.elem.v[e];
  int w = E.tx1 - E.tx0, h = E.ty1 - E.ty0;
  if (w <= 1 || h <= 0 || E.tile_off == CN_NONE) return uvec3(0u);
  return uvec3(E.tile_off, uint(w), uint(h));
}

// The element of row p: the last j with first[j] <= p (an element without
// such rows shares its first with the next one).
#define ROW_ELEMENT(first, per, p, out_j) {                                    \
    uint lo = 0u, hi = (per) - 1u;                                             \
    while (lo < hi) {                                                          \
      uint mid = (lo + hi + 1u) >> 1;                                          \
      if (first[mid] <= (p)) lo = mid;                                         \
      else hi = mid - 1u;                                                      \
    }                                                                          \
    out_j = lo;                                                                \
  }

void main() {
  CnRenderConfig cfg = pc.config;
  TileBuf tb = cfg.tiles;
  // the rows of elements first .. first + per - 1, numbered in element order
  // (exclusive workgroup scans of their counts), short and long apart
  uint t = gl_LocalInvocationID.x;
  uint per = clamp(pc.arg, 1u, WG_SIZE);
  uint e = cn_group_id() * per + t;
  uvec3 el = t < per && e < cfg.n_elements ? element_rows(cfg, e) : uvec3(0u);
  uint ns = el.y != 0u && el.y <= SHORT ? el.z : 0u, nl = el.y > SHORT ? el.z : 0u;
  uint ex_s = subgroupExclusiveAdd(ns), sum_s = subgroupAdd(ns);
  uint ex_l = subgroupExclusiveAdd(nl), sum_l = subgroupAdd(nl);
  if (subgroupElect()) sh_sg[gl_SubgroupID] = uvec2(sum_s, sum_l);
  barrier();
  uvec2 before = uvec2(0u), total = uvec2(0u);
  for (uint s = 0u; s < gl_NumSubgroups; s++) {
    uvec2 v = sh_sg[s];
    before += s < gl_SubgroupID ? v : uvec2(0u);
    total += v;
  }
  sh_short[t] = before.x + ex_s;
  sh_long[t] = before.y + ex_l;
  sh_elem[t] = uvec4(el, 0u);
  barrier();
  // long rows: one a subgroup (first: their subgroup scans right after the
  // barrier, where every subgroup is whole)
  for (uint p = gl_SubgroupID; p < total.y; p += gl_NumSubgroups) {
    uint j;
    ROW_ELEMENT(sh_long, per, p, j)
    uvec4 q = sh_elem[j];
    long_row(tb, q.x + (p - sh_long[j]) * q.y, q.y);
  }
  // short rows: one an invocation
  for (uint p = t; p < total.x; p += WG_SIZE) {
    uint j;
    ROW_ELEMENT(sh_short, per, p, j)
    uvec4 q = sh_elem[j];
    uint base = q.x + (p - sh_short[j]) * q.y, W = q.y;
    int v[SHORT];
    [[unroll]] for (uint c = 0u; c < SHORT; c++) v[c] = c < W ? tb.v[base + c].backdrop : 0;
    int sum = 0;
    [[unroll]] for (uint c = 0u; c < SHORT; c++) {
      sum += v[c];
      if (c < W) tb.v[base + c].backdrop = sum;
    }
  }
}
