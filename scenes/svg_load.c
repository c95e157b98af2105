/* svg_load.c: the entry points of the SVG loader: reading the file, parsing
 * the XML safely with libxml2, the id table, entities in attributes, the
 * root viewport and output size, the shared helpers of the loader files
 * (depth, reference chains, warnings) and the statistics. */
#include "svg_internal.h"
#include "svg_text.h"

#include <errno.h>
#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SVG_NS "http://www.w3.org/2000/svg"
#define XLINK_NS "http://www.w3.org/1999/xlink"
/* Largest attribute built from entity references (bytes). */
#define SVG_MAX_ENTITY_TEXT (1u << 20)

const char *cn_svg_skip_name(cn_svg_skip kind) {
  static const char *const names[CN_SVG_SKIP_COUNT] = {"text", "filter", "image", "pattern", "foreign",
                                                       "unknown", "missing-ref", "cycle", "refused-ref",
                                                       "font"};
  return (unsigned)kind < CN_SVG_SKIP_COUNT ? names[kind] : "?";
}

/* ------------------------------------------------------------- helpers */

int cn__svg_line(const xmlNode *n) { return n ? (int)xmlGetLineNo((xmlNode *)n) : 0; }

bool cn__svg_is_element(const xmlNode *n) {
  return n && n->type == XML_ELEMENT_NODE && (!n->ns || !n->ns->href || strcmp((const char *)n->ns->href, SVG_NS) == 0);
}

bool cn__svg_is(const xmlNode *n, const char *name) { return cn__svg_is_element(n) && strcmp((const char *)n->name, name) == 0; }

const char *cn__svg_attr(const xmlNode *n, const char *name) {
  for (xmlAttr *a = n->properties; a; a = a->next) {
    if (a->ns && !(a->ns->href && strcmp((const char *)a->ns->href, SVG_NS) == 0)) continue;
    if (strcmp((const char *)a->name, name) != 0) continue;
    /* attributes are normalised to one text node before traversal */
    if (a->children && a->children->type == XML_TEXT_NODE && !a->children->next)
      return (const char *)a->children->content;
    return a->children ? NULL : "";
  }
  return NULL;
}

const char *cn__svg_href(const xmlNode *n) {
  const char *h = cn__svg_href_raw(n);
  return h && *h == '#' ? h + 1 : NULL;
}

const char *cn__svg_href_raw(const xmlNode *n) {
  const char *h = cn__svg_attr(n, "href");
  if (!h)
    for (xmlAttr *a = n->properties; a; a = a->next)
      if (a->ns && a->ns->href && strcmp((const char *)a->ns->href, XLINK_NS) == 0 &&
          strcmp((const char *)a->name, "href") == 0 && a->children && a->children->type == XML_TEXT_NODE) {
        h = (const char *)a->children->content;
        break;
      }
  if (!h) return NULL;
  while (*h == ' ' || *h == '\t' || *h == '\n' || *h == '\r') h++;
  return *h ? h : NULL;
}

static uint64_t hash_str(const char *s, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
  return h;
}

xmlNode *cn__svg_lookup(svg_loader *L, const char *id, size_t len) {
  if (!L->id_cap || !len) return NULL;
  size_t mask = L->id_cap - 1;
  for (size_t i = hash_str(id, len) & mask;; i = (i + 1) & mask) {
    svg_id_entry *e = &L->ids[i];
    if (!e->id) return NULL;
    if (strlen(e->id) == len && memcmp(e->id, id, len) == 0) return e->node;
  }
}

