#version 460
// bbox_clip_final: after the rounds (stages/bbox.c), every open that is not a
// slice open gets its box: its partial box from bbox_clip_local (src, with its
// link) ∩ the resolved box of its link target, a slice open (dst, the buffer
// the last round wrote, updated in place: slice opens are only read here).
#include "common.glsl"
#include "cn_scene_layout.h"

layout(local_size_x = 256) in;

layout(buffer_reference, std430, buffer_reference_align = 16) buffer BoxBuf { vec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer U32Buf { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer I32Buf { int v[]; };
#define CN_USE_BBOX_CLIP_PUSH
#include "cn_scene_stage_shared.h"
#include "scene_box.glsl"

void main() {
  uint k = cn_group_id() * 256u + gl_LocalInvocationID.x;
  uint limit = min(pc.offsets.v[pc.nblocks], pc.group_bound);
  if (k >= limit || pc.slice.v[k] != 0u) return;
  int link = pc.link_src.v[k];
  vec4 v = pc.acc_src.v[k];
  if (link >= 0) v = box_intersect(v, pc.acc_dst.v[link]);
  pc.acc_dst.v[k] = v;
}
