/* bench_flatten.c: `canopy bench flatten`: the flatten stage on synthetic
 * scenes (closed curved paths, some stroked, some dashed, two zooms) and on
 * the real scenes of --scenes (tests/data/scenes-real) at 3840x2160: GPU time per pass
 * (timestamps, median of runs after warm-up), lines made, the CPU reference's
 * time on the same scene. */
#include "bench.h"
#include <canopy/cn_flatten.h>
#include <canopy/cn_scene_gpu.h>
#include <canopy/cn_scene_api.h>
#include <canopy/cn_svg.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


typedef struct synth {
  cn_element *elements;
  cn_path *paths;
  cn_segment *segments;
  cn_transform *transforms;
  cn_stroke *strokes;
  float *dashes;
  uint32_t ne, ns, nst;
} synth;

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static float flat_frand(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (float)(rng >> 40) / (float)(1u << 24);
}

/* paths closed shapes of segs curves each, spread over w x h; a fraction of
 * them stroked (some dashed). Returns false when out of memory. */
static bool flat_synth_build(synth *s, uint32_t paths, uint32_t segs, float w, float h, float stroke_frac) {
  memset(s, 0, sizeof *s);
  s->elements = calloc(paths, sizeof *s->elements);
  s->paths = calloc(paths, sizeof *s->paths);
  s->segments = calloc((size_t)paths * segs, sizeof *s->segments);
  s->transforms = calloc(1, sizeof *s->transforms);
  s->strokes = calloc(paths, sizeof *s->strokes);
  s->dashes = calloc(2, sizeof *s->dashes);
  if (!s->elements || !s->paths || !s->segments || !s->transforms || !s->strokes || !s->dashes) return false;
  s->transforms[0] = (cn_transform){1, 0, 0, 1, 0, 0};
  s->dashes[0] = 6;
  s->dashes[1] = 3;
  for (uint32_t p = 0; p < paths; p++) {
    float cx = flat_frand() * w, cy = flat_frand() * h, r = 8 + flat_frand() * 60;
    s->paths[p] = (cn_path){s->ns, segs, 0, 0};
    float px = cx + r, py = cy;
    for (uint32_t k = 0; k < segs; k++) {
      float a1 = 6.2831853f * (float)(k + 1) / (float)segs;
      float ex = k + 1 == segs ? cx + r : cx + r * cosf(a1), ey = k + 1 == segs ? cy : cy + r * sinf(a1);
      cn_segment *g = &s->segments[s->ns++];
      memset(g, 0, sizeof *g);
      g->x0 = px;
      g->y0 = py;
      uint32_t kind = k % 3 == 0 ? CN_SEG_LINE : k % 3 == 1 ? CN_SEG_QUAD : CN_SEG_CUBIC;
      float jx = (flat_frand() - 0.5f) * r, jy = (flat_frand() - 0.5f) * r;
      if (kind == CN_SEG_LINE) {
        g->x1 = ex, g->y1 = ey;
      } else if (kind == CN_SEG_QUAD) {
        g->x1 = 0.5f * (px + ex) + jx, g->y1 = 0.5f * (py + ey) + jy, g->x2 = ex, g->y2 = ey;
      } else {
        g->x1 = px + jx, g->y1 = py + jy, g->x2 = ex - jy, g->y2 = ey + jx, g->x3 = ex, g->y3 = ey;
      }
      g->info = kind | CN_SEG_SUBPATH_CLOSED | (p << CN_SEG_PATH_SHIFT) | (k + 1 == segs ? CN_SEG_SUBPATH_END : 0);
      px = ex;
      py = ey;
    }
    float u = flat_frand();
    if (u < stroke_frac) {
      bool dashed = u < stroke_frac * 0.2f;
      s->strokes[s->nst] = (cn_stroke){1 + flat_frand() * 6, 4, (uint32_t)(flat_frand() * 4) % 4, (uint32_t)(flat_frand() * 3) % 3,
                                       0, dashed ? 2 : 0, 0, 0};
      s->elements[s->ne++] = (cn_element){CN_TAG_STROKE, p, 0, s->nst++};
    } else {
      s->elements[s->ne++] = (cn_element){CN_TAG_FILL, p, 0, CN_RULE_NONZERO};
    }
  }
  return true;
}

