/* svg_image.c: <image> (raster images as an image-painted rectangle, SVG
 * images as sub-documents in the image's viewport), external references
 * (<use href="other.svg#id">) and the confinement of every file read:
 *
 *   data: URLs        decoded in memory (cn_data_url_decode)
 *   other schemes     refused (http, https, ...: the network is never used)
 *   file: URLs, paths resolved against the referencing document's directory,
 *                     read only when the path, normalised and then with
 *                     symlinks resolved (realpath), lies inside an allowed
 *                     tree: the main document's directory, or one of
 *                     cn_svg_options.resource_roots
 *
 * Sub-documents loaded from files are parsed once and kept by the main
 * document's loader (at most SVG_MAX_SUBDOCS); a document referencing
 * itself through its chain of sub-documents is a cycle (warning), and
 * documents nest at most SVG_MAX_DOC_NESTING deep. */
#define _DEFAULT_SOURCE 1 /* realpath, strdup */
#include "cn_image.h"
#include "svg_internal.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define SVG_MAX_DOC_NESTING 8u
#define SVG_MAX_SUBDOCS 64u

typedef struct svg_subdoc {
  char *path;
  svg_loader *L;
} svg_subdoc;

/* A decoded image of a document, found again by its href attribute (the
 * same element drawn again: uses, patterns) or by its bytes (the same image
 * written twice). */
typedef struct svg_image_entry {
  const char *href; /* the attribute text (stable while the document lives) */
  uint64_t hash;    /* FNV-1a of the encoded bytes */
  size_t size;
  uint32_t image, width, height;
} svg_image_entry;

