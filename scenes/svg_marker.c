/* svg_marker.c: markers (marker-start/mid/end) expanded into ordinary
 * geometry: the marker's content is rendered at each vertex of the path with
 * the transform translate(vertex) rotate(orient) scale(stroke-width if
 * markerUnits=strokeWidth) translate(-ref) viewBox, clipped to the marker
 * viewport unless overflow is visible. Markers inside marker content are
 * drawn too, except a marker inside itself (a cycle). */
#include "svg_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct vertex {
  double x, y;
  double in_x, in_y, out_x, out_y;
  bool has_in, has_out;
} vertex;

typedef struct vlist {
  vertex *v;
  size_t n, cap;
  bool oom;
} vlist;

static vertex *vpush(vlist *l, double x, double y) {
  if (l->n == l->cap) {
    size_t c = l->cap ? l->cap * 2 : 16;
    vertex *p = realloc(l->v, c * sizeof *p);
    if (!p) {
      l->oom = true;
      return NULL;
    }
    l->v = p, l->cap = c;
  }
  vertex *v = &l->v[l->n++];
  *v = (vertex){.x = x, .y = y};
  return v;
}

/* A direction from a to the first of the later points that differs. */
static void dir(const double *pts, int n, double *dx, double *dy) {
  for (int i = 1; i < n; i++) {
    double x = pts[2 * i] - pts[0], y = pts[2 * i + 1] - pts[1];
    if (x != 0 || y != 0) {
      *dx = x, *dy = y;
      return;
    }
  }
  *dx = *dy = 0;
}

/* Vertices of the path with incoming and outgoing directions. */
static bool vertices(const svg_path *p, vlist *out) {
  double cx = 0, cy = 0, sx = 0, sy = 0;
  size_t sub_first = 0;
  bool need_start = true;
  const double *v = p->pts;
  for (size_t i = 0; i < p->nops && !out->oom; i++) {
    int op = p->ops[i] & 0x7f;
    bool cont = (p->ops[i] & SVG_OP_ARC_CONT) != 0;
    if (op == SVG_OP_MOVE) {
      cx = sx = v[0], cy = sy = v[1];
      v += 2;
      sub_first = out->n;
      vpush(out, cx, cy);
      need_start = false;
      continue;
    }
    if (need_start) { /* drawing after a close: a new subpath at the start point */
      sub_first = out->n;
      vpush(out, sx, sy);
      need_start = false;
    }
    if (op == SVG_OP_CLOSE) {
      vertex *last = &out->v[out->n - 1];
      if (cx != sx || cy != sy) {
        double d[4] = {cx, cy, sx, sy}, dx, dy;
        dir(d, 2, &dx, &dy);
        last->out_x = dx, last->out_y = dy, last->has_out = true;
        vertex *nv = vpush(out, sx, sy);
        if (!nv) break;
        nv->in_x = dx, nv->in_y = dy, nv->has_in = true;
        last = nv;
      }
      vertex *first = &out->v[sub_first];
      if (last->has_in) first->in_x = last->in_x, first->in_y = last->in_y, first->has_in = true;
      if (first->has_out) last->out_x = first->out_x, last->out_y = first->out_y, last->has_out = true;
      cx = sx, cy = sy;
      need_start = true;
      continue;
    }
    int n = op == SVG_OP_LINE ? 1 : op == SVG_OP_QUAD ? 2 : 3;
    double seg[8] = {cx, cy};
    memcpy(seg + 2, v, (size_t)n * 2 * sizeof *v);
    v += 2 * n;
    double ox, oy, ix, iy;
    dir(seg, n + 1, &ox, &oy);
    double rev[8];
    for (int k = 0; k <= n; k++) rev[2 * k] = seg[2 * (n - k)], rev[2 * k + 1] = seg[2 * (n - k) + 1];
    dir(rev, n + 1, &ix, &iy);
    ix = -ix, iy = -iy;
    vertex *last = &out->v[out->n - 1];
    if (cont) { /* the rest of an arc: move the arc's end vertex */
      last->x = seg[2 * n], last->y = seg[2 * n + 1];
      last->in_x = ix, last->in_y = iy, last->has_in = true;
    } else {
      if (!last->has_out) last->out_x = ox, last->out_y = oy, last->has_out = true;
      vertex *nv = vpush(out, seg[2 * n], seg[2 * n + 1]);
      if (!nv) break;
      nv->in_x = ix, nv->in_y = iy, nv->has_in = true;
    }
    cx = seg[2 * n], cy = seg[2 * n + 1];
  }
  return !out->oom;
}

