/* cmd_render.c: `canopy render`: SVG files (or standard input) rendered on the
 * GPU (scene stage, flatten, coarse, fine) into 8-bit sRGB RGBA PNGs, straight
 * alpha, with rsvg-convert's and resvg's conventions: `-` for standard input
 * and output, -w/-h/-z/-b/--dpi, several inputs or a directory into -o DIR
 * (one context, so pipelines are built once). Outputs are written atomically. */
#include "cli.h"
#include <canopy/cn_png.h>
#include <canopy/cn_render.h>
#include <canopy/cn_svg.h>

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

static void usage(FILE *f) {
  fprintf(f,
          "usage: canopy render [options] FILE.svg [-o OUT.png]\n"
          "       canopy render [options] FILE.svg|DIR ... -o OUTDIR\n\n"
          "Renders SVG files on the GPU into PNGs (8-bit sRGB RGBA, straight alpha).\n\n"
          "  -o, --output OUT       OUT.png, or - for standard output (the default when standard\n"
          "                         output is not a terminal). With several inputs or a directory,\n"
          "                         OUT is a directory (created if missing) and each FILE.svg\n"
          "                         becomes OUT/FILE.png. Only .png names are accepted.\n"
          "  -w, --width W          output width in pixels\n"
          "  -h, --height H         output height in pixels; with only one of -w and -h the other\n"
          "                         follows the aspect ratio; with both the drawing is fitted inside,\n"
          "                         centred. Default: the SVG's own size (width/height, else viewBox)\n"
          "  -z, --zoom Z           multiplies the size (also --scale)\n"
          "      --dpi D            renders at D/96 of the CSS-pixel size (SVG's px is 1/96 in), as\n"
          "                         Inkscape's --export-dpi: --dpi 300 gives 300 dots per inch\n"
          "  -b, --background COLOR an SVG/CSS colour (white, #336699, rgba(0,0,0,0.5)); default\n"
          "                         transparent\n"
          "      --tolerance T      curve flattening tolerance in pixels (default 0.25)\n"
          CLI_AA_HELP
          "      --resource-root DIR  images and <use> of other files are read from FILE.svg's\n"
          "                         directory tree only; this allows DIR's tree too (repeatable);\n"
          "                         URLs are never fetched\n"
          "      --stats            print what each frame used, as name: value lines (on stdout, or\n"
          "                         stderr when the PNG goes there): elements, lines (flattened),\n"
          "                         bin entries, tiles (tile records allocated for all elements),\n"
          "                         segments (line pieces in tiles), chunks (extra command chunks),\n"
          "                         spill (spilled stack levels) and reruns (frames run again after\n"
          "                         a buffer grew); with several inputs, each after a file: line\n"
          "  -v, --verbose          error messages with the library's source locations\n"
          CLI_FONT_DIR_HELP "\n"
          "FILE - reads the SVG from standard input. A DIR input renders every *.svg in it.\n"
          "What is not drawn is reported on stderr: the warnings, then one line per kind.\n"
          "An output is written to a temporary file and renamed into place, so a failed render\n"
          "leaves an existing file as it was. Help: --help or -? (-h is the height).\n"
          "exit: 0 all written, 1 an input could not be loaded, rendered or written (the message\n"
          "says which and why; the other inputs are still rendered), 2 usage.\n");
}

static bool ends_with_png(const char *s) {
  size_t n = strlen(s);
  return n >= 4 && strcasecmp(s + n - 4, ".png") == 0;
}

