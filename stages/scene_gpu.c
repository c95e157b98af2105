/* scene_gpu.c: one scene on the GPU and every scene-sized buffer (see
 * cn_scene_gpu.h): upload, the scene stage and flatten recording, readback of
 * what the GPU counted, and the one rule by which every capacity grows. */
#include "scene_gpu_internal.h"

#include "cn_scan.h"
#include "cn_scene_stage.h"
#include "kernels.gen.h"

#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

cn_result cn_scene_gpu_create(cn_context *ctx, const cn_scene_gpu_desc *desc, cn_scene_gpu **out) {
  if (!out) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_gpu_create: out is NULL");
  *out = NULL;
  if (!ctx) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_gpu_create: ctx is NULL");
  cn_scene_gpu *g = calloc(1, sizeof *g);
  if (!g) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "cn_scene_gpu_create: out of host memory");
  g->ctx = ctx;
  if (desc) g->initial = desc->initial;
  cn_result r = cn_buffer_create(ctx, CN_MEMORY_READBACK, sizeof(cn__scene_readback), &g->readback);
  if (r != CN_OK) {
    free(g);
    return r;
  }
  *out = g;
  return CN_OK;
}

void cn_scene_gpu_destroy(cn_scene_gpu *g) {
  if (!g) return;
  cn_buffer *bufs[] = {&g->scene,      &g->elem_init, &g->view_transforms, &g->tags,  &g->path_boxes,
                       &g->boxes,      &g->status,    &g->scratch,         &g->bin_offsets, &g->bin_elems,
                       &g->lines,      &g->line_elems, &g->fl_scratch,     &g->elem,  &g->tiles,
                       &g->segs,       &g->cmds,      &g->spill,           &g->readback,    &g->scan_state};
  for (size_t i = 0; i < CN_ARRAY_LEN(bufs); i++) cn_buffer_destroy(g->ctx, bufs[i]);
  free(g);
}

static VkDeviceSize cn__align16(VkDeviceSize x) { return (x + 15) & ~(VkDeviceSize)15; }

