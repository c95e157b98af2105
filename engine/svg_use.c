/* svg_use.c: use (x, y, href/xlink:href, cycles), symbol and nested svg
 * viewports (viewBox, preserveAspectRatio, overflow clip), switch and the
 * conditional processing attributes. */
#include "svg_internal.h"

#include <string.h>

bool svg_conditions_pass(const xmlNode *n) {
  if (svg_attr(n, "requiredExtensions")) return false; /* no extensions supported */
  const char *lang = svg_attr(n, "systemLanguage");
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

cn_result svg_render_switch(svg_loader *L, xmlNode *node, const svg_style *st, svg_mat ctm) {
  for (xmlNode *c = node->children; c; c = c->next) {
    if (c->type != XML_ELEMENT_NODE || !svg_is_element(c)) continue;
    if (!svg_conditions_pass(c)) continue;
    return svg_render_node(L, c, st, ctm);
  }
  return CN_OK;
}

static double len_or(svg_loader *L, const xmlNode *n, const char *name, int axis, double def, const svg_style *st) {
  svg_length l;
  if (!svg_parse_length(svg_attr(n, name), &l)) return def;
  return svg_length_user(l, axis, L->vw, L->vh, st->font_size);
}

cn_result svg_render_viewport(svg_loader *L, xmlNode *node, const svg_style *st, svg_mat ctm, double x, double y,
                              double w, double h) {
  if (!(w > 0) || !(h > 0)) return CN_OK; /* a zero-size viewport renders nothing */
  svg_viewbox vb;
  bool has_vb = svg_parse_viewbox(svg_attr(node, "viewBox"), &vb);
  svg_aspect ar;
  svg_parse_aspect(svg_attr(node, "preserveAspectRatio"), &ar);
  svg_mat inner = svg_mat_mul(ctm, svg_mat_translate(x, y));
  if (has_vb) inner = svg_mat_mul(inner, svg_viewbox_matrix(vb, ar, w, h));
  if (!svg_mat_finite(inner))
    return cn_fail(CN_ERROR_LIMIT, "line %d: the viewport of <%s> overflows", svg_line(node), (const char *)node->name);
  bool clip = !st->overflow_visible;
  if (clip) {
    svg_path p = {0};
    svg_path_rect(&p, x, y, w, h, 0, 0);
    uint32_t id;
    cn_result r = svg_emit_path(L, node, &p, ctm, &id);
    svg_path_free(&p);
    CN_TRY(r);
    CN_TRY(cn_scene_push_clip(L->b, id, CN_RULE_NONZERO));
  }
  double ow = L->vw, oh = L->vh;
  L->vw = has_vb ? vb.w : w;
  L->vh = has_vb ? vb.h : h;
  cn_result r = svg_render_children(L, node, st, inner);
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

cn_result svg_render_use(svg_loader *L, xmlNode *node, const svg_style *st, svg_mat ctm) {
  const char *href = svg_href(node);
  xmlNode *ref = href ? svg_lookup(L, href, strlen(href)) : NULL;
  if (!ref) {
    if (href) return svg_warn(L, CN_SVG_SKIP_MISSING_REF, node, "<use> references #%.60s, which does not exist", href);
    return CN_OK; /* no href, or an external one: nothing to draw */
  }
  if (is_ancestor(ref, node) || !svg_push_ref(L, ref, node))
    return svg_warn(L, CN_SVG_SKIP_CYCLE, node, "<use> references #%.60s, which contains it (a cycle); skipped", href);
  double x = len_or(L, node, "x", SVG_AXIS_X, 0, st), y = len_or(L, node, "y", SVG_AXIS_Y, 0, st);
  svg_mat m = svg_mat_mul(ctm, svg_mat_translate(x, y));
  cn_result r = CN_OK;
  if (svg_is(ref, "symbol") || svg_is(ref, "svg")) {
    r = svg_enter(L, ref);
    if (r == CN_OK) {
      svg_style rs;
      svg_style_compute(L, ref, st, &rs);
      if (!rs.display_none) {
        /* symbol (SVG 2) and svg may carry x/y/width/height; use's width/height win */
        double rx = len_or(L, ref, "x", SVG_AXIS_X, 0, &rs), ry = len_or(L, ref, "y", SVG_AXIS_Y, 0, &rs);
        double w = len_or(L, ref, "width", SVG_AXIS_X, L->vw, &rs), h = len_or(L, ref, "height", SVG_AXIS_Y, L->vh, &rs);
        w = len_or(L, node, "width", SVG_AXIS_X, w, st);
        h = len_or(L, node, "height", SVG_AXIS_Y, h, st);
        svg_mat t;
        svg_parse_transform(svg_attr(ref, "transform"), &t);
        r = svg_render_viewport(L, ref, &rs, svg_mat_mul(m, t), rx, ry, w, h);
      }
      svg_leave(L);
    }
  } else {
    r = svg_render_node(L, ref, st, m);
  }
  svg_pop_ref(L);
  return r;
}
