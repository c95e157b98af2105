/* render.c: host side of the renderer core (see cn_render.h): scene upload and
 * checks, buffer sizing and growth, and the recording of one frame's kernels
 * (render_bbox, render_tile_alloc, render_tile_seg, render_backdrop,
 * render_coarse, render_fine). */
#include "cn_render.h"
#include "cn_scan.h"
#include "internal.h"
#include "cn_flatten.h"
#include "kernels.gen.h"
#include "render_internal.h"

#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>


/* Above this many records of one kind a scene is refused (CN_ERROR_LIMIT):
 * every count stays far from 2^32 and every buffer below 4 GiB-ish. */
#define CN_RENDER_MAX_RECORDS (1u << 27)

/* ------------------------------------------------------------- lifetime */

cn_result cn_renderer_create(cn_context *ctx, const cn_renderer_desc *desc, cn_renderer **out) {
  if (!out) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_renderer_create: out is NULL");
  *out = NULL;
  if (!ctx) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_renderer_create: ctx is NULL");
  cn_renderer *r = calloc(1, sizeof *r);
  if (!r) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "cn_renderer_create: out of host memory");
  r->ctx = ctx;
  if (desc) r->desc = *desc;
  cn_result res = cn_buffer_create(ctx, CN_MEMORY_DEVICE, sizeof(cn_render_config), &r->config);
  if (res == CN_OK) res = cn_buffer_create(ctx, CN_MEMORY_DEVICE, sizeof(cn_render_bump), &r->bump);
  if (res == CN_OK) res = cn_buffer_create(ctx, CN_MEMORY_READBACK, sizeof(cn_render_bump), &r->bump_read);
  if (res == CN_OK && r->desc.timing) res = cn_timer_create(ctx, CN__STAGES + 2, &r->timer);
  if (res != CN_OK) {
    cn_renderer_destroy(r);
    return res;
  }
  *out = r;
  return CN_OK;
}

void cn_renderer_destroy(cn_renderer *r) {
  if (!r) return;
  cn_context *ctx = r->ctx;
  cn_buffer *bufs[] = {&r->scene,        &r->elem_init,   &r->lines,     &r->config,      &r->elem,
                       &r->tiles,        &r->segs,        &r->bump,      &r->bump_read,   &r->cmds,
                       &r->ptiles,       &r->spill,       &r->out,       &r->ss_tags,     &r->ss_path_boxes,
                       &r->ss_boxes,     &r->ss_status,   &r->ss_scratch, &r->bin_offsets, &r->bin_elems,
                       &r->bins_read,    &r->ss_transforms};
  for (size_t i = 0; i < CN_ARRAY_LEN(bufs); i++) cn_buffer_destroy(ctx, bufs[i]);
  if (r->timer) cn_timer_destroy(ctx, r->timer);
  cn_flatten_destroy(ctx, r->flatten);
  free(r);
}

/* ---------------------------------------------------------------- scene */

static VkDeviceSize cn__align16(VkDeviceSize x) { return (x + 15) & ~(VkDeviceSize)15; }

/* Checks the bracket structure and indices; fills pair[] (CN_NONE where none)
 * and flags[] (CN_ELEM_*). */
