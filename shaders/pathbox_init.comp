#version 460
// pathbox_init: keys[path] = the empty key box (+inf, +inf, -inf, -inf) before
// pathbox_segments or pathbox_fused folds segments in (stages/pathbox.c), and
// pathbox_fused's ticket counter (the word after the key boxes) = 0.
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

void main() {
  uint p = cn_group_id() * 256u + gl_LocalInvocationID.x;
  if (p < pc.path_count) pc.keys.v[p] = ivec4(KEY_POS_INF, KEY_POS_INF, KEY_NEG_INF, KEY_NEG_INF);
  if (p == 0u) pc.keys.v[pc.path_count] = ivec4(0);
}
