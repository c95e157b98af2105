/* scene_stage.c: the whole scene stage on a cn_scene_data (see cn_scene_stage.h). */
#include "cn_scene_stage.h"

#include "cn_bbox.h"
#include "cn_pathbox.h"
#include "cn_scan.h"
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
  CN_TRY(cn_scene_check(s));
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

uint64_t cn_scene_stage_scratch_bytes(cn_context *ctx, uint64_t n, uint64_t group_bound, uint32_t path_count,
                                      const cn_bins_grid *grid) {
  /* The stages run one after the other: they share one scratch area. */
  uint64_t s = cn_pathbox_scratch_bytes(path_count);
  s = CN_MAX(s, cn_bbox_scratch_bytes(ctx, n, group_bound));
  if (grid && grid->nbx && grid->nby) s = CN_MAX(s, cn_bins_scratch_bytes(ctx, n, grid));
  return s;
}

cn_result cn_scene_stage_record(cn_context *ctx, VkCommandBuffer cmd, const cn_scene_stage_args *a) {
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
  CN_TRY(cn_pathbox_record(ctx, cmd, &pa));
  cn_cmd_barrier(ctx, cmd);
  cn_bbox_args ba = {.tags = a->tags,
                     .boxes = a->path_boxes,
                     .result = a->boxes,
                     .status = a->status,
                     .scratch = a->scratch,
                     .n = a->element_count,
                     .group_bound = a->group_bound,
                     .viewport = {a->viewport[0], a->viewport[1], a->viewport[2], a->viewport[3]},
                     .timer = a->timer};
  CN_TRY(cn_bbox_record(ctx, cmd, &ba));
  if (!a->bin_offsets) return CN_OK;
  cn_cmd_barrier(ctx, cmd);
  cn_bins_args na = {.boxes = a->boxes,
                     .bin_offsets = a->bin_offsets,
                     .elems = a->bin_elems,
                     .scratch = a->scratch,
                     .n = a->element_count,
                     .capacity = a->bin_capacity,
                     .grid = a->grid,
                     .timer = a->timer};
  return cn_bins_record(ctx, cmd, &na);
}

typedef struct cn__upload {
  const void *data;
  uint64_t bytes;
  cn_buffer buf;
} cn__upload;