cn_result cn_scene_gpu_set_scene(cn_scene_gpu *g, const cn_scene_data *s) {
  if (!g || !s) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_gpu_set_scene: NULL argument");
  if (s->element_count >= CN_SCENE_MAX_RECORDS)
    return cn_fail(CN_ERROR_LIMIT, "scene of %u elements: at most %u", s->element_count, CN_SCENE_MAX_RECORDS);
  cn_context *ctx = g->ctx;
  g->has_scene = false;
  g->links_ready = g->links_pending = false;
  g->cull_known = g->fl_culls = g->fl_overlapped = false;
  uint32_t n = s->element_count;
  uint32_t *pair = malloc(sizeof(uint32_t) * 2 * (n ? n : 1));
  if (!pair) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "scene upload: out of host memory");
  uint32_t *flags = pair + (n ? n : 1);
  cn_scene_info info;
  cn_result res = cn__scene_check(s, &info, pair, flags);
  VkDeviceSize off = 0;
  g->off_elements = off, off = cn__align16(off + (VkDeviceSize)n * sizeof(cn_element));
  g->off_paints = off, off = cn__align16(off + (VkDeviceSize)s->paint_count * sizeof(cn_paint));
  g->off_stops = off, off = cn__align16(off + (VkDeviceSize)s->stop_count * sizeof(cn_stop));
  g->off_transforms = off, off = cn__align16(off + (VkDeviceSize)s->transform_count * sizeof(cn_transform));
  g->off_blends = off, off = cn__align16(off + (VkDeviceSize)s->blend_count * sizeof(cn_blend));
  g->off_paths = off, off = cn__align16(off + (VkDeviceSize)s->path_count * sizeof(cn_path));
  g->off_segments = off, off = cn__align16(off + (VkDeviceSize)s->segment_count * sizeof(cn_segment));
  g->off_strokes = off, off = cn__align16(off + (VkDeviceSize)s->stroke_count * sizeof(cn_stroke));
  g->off_dashes = off, off = cn__align16(off + (VkDeviceSize)s->dash_count * sizeof(float));
  g->off_images = off, off = cn__align16(off + (VkDeviceSize)s->image_count * sizeof(cn_image));
  g->off_image_pixels = off, off = cn__align16(off + (VkDeviceSize)s->image_pixel_count * sizeof(uint32_t));
  uint8_t *host = NULL;
  cn_render_elem *init = NULL;
  if (res == CN_OK) {
    host = calloc(1, off ? off : 16);
    init = calloc(n ? n : 1, sizeof *init);
    if (!host || !init) res = cn_fail(CN_ERROR_OUT_OF_MEMORY, "scene upload: out of host memory");
  }
  if (res == CN_OK) {
#define CN__COPY(field, count, type)                                                                        \
  if (s->count) memcpy(host + g->off_##field, s->field, (size_t)s->count * sizeof(type))
    CN__COPY(elements, element_count, cn_element);
    CN__COPY(paints, paint_count, cn_paint);
    CN__COPY(stops, stop_count, cn_stop);
    CN__COPY(transforms, transform_count, cn_transform);
    CN__COPY(blends, blend_count, cn_blend);
    CN__COPY(paths, path_count, cn_path);
    CN__COPY(segments, segment_count, cn_segment);
    CN__COPY(strokes, stroke_count, cn_stroke);
    CN__COPY(dashes, dash_count, float);
    CN__COPY(images, image_count, cn_image);
    CN__COPY(image_pixels, image_pixel_count, uint32_t);
#undef CN__COPY
    /* the device copy's path flags: CN_PATH_CURVED where a segment is a curve
     * (the flatten stage walks those strokes in chunks), with the most chunks
     * per segment (CN_FL_STROKE_SPLIT, then half as many, ...) that keep the
     * scene's pairs within cn_tuning.flatten_split_max; none when even two
     * chunks make more */
    cn_path *dp = (cn_path *)(host + g->off_paths);
    uint64_t pairs_plain = 0, curved = 0; /* curved: segments of strokes of curved paths */
    for (uint32_t p = 0; p < s->path_count; p++) {
      dp[p].flags &= ~CN_PATH_CURVED;
      for (uint32_t k = 0; k < dp[p].seg_count; k++)
        if ((s->segments[dp[p].seg_first + k].info & 3u) != CN_SEG_LINE) {
          dp[p].flags |= CN_PATH_CURVED;
          break;
        }
    }
    for (uint32_t i = 0; i < n; i++) { /* flatten_elements.comp's pair counts, nothing culled */
      const cn_element *e = &s->elements[i];
      if (e->tag != CN_TAG_FILL && e->tag != CN_TAG_STROKE && e->tag != CN_TAG_BEGIN_CLIP) continue;
      bool split = e->tag == CN_TAG_STROKE && (dp[e->path].flags & CN_PATH_CURVED);
      curved += split ? dp[e->path].seg_count : 0u;
      pairs_plain += dp[e->path].seg_count;
    }
    uint32_t split_max = ctx->tuning.flatten_split_max ? ctx->tuning.flatten_split_max : CN__FLATTEN_SPLIT_DEFAULT;
    uint32_t chunks = ctx->tuning.flatten_split_max == CN_SMALL_OFF ? 1u : CN_FL_STROKE_SPLIT;
    while (chunks > 1 && pairs_plain + (uint64_t)(chunks - 1) * curved > split_max) chunks /= 2;
    if (chunks == 1)
      for (uint32_t p = 0; p < s->path_count; p++) dp[p].flags &= ~CN_PATH_CURVED;
    g->stroke_split = chunks;
    uint64_t pairs_all = pairs_plain + (uint64_t)(chunks - 1) * curved;
    g->pairs_all = (uint32_t)CN_MIN(pairs_all, (uint64_t)UINT32_MAX);
    for (uint32_t i = 0; i < n; i++) {
      init[i].px0 = init[i].py0 = INT_MAX;
      init[i].px1 = init[i].py1 = INT_MIN;
      init[i].pair = pair[i];
      init[i].flags = flags[i];
    }
    res = cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, off ? off : 16, &g->scene);
  }
  if (res == CN_OK && off) res = cn_buffer_upload(ctx, &g->scene, 0, host, off);
  if (res == CN_OK)
    res = cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, (VkDeviceSize)(n ? n : 1) * sizeof *init, &g->elem_init);
  if (res == CN_OK && n) res = cn_buffer_upload(ctx, &g->elem_init, 0, init, (size_t)n * sizeof *init);
  free(host);
  free(init);
  free(pair);
  if (res != CN_OK) return res;
  g->host = s;
  g->info = info;
  g->has_scene = true;
  g->staged = g->binned = g->flattened = false;
  g->keys_pending = g->keys_ready = false; /* another scene: its keys are cleared first */
  return CN_OK;
}

