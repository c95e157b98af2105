/* cmd_bins.c: `canopy bins`: per-bin element lists of an element stream
 * (text form, viewport required): one line per non-empty bin in row-major
 * order, "bx by: i i i ...", i = element line index from 0. */
#include "cli.h"

#include <canopy/cn_bbox.h>
#include <canopy/cn_bins.h>
#include <canopy/cn_element_text.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f) {
  fprintf(f,
          "usage: canopy bins --in STREAM.txt [--bin-size B] [-o BINS.txt] [--cpu]\n\n"
          "Runs the scene stage (clip/blend boxes, then binning) on an element stream whose first line\n"
          "is 'viewport x0 y0 x1 y1' (see `canopy bbox --help` for the format). Bins are squares of B\n"
          "pixels (default 256) anchored at the viewport's (x0, y0); an element is listed in every bin\n"
          "its non-empty result box overlaps with positive area. Writes one line per non-empty bin,\n"
          "row-major: 'bx by: i i i ...' with the elements' indices in stream order.\n"
          "--cpu uses the CPU reference instead of the GPU. --out (-o) defaults to standard output.\n");
}

int cli_bins(int argc, char **argv) {
  const char *in = NULL, *out_path = NULL;
  int bin_size = 256;
  bool cpu = false;
  const cli_opt opts[] = {{.name = "in", .kind = CLI_OPT_STRING, .dst = &in, .metavar = "a file name"},
                          {.name = "out", .short_name = 'o', .kind = CLI_OPT_STRING, .dst = &out_path, .metavar = "a file name"},
                          {.name = "bin-size", .kind = CLI_OPT_INT, .dst = &bin_size, .lo = 1, .hi = 65536, .metavar = "a number of pixels"},
                          {.name = "cpu", .kind = CLI_OPT_FLAG, .dst = &cpu},
                          {0}};
  int nops = 0;
  CLI_PARSE("bins", argc, argv, opts, usage, &nops);
  if (nops) return cli_usage_error("bins", "unexpected argument '%s' (the stream is --in FILE)", argv[1]);
  if (!in) return cli_usage_error("bins", "--in STREAM.txt is required");

  cn_element_text s;
  cn_result r = cn_element_text_load(in, &s);
  if (r != CN_OK) return cli_fail_file("bins", in, r);
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
  cli_out o;
  if (rc == CLI_OK) rc = cli_out_open("bins", out_path, &o);
  if (rc == CLI_OK) {
    FILE *f = o.f;
    for (uint32_t by = 0; by < g.nby; by++)
      for (uint32_t bx = 0; bx < g.nbx; bx++) {
        uint64_t b = (uint64_t)by * g.nbx + bx;
        if (off[b] == off[b + 1]) continue;
        fprintf(f, "%u %u:", bx, by);
        for (uint32_t k = off[b]; k < off[b + 1]; k++) fprintf(f, " %u", el[k]);
        fputc('\n', f);
      }
    rc = cli_out_commit("bins", &o);
  }
  cn_context_destroy(ctx);
  free(off);
  free(el);
  free(res);
  cn_element_text_free(&s);
  return rc;
}
