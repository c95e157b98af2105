#version 460
// picture.frag: the renderer's picture (RGBA8 sRGB, straight alpha, one uint
// per pixel, read by device address) composited over the background colour.
// Pixels outside the picture show the background. While canopy has not yet
// rendered the current view, the last picture is shown moved and scaled (map).
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_scalar_block_layout : require

layout(buffer_reference, scalar) readonly buffer VwData { uint px[]; };
#include "vw_push.h"

layout(location = 0) out vec4 result;

void main() {
  vec4 bg = unpackUnorm4x8(pc.background);
  vec2 q = floor(gl_FragCoord.xy) * pc.map_k + vec2(pc.map_ox, pc.map_oy);
  if (q.x < 0.0 || q.y < 0.0 || q.x >= float(pc.width) || q.y >= float(pc.height)) {
    result = bg;
    return;
  }
  uvec2 p = uvec2(q);
  if (p.x >= pc.width || p.y >= pc.height) {
    result = bg;
    return;
  }
  vec4 c = unpackUnorm4x8(pc.data.px[p.y * pc.width + p.x]);
  result = vec4(c.rgb * c.a + bg.rgb * (1.0 - c.a), c.a + bg.a * (1.0 - c.a));
}
