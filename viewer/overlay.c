/* overlay.c: the overlays' names and keys, the host's triangles (vw_mesh:
 * window pixels, straight-alpha colours, drawn by draw.c) for the outline
 * picture and the legends, and the hover hit test. The overlays themselves
 * are drawn on the GPU from the renderer's buffers (shaders/overlay.vert).
 */
#include "vw.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const vw_overlay_info vw_overlays[VW_OVERLAY_COUNT] = {
    [VW_OVERLAY_BOXES] = {"boxes", GLFW_KEY_B, "B", "element boxes"},
    [VW_OVERLAY_CLIPS] = {"clips", GLFW_KEY_C, "C", "clip groups"},
    [VW_OVERLAY_BLENDS] = {"blends", GLFW_KEY_L, "L", "blend groups"},
    [VW_OVERLAY_BINS] = {"bins", GLFW_KEY_N, "N", "bins heat map"},
    [VW_OVERLAY_TILES] = {"tiles", GLFW_KEY_T, "T", "tile grid"},
    [VW_OVERLAY_DEPTH] = {"depth", GLFW_KEY_D, "D", "depth colours"},
    [VW_OVERLAY_SEGMENTS] = {"segments", GLFW_KEY_S, "S", "segments"},
};

int vw_overlay_by_name(const char *name) {
  for (int i = 0; i < VW_OVERLAY_COUNT; i++)
    if (strcmp(vw_overlays[i].name, name) == 0) return i;
  return -1;
}

/* ------------------------------------------------------------------ mesh */

void vw_mesh_clear(vw_mesh *m) {
  m->count = 0;
  m->oom = false;
}

void vw_mesh_free(vw_mesh *m) {
  free(m->v);
  memset(m, 0, sizeof *m);
}

static vw_vertex *vw__push(vw_mesh *m, uint32_t n) {
  if (m->count + n > m->cap) {
    uint32_t nc = m->cap ? m->cap : 4096;
    while (nc < m->count + n) nc *= 2;
    vw_vertex *nv = realloc(m->v, (size_t)nc * sizeof *nv);
    if (!nv) {
      m->oom = true;
      return NULL;
    }
    m->v = nv;
    m->cap = nc;
  }
  vw_vertex *v = &m->v[m->count];
  m->count += n;
  return v;
}

static void vw__quad(vw_mesh *m, const float p[8], uint32_t rgba) {
  vw_vertex *v = vw__push(m, 6);
  if (!v) return;
  static const int idx[6] = {0, 1, 2, 0, 2, 3};
  for (int i = 0; i < 6; i++) v[i] = (vw_vertex){p[2 * idx[i]], p[2 * idx[i] + 1], rgba};
}

void vw_mesh_rect(vw_mesh *m, float x0, float y0, float x1, float y1, uint32_t rgba) {
  const float p[8] = {x0, y0, x1, y0, x1, y1, x0, y1};
  vw__quad(m, p, rgba);
}

void vw_mesh_frame(vw_mesh *m, float x0, float y0, float x1, float y1, float width, uint32_t rgba) {
  float w = width;
  if (x1 - x0 <= 2 * w || y1 - y0 <= 2 * w) {
    vw_mesh_rect(m, x0, y0, fmaxf(x1, x0 + w), fmaxf(y1, y0 + w), rgba);
    return;
  }
  vw_mesh_rect(m, x0, y0, x1, y0 + w, rgba);
  vw_mesh_rect(m, x0, y1 - w, x1, y1, rgba);
  vw_mesh_rect(m, x0, y0 + w, x0 + w, y1 - w, rgba);
  vw_mesh_rect(m, x1 - w, y0 + w, x1, y1 - w, rgba);
}

void vw_mesh_line(vw_mesh *m, float x0, float y0, float x1, float y1, float width, uint32_t rgba) {
  float dx = x1 - x0, dy = y1 - y0, len = sqrtf(dx * dx + dy * dy);
  float h = 0.5f * width;
  if (!(len > 1e-6f)) {
    vw_mesh_rect(m, x0 - h, y0 - h, x0 + h, y0 + h, rgba);
    return;
  }
  /* Extend by half a width so joints of a polyline have no gaps. */
  float ux = dx / len * h, uy = dy / len * h;
  float nx = -uy, ny = ux;
  const float p[8] = {x0 - ux + nx, y0 - uy + ny, x1 + ux + nx, y1 + uy + ny,
                      x1 + ux - nx, y1 + uy - ny, x0 - ux - nx, y0 - uy - ny};
  vw__quad(m, p, rgba);
}

