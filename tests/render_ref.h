/* render_ref.h: test-only helpers for the renderer tests (header-only).
 *
 *   ref_scene      builds a cn_scene_data by hand (fixed-capacity arrays)
 *   ref_flatten    a simple CPU flattening of FILL and BEGIN_CLIP paths into
 *                  closed cn_render_line outlines (uniform curve subdivision):
 *                  TEST ONLY, it stands in for the GPU flattening stage
 *   ref_render     a CPU reference of the renderer's semantics without tiles:
 *                  exact per-pixel area coverage (or 4x4 samples, CN_AA_SS16)
 *                  from all lines of an element,
 *                  the clip/blend/mask stack, gradients, images (nearest and
 *                  bilinear, edge texels clamped); premultiplied floats
 *
 * The reference shares no code with the GPU path: it computes each pixel's
 * coverage from every line of the element directly, so tiling, backdrops and
 * coarse culling are checked against it.
 */
#ifndef CN_RENDER_REF_H
#define CN_RENDER_REF_H

#include <canopy/canopy.h>
#include <canopy/cn_render.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>


#define REF_CAP 4096

typedef struct ref_scene {
  cn_element elements[REF_CAP];
  cn_path paths[REF_CAP];
  cn_segment segments[REF_CAP * 4];
  cn_transform transforms[64];
  cn_paint paints[REF_CAP];
  cn_stop stops[256];
  cn_blend blends[REF_CAP];
  cn_image images[16];
  uint32_t pixels[1 << 16];
  uint32_t ne, np, ns, nt, npaint, nstop, nblend, nimage, npix;
} ref_scene;

static inline void ref_init(ref_scene *s) {
  memset(s, 0, sizeof *s);
  s->transforms[0] = (cn_transform){1, 0, 0, 1, 0, 0};
  s->nt = 1;
}

static inline cn_scene_data ref_data(const ref_scene *s, float w, float h) {
  cn_scene_data d = {.viewport = {0, 0, w, h},
                     .elements = s->elements, .element_count = s->ne,
                     .paths = s->paths, .path_count = s->np,
                     .segments = s->segments, .segment_count = s->ns,
                     .transforms = s->transforms, .transform_count = s->nt,
                     .paints = s->paints, .paint_count = s->npaint,
                     .stops = s->stops, .stop_count = s->nstop,
                     .blends = s->blends, .blend_count = s->nblend,
                     .images = s->images, .image_count = s->nimage,
                     .image_pixels = s->pixels, .image_pixel_count = s->npix};
  return d;
}

/* Starts a path; add segments with ref_line/ref_quad/ref_cubic, end subpaths with ref_close. */
static inline uint32_t ref_path_begin(ref_scene *s) {
  s->paths[s->np] = (cn_path){.seg_first = s->ns, .seg_count = 0, .transform = 0};
  return s->np++;
}
static inline void ref_seg(ref_scene *s, uint32_t kind, const float *p) {
  cn_segment g = {0};
  memcpy(&g.x0, p, sizeof(float) * 8);
  g.info = kind | ((s->np - 1) << CN_SEG_PATH_SHIFT);
  s->segments[s->ns++] = g;
  s->paths[s->np - 1].seg_count++;
}
static inline void ref_line(ref_scene *s, float x0, float y0, float x1, float y1) {
  float p[8] = {x0, y0, x1, y1};
  ref_seg(s, CN_SEG_LINE, p);
}
static inline void ref_cubic(ref_scene *s, float x0, float y0, float x1, float y1, float x2, float y2, float x3,
                             float y3) {
  float p[8] = {x0, y0, x1, y1, x2, y2, x3, y3};
  ref_seg(s, CN_SEG_CUBIC, p);
}
static inline void ref_close(ref_scene *s) { s->segments[s->ns - 1].info |= CN_SEG_SUBPATH_END | CN_SEG_SUBPATH_CLOSED; }

