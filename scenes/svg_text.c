/* svg_text.c: a <text> element's characters and their structure.
 *
 * The element tree (text, tspan, a, tref, textPath) is walked once: every
 * text node becomes a piece with the element that holds it, whitespace is
 * processed (xml:space, then the rules between neighbouring pieces that
 * resvg applies: one space kept where pieces meet), the per-character x, y,
 * dx, dy and rotate lists are spread over the characters, and the characters
 * are cut into chunks (a new one at each absolute x or y and around each
 * textPath) and spans (one per piece and chunk). svg_text_layout.c lays them
 * out and draws them. */
#include "svg_text.h"

#include <libxml/entities.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EL_TEXT, EL_TSPAN, EL_TREF, EL_TEXTPATH };

typedef struct text_elem {
  xmlNode *node;
  svg_style st;
  int parent;
  uint8_t kind;
  bool preserve; /* xml:space="preserve" in effect */
  bool hidden;   /* display: none or failed conditions: its own text is dropped */
  bool drop;     /* all text inside is dropped (a textPath that cannot be used) */
  int path_elem; /* the textPath this is inside (itself included), or -1 */
  uint32_t start, end;
  svg_path path;
  double start_offset;
} text_elem;

typedef struct text_piece {
  int elem;
  int depth;
  char *s;
  size_t len;
} text_piece;

typedef struct text_tree {
  svg_loader *L;
  text_elem *e;
  uint32_t ne, cap_e;
  text_piece *p;
  uint32_t np, cap_p;
  size_t total_bytes;
} text_tree;

static void tree_free(text_tree *T) {
  for (uint32_t i = 0; i < T->ne; i++) cn__svg_path_free(&T->e[i].path);
  for (uint32_t i = 0; i < T->np; i++) free(T->p[i].s);
  free(T->e);
  free(T->p);
}

/* Whitespace of one text node: newlines and tabs become spaces; without
 * xml:space="preserve" runs of spaces become one. */
static char *trim_text(const char *s, size_t n, bool preserve, size_t *out_len) {
  char *d = malloc(n + 1);
  if (!d) return NULL;
  size_t k = 0;
  char prev = 0;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (c == '\r' || c == '\n' || c == '\t') c = ' ';
    if (!preserve && c == ' ' && prev == ' ') continue;
    prev = c;
    d[k++] = c;
  }
  d[k] = 0;
  *out_len = k;
  return d;
}

static cn_result add_piece(text_tree *T, int elem, int depth, const char *s, size_t n) {
  if (T->total_bytes + n > (size_t)CN_SVG_MAX_TEXT_CHARS * 4)
    return cn_fail(CN_ERROR_LIMIT, "line %d: <text> holds more than %u characters", cn__svg_line(T->e[0].node),
                   CN_SVG_MAX_TEXT_CHARS);
  if (T->np == T->cap_p) {
    uint32_t cap = T->cap_p ? T->cap_p * 2 : 16;
    text_piece *np = realloc(T->p, cap * sizeof *np);
    if (!np) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for text");
    T->p = np, T->cap_p = cap;
  }
  size_t len;
  char *t = trim_text(s, n, T->e[elem].preserve, &len);
  if (!t) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for text");
  T->p[T->np++] = (text_piece){elem, depth, t, len};
  T->total_bytes += n;
  return CN_OK;
}

static bool space_of(const xmlNode *n, bool inherited) {
  xmlChar *v = xmlGetNsProp((xmlNode *)n, (const xmlChar *)"space", XML_XML_NAMESPACE);
  if (!v) return inherited;
  bool r = strcmp((const char *)v, "preserve") == 0;
  xmlFree(v);
  return r;
}

static cn_result add_elem(text_tree *T, xmlNode *n, int parent, uint8_t kind, int *out) {
  if (T->ne == T->cap_e) {
    uint32_t cap = T->cap_e ? T->cap_e * 2 : 8;
    text_elem *ne = realloc(T->e, cap * sizeof *ne);
    if (!ne) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for text");
    T->e = ne, T->cap_e = cap;
  }
  text_elem *e = &T->e[T->ne];
  memset(e, 0, sizeof *e);
  e->node = n, e->parent = parent, e->kind = kind;
  e->start = UINT32_MAX;
  e->path_elem = parent >= 0 ? T->e[parent].path_elem : -1;
  e->drop = parent >= 0 && T->e[parent].drop;
  e->preserve = space_of(n, parent >= 0 ? T->e[parent].preserve : false);
  *out = (int)T->ne++;
  return CN_OK;
}

