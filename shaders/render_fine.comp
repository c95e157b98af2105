#version 460
// render_fine: one workgroup per tile, one invocation per pixel; walks the
// tile's command list (render_coarse) and writes the pixel as RGBA8 sRGB with
// straight alpha. Only the tiles coarse listed in fine_tiles run here (an
// indirect dispatch; coarse wrote the pixels of tiles of a single colour);
// each workgroup takes list entries gl_WorkGroupID.x, + gl_NumWorkGroups.x, ...,
// the tiles with long lists first.
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

layout(local_size_x = CN_TILE_PIXELS) in;
layout(constant_id = CN_SPEC_FINE_AA) const uint FINE_AA = CN_AA_AREA;
layout(constant_id = CN_SPEC_FINE_RUNS) const uint FINE_RUNS = CN_FINE_RUNS_SHUFFLE;


CnRenderConfig cfg;
uint tile;
vec4 regs[CN_FINE_STACK_REGS];
uint depth;
uint spill_base;

// Spilled level d lives at spill[(spill_base + d - REGS) * CN_TILE_PIXELS + pixel];
// a level coarse could not allocate (spill_base CN_NONE, frame re-run) is dropped.
bool spill_ok(uint d) { return spill_base != CN_NONE && spill_base + d - CN_FINE_STACK_REGS < cfg.cap_spill; }

void push(vec4 v) {
  if (depth < CN_FINE_STACK_REGS) regs[depth] = v;
  else if (spill_ok(depth))
    cfg.spill.v[(spill_base + depth - CN_FINE_STACK_REGS) * CN_TILE_PIXELS + gl_LocalInvocationID.x] = v;
  depth++;
}

