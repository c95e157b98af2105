#version 460
// parens_match: pass 3 of the multi-pass variants. Per partition: the stack
// before it, down to the depth the partition pops into, found by searching the
// bicyclic tree over partitions and reading the stack slices (parens_reduce);
// then every element's match inside the partition (parens.glsl).
#define PARENS_WIN_CAP (WG * K)
#include "parens.glsl"

uvec2 node(uint j, uint m) { return pc.tree.v[parens_tree_off(pc.n1p, j) + m]; }

// The entry at depth d of the stack before partition p: the largest partition
// q < p with Bic(q..p-1).b > d holds it in its slice (-1 when none does).
int parens_find_global(uint p, uint d) {
  uint i = p, j = 0u;
  uvec2 acc = uvec2(0u);
  bool hit = false;
  while (i != 0u) {
    if (((i >> j) & 1u) != 0u) {
      uvec2 q = bic(node(j, (i >> j) - 1u), acc);
      if (q.y > d) {
        hit = true;
        break;
      }
      acc = q;
      i -= 1u << j;
    }
    j++;
  }
  if (!hit) return -1;
  while (j > 0u) {
    j--;
    uvec2 q = bic(node(j, (i >> j) - 1u), acc);
    if (q.y <= d) {
      acc = q;
      i -= 1u << j;
    }
  }
  uint q = i - 1u;
  uint b = node(0u, q).y;
  return pc.slices.v[q * P + b - 1u - (acc.x + d - acc.y)];
}

void main() {
  uint q = cn_group_id(), t = gl_LocalInvocationID.x;
  uint part = q * P;
  ParensChunk c = parens_load(part);
  uvec2 total = parens_tree_build(c);
  uint need = min(total.x + 1u, P);
  for (uint d = t; d < need; d += WG) sh_win[d] = parens_find_global(q, d);
  barrier();
  parens_emit(part, c);
}
