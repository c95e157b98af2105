/* gpu.c: canopy embedded in the viewer.
 *
 * The viewer's device is adopted with cn_context_adopt(); the renderer
 * (cn_render.h) records the scene stage, flattening and rendering into the
 * viewer's own compute command buffer, followed by copies of its result boxes,
 * bin offsets and lines for the overlays, and the viewer submits it once (no
 * cn_cmd_begin/submit for frames). The scene is uploaded once per (re)load
 * (the renderer's cn_scene_gpu); each view change records a frame with the
 * new view transform, reusing its buffers (they grow in one step when a frame
 * reports they were too small, and that frame is re-run).
 */
#include "gpu.h"

#include <stdio.h>
#include <string.h>

#include <canopy/cn_render.h>

#define VW_MAX_RERUNS 3

bool vw_gpu_create(vw_gpu *g, vw_host *h, char *err, size_t errcap) {
  memset(g, 0, sizeof *g);
  cn_context_adopt_desc desc = {.instance = h->instance,
                                .physical_device = h->gpu,
                                .device = h->device,
                                .queue_family = h->family,
                                .queue = h->queue};
  cn_result r = cn_context_adopt(&desc, &g->cn);
  if (r != CN_OK) {
    snprintf(err, errcap, "cn_context_adopt: %s: %s", cn_result_name(r), cn_last_error());
    return false;
  }
  g->timing = cn_context_caps(g->cn)->timestamp_valid_bits != 0;
  cn_renderer_desc rd = {.timing = g->timing};
  r = cn_renderer_create(g->cn, &rd, &g->renderer);
  if (r == CN_OK && g->timing) r = cn_timer_create(g->cn, 4, &g->draw_timer);
  if (r != CN_OK) {
    snprintf(err, errcap, "canopy renderer: %s: %s", cn_result_name(r), cn_last_error());
    return false;
  }
  return true;
}

void vw_gpu_destroy(vw_gpu *g) {
  if (g->cn) {
    cn_buffer_destroy(g->cn, &g->rb_boxes);
    cn_buffer_destroy(g->cn, &g->rb_offsets);
    cn_buffer_destroy(g->cn, &g->rb_lines);
    cn_renderer_destroy(g->renderer);
    cn_timer_destroy(g->cn, g->draw_timer);
    cn_context_destroy(g->cn);
  }
  memset(g, 0, sizeof *g);
}

static bool vw__fail(vw_gpu *g, cn_result r, const char *what, bool *device_lost, char *err, size_t errcap) {
  *device_lost = r == CN_ERROR_DEVICE_LOST;
  snprintf(err, errcap, "%s: %s: %s", what, cn_result_name(r), cn_last_error());
  g->picture.pixels = 0;
  return false;
}

/* Keeps the spans after the stage spans (the draw span) while replacing them. */
static void vw__set_stage_spans(vw_gpu *g, uint32_t n, const char **labels, const double *ns) {
  double draw_ms = 0;
  bool had_draw = g->spans && strcmp(g->span_label[g->spans - 1], "draw") == 0;
  if (had_draw) draw_ms = g->span_ms[g->spans - 1];
  g->spans = 0;
  g->total_ms = 0;
  for (uint32_t i = 0; i < n && g->spans < VW_MAX_SPANS - 1; i++) {
    g->span_label[g->spans] = labels[i];
    g->span_ms[g->spans++] = ns[i] * 1e-6;
    g->total_ms += ns[i] * 1e-6;
  }
  if (had_draw) {
    g->span_label[g->spans] = "draw";
    g->span_ms[g->spans++] = draw_ms;
    g->total_ms += draw_ms;
  }
}

/* Copies the renderer's result boxes, bin offsets and (some) lines into the
 * readback buffers, after the frame in the same command buffer. */
static cn_result vw__record_readback(vw_gpu *g, VkCommandBuffer cmd, uint32_t n) {
  cn_scene_gpu_outputs o;
  cn_scene_gpu_outputs_get(cn_renderer_scene_gpu(g->renderer), &o);
  uint64_t nbins = (uint64_t)o.grid.nbx * o.grid.nby;
  uint64_t lines = o.line_capacity < VW_MAX_LINES ? o.line_capacity : VW_MAX_LINES;
  cn_result r = cn_buffer_reserve(g->cn, CN_MEMORY_READBACK, (uint64_t)(n ? n : 1) * sizeof(cn_box), &g->rb_boxes);
  if (r == CN_OK) r = cn_buffer_reserve(g->cn, CN_MEMORY_READBACK, (nbins + 1) * 4, &g->rb_offsets);
  if (r == CN_OK) r = cn_buffer_reserve(g->cn, CN_MEMORY_READBACK, (lines ? lines : 1) * sizeof(cn_line), &g->rb_lines);
  if (r != CN_OK) return r;
  cn_cmd_barrier(g->cn, cmd);
  VkBufferCopy c = {0, 0, (VkDeviceSize)n * sizeof(cn_box)};
  if (n && o.boxes) vkCmdCopyBuffer(cmd, o.boxes_buffer->buffer, g->rb_boxes.buffer, 1, &c);
  c.size = (nbins + 1) * 4;
  if (o.bin_offsets) vkCmdCopyBuffer(cmd, o.bin_offsets_buffer->buffer, g->rb_offsets.buffer, 1, &c);
  c.size = lines * sizeof(cn_line);
  if (lines && o.lines) vkCmdCopyBuffer(cmd, o.lines_buffer->buffer, g->rb_lines.buffer, 1, &c);
  VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                        .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                        .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
  return CN_OK;
}