/* A polygon path from n points. */
static inline uint32_t ref_poly(ref_scene *s, const float *xy, int n) {
  uint32_t p = ref_path_begin(s);
  for (int i = 0; i < n; i++) {
    int j = (i + 1) % n;
    ref_line(s, xy[2 * i], xy[2 * i + 1], xy[2 * j], xy[2 * j + 1]);
  }
  ref_close(s);
  return p;
}
static inline uint32_t ref_rect(ref_scene *s, float x0, float y0, float x1, float y1) {
  float xy[8] = {x0, y0, x1, y0, x1, y1, x0, y1};
  return ref_poly(s, xy, 4);
}
/* A circle of 4 cubics. */
static inline uint32_t ref_circle(ref_scene *s, float cx, float cy, float r) {
  const float k = 0.5522847f * r;
  uint32_t p = ref_path_begin(s);
  ref_cubic(s, cx + r, cy, cx + r, cy + k, cx + k, cy + r, cx, cy + r);
  ref_cubic(s, cx, cy + r, cx - k, cy + r, cx - r, cy + k, cx - r, cy);
  ref_cubic(s, cx - r, cy, cx - r, cy - k, cx - k, cy - r, cx, cy - r);
  ref_cubic(s, cx, cy - r, cx + k, cy - r, cx + r, cy - k, cx + r, cy);
  ref_close(s);
  return p;
}

static inline uint32_t ref_solid(ref_scene *s, float r, float g, float b, float a) {
  s->paints[s->npaint] = (cn_paint){.kind = CN_PAINT_SOLID, .r = r, .g = g, .b = b, .a = a, .transform = 0,
                                    .opacity = 1};
  return s->npaint++;
}
/* An image of w x h premultiplied RGBA8 words and a paint for it (image space -> device by t). */
static inline uint32_t ref_image(ref_scene *s, const uint32_t *texels, uint32_t w, uint32_t h) {
  memcpy(s->pixels + s->npix, texels, sizeof(uint32_t) * w * h);
  s->images[s->nimage] = (cn_image){s->npix, w, h, 0};
  s->npix += w * h;
  return s->nimage++;
}
static inline uint32_t ref_image_paint(ref_scene *s, uint32_t image, cn_transform t, uint32_t sampling, float opacity) {
  s->transforms[s->nt] = t;
  s->paints[s->npaint] = (cn_paint){.kind = CN_PAINT_IMAGE, .stop_first = image, .spread = sampling,
                                    .transform = s->nt++, .opacity = opacity};
  return s->npaint++;
}
static inline void ref_fill(ref_scene *s, uint32_t path, uint32_t paint, uint32_t rule) {
  s->elements[s->ne++] = (cn_element){CN_TAG_FILL, path, paint, rule};
}
static inline void ref_begin_clip(ref_scene *s, uint32_t path, uint32_t rule) {
  s->elements[s->ne++] = (cn_element){CN_TAG_BEGIN_CLIP, path, CN_NONE, rule};
}
static inline void ref_end_clip(ref_scene *s) { s->elements[s->ne++] = (cn_element){CN_TAG_END_CLIP, CN_NONE, CN_NONE, CN_NONE}; }
static inline void ref_begin_blend(ref_scene *s, uint32_t mode, float alpha, uint32_t flags) {
  s->blends[s->nblend] = (cn_blend){mode, alpha, flags, 0};
  s->elements[s->ne++] = (cn_element){CN_TAG_BEGIN_BLEND, CN_NONE, CN_NONE, s->nblend++};
}
static inline void ref_end_blend(ref_scene *s) {
  s->elements[s->ne++] = (cn_element){CN_TAG_END_BLEND, CN_NONE, CN_NONE, CN_NONE};
}

/* ------------------------------------------------------ CPU flattening (TEST ONLY) */

/* A line as Skia's scan converter holds it (ref_coverage_ss16). */
typedef struct ref_edge {
  int64_t top, bottom, x, dx; /* sub-rows top..bottom-1; x (16.16) at sub-row top, dx per sub-row */
  int sgn;                    /* +1 down, -1 up; 0: no sub-row (dropped) */
} ref_edge;

