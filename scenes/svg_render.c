/* svg_render.c: the traversal of rendered elements: which elements render,
 * transforms and transform-origin, the effect groups around an element
 * (clip-path, mask, opacity, mix-blend-mode, isolation), shapes with their
 * fill, stroke and markers in paint order, and path emission with the
 * coordinate range check.
 *
 * The traversal runs on a heap stack of frames (svg_frame): an element's
 * frame goes through phases (start: style, transform, effects; content:
 * one function per element kind, see content_begin; after the content:
 * the effects closed) and pushes frames for its children, waiting for them
 * instead of recursing. */
#include "svg_internal.h"
#include "svg_text.h"

#include <libxml/entities.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool cn__svg_is_shape(const xmlNode *n) {
  static const char *const shapes[] = {"path", "rect", "circle", "ellipse", "line", "polyline", "polygon"};
  if (!cn__svg_is_element(n)) return false;
  for (size_t i = 0; i < CN_ARRAY_LEN(shapes); i++)
    if (shapes[i][0] == n->name[0] && strcmp((const char *)n->name, shapes[i]) == 0) return true;
  return false;
}

static double len_attr(svg_loader *L, const xmlNode *n, const char *name, int axis, double def, const svg_style *st) {
  svg_length l;
  if (!cn__svg_parse_length(cn__svg_attr(n, name), &l)) return def;
  return cn__svg_length_user(l, axis, L->vw, L->vh, st ? st->font_size : 16);
}

bool cn__svg_shape_path(svg_loader *L, xmlNode *n, const svg_style *st, svg_path *p) {
  const char *name = (const char *)n->name;
  if (strcmp(name, "path") == 0) {
    cn__svg_parse_path_data(cn__svg_attr(n, "d"), p); /* up to the first error */
  } else if (strcmp(name, "rect") == 0) {
    double x = len_attr(L, n, "x", SVG_AXIS_X, 0, st), y = len_attr(L, n, "y", SVG_AXIS_Y, 0, st);
    double w = len_attr(L, n, "width", SVG_AXIS_X, 0, st), h = len_attr(L, n, "height", SVG_AXIS_Y, 0, st);
    double rx = len_attr(L, n, "rx", SVG_AXIS_X, -1, st), ry = len_attr(L, n, "ry", SVG_AXIS_Y, -1, st);
    if (!(w > 0) || !(h > 0)) return false;
    if (rx < 0 && ry >= 0) rx = ry;
    if (ry < 0 && rx >= 0) ry = rx;
    cn__svg_path_rect(p, x, y, w, h, rx < 0 ? 0 : rx, ry < 0 ? 0 : ry);
  } else if (strcmp(name, "circle") == 0) {
    double r = len_attr(L, n, "r", SVG_AXIS_DIAG, 0, st);
    if (!(r > 0)) return false;
    cn__svg_path_ellipse(p, len_attr(L, n, "cx", SVG_AXIS_X, 0, st), len_attr(L, n, "cy", SVG_AXIS_Y, 0, st), r, r);
  } else if (strcmp(name, "ellipse") == 0) {
    double rx = len_attr(L, n, "rx", SVG_AXIS_X, -1, st), ry = len_attr(L, n, "ry", SVG_AXIS_Y, -1, st);
    if (rx < 0 && ry > 0) rx = ry; /* SVG 2: auto */
    if (ry < 0 && rx > 0) ry = rx;
    if (!(rx > 0) || !(ry > 0)) return false;
    cn__svg_path_ellipse(p, len_attr(L, n, "cx", SVG_AXIS_X, 0, st), len_attr(L, n, "cy", SVG_AXIS_Y, 0, st), rx, ry);
  } else if (strcmp(name, "line") == 0) {
    cn__svg_path_move(p, len_attr(L, n, "x1", SVG_AXIS_X, 0, st), len_attr(L, n, "y1", SVG_AXIS_Y, 0, st));
    cn__svg_path_line(p, len_attr(L, n, "x2", SVG_AXIS_X, 0, st), len_attr(L, n, "y2", SVG_AXIS_Y, 0, st));
  } else if (strcmp(name, "polyline") == 0 || strcmp(name, "polygon") == 0) {
    cn__svg_parse_points(cn__svg_attr(n, "points"), p, name[4] == 'g');
    if (p->nops < 2) return false; /* one point is an error: not rendered */
  } else {
    return false;
  }
  if (p->oom) return false;
  for (size_t i = 0; i < p->nops; i++) /* a lone moveto draws nothing */
    if ((p->ops[i] & 0x7f) != SVG_OP_MOVE) return true;
  return false;
}

