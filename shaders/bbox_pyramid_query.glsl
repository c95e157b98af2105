// bbox_pyramid_query.glsl: the union of level-0 entries l..r of a key pyramid
// (bbox_pyramid's layout: `leaves` entries at level 0, each level right after
// the one below, halving with rounding up). The kernel defines PYRAMID_AT(x),
// the ivec4 key box at entry x of the whole pyramid, before including it.
// Needs bbox_keys.glsl.
#ifndef CN_BBOX_PYRAMID_QUERY_GLSL
#define CN_BBOX_PYRAMID_QUERY_GLSL

ivec4 pyramid_query(int l, int r, uint leaves) {
  ivec4 acc = KEY_BOX_EMPTY;
  uint off = 0u, count = leaves;
  while (l <= r) {
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

#endif
