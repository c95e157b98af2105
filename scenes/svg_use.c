/* svg_use.c: use (x, y, href/xlink:href, cycles), symbol and nested svg
 * viewports (viewBox, preserveAspectRatio, overflow clip), switch and the
 * conditional processing attributes. */
#include "svg_internal.h"

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

cn_result cn__svg_render_switch(svg_loader *L, xmlNode *node, const svg_style *st, svg_mat ctm) {
  for (xmlNode *c = node->children; c; c = c->next) {
    if (c->type != XML_ELEMENT_NODE || !cn__svg_is_renderable(c)) continue; /* unknown elements are not candidates */
    if (!cn__svg_conditions_pass(c)) continue;
    return cn__svg_render_node(L, c, st, ctm);
  }
  return CN_OK;
}

static double len_or(svg_loader *L, const xmlNode *n, const char *name, int axis, double def, const svg_style *st) {
  svg_length l;
  if (!cn__svg_parse_length(cn__svg_attr(n, name), &l)) return def;
  return cn__svg_length_user(l, axis, L->vw, L->vh, st->font_size);
}

cn_result cn__svg_render_viewport(svg_loader *L, xmlNode *node, const svg_style *st, svg_mat ctm, double x, double y,
                              double w, double h) {
  if (!(w > 0) || !(h > 0)) return CN_OK; /* a zero-size viewport renders nothing */
  svg_viewbox vb;
  bool has_vb = cn__svg_parse_viewbox(cn__svg_attr(node, "viewBox"), &vb);
  svg_aspect ar;
  cn__svg_parse_aspect(cn__svg_attr(node, "preserveAspectRatio"), &ar);
  svg_mat inner = cn__svg_mat_mul(ctm, cn__svg_mat_translate(x, y));
  if (has_vb) inner = cn__svg_mat_mul(inner, cn__svg_viewbox_matrix(vb, ar, w, h));
  if (!cn__svg_mat_finite(inner))
    return cn_fail(CN_ERROR_LIMIT, "line %d: the viewport of <%s> overflows", cn__svg_line(node), (const char *)node->name);
  bool clip = !st->overflow_visible;
  if (clip) {
    svg_path p = {0};
    cn__svg_path_rect(&p, x, y, w, h, 0, 0);
    uint32_t id;
    cn_result r = cn__svg_emit_path(L, node, &p, ctm, &id);
    cn__svg_path_free(&p);
    CN_TRY(r);
    CN_TRY(cn_scene_push_clip(L->b, id, CN_RULE_NONZERO));
  }
  double ow = L->vw, oh = L->vh;
  L->vw = has_vb ? vb.w : w;
  L->vh = has_vb ? vb.h : h;
  cn_result r = cn__svg_render_children(L, node, st, inner);
  L->vw = ow, L->vh = oh;
  CN_TRY(r);
  if (clip) CN_TRY(cn_scene_pop(L->b));
  return CN_OK;
}

/* Is a an ancestor of (or equal to) n? */
static bool is_ancestor(const xmlNode *a, const xmlNode *n) {
  for (; n; n = n->parent)
    if (n == a) return true;
  return false;
}

/* Renders what a use references, translated by m. */
static cn_result render_ref(svg_loader *L, xmlNode *node, xmlNode *ref, const svg_style *st, svg_mat m) {
  cn_result r = CN_OK;
  if (cn__svg_is(ref, "symbol") || cn__svg_is(ref, "svg")) {
    r = cn__svg_enter(L, ref);
    if (r == CN_OK) {
      svg_style rs;
      cn__svg_style_compute(L, ref, st, &rs);
      if (!rs.display_none) {
        /* symbol (SVG 2) and svg may carry x/y/width/height; use's width/height win */
        double rx = len_or(L, ref, "x", SVG_AXIS_X, 0, &rs), ry = len_or(L, ref, "y", SVG_AXIS_Y, 0, &rs);
        double w = len_or(L, ref, "width", SVG_AXIS_X, L->vw, &rs), h = len_or(L, ref, "height", SVG_AXIS_Y, L->vh, &rs);
        w = len_or(L, node, "width", SVG_AXIS_X, w, st);
        h = len_or(L, node, "height", SVG_AXIS_Y, h, st);
        svg_mat t = cn__svg_transform_attr(L, ref, "transform", &rs, L->vw, L->vh);
        /* the symbol's own opacity and blending (its clip-path and mask are not supported) */
        bool group = rs.opacity < 1 || rs.blend != CN_BLEND_NORMAL || rs.isolate;
        if (group) r = cn_scene_push_blend(L->b, rs.blend, rs.opacity, CN_BLEND_ISOLATED);
        if (r == CN_OK) r = cn__svg_render_viewport(L, ref, &rs, cn__svg_mat_mul(m, t), rx, ry, w, h);
        if (r == CN_OK && group) r = cn_scene_pop(L->b);
      }
      cn__svg_leave(L);
    }
  } else {
    r = cn__svg_render_node(L, ref, st, m);
  }
  return r;
}