static uint64_t fnv(const uint8_t *p, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

static cn_result remember(svg_loader *L, svg_image_entry e) {
  if (L->nimages == 0 || (L->nimages >= 4 && (L->nimages & (L->nimages - 1)) == 0)) { /* 4, 8, 16, ... */
    svg_image_entry *ne = realloc(L->images, sizeof *ne * (L->nimages ? L->nimages * 2 : 4));
    if (!ne) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for the image table");
    L->images = ne;
  }
  L->images[L->nimages++] = e;
  return CN_OK;
}

/* ------------------------------------------------------------ paths */

static char *dup_dir(const char *real_path) {
  const char *slash = strrchr(real_path, '/');
  size_t n = slash ? (size_t)(slash - real_path) : 0;
  if (n == 0) n = 1; /* "/x" -> "/" */
  char *d = malloc(n + 1);
  if (!d) return NULL;
  memcpy(d, slash ? real_path : "/", n);
  d[n] = 0;
  return d;
}

cn_result cn__svg_resources_init(svg_loader *L, const char *path) {
  L->top = L;
  char buf[PATH_MAX];
  if (path && realpath(path, buf)) {
    L->doc_path = strdup(buf);
    L->doc_dir = dup_dir(buf);
    if (!L->doc_path || !L->doc_dir) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for the document path");
  } else if (L->opt.base_dir && realpath(L->opt.base_dir, buf)) {
    L->doc_dir = strdup(buf);
    if (!L->doc_dir) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for the document path");
  }
  uint32_t n = (L->doc_dir ? 1 : 0) + (L->opt.resource_roots ? L->opt.resource_root_count : 0);
  L->roots = calloc(n ? n : 1, sizeof *L->roots);
  if (!L->roots) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for the resource roots");
  if (L->doc_dir && !(L->roots[L->nroots++] = strdup(L->doc_dir)))
    return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for the resource roots");
  for (uint32_t i = 0; L->opt.resource_roots && i < L->opt.resource_root_count; i++) {
    const char *r = L->opt.resource_roots[i];
    if (!r || !realpath(r, buf)) continue; /* a root that does not exist allows nothing */
    if (!(L->roots[L->nroots++] = strdup(buf))) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for the resource roots");
  }
  return CN_OK;
}

void cn__svg_resources_free(svg_loader *L) {
  free(L->doc_dir);
  free(L->doc_path);
  free(L->images);
  L->doc_dir = L->doc_path = NULL;
  L->images = NULL;
  if (L->top == L) {
    for (uint32_t i = 0; i < L->nsubdocs; i++) {
      free(L->subdocs[i].path);
      cn__svg_loader_free(L->subdocs[i].L);
    }
    free(L->subdocs);
    for (uint32_t i = 0; i < L->nroots; i++) free(L->roots[i]);
    free(L->roots);
    L->subdocs = NULL;
    L->roots = NULL;
  }
}

static bool inside(const char *p, const char *root) {
  size_t n = strlen(root);
  if (n == 1 && root[0] == '/') return p[0] == '/';
  return strncmp(p, root, n) == 0 && (p[n] == '/' || p[n] == 0);
}

static bool inside_roots(const svg_loader *L, const char *p) {
  const svg_loader *T = L->top;
  for (uint32_t i = 0; i < T->nroots; i++)
    if (inside(p, T->roots[i])) return true;
  return false;
}

/* Collapses "//", "/./" and "/x/../" of an absolute path in place ("/.." stays "/"). */
static void normalise(char *p) {
  char *out = p;
  const char *s = p;
  while (*s) {
    while (*s == '/') s++;
    const char *e = s;
    while (*e && *e != '/') e++;
    size_t n = (size_t)(e - s);
    if (n == 0) break;
    if (n == 1 && s[0] == '.') {
    } else if (n == 2 && s[0] == '.' && s[1] == '.') {
      while (out > p && *--out != '/') {
      }
    } else {
      *out++ = '/';
      memmove(out, s, n);
      out += n;
    }
    s = e;
  }
  if (out == p) *out++ = '/';
  *out = 0;
}

static int hexv(int c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Resolves a file reference (no fragment) to a real path inside the allowed
 * trees. *out NULL: refused or missing (a warning was recorded). */
static cn_result resolve_file(svg_loader *L, const xmlNode *n, const char *ref, size_t len, char **out) {
  *out = NULL;
  const char *what = cn__svg_is(n, "use") ? "<use>" : "<image>";
  size_t j = 0;
  if (len && isalpha((unsigned char)ref[0])) {
    j = 1;
    while (j < len && (isalnum((unsigned char)ref[j]) || ref[j] == '+' || ref[j] == '.' || ref[j] == '-')) j++;
    if (j >= len || ref[j] != ':') j = 0;
  }
  const char *p = ref;
  size_t plen = len;
  bool absolute_url = false;
  if (j) {
    if (!(j == 4 && strncasecmp(ref, "file", 4) == 0))
      return cn__svg_warn(L, CN_SVG_SKIP_REFUSED, n, "%s %.*s: the %.*s: scheme is refused (no network access)", what,
                          (int)(len < 80 ? len : 80), ref, (int)j, ref);
    p = ref + 5, plen = len - 5;
    if (plen >= 2 && p[0] == '/' && p[1] == '/') { /* file://host/path: only an empty host or localhost */
      const char *h = p + 2, *e = memchr(h, '/', plen - 2);
      size_t hl = e ? (size_t)(e - h) : plen - 2;
      if (hl && !(hl == 9 && strncasecmp(h, "localhost", 9) == 0))
        return cn__svg_warn(L, CN_SVG_SKIP_REFUSED, n, "%s %.*s: a file: URL on another host is refused", what,
                            (int)(len < 80 ? len : 80), ref);
      plen -= (size_t)((e ? e : h + hl) - p), p = e ? e : h + hl;
    }
    absolute_url = true;
  }
  /* percent-decoding (URLs) */
  char *dec = malloc(plen + 1);
  if (!dec) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for a file reference");
  size_t k = 0;
  for (size_t i = 0; i < plen; i++) {
    if (p[i] == '%' && i + 2 < plen && hexv(p[i + 1]) >= 0 && hexv(p[i + 2]) >= 0) {
      dec[k++] = (char)(hexv(p[i + 1]) * 16 + hexv(p[i + 2]));
      i += 2;
    } else {
      dec[k++] = p[i];
    }
  }
  dec[k] = 0;
  if (k == 0 || memchr(dec, 0, k)) {
    free(dec);
    return cn__svg_warn(L, CN_SVG_SKIP_MISSING_REF, n, "%s has an empty or malformed file reference", what);
  }
  bool abs_path = dec[0] == '/';
  if (!abs_path && !L->doc_dir) {
    cn_result r = cn__svg_warn(L, CN_SVG_SKIP_REFUSED, n,
                               "%s %.80s: a relative reference in a document without a directory (set base_dir)", what,
                               dec);
    free(dec);
    return r;
  }
  size_t dl = abs_path ? 0 : strlen(L->doc_dir);
  char *full = malloc(dl + 1 + k + 1);
  if (!full) {
    free(dec);
    return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for a file reference");
  }
  if (abs_path) memcpy(full, dec, k + 1);
  else snprintf(full, dl + 1 + k + 1, "%s/%s", L->doc_dir, dec);
  normalise(full);
  cn_result r = CN_OK;
  if (!inside_roots(L, full)) {
    if (abs_path || absolute_url)
      r = cn__svg_warn(L, CN_SVG_SKIP_REFUSED, n, "%s %.80s: an absolute path outside the document's tree is refused",
                       what, dec);
    else
      r = cn__svg_warn(L, CN_SVG_SKIP_REFUSED, n, "%s %.80s: '..' leads outside the document's tree; refused", what,
                       dec);
    free(dec);
    free(full);
    return r;
  }
  char real[PATH_MAX];
  if (!realpath(full, real)) {
    r = cn__svg_warn(L, CN_SVG_SKIP_MISSING_REF, n, "%s %.80s: cannot open: %s", what, dec, strerror(errno));
  } else if (!inside_roots(L, real)) {
    r = cn__svg_warn(L, CN_SVG_SKIP_REFUSED, n, "%s %.80s: a symlink leads outside the document's tree; refused", what,
                     dec);
  } else if (!(*out = strdup(real))) {
    r = cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for a file reference");
  }
  free(dec);
  free(full);
  return r;
}

/* Reads a regular file of at most max bytes. */
static cn_result read_file(svg_loader *L, const xmlNode *n, const char *path, uint8_t **out, size_t *size) {
  *out = NULL;
  *size = 0;
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  struct stat sb;
  if (fd < 0 || fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
    cn_result r = cn__svg_warn(L, CN_SVG_SKIP_MISSING_REF, n, "cannot read %.100s: %s", path,
                               fd < 0 ? strerror(errno) : "not a regular file");
    if (fd >= 0) close(fd);
    return r;
  }
  if ((uint64_t)sb.st_size > L->opt.max_bytes) {
    close(fd);
    return cn__svg_warn(L, CN_SVG_SKIP_IMAGE, n, "%.100s: %lld bytes, more than the limit of %llu", path,
                        (long long)sb.st_size, (unsigned long long)L->opt.max_bytes);
  }
  uint8_t *buf = malloc((size_t)sb.st_size + 1);
  if (!buf) {
    close(fd);
    return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory to read %s", path);
  }
  size_t got = 0;
  while (got < (size_t)sb.st_size) {
    ssize_t k = read(fd, buf + got, (size_t)sb.st_size - got);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) break;
    got += (size_t)k;
  }
  close(fd);
  *out = buf;
  *size = got;
  return CN_OK;
}

/* The bytes a reference (data: URL or file, no fragment) points to. *bytes
 * NULL: nothing (a warning was recorded). *real: the file's real path (NULL
 * for data:). */
static cn_result load_resource(svg_loader *L, const xmlNode *n, const char *ref, size_t len, uint8_t **bytes,
                               size_t *size, char **real) {
  *bytes = NULL;
  *size = 0;
  *real = NULL;
  while (len && isspace((unsigned char)*ref)) ref++, len--;
  while (len && isspace((unsigned char)ref[len - 1])) len--;
  if (len >= 5 && strncasecmp(ref, "data:", 5) == 0) {
    if (cn_data_url_decode(ref, len, bytes, size, NULL, 0) != CN_OK)
      return cn__svg_warn(L, CN_SVG_SKIP_IMAGE, n, "%s", cn_last_error());
    return CN_OK;
  }
  CN_TRY(resolve_file(L, n, ref, len, real));
  if (!*real) return CN_OK;
  cn_result r = read_file(L, n, *real, bytes, size);
  if (!*bytes) {
    free(*real);
    *real = NULL;
  }
  return r;
}

/* Inflates gzip data (an .svgz) up to max bytes. */
static cn_result gunzip(const uint8_t *in, size_t n, uint64_t max, uint8_t **out, size_t *size) {
  *out = NULL;
  z_stream z;
  memset(&z, 0, sizeof z);
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "svgz: cannot start zlib");
  size_t cap = n * 4 + 1024, len = 0;
  uint8_t *buf = malloc(cap);
  z.next_in = (Bytef *)in;
  z.avail_in = (uInt)(n > UINT_MAX ? UINT_MAX : n);
  int zr = Z_OK;
  while (buf && zr == Z_OK) {
    if (len == cap) {
      if (cap >= max) break;
      size_t nc = cap * 2 > max ? (size_t)max : cap * 2;
      uint8_t *nb = realloc(buf, nc);
      if (!nb) break;
      buf = nb, cap = nc;
    }
    z.next_out = buf + len;
    z.avail_out = (uInt)(cap - len > UINT_MAX ? UINT_MAX : cap - len);
    zr = inflate(&z, Z_NO_FLUSH);
    len = cap - z.avail_out;
    if (zr == Z_BUF_ERROR && z.avail_out) break;
  }
  inflateEnd(&z);
  if (!buf) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "svgz: no memory");
  if (zr != Z_STREAM_END) {
    free(buf);
    if (len >= max) return cn_fail(CN_ERROR_LIMIT, "svgz: expands beyond %llu bytes", (unsigned long long)max);
    return cn_fail(CN_ERROR_PARSE, "svgz: corrupt or truncated gzip data");
  }
  *out = buf;
  *size = len;
  return CN_OK;
}

