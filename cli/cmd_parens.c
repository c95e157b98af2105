/* cmd_parens.c: `canopy parens`: parentheses matching of a file of '(' and ')'
 * on the GPU, writing one little-endian int32 per element (see cn_parens.h). */
#include "cli.h"
#include "parens_input.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const usage =
    "usage: canopy parens [--variant auto|simple|efficient|lookback|lowmark|single] --in FILE --out FILE\n\n"
    "Reads FILE of ASCII '(' and ')' bytes (one trailing newline allowed) and writes, for\n"
    "each element i, the index on top of the stack just before it (-1 if empty) as a\n"
    "little-endian int32: '(' pushes its index, ')' pops. Unbalanced input is fine.\n"
    "--variant picks the GPU algorithm (default auto).\n";

static int write_output(const char *path, const int32_t *out, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) {
    fprintf(stderr, "canopy parens: cannot create %s: %s\n", path, strerror(errno));
    return CLI_FAIL;
  }
  uint8_t buf[4096];
  size_t fill = 0;
  bool ok = true;
  for (size_t i = 0; i < n && ok; i++) {
    uint32_t v = (uint32_t)out[i];
    for (int b = 0; b < 4; b++) buf[fill++] = (uint8_t)(v >> (8 * b));
    if (fill == sizeof buf || i + 1 == n) {
      ok = fwrite(buf, 1, fill, f) == fill;
      fill = 0;
    }
  }
  if (fclose(f) != 0) ok = false;
  if (!ok) {
    fprintf(stderr, "canopy parens: cannot write %s\n", path);
    return CLI_FAIL;
  }
  return CLI_OK;
}

int cli_parens(int argc, char **argv) {
  const char *in_path = NULL, *out_path = NULL;
  cn_parens_variant variant = CN_PARENS_AUTO;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fputs(usage, stdout);
      return CLI_OK;
    }
    bool takes = strcmp(a, "--in") == 0 || strcmp(a, "--out") == 0 || strcmp(a, "--variant") == 0;
    if (!takes) return cli_usage_error("parens", "unknown option '%s'", a);
    if (i + 1 >= argc) return cli_usage_error("parens", "%s needs a value", a);
    const char *v = argv[++i];
    if (strcmp(a, "--in") == 0) in_path = v;
    else if (strcmp(a, "--out") == 0) out_path = v;
    else if (!cn_parens_variant_parse(v, &variant))
      return cli_usage_error("parens", "unknown variant '%s' (auto, simple, efficient, lookback, lowmark, single)", v);
  }
  if (!in_path) return cli_usage_error("parens", "--in FILE is required");
  if (!out_path) return cli_usage_error("parens", "--out FILE is required");

  uint8_t *in = NULL;
  size_t n = 0;
  FILE *f = fopen(in_path, "rb");
  if (!f) {
    fprintf(stderr, "canopy parens: cannot open %s: %s\n", in_path, strerror(errno));
    return CLI_FAIL;
  }
  char err[512];
  int rc = cli_parens_read(f, in_path, CN_PARENS_MAX_N, &in, &n, err, sizeof err) ? CLI_FAIL : CLI_OK;
  fclose(f);
  if (rc != CLI_OK) {
    fprintf(stderr, "canopy parens: %s\n", err);
    return rc;
  }
  int32_t *out = n ? malloc(n * sizeof *out) : NULL;
  if (n && !out) {
    fprintf(stderr, "canopy parens: out of memory for %zu outputs\n", n);
    free(in);
    return CLI_FAIL;
  }
  if (n > 0) {
    cn_context *ctx = NULL;
    rc = cli_context("parens", &ctx);
    if (rc == CLI_OK) {
      cn_result r = cn_parens(ctx, variant, NULL, in, out, n);
      if (r != CN_OK) rc = cli_fail("parens", "matching failed", r);
    }
    cn_context_destroy(ctx);
  }
  if (rc == CLI_OK) rc = write_output(out_path, out, n);
  free(in);
  free(out);
  return rc;
}
