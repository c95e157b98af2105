#version 460
// render_backdrop: per element (one workgroup), per row of its tiles (one
// invocation each, striding): prefix sum of the backdrop deltas render_tile_seg
// left, so each tile holds the winding number at its top-left corner.
#include "render_common.glsl"

layout(constant_id = CN_SPEC_WG_SIZE) const uint WG_SIZE = 64;
layout(local_size_x_id = CN_SPEC_WG_SIZE) in;

void main() {
  CnRenderConfig cfg = pc.config;
  uint e = cn_group_id();
  if (e >= cfg.n_elements) return;
  cn_render_elem E = cfg.elem.v[e];
  int w = E.tx1 - E.tx0, h = E.ty1 - E.ty0;
  if (w <= 1 || h <= 0 || E.tile_off == CN_NONE) return;
  TileBuf tb = cfg.tiles;
  for (uint r = gl_LocalInvocationID.x; r < uint(h); r += WG_SIZE) {
    uint base = E.tile_off + r * uint(w);
    int sum = 0;
    for (uint c = 0; c < uint(w); c++) {
      sum += tb.v[base + c].backdrop;
      tb.v[base + c].backdrop = sum;
    }
  }
}
