#version 460
#extension GL_EXT_control_flow_attributes : enable
// render_backdrop_packed: render_backdrop's sums (per element, prefix sum
// along each row of its tiles of the backdrop deltas render_tile_seg left)
// for scenes of many elements: a workgroup takes `per` consecutive elements
// (the push word: up to four per subgroup, stages/render.c), numbers their
// row groups with a workgroup scan, and its subgroups take them in turn,
// each finding its element by a binary search over the scan. Row groups as
// render_backdrop's: a row of up to LOADS subgroup-wide chunks in one memory
// round trip, narrower rows LOADS / chunks to a round trip, longer rows one
// a row group, LOADS chunks a round trip; every row is scanned by one
// subgroup with the same integer additions. With one element a workgroup
// (render_backdrop unsliced), most elements of a many-element scene fill a
// few tiles: most invocations idle, and the pass bound by how many
// workgroups an SM holds (H200, the 100 000-path scene: 0.147 -> 0.080 ms,
// docs/PERF.md). Its own kernel: in render_backdrop's file, behind a
// specialization constant, the unsliced pipeline took 48-60 registers
// instead of 40 and material_design_icons' pass 0.010 -> 0.013 ms.
#include "render_common.glsl"

layout(constant_id = CN_SPEC_WG_SIZE) const uint WG_SIZE = 256;
layout(local_size_x_id = CN_SPEC_WG_SIZE) in;

const uint LOADS = 8u;

shared uint sh_first[WG_SIZE]; // the row groups of the workgroup's elements before each
shared uvec4 sh_elem[WG_SIZE]; // each element's first tile record, width, height
shared uint sh_sg[WG_SIZE];    // each subgroup's row groups

// The row groups of an element W tiles wide and h high.
uint row_groups(uint W, uint h) {
  uint chunks = (W + gl_SubgroupSize - 1u) / gl_SubgroupSize;
  if (chunks > LOADS) return h;
  uint per = LOADS / chunks;
  return (h + per - 1u) / per;
}

// A row of W tiles from record base, longer than LOADS chunks: LOADS chunks a
// round trip (the whole subgroup calls it).
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

// Row group k of the element whose W x h tile records start at off (the
// whole subgroup calls it).
void row_group(TileBuf tb, uint off, uint W, uint h, uint k) {
  uint lane = gl_SubgroupInvocationID, sg = gl_SubgroupSize;
  uint chunks = (W + sg - 1u) / sg;
  if (chunks <= LOADS) {
    // load j: row r0 + j / chunks, column (j % chunks) * sg + lane, walked
    // with a counter (no division per load); at[j]: its record or CN_NONE
    uint per = LOADS / chunks, r0 = k * per, rows = min(per, h - r0);
    uint at[LOADS];
    int v[LOADS];
    uint r = 0u, c = lane;
    [[unroll]] for (uint j = 0u; j < LOADS; j++) {
      at[j] = r < rows && c < W ? off + (r0 + r) * W + c : CN_NONE;
      c += sg;
      if (c >= chunks * sg) {
        c = lane;
        r++;
      }
    }
    [[unroll]] for (uint j = 0u; j < LOADS; j++) v[j] = at[j] != CN_NONE ? tb.v[at[j]].backdrop : 0;
    int carry = 0;
    c = 0u;
    [[unroll]] for (uint j = 0u; j < LOADS; j++) {
      if (c == 0u) carry = 0;
      int incl = subgroupInclusiveAdd(v[j]) + carry;
      carry += subgroupAdd(v[j]);
      if (at[j] != CN_NONE) tb.v[at[j]].backdrop = incl;
      c = c + 1u == chunks ? 0u : c + 1u;
    }
  } else {
    long_row(tb, off + k * W, W);
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

void main() {
  CnRenderConfig cfg = pc.config;
  TileBuf tb = cfg.tiles;
  // the row groups of elements first .. first + per - 1, numbered in
  // element order (an exclusive workgroup scan of their counts)
  uint t = gl_LocalInvocationID.x;
  uint per = clamp(pc.arg, 1u, WG_SIZE);
  uint e = cn_group_id() * per + t;
  uvec3 el = t < per && e < cfg.n_elements ? element_rows(cfg, e) : uvec3(0u);
  uint cnt = el.y != 0u ? row_groups(el.y, el.z) : 0u;
  uint ex = subgroupExclusiveAdd(cnt), sum = subgroupAdd(cnt);
  if (subgroupElect()) sh_sg[gl_SubgroupID] = sum;
  barrier();
  uint before = 0u, total = 0u;
  for (uint s = 0u; s < gl_NumSubgroups; s++) {
    uint v = sh_sg[s];
    before += s < gl_SubgroupID ? v : 0u;
    total += v;
  }
  sh_first[t] = before + ex;
  sh_elem[t] = uvec4(el, 0u);
  barrier();
  for (uint p = gl_SubgroupID; p < total; p += gl_NumSubgroups) {
    // the element of row group p: the last j with sh_first[j] <= p (an
    // element without row groups shares its first with the next one)
    uint lo = 0u, hi = per - 1u;
    while (lo < hi) {
      uint mid = (lo + hi + 1u) >> 1;
      if (sh_first[mid] <= p) lo = mid;
      else hi = mid - 1u;
    }
    uvec4 q = sh_elem[lo];
    row_group(tb, q.x, q.y, q.z, p - sh_first[lo]);
  }
}
