// vw_overlay.h: what the overlay pipeline (overlay_prep.comp, overlay.vert)
// reads, shared by C (draw.c, gpu.c) and GLSL. The overlays are drawn from the
// renderer's own buffers (cn_scene_gpu_outputs: tags, result boxes, bin
// offsets, lines and the line count), or from the viewer's upload of the
// library's CPU references when canopy refused the scene; the parameters below
// name them by device address. Every draw is instanced: one instance per
// element, bin, line or grid line, its vertices generated from the instance's
// record. The draws over lines take their instance count from the GPU
// (vkCmdDrawIndirect): overlay_prep.comp writes it, and the largest bin
// count, in the same command buffer after canopy's work.
#ifndef VW_OVERLAY_H
#define VW_OVERLAY_H

#ifdef VULKAN
#define VW_ADDR uvec2 // GL_EXT_buffer_reference_uvec2: no 64-bit integers needed
#define VW_U32 uint
#define VW_F32 float
#else
#include <stdint.h>
#define VW_ADDR uint64_t
#define VW_U32 uint32_t
#define VW_F32 float
#endif

// Draw modes (vw_push.mode); each names its vertices per instance and its instances.
#define VW_OV_DARKEN 0u      // 6 vertices, 1 instance: the window darkened under the bin grid
#define VW_OV_BIN_CELLS 1u   // 54 per bin: heat rectangle, black and white outlines
#define VW_OV_BIN_COUNTS 2u  // digits * glyph_quads * 6 per (bin, outline pass): the count as text
#define VW_OV_TILES 3u       // 6 per grid line of the tile grid
#define VW_OV_DEPTH_LINES 4u // 6 per line: lines of draw elements coloured by depth
#define VW_OV_DEPTH_BOXES 5u // 6 per element: draw elements' boxes, faint depth colour
#define VW_OV_SEGMENTS 6u    // 6 per line: every line, green
#define VW_OV_SEG_ENDS 7u    // 6 per line: end points, red (while there are at most VW_OV_MAX_DOTS)
#define VW_OV_BOXES 8u       // 24 per element: result-box frames of draw elements
#define VW_OV_GROUPS 9u      // 30 per element: clip (flags & 1) and blend (flags & 2) group frames and fills
#define VW_OV_HOVER_BOX 10u  // 48, 1 instance: the hovered element's box
#define VW_OV_HOVER_LINES 11u // 6 per line: the hovered element's lines
#define VW_OV_LEGEND_MAX 12u // digits * glyph_quads * 6, 1 instance: the largest bin count, right-aligned

#define VW_OV_FLAG_CLIPS 1u
#define VW_OV_FLAG_BLENDS 2u
#define VW_OV_NONE 0xFFFFFFFFu   // hover: no element
#define VW_OV_MAX_DOTS 100000u   // segment end points are drawn up to this many lines
#define VW_OV_OUTLINE_PASSES 9u  // bin counts: 8 dark copies around the text, then the text
#define VW_GLYPH_HEADER 32u      // u32 words before the glyph quads

#ifdef VULKAN
#define VW_STRUCT(name) struct name
#define VW_STRUCT_END(name) ;
#else
#define VW_STRUCT(name) typedef struct name
#define VW_STRUCT_END(name) name;
#endif

// The digit glyphs of stb_easy_font (hud.c builds them once): per digit its
// advance, first quad and quad count, then the quads (x0 y0 x1 y1 in font
// units at the pen position).
VW_STRUCT(vw_glyph_header) {
  VW_U32 advance[10];
  VW_U32 first[10];
  VW_U32 count[10];
  VW_U32 pad[2];
} VW_STRUCT_END(vw_glyph_header)

// What overlay_prep.comp computes for the draws: two VkDrawIndirectCommands
// (vertex count, instance count, first vertex, first instance) and the
// largest bin count.
VW_STRUCT(vw_ov_prep) {
  VW_U32 lines[4];  // 6 vertices per line, one instance per valid line
  VW_U32 ends[4];   // the same while there are at most VW_OV_MAX_DOTS lines, else no instance
  VW_U32 bins_max;  // the most elements in one bin (at least 1): the top of the heat scale
  VW_U32 pad[3];
} VW_STRUCT_END(vw_ov_prep)

VW_STRUCT(vw_ov_params) {
  VW_ADDR tags;        // count u32: CN_TAG_*
  VW_ADDR boxes;       // count cn_box: result boxes in window pixels
  VW_ADDR depth;       // count u32: nesting depth (the viewer's, from the tags)
  VW_ADDR bin_offsets; // nbx * nby + 1 u32 (CSR offsets of the bin lists)
  VW_ADDR lines;       // line_cap cn_line (x0 y0 x1 y1 element)
  VW_ADDR line_count;  // u32: the lines there are (may exceed line_cap: then line_cap are valid)
  VW_ADDR glyphs;      // vw_glyph_header, then quads
  VW_ADDR prep;        // vw_ov_prep, written by overlay_prep.comp
  VW_U32 count, nbx, nby, bin_size;
  VW_U32 line_cap, tile, width, height; // tile grid spacing; the window the geometry is laid out in
  VW_U32 hover, digits, glyph_quads, pad0; // digits: of the largest possible bin count; glyph_quads: most quads of a digit
  VW_F32 legend_x, legend_y, legend_scale, pad1; // VW_OV_LEGEND_MAX: right edge, top, text scale
} VW_STRUCT_END(vw_ov_params)

#ifndef VULKAN
_Static_assert(sizeof(vw_ov_params) == 8 * 8 + 16 * 4, "vw_ov_params layout");
_Static_assert(sizeof(vw_ov_prep) == 12 * 4, "vw_ov_prep layout");
_Static_assert(sizeof(vw_glyph_header) == VW_GLYPH_HEADER * 4, "vw_glyph_header layout");
#endif

#endif
