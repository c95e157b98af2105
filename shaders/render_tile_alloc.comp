#version 460
// render_tile_alloc: per element that has geometry (FILL, STROKE, BEGIN_CLIP),
// turns its pixel box into a tile rectangle clamped to the target and
// bump-allocates one cn_render_tile per tile of it (the host zeroed them).
// Past cap_tiles the element gets an empty rectangle and CN_FAIL_TILES is set.
#include "render_common.glsl"

layout(constant_id = CN_SPEC_WG_SIZE) const uint WG_SIZE = 256;
layout(local_size_x_id = CN_SPEC_WG_SIZE) in;

void main() {
  CnRenderConfig cfg = pc.config;
  uint e = cn_group_id() * WG_SIZE + gl_LocalInvocationID.x;
  if (e == 0) cfg.bump.v.lines = cn_line_count(cfg); // for the host's statistics
  if (e >= cfg.n_elements) return;
  uint tag = cfg.elements.v[e].tag;
  if (tag != CN_TAG_FILL && tag != CN_TAG_STROKE && tag != CN_TAG_BEGIN_CLIP) return;
  ElemBuf eb = cfg.elem;
  cn_render_elem E = eb.v[e];
  int tx0 = max(E.px0 >> CN_TILE_SHIFT, 0), ty0 = max(E.py0 >> CN_TILE_SHIFT, 0);
  // The max edge is a ceiling: the tile holding pixel px1 - 1 is the last one;
  // to the right of every edge the winding is 0, so no tile is needed there.
  int tx1 = min((E.px1 + (CN_TILE - 1)) >> CN_TILE_SHIFT, int(cfg.tiles_x));
  int ty1 = min((E.py1 + (CN_TILE - 1)) >> CN_TILE_SHIFT, int(cfg.tiles_y));
  if (E.px1 < E.px0 || tx1 <= tx0 || ty1 <= ty0) {
    tx0 = ty0 = tx1 = ty1 = 0;
  }
  uint count = uint(tx1 - tx0) * uint(ty1 - ty0);
  uint off = 0;
  if (count > 0) {
    off = atomicAdd(cfg.bump.v.tiles, count);
    if (off > cfg.cap_tiles || count > cfg.cap_tiles - off) {
      atomicOr(cfg.bump.v.failed, CN_FAIL_TILES);
      tx0 = ty0 = tx1 = ty1 = 0;
      off = 0;
    }
  }
  eb.v[e].tx0 = tx0;
  eb.v[e].ty0 = ty0;
  eb.v[e].tx1 = tx1;
  eb.v[e].ty1 = ty1;
  eb.v[e].tile_off = off;
}