typedef struct ref_lines {
  cn_render_line *v;
  ref_edge *edges; /* per line, made by ref_render_aa for CN_AA_SS16 */
  uint32_t n, cap;
  uint32_t first[REF_CAP], count[REF_CAP]; /* per element: its lines are contiguous */
} ref_lines;

static inline void ref_lines_push(ref_lines *L, float x0, float y0, float x1, float y1, uint32_t e) {
  if (L->n == L->cap) {
    L->cap = L->cap ? L->cap * 2 : 256;
    L->v = realloc(L->v, sizeof *L->v * L->cap);
  }
  L->v[L->n++] = (cn_render_line){x0, y0, x1, y1, e};
}

static inline void ref_xf(const cn_transform *t, float x, float y, float *ox, float *oy) {
  *ox = t->a * x + t->c * y + t->e;
  *oy = t->b * x + t->d * y + t->f;
}

/* Flattens every FILL and BEGIN_CLIP path into closed outlines (32 pieces per curve). */
static inline ref_lines *ref_flatten_alloc(const cn_scene_data *d) {
  ref_lines *L = calloc(1, sizeof *L);
  for (uint32_t e = 0; e < d->element_count && e < REF_CAP; e++) {
    const cn_element *el = &d->elements[e];
    L->first[e] = L->n;
    if (el->tag != CN_TAG_FILL && el->tag != CN_TAG_BEGIN_CLIP) continue;
    const cn_path *p = &d->paths[el->path];
    const cn_transform *t = &d->transforms[p->transform];
    float sx = 0, sy = 0, cx = 0, cy = 0;
    bool open = false;
    for (uint32_t k = 0; k < p->seg_count; k++) {
      const cn_segment *g = &d->segments[p->seg_first + k];
      uint32_t kind = g->info & 3;
      const float *q = &g->x0;
      if (!open) {
        ref_xf(t, q[0], q[1], &sx, &sy);
        cx = sx, cy = sy;
        open = true;
      }
      int n = kind == CN_SEG_LINE ? 1 : 32;
      for (int i = 1; i <= n; i++) {
        float u = (float)i / n, v = 1 - u, x, y;
        if (kind == CN_SEG_LINE) x = q[2], y = q[3];
        else if (kind == CN_SEG_QUAD) {
          x = v * v * q[0] + 2 * u * v * q[2] + u * u * q[4];
          y = v * v * q[1] + 2 * u * v * q[3] + u * u * q[5];
        } else {
          x = v * v * v * q[0] + 3 * u * v * v * q[2] + 3 * u * u * v * q[4] + u * u * u * q[6];
          y = v * v * v * q[1] + 3 * u * v * v * q[3] + 3 * u * u * v * q[5] + u * u * u * q[7];
        }
        float nx, ny;
        ref_xf(t, x, y, &nx, &ny);
        ref_lines_push(L, cx, cy, nx, ny, e);
        cx = nx, cy = ny;
      }
      if (g->info & CN_SEG_SUBPATH_END) {
        if (cx != sx || cy != sy) ref_lines_push(L, cx, cy, sx, sy, e);
        open = false;
      }
    }
    if (open && (cx != sx || cy != sy)) ref_lines_push(L, cx, cy, sx, sy, e);
    L->count[e] = L->n - L->first[e];
  }
  return L;
}

static inline void ref_lines_free(ref_lines *L) {
  if (L) free(L->v), free(L->edges);
  free(L);
}

/* ------------------------------------------------------ CPU reference raster */

static inline double ref_H(double t) { return t < 0 ? t : (t < 1 ? t - 0.5 * t * t : 0.5); }

