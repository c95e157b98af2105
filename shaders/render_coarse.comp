#version 460
// render_coarse: per-tile command lists, in draw order.
//
// One workgroup per bin of CN_BIN x CN_BIN tiles, COARSE_SEGS invocations per
// tile (1, 2 or 4: below). The workgroup walks the element stream in blocks
// of COARSE_SEGS x CN_BIN_TILES elements: it keeps, in stream order, the
// elements whose tile rectangle meets the bin (clip and blend brackets are
// always kept), then every tile walks that list and appends its commands:
//   FILL/STROKE  coverage (FILL with its run of pieces, or SOLID when the tile
//                is inside the path) and its paint; nothing when outside.
//   BEGIN_CLIP   outside the clip path: everything up to the matching END_CLIP
//                is skipped ("zero depth"); inside: nothing (the END matches);
//                partly covered (or covered, but isolating a blend mode inside):
//                BEGIN_CLIP, and the END_CLIP carries the path.
//   BEGIN_BLEND/END_BLEND: always (a mask's END keeps its coverage on the stack
//                for the masked group after it, whose END pops both), except
//                where nothing is drawn inside: taken back in the tile
//                (close_group), dropped from the staged block where nothing
//                inside is in the bin (main).
// An opaque solid fill of the whole tile at depth 0 drops what came before.
// A tile whose list leaves one colour (no command: the background; or one
// SOLID with an opaque colour) is not drawn by fine: its cn_render_ptile
// takes the colour (depth CN_PTILE_ONE) and render_solid writes its pixels
// beside fine. Every other tile is appended to fine_tiles, whose first words
// are fine's indirect dispatch (pass word: the most workgroups it may ask
// for); with CN_COARSE_FINE_SPLIT the tiles whose list took CN_FINE_VL_RUNS
// runs of chunks or more go to a second list, which fine draws in a dispatch of its
// own (cn_render_shared.h). Every frame counts those tiles (bump.vl_tiles).
// Lists live in chunks (see cn_render_shared.h); past cap_chunks the list is
// cut, CN_FAIL_CMDS set and the rest counted (reserve). Stack levels past CN_FINE_STACK_REGS get spill
// memory, bump-allocated here (CN_FAIL_SPILL past cap_spill).
//
// A tile's walk is serial, one element after the other, and on a bin with a
// long list it is the whole pass's time (one subgroup alone on its scheduler,
// every dependent step waiting out its latency). The pipelines with
// COARSE_SEGS 2 or 4 (render.c picks one per frame when a few bins have long
// lists) split a block of SPLIT_MIN kept elements or more, with no mask or
// masked group in it, into COARSE_SEGS parts walked at once by a tile's
// invocations: the first (the tile's owner) walks the first part; each
// later one first replays the brackets before its part (prewalk: their
// effect on the walk's state: depths, a clip outside the tile that skips its
// content, the open groups) from the owner's state at the block's start,
// then walks its part into a chain of its own. After the block the owner
// links the chains to its list in order with JUMPs (or starts its list with
// one, where that chain began with an opaque fill of the whole tile) and
// takes the last part's state. A group open across a part's start stays in
// the list even when nothing was drawn inside in this tile: an empty group
// leaves the pixels exactly as they were (an empty layer composited over
// them, in any mode).
#include "render_common.glsl"

// The workgroup: CN_BIN_TILES invocations a part (CN_SPEC_WG_SIZE: 64, 128
// or 256).
layout(local_size_x_id = CN_SPEC_WG_SIZE) in;
layout(constant_id = CN_SPEC_WG_SIZE) const uint BLOCK = CN_BIN_TILES; // elements staged per block
const uint COARSE_SEGS = BLOCK / CN_BIN_TILES;
#define SPLIT_MIN 48u // kept elements of a block from which its walk is split

shared uint sh_scan[BLOCK];
// The block's kept elements, in stream order, staged once for all the bin's tiles:
// tag; the tile rectangle, first tile record and fill rule of the path that
// decides coverage (an END_CLIP's own BEGIN_CLIP); the paint (draws) or blend
// index (blend brackets); CN_ELEM_* flags (clips) or cn_blend flags (blends).
shared uint sh_elem[BLOCK];
shared uint sh_tag[BLOCK];
shared ivec4 sh_rect[BLOCK];
shared uint sh_off[BLOCK];
shared uint sh_rule[BLOCK];
shared uint sh_arg[BLOCK];
shared uint sh_flags[BLOCK];
// Draws: the paint, read once per block for all tiles (the tile walk then
// loads only each tile's record): P_* bits, and for solid paints the colour
// words (premultiplied, times the dash cover), else the cover. Blend
// brackets: the blend's mode (sh_pbits) and opacity (sh_color.x), which
// END_BLEND carries to fine.
shared uint sh_pbits[BLOCK];
shared vec4 sh_color[BLOCK];
const uint P_SKIP = 1u;     // draws nothing (no such paint, cover 0, transparent solid)
const uint P_SOLID = 2u;    // a solid colour: sh_color holds the FILL / SOLID colour words
const uint P_OPAQUE = 4u;   // solid and opaque: covering a tile, it hides what came before
// A block's split: whether a kept element is a mask or a masked group (no
// split); the walk state handed between a tile's invocations (the
// owner's at the block's start, each later part's at its end: S_* fields).
shared uint sh_masks;
// Groups empty in the bin (main, after staging): the plain BEGINs the block
// holds, and per round whether one was dropped (two slots: a round clears
// the next one's).
shared uint sh_drop, sh_dropped[2];
const uint TAG_DROPPED = 0xFFFFFFFFu; // a staged group bracket taken out: the walk passes it by
#define DROP_ROUNDS 4u
#define DROP_MIN 8u // plain BEGINs in a block from which the rounds run
const uint S_POS = 0u, S_END = 1u, S_HEAD = 2u, S_BITS = 3u, S_TAKEN = 4u, S_ZERO = 5u, S_DEPTH = 6u, S_MASK = 7u,
           S_GROUPS = 8u, S_MAX = 9u, S_FILLS = 10u, S_PIECES = 11u, S_LONG = 12u, S_FIELDS = 13u;
