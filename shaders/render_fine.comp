#version 460
// render_fine: one workgroup per tile; walks the tile's command list
// (render_coarse) and writes its pixels as RGBA8 sRGB with straight alpha.
// Only the tiles coarse listed in fine_tiles run here (an indirect dispatch;
// coarse wrote the pixels of tiles of a single colour); each workgroup takes
// list entries gl_WorkGroupID.x, + gl_NumWorkGroups.x, ..., the tiles with
// long lists first. The pipeline specialized with FINE_VL draws the second
// list instead, the very long lists coarse listed apart (a dispatch of its
// own, one pixel an invocation: render.c).
// FINE_PX pixels an invocation (render.c: for area coverage 2, or 4 where
// the runs are short (LOADS); 1 for supersampling): with two, an invocation
// draws two pixels of a column (rows r and r + CN_TILE / 2), reading the
// tile's pieces, commands and paints once for both, and half the
// invocations per tile let more tiles be resident per SM. Most tiles' time
// is the latency of their walk, so the tiles in flight set the pace (H200,
// area coverage: fine 10-23% faster on six of the ten real scenes and 31% on
// the 100 000-path scene; the longest walks, ni's, 14% slower). Four (rows
// r, r + 4, r + 8, r + 12) walk each list half as often again: the 100 000
// paths' fine 1.17 -> 1.09 ms, but where runs are long (the shuffle pipeline,
// 64 registers with four) the real scenes were up to 18% slower.
// Supersampling reads its pieces per sample row, not once per invocation,
// and is slower with two (docs/PERF.md).
//
// Coverage is the exact area integral of the winding number over the pixel
// square: the tile's backdrop, plus for each segment piece the integral over
// the pixel's row of "how much of the pixel lies right of the piece", plus the
// y edges (see render_tile_seg.comp), the pieces summed in fixed point so that
// their order (that of render_tile_seg's atomics) cannot change a bit.
// Nonzero takes min(|w|, 1), even-odd the distance of w to the nearest even
// integer (both exact for a single edge).
// With cn_render_config.aa == CN_AA_SS16 the coverage is 4x4 point samples
// instead (render_coverage_ss.glsl). The mode is also a specialization
// constant (FINE_AA, set from the view by render.c), so each pipeline holds
// only its own coverage code: the supersampler's registers would otherwise
// halve the area pipeline's occupancy.
//
// Colour is premultiplied sRGB floats. BEGIN_CLIP/BEGIN_BLEND push the current
// colour on a stack: CN_FINE_STACK_REGS levels in registers, deeper levels in
// the tile's spill memory (sized by coarse).
#include "render_common.glsl"
#include "render_blend.glsl"
#include "render_paint.glsl"
#include "render_coverage_ss.glsl"

layout(local_size_x_id = CN_SPEC_WG_SIZE) in; // CN_TILE_PIXELS / FINE_PX
layout(constant_id = CN_SPEC_FINE_AA) const uint FINE_AA = CN_AA_AREA;
layout(constant_id = CN_SPEC_FINE_RUNS) const uint FINE_RUNS = CN_FINE_RUNS_SHUFFLE;
layout(constant_id = CN_SPEC_FINE_PX) const uint FINE_PX = 2;
layout(constant_id = CN_SPEC_FINE_VL) const uint FINE_VL = 0;
// With FINE_PX pixels an invocation (1, 2 or 4), invocation lid has local
// pixels lid + k * FINE_SPAN (FINE_ROWS rows apart) for k < FINE_PX; the
// per-pixel values are arrays of PX_MAX, and the specialization drops the
// steps of the pixels a pipeline does not have.
#define PX_MAX 4
// EACH_PX(S) runs statement S for each pixel k, written out rather than a
// loop, so that every array indexed by k is indexed by a constant and stays
// in registers (a loop left to the driver to unroll put them in local
// memory: fine 3.5 times as long on the H200); ALL_PX for every element.
#define PX_STEP(K, S) { const uint k = K; S; }
#define EACH_PX(S) { PX_STEP(0u, S) if (FINE_PX > 1u) PX_STEP(1u, S) if (FINE_PX > 2u) { PX_STEP(2u, S) PX_STEP(3u, S) } }
#define ALL_PX(S) { PX_STEP(0u, S) PX_STEP(1u, S) PX_STEP(2u, S) PX_STEP(3u, S) }
const uint FINE_ROWS = CN_TILE / FINE_PX;
const uint FINE_SPAN = CN_TILE_PIXELS / FINE_PX;