/* The text content of all text nodes below n (tref). */
static void gather_text(xmlNode *n, xmlBuffer *buf, int depth) {
  if (depth > (int)CN_SVG_MAX_DEPTH) return;
  for (xmlNode *c = n->children; c; c = c->next) {
    if (c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) xmlBufferCat(buf, c->content);
    else if (c->type == XML_ELEMENT_NODE) gather_text(c, buf, depth + 1);
  }
}

static cn_result textpath_setup(text_tree *T, text_elem *e) {
  svg_loader *L = T->L;
  const char *href = cn__svg_href(e->node);
  xmlNode *target = href ? cn__svg_lookup(L, href, strlen(href)) : NULL;
  if (!target || !cn__svg_is_shape(target)) {
    e->drop = true;
    if (href && !target)
      return cn__svg_warn(L, CN_SVG_SKIP_MISSING_REF, e->node, "<textPath> references #%.60s, which does not exist", href);
    return CN_OK;
  }
  svg_style ts;
  CN_TRY(cn__svg_style_of(L, target, &ts));
  svg_path raw = {0};
  bool ok = cn__svg_shape_path(L, target, &ts, &raw);
  if (raw.oom) {
    cn__svg_path_free(&raw);
    return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for a text path");
  }
  if (!ok || raw.nops < 2) {
    cn__svg_path_free(&raw);
    e->drop = true;
    return CN_OK;
  }
  /* the path's own transform applies (with transform-origin and a CSS transform) */
  svg_mat t = cn__svg_transform_attr(L, target, "transform", &ts, L->vw, L->vh);
  for (size_t i = 0; i + 1 < raw.npts; i += 2) /* npts counts coordinates */
    cn__svg_mat_apply(t, raw.pts[i], raw.pts[i + 1], &raw.pts[i], &raw.pts[i + 1]);
  e->path = raw;
  svg_length so;
  e->start_offset = 0;
  if (cn__svg_parse_length(cn__svg_attr(e->node, "startOffset"), &so)) {
    if (so.unit == SVG_UNIT_PERCENT) {
      /* a fraction of the path's length, measured on a fine polyline */
      double len = 0, px = 0, py = 0, mx = 0, my = 0;
      const double *v = raw.pts;
      for (size_t i = 0; i < raw.nops; i++) {
        int op = raw.ops[i] & 0x7f;
        int np = op == SVG_OP_MOVE || op == SVG_OP_LINE ? 1 : op == SVG_OP_QUAD ? 2 : op == SVG_OP_CUBIC ? 3 : 0;
        if (op == SVG_OP_MOVE) {
          px = mx = v[0], py = my = v[1];
        } else if (op == SVG_OP_CLOSE) {
          len += hypot(mx - px, my - py), px = mx, py = my;
        } else {
          double x0 = px, y0 = py;
          for (int k = 1; k <= 64; k++) {
            double tt = k / 64.0, u = 1 - tt, x, y;
            if (op == SVG_OP_LINE) x = x0 + (v[0] - x0) * tt, y = y0 + (v[1] - y0) * tt;
            else if (op == SVG_OP_QUAD)
              x = u * u * x0 + 2 * u * tt * v[0] + tt * tt * v[2], y = u * u * y0 + 2 * u * tt * v[1] + tt * tt * v[3];
            else
              x = u * u * u * x0 + 3 * u * u * tt * v[0] + 3 * u * tt * tt * v[2] + tt * tt * tt * v[4],
              y = u * u * u * y0 + 3 * u * u * tt * v[1] + 3 * u * tt * tt * v[3] + tt * tt * tt * v[5];
            len += hypot(x - px, y - py), px = x, py = y;
          }
        }
        v += 2 * np;
      }
      e->start_offset = len * so.v / 100;
    } else {
      e->start_offset = cn__svg_length_user(so, SVG_AXIS_X, L->vw, L->vh, e->st.font_size);
    }
  }
  return CN_OK;
}

