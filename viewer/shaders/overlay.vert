#version 460
// overlay.vert: the debug overlays, generated on the GPU from the renderer's
// buffers in the frame's own command buffer. No vertex input: every draw is
// instanced (one instance per element, bin, line or grid line, pc.mode says
// which, vw_overlay.h) and each vertex builds its corner of a quad from the
// instance's record: result boxes, tags, bin offsets, lines. A quad that is
// not drawn (an element of another kind, an empty box, a line past the count)
// collapses to a point. The shapes and colours are those of the viewer's
// host-side meshes (overlay.c: rectangles, frames, line quads; hud.c: text).
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#extension GL_EXT_scalar_block_layout : require

#include "vw_overlay.h"

layout(buffer_reference, scalar) readonly buffer VwData { vw_ov_params p; };
layout(buffer_reference, scalar) readonly buffer VwU32s { uint v[]; };
layout(buffer_reference, scalar) readonly buffer VwBoxes { vec4 b[]; };
struct VwLine {
  vec4 p;
  uint element;
};
layout(buffer_reference, scalar) readonly buffer VwLines { VwLine l[]; };
layout(buffer_reference, scalar) readonly buffer VwGlyphs {
  vw_glyph_header h;
  vec4 quad[];
};
#include "vw_push.h"

layout(location = 0) out vec4 colour;

const uint TAG_FILL = 1u, TAG_STROKE = 2u, TAG_BEGIN_CLIP = 3u, TAG_BEGIN_BLEND = 5u;

uint rgba(uint r, uint g, uint b, uint a) { return (r & 255u) | (g & 255u) << 8 | (b & 255u) << 16 | (a & 255u) << 24; }

// The quad a vertex belongs to: corner c (0..5) of rectangle r, two
// triangles 0 1 2, 0 2 3 over the corners (x0 y0) (x1 y0) (x1 y1) (x0 y1).
const uint QUAD[6] = uint[6](0u, 1u, 2u, 0u, 2u, 3u);
vec2 rect_corner(vec4 r, uint c) {
  uint k = QUAD[c];
  return vec2(k == 0u || k == 3u ? r.x : r.z, k < 2u ? r.y : r.w);
}

// A frame of `width` inside r (24 vertices: top, bottom, left, right), or
// one rectangle when r is too small for a hole; -1 for a vertex not drawn.
vec4 frame_rect(vec4 r, float w, uint v, out bool ok) {
  uint part = v / 6u;
  ok = true;
  if (r.z - r.x <= 2.0 * w || r.w - r.y <= 2.0 * w) {
    ok = part == 0u;
    return vec4(r.x, r.y, max(r.z, r.x + w), max(r.w, r.y + w));
  }
  if (part == 0u) return vec4(r.x, r.y, r.z, r.y + w);
  if (part == 1u) return vec4(r.x, r.w - w, r.z, r.w);
  if (part == 2u) return vec4(r.x, r.y + w, r.x + w, r.w - w);
  return vec4(r.z - w, r.y + w, r.z, r.w - w);
}

// A line of `width` from a to b, extended by half a width at both ends.
vec2 line_corner(vec4 l, float width, uint c) {
  float dx = l.z - l.x, dy = l.w - l.y, len = sqrt(dx * dx + dy * dy);
  float h = 0.5 * width;
  if (!(len > 1e-6)) return rect_corner(vec4(l.x - h, l.y - h, l.x + h, l.y + h), c);
  float ux = dx / len * h, uy = dy / len * h;
  float nx = -uy, ny = ux;
  uint k = QUAD[c];
  if (k == 0u) return vec2(l.x - ux + nx, l.y - uy + ny);
  if (k == 1u) return vec2(l.z + ux + nx, l.w + uy + ny);
  if (k == 2u) return vec2(l.z + ux - nx, l.w + uy - ny);
  return vec2(l.x - ux - nx, l.y - uy - ny);
}

// Boxes far outside the window are clamped (as overlay.c does).
bool clamp_box(vec4 b, out vec4 o) {
  if (!(b.z > b.x) || !(b.w > b.y)) return false;
  const float m = 8.0;
  o = vec4(max(b.x, -m), max(b.y, -m), min(b.z, float(pc.data.p.width) + m), min(b.w, float(pc.data.p.height) + m));
  return o.z > o.x && o.w > o.y;
}

bool is_draw(uint tag) { return tag == TAG_FILL || tag == TAG_STROKE; }

uint depth_colour(uint d, uint alpha) {
  const uvec3 pal[8] = uvec3[8](uvec3(31, 119, 180), uvec3(255, 127, 14), uvec3(44, 160, 44), uvec3(214, 39, 40),
                                uvec3(148, 103, 189), uvec3(140, 86, 75), uvec3(227, 119, 194), uvec3(23, 190, 207));
  uvec3 c = pal[d % 8u];
  return rgba(c.r, c.g, c.b, alpha);
}

