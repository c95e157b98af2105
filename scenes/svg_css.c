/* svg_css.c: the CSS subset of SVG <style> sheets.
 *
 * Selectors: type, universal (*), #id, .class, attribute ([a], [a=v], [a~=v],
 * [a|=v], [a^=v], [a$=v], [a*=v]), :first-child, and the descendant (space)
 * and child (>) combinators; selector lists with commas. Specificity orders
 * the rules (ids, then classes/attributes/pseudo-classes, then types; ties by
 * order). A selector with anything else (other pseudo-classes, + and ~) never
 * matches. At-rules (@media, @import, @font-face, ...) are skipped whole.
 * Declarations: "name: value [!important]" separated by ';'. */
#include "svg_internal.h"

#include <stdlib.h>
#include <string.h>

enum { SEL_TYPE, SEL_ID, SEL_CLASS, SEL_ATTR, SEL_FIRST_CHILD, SEL_NEVER };
enum { ATTR_EXISTS, ATTR_EQ, ATTR_WORD, ATTR_DASH, ATTR_PREFIX, ATTR_SUFFIX, ATTR_SUBSTR };

typedef struct simple_sel {
  uint8_t kind, op;
  const char *name, *value; /* into the sheet's text copy */
  uint32_t name_len, value_len;
} simple_sel;

/* A compound selector; combinator says how it relates to the compound before it. */
typedef struct compound {
  uint32_t first, count; /* simple selectors */
  char combinator;       /* ' ' descendant, '>' child, 0 for the first */
} compound;

typedef struct rule {
  uint32_t first_compound, ncompound;
  uint32_t specificity;
  uint32_t order;
  uint32_t first_decl, ndecl;
  uint64_t need; /* filter bits of the type, id and classes of the rightmost compound */
} rule;

/* A 64-bit filter: one bit per name (type, id or class), so most rules are
 * rejected for an element without running the matcher. */
static uint64_t name_bit(const char *s, size_t n, char kind) {
  uint32_t h = 2166136261u ^ (uint32_t)kind;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
  return 1ull << (h & 63);
}

struct svg_sheet {
  char *text;
  simple_sel *sels;
  compound *comps;
  rule *rules;
  svg_decl *decls;
  uint32_t nsels, ncomps, nrules, ndecls;
  uint32_t csels, ccomps, crules, cdecls;
};

#define PUSH(arr, n, cap, item)                                  \
  do {                                                           \
    if ((n) == (cap)) {                                          \
      uint32_t c_ = (cap) ? (cap) * 2 : 16;                      \
      void *p_ = realloc((arr), (size_t)c_ * sizeof *(arr));     \
      if (!p_) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "CSS: no memory"); \
      (arr) = p_;                                                \
      (cap) = c_;                                                \
    }                                                            \
    (arr)[(n)++] = (item);                                       \
  } while (0)

static bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }
static bool is_ident(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
         (unsigned char)c >= 0x80 || c == '|';
}

/* Blanks comments out (in place) so the rest of the parser never sees them. */
static void strip_comments(char *s, size_t n) {
  for (size_t i = 0; i + 1 < n; i++)
    if (s[i] == '/' && s[i + 1] == '*') {
      size_t j = i + 2;
      while (j + 1 < n && !(s[j] == '*' && s[j + 1] == '/')) j++;
      size_t end = j + 1 < n ? j + 2 : n;
      for (size_t k = i; k < end; k++) s[k] = ' ';
      i = end - 1;
    } else if (i + 3 < n && strncmp(s + i, "<!--", 4) == 0) { /* CDO and CDC tokens */
      memset(s + i, ' ', 4);
    } else if (i + 2 < n && strncmp(s + i, "-->", 3) == 0) {
      memset(s + i, ' ', 3);
    }
}

typedef struct decl_sink {
  svg_sheet *sh;
  cn_result r;
} decl_sink;

static void collect_decl(void *user, const svg_decl *d) {
  decl_sink *k = user;
  if (k->r != CN_OK) return;
  svg_sheet *sh = k->sh;
  if (sh->ndecls == sh->cdecls) {
    uint32_t c = sh->cdecls ? sh->cdecls * 2 : 16;
    void *p = realloc(sh->decls, (size_t)c * sizeof *sh->decls);
    if (!p) {
      k->r = cn_fail(CN_ERROR_OUT_OF_MEMORY, "CSS: no memory");
      return;
    }
    sh->decls = p;
    sh->cdecls = c;
  }
  sh->decls[sh->ndecls++] = *d;
}