vec4 pop() {
  if (depth == 0) return vec4(0.0);
  depth--;
  if (depth < CN_FINE_STACK_REGS) return regs[depth];
  if (!spill_ok(depth)) return vec4(0.0);
  return cfg.spill.v[(spill_base + depth - CN_FINE_STACK_REGS) * CN_TILE_PIXELS + gl_LocalInvocationID.x];
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

// Coverage at local pixel (px, py) of a tile path whose pieces are the
// records first .. first + count - 1 (one run: render_tile_seg). Every pixel
// needs every piece. FINE_RUNS picks how they are read (one pipeline each,
// so neither carries the other's code):
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
float coverage(uint first, uint count, int backdrop, uint rule, float px, float py) {
  first = min(first, cfg.cap_segs);
  uint end = first + min(count, cfg.cap_segs - first);
  SegBuf sb = cfg.segs;
  if (FINE_AA == CN_AA_SS16) {
    // supersampled, unless coarse asked for area coverage (a hairline stroke)
    if ((rule & CN_FILL_AREA) == 0) {
      LineBuf lb = cfg.lines;
      ivec2 pixel = ivec2(tile % cfg.tiles_x, tile / cfg.tiles_x) * CN_TILE + ivec2(px, py);
      return cn_coverage_ss16(sb, lb, first, end, backdrop, rule, px, py, pixel);
    }
    rule &= ~CN_FILL_AREA;
  }
  // The pieces' areas are summed in fixed point (2^-20 of a pixel,
  // piece_bits): the order of a tile's pieces is the order of
  // render_tile_seg's atomics, which changes from frame to frame on a GPU,
  // and a float sum would follow it into the last bit of a pixel; an
  // integer sum is the same in any order.
  bool long_run = end - first > PIECE_RUN;
  uint bits = 0u;
  int64_t big = 0;
  if (FINE_RUNS == CN_FINE_RUNS_LOADS) {
    if (!long_run) {
      for (uint s = first; s < end; s++) {
        cn_render_seg q = sb.v[s];
        bits += piece_bits(vec4(q.x0, q.y0, q.x1, q.y1), vec2(q.yedge, q.yedge_sign * PIECE_ONE), px, py);
      }
    } else {
      for (uint base = first; base < end; base += PIECE_RUN) {
        uint n = min(end - base, PIECE_RUN);
        for (uint j = 0u; j < n; j++) {
          cn_render_seg q = sb.v[base + j];
          bits += piece_bits(vec4(q.x0, q.y0, q.x1, q.y1), vec2(q.yedge, q.yedge_sign * PIECE_ONE), px, py);
        }
        big += int(bits - n * PIECE_BITS0);
        bits = 0u;
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
      for (uint j = 0; j < n; j++) bits += piece_bits(subgroupShuffle(mp, j), subgroupShuffle(me, j), px, py);
      if (long_run) {
        big += int(bits - n * PIECE_BITS0);
        bits = 0u;
      }
    }
  }
  float pieces = float(int(bits - (end - first) * PIECE_BITS0));
  if (long_run) pieces = float(big);
  float area = float(backdrop) + pieces * (1.0 / PIECE_ONE);
  if (rule == CN_RULE_EVENODD) return clamp(abs(area - 2.0 * round(0.5 * area)), 0.0, 1.0);
  return min(abs(area), 1.0);
}

void draw_tile() {
  uint lid = gl_LocalInvocationID.x;
  uint tx = tile % cfg.tiles_x, ty = tile / cfg.tiles_x;
  float lx = float(lid % CN_TILE), ly = float(lid / CN_TILE);
  uint x = tx * CN_TILE + lid % CN_TILE, y = ty * CN_TILE + lid / CN_TILE;
  vec2 centre = vec2(float(x) + 0.5, float(y) + 0.5);

  cn_render_ptile pt = cfg.ptiles.v[tile];
  spill_base = pt.spill_off;
  depth = 0;
  vec4 rgba = vec4(0.0);
  float cov = 0.0;
  CmdBuf cmds = cfg.cmds;
  uint pos = tile * CN_CMD_CHUNK;
  uint limit = (cfg.tiles_x * cfg.tiles_y + cfg.cap_chunks) * CN_CMD_CHUNK;
  for (uint steps = 0; pos < limit && steps < limit; steps++) {
    uint tag = cmds.v[pos];
    if (tag == CN_CMD_END) break;
    if (tag == CN_CMD_JUMP) {
      pos = cmds.v[pos + 1];
    } else if (tag == CN_CMD_FILL) {
      cov = coverage(cmds.v[pos + 1], cmds.v[pos + 2], int(cmds.v[pos + 3]), cmds.v[pos + 4], lx, ly);
      pos += 5;
    } else if (tag == CN_CMD_SOLID) {
      cov = 1.0;
      pos += 1;
    } else if (tag == CN_CMD_COLOR) {
      vec4 c = uintBitsToFloat(uvec4(cmds.v[pos + 1], cmds.v[pos + 2], cmds.v[pos + 3], cmds.v[pos + 4]));
      c *= cov;
      rgba = c + rgba * (1.0 - c.a);
      pos += 5;
    } else if (tag == CN_CMD_GRADIENT) {
      vec4 c = cn_gradient(cfg, cmds.v[pos + 1], centre) * (cov * uintBitsToFloat(cmds.v[pos + 2]));
      rgba = c + rgba * (1.0 - c.a);
      pos += 3;
    } else if (tag == CN_CMD_BEGIN_CLIP) {
      push(rgba);
      rgba = vec4(0.0);
      pos += 1;
    } else if (tag == CN_CMD_END_CLIP) {
      float m = coverage(cmds.v[pos + 1], cmds.v[pos + 2], int(cmds.v[pos + 3]), cmds.v[pos + 4], lx, ly);
      vec4 saved = pop();
      vec4 c = rgba * m;
      rgba = c + saved * (1.0 - c.a);
      pos += 5;
    } else if (tag == CN_CMD_BEGIN_BLEND) {
      push(rgba);
      rgba = vec4(0.0);
      pos += 2;
    } else if (tag == CN_CMD_END_BLEND) {
      uint bi = cmds.v[pos + 1];
      cn_blend bl;
      bl.mode = CN_BLEND_NORMAL;
      bl.alpha = 1.0;
      bl.flags = 0;
      if (bi < cfg.blend_count) bl = cfg.blends.v[bi];
      float alpha = clamp(bl.alpha, 0.0, 1.0);
      vec4 saved = pop();
      if ((bl.flags & (CN_BLEND_MASK_LUMINANCE | CN_BLEND_MASK_ALPHA)) != 0) {
        // a mask: its coverage waits on the stack for the masked group
        float m = (bl.flags & CN_BLEND_MASK_LUMINANCE) != 0
                      ? dot(clamp(rgba.rgb, 0.0, 1.0), vec3(0.2125, 0.7154, 0.0721))
                      : rgba.a;
        rgba = saved;
        push(vec4(clamp(m * alpha, 0.0, 1.0)));
      } else {
        vec4 src = rgba * alpha;
        if ((bl.flags & CN_BLEND_MASKED) != 0) src *= pop().x;
        rgba = cn_blend_over(bl.mode, saved, src);
      }
      pos += 2;
    } else if (tag == CN_CMD_POP) {
      pop();
      pos += 1;
    } else {
      break; // unknown command: a bug; stop rather than run away
    }
  }
  vec4 bg = vec4(cfg.background[0], cfg.background[1], cfg.background[2], cfg.background[3]);
  rgba = rgba + bg * (1.0 - rgba.a);
  if (x < cfg.width && y < cfg.height) cfg.target.v[y * cfg.out_stride + x] = cn_pack_straight(rgba);
}

void main() {
  cfg = pc.config;
  uint ntiles = cfg.tiles_x * cfg.tiles_y;
  FineListBuf list = cfg.fine_tiles;
  uint count = min(list.v[CN_FINE_LIST_COUNT], ntiles), nlong = min(list.v[CN_FINE_LIST_LONG], count);
  for (uint i = gl_WorkGroupID.x; i < count; i += gl_NumWorkGroups.x) {
    // the long lists first (from the front of the list), then the short ones (from its back)
    tile = list.v[CN_FINE_LIST_FIRST + (i < nlong ? i : ntiles - 1u - (i - nlong))];
    if (tile < ntiles) draw_tile();
  }
}