/* A use of an element of another document (href="file.svg#id"). */
static cn_result render_external_use(svg_loader *L, xmlNode *node, const char *href, const svg_style *st, svg_mat ctm) {
  svg_loader *S;
  xmlNode *ref;
  CN_TRY(cn__svg_open_external(L, node, href, &S, &ref));
  if (!S) return CN_OK;
  double x = len_or(L, node, "x", SVG_AXIS_X, 0, st), y = len_or(L, node, "y", SVG_AXIS_Y, 0, st);
  svg_mat m = cn__svg_mat_mul(ctm, cn__svg_mat_translate(x, y));
  cn__svg_external_begin(L, S);
  S->vw = L->vw, S->vh = L->vh;
  svg_context_paint saved_ctx[2];
  bool saved_valid;
  cn__svg_context_push(S, st, ctm, NULL, saved_ctx, &saved_valid);
  cn_result r = render_ref(S, node, ref, st, m);
  cn__svg_context_pop(S, saved_ctx, saved_valid);
  cn__svg_external_end(L, S);
  return r;
}

cn_result cn__svg_render_use(svg_loader *L, xmlNode *node, const svg_style *st, svg_mat ctm) {
  const char *raw = cn__svg_href_raw(node);
  if (raw && *raw != '#') return render_external_use(L, node, raw, st, ctm);
  const char *href = cn__svg_href(node);
  xmlNode *ref = href ? cn__svg_lookup(L, href, strlen(href)) : NULL;
  if (!ref) {
    if (href) return cn__svg_warn(L, CN_SVG_SKIP_MISSING_REF, node, "<use> references #%.60s, which does not exist", href);
    return CN_OK; /* no href: nothing to draw */
  }
  if (is_ancestor(ref, node) || !cn__svg_push_ref(L, ref, node))
    return cn__svg_warn(L, CN_SVG_SKIP_CYCLE, node, "<use> references #%.60s, which contains it (a cycle); skipped", href);
  double x = len_or(L, node, "x", SVG_AXIS_X, 0, st), y = len_or(L, node, "y", SVG_AXIS_Y, 0, st);
  svg_mat m = cn__svg_mat_mul(ctm, cn__svg_mat_translate(x, y));
  cn_result r = CN_OK;
  /* the use element is the context element of context-fill/context-stroke
   * in what it instances (its bounds are not known yet: objectBoundingBox
   * gradients there use the fallback) */
  svg_context_paint saved_ctx[2];
  bool saved_valid;
  double box[4];
  bool has_box = false;
  if (st->fill.kind == SVG_PAINT_REF || st->stroke.kind == SVG_PAINT_REF) {
    /* a paint server as context paint may need the use's bounds: a dry run
     * gathers them (its elements are dropped again) */
    bool ok;
    r = cn__svg_bbox_begin(L, ctm, &ok);
    if (r == CN_OK && ok) {
      uint32_t mark = cn__scene_element_count(L->b);
      cn_svg_stats *stats = L->stats; /* warnings and skips are counted in the real run */
      L->stats = NULL;
      cn__svg_context_push(L, st, ctm, NULL, saved_ctx, &saved_valid);
      r = render_ref(L, node, ref, st, m);
      cn__svg_context_pop(L, saved_ctx, saved_valid);
      L->stats = stats;
      has_box = cn__svg_bbox_end(L, box);
      cn__scene_truncate_elements(L->b, mark);
    }
    if (r != CN_OK) {
      cn__svg_pop_ref(L);
      return r;
    }
  }
  cn__svg_context_push(L, st, ctm, has_box ? box : NULL, saved_ctx, &saved_valid);
  if (r == CN_OK) r = render_ref(L, node, ref, st, m);
  cn__svg_context_pop(L, saved_ctx, saved_valid);
  cn__svg_pop_ref(L);
  return r;
}
