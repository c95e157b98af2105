/* cmd_parens.c: `canopy parens`: parentheses matching of a file of '(' and ')'
 * on the GPU, writing one little-endian int32 per element (see cn_parens.h). */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const usage =
    "usage: canopy parens [--variant auto|simple|efficient|lookback|lowmark] --in FILE -o FILE\n\n"
    "Reads FILE of ASCII '(' and ')' bytes (one trailing newline allowed) and writes, for\n"
    "each element i, the index on top of the stack just before it (-1 if empty) as a\n"
    "little-endian int32: '(' pushes its index, ')' pops. Unbalanced input is fine.\n"
    "--variant picks the GPU algorithm (default auto). --in - reads standard input; --out (-o)\n"
    "- writes standard output; a file is written whole or not at all.\n";

/* Reads a whole file; *data is malloc'ed (NULL for an empty file). */
static int read_file(const char *path, uint8_t **data, size_t *size) {
  *data = NULL;
  *size = 0;
  bool std_in = strcmp(path, "-") == 0;
  FILE *f = std_in ? stdin : fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "canopy parens: cannot open %s: %s\n", path, strerror(errno));
    return CLI_FAIL;
  }
  size_t cap = 0;
  for (;;) {
    if (*size == cap) {
      cap = cap ? cap * 2 : 1 << 16;
      uint8_t *p = realloc(*data, cap);
      if (!p) {
        fprintf(stderr, "canopy parens: %s: out of memory reading it\n", path);
        if (!std_in) fclose(f);
        return CLI_FAIL;
      }
      *data = p;
    }
    size_t got = fread(*data + *size, 1, cap - *size, f);
    *size += got;
    if (got == 0) break;
  }
  int bad = ferror(f);
  if (!std_in) fclose(f);
  if (bad) {
    fprintf(stderr, "canopy parens: cannot read %s\n", path);
    return CLI_FAIL;
  }
  return CLI_OK;
}

static int write_output(const char *path, const int32_t *out, size_t n) {
  cli_out o;
  int rc = cli_out_open("parens", path, &o);
  if (rc != CLI_OK) return rc;
  uint8_t buf[4096];
  size_t fill = 0;
  bool ok = true;
  for (size_t i = 0; i < n && ok; i++) {
    uint32_t v = (uint32_t)out[i];
    for (int b = 0; b < 4; b++) buf[fill++] = (uint8_t)(v >> (8 * b));
    if (fill == sizeof buf || i + 1 == n) {
      ok = fwrite(buf, 1, fill, o.f) == fill;
      fill = 0;
    }
  }
  if (!ok) {
    cli_out_abort(&o);
    return cli_error("parens", "cannot write %s: %s", cli_out_name(path), strerror(errno));
  }
  return cli_out_commit("parens", &o);
}

static void usage_print(FILE *f) { fputs(usage, f); }

int cli_parens(int argc, char **argv) {
  const char *in_path = NULL, *out_path = NULL, *variant_name = NULL;
  cn_parens_variant variant = CN_PARENS_AUTO;
  const cli_opt opts[] = {{.name = "in", .kind = CLI_OPT_STRING, .dst = &in_path, .metavar = "a file name"},
                          {.name = "out", .short_name = 'o', .kind = CLI_OPT_STRING, .dst = &out_path, .metavar = "a file name"},
                          {.name = "variant", .kind = CLI_OPT_STRING, .dst = &variant_name, .metavar = "a variant name"},
                          {0}};
  int nops = 0;
  CLI_PARSE("parens", argc, argv, opts, usage_print, &nops);
  if (nops) return cli_usage_error("parens", "unexpected argument '%s' (the input is --in FILE)", argv[1]);
  if (variant_name && !cn_parens_variant_parse(variant_name, &variant))
    return cli_usage_error("parens", "unknown variant '%s' (auto, simple, efficient, lookback, lowmark)", variant_name);
  if (!in_path) return cli_usage_error("parens", "--in FILE is required");
  if (!out_path) return cli_usage_error("parens", "--out FILE is required");

  uint8_t *in = NULL;
  size_t n = 0;
  int rc = read_file(in_path, &in, &n);
  if (rc != CLI_OK) return rc;
  if (n > 0 && in[n - 1] == '\n') n--;
  for (size_t i = 0; i < n; i++) {
    if (in[i] != '(' && in[i] != ')') {
      fprintf(stderr, "canopy parens: %s: byte offset %zu: unexpected byte 0x%02x (only '(' and ')' allowed)\n",
              in_path, i, in[i]);
      free(in);
      return CLI_FAIL;
    }
  }
  if ((uint64_t)n > CN_PARENS_MAX_N) {
    fprintf(stderr, "canopy parens: %s: %zu elements: at most %llu\n", in_path, n, CN_PARENS_MAX_N);
    free(in);
    return CLI_FAIL;
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
      cn_result r = cn_parens(ctx, variant, in, out, n);
      if (r != CN_OK) rc = cli_fail("parens", "matching failed", r);
    }
    cn_context_destroy(ctx);
  }
  if (rc == CLI_OK) rc = write_output(out_path, out, n);
  free(in);
  free(out);
  return rc;
}