void cn__svg_parse_declarations(const char *text, size_t len, svg_decl_fn fn, void *user) {
  const char *s = text, *end = text + len;
  while (s < end) {
    while (s < end && (is_ws(*s) || *s == ';')) s++;
    const char *name = s;
    while (s < end && *s != ':' && *s != ';') s++;
    if (s >= end || *s != ':') {
      while (s < end && *s != ';') s++;
      continue;
    }
    const char *ne = s;
    while (ne > name && is_ws(ne[-1])) ne--;
    s++;
    const char *value = s;
    int paren = 0;
    char quote = 0;
    while (s < end) {
      if (quote) {
        if (*s == quote) quote = 0;
      } else if (*s == '"' || *s == '\'') {
        quote = *s;
      } else if (*s == '(') {
        paren++;
      } else if (*s == ')') {
        if (paren) paren--;
      } else if (*s == ';' && !paren) {
        break;
      }
      s++;
    }
    const char *ve = s;
    while (value < ve && is_ws(*value)) value++;
    while (ve > value && is_ws(ve[-1])) ve--;
    bool important = false;
    /* a trailing "!important" */
    for (const char *b = ve; b > value; b--)
      if (b[-1] == '!') {
        const char *w = b;
        while (w < ve && is_ws(*w)) w++;
        if ((size_t)(ve - w) == 9 && strncmp(w, "important", 9) == 0) {
          important = true;
          ve = b - 1;
          while (ve > value && is_ws(ve[-1])) ve--;
        }
        break;
      }
    if (ne > name && ve > value) {
      svg_decl d = {name, value, (uint32_t)(ne - name), (uint32_t)(ve - value), important};
      fn(user, &d);
    }
  }
}

/* Parses one complex selector [s, e) into compounds; false if unsupported. */
static cn_result parse_selector(svg_sheet *sh, const char *s, const char *e, uint32_t *first, uint32_t *n,
                                uint32_t *spec) {
  *first = sh->ncomps;
  *n = 0;
  *spec = 0;
  char comb = 0;
  bool never = false;
  while (s < e) {
    while (s < e && is_ws(*s)) s++;
    if (s >= e) break;
    if (*s == '>') {
      comb = '>';
      s++;
      continue;
    }
    if (*s == '+' || *s == '~') never = true;
    compound c = {sh->nsels, 0, *n ? (comb ? comb : ' ') : 0};
    comb = 0;
    while (s < e && !is_ws(*s) && *s != '>') {
      simple_sel t = {0};
      if (*s == '*') {
        s++;
        continue;
      } else if (*s == '#' || *s == '.') {
        t.kind = *s == '#' ? SEL_ID : SEL_CLASS;
        s++;
        t.name = s;
        while (s < e && is_ident(*s)) s++;
        t.name_len = (uint32_t)(s - t.name);
        *spec += 1u << (t.kind == SEL_ID ? 20 : 10);
      } else if (*s == '[') {
        s++;
        t.kind = SEL_ATTR;
        while (s < e && is_ws(*s)) s++;
        t.name = s;
        while (s < e && is_ident(*s)) s++;
        t.name_len = (uint32_t)(s - t.name);
        while (s < e && is_ws(*s)) s++;
        t.op = ATTR_EXISTS;
        if (s < e && *s != ']') {
          static const char ops[] = "=~|^$*";
          const char *o = s < e ? strchr(ops, *s) : NULL;
          if (!o || !*s) {
            never = true;
          } else if (*s == '=') {
            t.op = ATTR_EQ;
            s++;
          } else {
            t.op = (uint8_t)(ATTR_WORD + (o - ops) - 1);
            s++;
            if (s < e && *s == '=') s++;
            else never = true;
          }
          while (s < e && is_ws(*s)) s++;
          char q = s < e && (*s == '"' || *s == '\'') ? *s : 0;
          if (q) s++;
          t.value = s;
          while (s < e && (q ? *s != q : (*s != ']' && !is_ws(*s)))) s++;
          t.value_len = (uint32_t)(s - t.value);
          if (q && s < e) s++;
          while (s < e && is_ws(*s)) s++;
        }
        if (s < e && *s == ']') s++;
        else never = true;
        *spec += 1u << 10;
      } else if (*s == ':') {
        s++;
        if (s < e && *s == ':') s++;
        const char *nm = s;
        while (s < e && is_ident(*s)) s++;
        if ((size_t)(s - nm) == 11 && strncmp(nm, "first-child", 11) == 0) t.kind = SEL_FIRST_CHILD;
        else t.kind = SEL_NEVER;
        if (s < e && *s == '(') { /* :not(...), :nth-child(...): unsupported */
          while (s < e && *s != ')') s++;
          if (s < e) s++;
          t.kind = SEL_NEVER;
        }
        *spec += 1u << 10;
      } else if (is_ident(*s)) {
        t.kind = SEL_TYPE;
        t.name = s;
        while (s < e && is_ident(*s)) s++;
        t.name_len = (uint32_t)(s - t.name);
        *spec += 1;
      } else {
        never = true;
        s++;
        continue;
      }
      PUSH(sh->sels, sh->nsels, sh->csels, t);
      c.count++;
    }
    PUSH(sh->comps, sh->ncomps, sh->ccomps, c);
    (*n)++;
  }
  if (never || *n == 0 || *n > 16) { /* 16 compounds at most: matching recurses per compound */
    simple_sel t = {.kind = SEL_NEVER};
    compound c = {sh->nsels, 1, 0};
    PUSH(sh->sels, sh->nsels, sh->csels, t);
    PUSH(sh->comps, sh->ncomps, sh->ccomps, c);
    *first = sh->ncomps - 1;
    *n = 1;
  }
  return CN_OK;
}

