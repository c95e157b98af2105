/* cn_scene_stage.h: the whole scene stage on an encoded scene
 * (stages/scene_stage.c): path boxes -> clip/blend boxes -> bins.
 *
 *   cn_scene_stage_record: records the three stages into a command buffer on
 *     scene arrays already on the device (what a renderer calls; outputs stay
 *     on the GPU: per-element tags, path boxes, result boxes, the bbox status
 *     and the CSR bin lists of cn_bins.h);
 *   cn_scene_stage_run: uploads a cn_scene_data (a cn_scene_gpu, cn_scene_gpu.h),
 *     records, submits, checks and downloads everything (the CLI, the tests);
 *   cn_scene_stage_cpu: the CPU reference of the same.
 */
#ifndef CN_SCENE_STAGE_H
#define CN_SCENE_STAGE_H

#include "canopy.h"
#include "cn_scene.h"
#include "cn_bins.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cn_scene_stage_desc {
  uint32_t bin_size; /* 0: 256 */
  bool no_bins;      /* skip binning (e.g. a viewport too large for a grid) */
} cn_scene_stage_desc;

typedef struct cn_scene_stage_args {
  /* inputs: the scene's arrays on the device, as cn_scene_layout.h lays them out */
  VkDeviceAddress elements, paths, segments, transforms, strokes;
  uint32_t element_count, path_count, segment_count, transform_count, stroke_count;
  float viewport[4];
  uint64_t group_bound;        /* >= the scene's BEGIN/END elements (element_count if unknown) */
  cn_bins_grid grid;           /* cn_bins_grid_make(viewport, B) */
  /* outputs */
  VkDeviceAddress tags;        /* element_count uint32 */
  VkDeviceAddress path_boxes;  /* element_count cn_box (cn_pathbox.h) */
  VkDeviceAddress boxes;       /* element_count cn_box: result boxes (cn_bbox.h) */
  VkDeviceAddress status;      /* cn_bbox_status: check it (cn_bbox_status_check) before trusting the rest */
  VkDeviceAddress bin_offsets; /* nbins + 1 uint32 (cn_bins.h); bin_offsets[nbins] > bin_capacity: re-run
                                  bins; 0: no binning */
  VkDeviceAddress bin_elems;   /* bin_capacity uint32 */
  uint64_t bin_capacity;
  VkDeviceAddress scratch;     /* cn_scene_stage_scratch_bytes() bytes */
  cn_timer *timer;             /* optional: every stage's marks */
  /* Optional: a persistent scan look-back state (cn_scan.h) that the bbox
   * and bins stages' scans use, one after the other, instead of scratch
   * (each saves its clearing dispatch): scan_state_bytes at least
   * cn_scene_stage_scan_state_bytes(), zeroed once by cn_scan_state_init.
   * 0: the scans use scratch. */
  VkDeviceAddress scan_state;
  uint64_t scan_state_bytes;
  /* The paths' key boxes in scratch are empty already, as a previous
   * recording of the stage left them where cn_scene_stage_keeps_keys_empty()
   * is true for it (the same scratch and counts, and nothing written to that
   * scratch since that recording ran): the stage then skips their clearing
   * dispatch. false: it clears them. */
  bool path_keys_empty;
} cn_scene_stage_args;

/* Scratch for args (element_count, group_bound, path_count, segment_count,
 * and grid when bin_offsets is not 0). */
CN_API uint64_t cn_scene_stage_scratch_bytes(cn_context *ctx, const cn_scene_stage_args *args);
/* Bytes of a persistent scan state for args (the fields scratch depends on);
 * 0 for streams whose stages run no scan (the single-workgroup kernels). */
CN_API uint64_t cn_scene_stage_scan_state_bytes(cn_context *ctx, const cn_scene_stage_args *args);
/* Whether the stage for args (the fields scratch depends on) leaves the
 * paths' key boxes in scratch empty when it has run (small scenes whose
 * element boxes bbox_small computes): the next recording with the same
 * scratch and counts may then set path_keys_empty. */
CN_API bool cn_scene_stage_keeps_keys_empty(cn_context *ctx, const cn_scene_stage_args *args);

/* Records path boxes, bbox and bins (barriers between; none at the end).
 * Small scenes (at most cn_tuning.pathbox_fold_max elements, when the bbox
 * stage runs in one workgroup and the path boxes in the three-dispatch
 * kernels) have the one-workgroup bbox kernel compute the element boxes
 * from the paths' key boxes: one dispatch and barrier fewer, the same bits. */
CN_API cn_result cn_scene_stage_record(cn_context *ctx, VkCommandBuffer cmd, const cn_scene_stage_args *args);

typedef struct cn_scene_stage_result {
  uint64_t n;            /* elements */
  uint32_t *tags;        /* n element tags */
  cn_box *path_boxes;    /* n: element boxes from the paths (the bbox stage's input) */
  cn_box *boxes;         /* n: result boxes (cn_bbox.h semantics) */
  cn_bins_grid grid;     /* zero when binning was skipped */
  uint32_t *bin_offsets; /* nbins + 1 (cn_bins.h CSR) */
  uint32_t *bin_elems;   /* bin_total */
  uint64_t bin_total;
} cn_scene_stage_result;

/* Checks the scene (cn_scene_check: an unbalanced stream is reported naming
 * the element), uploads it, records path boxes, bbox and bins in one
 * submission (re-running once with the exact capacity when the bin lists did
 * not fit), checks the bbox status, downloads everything. *out is zeroed on
 * failure. */
CN_API cn_result cn_scene_stage_run(cn_context *ctx, const cn_scene_data *s, const cn_scene_stage_desc *desc,
                             cn_scene_stage_result *out);

/* CPU reference of the same. path_boxes: the element boxes to start from
 * (e.g. the GPU's, so that the comparison of the later stages is exact), or
 * NULL for the CPU path boxes. */
CN_API cn_result cn_scene_stage_cpu(const cn_scene_data *s, const cn_box *path_boxes, const cn_scene_stage_desc *desc,
                             cn_scene_stage_result *out);

CN_API void cn_scene_stage_result_free(cn_scene_stage_result *r);

#ifdef __cplusplus
}
#endif

#endif
