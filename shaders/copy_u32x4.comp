#version 460
// copy_u32x4: dst[i] = src[i] over 16-byte words, 4 per invocation: the plain
// copy that benchmarks measure bandwidth against.
#include "common.glsl"
layout(local_size_x = 256) in;
layout(buffer_reference, std430, buffer_reference_align = 16) buffer UtilBuf { uvec4 v[]; };
#define CN_USE_UTIL_PUSH
#include "cn_shared.h"

void main() {
  uint first = cn_group_id() * 1024 + gl_LocalInvocationID.x;
  for (uint k = 0; k < 4; k++) {
    uint i = first + k * 256;
    if (i < pc.n) pc.dst.v[i] = pc.src.v[i];
  }
}
