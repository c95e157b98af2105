#version 460
// parens_match: pass 3 of the multi-pass variants. Per partition: the stack
// before it, down to the depth the partition pops into, found by searching the
// bicyclic tree over partitions and reading the stack slices (parens_reduce);
// then every element's match inside the partition (parens.glsl).
#define PARENS_WIN_CAP (WG * K)
#include "parens.glsl"

#include "parens_stack.glsl"

void main() {
  uint q = cn_group_id(), t = gl_LocalInvocationID.x;
  uint part = q * P;
  uint near = min(q, NEAR);
  if (t < NEAR) sh_near[t] = t < near ? pc.tree.v[q - 1u - t] : uvec2(0u);
  ParensChunk c = parens_load(part);
  uvec2 total = parens_tree_build(c);
  uint need = min(total.x + 1u, P);
  for (uint d = t; d < need; d += WG) sh_win[d] = parens_find_stack(q, near, d);
  barrier();
  parens_emit(part, c);
}