cn_result cn__svg_emit_path(svg_loader *L, const xmlNode *node, const svg_path *p, svg_mat ctm, uint32_t *id) {
  if (p->oom) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "line %d: no memory for path data", cn__svg_line(node));
  CN_TRY(cn__svg_work(L, node, p->nops));
  double box[4];
  if (cn__svg_path_bounds(p, ctm, box)) {
    for (int i = 0; i < 4; i++)
      if (!(fabs(box[i]) <= CN_SVG_MAX_COORD))
        return cn_fail(CN_ERROR_LIMIT, "line %d: <%s> reaches device coordinate %g, beyond +-%g pixels", cn__svg_line(node),
                       (const char *)node->name, box[i], CN_SVG_MAX_COORD);
  }
  for (size_t i = 0; i < p->npts; i++)
    if (!(fabs(p->pts[i]) <= 3.0e38))
      return cn_fail(CN_ERROR_LIMIT, "line %d: <%s> has coordinate %g, beyond the float range", cn__svg_line(node),
                     (const char *)node->name, p->pts[i]);
  cn_transform t = {(float)ctm.a, (float)ctm.b, (float)ctm.c, (float)ctm.d, (float)ctm.e, (float)ctm.f};
  CN_TRY(cn_scene_set_transform(L->b, &t));
  CN_TRY(cn_scene_path_begin(L->b));
  const double *v = p->pts;
  cn_result r = CN_OK;
  for (size_t i = 0; i < p->nops && r == CN_OK; i++) {
    switch (p->ops[i] & 0x7f) {
      case SVG_OP_MOVE: r = cn_scene_move_to(L->b, (float)v[0], (float)v[1]), v += 2; break;
      case SVG_OP_LINE: r = cn_scene_line_to(L->b, (float)v[0], (float)v[1]), v += 2; break;
      case SVG_OP_QUAD: r = cn_scene_quad_to(L->b, (float)v[0], (float)v[1], (float)v[2], (float)v[3]), v += 4; break;
      case SVG_OP_CUBIC:
        r = cn_scene_cubic_to(L->b, (float)v[0], (float)v[1], (float)v[2], (float)v[3], (float)v[4], (float)v[5]);
        v += 6;
        break;
      default: r = cn_scene_close(L->b); break;
    }
  }
  if (r == CN_OK) return cn_scene_path_end(L->b, id);
  /* leave the builder outside a path whatever happened */
  uint32_t dummy;
  cn_scene_path_end(L->b, &dummy);
  if (r == CN_ERROR_LIMIT) { /* name the element; drop the inner message's "(file:line)" */
    char inner[512];
    snprintf(inner, sizeof inner, "%s", cn_last_error());
    char *tail = strrchr(inner, '(');
    if (tail && tail > inner && tail[-1] == ' ') tail[-1] = 0;
    return cn_fail(r, "line %d: <%s>: %s", cn__svg_line(node), (const char *)node->name, inner);
  }
  return r;
}

void cn__svg_bbox_add(svg_loader *L, const svg_path *p, svg_mat ctm) {
  for (uint32_t i = L->acc_floor; i < L->nacc; i++) {
    svg_bbox_acc *a = &L->acc[i];
    double box[4];
    if (!cn__svg_path_bounds(p, cn__svg_mat_mul(a->ctm_inv, ctm), box)) continue;
    if (!a->any) memcpy(a->box, box, sizeof box), a->any = true;
    a->box[0] = fmin(a->box[0], box[0]), a->box[1] = fmin(a->box[1], box[1]);
    a->box[2] = fmax(a->box[2], box[2]), a->box[3] = fmax(a->box[3], box[3]);
  }
}