static cn_result cn__scene_check(const cn_scene_data *s, uint32_t *pair, uint32_t *flags) {
  uint32_t *stack = malloc(sizeof(uint32_t) * (s->element_count ? s->element_count : 1));
  if (!stack) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "renderer: out of host memory for %u elements", s->element_count);
  uint32_t depth = 0;
  bool after_mask = false; /* the element just closed a mask group */
  cn_result res = CN_OK;
  for (uint32_t i = 0; i < s->element_count && res == CN_OK; i++) {
    const cn_element *e = &s->elements[i];
    pair[i] = CN_NONE;
    flags[i] = 0;
    bool was_after_mask = after_mask;
    after_mask = false;
    switch (e->tag) {
      case CN_TAG_FILL:
      case CN_TAG_STROKE:
        if (e->paint >= s->paint_count)
          res = cn_fail(CN_ERROR_PARSE, "element %u: paint %u out of range (%u paints)", i, e->paint, s->paint_count);
        break;
      case CN_TAG_BEGIN_CLIP:
        stack[depth++] = i;
        break;
      case CN_TAG_BEGIN_BLEND: {
        if (e->aux >= s->blend_count) {
          res = cn_fail(CN_ERROR_PARSE, "element %u: blend %u out of range (%u blends)", i, e->aux, s->blend_count);
          break;
        }
        bool masked = (s->blends[e->aux].flags & CN_BLEND_MASKED) != 0;
        if (masked != was_after_mask)
          res = cn_fail(CN_ERROR_UNBALANCED, "element %u: %s", i,
                        masked ? "a masked group that does not follow a mask group"
                               : "a mask group not followed at once by its masked group");
        /* a blend mode right inside a clip needs the clip's own layer as backdrop */
        uint32_t mode = s->blends[e->aux].mode;
        if (mode != CN_BLEND_NORMAL && depth > 0 && s->elements[stack[depth - 1]].tag == CN_TAG_BEGIN_CLIP)
          flags[stack[depth - 1]] |= CN_ELEM_ISOLATE;
        stack[depth++] = i;
        break;
      }
      case CN_TAG_END_CLIP:
      case CN_TAG_END_BLEND: {
        uint32_t want = e->tag == CN_TAG_END_CLIP ? CN_TAG_BEGIN_CLIP : CN_TAG_BEGIN_BLEND;
        if (depth == 0 || s->elements[stack[depth - 1]].tag != want) {
          res = cn_fail(CN_ERROR_UNBALANCED, "element %u: %s without its BEGIN", i,
                        e->tag == CN_TAG_END_CLIP ? "END_CLIP" : "END_BLEND");
          break;
        }
        uint32_t b = stack[--depth];
        pair[i] = b;
        pair[b] = i;
        if (e->tag == CN_TAG_END_BLEND &&
            (s->blends[s->elements[b].aux].flags & (CN_BLEND_MASK_LUMINANCE | CN_BLEND_MASK_ALPHA)))
          after_mask = true;
        break;
      }
      default:
        res = cn_fail(CN_ERROR_PARSE, "element %u: unknown tag %u", i, e->tag);
    }
    if (res == CN_OK && was_after_mask && e->tag != CN_TAG_BEGIN_BLEND)
      res = cn_fail(CN_ERROR_UNBALANCED, "element %u: a mask group not followed at once by its masked group", i);
  }
  if (res == CN_OK && after_mask)
    res = cn_fail(CN_ERROR_UNBALANCED, "end of scene: a mask group not followed by its masked group");
  if (res == CN_OK && depth > 0)
    res = cn_fail(CN_ERROR_UNBALANCED, "element %u: BEGIN without END at the end of the scene", stack[depth - 1]);
  free(stack);
  return res;
}

