#version 460
// parens_tree: builds pc.levels levels of the bicyclic tree over partitions
// above level pc.level (heap layout, see cn_parens_shared.h). Each workgroup
// reduces WG nodes of level pc.level in shared memory; nodes past the
// partitions count as the identity.
#define PARENS_NO_PARTITION
#include "parens.glsl"

shared uvec2 sh_nodes[WG];

void main() {
  uint g = cn_group_id(), t = gl_LocalInvocationID.x;
  uint j0 = pc.level;
  uint idx = g * WG + t;
  uint valid = (pc.n1 + (1u << j0) - 1u) >> j0;
  sh_nodes[t] = idx < valid ? pc.tree.v[parens_tree_off(pc.n1p, j0) + idx] : uvec2(0u);
  for (uint l = 1u; l <= pc.levels; l++) {
    barrier();
    uint cnt = WG >> l;
    uvec2 v = uvec2(0u);
    if (t < cnt) v = bic(sh_nodes[2u * t], sh_nodes[2u * t + 1u]);
    barrier();
    if (t < cnt) {
      sh_nodes[t] = v;
      uint o = g * cnt + t;
      if (o < (pc.n1p >> (j0 + l))) pc.tree.v[parens_tree_off(pc.n1p, j0 + l) + o] = v;
    }
  }
}
