// vw_push.h: the push constants of the viewer's graphics pipelines, shared by
// C (draw.c) and GLSL (viewer/shaders/*). One layout serves every pipeline.
#ifndef VW_PUSH_H
#define VW_PUSH_H

#ifdef VULKAN
#define VW_PTR(T) T
#define VW_U32 uint
#define VW_F32 float
#else
#include <stdint.h>
#define VW_PTR(T) uint64_t
#define VW_U32 uint32_t
#define VW_F32 float
#endif

#ifdef VULKAN
layout(push_constant, std430) uniform vw_push_block {
#else
typedef struct vw_push {
#endif
  VW_PTR(VwData) data;   // geometry: vertices (x, y, rgba); picture: straight-alpha RGBA8 pixels;
                         // overlay: its vw_ov_params
  VW_F32 inv_w, inv_h;   // 1 / framebuffer size
  VW_U32 width, height;  // picture: its size in pixels (row stride = width)
  VW_U32 background;     // picture: RGBA8 drawn under it
  VW_F32 map_k;          // picture: framebuffer pixel p reads picture pixel p * map_k + map_o
  VW_F32 map_ox, map_oy; //   (the identity: 1, 0, 0; a preview of an older view otherwise);
                         // overlay: a point q of the last run's geometry is drawn at (q - map_o) / map_k
  VW_U32 mode, flags;    // overlay: what to draw (VW_OV_*, vw_overlay.h) and its flags
#ifdef VULKAN
} pc;
#else
} vw_push;
_Static_assert(sizeof(vw_push) == 48, "vw_push layout");
#endif

#endif