cn_result cn_renderer_set_scene(cn_renderer *r, const cn_scene_data *s) {
  if (!r || !s) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_renderer_set_scene: NULL argument");
  if (s->element_count >= CN_RENDER_MAX_RECORDS)
    return cn_fail(CN_ERROR_LIMIT, "scene of %u elements: at most %u", s->element_count, CN_RENDER_MAX_RECORDS);
  cn_context *ctx = r->ctx;
  r->has_scene = false;
  uint32_t n = s->element_count;
  uint32_t *pair = malloc(sizeof(uint32_t) * 2 * (n ? n : 1));
  if (!pair) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "renderer: out of host memory");
  uint32_t *flags = pair + (n ? n : 1);
  cn_result res = cn__scene_check(s, pair, flags);
  /* One device buffer for the arrays the kernels read, each 16-byte aligned. */
  VkDeviceSize off = 0;
  r->off_elements = off, off = cn__align16(off + (VkDeviceSize)n * sizeof(cn_element));
  r->off_paints = off, off = cn__align16(off + (VkDeviceSize)s->paint_count * sizeof(cn_paint));
  r->off_stops = off, off = cn__align16(off + (VkDeviceSize)s->stop_count * sizeof(cn_stop));
  r->off_transforms = off, off = cn__align16(off + (VkDeviceSize)s->transform_count * sizeof(cn_transform));
  r->off_blends = off, off = cn__align16(off + (VkDeviceSize)s->blend_count * sizeof(cn_blend));
  r->off_paths = off, off = cn__align16(off + (VkDeviceSize)s->path_count * sizeof(cn_path));
  r->off_segments = off, off = cn__align16(off + (VkDeviceSize)s->segment_count * sizeof(cn_segment));
  r->off_strokes = off, off = cn__align16(off + (VkDeviceSize)s->stroke_count * sizeof(cn_stroke));
  r->off_dashes = off, off = cn__align16(off + (VkDeviceSize)s->dash_count * sizeof(float));
  r->off_images = off, off = cn__align16(off + (VkDeviceSize)s->image_count * sizeof(cn_image));
  r->off_pixels = off, off = cn__align16(off + (VkDeviceSize)s->image_pixel_count * sizeof(uint32_t));
  uint8_t *host = NULL;
  cn_render_elem *init = NULL;
  if (res == CN_OK) {
    host = calloc(1, off ? off : 16);
    init = calloc(n ? n : 1, sizeof *init);
    if (!host || !init) res = cn_fail(CN_ERROR_OUT_OF_MEMORY, "renderer: out of host memory");
  }
  if (res == CN_OK) {
    if (n) memcpy(host + r->off_elements, s->elements, (size_t)n * sizeof(cn_element));
    if (s->paint_count) memcpy(host + r->off_paints, s->paints, (size_t)s->paint_count * sizeof(cn_paint));
    if (s->stop_count) memcpy(host + r->off_stops, s->stops, (size_t)s->stop_count * sizeof(cn_stop));
    if (s->transform_count)
      memcpy(host + r->off_transforms, s->transforms, (size_t)s->transform_count * sizeof(cn_transform));
    if (s->blend_count) memcpy(host + r->off_blends, s->blends, (size_t)s->blend_count * sizeof(cn_blend));
    if (s->path_count) memcpy(host + r->off_paths, s->paths, (size_t)s->path_count * sizeof(cn_path));
    if (s->segment_count)
      memcpy(host + r->off_segments, s->segments, (size_t)s->segment_count * sizeof(cn_segment));
    if (s->stroke_count) memcpy(host + r->off_strokes, s->strokes, (size_t)s->stroke_count * sizeof(cn_stroke));
    if (s->dash_count) memcpy(host + r->off_dashes, s->dashes, (size_t)s->dash_count * sizeof(float));
    if (s->image_count) memcpy(host + r->off_images, s->images, (size_t)s->image_count * sizeof(cn_image));
    if (s->image_pixel_count)
      memcpy(host + r->off_pixels, s->image_pixels, (size_t)s->image_pixel_count * sizeof(uint32_t));
    for (uint32_t i = 0; i < n; i++) {
      init[i].px0 = init[i].py0 = INT_MAX;
      init[i].px1 = init[i].py1 = INT_MIN;
      init[i].pair = pair[i];
      init[i].flags = flags[i];
    }
    res = cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, off ? off : 16, &r->scene);
  }
  if (res == CN_OK && off) res = cn_buffer_upload(ctx, &r->scene, 0, host, off);
  if (res == CN_OK) res = cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, (VkDeviceSize)(n ? n : 1) * sizeof *init, &r->elem_init);
  if (res == CN_OK && n) res = cn_buffer_upload(ctx, &r->elem_init, 0, init, (size_t)n * sizeof *init);
  if (res == CN_OK) res = cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, (VkDeviceSize)(n ? n : 1) * sizeof *init, &r->elem);
  free(host);
  free(init);
  free(pair);
  if (res != CN_OK) return res;
  r->n_elements = n;
  r->paint_count = s->paint_count;
  r->stop_count = s->stop_count;
  r->transform_count = s->transform_count;
  r->blend_count = s->blend_count;
  r->image_count = s->image_count;
  r->image_pixel_count = s->image_pixel_count;
  r->group_count = 0;
  for (uint32_t i = 0; i < n; i++)
    if (s->elements[i].tag >= CN_TAG_BEGIN_CLIP && s->elements[i].tag <= CN_TAG_END_BLEND) r->group_count++;
  r->host = *s;
  r->has_scene = true;
  return CN_OK;
}

/* ---------------------------------------------------------------- lines */