/* ------------------------------------------------------------- overlays */

static bool vw__is_draw(uint32_t tag) { return tag == CN_TAG_FILL || tag == CN_TAG_STROKE; }

/* A colour for depth d: hues around the wheel, distinct for neighbours (as
 * overlay.vert colours the depth overlay). */
static uint32_t vw__depth_colour(uint32_t d, unsigned alpha) {
  static const uint8_t pal[8][3] = {{31, 119, 180}, {255, 127, 14}, {44, 160, 44},  {214, 39, 40},
                                    {148, 103, 189}, {140, 86, 75},  {227, 119, 194}, {23, 190, 207}};
  const uint8_t *c = pal[d % 8];
  return vw_rgba(c[0], c[1], c[2], alpha);
}

/* Heat colour for t in 0..1: blue -> yellow -> red (as overlay.vert colours the bins). */
static uint32_t vw__heat(float t, unsigned alpha) {
  t = fminf(fmaxf(t, 0.0f), 1.0f);
  float r = t < 0.5f ? 2 * t : 1.0f, g = t < 0.5f ? 0.4f + 1.2f * t : 2.0f * (1.0f - t), b = t < 0.5f ? 1.0f - 2 * t : 0.0f;
  return vw_rgba((unsigned)(r * 255), (unsigned)(fminf(g, 1.0f) * 255), (unsigned)(b * 255), alpha);
}

/* Clips the segment to the box (Liang-Barsky); false when nothing is left. */
static bool vw__clip_line(float l[4], cn_box b) {
  float t0 = 0.0f, t1 = 1.0f, dx = l[2] - l[0], dy = l[3] - l[1];
  const float p[4] = {-dx, dx, -dy, dy};
  const float q[4] = {l[0] - b.x0, b.x1 - l[0], l[1] - b.y0, b.y1 - l[1]};
  for (int i = 0; i < 4; i++) {
    if (p[i] == 0.0f) {
      if (q[i] < 0.0f) return false;
      continue;
    }
    float t = q[i] / p[i];
    if (p[i] < 0.0f) t0 = fmaxf(t0, t);
    else t1 = fminf(t1, t);
  }
  if (t0 > t1) return false;
  float x0 = l[0], y0 = l[1];
  l[0] = x0 + t0 * dx, l[1] = y0 + t0 * dy, l[2] = x0 + t1 * dx, l[3] = y0 + t1 * dy;
  return true;
}

void vw_outline_build(vw_mesh *m, const vw_analysis *a, const cn_scene_data *s) {
  if (!a->lines) return; /* the renderer's lines: on the GPU, and then there is a picture */
  for (uint32_t i = 0; i < a->line_count; i++) {
    uint32_t e = a->line_element[i];
    if (e >= s->element_count || !vw__is_draw(s->elements[e].tag)) continue;
    uint32_t p = s->elements[e].paint;
    uint32_t col = vw_rgba(0, 0, 0, 255);
    if (p < s->paint_count) {
      const cn_paint *pt = &s->paints[p];
      float r = pt->r, g = pt->g, b = pt->b;
      if (pt->kind != CN_PAINT_SOLID && pt->stop_count && pt->stop_first < s->stop_count) {
        const cn_stop *st = &s->stops[pt->stop_first];
        r = st->r, g = st->g, b = st->b;
      }
      col = vw_rgba((unsigned)(fminf(fmaxf(r, 0), 1) * 255), (unsigned)(fminf(fmaxf(g, 0), 1) * 255),
                    (unsigned)(fminf(fmaxf(b, 0), 1) * 255), 255);
    }
    /* Within the element's box, which holds its clips (as boxes). */
    float l[4];
    memcpy(l, &a->lines[4 * (size_t)i], sizeof l);
    if (vw__clip_line(l, a->boxes[e])) vw_mesh_line(m, l[0], l[1], l[2], l[3], 1.5f, col);
  }
}

