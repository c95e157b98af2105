/* cn_render.h: the renderer core: line segments -> per-tile runs of line pieces ->
 * per-tile command lists (coarse) -> pixels (fine), all on the GPU.
 *
 * Inputs:  an encoded scene (cn_scene_data). Whole scenes
 *          (cn_renderer_record_scene, cn_render_scene_to_rgba8) run the scene
 *          stage (cn_scene_stage.h: clip/blend boxes, per-bin lists) and the
 *          flatten stage (cn_flatten.h) first. The core alone
 *          (cn_renderer_record, cn_render_lines_to_rgba8) takes the scene's
 *          flattened lines in device pixels (cn_render_line, the layout of
 *          cn_line: closed outlines, each tagged with its FILL, STROKE or
 *          BEGIN_CLIP element; strokes already expanded to outlines filled with
 *          the nonzero rule).
 * Outputs: width x height pixels, RGBA8 sRGB, straight alpha, row-major, into
 *          a device buffer (the renderer's own or one the caller names by
 *          device address).
 * Limits:  width, height <= CN_RENDER_MAX_SIZE; elements < 2^31; clip and blend
 *          nesting of any depth (deep levels spill to memory). Scratch buffers
 *          grow as the scene needs: a frame whose buffers were too small
 *          reports it (cn_renderer_frame_done) and is recorded again.
 *
 * Use, standalone: cn_render_scene_to_rgba8(), or per frame
 *   cn_renderer_set_scene();  (or cn_renderer_use_scene_gpu with a cn_scene_gpu of your own)
 *   do { cn_cmd_begin(); cn_renderer_record_scene(); cn_cmd_submit(); cn_renderer_frame_done(&again); }
 *   while (again);
 * Every buffer's count is exact or an upper bound, so a frame needs at most
 * one re-run (two when the flattened lines did not fit the first time).
 * (with lines of your own: cn_renderer_set_lines() and cn_renderer_record()).
 * Embedded (the viewer): the same calls in the host's own command buffer,
 * followed by its drawing from the renderer's buffers (cn_scene_gpu_outputs)
 * in the same submission; a frame whose buffers grew is recorded again.
 */
#ifndef CN_RENDER_H
#define CN_RENDER_H

#include "canopy.h"
#include "cn_scene.h"
#include "cn_render_shared.h"
#include "cn_scene_gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CN_RENDER_MAX_SIZE 16384u

typedef struct cn_renderer cn_renderer;

typedef struct cn_renderer_desc {
  /* Initial capacities (0: defaults sized from the target). Tests set them tiny
   * to prove that overflow is detected and the frame re-run. */
  uint32_t initial_tiles, initial_segs, initial_chunks, initial_spill;
  uint32_t initial_bins, initial_lines; /* whole scenes: bin list entries, flattened lines */
  /* Record GPU timestamps per stage (cn_renderer_stage_times). */
  bool timing;
  /* Whole scenes: no per-bin lists; coarse then walks every element for every
   * bin (the scene stage's result boxes still bound each element's tiles). */
  bool no_bins;
  /* Fine draws only the tiles whose command list coarse could not reduce to
   * one colour, in an indirect dispatch of at most fine_max_groups workgroups
   * (0: the device's limit), each taking every fine_max_groups-th listed
   * tile. fine_every_tile lists every tile (coarse then writes no pixel):
   * tests compare both ways. */
  uint32_t fine_max_groups;
  bool fine_every_tile;
  /* render_backdrop spreads each element's tile rows over several workgroups
   * (slices) so that the grid holds about backdrop_grid workgroups of 256
   * invocations (0: 4096), never more slices than a target-high element's
   * rows need; with more elements than that, a workgroup takes several
   * elements (up to four a subgroup) and shares out their rows (1: as many
   * a workgroup as that allows). The picture does not depend on it. */
  uint32_t backdrop_grid;
  /* Lines per render_tile_seg workgroup, 1..256 (0, or above 256: 256,
   * halved down to 32 while the grid, sized by the line capacity, would hold
   * fewer than 1024 workgroups). The picture does not depend on it. */
  uint32_t tile_seg_lines;
  /* How fine reads a FILL's run of line pieces (CN_RENDER_FINE_RUNS_*): by
   * default from the previous frame's runs (shuffles when a share of the
   * pieces lie in long runs, plain loads when nearly all runs are a few
   * pieces). With area coverage, plain loads also draw four pixels an
   * invocation instead of two: with short runs a tile's time is the walk of
   * its command list, which every invocation makes. The pictures agree up to
   * float rounding. */
  uint32_t fine_runs;
  /* With area coverage, whether fine draws the tiles of very long command
   * lists apart, one pixel an invocation (CN_RENDER_FINE_SPLIT_*): by default
   * when the previous frame had a few of them (at most 128), whose walks are
   * then the frame's critical path. The pictures agree up to float rounding. */
  uint32_t fine_split;
  /* Whether coarse walks each tile's list with several invocations (two, or
   * four where a bin's list held 128 elements or more), which split the
   * walks of long blocks of elements between them (CN_RENDER_COARSE_SPLIT_*):
   * by default when the previous frame had a few bins with lists of 64
   * elements or more (at least one, at most 128), whose walks are then the
   * pass's critical path. The pictures are the same. */
  uint32_t coarse_split;
} cn_renderer_desc;

