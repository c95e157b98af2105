/* bench_render.c: `canopy bench render`: GPU time per stage of whole-scene
 * rendering (flatten, tiling, coarse, fine) for every SVG of a directory of
 * real-world scenes (--scenes, default tests/data/scenes-real) fitted into 3840x2160, and
 * for a synthetic scene of 100 000 paths inside nested clips and blend groups.
 * Scenes: every SVG one folder deep under the --scenes directory.
 * --quick: 480x270 and 10 000 synthetic paths (lavapipe). Buffers are grown
 * by untimed frames first; each timed frame is one submission; per-stage
 * medians over --runs frames.
 * CANOPY_RENDER_SHAPE=backdrop_grid,tile_seg_lines[,fine_max_groups] sets
 * those cn_renderer_desc fields (0: the default choice), for comparing
 * shapes; the pictures do not change. CANOPY_RENDER_FINE_RUNS=shuffle|loads fixes fine's
 * loop over a FILL's pieces (cn_renderer_desc.fine_runs; default: chosen per
 * frame), CANOPY_RENDER_FINE_SPLIT=on|off whether fine draws the very long
 * lists apart (cn_renderer_desc.fine_split; default: chosen per frame),
 * CANOPY_RENDER_COARSE_SPLIT=on|off whether coarse splits long blocks' walks
 * between two or four invocations a tile (cn_renderer_desc.coarse_split;
 * default: chosen per frame). */
#include "bench.h"
#include <canopy/cn_render.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BR_MAX_SPANS 32
#define BR_MAX_FILES 256

typedef struct br_result {
  uint32_t nspans;
  const char *labels[BR_MAX_SPANS];
  double median_ns[BR_MAX_SPANS];
  double total_ns;
  cn_render_stats stats;
} br_result;

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Renders scene at w x h: grows buffers, then times o->runs frames. */
static cn_result br_time_scene(cn_context *ctx, const bench_opts *o, const cn_scene_data *scene, uint32_t w,
                               uint32_t h, br_result *res) {
  memset(res, 0, sizeof *res);
  cn_renderer *r = NULL;
  cn_renderer_desc desc = {.timing = true};
  const char *shape = getenv("CANOPY_RENDER_SHAPE");
  unsigned grid = 0, seg = 0, fine = 0;
  if (shape && sscanf(shape, "%u,%u,%u", &grid, &seg, &fine) >= 2)
    desc.backdrop_grid = grid, desc.tile_seg_lines = seg, desc.fine_max_groups = fine;
  const char *loop = getenv("CANOPY_RENDER_FINE_RUNS"); /* shuffle | loads (default: chosen per frame) */
  if (loop && strcmp(loop, "shuffle") == 0) desc.fine_runs = CN_RENDER_FINE_RUNS_SHUFFLE;
  if (loop && strcmp(loop, "loads") == 0) desc.fine_runs = CN_RENDER_FINE_RUNS_LOADS;
  const char *split = getenv("CANOPY_RENDER_FINE_SPLIT"); /* on | off (default: chosen per frame) */
  if (split && strcmp(split, "on") == 0) desc.fine_split = CN_RENDER_FINE_SPLIT_ON;
  if (split && strcmp(split, "off") == 0) desc.fine_split = CN_RENDER_FINE_SPLIT_OFF;
  const char *csplit = getenv("CANOPY_RENDER_COARSE_SPLIT"); /* on | off (default: chosen per frame) */
  if (csplit && strcmp(csplit, "on") == 0) desc.coarse_split = CN_RENDER_COARSE_SPLIT_ON;
  if (csplit && strcmp(csplit, "off") == 0) desc.coarse_split = CN_RENDER_COARSE_SPLIT_OFF;
  cn_result st = cn_renderer_create(ctx, &desc, &r);
  if (st != CN_OK) return st;
  st = cn_renderer_set_scene(r, scene);
  cn_render_view view = {.width = w, .height = h, .background = {1, 1, 1, 1}, .aa = o->aa};
  int runs = o->runs > 0 ? o->runs : 10, warm = o->warmup > 0 ? o->warmup : 3;
  double *samples = calloc((size_t)runs * BR_MAX_SPANS, sizeof *samples);
  if (!samples) st = CN_ERROR_OUT_OF_MEMORY;
  /* Untimed frames: at least warm of them and o->warm_ms worth (each frame
   * its own submission: the clocks, down after the CPU's work, come up only
   * under a sustained load), at most 100 000. */
  double t0 = bench_now();
  for (int i = 0; st == CN_OK && i < warm + runs + 16; i++) {
    if (i == warm - 1 && warm < 100000 && bench_now() - t0 < o->warm_ms * 1e-3) warm++;
    VkCommandBuffer cmd;
    st = cn_cmd_begin(ctx, &cmd);
    if (st != CN_OK) break;
    cn_result rec = cn_renderer_record_scene(r, cmd, &view);
    st = cn_cmd_submit(ctx, cmd);
    if (rec != CN_OK) st = rec;
    bool again = false;
    if (st == CN_OK) st = cn_renderer_frame_done(r, &again);
    if (st != CN_OK || again) continue; /* untimed: buffers grew */
    int k = i - warm;
    if (k < 0) continue;
    double ns[BR_MAX_SPANS];
    uint32_t n = 0;
    st = cn_renderer_stage_times(r, &n, res->labels, ns, BR_MAX_SPANS);
    if (st != CN_OK) break;
    res->nspans = n;
    int slot = (int)res->stats.reruns; /* timed frames so far */
    for (uint32_t s = 0; s < n; s++) samples[(size_t)s * runs + slot] = ns[s];
    res->stats.reruns++;
    if ((int)res->stats.reruns == runs) break;
  }
  if (st == CN_OK && (int)res->stats.reruns < runs) st = CN_ERROR_STATE; /* frames kept re-running */
  if (st == CN_OK) {
    for (uint32_t s = 0; s < res->nspans; s++) {
      double *v = samples + (size_t)s * runs;
      qsort(v, (size_t)runs, sizeof *v, cmp_double);
      res->median_ns[s] = runs % 2 ? v[runs / 2] : 0.5 * (v[runs / 2 - 1] + v[runs / 2]);
      res->total_ns += res->median_ns[s];
    }
    uint32_t timed = res->stats.reruns;
    cn_renderer_stats(r, &res->stats);
    res->stats.reruns = timed;
  }
  free(samples);
  cn_renderer_destroy(r);
  return st;
}