/* -------------------------------------------------------- sub-documents */

/* Parses a sub-document (svg or svgz bytes). *out NULL: not usable (warned).
 * With a real path it is kept by the top loader and found again next time. */
static cn_result open_subdoc(svg_loader *L, const xmlNode *n, const uint8_t *bytes, size_t size, const char *real,
                             svg_loader **out) {
  *out = NULL;
  svg_loader *T = L->top;
  if (real)
    for (uint32_t i = 0; i < T->nsubdocs; i++)
      if (strcmp(T->subdocs[i].path, real) == 0) {
        *out = T->subdocs[i].L;
        return CN_OK;
      }
  if (T->nsubdocs >= SVG_MAX_SUBDOCS)
    return cn__svg_warn(L, CN_SVG_SKIP_REFUSED, n, "more than %u external documents; %.80s refused", SVG_MAX_SUBDOCS,
                        real ? real : "a data: URL");
  svg_loader *S = calloc(1, sizeof *S);
  if (!S) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for a sub-document");
  S->b = L->b;
  S->opt = L->opt;
  S->stats = L->stats;
  S->top = T;
  S->doc_path = real ? strdup(real) : NULL;
  S->doc_dir = real ? dup_dir(real) : L->doc_dir ? strdup(L->doc_dir) : NULL;
  uint8_t *plain = NULL;
  cn_result r = CN_OK;
  if ((real && !S->doc_path) || ((real || L->doc_dir) && !S->doc_dir)) r = cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory");
  if (r == CN_OK && cn_image_sniff(bytes, size) == CN_IMAGE_FORMAT_SVGZ) {
    r = gunzip(bytes, size, L->opt.max_bytes, &plain, &size);
    bytes = plain;
  }
  if (r == CN_OK) r = cn__svg_parse_xml(bytes, size, &S->doc);
  xmlNode *root = r == CN_OK ? xmlDocGetRootElement(S->doc) : NULL;
  if (r == CN_OK && !cn__svg_is(root, "svg")) r = cn_fail(CN_ERROR_PARSE, "the root element is not <svg>");
  if (r == CN_OK) r = cn__svg_index_document(S, root);
  free(plain);
  if (r != CN_OK) {
    cn_result w = r == CN_ERROR_OUT_OF_MEMORY
                      ? r
                      : cn__svg_warn(L, CN_SVG_SKIP_IMAGE, n, "%.60s is not a usable SVG document: %.90s",
                                     real ? real : "a data: URL", cn_last_error());
    cn__svg_loader_free(S);
    return w;
  }
  S->root = root;
  if (real) {
    svg_subdoc *nd = realloc(T->subdocs, sizeof *nd * (T->nsubdocs + 1));
    if (!nd) {
      cn__svg_loader_free(S);
      return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for a sub-document");
    }
    T->subdocs = nd;
    T->subdocs[T->nsubdocs++] = (svg_subdoc){strdup(S->doc_path), S};
    if (!T->subdocs[T->nsubdocs - 1].path) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory");
  }
  *out = S;
  return CN_OK;
}

