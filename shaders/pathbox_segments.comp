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

#include "pathbox.glsl"
#include "scene_box.glsl"

shared uint sh_path;
shared ivec4 sh_key;

vec2 xform(cn_transform m, float x, float y) { return vec2(m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f); }

void main() {
  uint j = cn_group_id() * 256u + gl_LocalInvocationID.x;
  bool ok = j < pc.count;
  uint path = 0xFFFFFFFFu;
  ivec4 key = ivec4(KEY_POS_INF, KEY_POS_INF, KEY_NEG_INF, KEY_NEG_INF);
  if (ok) {
    cn_segment s = pc.segments.v[j];
    path = s.info >> CN_SEG_PATH_SHIFT;
    ok = path < pc.path_count;
    uint tr = ok ? pc.paths.v[path].transform : 0u;
    ok = ok && tr < pc.transform_count;
    if (ok) {
      cn_transform m = pc.transforms.v[tr];
      uint kind = s.info & 3u;
      uint np = kind == CN_SEG_LINE ? 2u : kind == CN_SEG_QUAD ? 3u : 4u;
      vec2 p0 = xform(m, s.x0, s.y0), p1 = xform(m, s.x1, s.y1);
      vec2 p2 = np > 2u ? xform(m, s.x2, s.y2) : p1;
      vec2 p3 = np > 3u ? xform(m, s.x3, s.y3) : p2;
      vec2 pe = np == 2u ? p1 : np == 3u ? p2 : p3;
      vec2 lo = min(p0, pe), hi = max(p0, pe);
      if (np > 2u) {
        curve_extrema(np, p0.x, p1.x, p2.x, p3.x, lo.x, hi.x);
        curve_extrema(np, p0.y, p1.y, p2.y, p3.y, lo.y, hi.y);
      }
      vec4 b = vec4(lo, hi);
      ok = !(coord_is_nan(b.x) || coord_is_nan(b.y) || coord_is_nan(b.z) || coord_is_nan(b.w)) &&
           !(coord_is_nan(p1.x) || coord_is_nan(p1.y) || coord_is_nan(p2.x) || coord_is_nan(p2.y) ||
             coord_is_nan(p3.x) || coord_is_nan(p3.y));
      if (ok) key = ivec4(f32_key(b.x), f32_key(b.y), f32_key(b.z), f32_key(b.w));
    }
  }
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
