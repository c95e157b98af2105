/* cn_scene_stage.h: the whole scene stage on an encoded scene in one call
 * (stages/scene_stage.c): path boxes -> clip/blend boxes -> bins, for the CLI,
 * the tests and anyone who wants results on the host. The renderer records
 * the stages itself (cn_pathbox_record, cn_bbox_record, cn_bins_record) and
 * keeps the outputs on the GPU.
 */
#ifndef CN_SCENE_STAGE_H
#define CN_SCENE_STAGE_H

#include "canopy.h"
#include "cn_bins.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cn_scene_stage_desc {
  uint32_t bin_size; /* 0: 256 */
  bool no_bins;      /* skip binning (e.g. a viewport too large for a grid) */
} cn_scene_stage_desc;

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

/* Checks the scene (cn_scene_check), uploads it, records path boxes, bbox and
 * bins in one submission (re-running bins larger when the first capacity was
 * short), checks the bbox status, downloads everything. On an unbalanced
 * stream: the error of cn_bbox_validate naming the element. *out is zeroed
 * on failure. */
cn_result cn_scene_stage_run(cn_context *ctx, const cn_scene_data *s, const cn_scene_stage_desc *desc,
                             cn_scene_stage_result *out);

/* CPU reference of the same. path_boxes: the element boxes to start from
 * (e.g. the GPU's, so that the comparison of the later stages is exact), or
 * NULL for the CPU path boxes. */
cn_result cn_scene_stage_cpu(const cn_scene_data *s, const cn_box *path_boxes, const cn_scene_stage_desc *desc,
                             cn_scene_stage_result *out);

void cn_scene_stage_result_free(cn_scene_stage_result *r);

#ifdef __cplusplus
}
#endif

#endif