// The owner's state at the block's start (S_ZERO .. S_GROUPS), then one
// region per later part for its state at the end (one word where the
// pipeline does not split).
shared uint sh_state[(4u + S_FIELDS * (COARSE_SEGS - 1u)) * CN_BIN_TILES * (COARSE_SEGS > 1u ? 1u : 0u) + 1u];
#define S_START(f) (((f) - S_ZERO) * CN_BIN_TILES + tslot)
#define S_AT(s, f) ((4u + S_FIELDS * ((s) - 1u) + (f)) * CN_BIN_TILES + tslot) // part s >= 1's field f

CnRenderConfig cfg;
CmdBuf cmds;
uint seg, tslot;       // this invocation's part of a block's walk (0: the tile's owner) and tile in the bin
uint start;            // the tile's first chunk
uint head, head_end;   // where the list's words begin (start, or a chain the owner jumps to); its room
bool reset;            // a later part drew an opaque fill of the whole tile (what came before is dropped)
uint zero_depth, depth, max_depth, mask_next;
const uint NO_CHAIN = 0xFFFFFFFEu; // a later part's pos before its chain's first words (not CN_NONE, which marks groups that are not removable)
uint pos, chunk_end;
bool long_list; // the list took more than its first chunk
uint chunks_taken; // chunks it took after its first (runs of CN_CMD_RUN)
bool cut;
bool conservative; // lines, tile records or tile segments were short this frame
uint fills, fill_pieces, long_pieces; // FILL / END_CLIP commands with pieces, their pieces, those in long runs

// Makes room for k more words (plus the two a JUMP needs) in the list: past
// the tile's first chunk, CN_CMD_RUN chunks at a time (one JUMP and one
// atomic per run; a lane of a subgroup needs room every few elements, so
// with single chunks some lane took one at almost every element).
// Past cap_chunks the list is cut (ended where it stands) and the rest only
// counted: pos runs on in runs that exist nowhere, each still taken from the
// counter, so bump.chunks ends at the exact number the whole list needs (an
// upper bound when tiles or segments were short too).
// A later part's chain (pos NO_CHAIN) starts with a single chunk, as a
// tile's list does (most of these chains are short); it takes runs after it.
bool reserve(uint k) {
  bool chain_start = COARSE_SEGS > 1u && pos == NO_CHAIN; // (a constant false where the pipeline does not split)
  if (!chain_start && pos + k <= chunk_end) return true;
  uint want = chain_start ? 1u : CN_CMD_RUN;
  uint c = atomicAdd(cfg.bump.v.chunks, want);
  long_list = true;
  chunks_taken += want;
  if (!cut && (c >= cfg.cap_chunks || want > cfg.cap_chunks - c)) {
    atomicOr(cfg.bump.v.failed, CN_FAIL_CMDS);
    if (!chain_start) cmds.v[pos] = CN_CMD_END;
    cut = true;
  }
  if (cut) {
    pos = 0;
    chunk_end = want * CN_CMD_CHUNK - 2;
    return true;
  }
  uint next = (cfg.tiles_x * cfg.tiles_y + c) * CN_CMD_CHUNK;
  if (chain_start) {
    head = next;
    head_end = next + CN_CMD_CHUNK - 2;
  } else {
    cmds.v[pos] = CN_CMD_JUMP;
    cmds.v[pos + 1] = next;
  }
  pos = next;
  chunk_end = next + want * CN_CMD_CHUNK - 2;
  return true;
}

void put(uint w) {
  if (!cut) cmds.v[pos] = w;
  pos++;
}

// The first five words of a FILL, FILL_GRADIENT or END_CLIP (cmd) of a
// path's tile t: its run of pieces, backdrop and rule (the caller reserved
// the words), counted for fine's choice of loop (cn_render_bump.fills,
// fill_pieces, long_pieces).
void put_path(uint cmd, cn_render_tile t, uint rule) {
  put(cmd);
  put(t.seg_first);
  put(t.seg_count);
  put(uint(t.backdrop));
  put(rule);
  fills += t.seg_count != 0u ? 1u : 0u;
  fill_pieces += t.seg_count;
  long_pieces += t.seg_count >= CN_FINE_LONG_RUN ? t.seg_count : 0u;
}

