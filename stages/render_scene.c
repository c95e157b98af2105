/* render_scene.c: whole-scene rendering: the scene's cn_scene_gpu records the
 * scene stage (result boxes, bin lists) and the flatten stage (lines) for the
 * view, and the renderer core reads them in place (see cn_render.h). */
#include "cn_scene_gpu.h"
#include "render_internal.h"

#include <stddef.h>
#include <string.h>

/* The renderer's setup inside the scene record (scene_gpu_internal.h): flatten's
 * lines are read in place, and the setup transfers run beside the scene stage. */
typedef struct cn__scene_prelude {
  cn_renderer *r;
  const cn_render_view *v;
} cn__scene_prelude;

static cn_result cn__scene_prelude_run(void *user, VkCommandBuffer cmd) {
  cn__scene_prelude *p = user;
  cn_renderer *r = p->r;
  cn_scene_gpu *g = r->sg;
  /* the header's first word is the exact line count (clamped to the capacity by the kernels) */
  CN_TRY(cn_renderer_use_gpu_lines(r, g->lines.address, g->fl_scratch.address + offsetof(cn_flatten_header, line_count),
                                   g->cap.lines ? g->cap.lines : 1));
  return cn_renderer__frame_setup(r, cmd, p->v);
}

cn_result cn_renderer_record_scene(cn_renderer *r, VkCommandBuffer cmd, const cn_render_view *v) {
  if (!r || !v || !cmd) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_renderer_record_scene: NULL argument");
  if (!r->has_scene) return cn_fail(CN_ERROR_STATE, "cn_renderer_record_scene: no scene (cn_renderer_set_scene)");
  if (v->width == 0 || v->height == 0 || v->width > CN_RENDER_MAX_SIZE || v->height > CN_RENDER_MAX_SIZE)
    return cn_fail(CN_ERROR_LIMIT, "render target %ux%u: each side must be 1..%u", v->width, v->height,
                   CN_RENDER_MAX_SIZE);
  if (v->aa >= CN_AA_COUNT)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "render view aa %u: neither CN_AA_AREA (0) nor CN_AA_SS16 (1)", v->aa);
  cn_context *ctx = r->ctx;
  if (r->timer) {
    cn_timer_reset(ctx, r->timer, cmd);
    cn_timer_mark(ctx, r->timer, cmd, "start");
  }
  /* the scene stage in the target's pixels (its bins are coarse's bins), then flatten */
  cn_scene_frame f = {.viewport = {0, 0, (float)v->width, (float)v->height},
                      .bin_size = r->desc.no_bins ? 0 : CN_BIN * CN_TILE,
                      .flatten = true,
                      .cull = true,
                      .tolerance = v->tolerance,
                      .timer = r->timer};
  memcpy(f.transform, v->transform, sizeof f.transform);
  /* what the frame's setup reads: a scene of elements is staged (cull) and binned unless no_bins */
  r->scene_frame = true;
  r->binned = f.bin_size != 0 && r->sg->host->element_count > 0;
  r->flatten_finish = true;
  r->frame.ready = false;
  cn__scene_prelude pre = {.r = r, .v = v};
  /* the counters' readback copies go after fine, off the critical path; the
   * renderer's setup runs inside the record, before the scene stage's passes;
   * render_tile_alloc finishes flatten's elements */
  r->sg->defer_readback = true;
  r->sg->prelude = cn__scene_prelude_run;
  r->sg->prelude_user = &pre;
  r->sg->flatten_caller_finish = true;
  r->sg->cull_lines_ok = true; /* an element with an empty result box gets no tiles: its lines draw nothing */
  cn_result sr = cn_scene_gpu_record(r->sg, cmd, &f);
  r->sg->cull_lines_ok = false;
  r->sg->defer_readback = false;
  r->sg->prelude = NULL;
  r->sg->prelude_user = NULL;
  r->sg->flatten_caller_finish = false;
  if (sr == CN_OK && (!r->frame.ready || r->sg->binned != r->binned || !r->sg->flattened))
    sr = cn_fail(CN_ERROR_STATE, "cn_renderer_record_scene: the scene record did not run as the frame's setup expected");
  if (sr != CN_OK) {
    r->scene_frame = r->binned = r->flatten_finish = r->frame.ready = false;
    return sr;
  }
  cn_scene_gpu_outputs o;
  cn_scene_gpu_outputs_get(r->sg, &o);
  if (r->binned && (o.grid.nbx != CN_DIV_UP(v->width, CN_BIN * CN_TILE) ||
                    o.grid.nby != CN_DIV_UP(v->height, CN_BIN * CN_TILE)))
    return cn_fail(CN_ERROR_STATE, "scene stage grid %ux%u does not match the renderer's bins", o.grid.nbx, o.grid.nby);
  /* flatten's record ends with a barrier after its write pass (caller_finish),
   * which also orders the setup transfers */
  cn_result res = cn_renderer__frame_passes(r, cmd);
  /* after the frame's last barrier (the passes end with one) */
  if (res == CN_OK) cn__scene_gpu_record_readback(r->sg, cmd);
  return res;
}

cn_result cn_render_scene_to_rgba8(cn_renderer *r, const cn_scene_data *scene, const cn_render_view *view,
                                   uint8_t *rgba) {
  if (!r || !scene || !view || !rgba)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_render_scene_to_rgba8: NULL argument");
  if (view->target) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_render_scene_to_rgba8 renders into its own buffer");
  CN_TRY(cn_renderer_set_scene(r, scene));
  return cn_render__run_to_rgba8(r, view, cn_renderer_record_scene, rgba);
}
