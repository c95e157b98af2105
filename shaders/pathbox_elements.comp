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

#include "pathbox.glsl"
#include "scene_box.glsl"

void main() {
  uint i = cn_group_id() * 256u + gl_LocalInvocationID.x;
  if (i >= pc.count) return;
  cn_element e = pc.elements.v[i];
  vec4 box = BOX_EMPTY;
  bool drawn = e.tag == CN_TAG_FILL || e.tag == CN_TAG_STROKE || e.tag == CN_TAG_BEGIN_CLIP;
  if (drawn && e.path < pc.path_count) {
    ivec4 k = pc.keys.v[e.path];
    box = vec4(key_f32(k.x), key_f32(k.y), key_f32(k.z), key_f32(k.w));
    if (e.tag == CN_TAG_STROKE) {
      uint tr = pc.paths.v[e.path].transform;
      if (e.aux < pc.stroke_count && tr < pc.transform_count) {
        cn_stroke s = pc.strokes.v[e.aux];
        cn_transform m = pc.transforms.v[tr];
        float sum = m.a * m.a + m.b * m.b + m.c * m.c + m.d * m.d;
        float det = m.a * m.d - m.b * m.c;
        float sigma = sqrt(0.5 * (sum + sqrt(max(sum * sum - 4.0 * det * det, 0.0))));
        float f = 1.0;
        if (s.join == CN_JOIN_MITER || s.join == CN_JOIN_MITER_CLIP) f = max(f, s.miter_limit);
        if (s.cap == CN_CAP_SQUARE) f = max(f, 1.41421356);
        float ex = 0.5 * abs(s.width) * sigma * f;
        box += vec4(-ex, -ex, ex, ex);
      } else {
        box = BOX_EMPTY;
      }
    }
  }
  pc.boxes.v[i] = box_canon(box_clean(box));
  if (pc.write_tags != 0u) pc.tags.v[i] = e.tag;
}
