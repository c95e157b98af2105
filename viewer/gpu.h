/* gpu.h: canopy inside the viewer: the adopted context, the renderer that
 * records the scene into the frame's command buffer each time the view
 * changes, where the overlays find their data, and the GPU times the HUD
 * shows. Only canopy's public headers are used.
 */
#ifndef VW_GPU_H
#define VW_GPU_H

#include "host.h"
#include "vw.h"
#include "vw_overlay.h"

#define VW_MAX_RERUNS 3 /* runs of one frame when buffers keep growing, then it is an error */
#define VW_MAX_SPANS 48 /* every stage of the renderer (scene stage, flatten, tiles, coarse, fine) and the draw */

typedef struct cn_renderer cn_renderer;

/* Where the overlays read their data: the renderer's own buffers after a
 * frame it ran, or the viewer's upload of the library's CPU references when
 * canopy refused the scene. */
typedef enum vw_source { VW_SOURCE_NONE, VW_SOURCE_RENDERER, VW_SOURCE_CPU } vw_source;

typedef struct vw_gpu {
  cn_context *cn;
  cn_renderer *renderer;
  uint32_t scene_generation; /* the document generation the renderer holds; 0: none */
  uint32_t uploads;          /* scenes handed to the renderer (each one upload, canopy's own submission) */
  cn_timer *draw_timer;      /* the viewer's render pass; NULL without timestamps */
  bool timing;
  uint32_t aa;               /* anti-aliasing of every frame (CN_AA_*, --aa); set after vw_gpu_create */
  /* what the last frames measured: the renderer's stages, then "draw" */
  uint32_t spans;
  const char *span_label[VW_MAX_SPANS];
  double span_ms[VW_MAX_SPANS];
  double total_ms;
  uint32_t reruns;           /* times the last run was recorded again because a buffer grew */
  vw_picture picture;        /* the renderer's output; pixels 0 while there is none */
  /* the overlays' source: addresses and counts (vw_ov_params' first fields) */
  vw_source source;
  vw_ov_params src;
  /* the result boxes and bin offsets, copied in the frame's submission for
   * picking, --print-boxes and the HUD's counts */
  cn_buffer rb_boxes, rb_offsets;
  /* the viewer's own uploads: depth per element; the CPU references' tags,
   * boxes, bin offsets, lines and line count */
  cn_buffer depth, cpu_tags, cpu_boxes, cpu_offsets, cpu_lines;
} vw_gpu;

/* Adopts the host's device and creates the renderer. False with err on failure. */
bool vw_gpu_create(vw_gpu *g, vw_host *h, char *err, size_t errcap);
void vw_gpu_destroy(vw_gpu *g);

/* Gives the renderer scene (document generation `generation`): a new one is
 * uploaded once (canopy's scene check and one copy); pan and zoom only
 * change the view. False with err when canopy refuses the scene or the
 * device was lost (*device_lost). */
bool vw_gpu_set_scene(vw_gpu *g, const cn_scene_data *scene, uint32_t generation, bool *device_lost, char *err,
                      size_t errcap);
/* The per-element depth the overlays colour by (a->depth), uploaded once per scene. */
bool vw_gpu_set_depth(vw_gpu *g, const vw_analysis *a, char *err, size_t errcap);
/* Records into cmd, the frame's command buffer, the renderer's whole frame
 * under the view transform (a b c d e f) for a w x h target (scene stage,
 * flatten, render), then copies of the result boxes and bin offsets for the
 * host; the overlays' source becomes the renderer's buffers. False with err. */
bool vw_gpu_record(vw_gpu *g, VkCommandBuffer cmd, const float view[6], uint32_t w, uint32_t h, char *err,
                   size_t errcap);
/* After the frame's submission completed: *again when a buffer was too small
 * (it has grown: record the frame again); otherwise *a gets the boxes, bins
 * and line count and the stage times are read. False with err when canopy
 * failed (*device_lost tells a lost device from a scene it refused). */
bool vw_gpu_finish(vw_gpu *g, uint32_t element_count, vw_analysis *a, bool *again, bool *device_lost, char *err,
                   size_t errcap);
/* The library's CPU references in *a (vw_analysis_cpu) become the overlays'
 * source: uploaded into the viewer's buffers. False with err. */
bool vw_gpu_use_cpu(vw_gpu *g, const vw_analysis *a, char *err, size_t errcap);
/* Drops the picture and the overlays' source (a scene canopy refused). */
void vw_gpu_drop(vw_gpu *g);

/* Makes every earlier write of canopy's kernels and copies (this command
 * buffer's and earlier submissions') visible to the overlays' compute pass
 * and the draw's vertex and fragment shaders. */
void vw_gpu_barrier_to_draw(VkCommandBuffer cmd);

/* Draw timer: marks around the render pass, read after the frame completed. */
void vw_gpu_draw_begin(vw_gpu *g, VkCommandBuffer cmd);
void vw_gpu_draw_end(vw_gpu *g, VkCommandBuffer cmd);
void vw_gpu_collect_draw(vw_gpu *g);
/* The picture shown: "renderer" or "outlines" (no picture: the scene failed to render). */
const char *vw_gpu_picture_kind(const vw_gpu *g);

#endif