/* Is S (or its file) already rendering in L's chain? How deep is the chain? */
static bool in_chain(const svg_loader *L, const svg_loader *S, uint32_t *depth) {
  *depth = 0;
  for (const svg_loader *p = L; p; p = p->parent, ++*depth)
    if (p == S || (S->doc_path && p->doc_path && strcmp(p->doc_path, S->doc_path) == 0)) return true;
  return false;
}

/* S renders for L: shares its depth, work, bounding-box accumulators and context paints. */
static void sub_begin(svg_loader *L, svg_loader *S) {
  S->parent = L;
  S->depth = L->depth;
  S->work = L->work;
  S->acc = L->acc, S->nacc = L->nacc, S->cap_acc = L->cap_acc;
  S->context[0] = L->context[0], S->context[1] = L->context[1];
  S->has_context = L->has_context;
}

static void sub_end(svg_loader *L, svg_loader *S) {
  L->work = S->work;
  L->acc = S->acc, L->nacc = S->nacc, L->cap_acc = S->cap_acc;
  S->acc = NULL, S->nacc = S->cap_acc = 0;
  S->parent = NULL;
}

/* Checks that S may render for L (no cycle, not too deep); warns otherwise. */
static cn_result may_render(svg_loader *L, const xmlNode *n, svg_loader *S, bool *ok) {
  uint32_t depth;
  *ok = false;
  if (in_chain(L, S, &depth))
    return cn__svg_warn(L, CN_SVG_SKIP_CYCLE, n, "%.80s references itself through its images or uses; skipped",
                        S->doc_path ? S->doc_path : "a document");
  if (depth >= SVG_MAX_DOC_NESTING)
    return cn__svg_warn(L, CN_SVG_SKIP_REFUSED, n, "documents nested deeper than %u; skipped", SVG_MAX_DOC_NESTING);
  *ok = true;
  return CN_OK;
}

