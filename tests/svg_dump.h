/* svg_dump.h: test helpers: load an SVG string and print the encoded scene
 * as compact text, so tests compare whole encodings exactly.
 *
 * Elements: "FILL(p0,k0,nz)" "STROKE(p1,k0,s0)" "CLIP(p2,eo)" "/CLIP"
 *           "BLEND(multiply,0.5,I)" "MASK(lum)" "MASKED(normal,1)" "/BLEND"
 * Paths:    "M10,20 L40,20 Q.. C.. Z" from the segments (local space); a
 *           subpath whose last point is its start and that is closed ends in Z.
 * Transforms: "[a b c d e f]". Paints: "solid(r,g,b,a)", "linear(...)". */
#ifndef CN_SVG_DUMP_H
#define CN_SVG_DUMP_H

#include "test.h"

#include <stdarg.h>

typedef struct dump_buf {
  char s[65536];
  size_t n;
} dump_buf;

static void dump_put(dump_buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(b->s + b->n, sizeof b->s - b->n, fmt, ap);
  va_end(ap);
  if (k > 0) b->n += (size_t)k < sizeof b->s - b->n ? (size_t)k : sizeof b->s - b->n - 1;
}

static const char *dump_blend_name(uint32_t m) {
  static const char *const n[] = {"normal", "multiply", "screen", "overlay", "darken", "lighten",
                                  "color-dodge", "color-burn", "hard-light", "soft-light", "difference",
                                  "exclusion", "hue", "saturation", "color", "luminosity"};
  return m < 16 ? n[m] : "?";
}

/* The element stream, space-separated. */
static const char *dump_elements(const cn_scene_data *d) {
  static dump_buf b;
  b.n = 0;
  b.s[0] = 0;
  for (uint32_t i = 0; i < d->element_count; i++) {
    const cn_element *e = &d->elements[i];
    if (i) dump_put(&b, " ");
    switch (e->tag) {
      case CN_TAG_FILL: dump_put(&b, "FILL(p%u,k%u,%s)", e->path, e->paint, e->aux ? "eo" : "nz"); break;
      case CN_TAG_STROKE: dump_put(&b, "STROKE(p%u,k%u,s%u)", e->path, e->paint, e->aux); break;
      case CN_TAG_BEGIN_CLIP: dump_put(&b, "CLIP(p%u,%s)", e->path, e->aux ? "eo" : "nz"); break;
      case CN_TAG_END_CLIP: dump_put(&b, "/CLIP"); break;
      case CN_TAG_BEGIN_BLEND: {
        const cn_blend *bl = &d->blends[e->aux];
        if (bl->flags & CN_BLEND_MASK_LUMINANCE) dump_put(&b, "MASK(lum)");
        else if (bl->flags & CN_BLEND_MASK_ALPHA) dump_put(&b, "MASK(alpha)");
        else
          dump_put(&b, "%s(%s,%g%s)", bl->flags & CN_BLEND_MASKED ? "MASKED" : "BLEND", dump_blend_name(bl->mode),
                   bl->alpha, bl->flags & CN_BLEND_ISOLATED ? "" : ",nonisolated");
        break;
      }
      case CN_TAG_END_BLEND: dump_put(&b, "/BLEND"); break;
      default: dump_put(&b, "?%u", e->tag);
    }
  }
  return b.s;
}

/* Path p as path data in its local space. */
static const char *dump_path(const cn_scene_data *d, uint32_t p) {
  static dump_buf b;
  b.n = 0;
  b.s[0] = 0;
  if (p >= d->path_count) return "(no path)";
  const cn_path *path = &d->paths[p];
  bool start = true;
  for (uint32_t i = 0; i < path->seg_count; i++) {
    const cn_segment *s = &d->segments[path->seg_first + i];
    uint32_t kind = s->info & 3u;
    if ((s->info >> CN_SEG_PATH_SHIFT) != p) dump_put(&b, "!path ");
    if (start) dump_put(&b, "%sM%g,%g", b.n ? " " : "", s->x0, s->y0);
    start = false;
    if (kind == CN_SEG_LINE) dump_put(&b, " L%g,%g", s->x1, s->y1);
    else if (kind == CN_SEG_QUAD) dump_put(&b, " Q%g,%g %g,%g", s->x1, s->y1, s->x2, s->y2);
    else dump_put(&b, " C%g,%g %g,%g %g,%g", s->x1, s->y1, s->x2, s->y2, s->x3, s->y3);
    if (s->info & CN_SEG_SUBPATH_END) {
      if (s->info & CN_SEG_SUBPATH_CLOSED) dump_put(&b, " Z");
      start = true;
    }
  }
  return b.s;
}

static const char *dump_transform(const cn_scene_data *d, uint32_t t) {
  static dump_buf b;
  b.n = 0;
  if (t >= d->transform_count) return "(no transform)";
  const cn_transform *x = &d->transforms[t];
  dump_put(&b, "[%g %g %g %g %g %g]", x->a, x->b, x->c, x->d, x->e, x->f);
  return b.s;
}

static const char *dump_paint(const cn_scene_data *d, uint32_t k) {
  static dump_buf b;
  b.n = 0;
  if (k >= d->paint_count) return "(no paint)";
  const cn_paint *p = &d->paints[k];
  if (p->kind == CN_PAINT_SOLID) {
    dump_put(&b, "solid(%g,%g,%g,%g)", p->r, p->g, p->b, p->a);
    return b.s;
  }
  static const char *const spread[] = {"pad", "reflect", "repeat"};
  if (p->kind == CN_PAINT_LINEAR) dump_put(&b, "linear(%g,%g,%g,%g", p->g0, p->g1, p->g2, p->g3);
  else dump_put(&b, "radial(%g,%g,%g,%g,%g,%g", p->g0, p->g1, p->g2, p->g3, p->g4, p->g5);
  dump_put(&b, ",%s,op=%g,xf=", p->spread < 3 ? spread[p->spread] : "?", p->opacity);
  const cn_transform *x = &d->transforms[p->transform];
  dump_put(&b, "[%g %g %g %g %g %g]", x->a, x->b, x->c, x->d, x->e, x->f);
  for (uint32_t i = 0; i < p->stop_count; i++) {
    const cn_stop *s = &d->stops[p->stop_first + i];
    dump_put(&b, " %g:%g,%g,%g,%g", s->offset, s->r, s->g, s->b, s->a);
  }
  dump_put(&b, ")");
  return b.s;
}

#define CHECK_STR(got, want)                                                                                  \
  do {                                                                                                        \
    const char *g_ = (got), *w_ = (want);                                                                     \
    if (strcmp(g_, w_) != 0) {                                                                                \
      fprintf(stderr, "  %s:%d: %s\n    got:  %s\n    want: %s\n", __FILE__, __LINE__, #got, g_, w_);       \
      test_failures++;                                                                                        \
    }                                                                                                         \
  } while (0)

#endif
