/* cmd_render.c: `canopy render FILE.svg -o OUT.png [--width W] [--height H]
 * [--scale S] [--background COLOR]`: loads an SVG, renders it on the GPU
 * (flatten, coarse, fine) and writes an 8-bit sRGB RGBA PNG, straight alpha. */
#include "cli.h"
#include <canopy/cn_png.h>
#include <canopy/cn_render.h>
#include <canopy/cn_svg.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f) {
  fprintf(f,
          "usage: canopy render FILE.svg -o OUT.png [--width W] [--height H] [--scale S]\n"
          "                     [--background COLOR] [--tolerance T] [--stats]\n"
          "                     [--resource-root DIR]... [--font-dir DIR]...\n\n"
          "Renders FILE.svg on the GPU and writes OUT.png (8-bit sRGB RGBA, straight alpha).\n"
          "The size is the SVG's own (width/height, else its viewBox); with only one of --width\n"
          "and --height the other follows the aspect ratio; --scale multiplies the size.\n"
          "--background takes an SVG/CSS colour (e.g. white, #336699, rgba(0,0,0,0.5)); the\n"
          "default is transparent. --tolerance is the curve flattening tolerance in pixels (0.25).\n"
          "--stats prints what the frame used, as name: value lines on stdout: elements, lines\n"
          "(flattened), bin entries, tiles (tile records allocated for all elements), segments\n"
          "(line pieces in tiles), chunks (extra command chunks), spill (spilled stack levels)\n"
          "and reruns (frames run again after a buffer grew).\n"
          "Images and <use> of other files are read from FILE.svg's directory tree only;\n"
          "--resource-root DIR (repeatable) allows DIR's tree too; URLs are never fetched.\n"
          "What is not drawn is reported on stderr: the warnings, then one line per kind.\n"
          CLI_FONT_DIR_HELP
          "exit: 0 written, 1 the file could not be loaded or rendered (the message says why), 2 usage.\n");
}

static bool parse_float(const char *s, float lo, float hi, float *out) {
  char *end;
  double v = strtod(s, &end);
  float f = (float)v; /* compared as floats: the bounds are floats ("0.001" is below 0.001f as a double) */
  if (end == s || *end || !(f >= lo) || !(f <= hi)) return false;
  *out = f;
  return true;
}

