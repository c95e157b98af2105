#version 460
// render_tile_alloc: per element that has geometry (FILL, STROKE, BEGIN_CLIP),
// turns its pixel box into a tile rectangle clamped to the target and
// bump-allocates one cn_render_tile per tile of it (the host zeroed them).
// The box: the flatten stage's box of the element's lines when given
// (cfg.flat_elems), else render_bbox's; bounded by the scene stage's result
// box when given (cfg.result_boxes: the draw intersected with its clips and
// the target; for a BEGIN_CLIP the union of what it clips), grown by a pixel
// so that float rounding between the stages never cuts a line's tile. Lines
// left of the rectangle still reach it through the backdrop and the y edges
// (render_tile_seg), lines right of it do not matter, rows outside it are not
// drawn: a clipped element allocates tiles only inside its clips, and an
// element whose result box is empty allocates none.
// Past cap_tiles the element keeps its rectangle without storage (tile_off =
// CN_NONE: later passes count what it needs and write nothing) and
// CN_FAIL_TILES is set; the tile count stays exact.
// With cfg.flat_work, flatten left its last step to this pass
// (cn_flatten_args.caller_finish): each invocation first finishes its
// element's cn_flatten_elem (flatten_finish.glsl, every element), then takes
// the box from registers.
#include "render_common.glsl"
#include "flatten_finish.glsl"

layout(constant_id = CN_SPEC_WG_SIZE) const uint WG_SIZE = 256;
layout(local_size_x_id = CN_SPEC_WG_SIZE) in;

// Pixel coordinates are clamped to +-2^24 so the integer conversion is defined.
const float LIM = 16777216.0;

void main() {
  CnRenderConfig cfg = pc.config;
  uint e = cn_group_id() * WG_SIZE + gl_LocalInvocationID.x;
  bool finish = uint64_t(cfg.flat_work) != 0ul;
  uint f_count = 0u;
  vec4 f_box = vec4(0.0);
  if (finish) {
    uint f_first;
    fl_finish_element(uint64_t(cfg.flat_work), uint64_t(cfg.flat_elems), cfg.n_elements, cfg.cap_lines, e, f_first,
                      f_count, f_box);
  }
  if (e == 0) cfg.bump.v.lines = cn_line_count(cfg); // for the host's statistics
  if (e >= cfg.n_elements) return;
  uint tag = cfg.elements.v[e].tag;
  if (tag != CN_TAG_FILL && tag != CN_TAG_STROKE && tag != CN_TAG_BEGIN_CLIP) return;
  ElemBuf eb = cfg.elem;
  ivec4 px; // pixel box: floor of min, ceil of max
  bool empty;
  if (uint64_t(cfg.flat_elems) != 0ul) {
    if (!finish) {
      cn_render_flat_elem f = cfg.flat_elems.v[e];
      f_count = f.count;
      f_box = vec4(f.x0, f.y0, f.x1, f.y1);
    }
    vec4 b = clamp(f_box, -LIM, LIM);
    empty = f_count == 0u || any(isnan(b));
    px = empty ? ivec4(0) : ivec4(floor(b.xy), ceil(b.zw));
  } else {
    cn_render_elem E = eb.v[e];
    px = ivec4(E.px0, E.py0, E.px1, E.py1);
    empty = E.px1 < E.px0;
  }
  if (uint64_t(cfg.result_boxes) != 0ul && !empty) {
    vec4 r = cfg.result_boxes.v[e];
    if (!(r.z > r.x && r.w > r.y) || any(isnan(r))) {
      empty = true;
    } else {
      r = clamp(r, -LIM, LIM);
      px = ivec4(max(px.xy, ivec2(floor(r.xy)) - 1), min(px.zw, ivec2(ceil(r.zw)) + 1));
      empty = px.z < px.x || px.w < px.y;
    }
  }
  int tx0 = max(px.x >> CN_TILE_SHIFT, 0), ty0 = max(px.y >> CN_TILE_SHIFT, 0);
  // The max edge is a ceiling: the tile holding pixel px1 - 1 is the last one;
  // to the right of every edge the winding is 0, so no tile is needed there.
  int tx1 = min((px.z + (CN_TILE - 1)) >> CN_TILE_SHIFT, int(cfg.tiles_x));
  int ty1 = min((px.w + (CN_TILE - 1)) >> CN_TILE_SHIFT, int(cfg.tiles_y));
  if (empty || tx1 <= tx0 || ty1 <= ty0) {
    tx0 = ty0 = tx1 = ty1 = 0;
  }
  uint count = uint(tx1 - tx0) * uint(ty1 - ty0);
  uint off = 0;
  if (count > 0) {
    off = atomicAdd(cfg.bump.v.tiles, count);
    if (off > cfg.cap_tiles || count > cfg.cap_tiles - off) {
      atomicOr(cfg.bump.v.failed, CN_FAIL_TILES);
      off = CN_NONE;
    }
  }
  eb.v[e].tx0 = tx0;
  eb.v[e].ty0 = ty0;
  eb.v[e].tx1 = tx1;
  eb.v[e].ty1 = ty1;
  eb.v[e].tile_off = off;
}