/* ----------------------------------------------------------------- sizes */

static uint64_t cn__with_slack(uint64_t need) { return need + need / 8 + 64; }

static cn_result cn__grow_one(uint32_t *cap, uint64_t need, const char *what, bool *grew) {
  if (need <= *cap) return CN_OK;
  if (need >= CN_SCENE_MAX_RECORDS)
    return cn_fail(CN_ERROR_LIMIT, "the scene needs %llu %s at this size: at most %u", (unsigned long long)need, what,
                   CN_SCENE_MAX_RECORDS);
  *cap = (uint32_t)CN_MIN(cn__with_slack(need), (uint64_t)CN_SCENE_MAX_RECORDS);
  *grew = true;
  return CN_OK;
}

cn_result cn__scene_sizes_grow(cn_scene_gpu *g, const cn__scene_needs *need, bool *grew) {
  cn_scene_sizes *c = &g->cap;
  if (need->bin_entries > c->bin_entries) {
    c->bin_entries = cn__with_slack(need->bin_entries);
    *grew = true;
  }
  if (need->lines > c->lines) {
    if (need->lines > UINT32_MAX) return cn_fail(CN_ERROR_LIMIT, "flatten: the scene needs 2^32 lines or more at this scale");
    c->lines = (uint32_t)CN_MIN(cn__with_slack(need->lines), (uint64_t)UINT32_MAX);
    *grew = true;
  }
  /* The renderer's counters keep counting past a full buffer (tile records
   * even without storage, command words of a cut list), so they are exact,
   * or upper bounds where an earlier buffer was full. Only when the lines
   * did not fit did the renderer see a part of the scene: its tile and
   * segment counts are then scaled by the share of the lines it saw. */
  if (!need->render) return CN_OK;
  double k = need->render_scale > 1.0 ? need->render_scale : 1.0;
  CN_TRY(cn__grow_one(&c->tiles, (uint64_t)((double)need->tiles * k), "tile records", grew));
  CN_TRY(cn__grow_one(&c->segs, (uint64_t)((double)need->segs * k), "tile segments", grew));
  /* not the command chunks and spilled levels: with lines short, coarse
   * counts every tile of an element's rectangle (whose box flatten takes from
   * all of its lines, stored or not) as partly covered, an upper bound of
   * what the whole scene needs already */
  CN_TRY(cn__grow_one(&c->chunks, need->chunks, "command chunks", grew));
  CN_TRY(cn__grow_one(&c->spill, need->spill, "spilled stack levels", grew));
  return CN_OK;
}

cn_result cn__scene_gpu_reserve_render(cn_scene_gpu *g, uint32_t ntiles) {
  cn_context *ctx = g->ctx;
  cn_scene_sizes *c = &g->cap;
  if (!c->tiles) c->tiles = g->initial.tiles ? g->initial.tiles : CN_MAX(ntiles * 2, 1024u);
  if (!c->segs) c->segs = g->initial.segs ? g->initial.segs : CN_MAX(ntiles * 8, 4096u);
  if (!c->chunks) c->chunks = g->initial.chunks ? g->initial.chunks : CN_MAX(ntiles / 2, 64u * CN_CMD_RUN);
  if (!c->spill) c->spill = g->initial.spill ? g->initial.spill : 16u;
  uint32_t n = g->host ? g->host->element_count : 0;
  CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, (VkDeviceSize)CN_MAX(n, 1) * sizeof(cn_render_elem), &g->elem));
  CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, (VkDeviceSize)c->tiles * sizeof(cn_render_tile), &g->tiles));
  CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, (VkDeviceSize)c->segs * sizeof(cn_render_seg), &g->segs));
  CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, ((VkDeviceSize)ntiles + c->chunks) * CN_CMD_CHUNK * sizeof(uint32_t),
                           &g->cmds));
  CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, (VkDeviceSize)c->spill * CN_TILE_PIXELS * 16, &g->spill));
  return CN_OK;
}

/* ---------------------------------------------------------------- frames */