static double angle_of(double x, double y) { return atan2(y, x) * 180.0 / SVG_PI; }

/* The marker angle at v: the bisector of the incoming and outgoing
 * directions at mid vertices; the start uses its outgoing direction and the
 * end its incoming one (as resvg, also on closed subpaths). */
static double vertex_angle(const vertex *v, int kind) {
  if (kind == 0 && v->has_out) return angle_of(v->out_x, v->out_y);
  if (kind == 2 && v->has_in) return angle_of(v->in_x, v->in_y);
  if (v->has_in && v->has_out) {
    double a = angle_of(v->in_x, v->in_y), b = angle_of(v->out_x, v->out_y);
    double d = b - a;
    if (d > 180) d -= 360;
    if (d < -180) d += 360;
    return a + d / 2;
  }
  if (v->has_in) return angle_of(v->in_x, v->in_y);
  if (v->has_out) return angle_of(v->out_x, v->out_y);
  return 0;
}

/* Renders marker mk at vertex v (kind 0 start, 1 mid, 2 end). */
static cn_result draw_marker(svg_loader *L, xmlNode *node, xmlNode *mk, const vertex *v, int kind, double sw, svg_mat ctm) {
  svg_style ms;
  CN_TRY(cn__svg_style_of(L, mk, &ms));
  if (ms.display_none) return CN_OK;
  double angle = 0;
  const char *orient = cn__svg_attr(mk, "orient");
  if (orient && strcmp(orient, "auto") == 0) {
    angle = vertex_angle(v, kind);
  } else if (orient && strcmp(orient, "auto-start-reverse") == 0) {
    angle = vertex_angle(v, kind) + (kind == 0 ? 180 : 0);
  } else if (orient) {
    const char *s = orient;
    double a;
    cn__svg_skip_ws(&s);
    if (cn__svg_parse_number(&s, &a) == 1) {
      if (strncmp(s, "rad", 3) == 0) a = a * 180 / SVG_PI;
      else if (strncmp(s, "grad", 4) == 0) a = a * 0.9;
      else if (strncmp(s, "turn", 4) == 0) a = a * 360;
      angle = a;
    }
  }
  const char *units = cn__svg_attr(mk, "markerUnits");
  double scale = units && strcmp(units, "userSpaceOnUse") == 0 ? 1 : sw;
  svg_length l;
  double mw = cn__svg_parse_length(cn__svg_attr(mk, "markerWidth"), &l) ? cn__svg_length_user(l, SVG_AXIS_X, L->vw, L->vh, 16) : 3;
  double mh = cn__svg_parse_length(cn__svg_attr(mk, "markerHeight"), &l) ? cn__svg_length_user(l, SVG_AXIS_Y, L->vw, L->vh, 16) : 3;
  if (!(mw > 0) || !(mh > 0)) return CN_OK;
  double refx = cn__svg_parse_length(cn__svg_attr(mk, "refX"), &l) ? cn__svg_length_user(l, SVG_AXIS_X, L->vw, L->vh, 16) : 0;
  double refy = cn__svg_parse_length(cn__svg_attr(mk, "refY"), &l) ? cn__svg_length_user(l, SVG_AXIS_Y, L->vw, L->vh, 16) : 0;
  svg_viewbox vb;
  bool has_vb = cn__svg_parse_viewbox(cn__svg_attr(mk, "viewBox"), &vb);
  svg_aspect ar;
  cn__svg_parse_aspect(cn__svg_attr(mk, "preserveAspectRatio"), &ar);
  svg_mat vbm = has_vb ? cn__svg_viewbox_matrix(vb, ar, mw, mh) : cn__svg_mat_identity();
  double rx, ry;
  cn__svg_mat_apply(vbm, refx, refy, &rx, &ry);
  svg_mat base = cn__svg_mat_mul(ctm, cn__svg_mat_mul(cn__svg_mat_translate(v->x, v->y),
                                               cn__svg_mat_mul(cn__svg_mat_rotate(angle), cn__svg_mat_scale(scale, scale))));
  base = cn__svg_mat_mul(base, cn__svg_mat_translate(-rx, -ry));
  if (!cn__svg_mat_finite(base)) return CN_OK;
  bool clip = !ms.overflow_visible;
  if (clip) {
    svg_path p = {0};
    cn__svg_path_rect(&p, 0, 0, mw, mh, 0, 0); /* the marker viewport */
    uint32_t id;
    cn_result r = cn__svg_emit_path(L, mk, &p, base, &id);
    cn__svg_path_free(&p);
    CN_TRY(r);
    CN_TRY(cn_scene_push_clip(L->b, id, CN_RULE_NONZERO));
  }
  CN_TRY(cn__svg_render_children(L, mk, &ms, cn__svg_mat_mul(base, vbm)));
  if (clip) CN_TRY(cn_scene_pop(L->b));
  (void)node;
  return CN_OK;
}

