/* stage.c: the viewer runs canopy's scene stage (path boxes -> clip/blend
 * boxes -> bins) on the viewed scene for its overlays; see stage.h.
 *
 * Buffers are kept between frames and grown with cn_buffer_reserve. When the
 * bin lists need more room than reserved, the stage is recorded again with
 * the exact total (the bins stage reports it in bin_offsets[nbins]).
 */
#include "stage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <canopy/cn_bbox.h>
#include <canopy/cn_flatten.h>
#include <canopy/cn_scene_stage.h>

#define VW_STAGE_TIMER_MARKS 32
#define VW_MAX_GPU_LINES (1u << 20) /* lines read back for the overlays at most */

static bool vw__cn(cn_result r, const char *what, char *err, size_t errcap) {
  if (r == CN_OK) return true;
  snprintf(err, errcap, "scene stage: %s: %s: %s", what, cn_result_name(r), cn_last_error());
  return false;
}

static cn_result vw__reserve(cn_context *cn, cn_memory kind, uint64_t bytes, cn_buffer *b) {
  return cn_buffer_reserve(cn, kind, bytes < 16 ? 16 : bytes, b);
}

static cn_result vw__put(cn_context *cn, cn_buffer *b, const void *src, uint64_t bytes) {
  cn_result r = vw__reserve(cn, CN_MEMORY_DEVICE, bytes, b);
  if (r == CN_OK && bytes) r = cn_buffer_upload(cn, b, 0, src, (size_t)bytes);
  return r;
}

static bool vw__upload_scene(vw_stage *st, cn_context *cn, const cn_scene_data *s, uint32_t generation, char *err,
                             size_t errcap) {
  st->generation = 0;
  if (!vw__cn(vw__put(cn, &st->elements, s->elements, (uint64_t)s->element_count * sizeof(cn_element)), "elements",
              err, errcap) ||
      !vw__cn(vw__put(cn, &st->paths, s->paths, (uint64_t)s->path_count * sizeof(cn_path)), "paths", err, errcap) ||
      !vw__cn(vw__put(cn, &st->segments, s->segments, (uint64_t)s->segment_count * sizeof(cn_segment)), "segments",
              err, errcap) ||
      !vw__cn(vw__put(cn, &st->strokes, s->strokes, (uint64_t)s->stroke_count * sizeof(cn_stroke)), "strokes", err,
              errcap) ||
      !vw__cn(vw__put(cn, &st->dashes, s->dashes, (uint64_t)s->dash_count * sizeof(float)), "dashes", err, errcap))
    return false;
  st->element_count = s->element_count;
  st->path_count = s->path_count;
  st->segment_count = s->segment_count;
  st->transform_count = s->transform_count;
  st->stroke_count = s->stroke_count;
  st->group_bound = 0;
  for (uint32_t i = 0; i < s->element_count; i++) {
    uint32_t t = s->elements[i].tag;
    st->group_bound += t == CN_TAG_BEGIN_CLIP || t == CN_TAG_END_CLIP || t == CN_TAG_BEGIN_BLEND || t == CN_TAG_END_BLEND;
  }
  st->bin_capacity = 0;
  st->generation = generation;
  return true;
}

/* Records the scene stage, the flatten stage and the copies the host reads. */
static cn_result vw__record(vw_stage *st, cn_context *cn, VkCommandBuffer cmd, const cn_scene_stage_args *args,
                            uint32_t nbins, const cn_scene_data *viewed) {
  cn_cmd_barrier(cn, cmd); /* the transforms written by the host, earlier frames' reads */
  cn_result r = cn_scene_stage_record(cn, cmd, args);
  if (r != CN_OK) return r;
  cn_flatten_scene_gpu gpu = {.elements = st->elements.address,
                              .paths = st->paths.address,
                              .segments = st->segments.address,
                              .transforms = st->transforms.address,
                              .strokes = st->strokes.address,
                              .dashes = st->dashes.address};
  cn_flatten_desc fd = {.tolerance = 0}; /* the viewed transforms already hold the view */
  r = cn_flatten_record(cn, st->flatten, cmd, viewed, &gpu, &fd, args->timer);
  if (r != CN_OK) return r;
  cn_flatten_output fo;
  cn_flatten_output_get(st->flatten, &fo);
  uint64_t lines = fo.line_capacity < VW_MAX_GPU_LINES ? fo.line_capacity : VW_MAX_GPU_LINES;
  r = vw__reserve(cn, CN_MEMORY_READBACK, lines * sizeof(cn_line), &st->rb_lines);
  if (r != CN_OK) return r;
  cn_cmd_barrier(cn, cmd);
  if (lines) {
    VkBufferCopy lc = {0, 0, lines * sizeof(cn_line)};
    vkCmdCopyBuffer(cmd, fo.lines_buffer->buffer, st->rb_lines.buffer, 1, &lc);
  }
  VkBufferCopy boxes = {0, 0, (VkDeviceSize)st->element_count * sizeof(cn_box)};
  VkBufferCopy status = {0, 0, sizeof(cn_bbox_status)};
  VkBufferCopy offsets = {0, 0, (VkDeviceSize)(nbins + 1) * sizeof(uint32_t)};
  vkCmdCopyBuffer(cmd, st->boxes.buffer, st->rb_boxes.buffer, 1, &boxes);
  vkCmdCopyBuffer(cmd, st->status.buffer, st->rb_status.buffer, 1, &status);
  if (args->bin_offsets) vkCmdCopyBuffer(cmd, st->bin_offsets.buffer, st->rb_offsets.buffer, 1, &offsets);
  VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                        .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                        .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
  return CN_OK;
}