static bool cn__is_identity(const float m[6]) {
  bool zero = true;
  for (int i = 0; i < 6; i++) zero = zero && m[i] == 0;
  const float id[6] = {1, 0, 0, 1, 0, 0};
  return zero || memcmp(m, id, sizeof id) == 0;
}

/* The scene's transforms composed with the view, for the scene stage; with
 * flatten beside the stage (ov), its first pass beside this one. */
static cn_result cn__record_view_transforms(cn_scene_gpu *g, VkCommandBuffer cmd, const float view[6],
                                            cn__flatten_overlap *ov) {
  cn_context *ctx = g->ctx;
  uint32_t n = g->host->transform_count; /* view_transforms holds them (reserved by the caller) */
  VkPipeline p;
  CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_TRANSFORM_COMPOSE, NULL, 0, &p));
  cn_compose_push pc = {.src = CN__SG_ADDR(g, transforms), .dst = g->view_transforms.address, .n = n,
                        .va = view[0], .vb = view[1], .vc = view[2], .vd = view[3], .ve = view[4], .vf = view[5]};
  cn_dispatch(ctx, cmd, p, &pc, sizeof pc, CN_DIV_UP((uint64_t)n, 64));
  if (ov) CN_TRY(cn__flatten_overlap_step(ov, cmd));
  cn_cmd_barrier(ctx, cmd);
  return CN_OK;
}

/* Flatten's passes beside the scene stage's: the state of the stage's hooks. */
typedef struct cn__beside {
  cn__flatten_overlap *ov;
  cn_context *ctx;
  cn_timer *timer;
} cn__beside;

/* The scene stage's hook (a frame that does not cull): flatten's next early
 * pass beside the stage's phase. */
static cn_result cn__overlap_hook(void *user, VkCommandBuffer cmd) {
  return cn__flatten_overlap_step(((cn__beside *)user)->ov, cmd);
}

/* Binning's hook (a frame that culls: flatten needs the stage's boxes, which
 * are complete when binning starts): flatten's next pass beside each of
 * binning's; before binning's last, flatten's passes but its last in phases
 * of their own, then its last (the write pass) beside binning's last. */
static cn_result cn__bins_hook(void *user, VkCommandBuffer cmd, bool last) {
  cn__beside *b = user;
  while (last && cn__flatten_overlap_steps(b->ov) > 1) {
    CN_TRY(cn__flatten_overlap_step(b->ov, cmd));
    cn_cmd_barrier(b->ctx, cmd);
    if (b->timer) cn_timer_mark(b->ctx, b->timer, cmd, cn__flatten_overlap_step_label(b->ov));
  }
  return cn__flatten_overlap_step(b->ov, cmd);
}

/* The scans' persistent state for the stage's args a (grown when a needs
 * more; zeroed until a frame that zeroed it has been read), set in a. */
static cn_result cn__scan_state(cn_scene_gpu *g, VkCommandBuffer cmd, cn_scene_stage_args *a) {
  cn_context *ctx = g->ctx;
  uint64_t need = cn_scene_stage_scan_state_bytes(ctx, a);
  if (!need) return CN_OK;
  if (need > g->scan_state_bytes) {
    CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, need, &g->scan_state));
    g->scan_state_bytes = g->scan_state.size & ~(uint64_t)7; /* all of it: the layout follows the size */
    g->scan_state_ready = false;
  }
  if (!g->scan_state_ready) {
    CN_TRY(cn_scan_state_init(ctx, cmd, g->scan_state.address, g->scan_state_bytes));
    cn_cmd_barrier(ctx, cmd);
    g->scan_state_zeroing = true;
  }
  a->scan_state = g->scan_state.address;
  a->scan_state_bytes = g->scan_state_bytes;
  return CN_OK;
}

/* The renderer's prelude (scene_gpu_internal.h), once per record. */
static cn_result cn__prelude(cn_scene_gpu *g, VkCommandBuffer cmd, bool *done) {
  if (*done || !g->prelude) return CN_OK;
  *done = true;
  return g->prelude(g->prelude_user, cmd);
}

