/* svg_clip.c: clipPath and mask encoded as groups (docs/SCENE.md).
 *
 * clipPath: the clip region is the union of its children (shapes, or use
 * elements that reference shapes directly, each with its own transform,
 * clip-rule and clip-path), intersected with the clipPath's own clip-path.
 *   - no valid child: BEGIN_CLIP of an empty path (hides everything)
 *   - one child: BEGIN_CLIP(child outline, child clip-rule), nested inside
 *     the child's and the clipPath's own clip-path groups (intersection)
 *   - several children: a union of differently-wound outlines is not one
 *     fill rule's coverage, so it becomes an alpha mask: a mask group
 *     filling every child in opaque white, then the masked group.
 * mask: a luminance (or mask-type: alpha) mask group: the mask content
 * clipped to the mask region, then the masked group carrying the element's
 * mix-blend-mode and opacity. */
#include "svg_internal.h"
#include "svg_text.h"

#include <math.h>
#include <string.h>

static bool obb_units(const xmlNode *n, const char *attr, bool def) {
  const char *u = cn__svg_attr(n, attr);
  if (!u) return def;
  if (strcmp(u, "objectBoundingBox") == 0) return true;
  if (strcmp(u, "userSpaceOnUse") == 0) return false;
  return def;
}

static svg_mat bbox_matrix(const double *b) {
  return cn__svg_mat_mul(cn__svg_mat_translate(b[0], b[1]), cn__svg_mat_scale(b[2] - b[0], b[3] - b[1]));
}

static bool bbox_usable(const double *b) { return b && b[2] - b[0] > 0 && b[3] - b[1] > 0; }

/* One child of a clipPath: its outline, transform and rule. */
typedef struct clip_child {
  xmlNode *node, *shape; /* the child, and the shape it draws (itself or a use's target) */
  svg_style style;
  svg_mat m; /* child's outline space -> clipPath content space */
} clip_child;

static cn_result clip_child_of(svg_loader *L, xmlNode *c, const svg_style *cs, clip_child *out, bool *ok,
                               bool count_skips) {
  *ok = false;
  if (c->type != XML_ELEMENT_NODE) return CN_OK;
  (void)count_skips;
  if (!cn__svg_conditions_pass(c)) return CN_OK;
  xmlNode *shape = c;
  svg_mat m;
  svg_style st;
  cn__svg_style_compute(L, c, cs, &st);
  if (st.display_none || !st.visible) return CN_OK;
  cn__svg_parse_transform(cn__svg_attr(c, "transform"), &m);
  if (cn__svg_is(c, "use")) {
    const char *h = cn__svg_href(c);
    shape = h ? cn__svg_lookup(L, h, strlen(h)) : NULL;
    if (!shape || !cn__svg_is_shape(shape)) return CN_OK; /* only direct references to shapes count */
    svg_length x, y;
    double dx = cn__svg_parse_length(cn__svg_attr(c, "x"), &x) ? cn__svg_length_user(x, SVG_AXIS_X, L->vw, L->vh, 16) : 0;
    double dy = cn__svg_parse_length(cn__svg_attr(c, "y"), &y) ? cn__svg_length_user(y, SVG_AXIS_Y, L->vw, L->vh, 16) : 0;
    svg_mat t;
    cn__svg_parse_transform(cn__svg_attr(shape, "transform"), &t);
    m = cn__svg_mat_mul(m, cn__svg_mat_mul(cn__svg_mat_translate(dx, dy), t));
    svg_style ss;
    cn__svg_style_compute(L, shape, &st, &ss);
    if (ss.display_none || !ss.visible) return CN_OK;
    ss.clip_path = st.clip_path; /* the use's clip-path applies */
    st = ss;
  } else if (!cn__svg_is_shape(c) && !cn__svg_is(c, "text")) {
    return CN_OK; /* groups and others are invalid clipPath children */
  }
  out->node = c, out->shape = shape, out->style = st, out->m = m;
  *ok = true;
  return CN_OK;
}

static cn_result push_clip_inner(svg_loader *L, xmlNode *clip, const xmlNode *user, svg_mat ctm, const double *bbox,
                                 uint32_t *pushed, bool *hidden);

/* Fills (or clips to) one child, inside its own clip-path. as_fill: fill
 * with paint; else push a clip (counted in *pushed). */