CnRenderConfig cfg;
uint tile;
vec4 regs[CN_FINE_STACK_REGS * PX_MAX]; // level d of pixel k: regs[d * FINE_PX + k]
uint depth;
uint spill_base;

// Spilled level d of local pixel p lives at spill[(spill_base + d - REGS) *
// CN_TILE_PIXELS + p]; a level coarse could not allocate (spill_base
// CN_NONE, frame re-run) is dropped.
bool spill_ok(uint d) { return spill_base != CN_NONE && spill_base + d - CN_FINE_STACK_REGS < cfg.cap_spill; }

void push(vec4 a[PX_MAX]) {
  if (depth < CN_FINE_STACK_REGS) {
    EACH_PX(regs[depth * FINE_PX + k] = a[k]);
  } else if (spill_ok(depth)) {
    uint at = (spill_base + depth - CN_FINE_STACK_REGS) * CN_TILE_PIXELS + gl_LocalInvocationID.x;
    EACH_PX(cfg.spill.v[at + k * FINE_SPAN] = a[k]);
  }
  depth++;
}

void pop(out vec4 a[PX_MAX]) {
  ALL_PX(a[k] = vec4(0.0));
  if (depth == 0) return;
  depth--;
  if (depth < CN_FINE_STACK_REGS) {
    EACH_PX(a[k] = regs[depth * FINE_PX + k]);
  } else if (spill_ok(depth)) {
    uint at = (spill_base + depth - CN_FINE_STACK_REGS) * CN_TILE_PIXELS + gl_LocalInvocationID.x;
    EACH_PX(a[k] = cfg.spill.v[at + k * FINE_SPAN]);
  }
}

// Antiderivative of f(t) = clamp(1 - t, 0, 1).
float H(float t) { return t < 0.0 ? t : (t < 1.0 ? t - 0.5 * t * t : 0.5); }

// The signed area one piece (p: x0, y0, x1, y1; e: yedge, yedge_sign times
// PIECE_ONE) adds to the winding integral over local pixel (px, py), in units
// of 2^-20 of a pixel, added to PIECE_BASE: the sum, in [2^23, 2^24) where
// the float's ulp is 1, rounds to an integer at each of its (at most two)
// additions, so its bits less PIECE_BITS0 are the piece's area as an integer
// that depends on nothing but the piece and the pixel. A run's pieces sum
// those bits as uint, and one subtraction gives the run's integer: exact up
// to PIECE_RUN pieces (their sum stays inside 31 bits, |area| <= 2); a longer
// run (which could only reach that by winding a pixel more than a thousand
// times) adds each subgroup's or PIECE_RUN pieces' integer into 64 bits.
const float PIECE_ONE = 1048576.0;    // 2^20
const float PIECE_BASE = 12582912.0;  // 1.5 * 2^23
const uint PIECE_BITS0 = 0x4B400000u; // floatBitsToUint(PIECE_BASE)
const uint PIECE_RUN = 1023u;
uint piece_bits(vec4 p, vec2 e, float px, float py) {
  float area = PIECE_BASE;
  // y edge: the winding below yedge changes by yedge_sign (at x = 0, left of every pixel)
  if (e.x < float(CN_TILE)) area += e.y * clamp(py + 1.0 - max(e.x, py), 0.0, 1.0);
  if (p.y != p.w) {
    float sgn = p.w > p.y ? PIECE_ONE : -PIECE_ONE;
    vec2 a = p.w > p.y ? p.xy : p.zw;
    vec2 b = p.w > p.y ? p.zw : p.xy;
    float yt = max(a.y, py), yb = min(b.y, py + 1.0);
    if (yb > yt) {
      float k = (b.x - a.x) / (b.y - a.y);
      float ta = a.x + (yt - a.y) * k - px;
      float tb = a.x + (yb - a.y) * k - px;
      float avg;
      if (abs(tb - ta) > 1e-4) avg = (H(tb) - H(ta)) / (tb - ta);
      else avg = clamp(1.0 - 0.5 * (ta + tb), 0.0, 1.0);
      area += sgn * (yb - yt) * avg;
    }
  }
  return floatBitsToUint(area);
}