xmlNode *cn__svg_resolve_url(svg_loader *L, const char *s, size_t n, bool *is_url, size_t *consumed) {
  *is_url = false;
  const char *e = s + n, *p = s;
  while (p < e && (*p == ' ' || *p == '\t' || *p == '\n')) p++;
  if (e - p < 5 || strncmp(p, "url(", 4) != 0) return NULL;
  p += 4;
  const char *close = memchr(p, ')', (size_t)(e - p));
  if (!close) return NULL;
  *is_url = true;
  if (consumed) *consumed = (size_t)(close + 1 - s);
  const char *a = p, *b = close;
  while (a < b && (*a == ' ' || *a == '"' || *a == '\'')) a++;
  while (b > a && (b[-1] == ' ' || b[-1] == '"' || b[-1] == '\'')) b--;
  if (a < b && *a == '#') return cn__svg_lookup(L, a + 1, (size_t)(b - a - 1));
  return NULL; /* external references are not followed */
}

cn_result cn__svg_enter(svg_loader *L, const xmlNode *n) {
  if (L->depth >= CN_SVG_MAX_DEPTH)
    return cn_fail(CN_ERROR_LIMIT,
                   "line %d: <%s>: mask, marker, pattern and clipPath-child clip-path content nested deeper than %u "
                   "levels",
                   cn__svg_line(n), n ? (const char *)n->name : "?", CN_SVG_MAX_DEPTH);
  L->depth++;
  return CN_OK;
}

void cn__svg_leave(svg_loader *L) { L->depth--; }

/* A node is in the active chain when its _private (ours: libxml2 leaves it
 * to the application) is set, so a chain of any length is checked in O(1). */
static char active_mark;

bool cn__svg_is_active(const svg_loader *L, const xmlNode *n) {
  (void)L;
  return n->_private == &active_mark;
}

bool cn__svg_push_ref(svg_loader *L, xmlNode *ref, const xmlNode *from) {
  (void)from;
  if (ref->_private == &active_mark) return false;
  if (L->nactive == L->cap_active) {
    uint32_t cap = L->cap_active ? L->cap_active * 2 : 64;
    xmlNode **a = realloc(L->active, cap * sizeof *a);
    if (!a) return false;
    L->active = a, L->cap_active = cap;
  }
  L->active[L->nactive++] = ref;
  ref->_private = &active_mark;
  return true;
}

void cn__svg_pop_ref(svg_loader *L) { L->active[--L->nactive]->_private = NULL; }

void cn__svg_skip(svg_loader *L, cn_svg_skip kind) {
  if (L->stats) L->stats->skipped[kind]++;
}

cn_result cn__svg_warn(svg_loader *L, cn_svg_skip kind, const xmlNode *n, const char *fmt, ...) {
  char msg[160];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  cn__svg_skip(L, kind);
  if (L->stats) {
    cn_svg_stats *st = L->stats;
    if (st->warning_count < CN_SVG_MAX_WARNINGS)
      snprintf(st->warnings[st->warning_count], sizeof st->warnings[0], "line %d: %s", cn__svg_line(n), msg);
    st->warning_count++;
  }
  if (L->opt.strict) return cn_fail(CN_ERROR_PARSE, "line %d: %s (strict mode)", cn__svg_line(n), msg);
  return CN_OK;
}

cn_result cn__svg_work(svg_loader *L, const xmlNode *n, uint64_t units) {
  L->work += units;
  if (L->work > SVG_MAX_WORK)
    return cn_fail(CN_ERROR_LIMIT, "line %d: the document takes more than %llu steps to expand (use/marker explosion?)",
                   cn__svg_line(n), (unsigned long long)SVG_MAX_WORK);
  return CN_OK;
}

/* --------------------------------------------------- parsing the XML */

typedef struct xml_errors {
  char msg[512];
  int line;
  bool have;
  bool oom; /* libxml2 ran out of memory somewhere (the tree is then cut short) */
} xml_errors;

static void on_xml_error(void *user, xmlErrorPtr e) {
  xml_errors *x = user;
  if (e && e->code == XML_ERR_NO_MEMORY) x->oom = true;
  if (x->have || !e || e->level < XML_ERR_ERROR) return;
  x->have = true;
  x->line = e->line;
  snprintf(x->msg, sizeof x->msg, "%s", e->message ? e->message : "unknown XML error");
  size_t n = strlen(x->msg);
  while (n && (x->msg[n - 1] == '\n' || x->msg[n - 1] == ' ')) x->msg[--n] = 0;
}

