// parens_stack.glsl: the stack before a partition, for the multi-pass
// variants' matching kernels (parens_match, parens_lm_match): the entry at a
// given depth, found by walking back over the NEAR nearest partitions'
// bicyclic values (sh_near, filled by the kernel) and then searching the
// bicyclic tree over partitions (parens_tree), ending in one partition's
// stack slice (bottom first at slices[r * P ...]). Include after parens.glsl.

uvec2 node(uint j, uint m) { return pc.tree.v[parens_tree_off(pc.n1p, j) + m]; }

// Bicyclic values of the NEAR partitions before this one, nearest first:
// most stack entries a partition needs lie in their slices.
const uint NEAR = CN_PARENS_NEAR;
shared uvec2 sh_near[NEAR];

// The partition holding depth d of the stack before partition p, continuing a
// search that has already combined partitions [i, p) into acc (acc.y <= d):
// the largest r < i with Bic(r..p-1).b > d, or -1 when the stack is not that
// deep. On a hit acc becomes Bic(r+1..p-1), so depth d is entry
// b_r - 1 - (acc.x + d - acc.y) of r's slice (bottom first), and deeper
// entries continue downwards in the slice and then in a search from (r,
// Bic(r..p-1)).
int parens_find_part(uint i, inout uvec2 acc, uint d) {
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
  return int(i) - 1;
}

// The entry at depth d of the stack before partition p, continuing a search
// that has already combined partitions [i, p) into acc (with acc.y <= d): the
// largest partition r < i with Bic(r..p-1).b > d holds it in its slice (-1
// when none does). Tree search of the paper's Fig. 2 over the partition tree.
int parens_find_global(uint i, uvec2 acc, uint d) {
  int r = parens_find_part(i, acc, d);
  if (r < 0) return -1;
  uint b = node(0u, uint(r)).y;
  return pc.slices.v[uint(r) * P + b - 1u - (acc.x + d - acc.y)];
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