cn_result cn__svg_bbox_begin(svg_loader *L, svg_mat m, bool *ok) {
  *ok = false;
  if (L->nacc == L->cap_acc) {
    uint32_t cap = L->cap_acc ? L->cap_acc * 2 : 16;
    svg_bbox_acc *a = realloc(L->acc, cap * sizeof *a);
    if (!a) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for bounding boxes");
    L->acc = a, L->cap_acc = cap;
  }
  svg_bbox_acc acc = {.any = false};
  if (!cn__svg_mat_invert(m, &acc.ctm_inv)) return CN_OK;
  L->acc[L->nacc++] = acc;
  *ok = true;
  return CN_OK;
}

bool cn__svg_bbox_end(svg_loader *L, double box[4]) {
  svg_bbox_acc acc = L->acc[--L->nacc];
  if (acc.any) memcpy(box, acc.box, 4 * sizeof *box);
  return acc.any;
}

svg_mat cn__svg_transform_attr(svg_loader *L, const xmlNode *n, const char *attr, const svg_style *st, double ref_w,
                           double ref_h) {
  svg_mat t;
  if (st && st->transform && strcmp(attr, "transform") == 0) {
    char buf[512];
    uint32_t k = st->transform_len < sizeof buf - 1 ? st->transform_len : (uint32_t)sizeof buf - 1;
    memcpy(buf, st->transform, k);
    buf[k] = 0;
    if (strcmp(buf, "none") == 0) t = cn__svg_mat_identity();
    else cn__svg_parse_transform(buf, &t);
  } else {
    cn__svg_parse_transform(cn__svg_attr(n, attr), &t);
  }
  const char *o = cn__svg_attr(n, "transform-origin");
  if (!o) return t;
  /* CSS: one or two of lengths, percentages (of the reference box) and
   * keywords; a missing one is the centre; "top left" means "left top" */
  typedef struct origin_item {
    bool absolute; /* a length in user units, else a fraction of the box */
    double value;
    int axis; /* 0 x, 1 y, -1 either (center, lengths) */
  } origin_item;
  origin_item it[2];
  int n_items = 0;
  const char *s = o;
  while (n_items < 2) {
    cn__svg_skip_ws(&s);
    if (!*s) break;
    static const struct {
      const char *w;
      int axis;
      double f;
    } kw[] = {{"left", 0, 0}, {"right", 0, 1}, {"top", 1, 0}, {"bottom", 1, 1}, {"center", -1, 0.5}};
    size_t i;
    for (i = 0; i < CN_ARRAY_LEN(kw); i++)
      if (strncmp(s, kw[i].w, strlen(kw[i].w)) == 0) break;
    svg_length l;
    if (i < CN_ARRAY_LEN(kw)) {
      it[n_items++] = (origin_item){false, kw[i].f, kw[i].axis};
      s += strlen(kw[i].w);
    } else if (cn__svg_parse_length_at(&s, &l)) {
      int axis = n_items;
      if (l.unit == SVG_UNIT_PERCENT) it[n_items++] = (origin_item){false, l.v / 100, -1};
      else it[n_items++] = (origin_item){true, cn__svg_length_user(l, axis ? SVG_AXIS_Y : SVG_AXIS_X, L->vw, L->vh, 16), -1};
    } else {
      break;
    }
  }
  /* which axis each item sets: a lone item is x unless it is top/bottom;
   * a pair is x y unless its first is top/bottom or its second left/right */
  int ax[2] = {0, 1};
  if (n_items == 1 && it[0].axis == 1) ax[0] = 1;
  if (n_items == 2 && (it[0].axis == 1 || it[1].axis == 0)) ax[0] = 1, ax[1] = 0;
  double xy[2] = {ref_w / 2, ref_h / 2};
  for (int k = 0; k < n_items; k++) {
    int axis = ax[k];
    xy[axis] = it[k].absolute ? it[k].value : it[k].value * (axis ? ref_h : ref_w);
  }
  return cn__svg_mat_mul(cn__svg_mat_translate(xy[0], xy[1]), cn__svg_mat_mul(t, cn__svg_mat_translate(-xy[0], -xy[1])));
}