// The coverage that an area sum gives under the fill rule.
float rule_cover(float area, uint rule) {
  if (rule == CN_RULE_EVENODD) return clamp(abs(area - 2.0 * round(0.5 * area)), 0.0, 1.0);
  return min(abs(area), 1.0);
}

// Coverage of the invocation's pixels by a tile path whose pieces are the
// records first .. first + count - 1 (one run: render_tile_seg): cov[k] of
// local pixel (px, py + k * FINE_ROWS) for k < FINE_PX, the others 0. Every
// pixel needs every piece. FINE_RUNS picks how they are read (one pipeline
// each, so neither carries the other's code):
//   CN_FINE_RUNS_SHUFFLE: each subgroup loads a subgroup's width of pieces at
//     once, one per invocation, and hands them round with shuffles: one memory
//     round trip per subgroup width (the tile's command list is the same for
//     the whole workgroup, so every invocation of the subgroup is here);
//   CN_FINE_RUNS_LOADS: every invocation loads each piece in turn (the loads
//     of a subgroup are one broadcast): 2 loads a piece instead of 6 shuffles,
//     faster where most runs are a piece or two.
// render.c takes LOADS when fewer than 1 in 16 of the previous frame's pieces
// lay in runs of CN_FINE_LONG_RUN or more (a 100 000-path scene of small
// circles: 1.4%, where LOADS is 11% faster; the real scenes: 5-74%, and where
// the share is 15% or more SHUFFLE is up to 40% faster: docs/PERF.md). Both
// sum integers (piece_bits): the order of the pieces changes no bit.
// Staging them in shared memory instead took two barriers per FILL and 6
// more registers (docs/PERF.md).
void coverage(uint first, uint count, int backdrop, uint rule, float px, float py, out float cov[PX_MAX]) {
  first = min(first, cfg.cap_segs);
  uint end = first + min(count, cfg.cap_segs - first);
  SegBuf sb = cfg.segs;
  ALL_PX(cov[k] = 0.0);
  if (FINE_AA == CN_AA_SS16) {
    // supersampled, unless coarse asked for area coverage (a hairline stroke)
    if ((rule & CN_FILL_AREA) == 0) {
      LineBuf lb = cfg.lines;
      ivec2 pixel = ivec2(tile % cfg.tiles_x, tile / cfg.tiles_x) * CN_TILE + ivec2(px, py);
      EACH_PX(cov[k] = cn_coverage_ss16(sb, lb, first, end, backdrop, rule, px, py + float(k * FINE_ROWS),
                                        pixel + ivec2(0, k * FINE_ROWS)));
      return;
    }
    rule &= ~CN_FILL_AREA;
  }
  // The pieces' areas are summed in fixed point (2^-20 of a pixel,
  // piece_bits): the order of a tile's pieces is the order of
  // render_tile_seg's atomics, which changes from frame to frame on a GPU,
  // and a float sum would follow it into the last bit of a pixel; an
  // integer sum is the same in any order.
  bool long_run = end - first > PIECE_RUN;
  uint bits[PX_MAX];
  int64_t big[PX_MAX];
  ALL_PX(bits[k] = 0u; big[k] = 0);
  // piece (p, e) added to each pixel's sum; the sums of n pieces moved into
  // the 64-bit sums (a long run)
#define ADD_PIECE(p, e) EACH_PX(bits[k] += piece_bits(p, e, px, py + float(k * FINE_ROWS)))
#define FLUSH_PIECES(n) EACH_PX(big[k] += int(bits[k] - (n) * PIECE_BITS0); bits[k] = 0u)
  if (FINE_RUNS == CN_FINE_RUNS_LOADS) {
    if (!long_run) {
      for (uint s = first; s < end; s++) {
        cn_render_seg q = sb.v[s];
        vec4 p = vec4(q.x0, q.y0, q.x1, q.y1);
        vec2 e = vec2(q.yedge, q.yedge_sign * PIECE_ONE);
        ADD_PIECE(p, e);
      }
    } else {
      for (uint base = first; base < end; base += PIECE_RUN) {
        uint n = min(end - base, PIECE_RUN);
        for (uint j = 0u; j < n; j++) {
          cn_render_seg q = sb.v[base + j];
          vec4 p = vec4(q.x0, q.y0, q.x1, q.y1);
          vec2 e = vec2(q.yedge, q.yedge_sign * PIECE_ONE);
          ADD_PIECE(p, e);
        }
        FLUSH_PIECES(n);
      }
    }
  } else {
    uint li = gl_SubgroupInvocationID, sg = gl_SubgroupSize;
    for (uint base = first; base < end; base += sg) {
      uint n = min(end - base, sg);
      vec4 mp = vec4(0.0);
      vec2 me = vec2(1e9, 0.0);
      if (li < n) {
        cn_render_seg q = sb.v[base + li];
        mp = vec4(q.x0, q.y0, q.x1, q.y1);
        me = vec2(q.yedge, q.yedge_sign * PIECE_ONE);
      }
      for (uint j = 0; j < n; j++) {
        vec4 p = subgroupShuffle(mp, j);
        vec2 e = subgroupShuffle(me, j);
        ADD_PIECE(p, e);
      }
      if (long_run) FLUSH_PIECES(n);
    }
  }
  uint n_all = end - first;
  EACH_PX(float pieces = long_run ? float(big[k]) : float(int(bits[k] - n_all * PIECE_BITS0));
          cov[k] = rule_cover(float(backdrop) + pieces * (1.0 / PIECE_ONE), rule));
}

