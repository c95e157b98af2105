#version 460
// bbox_clip_resolve: after bbox_clip_local (stages/bbox.c), one dispatch
// resolves every open whose link leaves its partition, in place on acc_dst /
// link_dst (the buffers bbox_clip_local wrote), by following links:
//     acc[k] = acc[k] ∩ acc[link[k]];  link[k] = link[link[k]]
// until the link is -1 (the root). A link target is a slice open (one closed
// in a later partition, marked in slice[]); slice opens write their progress
// back, so an open whose target has already resolved (or jumped far) is done
// in a step or two: pointer jumping without global rounds. Links point
// strictly backwards, so every chase ends.
//
// Why reading others' entries while they change is exact: acc[j] always holds
// the ∩ of the clips from j up to *at least* the ancestor before link[j]
// (writers store acc before link, with release/acquire fences: see
// fence_barrier), and a box seen newer than its link only adds ancestors'
// clips that the chase would intersect anyway (∩ is idempotent and
// componentwise, so even a half-updated box is such a value). Boxes that
// other invocations may read or write while this pass runs (a slice open's
// own box, and every link target's) are accessed as four relaxed 32-bit
// atomics, so there is no data race in the SPIR-V memory model: each word
// read is one that was written, which the argument above shows is exact.
//
// Memory ordering as in parens_lookback.comp: links are relaxed atomics; the
// fences are workgroup-uniform control barriers with device-scope
// acquire-release semantics (never in divergent code: llvmpipe turns those
// into workgroup barriers). Loop: read links -> fence (acquire) -> read boxes,
// store own box -> fence (release) -> store own link.
#include "common.glsl"
#include "cn_scene_layout.h"

layout(local_size_x = 256) in;

layout(buffer_reference, std430, buffer_reference_align = 16) coherent buffer BoxBuf { vec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer U32Buf { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) coherent buffer I32Buf { int v[]; };
// The same boxes as 32-bit words, for the atomic accesses.
layout(buffer_reference, std430, buffer_reference_align = 4) coherent buffer BoxWords { uint v[]; };
#define CN_USE_BBOX_CLIP_PUSH
#include "cn_scene_stage_shared.h"
#include "scene_box.glsl"

shared uint sh_any[2];

vec4 box_load_atomic(uint i) {
  BoxWords w = BoxWords(pc.acc_dst);
  uvec4 u;
  for (uint c = 0u; c < 4u; c++)
    u[c] = atomicLoad(w.v[4u * i + c], gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
  return uintBitsToFloat(u);
}

void box_store_atomic(uint i, vec4 b) {
  BoxWords w = BoxWords(pc.acc_dst);
  uvec4 u = floatBitsToUint(b);
  for (uint c = 0u; c < 4u; c++)
    atomicStore(w.v[4u * i + c], u[c], gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
}

void fence_barrier() {
  controlBarrier(gl_ScopeWorkgroup, gl_ScopeDevice, gl_StorageSemanticsBuffer | gl_StorageSemanticsShared,
                 gl_SemanticsAcquireRelease);
}

void main() {
  uint t = gl_LocalInvocationID.x;
  uint k = cn_group_id() * 256u + t;
  uint limit = min(pc.offsets.v[pc.nblocks], pc.group_bound);
  if (t == 0u) {
    sh_any[0] = 0u;
    sh_any[1] = 0u;
  }
  int l = -1;
  bool slice = false;
  vec4 v = vec4(0.0);
  if (k < limit) { // the link, box and slice mark in flight together
    l = pc.link_dst.v[k];
    v = pc.acc_dst.v[k];
    slice = pc.slice.v[k] != 0u;
    if (l >= int(k)) l = -1; // only in an unbalanced stream: dropped, keeping accesses in range
  }
  bool going = l >= 0, changed = going;
  for (uint it = 0u;; it++) {
    uint par = it & 1u;
    int nl = -1;
    if (going)
      nl = atomicLoad(pc.link_dst.v[l], gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
    fence_barrier(); // acquire: acc[l] is at least as new as the link just read
    if (t == 0u) sh_any[par ^ 1u] = 0u;
    if (going) {
      v = box_intersect(v, box_load_atomic(uint(l)));
      if (slice) box_store_atomic(k, v);
      if (nl >= l) nl = -1;
      l = nl;
      if (l >= 0) sh_any[par] = 1u;
    }
    fence_barrier(); // release: the box above before the link below
    if (going && slice)
      atomicStore(pc.link_dst.v[k], l, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
    going = going && l >= 0;
    if (sh_any[par] == 0u) break;
  }
  if (changed && !slice) pc.acc_dst.v[k] = v;
}
