/* cmd_stats.c: `canopy stats FILE.svg`: loads an SVG into a scene and prints
 * its element counts, or the error (exit 1). No GPU is involved. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void usage(FILE *f) {
  fprintf(f,
          "usage: canopy stats [--strict] [-w W] [-h H] [-z S] [--time N] [--dump] [--verbose]\n"
          "                    [--resource-root DIR]... [--font-dir DIR]...\n"
          "                    FILE.svg\n\n"
          "Loads FILE.svg into a scene and prints its counts: paths, fills, strokes, clips, masks,\n"
          "blend groups, segments, the deepest group nesting, and the elements skipped by kind\n"
          "(filters, images, font fallbacks, ...). Warnings (missing references, reference cycles: the\n"
          "element is skipped as SVG says) are printed to stderr; --strict makes them errors.\n"
          "-w/--width, -h/--height, -z/--scale set the output size the scene is fitted to.\n"
          "--resource-root DIR (repeatable): images and <use> of other files may also come from\n"
          "DIR's tree (by default only from FILE.svg's own directory tree; URLs are never fetched).\n"
          CLI_FONT_DIR_HELP
          "--dump prints the encoded scene: one line per element (tag, path, paint, rule or\n"
          "stroke/blend record), then each path's transform and segments in local space.\n"
          "--time N loads the file N more times and prints the median and the fastest load time\n"
          "(file already in memory: parsing and encoding only).\n"
          "exit: 0 loaded, 1 the file could not be loaded (the message names the line), 2 usage.\n");
}

/* The scene as text (docs/SCENE.md names the fields). */
static void dump_scene(const cn_scene_data *d) {
  static const char *const tags[] = {"?", "FILL", "STROKE", "BEGIN_CLIP", "END_CLIP", "BEGIN_BLEND", "END_BLEND"};
  printf("viewport:     %g %g %g %g\n", d->viewport[0], d->viewport[1], d->viewport[2], d->viewport[3]);
  for (uint32_t i = 0; i < d->element_count; i++) {
    const cn_element *e = &d->elements[i];
    printf("element %u: %s", i, e->tag <= CN_TAG_END_BLEND ? tags[e->tag] : "?");
    if (e->path != CN_NONE) printf(" path=%u", e->path);
    if (e->paint != CN_NONE) {
      const cn_paint *p = &d->paints[e->paint];
      if (p->kind == CN_PAINT_SOLID) printf(" paint=%u solid(%g %g %g %g)", e->paint, p->r, p->g, p->b, p->a);
      else printf(" paint=%u %s(%u stops)", e->paint, p->kind == CN_PAINT_LINEAR ? "linear" : "radial", p->stop_count);
    }
    if (e->tag == CN_TAG_FILL || e->tag == CN_TAG_BEGIN_CLIP) printf(" %s", e->aux ? "evenodd" : "nonzero");
    if (e->tag == CN_TAG_STROKE) printf(" width=%g", d->strokes[e->aux].width);
    if (e->tag == CN_TAG_BEGIN_BLEND) {
      const cn_blend *bl = &d->blends[e->aux];
      printf(" mode=%u alpha=%g flags=0x%x", bl->mode, bl->alpha, bl->flags);
    }
    printf("\n");
  }
  for (uint32_t p = 0; p < d->path_count; p++) {
    const cn_path *path = &d->paths[p];
    const cn_transform *t = &d->transforms[path->transform];
    printf("path %u: transform [%g %g %g %g %g %g]\n", p, t->a, t->b, t->c, t->d, t->e, t->f);
    for (uint32_t k = 0; k < path->seg_count; k++) {
      const cn_segment *sg = &d->segments[path->seg_first + k];
      const float *q = &sg->x0;
      uint32_t kind = sg->info & 3u;
      printf("  %s", kind == CN_SEG_LINE ? "line " : kind == CN_SEG_QUAD ? "quad " : "cubic");
      for (uint32_t j = 0; j <= kind + 1; j++) printf(" %g,%g", q[2 * j], q[2 * j + 1]);
      printf("%s%s\n", sg->info & CN_SEG_SUBPATH_CLOSED ? " closed" : "", sg->info & CN_SEG_SUBPATH_END ? " end" : "");
    }
  }
}

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Loads file n times from memory; prints the median and the fastest time. */
static int time_loads(cn_scene_builder *b, const char *file, const cn_svg_options *opt, int n) {
  FILE *f = fopen(file, "rb");
  if (!f) return cli_fail("stats", "cannot reopen the file", CN_ERROR_IO);
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = size > 0 ? malloc((size_t)size) : NULL;
  bool ok = buf && fread(buf, 1, (size_t)size, f) == (size_t)size;
  fclose(f);
  double *ms = malloc((size_t)n * sizeof *ms);
  cn_result r = ok && ms ? CN_OK : CN_ERROR_OUT_OF_MEMORY;
  for (int i = 0; i < n && r == CN_OK; i++) {
    cn_scene_data scene;
    double t0 = now_ms();
    r = cn_svg_load_memory(b, buf, (size_t)size, opt, &scene, NULL);
    ms[i] = now_ms() - t0;
  }
  int rc = CLI_OK;
  if (r != CN_OK) {
    rc = cli_fail("stats", "timed load failed", r);
  } else {
    qsort(ms, (size_t)n, sizeof *ms, cmp_double);
    printf("load time:    median %.3f ms, fastest %.3f ms over %d loads (%.1f MB/s)\n", ms[n / 2], ms[0], n,
           size / 1e3 / ms[n / 2]);
  }
  free(ms);
  free(buf);
  return rc;
}

