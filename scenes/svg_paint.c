/* svg_paint.c: paints of fills and strokes: colours, linear and radial
 * gradients (gradientUnits, gradientTransform, spreadMethod, stops, href
 * inheritance with cycle detection), fallbacks; and stroke styles (width,
 * joins, caps, miter limit, dashes). */
#include "svg_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SVG_MAX_HREF_CHAIN 64

static bool is_gradient(const xmlNode *n) { return cn__svg_is(n, "linearGradient") || cn__svg_is(n, "radialGradient"); }

/* The href chain of a gradient: chain[0] = g, then what it references. */
static uint32_t gradient_chain(svg_loader *L, xmlNode *g, xmlNode **chain, bool *cycle) {
  uint32_t n = 0;
  *cycle = false;
  for (xmlNode *c = g; c && n < SVG_MAX_HREF_CHAIN;) {
    for (uint32_t i = 0; i < n; i++)
      if (chain[i] == c) {
        *cycle = true;
        return n;
      }
    chain[n++] = c;
    const char *h = cn__svg_href(c);
    c = h ? cn__svg_lookup(L, h, strlen(h)) : NULL;
    if (c && !is_gradient(c)) c = NULL; /* patterns and others do not lend attributes here */
  }
  return n;
}

/* The first value of attribute name along the chain; same_kind: only from
 * gradients of g's kind (geometry attributes). */
static const char *chain_attr(xmlNode **chain, uint32_t n, const char *name, bool same_kind) {
  for (uint32_t i = 0; i < n; i++) {
    if (same_kind && strcmp((const char *)chain[i]->name, (const char *)chain[0]->name) != 0) continue;
    const char *v = cn__svg_attr(chain[i], name);
    if (v) return v;
  }
  return NULL;
}

static double coord(svg_loader *L, const char *v, double def, bool obb, int axis) {
  svg_length l;
  if (!cn__svg_parse_length(v, &l)) return def;
  if (obb) return l.unit == SVG_UNIT_PERCENT ? l.v / 100.0 : l.v;
  return cn__svg_length_user(l, axis, L->vw, L->vh, 16);
}

static cn_result solid(svg_loader *L, svg_color c, float opacity, uint32_t *paint) {
  float a = c.a * opacity;
  return cn_scene_solid(L->b, c.r, c.g, c.b, a < 0 ? 0 : a > 1 ? 1 : a, paint);
}

/* Reads the stops of gradient node into *stops (malloc'd). */
static cn_result read_stops(svg_loader *L, xmlNode *g, cn_stop **stops, uint32_t *count) {
  *stops = NULL;
  *count = 0;
  uint32_t cap = 0;
  float last = 0;
  for (xmlNode *c = g->children; c; c = c->next) {
    if (!cn__svg_is(c, "stop")) continue;
    CN_TRY(cn__svg_work(L, c, 1));
    svg_style ss;
    CN_TRY(cn__svg_style_of(L, c, &ss));
    double off = 0;
    const char *o = cn__svg_attr(c, "offset");
    if (o) { /* a number or a percentage; anything else (units, junk) is 0 */
      const char *s = o;
      cn__svg_skip_ws(&s);
      if (cn__svg_parse_number(&s, &off) == 1) {
        if (*s == '%') off /= 100.0, s++;
        cn__svg_skip_ws(&s);
        if (*s) off = 0;
      } else {
        off = 0;
      }
    }
    float f = (float)(off < 0 ? 0 : off > 1 ? 1 : off);
    if (f < last) f = last;
    last = f;
    if (*count == cap) {
      cap = cap ? cap * 2 : 8;
      cn_stop *p = realloc(*stops, cap * sizeof *p);
      if (!p) {
        free(*stops);
        *stops = NULL;
        return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for gradient stops");
      }
      *stops = p;
    }
    svg_color sc = ss.stop_color;
    float a = sc.a * ss.stop_opacity;
    (*stops)[(*count)++] = (cn_stop){f, sc.r, sc.g, sc.b, a < 0 ? 0 : a > 1 ? 1 : a};
  }
  return CN_OK;
}

