/* demo.c: a scene built in code (`canopy-view --demo`): shapes in nested clip
 * groups and a blend group, filled and stroked, with solid and gradient
 * paints. It needs no file or loader, so the viewer and its overlays can be
 * tried (and tested) on their own. 800 x 600 device pixels.
 */
#include "vw.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define VW_DEMO_MAX 64

typedef struct vw__demo {
  cn_element el[VW_DEMO_MAX];
  cn_path paths[VW_DEMO_MAX];
  cn_segment segs[VW_DEMO_MAX * 8];
  cn_transform xf[4];
  cn_paint paints[VW_DEMO_MAX];
  cn_stop stops[8];
  cn_stroke strokes[4];
  cn_blend blends[2];
  uint32_t ne, np, ns, npaint;
} vw__demo;

static void vw__seg(vw__demo *d, uint32_t kind, const float *pts, uint32_t flags) {
  cn_segment s;
  memset(&s, 0, sizeof s);
  uint32_t n = kind == CN_SEG_CUBIC ? 8 : kind == CN_SEG_QUAD ? 6 : 4;
  memcpy(&s.x0, pts, n * sizeof(float));
  s.info = kind | flags | d->np << CN_SEG_PATH_SHIFT;
  d->segs[d->ns++] = s;
}

/* A closed rectangle path; returns its index. */
static uint32_t vw__rect(vw__demo *d, float x0, float y0, float x1, float y1, uint32_t xf) {
  uint32_t first = d->ns;
  const float c[5][2] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}, {x0, y0}};
  for (int i = 0; i < 4; i++) {
    float p[4] = {c[i][0], c[i][1], c[i + 1][0], c[i + 1][1]};
    vw__seg(d, CN_SEG_LINE, p, CN_SEG_SUBPATH_CLOSED | (i == 3 ? CN_SEG_SUBPATH_END : 0));
  }
  d->paths[d->np] = (cn_path){first, 4, xf, 0};
  return d->np++;
}

/* A closed circle of four cubics. */
static uint32_t vw__circle(vw__demo *d, float cx, float cy, float r, uint32_t xf) {
  uint32_t first = d->ns;
  const float k = 0.5522848f * r;
  const float q[4][8] = {{cx + r, cy, cx + r, cy + k, cx + k, cy + r, cx, cy + r},
                         {cx, cy + r, cx - k, cy + r, cx - r, cy + k, cx - r, cy},
                         {cx - r, cy, cx - r, cy - k, cx - k, cy - r, cx, cy - r},
                         {cx, cy - r, cx + k, cy - r, cx + r, cy - k, cx + r, cy}};
  for (int i = 0; i < 4; i++) vw__seg(d, CN_SEG_CUBIC, q[i], CN_SEG_SUBPATH_CLOSED | (i == 3 ? CN_SEG_SUBPATH_END : 0));
  d->paths[d->np] = (cn_path){first, 4, xf, 0};
  return d->np++;
}

static uint32_t vw__solid(vw__demo *d, float r, float g, float b, float a) {
  cn_paint p;
  memset(&p, 0, sizeof p);
  p.kind = CN_PAINT_SOLID;
  p.r = r, p.g = g, p.b = b, p.a = a;
  p.transform = 0;
  p.stop_first = CN_NONE;
  p.opacity = 1.0f;
  d->paints[d->npaint] = p;
  return d->npaint++;
}

static void vw__el(vw__demo *d, uint32_t tag, uint32_t path, uint32_t paint, uint32_t aux) {
  d->el[d->ne++] = (cn_element){tag, path, paint, aux};
}

