#version 460
// parens_match: pass 3 of the multi-pass variants. Per partition: the stack
// before it, down to the depth the partition pops into, found by searching the
// bicyclic tree over partitions and reading the stack slices (parens_reduce);
// then every element's match inside the partition (parens.glsl).
#define PARENS_WIN_CAP (WG * K)
#include "parens.glsl"

uvec2 node(uint j, uint m) { return pc.tree.v[parens_tree_off(pc.n1p, j) + m]; }

// Bicyclic values of the NEAR partitions before this one, nearest first:
// most stack entries a partition needs lie in their slices.
const uint NEAR = 32u;
shared uvec2 sh_near[NEAR];

// The entry at depth d of the stack before partition p, continuing a search
// that has already combined partitions [i, p) into acc (with acc.y <= d): the
// largest partition r < i with Bic(r..p-1).b > d holds it in its slice (-1
// when none does). Tree search of the paper's Fig. 2 over the partition tree.
int parens_find_global(uint i, uvec2 acc, uint d) {
  uint j = 0u;
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
  uint r = i - 1u;
  uint b = node(0u, r).y;
  return pc.slices.v[r * P + b - 1u - (acc.x + d - acc.y)];
}

// The entry at depth d of the stack before partition q: a walk back over the
// NEAR nearest partitions, then the tree beyond them.
int parens_find_stack(uint q, uint near, uint d) {
  uvec2 acc = uvec2(0u);
  for (uint i = 0u; i < near; i++) {
    uvec2 next = bic(sh_near[i], acc);
    if (next.y > d) {
      uint r = q - 1u - i;
      return pc.slices.v[r * P + sh_near[i].y - 1u - (acc.x + d - acc.y)];
    }
    acc = next;
  }
  return parens_find_global(q - near, acc, d);
}

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
