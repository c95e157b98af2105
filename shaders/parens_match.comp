#version 460
// parens_match: pass 3 of the multi-pass variants. Per partition: the stack
// before it, down to the depth the partition pops into, found by searching the
// bicyclic tree over partitions and reading the stack slices (parens_reduce);
// then every element's match inside the partition (parens.glsl).
#define PARENS_WIN_CAP (WG * K)
#include "parens.glsl"

uvec2 node(uint j, uint m) { return pc.tree.v[parens_tree_off(pc.n1p, j) + m]; }

// Suffix values of the WG partitions before this one: sh_near[i] =
// Bic(partitions q-1-i .. q-1); most stack entries a partition needs lie there.
shared uvec2 sh_near[WG];

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

// The entry at depth d of the stack before partition q: binary search of
// sh_near, then the tree beyond the WG nearest partitions.
int parens_find_stack(uint q, uint near, uint d) {
  if (near == 0u || sh_near[near - 1u].y <= d)
    return parens_find_global(q - near, near == 0u ? uvec2(0u) : sh_near[near - 1u], d);
  uint lo = 0u, hi = near - 1u; // smallest i with sh_near[i].y > d
  while (lo < hi) {
    uint mid = (lo + hi) / 2u;
    if (sh_near[mid].y > d) hi = mid;
    else lo = mid + 1u;
  }
  uvec2 acc = lo == 0u ? uvec2(0u) : sh_near[lo - 1u];
  uint r = q - 1u - lo;
  uint b = pc.tree.v[r].y; // level 0 of the tree
  return pc.slices.v[r * P + b - 1u - (acc.x + d - acc.y)];
}

void main() {
  uint q = cn_group_id(), t = gl_LocalInvocationID.x;
  uint part = q * P;
  uint near = min(q, WG);
  sh_near[t] = t < near ? pc.tree.v[q - 1u - t] : uvec2(0u);
  ParensChunk c = parens_load(part);
  uvec2 total = parens_tree_build(c);
  // Inclusive scan of sh_near in order of distance (Hillis-Steele); nearer first.
  for (uint off = 1u; off < WG; off <<= 1u) {
    uvec2 x = sh_near[t];
    uvec2 far = t >= off ? sh_near[t - off] : uvec2(0u);
    barrier();
    // sh_near[t] covers partitions q-1-t .. q-t+off-2; append the later ones of sh_near[t - off].
    if (t >= off) sh_near[t] = bic(x, far);
    barrier();
  }
  uint need = min(total.x + 1u, P);
  for (uint d = t; d < need; d += WG) sh_win[d] = parens_find_stack(q, near, d);
  barrier();
  parens_emit(part, c);
}