static bool is_dir(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Reads all of f (at most max bytes); *data malloc'ed. */
static int read_all(FILE *f, uint64_t max, char **data, size_t *size) {
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  for (;;) {
    if (!buf) return cli_error("render", "standard input: out of memory reading it");
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (n > max) {
      free(buf);
      return cli_error("render", "standard input: larger than the %llu-byte limit", (unsigned long long)max);
    }
    if (got == 0) break;
    if (n == cap) {
      char *p = realloc(buf, cap * 2);
      if (!p) free(buf);
      buf = p;
      cap *= 2;
    }
  }
  if (ferror(f)) {
    free(buf);
    return cli_error("render", "cannot read standard input: %s", strerror(errno));
  }
  *data = buf;
  *size = n;
  return CLI_OK;
}

/* One job: an input and where its PNG goes. */
typedef struct job {
  char *in;  /* "-": standard input */
  char *out; /* "-" or NULL: standard output */
} job;

typedef struct jobs {
  job *v;
  int n, cap;
} jobs;

static char *dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

static bool add_job(jobs *J, const char *in) {
  if (J->n == J->cap) {
    int cap = J->cap ? J->cap * 2 : 16;
    job *p = realloc(J->v, (size_t)cap * sizeof *p);
    if (!p) return false;
    J->v = p;
    J->cap = cap;
  }
  J->v[J->n] = (job){dup_str(in), NULL};
  return J->v[J->n++].in != NULL;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Adds every *.svg of dir (sorted by name, not recursive). */
static int add_dir(jobs *J, const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return cli_error("render", "cannot read the directory %s: %s", dir, strerror(errno));
  char **names = NULL;
  int n = 0, cap = 0, rc = CLI_OK;
  struct dirent *e;
  while ((e = readdir(d)) != NULL && rc == CLI_OK) {
    size_t len = strlen(e->d_name);
    if (len < 5 || strcasecmp(e->d_name + len - 4, ".svg") != 0) continue;
    if (n == cap) {
      cap = cap ? cap * 2 : 64;
      char **p = realloc(names, (size_t)cap * sizeof *p);
      if (!p) {
        rc = cli_error("render", "out of memory listing %s", dir);
        break;
      }
      names = p;
    }
    if (!(names[n++] = dup_str(e->d_name))) rc = cli_error("render", "out of memory listing %s", dir);
  }
  closedir(d);
  if (rc == CLI_OK) qsort(names, (size_t)n, sizeof *names, cmp_str);
  for (int i = 0; i < n; i++) {
    if (rc == CLI_OK) {
      char path[4096];
      snprintf(path, sizeof path, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", names[i]);
      if (!add_job(J, path)) rc = cli_error("render", "out of memory listing %s", dir);
    }
    free(names[i]);
  }
  free(names);
  if (rc == CLI_OK && n == 0) fprintf(stderr, "canopy render: warning: no .svg files in %s\n", dir);
  return rc;
}

/* OUTDIR/NAME.png for the input path in. */
static char *out_in_dir(const char *outdir, const char *in) {
  const char *base = strrchr(in, '/');
  base = base ? base + 1 : in;
  size_t blen = strlen(base);
  if (blen > 4 && strcasecmp(base + blen - 4, ".svg") == 0) blen -= 4;
  size_t dlen = strlen(outdir);
  char *p = malloc(dlen + blen + 6);
  if (p) sprintf(p, "%s%s%.*s.png", outdir, dlen && outdir[dlen - 1] == '/' ? "" : "/", (int)blen, base);
  return p;
}

typedef struct render_opts {
  cn_svg_options svg;
  float bg[4], tolerance;
  uint32_t aa; /* CN_AA_* */
  bool stats;
  bool batch;
} render_opts;

typedef struct render_ctx {
  cn_context *ctx;
  cn_renderer *ren;
  cn_scene_builder *b;
} render_ctx;

/* Loads, renders and writes one job; prints what failed. */
static int render_one(render_ctx *R, const render_opts *o, const job *j) {
  const char *name = strcmp(j->in, "-") == 0 ? "standard input" : j->in;
  cn_scene_data scene;
  cn_svg_stats st;
  cn_result r;
  if (strcmp(j->in, "-") == 0) {
    char *data = NULL;
    size_t size = 0;
    int rc = read_all(stdin, CN_SVG_DEFAULT_MAX_BYTES, &data, &size);
    if (rc != CLI_OK) return rc;
    r = cn_svg_load_memory(R->b, data, size, &o->svg, &scene, &st);
    free(data);
  } else {
    r = cn_svg_load_file(R->b, j->in, &o->svg, &scene, &st);
  }
  char what[4200];
  if (r != CN_OK) return cli_fail_file("render", name, r);
  cli_report_skipped("render", name, &st);
  double wf = round(st.width), hf = round(st.height);
  uint32_t w = wf < 1 ? 1 : wf > 1e9 ? 1000000000u : (uint32_t)wf;
  uint32_t h = hf < 1 ? 1 : hf > 1e9 ? 1000000000u : (uint32_t)hf;
  if (w > CN_RENDER_MAX_SIZE || h > CN_RENDER_MAX_SIZE)
    return cli_error("render", "%s: output of %ux%u pixels: each side must be at most %u (use -w, -h or -z)", name, w,
                     h, CN_RENDER_MAX_SIZE);
  uint8_t *px = malloc((size_t)w * h * 4);
  if (!px) return cli_error("render", "%s: out of memory for %ux%u pixels", name, w, h);
  cn_render_view view = {.width = w, .height = h, .tolerance = o->tolerance, .aa = o->aa};
  memcpy(view.background, o->bg, sizeof o->bg);
  r = cn_render_scene_to_rgba8(R->ren, &scene, &view, px);
  void *png = NULL;
  size_t size = 0;
  if (r == CN_OK) r = cn_png_encode_rgba8(px, w, h, &png, &size);
  free(px);
  if (r != CN_OK) {
    snprintf(what, sizeof what, "cannot render %s", name);
    return cli_fail("render", what, r);
  }
  int rc = cli_write_file("render", j->out, png, size);
  free(png);
  if (rc == CLI_OK && o->stats) {
    FILE *f = !j->out || strcmp(j->out, "-") == 0 ? stderr : stdout;
    cn_render_stats rs;
    cn_renderer_stats(R->ren, &rs);
    cn_scene_gpu_counts sc;
    cn_scene_gpu_counts_get(cn_renderer_scene_gpu(R->ren), &sc);
    if (o->batch) fprintf(f, "file: %s\n", name);
    fprintf(f,
            "elements: %u\nlines: %u\nbin entries: %llu\ntiles: %u\nsegments: %u\nchunks: %u\nspill: %u\n"
            "fine tiles: %u of %u\nreruns: %u\n",
            scene.element_count, sc.lines, (unsigned long long)sc.bin_entries, rs.used_tiles, rs.used_segs,
            rs.used_chunks, rs.used_spill, rs.fine_tiles, rs.tiles, rs.reruns);
  }
  return rc;
}

int cli_render(int argc, char **argv) {
  render_opts o = {0};
  cli_strings roots = {0}, fonts = {0};
  float dpi = 0, zoom = 0;
  const char *out = NULL, *aa = NULL;
  const float max_size = (float)CN_RENDER_MAX_SIZE;
  const cli_opt opts[] = {
      {.name = "output", .short_name = 'o', .kind = CLI_OPT_STRING, .dst = &out, .metavar = "a file or directory"},
      {.name = "width", .short_name = 'w', .kind = CLI_OPT_FLOAT, .dst = &o.svg.width, .lo = 0, .hi = max_size, .open_lo = true},
      {.name = "height", .short_name = 'h', .kind = CLI_OPT_FLOAT, .dst = &o.svg.height, .lo = 0, .hi = max_size, .open_lo = true},
      {.name = "zoom", .short_name = 'z', .kind = CLI_OPT_FLOAT, .dst = &zoom, .lo = 0, .hi = 1000, .open_lo = true},
      {.name = "scale", .kind = CLI_OPT_FLOAT, .dst = &zoom, .lo = 0, .hi = 1000, .open_lo = true},
      {.name = "dpi", .kind = CLI_OPT_FLOAT, .dst = &dpi, .lo = 1, .hi = 100000},
      {.name = "background", .short_name = 'b', .kind = CLI_OPT_COLOR, .dst = o.bg, .metavar = "a colour"},
      {.name = "tolerance", .kind = CLI_OPT_FLOAT, .dst = &o.tolerance, .lo = 0.001, .hi = 100},
      {.name = "aa", .kind = CLI_OPT_STRING, .dst = &aa, .metavar = "area or ss16"},
      {.name = "stats", .kind = CLI_OPT_FLAG, .dst = &o.stats},
      {.name = "resource-root", .kind = CLI_OPT_STRINGS, .dst = &roots, .metavar = "a directory"},
      {.name = "font-dir", .kind = CLI_OPT_STRINGS, .dst = &fonts, .metavar = "a directory"},
      {0}};
  int nin = 0;
  CLI_PARSE("render", argc, argv, opts, usage, &nin);
  if (cli_parse_aa("render", aa, &o.aa) != CLI_OK) return CLI_USAGE;
  o.svg.scale = (zoom > 0 ? zoom : 1) * (dpi > 0 ? dpi / 96.0f : 1);
  o.svg.resource_roots = roots.v;
  o.svg.resource_root_count = roots.n;
  o.svg.font_dirs = fonts.v;
  o.svg.font_dir_count = fonts.n;
  if (nin == 0) return cli_usage_error("render", "no SVG file given (FILE.svg, DIR, or - for standard input)");

  /* The jobs: files, directories expanded. */
  jobs J = {0};
  int rc = CLI_OK;
  bool any_dir = false, any_stdin = false;
  for (int i = 1; i <= nin && rc == CLI_OK; i++) {
    const char *in = argv[i];
    if (strcmp(in, "-") == 0) any_stdin = true;
    if (strcmp(in, "-") != 0 && is_dir(in)) {
      any_dir = true;
      rc = add_dir(&J, in);
    } else if (!add_job(&J, in)) {
      rc = cli_error("render", "out of memory");
    }
  }
  bool batch = any_dir || nin > 1;
  o.batch = batch;
  if (rc == CLI_OK && batch && any_stdin) rc = cli_usage_error("render", "- (standard input) renders alone, not with other inputs");
  if (rc == CLI_OK && batch) {
    if (!out || strcmp(out, "-") == 0) rc = cli_usage_error("render", "several inputs (or a directory) need -o DIR");
    else if (ends_with_png(out) && !is_dir(out))
      rc = cli_usage_error("render", "several inputs (or a directory) need -o DIR, not the file name %s", out);
    else if (!is_dir(out) && mkdir(out, 0777) != 0)
      rc = cli_error("render", "cannot create the directory %s: %s", out, strerror(errno));
    for (int i = 0; i < J.n && rc == CLI_OK; i++)
      if (!(J.v[i].out = out_in_dir(out, J.v[i].in))) rc = cli_error("render", "out of memory");
  } else if (rc == CLI_OK && J.n == 1) {
    if (!out || strcmp(out, "-") == 0) {
      if (!out && isatty(STDOUT_FILENO))
        rc = cli_usage_error("render", "not writing PNG data to a terminal: give -o OUT.png (or redirect)");
    } else if (is_dir(out)) {
      if (strcmp(J.v[0].in, "-") == 0) rc = cli_usage_error("render", "standard input has no name: give -o OUT.png");
      else if (!(J.v[0].out = out_in_dir(out, J.v[0].in))) rc = cli_error("render", "out of memory");
    } else if (!ends_with_png(out)) {
      rc = cli_usage_error("render", "%s: canopy writes PNG only: name the output FILE.png (or - for standard output)", out);
    } else if (!(J.v[0].out = dup_str(out))) {
      rc = cli_error("render", "out of memory");
    }
  }

  render_ctx R = {0};
  if (rc == CLI_OK && J.n > 0) {
    cn_result r = cn_scene_builder_create(&R.b);
    if (r != CN_OK) rc = cli_fail("render", "cannot create a scene builder", r);
    if (rc == CLI_OK) rc = cli_context("render", &R.ctx);
    if (rc == CLI_OK && (r = cn_renderer_create(R.ctx, NULL, &R.ren)) != CN_OK)
      rc = cli_fail("render", "cannot set up the renderer", r);
  }
  int failed = 0;
  for (int i = 0; i < J.n && rc == CLI_OK; i++) {
    if (render_one(&R, &o, &J.v[i]) != CLI_OK) failed++;
  }
  if (rc == CLI_OK && failed) {
    if (J.n > 1) fprintf(stderr, "canopy render: %d of %d inputs failed\n", failed, J.n);
    rc = CLI_FAIL;
  }
  cn_renderer_destroy(R.ren);
  cn_context_destroy(R.ctx);
  cn_scene_builder_destroy(R.b);
  for (int i = 0; i < J.n; i++) free(J.v[i].in), free(J.v[i].out);
  free(J.v);
  return rc;
}
