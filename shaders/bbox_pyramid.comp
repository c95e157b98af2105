#version 460
// bbox_pyramid: the union pyramid over the gap keys of bbox_draws
// (stages/bbox.c; key boxes, bbox_keys.glsl): level j+1 entry x = level j
// entries 2x ∪ 2x+1, each level right after the previous one in the buffer.
// One dispatch: workgroup g reduces level-0 entries [256 g, 256 g + 256)
// through 8 levels; the last of each run of 256 workgroups to finish (a ticket
// counter per run, ticket[1 + run]) reduces the run's 256 level-8 entries
// through 8 more levels; the last of those runs to finish (ticket[0]) builds
// all the levels above, 256 entries at a time, in the same way (so the layout
// is the one a dispatch per 8 levels would make, and no workgroup reduces
// more than a few blocks one after another).
// Memory ordering: stores, then a device-scope acquire-release control
// barrier, then the ticket (relaxed atomic); the last one's barrier after the
// ticket makes every workgroup's stores visible to it (as parens_lookback).
#include "common.glsl"

layout(local_size_x = 256) in;

layout(buffer_reference, std430, buffer_reference_align = 16) coherent buffer KeyBuf { ivec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer U32Buf { uint v[]; };
#define CN_USE_BBOX_PYRAMID_PUSH
#include "cn_scene_stage_shared.h"
#include "scene_box.glsl"
#include "pathbox.glsl"
#include "bbox_keys.glsl"

shared ivec4 sh[256];
shared uint sh_last;

void fence_barrier() {
  controlBarrier(gl_ScopeWorkgroup, gl_ScopeDevice, gl_StorageSemanticsBuffer | gl_StorageSemanticsShared,
                 gl_SemanticsAcquireRelease);
}

// Reduces entries [256 g, 256 g + 256) of the level at off (count entries)
// through up to 8 levels; returns the entry count of the last level built.
// Entry slot = subgroup id * size + lane (so a subgroup holds consecutive
// entries): the first log2(size) levels by shuffles inside each subgroup
// (level j's entry is on the lanes whose slot is a multiple of 2^j, and the
// first of them stores it), the rest through shared memory.
uint reduce_block(uint g, uint off, uint count) {
  uint t = gl_LocalInvocationID.x;
  uint size = gl_SubgroupSize, lane = gl_SubgroupInvocationID;
  uint slot = gl_SubgroupID * size + lane, src = g * 256u + slot;
  ivec4 v = src < count ? pc.pyramid.v[off + src] : KEY_BOX_EMPTY;
  uint j = 0u;
  for (uint m = 1u; m < size && count > 1u; m <<= 1) { // uniform: size and count are the workgroup's
    v = key_union(v, subgroupShuffleXor(v, m));
    off += count;
    count = (count + 1u) / 2u;
    j++;
    uint x = src >> j;
    if ((slot & ((m << 1) - 1u)) == 0u && x < count) pc.pyramid.v[off + x] = v;
  }
  barrier(); // the previous block's readers of sh are done
  if (lane == 0u) sh[gl_SubgroupID] = v;
  for (uint w = 128u >> j; j < 8u && count > 1u; w >>= 1) {
    barrier();
    ivec4 u = t < w ? key_union(sh[2u * t], sh[2u * t + 1u]) : KEY_BOX_EMPTY;
    barrier();
    off += count;
    count = (count + 1u) / 2u;
    j++;
    if (t < w) {
      sh[t] = u;
      uint x = g * w + t;
      if (x < count) pc.pyramid.v[off + x] = u;
    }
  }
  return count;
}

// The level 8 levels above the level at (off, count) (or the last, 1 entry).
void up8(inout uint off, inout uint count) {
  for (uint k = 0u; k < 8u && count > 1u; k++) {
    off += count;
    count = (count + 1u) / 2u;
  }
}

// Whether this workgroup is the last of `members` to take a ticket at word w
// (after its stores; if so, every member's stores are visible to it).
bool last_of(uint w, uint members) {
  fence_barrier(); // release: this workgroup's levels before its ticket
  if (gl_LocalInvocationID.x == 0u) sh_last = atomicAdd(pc.ticket.v[w], 1u) == members - 1u ? 1u : 0u;
  barrier();
  bool last = sh_last != 0u;
  if (last) fence_barrier(); // acquire, the last only (uniform in the workgroup): the members' levels
  return last;
}

void main() {
  uint g = cn_group_id();
  uint groups = (pc.count + 255u) / 256u, runs = (groups + 255u) / 256u;
  reduce_block(g, 0u, pc.count);
  // levels 9 - 16: the last workgroup of each run of 256
  if (!last_of(1u + g / 256u, min(256u, groups - (g / 256u) * 256u))) return;
  uint off = 0u, count = pc.count;
  up8(off, count);
  if (count > 1u) reduce_block(g / 256u, off, count);
  // the levels above: the last run
  if (!last_of(0u, runs)) return;
  up8(off, count);
  for (;;) {
    if (count <= 1u) break;
    uint g_count = (count + 255u) / 256u;
    for (uint b = 0u; b < g_count; b++) reduce_block(b, off, count);
    fence_barrier(); // this workgroup's own stores before it reads them as the next source
    up8(off, count);
  }
}
