#version 460
// scan_clear: zeroes pc.n words at pc.dst (the one-pass scan's counter and
// flags, reset before every scan; see scan_lb.glsl).
#include "common.glsl"
layout(local_size_x = 256) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer ScanBuf { uint v[]; };
#define CN_USE_SCAN_PUSH
#include "cn_shared.h"

void main() {
  uint i = cn_group_id() * 256u + gl_LocalInvocationID.x;
  if (i < pc.n) pc.dst.v[i] = 0u;
}