bool vw_gpu_render(vw_gpu *g, vw_host *h, const cn_scene_data *scene, uint32_t generation, const float view[6],
                   uint32_t w, uint32_t hgt, vw_analysis *a, bool *device_lost, char *err, size_t errcap) {
  *device_lost = false;
  if (g->scene_generation != generation) {
    g->scene_generation = 0;
    g->picture.pixels = 0;
    cn_result r = cn_renderer_set_scene(g->renderer, scene);
    if (r != CN_OK) return vw__fail(g, r, "canopy could not take the scene", device_lost, err, errcap);
    g->scene_generation = generation;
  }
  cn_render_view v = {.width = w, .height = hgt, .background = {1.0f, 1.0f, 1.0f, 1.0f}, .aa = g->aa};
  memcpy(v.transform, view, sizeof v.transform);
  g->reruns = 0;
  for (int attempt = 0;; attempt++) {
    VkCommandBuffer cmd = h->cmd_compute;
    VkResult vr = vw_host_begin(h, cmd);
    if (vr != VK_SUCCESS) {
      *device_lost = true;
      snprintf(err, errcap, "vkBeginCommandBuffer: %s", cn_vk_result_name(vr));
      return false;
    }
    cn_result r = cn_renderer_record_scene(g->renderer, cmd, &v);
    if (r == CN_OK) r = vw__record_readback(g, cmd, scene->element_count);
    vr = vw_host_submit_wait(h, cmd, VK_NULL_HANDLE, VK_NULL_HANDLE);
    if (vr != VK_SUCCESS) {
      *device_lost = true;
      snprintf(err, errcap, "%s running canopy's frame", cn_vk_result_name(vr));
      g->picture.pixels = 0;
      return false;
    }
    if (r != CN_OK) return vw__fail(g, r, "canopy could not record the frame", device_lost, err, errcap);
    bool again = false;
    r = cn_renderer_frame_done(g->renderer, &again);
    if (r != CN_OK) return vw__fail(g, r, "canopy", device_lost, err, errcap);
    if (!again) break;
    g->reruns++;
    if (attempt + 1 >= VW_MAX_RERUNS) {
      snprintf(err, errcap, "canopy's buffers still too small after %d re-runs", attempt + 1);
      g->picture.pixels = 0;
      return false;
    }
  }
  const cn_buffer *out = cn_renderer_output(g->renderer);
  g->picture = (vw_picture){out->address, w, hgt};
  /* the overlays' data: the renderer's own buffers */
  cn_scene_gpu *sg = cn_renderer_scene_gpu(g->renderer);
  cn_scene_gpu_outputs o;
  cn_scene_gpu_outputs_get(sg, &o);
  cn_scene_gpu_counts counts;
  cn_scene_gpu_counts_get(sg, &counts);
  if (scene->element_count) memcpy(a->boxes, g->rb_boxes.mapped, (size_t)scene->element_count * sizeof(cn_box));
  a->bin_size = o.grid.bin_size;
  if (!vw_analysis_set_bins(a, g->rb_offsets.mapped, o.grid.nbx, o.grid.nby, err, errcap) ||
      !vw_analysis_set_lines(a, g->rb_lines.mapped, counts.lines, err, errcap)) {
    g->picture.pixels = 0;
    return false;
  }
  a->source = "renderer";
  if (g->timing) {
    const char *labels[VW_MAX_SPANS];
    double ns[VW_MAX_SPANS];
    uint32_t n = 0;
    if (cn_renderer_stage_times(g->renderer, &n, labels, ns, VW_MAX_SPANS - 1) == CN_OK)
      vw__set_stage_spans(g, n, labels, ns);
  }
  return true;
}

void vw_gpu_draw_begin(vw_gpu *g, VkCommandBuffer cmd) {
  if (!g->draw_timer) return;
  cn_timer_reset(g->cn, g->draw_timer, cmd);
  cn_timer_mark(g->cn, g->draw_timer, cmd, "start");
}

void vw_gpu_draw_end(vw_gpu *g, VkCommandBuffer cmd) {
  if (g->draw_timer) cn_timer_mark(g->cn, g->draw_timer, cmd, "draw");
}

void vw_gpu_collect_draw(vw_gpu *g) {
  const char *labels[1];
  double ns[1];
  uint32_t n = 0;
  if (!g->draw_timer || cn_timer_read(g->cn, g->draw_timer, &n, labels, ns, 1) != CN_OK || n == 0) return;
  bool had_draw = g->spans && strcmp(g->span_label[g->spans - 1], "draw") == 0;
  if (had_draw) {
    g->total_ms -= g->span_ms[--g->spans];
  }
  if (g->spans < VW_MAX_SPANS) {
    g->span_label[g->spans] = "draw";
    g->span_ms[g->spans++] = ns[0] * 1e-6;
    g->total_ms += ns[0] * 1e-6;
  }
}

const char *vw_gpu_picture_kind(const vw_gpu *g) { return g->picture.pixels ? "canopy renderer" : "outlines"; }
