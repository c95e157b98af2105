/* flatten_util.h: helpers for the flatten tests (tests/test_flatten*.c): a tiny
 * scene builder, winding numbers of line sets, distances to curves, and the
 * GPU-vs-CPU comparison. Header-only (static functions) so each test binary
 * stays one file plus this. */
#ifndef CN_FLATTEN_UTIL_H
#define CN_FLATTEN_UTIL_H

#include <canopy/cn_flatten.h>
#include "test.h"

#include <math.h>

#define FU_MAX 20480

typedef struct fu_scene {
  cn_element elements[256];
  cn_path paths[256];
  cn_segment segments[FU_MAX];
  cn_transform transforms[64];
  cn_stroke strokes[256];
  float dashes[256];
  uint32_t ne, np, ns, nt, nst, nd;
  /* path under construction */
  float cx, cy, sx, sy;
  uint32_t sub_first; /* first segment of the open subpath */
} fu_scene;

static inline void fu_init(fu_scene *s) {
  memset(s, 0, sizeof *s);
  s->transforms[0] = (cn_transform){1, 0, 0, 1, 0, 0};
  s->nt = 1;
}

static inline uint32_t fu_transform(fu_scene *s, float a, float b, float c, float d, float e, float f) {
  s->transforms[s->nt] = (cn_transform){a, b, c, d, e, f};
  return s->nt++;
}

/* Starts a path with the given transform. */
static inline void fu_path(fu_scene *s, uint32_t transform) {
  s->paths[s->np] = (cn_path){s->ns, 0, transform, 0};
  s->np++;
}
static inline void fu_move(fu_scene *s, float x, float y) {
  s->cx = s->sx = x;
  s->cy = s->sy = y;
  s->sub_first = s->ns;
}
static inline void fu_seg(fu_scene *s, uint32_t kind, float x1, float y1, float x2, float y2, float x3, float y3) {
  cn_segment *g = &s->segments[s->ns++];
  memset(g, 0, sizeof *g);
  g->x0 = s->cx;
  g->y0 = s->cy;
  g->x1 = x1;
  g->y1 = y1;
  g->x2 = x2;
  g->y2 = y2;
  g->x3 = x3;
  g->y3 = y3;
  g->info = kind | ((s->np - 1) << CN_SEG_PATH_SHIFT);
  s->paths[s->np - 1].seg_count++;
  s->cx = kind == CN_SEG_LINE ? x1 : kind == CN_SEG_QUAD ? x2 : x3;
  s->cy = kind == CN_SEG_LINE ? y1 : kind == CN_SEG_QUAD ? y2 : y3;
}
static inline void fu_line(fu_scene *s, float x, float y) { fu_seg(s, CN_SEG_LINE, x, y, 0, 0, 0, 0); }
static inline void fu_quad(fu_scene *s, float x1, float y1, float x, float y) { fu_seg(s, CN_SEG_QUAD, x1, y1, x, y, 0, 0); }
static inline void fu_cubic(fu_scene *s, float x1, float y1, float x2, float y2, float x, float y) {
  fu_seg(s, CN_SEG_CUBIC, x1, y1, x2, y2, x, y);
}
/* Ends the subpath; closed: adds the closing line (if needed) and marks every segment. */
static inline void fu_end(fu_scene *s, bool closed) {
  if (s->ns == s->sub_first) return;
  if (closed && (s->cx != s->sx || s->cy != s->sy)) fu_line(s, s->sx, s->sy);
  if (closed)
    for (uint32_t i = s->sub_first; i < s->ns; i++) s->segments[i].info |= CN_SEG_SUBPATH_CLOSED;
  s->segments[s->ns - 1].info |= CN_SEG_SUBPATH_END;
}

static inline uint32_t fu_fill(fu_scene *s, uint32_t rule) {
  s->elements[s->ne] = (cn_element){CN_TAG_FILL, s->np - 1, 0, rule};
  return s->ne++;
}
static inline uint32_t fu_stroke(fu_scene *s, float width, uint32_t join, uint32_t cap, float miter_limit,
                                 const float *dashes, uint32_t ndash, float offset) {
  cn_stroke *st = &s->strokes[s->nst];
  *st = (cn_stroke){width, miter_limit, join, cap, s->nd, ndash, offset, 0};
  for (uint32_t i = 0; i < ndash; i++) s->dashes[s->nd++] = dashes[i];
  s->elements[s->ne] = (cn_element){CN_TAG_STROKE, s->np - 1, 0, s->nst++};
  return s->ne++;
}

/* Every element paints with paint 0, an opaque black (cn_scene_check wants it). */
static const cn_paint fu_black = {.kind = CN_PAINT_SOLID, .a = 1};

static inline cn_scene_data fu_data(const fu_scene *s) {
  cn_scene_data d = {{0, 0, 1024, 1024}, s->elements, s->ne, s->paths, s->np, s->segments, s->ns,
                     s->transforms, s->nt, &fu_black, 1, NULL, 0, s->strokes, s->nst, s->dashes, s->nd, NULL, 0, NULL, 0, NULL, 0};
  return d;
}