static void on_generic_error(void *user, const char *fmt, ...) { (void)user, (void)fmt; }

/* Replaces an attribute's children (text and entity references) by one
 * text node. Only internal entities whose text holds no further references
 * are expanded; anything else is refused, so expansion stays linear. */
static cn_result normalise_attr(xmlDoc *doc, xmlNode *owner, xmlAttr *a) {
  xmlNode *c = a->children;
  if (!c || (c->type == XML_TEXT_NODE && !c->next)) return CN_OK;
  size_t cap = 256, len = 0;
  char *buf = malloc(cap);
  if (!buf) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for an attribute");
  for (; c; c = c->next) {
    const char *piece = NULL;
    if (c->type == XML_TEXT_NODE) {
      piece = (const char *)c->content;
    } else if (c->type == XML_ENTITY_REF_NODE) {
      xmlEntity *ent = xmlGetDocEntity(doc, c->name);
      if (!ent || ent->etype != XML_INTERNAL_GENERAL_ENTITY || !ent->content || strchr((const char *)ent->content, '&')) {
        free(buf);
        return cn_fail(CN_ERROR_PARSE, "line %d: attribute %s of <%s> uses entity &%s; which is not expanded "
                       "(only internal entities without nested references are)",
                       cn__svg_line(owner), (const char *)a->name, (const char *)owner->name, (const char *)c->name);
      }
      piece = (const char *)ent->content;
    }
    if (!piece) continue;
    size_t n = strlen(piece);
    if (len + n + 1 > SVG_MAX_ENTITY_TEXT) {
      free(buf);
      return cn_fail(CN_ERROR_LIMIT, "line %d: attribute %s of <%s> expands beyond %u bytes", cn__svg_line(owner),
                     (const char *)a->name, (const char *)owner->name, SVG_MAX_ENTITY_TEXT);
    }
    if (len + n + 1 > cap) {
      while (len + n + 1 > cap) cap *= 2;
      char *nb = realloc(buf, cap);
      if (!nb) {
        free(buf);
        return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for an attribute");
      }
      buf = nb;
    }
    memcpy(buf + len, piece, n);
    len += n;
  }
  buf[len] = 0;
  xmlNode *t = xmlNewDocText(doc, (const xmlChar *)buf);
  free(buf);
  if (!t) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for an attribute");
  xmlFreeNodeList(a->children);
  a->children = a->last = t;
  t->parent = (xmlNode *)a;
  return CN_OK;
}

/* Blanks CSS comments out of a style attribute (a new text node: the
 * declarations are then read in place). */
static cn_result strip_style_comments(xmlDoc *doc, xmlAttr *a) {
  xmlNode *c = a->children;
  if (!c || c->type != XML_TEXT_NODE || !c->content || !strstr((const char *)c->content, "/*")) return CN_OK;
  size_t n = strlen((const char *)c->content);
  char *buf = malloc(n + 1);
  if (!buf) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for a style attribute");
  memcpy(buf, c->content, n + 1);
  for (size_t i = 0; i + 1 < n; i++)
    if (buf[i] == '/' && buf[i + 1] == '*') {
      size_t j = i + 2;
      while (j + 1 < n && !(buf[j] == '*' && buf[j + 1] == '/')) j++;
      size_t end = j + 1 < n ? j + 2 : n;
      memset(buf + i, ' ', end - i);
      i = end - 1;
    }
  xmlNode *t = xmlNewDocText(doc, (const xmlChar *)buf);
  free(buf);
  if (!t) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for a style attribute");
  xmlFreeNodeList(a->children);
  a->children = a->last = t;
  t->parent = (xmlNode *)a;
  return CN_OK;
}

