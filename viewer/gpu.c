/* gpu.c: canopy embedded in the viewer. The viewer's device is adopted with
 * cn_context_adopt(); canopy's stages record into the viewer's own command
 * buffer (no cn_cmd_begin/submit: the viewer submits), and cn_timer spans
 * measure them for the HUD. Buffers live as long as the context and are reused
 * from frame to frame (cn_buffer_reserve grows them when a scene needs more).
 */
#include "gpu.h"

#include <stdio.h>
#include <string.h>

#define VW_TIMER_MARKS 32

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
  if (cn_context_caps(g->cn)->timestamp_valid_bits) {
    if (cn_timer_create(g->cn, VW_TIMER_MARKS, &g->stage_timer) != CN_OK ||
        cn_timer_create(g->cn, 4, &g->draw_timer) != CN_OK) {
      snprintf(err, errcap, "cn_timer_create: %s", cn_last_error());
      return false;
    }
  }
  return true;
}

void vw_gpu_destroy(vw_gpu *g) {
  if (g->cn) {
    cn_timer_destroy(g->cn, g->stage_timer);
    cn_timer_destroy(g->cn, g->draw_timer);
    cn_context_destroy(g->cn);
  }
  memset(g, 0, sizeof *g);
}

bool vw_gpu_record(vw_gpu *g, VkCommandBuffer cmd, const cn_scene_data *viewed, uint32_t w, uint32_t h, char *err,
                   size_t errcap) {
  (void)viewed;
  (void)w;
  (void)h;
  (void)err;
  (void)errcap;
  if (g->stage_timer) {
    cn_timer_reset(g->cn, g->stage_timer, cmd);
    cn_timer_mark(g->cn, g->stage_timer, cmd, "start");
  }
  /* canopy's scene stage and renderer record here once they exist (issues 5
   * and 6); until then the picture is the viewer's outline drawing. */
  return true;
}

static void vw__read(vw_gpu *g, cn_timer *t, uint32_t first) {
  const char *labels[VW_MAX_SPANS];
  double ns[VW_MAX_SPANS];
  uint32_t n = 0;
  if (!t || cn_timer_read(g->cn, t, &n, labels, ns, VW_MAX_SPANS - first) != CN_OK) n = 0;
  for (uint32_t i = 0; i < n; i++) {
    g->span_label[first + i] = labels[i];
    g->span_ms[first + i] = ns[i] * 1e-6;
  }
  g->spans = first + n;
  g->total_ms = 0;
  for (uint32_t i = 0; i < g->spans; i++) g->total_ms += g->span_ms[i];
}

/* Stage spans come first, then the draw span; each collect keeps the other's. */
static uint32_t vw__stage_spans(const vw_gpu *g) {
  uint32_t n = 0;
  while (n < g->spans && strcmp(g->span_label[n], "draw") != 0) n++;
  return n;
}

void vw_gpu_collect_stages(vw_gpu *g) {
  double draw_ms = 0;
  uint32_t s = vw__stage_spans(g);
  bool had_draw = s < g->spans;
  if (had_draw) draw_ms = g->span_ms[s];
  vw__read(g, g->stage_timer, 0);
  if (had_draw && g->spans < VW_MAX_SPANS) {
    g->span_label[g->spans] = "draw";
    g->span_ms[g->spans++] = draw_ms;
    g->total_ms += draw_ms;
  }
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
  vw__read(g, g->draw_timer, vw__stage_spans(g));
  /* vw__read recomputed the total over all spans */
}

const char *vw_gpu_picture_kind(const vw_gpu *g) { return g->picture.pixels ? "renderer" : "outlines"; }
