/* gpu.c: canopy embedded in the viewer.
 *
 * The viewer's device is adopted with cn_context_adopt(); the renderer
 * (cn_render.h) records the scene stage, flattening and rendering into the
 * frame's own command buffer, the same one the viewer then draws the picture
 * and the overlays with, so a frame is one recording and one submission. The
 * overlays read the renderer's buffers where they are (cn_scene_gpu_outputs:
 * tags, result boxes, bin offsets, lines and their count, by device
 * address); only the result boxes and bin offsets are copied for the host
 * (picking, the HUD's counts). The scene is uploaded once per (re)load (the
 * renderer's cn_scene_gpu); each view change records a frame with the new
 * view transform, reusing its buffers (they grow in one step when a frame
 * reports they were too small, and that frame is recorded again).
 */
#include "gpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <canopy/cn_render.h>

bool vw_gpu_create(vw_gpu *g, vw_host *h, char *err, size_t errcap) {
  memset(g, 0, sizeof *g);
  cn_context_adopt_desc desc = {.instance = h->instance,
                                .physical_device = h->gpu,
                                .device = h->device,
                                .queue_family = h->family,
                                .queue = h->queue,
                                .optional_features = h->optional_features};
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
    cn_buffer *own[] = {&g->depth, &g->cpu_tags, &g->cpu_boxes, &g->cpu_offsets, &g->cpu_lines};
    for (size_t i = 0; i < sizeof own / sizeof *own; i++) cn_buffer_destroy(g->cn, own[i]);
    cn_renderer_destroy(g->renderer);
    cn_timer_destroy(g->cn, g->draw_timer);
    cn_context_destroy(g->cn);
  }
  memset(g, 0, sizeof *g);
}

static bool vw__fail(vw_gpu *g, cn_result r, const char *what, bool *device_lost, char *err, size_t errcap) {
  *device_lost = r == CN_ERROR_DEVICE_LOST;
  snprintf(err, errcap, "%s: %s: %s", what, cn_result_name(r), cn_last_error());
  vw_gpu_drop(g);
  return false;
}

