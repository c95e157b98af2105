#version 460
// bbox_groups: one invocation per group node (stages/bbox.c). At every END k
// with BEGIN o = parens[k] (elements a < c): the union of the draws between
// them is gpart[k] when both lie in one bbox_draws block, else
//     gpart[o] ∪ pyramid(blocks strictly between) ∪ gpart[k]
// (a range query on the union pyramid, paper section 6.2), written to out[a]
// and out[c]. An END without a BEGIN, or closing one of the other kind, is
// reported in the status (first such element) and gets the empty box.
#include "common.glsl"
#include "cn_scene_layout.h"

layout(local_size_x = 256) in;

layout(buffer_reference, std430, buffer_reference_align = 16) buffer BoxBuf { vec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer U32Buf { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer I32Buf { int v[]; };
#define CN_USE_BBOX_GROUPS_PUSH
#include "cn_scene_stage_shared.h"
#include "scene_box.glsl"

uint group_byte(uint k) { return (pc.gbytes.v[k >> 2] >> ((k & 3u) * 8u)) & 0xFFu; }

// Union of pyramid level-0 entries l..r (the pyramid has nblocks leaves).
vec4 pyramid_query(int l, int r) {
  vec4 acc = BOX_EMPTY;
  uint off = 0u, count = pc.nblocks;
  while (l <= r) {
    if ((l & 1) != 0) acc = box_union(acc, pc.pyramid.v[off + uint(l++)]);
    if ((r & 1) == 0) acc = box_union(acc, pc.pyramid.v[off + uint(r--)]);
    if (l > r) break;
    l >>= 1;
    r >>= 1;
    off += count;
    count = (count + 1u) / 2u;
  }
  return acc;
}

void main() {
  uint k = cn_group_id() * 256u + gl_LocalInvocationID.x;
  uint m = pc.offsets.v[pc.nblocks];
  uint limit = min(m, pc.group_bound);
  if (k == 0u) pc.status.v[0] = m;
  bool close = false;
  if (k < limit) close = (group_byte(k) & CN_GROUP_CLOSE) != 0u;
  uint closes = subgroupAdd(close ? 1u : 0u);
  if (subgroupElect() && closes != 0u) atomicAdd(pc.status.v[1], closes);
  if (!close) return;
  uint byte = group_byte(k);
  uint c = pc.idx.v[k];
  int o = pc.parens.v[k];
  if (o < 0 || uint(o) >= limit || ((group_byte(uint(o)) ^ byte) & CN_GROUP_BLEND) != 0u) {
    atomicMin(pc.status.v[2], c);
    pc.result.v[c] = BOX_EMPTY;
    return;
  }
  uint a = pc.idx.v[o];
  uint ba = a / pc.block_size, bc = c / pc.block_size;
  vec4 u = pc.gpart.v[k];
  if (ba != bc) u = box_union(box_union(pc.gpart.v[o], pyramid_query(int(ba) + 1, int(bc) - 1)), u);
  pc.result.v[a] = u;
  pc.result.v[c] = u;
}
