#version 460
#extension GL_EXT_control_flow_attributes : enable
// render_backdrop: per element, prefix sum along each row of its tiles of the
// backdrop deltas render_tile_seg left, so each tile holds the winding number
// at its top-left corner.
//
// Rows are independent, so an element's rows are spread over `slices`
// workgroups (the push word; the dispatch is n_elements * slices workgroups,
// element-major): a 2160-px-high element no longer waits on one workgroup
// walking its 135 rows in turn (17 rounds of 8 subgroups on 32-wide ones).
// The host picks slices so that the grid holds about 4096 workgroups (few
// elements: many slices each, at most what a target-high element's rows
// need; thousands of elements: one each). Every row is scanned by one
// subgroup with the same integer additions whatever the split.
//
// Each subgroup takes rows in turn and reads LOADS subgroup-wide chunks at
// once, all loads issued before the subgroup scans: a row of up to LOADS
// chunks (256 tiles on 32-wide subgroups: a 4096-px target) costs one memory
// round trip instead of one per tile, and narrower rows share a round trip
// (a row of one chunk: LOADS rows at once). Longer rows take LOADS chunks at
// a time.
#include "render_common.glsl"

layout(constant_id = CN_SPEC_WG_SIZE) const uint WG_SIZE = 256;
layout(local_size_x_id = CN_SPEC_WG_SIZE) in;
// 0: one workgroup per element (the push word is not read): the slicing folds
// away, so this pipeline keeps the registers of the unsliced kernel (on the
// H200 the sliced one takes 44 instead of 40, which costs a resident
// workgroup per SM where there are 100 000 elements to take)
layout(constant_id = CN_SPEC_BACKDROP_SLICED) const uint SLICED = 1;

const uint LOADS = 8u;

void main() {
  CnRenderConfig cfg = pc.config;
  uint slices = SLICED != 0u ? max(pc.arg, 1u) : 1u;
  uint g = cn_group_id();
  uint e = g / slices, slice = g % slices;
  if (e >= cfg.n_elements) return;
  cn_render_elem E = cfg.elem.v[e];
  int w = E.tx1 - E.tx0, h = E.ty1 - E.ty0;
  if (w <= 1 || h <= 0 || E.tile_off == CN_NONE) return;
  TileBuf tb = cfg.tiles;
  uint lane = gl_SubgroupInvocationID, sg = gl_SubgroupSize;
  // this subgroup's first row group and the stride between its row groups
  uint rg = slice * gl_NumSubgroups + gl_SubgroupID, rg_step = slices * gl_NumSubgroups;
  uint W = uint(w);
  uint chunks = (W + sg - 1u) / sg;          // chunks per row
  if (chunks <= LOADS) {
    // rows of at most LOADS chunks: a row group is LOADS / chunks rows, one round trip
    uint per = LOADS / chunks;
    for (uint r0 = rg * per; r0 < uint(h); r0 += rg_step * per) {
      int v[LOADS];
      [[unroll]] for (uint j = 0u; j < LOADS; j++) {
        uint r = r0 + j / chunks, c = (j % chunks) * sg + lane;
        v[j] = j < per * chunks && r < uint(h) && c < W ? tb.v[E.tile_off + r * W + c].backdrop : 0;
      }
      int carry = 0;
      [[unroll]] for (uint j = 0u; j < LOADS; j++) {
        uint r = r0 + j / chunks, c = (j % chunks) * sg + lane;
        if (j % chunks == 0u) carry = 0;
        int incl = subgroupInclusiveAdd(v[j]) + carry;
        carry += subgroupAdd(v[j]);
        if (j < per * chunks && r < uint(h) && c < W) tb.v[E.tile_off + r * W + c].backdrop = incl;
      }
    }
  } else {
    // longer rows: a row group is one row, LOADS chunks a round trip
    for (uint r = rg; r < uint(h); r += rg_step) {
      uint base = E.tile_off + r * W;
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
  }
}