cn_result cn_scene_gpu_record(cn_scene_gpu *g, VkCommandBuffer cmd, const cn_scene_frame *f) {
  if (!g || !cmd || !f) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_gpu_record: NULL argument");
  if (!g->has_scene) return cn_fail(CN_ERROR_STATE, "cn_scene_gpu_record: no scene (cn_scene_gpu_set_scene)");
  cn_context *ctx = g->ctx;
  const cn_scene_data *s = g->host;
  uint32_t n = s->element_count;
  float vp[4];
  bool vp_zero = f->viewport[0] == 0 && f->viewport[1] == 0 && f->viewport[2] == 0 && f->viewport[3] == 0;
  memcpy(vp, vp_zero ? s->viewport : f->viewport, sizeof vp);
  bool identity = cn__is_identity(f->transform);
  g->staged = g->binned = g->flattened = false;
  g->grid = (cn_bins_grid){0};
  g->nbins = 0;
  uint64_t gb = g->info.group_count ? g->info.group_count : 1;
  bool stage = n > 0 && (f->bin_size || f->cull || !f->flatten);
  bool prelude_done = false;
  /* flatten's buffers and arguments (its result-box input is set after the stage) */
  cn_flatten_args fa = {0};
  if (f->flatten) {
    if (!g->cap.lines) {
      uint64_t guess = g->initial.lines ? g->initial.lines : 1024 + 8ull * g->info.drawn_segments;
      g->cap.lines = (uint32_t)CN_MIN(guess, (uint64_t)UINT32_MAX);
    }
    fa = (cn_flatten_args){
        .elements = CN__SG_ADDR(g, elements),
        .paths = CN__SG_ADDR(g, paths),
        .segments = CN__SG_ADDR(g, segments),
        .transforms = CN__SG_ADDR(g, transforms),
        .strokes = CN__SG_ADDR(g, strokes),
        .dashes = CN__SG_ADDR(g, dashes),
        .element_count = n,
        .segment_count = s->segment_count,
        .pair_count = g->pairs_all, /* exact: the chunks only where CN_PATH_CURVED is set */
        .stroke_split = g->stroke_split,
        .dashed = g->info.dashed,
        .extent = g->info.extent,
        .tolerance = f->tolerance,
        .line_capacity = g->cap.lines,
        .timer = f->timer,
        .caller_barrier = g->defer_readback,
        .caller_finish = g->flatten_caller_finish,
    };
    memcpy(fa.view, f->transform, sizeof fa.view);
    CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, CN_MAX((uint64_t)g->cap.lines * sizeof(cn_line), 16), &g->lines));
    CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, CN_MAX((uint64_t)n * sizeof(cn_flatten_elem), 16), &g->line_elems));
    VkDeviceSize fl_bytes = cn_flatten_scratch_bytes(ctx, &fa);
    if (!g->fl_scratch.buffer || g->fl_scratch.size < fl_bytes || g->fl_scratch.kind != CN_MEMORY_DEVICE)
      g->links_ready = false; /* a new scratch: the links are computed again */
    CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, fl_bytes, &g->fl_scratch));
    fa.lines = g->lines.address;
    fa.elems = g->line_elems.address;
    fa.scratch = g->fl_scratch.address;
  }
  /* The subpath links depend on the segments alone: recorded before the scene
   * stage, they run alongside its first pass (the stage's barriers order them
   * before flatten). */
  fa.links_ready = f->flatten && g->links_ready;
  g->links_pending = f->flatten && !g->links_ready;
  if (f->flatten && stage && !fa.links_ready) {
    CN_TRY(cn_flatten_record_links(ctx, cmd, &fa));
    fa.links_recorded = true;
  }
  /* Flatten beside the stage: when the last frame that culled, at this view
   * and viewport, culled nothing, or little in a renderer's frame (see
   * pairs_culled in scene_gpu_internal.h). */
  bool few = g->pairs_culled == 0 || (g->cull_lines_ok && (uint64_t)g->pairs_culled * 16 <= g->pairs_all);
  bool overlap = f->flatten && stage && f->cull && fa.links_ready && g->cull_known && few &&
                 !ctx->tuning.flatten_no_overlap && memcmp(g->cull_view, f->transform, sizeof g->cull_view) == 0 &&
                 memcmp(g->cull_viewport, vp, sizeof g->cull_viewport) == 0;
  g->fl_culls = f->flatten && f->cull && stage && !overlap;
  /* A frame that culls: flatten's passes beside binning's (and its write pass
   * beside binning's last) rather than after the stage. */
  bool beside_bins = g->fl_culls && fa.links_ready && f->bin_size && !ctx->tuning.flatten_no_overlap;
  g->fl_overlapped = false;
  if (g->fl_culls) { /* known when the frame is read */
    g->cull_known = false;
    memcpy(g->cull_view, f->transform, sizeof g->cull_view);
    memcpy(g->cull_viewport, vp, sizeof g->cull_viewport);
  }
  cn__flatten_overlap *ov = NULL;
  if (stage) {
    if (f->bin_size) {
      CN_TRY(cn_bins_grid_make(vp, f->bin_size, &g->grid));
      g->nbins = g->grid.nbx * g->grid.nby;
    }
    if (!g->cap.bin_entries)
      g->cap.bin_entries = g->initial.bin_entries ? g->initial.bin_entries : CN_MAX(4ull * n, 4096ull);
    CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, (uint64_t)n * 4, &g->tags));
    CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, (uint64_t)n * sizeof(cn_box), &g->path_boxes));
    CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, (uint64_t)n * sizeof(cn_box), &g->boxes));
    CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, sizeof(cn_bbox_status), &g->status));
    CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, ((uint64_t)g->nbins + 1) * 4, &g->bin_offsets));
    CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, CN_MAX(g->cap.bin_entries, 4) * 4, &g->bin_elems));
    bool compose = !identity && s->transform_count;
    if (compose)
      CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, (uint64_t)s->transform_count * sizeof(cn_transform),
                               &g->view_transforms));
    VkDeviceAddress transforms = compose ? g->view_transforms.address : CN__SG_ADDR(g, transforms);
    cn_scene_stage_args a = {
        .elements = CN__SG_ADDR(g, elements),
        .paths = CN__SG_ADDR(g, paths),
        .segments = CN__SG_ADDR(g, segments),
        .transforms = transforms,
        .strokes = CN__SG_ADDR(g, strokes),
        .element_count = n,
        .path_count = s->path_count,
        .segment_count = s->segment_count,
        .transform_count = s->transform_count,
        .stroke_count = s->stroke_count,
        .viewport = {vp[0], vp[1], vp[2], vp[3]},
        .group_bound = gb,
        .grid = g->grid,
        .tags = g->tags.address,
        .path_boxes = g->path_boxes.address,
        .boxes = g->boxes.address,
        .status = g->status.address,
        .bin_offsets = f->bin_size ? g->bin_offsets.address : 0,
        .bin_elems = g->bin_elems.address,
        .bin_capacity = g->cap.bin_entries,
        .scratch = g->scratch.address,
        .timer = f->timer,
    };
    CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, CN_MAX(cn_scene_stage_scratch_bytes(ctx, &a), 16), &g->scratch));
    a.scratch = g->scratch.address;
    /* the paths' keys: empty where the last frame read left them so, in this
     * scratch, for these counts (pathbox_init skipped) */
    uint64_t sig[7] = {n, s->path_count, s->segment_count, gb, g->grid.nbx, g->grid.nby, a.bin_offsets != 0};
    bool keeps = cn_scene_stage_keeps_keys_empty(ctx, &a);
    a.path_keys_empty = keeps && g->keys_ready && g->keys_scratch == a.scratch &&
                        g->keys_scratch_size == g->scratch.size && memcmp(g->keys_sig, sig, sizeof sig) == 0;
    g->keys_ready = false;
    g->keys_pending = keeps;
    g->keys_scratch = a.scratch;
    g->keys_scratch_size = g->scratch.size;
    memcpy(g->keys_sig, sig, sizeof sig);
    CN_TRY(cn__prelude(g, cmd, &prelude_done));
    if (overlap) CN_TRY(cn__flatten_overlap_begin(ctx, &fa, &ov)); /* fa.cull_boxes: 0 */
    if (beside_bins) {
      fa.cull_boxes = g->boxes.address;
      CN_TRY(cn__flatten_overlap_begin(ctx, &fa, &ov));
    }
    cn__beside bs = {.ov = ov, .ctx = ctx, .timer = f->timer};
    /* the view's transforms: a pass of its own, flatten's first beside it
     * where flatten has more passes than the stage has phases (its write pass
     * then runs beside the bins, not after the stage); else flatten keeps the
     * stage's phases, its long count beside bbox_small rather than beside the
     * wide path-box pass (H200, the fused scenes: 0.002-0.008 ms slower with
     * it beside; docs/PERF.md) */
    uint32_t phases = (cn__scene_stage_path_pass(ctx, &a, overlap) ? 1u : 0u) + 1u + (a.bin_offsets ? 1u : 0u);
    bool beside = overlap && cn__flatten_overlap_steps(ov) > phases;
    cn_result sr = compose ? cn__record_view_transforms(g, cmd, f->transform, beside ? ov : NULL) : CN_OK;
    if (sr == CN_OK) sr = cn__scan_state(g, cmd, &a);
    if (sr == CN_OK)
      sr = cn__scene_stage_record_hooked(ctx, cmd, &a, overlap ? cn__overlap_hook : NULL, &bs,
                                         beside_bins ? cn__bins_hook : NULL);
    if (sr != CN_OK) {
      cn__flatten_overlap_free(ov);
      return sr;
    }
    cn_cmd_barrier(ctx, cmd);
    g->staged = true;
    g->binned = f->bin_size != 0;
  }
  if (f->flatten) {
    if (!ov) fa.cull_boxes = f->cull && g->staged ? g->boxes.address : 0; /* (beside the bins: set before the stage) */
    CN_TRY(cn__prelude(g, cmd, &prelude_done));
    if (ov) {
      g->fl_overlapped = overlap;
      CN_TRY(cn__flatten_overlap_end(ov, cmd));
    } else {
      CN_TRY(cn_flatten_record(ctx, cmd, &fa));
    }
    g->flattened = true;
  }
  CN_TRY(cn__prelude(g, cmd, &prelude_done));
  if (!g->defer_readback) cn__scene_gpu_record_readback(g, cmd);
  return CN_OK;
}

