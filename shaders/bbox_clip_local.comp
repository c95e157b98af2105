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
// intersection of its chain of ancestors within the partition (acc_dst) and a
// link that leaves it, or -1 at the root (link_dst). Intersection is
// idempotent and exact (min/max).
//
// A link that leaves the partition points at a "slice open": one still open
// at the end of its own partition. Over more than one partition (pc.bases):
// the slice opens of partition r are nested (each later one inside the
// earlier ones), so their chains inside r all end at the first of them, s,
// and all their links are s's parent: r's base, the parent of r's last open
// whose parent lies before r (after s every open's parent is s or inside s).
// Each workgroup writes its base; the last one to finish (a ticket) computes
// per partition the whole clip box at its base, clipg[r] = acc[base] ∩
// clipg[base's partition] (the viewport where base is -1), by pointer jumping
// over the partitions in shared memory, WG_SIZE partitions at a time in
// order. A node's whole clip box is then acc[k] ∩ acc[t] ∩ clipg[t / WG_SIZE]
// where t = link[k] >= 0 (bbox_draws, or bbox_clip_nodes before it).
// Memory ordering of the ticket as in bbox_pyramid: stores, a device-scope
// acquire-release control barrier, then the ticket; the last workgroup's
// barrier after it makes every workgroup's stores visible to it (the buffers
// it reads are coherent).
#include "common.glsl"
#include "cn_scene_layout.h"

layout(constant_id = CN_SPEC_WG_SIZE) const uint WG_SIZE = 256;
layout(local_size_x_id = CN_SPEC_WG_SIZE) in;

layout(buffer_reference, std430, buffer_reference_align = 16) coherent buffer BoxBuf { vec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) coherent buffer U32Buf { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) coherent buffer I32Buf { int v[]; };
#define CN_USE_BBOX_CLIP_PUSH
#include "cn_scene_stage_shared.h"
#include "scene_box.glsl"

shared vec4 sh_val[WG_SIZE];
shared int sh_link[WG_SIZE];
shared int sh_last_open; // with bases: the slot of the partition's last open whose parent lies before it
shared uint sh_last;

void fence_barrier() {
  controlBarrier(gl_ScopeWorkgroup, gl_ScopeDevice, gl_StorageSemanticsBuffer | gl_StorageSemanticsShared,
                 gl_SemanticsAcquireRelease);
}

// With bases, in the last workgroup: clipg[r] for every partition r
// with nodes, WG_SIZE partitions a round, in order. A partition's entry
// starts as acc[base] and a link to base's partition (< r); a link into an
// earlier round takes that round's clipg at once, the rest jump in shared
// memory (as the nodes above).
void partition_boxes(uint limit, vec4 vp) {
  uint t = gl_LocalInvocationID.x;
  uint parts = (limit + WG_SIZE - 1u) / WG_SIZE;
  for (uint r0 = 0u; r0 < parts; r0 += WG_SIZE) { // uniform
    uint r = r0 + t;
    vec4 val = vp;
    int link = -1;
    if (r < parts) {
      int b = pc.base.v[r];
      if (b >= 0) {
        val = pc.acc_dst.v[b];
        link = int(uint(b) / WG_SIZE);
        if (uint(link) < r0) {
          val = box_intersect(val, pc.clipg.v[link]);
          link = -1;
        }
      }
    }
    barrier(); // the previous round's readers of sh_val / sh_link are done
    sh_val[t] = val;
    sh_link[t] = link;
    for (uint step = 1u; step < min(WG_SIZE, parts - r0); step <<= 1) {
      barrier();
      vec4 nv = val;
      int nl = link;
      if (link >= 0) {
        nv = box_intersect(val, sh_val[uint(link) - r0]);
        nl = sh_link[uint(link) - r0];
      }
      barrier();
      val = nv;
      link = nl;
      sh_val[t] = val;
      sh_link[t] = link;
    }
    if (r < parts) pc.clipg.v[r] = val;
    fence_barrier(); // the round's clipg before the next round reads it
  }
}

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
  bool bases = pc.bases != 0u, open = false;
  if (bases && gl_LocalInvocationID.x == 0u) sh_last_open = -1;
  if (k < limit) {
    // the node's byte, element and parentheses result in flight together
    // (loaded whatever the byte says): only the clip's box waits on one
    uint byte = (pc.gbytes.v[k >> 2] >> ((k & 3u) * 8u)) & 0xFFu;
    uint e = pc.idx.v[k];
    int pk = pc.parens.v[k];
    open = (byte & CN_GROUP_CLOSE) == 0u;
    if (open) {
      if ((byte & CN_GROUP_BLEND) == 0u) val = box_intersect(box_clean(pc.boxes.v[e]), vp);
      link = pk;
    }
  }
  int parent = link; // an open's parent (-1: the root)
  if (bases) {
    barrier(); // sh_last_open set
    if (open && parent < int(p0)) atomicMax(sh_last_open, int(slot));
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
  if (!bases) return;
  // The partition's base: the parent of its last open whose parent lies
  // before it (-1 without one: no slice opens, the entry is never read).
  barrier(); // every atomicMax on sh_last_open (the loop above may have run no round)
  int last = sh_last_open;
  uint q = cn_group_id();
  if (last == int(slot)) pc.base.v[q] = parent;
  else if (last < 0 && gl_LocalInvocationID.x == 0u) pc.base.v[q] = -1;
  fence_barrier(); // release: acc_dst and base before the ticket
  uint groups = (pc.group_bound + WG_SIZE - 1u) / WG_SIZE;
  if (gl_LocalInvocationID.x == 0u) sh_last = atomicAdd(pc.ticket.v[0], 1u) == groups - 1u ? 1u : 0u;
  barrier();
  if (sh_last == 0u) return;
  fence_barrier(); // acquire (the last workgroup only, uniform): every workgroup's acc_dst and base
  partition_boxes(limit, vp);
}
