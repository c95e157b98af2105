/* svg_pattern.c: pattern fills expanded into geometry. The scene encoding
 * has no pattern paint, so a shape filled with a pattern becomes
 *   [BEGIN_BLEND(fill-opacity)] BEGIN_CLIP(shape, fill-rule)
 *     for every tile that meets the shape: BEGIN_CLIP(tile) <content> END_CLIP
 *   END_CLIP [END_BLEND]
 * with patternUnits, patternContentUnits, patternTransform (and
 * transform-origin), x/y/width/height, viewBox, preserveAspectRatio and href
 * inheritance of attributes and content. At most SVG_MAX_PATTERN_TILES tiles:
 * beyond, the fallback colour is used (with a warning). Strokes with a
 * pattern use the fallback colour. */
#include "svg_internal.h"

#include <math.h>
#include <string.h>

#define SVG_MAX_PATTERN_TILES 4096
#define SVG_MAX_PATTERN_CHAIN 64

static const char *chain_attr(xmlNode **chain, uint32_t n, const char *name, xmlNode **from) {
  for (uint32_t i = 0; i < n; i++) {
    const char *v = cn__svg_attr(chain[i], name);
    if (v) {
      if (from) *from = chain[i];
      return v;
    }
  }
  return NULL;
}

static bool has_element_child(const xmlNode *n) {
  for (const xmlNode *c = n->children; c; c = c->next)
    if (c->type == XML_ELEMENT_NODE) return true;
  return false;
}

/* A length of the pattern tile: a fraction of the bounds in objectBoundingBox units. */
static double tile_len(svg_loader *L, const char *v, bool obb, int axis, const double *bbox) {
  svg_length l;
  if (!cn__svg_parse_length(v, &l)) return 0;
  if (!obb) return cn__svg_length_user(l, axis, L->vw, L->vh, 16);
  double f = l.unit == SVG_UNIT_PERCENT ? l.v / 100 : l.v;
  return f * (axis == SVG_AXIS_X ? bbox[2] - bbox[0] : bbox[3] - bbox[1]);
}

