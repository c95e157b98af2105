// bbox_tree.glsl: a binary tree of box unions over a block of TREE_N boxes in
// shared memory (level 0 at [0, TREE_N), level j+1 after level j, each half the
// size), and the range query of the blend stage (paper section 6.2): the union
// of leaves l..r in at most 2 log2(TREE_N) reads.
// Needs TREE_N (a power of two) and scene_box.glsl.
#ifndef CN_BBOX_TREE_GLSL
#define CN_BBOX_TREE_GLSL

shared vec4 sh_tree[2u * TREE_N];

// Builds the levels above level 0 (already written); every invocation calls it.
void tree_build() {
  uint src = 0u;
  for (uint w = TREE_N / 2u; w >= 1u; w >>= 1) {
    barrier();
    uint dst = src + 2u * w;
    for (uint x = gl_LocalInvocationID.x; x < w; x += gl_WorkGroupSize.x)
      sh_tree[dst + x] = box_union(sh_tree[src + 2u * x], sh_tree[src + 2u * x + 1u]);
    src = dst;
  }
  barrier();
}

vec4 tree_root() { return sh_tree[2u * TREE_N - 2u]; }

// Union of leaves l..r (empty when l > r).
vec4 tree_query(int l, int r) {
  vec4 acc = BOX_EMPTY;
  uint off = 0u, w = TREE_N;
  while (l <= r) {
    if ((l & 1) != 0) acc = box_union(acc, sh_tree[off + uint(l++)]);
    if ((r & 1) == 0) acc = box_union(acc, sh_tree[off + uint(r--)]);
    if (l > r) break;
    l >>= 1;
    r >>= 1;
    off += w;
    w >>= 1;
  }
  return acc;
}

#endif