/* ---------------------------------------------------------- external use */

cn_result cn__svg_open_external(svg_loader *L, const xmlNode *n, const char *href, svg_loader **sub, xmlNode **ref) {
  *sub = NULL;
  *ref = NULL;
  const char *hash = strchr(href, '#');
  if (!hash || !hash[1])
    return cn__svg_warn(L, CN_SVG_SKIP_MISSING_REF, n, "<use> of %.80s names no element (#id)", href);
  uint8_t *bytes;
  size_t size;
  char *real;
  CN_TRY(load_resource(L, n, href, (size_t)(hash - href), &bytes, &size, &real));
  if (!bytes) return CN_OK;
  svg_loader *S;
  cn_result r = open_subdoc(L, n, bytes, size, real, &S);
  free(bytes);
  free(real);
  if (r != CN_OK || !S) return r;
  xmlNode *e = cn__svg_lookup(S, hash + 1, strlen(hash + 1));
  if (!e) {
    if (!S->doc_path) cn__svg_loader_free(S);
    return cn__svg_warn(L, CN_SVG_SKIP_MISSING_REF, n, "<use> references %.80s, which does not exist", href);
  }
  bool ok;
  r = may_render(L, n, S, &ok);
  if (!ok) {
    if (!S->doc_path) cn__svg_loader_free(S);
    return r;
  }
  *sub = S;
  *ref = e;
  return CN_OK;
}

