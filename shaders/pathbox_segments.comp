#version 460
// pathbox_segments: one invocation per segment (stages/pathbox.c). The segment's
// control points go through its path's transform (affine maps keep Béziers
// Béziers), then its tight box (endpoints and interior extrema of the
// transformed curve) is folded into keys[path] with integer atomics on
// ordered-int keys; segments of the workgroup's first segment's path fold in
// shared memory first, and the workgroup issues one set of atomics for them. Segments with a NaN, or naming a path or
// transform that does not exist, are skipped.
#include "common.glsl"
#include "cn_scene_layout.h"
layout(local_size_x = 256) in;
layout(buffer_reference, std430, buffer_reference_align = 16) buffer SegBuf { cn_segment v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer PathBuf { cn_path v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer XformBuf { cn_transform v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer KeyBuf { ivec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer ElemBuf { cn_element v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer StrokeBuf { cn_stroke v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer BoxBuf { vec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer TagBuf { uint v[]; };
#define CN_USE_PATHBOX_PUSH
#include "cn_scene_stage_shared.h"

#include "scene_box.glsl"
#include "pathbox.glsl"

shared uint sh_path;
shared ivec4 sh_key;

void main() {
  uint j = cn_group_id() * 256u + gl_LocalInvocationID.x;
  uint path = 0xFFFFFFFFu;
  ivec4 key = ivec4(KEY_POS_INF, KEY_POS_INF, KEY_NEG_INF, KEY_NEG_INF);
  bool ok = j < pc.count && segment_key(j, path, key);
  // Fold into the workgroup's box first when the segment belongs to the path
  // of the workgroup's first segment (paths are contiguous runs of segments,
  // so that is most of them): one set of global atomics per workgroup.
  if (gl_LocalInvocationID.x == 0u) {
    sh_path = path;
    sh_key = ivec4(KEY_POS_INF, KEY_POS_INF, KEY_NEG_INF, KEY_NEG_INF);
  }
  barrier();
  if (ok && path == sh_path) {
    // the active invocations of the subgroup fold first: one lane's shared atomics
    ivec4 k = ivec4(subgroupMin(key.x), subgroupMin(key.y), subgroupMax(key.z), subgroupMax(key.w));
    if (subgroupElect()) {
      atomicMin(sh_key.x, k.x);
      atomicMin(sh_key.y, k.y);
      atomicMax(sh_key.z, k.z);
      atomicMax(sh_key.w, k.w);
    }
  } else if (ok) {
    atomicMin(pc.keys.v[path].x, key.x);
    atomicMin(pc.keys.v[path].y, key.y);
    atomicMax(pc.keys.v[path].z, key.z);
    atomicMax(pc.keys.v[path].w, key.w);
  }
  barrier();
  if (gl_LocalInvocationID.x == 0u && sh_path < pc.path_count) {
    ivec4 k = sh_key;
    atomicMin(pc.keys.v[sh_path].x, k.x);
    atomicMin(pc.keys.v[sh_path].y, k.y);
    atomicMax(pc.keys.v[sh_path].z, k.z);
    atomicMax(pc.keys.v[sh_path].w, k.w);
  }
}