static cn_result collect(text_tree *T, xmlNode *node, int elem, int depth);

/* An element SVG defines (tref takes text only from those). */
static bool known_element(const xmlNode *n) {
  static const char *const names[] = {"text", "tspan", "textPath", "tref", "a", "g", "svg", "defs", "symbol", "switch",
                                      "title", "desc", "metadata", "use", "style", "marker", "clipPath", "mask",
                                      "pattern", "linearGradient", "radialGradient", "stop", "image", "foreignObject"};
  if (!cn__svg_is_element(n)) return false;
  if (cn__svg_is_shape(n)) return true;
  for (size_t i = 0; i < CN_ARRAY_LEN(names); i++)
    if (strcmp((const char *)n->name, names[i]) == 0) return true;
  return false;
}

static cn_result collect_child(text_tree *T, xmlNode *c, int elem, int depth) {
  svg_loader *L = T->L;
  if (c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) {
    const char *s = (const char *)c->content;
    return s ? add_piece(T, elem, depth, s, strlen(s)) : CN_OK;
  }
  if (c->type == XML_ENTITY_REF_NODE) {
    xmlEntity *ent = xmlGetDocEntity(L->doc, c->name);
    if (!ent) return CN_OK;
    xmlBuffer *buf = xmlBufferCreate();
    if (!buf) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for text");
    gather_text((xmlNode *)ent, buf, 0);
    cn_result r = add_piece(T, elem, depth, (const char *)xmlBufferContent(buf), (size_t)xmlBufferLength(buf));
    xmlBufferFree(buf);
    return r;
  }
  if (c->type != XML_ELEMENT_NODE || !cn__svg_is_element(c)) return CN_OK;
  const char *name = (const char *)c->name;
  uint8_t kind;
  if (strcmp(name, "tspan") == 0 || strcmp(name, "a") == 0) kind = EL_TSPAN;
  else if (strcmp(name, "tref") == 0) kind = EL_TREF;
  else if (strcmp(name, "textPath") == 0) kind = EL_TEXTPATH;
  else return CN_OK; /* anything else inside text is not rendered */
  CN_TRY(cn__svg_enter(L, c));
  cn_result r = cn__svg_work(L, c, 8);
  int ci = -1;
  svg_style cst;
  cn__svg_style_compute(L, c, &T->e[elem].st, &cst);
  if (cst.display_none) { /* as resvg: gone with its characters (they take no x/y/rotate values) */
    cn__svg_leave(L);
    return r;
  }
  if (r == CN_OK) r = add_elem(T, c, elem, kind, &ci);
  if (r == CN_OK) {
    text_elem *e = &T->e[ci];
    e->st = cst;
    e->hidden = !cn__svg_conditions_pass(c);
    if (cst.bidi_override && !e->hidden)
      r = cn__svg_warn(L, CN_SVG_SKIP_TEXT, c, "unicode-bidi: bidi-override on <%s> is not applied (as resvg)", name);
    if (kind == EL_TEXTPATH) {
      e->path_elem = ci;
      if (T->e[elem].kind != EL_TEXT) e->drop = true; /* only a child of text */
      else if (!e->drop) r = textpath_setup(T, &T->e[ci]);
    }
  }
  if (r == CN_OK && kind == EL_TREF) {
    const char *href = cn__svg_href(c);
    xmlNode *t = href ? cn__svg_lookup(L, href, strlen(href)) : NULL;
    if (t && !known_element(t)) { /* as resvg: only SVG elements give their text */
      r = cn__svg_warn(L, CN_SVG_SKIP_MISSING_REF, c, "<tref> references <%.60s>, not an SVG element; no text",
                       (const char *)t->name);
    } else if (t) {
      xmlBuffer *buf = xmlBufferCreate();
      if (!buf) r = cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for text");
      else {
        gather_text(t, buf, 0);
        if (xmlBufferLength(buf) > 0)
          r = add_piece(T, ci, depth + 1, (const char *)xmlBufferContent(buf), (size_t)xmlBufferLength(buf));
        xmlBufferFree(buf);
      }
    } else if (href) {
      r = cn__svg_warn(L, CN_SVG_SKIP_MISSING_REF, c, "<tref> references #%.60s, which does not exist", href);
    }
  } else if (r == CN_OK) {
    r = collect(T, c, ci, depth + 1);
  }
  cn__svg_leave(L);
  return r;
}

