/* analysis.c: what the overlays and the hover show, computed on the CPU from a
 * viewed scene (window pixels): each element's box after clip intersection,
 * group boxes (clip: content union within the clip path; blend: content union),
 * nesting depth, elements per bin and flattened segments.
 *
 * Depth and the counts always come from here. Boxes, bins and segments are the
 * fallback: stage.c replaces them with canopy's scene and flatten stages'
 * results, and these are used only when those fail. The fallback boxes bound
 * curves by their control points (looser than the scene stage's) and are not
 * cut to the window; segments are flattened to VW_FLATTEN_TOL pixels, at most
 * VW_MAX_LINES of them.
 */
#include "vw.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VW_BIN_SIZE 256u
#define VW_FLATTEN_TOL 0.25f
#define VW_MAX_LINES (1u << 20)
#define VW_MAX_SUBDIV 64u

const char *vw_tag_name(uint32_t tag) {
  switch (tag) {
    case CN_TAG_FILL: return "fill";
    case CN_TAG_STROKE: return "stroke";
    case CN_TAG_BEGIN_CLIP: return "clip group";
    case CN_TAG_END_CLIP: return "end clip";
    case CN_TAG_BEGIN_BLEND: return "blend group";
    case CN_TAG_END_BLEND: return "end blend";
    default: return "unknown";
  }
}

static const cn_box vw__empty = {INFINITY, INFINITY, -INFINITY, -INFINITY};

static bool vw__box_empty(cn_box b) { return !(b.x1 > b.x0) || !(b.y1 > b.y0); }
static cn_box vw__box_union(cn_box a, cn_box b) {
  return (cn_box){fminf(a.x0, b.x0), fminf(a.y0, b.y0), fmaxf(a.x1, b.x1), fmaxf(a.y1, b.y1)};
}
static cn_box vw__box_isect(cn_box a, cn_box b) {
  return (cn_box){fmaxf(a.x0, b.x0), fmaxf(a.y0, b.y0), fminf(a.x1, b.x1), fminf(a.y1, b.y1)};
}
static void vw__box_add(cn_box *b, float x, float y) {
  if (!isfinite(x) || !isfinite(y)) return;
  *b = vw__box_union(*b, (cn_box){x, y, x, y});
}

static void vw__xf(const cn_transform *t, float x, float y, float *ox, float *oy) {
  *ox = t->a * x + t->c * y + t->e;
  *oy = t->b * x + t->d * y + t->f;
}

/* Box of a path's control points in window space (a bound of the curve). */
static cn_box vw__path_box(const cn_scene_data *s, uint32_t path) {
  cn_box b = vw__empty;
  if (path >= s->path_count) return b;
  const cn_path *p = &s->paths[path];
  if (p->transform >= s->transform_count) return b;
  const cn_transform *t = &s->transforms[p->transform];
  for (uint32_t k = 0; k < p->seg_count; k++) {
    uint64_t si = (uint64_t)p->seg_first + k;
    if (si >= s->segment_count) break;
    const cn_segment *g = &s->segments[si];
    const float *pt = &g->x0;
    uint32_t npts = (g->info & 3u) == CN_SEG_CUBIC ? 4 : (g->info & 3u) == CN_SEG_QUAD ? 3 : 2;
    for (uint32_t j = 0; j < npts; j++) {
      float x, y;
      vw__xf(t, pt[2 * j], pt[2 * j + 1], &x, &y);
      vw__box_add(&b, x, y);
    }
  }
  return b;
}

/* How far a stroke reaches past its path, in window pixels. */
static float vw__stroke_pad(const cn_scene_data *s, const cn_element *e) {
  if (e->aux >= s->stroke_count || e->path >= s->path_count) return 0.0f;
  const cn_stroke *st = &s->strokes[e->aux];
  const cn_path *p = &s->paths[e->path];
  if (p->transform >= s->transform_count) return 0.0f;
  const cn_transform *t = &s->transforms[p->transform];
  /* The largest stretch of the linear part bounds any direction's scale. */
  float n = sqrtf(fmaxf(t->a * t->a + t->b * t->b, t->c * t->c + t->d * t->d)) * 1.4142136f;
  float reach = 0.5f * st->width;
  if (st->join == CN_JOIN_MITER || st->join == CN_JOIN_MITER_CLIP) reach *= fmaxf(st->miter_limit, 1.0f);
  if (st->cap == CN_CAP_SQUARE) reach *= 1.4142136f;
  float pad = reach * n;
  return isfinite(pad) ? pad : 0.0f;
}