/* Fill, stroke and markers of path p in paint order (markers only for shapes). */
static cn_result paint_geometry(svg_loader *L, xmlNode *n, const svg_style *st, const svg_path *p, svg_mat ctm,
                                const double bbox[4], float alpha, bool text) {
  cn_result r = CN_OK;
  uint32_t path = CN_NONE;
  uint32_t rule = text ? CN_RULE_NONZERO : st->fill_rule;
  for (int k = 0; k < 3 && r == CN_OK; k++) {
    int what = st->paint_order[k];
    if (what == 0 && st->fill.kind != SVG_PAINT_NONE && !cn__svg_is(n, "line")) { /* a line has no inside */
      if (st->fill.kind == SVG_PAINT_REF && st->fill.ref && cn__svg_is(st->fill.ref, "pattern")) {
        bool painted = false;
        if (path == CN_NONE) r = cn__svg_emit_path(L, n, p, ctm, &path);
        if (r == CN_OK)
          r = cn__svg_fill_pattern(L, n, st->fill.ref, path, rule, st->fill_opacity * alpha, ctm, bbox, &painted);
        if (r != CN_OK || painted) continue; /* else the fallback colour below */
      }
      uint32_t paint;
      r = cn__svg_make_paint(L, n, &st->fill, st, st->fill_opacity * alpha, ctm, bbox, &paint);
      if (r != CN_OK || paint == CN_NONE) continue;
      if (path == CN_NONE) r = cn__svg_emit_path(L, n, p, ctm, &path);
      if (r == CN_OK) r = cn_scene_fill(L->b, path, paint, rule);
    } else if (what == 1 && st->stroke.kind != SVG_PAINT_NONE) {
      cn_stroke_desc sd;
      float dashes[64];
      if (!cn__svg_make_stroke(L, st, &sd, dashes, 64)) continue;
      uint32_t paint;
      r = cn__svg_make_paint(L, n, &st->stroke, st, st->stroke_opacity * alpha, ctm, bbox, &paint);
      if (r != CN_OK || paint == CN_NONE) continue;
      if (path == CN_NONE) r = cn__svg_emit_path(L, n, p, ctm, &path);
      if (r == CN_OK) r = cn_scene_stroke(L->b, path, paint, &sd);
    } else if (what == 2 && !text) {
      r = cn__svg_render_markers(L, n, st, p, ctm);
    }
  }
  return r;
}

cn_result cn__svg_paint_path(svg_loader *L, xmlNode *n, const svg_style *st, const svg_path *p, svg_mat ctm,
                             const double bbox[4], bool nonzero) {
  if (p->oom) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "line %d: no memory for path data", cn__svg_line(n));
  return paint_geometry(L, n, st, p, ctm, bbox, 1, nonzero);
}

/* Draws one shape: fill, stroke and markers in paint order. alpha folds a
 * group opacity into the paints (only when one thing is drawn). */
static cn_result render_shape(svg_loader *L, xmlNode *n, const svg_style *st, svg_mat ctm, float alpha) {
  svg_path p = {0};
  if (!cn__svg_shape_path(L, n, st, &p)) {
    cn_result r = p.oom ? cn_fail(CN_ERROR_OUT_OF_MEMORY, "line %d: no memory for path data", cn__svg_line(n)) : CN_OK;
    cn__svg_path_free(&p);
    return r;
  }
  cn__svg_bbox_add(L, &p, ctm);
  cn_result r = CN_OK;
  double bbox[4];
  if (st->visible && cn__svg_path_tight_bounds(&p, bbox)) r = paint_geometry(L, n, st, &p, ctm, bbox, alpha, false);
  cn__svg_path_free(&p);
  return r;
}

static bool has_markers(const xmlNode *n, const svg_style *st) {
  return cn__svg_is_shape(n) && (st->marker[0] || st->marker[1] || st->marker[2]); /* SVG 2: every shape */
}

/* Elements that are never rendered directly (definitions and metadata). */
static bool is_definition(const char *name) {
  static const char *const defs[] = {
      "defs", "clipPath", "mask", "marker", "linearGradient", "radialGradient", "pattern", "symbol", "style",
      "title", "desc", "metadata", "script", "font", "font-face", "cursor", "view", "animate", "animateColor",
      "animateMotion", "animateTransform", "set", "stop", "color-profile", "hatch", "solidcolor", "filter"};
  for (size_t i = 0; i < CN_ARRAY_LEN(defs); i++)
    if (defs[i][0] == name[0] && strcmp(name, defs[i]) == 0) return true;
  return false;
}