// Groups whose content turns out empty in this tile are taken back out of the
// list: for the innermost GROUP_TRACK open groups, where their BEGIN starts
// and ends in the list (CN_NONE: not removable: masks and masked groups, and
// the groups a later part of a split block finds open, or that the owner
// takes over from it).
#define GROUP_TRACK 8u
uint grp_before[GROUP_TRACK], grp_after[GROUP_TRACK];
uint groups_open;

void open_group(uint before, bool removable) {
  if (groups_open < GROUP_TRACK) {
    grp_before[groups_open] = before;
    grp_after[groups_open] = removable ? pos : CN_NONE;
  }
  groups_open++;
}

// Closes the innermost group; true when nothing was written since its BEGIN,
// which is then removed (the caller writes no END).
bool close_group() {
  if (groups_open == 0) return false;
  groups_open--;
  if (groups_open < GROUP_TRACK && grp_after[groups_open] == pos && !cut) {
    pos = grp_before[groups_open];
    return true;
  }
  return false;
}

// The tile record of staged element k's path at tile (tx, ty), when the tile
// is inside its rectangle and the record exists (else zeros). The walk reads
// it one element ahead, so its latency overlaps the element before.
cn_render_tile tile_of(uint k, int tx, int ty) {
  cn_render_tile t = cn_render_tile(0, 0u, 0u, 0u);
  ivec4 R = sh_rect[k];
  if (tx < R.x || tx >= R.z || ty < R.y || ty >= R.w || conservative || sh_off[k] == CN_NONE) return t;
  return cfg.tiles.v[sh_off[k] + uint(ty - R.y) * uint(R.z - R.x) + uint(tx - R.x)];
}

// How the path of staged element k covers tile (tx, ty) (t: its record from
// tile_of): 0 not at all, 1 wholly, 2 partly (then t names its pieces and
// backdrop).
uint coverage_of(uint k, int tx, int ty, cn_render_tile t, out uint rule) {
  ivec4 R = sh_rect[k];
  rule = sh_rule[k];
  if (tx < R.x || tx >= R.z || ty < R.y || ty >= R.w) return 0;
  // Without tile records, or when a buffer before coarse was short (the frame
  // re-runs): count every tile of the rectangle as partly covered, so the
  // chunk and spill counts are upper bounds of what the re-run needs.
  if (conservative || sh_off[k] == CN_NONE) return 2;
  if (t.seg_count != 0u) return 2;
  bool inside = rule == CN_RULE_EVENODD ? (t.backdrop & 1) != 0 : t.backdrop != 0;
  return inside ? 1 : 0;
}

