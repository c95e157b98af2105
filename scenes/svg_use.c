/* svg_use.c: use (x, y, href/xlink:href, cycles), symbol and nested svg
 * viewports (viewBox, preserveAspectRatio, overflow clip), switch and the
 * conditional processing attributes. These run as phases of the
 * traversal's frames (svg_render.c): a use pushes its target as a frame and
 * goes on when that frame is done. */
#include "svg_internal.h"

#include <stdlib.h>
#include <string.h>

bool cn__svg_conditions_pass(const xmlNode *n) {
  if (cn__svg_attr(n, "requiredExtensions")) return false; /* no extensions supported */
  const char *lang = cn__svg_attr(n, "systemLanguage");
  if (lang) {
    /* the user language is "en": pass when a listed language is en or en-* */
    const char *s = lang;
    while (*s) {
      while (*s == ' ' || *s == ',') s++;
      const char *w = s;
      while (*s && *s != ',' && *s != ' ') s++;
      size_t len = (size_t)(s - w);
      if (len >= 2 && strncmp(w, "en", 2) == 0 && (len == 2 || w[2] == '-')) return true;
    }
    return false;
  }
  return true;
}

xmlNode *cn__svg_switch_choice(xmlNode *sw) {
  for (xmlNode *c = sw->children; c; c = c->next) {
    if (c->type != XML_ELEMENT_NODE || !cn__svg_is_renderable(c)) continue; /* unknown elements are not candidates */
    if (cn__svg_conditions_pass(c)) return c;
  }
  return NULL;
}

static double len_or(svg_loader *L, const xmlNode *n, const char *name, int axis, double def, const svg_style *st) {
  svg_length l;
  if (!cn__svg_parse_length(cn__svg_attr(n, name), &l)) return def;
  return cn__svg_length_user(l, axis, L->vw, L->vh, st->font_size);
}

cn_result cn__svg_viewport_begin(svg_loader *L, svg_frame *f, const svg_style *st, svg_mat ctm, double x, double y,
                                 double w, double h) {
  xmlNode *node = f->node;
  f->phase = SVG_PHASE_AFTER_CONTENT;
  if (!(w > 0) || !(h > 0)) return CN_OK; /* a zero-size viewport renders nothing */
  svg_viewbox vb;
  bool has_vb = cn__svg_parse_viewbox(cn__svg_attr(node, "viewBox"), &vb);
  svg_aspect ar;
  cn__svg_parse_aspect(cn__svg_attr(node, "preserveAspectRatio"), &ar);
  svg_mat inner = cn__svg_mat_mul(ctm, cn__svg_mat_translate(x, y));
  if (has_vb) inner = cn__svg_mat_mul(inner, cn__svg_viewbox_matrix(vb, ar, w, h));
  if (!cn__svg_mat_finite(inner))
    return cn_fail(CN_ERROR_LIMIT, "line %d: the viewport of <%s> overflows", cn__svg_line(node), (const char *)node->name);
  f->clip = !st->overflow_visible;
  if (f->clip) {
    svg_path p = {0};
    cn__svg_path_rect(&p, x, y, w, h, 0, 0);
    uint32_t id;
    cn_result r = cn__svg_emit_path(L, node, &p, ctm, &id);
    cn__svg_path_free(&p);
    CN_TRY(r);
    CN_TRY(cn_scene_push_clip(L->b, id, CN_RULE_NONZERO));
  }
  f->saved_vw = L->vw, f->saved_vh = L->vh;
  L->vw = has_vb ? vb.w : w;
  L->vh = has_vb ? vb.h : h;
  cn__svg_frame_children(f, node->children, st, inner);
  f->phase = SVG_PHASE_CHILDREN;
  f->then = SVG_PHASE_VIEWPORT_END;
  return CN_OK;
}

cn_result cn__svg_viewport_end(svg_loader *L, svg_frame *f) {
  L->vw = f->saved_vw, L->vh = f->saved_vh;
  if (f->clip) CN_TRY(cn_scene_pop(L->b));
  return CN_OK;
}

/* Is a an ancestor of (or equal to) n? The steps count as work. */
static cn_result is_ancestor(svg_loader *L, const xmlNode *a, const xmlNode *n, bool *yes) {
  uint64_t steps = 0;
  *yes = false;
  for (; n; n = n->parent, steps++)
    if (n == a) {
      *yes = true;
      break;
    }
  return cn__svg_work(L, a, steps / 8);
}