cn_result cn_renderer_set_lines(cn_renderer *r, const cn_render_line *lines, uint32_t n) {
  if (!r || (n && !lines)) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_renderer_set_lines: NULL argument");
  if (n >= CN_RENDER_MAX_RECORDS) return cn_fail(CN_ERROR_LIMIT, "%u lines: at most %u", n, CN_RENDER_MAX_RECORDS);
  r->has_lines = false;
  CN_TRY(cn_buffer_reserve(r->ctx, CN_MEMORY_DEVICE, (VkDeviceSize)(n ? n : 1) * sizeof *lines, &r->lines));
  if (n) CN_TRY(cn_buffer_upload(r->ctx, &r->lines, 0, lines, (size_t)n * sizeof *lines));
  r->nlines = n;
  r->gpu_lines = 0;
  r->has_lines = true;
  return CN_OK;
}

cn_result cn_renderer_use_gpu_lines(cn_renderer *r, VkDeviceAddress lines, VkDeviceAddress count, uint32_t cap) {
  if (!r || !lines || !count) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_renderer_use_gpu_lines: NULL argument");
  r->gpu_lines = lines;
  r->gpu_count = count;
  r->gpu_cap = cap;
  r->has_lines = true;
  return CN_OK;
}

/* --------------------------------------------------------------- frames */

/* Sizes the scratch buffers for the target and the current capacities. */
static cn_result cn__reserve(cn_renderer *r, uint32_t tiles_x, uint32_t tiles_y, const cn_render_view *v) {
  cn_context *ctx = r->ctx;
  uint32_t ntiles = tiles_x * tiles_y;
  if (!r->cap_tiles) r->cap_tiles = r->desc.initial_tiles ? r->desc.initial_tiles : CN_MAX(ntiles * 2, 1024u);
  if (!r->cap_segs) r->cap_segs = r->desc.initial_segs ? r->desc.initial_segs : CN_MAX(ntiles * 8, 4096u);
  if (!r->cap_chunks) r->cap_chunks = r->desc.initial_chunks ? r->desc.initial_chunks : CN_MAX(ntiles / 2, 64u);
  if (!r->cap_spill) r->cap_spill = r->desc.initial_spill ? r->desc.initial_spill : 16u;
  CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, (VkDeviceSize)r->cap_tiles * sizeof(cn_render_tile), &r->tiles));
  CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, (VkDeviceSize)r->cap_segs * sizeof(cn_render_seg), &r->segs));
  CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE,
                           ((VkDeviceSize)ntiles + r->cap_chunks) * CN_CMD_CHUNK * sizeof(uint32_t), &r->cmds));
  CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, (VkDeviceSize)ntiles * sizeof(cn_render_ptile), &r->ptiles));
  CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, (VkDeviceSize)r->cap_spill * CN_TILE_PIXELS * 16, &r->spill));
  if (!v->target)
    CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, (VkDeviceSize)v->width * v->height * 4, &r->out));
  return CN_OK;
}

static cn_result cn__kernel(cn_renderer *r, int kernel, uint32_t wg, VkPipeline *out) {
  uint32_t spec[1] = {wg};
  return cn_pipeline_get(r->ctx, kernel, spec, wg ? 1 : 0, out);
}

static void cn__mark(cn_renderer *r, VkCommandBuffer cmd, const char *label) {
  if (r->timer) cn_timer_mark(r->ctx, r->timer, cmd, label);
}

cn_result cn_renderer_record(cn_renderer *r, VkCommandBuffer cmd, const cn_render_view *v) {
  if (r) r->flattened = r->binned = false;
  return cn_renderer_record_frame(r, cmd, v, true);
}