static void br_print_header(bench_report *rep, const br_result *res) {
  bench_printf(rep, "| scene | elements | lines | ");
  for (uint32_t s = 0; s < res->nspans; s++) bench_printf(rep, "%s | ", res->labels[s]);
  bench_printf(rep, "total ms |\n|---|---:|---:|");
  for (uint32_t s = 0; s <= res->nspans; s++) bench_printf(rep, "---:|");
  bench_printf(rep, "\n");
}

/* Whether two rows time the same stages (small scenes run the scene stage's
 * single-workgroup path: other stages than large ones). */
static bool br_same_spans(const br_result *a, const br_result *b) {
  if (a->nspans != b->nspans) return false;
  for (uint32_t s = 0; s < a->nspans; s++)
    if (strcmp(a->labels[s], b->labels[s]) != 0) return false;
  return true;
}

static void br_print_row(bench_report *rep, const char *name, uint32_t elements, const br_result *res) {
  bench_printf(rep, "| %s | %u | %u | ", name, elements, res->stats.lines);
  for (uint32_t s = 0; s < res->nspans; s++) bench_printf(rep, "%.3f | ", res->median_ns[s] * 1e-6);
  bench_printf(rep, "**%.3f** |\n", res->total_ns * 1e-6);
}

/* The same row in multiples of the dispatch floor. */
static void br_print_floors(bench_report *rep, const char *name, uint32_t elements, const br_result *res,
                            double floor_ns) {
  bench_printf(rep, "| %s | %u | %u | ", name, elements, res->stats.lines);
  for (uint32_t s = 0; s < res->nspans; s++) bench_printf(rep, "%.1f | ", res->median_ns[s] / floor_ns);
  bench_printf(rep, "**%.1f** |\n", res->total_ns / floor_ns);
}

