/* scene_stage.c: the whole scene stage on a cn_scene_data (see cn_scene_stage.h). */
#include "cn_scene_stage.h"

#include "cn_bbox.h"
#include "cn_pathbox.h"
#include "cn_scan.h"
#include "cn_scene_gpu.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

void cn_scene_stage_result_free(cn_scene_stage_result *r) {
  free(r->tags);
  free(r->path_boxes);
  free(r->boxes);
  free(r->bin_offsets);
  free(r->bin_elems);
  memset(r, 0, sizeof *r);
}

static cn_result cn__alloc_result(uint64_t n, cn_scene_stage_result *out) {
  memset(out, 0, sizeof *out);
  out->n = n;
  out->tags = malloc(CN_MAX(n, 1) * 4);
  out->path_boxes = malloc(CN_MAX(n, 1) * sizeof(cn_box));
  out->boxes = malloc(CN_MAX(n, 1) * sizeof(cn_box));
  if (!out->tags || !out->path_boxes || !out->boxes) {
    cn_scene_stage_result_free(out);
    return cn_fail(CN_ERROR_OUT_OF_MEMORY, "scene stage: out of host memory");
  }
  return CN_OK;
}

cn_result cn_scene_stage_cpu(const cn_scene_data *s, const cn_box *path_boxes, const cn_scene_stage_desc *desc,
                             cn_scene_stage_result *out) {
  cn_scene_stage_desc d = desc ? *desc : (cn_scene_stage_desc){0};
  CN_TRY(cn_scene_check(s, NULL));
  CN_TRY(cn__alloc_result(s->element_count, out));
  for (uint32_t i = 0; i < s->element_count; i++) out->tags[i] = s->elements[i].tag;
  cn_result r = CN_OK;
  if (path_boxes) memcpy(out->path_boxes, path_boxes, (size_t)s->element_count * sizeof(cn_box));
  else r = cn_pathbox_cpu(s, out->path_boxes);
  if (r == CN_OK) r = cn_bbox_cpu(out->tags, out->path_boxes, out->n, s->viewport, out->boxes);
  if (r == CN_OK && !d.no_bins) r = cn_bins_grid_make(s->viewport, d.bin_size ? d.bin_size : 256, &out->grid);
  if (r == CN_OK && !d.no_bins)
    r = cn_bins_cpu(out->boxes, out->n, &out->grid, &out->bin_offsets, &out->bin_elems, &out->bin_total);
  if (r != CN_OK) cn_scene_stage_result_free(out);
  return r;
}

uint32_t cn__scene_fold_max(const cn_context *ctx) {
  uint32_t v = ctx->tuning.pathbox_fold_max;
  if (v == CN_SMALL_OFF) return 0;
  return v ? v : CN_PATHBOX_FOLD_DEFAULT;
}

/* Small scenes fold the path-box stage's element step into bbox_small (one
 * dispatch and barrier fewer): those of at most cn__scene_fold_max elements
 * whose bbox stage runs in bbox_small and whose path boxes run the
 * three-dispatch kernels (not pathbox_small or pathbox_fused, which hold the
 * element step themselves). The paths' key boxes then sit past the bbox
 * scratch, which bbox_small writes while it reads them: their byte offset
 * in scratch, 0 when the stage does not fold. */
uint64_t cn__scene_fold_keys_at(cn_context *ctx, uint64_t n, uint64_t group_bound, uint64_t segments,
                                uint64_t paths) {
  /* bbox_small also empties every path's key (a loop of paths / workgroup
   * trips per invocation): at most 8192 paths */
  if (!n || n > cn__scene_fold_max(ctx) || paths > 8192 || !cn__bbox_small(ctx, n, group_bound)) return 0;
  if (cn__pathbox_small_wg(ctx, segments, n, paths) || cn__pathbox_fused_wg(ctx, segments, n)) return 0;
  uint64_t at = cn_bbox_scratch_bytes(ctx, &(cn_bbox_args){.n = n, .group_bound = group_bound});
  at = (at + 255) & ~(uint64_t)255;
  return at < (1ull << 32) ? at : 0;
}

/* Whether the stage bins with the multi-pass kernels (count, scan, fill: the
 * ones that use scratch and scan), not bins_rows or bins_small. */
static bool cn__bins_multi_pass(cn_context *ctx, const cn_scene_stage_args *a) {
  uint64_t n = a->element_count;
  return a->bin_offsets && a->grid.nbx && a->grid.nby && !cn__bins_rows_grid(ctx, n, &a->grid) &&
         !cn__bins_small_grid(ctx, n, &a->grid);
}

/* The keys past the bins' scratch too where binning uses scratch, so that no
 * stage of the frame writes them after bbox_small leaves them empty
 * (cn_scene_stage_args.path_keys_empty). */
