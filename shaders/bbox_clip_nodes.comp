#version 460
// bbox_clip_nodes: after bbox_clip_local over several partitions, per group node
// c the whole clip box of the group that encloses the draws just before it
// (stages/bbox.c): e = parens[c] (for a BEGIN its parent, for an END its
// BEGIN); nodes[c] = acc[e], and where bbox_clip_local's link t = link[e]
// leaves e's partition, ∩ acc[t] ∩ clipg[t's partition]; the viewport where
// e = -1. bbox_draws then reads nodes[c] and parens[c] side by side.
#include "common.glsl"
#include "cn_scene_layout.h"

layout(local_size_x = 256) in;

layout(buffer_reference, std430, buffer_reference_align = 4) buffer TagBuf { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer BoxBuf { vec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer KeyBuf { int v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer U32Buf { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer I32Buf { int v[]; };
#define CN_USE_BBOX_DRAWS_PUSH
#include "cn_scene_stage_shared.h"
#include "scene_box.glsl"

void main() {
  uint c = cn_group_id() * 256u + gl_LocalInvocationID.x;
  uint limit = min(pc.offsets.v[pc.nblocks], pc.group_bound);
  if (c >= limit) return;
  vec4 clip = vec4(pc.vp_x0, pc.vp_y0, pc.vp_x1, pc.vp_y1);
  int e = pc.parens.v[c];
  if (e >= 0) { // acc and link in flight together
    clip = pc.acc.v[e];
    int t = pc.link.v[e];
    if (t >= 0) clip = box_intersect(clip, box_intersect(pc.acc.v[t], pc.clipg.v[uint(t) >> pc.clip_shift]));
  }
  pc.nodes.v[c] = clip;
}