/* Makes the paint of gradient g; *unusable when it cannot paint (no stops,
 * an objectBoundingBox gradient on a shape without area): the caller's
 * fallback colour applies. */
static cn_result gradient(svg_loader *L, xmlNode *g, float opacity, svg_mat ctm, const double bbox[4],
                          uint32_t *paint, bool *unusable) {
  xmlNode *chain[SVG_MAX_HREF_CHAIN];
  bool cycle;
  uint32_t n = gradient_chain(L, g, chain, &cycle);
  if (cycle) CN_TRY(cn__svg_warn(L, CN_SVG_SKIP_CYCLE, g, "gradient href chain of #%.60s is a cycle; cut",
                             cn__svg_attr(g, "id") ? cn__svg_attr(g, "id") : "?"));
  xmlNode *stop_src = NULL;
  for (uint32_t i = 0; i < n && !stop_src; i++)
    for (xmlNode *c = chain[i]->children; c; c = c->next)
      if (cn__svg_is(c, "stop")) {
        stop_src = chain[i];
        break;
      }
  if (!stop_src) {
    *unusable = true; /* no stops: the fallback, else none */
    return CN_OK;
  }
  cn_stop *stops;
  uint32_t count;
  CN_TRY(read_stops(L, stop_src, &stops, &count));
  cn_result r = CN_OK;
  bool radial = cn__svg_is(g, "radialGradient");
  const char *units = chain_attr(chain, n, "gradientUnits", false);
  bool obb = !units || strcmp(units, "userSpaceOnUse") != 0;
  const char *spread_s = chain_attr(chain, n, "spreadMethod", false);
  uint32_t spread = CN_SPREAD_PAD;
  if (spread_s && strcmp(spread_s, "reflect") == 0) spread = CN_SPREAD_REFLECT;
  if (spread_s && strcmp(spread_s, "repeat") == 0) spread = CN_SPREAD_REPEAT;
  /* gradientTransform (with transform-origin); a singular one is ignored */
  xmlNode *gt_src = chain[0];
  for (uint32_t i = 0; i < n; i++)
    if (cn__svg_attr(chain[i], "gradientTransform")) {
      gt_src = chain[i];
      break;
    }
  svg_mat gt = cn__svg_transform_attr(L, gt_src, "gradientTransform", NULL, obb ? 1 : L->vw, obb ? 1 : L->vh);
  svg_mat gt_inv;
  if (!cn__svg_mat_invert(gt, &gt_inv)) gt = cn__svg_mat_identity();
  svg_mat m = ctm;
  if (obb) {
    double bw = bbox[2] - bbox[0], bh = bbox[3] - bbox[1];
    if (!(bw > 0) || !(bh > 0)) { /* no area to map onto */
      *unusable = true;
      goto done;
    }
    m = cn__svg_mat_mul(m, cn__svg_mat_mul(cn__svg_mat_translate(bbox[0], bbox[1]), cn__svg_mat_scale(bw, bh)));
  }
  m = cn__svg_mat_mul(m, gt);
  svg_mat inv;
  if (!cn__svg_mat_invert(m, &inv)) goto done;
  cn_gradient_desc d = {.kind = radial ? CN_PAINT_RADIAL : CN_PAINT_LINEAR, .spread = spread,
                        .transform = {(float)m.a, (float)m.b, (float)m.c, (float)m.d, (float)m.e, (float)m.f},
                        .opacity = opacity < 0 ? 0 : opacity > 1 ? 1 : opacity, .stops = stops, .stop_count = count};
  bool degenerate = count == 1;
  if (radial) {
    double cx = coord(L, chain_attr(chain, n, "cx", true), obb ? 0.5 : L->vw / 2, obb, SVG_AXIS_X);
    double cy = coord(L, chain_attr(chain, n, "cy", true), obb ? 0.5 : L->vh / 2, obb, SVG_AXIS_Y);
    double rr = coord(L, chain_attr(chain, n, "r", true), obb ? 0.5 : cn__svg_length_user((svg_length){50, SVG_UNIT_PERCENT}, SVG_AXIS_DIAG, L->vw, L->vh, 16), obb, SVG_AXIS_DIAG);
    double fx = coord(L, chain_attr(chain, n, "fx", true), cx, obb, SVG_AXIS_X);
    double fy = coord(L, chain_attr(chain, n, "fy", true), cy, obb, SVG_AXIS_Y);
    double fr = coord(L, chain_attr(chain, n, "fr", true), 0, obb, SVG_AXIS_DIAG);
    if (!(rr > 0)) degenerate = true;
    if (fr < 0) fr = 0; /* fr may exceed r: the renderer draws the general two-circle gradient */
    double gv[6] = {cx, cy, rr, fx, fy, fr};
    for (int i = 0; i < 6; i++) d.geometry[i] = (float)gv[i];
  } else {
    double x1 = coord(L, chain_attr(chain, n, "x1", true), 0, obb, SVG_AXIS_X);
    double y1 = coord(L, chain_attr(chain, n, "y1", true), 0, obb, SVG_AXIS_Y);
    double x2 = coord(L, chain_attr(chain, n, "x2", true), obb ? 1 : L->vw, obb, SVG_AXIS_X);
    double y2 = coord(L, chain_attr(chain, n, "y2", true), 0, obb, SVG_AXIS_Y);
    if (x1 == x2 && y1 == y2) degenerate = true;
    d.geometry[0] = (float)x1, d.geometry[1] = (float)y1, d.geometry[2] = (float)x2, d.geometry[3] = (float)y2;
  }
  for (int i = 0; i < 6; i++)
    if (!isfinite(d.geometry[i])) degenerate = true;
  if (degenerate) { /* painted with the last stop's colour */
    cn_stop s = stops[count - 1];
    r = solid(L, (svg_color){s.r, s.g, s.b, s.a}, d.opacity, paint);
  } else if (cn__svg_mat_finite(m) && fabs(m.a) < 1e30 && fabs(m.d) < 1e30) {
    r = cn_scene_gradient(L->b, &d, paint);
  }
done:
  free(stops);
  return r;
}