static cn_result child_geometry(svg_loader *L, const clip_child *ch, svg_mat space, bool as_fill, uint32_t paint,
                                uint32_t *pushed, bool *hidden) {
  svg_path p = {0};
  bool text = cn__svg_is(ch->shape, "text");
  if (text) CN_TRY(cn__svg_text_outline(L, ch->shape, &ch->style, &p));
  if (text ? p.nops == 0 : !cn__svg_shape_path(L, ch->shape, &ch->style, &p)) {
    cn__svg_path_free(&p);
    if (!as_fill) *hidden = true; /* a lone child with no outline clips everything */
    return CN_OK;
  }
  uint32_t rule = text ? CN_RULE_NONZERO : ch->style.clip_rule;
  svg_mat m = cn__svg_mat_mul(space, ch->m);
  uint32_t inner = 0;
  cn_result r = CN_OK;
  if (ch->style.clip_path && cn__svg_is(ch->style.clip_path, "clipPath")) {
    double box[4];
    bool have = cn__svg_path_tight_bounds(&p, box);
    r = cn__svg_enter(L, ch->node); /* this nests on the C stack */
    if (r == CN_OK) {
      r = push_clip_inner(L, ch->style.clip_path, ch->node, m, have ? box : NULL, &inner, hidden);
      cn__svg_leave(L);
    }
  }
  if (r == CN_OK && !*hidden) {
    uint32_t id;
    r = cn__svg_emit_path(L, ch->node, &p, m, &id);
    if (r == CN_OK) r = as_fill ? cn_scene_fill(L->b, id, paint, rule) : cn_scene_push_clip(L->b, id, rule);
    if (r == CN_OK && !as_fill) inner++;
  }
  if (as_fill || *hidden)
    for (; inner && r == CN_OK; inner--) r = cn_scene_pop(L->b);
  *pushed += inner;
  cn__svg_path_free(&p);
  return r;
}

/* The clip region of one clipPath's children, in space (its own clip-path
 * is handled by the caller). */
static cn_result clip_children(svg_loader *L, xmlNode *clip, const svg_style *cs, svg_mat space, uint32_t *pushed,
                               bool *hidden) {
  clip_child first;
  uint32_t valid = 0;
  cn_result r = CN_OK;
  for (xmlNode *c = clip->children; c && r == CN_OK && !*hidden; c = c->next) {
    clip_child ch;
    bool ok;
    r = clip_child_of(L, c, cs, &ch, &ok, true);
    if (ok && valid++ == 0) first = ch;
  }
  if (r != CN_OK || *hidden) return r;
  if (valid == 0) {
    *hidden = true;
  } else if (valid == 1) {
    r = child_geometry(L, &first, space, false, CN_NONE, pushed, hidden);
  } else {
    uint32_t white;
    r = cn_scene_solid(L->b, 1, 1, 1, 1, &white);
    if (r == CN_OK) r = cn_scene_push_blend(L->b, CN_BLEND_NORMAL, 1, CN_BLEND_ISOLATED | CN_BLEND_MASK_ALPHA);
    for (xmlNode *c = clip->children; c && r == CN_OK; c = c->next) {
      clip_child ch;
      bool ok, h = false;
      uint32_t none = 0;
      r = clip_child_of(L, c, cs, &ch, &ok, false);
      if (r == CN_OK && ok) r = child_geometry(L, &ch, space, true, white, &none, &h);
    }
    if (r == CN_OK) r = cn_scene_pop(L->b);
    if (r == CN_OK) r = cn_scene_push_blend(L->b, CN_BLEND_NORMAL, 1, CN_BLEND_ISOLATED | CN_BLEND_MASKED);
    if (r == CN_OK) ++*pushed;
  }
  return r;
}

/* One clipPath of a chain: a clipPath, its own clip-path, that one's, ... */
typedef struct clip_link {
  xmlNode *clip;
  svg_mat space; /* its children's space */
  svg_style cs;
} clip_link;

/* The clip groups of clip and of its chain of own clip-paths, which the
 * region is intersected with: the chain is followed iteratively (any
 * length), then each link's children from the innermost out. */