int vw_overlay_hit(const vw_analysis *a, double x, double y) {
  int group = -1;
  for (uint32_t k = a->count; k-- > 0;) {
    cn_box b = a->boxes[k];
    if (!(x >= b.x0 && x < b.x1 && y >= b.y0 && y < b.y1)) continue;
    if (vw__is_draw(a->tags[k])) return (int)k;
    bool begin = a->tags[k] == CN_TAG_BEGIN_CLIP || a->tags[k] == CN_TAG_BEGIN_BLEND;
    if (begin && (group < 0 || a->depth[k] > a->depth[group])) group = (int)k;
  }
  return group;
}

/* ---------------------------------------------------------------- legends */

#define VW_LEGEND_PANEL vw_rgba(16, 18, 28, 215)
#define VW_LEGEND_TEXT vw_rgba(235, 238, 245, 255)

/* One legend panel, bottom-right, stacked upwards from *bottom. */
static void vw__legend_panel(vw_mesh *m, float right, float *bottom, float width, float height) {
  vw_mesh_rect(m, right - width, *bottom - height, right, *bottom, VW_LEGEND_PANEL);
}

void vw_overlay_legend(vw_mesh *m, const vw_analysis *a, uint32_t mask, uint32_t w, uint32_t h, float scale,
                       float bottom_margin, float max_at[3]) {
  max_at[0] = max_at[1] = max_at[2] = 0.0f;
  if (!a || !(mask & ((1u << VW_OVERLAY_DEPTH) | (1u << VW_OVERLAY_BINS)))) return;
  const float pad = 4.0f * scale, line = 12.0f * scale, sw = 10.0f * scale;
  float right = (float)w - pad, bottom = (float)h - bottom_margin - pad;
  if (mask & (1u << VW_OVERLAY_BINS)) {
    /* a bar from 1 to the largest count (which the GPU writes, from the
     * renderer's bins), in the heat colours of the cells */
    char title[96];
    snprintf(title, sizeof title, "bins (%u px): elements per bin", a->bin_size);
    float width = fmaxf(vw_text_width(title, scale), 140.0f * scale) + 2 * pad;
    float height = 3 * line + 2 * pad;
    vw__legend_panel(m, right, &bottom, width, height);
    float x0 = right - width + pad, y0 = bottom - height + pad;
    vw_text(m, x0, y0, scale, VW_LEGEND_TEXT, title);
    float bar0 = x0, bar1 = right - pad, by = y0 + line + 2;
    const int steps = 32;
    for (int i = 0; i < steps; i++) {
      float t0 = (float)i / steps, t1 = (float)(i + 1) / steps;
      vw_mesh_rect(m, bar0 + (bar1 - bar0) * t0, by, bar0 + (bar1 - bar0) * t1, by + line - 4,
                   vw__heat(t0 + 0.5f / steps, 255));
    }
    vw_text(m, bar0, by + line, scale, VW_LEGEND_TEXT, "1");
    max_at[0] = bar1, max_at[1] = by + line, max_at[2] = scale;
    bottom -= height + pad;
  }
  if (mask & (1u << VW_OVERLAY_DEPTH)) {
    /* one swatch per nesting depth present (the palette repeats every 8) */
    uint32_t n = a->max_depth + 1 < 8 ? a->max_depth + 1 : 8;
    const char *title = a->max_depth >= 8 ? "depth (colours repeat every 8)" : "nesting depth";
    float width = fmaxf(vw_text_width(title, scale), (float)n * (sw + 3 * pad)) + 2 * pad;
    float height = 3 * line + 2 * pad;
    vw__legend_panel(m, right, &bottom, width, height);
    float x = right - width + pad, y0 = bottom - height + pad;
    vw_text(m, x, y0, scale, VW_LEGEND_TEXT, title);
    for (uint32_t d = 0; d < n; d++) {
      float sx = x + (float)d * (sw + 3 * pad);
      vw_mesh_rect(m, sx, y0 + line + 2, sx + sw, y0 + 2 * line - 2, vw__depth_colour(d, 255));
      char num[16];
      snprintf(num, sizeof num, "%u", d);
      vw_text(m, sx, y0 + 2 * line, scale, VW_LEGEND_TEXT, num);
    }
  }
}