cn_result cn__svg_fill_pattern(svg_loader *L, xmlNode *node, xmlNode *pattern, uint32_t path, uint32_t rule,
                           float opacity, svg_mat ctm, const double bbox[4], bool *painted) {
  *painted = false;
  xmlNode *chain[SVG_MAX_PATTERN_CHAIN];
  uint32_t n = 0;
  for (xmlNode *c = pattern; c && cn__svg_is(c, "pattern") && n < SVG_MAX_PATTERN_CHAIN;) {
    for (uint32_t i = 0; i < n; i++)
      if (chain[i] == c) {
        c = NULL;
        break;
      }
    if (!c) break;
    chain[n++] = c;
    const char *h = cn__svg_href(c);
    c = h ? cn__svg_lookup(L, h, strlen(h)) : NULL;
  }
  xmlNode *content = NULL;
  for (uint32_t i = 0; i < n && !content; i++)
    if (has_element_child(chain[i])) content = chain[i];
  const char *u = chain_attr(chain, n, "patternUnits", NULL);
  bool obb = !u || strcmp(u, "userSpaceOnUse") != 0;
  const char *cu = chain_attr(chain, n, "patternContentUnits", NULL);
  bool content_obb = cu && strcmp(cu, "objectBoundingBox") == 0;
  double bw = bbox[2] - bbox[0], bh = bbox[3] - bbox[1];
  if ((obb || content_obb) && (!(bw > 0) || !(bh > 0))) return CN_OK; /* the fallback */
  double x = tile_len(L, chain_attr(chain, n, "x", NULL), obb, SVG_AXIS_X, bbox);
  double y = tile_len(L, chain_attr(chain, n, "y", NULL), obb, SVG_AXIS_Y, bbox);
  double w = tile_len(L, chain_attr(chain, n, "width", NULL), obb, SVG_AXIS_X, bbox);
  double h = tile_len(L, chain_attr(chain, n, "height", NULL), obb, SVG_AXIS_Y, bbox);
  if (obb) x += bbox[0], y += bbox[1];
  *painted = true; /* from here on, no fallback: an empty pattern paints nothing */
  if (!content || !(w > 0) || !(h > 0) || !isfinite(x) || !isfinite(y)) return CN_OK;
  xmlNode *pt_src = pattern;
  chain_attr(chain, n, "patternTransform", &pt_src);
  svg_mat pt = cn__svg_transform_attr(L, pt_src, "patternTransform", NULL, L->vw, L->vh);
  svg_mat pt_inv;
  if (!cn__svg_mat_invert(pt, &pt_inv)) pt = pt_inv = cn__svg_mat_identity(); /* a singular transform is ignored (as resvg) */
  /* the tiles that meet the shape's bounds, in pattern space */
  double u0 = INFINITY, v0 = INFINITY, u1 = -INFINITY, v1 = -INFINITY;
  for (int k = 0; k < 4; k++) {
    double px, py;
    cn__svg_mat_apply(pt_inv, bbox[(k & 1) ? 2 : 0], bbox[(k & 2) ? 3 : 1], &px, &py);
    u0 = fmin(u0, px), v0 = fmin(v0, py), u1 = fmax(u1, px), v1 = fmax(v1, py);
  }
  double i0 = floor((u0 - x) / w), i1 = ceil((u1 - x) / w), j0 = floor((v0 - y) / h), j1 = ceil((v1 - y) / h);
  double tiles = (i1 - i0) * (j1 - j0);
  if (!(tiles <= SVG_MAX_PATTERN_TILES)) {
    *painted = false;
    return cn__svg_warn(L, CN_SVG_SKIP_PATTERN, node, "pattern #%.60s needs %.0f tiles (more than %d); fallback used",
                    cn__svg_attr(pattern, "id") ? cn__svg_attr(pattern, "id") : "?", tiles, SVG_MAX_PATTERN_TILES);
  }
  if (!cn__svg_push_ref(L, pattern, node)) {
    *painted = false;
    return cn__svg_warn(L, CN_SVG_SKIP_CYCLE, node, "pattern #%.60s is used inside itself; fallback used",
                    cn__svg_attr(pattern, "id") ? cn__svg_attr(pattern, "id") : "?");
  }
  cn_result r = cn__svg_enter(L, pattern);
  if (r != CN_OK) {
    cn__svg_pop_ref(L);
    return r;
  }
  svg_style ps;
  r = cn__svg_style_of(L, content, &ps);
  svg_viewbox vb;
  xmlNode *vb_src = pattern;
  bool has_vb = cn__svg_parse_viewbox(chain_attr(chain, n, "viewBox", &vb_src), &vb);
  svg_aspect ar;
  cn__svg_parse_aspect(chain_attr(chain, n, "preserveAspectRatio", NULL), &ar);
  svg_mat inner = has_vb ? cn__svg_viewbox_matrix(vb, ar, w, h) : content_obb ? cn__svg_mat_scale(bw, bh) : cn__svg_mat_identity();
  svg_mat space = cn__svg_mat_mul(ctm, pt);
  uint32_t saved_acc = L->acc_floor;
  L->acc_floor = L->nacc; /* pattern content is not part of anyone's bounds */
  double ow = L->vw, oh = L->vh;
  bool group = opacity < 1;
  if (r == CN_OK && group) r = cn_scene_push_blend(L->b, CN_BLEND_NORMAL, opacity, CN_BLEND_ISOLATED);
  if (r == CN_OK) r = cn_scene_push_clip(L->b, path, rule);
  for (double j = j0; j < j1 && r == CN_OK; j++)
    for (double i = i0; i < i1 && r == CN_OK; i++) {
      double tx = x + i * w, ty = y + j * h;
      svg_path tile = {0};
      cn__svg_path_rect(&tile, tx, ty, w, h, 0, 0);
      uint32_t id;
      r = cn__svg_emit_path(L, pattern, &tile, space, &id);
      cn__svg_path_free(&tile);
      if (r == CN_OK) r = cn_scene_push_clip(L->b, id, CN_RULE_NONZERO);
      if (has_vb) L->vw = vb.w, L->vh = vb.h;
      if (r == CN_OK)
        r = cn__svg_render_children(L, content, &ps, cn__svg_mat_mul(space, cn__svg_mat_mul(cn__svg_mat_translate(tx, ty), inner)));
      L->vw = ow, L->vh = oh;
      if (r == CN_OK) r = cn_scene_pop(L->b);
    }
  if (r == CN_OK) r = cn_scene_pop(L->b);
  if (r == CN_OK && group) r = cn_scene_pop(L->b);
  L->acc_floor = saved_acc;
  cn__svg_leave(L);
  cn__svg_pop_ref(L);
  return r;
}
