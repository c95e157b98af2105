/* render.c: host side of the renderer core (see cn_render.h): scene upload and
 * checks, buffer sizing and growth, and the recording of one frame's kernels
 * (render_bbox, render_tile_alloc, render_tile_seg, render_backdrop,
 * render_coarse, render_fine, render_solid). */
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


/* render_backdrop: invocations per workgroup, and the workgroups its grid
 * aims at (cn_renderer_desc.backdrop_grid 0). */
#define CN_RENDER_BACKDROP_WG 256u
#define CN_RENDER_BACKDROP_GRID 4096u
/* render_backdrop with one slice: at most this many elements per subgroup of
 * a workgroup (H200, the 100 000-path scene: 1, 2, 4 -> 0.094, 0.084, 0.080
 * ms; docs/PERF.md) */
#define CN_RENDER_BACKDROP_PACK 4u

/* render_tile_seg: at least this many lines per workgroup, fewer than 256
 * while the grid would hold fewer workgroups than this (the line capacity
 * sizes the grid: cn_renderer_desc.tile_seg_lines 0). */
#define CN_RENDER_SEG_MIN_LINES 32u
#define CN_RENDER_SEG_GRID 1024u
/* Fine reads runs with plain loads when fewer than 1 in this many of the
 * previous frame's pieces lay in runs of CN_FINE_LONG_RUN or more
 * (render_fine.comp, FINE_RUNS; docs/PERF.md). */
#define CN_RENDER_FINE_LONG_SHARE 16u
/* Area coverage: fine draws the very long lists (CN_FINE_VL_RUNS runs of
 * chunks or more) apart, one pixel an invocation, when the previous frame had at least
 * one and at most this many of them (cn_renderer_desc.fine_split 0). With
 * few, the longest is the frame's critical path, and twice the invocations
 * shorten it; with many, two pixels an invocation keep more tiles in flight
 * (docs/PERF.md). The apart dispatch has this many workgroups. */
#define CN_RENDER_FINE_SPLIT_MAX 128u
/* Area coverage: fine's pixels an invocation where it reads the pieces with
 * LOADS (short runs), otherwise two. Those tiles' time is the walk of their
 * command lists, which every invocation makes: four pixels an invocation
 * walk each list half as many times (H200: the 100 000 paths' fine 1.17 ->
 * 1.09 ms; eight took 95 registers and 2.36 ms; docs/PERF.md). */
#define CN_RENDER_FINE_PX_SHORT 4u
/* Coarse splits the walks of long blocks between two or four invocations a
 * tile (render_coarse.comp) when the previous frame had at least one and at most
 * this many bins with lists of CN_COARSE_LONG_BIN elements or more
 * (cn_renderer_desc.coarse_split 0): with few, the longest bin's walk is the
 * pass's critical path; with many, the pass is busy anyway and the split's
 * extra chains cost fine more than coarse gains (docs/PERF.md). */
#define CN_RENDER_COARSE_SPLIT_MAX 128u
/* ... with four invocations a tile where a bin's list held this many
 * elements or more, else two. Four take 256 invocations and 26.8 KB of shared
 * memory a workgroup (two: 128 and 12.3 KB); a device short of either takes
 * two. */
#define CN_RENDER_COARSE_SEGS4_BIN 128u

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
  cn_buffer *bufs[] = {&r->lines, &r->config, &r->bump, &r->bump_read, &r->ptiles, &r->fine_tiles, &r->out};
  for (size_t i = 0; i < CN_ARRAY_LEN(bufs); i++) cn_buffer_destroy(ctx, bufs[i]);
  if (r->timer) cn_timer_destroy(ctx, r->timer);
  if (r->own_sg) cn_scene_gpu_destroy(r->sg);
  free(r);
}

/* ---------------------------------------------------------------- scene */

cn_result cn_renderer_set_scene(cn_renderer *r, const cn_scene_data *s) {
  if (!r || !s) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_renderer_set_scene: NULL argument");
  r->has_scene = false;
  if (!r->own_sg) {
    cn_scene_gpu_desc d = {.initial = {.bin_entries = r->desc.initial_bins,
                                       .lines = r->desc.initial_lines,
                                       .tiles = r->desc.initial_tiles,
                                       .segs = r->desc.initial_segs,
                                       .chunks = r->desc.initial_chunks,
                                       .spill = r->desc.initial_spill}};
    cn_scene_gpu *g = NULL;
    CN_TRY(cn_scene_gpu_create(r->ctx, &d, &g));
    r->sg = g;
    r->own_sg = true;
  }
  CN_TRY(cn_scene_gpu_set_scene(r->sg, s));
  r->has_scene = true;
  return CN_OK;
}