/* Opens the effect groups of an element; bbox may be NULL when no
 * objectBoundingBox units are involved. */
static cn_result open_effects(svg_loader *L, xmlNode *n, const svg_style *st, svg_mat ctm, const double *bbox,
                              bool group, uint32_t *pushed, bool *hidden) {
  *pushed = 0;
  *hidden = false;
  if (st->clip_path) {
    uint32_t k = 0;
    CN_TRY(cn__svg_push_clip_path(L, st->clip_path, n, ctm, bbox, &k, hidden));
    *pushed += k;
    if (*hidden) return CN_OK;
  }
  if (st->mask) {
    uint32_t k = 0;
    CN_TRY(cn__svg_push_mask(L, st->mask, n, ctm, bbox, st->blend, st->opacity, &k, hidden));
    *pushed += k;
    if (*hidden) { /* close the clip groups already open; the caller drops them */
      for (; *pushed; --*pushed) CN_TRY(cn_scene_pop(L->b));
      return CN_OK;
    }
  } else if (group) {
    CN_TRY(cn_scene_push_blend(L->b, st->blend, st->opacity, CN_BLEND_ISOLATED));
    ++*pushed;
  }
  return CN_OK;
}

bool cn__svg_is_renderable(const xmlNode *n) {
  if (!cn__svg_is_element(n)) return false;
  const char *name = (const char *)n->name;
  return strcmp(name, "g") == 0 || strcmp(name, "a") == 0 || strcmp(name, "svg") == 0 || strcmp(name, "use") == 0 ||
         strcmp(name, "switch") == 0 || strcmp(name, "text") == 0 || strcmp(name, "image") == 0 ||
         strcmp(name, "foreignObject") == 0 || cn__svg_is_shape(n);
}

/* ------------------------------------------------------------ the frames */

#define SVG_FRAME_CHUNK 512u

static svg_frame *frame_at(svg_loader *L, uint32_t i) {
  return &L->chunks[i / SVG_FRAME_CHUNK][i % SVG_FRAME_CHUNK];
}

svg_frame *cn__svg_frame_push(svg_loader *L, uint8_t kind, svg_frame *parent) {
  uint32_t chunk = L->nframes / SVG_FRAME_CHUNK;
  if (chunk == L->nchunks) {
    if (L->nchunks == L->cap_chunks) {
      uint32_t cap = L->cap_chunks ? L->cap_chunks * 2 : 16;
      svg_frame **c = realloc(L->chunks, cap * sizeof *c);
      if (!c) return NULL;
      L->chunks = c, L->cap_chunks = cap;
    }
    svg_frame *f = malloc(SVG_FRAME_CHUNK * sizeof *f);
    if (!f) return NULL;
    L->chunks[L->nchunks++] = f;
  }
  svg_frame *f = frame_at(L, L->nframes++);
  memset(f, 0, offsetof(svg_frame, st)); /* the style is written before it is read */
  f->kind = kind;
  f->parent = parent;
  return f;
}

static void frame_pop(svg_loader *L) {
  svg_frame *f = frame_at(L, --L->nframes);
  if (f->use) cn__svg_use_free(L, f);
}

void cn__svg_frames_free(svg_loader *L) {
  while (L->nframes) frame_pop(L);
  for (uint32_t i = 0; i < L->nchunks; i++) free(L->chunks[i]);
  free(L->chunks);
  L->chunks = NULL;
  L->nchunks = L->cap_chunks = 0;
}

void cn__svg_frame_children(svg_frame *f, xmlNode *first, const svg_style *st, svg_mat ctm) {
  f->cursor = first;
  f->cst = st;
  f->cctm = ctm;
}

static cn_result no_frame_memory(const xmlNode *n) {
  return cn_fail(CN_ERROR_OUT_OF_MEMORY, "line %d: no memory for the traversal of <%s>", cn__svg_line(n),
                 n ? (const char *)n->name : "?");
}