static cn_result id_insert(svg_loader *L, const char *id, xmlNode *n) {
  if (!*id) return CN_OK;
  if (L->id_count * 2 + 2 > L->id_cap) {
    size_t cap = L->id_cap ? L->id_cap * 2 : 256;
    svg_id_entry *t = calloc(cap, sizeof *t);
    if (!t) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for the id table");
    for (size_t i = 0; i < L->id_cap; i++)
      if (L->ids[i].id)
        for (size_t j = hash_str(L->ids[i].id, strlen(L->ids[i].id)) & (cap - 1);; j = (j + 1) & (cap - 1))
          if (!t[j].id) {
            t[j] = L->ids[i];
            break;
          }
    free(L->ids);
    L->ids = t;
    L->id_cap = cap;
  }
  size_t len = strlen(id), mask = L->id_cap - 1;
  for (size_t i = hash_str(id, len) & mask;; i = (i + 1) & mask) {
    if (!L->ids[i].id) {
      L->ids[i] = (svg_id_entry){id, n};
      L->id_count++;
      return CN_OK;
    }
    if (strcmp(L->ids[i].id, id) == 0) return CN_OK; /* the first wins */
  }
}

/* Appends the text of a <style> element (type text/css or none). */
static cn_result add_style_text(xmlNode *n, char **css, size_t *len, size_t *cap) {
  const char *type = cn__svg_attr(n, "type");
  if (type && *type && strcmp(type, "text/css") != 0) return CN_OK;
  for (xmlNode *c = n->children; c; c = c->next) {
    if (c->type != XML_TEXT_NODE && c->type != XML_CDATA_SECTION_NODE) continue;
    size_t k = strlen((const char *)c->content);
    if (*len + k + 2 > *cap) {
      size_t nc = *cap ? *cap : 1024;
      while (*len + k + 2 > nc) nc *= 2;
      char *p = realloc(*css, nc);
      if (!p) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for style sheets");
      *css = p, *cap = nc;
    }
    memcpy(*css + *len, c->content, k);
    *len += k;
    (*css)[(*len)++] = '\n';
    (*css)[*len] = 0;
  }
  return CN_OK;
}

typedef struct css_text {
  char *s;
  size_t len, cap;
} css_text;

/* One pass over a tree (iterative): normalises attributes, fills the id
 * table, gathers <style> text. */
static cn_result index_tree(svg_loader *L, xmlNode *root, css_text *css) {
  cn_result r = CN_OK;
  for (xmlNode *n = root; n && r == CN_OK;) {
    if (n->type == XML_ELEMENT_NODE) {
      for (xmlAttr *a = n->properties; a && r == CN_OK; a = a->next) {
        r = normalise_attr(L->doc, n, a);
        if (r == CN_OK && !a->ns && strcmp((const char *)a->name, "style") == 0) r = strip_style_comments(L->doc, a);
      }
      const char *id = r == CN_OK ? cn__svg_attr(n, "id") : NULL;
      if (id) r = id_insert(L, id, n);
      if (r == CN_OK && cn__svg_is(n, "style")) r = add_style_text(n, &css->s, &css->len, &css->cap);
      if (r == CN_OK && (++L->work & 0xffff) == 0) r = cn__svg_work(L, n, 0);
    }
    /* next in document order */
    if (n->type == XML_ELEMENT_NODE && n->children) {
      n = n->children;
      continue;
    }
    while (n && n != root && !n->next) n = n->parent;
    if (!n || n == root) break;
    n = n->next;
  }
  return r;
}

/* Indexes the document, then the content of its internal entities (elements
 * that come in through entity references), then parses the style sheets. */
