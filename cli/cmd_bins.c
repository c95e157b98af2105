/* cmd_bins.c: `canopy bins`: per-bin element lists of an element stream
 * (text form, viewport required): one line per non-empty bin in row-major
 * order, "bx by: i i i ...", i = element line index from 0. */
#include "cli.h"

#include <canopy/cn_bbox.h>
#include <canopy/cn_bins.h>
#include <canopy/cn_element_text.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f) {
  fprintf(f,
          "usage: canopy bins --in STREAM.txt [--bin-size B] [--out BINS.txt] [--cpu]\n\n"
          "Runs the scene stage (clip/blend boxes, then binning) on an element stream whose first line\n"
          "is 'viewport x0 y0 x1 y1' (see `canopy bbox --help` for the format). Bins are squares of B\n"
          "pixels (default 256) anchored at the viewport's (x0, y0); an element is listed in every bin\n"
          "its non-empty result box overlaps with positive area. Writes one line per non-empty bin,\n"
          "row-major: 'bx by: i i i ...' with the elements' indices in stream order.\n"
          "--cpu uses the CPU reference instead of the GPU. --out defaults to standard output.\n");
}

int cli_bins(int argc, char **argv) {
  const char *in = NULL, *out_path = NULL;
  unsigned long bin_size = 256;
  bool cpu = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      usage(stdout);
      return CLI_OK;
    } else if (strcmp(a, "--in") == 0 || strcmp(a, "--out") == 0) {
      if (i + 1 >= argc) return cli_usage_error("bins", "%s needs a file name", a);
      *(strcmp(a, "--in") == 0 ? &in : &out_path) = argv[++i];
    } else if (strcmp(a, "--bin-size") == 0) {
      if (i + 1 >= argc) return cli_usage_error("bins", "--bin-size needs a number of pixels");
      char *end;
      errno = 0;
      bin_size = strtoul(argv[++i], &end, 10);
      if (*end || end == argv[i] || errno || bin_size == 0 || bin_size > 65536 || argv[i][0] == '-')
        return cli_usage_error("bins", "--bin-size '%s': want a whole number of pixels, 1 to 65536", argv[i]);
    } else if (strcmp(a, "--cpu") == 0) {
      cpu = true;
    } else {
      return cli_usage_error("bins", "unknown option '%s'", a);
    }
  }
  if (!in) return cli_usage_error("bins", "--in STREAM.txt is required");

  cn_element_text s;
  cn_result r = cn_element_text_load(in, &s);
  if (r != CN_OK) return cli_fail("bins", "bad element stream", r);
  int rc = CLI_OK;
  cn_bins_grid g;
  if (!s.has_viewport) {
    fprintf(stderr, "canopy bins: %s: the first element line must be 'viewport x0 y0 x1 y1'\n", in);
    rc = CLI_FAIL;
  } else if ((r = cn_bins_grid_make(s.viewport, (uint32_t)bin_size, &g)) != CN_OK) {
    rc = cli_fail("bins", "bad grid", r);
  }
  cn_box *res = rc == CLI_OK ? malloc((s.n ? s.n : 1) * sizeof *res) : NULL;
  uint32_t *off = NULL, *el = NULL;
  uint64_t total = 0;
  cn_context *ctx = NULL;
  if (rc == CLI_OK && !res) {
    fprintf(stderr, "canopy bins: out of host memory\n");
    rc = CLI_FAIL;
  }
  if (rc == CLI_OK && cpu) {
    r = cn_bbox_cpu(s.tags, s.boxes, s.n, s.viewport, res);
    if (r == CN_OK) r = cn_bins_cpu(res, s.n, &g, &off, &el, &total);
    if (r != CN_OK) rc = cli_fail("bins", "CPU reference failed", r);
  } else if (rc == CLI_OK) {
    rc = cli_context("bins", &ctx);
    if (rc == CLI_OK) {
      r = cn_bbox_run(ctx, s.tags, s.boxes, s.n, s.viewport, res);
      if (r == CN_OK) r = cn_bins_run(ctx, res, s.n, &g, &off, &el, &total);
      if (r != CN_OK) rc = cli_fail("bins", "GPU scene stage failed", r);
    }
  }
  FILE *f = NULL;
  if (rc == CLI_OK) rc = cli_open_out("bins", out_path, &f);
  if (rc == CLI_OK) {
    for (uint32_t by = 0; by < g.nby; by++)
      for (uint32_t bx = 0; bx < g.nbx; bx++) {
        uint64_t b = (uint64_t)by * g.nbx + bx;
        if (off[b] == off[b + 1]) continue;
        fprintf(f, "%u %u:", bx, by);
        for (uint32_t k = off[b]; k < off[b + 1]; k++) fprintf(f, " %u", el[k]);
        fputc('\n', f);
      }
    rc = cli_close_out("bins", out_path, f);
  }
  cn_context_destroy(ctx);
  free(off);
  free(el);
  free(res);
  cn_element_text_free(&s);
  return rc;
}