void cn__svg_external_begin(svg_loader *L, svg_loader *S) { sub_begin(L, S); }

void cn__svg_external_end(svg_loader *L, svg_loader *S) {
  sub_end(L, S);
  if (!S->doc_path) cn__svg_loader_free(S); /* a data: document is not kept */
}

/* ---------------------------------------------------------------- images */

static double len_attr(svg_loader *L, const xmlNode *n, const char *name, int axis, double def, const svg_style *st) {
  svg_length l;
  if (!cn__svg_parse_length(cn__svg_attr(n, name), &l)) return def;
  return cn__svg_length_user(l, axis, L->vw, L->vh, st->font_size);
}

/* width/height of the image element: *has false when absent or "auto". */
static double size_attr(svg_loader *L, const xmlNode *n, const char *name, int axis, const svg_style *st, bool *has) {
  svg_length l;
  *has = cn__svg_parse_length(cn__svg_attr(n, name), &l);
  return *has ? cn__svg_length_user(l, axis, L->vw, L->vh, st->font_size) : 0;
}

static cn_transform to_cn(svg_mat m) {
  return (cn_transform){(float)m.a, (float)m.b, (float)m.c, (float)m.d, (float)m.e, (float)m.f};
}

/* The rectangle x0 y0 x1 y1 as a path under ctm (bounds gathered too). */
static cn_result rect_path(svg_loader *L, const xmlNode *n, double x0, double y0, double x1, double y1, svg_mat ctm,
                           uint32_t *id) {
  svg_path p = {0};
  cn__svg_path_rect(&p, x0, y0, x1 - x0, y1 - y0, 0, 0);
  cn_result r = p.oom ? cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for a path") : cn__svg_emit_path(L, n, &p, ctm, id);
  cn__svg_path_free(&p);
  return r;
}

static void add_bounds(svg_loader *L, double x, double y, double w, double h, svg_mat ctm) {
  svg_path p = {0};
  cn__svg_path_rect(&p, x, y, w, h, 0, 0);
  if (!p.oom) cn__svg_bbox_add(L, &p, ctm);
  cn__svg_path_free(&p);
}

/* The image's size in user units from width/height and its intrinsic size iw x ih. */
static void image_size(bool has_w, bool has_h, double *w, double *h, double iw, double ih) {
  if (!has_w && !has_h) *w = iw, *h = ih;
  else if (!has_w) *w = *h * iw / ih;
  else if (!has_h) *h = *w * ih / iw;
}

static cn_result render_raster(svg_loader *L, xmlNode *n, const svg_style *st, svg_mat ctm, uint32_t image, double iw,
                               double ih, double x, double y, double w, double h) {
  svg_aspect ar;
  cn__svg_parse_aspect(cn__svg_attr(n, "preserveAspectRatio"), &ar);
  svg_viewbox vb = {0, 0, iw, ih};
  svg_mat M = cn__svg_mat_mul(cn__svg_mat_translate(x, y), cn__svg_viewbox_matrix(vb, ar, w, h));
  /* the drawn rectangle: the image's, cut to the viewport (slice) */
  double x0 = fmax(M.e, x), y0 = fmax(M.f, y), x1 = fmin(M.e + M.a * iw, x + w), y1 = fmin(M.f + M.d * ih, y + h);
  add_bounds(L, x, y, w, h, ctm);
  if (!st->visible || !(x1 > x0) || !(y1 > y0)) return CN_OK;
  svg_mat T = cn__svg_mat_mul(ctm, M);
  if (!cn__svg_mat_finite(T)) return cn_fail(CN_ERROR_LIMIT, "line %d: the transform of <image> overflows", cn__svg_line(n));
  uint32_t path, paint;
  CN_TRY(rect_path(L, n, x0, y0, x1, y1, ctm, &path));
  cn_transform t = to_cn(T);
  CN_TRY(cn_scene_image_paint(L->b, image, &t, st->image_pixelated ? CN_SAMPLE_NEAREST : CN_SAMPLE_BILINEAR, 1.0f,
                              &paint));
  return cn_scene_fill(L->b, path, paint, CN_RULE_NONZERO);
}

