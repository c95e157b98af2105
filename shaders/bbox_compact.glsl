// bbox_compact.glsl: the compaction's second pass, included by
// bbox_compact.comp (group bytes ORed into their words by atomics) and
// bbox_compact_bytes.comp (GROUP_BYTE_STORES: each stored as a byte, where
// the device has 8-bit buffer stores; cn_device_caps.storage_buffer_8bit).
// With offsets = exclusive scan of bbox_count's counts, every BEGIN/END
// element i gets its slot pos = offsets[block] + BEGIN/ENDs before it in the
// block, and writes idx[pos] = i and group byte pos (CN_GROUP_CLOSE |
// CN_GROUP_BLEND bits), the input of parentheses matching. Slots >= group_bound are not written
// (the host learns the true count from offsets[nblocks] and reports it).
// The offsets come from a scan pass before (in place over the counts), or,
// with SUM_COUNTS (streams of few blocks), from the workgroup itself: it
// adds up the counts of the blocks before its own and writes offsets[block]
// (the last block also offsets[nblocks], the total) for the later passes.
#include "common.glsl"
#ifdef GROUP_BYTE_STORES
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#endif
#include "cn_scene_layout.h"

layout(constant_id = CN_SPEC_WG_SIZE) const uint WG_SIZE = 256;
layout(constant_id = CN_SPEC_ITEMS) const uint ITEMS = 2;
layout(local_size_x_id = CN_SPEC_WG_SIZE) in;

layout(buffer_reference, std430, buffer_reference_align = 4) buffer TagBuf { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer U32Buf { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer KeyBuf { int v[]; };
#ifdef GROUP_BYTE_STORES
layout(buffer_reference, std430, buffer_reference_align = 1) buffer ByteBuf { uint8_t v[]; };
#endif
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Counts4 { uvec4 v[]; };
#define CN_USE_BBOX_COMPACT_PUSH
#include "cn_scene_stage_shared.h"
layout(constant_id = CN_SPEC_BBOX_SUM_COUNTS) const uint SUM_COUNTS = 0;

shared uint sh_sg[ITEMS * WG_SIZE];
shared uint sh_pre[WG_SIZE]; // SUM_COUNTS: per subgroup, its share of the counts before the block

// Rows of WG_SIZE consecutive elements, one per invocation (row lane =
// subgroup id * subgroup size + lane: workgroups of whole subgroups). Every
// row's tag is loaded first, so that all of them are in flight at once, and
// every row's ballot count goes to shared memory before the one barrier; a
// ballot count within the subgroup and the counts of the (row, subgroup)
// entries before its own (CN_ENTRIES_BEFORE: one subgroup sum a row, not one
// shared load per subgroup and row) then give each BEGIN/END its slot in
// stream order. (Tags are loaded at a clamped index and then selected: a
// conditional load is a branch, and every ballot must run in uniform control
// flow.)
void main() {
  uint b = cn_group_id();
  if (b >= pc.nblocks) return;
  uint lane = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
  uint bs = b * WG_SIZE * ITEMS;
  uint tags[ITEMS], below[ITEMS];
  for (uint k = 0u; k < ITEMS; k++) tags[k] = pc.tags.v[min(bs + k * WG_SIZE + lane, pc.n - 1u)];
  // SUM_COUNTS: the counts before the block, four at a time (16-byte loads:
  // the counts start 16-byte aligned and their space is padded past
  // nblocks + 1 to a multiple of 16 bytes), every WG_SIZE-th group of four
  // per invocation, in the same number of trips for all (b is the
  // workgroup's); then a subgroup sum before the barrier
  uint c_row = 0u;
  const bool sum = SUM_COUNTS != 0u;
  if (sum) {
    uint pre = 0u, quads = (b + 3u) / 4u;
    for (uint q0 = 0u; q0 < quads; q0 += WG_SIZE) {
      uint q = q0 + lane;
      uvec4 v = Counts4(pc.counts).v[min(q, quads - 1u)];
      uvec4 j = uvec4(4u * q) + uvec4(0u, 1u, 2u, 3u);
      pre += (j.x < b ? v.x : 0u) + (j.y < b ? v.y : 0u) + (j.z < b ? v.z : 0u) + (j.w < b ? v.w : 0u);
    }
    pre = subgroupAdd(pre);
    if (subgroupElect()) sh_pre[gl_SubgroupID] = pre;
  } else {
    c_row = pc.counts.v[b];
  }
  for (uint k = 0u; k < ITEMS; k++) {
    uint tag = bs + k * WG_SIZE + lane < pc.n ? tags[k] : 0u;
    uvec4 ballot = subgroupBallot(tag >= CN_TAG_BEGIN_CLIP && tag <= CN_TAG_END_BLEND);
    if (subgroupElect()) sh_sg[k * gl_NumSubgroups + gl_SubgroupID] = subgroupBallotBitCount(ballot);
    tags[k] = tag;
    below[k] = subgroupBallotExclusiveBitCount(ballot);
  }
  barrier();
  // every subgroup sum before the first branch that only some lanes take
  // (the stores below): the counts before the block (SUM_COUNTS), and each
  // row's (row, subgroup) entries before this subgroup's
  if (sum) {
    uint sg_before, sg_all;
    CN_SUBGROUP_TOTALS(sh_pre, sg_before, sg_all)
    c_row = sg_all;
  }
  [[unroll]] for (uint k = 0u; k < ITEMS; k++) {
    uint before;
    CN_ENTRIES_BEFORE(sh_sg, ITEMS * gl_NumSubgroups, k * gl_NumSubgroups + gl_SubgroupID, before)
    below[k] += c_row + before; // the slot of this row's element, if it is a BEGIN/END
  }
  if (sum && lane == 0u) {
    pc.offsets.v[b] = c_row;
    if (b == pc.nblocks - 1u) pc.offsets.v[pc.nblocks] = c_row + pc.counts.v[b];
  }
  // bbox_draws' smaller blocks: the slot of each one's first element (lane 0
  // of its first row), and the total after the last
  uint split = pc.draws_split;
  if (split > 1u && lane == 0u) {
    uint rows = ITEMS / split, nd = (pc.n + WG_SIZE * rows - 1u) / (WG_SIZE * rows);
    for (uint k = 0u; k < ITEMS; k++)
      if (k % rows == 0u && b * split + k / rows < nd) pc.doffs.v[b * split + k / rows] = below[k];
    if (b == pc.nblocks - 1u) pc.doffs.v[nd] = sum ? c_row + pc.counts.v[b] : pc.counts.v[pc.nblocks];
  }
  for (uint k = 0u; k < ITEMS; k++) {
    uint pos = below[k], tk = tags[k];
    bool group = tk >= CN_TAG_BEGIN_CLIP && tk <= CN_TAG_END_BLEND;
    if (group && pos < pc.group_bound) {
      pc.idx.v[pos] = bs + k * WG_SIZE + lane;
      uint byte = ((tk == CN_TAG_END_CLIP || tk == CN_TAG_END_BLEND) ? CN_GROUP_CLOSE : 0u) |
                  ((tk == CN_TAG_BEGIN_BLEND || tk == CN_TAG_END_BLEND) ? CN_GROUP_BLEND : 0u);
#ifdef GROUP_BYTE_STORES
      ByteBuf(pc.gbytes).v[pos] = uint8_t(byte); // no atomic: bytes are memory locations of their own
#else
      atomicOr(pc.gbytes.v[pos >> 2], byte << ((pos & 3u) * 8u));
#endif
    }
  }
}