/* Exact area integral of the winding number over pixel (px, py) (left-going rays). */
static inline double ref_area(const ref_lines *L, uint32_t e, int px, int py) {
  double area = 0;
  for (uint32_t i = L->first[e]; i < L->first[e] + L->count[e]; i++) {
    const cn_render_line *l = &L->v[i];
    if (l->element != e || l->y0 == l->y1) continue;
    double sgn = l->y1 > l->y0 ? 1 : -1;
    double ax = l->y1 > l->y0 ? l->x0 : l->x1, ay = l->y1 > l->y0 ? l->y0 : l->y1;
    double bx = l->y1 > l->y0 ? l->x1 : l->x0, by = l->y1 > l->y0 ? l->y1 : l->y0;
    double yt = fmax(ay, py), yb = fmin(by, py + 1.0);
    if (yb <= yt) continue;
    double k = (bx - ax) / (by - ay);
    double ta = ax + (yt - ay) * k - px, tb = ax + (yb - ay) * k - px;
    double avg = fabs(tb - ta) > 1e-9 ? (ref_H(tb) - ref_H(ta)) / (tb - ta) : fmin(1, fmax(0, 1 - 0.5 * (ta + tb)));
    area += sgn * (yb - yt) * avg;
  }
  return area;
}

static inline double ref_coverage(const ref_lines *L, uint32_t e, uint32_t rule, int px, int py) {
  double a = ref_area(L, e, px, py);
  if (rule == CN_RULE_EVENODD) return fmin(1, fabs(a - 2 * nearbyint(0.5 * a)));
  return fmin(1, fabs(a));
}

/* 4x4 supersampled coverage (CN_AA_SS16): Skia's supersampling scan converter
 * (tiny-skia, shift 2) written out per line, without tiles. Each line becomes
 * Skia's edge: ends scaled by 256 and truncated (26.6 fixed point of
 * sub-samples), active on sub-rows top..bottom-1 (ends rounded half up), x in
 * 16.16 at the centre of sub-row top plus dx per sub-row, rounded half up to
 * a sample column from which on it adds its direction. Nonzero: w != 0,
 * even-odd: w odd; a row adds 16 per covered sample, 64 when full (63 for the
 * pixel's last row). */
static inline ref_edge ref_edge_of(const cn_render_line *l) {
  double f[4] = {l->x0 * 256.0, l->y0 * 256.0, l->x1 * 256.0, l->y1 * 256.0};
  int64_t q[4];
  for (int c = 0; c < 4; c++) q[c] = (int64_t)fmax(-2147483520.0, fmin(2147483520.0, f[c])); /* toward zero */
  ref_edge g = {.sgn = 1};
  if (q[1] > q[3]) {
    int64_t t0 = q[0], t1 = q[1];
    q[0] = q[2], q[1] = q[3], q[2] = t0, q[3] = t1;
    g.sgn = -1;
  }
  g.top = (q[1] + 32) >> 6, g.bottom = (q[3] + 32) >> 6;
  if (g.top == g.bottom) {
    g.sgn = 0;
    return g;
  }
  g.dx = ((q[2] - q[0]) * 65536) / (q[3] - q[1]); /* C division truncates toward zero, as Skia's */
  if (g.dx > INT32_MAX) g.dx = INT32_MAX;
  if (g.dx < INT32_MIN) g.dx = INT32_MIN;
  g.x = (q[0] + ((g.dx * (g.top * 64 + 32 - q[1])) >> 16)) * 1024; /* >> on negatives: arithmetic, as Skia */
  return g;
}

static inline double ref_coverage_ss16(const ref_lines *L, uint32_t e, uint32_t rule, int px, int py) {
  int alpha = 0;
  for (int j = 0; j < 4; j++) {
    int64_t row = 4 * (int64_t)py + j;
    int w[4] = {0, 0, 0, 0};
    for (uint32_t k = L->first[e]; k < L->first[e] + L->count[e]; k++) {
      const ref_edge *g = &L->edges[k];
      if (L->v[k].element != e || !g->sgn || row < g->top || row >= g->bottom) continue;
      int64_t col = (g->x + (row - g->top) * g->dx + 0x8000) >> 16;
      for (int i = 0; i < 4; i++)
        if (4 * (int64_t)px + i >= col) w[i] += g->sgn;
    }
    int n = 0;
    for (int i = 0; i < 4; i++) n += rule == CN_RULE_EVENODD ? (w[i] & 1) != 0 : w[i] != 0;
    alpha += n == 4 ? 64 - (j == 3) : 16 * n;
  }
  return alpha / 255.0;
}