static cn_result render_svg_image(svg_loader *L, xmlNode *n, const svg_style *st, svg_mat ctm, svg_loader *S, double x,
                                  double y, double w, double h, bool has_w, bool has_h) {
  bool ok;
  CN_TRY(may_render(L, n, S, &ok));
  if (!ok) return CN_OK;
  xmlNode *root = S->root;
  svg_viewbox vb;
  bool has_vb = cn__svg_parse_viewbox(cn__svg_attr(root, "viewBox"), &vb);
  svg_length lw, lh;
  bool rw = cn__svg_parse_length(cn__svg_attr(root, "width"), &lw) && lw.unit != SVG_UNIT_PERCENT;
  bool rh = cn__svg_parse_length(cn__svg_attr(root, "height"), &lh) && lh.unit != SVG_UNIT_PERCENT;
  double sw = rw ? cn__svg_length_user(lw, SVG_AXIS_X, 0, 0, 16) : 0, sh = rh ? cn__svg_length_user(lh, SVG_AXIS_Y, 0, 0, 16) : 0;
  if (!rw && !rh) sw = has_vb ? vb.w : 100, sh = has_vb ? vb.h : 100;
  else if (!rw) sw = has_vb ? sh * vb.w / vb.h : 100;
  else if (!rh) sh = has_vb ? sw * vb.h / vb.w : 100;
  if (!(sw > 0) || !(sh > 0)) return CN_OK;
  image_size(has_w, has_h, &w, &h, sw, sh);
  add_bounds(L, x, y, w, h, ctm);
  if (!st->visible || !(w > 0) || !(h > 0)) return CN_OK;
  svg_aspect ar, rar;
  cn__svg_parse_aspect(cn__svg_attr(n, "preserveAspectRatio"), &ar);
  cn__svg_parse_aspect(cn__svg_attr(root, "preserveAspectRatio"), &rar);
  svg_viewbox box = {0, 0, sw, sh};
  svg_mat M = cn__svg_mat_mul(cn__svg_mat_translate(x, y), cn__svg_viewbox_matrix(box, ar, w, h));
  svg_mat inner = has_vb ? cn__svg_viewbox_matrix(vb, rar, sw, sh) : cn__svg_mat_identity();
  svg_mat T = cn__svg_mat_mul(ctm, cn__svg_mat_mul(M, inner));
  if (!cn__svg_mat_finite(T)) return cn_fail(CN_ERROR_LIMIT, "line %d: the transform of <image> overflows", cn__svg_line(n));
  /* clipped to the image viewport and the document's own */
  double x0 = fmax(M.e, x), y0 = fmax(M.f, y), x1 = fmin(M.e + M.a * sw, x + w), y1 = fmin(M.f + M.d * sh, y + h);
  if (!(x1 > x0) || !(y1 > y0)) return CN_OK;
  uint32_t clip;
  CN_TRY(rect_path(L, n, x0, y0, x1, y1, ctm, &clip));
  uint32_t mark = cn__scene_element_count(L->b);
  CN_TRY(cn_scene_push_clip(L->b, clip, CN_RULE_NONZERO));
  svg_style ist;
  cn__svg_style_initial(&ist);
  S->vw = has_vb ? vb.w : sw;
  S->vh = has_vb ? vb.h : sh;
  sub_begin(L, S);
  cn_result r = cn__svg_render_node(S, root, &ist, T);
  sub_end(L, S);
  CN_TRY(r);
  if (cn__scene_element_count(L->b) == mark + 1) { /* nothing drawn: no clip either */
    CN_TRY(cn_scene_pop(L->b));
    cn__scene_truncate_elements(L->b, mark);
    return CN_OK;
  }
  return cn_scene_pop(L->b);
}