static uint64_t cn__fold_keys_at(cn_context *ctx, const cn_scene_stage_args *a) {
  uint64_t at = cn__scene_fold_keys_at(ctx, a->element_count, a->group_bound, a->segment_count, a->path_count);
  if (at && cn__bins_multi_pass(ctx, a)) {
    uint64_t b = cn_bins_scratch_bytes(ctx, &(cn_bins_args){.n = a->element_count, .grid = a->grid});
    at = CN_MAX(at, (b + 255) & ~(uint64_t)255);
  }
  return at < (1ull << 32) ? at : 0;
}

bool cn_scene_stage_keeps_keys_empty(cn_context *ctx, const cn_scene_stage_args *a) {
  return ctx && a && cn__fold_keys_at(ctx, a) != 0;
}

uint64_t cn_scene_stage_scratch_bytes(cn_context *ctx, const cn_scene_stage_args *a) {
  if (!ctx || !a) return 0;
  /* The stages run one after the other: they share one scratch area. */
  cn_pathbox_args pa = {.path_count = a->path_count};
  cn_bbox_args ba = {.n = a->element_count, .group_bound = a->group_bound};
  cn_bins_args na = {.n = a->element_count, .grid = a->grid};
  uint64_t s = cn_pathbox_scratch_bytes(ctx, &pa);
  s = CN_MAX(s, cn_bbox_scratch_bytes(ctx, &ba));
  if (a->bin_offsets && a->grid.nbx && a->grid.nby) s = CN_MAX(s, cn_bins_scratch_bytes(ctx, &na));
  uint64_t keys_at = cn__fold_keys_at(ctx, a);
  if (keys_at) s = CN_MAX(s, keys_at + cn_pathbox_scratch_bytes(ctx, &pa));
  return s;
}

/* Only the multi-pass kernels scan: bbox_small, bins_rows and bins_small do not. */
uint64_t cn_scene_stage_scan_state_bytes(cn_context *ctx, const cn_scene_stage_args *a) {
  if (!ctx || !a || !a->element_count) return 0;
  uint64_t n = a->element_count, s = 0;
  if (!cn__bbox_small(ctx, n, a->group_bound))
    s = cn_bbox_scan_state_bytes(ctx, &(cn_bbox_args){.n = n, .group_bound = a->group_bound});
  if (cn__bins_multi_pass(ctx, a))
    s = CN_MAX(s, cn_bins_scan_state_bytes(ctx, &(cn_bins_args){.n = n, .grid = a->grid}));
  return s;
}

/* Whether the stage's path boxes fold their segments in bbox_small_segs
 * (keys_at: cn__fold_keys_at): not in the frames that run a caller's passes
 * beside the stage's (hooked: flatten's, in cn_scene_gpu's render frames),
 * where a path-box pass is one more phase for them to share (H200: those
 * frames were 0.005 - 0.01 ms slower with it, docs/PERF.md). */
static bool cn__segs_beside(cn_context *ctx, const cn_scene_stage_args *a, uint64_t keys_at, bool hooked) {
  return keys_at && !hooked && !ctx->tuning.pathbox_segments_apart && a->segments &&
         a->segment_count <= UINT32_MAX - 1024 && cn__bbox_small_segs(ctx, a->element_count, a->group_bound);
}

bool cn__scene_stage_path_pass(cn_context *ctx, const cn_scene_stage_args *a, bool hooked) {
  return !(cn__segs_beside(ctx, a, cn__fold_keys_at(ctx, a), hooked) && a->path_keys_empty);
}

cn_result cn_scene_stage_record(cn_context *ctx, VkCommandBuffer cmd, const cn_scene_stage_args *a) {
  return cn__scene_stage_record_hooked(ctx, cmd, a, NULL, NULL, NULL);
}

