/* svg_style.c: the cascade and the properties.
 *
 * Order (lowest first): presentation attributes, then <style> rules by
 * specificity and order, then style=""; then the !important declarations of
 * the sheet, then those of style="". A value that does not parse is ignored
 * (the property keeps its inherited or earlier value); "inherit" takes the
 * parent's value. Inherited properties start from the parent's computed
 * style, the others from their initial values. */
#include "svg_internal.h"

#include <stdlib.h>

#include <math.h>
#include <string.h>
#include <strings.h>

void cn__svg_style_initial(svg_style *s) {
  *s = (svg_style){0};
  s->fill = (svg_paint){.kind = SVG_PAINT_COLOR, .color = {0, 0, 0, 1}};
  s->stroke = (svg_paint){.kind = SVG_PAINT_NONE};
  s->fill_opacity = s->stroke_opacity = 1;
  s->fill_rule = s->clip_rule = CN_RULE_NONZERO;
  s->stroke_width = (svg_length){1, SVG_UNIT_NONE};
  s->dash_offset = (svg_length){0, SVG_UNIT_NONE};
  s->miter_limit = 4;
  s->join = CN_JOIN_MITER;
  s->cap = CN_CAP_BUTT;
  s->color = (svg_color){0, 0, 0, 1};
  s->visible = true;
  s->paint_order[0] = 0, s->paint_order[1] = 1, s->paint_order[2] = 2;
  s->font_size = 12; /* as resvg and librsvg (browsers: 16) */
  s->font_weight = 400;
  s->font_stretch = 5;
  s->kerning = true;
  s->opacity = 1;
  s->blend = CN_BLEND_NORMAL;
  s->stop_color = (svg_color){0, 0, 0, 1};
  s->stop_opacity = 1;
}

/* Resets the non-inherited properties to their initial values. */
static void reset_uninherited(svg_style *s) {
  svg_style init;
  cn__svg_style_initial(&init);
  s->opacity = init.opacity;
  s->display_none = false;
  s->clip_path = s->mask = NULL;
  s->clip_missing = s->mask_missing = false;
  s->blend = init.blend;
  s->isolate = false;
  s->filter = false;
  s->overflow_visible = s->overflow_set = false;
  s->stop_color = init.stop_color;
  s->stop_opacity = init.stop_opacity;
  s->mask_alpha = false;
  s->transform = NULL;
  s->transform_len = 0;
  s->alignment_baseline = SVG_BASELINE_AUTO;
  s->decoration = 0;
  s->baseline_shift_kind = 0;
  s->bidi_override = false;
}

typedef struct cascade {
  svg_loader *L;
  xmlNode *node;
  svg_style *s;
  const svg_style *parent;
  bool important_pass;
  bool in_css; /* a sheet rule or style="", not a presentation attribute */
} cascade;

static bool eq(const svg_decl *d, const char *v) { return strlen(v) == d->value_len && strncasecmp(d->value, v, d->value_len) == 0; }
static bool name_is(const svg_decl *d, const char *n) { return strlen(n) == d->name_len && strncmp(d->name, n, d->name_len) == 0; }

/* A number or percentage (opacity-like), clamped to 0..1. */
static bool parse_alpha(const svg_decl *d, float *out) {
  char buf[64];
  if (d->value_len >= sizeof buf) return false;
  memcpy(buf, d->value, d->value_len);
  buf[d->value_len] = 0;
  const char *s = buf;
  double v;
  if (cn__svg_parse_number(&s, &v) != 1) return false;
  if (*s == '%') v /= 100, s++;
  cn__svg_skip_ws(&s);
  if (*s) return false;
  *out = (float)(v < 0 ? 0 : v > 1 ? 1 : v);
  return true;
}

static bool parse_len(const svg_decl *d, svg_length *out) {
  char buf[64];
  if (d->value_len >= sizeof buf) return false;
  memcpy(buf, d->value, d->value_len);
  buf[d->value_len] = 0;
  return cn__svg_parse_length(buf, out);
}