static inline double ref_coverage_aa(const ref_lines *L, uint32_t e, uint32_t rule, int px, int py, uint32_t aa) {
  return aa == CN_AA_SS16 ? ref_coverage_ss16(L, e, rule, px, py) : ref_coverage(L, e, rule, px, py);
}

typedef struct ref_rgba { double r, g, b, a; } ref_rgba;

static inline ref_rgba ref_over(ref_rgba s, ref_rgba d) {
  return (ref_rgba){s.r + d.r * (1 - s.a), s.g + d.g * (1 - s.a), s.b + d.b * (1 - s.a), s.a + d.a * (1 - s.a)};
}
static inline ref_rgba ref_scale(ref_rgba c, double k) { return (ref_rgba){c.r * k, c.g * k, c.b * k, c.a * k}; }

/* The W3C separable/non-separable blend function B(cb, cs) on straight colours. */
static inline double ref_lum(const double *c) { return 0.3 * c[0] + 0.59 * c[1] + 0.11 * c[2]; }
static inline void ref_clip_color(double *c) {
  double l = ref_lum(c), n = fmin(c[0], fmin(c[1], c[2])), x = fmax(c[0], fmax(c[1], c[2]));
  for (int i = 0; i < 3; i++) {
    if (n < 0) c[i] = l + (c[i] - l) * l / (l - n);
  }
  for (int i = 0; i < 3; i++) {
    if (x > 1) c[i] = l + (c[i] - l) * (1 - l) / (x - l);
  }
}
static inline void ref_set_lum(double *c, double l) {
  double d = l - ref_lum(c);
  for (int i = 0; i < 3; i++) c[i] += d;
  ref_clip_color(c);
}
static inline double ref_sat(const double *c) { return fmax(c[0], fmax(c[1], c[2])) - fmin(c[0], fmin(c[1], c[2])); }
static inline void ref_set_sat(double *c, double s) {
  double mx = fmax(c[0], fmax(c[1], c[2])), mn = fmin(c[0], fmin(c[1], c[2]));
  for (int i = 0; i < 3; i++) c[i] = mx > mn ? (c[i] - mn) * s / (mx - mn) : 0;
}
static inline double ref_sep(uint32_t m, double b, double s) {
  switch (m) {
    case CN_BLEND_MULTIPLY: return b * s;
    case CN_BLEND_SCREEN: return b + s - b * s;
    case CN_BLEND_OVERLAY: return ref_sep(CN_BLEND_HARD_LIGHT, s, b);
    case CN_BLEND_DARKEN: return fmin(b, s);
    case CN_BLEND_LIGHTEN: return fmax(b, s);
    case CN_BLEND_COLOR_DODGE: return b == 0 ? 0 : s >= 1 ? 1 : fmin(1, b / (1 - s));
    case CN_BLEND_COLOR_BURN: return b >= 1 ? 1 : s <= 0 ? 0 : 1 - fmin(1, (1 - b) / s);
    case CN_BLEND_HARD_LIGHT: return s <= 0.5 ? b * 2 * s : ref_sep(CN_BLEND_SCREEN, b, 2 * s - 1);
    case CN_BLEND_SOFT_LIGHT: {
      if (s <= 0.5) return b - (1 - 2 * s) * b * (1 - b);
      double d = b <= 0.25 ? ((16 * b - 12) * b + 4) * b : sqrt(b);
      return b + (2 * s - 1) * (d - b);
    }
    case CN_BLEND_DIFFERENCE: return fabs(b - s);
    case CN_BLEND_EXCLUSION: return b + s - 2 * b * s;
    default: return s;
  }
}
static inline void ref_blend_fn(uint32_t m, const double *b, const double *s, double *out) {
  double t[3];
  switch (m) {
    case CN_BLEND_HUE:
      memcpy(t, s, sizeof t);
      ref_set_sat(t, ref_sat(b));
      ref_set_lum(t, ref_lum(b));
      break;
    case CN_BLEND_SATURATION:
      memcpy(t, b, sizeof t);
      ref_set_sat(t, ref_sat(s));
      ref_set_lum(t, ref_lum(b));
      break;
    case CN_BLEND_COLOR:
      memcpy(t, s, sizeof t);
      ref_set_lum(t, ref_lum(b));
      break;
    case CN_BLEND_LUMINOSITY:
      memcpy(t, b, sizeof t);
      ref_set_lum(t, ref_lum(s));
      break;
    default:
      for (int i = 0; i < 3; i++) t[i] = ref_sep(m, b[i], s[i]);
  }
  memcpy(out, t, sizeof t);
}
/* W3C: co = cs (1 - ab) + cb (1 - as) + as ab B(Cb, Cs). */
static inline ref_rgba ref_blend(uint32_t m, ref_rgba d, ref_rgba s) {
  if (m == CN_BLEND_NORMAL) return ref_over(s, d);
  double cb[3] = {0}, cs[3] = {0}, bl[3];
  if (d.a > 0) cb[0] = d.r / d.a, cb[1] = d.g / d.a, cb[2] = d.b / d.a;
  if (s.a > 0) cs[0] = s.r / s.a, cs[1] = s.g / s.a, cs[2] = s.b / s.a;
  ref_blend_fn(m, cb, cs, bl);
  double *sp = &s.r, *dp = &d.r;
  ref_rgba o;
  double *op = &o.r;
  for (int i = 0; i < 3; i++) op[i] = sp[i] * (1 - d.a) + dp[i] * (1 - s.a) + s.a * d.a * bl[i];
  o.a = s.a + d.a - s.a * d.a;
  return o;
}