/* Pushes a frame for f's next child (an element, or the content of an
 * entity); *pushed false when none is left. */
static cn_result push_next_child(svg_loader *L, svg_frame *f, bool *pushed) {
  *pushed = false;
  while (f->cursor) {
    xmlNode *c = f->cursor;
    f->cursor = f->single ? NULL : c->next;
    if (c->type == XML_ENTITY_REF_NODE) {
      /* elements that come in through an entity (libxml2 parsed the entity's
       * content once and checked its amplification) */
      xmlEntity *ent = xmlGetDocEntity(L->doc, c->name);
      if (!ent || !ent->children) continue;
      svg_frame *g = cn__svg_frame_push(L, SVG_FRAME_CHILDREN, f);
      if (!g) return no_frame_memory(c->parent);
      cn__svg_frame_children(g, ent->children, f->cst, f->cctm);
      *pushed = true;
      return CN_OK;
    }
    if (c->type != XML_ELEMENT_NODE) continue;
    svg_frame *g = cn__svg_frame_push(L, SVG_FRAME_ELEMENT, f);
    if (!g) return no_frame_memory(c);
    g->node = c;
    g->phase = SVG_PHASE_START;
    *pushed = true;
    return CN_OK;
  }
  return CN_OK;
}

/* ------------------------------------------------------- element content */

/* A group, or the root: its children with its style and transform. */
static cn_result render_group(svg_loader *L, svg_frame *f) {
  (void)L;
  cn__svg_frame_children(f, f->node->children, &f->st, f->m);
  f->phase = SVG_PHASE_CHILDREN;
  f->then = SVG_PHASE_AFTER_CONTENT;
  return CN_OK;
}

/* A nested <svg>: a new viewport with its children. */
static cn_result render_svg(svg_loader *L, svg_frame *f) {
  xmlNode *n = f->node;
  const svg_style *st = &f->st;
  double x = len_attr(L, n, "x", SVG_AXIS_X, 0, st), y = len_attr(L, n, "y", SVG_AXIS_Y, 0, st);
  double w = len_attr(L, n, "width", SVG_AXIS_X, L->vw, st), h = len_attr(L, n, "height", SVG_AXIS_Y, L->vh, st);
  return cn__svg_viewport_begin(L, f, st, f->m, x, y, w, h);
}

/* A switch: the first child whose conditions pass. */
static cn_result render_switch(svg_loader *L, svg_frame *f) {
  xmlNode *c = cn__svg_switch_choice(f->node);
  f->phase = SVG_PHASE_AFTER_CONTENT;
  if (!c) return CN_OK;
  cn__svg_frame_children(f, c, &f->st, f->m);
  f->single = true;
  f->phase = SVG_PHASE_CHILDREN;
  f->then = SVG_PHASE_AFTER_CONTENT;
  return CN_OK;
}

/* A shape, drawn at once. */
static cn_result render_shape_frame(svg_loader *L, svg_frame *f) {
  f->phase = SVG_PHASE_AFTER_CONTENT;
  return render_shape(L, f->node, &f->st, f->m, f->alpha);
}

/* Starts the element's content: each kind of element has its function;
 * those with children set f->phase to wait for them, the others draw at
 * once and go on to SVG_PHASE_AFTER_CONTENT. */
static cn_result content_begin(svg_loader *L, svg_frame *f) {
  const char *name = (const char *)f->node->name;
  if (strcmp(name, "g") == 0 || strcmp(name, "a") == 0 || f->node == L->root) return render_group(L, f);
  if (strcmp(name, "svg") == 0) return render_svg(L, f);
  if (strcmp(name, "use") == 0) return cn__svg_use_begin(L, f);
  if (strcmp(name, "switch") == 0) return render_switch(L, f);
  if (strcmp(name, "image") == 0) { /* drawn at once (an SVG image as a nested traversal of its own document) */
    f->phase = SVG_PHASE_AFTER_CONTENT;
    return cn__svg_render_image(L, f->node, &f->st, f->m);
  }
  if (strcmp(name, "text") == 0) { /* laid out and drawn at once (svg_text.c) */
    f->phase = SVG_PHASE_AFTER_CONTENT;
    return cn__svg_render_text(L, f->node, &f->st, f->m);
  }
  return render_shape_frame(L, f);
}