bool vw_demo_scene(cn_scene_data *out, void **owner) {
  vw__demo *d = calloc(1, sizeof *d);
  if (!d) return false;
  d->xf[0] = (cn_transform){1, 0, 0, 1, 0, 0};
  const float rot = 0.35f; /* a rotated square inside the clips */
  d->xf[1] = (cn_transform){cosf(rot), sinf(rot), -sinf(rot), cosf(rot), 470, 250};
  /* background */
  vw__el(d, CN_TAG_FILL, vw__rect(d, 0, 0, 800, 600, 0), vw__solid(d, 0.96f, 0.95f, 0.90f, 1), CN_RULE_NONZERO);
  /* a linear gradient panel */
  cn_paint g;
  memset(&g, 0, sizeof g);
  g.kind = CN_PAINT_LINEAR;
  g.stop_first = 0;
  g.stop_count = 2;
  g.spread = CN_SPREAD_PAD;
  g.g0 = 40, g.g1 = 40, g.g2 = 360, g.g3 = 260;
  g.transform = 0;
  g.opacity = 1.0f;
  d->stops[0] = (cn_stop){0.0f, 0.20f, 0.45f, 0.85f, 1.0f};
  d->stops[1] = (cn_stop){1.0f, 0.55f, 0.85f, 0.95f, 1.0f};
  d->paints[d->npaint] = g;
  vw__el(d, CN_TAG_FILL, vw__rect(d, 40, 40, 360, 260, 0), d->npaint++, CN_RULE_NONZERO);
  /* nested clips: a circle clip holding a rectangle clip holding shapes */
  vw__el(d, CN_TAG_BEGIN_CLIP, vw__circle(d, 520, 260, 190, 0), CN_NONE, CN_RULE_NONZERO);
  vw__el(d, CN_TAG_FILL, vw__rect(d, 300, 60, 760, 480, 0), vw__solid(d, 0.98f, 0.80f, 0.30f, 1), CN_RULE_NONZERO);
  vw__el(d, CN_TAG_BEGIN_CLIP, vw__rect(d, 400, 120, 700, 330, 0), CN_NONE, CN_RULE_NONZERO);
  vw__el(d, CN_TAG_FILL, vw__rect(d, -90, -90, 90, 90, 1), vw__solid(d, 0.85f, 0.25f, 0.20f, 1), CN_RULE_NONZERO);
  vw__el(d, CN_TAG_FILL, vw__circle(d, 640, 300, 80, 0), vw__solid(d, 0.25f, 0.55f, 0.30f, 1), CN_RULE_NONZERO);
  vw__el(d, CN_TAG_END_CLIP, CN_NONE, CN_NONE, CN_NONE);
  d->strokes[0] = (cn_stroke){8.0f, 4.0f, CN_JOIN_ROUND, CN_CAP_ROUND, CN_NONE, 0, 0.0f, 0};
  vw__el(d, CN_TAG_STROKE, vw__circle(d, 520, 260, 120, 0), vw__solid(d, 0.15f, 0.15f, 0.35f, 1), 0);
  vw__el(d, CN_TAG_END_CLIP, CN_NONE, CN_NONE, CN_NONE);
  /* a half-transparent multiply group of two overlapping circles */
  d->blends[0] = (cn_blend){CN_BLEND_MULTIPLY, 0.75f, CN_BLEND_ISOLATED, 0};
  vw__el(d, CN_TAG_BEGIN_BLEND, CN_NONE, CN_NONE, 0);
  vw__el(d, CN_TAG_FILL, vw__circle(d, 170, 430, 110, 0), vw__solid(d, 0.10f, 0.70f, 0.80f, 1), CN_RULE_NONZERO);
  vw__el(d, CN_TAG_FILL, vw__circle(d, 290, 450, 100, 0), vw__solid(d, 0.90f, 0.30f, 0.60f, 1), CN_RULE_NONZERO);
  vw__el(d, CN_TAG_END_BLEND, CN_NONE, CN_NONE, CN_NONE);
  /* a stroked frame on top */
  d->strokes[1] = (cn_stroke){4.0f, 4.0f, CN_JOIN_MITER, CN_CAP_BUTT, CN_NONE, 0, 0.0f, 0};
  vw__el(d, CN_TAG_STROKE, vw__rect(d, 20, 20, 780, 580, 0), vw__solid(d, 0.2f, 0.2f, 0.2f, 1), 1);

  memset(out, 0, sizeof *out);
  out->viewport[2] = 800;
  out->viewport[3] = 600;
  out->elements = d->el, out->element_count = d->ne;
  out->paths = d->paths, out->path_count = d->np;
  out->segments = d->segs, out->segment_count = d->ns;
  out->transforms = d->xf, out->transform_count = 2;
  out->paints = d->paints, out->paint_count = d->npaint;
  out->stops = d->stops, out->stop_count = 2;
  out->strokes = d->strokes, out->stroke_count = 2;
  out->blends = d->blends, out->blend_count = 1;
  *owner = d;
  return true;
}
