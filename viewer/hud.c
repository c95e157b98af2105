/* hud.c: the heads-up display: file and view, counts, per-stage GPU times,
 * frame time, the overlay legend (which are on), the keys, hover details and
 * load errors. Text comes from stb_easy_font (libstb-dev) as quads, turned
 * into the viewer's triangles.
 */
#include "vw.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wshadow"
#endif
#include <stb/stb_easy_font.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#define VW_PAD 8.0f
#define VW_COL_PANEL vw_rgba(16, 18, 28, 205)
#define VW_COL_TEXT vw_rgba(235, 238, 245, 255)
#define VW_COL_DIM vw_rgba(150, 156, 170, 255)
#define VW_COL_ON vw_rgba(120, 230, 120, 255)
#define VW_COL_KEY vw_rgba(255, 210, 90, 255)
#define VW_COL_HEAD vw_rgba(140, 200, 255, 255)
#define VW_COL_ERROR_PANEL vw_rgba(150, 20, 30, 230)
#define VW_HUD_MAX_SCALE 2.0f
#define VW_HUD_MIN_SCALE 1.0f

/* stb_easy_font's vertex: x, y, z and a colour; 4 per quad. */
typedef struct vw__font_vertex {
  float x, y, z;
  unsigned char c[4];
} vw__font_vertex;

float vw_text_width(const char *text, float scale) { return (float)stb_easy_font_width((char *)text) * scale; }

float vw_text(vw_mesh *m, float x, float y, float scale, uint32_t rgba, const char *text) {
  static vw__font_vertex buf[4 * 2000];
  /* stb_easy_font needs a writable string; long texts go in pieces of lines. */
  char line[480];
  float width = 0.0f, yy = y;
  const char *p = text;
  while (*p) {
    size_t n = strcspn(p, "\n");
    size_t take = n < sizeof line - 1 ? n : sizeof line - 1;
    memcpy(line, p, take);
    line[take] = 0;
    int quads = stb_easy_font_print(0, 0, line, NULL, buf, (int)sizeof buf);
    for (int q = 0; q < quads; q++) {
      const vw__font_vertex *v = &buf[4 * q];
      vw_mesh_rect(m, x + v[0].x * scale, yy + v[0].y * scale, x + v[2].x * scale, yy + v[2].y * scale, rgba);
    }
    width = fmaxf(width, (float)stb_easy_font_width(line) * scale);
    p += n;
    if (*p == '\n') p++;
    yy += 12.0f * scale;
  }
  return width;
}

uint32_t vw_digit_glyphs(vw_glyph_header *h, float (*quads)[4], uint32_t cap, uint32_t *max_quads) {
  static vw__font_vertex buf[4 * 64];
  memset(h, 0, sizeof *h);
  uint32_t n = 0;
  *max_quads = 1;
  for (uint32_t d = 0; d < 10; d++) {
    char text[2] = {(char)('0' + d), 0};
    int q = stb_easy_font_print(0, 0, text, NULL, buf, (int)sizeof buf);
    h->advance[d] = (uint32_t)stb_easy_font_width(text);
    h->first[d] = n;
    for (int i = 0; i < q && n < cap; i++, n++) {
      const vw__font_vertex *v = &buf[4 * i];
      quads[n][0] = v[0].x, quads[n][1] = v[0].y, quads[n][2] = v[2].x, quads[n][3] = v[2].y;
    }
    h->count[d] = n - h->first[d];
    if (h->count[d] > *max_quads) *max_quads = h->count[d];
  }
  return n;
}

/* Text pieces, each with its colour, flowing left to right and wrapping at
 * the right edge (a piece never splits; one wider than the panel is cut). */
typedef struct vw__run {
  float x, y;
  float left, right;  /* text area */
  float bottom;       /* nothing is drawn below this; overflow is set instead */
  float scale, line;
  float max_x;        /* rightmost text drawn */
  bool overflow;
  vw_mesh *m;
} vw__run;

static void vw__put(vw__run *r, uint32_t rgba, const char *text) {
  float w = vw_text_width(text, r->scale);
  if (r->x > r->left && r->x + w > r->right) {
    r->x = r->left;
    r->y += r->line;
    while (*text == ' ') text++;
    w = vw_text_width(text, r->scale);
  }
  if (r->y + r->line > r->bottom) {
    r->overflow = true;
    return;
  }
  char cut[512];
  if (r->x + w > r->right) { /* too wide even alone: keep what fits (a layout to avoid) */
    r->overflow = true;
    size_t n = strlen(text);
    if (n >= sizeof cut) n = sizeof cut - 1;
    memcpy(cut, text, n);
    cut[n] = 0;
    while (n > 0 && r->x + vw_text_width(cut, r->scale) > r->right) cut[--n] = 0;
    text = cut;
    w = vw_text_width(text, r->scale);
  }
  vw_text(r->m, r->x, r->y, r->scale, rgba, text);
  r->x += w;
  if (r->x > r->max_x) r->max_x = r->x;
}

