/* render_scene.c: whole-scene rendering: the flatten stage (cn_flatten.h)
 * turns the uploaded scene into lines on the GPU, the renderer core reads
 * them in place (see cn_render.h). */
#include "cn_bbox.h"
#include "cn_scene_stage.h"
#include "kernels.gen.h"
#include "cn_scan.h"
#include "render_internal.h"

#include <stddef.h>
#include <string.h>

/* Records view-after-transform for every scene transform into r->ss_transforms,
 * so that the scene stage's path boxes and bins are in the view's pixels, like
 * the flattened lines. view: six floats, SVG order. */
static cn_result cn__record_view_transforms(cn_renderer *r, VkCommandBuffer cmd, const float view[6]) {
  cn_context *ctx = r->ctx;
  uint32_t n = r->host.transform_count;
  CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, (uint64_t)n * sizeof(cn_transform), &r->ss_transforms));
  VkPipeline p;
  CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_TRANSFORM_COMPOSE, NULL, 0, &p));
  cn_compose_push pc = {.src = r->scene.address + r->off_transforms, .dst = r->ss_transforms.address, .n = n,
                        .va = view[0], .vb = view[1], .vc = view[2], .vd = view[3], .ve = view[4], .vf = view[5]};
  cn_dispatch(ctx, cmd, p, &pc, sizeof pc, CN_DIV_UP((uint64_t)n, 64));
  cn_cmd_barrier(ctx, cmd);
  return CN_OK;
}

/* Records the scene stage (path boxes, clip/blend boxes, bins of CN_BIN
 * tiles) on the uploaded scene, for coarse to walk per-bin lists. With a view
 * transform (identity false) the stage reads the scene's transforms composed
 * with the view. */
static cn_result cn__record_bins(cn_renderer *r, VkCommandBuffer cmd, const cn_render_view *v, bool identity) {
  cn_context *ctx = r->ctx;
  const cn_scene_data *s = &r->host;
  uint64_t n = s->element_count;
  float viewport[4] = {0, 0, (float)v->width, (float)v->height};
  cn_bins_grid grid;
  CN_TRY(cn_bins_grid_make(viewport, CN_BIN * CN_TILE, &grid));
  uint32_t nbins = grid.nbx * grid.nby;
  if (grid.nbx != CN_DIV_UP(v->width, CN_BIN * CN_TILE) || grid.nby != CN_DIV_UP(v->height, CN_BIN * CN_TILE))
    return cn_fail(CN_ERROR_STATE, "scene stage grid %ux%u does not match the renderer's bins", grid.nbx, grid.nby);
  if (!r->cap_bins) r->cap_bins = r->desc.initial_bins ? r->desc.initial_bins : CN_MAX(4 * n, 4096u);
  uint64_t gb = r->group_count ? r->group_count : 1;
  CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, n * 4, &r->ss_tags));
  CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, n * sizeof(cn_box), &r->ss_path_boxes));
  CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, n * sizeof(cn_box), &r->ss_boxes));
  CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, sizeof(cn_bbox_status), &r->ss_status));
  CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, cn_scene_stage_scratch_bytes(ctx, n, gb, s->path_count, &grid),
                           &r->ss_scratch));
  CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, ((uint64_t)nbins + 1) * 4, &r->bin_offsets));
  CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, r->cap_bins * 4, &r->bin_elems));
  CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_READBACK, 16 + sizeof(cn_bbox_status), &r->bins_read));
  VkDeviceAddress base = r->scene.address;
  VkDeviceAddress transforms = base + r->off_transforms;
  if (!identity && s->transform_count) {
    CN_TRY(cn__record_view_transforms(r, cmd, v->transform));
    transforms = r->ss_transforms.address;
  }
  cn_scene_stage_args a = {
      .elements = base + r->off_elements,
      .paths = base + r->off_paths,
      .segments = base + r->off_segments,
      .transforms = transforms,
      .strokes = base + r->off_strokes,
      .element_count = s->element_count,
      .path_count = s->path_count,
      .segment_count = s->segment_count,
      .transform_count = s->transform_count,
      .stroke_count = s->stroke_count,
      .viewport = {viewport[0], viewport[1], viewport[2], viewport[3]},
      .group_bound = gb,
      .grid = grid,
      .tags = r->ss_tags.address,
      .path_boxes = r->ss_path_boxes.address,
      .boxes = r->ss_boxes.address,
      .status = r->ss_status.address,
      .bin_offsets = r->bin_offsets.address,
      .bin_elems = r->bin_elems.address,
      .bin_capacity = r->cap_bins,
      .scratch = r->ss_scratch.address,
      .timer = r->timer,
  };
  CN_TRY(cn_scene_stage_record(ctx, cmd, &a));
  cn_cmd_barrier(ctx, cmd);
  /* the total of the lists and the status, for cn_renderer_bins_done */
  VkBufferCopy c[2] = {{.srcOffset = (VkDeviceSize)nbins * 4, .dstOffset = 0, .size = 4},
                       {.srcOffset = 0, .dstOffset = 16, .size = sizeof(cn_bbox_status)}};
  vkCmdCopyBuffer(cmd, r->bin_offsets.buffer, r->bins_read.buffer, 1, &c[0]);
  vkCmdCopyBuffer(cmd, r->ss_status.buffer, r->bins_read.buffer, 1, &c[1]);
  r->nbins = nbins;
  return CN_OK;
}