/* What a use element keeps between its phases. */
typedef struct svg_use_state {
  xmlNode *ref;
  bool ref_pushed;
  svg_context_paint saved_ctx[2];
  bool saved_valid, context_set;
  cn_svg_stats *stats;
  bool stats_hidden;
  bool has_box;
  double box[4];
  uint32_t mark;
} svg_use_state;

void cn__svg_use_free(svg_loader *L, svg_frame *f) {
  svg_use_state *u = f->use;
  if (u->context_set) cn__svg_context_pop(L, u->saved_ctx, u->saved_valid);
  if (u->stats_hidden) L->stats = u->stats;
  if (u->ref_pushed) cn__svg_pop_ref(L);
  free(u);
  f->use = NULL;
}

/* Pushes the frame that renders the use's target: a symbol or svg as a new
 * viewport, anything else as an element. */
static cn_result push_target(svg_loader *L, svg_frame *f) {
  xmlNode *ref = f->use->ref;
  svg_frame *g = cn__svg_frame_push(L, SVG_FRAME_ELEMENT, f);
  if (!g) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "line %d: no memory for the traversal of <use>", cn__svg_line(f->node));
  g->node = ref;
  g->phase = cn__svg_is(ref, "symbol") || cn__svg_is(ref, "svg") ? SVG_PHASE_SYMBOL : SVG_PHASE_START;
  return CN_OK;
}

/* A use of an element of another document (href="file.svg#id"): a nested
 * traversal of that document's loader, drawn at once. */
static cn_result render_external_use(svg_loader *L, xmlNode *node, const char *href, const svg_style *st, svg_mat ctm) {
  svg_loader *S;
  xmlNode *ref;
  CN_TRY(cn__svg_open_external(L, node, href, &S, &ref));
  if (!S) return CN_OK;
  if (cn__svg_is(ref, "symbol")) {
    if (!S->doc_path) cn__svg_loader_free(S); /* a data: document is not kept */
    return cn__svg_warn(L, CN_SVG_SKIP_MISSING_REF, node, "<use> of a symbol in another file (%.80s) is not supported",
                        href);
  }
  double x = len_or(L, node, "x", SVG_AXIS_X, 0, st), y = len_or(L, node, "y", SVG_AXIS_Y, 0, st);
  svg_mat m = cn__svg_mat_mul(ctm, cn__svg_mat_translate(x, y));
  cn__svg_external_begin(L, S);
  S->vw = L->vw, S->vh = L->vh;
  svg_context_paint saved_ctx[2];
  bool saved_valid;
  cn__svg_context_push(S, st, ctm, NULL, saved_ctx, &saved_valid);
  cn_result r = cn__svg_enter(S, node);
  if (r == CN_OK) {
    r = cn__svg_render_node(S, ref, st, m);
    cn__svg_leave(S);
  }
  cn__svg_context_pop(S, saved_ctx, saved_valid);
  cn__svg_external_end(L, S);
  return r;
}

