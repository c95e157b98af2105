#version 460
// geometry.vert: overlay, outline and HUD triangles, pulled from a buffer by
// device address (no vertex input state): window pixels -> clip space.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_scalar_block_layout : require

struct Vertex {
  float x, y;
  uint rgba;
};
layout(buffer_reference, scalar) readonly buffer VwData { Vertex v[]; };
#include "vw_push.h"

layout(location = 0) out vec4 colour;

void main() {
  Vertex v = pc.data.v[gl_VertexIndex];
  gl_Position = vec4(v.x * pc.inv_w * 2.0 - 1.0, v.y * pc.inv_h * 2.0 - 1.0, 0.0, 1.0);
  colour = unpackUnorm4x8(v.rgba);
}