void cn__scene_gpu_record_readback(cn_scene_gpu *g, VkCommandBuffer cmd) {
  /* what frame_done reads */
  VkBufferCopy c[3];
  uint32_t nc = 0;
  if (g->binned)
    c[nc++] = (VkBufferCopy){.srcOffset = (VkDeviceSize)g->nbins * 4,
                             .dstOffset = offsetof(cn__scene_readback, bin_total), .size = 4};
  if (g->staged) {
    VkBufferCopy st = {.srcOffset = 0, .dstOffset = offsetof(cn__scene_readback, status), .size = sizeof(cn_bbox_status)};
    vkCmdCopyBuffer(cmd, g->status.buffer, g->readback.buffer, 1, &st);
  }
  if (nc) vkCmdCopyBuffer(cmd, g->bin_offsets.buffer, g->readback.buffer, nc, c);
  if (g->flattened) {
    VkBufferCopy h[2] = {{.srcOffset = 0, .dstOffset = offsetof(cn__scene_readback, header), .size = sizeof(cn_flatten_header)},
                         {.srcOffset = ((VkDeviceSize)CN_FL_OFF_PAIR_BASE + (g->host ? g->host->element_count : 0)) * 4,
                          .dstOffset = offsetof(cn__scene_readback, fl_pairs), .size = 4}};
    vkCmdCopyBuffer(cmd, g->fl_scratch.buffer, g->readback.buffer, g->fl_culls ? 2 : 1, h);
  }
  VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                        .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                        .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
}