static bool parse_paint(cascade *c, const svg_decl *d, svg_paint *out) {
  const char *v = d->value;
  size_t n = d->value_len;
  svg_paint p = {0};
  if (n >= 4 && strncmp(v, "url(", 4) == 0) {
    bool is_url;
    size_t used = 0;
    p.kind = SVG_PAINT_REF;
    p.ref = cn__svg_resolve_url(c->L, v, n, &is_url, &used);
    if (!is_url) return false;
    p.fallback_kind = SVG_PAINT_NONE;
    const char *f = v + used;
    size_t fn = n - used;
    while (fn && (*f == ' ' || *f == '\t' || *f == '\n')) f++, fn--;
    if (fn == 4 && strncmp(f, "none", 4) == 0) {
      p.fallback_kind = SVG_PAINT_NONE;
    } else if (fn) {
      bool cur;
      if (cn__svg_parse_color(f, fn, &p.fallback, &cur)) p.fallback_kind = cur ? SVG_PAINT_CURRENT : SVG_PAINT_COLOR;
    }
    if (!p.ref) p.missing_line = (uint32_t)cn__svg_line(c->node);
    *out = p;
    return true;
  }
  if (eq(d, "none")) {
    *out = (svg_paint){.kind = SVG_PAINT_NONE};
    return true;
  }
  if (eq(d, "context-fill") || eq(d, "context-stroke")) {
    *out = (svg_paint){.kind = eq(d, "context-fill") ? SVG_PAINT_CONTEXT_FILL : SVG_PAINT_CONTEXT_STROKE};
    return true;
  }
  bool cur;
  if (!cn__svg_parse_color(v, n, &p.color, &cur)) return false;
  p.kind = cur ? SVG_PAINT_CURRENT : SVG_PAINT_COLOR;
  *out = p;
  return true;
}

static xmlNode *parse_ref(cascade *c, const svg_decl *d, bool *missing) {
  *missing = false;
  if (eq(d, "none")) return NULL;
  bool is_url;
  size_t used;
  xmlNode *n = cn__svg_resolve_url(c->L, d->value, d->value_len, &is_url, &used);
  if (is_url && !n) *missing = true;
  return n;
}

static const char *const blend_names[CN_BLEND_MODE_COUNT] = {
    "normal", "multiply", "screen", "overlay", "darken", "lighten", "color-dodge", "color-burn",
    "hard-light", "soft-light", "difference", "exclusion", "hue", "saturation", "color", "luminosity"};

static bool parse_weight(const svg_decl *d, uint16_t parent, uint16_t *out) {
  if (eq(d, "normal")) return *out = 400, true;
  if (eq(d, "bold")) return *out = 700, true;
  if (eq(d, "bolder")) return *out = (uint16_t)(parent + (parent == 400 ? 300 : 100) > 900 ? 900 : parent + (parent == 400 ? 300 : 100)), true;
  if (eq(d, "lighter")) {
    int w = parent - (parent == 400 ? 200 : 100);
    return *out = (uint16_t)(w < 100 ? 100 : w), true;
  }
  if (d->value_len == 3 && d->value[1] == '0' && d->value[2] == '0' && d->value[0] >= '1' && d->value[0] <= '9')
    return *out = (uint16_t)((d->value[0] - '0') * 100), true;
  return false;
}

static bool parse_stretch(const svg_decl *d, uint8_t parent, uint8_t *out) {
  static const char *const names[10] = {"", "ultra-condensed", "extra-condensed", "condensed", "semi-condensed",
                                        "normal", "semi-expanded", "expanded", "extra-expanded", "ultra-expanded"};
  for (uint8_t i = 1; i < 10; i++)
    if (eq(d, names[i])) return *out = i, true;
  if (eq(d, "narrower")) return *out = 3, true; /* as resvg: condensed */
  if (eq(d, "wider")) return *out = 7, true;
  (void)parent;
  char buf[32];
  if (d->value_len < sizeof buf && d->value_len && d->value[d->value_len - 1] == '%') {
    memcpy(buf, d->value, d->value_len - 1);
    buf[d->value_len - 1] = 0;
    double v;
    if (cn__svg_parse_number_attr(buf, &v)) {
      static const double pct[10] = {0, 50, 62.5, 75, 87.5, 100, 112.5, 125, 150, 200};
      uint8_t best = 5;
      for (uint8_t i = 1; i < 10; i++)
        if (fabs(pct[i] - v) < fabs(pct[best] - v)) best = i;
      return *out = best, true;
    }
  }
  return false;
}