static int rule_cmp(const void *a, const void *b) {
  const rule *x = a, *y = b;
  if (x->specificity != y->specificity) return x->specificity < y->specificity ? -1 : 1;
  return x->order < y->order ? -1 : x->order > y->order;
}

static cn_result parse_sheet(svg_sheet *sh) {
  const char *s = sh->text, *end = s + strlen(s);
  while (s < end) {
    while (s < end && is_ws(*s)) s++;
    if (s >= end) break;
    if (*s == '@') { /* skip the at-rule: to ';' or over its balanced block */
      while (s < end && *s != ';' && *s != '{') s++;
      if (s < end && *s == '{') {
        int depth = 0;
        for (; s < end; s++) {
          if (*s == '{') depth++;
          else if (*s == '}' && --depth == 0) break;
        }
      }
      if (s < end) s++;
      continue;
    }
    if (*s == '}') { /* a stray brace */
      s++;
      continue;
    }
    const char *sel = s;
    while (s < end && *s != '{') s++;
    if (s >= end) break;
    const char *sel_end = s++;
    const char *body = s;
    while (s < end && *s != '}') s++;
    const char *body_end = s;
    if (s < end) s++;
    uint32_t first_decl = sh->ndecls;
    decl_sink k = {sh, CN_OK};
    cn__svg_parse_declarations(body, (size_t)(body_end - body), collect_decl, &k);
    if (k.r != CN_OK) return k.r;
    uint32_t ndecl = sh->ndecls - first_decl;
    /* one rule per selector of the list */
    const char *a = sel;
    while (a < sel_end) {
      const char *b = a;
      while (b < sel_end && *b != ',') b++;
      const char *ta = a;
      while (ta < b && is_ws(*ta)) ta++;
      if (ta < b) {
        rule r = {0};
        CN_TRY(parse_selector(sh, ta, b, &r.first_compound, &r.ncompound, &r.specificity));
        r.order = sh->nrules;
        r.first_decl = first_decl;
        r.ndecl = ndecl;
        const compound *last = &sh->comps[r.first_compound + r.ncompound - 1];
        for (uint32_t q = 0; q < last->count; q++) {
          const simple_sel *t = &sh->sels[last->first + q];
          if (t->kind == SEL_TYPE) r.need |= name_bit(t->name, t->name_len, 't');
          else if (t->kind == SEL_ID) r.need |= name_bit(t->name, t->name_len, '#');
          else if (t->kind == SEL_CLASS) r.need |= name_bit(t->name, t->name_len, '.');
        }
        PUSH(sh->rules, sh->nrules, sh->crules, r);
      }
      a = b + 1;
    }
  }
  if (sh->nrules) qsort(sh->rules, sh->nrules, sizeof *sh->rules, rule_cmp);
  return CN_OK;
}

cn_result cn__svg_sheet_parse(const char *text, size_t len, svg_sheet **out) {
  *out = NULL;
  svg_sheet *sh = calloc(1, sizeof *sh);
  if (!sh) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "CSS: no memory");
  sh->text = malloc(len + 1);
  if (!sh->text) {
    free(sh);
    return cn_fail(CN_ERROR_OUT_OF_MEMORY, "CSS: no memory");
  }
  memcpy(sh->text, text, len);
  sh->text[len] = 0;
  strip_comments(sh->text, len);
  cn_result r = parse_sheet(sh);
  if (r != CN_OK) {
    cn__svg_sheet_free(sh);
    return r;
  }
  *out = sh;
  return CN_OK;
}

void cn__svg_sheet_free(svg_sheet *sh) {
  if (!sh) return;
  free(sh->text);
  free(sh->sels);
  free(sh->comps);
  free(sh->rules);
  free(sh->decls);
  free(sh);
}

static bool name_eq(const char *a, uint32_t n, const char *b) { return b && strlen(b) == n && strncmp(a, b, n) == 0; }

