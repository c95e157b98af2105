/* render_scene.c: whole-scene rendering: the flatten stage (cn_flatten.h)
 * turns the uploaded scene into lines on the GPU, the renderer core reads
 * them in place (see cn_render.h). */
#include "render_internal.h"

#include <stddef.h>
#include <string.h>

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
  cn_flatten_desc fd = {.tolerance = v->tolerance};
  memcpy(fd.view, v->transform, sizeof fd.view);
  if (r->timer) {
    cn_timer_reset(ctx, r->timer, cmd);
    cn_timer_mark(ctx, r->timer, cmd, "start");
  }
  r->flattened = false;
  CN_TRY(cn_flatten_record(ctx, r->flatten, cmd, &r->host, &gpu, &fd, r->timer));
  r->flattened = true;
  cn_flatten_output o;
  cn_flatten_output_get(r->flatten, &o);
  /* the header's first word is the exact line count (clamped to the capacity by the kernels) */
  CN_TRY(cn_renderer_use_gpu_lines(r, o.lines, o.header + offsetof(cn_flatten_header, line_count),
                                   o.line_capacity ? o.line_capacity : 1));
  return cn_renderer_record_frame(r, cmd, v, false);
}

cn_result cn_render_scene_to_rgba8(cn_renderer *r, const cn_scene_data *scene, const cn_render_view *view,
                                   uint8_t *rgba) {
  if (!r || !scene || !view || !rgba)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_render_scene_to_rgba8: NULL argument");
  if (view->target) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_render_scene_to_rgba8 renders into its own buffer");
  CN_TRY(cn_renderer_set_scene(r, scene));
  r->reruns = 0;
  for (int attempt = 0;; attempt++) {
    VkCommandBuffer cmd;
    CN_TRY(cn_cmd_begin(r->ctx, &cmd));
    cn_result res = cn_renderer_record_scene(r, cmd, view);
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