cn_result cn_renderer_record_frame(cn_renderer *r, VkCommandBuffer cmd, const cn_render_view *v, bool timer_start) {
  if (!r || !v || !cmd) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_renderer_record: NULL argument");
  if (!r->has_scene) return cn_fail(CN_ERROR_STATE, "cn_renderer_record: no scene (cn_renderer_set_scene)");
  if (!r->has_lines) return cn_fail(CN_ERROR_STATE, "cn_renderer_record: no lines (cn_renderer_set_lines)");
  if (v->width == 0 || v->height == 0 || v->width > CN_RENDER_MAX_SIZE || v->height > CN_RENDER_MAX_SIZE)
    return cn_fail(CN_ERROR_LIMIT, "render target %ux%u: each side must be 1..%u", v->width, v->height,
                   CN_RENDER_MAX_SIZE);
  if (v->stride && v->stride < v->width)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "render target stride %u < width %u", v->stride, v->width);
  cn_context *ctx = r->ctx;
  uint32_t tiles_x = CN_DIV_UP(v->width, CN_TILE), tiles_y = CN_DIV_UP(v->height, CN_TILE);
  CN_TRY(cn__reserve(r, tiles_x, tiles_y, v));
  r->last_w = v->width;
  r->last_h = v->height;

  uint32_t wg = CN_MIN(256u, ctx->caps.max_workgroup_invocations);
  VkPipeline k_bbox, k_alloc, k_seg, k_backdrop, k_coarse, k_fine;
  CN_TRY(cn__kernel(r, CN_KERNEL_RENDER_BBOX, wg, &k_bbox));
  CN_TRY(cn__kernel(r, CN_KERNEL_RENDER_TILE_ALLOC, wg, &k_alloc));
  CN_TRY(cn__kernel(r, CN_KERNEL_RENDER_TILE_SEG, wg, &k_seg));
  CN_TRY(cn__kernel(r, CN_KERNEL_RENDER_BACKDROP, 64, &k_backdrop));
  CN_TRY(cn__kernel(r, CN_KERNEL_RENDER_COARSE, 0, &k_coarse));
  CN_TRY(cn__kernel(r, CN_KERNEL_RENDER_FINE, 0, &k_fine));

  bool gpu_lines = r->gpu_lines != 0;
  uint32_t cap_lines = gpu_lines ? r->gpu_cap : r->nlines;
  VkDeviceAddress scene = r->scene.address;
  cn_render_config cfg = {
      .elements = scene + r->off_elements,
      .paints = scene + r->off_paints,
      .stops = scene + r->off_stops,
      .transforms = scene + r->off_transforms,
      .blends = scene + r->off_blends,
      .lines = gpu_lines ? r->gpu_lines : r->lines.address,
      .elem = r->elem.address,
      .tiles = r->tiles.address,
      .segs = r->segs.address,
      .bump = r->bump.address,
      .cmds = r->cmds.address,
      .ptiles = r->ptiles.address,
      .spill = r->spill.address,
      .target = v->target ? v->target : r->out.address,
      /* host lines: all of them (bump.host_lines holds the count); GPU lines: the producer's counter */
      .line_count = gpu_lines ? r->gpu_count : r->bump.address + offsetof(cn_render_bump, host_lines),
      .n_elements = r->n_elements,
      .width = v->width,
      .height = v->height,
      .tiles_x = tiles_x,
      .tiles_y = tiles_y,
      .bins_x = CN_DIV_UP(tiles_x, CN_BIN),
      .bins_y = CN_DIV_UP(tiles_y, CN_BIN),
      .cap_lines = cap_lines,
      .cap_tiles = r->cap_tiles,
      .cap_segs = r->cap_segs,
      .cap_chunks = r->cap_chunks,
      .cap_spill = r->cap_spill,
      .paint_count = r->paint_count,
      .stop_count = r->stop_count,
      .transform_count = r->transform_count,
      .blend_count = r->blend_count,
      .out_stride = v->stride ? v->stride : v->width,
      .use_bins = r->binned ? 1u : 0u,
      .cap_bins = (uint32_t)CN_MIN(r->cap_bins, 0xFFFFFFFFull),
      .bin_offsets = r->binned ? r->bin_offsets.address : 0,
      .bin_elems = r->binned ? r->bin_elems.address : 0,
      .image_count = r->image_count,
      .image_pixel_count = r->image_pixel_count,
      .images = scene + r->off_images,
      .image_pixels = scene + r->off_pixels,
  };
  /* background: straight -> premultiplied */
  float a = v->background[3] < 0 ? 0 : v->background[3] > 1 ? 1 : v->background[3];
  for (int i = 0; i < 3; i++) {
    float c = v->background[i] < 0 ? 0 : v->background[i] > 1 ? 1 : v->background[i];
    cfg.background[i] = c * a;
  }
  cfg.background[3] = a;
  /* the inverse view transform, for paints (lines come already transformed) */
  const float *m = v->transform;
  bool zero = true;
  for (int i = 0; i < 6; i++) zero = zero && m[i] == 0;
  double va = zero ? 1 : m[0], vb = zero ? 0 : m[1], vc = zero ? 0 : m[2], vd = zero ? 1 : m[3];
  double ve = zero ? 0 : m[4], vf = zero ? 0 : m[5];
  double det = va * vd - vb * vc;
  if (!(fabs(det) > 1e-12) || !isfinite(det))
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "render view transform [%g %g %g %g %g %g] is singular", va, vb, vc, vd,
                   ve, vf);
  cfg.view_inv[0] = (float)(vd / det);
  cfg.view_inv[1] = (float)(-vb / det);
  cfg.view_inv[2] = (float)(-vc / det);
  cfg.view_inv[3] = (float)(va / det);
  cfg.view_inv[4] = (float)((vc * vf - vd * ve) / det);
  cfg.view_inv[5] = (float)((vb * ve - va * vf) / det);

  if (r->timer && timer_start) {
    cn_timer_reset(ctx, r->timer, cmd);
    cn__mark(r, cmd, "start");
  }
  vkCmdUpdateBuffer(cmd, r->config.buffer, 0, sizeof cfg, &cfg);
  cn_render_bump bump0 = {.lines = cap_lines, .host_lines = cap_lines};
  vkCmdUpdateBuffer(cmd, r->bump.buffer, 0, sizeof bump0, &bump0);
  if (r->n_elements) {
    VkBufferCopy c = {.size = (VkDeviceSize)r->n_elements * sizeof(cn_render_elem)};
    vkCmdCopyBuffer(cmd, r->elem_init.buffer, r->elem.buffer, 1, &c);
  }
  cn_cmd_fill(ctx, cmd, &r->tiles, 0, (VkDeviceSize)r->cap_tiles * sizeof(cn_render_tile), 0);
  cn_cmd_barrier(ctx, cmd);
  cn__mark(r, cmd, "setup");

  cn_render_push pc = {.config = r->config.address};
  cn_dispatch(ctx, cmd, k_bbox, &pc, sizeof pc, CN_DIV_UP((uint64_t)cap_lines, wg));
  cn_cmd_barrier(ctx, cmd);
  cn_dispatch(ctx, cmd, k_alloc, &pc, sizeof pc, CN_DIV_UP((uint64_t)r->n_elements, wg));
  cn_cmd_barrier(ctx, cmd);
  cn__mark(r, cmd, "bbox+alloc");
  cn_dispatch(ctx, cmd, k_seg, &pc, sizeof pc, CN_DIV_UP((uint64_t)cap_lines, wg));
  cn_cmd_barrier(ctx, cmd);
  cn__mark(r, cmd, "tile_seg");
  cn_dispatch(ctx, cmd, k_backdrop, &pc, sizeof pc, r->n_elements);
  cn_cmd_barrier(ctx, cmd);
  cn__mark(r, cmd, "backdrop");
  cn_dispatch(ctx, cmd, k_coarse, &pc, sizeof pc, (uint64_t)cfg.bins_x * cfg.bins_y);
  cn_cmd_barrier(ctx, cmd);
  cn__mark(r, cmd, "coarse");
  cn_dispatch(ctx, cmd, k_fine, &pc, sizeof pc, (uint64_t)tiles_x * tiles_y);
  cn_cmd_barrier(ctx, cmd);
  cn__mark(r, cmd, "fine");
  VkBufferCopy bc = {.size = sizeof(cn_render_bump)};
  vkCmdCopyBuffer(cmd, r->bump.buffer, r->bump_read.buffer, 1, &bc);
  cn_cmd_barrier(ctx, cmd);
  return CN_OK;
}

