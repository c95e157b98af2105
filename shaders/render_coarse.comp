#version 460
// render_coarse: per-tile command lists, in draw order.
//
// One workgroup per bin of CN_BIN x CN_BIN tiles, one invocation per tile.
// The workgroup walks the element stream in blocks of CN_BIN_TILES elements:
// it keeps, in stream order, the elements whose tile rectangle meets the bin
// (clip and blend brackets are always kept), then every tile walks that list
// and appends its commands:
//   FILL/STROKE  coverage (FILL with its segment list, or SOLID when the tile
//                is inside the path) and its paint; nothing when outside.
//   BEGIN_CLIP   outside the clip path: everything up to the matching END_CLIP
//                is skipped ("zero depth"); inside: nothing (the END matches);
//                partly covered (or covered, but isolating a blend mode inside):
//                BEGIN_CLIP, and the END_CLIP carries the path.
//   BEGIN_BLEND/END_BLEND: always (a mask's END keeps its coverage on the stack
//                for the masked group after it, whose END pops both).
// An opaque solid fill of the whole tile at depth 0 drops what came before.
// Lists live in chunks (see cn_render_shared.h); past cap_chunks the list is
// cut and CN_FAIL_CMDS set. Stack levels past CN_FINE_STACK_REGS get spill
// memory, bump-allocated here (CN_FAIL_SPILL past cap_spill).
#include "render_common.glsl"

layout(local_size_x = CN_BIN_TILES) in;

#ifndef CN_BLEND_MASKED
#define CN_BLEND_MASKED (1u << 3)
#endif

shared uint sh_list[CN_BIN_TILES];
shared uint sh_scan[CN_BIN_TILES];

CnRenderConfig cfg;
CmdBuf cmds;
uint pos, chunk_end;
bool cut;

// Makes room for k more words (plus the two a JUMP needs) in the list.
bool reserve(uint k) {
  if (cut) return false;
  if (pos + k <= chunk_end) return true;
  uint c = atomicAdd(cfg.bump.v.chunks, 1);
  if (c >= cfg.cap_chunks) {
    atomicOr(cfg.bump.v.failed, CN_FAIL_CMDS);
    cut = true;
    return false;
  }
  uint next = (cfg.tiles_x * cfg.tiles_y + c) * CN_CMD_CHUNK;
  cmds.v[pos] = CN_CMD_JUMP;
  cmds.v[pos + 1] = next;
  pos = next;
  chunk_end = next + CN_CMD_CHUNK - 2;
  return true;
}

void put(uint w) { cmds.v[pos++] = w; }

// How a path element covers tile (tx, ty): 0 not at all, 1 wholly, 2 partly
// (then seg_head/backdrop name its segments).
uint coverage_of(uint e, int tx, int ty, out uint seg_head, out int backdrop, out uint rule) {
  cn_render_elem E = cfg.elem.v[e];
  seg_head = 0;
  backdrop = 0;
  cn_element el = cfg.elements.v[e];
  rule = el.tag == CN_TAG_STROKE ? CN_RULE_NONZERO : el.aux;
  if (tx < E.tx0 || tx >= E.tx1 || ty < E.ty0 || ty >= E.ty1) return 0;
  cn_render_tile t = cfg.tiles.v[E.tile_off + uint(ty - E.ty0) * uint(E.tx1 - E.tx0) + uint(tx - E.tx0)];
  seg_head = t.seg_head;
  backdrop = t.backdrop;
  if (seg_head != 0) return 2;
  bool inside = rule == CN_RULE_EVENODD ? (backdrop & 1) != 0 : backdrop != 0;
  return inside ? 1 : 0;
}