cn_result cn_renderer_use_scene_gpu(cn_renderer *r, cn_scene_gpu *g) {
  if (!r || !g) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_renderer_use_scene_gpu: NULL argument");
  if (!cn_scene_gpu_scene(g)) return cn_fail(CN_ERROR_STATE, "cn_renderer_use_scene_gpu: the cn_scene_gpu has no scene");
  if (r->own_sg) cn_scene_gpu_destroy(r->sg);
  r->sg = g;
  r->own_sg = false;
  r->has_scene = true;
  return CN_OK;
}

cn_scene_gpu *cn_renderer_scene_gpu(const cn_renderer *r) { return r ? r->sg : NULL; }

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

/* Sizes the target-sized buffers, and the scene-sized ones through the cn_scene_gpu. */
static cn_result cn__reserve(cn_renderer *r, uint32_t tiles_x, uint32_t tiles_y, const cn_render_view *v) {
  cn_context *ctx = r->ctx;
  uint32_t ntiles = tiles_x * tiles_y;
  CN_TRY(cn__scene_gpu_reserve_render(r->sg, ntiles));
  CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, (VkDeviceSize)ntiles * sizeof(cn_render_ptile), &r->ptiles));
  CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, ((VkDeviceSize)CN_FINE_LIST_FIRST + 2ull * ntiles) * sizeof(uint32_t),
                           &r->fine_tiles));
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
  if (r) r->scene_frame = r->binned = r->flatten_finish = false;
  return cn_renderer_record_frame(r, cmd, v, true);
}

cn_result cn_renderer_record_frame(cn_renderer *r, VkCommandBuffer cmd, const cn_render_view *v, bool timer_start) {
  if (r && r->timer && timer_start && cmd && v) {
    cn_timer_reset(r->ctx, r->timer, cmd);
    cn__mark(r, cmd, "start");
  }
  CN_TRY(cn_renderer__frame_setup(r, cmd, v));
  cn_cmd_barrier(r->ctx, cmd);
  cn__mark(r, cmd, "setup");
  return cn_renderer__frame_passes(r, cmd);
}