cn_result cn__svg_index_document(svg_loader *L, xmlNode *root) {
  css_text css = {0};
  cn_result r = index_tree(L, root, &css);
  xmlDtd *dtd = L->doc->intSubset;
  for (xmlNode *d = dtd ? dtd->children : NULL; d && r == CN_OK; d = d->next)
    if (d->type == XML_ENTITY_DECL)
      for (xmlNode *c = d->children; c && r == CN_OK; c = c->next)
        if (c->type == XML_ELEMENT_NODE) r = index_tree(L, c, &css);
  if (r == CN_OK && css.s) r = cn__svg_sheet_parse(css.s, css.len, &L->sheet);
  free(css.s);
  return r;
}

cn_result cn__svg_parse_xml(const void *data, size_t size, xmlDoc **out) {
  *out = NULL;
  if (size == 0) return cn_fail(CN_ERROR_PARSE, "line 1: empty input (not an SVG document)");
  xml_errors errs = {0};
  xmlSetStructuredErrorFunc(&errs, on_xml_error);
  xmlSetGenericErrorFunc(NULL, on_generic_error);
  /* The push parser: libxml2 2.9's memory parser refuses documents over
   * 10 MB ("Huge input lookup"); pushed chunks have no such limit while
   * every single token stays bounded by libxml2's own 10 MB limits. */
  const char *bytes = data;
  size_t first = size < 4 ? size : 4;
  /* no file name: libxml2 2.9 leaks the input stream when copying the
   * name runs out of memory */
  xmlParserCtxt *ctxt = xmlCreatePushParserCtxt(NULL, NULL, bytes, (int)first, NULL);
  if (!ctxt) {
    xmlSetStructuredErrorFunc(NULL, NULL);
    xmlSetGenericErrorFunc(NULL, NULL);
    return cn_fail(CN_ERROR_OUT_OF_MEMORY, "out of memory creating the XML parser (libxml2)");
  }
  /* No network, no DTD loading or attribute defaults, no entity
   * substitution, no XInclude. XML_PARSE_HUGE lifts libxml2's depth limit
   * (256) and its 10 MB limit on single tokens: the traversal handles any
   * nesting, and the input is already bounded by max_bytes. Entity loops
   * and amplification stay checked (and entities are expanded by this
   * loader only under its own limits). */
  xmlCtxtUseOptions(ctxt,
                    XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOWARNING | XML_PARSE_NOERROR | XML_PARSE_HUGE);
  for (size_t off = first; off < size && !errs.have && !ctxt->disableSAX;) {
    size_t n = size - off < (1u << 16) ? size - off : (1u << 16);
    xmlParseChunk(ctxt, bytes + off, (int)n, 0);
    off += n;
  }
  xmlParseChunk(ctxt, NULL, 0, 1);
  xmlDoc *doc = ctxt->myDoc;
  ctxt->myDoc = NULL;
  int well_formed = ctxt->wellFormed;
  /* libxml2 stops building the tree without clearing wellFormed when it runs
   * out of memory (or halts for another reason): the tree is then a prefix of
   * the document, which must not pass for the whole */
  bool stopped = ctxt->disableSAX != 0 || ctxt->errNo == XML_ERR_NO_MEMORY;
  if (ctxt->errNo == XML_ERR_NO_MEMORY) errs.oom = true;
  if (!errs.have) { /* errors that bypassed the handler */
    xmlErrorPtr e = xmlCtxtGetLastError(ctxt);
    if (e && e->level >= XML_ERR_ERROR) on_xml_error(&errs, e);
  }
  xmlSetStructuredErrorFunc(NULL, NULL);
  xmlSetGenericErrorFunc(NULL, NULL);
  xmlFreeParserCtxt(ctxt);
  if (errs.oom) {
    if (doc) xmlFreeDoc(doc);
    return cn_fail(CN_ERROR_OUT_OF_MEMORY, "line %d: out of memory while parsing the XML (libxml2)", errs.line);
  }
  if (!doc || !well_formed || stopped) {
    if (doc) xmlFreeDoc(doc);
    if (errs.have) return cn_fail(CN_ERROR_PARSE, "line %d: malformed XML: %s", errs.line, errs.msg);
    if (stopped) return cn_fail(CN_ERROR_PARSE, "line 1: the XML parser stopped before the end of the document");
    return cn_fail(CN_ERROR_PARSE, "line 1: malformed XML");
  }
  *out = doc;
  return CN_OK;
}