static void vw__say(vw__run *r, uint32_t rgba, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void vw__say(vw__run *r, uint32_t rgba, const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  vw__put(r, rgba, buf);
}

static void vw__newline(vw__run *r) {
  r->x = r->left;
  r->y += r->line;
}

/* A key and what it does, kept together on a line. */
static void vw__key(vw__run *r, const char *key, const char *what, bool on) {
  char piece[96];
  snprintf(piece, sizeof piece, "%s%s %s", r->x > r->left ? "  " : "", key, what);
  if (r->x > r->left && r->x + vw_text_width(piece, r->scale) > r->right) vw__newline(r);
  vw__say(r, VW_COL_KEY, "%s%s", r->x > r->left ? "  " : "", key);
  vw__say(r, on ? VW_COL_ON : VW_COL_DIM, " %s", what);
}

/* A path that fits in the panel: its end, after "...". */
static void vw__path(vw__run *r, uint32_t rgba, const char *path) {
  float room = r->right - r->x;
  const char *p = path;
  while (*p && vw_text_width(p, r->scale) > room) {
    p++;
    if (*p && vw_text_width("...", r->scale) + vw_text_width(p, r->scale) <= room) {
      vw__say(r, rgba, "...%s", p);
      return;
    }
  }
  vw__put(r, rgba, p);
}

static void vw__panel(vw_mesh *m, float x0, float y0, float x1, float y1, uint32_t rgba) {
  vw_mesh_rect(m, x0, y0, x1, y1, rgba);
}

/* Word-wraps text into lines of at most cols characters (in place copy). */
static int vw__wrap(const char *text, char *out, size_t cap, int cols) {
  int lines = 1, col = 0;
  size_t o = 0;
  for (const char *p = text; *p && o + 2 < cap; p++) {
    if (*p == '\n' || (col >= cols && *p == ' ')) {
      out[o++] = '\n';
      lines++;
      col = 0;
      continue;
    }
    if (col >= cols + 20) { /* no space for a while: hard break */
      out[o++] = '\n';
      lines++;
      col = 0;
    }
    out[o++] = *p;
    col++;
  }
  out[o] = 0;
  return lines;
}

/* Sections, most important first; a layout that does not fit drops from the end. */
enum { VW_SEC_FILE, VW_SEC_COUNTS, VW_SEC_TIMES, VW_SEC_STATS, VW_SEC_OVERLAYS, VW_SEC_KEYS, VW_SEC_COUNT };

static void vw__section(vw__run *r, const vw_hud_info *in, int sec) {
  const vw_analysis *a = in->analysis;
  switch (sec) {
    case VW_SEC_FILE:
      if (in->scene_count > 1) vw__say(r, VW_COL_KEY, "[%u/%u] ", in->scene_index, in->scene_count);
      vw__path(r, VW_COL_TEXT, in->file);
      vw__newline(r);
      vw__say(r, VW_COL_DIM, "%ux%u  zoom %.0f%%  %s", in->width, in->height, in->zoom * 100.0, in->picture);
      vw__say(r, VW_COL_DIM, "  vsync %s (%s)", in->vsync ? "on" : "off", in->present_mode ? in->present_mode : "?");
      vw__newline(r);
      break;
    case VW_SEC_COUNTS:
      if (a) {
        vw__say(r, VW_COL_TEXT, "elements %u", a->count);
        vw__say(r, VW_COL_DIM, "  draws %u", a->draws);
        vw__say(r, VW_COL_DIM, "  clips %u", a->clips);
        vw__say(r, VW_COL_DIM, "  blends %u", a->blends);
        vw__say(r, VW_COL_DIM, "  depth %u", a->max_depth);
        vw__say(r, VW_COL_DIM, "  bins %u/%u", a->bins_used, a->bins_x * a->bins_y);
        vw__say(r, VW_COL_DIM, "  segments %u", a->line_count);
      } else {
        vw__say(r, VW_COL_DIM, "no scene");
      }
      vw__newline(r);
      if (in->skipped) { /* nothing dropped silently: what the loader left out */
        vw__say(r, VW_COL_TEXT, "not drawn");
        vw__say(r, VW_COL_DIM, "  %s", in->skipped);
        vw__newline(r);
      }
      break;
    case VW_SEC_TIMES:
      vw__say(r, VW_COL_TEXT, "GPU %.2f ms", in->gpu_total_ms);
      if (in->spans == 0) vw__say(r, VW_COL_DIM, " (no timestamps)");
      vw__say(r, VW_COL_TEXT, "  frame %.1f ms", in->frame_ms);
      if (in->frame_samples > 1)
        vw__say(r, VW_COL_DIM, "  last 1 s: min %.1f med %.1f max %.1f (%u)", in->frame_min_ms, in->frame_median_ms,
                in->frame_max_ms, in->frame_samples);
      vw__newline(r);
      break;
    case VW_SEC_STATS: {
      if (!in->show_stats) break;
      /* Every stage on its own line under its pass, then the pass's sum; the
       * steps of one stage ("bbox compact", "bbox clip", "flatten: count")
       * are summed on the stage's line. */
      for (uint32_t i = 0; i < in->spans;) {
        const char *g = in->span_group[i] ? in->span_group[i] : "GPU";
        vw__say(r, VW_COL_HEAD, "%s", g);
        vw__newline(r);
        double pass_ms = 0;
        uint32_t j = i;
        while (j < in->spans && strcmp(in->span_group[j] ? in->span_group[j] : "GPU", g) == 0) {
          const char *label = in->span_label[j] ? in->span_label[j] : "?";
          size_t n = strcspn(label, ": ");
          double ms = 0;
          uint32_t k = j;
          while (k < in->spans && strcmp(in->span_group[k] ? in->span_group[k] : "GPU", g) == 0 && in->span_label[k] &&
                 strncmp(in->span_label[k], label, n) == 0 &&
                 (in->span_label[k][n] == ':' || in->span_label[k][n] == ' ' || in->span_label[k][n] == 0))
            ms += in->span_ms[k++];
          if (k == j) ms = in->span_ms[k++]; /* a NULL label: its own line */
          vw__say(r, VW_COL_TEXT, "  %-24.*s %8.3f ms", (int)(n < 24 ? n : 24), label, ms);
          vw__newline(r);
          pass_ms += ms;
          j = k;
        }
        vw__say(r, VW_COL_DIM, "  %-24s %8.3f ms", "(pass)", pass_ms);
        vw__newline(r);
        i = j;
      }
      vw__say(r, VW_COL_HEAD, "%-26s %8.3f ms", "GPU total (sum)", in->gpu_total_ms);
      vw__newline(r);
      if (in->have_buffers) {
        static const char *const names[4] = {"tiles", "segments", "chunks", "spill"};
        vw__say(r, VW_COL_HEAD, "renderer buffers");
        vw__say(r, VW_COL_DIM, "  (lines %u, re-runs %u)", in->lines, in->reruns);
        vw__newline(r);
        for (int k = 0; k < 4; k++) {
          double pct = in->buf_cap[k] ? 100.0 * in->buf_used[k] / in->buf_cap[k] : 0.0;
          vw__say(r, VW_COL_TEXT, "  %-9s %9u/%-9u %5.1f%%", names[k], in->buf_used[k], in->buf_cap[k], pct);
          vw__newline(r);
        }
      } else {
        vw__say(r, VW_COL_DIM, "re-runs %u", in->reruns);
        vw__newline(r);
      }
      break;
    }
    case VW_SEC_OVERLAYS:
      for (int i = 0; i < VW_OVERLAY_COUNT; i++)
        vw__key(r, vw_overlays[i].key_label, vw_overlays[i].name, (in->overlays & (1u << i)) != 0);
      vw__newline(r);
      break;
    case VW_SEC_KEYS: {
      static const char *keys[][2] = {{"drag", "pan"},     {"wheel +/-", "zoom"}, {"arrows", "pan"},
                                      {"0/F", "fit"},      {"PgUp/PgDn [ ]", "scene"}, {"R", "reload"},
                                      {"V", "vsync"},      {"I", "stats"},        {"H", "hud"},
                                      {"Esc/Q", "quit"},   {"drop", "open file"}};
      for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) vw__key(r, keys[i][0], keys[i][1], false);
      vw__newline(r);
      break;
    }
  }
}