#define BR_MAX_ROWS 64
typedef struct br_row {
  char name[96];
  uint32_t elements;
  br_result res;
} br_row;

/* ------------------------------------------------------------ synthetic */

typedef struct br_synth {
  cn_element *elements;
  cn_path *paths;
  cn_segment *segments;
  cn_transform transforms[1];
  cn_paint *paints;
  cn_blend *blends;
  uint32_t ne, np, ns, npaint, nblend;
} br_synth;

static uint64_t br_rng = 0x9E3779B97F4A7C15ull;
static double br_rand(void) {
  br_rng ^= br_rng << 13;
  br_rng ^= br_rng >> 7;
  br_rng ^= br_rng << 17;
  return (double)(br_rng >> 11) / 9007199254740992.0;
}

static uint32_t br_circle(br_synth *s, float cx, float cy, float r) {
  const float k = 0.5522847f * r;
  float pts[4][8] = {{cx + r, cy, cx + r, cy + k, cx + k, cy + r, cx, cy + r},
                     {cx, cy + r, cx - k, cy + r, cx - r, cy + k, cx - r, cy},
                     {cx - r, cy, cx - r, cy - k, cx - k, cy - r, cx, cy - r},
                     {cx, cy - r, cx + k, cy - r, cx + r, cy - k, cx + r, cy}};
  uint32_t p = s->np++;
  s->paths[p] = (cn_path){.seg_first = s->ns, .seg_count = 4, .transform = 0};
  for (int i = 0; i < 4; i++) {
    cn_segment g = {0};
    memcpy(&g.x0, pts[i], sizeof pts[i]);
    g.info = CN_SEG_CUBIC | (p << CN_SEG_PATH_SHIFT) | (i == 3 ? CN_SEG_SUBPATH_END | CN_SEG_SUBPATH_CLOSED : 0);
    s->segments[s->ns++] = g;
  }
  return p;
}

/* n paths (circles) in groups: every 1000 paths a clip (a circle) holding two
 * levels of blend groups (varied modes, opacity 0.8) of 100 paths each. */