/* --------------------------------------------------------- the root */

/* Output size and the root matrix from the root <svg> and the options. */
static cn_result root_viewport(svg_loader *L, xmlNode *root, float *ow, float *oh, svg_mat *m) {
  svg_viewbox vb;
  bool has_vb = cn__svg_parse_viewbox(cn__svg_attr(root, "viewBox"), &vb);
  svg_length lw, lh;
  bool has_w = cn__svg_parse_length(cn__svg_attr(root, "width"), &lw) && lw.unit != SVG_UNIT_PERCENT;
  bool has_h = cn__svg_parse_length(cn__svg_attr(root, "height"), &lh) && lh.unit != SVG_UNIT_PERCENT;
  double w = has_w ? cn__svg_length_user(lw, SVG_AXIS_X, 0, 0, 16) : 0;
  double h = has_h ? cn__svg_length_user(lh, SVG_AXIS_Y, 0, 0, 16) : 0;
  if ((has_w && !(w > 0)) || (has_h && !(h > 0)))
    return cn_fail(CN_ERROR_PARSE, "line %d: <svg> width/height %s/%s must be positive", cn__svg_line(root),
                   cn__svg_attr(root, "width") ? cn__svg_attr(root, "width") : "auto",
                   cn__svg_attr(root, "height") ? cn__svg_attr(root, "height") : "auto");
  if (!has_w && !has_h) {
    w = has_vb ? vb.w : 100;
    h = has_vb ? vb.h : 100;
  } else if (!has_w) {
    w = has_vb ? h * vb.w / vb.h : 100;
  } else if (!has_h) {
    h = has_vb ? w * vb.h / vb.w : 100;
  }
  /* the SVG's own size is the output size unless the options give one;
   * then it only sets the aspect ratio and must merely be sane */
  bool sized = L->opt.width > 0 || L->opt.height > 0;
  double own_max = sized ? CN_SVG_MAX_COORD : CN_SVG_MAX_SIZE;
  if (!(w <= own_max) || !(h <= own_max))
    return cn_fail(CN_ERROR_LIMIT, "line %d: <svg> size %gx%g is beyond the limit of %g pixels", cn__svg_line(root), w, h,
                   own_max);
  svg_aspect ar;
  cn__svg_parse_aspect(cn__svg_attr(root, "preserveAspectRatio"), &ar);
  svg_mat inner = has_vb ? cn__svg_viewbox_matrix(vb, ar, w, h) : cn__svg_mat_identity();
  /* output size */
  double tw = L->opt.width > 0 ? L->opt.width : 0, th = L->opt.height > 0 ? L->opt.height : 0;
  double s = 1, fx = 0, fy = 0;
  if (tw > 0 && th > 0) {
    s = fmin(tw / w, th / h);
    fx = (tw - w * s) / 2, fy = (th - h * s) / 2;
  } else if (tw > 0) { /* the height follows, but is at least a pixel (the drawing centred in it) */
    s = tw / w, th = h * s;
    if (th < 1) th = 1, fy = (th - h * s) / 2;
  } else if (th > 0) {
    s = th / h, tw = w * s;
    if (tw < 1) tw = 1, fx = (tw - w * s) / 2;
  } else {
    tw = w, th = h;
  }
  double k = L->opt.scale > 0 ? L->opt.scale : 1;
  tw *= k, th *= k;
  if (!(tw >= 0.5 && th >= 0.5 && tw <= CN_SVG_MAX_SIZE && th <= CN_SVG_MAX_SIZE) || !isfinite(s))
    return cn_fail(CN_ERROR_LIMIT, "line %d: output size %gx%g is outside 1..%g pixels", cn__svg_line(root), tw, th,
                   CN_SVG_MAX_SIZE);
  *ow = (float)round(tw), *oh = (float)round(th);
  if (*ow < 1) *ow = 1;
  if (*oh < 1) *oh = 1;
  *m = cn__svg_mat_mul(cn__svg_mat_scale(k, k), cn__svg_mat_mul(cn__svg_mat_translate(fx, fy), cn__svg_mat_mul(cn__svg_mat_scale(s, s), inner)));
  L->vw = has_vb ? vb.w : w;
  L->vh = has_vb ? vb.h : h;
  if (!cn__svg_mat_finite(*m)) return cn_fail(CN_ERROR_LIMIT, "line %d: the root viewBox transform overflows", cn__svg_line(root));
  return CN_OK;
}