static inline double ref_clamp01(double x) { return x < 0 ? 0 : x > 1 ? 1 : x; }

static inline ref_rgba ref_texel(const cn_scene_data *d, const cn_image *im, long x, long y) {
  x = x < 0 ? 0 : x >= (long)im->width ? (long)im->width - 1 : x;
  y = y < 0 ? 0 : y >= (long)im->height ? (long)im->height - 1 : y;
  uint32_t v = d->image_pixels[im->offset + (size_t)y * im->width + (size_t)x];
  return (ref_rgba){(v & 255) / 255.0, ((v >> 8) & 255) / 255.0, ((v >> 16) & 255) / 255.0, (v >> 24) / 255.0};
}

/* An image paint at image-space point (qx, qy). */
static inline ref_rgba ref_image_sample(const cn_scene_data *d, const cn_paint *p, double qx, double qy) {
  const cn_image *im = &d->images[p->stop_first];
  ref_rgba c;
  if (p->spread == CN_SAMPLE_NEAREST) {
    c = ref_texel(d, im, (long)floor(qx), (long)floor(qy));
  } else {
    double ux = qx - 0.5, uy = qy - 0.5, fx = floor(ux), fy = floor(uy), tx = ux - fx, ty = uy - fy;
    long x0 = (long)fx, y0 = (long)fy;
    ref_rgba a = ref_texel(d, im, x0, y0), b = ref_texel(d, im, x0 + 1, y0);
    ref_rgba e = ref_texel(d, im, x0, y0 + 1), f = ref_texel(d, im, x0 + 1, y0 + 1);
    double *pa = &a.r, *pb = &b.r, *pe = &e.r, *pf = &f.r, *pc = &c.r;
    for (int i = 0; i < 4; i++) {
      double top = pa[i] + (pb[i] - pa[i]) * tx, bot = pe[i] + (pf[i] - pe[i]) * tx;
      pc[i] = top + (bot - top) * ty;
    }
  }
  return ref_scale(c, ref_clamp01(p->opacity));
}