static cn_result br_synth_make(br_synth *s, uint32_t n, float w, float h) {
  memset(s, 0, sizeof *s);
  uint32_t groups = n / 100 + 16, cap_e = n + 4 * groups + 16;
  s->elements = calloc(cap_e, sizeof *s->elements);
  s->paths = calloc(n + groups, sizeof *s->paths);
  s->segments = calloc(4 * ((size_t)n + groups), sizeof *s->segments);
  s->paints = calloc(n, sizeof *s->paints);
  s->blends = calloc(2 * (size_t)groups, sizeof *s->blends); /* inner groups + outer groups */
  if (!s->elements || !s->paths || !s->segments || !s->paints || !s->blends)
    return CN_ERROR_OUT_OF_MEMORY;
  s->transforms[0] = (cn_transform){1, 0, 0, 1, 0, 0};
  float scale = sqrtf(w * h / 8.3e6f);
  bool clip_open = false, outer_open = false, inner_open = false;
  for (uint32_t i = 0; i < n; i++) {
    if (i % 1000 == 0) {
      if (inner_open) s->elements[s->ne++] = (cn_element){CN_TAG_END_BLEND, CN_NONE, CN_NONE, CN_NONE};
      if (outer_open) s->elements[s->ne++] = (cn_element){CN_TAG_END_BLEND, CN_NONE, CN_NONE, CN_NONE};
      if (clip_open) s->elements[s->ne++] = (cn_element){CN_TAG_END_CLIP, CN_NONE, CN_NONE, CN_NONE};
      inner_open = outer_open = false;
      uint32_t cp = br_circle(s, (float)(br_rand() * w), (float)(br_rand() * h), (float)(300 + br_rand() * 900) * scale);
      s->elements[s->ne++] = (cn_element){CN_TAG_BEGIN_CLIP, cp, CN_NONE, CN_RULE_NONZERO};
      clip_open = true;
    }
    if (i % 100 == 0) {
      if (inner_open) s->elements[s->ne++] = (cn_element){CN_TAG_END_BLEND, CN_NONE, CN_NONE, CN_NONE};
      if (!outer_open || i % 500 == 0) {
        if (outer_open) s->elements[s->ne++] = (cn_element){CN_TAG_END_BLEND, CN_NONE, CN_NONE, CN_NONE};
        s->blends[s->nblend] = (cn_blend){CN_BLEND_NORMAL, 0.8f, CN_BLEND_ISOLATED, 0};
        s->elements[s->ne++] = (cn_element){CN_TAG_BEGIN_BLEND, CN_NONE, CN_NONE, s->nblend++};
        outer_open = true;
      }
      s->blends[s->nblend] = (cn_blend){(i / 100) % CN_BLEND_MODE_COUNT, 0.8f, 0, 0};
      s->elements[s->ne++] = (cn_element){CN_TAG_BEGIN_BLEND, CN_NONE, CN_NONE, s->nblend++};
      inner_open = true;
    }
    uint32_t p = br_circle(s, (float)(br_rand() * w), (float)(br_rand() * h), (float)(4 + br_rand() * 60) * scale);
    s->paints[s->npaint] = (cn_paint){.kind = CN_PAINT_SOLID, .r = (float)br_rand(), .g = (float)br_rand(),
                                      .b = (float)br_rand(), .a = (float)(0.5 + 0.5 * br_rand()), .opacity = 1};
    s->elements[s->ne++] = (cn_element){CN_TAG_FILL, p, s->npaint++, CN_RULE_NONZERO};
  }
  if (inner_open) s->elements[s->ne++] = (cn_element){CN_TAG_END_BLEND, CN_NONE, CN_NONE, CN_NONE};
  if (outer_open) s->elements[s->ne++] = (cn_element){CN_TAG_END_BLEND, CN_NONE, CN_NONE, CN_NONE};
  if (clip_open) s->elements[s->ne++] = (cn_element){CN_TAG_END_CLIP, CN_NONE, CN_NONE, CN_NONE};
  return CN_OK;
}

static void br_synth_free(br_synth *s) {
  free(s->elements);
  free(s->paths);
  free(s->segments);
  free(s->paints);
  free(s->blends);
}

/* ---------------------------------------------------------------- target */