void vw_gpu_drop(vw_gpu *g) {
  g->picture.pixels = 0;
  g->source = VW_SOURCE_NONE;
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

bool vw_gpu_set_scene(vw_gpu *g, const cn_scene_data *scene, uint32_t generation, bool *device_lost, char *err,
                      size_t errcap) {
  *device_lost = false;
  if (g->scene_generation == generation) return true;
  g->scene_generation = 0;
  vw_gpu_drop(g); /* the renderer's buffers are the new scene's from here on */
  cn_result r = cn_renderer_set_scene(g->renderer, scene);
  g->uploads++;
  if (r != CN_OK) return vw__fail(g, r, "canopy could not take the scene", device_lost, err, errcap);
  g->scene_generation = generation;
  return true;
}

static bool vw__upload(vw_gpu *g, cn_buffer *b, const void *data, size_t bytes, char *err, size_t errcap) {
  cn_result r = cn_buffer_reserve(g->cn, CN_MEMORY_UPLOAD, bytes ? bytes : 16, b);
  if (r != CN_OK) {
    snprintf(err, errcap, "overlay buffer of %zu bytes: %s", bytes, cn_last_error());
    return false;
  }
  if (bytes) memcpy(b->mapped, data, bytes);
  return true;
}

bool vw_gpu_set_depth(vw_gpu *g, const vw_analysis *a, char *err, size_t errcap) {
  return vw__upload(g, &g->depth, a->depth, (size_t)a->count * 4, err, errcap);
}

bool vw_gpu_record(vw_gpu *g, VkCommandBuffer cmd, const float view[6], uint32_t w, uint32_t h, char *err,
                   size_t errcap) {
  cn_render_view v = {.width = w, .height = h, .background = {1.0f, 1.0f, 1.0f, 1.0f}, .aa = g->aa};
  memcpy(v.transform, view, sizeof v.transform);
  g->source = VW_SOURCE_NONE;
  cn_result r = cn_renderer_record_scene(g->renderer, cmd, &v);
  cn_scene_gpu_outputs o;
  cn_scene_gpu_outputs_get(cn_renderer_scene_gpu(g->renderer), &o);
  uint32_t n = o.element_count;
  uint64_t nbins = (uint64_t)o.grid.nbx * o.grid.nby;
  if (r == CN_OK && n && (!o.boxes || !o.bin_offsets || !o.lines)) {
    snprintf(err, errcap, "canopy's frame has no %s", !o.boxes ? "result boxes" : !o.bin_offsets ? "bins" : "lines");
    g->picture.pixels = 0;
    return false;
  }
  /* the host's copies: result boxes and bin offsets */
  if (r == CN_OK) r = cn_buffer_reserve(g->cn, CN_MEMORY_READBACK, (uint64_t)(n ? n : 1) * sizeof(cn_box), &g->rb_boxes);
  if (r == CN_OK) r = cn_buffer_reserve(g->cn, CN_MEMORY_READBACK, (nbins + 1) * 4, &g->rb_offsets);
  if (r != CN_OK) {
    snprintf(err, errcap, "canopy could not record the frame: %s: %s", cn_result_name(r), cn_last_error());
    g->picture.pixels = 0;
    return false;
  }
  const cn_buffer *out = cn_renderer_output(g->renderer);
  g->picture = (vw_picture){out->address, w, h};
  if (!n) { /* no elements: no boxes, bins or lines to read (overlay_prep.comp reads no line count) */
    g->src = (vw_ov_params){0};
    g->source = VW_SOURCE_RENDERER;
    return true;
  }
  cn_cmd_barrier(g->cn, cmd);
  VkBufferCopy c = {0, 0, (VkDeviceSize)n * sizeof(cn_box)};
  vkCmdCopyBuffer(cmd, o.boxes_buffer->buffer, g->rb_boxes.buffer, 1, &c);
  c.size = (nbins + 1) * 4;
  vkCmdCopyBuffer(cmd, o.bin_offsets_buffer->buffer, g->rb_offsets.buffer, 1, &c);
  VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                        .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                        .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
  /* the overlays read the renderer's buffers themselves, later in this command buffer */
  g->src = (vw_ov_params){.tags = o.tags,
                          .boxes = o.boxes,
                          .bin_offsets = o.bin_offsets,
                          .lines = o.lines,
                          .line_count = o.line_header, /* cn_flatten_header: line_count first */
                          .count = n,
                          .nbx = o.grid.nbx,
                          .nby = o.grid.nby,
                          .bin_size = o.grid.bin_size,
                          .line_cap = o.line_capacity};
  g->source = VW_SOURCE_RENDERER;
  return true;
}

bool vw_gpu_finish(vw_gpu *g, uint32_t element_count, vw_analysis *a, bool *again, bool *device_lost, char *err,
                   size_t errcap) {
  *device_lost = false;
  *again = false;
  cn_result r = cn_renderer_frame_done(g->renderer, again);
  if (r != CN_OK) return vw__fail(g, r, "canopy", device_lost, err, errcap);
  if (*again) return true;
  cn_scene_gpu_counts counts;
  cn_scene_gpu_counts_get(cn_renderer_scene_gpu(g->renderer), &counts);
  if (element_count) memcpy(a->boxes, g->rb_boxes.mapped, (size_t)element_count * sizeof(cn_box));
  if (g->src.bin_size) a->bin_size = g->src.bin_size;
  if (!vw_analysis_set_bins(a, g->rb_offsets.mapped, g->src.nbx, g->src.nby, err, errcap)) {
    vw_gpu_drop(g);
    return false;
  }
  vw_analysis_lines_on_gpu(a, counts.lines);
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

bool vw_gpu_use_cpu(vw_gpu *g, const vw_analysis *a, char *err, size_t errcap) {
  g->source = VW_SOURCE_NONE;
  uint32_t nbins = a->bins_x * a->bins_y;
  uint32_t *offsets = malloc(((size_t)nbins + 1) * 4);
  cn_line *lines = malloc(((size_t)a->line_count + 1) * sizeof *lines);
  bool ok = offsets && lines;
  if (!ok) snprintf(err, errcap, "out of memory for the overlays of %u lines", a->line_count);
  if (ok) {
    offsets[0] = 0;
    for (uint32_t b = 0; b < nbins; b++) offsets[b + 1] = offsets[b] + a->bin_counts[b];
    for (uint32_t i = 0; i < a->line_count; i++) {
      const float *l = &a->lines[4 * (size_t)i];
      lines[i] = (cn_line){l[0], l[1], l[2], l[3], a->line_element[i]};
    }
    /* the count (a cn_flatten_header: line_count first) goes after the lines */
    uint32_t header[4] = {a->line_count, a->line_count, 0, 0};
    memcpy(&lines[a->line_count], header, sizeof header);
    ok = vw__upload(g, &g->cpu_tags, a->tags, (size_t)a->count * 4, err, errcap) &&
         vw__upload(g, &g->cpu_boxes, a->boxes, (size_t)a->count * sizeof(cn_box), err, errcap) &&
         vw__upload(g, &g->cpu_offsets, offsets, ((size_t)nbins + 1) * 4, err, errcap) &&
         vw__upload(g, &g->cpu_lines, lines, ((size_t)a->line_count + 1) * sizeof *lines, err, errcap);
  }
  free(offsets);
  free(lines);
  if (!ok) return false;
  g->src = (vw_ov_params){.tags = g->cpu_tags.address,
                          .boxes = g->cpu_boxes.address,
                          .bin_offsets = g->cpu_offsets.address,
                          .lines = g->cpu_lines.address,
                          .line_count = g->cpu_lines.address + (VkDeviceAddress)a->line_count * sizeof(cn_line),
                          .count = a->count,
                          .nbx = a->bins_x,
                          .nby = a->bins_y,
                          .bin_size = a->bin_size,
                          .line_cap = a->line_count};
  g->source = VW_SOURCE_CPU;
  return true;
}

void vw_gpu_barrier_to_draw(VkCommandBuffer cmd) {
  VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                        .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                        .dstAccessMask = VK_ACCESS_SHADER_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_VERTEX_SHADER_BIT |
                           VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                       0, 1, &mb, 0, NULL, 0, NULL);
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