/* Nonzero winding number of the lines of element e around (x, y). */
static inline int fu_winding(const cn_line *l, uint32_t n, uint32_t e, double x, double y) {
  int w = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (l[i].element != e) continue;
    double x0 = l[i].x0, y0 = l[i].y0, x1 = l[i].x1, y1 = l[i].y1;
    if (y0 == y1) continue;
    int dir = y1 > y0 ? 1 : -1;
    if (y0 > y1) {
      double t = x0;
      x0 = x1;
      x1 = t;
      t = y0;
      y0 = y1;
      y1 = t;
    }
    if (y < y0 || y >= y1) continue;
    double xi = x0 + (x1 - x0) * (y - y0) / (y1 - y0);
    if (xi > x) w += dir;
  }
  return w;
}

static inline double fu_seg_dist(double px, double py, double ax, double ay, double bx, double by) {
  double dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy;
  double t = l2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / l2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  double ex = ax + t * dx - px, ey = ay + t * dy - py;
  return sqrt(ex * ex + ey * ey);
}

/* Distance from (x, y) to the nearest line of element e. */
static inline double fu_line_dist(const cn_line *l, uint32_t n, uint32_t e, double x, double y) {
  double best = INFINITY;
  for (uint32_t i = 0; i < n; i++) {
    if (l[i].element != e) continue;
    double d = fu_seg_dist(x, y, l[i].x0, l[i].y0, l[i].x1, l[i].y1);
    if (d < best) best = d;
  }
  return best;
}

/* Point of a segment at t, in double. */
static inline void fu_eval(const cn_segment *g, double t, double *x, double *y) {
  double mt = 1 - t;
  switch (g->info & 3) {
    case CN_SEG_LINE:
      *x = mt * g->x0 + t * g->x1;
      *y = mt * g->y0 + t * g->y1;
      break;
    case CN_SEG_QUAD:
      *x = mt * mt * g->x0 + 2 * mt * t * g->x1 + t * t * g->x2;
      *y = mt * mt * g->y0 + 2 * mt * t * g->y1 + t * t * g->y2;
      break;
    default:
      *x = mt * mt * mt * g->x0 + 3 * mt * mt * t * g->x1 + 3 * mt * t * t * g->x2 + t * t * t * g->x3;
      *y = mt * mt * mt * g->y0 + 3 * mt * mt * t * g->y1 + 3 * mt * t * t * g->y2 + t * t * t * g->y3;
  }
}

/* Distance from (x, y) (in the path's local space) to the exact centre line of path p, by fine sampling. */
static inline double fu_curve_dist(const fu_scene *s, uint32_t p, double x, double y) {
  const cn_path *pa = &s->paths[p];
  double best = INFINITY;
  for (uint32_t k = 0; k < pa->seg_count; k++) {
    const cn_segment *g = &s->segments[pa->seg_first + k];
    int steps = (g->info & 3) == CN_SEG_LINE ? 1 : 400;
    double px, py;
    fu_eval(g, 0, &px, &py);
    for (int i = 1; i <= steps; i++) {
      double qx, qy;
      fu_eval(g, (double)i / steps, &qx, &qy);
      double d = fu_seg_dist(x, y, px, py, qx, qy);
      if (d < best) best = d;
      px = qx;
      py = qy;
    }
  }
  return best;
}

/* Every element's lines form closed chains: each end point is as often a start point. */
static inline bool fu_closed(const cn_line *l, uint32_t n) {
  /* O(n^2) but n is small in tests; counts matching starts minus ends per point */
  for (uint32_t i = 0; i < n; i++) {
    int bal = 0;
    for (uint32_t j = 0; j < n; j++) {
      if (l[j].element != l[i].element) continue;
      if (l[j].x0 == l[i].x1 && l[j].y0 == l[i].y1) bal++;
      if (l[j].x1 == l[i].x1 && l[j].y1 == l[i].y1) bal--;
    }
    if (bal != 0) {
      fprintf(stderr, "  chain open at (%.9g, %.9g) of element %u (balance %d)\n", l[i].x1, l[i].y1, l[i].element,
              bal);
      return false;
    }
  }
  return true;
}

/* GPU and CPU agree: same number of lines per element, and the same coverage
 * (nonzero) at sample points farther than slack from either outline. */
static inline void fu_compare(const cn_line *g, uint32_t ng, const cn_line *c, uint32_t nc, uint32_t elements,
                              const float box[4], double slack, int samples) {
  for (uint32_t e = 0; e < elements; e++) {
    uint32_t cg = 0, cc = 0;
    for (uint32_t i = 0; i < ng; i++) cg += g[i].element == e;
    for (uint32_t i = 0; i < nc; i++) cc += c[i].element == e;
    if (cg != cc) fprintf(stderr, "  note: element %u: GPU %u lines, CPU %u lines\n", e, cg, cc);
    int bad = 0;
    for (int k = 0; k < samples; k++) {
      double x = box[0] + (box[2] - box[0]) * (double)test_rand_below(1000000) / 1e6;
      double y = box[1] + (box[3] - box[1]) * (double)test_rand_below(1000000) / 1e6;
      bool ig = fu_winding(g, ng, e, x, y) != 0, ic = fu_winding(c, nc, e, x, y) != 0;
      if (ig == ic) continue;
      double d = fmin(fu_line_dist(g, ng, e, x, y), fu_line_dist(c, nc, e, x, y));
      if (d > slack && bad++ < 3)
        fprintf(stderr, "  element %u at (%g, %g): GPU %s, CPU %s, %g from the outlines\n", e, x, y,
                ig ? "in" : "out", ic ? "in" : "out", d);
    }
    CHECK(bad == 0);
  }
}

#endif