static void fill_stats(cn_svg_stats *st, const cn_scene_data *d) {
  st->width = d->viewport[2] - d->viewport[0];
  st->height = d->viewport[3] - d->viewport[1];
  st->elements = d->element_count;
  st->paths = d->path_count;
  st->segments = d->segment_count;
  st->transforms = d->transform_count;
  st->paints = d->paint_count;
  uint32_t depth = 0;
  for (uint32_t i = 0; i < d->element_count; i++) {
    const cn_element *e = &d->elements[i];
    switch (e->tag) {
      case CN_TAG_FILL: st->fills++; break;
      case CN_TAG_STROKE: st->strokes++; break;
      case CN_TAG_BEGIN_CLIP:
        st->clips++;
        if (++depth > st->max_depth) st->max_depth = depth;
        break;
      case CN_TAG_BEGIN_BLEND:
        if (d->blends[e->aux].flags & (CN_BLEND_MASK_LUMINANCE | CN_BLEND_MASK_ALPHA)) st->masks++;
        else st->blend_groups++;
        if (++depth > st->max_depth) st->max_depth = depth;
        break;
      default: depth--; break;
    }
  }
}

static cn_result load_doc(svg_loader *L, xmlNode *root, cn_scene_data *out) {
  if (!root || !cn__svg_is(root, "svg"))
    return cn_fail(CN_ERROR_PARSE, "line %d: the root element is <%s>, not an SVG <svg>", cn__svg_line(root),
                   root ? (const char *)root->name : "(none)");
  CN_TRY(cn__svg_index_document(L, root));
  float w = 0, h = 0;
  svg_mat m;
  CN_TRY(root_viewport(L, root, &w, &h, &m));
  cn_scene_limits lim = {L->opt.max_elements, L->opt.max_segments};
  CN_TRY(cn_scene_builder_set_limits(L->b, &lim));
  CN_TRY(cn_scene_begin(L->b, 0, 0, w, h));
  svg_style st;
  cn__svg_style_initial(&st);
  /* the root renders like a group (its opacity, clip-path, mask, transform,
   * conditions) inside the viewBox mapping */
  L->root = root;
  cn_result r = cn__svg_render_node(L, root, &st, m);
  if (r == CN_OK) r = cn_scene_end(L->b, out);
  /* a failure may leave groups open in any state (a mask group whose masked
   * group never came cannot even be popped): drop the scene whole */
  if (r != CN_OK) cn_scene_abandon(L->b);
  return r;
}

static cn_result load_memory(cn_scene_builder *b, const void *data, size_t size, const cn_svg_options *options,
                             cn_scene_data *out, cn_svg_stats *stats, const char *path);

cn_result cn_svg_load_memory(cn_scene_builder *b, const void *data, size_t size, const cn_svg_options *options,
                             cn_scene_data *out, cn_svg_stats *stats) {
  return load_memory(b, data, size, options, out, stats, NULL);
}