cn_result cn__svg_render_markers(svg_loader *L, xmlNode *node, const svg_style *st, const svg_path *p, svg_mat ctm) {
  xmlNode *mk3[3];
  for (int k = 0; k < 3; k++) {
    mk3[k] = st->marker[k] && cn__svg_is(st->marker[k], "marker") ? st->marker[k] : NULL;
    if (mk3[k] && cn__svg_is_active(L, mk3[k])) { /* a marker drawn inside itself: skipped */
      CN_TRY(cn__svg_warn(L, CN_SVG_SKIP_CYCLE, node, "marker #%.60s is used inside itself; skipped",
                          cn__svg_attr(mk3[k], "id") ? cn__svg_attr(mk3[k], "id") : "?"));
      mk3[k] = NULL;
    }
  }
  if (!mk3[0] && !mk3[1] && !mk3[2]) return CN_OK;
  if (!cn__svg_is_shape(node)) return CN_OK; /* SVG 2: markers on every shape */
  vlist vl = {0};
  if (!vertices(p, &vl)) {
    free(vl.v);
    return cn_fail(CN_ERROR_OUT_OF_MEMORY, "line %d: no memory for marker vertices", cn__svg_line(node));
  }
  double sw = cn__svg_length_user(st->stroke_width, SVG_AXIS_DIAG, L->vw, L->vh, st->font_size);
  cn_result r = CN_OK;
  uint32_t saved = L->acc_floor;
  L->acc_floor = L->nacc; /* markers are not part of bounding boxes */
  /* the shape is the context element of context-fill/context-stroke in the markers */
  double box[4];
  bool has_box = cn__svg_path_tight_bounds(p, box);
  svg_context_paint saved_ctx[2];
  bool saved_valid;
  cn__svg_context_push(L, st, ctm, has_box ? box : NULL, saved_ctx, &saved_valid);
  for (size_t i = 0; i < vl.n && r == CN_OK; i++) {
    int kind = i == 0 ? 0 : i == vl.n - 1 ? 2 : 1;
    xmlNode *mk = mk3[kind];
    if (!mk) continue;
    r = cn__svg_enter(L, mk);
    if (r != CN_OK) break;
    r = cn__svg_work(L, mk, 1);
    if (r == CN_OK && cn__svg_push_ref(L, mk, node)) {
      r = draw_marker(L, node, mk, &vl.v[i], kind, sw, ctm);
      cn__svg_pop_ref(L);
    }
    cn__svg_leave(L);
  }
  cn__svg_context_pop(L, saved_ctx, saved_valid);
  L->acc_floor = saved;
  free(vl.v);
  return r;
}
