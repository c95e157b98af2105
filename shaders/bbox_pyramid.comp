#version 460
// bbox_pyramid: builds up to 8 levels of the union pyramid over the blocks of
// bbox_draws (stages/bbox.c): level j+1 entry x = level j entries 2x ∪ 2x+1.
// The source level lies at src_off with src_count boxes; each next level
// follows the previous one in the same buffer. Workgroup g reduces source
// entries [256 g, 256 g + 256). The host repeats it until a level has one box.
#include "common.glsl"

layout(local_size_x = 256) in;

layout(buffer_reference, std430, buffer_reference_align = 16) buffer BoxBuf { vec4 v[]; };
#define CN_USE_BBOX_PYRAMID_PUSH
#include "cn_scene_stage_shared.h"
#include "scene_box.glsl"

shared vec4 sh[256];

void main() {
  uint g = cn_group_id();
  uint t = gl_LocalInvocationID.x;
  uint src = g * 256u + t;
  sh[t] = src < pc.src_count ? pc.pyramid.v[pc.src_off + src] : BOX_EMPTY;
  uint off = pc.src_off, count = pc.src_count;
  for (uint w = 128u; w >= 1u && count > 1u; w >>= 1) {
    barrier();
    vec4 v = t < w ? box_union(sh[2u * t], sh[2u * t + 1u]) : BOX_EMPTY;
    barrier();
    off += count;
    count = (count + 1u) / 2u;
    if (t < w) {
      sh[t] = v;
      uint x = g * w + t;
      if (x < count) pc.pyramid.v[off + x] = v;
    }
  }
}