/* Premultiplied colour of paint at device point (x, y). */
static inline ref_rgba ref_paint(const cn_scene_data *d, uint32_t pi, double x, double y) {
  const cn_paint *p = &d->paints[pi];
  if (p->kind == CN_PAINT_SOLID) {
    double a = ref_clamp01(p->a);
    return (ref_rgba){ref_clamp01(p->r) * a, ref_clamp01(p->g) * a, ref_clamp01(p->b) * a, a};
  }
  const cn_transform *t = &d->transforms[p->transform];
  double det = (double)t->a * t->d - (double)t->b * t->c;
  double vx = x - t->e, vy = y - t->f;
  double qx = (t->d * vx - t->c * vy) / det, qy = (-t->b * vx + t->a * vy) / det;
  if (p->kind == CN_PAINT_IMAGE) return ref_image_sample(d, p, qx, qy);
  double u;
  if (p->kind == CN_PAINT_LINEAR) {
    double dx = p->g2 - p->g0, dy = p->g3 - p->g1, dd = dx * dx + dy * dy;
    u = dd > 0 ? ((qx - p->g0) * dx + (qy - p->g1) * dy) / dd : 1;
  } else {
    double cdx = p->g0 - p->g3, cdy = p->g1 - p->g4, pdx = qx - p->g3, pdy = qy - p->g4;
    double r = p->g2, fr = p->g5, dr = r - fr;
    double A = cdx * cdx + cdy * cdy - dr * dr, B = pdx * cdx + pdy * cdy + fr * dr, C = pdx * pdx + pdy * pdy - fr * fr;
    if (cdx * cdx + cdy * cdy + dr * dr <= 1e-12 * fmax(1, r * r)) {
      u = pdx * pdx + pdy * pdy > r * r ? 1 : 0;
    } else if (fabs(A) < 1e-9) {
      u = C / (2 * B);
    } else {
      double disc = B * B - A * C;
      if (disc < 0) return (ref_rgba){0, 0, 0, 0};
      double t1 = (B + sqrt(disc)) / A, t2 = (B - sqrt(disc)) / A;
      double hi = fmax(t1, t2), lo = fmin(t1, t2);
      if (fr + hi * dr >= 0) u = hi;
      else if (fr + lo * dr >= 0) u = lo;
      else return (ref_rgba){0, 0, 0, 0};
    }
  }
  if (p->spread == CN_SPREAD_REPEAT) u = u - floor(u);
  else if (p->spread == CN_SPREAD_REFLECT) {
    double m = u - 2 * floor(u / 2);
    u = m > 1 ? 2 - m : m;
  } else u = ref_clamp01(u);
  const cn_stop *st = &d->stops[p->stop_first];
  double c[4] = {st[0].r, st[0].g, st[0].b, st[0].a};
  if (u > st[0].offset) {
    for (uint32_t i = 1; i < p->stop_count; i++) {
      if (u < st[i].offset) {
        double f = st[i].offset > st[i - 1].offset ? (u - st[i - 1].offset) / (st[i].offset - st[i - 1].offset) : 1;
        c[0] = st[i - 1].r + (st[i].r - st[i - 1].r) * f;
        c[1] = st[i - 1].g + (st[i].g - st[i - 1].g) * f;
        c[2] = st[i - 1].b + (st[i].b - st[i - 1].b) * f;
        c[3] = st[i - 1].a + (st[i].a - st[i - 1].a) * f;
        break;
      }
      c[0] = st[i].r, c[1] = st[i].g, c[2] = st[i].b, c[3] = st[i].a;
    }
  }
  double a = ref_clamp01(c[3]) * ref_clamp01(p->opacity);
  return (ref_rgba){ref_clamp01(c[0]) * a, ref_clamp01(c[1]) * a, ref_clamp01(c[2]) * a, a};
}

