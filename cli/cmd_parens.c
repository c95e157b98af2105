/* cmd_parens.c: `canopy parens`: parentheses matching of a file of '(' and ')'
 * on the GPU, writing one little-endian int32 per element (see cn_parens.h). */
#include "cli.h"
#include "parens_input.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const usage =
    "usage: canopy parens [--variant auto|simple|efficient|lookback|lowmark|single] --in FILE -o FILE\n\n"
    "Reads FILE of ASCII '(' and ')' bytes (one trailing newline allowed) and writes, for\n"
    "each element i, the index on top of the stack just before it (-1 if empty) as a\n"
    "little-endian int32: '(' pushes its index, ')' pops. Unbalanced input is fine.\n"
    "--variant picks the GPU algorithm (default auto). --in - reads standard input; --out (-o)\n"
    "- writes standard output; a file is written whole or not at all.\n";

static void usage_print(FILE *f) { fputs(usage, f); }

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
    int e = errno;
    cli_out_abort(&o);
    return cli_error("parens", "cannot write %s: %s", cli_out_name(path), strerror(e));
  }
  return cli_out_commit("parens", &o);
}

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
    return cli_usage_error("parens", "unknown variant '%s' (auto, simple, efficient, lookback, lowmark, single)", variant_name);
  if (!in_path) return cli_usage_error("parens", "--in FILE is required");
  if (!out_path) return cli_usage_error("parens", "--out FILE is required");

  uint8_t *in = NULL;
  size_t n = 0;
  bool std_in = strcmp(in_path, "-") == 0;
  FILE *f = std_in ? stdin : fopen(in_path, "rb");
  if (!f) return cli_error("parens", "cannot open %s: %s", in_path, strerror(errno));
  char err[512];
  int rc = cli_parens_read(f, std_in ? "standard input" : in_path, CN_PARENS_MAX_N, &in, &n, err, sizeof err)
               ? CLI_FAIL
               : CLI_OK;
  if (!std_in) fclose(f);
  if (rc != CLI_OK) return cli_error("parens", "%s", err);
  int32_t *out = n ? malloc(n * sizeof *out) : NULL;
  if (n && !out) {
    free(in);
    return cli_error("parens", "out of memory for %zu outputs", n);
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