cn_result cn_scene_stage_run(cn_context *ctx, const cn_scene_data *s, const cn_scene_stage_desc *desc,
                             cn_scene_stage_result *out) {
  memset(out, 0, sizeof *out);
  if (!ctx) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_stage_run: NULL context");
  cn_scene_stage_desc d = desc ? *desc : (cn_scene_stage_desc){0};
  CN_TRY(cn_scene_check(s));
  uint64_t n = s->element_count;
  cn_bins_grid grid = {0};
  if (!d.no_bins) CN_TRY(cn_bins_grid_make(s->viewport, d.bin_size ? d.bin_size : 256, &grid));
  CN_TRY(cn__alloc_result(n, out));
  out->grid = grid;
  uint64_t nbins = (uint64_t)grid.nbx * grid.nby;
  for (uint64_t i = 0; i < n; i++) out->tags[i] = s->elements[i].tag;
  uint64_t gb = cn_bbox_count_groups(out->tags, n);

  cn__upload up[5] = {{s->elements, n * sizeof(cn_element), {0}},
                      {s->paths, (uint64_t)s->path_count * sizeof(cn_path), {0}},
                      {s->segments, (uint64_t)s->segment_count * sizeof(cn_segment), {0}},
                      {s->transforms, (uint64_t)s->transform_count * sizeof(cn_transform), {0}},
                      {s->strokes, (uint64_t)s->stroke_count * sizeof(cn_stroke), {0}}};
  cn_buffer tags = {0}, pboxes = {0}, boxes = {0}, status = {0}, scratch = {0}, offs = {0}, elems = {0};
  uint64_t scratch_bytes = cn_scene_stage_scratch_bytes(ctx, n, gb, s->path_count, &grid);
  uint64_t cap = CN_MAX(4 * n, 1024);
  cn_result r = CN_OK;
  for (int k = 0; k < 5 && r == CN_OK; k++) {
    r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, CN_MAX(up[k].bytes, 16), &up[k].buf);
    if (r == CN_OK && up[k].bytes) r = cn_buffer_upload(ctx, &up[k].buf, 0, up[k].data, up[k].bytes);
  }
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, CN_MAX(n, 1) * 4, &tags);
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, CN_MAX(n, 1) * 16, &pboxes);
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, CN_MAX(n, 1) * 16, &boxes);
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_READBACK, sizeof(cn_bbox_status), &status);
  if (r == CN_OK)
    r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, scratch_bytes, &scratch);
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, (nbins + 1) * 4, &offs);
  for (int attempt = 0; r == CN_OK && attempt < 2; attempt++) {
    r = cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, d.no_bins ? 16 : cap * 4, &elems);
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    if (r == CN_OK) r = cn_cmd_begin(ctx, &cmd);
    if (r != CN_OK) break;
    if (attempt == 0) {
      cn_scene_stage_args sa = {.elements = up[0].buf.address,
                                .paths = up[1].buf.address,
                                .segments = up[2].buf.address,
                                .transforms = up[3].buf.address,
                                .strokes = up[4].buf.address,
                                .element_count = (uint32_t)n,
                                .path_count = s->path_count,
                                .segment_count = s->segment_count,
                                .transform_count = s->transform_count,
                                .stroke_count = s->stroke_count,
                                .viewport = {s->viewport[0], s->viewport[1], s->viewport[2], s->viewport[3]},
                                .group_bound = gb,
                                .grid = grid,
                                .tags = tags.address,
                                .path_boxes = pboxes.address,
                                .boxes = boxes.address,
                                .status = status.address,
                                .bin_offsets = d.no_bins ? 0 : offs.address,
                                .bin_elems = elems.address,
                                .bin_capacity = cap,
                                .scratch = scratch.address};
      r = cn_scene_stage_record(ctx, cmd, &sa);
    } else {
      /* only binning again, with the exact capacity */
      cn_bins_args na = {.boxes = boxes.address,
                         .bin_offsets = offs.address,
                         .elems = elems.address,
                         .scratch = scratch.address,
                         .n = n,
                         .capacity = cap,
                         .grid = grid};
      r = cn_bins_record(ctx, cmd, &na);
    }
    cn_cmd_barrier(ctx, cmd);
    cn_result sr = cn_cmd_submit(ctx, cmd);
    if (r == CN_OK) r = sr;
    if (r == CN_OK && attempt == 0) {
      cn_bbox_status st;
      memcpy(&st, status.mapped, sizeof st);
      r = cn_bbox_status_check(&st, gb);
      if (r != CN_OK) {
        cn_result v = cn_bbox_validate(out->tags, n);
        if (v != CN_OK) r = v;
      }
    }
    if (r != CN_OK || d.no_bins) break;
    out->bin_offsets = malloc((nbins + 1) * 4);
    if (!out->bin_offsets) r = cn_fail(CN_ERROR_OUT_OF_MEMORY, "scene stage: out of host memory");
    if (r == CN_OK) r = cn_buffer_download(ctx, &offs, 0, out->bin_offsets, (nbins + 1) * 4);
    if (r != CN_OK) break;
    out->bin_total = out->bin_offsets[nbins];
    if (out->bin_total == UINT32_MAX) {
      r = cn_fail(CN_ERROR_LIMIT, "bins: more than 2^32 - 2 (bin, element) entries");
      break;
    }
    if (out->bin_total <= cap) break;
    cap = out->bin_total; /* the counts are exact: the second run fits */
    free(out->bin_offsets);
    out->bin_offsets = NULL;
  }
  if (r == CN_OK && n) r = cn_buffer_download(ctx, &pboxes, 0, out->path_boxes, n * 16);
  if (r == CN_OK && n) r = cn_buffer_download(ctx, &boxes, 0, out->boxes, n * 16);
  if (r == CN_OK && !d.no_bins) {
    out->bin_elems = malloc(CN_MAX(out->bin_total, 1) * 4);
    if (!out->bin_elems) r = cn_fail(CN_ERROR_OUT_OF_MEMORY, "scene stage: out of host memory");
    else if (out->bin_total) r = cn_buffer_download(ctx, &elems, 0, out->bin_elems, out->bin_total * 4);
  }
  for (int k = 0; k < 5; k++) cn_buffer_destroy(ctx, &up[k].buf);
  cn_buffer_destroy(ctx, &tags);
  cn_buffer_destroy(ctx, &pboxes);
  cn_buffer_destroy(ctx, &boxes);
  cn_buffer_destroy(ctx, &status);
  cn_buffer_destroy(ctx, &scratch);
  cn_buffer_destroy(ctx, &offs);
  cn_buffer_destroy(ctx, &elems);
  if (r != CN_OK) cn_scene_stage_result_free(out);
  return r;
}