/* Reads what the last frame counted into need; checks the group structure. */
cn_result cn__scene_gpu_read(cn_scene_gpu *g, cn__scene_needs *need) {
  cn__scene_readback rb;
  memcpy(&rb, g->readback.mapped, sizeof rb);
  memset(need, 0, sizeof *need);
  g->counts = (cn_scene_gpu_counts){0};
  if (g->flattened && g->links_pending) g->links_ready = true; /* the frame that computed them has run */
  if (g->scan_state_zeroing) g->scan_state_ready = true; /* so has the frame that zeroed the scans' state */
  g->scan_state_zeroing = false;
  if (g->keys_pending) g->keys_ready = true; /* and the frame whose bbox_small emptied the paths' keys */
  g->keys_pending = false;
  g->links_pending = false;
  if (g->staged) {
    cn_result r = cn_bbox_status_check(&rb.status, g->info.group_count ? g->info.group_count : 1);
    if (r != CN_OK) return r;
  }
  if (g->binned) {
    if (rb.bin_total == UINT32_MAX) return cn_fail(CN_ERROR_LIMIT, "bins: more than 2^32 - 2 (bin, element) entries");
    g->counts.bin_entries = rb.bin_total;
    need->bin_entries = rb.bin_total;
  }
  if (g->flattened) {
    if (rb.header.flags & CN_FLATTEN_TOO_MANY)
      return cn_fail(CN_ERROR_LIMIT, "flatten: the scene needs 2^32 lines or more at this scale");
    g->counts.lines = rb.header.line_count;
    g->counts.flatten_overlapped = g->fl_overlapped;
    if (g->fl_culls) {
      g->cull_known = rb.fl_pairs <= g->pairs_all;
      g->pairs_culled = g->pairs_all - CN_MIN(rb.fl_pairs, g->pairs_all);
    }
    need->lines = rb.header.line_count;
    need->lines_short = rb.header.line_count > g->cap.lines;
    if (need->lines_short) need->render_scale = (double)rb.header.line_count / (double)CN_MAX(g->cap.lines, 1u);
  }
  return CN_OK;
}