static cn_result collect(text_tree *T, xmlNode *node, int elem, int depth) {
  for (xmlNode *c = node->children; c; c = c->next) CN_TRY(collect_child(T, c, elem, depth));
  return CN_OK;
}

static bool piece_preserve(const text_tree *T, const text_piece *p) { return T->e[p->elem].preserve; }

static void drop_first(text_piece *p) {
  if (!p->len) return;
  memmove(p->s, p->s + 1, p->len);
  p->len--;
}
static void drop_last(text_piece *p) {
  if (p->len) p->s[--p->len] = 0;
}

/* Whitespace where pieces meet (resvg's rules): leading space of the first,
 * trailing space of the last, one space where two meet. */
static void trim_pieces(text_tree *T) {
  if (T->np == 0) return;
  if (T->np == 1) {
    text_piece *p = &T->p[0];
    if (!piece_preserve(T, p)) {
      if (p->len == 1 && p->s[0] == ' ') drop_first(p);
      else if (p->len > 1) {
        if (p->s[0] == ' ') drop_first(p);
        if (p->len && p->s[p->len - 1] == ' ') drop_last(p);
      }
    }
    return;
  }
  int last_non_empty = -1;
  uint32_t len = T->np - 1;
  for (uint32_t i = 0; i < len; i++) {
    int i1 = (int)i;
    if (T->p[i1].len == 0 && last_non_empty >= 0) i1 = last_non_empty;
    text_piece *n1 = &T->p[i1], *n2 = &T->p[i + 1];
    bool pre1 = piece_preserve(T, n1), pre2 = piece_preserve(T, n2);
    char c1 = n1->len ? n1->s[0] : 0, c2 = n1->len ? n1->s[n1->len - 1] : 0;
    char c3 = n2->len ? n2->s[0] : 0, c4 = n2->len ? n2->s[n2->len - 1] : 0;
    if (T->p[i].depth < n2->depth) {
      if (c3 == ' ' && !pre2) drop_first(n2);
    } else if (c2 == ' ' && c2 == c3) {
      if (!pre1 && !pre2) drop_last(n1);
      else if (pre1 && !pre2) drop_first(n2);
    }
    bool is_first = i == 0, is_last = i == len - 1;
    if (is_first && c1 == ' ' && !pre1 && n1->len) drop_first(n1);
    else if (is_last && c4 == ' ' && n2->len && !pre2) drop_last(n2);
    if (is_last && c2 == ' ' && n1->len && !n2->len && n1->s[n1->len - 1] == ' ') drop_last(n1);
    bool blank = true;
    for (size_t k = 0; k < n1->len && blank; k++) blank = n1->s[k] == ' ';
    if (!blank) last_non_empty = i1;
  }
}

static uint32_t utf8_next(const char *s, size_t n, size_t *i) {
  const unsigned char *u = (const unsigned char *)s;
  uint32_t c = u[*i];
  size_t k = c < 0x80 ? 0 : c < 0xE0 ? 1 : c < 0xF0 ? 2 : 3;
  if (c >= 0x80) c &= 0x3F >> k;
  (*i)++;
  for (size_t j = 0; j < k && *i < n; j++) c = (c << 6) | (u[(*i)++] & 0x3F);
  return c;
}

/* Makes room for entry count of a per-character list of capacity *cap
 * (doubling, at most CN_SVG_MAX_TEXT_CHARS); false when it cannot grow. */
static bool list_room(double **list, uint32_t count, uint32_t *cap) {
  if (count < *cap) return true;
  uint32_t n = *cap ? *cap * 2 : 8;
  if (n > CN_SVG_MAX_TEXT_CHARS) return false;
  double *nv = realloc(*list, n * sizeof *nv);
  if (!nv) return false;
  *list = nv, *cap = n;
  return true;
}