/* ---------------------------------------------------------- element steps */

/* Is n an element this loader renders (else it is skipped, and counted)? */
static bool element_rendered(svg_loader *L, xmlNode *n) {
  if (n->type != XML_ELEMENT_NODE) return false;
  if (!cn__svg_is_element(n)) {
    cn__svg_skip(L, CN_SVG_SKIP_FOREIGN);
    return false;
  }
  const char *name = (const char *)n->name;
  if (is_definition(name)) return false;
  if (strcmp(name, "foreignObject") == 0) return cn__svg_skip(L, CN_SVG_SKIP_FOREIGN), false;
  bool known = strcmp(name, "g") == 0 || strcmp(name, "a") == 0 || strcmp(name, "svg") == 0 ||
               strcmp(name, "use") == 0 || strcmp(name, "switch") == 0 || strcmp(name, "image") == 0 ||
               strcmp(name, "text") == 0 || cn__svg_is_shape(n);
  if (!known) return cn__svg_skip(L, CN_SVG_SKIP_UNKNOWN), false;
  return cn__svg_conditions_pass(n);
}

/* The start of an element: style, transform, and the effect groups around
 * its content (clip-path, mask, opacity, blending). */
static cn_result element_start(svg_loader *L, svg_frame *f) {
  xmlNode *n = f->node;
  f->phase = SVG_PHASE_DONE;
  if (!element_rendered(L, n)) return CN_OK;
  CN_TRY(cn__svg_work(L, n, 8)); /* an element costs about as much as 8 path commands */
  svg_style *st = &f->st;
  cn__svg_style_compute(L, n, f->parent->cst, st);
  if (st->display_none) return CN_OK;
  if (st->filter) {
    cn__svg_skip(L, CN_SVG_SKIP_FILTER);
    return CN_OK;
  }
  svg_mat m = cn__svg_mat_mul(f->parent->cctm, cn__svg_transform_attr(L, n, "transform", st, L->vw, L->vh));
  if (!cn__svg_mat_finite(m))
    return cn_fail(CN_ERROR_LIMIT, "line %d: the transform of <%s> overflows", cn__svg_line(n), (const char *)n->name);
  if (m.a * m.d - m.b * m.c == 0) return CN_OK; /* collapsed to nothing */
  f->m = m;
  /* references that do not resolve to the right kind of element are ignored */
  if (st->clip_missing || (st->clip_path && !cn__svg_is(st->clip_path, "clipPath"))) {
    CN_TRY(cn__svg_warn(L, CN_SVG_SKIP_MISSING_REF, n, "clip-path of <%s> is not a clipPath in this document; ignored",
                        (const char *)n->name));
    st->clip_path = NULL;
  }
  if (st->mask_missing || (st->mask && !cn__svg_is(st->mask, "mask"))) {
    CN_TRY(cn__svg_warn(L, CN_SVG_SKIP_MISSING_REF, n, "mask of <%s> is not a mask in this document; ignored",
                        (const char *)n->name));
    st->mask = NULL;
  }
  bool shape = cn__svg_is_shape(n);
  bool group = st->opacity < 1 || st->blend != CN_BLEND_NORMAL || st->isolate;
  f->alpha = 1;
  if (group && shape && !st->mask && st->blend == CN_BLEND_NORMAL && !st->isolate && !has_markers(n, st)) {
    int ops = (st->fill.kind != SVG_PAINT_NONE && !cn__svg_is(n, "line")) + (st->stroke.kind != SVG_PAINT_NONE);
    if (ops <= 1) { /* one thing drawn: opacity folds into its paint */
      f->alpha = st->opacity;
      group = false;
    }
  }
  f->after = SVG_AFTER_NONE;
  if (st->clip_path || st->mask) {
    /* Clips and masks may need the content's bounds (objectBoundingBox
     * units, on the clipPath, its clip-path or children, or the mask):
     * the content first, gathering its bounds; the opening groups come
     * after it and are moved in front (SVG_AFTER_BOUNDS) */
    bool ok;
    CN_TRY(cn__svg_bbox_begin(L, m, &ok));
    if (!ok) return CN_OK;
    f->mark = cn__scene_element_count(L->b);
    f->after = SVG_AFTER_BOUNDS;
    f->group = group;
  } else if (group) {
    f->mark = cn__scene_element_count(L->b);
    bool hidden;
    CN_TRY(open_effects(L, n, st, m, NULL, group, &f->pushed, &hidden));
    if (hidden) {
      cn__scene_truncate_elements(L->b, f->mark);
      return CN_OK;
    }
    f->after = SVG_AFTER_POP;
  }
  return content_begin(L, f);
}

