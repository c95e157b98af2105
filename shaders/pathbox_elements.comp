#version 460
// pathbox_elements: the box of every element from its path's key box
// (stages/pathbox.c): FILL and BEGIN_CLIP take the path box; STROKE grows it
// by half the width times the transform's largest singular value times
// max(1, miter_limit for miter joins, sqrt(2) for square caps) on every side.
// Other elements, and empty results, get the canonical empty box. With write_tags
// it also gets every element's tag (the bbox stage's input).
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
  uint i = cn_group_id() * 256u + gl_LocalInvocationID.x;
  if (i >= pc.count) return;
  cn_element e = pc.elements.v[i];
  pc.boxes.v[i] = element_has_path_box(e) ? element_box(e, pc.keys.v[e.path]) : BOX_EMPTY;
  if (pc.write_tags != 0u) pc.tags.v[i] = e.tag;
}