/* New capacity for a need: 1.5x headroom, at least the old one. */
static cn_result cn__grow(uint32_t *cap, uint64_t need, const char *what) {
  if (need >= CN_RENDER_MAX_RECORDS)
    return cn_fail(CN_ERROR_LIMIT, "the scene needs %llu %s at this size: at most %u",
                   (unsigned long long)need, what, CN_RENDER_MAX_RECORDS);
  uint64_t want = need + need / 2 + 16;
  if (want > CN_RENDER_MAX_RECORDS) want = CN_RENDER_MAX_RECORDS;
  if (want > *cap) *cap = (uint32_t)want;
  return CN_OK;
}

cn_result cn_renderer_frame_done(cn_renderer *r, bool *again) {
  if (!r || !again) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_renderer_frame_done: NULL argument");
  *again = false;
  if (r->flattened) {
    uint32_t count;
    bool fits;
    CN_TRY(cn_flatten_finish(r->ctx, r->flatten, &count, &fits));
    if (!fits) *again = true; /* the flatten stage grew its line buffer */
  }
  if (r->binned) {
    bool more = false;
    CN_TRY(cn_renderer_bins_done(r, &more));
    if (more) *again = true;
  }
  cn_render_bump b;
  memcpy(&b, r->bump_read.mapped, sizeof b);
  r->last_bump = b;
  if (!b.failed) return CN_OK;
  *again = true;
  /* counters past a failure are lower bounds: grow and try again */
  if (b.failed & CN_FAIL_TILES) CN_TRY(cn__grow(&r->cap_tiles, b.tiles, "tile records"));
  if (b.failed & CN_FAIL_SEGS) CN_TRY(cn__grow(&r->cap_segs, (uint64_t)b.segs + 1, "tile segments"));
  if (b.failed & CN_FAIL_CMDS) CN_TRY(cn__grow(&r->cap_chunks, b.chunks, "command chunks"));
  if (b.failed & CN_FAIL_SPILL) CN_TRY(cn__grow(&r->cap_spill, b.spill, "spilled stack levels"));
  *again = true;
  return CN_OK;
}