static void vw__flatten(vw_analysis *a, const cn_scene_data *s, uint32_t path, uint32_t elem, uint32_t *cap) {
  if (path >= s->path_count) return;
  const cn_path *p = &s->paths[path];
  if (p->transform >= s->transform_count) return;
  const cn_transform *t = &s->transforms[p->transform];
  for (uint32_t k = 0; k < p->seg_count; k++) {
    uint64_t si = (uint64_t)p->seg_first + k;
    if (si >= s->segment_count) break;
    const cn_segment *g = &s->segments[si];
    float q[8];
    uint32_t kind = g->info & 3u, npts = kind == CN_SEG_CUBIC ? 4 : kind == CN_SEG_QUAD ? 3 : 2;
    for (uint32_t j = 0; j < npts; j++) vw__xf(t, (&g->x0)[2 * j], (&g->x0)[2 * j + 1], &q[2 * j], &q[2 * j + 1]);
    /* Subdivisions from the second difference (standard flattening bound). */
    uint32_t n = 1;
    if (npts > 2) {
      float dd = 0.0f;
      for (uint32_t j = 0; j + 2 < npts; j++) {
        float dx = q[2 * j] - 2 * q[2 * j + 2] + q[2 * j + 4], dy = q[2 * j + 1] - 2 * q[2 * j + 3] + q[2 * j + 5];
        dd = fmaxf(dd, sqrtf(dx * dx + dy * dy));
      }
      float m = npts == 4 ? 0.75f : 0.25f;
      float f = sqrtf(m * dd / VW_FLATTEN_TOL);
      n = isfinite(f) ? (uint32_t)fminf(fmaxf(ceilf(f), 1.0f), (float)VW_MAX_SUBDIV) : 1;
    }
    float px = q[0], py = q[1];
    for (uint32_t i = 1; i <= n; i++) {
      float u = (float)i / (float)n, v = 1.0f - u, x, y;
      if (npts == 2) {
        x = v * q[0] + u * q[2];
        y = v * q[1] + u * q[3];
      } else if (npts == 3) {
        x = v * v * q[0] + 2 * u * v * q[2] + u * u * q[4];
        y = v * v * q[1] + 2 * u * v * q[3] + u * u * q[5];
      } else {
        x = v * v * v * q[0] + 3 * u * v * v * q[2] + 3 * u * u * v * q[4] + u * u * u * q[6];
        y = v * v * v * q[1] + 3 * u * v * v * q[3] + 3 * u * u * v * q[5] + u * u * u * q[7];
      }
      if (a->line_count == *cap) {
        if (*cap >= VW_MAX_LINES) return;
        uint32_t nc = *cap ? *cap * 2 : 4096;
        float *nl = realloc(a->lines, (size_t)nc * 4 * sizeof *nl);
        if (!nl) return;
        a->lines = nl;
        uint32_t *ne = realloc(a->line_element, (size_t)nc * sizeof *ne);
        if (!ne) return;
        a->line_element = ne;
        *cap = nc;
      }
      float *l = &a->lines[4 * (size_t)a->line_count];
      l[0] = px, l[1] = py, l[2] = x, l[3] = y;
      a->line_element[a->line_count++] = elem;
      px = x, py = y;
    }
  }
}

void vw_analysis_free(vw_analysis *a) {
  free(a->boxes);
  free(a->depth);
  free(a->tags);
  free(a->bin_counts);
  free(a->lines);
  free(a->line_element);
  memset(a, 0, sizeof *a);
}

typedef struct vw__open {
  uint32_t begin; /* element index of the BEGIN */
  cn_box clip;    /* the clip in force inside the group */
  cn_box content; /* union of what the group holds */
} vw__open;

