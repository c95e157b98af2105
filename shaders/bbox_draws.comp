#version 460
// bbox_draws: per block of WG_SIZE * ITEMS elements, ITEMS rows of WG_SIZE
// consecutive elements, one element per invocation and row (stages/bbox.c):
//  - c = the number of group nodes before the element (the block's offset from
//    the compaction scan + a ballot count within the row); group node c is the
//    first BEGIN/END after it, so its parentheses result is the element's
//    innermost enclosing BEGIN (for a BEGIN: its parent; for an END: its
//    BEGIN), or -1 at the root;
//  - a draw's result box: its box ∩ acc[that BEGIN] (the clip stack box) or
//    the viewport at the root; canonical empty when empty; unknown tags get
//    the empty box and are reported; BEGIN/END get the empty box here, and
//    their results from bbox_groups;
//  - the blend stage's leaves: gap[c] = the union of the non-empty results of
//    the draws between group nodes c - 1 and c (inside some group), kept as
//    ordered-int keys (x0 y0 min, x1 y1 max: exact float min/max in any order)
//    in pyramid level 0, which bbox_count set to the empty key. Lanes of a
//    subgroup with the same c reduce first; one lane per c does the atomics.
// Needs workgroups of whole subgroups: row lane = subgroup id * size + lane.
#include "common.glsl"
#extension GL_KHR_shader_subgroup_vote : require
#include "cn_scene_layout.h"

layout(constant_id = CN_SPEC_WG_SIZE) const uint WG_SIZE = 256;
layout(constant_id = CN_SPEC_ITEMS) const uint ITEMS = 2;
layout(local_size_x_id = CN_SPEC_WG_SIZE) in;

layout(buffer_reference, std430, buffer_reference_align = 4) buffer TagBuf { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer BoxBuf { vec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer KeyBuf { int v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer U32Buf { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer I32Buf { int v[]; };
#define CN_USE_BBOX_DRAWS_PUSH
#include "cn_scene_stage_shared.h"
layout(constant_id = CN_SPEC_BBOX_DRAWS_CLIP) const uint CLIP_MODE = 0; // CN_DRAWS_CLIP_*
#include "scene_box.glsl"
#include "pathbox.glsl"

shared uint sh_sg[2u * WG_SIZE];

void main() {
  uint b = cn_group_id();
  if (b >= pc.nblocks) return;
  uint lane = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
  uint bs = b * WG_SIZE * ITEMS;
  uint limit = min(pc.offsets.v[pc.nblocks], pc.group_bound);
  vec4 vp = vec4(pc.vp_x0, pc.vp_y0, pc.vp_x1, pc.vp_y1);
  uint c_row = pc.offsets.v[b];

  // Every row's ballot and workgroup count first, in uniform control flow;
  // then the boxes, folds and atomics. (A ballot after the previous row's
  // fold and atomics would rely on the subgroup reconverging at the loop's
  // back edge, which Vulkan does not promise.)
  uint tags[ITEMS], cs[ITEMS];
  // every row's tags in flight at once, each loaded at a clamped index and
  // then selected (a conditional load would be a branch before the ballot)
  for (uint k = 0u; k < ITEMS; k++) tags[k] = pc.tags.v[min(bs + k * WG_SIZE + lane, pc.n - 1u)];
  for (uint k = 0u; k < ITEMS; k++) {
    uint i = bs + k * WG_SIZE + lane;
    uint tag = i < pc.n ? tags[k] : CN_TAG_FILL;
    bool group = tag >= CN_TAG_BEGIN_CLIP && tag <= CN_TAG_END_BLEND;
    uvec4 ballot = subgroupBallot(group);
    uint sg_total = subgroupBallotBitCount(ballot);
    uint buf = (k & 1u) * WG_SIZE; // alternate halves: no barrier before the write
    if (subgroupElect()) sh_sg[buf + gl_SubgroupID] = sg_total;
    barrier();
    uint before = 0u, row_total = 0u;
    for (uint j = 0u; j < gl_NumSubgroups; j++) {
      uint v = sh_sg[buf + j];
      before += j < gl_SubgroupID ? v : 0u;
      row_total += v;
    }
    tags[k] = tag;
    cs[k] = c_row + before + subgroupBallotExclusiveBitCount(ballot);
    c_row += row_total;
  }

  for (uint k = 0u; k < ITEMS; k++) {
    uint i = bs + k * WG_SIZE + lane;
    uint tag = tags[k], c = cs[k];
    bool group = tag >= CN_TAG_BEGIN_CLIP && tag <= CN_TAG_END_BLEND;
    bool draw = i < pc.n && (tag == CN_TAG_FILL || tag == CN_TAG_STROKE);
    vec4 r = BOX_EMPTY;
    bool contribute = false;
    if (draw) {
      int enc = -1;
      vec4 clip = vp;
      if (CLIP_MODE == CN_DRAWS_CLIP_NODES) { // both by c, in flight together (nodes[c] is the viewport where enc < 0)
        if (c < limit) {
          enc = pc.parens.v[c];
          clip = pc.nodes.v[c];
        }
      } else {
        enc = c < limit ? pc.parens.v[c] : -1;
        if (enc >= 0) { // acc and link in flight together; where the link leaves the partition, two more
          clip = pc.acc.v[enc];
          if (CLIP_MODE == CN_DRAWS_CLIP_HOP) {
            int t = pc.link.v[enc];
            if (t >= 0) clip = box_intersect(clip, box_intersect(pc.acc.v[t], pc.clipg.v[uint(t) >> pc.clip_shift]));
          }
        }
      }
      r = box_canon(box_intersect(box_clean(pc.boxes.v[i]), clip));
      contribute = enc >= 0 && !box_is_empty(r);
    } else if (i < pc.n && !group) {
      atomicMin(pc.status.v[3], i);
    }
    // every element's slot, a BEGIN/END's too (the empty box, which
    // bbox_groups overwrites): rows of whole 32-byte sectors, which the
    // memory system need not fetch before writing
    if (i < pc.n) pc.result.v[i] = r;

    // gap[c] ∪= r, one set of atomics per distinct c among the lanes that
    // run together. Correct for any set of active lanes, whatever row each
    // is at: lanes fold only with lanes of the same c (the same gap), and a
    // lane leaves the loop only when no lane with it still contributes.
    while (subgroupAny(contribute)) {
      uint key = subgroupMin(contribute ? c : 0xFFFFFFFFu);
      if (contribute && c == key) {
        ivec4 q = ivec4(f32_key(r.x), f32_key(r.y), f32_key(r.z), f32_key(r.w));
        q = ivec4(subgroupMin(q.x), subgroupMin(q.y), subgroupMax(q.z), subgroupMax(q.w));
        if (subgroupElect()) {
          atomicMin(pc.pyramid.v[4u * key], q.x);
          atomicMin(pc.pyramid.v[4u * key + 1u], q.y);
          atomicMax(pc.pyramid.v[4u * key + 2u], q.z);
          atomicMax(pc.pyramid.v[4u * key + 3u], q.w);
        }
        contribute = false;
      }
    }
  }
}
