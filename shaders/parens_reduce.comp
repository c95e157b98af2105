#version 460
// parens_reduce: pass 1 of the multi-pass variants (simple, efficient). Per
// partition: its bicyclic value (tree level 0) and its stack slice, the indices
// of its unmatched '(' bottom first (a reverse bicyclic scan over the chunks,
// then a compaction). See parens.glsl and include/canopy/cn_parens.h.
#define PARENS_WIN_CAP 1
#include "parens.glsl"

void main() {
  uint q = cn_group_id();
  uint part = q * P;
  ParensChunk c = parens_load(part);
  uvec2 total = parens_tree_build(c);
  parens_write_slice(q, part, c, total);
  if (gl_LocalInvocationID.x == 0u) pc.tree.v[q] = total;
}