cn_result cn_scene_gpu_frame_done(cn_scene_gpu *g, bool *again) {
  if (!g || !again) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_gpu_frame_done: NULL argument");
  *again = false;
  cn__scene_needs need;
  CN_TRY(cn__scene_gpu_read(g, &need));
  return cn__scene_sizes_grow(g, &need, again);
}

cn_result cn_scene_gpu_run(cn_scene_gpu *g, const cn_scene_frame *f, uint32_t *reruns) {
  if (reruns) *reruns = 0;
  if (!g || !f) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_gpu_run: NULL argument");
  for (int attempt = 0;; attempt++) {
    VkCommandBuffer cmd;
    CN_TRY(cn_cmd_begin(g->ctx, &cmd));
    cn_result r = cn_scene_gpu_record(g, cmd, f);
    cn_result s = cn_cmd_submit(g->ctx, cmd);
    if (r == CN_OK) r = s;
    if (r != CN_OK) return r;
    bool again;
    CN_TRY(cn_scene_gpu_frame_done(g, &again));
    if (!again) return CN_OK;
    /* every count is exact: one re-run fits */
    if (attempt >= 1) return cn_fail(CN_ERROR_STATE, "scene stage: buffers still too small after growing to the counts");
    if (reruns) (*reruns)++;
  }
}

void cn_scene_gpu_outputs_get(const cn_scene_gpu *g, cn_scene_gpu_outputs *o) {
  memset(o, 0, sizeof *o);
  if (!g) return;
  o->element_count = g->host ? g->host->element_count : 0;
  if (g->staged) {
    o->tags = g->tags.address;
    o->path_boxes = g->path_boxes.address;
    o->boxes = g->boxes.address;
  }
  if (g->binned) {
    o->grid = g->grid;
    o->bin_offsets = g->bin_offsets.address;
    o->bin_elems = g->bin_elems.address;
    o->bin_capacity = g->cap.bin_entries;
  }
  if (g->flattened) {
    o->lines = g->lines.address;
    o->line_elems = g->line_elems.address;
    o->line_header = g->fl_scratch.address;
    o->line_capacity = g->cap.lines;
  }
  o->tags_buffer = &g->tags;
  o->path_boxes_buffer = &g->path_boxes;
  o->boxes_buffer = &g->boxes;
  o->bin_offsets_buffer = &g->bin_offsets;
  o->bin_elems_buffer = &g->bin_elems;
  o->lines_buffer = &g->lines;
  o->line_elems_buffer = &g->line_elems;
}

void cn_scene_gpu_counts_get(const cn_scene_gpu *g, cn_scene_gpu_counts *out) {
  memset(out, 0, sizeof *out);
  if (g) *out = g->counts;
}

void cn_scene_gpu_sizes_get(const cn_scene_gpu *g, cn_scene_sizes *out) {
  memset(out, 0, sizeof *out);
  if (g) *out = g->cap;
}

const cn_scene_info *cn_scene_gpu_info(const cn_scene_gpu *g) { return g && g->has_scene ? &g->info : NULL; }

const cn_scene_data *cn_scene_gpu_scene(const cn_scene_gpu *g) { return g && g->has_scene ? g->host : NULL; }