/* A baseline keyword (SVG_BASELINE_*), -1 when unknown. */
static int parse_baseline(const svg_decl *d) {
  static const char *const names[] = {"auto", "baseline", "alphabetic", "ideographic", "hanging", "mathematical",
                                      "central", "middle", "text-after-edge", "text-before-edge", "no-change"};
  for (int i = 0; i < (int)CN_ARRAY_LEN(names); i++)
    if (eq(d, names[i])) return i;
  if (eq(d, "after-edge")) return SVG_BASELINE_TEXT_AFTER_EDGE;
  if (eq(d, "before-edge")) return SVG_BASELINE_TEXT_BEFORE_EDGE;
  if (eq(d, "use-script") || eq(d, "reset-size")) return SVG_BASELINE_AUTO;
  return -1;
}

static void apply(void *user, const svg_decl *d);

/* The font shorthand: [style] [variant] [weight] [stretch] size[/line-height] family-list. */
static void apply_font_shorthand(cascade *c, const svg_decl *d) {
  const char *v = d->value, *e = d->value + d->value_len;
  svg_style *s = c->s;
  uint8_t style = 0, stretch = 5;
  uint16_t weight = 400;
  bool caps = false;
  for (;;) {
    while (v < e && (*v == ' ' || *v == '\t' || *v == '\n')) v++;
    const char *w = v;
    while (v < e && *v != ' ' && *v != '\t' && *v != '\n') v++;
    if (w == v) return; /* no size: invalid */
    svg_decl t = {d->name, w, d->name_len, (uint32_t)(v - w), d->important};
    if (eq(&t, "normal")) continue;
    if (eq(&t, "italic")) { style = 1; continue; }
    if (eq(&t, "oblique")) { style = 2; continue; }
    if (eq(&t, "small-caps")) { caps = true; continue; }
    if (parse_weight(&t, c->parent->font_weight, &weight)) continue;
    if (parse_stretch(&t, c->parent->font_stretch, &stretch)) continue;
    /* the size, then the family list */
    const char *slash = memchr(w, '/', (size_t)(v - w));
    svg_decl sz = {"font-size", w, 9, (uint32_t)((slash ? slash : v) - w), d->important};
    double before = s->font_size;
    apply(c, &sz);
    if (s->font_size == before && !eq(&sz, "medium")) {
      svg_length l;
      if (!parse_len(&sz, &l)) return;
    }
    while (v < e && (*v == ' ' || *v == '\t' || *v == '\n')) v++;
    if (v == e) return;
    s->font_family = v, s->font_family_len = (uint32_t)(e - v);
    s->font_style = style, s->font_weight = weight, s->font_stretch = stretch, s->small_caps = caps;
    s->kerning = true; /* the shorthand resets font-kerning */
    return;
  }
}