cn_result cn__scene_stage_record_hooked(cn_context *ctx, VkCommandBuffer cmd, const cn_scene_stage_args *a,
                                        cn_result (*hook)(void *user, VkCommandBuffer cmd), void *user,
                                        cn__beside_fn bins_beside) {
  if (!ctx || !a) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_stage_record: NULL argument");
  cn_pathbox_args pa = {.elements = a->elements,
                        .paths = a->paths,
                        .segments = a->segments,
                        .transforms = a->transforms,
                        .strokes = a->strokes,
                        .element_count = a->element_count,
                        .path_count = a->path_count,
                        .segment_count = a->segment_count,
                        .transform_count = a->transform_count,
                        .stroke_count = a->stroke_count,
                        .scratch = a->scratch,
                        .boxes = a->path_boxes,
                        .tags = a->tags,
                        .timer = a->timer};
  uint64_t keys_at = cn__fold_keys_at(ctx, a);
  /* the segments folded by bbox_small_segs' other workgroups: no path-box
   * pass (and no hook beside one) unless the keys need pathbox_init */
  bool segs = cn__segs_beside(ctx, a, keys_at, hook != NULL);
  bool path_pass = !(segs && a->path_keys_empty);
  if (hook && path_pass) CN_TRY(hook(user, cmd));
  if (keys_at) {
    pa.scratch = a->scratch + keys_at;
    if (path_pass) {
      CN_TRY(cn__pathbox_record_keys(ctx, cmd, &pa, a->path_keys_empty, segs));
      cn_cmd_barrier(ctx, cmd);
    }
  } else {
    CN_TRY(cn_pathbox_record(ctx, cmd, &pa));
    cn_cmd_barrier(ctx, cmd);
  }
  if (hook && !keys_at) CN_TRY(hook(user, cmd)); /* else bbox_small records it (cn__bbox_from_paths) */
  cn_bbox_args ba = {.tags = a->tags,
                     .boxes = a->path_boxes,
                     .result = a->boxes,
                     .status = a->status,
                     .scratch = a->scratch,
                     .n = a->element_count,
                     .group_bound = a->group_bound,
                     .viewport = {a->viewport[0], a->viewport[1], a->viewport[2], a->viewport[3]},
                     .timer = a->timer,
                     .scan_state = a->scan_state,
                     .scan_state_bytes = a->scan_state_bytes};
  if (keys_at) {
    cn__bbox_from_paths from = {.elements = a->elements,
                                .paths = a->paths,
                                .transforms = a->transforms,
                                .strokes = a->strokes,
                                .keys = pa.scratch,
                                .path_count = a->path_count,
                                .transform_count = a->transform_count,
                                .stroke_count = a->stroke_count,
                                .segments = segs ? a->segments : 0,
                                .segment_count = segs ? (uint32_t)a->segment_count : 0,
                                .beside = hook,
                                .beside_user = user};
    CN_TRY(cn__bbox_record_from_paths(ctx, cmd, &ba, &from));
  } else {
    CN_TRY(cn_bbox_record(ctx, cmd, &ba));
  }
  if (!a->bin_offsets) return CN_OK;
  cn_cmd_barrier(ctx, cmd);
  if (hook) CN_TRY(hook(user, cmd));
  cn_bins_args na = {.boxes = a->boxes,
                     .bin_offsets = a->bin_offsets,
                     .elems = a->bin_elems,
                     .scratch = a->scratch,
                     .n = a->element_count,
                     .capacity = a->bin_capacity,
                     .grid = a->grid,
                     .timer = a->timer,
                     .scan_state = a->scan_state,
                     .scan_state_bytes = a->scan_state_bytes};
  return cn__bins_record_beside(ctx, cmd, &na, bins_beside, user);
}

cn_result cn_scene_stage_run(cn_context *ctx, const cn_scene_data *s, const cn_scene_stage_desc *desc,
                             cn_scene_stage_result *out) {
  memset(out, 0, sizeof *out);
  if (!ctx) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_stage_run: NULL context");
  cn_scene_stage_desc d = desc ? *desc : (cn_scene_stage_desc){0};
  cn_scene_gpu *g = NULL;
  CN_TRY(cn_scene_gpu_create(ctx, NULL, &g));
  cn_result r = cn_scene_gpu_set_scene(g, s);
  uint64_t n = r == CN_OK ? s->element_count : 0;
  if (r == CN_OK) r = cn__alloc_result(n, out);
  cn_scene_frame f = {.bin_size = d.no_bins ? 0 : (d.bin_size ? d.bin_size : 256)};
  if (r == CN_OK && n) r = cn_scene_gpu_run(g, &f, NULL);
  cn_scene_gpu_outputs o;
  cn_scene_gpu_outputs_get(g, &o);
  cn_scene_gpu_counts c;
  cn_scene_gpu_counts_get(g, &c);
  if (r == CN_OK && !d.no_bins) {
    r = cn_bins_grid_make(s->viewport, f.bin_size, &out->grid);
    uint64_t nbins = (uint64_t)out->grid.nbx * out->grid.nby;
    out->bin_total = c.bin_entries;
    out->bin_offsets = r == CN_OK ? calloc(nbins + 1, 4) : NULL;
    out->bin_elems = r == CN_OK ? malloc(CN_MAX(out->bin_total, 1) * 4) : NULL;
    if (r == CN_OK && (!out->bin_offsets || !out->bin_elems))
      r = cn_fail(CN_ERROR_OUT_OF_MEMORY, "scene stage: out of host memory");
    if (r == CN_OK && n) r = cn_buffer_download(ctx, o.bin_offsets_buffer, 0, out->bin_offsets, (nbins + 1) * 4);
    if (r == CN_OK && out->bin_total)
      r = cn_buffer_download(ctx, o.bin_elems_buffer, 0, out->bin_elems, out->bin_total * 4);
  }
  if (r == CN_OK && n) r = cn_buffer_download(ctx, o.tags_buffer, 0, out->tags, n * 4);
  if (r == CN_OK && n) r = cn_buffer_download(ctx, o.path_boxes_buffer, 0, out->path_boxes, n * 16);
  if (r == CN_OK && n) r = cn_buffer_download(ctx, o.boxes_buffer, 0, out->boxes, n * 16);
  cn_scene_gpu_destroy(g);
  if (r != CN_OK) cn_scene_stage_result_free(out);
  return r;
}