/* The context paint k (0 fill, 1 stroke) resolved: a concrete paint. */
static void resolve_context(const svg_loader *L, int k, svg_context_paint *out) {
  if (!L->has_context) {
    *out = (svg_context_paint){.paint = {.kind = SVG_PAINT_NONE}};
    return;
  }
  *out = L->context[k];
}

void cn__svg_context_push(svg_loader *L, const svg_style *st, svg_mat ctm, const double *bbox, svg_context_paint saved[2],
                      bool *saved_valid) {
  saved[0] = L->context[0], saved[1] = L->context[1];
  *saved_valid = L->has_context;
  svg_context_paint next[2];
  const svg_paint *ps[2] = {&st->fill, &st->stroke};
  for (int k = 0; k < 2; k++) {
    if (ps[k]->kind == SVG_PAINT_CONTEXT_FILL || ps[k]->kind == SVG_PAINT_CONTEXT_STROKE) {
      resolve_context(L, ps[k]->kind == SVG_PAINT_CONTEXT_FILL ? 0 : 1, &next[k]); /* from the outer context */
      continue;
    }
    next[k] = (svg_context_paint){.paint = *ps[k], .color = st->color, .ctm = ctm, .has_bbox = bbox != NULL};
    if (bbox) memcpy(next[k].bbox, bbox, sizeof next[k].bbox);
  }
  L->context[0] = next[0], L->context[1] = next[1];
  L->has_context = true;
}

void cn__svg_context_pop(svg_loader *L, const svg_context_paint saved[2], bool saved_valid) {
  L->context[0] = saved[0], L->context[1] = saved[1];
  L->has_context = saved_valid;
}