bool vw_analysis_compute(vw_analysis *a, const cn_scene_data *s, uint32_t w, uint32_t h, bool flatten, char *err,
                         size_t errcap) {
  vw_analysis_free(a);
  uint32_t n = s->element_count;
  a->count = n;
  a->source = "cpu";
  a->bin_size = VW_BIN_SIZE;
  a->bins_x = (w + VW_BIN_SIZE - 1) / VW_BIN_SIZE;
  a->bins_y = (h + VW_BIN_SIZE - 1) / VW_BIN_SIZE;
  a->boxes = calloc(n ? n : 1, sizeof *a->boxes);
  a->depth = calloc(n ? n : 1, sizeof *a->depth);
  a->tags = calloc(n ? n : 1, sizeof *a->tags);
  a->bin_counts = calloc((size_t)a->bins_x * a->bins_y + 1, sizeof *a->bin_counts);
  vw__open *stack = calloc(n ? n : 1, sizeof *stack);
  if (!a->boxes || !a->depth || !a->tags || !a->bin_counts || !stack) {
    free(stack);
    vw_analysis_free(a);
    snprintf(err, errcap, "out of memory analysing %u elements", n);
    return false;
  }
  const cn_box everywhere = {-INFINITY, -INFINITY, INFINITY, INFINITY};
  uint32_t top = 0, line_cap = 0;
  for (uint32_t i = 0; i < n; i++) {
    const cn_element *e = &s->elements[i];
    cn_box clip = top ? stack[top - 1].clip : everywhere;
    a->tags[i] = e->tag;
    a->depth[i] = top;
    cn_box b = vw__empty;
    switch (e->tag) {
      case CN_TAG_FILL:
      case CN_TAG_STROKE: {
        b = vw__path_box(s, e->path);
        if (e->tag == CN_TAG_STROKE && !vw__box_empty(b)) {
          float pad = vw__stroke_pad(s, e);
          b = (cn_box){b.x0 - pad, b.y0 - pad, b.x1 + pad, b.y1 + pad};
        }
        b = vw__box_isect(b, clip);
        a->draws++;
        if (flatten) vw__flatten(a, s, e->path, i, &line_cap);
        break;
      }
      case CN_TAG_BEGIN_CLIP:
      case CN_TAG_BEGIN_BLEND: {
        cn_box inner = clip;
        if (e->tag == CN_TAG_BEGIN_CLIP) {
          inner = vw__box_isect(clip, vw__path_box(s, e->path));
          a->clips++;
          if (flatten) vw__flatten(a, s, e->path, i, &line_cap);
        } else {
          a->blends++;
        }
        stack[top++] = (vw__open){i, inner, vw__empty};
        if (top - 1 > a->max_depth) a->max_depth = top - 1;
        continue; /* its box is written at the END */
      }
      case CN_TAG_END_CLIP:
      case CN_TAG_END_BLEND: {
        if (top == 0) break; /* unbalanced: an empty box at depth 0 */
        vw__open g = stack[--top];
        b = g.content;
        if (e->tag == CN_TAG_END_CLIP) b = vw__box_isect(b, g.clip);
        if (vw__box_empty(b)) b = (cn_box){0, 0, 0, 0};
        a->boxes[g.begin] = b;
        a->depth[i] = top;
        break;
      }
      default: break;
    }
    if (vw__box_empty(b)) b = (cn_box){0, 0, 0, 0};
    a->boxes[i] = b;
    if (top && !vw__box_empty(b)) stack[top - 1].content = vw__box_union(stack[top - 1].content, b);
    if ((e->tag == CN_TAG_FILL || e->tag == CN_TAG_STROKE) && !vw__box_empty(b)) {
      /* bins touched by the box, clamped to the window */
      float fx0 = fmaxf(b.x0, 0.0f), fy0 = fmaxf(b.y0, 0.0f), fx1 = fminf(b.x1, (float)w), fy1 = fminf(b.y1, (float)h);
      if (fx1 > fx0 && fy1 > fy0) {
        uint32_t bx0 = (uint32_t)(fx0 / VW_BIN_SIZE), by0 = (uint32_t)(fy0 / VW_BIN_SIZE);
        uint32_t bx1 = (uint32_t)ceilf(fx1 / VW_BIN_SIZE), by1 = (uint32_t)ceilf(fy1 / VW_BIN_SIZE);
        if (bx1 > a->bins_x) bx1 = a->bins_x;
        if (by1 > a->bins_y) by1 = a->bins_y;
        for (uint32_t y = by0; y < by1; y++)
          for (uint32_t x = bx0; x < bx1; x++) a->bin_counts[y * a->bins_x + x]++;
      }
    }
  }
  /* Groups left open (unbalanced input) get their content so far. */
  while (top) {
    vw__open g = stack[--top];
    a->boxes[g.begin] = vw__box_empty(g.content) ? (cn_box){0, 0, 0, 0} : g.content;
  }
  free(stack);
  for (uint32_t i = 0; i < a->bins_x * a->bins_y; i++) a->bins_used += a->bin_counts[i] > 0;
  return true;
}