void main() {
  cfg = pc.config;
  cmds = cfg.cmds;
  uint bin = cn_group_id();
  uint lid = gl_LocalInvocationID.x;
  int bx0 = int(bin % cfg.bins_x) * CN_BIN, by0 = int(bin / cfg.bins_x) * CN_BIN;
  int bx1 = min(bx0 + CN_BIN, int(cfg.tiles_x)), by1 = min(by0 + CN_BIN, int(cfg.tiles_y));
  int tx = bx0 + int(lid % CN_BIN), ty = by0 + int(lid / CN_BIN);
  bool valid = tx < int(cfg.tiles_x) && ty < int(cfg.tiles_y);
  uint tile = valid ? uint(ty) * cfg.tiles_x + uint(tx) : 0;
  uint start = tile * CN_CMD_CHUNK;
  pos = start;
  chunk_end = start + CN_CMD_CHUNK - 2;
  cut = false;
  uint zero_depth = 0, depth = 0, max_depth = 0;

  for (uint base = 0; base < cfg.n_elements; base += CN_BIN_TILES) {
    uint e = base + lid;
    uint keep = 0;
    if (e < cfg.n_elements) {
      uint tag = cfg.elements.v[e].tag;
      if (tag == CN_TAG_FILL || tag == CN_TAG_STROKE) {
        cn_render_elem E = cfg.elem.v[e];
        keep = (E.tx0 < bx1 && E.tx1 > bx0 && E.ty0 < by1 && E.ty1 > by0) ? 1 : 0;
      } else if (tag >= CN_TAG_BEGIN_CLIP && tag <= CN_TAG_END_BLEND) {
        keep = 1;
      }
    }
    // stream-order compaction of the kept elements (inclusive scan)
    uint x = keep;
    sh_scan[lid] = x;
    for (uint off = 1; off < CN_BIN_TILES; off <<= 1) {
      barrier();
      uint other = lid >= off ? sh_scan[lid - off] : 0;
      barrier();
      x += other;
      sh_scan[lid] = x;
    }
    barrier();
    if (keep != 0) sh_list[x - 1] = e;
    uint total = sh_scan[CN_BIN_TILES - 1];
    barrier();

    if (valid) {
      for (uint k = 0; k < total; k++) {
        uint ei = sh_list[k];
        cn_element el = cfg.elements.v[ei];
        uint seg_head, rule;
        int backdrop;
        if (el.tag == CN_TAG_FILL || el.tag == CN_TAG_STROKE) {
          if (zero_depth != 0 || el.paint >= cfg.paint_count) continue;
          uint cov = coverage_of(ei, tx, ty, seg_head, backdrop, rule);
          if (cov == 0) continue;
          cn_paint p = cfg.paints.v[el.paint];
          if (p.kind == CN_PAINT_SOLID && !(p.a > 0.0)) continue;
          if (cov == 1 && depth == 0 && p.kind == CN_PAINT_SOLID && p.a >= 1.0) {
            // an opaque tile-covering fill hides everything drawn before it
            pos = start;
            chunk_end = start + CN_CMD_CHUNK - 2;
          }
          if (!reserve(4 + 5)) continue;
          if (cov == 2) {
            put(CN_CMD_FILL);
            put(seg_head);
            put(uint(backdrop));
            put(rule);
          } else {
            put(CN_CMD_SOLID);
          }
          if (p.kind == CN_PAINT_SOLID) {
            float a = clamp(p.a, 0.0, 1.0);
            put(CN_CMD_COLOR);
            put(floatBitsToUint(clamp(p.r, 0.0, 1.0) * a));
            put(floatBitsToUint(clamp(p.g, 0.0, 1.0) * a));
            put(floatBitsToUint(clamp(p.b, 0.0, 1.0) * a));
            put(floatBitsToUint(a));
          } else {
            put(CN_CMD_GRADIENT);
            put(el.paint);
          }
        } else if (el.tag == CN_TAG_BEGIN_CLIP) {
          if (zero_depth != 0) { zero_depth++; continue; }
          uint cov = coverage_of(ei, tx, ty, seg_head, backdrop, rule);
          if (cov == 1 && (cfg.elem.v[ei].flags & CN_ELEM_ISOLATE) != 0) cov = 2;
          if (cov == 0) zero_depth = 1;
          else if (cov == 2 && reserve(1)) {
            put(CN_CMD_BEGIN_CLIP);
            depth++;
          }
        } else if (el.tag == CN_TAG_END_CLIP) {
          if (zero_depth != 0) { zero_depth--; continue; }
          uint b = cfg.elem.v[ei].pair;
          if (b >= cfg.n_elements) continue;
          uint cov = coverage_of(b, tx, ty, seg_head, backdrop, rule);
          if (cov == 1 && (cfg.elem.v[b].flags & CN_ELEM_ISOLATE) != 0) cov = 2;
          if (cov == 2 && reserve(4)) {
            put(CN_CMD_END_CLIP);
            put(seg_head);
            put(uint(backdrop));
            put(rule);
            depth--;
          }
        } else if (el.tag == CN_TAG_BEGIN_BLEND) {
          if (zero_depth != 0) { zero_depth++; continue; }
          if (reserve(2)) {
            put(CN_CMD_BEGIN_BLEND);
            put(el.aux);
            depth++;
          }
        } else if (el.tag == CN_TAG_END_BLEND) {
          if (zero_depth != 0) { zero_depth--; continue; }
          uint b = cfg.elem.v[ei].pair;
          uint bl = b < cfg.n_elements ? cfg.elements.v[b].aux : CN_NONE;
          if (reserve(2)) {
            put(CN_CMD_END_BLEND);
            put(bl);
            uint flags = bl < cfg.blend_count ? cfg.blends.v[bl].flags : 0;
            // a mask's END keeps its coverage pushed; the masked group's END pops both
            if ((flags & (CN_BLEND_MASK_LUMINANCE | CN_BLEND_MASK_ALPHA)) != 0) {
            } else if ((flags & CN_BLEND_MASKED) != 0) {
              depth -= 2;
            } else {
              depth--;
            }
          }
        }
        max_depth = max(max_depth, depth);
      }
    }
    barrier();
  }

  if (!valid) return;
  cmds.v[pos] = CN_CMD_END;
  cn_render_ptile pt;
  pt.depth = max_depth;
  pt.spill_off = 0;
  if (max_depth > CN_FINE_STACK_REGS) {
    uint need = max_depth - CN_FINE_STACK_REGS;
    uint off = atomicAdd(cfg.bump.v.spill, need);
    if (off > cfg.cap_spill || need > cfg.cap_spill - off) {
      atomicOr(cfg.bump.v.failed, CN_FAIL_SPILL);
      off = CN_NONE; // fine then keeps the deep levels nowhere; the frame is re-run
    }
    pt.spill_off = off;
  }
  cfg.ptiles.v[tile] = pt;
}