bool vw_stage_run(vw_stage *st, cn_context *cn, vw_host *h, const cn_scene_data *viewed, uint32_t generation,
                  uint32_t w, uint32_t hgt, vw_analysis *a, const char **labels, double *ms, uint32_t cap,
                  uint32_t *nspans, bool *device_lost, char *err, size_t errcap) {
  *device_lost = false;
  *nspans = 0;
  uint32_t n = viewed->element_count;
  if (n == 0) return true;
  if (st->generation != generation && !vw__upload_scene(st, cn, viewed, generation, err, errcap)) return false;
  if (!st->flatten && !vw__cn(cn_flatten_create(cn, &st->flatten), "flatten", err, errcap)) return false;
  if (!st->timer && cn_context_caps(cn)->timestamp_valid_bits &&
      !vw__cn(cn_timer_create(cn, VW_STAGE_TIMER_MARKS, &st->timer), "timer", err, errcap))
    return false;

  cn_bins_grid grid;
  const float viewport[4] = {0.0f, 0.0f, (float)w, (float)hgt};
  if (!vw__cn(cn_bins_grid_make(viewport, VW_BIN_SIZE, &grid), "bin grid", err, errcap)) return false;
  uint32_t nbins = grid.nbx * grid.nby;
  uint64_t tbytes = (uint64_t)viewed->transform_count * sizeof(cn_transform);
  if (st->bin_capacity == 0) st->bin_capacity = (uint64_t)n * 4 + 1024;
  uint64_t scratch = cn_scene_stage_scratch_bytes(cn, n, st->group_bound ? st->group_bound : 1, st->path_count, &grid);
  if (!vw__cn(vw__reserve(cn, CN_MEMORY_UPLOAD, tbytes, &st->transforms), "transforms", err, errcap) ||
      !vw__cn(vw__reserve(cn, CN_MEMORY_DEVICE, (uint64_t)n * 4, &st->tags), "tags", err, errcap) ||
      !vw__cn(vw__reserve(cn, CN_MEMORY_DEVICE, (uint64_t)n * sizeof(cn_box), &st->path_boxes), "boxes", err,
              errcap) ||
      !vw__cn(vw__reserve(cn, CN_MEMORY_DEVICE, (uint64_t)n * sizeof(cn_box), &st->boxes), "boxes", err, errcap) ||
      !vw__cn(vw__reserve(cn, CN_MEMORY_DEVICE, sizeof(cn_bbox_status), &st->status), "status", err, errcap) ||
      !vw__cn(vw__reserve(cn, CN_MEMORY_DEVICE, (uint64_t)(nbins + 1) * 4, &st->bin_offsets), "bins", err,
              errcap) ||
      !vw__cn(vw__reserve(cn, CN_MEMORY_DEVICE, scratch, &st->scratch), "scratch", err, errcap) ||
      !vw__cn(vw__reserve(cn, CN_MEMORY_READBACK, (uint64_t)n * sizeof(cn_box), &st->rb_boxes), "readback", err,
              errcap) ||
      !vw__cn(vw__reserve(cn, CN_MEMORY_READBACK, sizeof(cn_bbox_status), &st->rb_status), "readback", err,
              errcap) ||
      !vw__cn(vw__reserve(cn, CN_MEMORY_READBACK, (uint64_t)(nbins + 1) * 4, &st->rb_offsets), "readback", err,
              errcap))
    return false;
  if (tbytes) memcpy(st->transforms.mapped, viewed->transforms, (size_t)tbytes);

  uint32_t total = 0, line_count = 0;
  for (int attempt = 0; attempt < 4; attempt++) {
    if (!vw__cn(vw__reserve(cn, CN_MEMORY_DEVICE, st->bin_capacity * 4, &st->bin_elems), "bin lists", err, errcap))
      return false;
    cn_scene_stage_args args = {
        .elements = st->elements.address,
        .paths = st->paths.address,
        .segments = st->segments.address,
        .transforms = st->transforms.address,
        .strokes = st->strokes.address,
        .element_count = n,
        .path_count = st->path_count,
        .segment_count = st->segment_count,
        .transform_count = viewed->transform_count,
        .stroke_count = st->stroke_count,
        .viewport = {viewport[0], viewport[1], viewport[2], viewport[3]},
        .group_bound = st->group_bound ? st->group_bound : 1,
        .grid = grid,
        .tags = st->tags.address,
        .path_boxes = st->path_boxes.address,
        .boxes = st->boxes.address,
        .status = st->status.address,
        .bin_offsets = st->bin_offsets.address,
        .bin_elems = st->bin_elems.address,
        .bin_capacity = st->bin_capacity,
        .scratch = st->scratch.address,
        .timer = st->timer,
    };
    VkCommandBuffer cmd = h->cmd_compute;
    VkResult vr = vw_host_begin(h, cmd);
    cn_result rec = CN_OK;
    if (vr == VK_SUCCESS) {
      if (st->timer) {
        cn_timer_reset(cn, st->timer, cmd);
        cn_timer_mark(cn, st->timer, cmd, "start");
      }
      rec = vw__record(st, cn, cmd, &args, nbins, viewed);
      vr = vw_host_submit_wait(h, cmd, VK_NULL_HANDLE, VK_NULL_HANDLE);
    }
    if (vr != VK_SUCCESS) {
      *device_lost = true;
      snprintf(err, errcap, "%s running canopy's scene stage", cn_vk_result_name(vr));
      return false;
    }
    if (!vw__cn(rec, "recording", err, errcap)) return false;
    bool fits = true;
    if (!vw__cn(cn_flatten_finish(cn, st->flatten, &line_count, &fits), "flatten", err, errcap)) return false;
    cn_bbox_status status;
    memcpy(&status, st->rb_status.mapped, sizeof status);
    if (!vw__cn(cn_bbox_status_check(&status, st->group_bound ? st->group_bound : 1), "group structure", err, errcap))
      return false;
    total = ((const uint32_t *)st->rb_offsets.mapped)[nbins];
    if (total == UINT32_MAX) {
      snprintf(err, errcap, "scene stage: more bin entries than 2^32 at this view");
      return false;
    }
    if (total <= st->bin_capacity && fits) break;
    if (total > st->bin_capacity) st->bin_capacity = total + total / 4; /* exact need known */
    if (attempt == 3) {
      snprintf(err, errcap, "scene stage: buffers still too small after %d runs", attempt + 1);
      return false;
    }
  }

  /* The GPU's boxes and bins replace the CPU analysis's. */
  const cn_box *boxes = st->rb_boxes.mapped;
  memcpy(a->boxes, boxes, (size_t)n * sizeof(cn_box));
  uint32_t *counts = a->bin_counts;
  if (nbins > a->bins_x * a->bins_y) {
    counts = realloc(a->bin_counts, (size_t)nbins * sizeof *counts);
    if (!counts) {
      snprintf(err, errcap, "out of memory for %u bins", nbins);
      return false;
    }
    a->bin_counts = counts;
  }
  const uint32_t *off = st->rb_offsets.mapped;
  a->bin_size = grid.bin_size;
  a->bins_x = grid.nbx;
  a->bins_y = grid.nby;
  a->bins_used = 0;
  for (uint32_t b = 0; b < nbins; b++) {
    counts[b] = off[b + 1] - off[b];
    a->bins_used += counts[b] > 0;
  }
  /* flattened lines (the flatten stage's, as the renderer reads them) */
  uint32_t nl = line_count < VW_MAX_GPU_LINES ? line_count : VW_MAX_GPU_LINES;
  float *lines = realloc(a->lines, ((size_t)nl + 1) * 4 * sizeof *lines);
  if (lines) a->lines = lines;
  uint32_t *owner = lines ? realloc(a->line_element, ((size_t)nl + 1) * sizeof *owner) : NULL;
  if (!lines || !owner) {
    snprintf(err, errcap, "out of memory for %u lines", nl);
    return false;
  }
  a->line_element = owner;
  const cn_line *gl = st->rb_lines.mapped;
  a->line_count = 0;
  for (uint32_t i = 0; i < nl; i++) {
    if (gl[i].element >= n) continue;
    float *l = &a->lines[4 * (size_t)a->line_count];
    l[0] = gl[i].x0, l[1] = gl[i].y0, l[2] = gl[i].x1, l[3] = gl[i].y1;
    a->line_element[a->line_count++] = gl[i].element;
  }
  a->source = "scene stage";
  if (st->timer && cn_timer_read(cn, st->timer, nspans, labels, ms, cap) == CN_OK)
    for (uint32_t i = 0; i < *nspans; i++) ms[i] *= 1e-6;
  else
    *nspans = 0;
  return true;
}

void vw_stage_destroy(vw_stage *st, cn_context *cn) {
  if (cn) {
    cn_buffer *bufs[] = {&st->elements, &st->paths,     &st->segments,  &st->strokes,     &st->transforms,
                         &st->tags,     &st->path_boxes, &st->boxes,    &st->status,      &st->bin_offsets,
                         &st->bin_elems, &st->scratch,   &st->rb_boxes, &st->rb_status,   &st->rb_offsets};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) cn_buffer_destroy(cn, bufs[i]);
    cn_buffer_destroy(cn, &st->dashes);
    cn_buffer_destroy(cn, &st->rb_lines);
    cn_flatten_destroy(cn, st->flatten);
    cn_timer_destroy(cn, st->timer);
  }
  memset(st, 0, sizeof *st);
}