int cli_render(int argc, char **argv) {
  cn_svg_options opt = {0};
  const char *roots[16];
  const char *file = NULL, *out = NULL;
  float bg[4] = {0, 0, 0, 0}, tolerance = 0;
  bool stats = false;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      usage(stdout);
      return CLI_OK;
    } else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
      if (i + 1 >= argc) return cli_usage_error("render", "%s needs a file name", a);
      out = argv[++i];
    } else if (strcmp(a, "--width") == 0 || strcmp(a, "--height") == 0 || strcmp(a, "--scale") == 0) {
      float *dst = a[2] == 'w' ? &opt.width : a[2] == 'h' ? &opt.height : &opt.scale;
      if (i + 1 >= argc) return cli_usage_error("render", "%s needs a value", a);
      float hi = a[2] == 's' ? 1000.0f : (float)CN_RENDER_MAX_SIZE;
      if (!parse_float(argv[++i], 1e-6f, hi, dst))
        return cli_usage_error("render", "%s: '%s' is not a number in (0, %g]", a, argv[i], hi);
    } else if (strcmp(a, "--stats") == 0) {
      stats = true;
    } else if (strcmp(a, "--tolerance") == 0) {
      if (i + 1 >= argc) return cli_usage_error("render", "%s needs a value", a);
      if (!parse_float(argv[++i], 0.001f, 100.0f, &tolerance))
        return cli_usage_error("render", "--tolerance: '%s' is not a number in 0.001..100", argv[i]);
    } else if (strcmp(a, "--background") == 0) {
      if (i + 1 >= argc) return cli_usage_error("render", "%s needs a colour", a);
      const char *c = argv[++i];
      if (!cn_svg_parse_color(c, bg))
        return cli_usage_error("render", "--background: '%s' is not a colour", c);
    } else if (strcmp(a, "--font-dir") == 0) {
      int rc = cli_font_dir_arg("render", argc, argv, &i, &opt);
      if (rc != CLI_OK) return rc;
    } else if (strcmp(a, "--resource-root") == 0) {
      if (i + 1 >= argc) return cli_usage_error("render", "--resource-root needs a directory");
      if (opt.resource_root_count == 16) return cli_usage_error("render", "--resource-root: at most 16");
      roots[opt.resource_root_count++] = argv[++i];
      opt.resource_roots = roots;
    } else if (a[0] == '-' && a[1]) {
      return cli_usage_error("render", "unknown option '%s'", a);
    } else if (file) {
      return cli_usage_error("render", "more than one SVG file given");
    } else {
      file = a;
    }
  }
  if (!file) return cli_usage_error("render", "no SVG file given");
  if (!out) return cli_usage_error("render", "no output file given (-o OUT.png)");

  cn_scene_builder *b = NULL;
  cn_result r = cn_scene_builder_create(&b);
  if (r != CN_OK) return cli_fail("render", "cannot create a scene builder", r);
  cn_scene_data scene;
  cn_svg_stats st;
  char what[1200];
  r = cn_svg_load_file(b, file, &opt, &scene, &st);
  if (r != CN_OK) {
    snprintf(what, sizeof what, "cannot load %s", file);
    int rc = cli_fail("render", what, r);
    cn_scene_builder_destroy(b);
    return rc;
  }
  cli_report_skipped("render", file, &st);
  uint32_t w = (uint32_t)lroundf(st.width), h = (uint32_t)lroundf(st.height);
  if (w < 1) w = 1;
  if (h < 1) h = 1;
  if (w > CN_RENDER_MAX_SIZE || h > CN_RENDER_MAX_SIZE) {
    fprintf(stderr, "canopy render: %s: output of %ux%u pixels: each side must be at most %u\n", file, w, h,
            CN_RENDER_MAX_SIZE);
    cn_scene_builder_destroy(b);
    return CLI_FAIL;
  }
  cn_context *ctx = NULL;
  int rc = cli_context("render", &ctx);
  if (rc != CLI_OK) {
    cn_scene_builder_destroy(b);
    return rc;
  }
  cn_renderer *ren = NULL;
  uint8_t *px = malloc((size_t)w * h * 4);
  r = px ? cn_renderer_create(ctx, NULL, &ren) : cn_error_set(CN_ERROR_OUT_OF_MEMORY, "out of memory for %ux%u pixels", w, h);
  if (r == CN_OK) {
    cn_render_view view = {.width = w, .height = h, .tolerance = tolerance};
    memcpy(view.background, bg, sizeof bg);
    r = cn_render_scene_to_rgba8(ren, &scene, &view, px);
    if (r != CN_OK) snprintf(what, sizeof what, "cannot render %s", file);
  } else {
    snprintf(what, sizeof what, "cannot set up the renderer");
  }
  if (r == CN_OK && stats) {
    cn_render_stats rs;
    cn_renderer_stats(ren, &rs);
    cn_scene_gpu_counts sc;
    cn_scene_gpu_counts_get(cn_renderer_scene_gpu(ren), &sc);
    printf("elements: %u\nlines: %u\nbin entries: %llu\ntiles: %u\nsegments: %u\nchunks: %u\nspill: %u\nreruns: %u\n",
           scene.element_count, sc.lines, (unsigned long long)sc.bin_entries, rs.used_tiles, rs.used_segs,
           rs.used_chunks, rs.used_spill, rs.reruns);
  }
  if (r == CN_OK) {
    r = cn_png_write_rgba8(out, px, w, h);
    if (r != CN_OK) snprintf(what, sizeof what, "cannot write %s", out);
  }
  rc = r == CN_OK ? CLI_OK : cli_fail("render", what, r);
  free(px);
  cn_renderer_destroy(ren);
  cn_context_destroy(ctx);
  cn_scene_builder_destroy(b);
  return rc;
}
