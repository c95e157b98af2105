// render_common.glsl: buffer types and helpers every render_*.comp kernel shares.
// Layouts are in cn_render_shared.h (shared with C); this file only gives the
// GLSL views of the buffers the config points to.
#ifndef CN_RENDER_COMMON_GLSL
#define CN_RENDER_COMMON_GLSL

#include "common.glsl"

layout(buffer_reference) buffer ElementBuf;
layout(buffer_reference) buffer PaintBuf;
layout(buffer_reference) buffer StopBuf;
layout(buffer_reference) buffer TransformBuf;
layout(buffer_reference) buffer BlendBuf;
layout(buffer_reference) buffer LineBuf;
layout(buffer_reference) buffer ElemBuf;
layout(buffer_reference) buffer TileBuf;
layout(buffer_reference) buffer SegBuf;
layout(buffer_reference) buffer BumpBuf;
layout(buffer_reference) buffer CmdBuf;
layout(buffer_reference) buffer PtileBuf;
layout(buffer_reference) buffer SpillBuf;
layout(buffer_reference) buffer OutBuf;
layout(buffer_reference) buffer CountBuf;
layout(buffer_reference) buffer BinBuf;
layout(buffer_reference) buffer FlatElemBuf;
layout(buffer_reference) buffer FlatWorkBuf;
layout(buffer_reference) buffer BoxBuf;
layout(buffer_reference) buffer ImageBuf;
layout(buffer_reference) buffer TexelBuf;
layout(buffer_reference) buffer FineListBuf;
layout(buffer_reference) buffer CnRenderConfig;

#define CN_USE_RENDER_PUSH
#include "cn_render_shared.h"

layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer ElementBuf { cn_element v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer PaintBuf { cn_paint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer StopBuf { float v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer TransformBuf { float v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer BlendBuf { cn_blend v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer LineBuf { cn_render_line v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer ElemBuf { cn_render_elem v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer TileBuf { cn_render_tile v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer SegBuf { cn_render_seg v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) coherent buffer BumpBuf { cn_render_bump v; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer CmdBuf { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer PtileBuf { cn_render_ptile v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer SpillBuf { vec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer OutBuf { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer CountBuf { uint v; };
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer BinBuf { uint v[]; };
// cn_flatten_elem: first line, line count, box x0 y0 x1 y1, cover (floats), flags (CN_FLATTEN_ELEM_*)
struct cn_render_flat_elem { uint first; uint count; float x0; float y0; float x1; float y1; float cover; uint flags; };
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer FlatElemBuf { cn_render_flat_elem v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer FlatWorkBuf { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer BoxBuf { vec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer ImageBuf { cn_image v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer TexelBuf { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer FineListBuf { uint v[]; };

// The alpha factor of element e's paint (a dash pattern drawn at its mean coverage: cn_flatten_elem.cover).
float cn_cover(CnRenderConfig cfg, uint e) {
  return uint64_t(cfg.flat_elems) != uint64_t(0) ? clamp(cfg.flat_elems.v[e].cover, 0.0, 1.0) : 1.0;
}


// Is element e a stroke the flatten stage marked as a Skia hairline (CN_RENDER_FLAT_HAIRLINE)?
bool cn_flat_hairline(CnRenderConfig cfg, uint e) {
  return uint64_t(cfg.flat_elems) != uint64_t(0) && (cfg.flat_elems.v[e].flags & CN_RENDER_FLAT_HAIRLINE) != 0;
}

// CN_AA_SS16: the line as Skia's edge holds it, its ends truncated toward
// zero to 1/256 px (26.6 fixed point of quarter-pixel samples; exact in
// float). Tiles, backdrops and pieces then follow the same line as the
// samples' x (render_coverage_ss.glsl), which for a nearly horizontal line
// can lie pixels away from the unsnapped one.
cn_render_line cn_ss_snap(cn_render_line l) {
  vec4 p = trunc(vec4(l.x0, l.y0, l.x1, l.y1) * 256.0) * (1.0 / 256.0);
  l.x0 = p.x;
  l.y0 = p.y;
  l.x1 = p.z;
  l.y1 = p.w;
  return l;
}

// A premultiplied colour as the RGBA8 output word: straight alpha, rounded
// (fine's pixels, and coarse's for tiles of one colour: the same function).
uint cn_pack_straight(vec4 c) {
  c = clamp(c, 0.0, 1.0);
  vec3 rgb = c.a > 0.0 ? clamp(c.rgb / c.a, 0.0, 1.0) : vec3(0.0);
  uvec4 u = uvec4(round(vec4(rgb, c.a) * 255.0));
  return u.r | (u.g << 8) | (u.b << 16) | (u.a << 24);
}

// Number of valid lines this frame.
uint cn_line_count(CnRenderConfig cfg) { return min(cfg.line_count.v, cfg.cap_lines); }

// Integer tile of a pixel coordinate (floor division that also works below 0).
int cn_tile_of(float x) { return int(floor(x * (1.0 / float(CN_TILE)))); }

#endif