static cn_result push_clip_inner(svg_loader *L, xmlNode *clip, const xmlNode *user, svg_mat ctm, const double *bbox,
                                 uint32_t *pushed, bool *hidden) {
  uint32_t start = *pushed;
  clip_link *chain = NULL;
  uint32_t n = 0, cap = 0;
  cn_result r = CN_OK;
  const xmlNode *from = user;
  for (xmlNode *c = clip; c && cn__svg_is(c, "clipPath");) {
    if (cn__svg_is_active(L, c)) { /* a cycle: this reference is ignored (as resvg and browsers do) */
      r = cn__svg_warn(L, CN_SVG_SKIP_CYCLE, from, "clip-path #%.60s refers back to itself; reference ignored",
                       cn__svg_attr(c, "id") ? cn__svg_attr(c, "id") : "?");
      break;
    }
    r = cn__svg_work(L, c, 8);
    if (r == CN_OK && n == cap) {
      uint32_t nc = cap ? cap * 2 : 8;
      clip_link *t = realloc(chain, nc * sizeof *t);
      if (t) chain = t, cap = nc;
      else r = cn_fail(CN_ERROR_OUT_OF_MEMORY, "line %d: no memory for a chain of %u clip paths", cn__svg_line(c), nc);
    }
    if (r == CN_OK && !cn__svg_push_ref(L, c, from))
      r = cn_fail(CN_ERROR_OUT_OF_MEMORY, "line %d: no memory for the chain of references", cn__svg_line(c));
    if (r != CN_OK) break;
    clip_link *k = &chain[n++];
    k->clip = c;
    r = cn__svg_style_of(L, c, &k->cs);
    if (r != CN_OK) break;
    /* element space, then the clipPath's transform (in user units, with
     * transform-origin), then the objectBoundingBox mapping */
    k->space = cn__svg_mat_mul(ctm, cn__svg_transform_attr(L, c, "transform", &k->cs, L->vw, L->vh));
    if (obb_units(c, "clipPathUnits", false)) {
      if (!bbox_usable(bbox)) {
        *hidden = true;
        break;
      }
      k->space = cn__svg_mat_mul(k->space, bbox_matrix(bbox));
    }
    /* the clipPath's own clip-path, in the user space of the element */
    from = c;
    c = k->cs.clip_path && cn__svg_is(k->cs.clip_path, "clipPath") ? k->cs.clip_path : NULL;
  }
  /* the children of each link, innermost first; each link leaves the chain
   * of active references after its children (as nesting would) */
  for (uint32_t k = n; k-- > 0;) {
    if (r == CN_OK && !*hidden) r = clip_children(L, chain[k].clip, &chain[k].cs, chain[k].space, pushed, hidden);
    cn__svg_pop_ref(L);
  }
  free(chain);
  if (r == CN_OK && *hidden) /* close what this clip opened; the element is not drawn */
    for (; *pushed > start && r == CN_OK; --*pushed) r = cn_scene_pop(L->b);
  return r;
}

cn_result cn__svg_push_clip_path(svg_loader *L, xmlNode *clip, const xmlNode *user, svg_mat ctm, const double *bbox,
                             uint32_t *pushed, bool *hidden) {
  *pushed = 0;
  *hidden = false;
  uint32_t saved = L->acc_floor;
  L->acc_floor = L->nacc; /* clip outlines are not part of anyone's bounding box */
  cn_result r = push_clip_inner(L, clip, user, ctm, bbox, pushed, hidden);
  L->acc_floor = saved;
  if (r == CN_OK && *hidden) *pushed = 0;
  return r;
}

static double mask_len(svg_loader *L, const xmlNode *m, const char *name, double def_frac, bool obb, int axis,
                       const double *bbox) {
  svg_length l;
  bool have = cn__svg_parse_length(cn__svg_attr(m, name), &l);
  if (obb) {
    double f = have ? (l.unit == SVG_UNIT_PERCENT ? l.v / 100 : l.v) : def_frac;
    double origin = axis == SVG_AXIS_X ? bbox[0] : bbox[1];
    double size = axis == SVG_AXIS_X ? bbox[2] - bbox[0] : bbox[3] - bbox[1];
    bool is_pos = strcmp(name, "x") == 0 || strcmp(name, "y") == 0;
    return (is_pos ? origin : 0) + f * size;
  }
  if (!have) l = (svg_length){def_frac * 100, SVG_UNIT_PERCENT};
  return cn__svg_length_user(l, axis, L->vw, L->vh, 16);
}

