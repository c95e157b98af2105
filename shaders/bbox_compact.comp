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
layout(buffer_reference, std430, buffer_reference_align = 4) buffer KeyBuf { int v[]; };
#define CN_USE_BBOX_COMPACT_PUSH
#include "cn_scene_stage_shared.h"

shared uint sh_sg[2u * WG_SIZE];

// Rows of WG_SIZE consecutive elements, one per invocation (row lane =
// subgroup id * subgroup size + lane: workgroups of whole subgroups); a
// ballot count within the subgroup and the subgroups' totals give each
// BEGIN/END its slot in stream order.
void main() {
  uint b = cn_group_id();
  if (b >= pc.nblocks) return;
  uint lane = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
  uint bs = b * WG_SIZE * ITEMS;
  uint c_row = pc.counts.v[b];
  // Every row's ballot and count first, then the rows' stores and atomics: a
  // ballot after the previous row's branches would rely on the subgroup
  // reconverging at the loop's back edge, which Vulkan does not promise. The
  // tag is loaded at a clamped index and then selected (a conditional load
  // would be a branch before the ballot).
  uint tags[ITEMS], poss[ITEMS];
  for (uint k = 0u; k < ITEMS; k++) {
    uint i = bs + k * WG_SIZE + lane;
    uint tag = pc.tags.v[min(i, pc.n - 1u)];
    tag = i < pc.n ? tag : 0u;
    bool group = tag >= CN_TAG_BEGIN_CLIP && tag <= CN_TAG_END_BLEND;
    uvec4 ballot = subgroupBallot(group);
    uint buf = (k & 1u) * WG_SIZE; // alternate halves: no barrier before the write
    if (subgroupElect()) sh_sg[buf + gl_SubgroupID] = subgroupBallotBitCount(ballot);
    barrier();
    uint before = 0u, row_total = 0u;
    for (uint j = 0u; j < gl_NumSubgroups; j++) {
      uint v = sh_sg[buf + j];
      before += j < gl_SubgroupID ? v : 0u;
      row_total += v;
    }
    tags[k] = tag;
    poss[k] = c_row + before + subgroupBallotExclusiveBitCount(ballot);
    c_row += row_total;
  }
  for (uint k = 0u; k < ITEMS; k++) {
    uint i = bs + k * WG_SIZE + lane, tag = tags[k], pos = poss[k];
    bool group = tag >= CN_TAG_BEGIN_CLIP && tag <= CN_TAG_END_BLEND;
    if (group && pos < pc.group_bound) {
      pc.idx.v[pos] = i;
      uint byte = ((tag == CN_TAG_END_CLIP || tag == CN_TAG_END_BLEND) ? CN_GROUP_CLOSE : 0u) |
                  ((tag == CN_TAG_BEGIN_BLEND || tag == CN_TAG_END_BLEND) ? CN_GROUP_BLEND : 0u);
      atomicOr(pc.gbytes.v[pos >> 2], byte << ((pos & 3u) * 8u));
    }
  }
}