/* After the content: the effect groups (opened now when they needed the
 * content's bounds) are closed. */
static cn_result element_finish(svg_loader *L, svg_frame *f) {
  f->phase = SVG_PHASE_DONE;
  if (f->after == SVG_AFTER_BOUNDS) {
    double bbox[4] = {0, 0, 0, 0};
    bool any = cn__svg_bbox_end(L, bbox);
    uint32_t split = cn__scene_element_count(L->b);
    if (split == f->mark) return CN_OK; /* nothing drawn: no groups needed */
    bool hidden;
    CN_TRY(open_effects(L, f->node, &f->st, f->m, any ? bbox : NULL, f->group, &f->pushed, &hidden));
    if (hidden) {
      cn__scene_truncate_elements(L->b, f->mark);
      return CN_OK;
    }
    CN_TRY(cn__scene_rotate(L->b, f->mark, split));
  }
  for (; f->pushed; f->pushed--) CN_TRY(cn_scene_pop(L->b));
  return CN_OK;
}

static cn_result element_step(svg_loader *L, svg_frame *f) {
  switch (f->phase) {
    case SVG_PHASE_START: return element_start(L, f);
    case SVG_PHASE_SYMBOL: return cn__svg_symbol_begin(L, f);
    case SVG_PHASE_CHILDREN: {
      bool pushed;
      CN_TRY(push_next_child(L, f, &pushed));
      if (!pushed) f->phase = f->then;
      return CN_OK;
    }
    case SVG_PHASE_VIEWPORT_END:
      f->phase = SVG_PHASE_AFTER_CONTENT;
      return cn__svg_viewport_end(L, f);
    case SVG_PHASE_AFTER_CONTENT: return element_finish(L, f);
    case SVG_PHASE_USE_DRY:
    case SVG_PHASE_USE_END: return cn__svg_use_step(L, f);
    default: return cn_fail(CN_ERROR_STATE, "internal: frame phase %u", f->phase);
  }
}

static cn_result children_step(svg_loader *L, svg_frame *f) {
  bool pushed;
  CN_TRY(push_next_child(L, f, &pushed));
  if (!pushed) f->phase = SVG_PHASE_DONE;
  return CN_OK;
}

/* Runs the frames above base until none is left. A step either pushes
 * frames (and is stepped again once they are done) or finishes its frame. */
static cn_result run(svg_loader *L, uint32_t base) {
  cn_result r = CN_OK;
  while (r == CN_OK && L->nframes > base) {
    svg_frame *f = frame_at(L, L->nframes - 1);
    if (f->phase == SVG_PHASE_DONE) frame_pop(L);
    else r = f->kind == SVG_FRAME_ELEMENT ? element_step(L, f) : children_step(L, f);
  }
  while (L->nframes > base) frame_pop(L); /* after a failure */
  return r;
}

static cn_result run_children(svg_loader *L, xmlNode *node, xmlNode *first, bool single, const svg_style *st,
                              svg_mat ctm) {
  uint32_t base = L->nframes;
  svg_frame *f = cn__svg_frame_push(L, SVG_FRAME_CHILDREN, NULL);
  if (!f) return no_frame_memory(node);
  cn__svg_frame_children(f, first, st, ctm);
  f->single = single;
  return run(L, base);
}

cn_result cn__svg_render_node(svg_loader *L, xmlNode *n, const svg_style *parent, svg_mat ctm) {
  return run_children(L, n, n, true, parent, ctm);
}

cn_result cn__svg_render_children(svg_loader *L, xmlNode *node, const svg_style *st, svg_mat ctm) {
  return run_children(L, node, node->children, false, st, ctm);
}
