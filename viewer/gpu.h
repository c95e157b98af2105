/* gpu.h: canopy inside the viewer: the adopted context, the renderer that
 * records the scene into the viewer's command buffer each time the view
 * changes, and the GPU times the HUD shows. Only canopy's public headers
 * (canopy.h, cn_render.h) are used.
 */
#ifndef VW_GPU_H
#define VW_GPU_H

#include "host.h"
#include "vw.h"

#define VW_MAX_SPANS 48 /* every stage of the renderer (scene stage, flatten, tiles, coarse, fine) and the draw */

typedef struct cn_renderer cn_renderer;

typedef struct vw_gpu {
  cn_context *cn;
  cn_renderer *renderer;
  uint32_t scene_generation; /* the document generation the renderer holds; 0: none */
  cn_timer *draw_timer;      /* the viewer's render pass; NULL without timestamps */
  bool timing;
  uint32_t aa;               /* anti-aliasing of every frame (CN_AA_*, --aa); set after vw_gpu_create */
  /* what the last runs measured: the renderer's stages, then "draw" */
  uint32_t spans;
  const char *span_label[VW_MAX_SPANS];
  double span_ms[VW_MAX_SPANS];
  double total_ms;
  uint32_t reruns;           /* frames re-run because a buffer grew (last run) */
  vw_picture picture;        /* the renderer's output; pixels 0 while there is none */
  /* the renderer's boxes, bin offsets and lines, copied in the frame's submission */
  cn_buffer rb_boxes, rb_offsets, rb_lines;
} vw_gpu;

/* Adopts the host's device and creates the renderer. False with err on failure. */
bool vw_gpu_create(vw_gpu *g, vw_host *h, char *err, size_t errcap);
void vw_gpu_destroy(vw_gpu *g);

/* Renders scene (document generation `generation`; a new one is uploaded
 * first, once: pan and zoom only change the view) under the view transform
 * (a b c d e f) into a w x h picture: the scene stage, flatten and the
 * renderer in one recording into the host's compute command buffer, with
 * copies of the result boxes, bin offsets and lines for the overlays, one
 * submission (repeated only when a buffer had to grow). On success *a gets
 * those (a was made by vw_analysis_compute for this scene and size). False
 * with err on failure; *device_lost tells a lost device (the viewer must
 * stop) from a scene the renderer refused (the picture is then dropped and
 * the error shown). */
bool vw_gpu_render(vw_gpu *g, vw_host *h, const cn_scene_data *scene, uint32_t generation, const float view[6],
                   uint32_t w, uint32_t hgt, vw_analysis *a, bool *device_lost, char *err, size_t errcap);

/* Draw timer: marks around the render pass, read after the frame completed. */
void vw_gpu_draw_begin(vw_gpu *g, VkCommandBuffer cmd);
void vw_gpu_draw_end(vw_gpu *g, VkCommandBuffer cmd);
void vw_gpu_collect_draw(vw_gpu *g);
/* The picture shown: "renderer" or "outlines" (no picture: the scene failed to render). */
const char *vw_gpu_picture_kind(const vw_gpu *g);

#endif