// Heat colour for t in 0..1: blue -> yellow -> red.
uint heat(float t, uint alpha) {
  t = min(max(t, 0.0), 1.0);
  float r = t < 0.5 ? 2.0 * t : 1.0, g = t < 0.5 ? 0.4 + 1.2 * t : 2.0 * (1.0 - t), b = t < 0.5 ? 1.0 - 2.0 * t : 0.0;
  return rgba(uint(r * 255.0), uint(min(g, 1.0) * 255.0), uint(b * 255.0), alpha);
}

uint bin_count(uint b) {
  VwU32s off = VwU32s(pc.data.p.bin_offsets);
  return off.v[b + 1u] - off.v[b];
}

layout(buffer_reference, scalar) readonly buffer VwPrep { vw_ov_prep q; };
uint bins_max() { return VwPrep(pc.data.p.prep).q.bins_max; }

// Draws over lines have one instance per valid line (overlay_prep.comp).
uint lines_valid() { return VwPrep(pc.data.p.prep).q.lines[1]; }

// Vertex v of the decimal text of `value` at (x, y), `scale` times
// stb_easy_font's size: digit slot, quad of the digit's glyph, corner.
bool digit_corner(uint value, uint v, vec2 at, float scale, out vec2 pos) {
  VwGlyphs g = VwGlyphs(pc.data.p.glyphs);
  uint per_slot = pc.data.p.glyph_quads * 6u;
  uint slot = v / per_slot, q = (v % per_slot) / 6u, c = v % 6u;
  uint nd = 1u, div = 1u; // digits, and 10^(nd - 1)
  for (uint t = value; t >= 10u; t /= 10u) nd++, div *= 10u;
  if (slot >= nd) return false;
  float pen = 0.0;
  uint digit = 0u;
  for (uint k = 0u; k <= slot; k++, div /= 10u) {
    digit = (value / div) % 10u;
    if (k < slot) pen += float(g.h.advance[digit]);
  }
  if (q >= g.h.count[digit]) return false;
  vec4 r = g.quad[g.h.first[digit] + q];
  vec2 corner = rect_corner(r, c);
  pos = at + vec2(pen + corner.x, corner.y) * scale;
  return true;
}

float text_width(uint value) {
  VwGlyphs g = VwGlyphs(pc.data.p.glyphs);
  float w = 0.0;
  do {
    w += float(g.h.advance[value % 10u]);
    value /= 10u;
  } while (value > 0u);
  return w;
}

