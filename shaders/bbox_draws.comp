#version 460
// bbox_draws: per block of WG_SIZE * ITEMS elements (stages/bbox.c):
//  - the result box of every draw (FILL/STROKE): its box ∩ the clip stack box
//    of its innermost enclosing group (acc[parens[c]], c = group nodes before
//    it) or the viewport at the root; canonical empty when empty;
//  - a union tree of those results in shared memory: its root is level 0 of
//    the block pyramid, and every group node in the block gets gpart, its part
//    of the group's union inside this block (a BEGIN: after it to the block's
//    end; an END: from its BEGIN, or the block's start, to before it).
// BEGIN/END elements get the canonical empty box here; bbox_groups writes them.
#include "common.glsl"
#include "cn_scene_layout.h"

layout(constant_id = CN_SPEC_WG_SIZE) const uint WG_SIZE = 256;
layout(constant_id = CN_SPEC_ITEMS) const uint ITEMS = 2;
layout(local_size_x_id = CN_SPEC_WG_SIZE) in;

layout(buffer_reference, std430, buffer_reference_align = 4) buffer TagBuf { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer BoxBuf { vec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer U32Buf { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer I32Buf { int v[]; };
#define CN_USE_BBOX_DRAWS_PUSH
#include "cn_scene_stage_shared.h"
#include "scene_box.glsl"
#include "scene_wg.glsl"
#define TREE_N (WG_SIZE * ITEMS)
#include "bbox_tree.glsl"

const uint MAX_ITEMS = 8u;

void main() {
  uint b = cn_group_id();
  if (b >= pc.nblocks) return;
  uint t = gl_LocalInvocationID.x;
  uint bs = b * TREE_N;
  uint first = bs + t * ITEMS;
  uint m = pc.offsets.v[pc.nblocks];
  uint limit = min(m, pc.group_bound);
  vec4 vp = vec4(pc.vp_x0, pc.vp_y0, pc.vp_x1, pc.vp_y1);

  uint tags[MAX_ITEMS];
  uint mine = 0u;
  for (uint k = 0u; k < ITEMS; k++) {
    uint i = first + k;
    tags[k] = i < pc.n ? pc.tags.v[i] : 0u;
    mine += (tags[k] >= CN_TAG_BEGIN_CLIP && tags[k] <= CN_TAG_END_BLEND) ? 1u : 0u;
  }
  uint total;
  uint c = pc.offsets.v[b] + wg_exclusive_sum(mine, total);
  uint c0 = c;

  for (uint k = 0u; k < ITEMS; k++) {
    uint i = first + k;
    uint tag = tags[k];
    vec4 r = BOX_EMPTY;
    if (i < pc.n) {
      if (tag == CN_TAG_FILL || tag == CN_TAG_STROKE) {
        int enc = c < limit ? pc.parens.v[c] : -1;
        vec4 clip = enc >= 0 ? pc.acc.v[enc] : vp;
        r = box_canon(box_intersect(box_clean(pc.boxes.v[i]), clip));
      } else if (tag >= CN_TAG_BEGIN_CLIP && tag <= CN_TAG_END_BLEND) {
        c++;
      } else {
        atomicMin(pc.status.v[3], i);
      }
      pc.result.v[i] = r;
    }
    sh_tree[t * ITEMS + k] = r;
  }
  tree_build();
  if (t == 0u) pc.pyramid.v[b] = tree_root();

  c = c0;
  for (uint k = 0u; k < ITEMS; k++) {
    uint tag = tags[k];
    if (tag < CN_TAG_BEGIN_CLIP || tag > CN_TAG_END_BLEND) continue;
    if (c < limit) {
      int lp = int(t * ITEMS + k);
      vec4 u;
      if (tag == CN_TAG_BEGIN_CLIP || tag == CN_TAG_BEGIN_BLEND) {
        u = tree_query(lp + 1, int(TREE_N) - 1);
      } else {
        int o = pc.parens.v[c];
        int a = (o >= 0 && uint(o) < limit) ? int(pc.idx.v[o]) : -1;
        u = tree_query(a >= int(bs) ? a - int(bs) + 1 : 0, lp - 1);
      }
      pc.gpart.v[c] = u;
    }
    c++;
  }
}
