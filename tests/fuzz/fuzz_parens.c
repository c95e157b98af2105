/* fuzz_parens.c: libFuzzer target of the input of `canopy parens`
 * (cli/parens_input.c) and of the CPU reference it is checked against.
 *
 * The input is read through a memory stream with a small element limit
 * (4096, so that the limit is reached often). It must be accepted exactly
 * when it is '(' and ')' bytes, one trailing newline allowed, within the
 * limit; a refusal names the byte offset or the limit. An accepted input is
 * matched by cn_parens_cpu and compared with a plain stack written here.
 * Anything else aborts. */
#include "parens_input.h"

#include <canopy/cn_parens.h>

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ELEMENTS 4096u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* what the reader must decide, computed plainly */
  size_t body = size && data[size - 1] == '\n' ? size - 1 : size;
  size_t bad = cli_parens_scan(data, body);
  bool want_ok = bad == body && body <= MAX_ELEMENTS;
  FILE *f = fmemopen(size ? (void *)data : (void *)"", size, "rb");
  if (!f) abort();
  uint8_t *in;
  size_t n;
  char err[256];
  int rc = cli_parens_read(f, "input", MAX_ELEMENTS, &in, &n, err, sizeof err);
  fclose(f);
  if (rc) {
    if (want_ok || in) {
      fprintf(stderr, "fuzz_parens: refused valid input (%zu bytes): %s\n", size, err);
      abort();
    }
    if (!strstr(err, "byte offset") && !strstr(err, "limit")) {
      fprintf(stderr, "fuzz_parens: refusal names no offset or limit: %s\n", err);
      abort();
    }
    return 0;
  }
  if (!want_ok || n != body || (n && memcmp(in, data, n) != 0)) {
    fprintf(stderr, "fuzz_parens: accepted %zu of %zu bytes wrongly\n", n, size);
    abort();
  }
  int32_t *out = malloc((n + 1) * sizeof *out), *stack = malloc((n + 1) * sizeof *stack);
  if (!out || !stack) abort();
  cn_parens_cpu(in, out, n);
  size_t sp = 0;
  for (size_t i = 0; i < n; i++) {
    int32_t want = sp ? stack[sp - 1] : -1;
    if (out[i] != want) {
      fprintf(stderr, "fuzz_parens: element %zu: %d, want %d\n", i, out[i], want);
      abort();
    }
    if (in[i] == '(') stack[sp++] = (int32_t)i;
    else if (sp) sp--;
  }
  free(out);
  free(stack);
  free(in);
  return 0;
}