cn_result cn_renderer__frame_setup(cn_renderer *r, VkCommandBuffer cmd, const cn_render_view *v) {
  if (!r || !v || !cmd) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_renderer_record: NULL argument");
  r->frame.ready = false;
  if (!r->has_scene) return cn_fail(CN_ERROR_STATE, "cn_renderer_record: no scene (cn_renderer_set_scene)");
  if (!r->has_lines) return cn_fail(CN_ERROR_STATE, "cn_renderer_record: no lines (cn_renderer_set_lines)");
  if (v->width == 0 || v->height == 0 || v->width > CN_RENDER_MAX_SIZE || v->height > CN_RENDER_MAX_SIZE)
    return cn_fail(CN_ERROR_LIMIT, "render target %ux%u: each side must be 1..%u", v->width, v->height,
                   CN_RENDER_MAX_SIZE);
  if (v->stride && v->stride < v->width)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "render target stride %u < width %u", v->stride, v->width);
  _Static_assert(CN_RENDER_FLAT_HAIRLINE == CN_FLATTEN_ELEM_HAIRLINE, "cn_render_shared.h mirrors cn_flatten_shared.h");
  if (v->aa >= CN_AA_COUNT)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "render view aa %u: neither CN_AA_AREA (0) nor CN_AA_SS16 (1)", v->aa);
  cn_context *ctx = r->ctx;
  cn__frame *fr = &r->frame;
  uint32_t tiles_x = CN_DIV_UP(v->width, CN_TILE), tiles_y = CN_DIV_UP(v->height, CN_TILE);
  CN_TRY(cn__reserve(r, tiles_x, tiles_y, v));
  r->last_w = v->width;
  r->last_h = v->height;

  uint32_t wg = CN_MIN(256u, ctx->caps.max_workgroup_invocations);
  CN_TRY(cn__kernel(r, CN_KERNEL_RENDER_FRAME_INIT, 0, &fr->k_init));
  CN_TRY(cn__kernel(r, CN_KERNEL_RENDER_BBOX, wg, &fr->k_bbox));
  CN_TRY(cn__kernel(r, CN_KERNEL_RENDER_TILE_ALLOC, wg, &fr->k_alloc));
  CN_TRY(cn__kernel(r, CN_KERNEL_RENDER_TILE_SEG, 0, &fr->k_seg)); /* 256 invocations, fixed */
  CN_TRY(cn__kernel(r, CN_KERNEL_RENDER_SEG_ALLOC, 0, &fr->k_seg_alloc)); /* 256 invocations, fixed */
  /* backdrop: each element's rows over `slices` workgroups, a subgroup per row
   * group; no more slices than the tallest possible element's row groups;
   * with one slice, `bd_packed` elements a workgroup whose row groups its
   * subgroups share */
  uint32_t bd_wg = CN_MIN(CN_RENDER_BACKDROP_WG, wg);
  uint32_t bd_groups_per_slice = CN_MAX(bd_wg / CN_MAX(ctx->caps.subgroup_size, 1u), 1u);
  uint32_t bd_grid = r->desc.backdrop_grid ? r->desc.backdrop_grid : CN_RENDER_BACKDROP_GRID;
  uint32_t n_el = r->sg->host->element_count;
  uint32_t slices = n_el ? CN_MAX(bd_grid / n_el, 1u) : 1u;
  slices = CN_MAX(CN_MIN(slices, CN_DIV_UP(tiles_y, bd_groups_per_slice)), 1u);
  /* one slice: elements a workgroup so that the grid keeps about bd_grid
   * workgroups, at most CN_RENDER_BACKDROP_PACK a subgroup (fewer workgroups
   * than that left SMs idle: material_design_icons, 2859 elements 32 a
   * workgroup, 0.010 -> 0.013 ms); more than one: render_backdrop_packed */
  uint32_t bd_packed = CN_MIN(CN_MIN(bd_groups_per_slice * CN_RENDER_BACKDROP_PACK, bd_wg), CN_MAX(n_el / bd_grid, 1u));
  if (slices > 1 || bd_packed <= 1) { /* one slice: the pipeline with the slicing compiled out */
    uint32_t bd_spec[CN_SPEC_BACKDROP_SLICED + 1] = {[CN_SPEC_WG_SIZE] = bd_wg, [CN_SPEC_BACKDROP_SLICED] = slices > 1};
    CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_RENDER_BACKDROP, bd_spec, CN_SPEC_BACKDROP_SLICED + 1, &fr->k_backdrop));
  } else {
    CN_TRY(cn__kernel(r, CN_KERNEL_RENDER_BACKDROP_PACKED, bd_wg, &fr->k_backdrop));
  }
  /* coarse: one invocation a tile, or two or four that split the long
   * blocks' walks (forced, or from the previous frame's long bins). A frame
   * that re-runs one whose buffers were short keeps that frame's choice:
   * split walks take more command chunks, which the short frame's counts
   * would not cover. */
  if (r->last_bump.failed == 0 || r->coarse_segs == 0) {
    uint32_t long_bins = r->last_bump.long_bins;
    bool coarse_split = r->desc.coarse_split == CN_RENDER_COARSE_SPLIT_ON ||
                        (r->desc.coarse_split == CN_RENDER_COARSE_SPLIT_AUTO && long_bins >= 1 &&
                         long_bins <= CN_RENDER_COARSE_SPLIT_MAX);
    bool four_fit = ctx->caps.max_shared_memory >= 32768u &&
                    ctx->caps.max_workgroup_invocations >= 4 * CN_BIN_TILES &&
                    ctx->caps.max_workgroup_size[0] >= 4 * CN_BIN_TILES;
    r->coarse_split = coarse_split;
    r->coarse_segs = !coarse_split ? 1u : r->last_bump.max_bin >= CN_RENDER_COARSE_SEGS4_BIN && four_fit ? 4u : 2u;
  }
  CN_TRY(cn__kernel(r, CN_KERNEL_RENDER_COARSE, CN_BIN_TILES * r->coarse_segs, &fr->k_coarse));
  CN_TRY(cn__kernel(r, CN_KERNEL_RENDER_SOLID, 0, &fr->k_solid));
  /* fine's loop over a FILL's pieces: from the previous frame's run lengths */
  uint32_t runs = r->desc.fine_runs;
  if (runs != CN_RENDER_FINE_RUNS_SHUFFLE && runs != CN_RENDER_FINE_RUNS_LOADS) {
    const cn_render_bump *lb = &r->last_bump;
    runs = lb->fill_pieces && (uint64_t)lb->long_pieces * CN_RENDER_FINE_LONG_SHARE < lb->fill_pieces
               ? CN_RENDER_FINE_RUNS_LOADS
               : CN_RENDER_FINE_RUNS_SHUFFLE;
  }
  r->fine_runs = runs;
  /* pixels an invocation (render_fine.comp; H200: docs/PERF.md): one when
   * supersampling; with area coverage two, or CN_RENDER_FINE_PX_SHORT with
   * LOADS */
  uint32_t fine_px = v->aa == CN_AA_SS16 ? 1 : runs == CN_RENDER_FINE_RUNS_LOADS ? CN_RENDER_FINE_PX_SHORT : 2;
  uint32_t fine_spec[CN_SPEC_FINE_VL + 1] = {
      [CN_SPEC_WG_SIZE] = CN_TILE_PIXELS / fine_px,
      [CN_SPEC_FINE_AA] = v->aa,
      [CN_SPEC_FINE_RUNS] = runs == CN_RENDER_FINE_RUNS_LOADS ? CN_FINE_RUNS_LOADS : CN_FINE_RUNS_SHUFFLE,
      [CN_SPEC_FINE_PX] = fine_px,
      [CN_SPEC_FINE_VL] = 0};
  CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_RENDER_FINE, fine_spec, CN_SPEC_FINE_VL + 1, &fr->k_fine));
  /* the very long lists apart, one pixel an invocation (area coverage; the
   * supersampler draws one anyway): forced, or from the previous frame's count */
  uint32_t vl = r->last_bump.vl_tiles;
  bool split = fine_px >= 2 && (r->desc.fine_split == CN_RENDER_FINE_SPLIT_ON ||
                                (r->desc.fine_split == CN_RENDER_FINE_SPLIT_AUTO && vl >= 1 && vl <= CN_RENDER_FINE_SPLIT_MAX));
  r->fine_split = split;
  fr->k_fine_vl = VK_NULL_HANDLE;
  if (split) {
    fine_spec[CN_SPEC_WG_SIZE] = CN_TILE_PIXELS;
    fine_spec[CN_SPEC_FINE_PX] = 1;
    fine_spec[CN_SPEC_FINE_VL] = 1;
    CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_RENDER_FINE, fine_spec, CN_SPEC_FINE_VL + 1, &fr->k_fine_vl));
  }

  cn_scene_gpu *g = r->sg;
  const cn_scene_data *host = g->host;
  bool gpu_lines = r->gpu_lines != 0;
  uint32_t cap_lines = gpu_lines ? r->gpu_cap : r->nlines;
  /* A whole-scene frame reads the scene stage's and flatten's outputs from the
   * cn_scene_gpu's buffers: this runs inside its record (cn_renderer_record_scene),
   * before the passes that write them. */
  bool scene = r->scene_frame, staged = scene && host->element_count > 0, binned = scene && r->binned;
  bool finish = scene && r->flatten_finish;
  cn_render_config cfg = {
      .elements = CN__SG_ADDR(g, elements),
      .paints = CN__SG_ADDR(g, paints),
      .stops = CN__SG_ADDR(g, stops),
      .transforms = CN__SG_ADDR(g, transforms),
      .blends = CN__SG_ADDR(g, blends),
      .lines = gpu_lines ? r->gpu_lines : r->lines.address,
      .elem = g->elem.address,
      .tiles = g->tiles.address,
      .segs = g->segs.address,
      .bump = r->bump.address,
      .cmds = g->cmds.address,
      .ptiles = r->ptiles.address,
      .spill = g->spill.address,
      .target = v->target ? v->target : r->out.address,
      /* host lines: all of them (bump.host_lines holds the count); GPU lines: the producer's counter */
      .line_count = gpu_lines ? r->gpu_count : r->bump.address + offsetof(cn_render_bump, host_lines),
      .n_elements = host->element_count,
      .width = v->width,
      .height = v->height,
      .tiles_x = tiles_x,
      .tiles_y = tiles_y,
      .bins_x = CN_DIV_UP(tiles_x, CN_BIN),
      .bins_y = CN_DIV_UP(tiles_y, CN_BIN),
      .cap_lines = cap_lines,
      .cap_tiles = g->cap.tiles,
      .cap_segs = g->cap.segs,
      .cap_chunks = g->cap.chunks,
      .cap_spill = g->cap.spill,
      .paint_count = host->paint_count,
      .stop_count = host->stop_count,
      .transform_count = host->transform_count,
      .blend_count = host->blend_count,
      .image_count = host->image_count,
      .image_pixel_count = host->image_pixel_count,
      .images = CN__SG_ADDR(g, images),
      .image_pixels = CN__SG_ADDR(g, image_pixels),
      .out_stride = v->stride ? v->stride : v->width,
      .aa = v->aa,
      .use_bins = binned ? 1u : 0u,
      .cap_bins = binned ? (uint32_t)CN_MIN(g->cap.bin_entries, 0xFFFFFFFFull) : 0,
      .bin_offsets = binned ? g->bin_offsets.address : 0,
      .bin_elems = binned ? g->bin_elems.address : 0,
      .flat_elems = scene ? g->line_elems.address : 0,
      .result_boxes = staged ? g->boxes.address : 0,
      .flat_work = finish ? g->fl_scratch.address : 0,
      .fine_tiles = r->fine_tiles.address,
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

  /* the transfers: no pass before the frame's tile allocation reads or writes
   * what they write */
  vkCmdUpdateBuffer(cmd, r->config.buffer, 0, sizeof cfg, &cfg);
  /* the resets in one dispatch (render_frame_init.comp): a copy, a fill and
   * two more updates would each be a transfer of their own on the queue */
  uint32_t n = host->element_count;
  if (g->cap.tiles > UINT32_MAX / 2 || n > UINT32_MAX / 3)
    return cn_fail(CN_ERROR_LIMIT, "render: %u tile records or %u elements: more than a frame's reset can address",
                   g->cap.tiles, n);
  _Static_assert(sizeof(cn_render_elem) % 16 == 0 && offsetof(cn_render_bump, lines) == 4 &&
                     offsetof(cn_render_bump, host_lines) == 24 && sizeof(cn_render_bump) == 64 &&
                     CN_FINE_LIST_ARGS == 0 && CN_FINE_LIST_FIRST == 7,
                 "render_frame_init.comp writes these layouts");
  cn_render_init_push ip = {.elem_init = g->elem_init.address,
                            .elem = g->elem.address,
                            .tiles = g->tiles.address,
                            .bump = r->bump.address,
                            .fine_tiles = r->fine_tiles.address,
                            .elem_vec4s = n * (uint32_t)(sizeof(cn_render_elem) / 16),
                            .tile_words = g->cap.tiles * (uint32_t)(sizeof(cn_render_tile) / 4),
                            .cap_lines = cap_lines};
  uint64_t init_words = CN_MAX((uint64_t)ip.elem_vec4s, (uint64_t)ip.tile_words / 4);
  cn_dispatch(ctx, cmd, fr->k_init, &ip, sizeof ip, CN_MIN(CN_MAX(CN_DIV_UP(init_words, 256), 1), 1024));
  /* tile_seg: lines per workgroup, fewer than 256 while the grid would stay
   * below CN_RENDER_SEG_GRID workgroups */
  uint32_t seg_lines = r->desc.tile_seg_lines;
  if (seg_lines == 0 || seg_lines > 256) {
    seg_lines = 256;
    while (seg_lines > CN_RENDER_SEG_MIN_LINES && cap_lines / seg_lines < CN_RENDER_SEG_GRID) seg_lines /= 2;
  }
  *fr = (cn__frame){.k_init = fr->k_init, .k_bbox = fr->k_bbox, .k_alloc = fr->k_alloc, .k_seg = fr->k_seg,
                    .k_seg_alloc = fr->k_seg_alloc, .k_backdrop = fr->k_backdrop,
                    .k_coarse = fr->k_coarse, .k_solid = fr->k_solid, .k_fine = fr->k_fine,
                    .k_fine_vl = fr->k_fine_vl, .split = split, .wg = wg, .n = n,
                    .cap_lines = cap_lines, .cap_tiles = g->cap.tiles, .tiles_x = tiles_x, .tiles_y = tiles_y,
                    .bins = cfg.bins_x * cfg.bins_y,
                    .bins_x = cfg.bins_x, .backdrop_slices = slices, .backdrop_packed = bd_packed,
                    .seg_lines = seg_lines,
                    .flat = scene, .finish = finish, .ready = true};
  return CN_OK;
}