cn_result cn_renderer_bins_done(cn_renderer *r, bool *again) {
  *again = false;
  const uint8_t *m = r->bins_read.mapped;
  uint32_t total;
  cn_bbox_status st;
  memcpy(&total, m, 4);
  memcpy(&st, m + 16, sizeof st);
  CN_TRY(cn_bbox_status_check(&st, r->group_count ? r->group_count : 1));
  if (total == UINT32_MAX) return cn_fail(CN_ERROR_LIMIT, "render: the bin lists need 2^32 entries or more");
  if (total > r->cap_bins) {
    r->cap_bins = (uint64_t)total + total / 4 + 16;
    *again = true;
  }
  return CN_OK;
}

cn_result cn_renderer_record_scene(cn_renderer *r, VkCommandBuffer cmd, const cn_render_view *v) {
  if (!r || !v || !cmd) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_renderer_record_scene: NULL argument");
  if (!r->has_scene) return cn_fail(CN_ERROR_STATE, "cn_renderer_record_scene: no scene (cn_renderer_set_scene)");
  cn_context *ctx = r->ctx;
  if (!r->flatten) CN_TRY(cn_flatten_create(ctx, &r->flatten));
  VkDeviceAddress base = r->scene.address;
  cn_flatten_scene_gpu gpu = {
      .elements = base + r->off_elements,
      .paths = base + r->off_paths,
      .segments = base + r->off_segments,
      .transforms = base + r->off_transforms,
      .strokes = base + r->off_strokes,
      .dashes = base + r->off_dashes,
  };
  cn_flatten_desc fd = {.tolerance = v->tolerance, .initial_line_capacity = r->desc.initial_lines};
  memcpy(fd.view, v->transform, sizeof fd.view);
  if (r->timer) {
    cn_timer_reset(ctx, r->timer, cmd);
    cn_timer_mark(ctx, r->timer, cmd, "start");
  }
  r->flattened = r->binned = false;
  bool identity = true;
  for (int i = 0; i < 6; i++) identity = identity && v->transform[i] == 0;
  if (!identity) {
    const float id[6] = {1, 0, 0, 1, 0, 0};
    identity = memcmp(v->transform, id, sizeof id) == 0;
  }
  if (!r->desc.no_bins && r->host.element_count > 0) {
    CN_TRY(cn__record_bins(r, cmd, v, identity));
    r->binned = true;
  }
  CN_TRY(cn_flatten_record(ctx, r->flatten, cmd, &r->host, &gpu, &fd, r->timer));
  r->flattened = true;
  cn_flatten_output o;
  cn_flatten_output_get(r->flatten, &o);
  /* the header's first word is the exact line count (clamped to the capacity by the kernels) */
  CN_TRY(cn_renderer_use_gpu_lines(r, o.lines, o.header + offsetof(cn_flatten_header, line_count),
                                   o.line_capacity ? o.line_capacity : 1));
  r->gpu_covers = o.elems; /* the alpha factors of collapsed dash patterns */
  return cn_renderer_record_frame(r, cmd, v, false);
}

cn_result cn_render_scene_to_rgba8(cn_renderer *r, const cn_scene_data *scene, const cn_render_view *view,
                                   uint8_t *rgba) {
  if (!r || !scene || !view || !rgba)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_render_scene_to_rgba8: NULL argument");
  if (view->target) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_render_scene_to_rgba8 renders into its own buffer");
  CN_TRY(cn_renderer_set_scene(r, scene));
  return cn_render__run_to_rgba8(r, view, cn_renderer_record_scene, rgba);
}