cn_result cn__svg_push_mask(svg_loader *L, xmlNode *mask, const xmlNode *user, svg_mat ctm, const double *bbox,
                        uint32_t mode, float alpha, uint32_t *pushed, bool *hidden) {
  *pushed = 0;
  *hidden = false;
  if (!cn__svg_push_ref(L, mask, user)) { /* a cycle: this reference is ignored (as resvg does) */
    cn_result r = cn__svg_warn(L, CN_SVG_SKIP_CYCLE, user, "mask #%.60s refers back to itself; reference ignored",
                           cn__svg_attr(mask, "id") ? cn__svg_attr(mask, "id") : "?");
    if (r == CN_OK && (mode != CN_BLEND_NORMAL || alpha < 1)) {
      r = cn_scene_push_blend(L->b, mode, alpha, CN_BLEND_ISOLATED);
      if (r == CN_OK) *pushed = 1;
    }
    return r;
  }
  cn_result r = cn__svg_enter(L, mask);
  if (r != CN_OK) {
    cn__svg_pop_ref(L);
    return r;
  }
  uint32_t saved = L->acc_floor;
  L->acc_floor = L->nacc;
  svg_style ms;
  r = cn__svg_style_of(L, mask, &ms);
  bool units = obb_units(mask, "maskUnits", true), content = obb_units(mask, "maskContentUnits", false);
  if (r != CN_OK) goto out;
  if ((units || content) && !bbox_usable(bbox)) {
    *hidden = true;
    goto out;
  }
  double x = mask_len(L, mask, "x", -0.1, units, SVG_AXIS_X, bbox), y = mask_len(L, mask, "y", -0.1, units, SVG_AXIS_Y, bbox);
  double w = mask_len(L, mask, "width", 1.2, units, SVG_AXIS_X, bbox), h = mask_len(L, mask, "height", 1.2, units, SVG_AXIS_Y, bbox);
  if (!(w > 0) || !(h > 0)) {
    *hidden = true;
    goto out;
  }
  /* a mask on the mask: its own masked group wraps the mask content; a mask
   * chain that leads back to a mask being expanded is dropped whole (as resvg) */
  bool nested = ms.mask && cn__svg_is(ms.mask, "mask");
  if (nested) {
    xmlNode *m = ms.mask;
    for (int hop = 0; m && hop < 64 && nested; hop++) {
      if (cn__svg_is_active(L, m)) nested = false;
      svg_style hs;
      r = cn__svg_style_of(L, m, &hs);
      if (r != CN_OK) goto out;
      m = hs.mask && cn__svg_is(hs.mask, "mask") ? hs.mask : NULL;
    }
    if (!nested) {
      r = cn__svg_warn(L, CN_SVG_SKIP_CYCLE, mask, "the mask chain of #%.60s is a cycle; ignored",
                   cn__svg_attr(mask, "id") ? cn__svg_attr(mask, "id") : "?");
      if (r != CN_OK) goto out;
    }
  }
  uint32_t kind = ms.mask_alpha ? CN_BLEND_MASK_ALPHA : CN_BLEND_MASK_LUMINANCE;
  r = cn_scene_push_blend(L->b, CN_BLEND_NORMAL, 1, CN_BLEND_ISOLATED | kind);
  if (r != CN_OK) goto out;
  uint32_t inner = 0;
  bool inner_hidden = false;
  if (nested) r = cn__svg_push_mask(L, ms.mask, mask, ctm, bbox, CN_BLEND_NORMAL, 1, &inner, &inner_hidden);
  if (r == CN_OK && !inner_hidden) {
    svg_path p = {0};
    cn__svg_path_rect(&p, x, y, w, h, 0, 0);
    uint32_t id;
    r = cn__svg_emit_path(L, mask, &p, ctm, &id);
    cn__svg_path_free(&p);
    if (r == CN_OK) r = cn_scene_push_clip(L->b, id, CN_RULE_NONZERO);
    svg_mat cm = content ? cn__svg_mat_mul(ctm, bbox_matrix(bbox)) : ctm;
    if (r == CN_OK) r = cn__svg_render_children(L, mask, &ms, cm);
    if (r == CN_OK) r = cn_scene_pop(L->b);
  }
  for (; inner && r == CN_OK; inner--) r = cn_scene_pop(L->b);
  if (r == CN_OK) r = cn_scene_pop(L->b);
  if (r == CN_OK) r = cn_scene_push_blend(L->b, mode, alpha, CN_BLEND_ISOLATED | CN_BLEND_MASKED);
  if (r == CN_OK) *pushed = 1;
out:
  L->acc_floor = saved;
  cn__svg_leave(L);
  cn__svg_pop_ref(L);
  return r;
}
