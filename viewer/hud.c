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

#define VW_TEXT_SCALE 2.0f
#define VW_LINE (13.0f * VW_TEXT_SCALE)
#define VW_PAD 8.0f
#define VW_COL_PANEL vw_rgba(16, 18, 28, 205)
#define VW_COL_TEXT vw_rgba(235, 238, 245, 255)
#define VW_COL_DIM vw_rgba(140, 146, 160, 255)
#define VW_COL_ON vw_rgba(120, 230, 120, 255)
#define VW_COL_KEY vw_rgba(255, 210, 90, 255)
#define VW_COL_ERROR_PANEL vw_rgba(150, 20, 30, 230)

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

/* Text pieces, each with its colour, flowing left to right and wrapping at
 * the right edge (a piece never splits). */
typedef struct vw__run {
  float x, y;
  float right; /* wrap when a piece would pass this */
  vw_mesh *m;
} vw__run;

static void vw__say(vw__run *r, uint32_t rgba, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void vw__say(vw__run *r, uint32_t rgba, const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  const char *text = buf;
  float w = vw_text_width(text, VW_TEXT_SCALE);
  if (r->x > VW_PAD && r->x + w > r->right) {
    r->x = VW_PAD;
    r->y += VW_LINE;
    while (*text == ' ') text++;
    w = vw_text_width(text, VW_TEXT_SCALE);
  }
  vw_text(r->m, r->x, r->y, VW_TEXT_SCALE, rgba, text);
  r->x += w;
}

static void vw__newline(vw__run *r) {
  r->x = VW_PAD;
  r->y += VW_LINE;
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

void vw_hud_build(vw_mesh *m, const vw_hud_info *in) {
  const vw_analysis *a = in->analysis;
  float W = (float)in->width, H = (float)in->height;
  float hud_bottom = 0.0f;
  if (in->show_hud) {
    /* Top panel: laid out first, then the panel behind it gets its height. */
    uint32_t panel = m->count;
    vw__panel(m, 0, 0, W, 0, VW_COL_PANEL);
    vw__run r = {VW_PAD, VW_PAD, W - VW_PAD, m};
    vw__say(&r, VW_COL_TEXT, "%s", in->file);
    vw__say(&r, VW_COL_DIM, "   %ux%u  zoom %.0f%%  picture: %s", in->width, in->height, in->zoom * 100.0,
            in->picture);
    vw__newline(&r);
    if (a) {
      vw__say(&r, VW_COL_TEXT, "elements %u", a->count);
      vw__say(&r, VW_COL_DIM, "  (draws %u, clips %u, blends %u, max depth %u)", a->draws, a->clips, a->blends,
              a->max_depth);
      vw__say(&r, VW_COL_TEXT, "   bins used %u/%u", a->bins_used, a->bins_x * a->bins_y);
      vw__say(&r, VW_COL_DIM, " (%upx)", a->bin_size);
      vw__say(&r, VW_COL_DIM, "   segments %u", a->line_count);
    } else {
      vw__say(&r, VW_COL_DIM, "no scene");
    }
    vw__newline(&r);
    if (in->skipped) {
      vw__say(&r, VW_COL_TEXT, "not drawn");
      vw__say(&r, VW_COL_DIM, "  %s", in->skipped);
      vw__newline(&r);
    }
    vw__say(&r, VW_COL_TEXT, "GPU");
    if (in->spans == 0) vw__say(&r, VW_COL_DIM, "  (no timestamps)");
    /* Spans named "stage: step" or "stage step" are summed per stage. */
    for (uint32_t i = 0; i < in->spans;) {
      const char *label = in->span_label[i] ? in->span_label[i] : "?";
      size_t n = strcspn(label, ": ");
      double ms = 0;
      uint32_t j = i;
      while (j < in->spans && in->span_label[j] && strncmp(in->span_label[j], label, n) == 0 &&
             (in->span_label[j][n] == ':' || in->span_label[j][n] == ' ' || in->span_label[j][n] == 0) &&
             (label[n] != 0 || j == i))
        ms += in->span_ms[j++];
      vw__say(&r, VW_COL_DIM, "  %.*s %.2f ms", (int)n, label, ms);
      i = j;
    }
    vw__say(&r, VW_COL_TEXT, "   total %.2f ms", in->gpu_total_ms);
    vw__say(&r, VW_COL_TEXT, "   frame %.1f ms", in->frame_ms);
    vw__newline(&r);
    vw__say(&r, VW_COL_DIM, "overlays:");
    for (int i = 0; i < VW_OVERLAY_COUNT; i++) {
      bool on = in->overlays & (1u << i);
      char piece[64];
      snprintf(piece, sizeof piece, "  %s %s", vw_overlays[i].key_label, vw_overlays[i].name);
      /* key in yellow, name green when on; measured as one piece so it wraps whole */
      if (r.x > VW_PAD && r.x + vw_text_width(piece, VW_TEXT_SCALE) > r.right) vw__newline(&r);
      vw__say(&r, VW_COL_KEY, "  %s", vw_overlays[i].key_label);
      vw__say(&r, on ? VW_COL_ON : VW_COL_DIM, " %s", vw_overlays[i].name);
    }
    vw__newline(&r);
    static const char *keys[][2] = {{"drag", "pan"},     {"wheel +/-", "zoom"}, {"arrows", "pan"},
                                    {"0/F", "fit"},      {"R", "reload"},       {"H", "hud"},
                                    {"Esc/Q", "quit"},   {"drop", "open file"}};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
      char piece[64];
      snprintf(piece, sizeof piece, "   %s %s", keys[i][0], keys[i][1]);
      if (r.x > VW_PAD && r.x + vw_text_width(piece, VW_TEXT_SCALE) > r.right) vw__newline(&r);
      vw__say(&r, VW_COL_KEY, "%s%s", r.x > VW_PAD ? "   " : "", keys[i][0]);
      vw__say(&r, VW_COL_DIM, " %s", keys[i][1]);
    }
    float bottom = r.y + VW_LINE + VW_PAD - 6.0f;
    hud_bottom = bottom;
    if (!m->oom && panel + 6 <= m->count) {
      /* vertices 2, 4, 5 of the reserved quad are its bottom corners */
      m->v[panel + 2].y = bottom;
      m->v[panel + 4].y = bottom;
      m->v[panel + 5].y = bottom;
    }

    /* Hover details at the bottom. */
    if (a && in->hover >= 0 && (uint32_t)in->hover < a->count) {
      int i = in->hover;
      cn_box b = a->boxes[i];
      char text[256];
      snprintf(text, sizeof text, "#%d %s  depth %u  box (%.1f, %.1f)-(%.1f, %.1f)  %.1f x %.1f", i,
               vw_tag_name(a->tags[i]), a->depth[i], b.x0, b.y0, b.x1, b.y1, b.x1 - b.x0, b.y1 - b.y0);
      float tw = vw_text_width(text, VW_TEXT_SCALE);
      vw__panel(m, 0, H - VW_LINE - 2 * VW_PAD, tw + 2 * VW_PAD, H, VW_COL_PANEL);
      vw_text(m, VW_PAD, H - VW_LINE - VW_PAD, VW_TEXT_SCALE, VW_COL_KEY, text);
    }
    if (in->status && *in->status) {
      float tw = vw_text_width(in->status, VW_TEXT_SCALE);
      vw__panel(m, W - tw - 2 * VW_PAD, H - VW_LINE - 2 * VW_PAD, W, H, VW_COL_PANEL);
      vw_text(m, W - tw - VW_PAD, H - VW_LINE - VW_PAD, VW_TEXT_SCALE, VW_COL_ON, in->status);
    }
  }
  if (in->error && *in->error) {
    char text[1400], wrapped[2048];
    snprintf(text, sizeof text, "%s\n%s", in->error,
             in->has_scene ? "(the previous scene stays; R retries, or drop another file)"
                           : "(R retries, or drop another file)");
    int cols = (int)((W - 4 * VW_PAD) / (6.0f * VW_TEXT_SCALE));
    if (cols < 20) cols = 20;
    int lines = vw__wrap(text, wrapped, sizeof wrapped, cols);
    float h = VW_PAD * 2 + 12.0f * VW_TEXT_SCALE * (float)lines;
    float y0 = fmaxf(H * 0.5f - h * 0.5f, hud_bottom + VW_PAD);
    vw__panel(m, VW_PAD, y0, W - VW_PAD, y0 + h, VW_COL_ERROR_PANEL);
    vw_text(m, 2 * VW_PAD, y0 + VW_PAD, VW_TEXT_SCALE, VW_COL_TEXT, wrapped);
  }
}
