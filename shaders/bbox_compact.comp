#version 460
// bbox_compact: second pass of the compaction (stages/bbox.c). Block b first
// finds offsets[b], the BEGIN/ENDs before it, by looking back over bbox_count's
// counts (final: written by the previous dispatch) and the look-back words of
// the blocks before it (bbox_count zeroed them): the first subgroup reads one
// predecessor per lane, nearest first; a published word (1 + BEGIN/ENDs up to
// the end of that block) ends the walk, else the window's counts are added and
// the walk goes on. Nothing waits on another workgroup, so no order or
// forward progress between workgroups is assumed (in the worst case a block
// adds up all counts before it); a word read as 0 is simply not used. Block
// b publishes its own word (relaxed atomic: the value is the flag) right
// away, writes offsets[b] (the last block also offsets[nblocks], the total)
// for the later passes, then every BEGIN/END element i gets its slot pos =
// offsets[b] + BEGIN/ENDs before it in the block, and writes idx[pos] = i and
// group byte pos (CN_GROUP_CLOSE | CN_GROUP_BLEND bits), the input of
// parentheses matching. Slots >= group_bound are not written (the host learns
// the true count from offsets[nblocks] and reports it). Loop trips of the
// look-back: at most b / subgroup size (the host bounds nblocks on drivers
// with a loop-trip limit).
#include "common.glsl"
#include "cn_scene_layout.h"

layout(constant_id = CN_SPEC_WG_SIZE) const uint WG_SIZE = 256;
layout(constant_id = CN_SPEC_ITEMS) const uint ITEMS = 2;
layout(local_size_x_id = CN_SPEC_WG_SIZE) in;

layout(buffer_reference, std430, buffer_reference_align = 4) buffer TagBuf { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer U32Buf { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer KeyBuf { int v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) coherent buffer LbBuf { uint v[]; };
#define CN_USE_BBOX_COMPACT_PUSH
#include "cn_scene_stage_shared.h"

shared uint sh_sg[2u * WG_SIZE];
shared uint sh_base;

// BEGIN/ENDs before block b (first subgroup: every lane calls it).
uint look_back(uint b, uint mine) {
  LbBuf lb = LbBuf(pc.lookback);
  uint l = gl_SubgroupInvocationID, acc = 0u;
  int j = int(b) - 1; // the nearest block not yet folded
  for (;;) {          // uniform in the subgroup
    int jj = j - int(l);
    uint st = 1u, c = 0u; // before block 0: "published", 0 before it
    if (jj >= 0) {
      st = atomicLoad(lb.v[jj], gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
      c = pc.counts.v[jj];
    }
    uvec4 done = subgroupBallot(st != 0u);
    if (done != uvec4(0u)) {
      uint first = subgroupBallotFindLSB(done); // the nearest published block
      acc += subgroupAdd(l < first ? c : 0u) + subgroupShuffle(st, first) - 1u;
      break;
    }
    acc += subgroupAdd(c);
    j -= int(gl_SubgroupSize);
  }
  if (subgroupElect())
    atomicStore(lb.v[b], acc + mine + 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
  return acc;
}

// Rows of WG_SIZE consecutive elements, one per invocation (row lane =
// subgroup id * subgroup size + lane: workgroups of whole subgroups); a
// ballot count within the subgroup and the subgroups' totals give each
// BEGIN/END its slot in stream order.
void main() {
  uint b = cn_group_id();
  if (b >= pc.nblocks) return;
  uint lane = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
  uint bs = b * WG_SIZE * ITEMS;
  uint mine = pc.counts.v[b];
  if (gl_SubgroupID == 0u) {
    uint base = look_back(b, mine);
    if (subgroupElect()) {
      sh_base = base;
      pc.offsets.v[b] = base;
      if (b + 1u == pc.nblocks) pc.offsets.v[b + 1u] = base + mine; // the total
    }
  }
  barrier();
  uint c_row = sh_base;
  // bbox_draws' pyramid tickets: this block reaches into gap entries
  // c_row .. min(c_row + mine, group_bound - 1) (bbox_pyramid_build.glsl)
  uint hi = min(c_row + mine, pc.group_bound - 1u);
  if (pc.group_bound > 1u && c_row <= hi)
    for (uint P = c_row / 256u + gl_LocalInvocationID.x; P <= hi / 256u; P += WG_SIZE) atomicAdd(pc.ticket.v[P], 1u);
  for (uint k = 0u; k < ITEMS; k++) {
    uint i = bs + k * WG_SIZE + lane;
    uint tag = i < pc.n ? pc.tags.v[i] : 0u;
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
    uint pos = c_row + before + subgroupBallotExclusiveBitCount(ballot);
    c_row += row_total;
    if (group && pos < pc.group_bound) {
      pc.idx.v[pos] = i;
      uint byte = ((tag == CN_TAG_END_CLIP || tag == CN_TAG_END_BLEND) ? CN_GROUP_CLOSE : 0u) |
                  ((tag == CN_TAG_BEGIN_BLEND || tag == CN_TAG_END_BLEND) ? CN_GROUP_BLEND : 0u);
      atomicOr(pc.gbytes.v[pos >> 2], byte << ((pos & 3u) * 8u));
    }
  }
}