/* Applies one declaration to c->s. */
static void apply(void *user, const svg_decl *d) {
  cascade *c = user;
  if (d->important != c->important_pass) return;
  svg_style *s = c->s;
  const svg_style *p = c->parent;
  bool inherit = eq(d, "inherit");
#define INHERIT(field)  \
  if (inherit) {        \
    s->field = p->field; \
    return;             \
  }
  if (name_is(d, "fill")) {
    INHERIT(fill);
    parse_paint(c, d, &s->fill);
  } else if (name_is(d, "stroke")) {
    INHERIT(stroke);
    parse_paint(c, d, &s->stroke);
  } else if (name_is(d, "fill-opacity")) {
    INHERIT(fill_opacity);
    parse_alpha(d, &s->fill_opacity);
  } else if (name_is(d, "stroke-opacity")) {
    INHERIT(stroke_opacity);
    parse_alpha(d, &s->stroke_opacity);
  } else if (name_is(d, "opacity")) {
    INHERIT(opacity);
    parse_alpha(d, &s->opacity);
  } else if (name_is(d, "fill-rule") || name_is(d, "clip-rule")) {
    uint8_t *f = name_is(d, "fill-rule") ? &s->fill_rule : &s->clip_rule;
    if (inherit) *f = name_is(d, "fill-rule") ? p->fill_rule : p->clip_rule;
    else if (eq(d, "nonzero")) *f = CN_RULE_NONZERO;
    else if (eq(d, "evenodd")) *f = CN_RULE_EVENODD;
  } else if (name_is(d, "stroke-width")) {
    INHERIT(stroke_width);
    svg_length l;
    if (parse_len(d, &l)) s->stroke_width = l.v >= 0 ? l : (svg_length){0, SVG_UNIT_NONE}; /* negative: none */
  } else if (name_is(d, "stroke-dashoffset")) {
    INHERIT(dash_offset);
    parse_len(d, &s->dash_offset);
  } else if (name_is(d, "stroke-miterlimit")) {
    INHERIT(miter_limit);
    svg_length l;
    if (parse_len(d, &l) && l.unit == SVG_UNIT_NONE && l.v >= 1) s->miter_limit = (float)l.v;
  } else if (name_is(d, "stroke-linejoin")) {
    INHERIT(join);
    if (eq(d, "miter")) s->join = CN_JOIN_MITER;
    else if (eq(d, "round")) s->join = CN_JOIN_ROUND;
    else if (eq(d, "bevel")) s->join = CN_JOIN_BEVEL;
    else if (eq(d, "miter-clip")) s->join = CN_JOIN_MITER_CLIP;
    else if (eq(d, "arcs")) s->join = CN_JOIN_MITER;
  } else if (name_is(d, "stroke-linecap")) {
    INHERIT(cap);
    if (eq(d, "butt")) s->cap = CN_CAP_BUTT;
    else if (eq(d, "round")) s->cap = CN_CAP_ROUND;
    else if (eq(d, "square")) s->cap = CN_CAP_SQUARE;
  } else if (name_is(d, "stroke-dasharray")) {
    if (inherit) {
      s->dasharray = p->dasharray, s->dasharray_len = p->dasharray_len;
    } else if (eq(d, "none")) {
      s->dasharray = NULL, s->dasharray_len = 0;
    } else {
      s->dasharray = d->value, s->dasharray_len = d->value_len;
    }
  } else if (name_is(d, "color")) {
    INHERIT(color);
    svg_color col;
    bool cur;
    if (cn__svg_parse_color(d->value, d->value_len, &col, &cur)) s->color = cur ? p->color : col;
  } else if (name_is(d, "display")) {
    s->display_none = inherit ? p->display_none : eq(d, "none");
  } else if (name_is(d, "image-rendering")) {
    INHERIT(image_pixelated);
    if (eq(d, "optimizeSpeed") || eq(d, "pixelated") || eq(d, "crisp-edges")) s->image_pixelated = true;
    else if (eq(d, "auto") || eq(d, "optimizeQuality") || eq(d, "smooth") || eq(d, "high-quality"))
      s->image_pixelated = false;
  } else if (name_is(d, "visibility")) {
    INHERIT(visible);
    if (eq(d, "visible")) s->visible = true;
    else if (eq(d, "hidden") || eq(d, "collapse")) s->visible = false;
  } else if (name_is(d, "clip-path")) {
    INHERIT(clip_path);
    s->clip_path = parse_ref(c, d, &s->clip_missing);
  } else if (name_is(d, "mask")) {
    INHERIT(mask);
    s->mask = parse_ref(c, d, &s->mask_missing);
  } else if (name_is(d, "marker-start") || name_is(d, "marker-mid") || name_is(d, "marker-end") ||
             name_is(d, "marker")) {
    int which = name_is(d, "marker-start") ? 0 : name_is(d, "marker-mid") ? 1 : name_is(d, "marker-end") ? 2 : 3;
    bool missing;
    for (int i = 0; i < 3; i++) {
      if (which != 3 && which != i) continue;
      s->marker[i] = inherit ? p->marker[i] : parse_ref(c, d, &missing);
    }
  } else if (name_is(d, "mix-blend-mode")) {
    INHERIT(blend);
    for (uint32_t i = 0; i < CN_BLEND_MODE_COUNT; i++)
      if (eq(d, blend_names[i])) s->blend = (uint8_t)i;
  } else if (name_is(d, "isolation")) {
    INHERIT(isolate);
    if (eq(d, "isolate")) s->isolate = true;
    else if (eq(d, "auto")) s->isolate = false;
  } else if (name_is(d, "filter")) {
    s->filter = !eq(d, "none");
  } else if (name_is(d, "overflow")) {
    if (inherit) { /* the parent's value; its initial value is visible (UA rules only apply when unset) */
      s->overflow_set = true, s->overflow_visible = p->overflow_set ? p->overflow_visible : true;
      return;
    }
    s->overflow_set = true;
    s->overflow_visible = eq(d, "visible") || eq(d, "auto");
  } else if (name_is(d, "stop-color")) {
    INHERIT(stop_color);
    svg_color col;
    bool cur;
    if (cn__svg_parse_color(d->value, d->value_len, &col, &cur)) s->stop_color = cur ? s->color : col;
  } else if (name_is(d, "stop-opacity")) {
    INHERIT(stop_opacity);
    parse_alpha(d, &s->stop_opacity);
  } else if (name_is(d, "transform")) {
    if (c->in_css) s->transform = d->value, s->transform_len = d->value_len; /* the attribute is read separately */
  } else if (name_is(d, "mask-type")) {
    s->mask_alpha = eq(d, "alpha");
  } else if (name_is(d, "paint-order")) {
    INHERIT(paint_order[0]);
    /* listed items first, in order; the rest in their normal order */
    uint8_t order[3], n = 0;
    bool used[3] = {false, false, false};
    const char *v = d->value, *e = d->value + d->value_len;
    if (!eq(d, "normal")) {
      for (;;) {
        while (v < e && (*v == ' ' || *v == ',')) v++;
        if (v == e) break;
        const char *w = v;
        while (v < e && *v != ' ' && *v != ',') v++;
        size_t wl = (size_t)(v - w);
        int k = wl == 4 && !strncmp(w, "fill", 4) ? 0 : wl == 6 && !strncmp(w, "stroke", 6) ? 1
              : wl == 7 && !strncmp(w, "markers", 7) ? 2 : -1;
        if (k < 0 || used[k]) return; /* unknown or repeated keyword: invalid, ignored */
        used[k] = true, order[n++] = (uint8_t)k;
      }
    }
    for (uint8_t k = 0; k < 3; k++)
      if (!used[k]) order[n++] = k;
    memcpy(s->paint_order, order, 3);
  } else if (name_is(d, "font-family")) {
    if (inherit) s->font_family = p->font_family, s->font_family_len = p->font_family_len;
    else if (d->value_len) s->font_family = d->value, s->font_family_len = d->value_len;
  } else if (name_is(d, "font-weight")) {
    INHERIT(font_weight);
    parse_weight(d, p->font_weight, &s->font_weight);
  } else if (name_is(d, "font-style")) {
    INHERIT(font_style);
    if (eq(d, "normal")) s->font_style = 0;
    else if (eq(d, "italic")) s->font_style = 1;
    else if (eq(d, "oblique")) s->font_style = 2;
  } else if (name_is(d, "font-stretch")) {
    INHERIT(font_stretch);
    parse_stretch(d, p->font_stretch, &s->font_stretch);
  } else if (name_is(d, "font-variant")) {
    INHERIT(small_caps);
    if (eq(d, "small-caps")) s->small_caps = true;
    else if (eq(d, "normal")) s->small_caps = false;
  } else if (name_is(d, "font-variation-settings")) {
    if (inherit) s->font_variations = p->font_variations, s->font_variations_len = p->font_variations_len;
    else if (eq(d, "normal")) s->font_variations = NULL, s->font_variations_len = 0;
    else s->font_variations = d->value, s->font_variations_len = d->value_len;
  } else if (name_is(d, "font-kerning")) {
    if (!c->in_css) return; /* CSS only, as resvg and browsers: not a presentation attribute */
    INHERIT(kerning);
    if (eq(d, "none")) s->kerning = false;
    else if (eq(d, "auto") || eq(d, "normal")) s->kerning = true;
  } else if (name_is(d, "kerning")) {
    INHERIT(kerning);
    svg_length l;
    if (eq(d, "auto")) s->kerning = true;
    else if (parse_len(d, &l)) s->kerning = l.v != 0;
  } else if (name_is(d, "text-anchor")) {
    INHERIT(text_anchor);
    if (eq(d, "start")) s->text_anchor = 0;
    else if (eq(d, "middle")) s->text_anchor = 1;
    else if (eq(d, "end")) s->text_anchor = 2;
  } else if (name_is(d, "dominant-baseline")) {
    INHERIT(dominant_baseline);
    int b = parse_baseline(d);
    if (b == SVG_BASELINE_NO_CHANGE) s->dominant_baseline = p->dominant_baseline;
    else if (b >= 0 && b != SVG_BASELINE_BASELINE) s->dominant_baseline = (uint8_t)b;
  } else if (name_is(d, "alignment-baseline")) {
    INHERIT(alignment_baseline);
    int b = parse_baseline(d);
    if (b >= 0 && b != SVG_BASELINE_NO_CHANGE) s->alignment_baseline = (uint8_t)b;
  } else if (name_is(d, "writing-mode")) {
    INHERIT(vertical);
    s->vertical = eq(d, "tb") || eq(d, "tb-rl") || eq(d, "vertical-rl") || eq(d, "vertical-lr");
  } else if (name_is(d, "direction")) {
    INHERIT(rtl);
    if (eq(d, "rtl")) s->rtl = true;
    else if (eq(d, "ltr")) s->rtl = false;
  } else if (name_is(d, "unicode-bidi")) {
    INHERIT(bidi_override);
    s->bidi_override = eq(d, "bidi-override");
  } else if (name_is(d, "letter-spacing") || name_is(d, "word-spacing")) {
    svg_length *f = name_is(d, "letter-spacing") ? &s->letter_spacing : &s->word_spacing;
    if (inherit) *f = name_is(d, "letter-spacing") ? p->letter_spacing : p->word_spacing;
    else if (eq(d, "normal")) *f = (svg_length){0, SVG_UNIT_NONE};
    else parse_len(d, f);
  } else if (name_is(d, "text-decoration")) {
    INHERIT(decoration);
    uint8_t bits = 0;
    const char *v = d->value, *e = d->value + d->value_len;
    while (v < e) {
      while (v < e && (*v == ' ' || *v == '\t' || *v == '\n')) v++;
      const char *w = v;
      while (v < e && *v != ' ' && *v != '\t' && *v != '\n') v++;
      size_t wl = (size_t)(v - w);
      if (wl == 9 && !strncmp(w, "underline", 9)) bits |= 1;
      else if (wl == 8 && !strncmp(w, "overline", 8)) bits |= 2;
      else if (wl == 12 && !strncmp(w, "line-through", 12)) bits |= 4;
    }
    s->decoration = bits;
  } else if (name_is(d, "baseline-shift")) {
    if (inherit) {
      s->baseline_shift_kind = p->baseline_shift_kind, s->baseline_shift = p->baseline_shift;
      return;
    }
    svg_length l;
    if (eq(d, "baseline")) s->baseline_shift_kind = 0;
    else if (eq(d, "sub")) s->baseline_shift_kind = 1;
    else if (eq(d, "super")) s->baseline_shift_kind = 2;
    else if (parse_len(d, &l)) s->baseline_shift_kind = 3, s->baseline_shift = l;
  } else if (name_is(d, "font")) {
    if (c->in_css) apply_font_shorthand(c, d); /* CSS only, as resvg: not a presentation attribute */
  } else if (name_is(d, "font-size")) {
    INHERIT(font_size);
    /* keywords: steps of 1.2 from the parent's size (as resvg; medium is the parent's) */
    static const struct {
      const char *k;
      int step;
    } kw[] = {{"xx-small", -3}, {"x-small", -2}, {"small", -1}, {"medium", 0}, {"large", 1}, {"x-large", 2},
              {"xx-large", 3}, {"smaller", -1}, {"larger", 1}};
    for (size_t i = 0; i < CN_ARRAY_LEN(kw); i++)
      if (eq(d, kw[i].k)) {
        s->font_size = p->font_size * pow(1.2, kw[i].step);
        return;
      }
    svg_length l;
    if (parse_len(d, &l) && l.v > 0) {
      if (l.unit == SVG_UNIT_PERCENT || l.unit == SVG_UNIT_EM) s->font_size = p->font_size * l.v / (l.unit == SVG_UNIT_PERCENT ? 100 : 1);
      else s->font_size = cn__svg_length_user(l, SVG_AXIS_X, 0, 0, p->font_size);
    }
  }
#undef INHERIT
}

