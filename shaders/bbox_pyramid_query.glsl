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

// The same union over the whole pyramid, four levels a step: a step first
// works out which entries its levels take (from l and r alone), then loads
// them all (entry 0 where a level takes none) and only then folds them, so
// that the loads of four levels are in flight together instead of one after
// another.
ivec4 pyramid_query(int l, int r, uint leaves) {
  ivec4 acc = KEY_BOX_EMPTY;
  uint off = 0u, count = leaves;
  while (l <= r) {
    uint xa[4], xb[4];
    bool ta[4], tb[4];
    [[unroll]] for (uint j = 0u; j < 4u; j++) {
      bool live = l <= r;
      ta[j] = live && (l & 1) != 0;
      xa[j] = ta[j] ? off + uint(l) : 0u;
      l += ta[j] ? 1 : 0;
      tb[j] = live && (r & 1) == 0;
      xb[j] = tb[j] ? off + uint(r) : 0u;
      r -= tb[j] ? 1 : 0;
      if (live && l <= r) { // the next level (else l > r stays: nothing more)
        l >>= 1;
        r >>= 1;
        off += count;
        count = (count + 1u) / 2u;
      }
    }
    ivec4 va[4], vb[4];
    [[unroll]] for (uint j = 0u; j < 4u; j++) {
      va[j] = PYRAMID_AT(xa[j]);
      vb[j] = PYRAMID_AT(xb[j]);
    }
    [[unroll]] for (uint j = 0u; j < 4u; j++) {
      acc = ta[j] ? key_union(acc, va[j]) : acc;
      acc = tb[j] ? key_union(acc, vb[j]) : acc;
    }
  }
  return acc;
}

#endif