/* Renders one pixel of the scene (premultiplied). */
static inline ref_rgba ref_pixel(const cn_scene_data *d, const ref_lines *L, int px, int py, uint32_t aa) {
  ref_rgba stack[256], cur = {0, 0, 0, 0};
  uint32_t clip_of[256];
  int depth = 0;
  uint32_t open[256];
  int nopen = 0;
  for (uint32_t e = 0; e < d->element_count; e++) {
    const cn_element *el = &d->elements[e];
    if (el->tag == CN_TAG_FILL || el->tag == CN_TAG_STROKE) {
      double c = ref_coverage_aa(L, e, el->tag == CN_TAG_FILL ? el->aux : CN_RULE_NONZERO, px, py, aa);
      cur = ref_over(ref_scale(ref_paint(d, el->paint, px + 0.5, py + 0.5), c), cur);
    } else if (el->tag == CN_TAG_BEGIN_CLIP) {
      clip_of[nopen] = e;
      open[nopen++] = e;
      stack[depth++] = cur;
      cur = (ref_rgba){0, 0, 0, 0};
    } else if (el->tag == CN_TAG_END_CLIP) {
      uint32_t b = open[--nopen];
      (void)clip_of;
      double m = ref_coverage_aa(L, b, d->elements[b].aux, px, py, aa);
      cur = ref_over(ref_scale(cur, m), stack[--depth]);
    } else if (el->tag == CN_TAG_BEGIN_BLEND) {
      open[nopen++] = e;
      stack[depth++] = cur;
      cur = (ref_rgba){0, 0, 0, 0};
    } else if (el->tag == CN_TAG_END_BLEND) {
      uint32_t b = open[--nopen];
      const cn_blend *bl = &d->blends[d->elements[b].aux];
      ref_rgba saved = stack[--depth];
      if (bl->flags & (CN_BLEND_MASK_LUMINANCE | CN_BLEND_MASK_ALPHA)) {
        double m = bl->flags & CN_BLEND_MASK_LUMINANCE ? 0.2125 * cur.r + 0.7154 * cur.g + 0.0721 * cur.b : cur.a;
        m = ref_clamp01(m * bl->alpha);
        cur = saved;
        stack[depth++] = (ref_rgba){m, m, m, m};
      } else {
        ref_rgba src = ref_scale(cur, ref_clamp01(bl->alpha));
        if (bl->flags & CN_BLEND_MASKED) src = ref_scale(src, stack[--depth].a);
        cur = ref_blend(bl->mode, saved, src);
      }
    }
  }
  return cur;
}

/* Straight RGBA8 of a premultiplied colour, as the renderer writes it. */
static inline void ref_pack(ref_rgba c, uint8_t *o) {
  double a = ref_clamp01(c.a);
  double rgb[3] = {c.r, c.g, c.b};
  for (int i = 0; i < 3; i++) o[i] = (uint8_t)lround((a > 0 ? ref_clamp01(rgb[i] / a) : 0) * 255);
  o[3] = (uint8_t)lround(a * 255);
}

/* The scene with coverage aa (CN_AA_*). */
static inline void ref_render_aa(const cn_scene_data *d, ref_lines *L, int w, int h, uint32_t aa, uint8_t *rgba) {
  if (aa == CN_AA_SS16 && !L->edges) {
    L->edges = malloc(sizeof *L->edges * (L->n ? L->n : 1));
    for (uint32_t k = 0; k < L->n; k++) L->edges[k] = ref_edge_of(&L->v[k]);
  }
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) ref_pack(ref_pixel(d, L, x, y, aa), rgba + 4 * ((size_t)y * w + x));
}

static inline void ref_render(const cn_scene_data *d, ref_lines *L, int w, int h, uint8_t *rgba) {
  ref_render_aa(d, L, w, h, CN_AA_AREA, rgba);
}

#endif
