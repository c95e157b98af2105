#version 460
// pathbox_small: the whole path-box stage of a small scene in one workgroup and
// one dispatch (stages/pathbox.c), with the same results, bit for bit, as
// pathbox_init, pathbox_segments and pathbox_elements (the same steps of
// pathbox.glsl): the key boxes of the paths (at most PATH_CAP, 16 bytes
// each) live in shared
// memory; every lane takes ITEMS segments per round (their loads issued
// together); after a barrier, for each item the lanes of a subgroup whose
// segments belong to the subgroup's lowest path fold by subgroup min/max, then
// one lane does the shared atomics of those folds and every other lane its own;
// after a barrier every element's box.
// pc.count = segments, pc.element_count = elements.
#include "common.glsl"
#include "cn_scene_layout.h"

layout(constant_id = CN_SPEC_WG_SIZE) const uint WG = 1024;
layout(constant_id = CN_SPEC_ITEMS) const uint ITEMS = 4;
layout(local_size_x_id = CN_SPEC_WG_SIZE) in;

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

layout(constant_id = CN_SPEC_PATHBOX_PATHS) const uint PATH_CAP = 1024;
shared int sh_x0[PATH_CAP], sh_y0[PATH_CAP], sh_x1[PATH_CAP], sh_y1[PATH_CAP];

void main() {
  uint t = gl_LocalInvocationID.x;
  for (uint p = t; p < pc.path_count; p += WG) {
    sh_x0[p] = KEY_POS_INF;
    sh_y0[p] = KEY_POS_INF;
    sh_x1[p] = KEY_NEG_INF;
    sh_y1[p] = KEY_NEG_INF;
  }
  barrier();
  for (uint j0 = 0u; j0 < pc.count; j0 += WG * ITEMS) {
    uint path[ITEMS];
    ivec4 key[ITEMS];
    bool ok[ITEMS];
    for (uint k = 0u; k < ITEMS; k++) {
      uint j = j0 + k * WG + t;
      path[k] = 0xFFFFFFFFu;
      key[k] = ivec4(KEY_POS_INF, KEY_POS_INF, KEY_NEG_INF, KEY_NEG_INF);
      ok[k] = j < pc.count && segment_key(j, path[k], key[k]);
    }
    // The subgroup folds of the round's items run together, after a barrier
    // and before any atomic: the lanes enter them converged and no
    // branch separates them. (Folding each item right after the previous
    // item's atomics left lanes of a subgroup at different items on the
    // H200, and its keys in the wrong path's fold: a box too small.)
    barrier();
    uint low[ITEMS];
    ivec4 m[ITEMS];
    for (uint k = 0u; k < ITEMS; k++) {
      low[k] = subgroupMin(ok[k] ? path[k] : 0xFFFFFFFFu);
      ivec4 v = ok[k] && path[k] == low[k] ? key[k] : ivec4(KEY_POS_INF, KEY_POS_INF, KEY_NEG_INF, KEY_NEG_INF);
      m[k] = ivec4(subgroupMin(v.x), subgroupMin(v.y), subgroupMax(v.z), subgroupMax(v.w));
    }
    bool first = subgroupElect();
    for (uint k = 0u; k < ITEMS; k++) {
      if (low[k] != 0xFFFFFFFFu && first) {
        atomicMin(sh_x0[low[k]], m[k].x);
        atomicMin(sh_y0[low[k]], m[k].y);
        atomicMax(sh_x1[low[k]], m[k].z);
        atomicMax(sh_y1[low[k]], m[k].w);
      }
      if (ok[k] && path[k] != low[k]) {
        atomicMin(sh_x0[path[k]], key[k].x);
        atomicMin(sh_y0[path[k]], key[k].y);
        atomicMax(sh_x1[path[k]], key[k].z);
        atomicMax(sh_y1[path[k]], key[k].w);
      }
    }
  }
  barrier();
  for (uint i = t; i < pc.element_count; i += WG) {
    cn_element e = pc.elements.v[i];
    vec4 box = BOX_EMPTY;
    if (element_has_path_box(e)) box = element_box(e, ivec4(sh_x0[e.path], sh_y0[e.path], sh_x1[e.path], sh_y1[e.path]));
    pc.boxes.v[i] = box;
    if (pc.write_tags != 0u) pc.tags.v[i] = e.tag;
  }
}
