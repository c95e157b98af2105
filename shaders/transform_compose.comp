#version 460
// transform_compose: dst[i] = view after src[i] for n transforms (six floats
// each, SVG order: x' = a x + c y + e, y' = b x + d y + f). The renderer runs
// the scene stage on these when the viewer pans or zooms, so path boxes and
// bins live in the same (view) space as the flattened lines.
#include "common.glsl"
layout(local_size_x = 64) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer XformBuf { float v[]; };
#define CN_USE_COMPOSE_PUSH
#include "cn_shared.h"

void main() {
  uint i = cn_group_id() * 64u + gl_LocalInvocationID.x;
  if (i >= pc.n) return;
  uint o = 6u * i;
  float a = pc.src.v[o], b = pc.src.v[o + 1u], c = pc.src.v[o + 2u];
  float d = pc.src.v[o + 3u], e = pc.src.v[o + 4u], f = pc.src.v[o + 5u];
  pc.dst.v[o] = pc.va * a + pc.vc * b;
  pc.dst.v[o + 1u] = pc.vb * a + pc.vd * b;
  pc.dst.v[o + 2u] = pc.va * c + pc.vc * d;
  pc.dst.v[o + 3u] = pc.vb * c + pc.vd * d;
  pc.dst.v[o + 4u] = pc.va * e + pc.vc * f + pc.ve;
  pc.dst.v[o + 5u] = pc.vb * e + pc.vd * f + pc.vf;
}
