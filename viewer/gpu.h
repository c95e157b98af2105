/* gpu.h: canopy inside the viewer: the adopted context, the per-view GPU work
 * canopy records into the viewer's command buffer, and the GPU timers the HUD
 * shows. Only canopy.h's public API is used.
 */
#ifndef VW_GPU_H
#define VW_GPU_H

#include "host.h"

#define VW_MAX_SPANS 16

typedef struct vw_gpu {
  cn_context *cn;
  cn_timer *stage_timer; /* canopy's stages, in the compute command buffer; NULL without timestamps */
  cn_timer *draw_timer;  /* the viewer's render pass */
  /* what the last run measured */
  uint32_t spans;
  const char *span_label[VW_MAX_SPANS];
  double span_ms[VW_MAX_SPANS];
  double total_ms;
  vw_picture picture; /* the renderer's output; pixels 0 while there is none */
} vw_gpu;

/* Adopts the host's device. False with err on failure. */
bool vw_gpu_create(vw_gpu *g, vw_host *h, char *err, size_t errcap);
void vw_gpu_destroy(vw_gpu *g);
/* Records canopy's work for the viewed scene (window pixels, w x h) into cmd,
 * which the caller has begun and submits. False with err on failure. */
bool vw_gpu_record(vw_gpu *g, VkCommandBuffer cmd, const cn_scene_data *viewed, uint32_t w, uint32_t h, char *err,
                   size_t errcap);
/* After the stage work completed: reads its timer. */
void vw_gpu_collect_stages(vw_gpu *g);
/* Draw timer: marks around the render pass, read after the frame completed. */
void vw_gpu_draw_begin(vw_gpu *g, VkCommandBuffer cmd);
void vw_gpu_draw_end(vw_gpu *g, VkCommandBuffer cmd);
void vw_gpu_collect_draw(vw_gpu *g);
/* The picture shown: "renderer" or "outlines" */
const char *vw_gpu_picture_kind(const vw_gpu *g);

#endif
