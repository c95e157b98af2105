#version 460
// render_solid: the pixels of the tiles of one colour. render_coarse marks a
// tile whose command list leaves a single colour (empty: the background; one
// SOLID with an opaque COLOR) in its cn_render_ptile (depth CN_PTILE_ONE,
// spill_off the RGBA8 word) and leaves it out of fine's list; this pass
// writes those pixels. It runs after coarse with no barrier before fine, so
// its stores (up to the whole target: 33 MB at 3840x2160) overlap fine's
// work on the other tiles; the two write disjoint pixels.
//
// One workgroup per bin column (CN_BIN tiles across, 128 pixels) and tile
// row: each invocation takes one pixel column and writes the tile's CN_TILE
// rows, so each store of the workgroup is one contiguous pixel row.
#include "render_common.glsl"

layout(local_size_x = CN_BIN * CN_TILE) in; // a bin's width, one invocation per pixel column

void main() {
  CnRenderConfig cfg = pc.config;
  uint g = cn_group_id();
  uint bx = g % cfg.bins_x, ty = g / cfg.bins_x;
  if (ty >= cfg.tiles_y) return;
  uint x = bx * (CN_BIN * CN_TILE) + gl_LocalInvocationID.x;
  if (x >= cfg.width) return;
  cn_render_ptile pt = cfg.ptiles.v[ty * cfg.tiles_x + x / CN_TILE];
  if (pt.depth != CN_PTILE_ONE) return;
  uint y0 = ty * CN_TILE, y1 = min(y0 + CN_TILE, cfg.height);
  for (uint y = y0; y < y1; y++) cfg.target.v[y * cfg.out_stride + x] = pt.spill_off;
}