static void flat_synth_free(synth *s) {
  free(s->elements);
  free(s->paths);
  free(s->segments);
  free(s->transforms);
  free(s->strokes);
  free(s->dashes);
}


#define BENCH_SPANS 4

typedef struct flat_result {
  double span_ms[BENCH_SPANS + 1]; /* setup, count, scan, write, total */
  uint32_t lines;
  double cpu_ms;
  uint32_t cpu_lines;
} flat_result;

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Uploads d, runs the stage until its buffers hold a frame (each run its own
 * submission, so an overflow can grow them) and times one more, then records
 * untimed frames worth o->warm_ms (bench_warm_runs) and o->runs timed
 * ones in one command buffer, as bench_gpu_median does for the other
 * targets: the frames are short and the CPU reference runs between scenes,
 * so without that the GPU's clocks are down (small scenes' passes took 3 to
 * 4 times as long, docs/PERF.md). The medians per pass. */
static cn_result flat_bench_scene(cn_context *ctx, const bench_opts *o, const cn_scene_data *d, const cn_flatten_desc *desc,
                             bool cpu, flat_result *res) {
  memset(res, 0, sizeof *res);
  enum { MAX_FRAMES = 200 };
  int runs = o->runs < 1 ? 1 : o->runs > MAX_FRAMES ? MAX_FRAMES : o->runs;
  cn_scene_gpu *g = NULL;
  cn_timer *timer = NULL;
  cn_scene_gpu_desc gd = {.initial = {.lines = desc ? desc->initial_line_capacity : 0}};
  cn_result r = cn_scene_gpu_create(ctx, &gd, &g);
  /* per timed frame: "start" and at most the four pass marks */
  if (r == CN_OK) r = cn_timer_create(ctx, (uint32_t)runs * (BENCH_SPANS + 1) + 1, &timer);
  if (r == CN_OK) r = cn_scene_gpu_set_scene(g, d);
  /* the flatten stage alone (no scene stage, no culling) */
  cn_scene_frame frame = {.flatten = true, .tolerance = desc ? desc->tolerance : 0};
  if (desc) memcpy(frame.transform, desc->view, sizeof frame.transform);
  enum { CAP = MAX_FRAMES * (BENCH_SPANS + 1) + 1 };
  static double ns[CAP];
  static const char *names[CAP];
  static double spans[BENCH_SPANS + 1][MAX_FRAMES];
  uint32_t n = 0;
  /* untimed: a frame that fits (every count is exact: one growth), then one
   * more, timed alone to size the warm-up */
  if (r == CN_OK) r = cn_scene_gpu_run(g, &frame, NULL); /* grows what the frame needs, runs it again */
  frame.timer = timer;
  VkCommandBuffer cb = VK_NULL_HANDLE;
  if (r == CN_OK) r = cn_cmd_begin(ctx, &cb);
  if (r == CN_OK) {
    cn_timer_reset(ctx, timer, cb);
    cn_timer_mark(ctx, timer, cb, "start");
    r = cn_scene_gpu_record(g, cb, &frame);
    cn_result sr = cn_cmd_submit(ctx, cb);
    if (r == CN_OK) r = sr;
  }
  double est = 0;
  if (r == CN_OK) r = cn_timer_read(ctx, timer, &n, names, ns, CAP);
  for (uint32_t i = 0; r == CN_OK && i < n; i++) est += ns[i];
  int warm = (int)bench_warm_runs(o, est);
  bool again = false;
  if (r == CN_OK) r = cn_scene_gpu_frame_done(g, &again);
  if (r == CN_OK) r = cn_cmd_begin(ctx, &cb);
  if (r == CN_OK) {
    frame.timer = NULL;
    for (int f = 0; f < warm && r == CN_OK; f++) {
      cn_cmd_barrier(ctx, cb);
      r = cn_scene_gpu_record(g, cb, &frame);
    }
    frame.timer = timer;
    cn_cmd_barrier(ctx, cb);
    cn_timer_reset(ctx, timer, cb);
    for (int f = 0; f < runs && r == CN_OK; f++) {
      cn_cmd_barrier(ctx, cb);
      cn_timer_mark(ctx, timer, cb, "start");
      r = cn_scene_gpu_record(g, cb, &frame);
    }
    cn_result sr = cn_cmd_submit(ctx, cb);
    if (r == CN_OK) r = sr;
  }
  if (r == CN_OK) r = cn_scene_gpu_frame_done(g, &again);
  if (r == CN_OK && again) r = cn_error_set(CN_ERROR_STATE, "bench flatten: a timed frame outgrew its buffers");
  cn_scene_gpu_counts counts;
  cn_scene_gpu_counts_get(g, &counts);
  res->lines = counts.lines;
  if (r == CN_OK) r = cn_timer_read(ctx, timer, &n, names, ns, CAP);
  /* each span in its column by its label: scenes whose write pass numbers
   * the lines itself run no scan (its column stays 0) */
  static const char *const columns[BENCH_SPANS] = {"flatten: setup", "flatten: count", "flatten: scan", "flatten: write"};
  int f = -1;
  for (uint32_t i = 0; r == CN_OK && i < n; i++) {
    if (names[i] && strcmp(names[i], "start") == 0) {
      if (++f < runs)
        for (uint32_t c = 0; c <= BENCH_SPANS; c++) spans[c][f] = 0;
      continue;
    }
    if (f < 0 || f >= runs) continue;
    for (uint32_t c = 0; c < BENCH_SPANS; c++)
      if (names[i] && strcmp(names[i], columns[c]) == 0) {
        spans[c][f] += ns[i] * 1e-6;
        spans[BENCH_SPANS][f] += ns[i] * 1e-6;
      }
  }
  int measured = f + 1 < runs ? f + 1 : runs;
  for (int i = 0; i <= BENCH_SPANS && measured; i++) {
    qsort(spans[i], (size_t)measured, sizeof(double), cmp_double);
    res->span_ms[i] = spans[i][measured / 2];
  }
  if (r == CN_OK && cpu) {
    cn_line *l = NULL;
    uint32_t cpu_lines = 0;
    double t0 = bench_now();
    r = cn_flatten_cpu(d, desc, &l, &cpu_lines, NULL);
    res->cpu_ms = (bench_now() - t0) * 1e3;
    res->cpu_lines = cpu_lines;
    free(l);
  }
  cn_timer_destroy(ctx, timer);
  cn_scene_gpu_destroy(g);
  return r;
}

