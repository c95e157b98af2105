#version 460
// bbox_pyramid: the union pyramid over the gap keys of bbox_draws
// (stages/bbox.c; key boxes, bbox_keys.glsl): level j+1 entry x = level j
// entries 2x ∪ 2x+1, each level right after the previous one in the buffer.
// One dispatch: workgroup g reduces level-0 entries [256 g, 256 g + 256)
// through 8 levels; the last workgroup to finish (a ticket counter) then
// builds all the levels above, 256 entries at a time, in the same way (so the
// layout is the one a dispatch per 8 levels would make).
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
uint reduce_block(uint g, uint off, uint count) {
  uint t = gl_LocalInvocationID.x;
  uint src = g * 256u + t;
  barrier();
  sh[t] = src < count ? pc.pyramid.v[off + src] : KEY_BOX_EMPTY;
  for (uint w = 128u; w >= 1u && count > 1u; w >>= 1) {
    barrier();
    ivec4 v = t < w ? key_union(sh[2u * t], sh[2u * t + 1u]) : KEY_BOX_EMPTY;
    barrier();
    off += count;
    count = (count + 1u) / 2u;
    if (t < w) {
      sh[t] = v;
      uint x = g * w + t;
      if (x < count) pc.pyramid.v[off + x] = v;
    }
  }
  return count;
}

void main() {
  uint t = gl_LocalInvocationID.x;
  uint groups = (pc.count + 255u) / 256u;
  reduce_block(cn_group_id(), 0u, pc.count);
  fence_barrier(); // release: this workgroup's levels before its ticket
  if (t == 0u) sh_last = atomicAdd(pc.ticket.v[0], 1u) == groups - 1u ? 1u : 0u;
  fence_barrier(); // acquire (for the last): every workgroup's levels
  if (sh_last == 0u) return;
  // the levels above, as further dispatches of this kernel would build them
  uint off = 0u, count = pc.count;
  for (;;) {
    uint next_off = off, next_count = count;
    for (uint k = 0u; k < 8u && next_count > 1u; k++) {
      next_off += next_count;
      next_count = (next_count + 1u) / 2u;
    }
    off = next_off;
    count = next_count;
    if (count <= 1u) break;
    uint g_count = (count + 255u) / 256u;
    for (uint g = 0u; g < g_count; g++) reduce_block(g, off, count);
    fence_barrier(); // this workgroup's own stores before it reads them as the next source
  }
}
