// render_coverage_ss.glsl: the supersampled coverage of render_fine.comp
// (cn_render_config.aa == CN_AA_SS16), from the same tile data as the exact
// area coverage (backdrop, y edges, pieces; see render_tile_seg.comp).
//
// A pixel holds 4x4 samples at (px + (i + 0.5)/4, py + (j + 0.5)/4), counted
// as Skia's supersampling scan converter counts them (tiny-skia at shift 2,
// resvg's rasterizer): a line is active on the sample rows whose centre lies
// in (y_top, y_bottom] (its ends rounded half up to sub-rows), its x on a row
// is Skia's fixed-point x there (cn_ss_edge) rounded half up, and it adds its
// direction to the samples at or right of that column. The pieces come from
// the line snapped as Skia snaps it (cn_ss_snap in render_tile_seg.comp), so
// its rounded x stays within half a sample of the piece. Sample centres are
// never on a tile's edge; the winding at a sample is the tile's backdrop,
// the y edges strictly above it, and the pieces active on its row: the same
// conventions, so the sum is Skia's winding for every closed path.
//
// Nonzero covers a sample with w != 0, even-odd with w odd. The alpha is
// Skia's accumulation: each sample row adds 16 per covered sample, a fully
// covered row 64 (63 for the last row of the pixel), so 16 of 16 is 255.
#ifndef CN_RENDER_COVERAGE_SS_GLSL
#define CN_RENDER_COVERAGE_SS_GLSL

// Skia's edge for a line (tiny-skia's LineEdge::new at supersampling shift
// 2): the ends in 26.6 fixed point of sub-sample units (truncated toward
// zero), the slope dx in 16.16 per sub-row, and x in 16.16 at the centre of
// sub-row `top`; x on sub-row J is x + (J - top) * dx, rounded half up to a
// sample column L (the samples from L on are right of the edge). In 64 bits,
// so lines reaching far outside the target do not wrap (Skia clips those
// first). False for an edge with no sub-row (Skia drops it).
bool cn_ss_edge(cn_render_line l, out int64_t x, out int64_t dx, out int top) {
  const float lim = 2147483520.0; // Rust's `as i32` saturates
  ivec4 q = ivec4(clamp(vec4(l.x0, l.y0, l.x1, l.y1) * 256.0, vec4(-lim), vec4(lim)));
  i64vec4 p = i64vec4(q);
  if (p.y > p.w) p = p.zwxy;
  int64_t den = p.w - p.y;
  if (den == 0) return false;
  top = int((p.y + 32) >> 6);
  int64_t num = (p.z - p.x) << 16;
  int64_t mag = (num < 0 ? -num : num) / den; // truncation toward zero
  dx = num < 0 ? -mag : mag;
  dx = dx < -2147483648l ? -2147483648l : (dx > 2147483647l ? 2147483647l : dx);
  int64_t dy = (int64_t(top) << 6) + 32 - p.y;
  x = (p.x + ((dx * dy) >> 16)) << 10;
  return true;
}

// The sample columns right of an edge at x (16.16) on one sample row, from
// absolute sample column i0: sgn added to those at or past the rounded x.
ivec4 cn_ss_cross(int64_t x, int i0, int sgn) {
  int64_t l = (x + 0x8000) >> 16;
  int c = int(l < -2147483648l ? -2147483648l : (l > 2147483647l ? 2147483647l : l));
  return sgn * ivec4(greaterThanEqual(ivec4(i0) + ivec4(0, 1, 2, 3), ivec4(c)));
}

// Alpha units (0..255) of one sample row of windings w.
int cn_ss_row(ivec4 w, ivec4 m, int last) {
  ivec4 c = ivec4(notEqual(w & m, ivec4(0)));
  int n = c.x + c.y + c.z + c.w;
  return n == 4 ? 64 - last : 16 * n;
}

// Coverage of tile-local pixel (px, py), at absolute pixel `pixel`, of the
// tile path whose pieces are the records first .. end - 1.
float cn_coverage_ss16(SegBuf sb, LineBuf lb, uint first, uint end, int backdrop, uint rule, float px, float py,
                       ivec2 pixel) {
  const vec4 offs = vec4(0.125, 0.375, 0.625, 0.875);
  vec4 sy = py + offs;
  int i0 = pixel.x * 4, j0 = pixel.y * 4; // absolute sample column and row of sample (0, 0)
  ivec4 w0 = ivec4(backdrop), w1 = w0, w2 = w0, w3 = w0; // rows j = 0..3, samples i in .xyzw
  for (uint s = first; s < end; s++) {
    cn_render_seg g = sb.v[s];
    if (g.yedge < float(CN_TILE)) {
      // the winding at the tile's left edge changes strictly below yedge
      ivec4 e = int(g.yedge_sign) * ivec4(greaterThan(sy, vec4(g.yedge)));
      w0 += e.x;
      w1 += e.y;
      w2 += e.z;
      w3 += e.w;
    }
    if (g.y0 == g.y1) continue;
    // the rows whose centre lies in the piece's (y_top, y_bottom]
    float yt = min(g.y0, g.y1), yb = max(g.y0, g.y1);
    bvec4 on = bvec4(uvec4(greaterThan(sy, vec4(yt))) & uvec4(lessThanEqual(sy, vec4(yb))));
    if (!any(on)) continue;
    int64_t x, dx;
    int top;
    if (!cn_ss_edge(lb.v[g.line], x, dx, top)) continue;
    int sgn = g.y1 > g.y0 ? 1 : -1;
    x += int64_t(j0 - top) * dx;
    if (on.x) w0 += cn_ss_cross(x, i0, sgn);
    if (on.y) w1 += cn_ss_cross(x + dx, i0, sgn);
    if (on.z) w2 += cn_ss_cross(x + 2 * dx, i0, sgn);
    if (on.w) w3 += cn_ss_cross(x + 3 * dx, i0, sgn);
  }
  // covered: (w & m) != 0, m = 1 (parity) for even-odd, -1 (w itself) for nonzero
  ivec4 m = ivec4(rule == CN_RULE_EVENODD ? 1 : -1);
  int alpha = cn_ss_row(w0, m, 0) + cn_ss_row(w1, m, 0) + cn_ss_row(w2, m, 0) + cn_ss_row(w3, m, 1);
  return alpha >= 255 ? 1.0 : float(alpha) / 255.0;
}

#endif
