#version 460
// iota_u32: dst[i] = base + i. Exercises split dispatches (cn_group_id) in tests.
#include "common.glsl"
layout(local_size_x = 64) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer UtilBuf { uint v[]; };
#define CN_USE_UTIL_PUSH
#include "cn_shared.h"

void main() {
  uint i = cn_group_id() * 64 + gl_LocalInvocationID.x;
  if (i < pc.n) pc.dst.v[i] = pc.base + i;
}