/* Lays the panel out at scale with sections [0, nsec) into at most maxw x
 * maxh; returns false (mesh rolled back) when it does not fit. */
static bool vw__hud_try(vw_mesh *m, const vw_hud_info *in, float scale, float maxw, float maxh, int nsec,
                        bool clip, vw_hud_layout *out) {
  uint32_t start = m->count;
  vw__panel(m, 0, 0, 1, 1, VW_COL_PANEL); /* placeholder corners, moved below */
  vw__run r = {.x = VW_PAD, .y = VW_PAD, .left = VW_PAD, .right = maxw - VW_PAD, .bottom = maxh - VW_PAD,
               .scale = scale, .line = 13.0f * scale, .max_x = 0, .m = m};
  for (int s = 0; s < nsec; s++) vw__section(&r, in, s);
  if (r.overflow && !clip) {
    m->count = start;
    return false;
  }
  float x1 = fminf(r.max_x + VW_PAD, maxw), y1 = fminf(r.y + VW_PAD - 4.0f, maxh);
  if (!m->oom && start + 6 <= m->count) {
    /* the reserved quad (two triangles): 0 1 2 / 3 4 5 with corners (x0,y0) (x1,y0) (x1,y1) (x0,y1) */
    vw_vertex *v = &m->v[start];
    for (int k = 0; k < 6; k++) {
      if (v[k].x > 0.5f) v[k].x = x1;
      if (v[k].y > 0.5f) v[k].y = y1;
    }
  }
  *out = (vw_hud_layout){0, 0, x1, y1, scale, 0};
  return true;
}

