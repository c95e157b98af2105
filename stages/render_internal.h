/* render_internal.h: the renderer object, shared by render.c (frames of the
 * renderer core) and render_scene.c (whole scenes: scene stage and flatten
 * through the cn_scene_gpu). */
#ifndef CN_RENDER_INTERNAL_H
#define CN_RENDER_INTERNAL_H

#include "cn_flatten.h"
#include "cn_render.h"
#include "internal.h"
#include "scene_gpu_internal.h"

/* timestamps a frame writes (stages + start) */
enum { CN__STAGES = 30 };

/* What the setup of a frame leaves for its passes. */
typedef struct cn__frame {
  VkPipeline k_init, k_bbox, k_alloc, k_seg, k_seg_alloc, k_backdrop, k_coarse, k_solid, k_fine;
  VkPipeline k_fine_vl; /* one pixel an invocation: the very long lists (split) */
  bool split;           /* the very long lists are listed apart (CN_COARSE_FINE_SPLIT) */
  uint32_t wg, n, cap_lines, cap_tiles, tiles_x, tiles_y, bins, bins_x;
  uint32_t backdrop_slices; /* render_backdrop's workgroups per element; 1: packed */
  uint32_t backdrop_packed; /* render_backdrop with one slice: elements per workgroup */
  uint32_t seg_lines;       /* render_tile_seg's lines per workgroup */
  bool flat;   /* whole scene: flatten's element boxes (no render_bbox) */
  bool finish; /* render_tile_alloc finishes flatten's elements (cn_flatten_args.caller_finish) */
  bool ready;  /* set by the setup, cleared by the passes */
} cn__frame;

struct cn_renderer {
  cn_context *ctx;
  cn_renderer_desc desc;
  /* the scene and every scene-sized buffer (own: made by set_scene; else the caller's) */
  cn_scene_gpu *sg;
  bool own_sg;
  bool has_scene;
  /* lines */
  cn_buffer lines;     /* host lines (set_lines) */
  uint32_t nlines;
  VkDeviceAddress gpu_lines, gpu_count;
  uint32_t gpu_cap;
  bool has_lines;
  /* the last frame */
  bool scene_frame;    /* it ran the scene stage and flatten (record_scene) */
  bool binned;         /* its coarse walked the bin lists */
  bool flatten_finish; /* whole scenes: flatten leaves its last pass to render_tile_alloc */
  cn__frame frame;
  /* target-sized buffers */
  cn_buffer config, bump, bump_read, ptiles, fine_tiles, out;
  uint32_t last_w, last_h;
  cn_render_bump last_bump;
  uint32_t fine_runs;  /* fine's loop (CN_RENDER_FINE_RUNS_*) in the frame being recorded */
  uint32_t frame_runs; /* ... and in the frame last read back (cn_renderer_frame_done) */
  bool fine_split, frame_split; /* the very long lists apart: in the frame being recorded, in the last one read back */
  bool coarse_split, frame_coarse_split; /* coarse's split walks: the same */
  uint32_t coarse_segs, frame_coarse_segs; /* ... with this many invocations a tile (1: not split) */
  uint32_t reruns;
  cn_timer *timer;
};

/* cn_renderer_record, optionally leaving the timer alone: the setup, a
 * barrier, the passes. */
cn_result cn_renderer_record_frame(cn_renderer *r, VkCommandBuffer cmd, const cn_render_view *v, bool timer_start);

/* A frame in two parts. The setup checks the view, sizes the buffers, makes
 * the config and records the transfers that start a frame (config, counters,
 * element records, tile clear); the passes record tile allocation to fine
 * after a barrier that follows the setup and whatever produced the lines.
 * Whole scenes (r->scene_frame) record the setup inside the cn_scene_gpu's
 * record, before its first pass, so the transfers overlap the scene stage. */
cn_result cn_renderer__frame_setup(cn_renderer *r, VkCommandBuffer cmd, const cn_render_view *v);
cn_result cn_renderer__frame_passes(cn_renderer *r, VkCommandBuffer cmd);

/* Standalone rendering: records a frame with record(), submits and waits, and
 * repeats while cn_renderer_frame_done() says a buffer grew (every count is
 * exact or an upper bound, so at most twice more), then downloads the
 * picture into rgba (width*height*4). */
typedef cn_result (*cn_render__record_fn)(cn_renderer *r, VkCommandBuffer cmd, const cn_render_view *view);
cn_result cn_render__run_to_rgba8(cn_renderer *r, const cn_render_view *view, cn_render__record_fn record,
                                  uint8_t *rgba);

#endif
