/* cmd_bbox.c: `canopy bbox`: result boxes of an element stream (text form,
 * see engine/cn_element_text.h) through the GPU scene stage (or its CPU
 * reference with --cpu), one line per element: "x0 y0 x1 y1" (%.9g) or "empty". */
#include "cli.h"

#include <canopy/cn_bbox.h>
#include <canopy/cn_box.h>
#include <canopy/cn_element_text.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f) {
  fprintf(f,
          "usage: canopy bbox --in STREAM.txt [-o OUT.txt] [--cpu]\n"
          "       canopy bbox FILE.svg [-o OUT.txt] [--cpu] [--font-dir DIR]\n\n"
          "Runs the scene stage's clip/blend boxes on an element stream and writes one line per\n"
          "element: 'x0 y0 x1 y1' or 'empty'. STREAM.txt: an optional first line 'viewport x0 y0 x1 y1',\n"
          "then 'draw x0 y0 x1 y1', 'clip x0 y0 x1 y1', 'endclip', 'blend', 'endblend', one per line\n"
          "('#' comments). A draw gets its box within every enclosing clip and the viewport; a group's\n"
          "BEGIN and END get the union of the draws inside. An SVG file is loaded and run whole\n"
          "(path boxes on the GPU first); its lines are 'INDEX TAG x0 y0 x1 y1' or 'INDEX TAG empty'.\n"
          "--cpu uses the CPU reference instead of the GPU. --out (-o) defaults to standard output;\n"
          "a file is written whole or not at all (temporary file, then rename).\n"
          CLI_FONT_DIR_HELP);
}

int cli_write_box(FILE *f, cn_box b) {
  if (cn_box_is_empty(b)) return fprintf(f, "empty\n");
  return fprintf(f, "%.9g %.9g %.9g %.9g\n", b.x0, b.y0, b.x1, b.y1);
}

static bool ends_with(const char *s, const char *suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && strcmp(s + a - b, suffix) == 0;
}

int cli_bbox(int argc, char **argv) {
  const char *in = NULL, *out_path = NULL, *svg = NULL;
  cn_svg_options opt = {0};
  bool cpu = false;
  cli_strings fonts = {0};
  const cli_opt opts[] = {{.name = "in", .kind = CLI_OPT_STRING, .dst = &in, .metavar = "a file name"},
                          {.name = "out", .short_name = 'o', .kind = CLI_OPT_STRING, .dst = &out_path, .metavar = "a file name"},
                          {.name = "cpu", .kind = CLI_OPT_FLAG, .dst = &cpu},
                          {.name = "font-dir", .kind = CLI_OPT_STRINGS, .dst = &fonts, .metavar = "a directory"},
                          {0}};
  int nops = 0;
  CLI_PARSE("bbox", argc, argv, opts, usage, &nops);
  if (nops > 1) return cli_usage_error("bbox", "more than one input given");
  if (nops == 1) {
    if (!ends_with(argv[1], ".svg")) return cli_usage_error("bbox", "'%s': an SVG input must end in .svg (--in for a stream)", argv[1]);
    svg = argv[1];
  }
  opt.font_dirs = fonts.v;
  opt.font_dir_count = fonts.n;
  if (!!in == !!svg) return cli_usage_error("bbox", "give either --in STREAM.txt or one FILE.svg");
  if (svg) return cli_bbox_svg(svg, out_path, cpu, &opt);
  if (opt.font_dir_count) return cli_usage_error("bbox", "--font-dir applies to an SVG file only");

  cn_element_text s;
  cn_result r = cn_element_text_load(in, &s);
  if (r != CN_OK) return cli_fail_file("bbox", in, r);
  cn_box *res = malloc((s.n ? s.n : 1) * sizeof *res);
  int rc = CLI_OK;
  if (!res) {
    fprintf(stderr, "canopy bbox: out of host memory\n");
    rc = CLI_FAIL;
  } else if (cpu) {
    r = cn_bbox_cpu(s.tags, s.boxes, s.n, s.viewport, res);
    if (r != CN_OK) rc = cli_fail("bbox", "CPU reference failed", r);
  } else {
    cn_context *ctx = NULL;
    rc = cli_context("bbox", &ctx);
    if (rc == CLI_OK) {
      r = cn_bbox_run(ctx, s.tags, s.boxes, s.n, s.viewport, res);
      if (r != CN_OK) rc = cli_fail("bbox", "GPU scene stage failed", r);
    }
    cn_context_destroy(ctx);
  }
  cli_out o;
  if (rc == CLI_OK) rc = cli_out_open("bbox", out_path, &o);
  if (rc == CLI_OK) {
    for (uint64_t i = 0; i < s.n; i++) cli_write_box(o.f, res[i]);
    rc = cli_out_commit("bbox", &o);
  }
  free(res);
  cn_element_text_free(&s);
  return rc;
}