void vw_hud_build(vw_mesh *m, const vw_hud_info *in, vw_hud_layout *layout) {
  const vw_analysis *a = in->analysis;
  float W = (float)in->width, H = (float)in->height;
  vw_hud_layout L = {0, 0, 0, 0, VW_HUD_MIN_SCALE, 0};
  if (in->show_hud && W > 2 * VW_PAD && H > 2 * VW_PAD) {
    /* Text scales with the window (2x at 1200 px wide and up, 1x at 600 and
     * below); the panel covers at most a third of the window: the first
     * fitting of (smaller text, then narrower-and-taller, then fewer sections). */
    float top = fminf(VW_HUD_MAX_SCALE, fmaxf(VW_HUD_MIN_SCALE, fminf(W / 600.0f, H / 450.0f)));
    top = floorf(top * 4.0f) / 4.0f;
    const float third = W * H / 3.0f;
    bool done = false;
    for (int nsec = VW_SEC_COUNT; nsec >= 1 && !done; nsec--) {
      for (float sc = top; sc >= VW_HUD_MIN_SCALE && !done; sc -= 0.25f) {
        static const float widths[] = {1.0f, 2.0f / 3.0f, 0.5f, 1.0f / 3.0f};
        for (size_t k = 0; k < 4 && !done; k++) {
          float maxw = W * widths[k], maxh = fminf(H, third / maxw);
          done = vw__hud_try(m, in, sc, maxw, maxh, nsec, false, &L);
        }
      }
    }
    if (!done) /* nothing fits whole: what fits of it, cut at a third of the height */
      vw__hud_try(m, in, VW_HUD_MIN_SCALE, W, H / 3.0f, VW_SEC_COUNT, true, &L);

    /* Hover details and status at the bottom. */
    float line = 13.0f * L.scale;
    if (a && in->hover >= 0 && (uint32_t)in->hover < a->count) {
      int i = in->hover;
      cn_box b = a->boxes[i];
      char text[256];
      snprintf(text, sizeof text, "#%d %s  depth %u  box (%.1f, %.1f)-(%.1f, %.1f)  %.1f x %.1f", i,
               vw_tag_name(a->tags[i]), a->depth[i], b.x0, b.y0, b.x1, b.y1, b.x1 - b.x0, b.y1 - b.y0);
      float tw = vw_text_width(text, L.scale);
      vw__panel(m, 0, H - line - 2 * VW_PAD, tw + 2 * VW_PAD, H, VW_COL_PANEL);
      vw_text(m, VW_PAD, H - line - VW_PAD, L.scale, VW_COL_KEY, text);
      L.bottom_used = line + 2 * VW_PAD;
    }
    if (in->status && *in->status) {
      float tw = vw_text_width(in->status, L.scale);
      vw__panel(m, W - tw - 2 * VW_PAD, H - line - 2 * VW_PAD, W, H, VW_COL_PANEL);
      vw_text(m, W - tw - VW_PAD, H - line - VW_PAD, L.scale, VW_COL_ON, in->status);
      L.bottom_used = line + 2 * VW_PAD;
    }
  }
  if (in->error && *in->error) {
    float es = fmaxf(L.scale, VW_HUD_MIN_SCALE);
    char text[1400], wrapped[2048];
    snprintf(text, sizeof text, "%s\n%s", in->error,
             in->has_scene ? "(the previous scene stays; R retries, or drop another file)"
                           : "(R retries, or drop another file)");
    int cols = (int)((W - 4 * VW_PAD) / (6.0f * es));
    if (cols < 20) cols = 20;
    int lines = vw__wrap(text, wrapped, sizeof wrapped, cols);
    float h = VW_PAD * 2 + 12.0f * es * (float)lines;
    float y0 = fmaxf(H * 0.5f - h * 0.5f, L.y1 + VW_PAD);
    vw__panel(m, VW_PAD, y0, W - VW_PAD, y0 + h, VW_COL_ERROR_PANEL);
    vw_text(m, 2 * VW_PAD, y0 + VW_PAD, es, VW_COL_TEXT, wrapped);
  }
  if (layout) *layout = L;
}
