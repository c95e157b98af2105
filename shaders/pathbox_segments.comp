#version 460
// pathbox_segments: one invocation per segment (stages/pathbox.c). The segment's
// control points go through its path's transform (affine maps keep Béziers
// Béziers), then its tight box (endpoints and interior extrema of the
// transformed curve) is folded into keys[path] with integer atomics on
// ordered-int keys: each subgroup folds its runs of one path's segments by
// shuffles first (one set of atomics per path a subgroup holds), the runs of
// the workgroup's first segment's path in shared memory (one set of global
// atomics per workgroup: fold_segment in pathbox.glsl). Segments with a NaN,
// or naming a path or transform that does not exist, are skipped.
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
#define CN_PATHBOX_SEGMENT_PASS
#include "cn_scene_stage_shared.h"

#include "scene_box.glsl"
#include "pathbox.glsl"

void main() { fold_segment(cn_group_id() * 256u + gl_LocalInvocationID.x); }