static bool is_property(const char *name) {
  static const char *const props[] = {
      "fill", "stroke", "fill-opacity", "stroke-opacity", "opacity", "fill-rule", "clip-rule", "stroke-width",
      "stroke-dashoffset", "stroke-miterlimit", "stroke-linejoin", "stroke-linecap", "stroke-dasharray", "color",
      "display", "visibility", "clip-path", "mask", "marker-start", "marker-mid", "marker-end", "filter",
      "overflow", "stop-color", "stop-opacity", "mask-type", "paint-order", "font-size", "image-rendering",
      "font-family", "font-weight", "font-style", "font-stretch", "font-variant", "font-variation-settings",
      "font-kerning", "kerning", "text-anchor", "dominant-baseline", "alignment-baseline", "writing-mode",
      "direction", "unicode-bidi", "letter-spacing", "word-spacing", "text-decoration", "baseline-shift"};
  /* mix-blend-mode, isolation and transform are CSS only (style="" or sheets);
   * the transform attribute is read as such */
  /* most attributes (d, x, id, ...) are not properties: filter on the first letter */
  if (!strchr("fsocdvmitpklwaub", name[0])) return false;
  for (size_t i = 0; i < CN_ARRAY_LEN(props); i++)
    if (props[i][0] == name[0] && strcmp(name, props[i]) == 0) return true;
  return false;
}