cn_result cn_renderer__frame_passes(cn_renderer *r, VkCommandBuffer cmd) {
  if (!r || !cmd || !r->frame.ready)
    return cn_fail(CN_ERROR_STATE, "cn_renderer: frame passes recorded without the frame's setup");
  cn_context *ctx = r->ctx;
  const cn__frame *fr = &r->frame;
  cn_render_push pc = {.config = r->config.address};
  if (!fr->flat) { /* whole scenes have the flatten stage's boxes */
    cn_dispatch(ctx, cmd, fr->k_bbox, &pc, sizeof pc, CN_DIV_UP((uint64_t)fr->cap_lines, fr->wg));
    cn_cmd_barrier(ctx, cmd);
  }
  /* finishing flatten's elements: every element, and element 0 of an empty scene for the header */
  uint64_t alloc_n = fr->finish ? CN_MAX(fr->n, 1u) : fr->n;
  cn_dispatch(ctx, cmd, fr->k_alloc, &pc, sizeof pc, CN_DIV_UP(alloc_n, fr->wg));
  cn_cmd_barrier(ctx, cmd);
  cn__mark(r, cmd, fr->flat ? "alloc" : "bbox+alloc");
  /* tile_seg counts each tile's pieces (and adds the backdrop deltas);
   * seg_alloc gives each tile record its run of piece records, beside the
   * backdrop's sums; then tile_seg writes the pieces beside coarse, which
   * needs only the counts */
  uint64_t seg_groups = CN_DIV_UP((uint64_t)fr->cap_lines, fr->seg_lines);
  cn_render_push pc_seg = {.config = r->config.address, .arg = fr->seg_lines};
  cn_dispatch(ctx, cmd, fr->k_seg, &pc_seg, sizeof pc_seg, seg_groups);
  cn_cmd_barrier(ctx, cmd);
  cn__mark(r, cmd, "tile_seg");
  bool bd_sliced = fr->backdrop_slices > 1; /* else backdrop_packed elements a workgroup */
  cn_render_push pc_backdrop = {.config = r->config.address,
                                .arg = bd_sliced ? fr->backdrop_slices : fr->backdrop_packed};
  cn_dispatch(ctx, cmd, fr->k_backdrop, &pc_backdrop, sizeof pc_backdrop,
              bd_sliced ? (uint64_t)fr->n * fr->backdrop_slices : CN_DIV_UP((uint64_t)fr->n, fr->backdrop_packed));
  cn_dispatch(ctx, cmd, fr->k_seg_alloc, &pc, sizeof pc, CN_DIV_UP((uint64_t)fr->cap_tiles, 256));
  cn_cmd_barrier(ctx, cmd);
  cn__mark(r, cmd, "backdrop");
  /* coarse writes the tiles of one colour and lists the others for fine: an
   * indirect dispatch of at most this many workgroups (they stride over the list) */
  uint32_t fine_groups = CN_MIN(ctx->caps.max_workgroup_count[0], 65535u);
  if (r->desc.fine_max_groups) fine_groups = CN_MIN(fine_groups, r->desc.fine_max_groups);
  cn_render_push pc_coarse = {.config = r->config.address,
                              .arg = fine_groups | (r->desc.fine_every_tile ? CN_COARSE_FINE_ALL : 0u) |
                                     (fr->split ? CN_COARSE_FINE_SPLIT : 0u)};
  cn_dispatch(ctx, cmd, fr->k_coarse, &pc_coarse, sizeof pc_coarse, fr->bins);
  /* tile_seg's writing pass after coarse, with no barrier between: its work
   * fills in around coarse's long per-tile walks (recorded first, it made the
   * span 0.002-0.019 ms longer on the real scenes and 0.085 on the synthetic
   * one, H200: docs/PERF.md) */
  pc_seg.arg = fr->seg_lines | CN_TILE_SEG_WRITE;
  cn_dispatch(ctx, cmd, fr->k_seg, &pc_seg, sizeof pc_seg, seg_groups);
  VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                        .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                        .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                                         VK_ACCESS_INDIRECT_COMMAND_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT, 0, 1, &mb, 0, NULL,
                       0, NULL);
  cn__mark(r, cmd, "coarse+segs");
  /* the very long lists first (listed apart), then the others, then the
   * tiles of one colour: no barrier between them (disjoint pixels) */
  if (fr->split) {
    uint32_t vl_groups = r->desc.fine_max_groups ? CN_MIN(r->desc.fine_max_groups, CN_RENDER_FINE_SPLIT_MAX)
                                                  : CN_RENDER_FINE_SPLIT_MAX;
    cn_dispatch(ctx, cmd, fr->k_fine_vl, &pc, sizeof pc, vl_groups);
  }
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, fr->k_fine);
  vkCmdPushConstants(cmd, ctx->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pc, &pc);
  vkCmdDispatchIndirect(cmd, r->fine_tiles.buffer, CN_FINE_LIST_ARGS * sizeof(uint32_t));
  /* the pixels of the tiles of one colour, with no barrier after fine: the
   * two write disjoint pixels, and these stores fill in around fine's work
   * (recorded second, so fine's long lists start first) */
  if (!r->desc.fine_every_tile)
    cn_dispatch(ctx, cmd, fr->k_solid, &pc, sizeof pc, (uint64_t)fr->bins_x * fr->tiles_y);
  cn_cmd_barrier(ctx, cmd);
  cn__mark(r, cmd, "fine");
  VkBufferCopy bc = {.size = sizeof(cn_render_bump)};
  vkCmdCopyBuffer(cmd, r->bump.buffer, r->bump_read.buffer, 1, &bc);
  cn_cmd_barrier(ctx, cmd);
  r->frame.ready = false;
  return CN_OK;
}