cn_result cn__svg_render_image(svg_loader *L, xmlNode *n, const svg_style *st, svg_mat ctm) {
  const char *href = cn__svg_href_raw(n);
  if (!href) return CN_OK;
  double x = len_attr(L, n, "x", SVG_AXIS_X, 0, st), y = len_attr(L, n, "y", SVG_AXIS_Y, 0, st);
  bool has_w, has_h;
  double w = size_attr(L, n, "width", SVG_AXIS_X, st, &has_w), h = size_attr(L, n, "height", SVG_AXIS_Y, st, &has_h);
  if ((has_w && !(w > 0)) || (has_h && !(h > 0))) return CN_OK; /* zero size: not rendered */
  /* a raster image this document decoded before */
  for (uint32_t i = 0; i < L->nimages; i++)
    if (L->images[i].href == href) {
      svg_image_entry *e = &L->images[i];
      image_size(has_w, has_h, &w, &h, e->width, e->height);
      return render_raster(L, n, st, ctm, e->image, e->width, e->height, x, y, w, h);
    }
  uint8_t *bytes;
  size_t size;
  char *real;
  CN_TRY(load_resource(L, n, href, strlen(href), &bytes, &size, &real));
  if (!bytes) return CN_OK;
  cn_image_format f = cn_image_sniff(bytes, size);
  cn_result r = CN_OK;
  if (f == CN_IMAGE_FORMAT_SVG || f == CN_IMAGE_FORMAT_SVGZ) {
    svg_loader *S;
    r = open_subdoc(L, n, bytes, size, real, &S);
    free(bytes);
    if (r == CN_OK && S) {
      r = render_svg_image(L, n, st, ctm, S, x, y, w, h, has_w, has_h);
      if (!S->doc_path) cn__svg_loader_free(S);
    }
    free(real);
    return r;
  }
  free(real);
  uint64_t hash = fnv(bytes, size);
  for (uint32_t i = 0; i < L->nimages; i++)
    if (L->images[i].hash == hash && L->images[i].size == size) {
      svg_image_entry e = L->images[i];
      free(bytes);
      e.href = href;
      CN_TRY(remember(L, e));
      image_size(has_w, has_h, &w, &h, e.width, e.height);
      return render_raster(L, n, st, ctm, e.image, e.width, e.height, x, y, w, h);
    }
  uint32_t used = cn__scene_image_pixels(L->b);
  uint64_t budget = CN_SCENE_MAX_TOTAL_IMAGE_PIXELS - (uint64_t)used;
  uint32_t *tex = NULL, iw = 0, ih = 0, image = 0;
  r = cn_image_decode(bytes, size, budget < CN_SCENE_MAX_IMAGE_PIXELS ? (budget ? budget : 1) : CN_SCENE_MAX_IMAGE_PIXELS,
                      &tex, &iw, &ih, NULL);
  free(bytes);
  if (r == CN_OK) r = cn_scene_image(L->b, tex, iw, ih, &image);
  free(tex);
  if (r == CN_ERROR_OUT_OF_MEMORY) return r;
  if (r != CN_OK) return cn__svg_warn(L, CN_SVG_SKIP_IMAGE, n, "<image> not drawn: %.120s", cn_last_error());
  CN_TRY(remember(L, (svg_image_entry){href, hash, size, image, iw, ih}));
  image_size(has_w, has_h, &w, &h, iw, ih);
  return render_raster(L, n, st, ctm, image, iw, ih, x, y, w, h);
}