/* A per-character list of attribute attr: lengths in user units along axis
 * (x, y, dx, dy; font size fs for em units) with L, plain numbers (rotate)
 * without; false when missing or malformed. Values past the most characters
 * a text holds are not kept (no character reads them). */
static bool value_list(svg_loader *L, const xmlNode *n, const char *attr, int axis, double fs, double **out,
                       uint32_t *count) {
  const char *s = cn__svg_attr(n, attr);
  *out = NULL, *count = 0;
  if (!s) return false;
  uint32_t cap = 0;
  for (;;) {
    cn__svg_skip_comma_ws(&s);
    if (!*s) break;
    double v = 0;
    svg_length l = {0};
    bool ok = L ? cn__svg_parse_length_at(&s, &l) : cn__svg_parse_number(&s, &v) == 1;
    if (!ok) {
      free(*out);
      *out = NULL, *count = 0;
      return false;
    }
    if (L) v = cn__svg_length_user(l, axis, L->vw, L->vh, fs);
    if (!list_room(out, *count, &cap)) break;
    (*out)[(*count)++] = v;
  }
  return *count > 0;
}

/* Baseline shifts of the elements from e up to (not including) the text. */
static void span_shifts(const text_tree *T, int e, text_span *sp) {
  for (; e > 0; e = T->e[e].parent) {
    const svg_style *s = &T->e[e].st;
    if (s->baseline_shift_kind == 1) sp->shift_sub--;
    else if (s->baseline_shift_kind == 2) sp->shift_sub++;
    else if (s->baseline_shift_kind == 3) {
      svg_length l = s->baseline_shift;
      sp->shift_px += l.unit == SVG_UNIT_PERCENT ? s->font_size * l.v / 100
                                                 : cn__svg_length_user(l, SVG_AXIS_Y, T->L->vw, T->L->vh, s->font_size);
    }
  }
}

/* font-variation-settings plus what weight, stretch and style imply (as resvg). */
static void font_query(const svg_style *s, svg_font_query *q) {
  *q = (svg_font_query){s->font_family, s->font_family_len, s->font_weight, s->font_style, s->font_stretch,
                        (float)s->font_size, 0, {{0, 0}}};
  const char *v = s->font_variations, *e = v ? v + s->font_variations_len : NULL;
  while (v && v < e && q->nvar < SVG_MAX_VARIATIONS) {
    while (v < e && (*v == ' ' || *v == ',' || *v == '\t' || *v == '\n')) v++;
    if (v >= e) break;
    char qc = *v;
    const char *item_end = memchr(v, ',', (size_t)(e - v));
    if (!item_end) item_end = e;
    if ((qc == '"' || qc == '\'') && item_end - v >= 6 && v[5] == qc) {
      uint32_t tag = ((uint32_t)(uint8_t)v[1] << 24) | ((uint32_t)(uint8_t)v[2] << 16) | ((uint32_t)(uint8_t)v[3] << 8) |
                     (uint32_t)(uint8_t)v[4];
      char num[64];
      size_t nl = (size_t)(item_end - (v + 6));
      if (nl < sizeof num) {
        memcpy(num, v + 6, nl);
        num[nl] = 0;
        double val;
        if (cn__svg_parse_number_attr(num, &val)) q->var[q->nvar++] = (svg_variation){tag, (float)val};
      }
    }
    v = item_end;
  }
#define TAG(a, b, c, d) (((uint32_t)(a) << 24) | ((uint32_t)(b) << 16) | ((uint32_t)(c) << 8) | (uint32_t)(d))
  bool has[4] = {false, false, false, false};
  for (uint32_t k = 0; k < q->nvar; k++) {
    if (q->var[k].tag == TAG('w', 'g', 'h', 't')) has[0] = true;
    if (q->var[k].tag == TAG('w', 'd', 't', 'h')) has[1] = true;
    if (q->var[k].tag == TAG('i', 't', 'a', 'l')) has[2] = true;
    if (q->var[k].tag == TAG('s', 'l', 'n', 't')) has[3] = true;
  }
  static const float wdth[10] = {100, 50, 62.5f, 75, 87.5f, 100, 112.5f, 125, 150, 200};
  if (!has[0] && q->nvar < SVG_MAX_VARIATIONS) q->var[q->nvar++] = (svg_variation){TAG('w', 'g', 'h', 't'), s->font_weight};
  if (!has[1] && s->font_stretch != 5 && q->nvar < SVG_MAX_VARIATIONS)
    q->var[q->nvar++] = (svg_variation){TAG('w', 'd', 't', 'h'), wdth[s->font_stretch < 10 ? s->font_stretch : 5]};
  if (!has[2] && s->font_style == 1 && q->nvar < SVG_MAX_VARIATIONS) q->var[q->nvar++] = (svg_variation){TAG('i', 't', 'a', 'l'), 1};
  if (!has[3] && s->font_style == 2 && q->nvar < SVG_MAX_VARIATIONS) q->var[q->nvar++] = (svg_variation){TAG('s', 'l', 'n', 't'), -12};
#undef TAG
}