#define CN_RENDER_FINE_RUNS_AUTO 0u    /* chosen per frame (the default) */
#define CN_RENDER_FINE_RUNS_SHUFFLE 1u /* a subgroup's width of pieces per load, handed round by shuffles */
#define CN_RENDER_FINE_RUNS_LOADS 2u   /* every invocation loads every piece */

#define CN_RENDER_FINE_SPLIT_AUTO 0u /* chosen per frame (the default) */
#define CN_RENDER_FINE_SPLIT_ON 1u   /* always apart */
#define CN_RENDER_FINE_SPLIT_OFF 2u  /* never */

#define CN_RENDER_COARSE_SPLIT_AUTO 0u /* chosen per frame (the default) */
#define CN_RENDER_COARSE_SPLIT_ON 1u   /* always (two or four invocations a tile) */
#define CN_RENDER_COARSE_SPLIT_OFF 2u  /* always one */

typedef struct cn_render_view {
  uint32_t width, height;  /* target size in pixels, 1..CN_RENDER_MAX_SIZE */
  float background[4];     /* straight sRGB RGBA under the scene; {0} transparent */
  /* Where the pixels go: a device address of width*height*4 bytes (rows of
   * `stride` pixels, 0: width); 0 means the renderer's own buffer
   * (cn_renderer_output). */
  VkDeviceAddress target;
  uint32_t stride;
  /* Whole-scene rendering only (cn_renderer_record_scene): the view transform
   * a b c d e f (SVG order) applied after every path's and paint's transform
   * (all zero: identity), and the flattening tolerance in device pixels (0: 0.25). */
  float transform[6];
  float tolerance;
  /* Anti-aliasing: CN_AA_AREA (0, the default) takes each pixel's coverage as
   * the exact area of the pixel square inside the path; CN_AA_SS16 as 16 point
   * samples on a 4x4 grid, counted as Skia's supersampling rasterizer counts
   * them (the pictures tiny-skia and resvg make, edges quantised to quarter
   * pixels). It applies to fills, strokes and clip paths alike, except that in
   * whole-scene frames a stroke at most 1 device pixel wide (Skia's hairline
   * test, cn_flatten_elem.flags) keeps area coverage, as Skia draws it as a
   * hairline scaled by its width. docs/RENDER.md has the rules. */
  uint32_t aa;
} cn_render_view;

/* Creates a renderer bound to ctx. *out is NULL on failure. */
CN_API cn_result cn_renderer_create(cn_context *ctx, const cn_renderer_desc *desc, cn_renderer **out);
/* Frees it and its buffers (waits for nothing: the caller's GPU work using it
 * must be finished). NULL is fine. */
CN_API void cn_renderer_destroy(cn_renderer *r);

/* Uploads the scene into the renderer's own cn_scene_gpu (cn_scene_gpu.h:
 * cn_scene_check, then one upload; waits for the copy). Keeps a pointer to
 * scene: it must stay valid and unchanged while frames of it are recorded.
 * Pan and zoom need no new upload: record frames with another view. */
CN_API cn_result cn_renderer_set_scene(cn_renderer *r, const cn_scene_data *scene);

/* Renders the scene of g, a cn_scene_gpu the caller owns and may record into
 * itself (the viewer reads its boxes, bins and lines for overlays); g must
 * outlive the renderer's use of it. Replaces the renderer's own scene. */
CN_API cn_result cn_renderer_use_scene_gpu(cn_renderer *r, cn_scene_gpu *g);

/* The cn_scene_gpu the renderer draws from (NULL before a scene is set). */
CN_API cn_scene_gpu *cn_renderer_scene_gpu(const cn_renderer *r);