// A paint c (premultiplied) over rgba.
vec4 over(vec4 c, vec4 rgba) { return c + rgba * (1.0 - c.a); }

// END_BLEND of one pixel: rgba is the group's layer, saved the backdrop below
// it; a mask leaves its coverage in mask (to be pushed) and the backdrop in
// rgba; a masked group is scaled by its mask's coverage m.
vec4 end_blend(cn_blend bl, vec4 rgba, vec4 saved, float m) {
  float alpha = clamp(bl.alpha, 0.0, 1.0);
  return cn_blend_over(bl.mode, saved, rgba * alpha * m);
}

float mask_cover(cn_blend bl, vec4 rgba) {
  float m = (bl.flags & CN_BLEND_MASK_LUMINANCE) != 0 ? dot(clamp(rgba.rgb, 0.0, 1.0), vec3(0.2125, 0.7154, 0.0721))
                                                      : rgba.a;
  return clamp(m * clamp(bl.alpha, 0.0, 1.0), 0.0, 1.0);
}

void draw_tile() {
  uint lid = gl_LocalInvocationID.x;
  uint tx = tile % cfg.tiles_x, ty = tile / cfg.tiles_x;
  float lx = float(lid % CN_TILE), ly = float(lid / CN_TILE);
  uint x = tx * CN_TILE + lid % CN_TILE, y = ty * CN_TILE + lid / CN_TILE; // pixel 0 (pixel k: FINE_ROWS * k below)
  vec2 centre = vec2(float(x) + 0.5, float(y) + 0.5);

  cn_render_ptile pt = cfg.ptiles.v[tile];
  spill_base = pt.spill_off;
  depth = 0;
  vec4 rgba[PX_MAX], saved[PX_MAX];
  ALL_PX(rgba[k] = vec4(0.0));
  CmdBuf cmds = cfg.cmds;
  uint pos = tile * CN_CMD_CHUNK;
  uint limit = (cfg.tiles_x * cfg.tiles_y + cfg.cap_chunks) * CN_CMD_CHUNK;
  for (uint steps = 0; pos < limit && steps < limit; steps++) {
    uint tag = cmds.v[pos];
    if (tag == CN_CMD_END) break;
    if (tag == CN_CMD_JUMP) {
      pos = cmds.v[pos + 1];
    } else if (tag >= CN_CMD_FILL && tag <= CN_CMD_SOLID_GRADIENT) {
      // a draw: its coverage and its paint in one command, so one tag (a
      // load the next command's waits on) a draw
      float cov[PX_MAX];
      ALL_PX(cov[k] = 1.0);
      uint at = pos + 1;
      if ((tag & 1u) == 0u) { // FILL, FILL_GRADIENT
        coverage(cmds.v[at], cmds.v[at + 1], int(cmds.v[at + 2]), cmds.v[at + 3], lx, ly, cov);
        at += 4;
      }
      if (tag < CN_CMD_FILL_GRADIENT) {
        vec4 c = uintBitsToFloat(uvec4(cmds.v[at], cmds.v[at + 1], cmds.v[at + 2], cmds.v[at + 3]));
        EACH_PX(rgba[k] = over(c * cov[k], rgba[k]));
        pos = at + 4;
      } else {
        uint pi = cmds.v[at];
        float f = uintBitsToFloat(cmds.v[at + 1]);
        EACH_PX(rgba[k] = over(cn_gradient(cfg, pi, centre + vec2(0.0, float(k * FINE_ROWS))) * (cov[k] * f), rgba[k]));
        pos = at + 2;
      }
    } else if (tag == CN_CMD_BEGIN_CLIP || tag == CN_CMD_BEGIN_BLEND) {
      push(rgba);
      ALL_PX(rgba[k] = vec4(0.0));
      pos += 1;
    } else if (tag == CN_CMD_END_CLIP) {
      float m[PX_MAX];
      coverage(cmds.v[pos + 1], cmds.v[pos + 2], int(cmds.v[pos + 3]), cmds.v[pos + 4], lx, ly, m);
      pop(saved);
      EACH_PX(rgba[k] = over(rgba[k] * m[k], saved[k]));
      pos += 5;
    } else if (tag == CN_CMD_END_BLEND) {
      // the blend comes in the command's words (coarse read its record once
      // per bin): no load that waits on the list (the 100 000 paths' fine
      // 1.33 -> 1.24 ms on the H200, docs/PERF.md)
      uint w = cmds.v[pos + 1];
      cn_blend bl;
      bl.mode = w & 0xFFu;
      bl.flags = w >> 8;
      bl.alpha = uintBitsToFloat(cmds.v[pos + 2]);
      pop(saved);
      if ((bl.flags & (CN_BLEND_MASK_LUMINANCE | CN_BLEND_MASK_ALPHA)) != 0) {
        // a mask: its coverage waits on the stack for the masked group
        vec4 m[PX_MAX];
        ALL_PX(m[k] = vec4(0.0));
        EACH_PX(m[k] = vec4(mask_cover(bl, rgba[k])); rgba[k] = saved[k]);
        push(m);
      } else {
        vec4 mask[PX_MAX];
        ALL_PX(mask[k] = vec4(1.0));
        if ((bl.flags & CN_BLEND_MASKED) != 0) pop(mask);
        EACH_PX(rgba[k] = end_blend(bl, rgba[k], saved[k], mask[k].x));
      }
      pos += 3;
    } else if (tag == CN_CMD_POP) {
      pop(saved);
      pos += 1;
    } else {
      break; // unknown command: a bug; stop rather than run away
    }
  }
  vec4 bg = vec4(cfg.background[0], cfg.background[1], cfg.background[2], cfg.background[3]);
  EACH_PX(uint yk = y + k * FINE_ROWS;
          if (x < cfg.width && yk < cfg.height) cfg.target.v[yk * cfg.out_stride + x] = cn_pack_straight(over(rgba[k], bg)));
}

void main() {
  cfg = pc.config;
  uint ntiles = cfg.tiles_x * cfg.tiles_y;
  FineListBuf list = cfg.fine_tiles;
  // The long lists from the front of the list, then the short ones from its
  // back; with FINE_VL the second list, the very long lists coarse listed
  // apart (a constant: each pipeline holds only its own selection).
  const bool vl = FINE_VL != 0u;
  uint count = min(list.v[vl ? CN_FINE_LIST_VL : CN_FINE_LIST_COUNT], ntiles);
  uint nlong = vl ? count : min(list.v[CN_FINE_LIST_LONG], count);
  uint front = CN_FINE_LIST_FIRST + (vl ? ntiles : 0u);
  for (uint i = gl_WorkGroupID.x; i < count; i += gl_NumWorkGroups.x) {
    tile = list.v[i < nlong ? front + i : CN_FINE_LIST_FIRST + ntiles - 1u - (i - nlong)];
    if (tile < ntiles) draw_tile();
  }
}
