#version 460
// parens_clear: zeroes pc.n words at pc.flags (the look-back variant's partition
// counter and flags, reset inside every recording).
#define PARENS_NO_PARTITION
#include "parens.glsl"

void main() {
  uint i = cn_group_id() * WG + gl_LocalInvocationID.x;
  if (i < pc.n) pc.flags.v[i] = 0u;
}
