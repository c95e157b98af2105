#version 460
// bbox_groups: one invocation per group node (stages/bbox.c). At every END k
// with BEGIN o = parens[k] (elements a < c): the union of the draws between
// them is the union of gap[o + 1 .. k] (the draws between consecutive group
// nodes, nested ones included), a range query on the key pyramid (paper
// section 6.2), written to out[a] and out[c]. An END without a BEGIN, or
// closing one of the other kind, is reported in the status (first such
// element) and gets the empty box.
#include "common.glsl"
#extension GL_EXT_control_flow_attributes : require
#include "cn_scene_layout.h"

layout(local_size_x = 256) in;

layout(buffer_reference, std430, buffer_reference_align = 16) buffer BoxBuf { vec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer KeyBuf { ivec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer U32Buf { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer I32Buf { int v[]; };
#define CN_USE_BBOX_GROUPS_PUSH
#include "cn_scene_stage_shared.h"
#include "scene_box.glsl"
#include "pathbox.glsl"
#include "bbox_keys.glsl"

uint group_byte(uint k) { return (pc.gbytes.v[k >> 2] >> ((k & 3u) * 8u)) & 0xFFu; }

#define PYRAMID_AT(x) pc.pyramid.v[x]
#include "bbox_pyramid_query.glsl"

shared uint sh_closes;

void main() {
  uint k = cn_group_id() * 256u + gl_LocalInvocationID.x;
  uint m = pc.offsets.v[0];
  uint limit = min(m, pc.group_bound);
  if (k == 0u) pc.status.v[0] = m;
  bool close = false;
  if (k < limit) close = (group_byte(k) & CN_GROUP_CLOSE) != 0u;
  // the END count: one atomic per workgroup (a single word that every
  // workgroup adds to)
  if (gl_LocalInvocationID.x == 0u) sh_closes = 0u;
  barrier();
  uint closes = subgroupAdd(close ? 1u : 0u);
  if (subgroupElect() && closes != 0u) atomicAdd(sh_closes, closes);
  barrier();
  if (gl_LocalInvocationID.x == 0u && sh_closes != 0u) atomicAdd(pc.status.v[1], sh_closes);
  if (!close) return;
  uint byte = group_byte(k);
  uint c = pc.idx.v[k];
  int o = pc.parens.v[k];
  if (o < 0 || uint(o) >= limit || ((group_byte(uint(o)) ^ byte) & CN_GROUP_BLEND) != 0u) {
    atomicMin(pc.status.v[2], c);
    pc.result.v[c] = BOX_EMPTY;
    return;
  }
  vec4 u = key_box(pyramid_query(o + 1, int(k), pc.group_bound));
  pc.result.v[pc.idx.v[o]] = u;
  pc.result.v[c] = u;
}
