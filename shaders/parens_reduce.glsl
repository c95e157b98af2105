// parens_reduce.glsl: the kernel parens_reduce (and parens_reduce_tree, which
// defines PARENS_TREE_FOLD first). Pass 1 of the multi-pass variants (simple, efficient). Per
// partition: its bicyclic value (tree level 0) and its stack slice, the indices
// of its unmatched '(' bottom first (a reverse bicyclic scan over the chunks,
// then a compaction). See parens.glsl and include/canopy/cn_parens.h.
// parens_reduce_tree: with tickets (pc.levels > 0) the last workgroups to
// finish build the tree above level 0 as well (parens_tree_tail.glsl).
#define PARENS_WIN_CAP 1
#include "parens.glsl"
#include "parens_tree_tail.glsl"

void main() {
  uint q = cn_group_id();
  uint part = q * P;
  ParensChunk c = parens_load(part);
  uvec2 total = parens_tree_build(c);
  parens_write_slice(q, part, c, total);
  if (gl_LocalInvocationID.x == 0u) parens_tree_store0(q, total);
  if (pc.levels != 0u) parens_tree_tail(q);
}