cn_result cn__svg_use_begin(svg_loader *L, svg_frame *f) {
  xmlNode *node = f->node;
  const svg_style *st = &f->st;
  f->phase = SVG_PHASE_AFTER_CONTENT;
  const char *raw = cn__svg_href_raw(node);
  if (raw && *raw != '#') return render_external_use(L, node, raw, st, f->m);
  const char *href = cn__svg_href(node);
  xmlNode *ref = href ? cn__svg_lookup(L, href, strlen(href)) : NULL;
  if (!ref) {
    if (href) return cn__svg_warn(L, CN_SVG_SKIP_MISSING_REF, node, "<use> references #%.60s, which does not exist", href);
    return CN_OK; /* no href: nothing to draw */
  }
  bool inside;
  CN_TRY(is_ancestor(L, ref, node, &inside));
  if (inside || cn__svg_is_active(L, ref))
    return cn__svg_warn(L, CN_SVG_SKIP_CYCLE, node, "<use> references #%.60s, which contains it (a cycle); skipped", href);
  svg_use_state *u = calloc(1, sizeof *u);
  if (!u) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "line %d: no memory for <use>", cn__svg_line(node));
  f->use = u;
  u->ref = ref;
  if (!cn__svg_push_ref(L, ref, node))
    return cn_fail(CN_ERROR_OUT_OF_MEMORY, "line %d: no memory for the chain of references", cn__svg_line(node));
  u->ref_pushed = true;
  double x = len_or(L, node, "x", SVG_AXIS_X, 0, st), y = len_or(L, node, "y", SVG_AXIS_Y, 0, st);
  /* the target is rendered with the use's style, translated by x, y */
  f->cst = st;
  f->cctm = cn__svg_mat_mul(f->m, cn__svg_mat_translate(x, y));
  /* the use element is the context element of context-fill/context-stroke
   * in what it instances (its bounds are not known yet: objectBoundingBox
   * gradients there use the fallback) */
  if (st->fill.kind == SVG_PAINT_REF || st->stroke.kind == SVG_PAINT_REF) {
    /* a paint server as context paint may need the use's bounds: a dry run
     * gathers them (its elements are dropped again) */
    bool ok;
    CN_TRY(cn__svg_bbox_begin(L, f->m, &ok));
    if (ok) {
      u->mark = cn__scene_element_count(L->b);
      u->stats = L->stats; /* warnings and skips are counted in the real run */
      L->stats = NULL;
      u->stats_hidden = true;
      cn__svg_context_push(L, st, f->m, NULL, u->saved_ctx, &u->saved_valid);
      u->context_set = true;
      f->phase = SVG_PHASE_USE_DRY;
      return push_target(L, f);
    }
  }
  cn__svg_context_push(L, st, f->m, NULL, u->saved_ctx, &u->saved_valid);
  u->context_set = true;
  f->phase = SVG_PHASE_USE_END;
  return push_target(L, f);
}

cn_result cn__svg_use_step(svg_loader *L, svg_frame *f) {
  svg_use_state *u = f->use;
  if (f->phase == SVG_PHASE_USE_DRY) {
    cn__svg_context_pop(L, u->saved_ctx, u->saved_valid);
    L->stats = u->stats;
    u->stats_hidden = false;
    u->has_box = cn__svg_bbox_end(L, u->box);
    cn__scene_truncate_elements(L->b, u->mark);
    cn__svg_context_push(L, &f->st, f->m, u->has_box ? u->box : NULL, u->saved_ctx, &u->saved_valid);
    f->phase = SVG_PHASE_USE_END;
    return push_target(L, f);
  }
  /* SVG_PHASE_USE_END */
  cn__svg_use_free(L, f);
  f->phase = SVG_PHASE_AFTER_CONTENT;
  return CN_OK;
}

cn_result cn__svg_symbol_begin(svg_loader *L, svg_frame *f) {
  xmlNode *ref = f->node;
  const svg_style *st = f->parent->cst; /* the use's style */
  svg_mat m = f->parent->cctm;
  xmlNode *node = f->parent->node; /* the use */
  f->phase = SVG_PHASE_DONE;
  CN_TRY(cn__svg_work(L, ref, 8));
  svg_style *rs = &f->st;
  cn__svg_style_compute(L, ref, st, rs);
  if (rs->display_none) return CN_OK;
  /* symbol (SVG 2) and svg may carry x/y/width/height; use's width/height win */
  double rx = len_or(L, ref, "x", SVG_AXIS_X, 0, rs), ry = len_or(L, ref, "y", SVG_AXIS_Y, 0, rs);
  double w = len_or(L, ref, "width", SVG_AXIS_X, L->vw, rs), h = len_or(L, ref, "height", SVG_AXIS_Y, L->vh, rs);
  w = len_or(L, node, "width", SVG_AXIS_X, w, st);
  h = len_or(L, node, "height", SVG_AXIS_Y, h, st);
  svg_mat t = cn__svg_transform_attr(L, ref, "transform", rs, L->vw, L->vh);
  /* the symbol's own opacity and blending (its clip-path and mask are not supported) */
  f->after = SVG_AFTER_NONE;
  if (rs->opacity < 1 || rs->blend != CN_BLEND_NORMAL || rs->isolate) {
    CN_TRY(cn_scene_push_blend(L->b, rs->blend, rs->opacity, CN_BLEND_ISOLATED));
    f->pushed = 1;
    f->after = SVG_AFTER_POP;
  }
  CN_TRY(cn__svg_viewport_begin(L, f, rs, cn__svg_mat_mul(m, t), rx, ry, w, h));
  return CN_OK;
}