static void run_pass(cascade *c) {
  svg_loader *L = c->L;
  xmlNode *n = c->node;
  /* presentation attributes (never important) */
  if (!c->important_pass)
    for (xmlAttr *a = n->properties; a; a = a->next) {
      if (a->ns || !is_property((const char *)a->name)) continue;
      const char *v = cn__svg_attr(n, (const char *)a->name);
      if (!v) continue;
      svg_decl d = {(const char *)a->name, v, (uint32_t)strlen((const char *)a->name), (uint32_t)strlen(v), false};
      /* presentation attributes take no surrounding whitespace trimming in
       * SVG 1.1, but SVG 2 parses them as CSS: trim */
      while (d.value_len && (d.value[0] == ' ' || d.value[0] == '\t' || d.value[0] == '\n')) d.value++, d.value_len--;
      while (d.value_len && (d.value[d.value_len - 1] == ' ' || d.value[d.value_len - 1] == '\n')) d.value_len--;
      apply(c, &d);
    }
  c->in_css = true;
  cn__svg_sheet_match(L->sheet, n, apply, c, &L->work);
  const char *st = cn__svg_attr(n, "style");
  if (st) cn__svg_parse_declarations(st, strlen(st), apply, c);
  c->in_css = false;
}

void cn__svg_style_compute(svg_loader *L, xmlNode *node, const svg_style *parent, svg_style *out) {
  *out = *parent;
  reset_uninherited(out);
  cascade c = {L, node, out, parent, false, false};
  run_pass(&c);
  c.important_pass = true;
  run_pass(&c);
  out->decoration_all = (uint8_t)(parent->decoration_all | out->decoration);
  /* currentColor in fill/stroke stays a keyword: it inherits as such and is
   * resolved against the colour of the element that is painted */
}

cn_result cn__svg_style_of(svg_loader *L, xmlNode *node, svg_style *out) {
  /* the chain root .. node (any depth: a deep one on the heap, its length counted as work) */
  uint32_t n = 0;
  for (xmlNode *p = node; p && p->type == XML_ELEMENT_NODE; p = p->parent) n++;
  if (n > 64) CN_TRY(cn__svg_work(L, node, n));
  xmlNode *small[64], **chain = n <= 64 ? small : malloc(n * sizeof *chain);
  if (!chain) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "line %d: no memory for the style of <%s>", cn__svg_line(node),
                             (const char *)node->name);
  uint32_t k = 0;
  for (xmlNode *p = node; p && p->type == XML_ELEMENT_NODE; p = p->parent) chain[k++] = p;
  svg_style cur, next;
  cn__svg_style_initial(&cur);
  while (k--) {
    cn__svg_style_compute(L, chain[k], &cur, &next);
    cur = next;
  }
  if (chain != small) free(chain);
  *out = cur;
  return CN_OK;
}
