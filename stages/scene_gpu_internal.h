/* scene_gpu_internal.h: the cn_scene_gpu object (stages/scene_gpu.c), shared
 * with the renderer (render.c, render_scene.c), which records into its
 * scene-sized buffers. */
#ifndef CN_SCENE_GPU_INTERNAL_H
#define CN_SCENE_GPU_INTERNAL_H

#include "cn_bbox.h"
#include "cn_flatten.h"
#include "cn_render_shared.h"
#include "cn_scene_gpu.h"
#include "internal.h"

/* cn_scene_check, also filling (when not NULL) pair[] (END <-> BEGIN, else
 * CN_NONE) and flags[] (CN_ELEM_* of cn_render_shared.h) per element. */
cn_result cn__scene_check(const cn_scene_data *s, cn_scene_info *info, uint32_t *pair, uint32_t *flags);

/* Readback area: what frame_done reads. */
typedef struct cn__scene_readback {
  uint32_t bin_total; /* bin_offsets[nbins] */
  uint32_t fl_pairs;  /* flatten's pairs after culling (pair_base[E]), frames that cull */
  uint32_t pad[2];
  cn_bbox_status status;
  cn_flatten_header header;
} cn__scene_readback;

/* What the GPU reported a frame needs, for the one growth rule. */
typedef struct cn__scene_needs {
  uint64_t bin_entries; /* exact */
  uint64_t lines;       /* exact */
  bool lines_short;     /* the lines did not fit: the renderer's counts below saw only some */
  double render_scale;  /* then: lines needed / lines the renderer saw */
  bool render;          /* the renderer's counters below are set */
  uint32_t failed;      /* CN_FAIL_* of the renderer */
  uint64_t tiles, segs, chunks, spill; /* renderer counters */
} cn__scene_needs;

struct cn_scene_gpu {
  cn_context *ctx;
  cn_scene_sizes initial; /* from the desc (0: sized from the scene) */
  cn_scene_sizes cap;     /* current capacities */
  const cn_scene_data *host;
  bool has_scene;
  cn_scene_info info;
  /* the scene's arrays, one buffer, each 16-byte aligned */
  cn_buffer scene;
  VkDeviceSize off_elements, off_paints, off_stops, off_transforms, off_blends;
  VkDeviceSize off_paths, off_segments, off_strokes, off_dashes, off_images, off_image_pixels;
  cn_buffer elem_init; /* renderer: cn_render_elem[n] with empty boxes, bracket pairs, flags */
  /* scene stage */
  cn_buffer view_transforms, tags, path_boxes, boxes, status, scratch, bin_offsets, bin_elems;
  /* the scans' persistent look-back state (cn_scene_stage_args.scan_state):
   * scan_state_bytes of it in use; zeroed by the first frame recorded after
   * it was allocated, known zeroed once such a frame was read
   * (cn__scene_gpu_read): until then every frame zeroes it again */
  cn_buffer scan_state;
  uint64_t scan_state_bytes;
  bool scan_state_ready, scan_state_zeroing;
  /* the paths' key boxes in scratch (cn_scene_stage_args.path_keys_empty):
   * left empty by the last recorded stage (keys_pending) for these counts and
   * this scratch; known so once that frame was read (keys_ready) */
  bool keys_pending, keys_ready;
  VkDeviceAddress keys_scratch;
  VkDeviceSize keys_scratch_size;
  uint64_t keys_sig[7];
  /* flatten stage */
  cn_buffer lines, line_elems, fl_scratch;
  /* renderer's scene-sized buffers (render.c sizes and records them) */
  cn_buffer elem, tiles, segs, cmds, spill;
  cn_buffer readback; /* cn__scene_readback */
  /* the last recorded frame */
  cn_bins_grid grid;
  uint32_t nbins;
  bool staged, binned, flattened;
  cn_scene_gpu_counts counts;
  /* set by the renderer around its whole-scene frames: cn_scene_gpu_record
   * leaves out the readback copies (and flatten's last barrier, the renderer's
   * setup barrier standing for it); the renderer records the copies with
   * cn__scene_gpu_record_readback after its last pass, off the critical path
   * (no pass of the frame writes what they copy) */
  bool defer_readback;
  /* set by the renderer around its whole-scene frames: prelude(prelude_user,
   * cmd) is called once by cn_scene_gpu_record after every buffer of the
   * frame is sized and before the scene stage's (or, without a stage,
   * flatten's) passes: the renderer's setup transfers run beside them.
   * flatten_caller_finish: flatten's last pass is left to the renderer
   * (cn_flatten_args.caller_finish). */
  cn_result (*prelude)(void *user, VkCommandBuffer cmd);
  void *prelude_user;
  bool flatten_caller_finish;
  /* The subpath links (cn_flatten_record_links, then the scan and last pass
   * in flatten's setup) depend on the segments alone and live in the flatten
   * scratch: once a frame that computed them has completed (frame done),
   * later frames of the scene keep them (cn_flatten_args.links_ready) until
   * the scene changes or the scratch is reallocated. links_pending: this
   * record computes them. */
  bool links_ready, links_pending;
  /* Flatten beside the scene stage (cn__flatten_overlap): pairs_all is the
   * scene's exact pair total without culling (CN_PATH_CURVED as uploaded);
   * a frame that culled reads back its pair total, and pairs_culled (what
   * culling saved) holds for its view and viewport (cull_known): the next
   * frame at the same view and viewport would cull the same elements. When
   * it culled nothing, that frame may flatten without culling, its first
   * passes beside the stage's, and get the same lines; the renderer, whose
   * frames give an element with an empty result box no tiles (so its lines
   * draw nothing), sets cull_lines_ok around its record: its frames overlap
   * too when culling saved at most 1/16 of the pairs (the pixels are the
   * same). fl_culls / fl_overlapped: what the last record did. */
  uint32_t pairs_all, pairs_culled;
  uint32_t stroke_split; /* pairs per segment of a stroke of a CN_PATH_CURVED path (set_scene) */
  bool cull_known, cull_lines_ok, fl_culls, fl_overlapped;
  float cull_view[6], cull_viewport[4];
};

