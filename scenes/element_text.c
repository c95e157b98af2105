/* element_text.c: parser of the text element stream (see cn_element_text.h). */
#include "cn_element_text.h"

#include "scene_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct cn__open {
  uint32_t tag, line;
} cn__open;

static bool cn__push(cn_element_text *s, uint64_t *cap, uint32_t tag, cn_box box, uint32_t line) {
  if (s->n == *cap) {
    uint64_t nc = *cap ? *cap * 2 : 256;
    uint32_t *t = realloc(s->tags, nc * 4), *l = t ? realloc(s->lines, nc * 4) : NULL;
    if (t) s->tags = t;
    if (l) s->lines = l;
    cn_box *b = t && l ? realloc(s->boxes, nc * sizeof *b) : NULL;
    if (!b) return false;
    s->boxes = b;
    *cap = nc;
  }
  s->tags[s->n] = tag;
  s->boxes[s->n] = box;
  s->lines[s->n] = line;
  s->n++;
  return true;
}

/* Splits at blanks (in place); returns the number of words (at most max + 1). */
static int cn__words(char *line, char **w, int max) {
  int n = 0;
  char *p = line;
  while (*p) {
    while (*p == ' ' || *p == '\t' || *p == '\r') p++;
    if (!*p) break;
    if (n <= max) w[n] = p;
    n++;
    while (*p && *p != ' ' && *p != '\t' && *p != '\r') p++;
    if (*p) *p++ = 0;
  }
  return n;
}

static cn_result cn__numbers(char **w, float *v, uint32_t line) {
  for (int k = 0; k < 4; k++) {
    char *end;
    errno = 0;
    float f = strtof(w[k], &end);
    if (end == w[k] || *end)
      return cn_fail(CN_ERROR_PARSE, "line %u: '%s' is not a number", line, w[k]);
    if (!isfinite(f)) return cn_fail(CN_ERROR_PARSE, "line %u: '%s' is not a finite float", line, w[k]);
    v[k] = f;
  }
  return CN_OK;
}

static const char *cn__kind(uint32_t tag) { return tag == CN_TAG_BEGIN_CLIP ? "clip" : "blend"; }

cn_result cn_element_text_parse(const char *text, size_t len, cn_element_text *out) {
  memset(out, 0, sizeof *out);
  if (len > CN_ELEMENT_TEXT_MAX_BYTES)
    return cn_fail(CN_ERROR_LIMIT, "%zu bytes of element text: larger than the limit of %llu bytes (CN_ELEMENT_TEXT_MAX_BYTES)",
                   len, (unsigned long long)CN_ELEMENT_TEXT_MAX_BYTES);
  out->viewport[0] = out->viewport[1] = -INFINITY;
  out->viewport[2] = out->viewport[3] = INFINITY;
  char *buf = malloc(len + 1);
  if (!buf) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "out of host memory");
  memcpy(buf, text, len);
  buf[len] = 0;
  cn__open *stack = NULL;
  uint64_t depth = 0, scap = 0, cap = 0;
  cn_result r = CN_OK;
  uint32_t line = 0;
  char *p = buf;
  bool any = false;
  while (r == CN_OK && p < buf + len) {
    char *nl = memchr(p, '\n', (size_t)(buf + len - p));
    char *next = nl ? nl + 1 : buf + len;
    if (nl) *nl = 0;
    line++;
    if (strlen(p) != (size_t)((nl ? nl : buf + len) - p)) {
      r = cn_fail(CN_ERROR_PARSE, "line %u: NUL byte", line);
      break;
    }
    char *w[6];
    int nw = cn__words(p, w, 5);
    p = next;
    if (nw == 0 || w[0][0] == '#') continue;
    const char *k = w[0];
    float v[4] = {0, 0, 0, 0};
    bool box = strcmp(k, "draw") == 0 || strcmp(k, "clip") == 0 || strcmp(k, "viewport") == 0;
    bool bare = strcmp(k, "endclip") == 0 || strcmp(k, "blend") == 0 || strcmp(k, "endblend") == 0;
    if (!box && !bare) {
      r = cn_fail(CN_ERROR_PARSE, "line %u: unknown element '%.40s' (draw, clip, endclip, blend, endblend, viewport)",
                  line, k);
      break;
    }
    if (box && nw != 5) {
      r = cn_fail(CN_ERROR_PARSE, "line %u: '%s' takes 4 numbers: x0 y0 x1 y1", line, k);
      break;
    }
    if (bare && nw != 1) {
      r = cn_fail(CN_ERROR_PARSE, "line %u: '%s' takes no arguments", line, k);
      break;
    }
    if (box && (r = cn__numbers(w + 1, v, line)) != CN_OK) break;
    cn_box b = {v[0], v[1], v[2], v[3]};
    if (strcmp(k, "viewport") == 0) {
      if (any) {
        r = cn_fail(CN_ERROR_PARSE, "line %u: the viewport must come before every element", line);
        break;
      }
      if (v[2] < v[0] || v[3] < v[1]) {
        r = cn_fail(CN_ERROR_PARSE, "line %u: viewport has x1 < x0 or y1 < y0", line);
        break;
      }
      out->has_viewport = true;
      memcpy(out->viewport, v, sizeof v);
      any = true;
      continue;
    }
    any = true;
    uint32_t tag = strcmp(k, "draw") == 0       ? CN_TAG_FILL
                   : strcmp(k, "clip") == 0     ? CN_TAG_BEGIN_CLIP
                   : strcmp(k, "endclip") == 0  ? CN_TAG_END_CLIP
                   : strcmp(k, "blend") == 0    ? CN_TAG_BEGIN_BLEND
                                                : CN_TAG_END_BLEND;
    if (tag == CN_TAG_BEGIN_CLIP || tag == CN_TAG_BEGIN_BLEND) {
      if (depth == scap) {
        uint64_t nc = scap ? scap * 2 : 64;
        cn__open *ns = realloc(stack, nc * sizeof *ns);
        if (!ns) {
          r = cn_fail(CN_ERROR_OUT_OF_MEMORY, "out of host memory");
          break;
        }
        stack = ns;
        scap = nc;
      }
      stack[depth++] = (cn__open){tag, line};
    } else if (tag == CN_TAG_END_CLIP || tag == CN_TAG_END_BLEND) {
      const char *want = tag == CN_TAG_END_CLIP ? "clip" : "blend";
      if (!depth) {
        r = cn_fail(CN_ERROR_UNBALANCED, "line %u: %s without an open %s", line, k, want);
        break;
      }
      cn__open o = stack[--depth];
      if (o.tag + 1 != tag) {
        r = cn_fail(CN_ERROR_UNBALANCED, "line %u: %s closes the %s opened at line %u", line, k, cn__kind(o.tag),
                    o.line);
        break;
      }
    }
    if (out->n >= (1ull << 32) - 8192) {
      r = cn_fail(CN_ERROR_LIMIT, "line %u: more than 2^32 - 8192 elements", line);
      break;
    }
    if (!cn__push(out, &cap, tag, box ? b : (cn_box){0, 0, 0, 0}, line)) {
      r = cn_fail(CN_ERROR_OUT_OF_MEMORY, "line %u: out of host memory", line);
      break;
    }
  }
  if (r == CN_OK && depth)
    r = cn_fail(CN_ERROR_UNBALANCED, "line %u: %s is never closed", stack[depth - 1].line,
                cn__kind(stack[depth - 1].tag));
  free(stack);
  free(buf);
  if (r != CN_OK) cn_element_text_free(out);
  return r;
}