cn_result cn_renderer_frame_done(cn_renderer *r, bool *again) {
  if (!r || !again) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_renderer_frame_done: NULL argument");
  *again = false;
  cn__scene_needs need = {0};
  if (r->scene_frame) CN_TRY(cn__scene_gpu_read(r->sg, &need));
  cn_render_bump b;
  memcpy(&b, r->bump_read.mapped, sizeof b);
  r->last_bump = b;
  r->frame_runs = r->fine_runs;
  r->frame_split = r->fine_split;
  r->frame_coarse_split = r->coarse_split;
  r->frame_coarse_segs = r->coarse_segs;
  need.render = true;
  need.failed = b.failed;
  need.tiles = b.tiles;
  need.segs = b.segs;
  need.chunks = b.chunks;
  need.spill = b.spill;
  /* one growth rule for the scene stage's, flatten's and the renderer's buffers */
  return cn__scene_sizes_grow(r->sg, &need, again);
}

const cn_buffer *cn_renderer_output(const cn_renderer *r) { return r ? &r->out : NULL; }

void cn_renderer_stats(const cn_renderer *r, cn_render_stats *out) {
  memset(out, 0, sizeof *out);
  if (!r) return;
  if (r->sg) {
    out->cap_tiles = r->sg->cap.tiles;
    out->cap_segs = r->sg->cap.segs;
    out->cap_chunks = r->sg->cap.chunks;
    out->cap_spill = r->sg->cap.spill;
  }
  out->used_tiles = r->last_bump.tiles;
  out->used_segs = r->last_bump.segs;
  out->used_chunks = r->last_bump.chunks;
  out->used_spill = r->last_bump.spill;
  out->lines = r->last_bump.lines;
  out->tiles = CN_DIV_UP(r->last_w, CN_TILE) * CN_DIV_UP(r->last_h, CN_TILE);
  out->fine_tiles = r->last_bump.fine_tiles;
  out->fills = r->last_bump.fills;
  out->fill_pieces = r->last_bump.fill_pieces;
  out->long_pieces = r->last_bump.long_pieces;
  out->fine_runs = r->frame_runs;
  out->vl_tiles = r->last_bump.vl_tiles;
  out->fine_split = r->frame_split;
  out->long_bins = r->last_bump.long_bins;
  out->coarse_split = r->frame_coarse_split;
  out->coarse_segs = r->frame_coarse_segs;
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
    /* counts are exact or upper bounds: a frame fits after one re-run, or two
     * when the lines did not fit the first time */
    if (attempt >= 2) return cn_fail(CN_ERROR_STATE, "render: buffers still too small after %d re-runs", attempt + 1);
  }
  return cn_buffer_download(r->ctx, &r->out, 0, rgba, (size_t)view->width * view->height * 4);
}
