/* render_internal.h: the renderer object, shared by render.c (scene upload,
 * frames) and render_scene.c (whole scenes through the flatten stage). */
#ifndef CN_RENDER_INTERNAL_H
#define CN_RENDER_INTERNAL_H

#include "cn_flatten.h"
#include "cn_render.h"
#include "internal.h"

/* timestamps a frame writes (stages + start) */
enum { CN__STAGES = 30 };

struct cn_renderer {
  cn_context *ctx;
  cn_renderer_desc desc;
  /* scene */
  cn_buffer scene;     /* elements | paints | stops | transforms | blends | paths | segments | strokes | dashes
                          | images | image pixels */
  VkDeviceSize off_elements, off_paints, off_stops, off_transforms, off_blends;
  VkDeviceSize off_paths, off_segments, off_strokes, off_dashes, off_images, off_pixels;
  cn_scene_data host;  /* the scene of set_scene (arrays owned by the caller) */
  cn_flatten *flatten; /* whole-scene rendering (render_scene.c) */
  bool flattened;      /* the last frame ran the flatten stage */
  uint32_t group_count; /* BEGIN/END elements of the scene */
  /* scene stage (cn_scene_stage.h): result boxes and per-bin lists for coarse */
  cn_buffer ss_tags, ss_path_boxes, ss_boxes, ss_status, ss_scratch, bin_offsets, bin_elems, bins_read;
  cn_buffer ss_transforms; /* scene transforms composed with the view (scene stage under a view transform) */
  uint64_t cap_bins;
  uint32_t nbins;
  bool binned;         /* the last frame used the bin lists */
  uint32_t n_elements, paint_count, stop_count, transform_count, blend_count;
  uint32_t image_count, image_pixel_count;
  cn_buffer elem_init; /* cn_render_elem[n]: empty boxes and bracket pairs */
  bool has_scene;
  /* lines */
  cn_buffer lines;     /* host lines (set_lines) */
  uint32_t nlines;
  VkDeviceAddress gpu_lines, gpu_count;
  uint32_t gpu_cap;
  bool has_lines;
  /* frame scratch */
  cn_buffer config, elem, tiles, segs, bump, bump_read, cmds, ptiles, spill, out;
  uint32_t cap_tiles, cap_segs, cap_chunks, cap_spill;
  uint32_t last_w, last_h;
  cn_render_bump last_bump;
  uint32_t reruns;
  cn_timer *timer;
};

/* cn_renderer_record, optionally leaving the timer alone (record_scene resets
 * and starts it before the flatten stage). */
cn_result cn_renderer_record_frame(cn_renderer *r, VkCommandBuffer cmd, const cn_render_view *v, bool timer_start);

/* After a frame: checks the scene stage's status and bin capacity (render_scene.c);
 * *again when the bin lists did not fit (the capacity has grown). */
cn_result cn_renderer_bins_done(cn_renderer *r, bool *again);

/* Standalone rendering: records a frame with record(), submits and waits, and
 * repeats while cn_renderer_frame_done() says a buffer grew (at most 9 times,
 * then CN_ERROR_LIMIT); then downloads the picture into rgba (width*height*4). */
typedef cn_result (*cn_render__record_fn)(cn_renderer *r, VkCommandBuffer cmd, const cn_render_view *view);
cn_result cn_render__run_to_rgba8(cn_renderer *r, const cn_render_view *view, cn_render__record_fn record,
                                  uint8_t *rgba);

#endif
