// bbox_pyramid_query.glsl: the union of level-0 entries l..r of a key pyramid
// (bbox_pyramid's layout: `leaves` entries at level 0, each level right after
// the one below, halving with rounding up). The kernel defines PYRAMID_AT(x),
// the ivec4 key box at entry x of the whole pyramid, before including it.
// Needs bbox_keys.glsl.
#ifndef CN_BBOX_PYRAMID_QUERY_GLSL
#define CN_BBOX_PYRAMID_QUERY_GLSL

// With top levels built (the levels above level `top` left unbuilt), the
// range that remains at level `top` is unioned entry by entry.
ivec4 pyramid_query_below(int l, int r, uint leaves, uint top) {
  ivec4 acc = KEY_BOX_EMPTY;
  uint off = 0u, count = leaves;
  for (uint level = 0u; l <= r; level++) {
    if (level == top) {
      for (int x = l; x <= r; x++) acc = key_union(acc, PYRAMID_AT(off + uint(x)));
      break;
    }
    if ((l & 1) != 0) acc = key_union(acc, PYRAMID_AT(off + uint(l++)));
    if ((r & 1) == 0) acc = key_union(acc, PYRAMID_AT(off + uint(r--)));
    if (l > r) break;
    l >>= 1;
    r >>= 1;
    off += count;
    count = (count + 1u) / 2u;
  }
  return acc;
}

ivec4 pyramid_query(int l, int r, uint leaves) { return pyramid_query_below(l, r, leaves, 0xFFFFFFFFu); }

#endif
