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
          "usage: canopy bbox --in STREAM.txt [--out OUT.txt] [--cpu]\n"
          "       canopy bbox FILE.svg [--out OUT.txt] [--cpu] [--font-dir DIR]\n\n"
          "Runs the scene stage's clip/blend boxes on an element stream and writes one line per\n"
          "element: 'x0 y0 x1 y1' or 'empty'. STREAM.txt: an optional first line 'viewport x0 y0 x1 y1',\n"
          "then 'draw x0 y0 x1 y1', 'clip x0 y0 x1 y1', 'endclip', 'blend', 'endblend', one per line\n"
          "('#' comments). A draw gets its box within every enclosing clip and the viewport; a group's\n"
          "BEGIN and END get the union of the draws inside. An SVG file is loaded and run whole\n"
          "(path boxes on the GPU first); its lines are 'INDEX TAG x0 y0 x1 y1' or 'INDEX TAG empty'.\n"
          "--cpu uses the CPU reference instead of the GPU. --out defaults to standard output.\n"
          CLI_FONT_DIR_HELP);
}

int cli_write_box(FILE *f, cn_box b) {
  if (cn_box_is_empty(b)) return fprintf(f, "empty\n");
  return fprintf(f, "%.9g %.9g %.9g %.9g\n", b.x0, b.y0, b.x1, b.y1);
}

int cli_open_out(const char *cmd, const char *path, FILE **out) {
  *out = stdout;
  if (!path) return CLI_OK;
  *out = fopen(path, "w");
  if (!*out) {
    fprintf(stderr, "canopy %s: cannot write %s\n", cmd, path);
    return CLI_FAIL;
  }
  return CLI_OK;
}

int cli_close_out(const char *cmd, const char *path, FILE *f) {
  bool bad = ferror(f) != 0;
  if (f != stdout) bad |= fclose(f) != 0;
  else bad |= fflush(f) != 0;
  if (bad) {
    fprintf(stderr, "canopy %s: error writing %s\n", cmd, path ? path : "standard output");
    return CLI_FAIL;
  }
  return CLI_OK;
}

static bool ends_with(const char *s, const char *suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && strcmp(s + a - b, suffix) == 0;
}

int cli_bbox(int argc, char **argv) {
  const char *in = NULL, *out_path = NULL, *svg = NULL;
  cn_svg_options opt = {0};
  bool cpu = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      usage(stdout);
      return CLI_OK;
    } else if (strcmp(a, "--in") == 0 || strcmp(a, "--out") == 0) {
      if (i + 1 >= argc) return cli_usage_error("bbox", "%s needs a file name", a);
      *(strcmp(a, "--in") == 0 ? &in : &out_path) = argv[++i];
    } else if (strcmp(a, "--cpu") == 0) {
      cpu = true;
    } else if (strcmp(a, "--font-dir") == 0) {
      int rc = cli_font_dir_arg("bbox", argc, argv, &i, &opt);
      if (rc != CLI_OK) return rc;
    } else if (a[0] != '-' && !svg && ends_with(a, ".svg")) {
      svg = a;
    } else {
      return cli_usage_error("bbox", "unknown option '%s'", a);
    }
  }
  if (!!in == !!svg) return cli_usage_error("bbox", "give either --in STREAM.txt or one FILE.svg");
  if (svg) return cli_bbox_svg(svg, out_path, cpu, &opt);
  if (opt.font_dir_count) return cli_usage_error("bbox", "--font-dir applies to an SVG file only");

  cn_element_text s;
  cn_result r = cn_element_text_load(in, &s);
  if (r != CN_OK) return cli_fail("bbox", "bad element stream", r);
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
  FILE *f = NULL;
  if (rc == CLI_OK) rc = cli_open_out("bbox", out_path, &f);
  if (rc == CLI_OK) {
    for (uint64_t i = 0; i < s.n; i++) cli_write_box(f, res[i]);
    rc = cli_close_out("bbox", out_path, f);
  }
  free(res);
  cn_element_text_free(&s);
  return rc;
}
