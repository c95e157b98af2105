#version 460
// bbox_clip_round: one round of global pointer jumping over the slice opens
// (stages/bbox.c), after bbox_clip_local: src -> dst,
//     acc[k] = acc[k] ∩ acc[link[k]];  link[k] = link[link[k]]
// A slice open's link leads to another slice open in an earlier partition, so
// ceil(log2(partitions)) rounds resolve all of them. A slice open already
// resolved (link -1) is copied only when dst still holds an older state of it
// (always on the first round). Other opens are left to bbox_clip_final.
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
  if (k >= limit || pc.slice.v[k] == 0u) return;
  int link = pc.link_src.v[k];
  // A link always points backwards. Only in an unbalanced stream (a BEGIN never
  // closed is no slice open, so its entry in src may be from an earlier run)
  // can it be anything: then it is dropped, keeping every access in range.
  if (link >= int(k)) link = -1;
  if (link >= 0) {
    pc.acc_dst.v[k] = box_intersect(pc.acc_src.v[k], pc.acc_src.v[link]);
    pc.link_dst.v[k] = pc.link_src.v[link];
  } else if (pc.first_round != 0u || pc.link_dst.v[k] >= 0) {
    pc.acc_dst.v[k] = pc.acc_src.v[k];
    pc.link_dst.v[k] = -1;
  }
}