static void flat_print_row(bench_report *rep, const char *name, const cn_scene_data *d, const flat_result *f) {
  uint32_t strokes = 0;
  for (uint32_t e = 0; e < d->element_count; e++) strokes += d->elements[e].tag == CN_TAG_STROKE;
  char note[48] = "";
  if (f->cpu_lines != f->lines) snprintf(note, sizeof note, " (%u lines)", f->cpu_lines);
  bench_printf(rep, "| %-34s | %7u | %7u | %6u | %9u | %7.3f | %7.3f | %7.3f | %7.3f | **%7.3f** | %8.1f%s |\n", name,
               d->element_count, d->segment_count, strokes, f->lines, f->span_ms[0], f->span_ms[1], f->span_ms[2],
               f->span_ms[3], f->span_ms[4], f->cpu_ms, note);
}

static const char *const real_scenes[] = {
    "pathfinder/pathfinder_logo.svg", "pathfinder/material_design_icons.svg", "flag-icons/ni.svg",
    "flag-icons/rs.svg",           "flag-icons/sh-ac.svg",            "batik/anne.svg",
    "batik/batik3D.svg",           "batik/mapWaadt.svg",              "batik/batikLogo.svg",
    "inkscape/inkscape-about.svg",
};

int bench_flatten(cn_context *ctx, const bench_opts *o, bench_report *rep) {
  bench_printf(rep, "flatten: lines in device pixels at tolerance 0.25 px; times in ms (GPU: median per pass)\n\n");
  bench_printf(rep, "| scene | elements | segments | strokes | lines | setup | count | scan | write | total | CPU ref |\n");
  bench_printf(rep, "|---|---|---|---|---|---|---|---|---|---|---|\n");
  int rc = CLI_OK;
  const uint32_t sizes[3] = {1000, 10000, 100000};
  for (int k = 0; k < (o->quick ? 1 : 3) && rc == CLI_OK; k++) {
    for (int v = 0; v < 3 && rc == CLI_OK; v++) {
      float frac = v == 0 ? 0 : 0.3f, scale = v == 2 ? 4 : 1;
      cli_progress("bench flatten", k * 3 + v + 1, (o->quick ? 1 : 3) * 3, "synthetic %u", sizes[k]);
      synth s;
      if (!flat_synth_build(&s, sizes[k], 12, 3840 / scale, 2160 / scale, frac)) {
        flat_synth_free(&s);
        fprintf(stderr, "canopy bench flatten: out of host memory\n");
        return CLI_FAIL;
      }
      static const cn_paint paint = {.kind = CN_PAINT_SOLID, .r = 0, .g = 0, .b = 0, .a = 1}; /* the elements' paint 0 */
      cn_scene_data d = {{0, 0, 3840, 2160}, s.elements, s.ne, s.paths, sizes[k], s.segments, s.ns, s.transforms, 1,
                         &paint, 1, NULL, 0, s.strokes, s.nst, s.dashes, 2, NULL, 0, NULL, 0, NULL, 0};
      cn_flatten_desc desc = {.view = {scale, 0, 0, scale, 0, 0}};
      flat_result f;
      cn_result r = flat_bench_scene(ctx, o, &d, &desc, sizes[k] <= 10000 || !o->quick, &f);
      if (r != CN_OK) rc = cli_fail("bench", "flatten", r);
      else {
        char name[96];
        snprintf(name, sizeof name, "synthetic %u x 12, %s, zoom %g", sizes[k], frac > 0 ? "30% strokes" : "fills",
                 scale);
        flat_print_row(rep, name, &d, &f);
      }
      flat_synth_free(&s);
    }
  }
  for (size_t i = 0; i < sizeof real_scenes / sizeof real_scenes[0] && rc == CLI_OK; i++) {
    char path[4200];
    snprintf(path, sizeof path, "%.4000s/%s", o->scenes, real_scenes[i]);
    cli_progress("bench flatten", (int)i + 1, (int)(sizeof real_scenes / sizeof real_scenes[0]), "%s", real_scenes[i]);
    cn_scene_builder *b = NULL;
    cn_scene_data d;
    cn_svg_stats st;
    cn_result r = cn_scene_builder_create(&b);
    if (r == CN_OK) r = cn_svg_load_file(b, path, NULL, &d, &st);
    if (r != CN_OK) {
      bench_printf(rep, "| %s | (cannot load: %s) |\n", real_scenes[i], cn_last_error());
      cn_scene_builder_destroy(b);
      continue;
    }
    /* fit into 3840 x 2160 */
    float w = d.viewport[2] - d.viewport[0], h = d.viewport[3] - d.viewport[1];
    float sc = w > 0 && h > 0 ? fminf(3840 / w, 2160 / h) : 1;
    cn_flatten_desc desc = {.view = {sc, 0, 0, sc, -d.viewport[0] * sc, -d.viewport[1] * sc}};
    flat_result f;
    r = flat_bench_scene(ctx, o, &d, &desc, true, &f);
    if (r != CN_OK) rc = cli_fail("bench", "flatten", r);
    else flat_print_row(rep, real_scenes[i], &d, &f);
    cn_scene_builder_destroy(b);
  }
  return rc;
}
