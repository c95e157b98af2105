/* cn_scene_gpu.h: one encoded scene on the GPU, and every buffer whose size
 * depends on it (stages/scene_gpu.c).
 *
 * A cn_scene_gpu is uploaded once (cn_scene_gpu_set_scene: the one scene
 * check, then one upload of all the scene's arrays) and reused for every
 * frame: pan and zoom change only the view a frame is recorded with. It owns
 * the scene stage's buffers (tags, path boxes, result boxes, status, bin
 * lists, scratch), the flatten stage's (lines, per-element ranges and boxes,
 * work), and the renderer's scene-sized buffers (tile records, tile segments,
 * command chunks, spilled stack levels). All their capacities live in one
 * cn_scene_sizes: set from the scene's counts on upload, and grown in one
 * place from what the GPU reports after a frame (exact counts where the
 * stages count exactly, never less than the need).
 *
 * Per frame:
 *   cn_scene_gpu_record(g, cmd, &frame): the scene stage (path boxes, clip and
 *     blend boxes, bins when frame.bin_size) and, when frame.flatten, the
 *     flatten stage, on the scene under frame.transform (transforms are
 *     composed with the view on the GPU); ends with a barrier, outputs stay on
 *     the device (cn_scene_gpu_outputs).
 *   after the submission completed: cn_scene_gpu_frame_done(g, &again):
 *     checks the group structure (CN_ERROR_UNBALANCED naming the element) and
 *     grows what was short; again: record the frame again.
 * The renderer (cn_render.h) records the same and its own kernels in one
 * command buffer; cn_scene_gpu_run() is the standalone loop.
 */
#ifndef CN_SCENE_GPU_H
#define CN_SCENE_GPU_H

#include "canopy.h"
#include "cn_bins.h"
#include "cn_scene.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Capacities (records) of every scene-sized buffer. */
typedef struct cn_scene_sizes {
  uint64_t bin_entries; /* (bin, element) entries of the bin lists */
  uint32_t lines;       /* flattened lines */
  uint32_t tiles;       /* renderer: tile records of all elements */
  uint32_t segs;        /* renderer: line pieces in tiles */
  uint32_t chunks;      /* renderer: command-list chunks beyond each tile's first */
  uint32_t spill;       /* renderer: spilled clip/blend stack levels */
} cn_scene_sizes;

typedef struct cn_scene_gpu_desc {
  /* First capacities; a zero field: sized from the scene (and, for the
   * renderer's, from the target). Tests set them tiny to exercise growth. */
  cn_scene_sizes initial;
} cn_scene_gpu_desc;

typedef struct cn_scene_gpu cn_scene_gpu;

CN_API cn_result cn_scene_gpu_create(cn_context *ctx, const cn_scene_gpu_desc *desc, cn_scene_gpu **out);
/* The GPU must be done with it. NULL is fine. */
CN_API void cn_scene_gpu_destroy(cn_scene_gpu *g);

/* Checks the scene (cn_scene_check) and uploads its arrays (waits for the
 * copy). Keeps a pointer to scene: it must stay valid and unchanged until the
 * next set_scene or destroy. */
CN_API cn_result cn_scene_gpu_set_scene(cn_scene_gpu *g, const cn_scene_data *scene);

/* What one frame computes. */
typedef struct cn_scene_frame {
  float viewport[4];   /* device pixels x0 y0 x1 y1; all zero: the scene's viewport */
  float transform[6];  /* view a b c d e f (SVG order) after every path's transform; all zero: identity */
  uint32_t bin_size;   /* bins of this many pixels (cn_bins.h); 0: no binning */
  bool flatten;        /* run the flatten stage too */
  bool cull;           /* flatten: elements whose result box is empty emit no lines (a frame
                          may instead run flatten beside the stage when that culls nothing:
                          cn_scene_gpu_counts.flatten_overlapped) */
  float tolerance;     /* flatten tolerance in device pixels; 0: 0.25 */
  cn_timer *timer;     /* optional: every stage's marks (not reset here) */
} cn_scene_frame;

/* Records the frame's scene stage (and flatten). Buffers are (re)allocated
 * here: the previous frame recorded with g must have completed. */
CN_API cn_result cn_scene_gpu_record(cn_scene_gpu *g, VkCommandBuffer cmd, const cn_scene_frame *frame);

/* After the recorded frame completed: CN_ERROR_UNBALANCED (naming the element)
 * on a bad group structure, CN_ERROR_LIMIT past a stage's limit; *again when a
 * buffer was short (it has grown to the exact need: record again). */
CN_API cn_result cn_scene_gpu_frame_done(cn_scene_gpu *g, bool *again);

/* Standalone: records, submits and waits, repeating while buffers grow. */
CN_API cn_result cn_scene_gpu_run(cn_scene_gpu *g, const cn_scene_frame *frame, uint32_t *reruns);

/* Where the last recorded frame's results live (valid until the next record). */
typedef struct cn_scene_gpu_outputs {
  uint32_t element_count;
  VkDeviceAddress tags;        /* element_count uint32 */
  VkDeviceAddress path_boxes;  /* element_count cn_box (cn_pathbox.h) */
  VkDeviceAddress boxes;       /* element_count cn_box: result boxes (cn_bbox.h) */
  cn_bins_grid grid;           /* zero when the frame did not bin */
  VkDeviceAddress bin_offsets; /* nbins + 1 uint32 (0 without bins) */
  VkDeviceAddress bin_elems;   /* bin_capacity uint32 */
  uint64_t bin_capacity;
  VkDeviceAddress lines;       /* line_capacity cn_line (flatten frames) */
  VkDeviceAddress line_elems;  /* element_count cn_flatten_elem */
  VkDeviceAddress line_header; /* cn_flatten_header: line_count first */
  uint32_t line_capacity;
  /* for copies and barriers */
  const cn_buffer *tags_buffer, *path_boxes_buffer, *boxes_buffer, *bin_offsets_buffer, *bin_elems_buffer;
  const cn_buffer *lines_buffer, *line_elems_buffer;
} cn_scene_gpu_outputs;
CN_API void cn_scene_gpu_outputs_get(const cn_scene_gpu *g, cn_scene_gpu_outputs *out);

/* The last frame's counts, read back by frame_done. */
typedef struct cn_scene_gpu_counts {
  uint64_t bin_entries; /* entries of the bin lists */
  uint32_t lines;       /* flattened lines */
  /* flatten's passes ran beside the scene stage's, without culling:
   * the last frame that culled, at the same view and viewport, culled
   * nothing (the renderer's frames: at most 1/16 of the pairs; their
   * elements get no tiles all the same); cn_tuning.flatten_no_overlap turns
   * this off */
  bool flatten_overlapped;
} cn_scene_gpu_counts;
CN_API void cn_scene_gpu_counts_get(const cn_scene_gpu *g, cn_scene_gpu_counts *out);

/* Current capacities, and the scene's counts from the check. */
CN_API void cn_scene_gpu_sizes_get(const cn_scene_gpu *g, cn_scene_sizes *out);
CN_API const cn_scene_info *cn_scene_gpu_info(const cn_scene_gpu *g);
CN_API const cn_scene_data *cn_scene_gpu_scene(const cn_scene_gpu *g);

#ifdef __cplusplus
}
#endif

#endif