// Walks staged elements k0 .. k1 - 1 of the block for tile (tx, ty),
// appending their commands.
void walk(uint k0, uint k1, int tx, int ty) {
  cn_render_tile tnext = k0 < k1 ? tile_of(k0, tx, ty) : cn_render_tile(0, 0u, 0u, 0u);
  for (uint k = k0; k < k1; k++) {
    cn_render_tile tcur = tnext;
    if (k + 1u < k1) tnext = tile_of(k + 1u, tx, ty);
    uint tag = sh_tag[k], arg = sh_arg[k];
    uint rule;
    if (mask_next != CN_NONE && sh_elem[k] != mask_next) {
      if (reserve(1)) {
        put(CN_CMD_POP);
        depth--;
      }
      mask_next = CN_NONE;
    }
    if (tag == CN_TAG_FILL || tag == CN_TAG_STROKE) {
      uint pb = sh_pbits[k];
      if (zero_depth != 0 || (pb & P_SKIP) != 0) continue;
      uint cov = coverage_of(k, tx, ty, tcur, rule);
      if (cov == 0) continue;
      if (cov == 1 && depth == 0 && (pb & P_OPAQUE) != 0 && !cut) {
        // an opaque tile-covering fill hides everything drawn before it
        // (a later part: its own chain, and the owner's list after the block)
        if (seg == 0u) {
          pos = head = start;
          chunk_end = head_end = start + CN_CMD_CHUNK - 2;
        } else {
          reset = true;
          pos = head; // NO_CHAIN before the chain's first words
          chunk_end = head_end;
        }
      }
      if (!reserve(9)) continue; // FILL's 9 words at most
      // one command: the coverage (FILL's pieces, or SOLID) and the paint
      bool solid = (pb & P_SOLID) != 0;
      if (cov == 2) put_path(solid ? CN_CMD_FILL : CN_CMD_FILL_GRADIENT, tcur, rule);
      else put(solid ? CN_CMD_SOLID : CN_CMD_SOLID_GRADIENT);
      vec4 c = sh_color[k];
      if (solid) {
        put(floatBitsToUint(c.x));
        put(floatBitsToUint(c.y));
        put(floatBitsToUint(c.z));
        put(floatBitsToUint(c.w));
      } else {
        put(arg);
        put(floatBitsToUint(c.x));
      }
    } else if (tag == CN_TAG_BEGIN_CLIP) {
      if (zero_depth != 0) { zero_depth++; continue; }
      uint cov = coverage_of(k, tx, ty, tcur, rule);
      if (cov == 1 && (sh_flags[k] & CN_ELEM_ISOLATE) != 0) cov = 2;
      if (cov == 0) zero_depth = 1;
      else if (cov == 2 && reserve(1)) {
        uint before = pos;
        put(CN_CMD_BEGIN_CLIP);
        depth++;
        open_group(before, true);
      }
    } else if (tag == CN_TAG_END_CLIP) {
      if (zero_depth != 0) { zero_depth--; continue; }
      uint cov = coverage_of(k, tx, ty, tcur, rule); // its BEGIN's path
      if (cov == 1 && (sh_flags[k] & CN_ELEM_ISOLATE) != 0) cov = 2;
      if (cov == 2 && close_group()) {
        depth--; // nothing was drawn inside: BEGIN_CLIP taken back
      } else if (cov == 2 && reserve(5)) {
        put_path(CN_CMD_END_CLIP, tcur, rule);
        depth--;
      }
    } else if (tag == CN_TAG_BEGIN_BLEND) {
      if (zero_depth != 0) { zero_depth++; continue; }
      if ((sh_flags[k] & CN_BLEND_MASKED) != 0) {
        bool has_mask = mask_next == sh_elem[k];
        mask_next = CN_NONE;
        if (!has_mask) { zero_depth = 1; continue; }
      }
      if (reserve(1)) {
        uint before = pos;
        put(CN_CMD_BEGIN_BLEND);
        depth++;
        uint flags = sh_flags[k];
        open_group(before, (flags & (CN_BLEND_MASK_LUMINANCE | CN_BLEND_MASK_ALPHA | CN_BLEND_MASKED)) == 0);
      }
    } else if (tag == CN_TAG_END_BLEND) {
      if (zero_depth != 0) { zero_depth--; continue; }
      if (close_group()) {
        depth--; // an empty group leaves the backdrop as it is, whatever its mode
      } else if (reserve(3)) {
        // its BEGIN's blend, staged for fine (mode in sh_pbits, opacity in
        // sh_color.x): fine then loads no blend record
        uint flags = sh_flags[k];
        put(CN_CMD_END_BLEND);
        put(sh_pbits[k] | (flags & 0xFFu) << 8);
        put(floatBitsToUint(sh_color[k].x));
        // a mask's END keeps its coverage pushed; the masked group's END pops both
        if ((flags & (CN_BLEND_MASK_LUMINANCE | CN_BLEND_MASK_ALPHA)) != 0) {
          mask_next = sh_elem[k] + 1;
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

// The state the walk of staged elements 0 .. k1 - 1 leaves for tile (tx, ty)
// (from the state at the block's start), without their commands: the
// brackets' effect on the depths, the skipped content and the open groups.
// The block has no mask or masked group (no split otherwise); a mask's
// coverage left on the stack by the block before is popped at its first
// element.
void prewalk(uint k1, int tx, int ty) {
  if (mask_next != CN_NONE && k1 > 0u) {
    depth--;
    mask_next = CN_NONE;
  }
  for (uint k = 0u; k < k1; k++) {
    uint tag = sh_tag[k];
    if (tag < CN_TAG_BEGIN_CLIP || tag > CN_TAG_END_BLEND) continue;
    bool begin = tag == CN_TAG_BEGIN_CLIP || tag == CN_TAG_BEGIN_BLEND;
    if (zero_depth != 0u) {
      zero_depth = begin ? zero_depth + 1u : zero_depth - 1u;
      continue;
    }
    uint cov = 2u; // blend groups: always in the list
    if (tag == CN_TAG_BEGIN_CLIP || tag == CN_TAG_END_CLIP) {
      uint rule;
      cov = coverage_of(k, tx, ty, tile_of(k, tx, ty), rule);
      if (cov == 1u && (sh_flags[k] & CN_ELEM_ISOLATE) != 0u) cov = 2u;
    }
    if (tag == CN_TAG_BEGIN_CLIP && cov == 0u) {
      zero_depth = 1u;
    } else if (cov == 2u) {
      if (begin) {
        depth++;
        groups_open++;
      } else {
        depth--;
        groups_open = groups_open > 0u ? groups_open - 1u : 0u;
      }
    }
    max_depth = max(max_depth, depth);
  }
}

// Where part s of COARSE_SEGS starts in a split block of `total` kept
// elements: each later part first replays the brackets before its start
// (prewalk, roughly an eighth of a walk's step per element), so the parts
// shrink towards the end and all end about together: part s starts at
// (1 - a^s) / (1 - a^N) of the block, a = 7/8, in 64ths.
uint split_at(uint s, uint total) {
  if (s == 0u) return 0u;
  if (s >= COARSE_SEGS) return total;
  uint f = COARSE_SEGS == 2u ? 34u : (s == 1u ? 19u : s == 2u ? 36u : 51u); // COARSE_SEGS 2 or 4
  return total * f / 64u;
}

void main() {
  cfg = pc.config;
  cmds = cfg.cmds;
  uint bin = cn_group_id();
  uint lid = gl_LocalInvocationID.x;
  uint slot = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID; // a block's element, in ballot order
  seg = COARSE_SEGS > 1u ? lid / CN_BIN_TILES : 0u;
  tslot = lid % CN_BIN_TILES;
  bool owner = seg == 0u;
  int bx0 = int(bin % cfg.bins_x) * CN_BIN, by0 = int(bin / cfg.bins_x) * CN_BIN;
  int bx1 = min(bx0 + CN_BIN, int(cfg.tiles_x)), by1 = min(by0 + CN_BIN, int(cfg.tiles_y));
  int tx = bx0 + int(tslot % CN_BIN), ty = by0 + int(tslot / CN_BIN);
  bool valid = tx < int(cfg.tiles_x) && ty < int(cfg.tiles_y);
  uint tile = valid ? uint(ty) * cfg.tiles_x + uint(tx) : 0;
  start = tile * CN_CMD_CHUNK;
  pos = head = start;
  chunk_end = head_end = start + CN_CMD_CHUNK - 2;
  cut = false;
  long_list = false;
  chunks_taken = 0u;
  conservative = (cfg.bump.v.failed & (CN_FAIL_TILES | CN_FAIL_SEGS)) != 0 || cfg.line_count.v > cfg.cap_lines;
  groups_open = 0;
  fills = 0u;
  fill_pieces = 0u;
  long_pieces = 0u;
  zero_depth = 0;
  depth = 0;
  max_depth = 0;
  // A mask's END leaves its coverage on the stack for the masked group that
  // follows at once (element mask_next). With bin lists the masked group may
  // be missing from this bin (nothing drawn in it here): the coverage is then
  // popped; a masked group whose mask is missing (mask empty: coverage 0) is
  // skipped.
  mask_next = CN_NONE;

  // The elements to walk: the scene stage's list for this bin (clip-culled,
  // groups only where they draw), else every element.
  uint list_first = 0, list_len = cfg.n_elements;
  // Lists that did not fit (the frame re-runs): walk every element instead,
  // so the picture and the counts stay whole.
  uint nb = cfg.bins_x * cfg.bins_y;
  bool lists = cfg.use_bins != 0 && cfg.bin_offsets.v[nb] <= cfg.cap_bins;
  if (lists) {
    list_first = cfg.bin_offsets.v[bin];
    uint list_end = cfg.bin_offsets.v[bin + 1];
    list_len = list_end > list_first ? list_end - list_first : 0;
  }

  // every frame: the bins with long lists (render.c picks the splitting
  // pipeline from them)
  if (lid == 0u && list_len >= CN_COARSE_LONG_BIN) atomicAdd(cfg.bump.v.long_bins, 1u);
  if (lid == 0u && list_len >= CN_COARSE_LONG_BIN) atomicMax(cfg.bump.v.max_bin, list_len);

  for (uint base = 0; base < list_len; base += BLOCK) {
    uint e = base + slot < list_len ? (lists ? cfg.bin_elems.v[list_first + base + slot] : base + slot) : CN_NONE;
    uint keep = 0;
    cn_element el;
    el.tag = 0;
    ivec4 rect = ivec4(0);
    uint off = 0, rule = CN_RULE_NONZERO, arg = CN_NONE, flags = 0, pbits = 0;
    vec4 color = vec4(0.0);
    if (e < cfg.n_elements) {
      el = cfg.elements.v[e];
      uint src = e; // whose path decides coverage
      if (el.tag == CN_TAG_END_CLIP || el.tag == CN_TAG_END_BLEND) src = cfg.elem.v[e].pair;
      if (src < cfg.n_elements) {
        if (el.tag <= CN_TAG_END_CLIP) {
          cn_render_elem E = cfg.elem.v[src];
          rect = ivec4(E.tx0, E.ty0, E.tx1, E.ty1);
          off = E.tile_off;
          flags = E.flags;
          uint aux = src == e ? el.aux : cfg.elements.v[src].aux;
          rule = el.tag == CN_TAG_STROKE ? CN_RULE_NONZERO : aux;
          // supersampling: a hairline stroke keeps area coverage (CN_FILL_AREA)
          if (el.tag == CN_TAG_STROKE && cfg.aa == CN_AA_SS16 && cn_flat_hairline(cfg, e)) rule |= CN_FILL_AREA;
          arg = el.paint;
        } else {
          arg = src == e ? el.aux : cfg.elements.v[src].aux;
          cn_blend b;
          b.mode = CN_BLEND_NORMAL;
          b.alpha = 1.0;
          b.flags = 0u;
          if (arg < cfg.blend_count) b = cfg.blends.v[arg];
          flags = b.flags;
          // END_BLEND's words. The mode has 8 bits there, so a mode past the
          // last is written as normal (how fine's cn_blend_over draws it)
          // rather than cut to 8 bits, which could name another mode.
          pbits = b.mode < CN_BLEND_MODE_COUNT ? b.mode : CN_BLEND_NORMAL;
          color.x = b.alpha;
        }
      }
      if (el.tag == CN_TAG_FILL || el.tag == CN_TAG_STROKE) {
        keep = (rect.x < bx1 && rect.z > bx0 && rect.y < by1 && rect.w > by0) ? 1 : 0;
        if (keep != 0) {
          pbits = P_SKIP;
          if (arg < cfg.paint_count) {
            cn_paint p = cfg.paints.v[arg];
            float cover = cn_cover(cfg, e); // < 1: a dash pattern drawn at its mean coverage
            if (!(cover > 0.0) || (p.kind == CN_PAINT_SOLID && !(p.a > 0.0))) {
              pbits = P_SKIP;
            } else if (p.kind == CN_PAINT_SOLID) {
              float a = clamp(p.a, 0.0, 1.0) * cover;
              color = vec4(clamp(p.r, 0.0, 1.0) * a, clamp(p.g, 0.0, 1.0) * a, clamp(p.b, 0.0, 1.0) * a, a);
              pbits = P_SOLID | (p.a * cover >= 1.0 ? P_OPAQUE : 0u);
            } else {
              color.x = cover;
              pbits = 0u;
            }
          }
        }
      } else if (el.tag >= CN_TAG_BEGIN_CLIP && el.tag <= CN_TAG_END_BLEND) {
        keep = src < cfg.n_elements ? 1 : 0;
      }
    }
    if (lid == 0u) sh_masks = 0u; // (read before the previous block's end)
    // stream-order compaction of the kept elements: a ballot per subgroup,
    // the subgroups' counts summed by the lanes together (the ballot right
    // after a barrier: the loads above branch). x: the element's slot + 1.
    barrier(); // also: the previous block's walk is done with sh_scan
    uvec4 ball = subgroupBallot(keep != 0);
    if (subgroupElect()) sh_scan[gl_SubgroupID] = subgroupBallotBitCount(ball);
    if (lid == 0u) { // (every invocation is past the previous block's drop rounds)
      sh_drop = 0u;
      sh_dropped[0] = 0u;
    }
    barrier();
    uint before, total;
    CN_SUBGROUP_TOTALS(sh_scan, before, total)
    uint x = before + subgroupBallotExclusiveBitCount(ball) + 1;
    if (keep != 0) {
      sh_elem[x - 1] = e;
      sh_tag[x - 1] = el.tag;
      sh_rect[x - 1] = rect;
      sh_off[x - 1] = off;
      sh_rule[x - 1] = rule;
      sh_arg[x - 1] = arg;
      sh_flags[x - 1] = flags;
      sh_pbits[x - 1] = pbits;
      sh_color[x - 1] = color;
      if ((el.tag == CN_TAG_BEGIN_BLEND || el.tag == CN_TAG_END_BLEND) &&
          (flags & (CN_BLEND_MASK_LUMINANCE | CN_BLEND_MASK_ALPHA | CN_BLEND_MASKED)) != 0u)
        atomicOr(sh_masks, 1u);
      else if (el.tag == CN_TAG_BEGIN_BLEND || el.tag == CN_TAG_BEGIN_CLIP)
        atomicAdd(sh_drop, 1u);
    }
    // the owner's state at the block's start, for its later parts
    if (owner && COARSE_SEGS > 1u) {
      sh_state[S_START(S_ZERO)] = zero_depth;
      sh_state[S_START(S_DEPTH)] = depth;
      sh_state[S_START(S_MASK)] = mask_next;
      sh_state[S_START(S_GROUPS)] = groups_open;
    }
    barrier();
    // Groups with nothing drawn in this bin: a BEGIN whose next staged
    // element (past those dropped already) is its own END (the list holds
    // both brackets of a group or neither, in stream order). Every tile of
    // the bin would write that BEGIN and take it back at the END
    // (close_group); dropped here, the walk passes both by. A round drops
    // the groups the round before left empty, while it drops any. Not masks
    // or masked groups (their pairing is the walk's: mask_next). Groups
    // whose brackets lie in two blocks stay, and so do those of a block with
    // fewer than DROP_MIN plain BEGINs (the rounds' barriers would cost more
    // than they save): the tiles take them back.
    if (sh_drop >= DROP_MIN) {
      for (uint round = 0u; round < DROP_ROUNDS; round++) {
        uint other = CN_NONE;
        if (lid < total) {
          uint tg = sh_tag[lid];
          const uint masks = CN_BLEND_MASK_LUMINANCE | CN_BLEND_MASK_ALPHA | CN_BLEND_MASKED;
          if (tg == CN_TAG_BEGIN_CLIP || (tg == CN_TAG_BEGIN_BLEND && (sh_flags[lid] & masks) == 0u)) {
            uint x = lid + 1u;
            while (x < total && sh_tag[x] == TAG_DROPPED) x++;
            if (x < total && sh_tag[x] == tg + 1u) other = x;
          }
        }
        barrier(); // every scan of this round is done
        if (lid == 0u) sh_dropped[(round + 1u) & 1u] = 0u; // read last in the round before
        if (other != CN_NONE) {
          sh_tag[lid] = TAG_DROPPED;
          sh_tag[other] = TAG_DROPPED;
          sh_rect[lid] = ivec4(0); // (no tile record to load for it)
          sh_rect[other] = ivec4(0);
          sh_dropped[round & 1u] = 1u;
        }
        barrier();
        if (sh_dropped[round & 1u] == 0u) break;
      }
    }
    bool split = COARSE_SEGS > 1u && total >= SPLIT_MIN && sh_masks == 0u;
    // part seg walks k0 .. k1 - 1 (the owner all of them when not split)
    uint k0 = split ? split_at(seg, total) : 0u, k1 = split ? split_at(seg + 1u, total) : total;

    if (valid && (owner || split)) {
      if (!owner) {
        // a later part: the owner's state at the block's start, then at k0
        zero_depth = sh_state[S_START(S_ZERO)];
        depth = sh_state[S_START(S_DEPTH)];
        mask_next = sh_state[S_START(S_MASK)];
        groups_open = sh_state[S_START(S_GROUPS)];
        max_depth = 0u;
        prewalk(k0, tx, ty);
        for (uint g = 0u; g < min(groups_open, GROUP_TRACK); g++) grp_after[g] = CN_NONE;
        pos = head = NO_CHAIN;
        chunk_end = head_end = 0u;
        cut = reset = long_list = false;
        chunks_taken = fills = fill_pieces = long_pieces = 0u;
      }
      walk(k0, k1, tx, ty); // one call site: one copy of the walk's code
      if (!owner) {
        uint bits = (cut ? 1u : 0u) | (reset ? 2u : 0u) | (long_list ? 4u : 0u);
        uint vals[S_FIELDS] = uint[S_FIELDS](pos, chunk_end, head, bits, chunks_taken, zero_depth, depth, mask_next,
                                             groups_open, max_depth, fills, fill_pieces, long_pieces);
        for (uint f = 0u; f < S_FIELDS; f++) sh_state[S_AT(seg, f)] = vals[f];
      }
    }
    barrier();
    // the later parts' words after the owner's, in order: a JUMP to each
    // chain, or a chain first where it began with an opaque fill of the tile
    for (uint s1 = 1u; s1 < COARSE_SEGS && split && valid && owner; s1++) {
      uint p1 = sh_state[S_AT(s1, S_POS)], h1 = sh_state[S_AT(s1, S_HEAD)];
      uint bits = sh_state[S_AT(s1, S_BITS)];
      bool cut1 = (bits & 1u) != 0u;
      if ((bits & 2u) != 0u && !cut) {
        pos = head = start;
        chunk_end = head_end = start + CN_CMD_CHUNK - 2;
      }
      bool wrote = h1 != NO_CHAIN && (p1 != h1 || cut1);
      if (wrote) {
        if (!cut) {
          cmds.v[pos] = CN_CMD_JUMP;
          cmds.v[pos + 1] = h1;
          if (pos == head) head = h1; // nothing before it: the list's words begin there
          pos = p1;
          chunk_end = sh_state[S_AT(s1, S_END)];
          cut = cut1;
        }
        // the groups open now stay in the list even if nothing is drawn in
        // them after this (their BEGINs lie in another invocation's words)
        uint g1 = sh_state[S_AT(s1, S_GROUPS)];
        for (uint g = 0u; g < min(g1, GROUP_TRACK); g++) grp_after[g] = CN_NONE;
      } else if (cut1 && !cut) { // cut at its chain's first chunk
        cmds.v[pos] = CN_CMD_END;
        cut = true;
      }
      long_list = long_list || (bits & 4u) != 0u;
      // (the first chunk of its chain counts as the tile's first chunk does:
      // very long lists are those of CN_FINE_VL_RUNS runs past it)
      uint taken1 = sh_state[S_AT(s1, S_TAKEN)];
      chunks_taken += taken1 > 0u ? taken1 - 1u : 0u;
      zero_depth = sh_state[S_AT(s1, S_ZERO)];
      depth = sh_state[S_AT(s1, S_DEPTH)];
      mask_next = sh_state[S_AT(s1, S_MASK)];
      groups_open = sh_state[S_AT(s1, S_GROUPS)];
      max_depth = max(max_depth, sh_state[S_AT(s1, S_MAX)]);
      fills += sh_state[S_AT(s1, S_FILLS)];
      fill_pieces += sh_state[S_AT(s1, S_PIECES)];
      long_pieces += sh_state[S_AT(s1, S_LONG)];
    }
  }

  valid = valid && owner; // the tile's list is the owner's from here
  if (valid && mask_next != CN_NONE && reserve(1)) {
    put(CN_CMD_POP);
    depth--;
  }
  if (valid && !cut) cmds.v[pos] = CN_CMD_END;

  // One colour for the whole tile? Fine would composite the list over the
  // background and pack it: nothing leaves the background, bg * 1 + 0; an
  // opaque colour c leaves c + bg * 0 = c, exactly, whatever the rounding.
  bool one = false;
  uint word = 0u;
  if (COARSE_SEGS == 1u) head = start;
  if (valid && !cut && (pc.arg & CN_COARSE_FINE_ALL) == 0u) {
    if (pos == head) {
      one = true;
      word = cn_pack_straight(vec4(cfg.background[0], cfg.background[1], cfg.background[2], cfg.background[3]));
    } else if (pos == head + 5u && cmds.v[head] == CN_CMD_SOLID && uintBitsToFloat(cmds.v[head + 4u]) == 1.0) {
      one = true;
      vec4 c = uintBitsToFloat(uvec4(cmds.v[head + 1u], cmds.v[head + 2u], cmds.v[head + 3u], cmds.v[head + 4u]));
      word = cn_pack_straight(c);
    }
  }
  // the others go to fine (long lists from the front, short ones from the
  // back; with CN_COARSE_FINE_SPLIT the very long ones to the second list):
  // a few atomics per subgroup. Every subgroup operation first, right after
  // a barrier (the walk's branches end there: Vulkan does not promise that a
  // subgroup reconverges after a branch); the elected lane's slots reach its
  // subgroup through shared memory (sh_scan is free by now).
  barrier();
  bool draw = valid && !one;
  bool very_long = valid && chunks_taken >= CN_FINE_VL_RUNS * CN_CMD_RUN;
  bool apart = draw && very_long && (pc.arg & CN_COARSE_FINE_SPLIT) != 0u;
  uvec4 b_long = subgroupBallot(draw && !apart && long_list), b_short = subgroupBallot(draw && !long_list);
  uvec4 b_vl = subgroupBallot(apart);
  uint n_long = subgroupBallotBitCount(b_long), n_short = subgroupBallotBitCount(b_short), n_vl = subgroupBallotBitCount(b_vl);
  uint sg_very_long = subgroupBallotBitCount(subgroupBallot(very_long));
  // the run lengths fine will read (render.c picks fine's loop for the next frame from them)
  uint sg_fills = subgroupAdd(valid ? fills : 0u), sg_pieces = subgroupAdd(valid ? fill_pieces : 0u);
  uint sg_long = subgroupAdd(valid ? long_pieces : 0u);
  bool leader = subgroupElect();
  if (leader && n_long + n_short > 0u) {
    FineListBuf list = cfg.fine_tiles;
    uint first = atomicAdd(list.v[CN_FINE_LIST_COUNT], n_long + n_short);
    uint most = max(pc.arg & ~(CN_COARSE_FINE_ALL | CN_COARSE_FINE_SPLIT), 1u);
    atomicMax(list.v[CN_FINE_LIST_ARGS], min(first + n_long + n_short, most));
    sh_scan[3u * gl_SubgroupID] = n_long > 0u ? atomicAdd(list.v[CN_FINE_LIST_LONG], n_long) : 0u;
    sh_scan[3u * gl_SubgroupID + 1u] = n_short > 0u ? atomicAdd(list.v[CN_FINE_LIST_SHORT], n_short) : 0u;
  }
  if (leader && n_vl > 0u) sh_scan[3u * gl_SubgroupID + 2u] = atomicAdd(cfg.fine_tiles.v[CN_FINE_LIST_VL], n_vl);
  if (leader && n_long + n_short + n_vl > 0u) atomicAdd(cfg.bump.v.fine_tiles, n_long + n_short + n_vl);
  if (leader && sg_very_long > 0u) atomicAdd(cfg.bump.v.vl_tiles, sg_very_long);
  if (leader && sg_fills > 0u) {
    atomicAdd(cfg.bump.v.fills, sg_fills);
    atomicAdd(cfg.bump.v.fill_pieces, sg_pieces);
    if (sg_long > 0u) atomicAdd(cfg.bump.v.long_pieces, sg_long);
  }
  barrier();
  // (unused where none draws)
  uint first_long = sh_scan[3u * gl_SubgroupID], first_short = sh_scan[3u * gl_SubgroupID + 1u];
  uint first_vl = sh_scan[3u * gl_SubgroupID + 2u];
  uint ntiles = cfg.tiles_x * cfg.tiles_y;
  if (draw && !apart && long_list)
    cfg.fine_tiles.v[CN_FINE_LIST_FIRST + first_long + subgroupBallotExclusiveBitCount(b_long)] = tile;
  if (draw && !long_list)
    cfg.fine_tiles.v[CN_FINE_LIST_FIRST + ntiles - 1u - (first_short + subgroupBallotExclusiveBitCount(b_short))] = tile;
  if (apart) cfg.fine_tiles.v[CN_FINE_LIST_FIRST + ntiles + first_vl + subgroupBallotExclusiveBitCount(b_vl)] = tile;
  if (!valid) return;
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
  if (one) { // render_solid writes its pixels
    pt.depth = CN_PTILE_ONE;
    pt.spill_off = word;
  }
  cfg.ptiles.v[tile] = pt;
}