void main() {
  vw_ov_params P = pc.data.p;
  uint v = gl_VertexIndex, inst = gl_InstanceIndex, c = v % 6u;
  vec2 pos = vec2(0.0);
  uint col = 0u;
  bool ok = false;
  vec4 r, b;
  switch (pc.mode) {
    case VW_OV_DARKEN:
      pos = rect_corner(vec4(0.0, 0.0, float(P.width), float(P.height)), c);
      col = rgba(0u, 0u, 0u, 110u);
      ok = true;
      break;
    case VW_OV_BIN_CELLS: {
      uint n = bin_count(inst);
      float bs = float(P.bin_size);
      float x0 = float(inst % P.nbx) * bs, y0 = float(inst / P.nbx) * bs;
      vec4 cell = vec4(x0, y0, min(x0 + bs, float(P.width)), min(y0 + bs, float(P.height)));
      if (v < 6u) {
        ok = n > 0u;
        pos = rect_corner(cell + vec4(2.0, 2.0, -2.0, -2.0), c);
        col = heat(float(n) / float(bins_max()), 150u);
      } else if (v < 30u) {
        pos = rect_corner(frame_rect(cell, 1.0, v - 6u, ok), c);
        col = rgba(0u, 0u, 0u, 230u);
      } else {
        pos = rect_corner(frame_rect(cell + vec4(1.0, 1.0, -1.0, -1.0), 1.0, v - 30u, ok), c);
        col = rgba(255u, 255u, 255u, 200u);
      }
      break;
    }
    case VW_OV_BIN_COUNTS: {
      uint bin = inst / VW_OV_OUTLINE_PASSES, pass = inst % VW_OV_OUTLINE_PASSES;
      float bs = float(P.bin_size);
      vec2 at = vec2(float(bin % P.nbx) * bs + 6.0, float(bin / P.nbx) * bs + 6.0);
      if (pass < 8u) {
        uint k = pass < 4u ? pass : pass + 1u; // the 3x3 neighbours, row by row, without the centre
        at += vec2(float(k % 3u) - 1.0, float(k / 3u) - 1.0);
        col = rgba(0u, 0u, 0u, 220u);
      } else {
        col = rgba(255u, 255u, 255u, 255u);
      }
      ok = digit_corner(bin_count(bin), v, at, 2.0, pos);
      break;
    }
    case VW_OV_TILES: {
      uint t = P.tile, nv = (P.width - 1u) / t;
      if (inst < nv) r = vec4(float((inst + 1u) * t), 0.0, float((inst + 1u) * t) + 1.0, float(P.height));
      else r = vec4(0.0, float((inst - nv + 1u) * t), float(P.width), float((inst - nv + 1u) * t) + 1.0);
      pos = rect_corner(r, c);
      col = rgba(40u, 40u, 60u, 70u);
      ok = true;
      break;
    }
    case VW_OV_DEPTH_LINES:
    case VW_OV_SEGMENTS:
    case VW_OV_SEG_ENDS:
    case VW_OV_HOVER_LINES: {
      uint n = lines_valid();
      if (inst >= n) break;
      VwLine l = VwLines(P.lines).l[inst];
      if (l.element >= P.count) break;
      if (pc.mode == VW_OV_DEPTH_LINES) {
        ok = is_draw(VwU32s(P.tags).v[l.element]);
        pos = line_corner(l.p, 3.0, c);
        col = depth_colour(VwU32s(P.depth).v[l.element], 255u);
      } else if (pc.mode == VW_OV_SEGMENTS) {
        ok = true;
        pos = line_corner(l.p, 1.0, c);
        col = rgba(0u, 160u, 60u, 255u);
      } else if (pc.mode == VW_OV_SEG_ENDS) {
        ok = true; /* the draw has no instances past VW_OV_MAX_DOTS lines */
        pos = rect_corner(vec4(l.p.z - 1.5, l.p.w - 1.5, l.p.z + 1.5, l.p.w + 1.5), c);
        col = rgba(200u, 0u, 40u, 255u);
      } else {
        ok = l.element == P.hover;
        pos = line_corner(l.p, 2.0, c);
        col = rgba(255u, 230u, 0u, 255u);
      }
      break;
    }
    case VW_OV_DEPTH_BOXES:
    case VW_OV_BOXES:
    case VW_OV_GROUPS: {
      uint tag = VwU32s(P.tags).v[inst];
      if (!clamp_box(VwBoxes(P.boxes).b[inst], b)) break;
      if (pc.mode == VW_OV_DEPTH_BOXES) {
        ok = is_draw(tag);
        pos = rect_corner(b, c);
        col = depth_colour(VwU32s(P.depth).v[inst], 40u);
      } else if (pc.mode == VW_OV_BOXES) {
        if (!is_draw(tag)) break;
        pos = rect_corner(frame_rect(b, 1.0, v, ok), c);
        col = rgba(0u, 170u, 255u, 230u);
      } else {
        bool clip = tag == TAG_BEGIN_CLIP && (pc.flags & VW_OV_FLAG_CLIPS) != 0u;
        bool blend = tag == TAG_BEGIN_BLEND && (pc.flags & VW_OV_FLAG_BLENDS) != 0u;
        if (!clip && !blend) break;
        if (v < 24u) {
          pos = rect_corner(frame_rect(b, 2.0, v, ok), c);
          col = clip ? rgba(255u, 140u, 0u, 240u) : rgba(220u, 40u, 210u, 240u);
        } else {
          ok = true; /* a faint fill shows nesting where groups overlap */
          pos = rect_corner(b, c);
          col = clip ? rgba(255u, 140u, 0u, 28u) : rgba(220u, 40u, 210u, 28u);
        }
      }
      break;
    }
    case VW_OV_HOVER_BOX: {
      if (P.hover >= P.count) break;
      vec4 bx = VwBoxes(P.boxes).b[P.hover];
      if (!(bx.z > bx.x) || !(bx.w > bx.y)) break;
      b = vec4(max(bx.x, -8.0), max(bx.y, -8.0), min(bx.z, 1e5), min(bx.w, 1e5));
      if (v < 24u) {
        pos = rect_corner(frame_rect(b + vec4(-1.0, -1.0, 1.0, 1.0), 3.0, v, ok), c);
        col = rgba(0u, 0u, 0u, 160u);
      } else {
        pos = rect_corner(frame_rect(b, 1.0, v - 24u, ok), c);
        col = rgba(255u, 230u, 0u, 255u);
      }
      break;
    }
    case VW_OV_LEGEND_MAX: {
      uint m = bins_max();
      vec2 at = vec2(P.legend_x - text_width(m) * P.legend_scale, P.legend_y);
      ok = digit_corner(m, v, at, P.legend_scale, pos);
      col = rgba(235u, 238u, 245u, 255u);
      break;
    }
  }
  if (!ok) {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0); // a point: the quad is not drawn
    colour = vec4(0.0);
    return;
  }
  if (pc.mode != VW_OV_LEGEND_MAX) pos = (pos - vec2(pc.map_ox, pc.map_oy)) / pc.map_k;
  gl_Position = vec4(pos.x * pc.inv_w * 2.0 - 1.0, pos.y * pc.inv_h * 2.0 - 1.0, 0.0, 1.0);
  colour = unpackUnorm4x8(col);
}