cn_result cn__svg_make_paint(svg_loader *L, const xmlNode *node, const svg_paint *p, const svg_style *st, float opacity,
                         svg_mat ctm, const double bbox[4], uint32_t *paint) {
  *paint = CN_NONE;
  if (opacity < 0) opacity = 0;
  switch (p->kind) {
    case SVG_PAINT_COLOR: return solid(L, p->color, opacity, paint);
    case SVG_PAINT_CURRENT: return solid(L, st->color, opacity, paint);
    case SVG_PAINT_REF: break;
    case SVG_PAINT_CONTEXT_FILL:
    case SVG_PAINT_CONTEXT_STROKE: {
      /* the context element's paint, with its transform and bounds (SVG 2) */
      svg_context_paint c;
      resolve_context(L, p->kind == SVG_PAINT_CONTEXT_FILL ? 0 : 1, &c);
      if (c.paint.kind == SVG_PAINT_NONE) return CN_OK;
      svg_style cs = *st;
      cs.color = c.color;
      static const double no_box[4] = {0, 0, 0, 0};
      return cn__svg_make_paint(L, node, &c.paint, &cs, opacity, c.ctm, c.has_bbox ? c.bbox : no_box, paint);
    }
    default: return CN_OK;
  }
  if (p->ref && is_gradient(p->ref)) {
    if (!cn__svg_push_ref(L, p->ref, node)) return CN_OK;
    bool unusable = false;
    cn_result r = gradient(L, p->ref, opacity, ctm, bbox, paint, &unusable);
    cn__svg_pop_ref(L);
    if (r != CN_OK || !unusable) return r;
  } else if (p->ref && cn__svg_is(p->ref, "pattern")) {
    cn__svg_skip(L, CN_SVG_SKIP_PATTERN);
  } else if (!p->ref) {
    if (p->fallback_kind == SVG_PAINT_NONE)
      CN_TRY(cn__svg_warn(L, CN_SVG_SKIP_MISSING_REF, node, "paint server of <%s> does not exist; painted as none",
                      (const char *)node->name));
  } else {
    CN_TRY(cn__svg_warn(L, CN_SVG_SKIP_MISSING_REF, node, "paint of <%s> references <%s>, not a paint server",
                    (const char *)node->name, (const char *)p->ref->name));
    return CN_OK;
  }
  if (p->fallback_kind == SVG_PAINT_COLOR) return solid(L, p->fallback, opacity, paint);
  if (p->fallback_kind == SVG_PAINT_CURRENT) return solid(L, st->color, opacity, paint);
  return CN_OK;
}

bool cn__svg_make_stroke(svg_loader *L, const svg_style *st, cn_stroke_desc *out, float *dash_buf, uint32_t dash_cap) {
  double w = cn__svg_length_user(st->stroke_width, SVG_AXIS_DIAG, L->vw, L->vh, st->font_size);
  /* a width that is positive but below float range (1e-46) is 0 in the
   * scene: not drawn, like 0 */
  if (!((float)w > 0) || !isfinite(w) || w > 1e30) return false;
  *out = (cn_stroke_desc){.width = (float)w, .miter_limit = st->miter_limit, .join = st->join, .cap = st->cap};
  double off = cn__svg_length_user(st->dash_offset, SVG_AXIS_DIAG, L->vw, L->vh, st->font_size);
  if (st->dasharray) {
    char buf[1024];
    uint32_t n = st->dasharray_len < sizeof buf - 1 ? st->dasharray_len : (uint32_t)sizeof buf - 1;
    memcpy(buf, st->dasharray, n);
    buf[n] = 0;
    const char *s = buf;
    uint32_t k = 0;
    double total = 0;
    bool ok = true;
    cn__svg_skip_ws(&s);
    while (*s && ok) {
      svg_length l;
      if (k == dash_cap || !cn__svg_parse_length_at(&s, &l)) {
        ok = false;
        break;
      }
      double v = cn__svg_length_user(l, SVG_AXIS_DIAG, L->vw, L->vh, st->font_size);
      if (!(v >= 0) || !(v < 1e30)) ok = false;
      dash_buf[k++] = (float)v;
      total += (float)v; /* what the scene gets: dashes below float range are 0 */
      cn__svg_skip_comma_ws(&s);
    }
    if (ok && k && total > 0 && isfinite(off) && fabs(off) < 1e30) {
      out->dashes = dash_buf;
      out->dash_count = k;
      out->dash_offset = (float)off;
    }
  }
  return true;
}
