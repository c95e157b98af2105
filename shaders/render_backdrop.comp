#version 460
#extension GL_EXT_control_flow_attributes : enable
// render_backdrop: per element (one workgroup): prefix sum along each row of
// its tiles of the backdrop deltas render_tile_seg left, so each tile holds
// the winding number at its top-left corner.
//
// Each subgroup takes rows in turn and reads LOADS subgroup-wide chunks at
// once, all loads issued before the subgroup scans: a row of up to LOADS
// chunks (256 tiles on 32-wide subgroups: a 4096-px target) costs one memory
// round trip instead of one per tile, and narrower rows share a round trip
// (a row of one chunk: LOADS rows at once). Longer rows take LOADS chunks at
// a time. The host asks for 256 invocations: the 135 rows of a 2160-px-high
// element take 17 round trips on the H200's eight subgroups (with 64
// invocations, 68; measured in docs/PERF.md).
#include "render_common.glsl"

layout(constant_id = CN_SPEC_WG_SIZE) const uint WG_SIZE = 256;
layout(local_size_x_id = CN_SPEC_WG_SIZE) in;

const uint LOADS = 8u;

void main() {
  CnRenderConfig cfg = pc.config;
  uint e = cn_group_id();
  if (e >= cfg.n_elements) return;
  cn_render_elem E = cfg.elem.v[e];
  int w = E.tx1 - E.tx0, h = E.ty1 - E.ty0;
  if (w <= 1 || h <= 0 || E.tile_off == CN_NONE) return;
  TileBuf tb = cfg.tiles;
  uint lane = gl_SubgroupInvocationID, sg = gl_SubgroupSize;
  uint W = uint(w);
  uint chunks = (W + sg - 1u) / sg;          // chunks per row
  if (chunks <= LOADS) {
    // rows of at most LOADS chunks: LOADS / chunks rows per round trip
    uint per = LOADS / chunks;
    for (uint r0 = gl_SubgroupID * per; r0 < uint(h); r0 += gl_NumSubgroups * per) {
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
    for (uint r = gl_SubgroupID; r < uint(h); r += gl_NumSubgroups) {
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
