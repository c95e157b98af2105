/* parens_input.c: reading and checking the input of `canopy parens`
 * (parens_input.h): chunk by chunk, each chunk checked as it arrives. */
#include "parens_input.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

size_t cli_parens_scan(const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (p[i] != '(' && p[i] != ')') return i;
  return n;
}

int cli_parens_read(FILE *f, const char *name, uint64_t max, uint8_t **data, size_t *n, char *err, size_t err_len) {
  *data = NULL;
  *n = 0;
  /* a regular file's size is known up front: refuse it before reading */
  struct stat sb;
  if (fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode) && (uint64_t)sb.st_size > max + 1) {
    snprintf(err, err_len, "%s: %llu bytes: more than the limit of %llu elements", name,
             (unsigned long long)sb.st_size, (unsigned long long)max);
    return 1;
  }
  uint8_t *buf = NULL;
  size_t len = 0, cap = 0;
  bool newline = false; /* a '\n' was read: it must be the last byte */
  int rc = 0;
  for (;;) {
    if (len == cap) {
      size_t nc = cap ? cap * 2 : 1 << 16;
      if (nc > max + 2) nc = (size_t)max + 2; /* room to see one byte past the limit */
      if (nc <= cap) nc = cap + 1;
      uint8_t *p = realloc(buf, nc);
      if (!p) {
        snprintf(err, err_len, "%s: out of memory reading it (%zu bytes)", name, nc);
        rc = 1;
        break;
      }
      buf = p, cap = nc;
    }
    size_t got = fread(buf + len, 1, cap - len, f);
    if (got == 0) {
      if (ferror(f)) {
        snprintf(err, err_len, "%s: cannot read it: %s", name, errno ? strerror(errno) : "read error");
        rc = 1;
      }
      break;
    }
    size_t bad = newline ? len - 1 : len + cli_parens_scan(buf + len, got); /* bytes after the newline */
    len += got;
    if (bad < len && buf[bad] == '\n' && bad + 1 == len && !newline) {
      newline = true; /* allowed if nothing follows */
      bad = len;
    }
    if (bad < len) {
      snprintf(err, err_len, "%s: byte offset %zu: unexpected byte 0x%02x (only '(' and ')' allowed)", name, bad,
               buf[bad]);
      rc = 1;
      break;
    }
    if (len - newline > max) {
      snprintf(err, err_len, "%s: more than the limit of %llu elements", name, (unsigned long long)max);
      rc = 1;
      break;
    }
  }
  if (rc) {
    free(buf);
    return rc;
  }
  if (newline) len--;
  if (len == 0) {
    free(buf);
    buf = NULL;
  }
  *data = buf;
  *n = len;
  return 0;
}