static int br_cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int bench_render(cn_context *ctx, const bench_opts *o, bench_report *rep) {
  uint32_t w = o->quick ? 480 : 3840, h = o->quick ? 270 : 2160;
  uint32_t synth_n = o->quick ? 10000 : 100000;
  const char *root = o->scenes; /* checked by cmd_bench.c */
  bench_printf(rep, "target %ux%u, white background, default tolerance, anti-aliasing %s; scenes from %s\n", w, h,
               o->aa == CN_AA_SS16 ? "ss16" : "area", root);
  bench_printf(rep, "render frames: each its own submission (the renderer's timer holds one frame's marks), the\n"
                    "untimed ones first; a frame's passes are timed back to back\n\n");

  /* the SVG files, two directory levels deep, sorted */
  char *files[BR_MAX_FILES];
  int nfiles = 0;
  DIR *d = opendir(root);
  if (d) {
    struct dirent *de;
    while ((de = readdir(d)) && nfiles < BR_MAX_FILES) {
      if (de->d_name[0] == '.') continue;
      char sub[2048];
      snprintf(sub, sizeof sub, "%s/%s", root, de->d_name);
      DIR *d2 = opendir(sub);
      if (!d2) continue;
      struct dirent *f;
      while ((f = readdir(d2)) && nfiles < BR_MAX_FILES) {
        size_t len = strlen(f->d_name);
        if (len < 5 || strcmp(f->d_name + len - 4, ".svg") != 0) continue;
        char *p = malloc(strlen(sub) + len + 2);
        if (!p) break;
        sprintf(p, "%s/%s", sub, f->d_name);
        files[nfiles++] = p;
      }
      closedir(d2);
    }
    closedir(d);
  } else {
    fprintf(stderr, "canopy bench render: cannot read %s\n", root);
    return CLI_FAIL;
  }
  qsort(files, (size_t)nfiles, sizeof *files, br_cmp_str);

  int rc = CLI_OK;
  bool header = false;
  br_result last; /* the stages of the last header */
  br_row *rows = calloc(BR_MAX_ROWS, sizeof *rows);
  int nrows = 0;
  if (!rows) return cli_fail("bench", "out of host memory", CN_ERROR_OUT_OF_MEMORY);
  cn_scene_builder *b = NULL;
  cn_result st = cn_scene_builder_create(&b);
  for (int i = 0; i < nfiles && st == CN_OK; i++) {
    cn_svg_options opt = {.width = (float)w, .height = (float)h};
    cn_scene_data scene;
    cn_result lr = cn_svg_load_file(b, files[i], &opt, &scene, NULL);
    const char *name = strrchr(files[i], '/') ? strrchr(files[i], '/') + 1 : files[i];
    cli_progress("bench render", i + 1, nfiles + 1, "%s", name);
    if (lr != CN_OK) {
      bench_printf(rep, "| %s | load failed: %s |\n", name, cn_last_error());
      continue;
    }
    br_result res;
    cn_result tr = br_time_scene(ctx, o, &scene, w, h, &res);
    if (tr != CN_OK) {
      bench_printf(rep, "| %s | render failed: %s |\n", name, cn_last_error());
      rc = CLI_FAIL;
      continue;
    }
    if (!header || !br_same_spans(&last, &res)) br_print_header(rep, &res), header = true, last = res;
    br_print_row(rep, name, scene.element_count, &res);
    if (nrows < BR_MAX_ROWS) {
      snprintf(rows[nrows].name, sizeof rows[nrows].name, "%s", name);
      rows[nrows].elements = scene.element_count;
      rows[nrows++].res = res;
    }
  }
  cn_scene_builder_destroy(b);
  for (int i = 0; i < nfiles; i++) free(files[i]);

  br_synth s;
  cli_progress("bench render", nfiles + 1, nfiles + 1, "synthetic %u paths", synth_n);
  st = br_synth_make(&s, synth_n, (float)w, (float)h);
  if (st == CN_OK) {
    cn_scene_data scene = {.viewport = {0, 0, (float)w, (float)h},
                           .elements = s.elements, .element_count = s.ne,
                           .paths = s.paths, .path_count = s.np,
                           .segments = s.segments, .segment_count = s.ns,
                           .transforms = s.transforms, .transform_count = 1,
                           .paints = s.paints, .paint_count = s.npaint,
                           .blends = s.blends, .blend_count = s.nblend};
    br_result res;
    st = br_time_scene(ctx, o, &scene, w, h, &res);
    if (st == CN_OK) {
      if (!header || !br_same_spans(&last, &res)) br_print_header(rep, &res), header = true, last = res;
      char name[96];
      snprintf(name, sizeof name, "synthetic %u paths, clips + blend groups", synth_n);
      br_print_row(rep, name, s.ne, &res);
      if (nrows < BR_MAX_ROWS) {
        snprintf(rows[nrows].name, sizeof rows[nrows].name, "%s", name);
        rows[nrows].elements = s.ne;
        rows[nrows++].res = res;
      }
    }
  }
  br_synth_free(&s);
  /* every stage as a multiple of the dispatch floor, measured in this run */
  double floor_ns = 0;
  if (nrows && bench_floor(ctx, o, &floor_ns) == CN_OK && floor_ns > 0) {
    bench_printf(rep, "\ndispatch floor (an empty dispatch and a barrier, median): %.2f us; the stages above in "
                      "multiples of it:\n\n", floor_ns * 1e-3);
    for (int i = 0; i < nrows; i++) {
      if (i == 0 || !br_same_spans(&rows[i - 1].res, &rows[i].res)) br_print_header(rep, &rows[i].res);
      br_print_floors(rep, rows[i].name, rows[i].elements, &rows[i].res, floor_ns);
    }
  }
  free(rows);
  if (st != CN_OK) {
    fprintf(stderr, "canopy bench render: %s: %s\n", cn_result_name(st), cn_last_error());
    rc = CLI_FAIL;
  }
  return rc;
}