static cn_result load_memory(cn_scene_builder *b, const void *data, size_t size, const cn_svg_options *options,
                             cn_scene_data *out, cn_svg_stats *stats, const char *path) {
  if (!b || (!data && size) || !out) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_svg_load_memory: NULL argument");
  svg_loader *L = calloc(1, sizeof *L);
  if (!L) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "cn_svg_load_memory: no memory");
  if (options) L->opt = *options;
  if (!L->opt.max_bytes) L->opt.max_bytes = CN_SVG_DEFAULT_MAX_BYTES;
  if (L->opt.max_bytes > INT32_MAX) L->opt.max_bytes = INT32_MAX;
  if (!(L->opt.width >= 0) || !(L->opt.height >= 0) || !(L->opt.scale >= 0) || !isfinite(L->opt.width) ||
      !isfinite(L->opt.height) || !isfinite(L->opt.scale)) {
    free(L);
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_svg_load_memory: output width/height/scale must be finite and >= 0");
  }
  if (stats) *stats = (cn_svg_stats){0};
  L->stats = stats;
  L->b = b;
  cn_result r;
  if (size > L->opt.max_bytes) {
    r = cn_fail(CN_ERROR_LIMIT, "input of %zu bytes is larger than the limit of %llu bytes", size,
                (unsigned long long)L->opt.max_bytes);
  } else {
    r = cn__svg_resources_init(L, path);
    if (r == CN_OK) r = cn__svg_parse_xml(data, size, &L->doc);
    if (r == CN_OK) r = load_doc(L, xmlDocGetRootElement(L->doc), out);
  }
  if (r == CN_OK && stats) fill_stats(stats, out), stats->glyphs = (uint32_t)L->glyphs;
  cn__svg_loader_free(L);
  return r;
}

void cn__svg_loader_free(svg_loader *L) {
  if (!L) return;
  cn__svg_resources_free(L);
  cn__svg_frames_free(L);
  while (L->nactive) cn__svg_pop_ref(L);
  if (L->doc) xmlFreeDoc(L->doc);
  cn__svg_sheet_free(L->sheet);
  cn__svg_fontdb_destroy(L->fonts);
  free(L->active);
  free(L->ids);
  free(L->acc);
  free(L);
}

cn_result cn_svg_load_file(cn_scene_builder *b, const char *path, const cn_svg_options *options, cn_scene_data *out,
                           cn_svg_stats *stats) {
  if (!path) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_svg_load_file: path is NULL");
  FILE *f = fopen(path, "rb");
  if (!f) return cn_fail(CN_ERROR_IO, "cannot open %s: %s", path, strerror(errno));
  uint64_t max = options && options->max_bytes ? options->max_bytes : CN_SVG_DEFAULT_MAX_BYTES;
  /* a regular file's size is known up front: refuse it before reading */
  struct stat sb;
  if (fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode) && (uint64_t)sb.st_size > max) {
    fclose(f);
    return cn_fail(CN_ERROR_LIMIT, "%s is %llu bytes, larger than the limit of %llu bytes (cn_svg_options.max_bytes)",
                   path, (unsigned long long)sb.st_size, (unsigned long long)max);
  }
  size_t cap = 1 << 16, len = 0;
  char *buf = malloc(cap);
  cn_result r = CN_OK;
  while (buf) {
    if (len == cap) {
      if (cap > max) break;
      char *nb = realloc(buf, cap * 2);
      if (!nb) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = nb, cap *= 2;
    }
    size_t k = fread(buf + len, 1, cap - len, f);
    len += k;
    if (k == 0) break;
  }
  if (!buf) r = cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory to read %s", path);
  else if (ferror(f)) r = cn_fail(CN_ERROR_IO, "cannot read %s", path);
  else if (len > max)
    r = cn_fail(CN_ERROR_LIMIT, "%s is larger than the limit of %llu bytes (cn_svg_options.max_bytes)", path,
                (unsigned long long)max);
  fclose(f);
  if (r == CN_OK) r = load_memory(b, buf, len, options, out, stats, path);
  free(buf);
  return r;
}