/* cn_tuning.flatten_split_max's default: the most stroke chunks (16, 8, 4,
 * 2) that keep the scene's pairs within 73 728 (on the H200 the chunks made
 * the synthetic 1000 paths with 30% strokes 0.41 -> 0.25 ms and the 10 000
 * paths 0.75 -> 1.75: past a wave or two of invocations the chunks' extra
 * lanes cost more than the shorter walks save. The pair kernel's 126
 * registers leave 8 workgroups of 64 per SM there, 67 584 pairs a wave:
 * mapWaadt.svg's 90 000 pairs in 16 chunks took 0.279 ms a frame, its 62 000
 * in 8 0.260, while rs.svg's 56 000 in 16 took 0.215 and in 8 0.285;
 * docs/PERF.md) */
#define CN__FLATTEN_SPLIT_DEFAULT 73728u

/* Device address of an array of the uploaded scene. */
#define CN__SG_ADDR(g, name) ((g)->scene.address + (g)->off_##name)

/* The one growth rule: every capacity below its need grows to it (plus a
 * little slack for counts that are upper bounds anyway); *grew says whether
 * any did. CN_ERROR_LIMIT past a stage's limit. */
cn_result cn__scene_sizes_grow(cn_scene_gpu *g, const cn__scene_needs *need, bool *grew);

/* Records the copies of the frame's counters (bbox status, bin total, flatten
 * header) into the readback buffer, and the barrier to the host; after a
 * barrier that follows the stages' last writes. */
void cn__scene_gpu_record_readback(cn_scene_gpu *g, VkCommandBuffer cmd);

/* Reads what the last frame counted (and checks the group structure). */
cn_result cn__scene_gpu_read(cn_scene_gpu *g, cn__scene_needs *need);

/* Renderer: sizes its scene-sized buffers for a target of ntiles tiles. */
cn_result cn__scene_gpu_reserve_render(cn_scene_gpu *g, uint32_t ntiles);

/* Above this many records of one kind a scene is refused (CN_ERROR_LIMIT). */
#define CN_SCENE_MAX_RECORDS (1u << 27)

#endif