cn_result cn_element_text_load(const char *path, cn_element_text *out) {
  memset(out, 0, sizeof *out);
  FILE *f = fopen(path, "rb");
  if (!f) return cn_fail(CN_ERROR_IO, "cannot open %s: %s", path, strerror(errno));
  /* a regular file's size is known up front: refuse it before reading */
  struct stat sb;
  if (fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode) && (uint64_t)sb.st_size > CN_ELEMENT_TEXT_MAX_BYTES) {
    fclose(f);
    return cn_fail(CN_ERROR_LIMIT, "%s: %llu bytes: larger than the limit of %llu bytes (CN_ELEMENT_TEXT_MAX_BYTES)",
                   path, (unsigned long long)sb.st_size, (unsigned long long)CN_ELEMENT_TEXT_MAX_BYTES);
  }
  /* read chunk by chunk; a NUL byte (never valid: /dev/zero, binary files)
   * or passing the limit (an endless stream) stops the reading at once */
  char *data = NULL;
  size_t len = 0, cap = 0;
  uint32_t line = 1;
  cn_result r = CN_OK;
  for (;;) {
    if (len == cap) {
      size_t nc = cap ? cap * 2 : 65536;
      if (nc > CN_ELEMENT_TEXT_MAX_BYTES + 1) nc = CN_ELEMENT_TEXT_MAX_BYTES + 1;
      char *nd = realloc(data, nc);
      if (!nd) {
        r = cn_fail(CN_ERROR_OUT_OF_MEMORY, "%s: out of host memory (%zu bytes)", path, nc);
        break;
      }
      data = nd;
      cap = nc;
    }
    size_t got = fread(data + len, 1, cap - len, f);
    if (got == 0) {
      if (ferror(f)) r = cn_fail(CN_ERROR_IO, "cannot read %s: %s", path, errno ? strerror(errno) : "read error");
      break;
    }
    const char *nul = memchr(data + len, 0, got);
    for (const char *c = data + len, *e = nul ? nul : data + len + got; (c = memchr(c, '\n', (size_t)(e - c))); c++) line++;
    len += got;
    if (nul) {
      r = cn_fail(CN_ERROR_PARSE, "%s: line %u: NUL byte", path, line);
      break;
    }
    if (len > CN_ELEMENT_TEXT_MAX_BYTES) {
      r = cn_fail(CN_ERROR_LIMIT, "%s: larger than the limit of %llu bytes (CN_ELEMENT_TEXT_MAX_BYTES)", path,
                  (unsigned long long)CN_ELEMENT_TEXT_MAX_BYTES);
      break;
    }
  }
  fclose(f);
  if (r != CN_OK) {
    free(data);
    return r;
  }
  r = cn_element_text_parse(data ? data : "", len, out);
  free(data);
  if (r != CN_OK) {
    char msg[512];
    snprintf(msg, sizeof msg, "%s", cn_last_error());
    char *src = strrchr(msg, '(');
    if (src && src > msg) src[-1] = 0; /* drop " (element_text.c:N)": it is added again */
    return cn_fail(r, "%s: %s", path, msg);
  }
  return CN_OK;
}

void cn_element_text_free(cn_element_text *s) {
  free(s->tags);
  free(s->boxes);
  free(s->lines);
  s->tags = NULL;
  s->boxes = NULL;
  s->lines = NULL;
  s->n = 0;
}