static cn_result text_run(svg_loader *L, xmlNode *node, const svg_style *st, svg_mat ctm, svg_path *outline) {
  text_tree T = {.L = L};
  int root;
  cn_result r = add_elem(&T, node, -1, EL_TEXT, &root);
  uint32_t *cps = NULL, *gidx = NULL, *owner = NULL;
  uint16_t *span_of = NULL;
  double *dx = NULL, *dy = NULL, *rot = NULL, *px = NULL, *py = NULL;
  text_span *spans = NULL;
  text_chunk *chunks = NULL;
  uint32_t nchunks = 0, nspans = 0;
  if (r != CN_OK) goto done;
  T.e[root].st = *st;
  r = collect(&T, node, root, 0);
  if (r != CN_OK) goto done;
  trim_pieces(&T);

  /* characters, and each element's range of them */
  uint32_t n = 0;
  for (uint32_t i = 0; i < T.np; i++) {
    size_t k = 0;
    while (k < T.p[i].len) utf8_next(T.p[i].s, T.p[i].len, &k), n++;
  }
  if (n == 0) goto done;
  cps = malloc(n * sizeof *cps), gidx = malloc(n * sizeof *gidx), owner = malloc(n * sizeof *owner);
  span_of = malloc(n * sizeof *span_of);
  dx = calloc(n, sizeof *dx), dy = calloc(n, sizeof *dy), rot = calloc(n, sizeof *rot);
  px = malloc(n * sizeof *px), py = malloc(n * sizeof *py);
  if (!cps || !gidx || !owner || !span_of || !dx || !dy || !rot || !px || !py) {
    r = cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for text");
    goto done;
  }
  uint32_t at = 0;
  for (uint32_t i = 0; i < T.np; i++) {
    uint32_t start = at;
    size_t k = 0;
    while (k < T.p[i].len) {
      owner[at] = i;
      cps[at++] = utf8_next(T.p[i].s, T.p[i].len, &k);
    }
    for (int e = T.p[i].elem; e >= 0; e = T.e[e].parent) {
      if (T.e[e].start == UINT32_MAX) T.e[e].start = start;
      T.e[e].end = at;
    }
  }
  for (uint32_t i = 0; i < n; i++) px[i] = py[i] = NAN;
  /* x, y, dx, dy on text and tspan (and tref); rotate on any; inner ones win */
  for (uint32_t ei = 0; ei < T.ne; ei++) {
    text_elem *e = &T.e[ei];
    if (e->start == UINT32_MAX) continue;
    uint32_t cnt = e->end - e->start;
    double *list;
    uint32_t len;
    if (e->kind != EL_TEXTPATH) {
      const char *names[4] = {"x", "y", "dx", "dy"};
      double *dst[4] = {px, py, dx, dy};
      for (int a = 0; a < 4; a++) {
        if (!value_list(L, e->node, names[a], a & 1 ? SVG_AXIS_Y : SVG_AXIS_X, e->st.font_size, &list, &len)) continue;
        for (uint32_t i = 0; i < len && i < cnt; i++) dst[a][e->start + i] = list[i];
        free(list);
      }
    }
    if (value_list(NULL, e->node, "rotate", 0, 0, &list, &len)) {
      for (uint32_t i = 0; i < cnt; i++) rot[e->start + i] = list[i < len ? i : len - 1];
      free(list);
    }
  }

  /* chunks and spans: characters of hidden elements are dropped (their
   * positions still count) */
  chunks = calloc(n, sizeof *chunks);
  spans = calloc(n, sizeof *spans);
  if (!chunks || !spans) {
    r = cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for text");
    goto done;
  }
  uint32_t m = 0; /* kept characters, compacted into cps/gidx/span_of */
  int prev_path = -2;
  uint32_t prev_piece = UINT32_MAX;
  for (uint32_t i = 0; i < n; i++) {
    const text_piece *p = &T.p[owner[i]];
    const text_elem *e = &T.e[p->elem];
    if (e->hidden || e->drop) continue;
    bool new_chunk = !isnan(px[i]) || !isnan(py[i]) || e->path_elem != prev_path || nchunks == 0;
    if (new_chunk) {
      text_chunk *c = &chunks[nchunks++];
      c->x = px[i], c->y = py[i];
      c->anchor = e->st.text_anchor;
      c->cps = cps + m, c->gidx = gidx + m, c->span = span_of + m;
      if (e->path_elem >= 0) c->path = &T.e[e->path_elem].path, c->start_offset = T.e[e->path_elem].start_offset;
    }
    if (new_chunk || owner[i] != prev_piece) {
      if (nspans == 65535) {
        r = cn_fail(CN_ERROR_LIMIT, "line %d: <text> has more than 65535 spans", cn__svg_line(node));
        goto done;
      }
      text_span *sp = &spans[nspans++];
      sp->node = e->node;
      sp->st = &e->st;
      sp->size = e->st.font_size;
      sp->letter_spacing = cn__svg_length_user(e->st.letter_spacing, SVG_AXIS_X, L->vw, L->vh, e->st.font_size);
      sp->word_spacing = cn__svg_length_user(e->st.word_spacing, SVG_AXIS_X, L->vw, L->vh, e->st.font_size);
      span_shifts(&T, p->elem, sp);
      sp->dominant = e->st.dominant_baseline;
      sp->alignment = e->st.alignment_baseline;
      svg_length tl;
      sp->text_length = -1;
      if (cn__svg_parse_length(cn__svg_attr(e->node, "textLength"), &tl)) {
        double v = cn__svg_length_user(tl, SVG_AXIS_X, L->vw, L->vh, e->st.font_size);
        if (v >= 0) sp->text_length = v;
      }
      const char *la = cn__svg_attr(e->node, "lengthAdjust");
      sp->spacing_and_glyphs = la && strcmp(la, "spacingAndGlyphs") == 0;
      for (int k = 0; k < 3; k++) {
        if (!(e->st.decoration_all & (1 << k))) continue;
        int d = p->elem;
        while (d > 0 && !(T.e[d].st.decoration & (1 << k))) d = T.e[d].parent;
        sp->deco[k] = &T.e[d].st;
        sp->deco_node[k] = T.e[d].node;
      }
      svg_font_query q;
      font_query(&e->st, &q);
      r = cn__svg_font_select(L, e->node, &q, &sp->font);
      if (r != CN_OK) goto done;
    }
    prev_path = e->path_elem;
    prev_piece = owner[i];
    cps[m] = cps[i];
    gidx[m] = i;
    span_of[m] = (uint16_t)(nspans - 1);
    chunks[nchunks - 1].n++;
    m++;
  }
  if (m) {
    text_layout lay = {node, st, ctm, spans, nspans, dx, dy, rot, st->vertical, outline};
    r = cn__svg_text_draw(L, &lay, chunks, nchunks);
  }
done:
  free(cps), free(gidx), free(owner), free(span_of);
  free(dx), free(dy), free(rot), free(px), free(py);
  free(spans), free(chunks);
  tree_free(&T);
  return r;
}

cn_result cn__svg_render_text(svg_loader *L, xmlNode *node, const svg_style *st, svg_mat ctm) {
  return text_run(L, node, st, ctm, NULL);
}

cn_result cn__svg_text_outline(svg_loader *L, xmlNode *node, const svg_style *st, svg_path *out) {
  return text_run(L, node, st, cn__svg_mat_identity(), out);
}