int cli_stats(int argc, char **argv) {
  cn_svg_options opt = {0};
  int repeat = 0;
  bool dump = false;
  cli_strings roots = {0}, fonts = {0};
  const cli_opt opts[] = {
      {.name = "resource-root", .kind = CLI_OPT_STRINGS, .dst = &roots, .metavar = "a directory"},
      {.name = "font-dir", .kind = CLI_OPT_STRINGS, .dst = &fonts, .metavar = "a directory"},
      {.name = "dump", .kind = CLI_OPT_FLAG, .dst = &dump},
      {.name = "strict", .kind = CLI_OPT_FLAG, .dst = &opt.strict},
      {.name = "width", .short_name = 'w', .kind = CLI_OPT_FLOAT, .dst = &opt.width, .lo = 0, .hi = 1e6},
      {.name = "height", .short_name = 'h', .kind = CLI_OPT_FLOAT, .dst = &opt.height, .lo = 0, .hi = 1e6},
      {.name = "scale", .short_name = 'z', .kind = CLI_OPT_FLOAT, .dst = &opt.scale, .lo = 0, .hi = 1e6},
      {.name = "time", .kind = CLI_OPT_INT, .dst = &repeat, .lo = 1, .hi = 1000, .metavar = "a count"},
      {0}};
  int nops = 0;
  CLI_PARSE("stats", argc, argv, opts, usage, &nops);
  if (nops == 0) return cli_usage_error("stats", "no SVG file given");
  if (nops > 1) return cli_usage_error("stats", "more than one file given");
  const char *file = argv[1];
  opt.resource_roots = roots.v;
  opt.resource_root_count = roots.n;
  opt.font_dirs = fonts.v;
  opt.font_dir_count = fonts.n;
  cn_scene_builder *b = NULL;
  cn_result r = cn_scene_builder_create(&b);
  if (r != CN_OK) return cli_fail("stats", "cannot create a scene builder", r);
  cn_scene_data scene;
  cn_svg_stats st;
  r = cn_svg_load_file(b, file, &opt, &scene, &st);
  if (r != CN_OK) {
    int rc = cli_fail_file("stats", file, r);
    cn_scene_builder_destroy(b);
    return rc;
  }
  cli_report_skipped("stats", file, &st);
  printf("file:         %s\n", file);
  printf("size:         %g x %g px\n", st.width, st.height);
  printf("elements:     %u\n", st.elements);
  printf("paths:        %u\n", st.paths);
  printf("segments:     %u\n", st.segments);
  printf("fills:        %u\n", st.fills);
  printf("strokes:      %u\n", st.strokes);
  printf("clips:        %u\n", st.clips);
  printf("masks:        %u\n", st.masks);
  printf("blend groups: %u\n", st.blend_groups);
  printf("max depth:    %u\n", st.max_depth);
  printf("transforms:   %u\n", st.transforms);
  printf("paints:       %u\n", st.paints);
  printf("glyphs:       %u\n", st.glyphs);
  printf("skipped:     ");
  bool any = false;
  for (int k = 0; k < CN_SVG_SKIP_COUNT; k++)
    if (st.skipped[k]) {
      printf(" %s=%u", cn_svg_skip_name((cn_svg_skip)k), st.skipped[k]);
      any = true;
    }
  printf("%s\n", any ? "" : " none");
  printf("warnings:     %u\n", st.warning_count);
  if (dump) dump_scene(&scene);
  int rc = repeat ? time_loads(b, file, &opt, repeat) : CLI_OK;
  cn_scene_builder_destroy(b);
  return rc;
}