const cn_buffer *cn_renderer_output(const cn_renderer *r) { return r ? &r->out : NULL; }

void cn_renderer_stats(const cn_renderer *r, cn_render_stats *out) {
  memset(out, 0, sizeof *out);
  if (!r) return;
  out->cap_tiles = r->cap_tiles;
  out->cap_segs = r->cap_segs;
  out->cap_chunks = r->cap_chunks;
  out->cap_spill = r->cap_spill;
  out->used_tiles = r->last_bump.tiles;
  out->used_segs = r->last_bump.segs;
  out->used_chunks = r->last_bump.chunks;
  out->used_spill = r->last_bump.spill;
  out->lines = r->last_bump.lines;
  out->reruns = r->reruns;
  out->binned = r->binned;
}

cn_result cn_renderer_stage_times(cn_renderer *r, uint32_t *n, const char **labels, double *ns, uint32_t cap) {
  if (!r || !r->timer) return cn_fail(CN_ERROR_STATE, "renderer made without timing");
  return cn_timer_read(r->ctx, r->timer, n, labels, ns, cap);
}

cn_result cn_render_lines_to_rgba8(cn_renderer *r, const cn_scene_data *scene, const cn_render_line *lines,
                                   uint32_t nlines, const cn_render_view *view, uint8_t *rgba) {
  if (!r || !scene || !view || !rgba) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_render_lines_to_rgba8: NULL argument");
  if (view->target) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_render_lines_to_rgba8 renders into its own buffer");
  CN_TRY(cn_renderer_set_scene(r, scene));
  CN_TRY(cn_renderer_set_lines(r, lines, nlines));
  return cn_render__run_to_rgba8(r, view, cn_renderer_record, rgba);
}

cn_result cn_render__run_to_rgba8(cn_renderer *r, const cn_render_view *view, cn_render__record_fn record,
                                  uint8_t *rgba) {
  r->reruns = 0;
  for (int attempt = 0;; attempt++) {
    VkCommandBuffer cmd;
    CN_TRY(cn_cmd_begin(r->ctx, &cmd));
    cn_result res = record(r, cmd, view);
    cn_result s = cn_cmd_submit(r->ctx, cmd);
    if (res == CN_OK) res = s;
    if (res != CN_OK) return res;
    bool again;
    CN_TRY(cn_renderer_frame_done(r, &again));
    if (!again) break;
    r->reruns++;
    if (attempt >= 8) return cn_fail(CN_ERROR_LIMIT, "render: buffers still too small after %d re-runs", attempt + 1);
  }
  return cn_buffer_download(r->ctx, &r->out, 0, rgba, (size_t)view->width * view->height * 4);
}
