#version 460
// bbox_clip_local: clip intersection by pointer jumping, inside one partition
// of WG_SIZE group nodes (paper sections 6.1 and 9; stages/bbox.c).
//
// Every open group node k starts with its own clip box (a BEGIN_BLEND: none)
// intersected with the viewport, and a link to its parent (the parentheses
// matching output for an open is its enclosing open). log2(WG_SIZE) rounds of
//     val[k] = val[k] ∩ val[link[k]];  link[k] = link[link[k]]
// while the link stays inside the partition (first by shuffles while it stays
// inside the subgroup, then in shared memory), leave every node with the
// intersection of its chain of ancestors within the partition and a link that
// leaves it (or -1 at the root). A link that leaves the partition always
// points at a "slice" open: one closed in a later partition (it is still open
// where the link starts). Every END here whose BEGIN lies in an earlier
// partition marks that BEGIN in slice[]. bbox_clip_resolve then follows the
// links that leave partitions, in place on acc_dst / link_dst. Intersection
// is idempotent and exact (min/max).
#include "common.glsl"
#include "cn_scene_layout.h"

layout(constant_id = CN_SPEC_WG_SIZE) const uint WG_SIZE = 256;
layout(local_size_x_id = CN_SPEC_WG_SIZE) in;

layout(buffer_reference, std430, buffer_reference_align = 16) buffer BoxBuf { vec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer U32Buf { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer I32Buf { int v[]; };
#define CN_USE_BBOX_CLIP_PUSH
#include "cn_scene_stage_shared.h"
#include "scene_box.glsl"

shared vec4 sh_val[WG_SIZE];
shared int sh_link[WG_SIZE];

void main() {
  // node slot = subgroup id * size + lane: a subgroup holds consecutive nodes
  uint size = gl_SubgroupSize, lane = gl_SubgroupInvocationID;
  uint slot = gl_SubgroupID * size + lane;
  uint p0 = cn_group_id() * WG_SIZE;
  uint k = p0 + slot;
  uint limit = min(pc.offsets.v[pc.nblocks], pc.group_bound);
  vec4 vp = vec4(pc.vp_x0, pc.vp_y0, pc.vp_x1, pc.vp_y1);
  vec4 val = vp;
  int link = -1;
  if (k < limit) {
    // the node's byte, element and parentheses result in flight together
    // (loaded whatever the byte says): only the clip's box waits on one
    uint byte = (pc.gbytes.v[k >> 2] >> ((k & 3u) * 8u)) & 0xFFu;
    uint e = pc.idx.v[k];
    int pk = pc.parens.v[k];
    if ((byte & CN_GROUP_CLOSE) == 0u) {
      if ((byte & CN_GROUP_BLEND) == 0u) val = box_intersect(box_clean(pc.boxes.v[e]), vp);
      link = pk;
    } else if (pk >= 0 && uint(pk) < p0) {
      pc.slice.v[pk] = 1u;
    }
  }
  // links inside the subgroup first, by shuffles (log2(size) rounds, no
  // barrier): after them every link leaves the subgroup (or is -1)
  int sg0 = int(p0 + gl_SubgroupID * size);
  for (uint step = 1u; step < size; step <<= 1) {
    bool inside = link >= sg0 && link < int(k);
    uint src = inside ? uint(link - sg0) : lane;
    vec4 tv = subgroupShuffle(val, src);
    int tl = subgroupShuffle(link, src);
    if (inside) {
      val = box_intersect(val, tv);
      link = tl;
    }
  }
  // then across the partition's subgroups in shared memory: a chain visits
  // each subgroup at most once, log2(WG_SIZE / size) rounds
  sh_val[slot] = val;
  sh_link[slot] = link;
  for (uint step = size; step < WG_SIZE; step <<= 1) {
    barrier();
    vec4 nv = val;
    int nl = link;
    if (link >= int(p0)) {
      uint l = uint(link) - p0;
      nv = box_intersect(val, sh_val[l]);
      nl = sh_link[l];
    }
    barrier();
    val = nv;
    link = nl;
    sh_val[slot] = val;
    sh_link[slot] = link;
  }
  if (k < pc.group_bound) {
    pc.acc_dst.v[k] = val;
    pc.link_dst.v[k] = link;
  }
}
