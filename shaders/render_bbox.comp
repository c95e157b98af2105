#version 460
// render_bbox: per line, grows its element's pixel bounding box (integer atomics).
// Inputs: lines[0 .. bump.lines), elem[] initialised by the host with an empty
// box (px0 = py0 = INT_MAX, px1 = py1 = INT_MIN). Output: elem[e].px0..py1.
#include "render_common.glsl"

layout(constant_id = CN_SPEC_WG_SIZE) const uint WG_SIZE = 256;
layout(local_size_x_id = CN_SPEC_WG_SIZE) in;

// Pixel coordinates are clamped to +-2^24 so the integer conversion is defined.
const float LIM = 16777216.0;

void main() {
  CnRenderConfig cfg = pc.config;
  uint i = cn_group_id() * WG_SIZE + gl_LocalInvocationID.x;
  if (i >= cn_line_count(cfg)) return;
  cn_render_line l = cfg.lines.v[i];
  if (l.element >= cfg.n_elements) return;
  vec4 p = vec4(l.x0, l.y0, l.x1, l.y1);
  if (any(isnan(p))) return;
  p = clamp(p, -LIM, LIM);
  ElemBuf eb = cfg.elem;
  atomicMin(eb.v[l.element].px0, int(floor(min(p.x, p.z))));
  atomicMin(eb.v[l.element].py0, int(floor(min(p.y, p.w))));
  atomicMax(eb.v[l.element].px1, int(ceil(max(p.x, p.z))));
  atomicMax(eb.v[l.element].py1, int(ceil(max(p.y, p.w))));
}