/* Does the whitespace-separated list `list` contain the word [w, w+n)? */
static bool has_word(const char *list, const char *w, uint32_t n, bool dash) {
  if (!list) return false;
  if (dash) return strncmp(list, w, n) == 0 && (list[n] == 0 || list[n] == '-');
  const char *s = list;
  while (*s) {
    while (*s && is_ws(*s)) s++;
    const char *b = s;
    while (*s && !is_ws(*s)) s++;
    if ((uint32_t)(s - b) == n && n && strncmp(b, w, n) == 0) return true;
  }
  return false;
}

static bool match_simple(const simple_sel *t, xmlNode *n) {
  switch (t->kind) {
    case SEL_TYPE: return name_eq(t->name, t->name_len, (const char *)n->name);
    case SEL_ID: {
      const char *id = cn__svg_attr(n, "id");
      return id && name_eq(t->name, t->name_len, id);
    }
    case SEL_CLASS: return has_word(cn__svg_attr(n, "class"), t->name, t->name_len, false);
    case SEL_ATTR: {
      char name[64];
      if (t->name_len >= sizeof name) return false;
      memcpy(name, t->name, t->name_len);
      name[t->name_len] = 0;
      const char *v = cn__svg_attr(n, name);
      if (!v) return false;
      size_t vl = strlen(v);
      switch (t->op) {
        case ATTR_EXISTS: return true;
        case ATTR_EQ: return vl == t->value_len && strncmp(v, t->value, vl) == 0;
        case ATTR_WORD: return has_word(v, t->value, t->value_len, false);
        case ATTR_DASH: return has_word(v, t->value, t->value_len, true);
        case ATTR_PREFIX: return t->value_len && strncmp(v, t->value, t->value_len) == 0;
        case ATTR_SUFFIX: return t->value_len && vl >= t->value_len && strncmp(v + vl - t->value_len, t->value, t->value_len) == 0;
        case ATTR_SUBSTR: {
          if (!t->value_len) return false;
          for (size_t i = 0; i + t->value_len <= vl; i++)
            if (strncmp(v + i, t->value, t->value_len) == 0) return true;
          return false;
        }
        default: return false;
      }
    }
    case SEL_FIRST_CHILD: {
      for (xmlNode *p = n->prev; p; p = p->prev)
        if (p->type == XML_ELEMENT_NODE) return false;
      return true;
    }
    default: return false;
  }
}

static bool match_compound(const svg_sheet *sh, const compound *c, xmlNode *n) {
  for (uint32_t i = 0; i < c->count; i++)
    if (!match_simple(&sh->sels[c->first + i], n)) return false;
  return true;
}

static xmlNode *parent_element(xmlNode *n) {
  xmlNode *p = n->parent;
  return p && p->type == XML_ELEMENT_NODE ? p : NULL;
}

/* Matches compounds [0, k] right to left, ending at node n. Descendant
 * combinators search ancestors greedily (enough for the subset here: no
 * backtracking needed for chains of plain descendant/child steps is not
 * guaranteed, so we backtrack with a bounded loop). */
static bool match_from(const svg_sheet *sh, const rule *r, int k, xmlNode *n, uint64_t *work) {
  const compound *c = &sh->comps[r->first_compound + (uint32_t)k];
  ++*work;
  if (!match_compound(sh, c, n)) return false;
  if (k == 0) return true;
  if (c->combinator == '>') {
    xmlNode *p = parent_element(n);
    return p && match_from(sh, r, k - 1, p, work);
  }
  for (xmlNode *p = parent_element(n); p; p = parent_element(p)) {
    if (*work > SVG_MAX_WORK) return false;
    if (match_from(sh, r, k - 1, p, work)) return true;
  }
  return false;
}

void cn__svg_sheet_match(const svg_sheet *sh, xmlNode *node, svg_decl_fn fn, void *user, uint64_t *work) {
  if (!sh) return;
  uint64_t have = name_bit((const char *)node->name, strlen((const char *)node->name), 't');
  const char *id = cn__svg_attr(node, "id");
  if (id) have |= name_bit(id, strlen(id), '#');
  for (const char *c = cn__svg_attr(node, "class"); c && *c;) {
    while (*c && is_ws(*c)) c++;
    const char *b = c;
    while (*c && !is_ws(*c)) c++;
    if (c > b) have |= name_bit(b, (size_t)(c - b), '.');
  }
  for (uint32_t i = 0; i < sh->nrules; i++) {
    const rule *r = &sh->rules[i];
    if ((r->need & have) != r->need) continue; /* a name the rule needs is missing */
    if (*work > SVG_MAX_WORK) return;
    if (!match_from(sh, r, (int)r->ncompound - 1, node, work)) continue;
    for (uint32_t j = 0; j < r->ndecl; j++) fn(user, &sh->decls[r->first_decl + j]);
  }
}