/* Uploads n line segments computed on the CPU (tests and CPU flattening);
 * lines naming an element >= element_count are ignored by the kernels. */
CN_API cn_result cn_renderer_set_lines(cn_renderer *r, const cn_render_line *lines, uint32_t n);

/* Uses lines already on the GPU instead (the flattening stage's output):
 * `lines` holds cap records; the u32 at device address `count` is the number
 * of valid ones, read by the kernels when the frame runs (a count above cap
 * is clamped to cap). */
CN_API cn_result cn_renderer_use_gpu_lines(cn_renderer *r, VkDeviceAddress lines, VkDeviceAddress count, uint32_t cap);

/* Records one frame into cmd. The scene and lines must be set. Buffers are
 * (re)allocated here: the previous frame recorded with this renderer must have
 * completed on the GPU (one frame in flight per renderer; use one renderer per
 * frame in flight otherwise). */
CN_API cn_result cn_renderer_record(cn_renderer *r, VkCommandBuffer cmd, const cn_render_view *view);

/* After the recorded frame completed on the GPU: *again is true when a buffer
 * was too small; the renderer has grown it and the frame must be recorded and
 * run again. Fails with CN_ERROR_LIMIT when the scene needs more than the
 * device can hold. */
CN_API cn_result cn_renderer_frame_done(cn_renderer *r, bool *again);

/* The renderer's own output buffer (valid after a frame with target 0). */
CN_API const cn_buffer *cn_renderer_output(const cn_renderer *r);

/* Capacities and use of the last frame (tests, benchmarks). */
typedef struct cn_render_stats {
  uint32_t cap_tiles, cap_segs, cap_chunks, cap_spill;
  uint32_t used_tiles, used_segs, used_chunks, used_spill, lines;
  uint32_t reruns; /* re-runs the last cn_render_*_to_rgba8 call needed */
  uint32_t tiles, fine_tiles; /* the target's tiles; those fine drew (coarse wrote the others: one colour) */
  bool binned;     /* the last frame's coarse stage walked the scene stage's bin lists */
  uint32_t fills, fill_pieces; /* the last frame's FILL/END_CLIP commands with pieces, and their pieces */
  uint32_t long_pieces;        /* ... those pieces in runs of 8 or more */
  uint32_t fine_runs;          /* how its fine read them: CN_RENDER_FINE_RUNS_SHUFFLE or _LOADS */
  uint32_t vl_tiles;           /* its tiles whose command list took two runs of chunks (over ~316 words) */
  bool fine_split;             /* its fine drew those apart, one pixel an invocation */
  uint32_t long_bins;          /* its bins whose element list held 64 elements or more */
  bool coarse_split;           /* its coarse split long blocks' walks ... */
  uint32_t coarse_segs;        /* ... between this many invocations a tile (1: not split; 2 or 4) */
} cn_render_stats;
CN_API void cn_renderer_stats(const cn_renderer *r, cn_render_stats *out);

/* GPU time per stage of the last frame (desc.timing): up to cap spans. */
CN_API cn_result cn_renderer_stage_times(cn_renderer *r, uint32_t *n, const char **labels, double *ns, uint32_t cap);

/* Whole scenes: records the scene stage (result boxes, bin lists) and the
 * flatten stage for the view through the scene's cn_scene_gpu, then the
 * renderer core on their outputs, into one command buffer. Elements whose
 * result box is empty get no tiles (and no lines, except in a frame that runs
 * flatten beside the scene stage: cn_scene_gpu_counts.flatten_overlapped);
 * every element's tiles lie within its result box (its clips and the target). frame_done checks and
 * grows every buffer of the frame in one step. */
CN_API cn_result cn_renderer_record_scene(cn_renderer *r, VkCommandBuffer cmd, const cn_render_view *view);

/* Standalone whole-scene rendering: uploads the scene, flattens and renders,
 * re-running frames until the buffers fit; rgba gets width*height*4 bytes. */
CN_API cn_result cn_render_scene_to_rgba8(cn_renderer *r, const cn_scene_data *scene, const cn_render_view *view,
                                   uint8_t *rgba);

/* Standalone: renders scene + host lines into rgba (width*height*4 bytes),
 * re-running frames until the buffers fit. */
CN_API cn_result cn_render_lines_to_rgba8(cn_renderer *r, const cn_scene_data *scene, const cn_render_line *lines,
                                   uint32_t nlines, const cn_render_view *view, uint8_t *rgba);

#ifdef __cplusplus
}
#endif

#endif
