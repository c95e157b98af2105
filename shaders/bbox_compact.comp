#version 460
// bbox_compact: second pass of the compaction (stages/bbox.c). With offsets =
// exclusive scan of bbox_count's counts, every BEGIN/END element i gets its
// slot pos = offsets[block] + BEGIN/ENDs before it in the block, and writes
// idx[pos] = i and group byte pos (CN_GROUP_CLOSE | CN_GROUP_BLEND bits), the
// input of parentheses matching. Slots >= group_bound are not written
// (the host learns the true count from offsets[nblocks] and reports it).
#include "common.glsl"
#include "cn_scene_layout.h"

layout(constant_id = CN_SPEC_WG_SIZE) const uint WG_SIZE = 256;
layout(constant_id = CN_SPEC_ITEMS) const uint ITEMS = 2;
layout(local_size_x_id = CN_SPEC_WG_SIZE) in;

layout(buffer_reference, std430, buffer_reference_align = 4) buffer TagBuf { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer U32Buf { uint v[]; };
#define CN_USE_BBOX_COMPACT_PUSH
#include "cn_scene_stage_shared.h"
#include "scene_wg.glsl"

void main() {
  uint b = cn_group_id();
  if (b >= pc.nblocks) return;
  uint t = gl_LocalInvocationID.x;
  uint first = b * WG_SIZE * ITEMS + t * ITEMS;
  uint tags[ITEMS];
  uint mine = 0u;
  for (uint k = 0u; k < ITEMS; k++) {
    uint i = first + k;
    tags[k] = i < pc.n ? pc.tags.v[i] : 0u;
    mine += (tags[k] >= CN_TAG_BEGIN_CLIP && tags[k] <= CN_TAG_END_BLEND) ? 1u : 0u;
  }
  uint total;
  uint pos = pc.counts.v[b] + wg_exclusive_sum(mine, total);
  for (uint k = 0u; k < ITEMS; k++) {
    uint tag = tags[k];
    if (tag < CN_TAG_BEGIN_CLIP || tag > CN_TAG_END_BLEND) continue;
    if (pos < pc.group_bound) {
      pc.idx.v[pos] = first + k;
      uint byte = ((tag == CN_TAG_END_CLIP || tag == CN_TAG_END_BLEND) ? CN_GROUP_CLOSE : 0u) |
                  ((tag == CN_TAG_BEGIN_BLEND || tag == CN_TAG_END_BLEND) ? CN_GROUP_BLEND : 0u);
      atomicOr(pc.gbytes.v[pos >> 2], byte << ((pos & 3u) * 8u));
    }
    pos++;
  }
}
