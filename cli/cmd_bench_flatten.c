/* cmd_bench_flatten.c: `canopy bench-flatten`: times the flatten stage on a
 * synthetic scene (GPU timestamps per pass, median of several runs) and the
 * CPU reference on the same scene. */
#include "cli.h"
#include "cn_flatten.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
static float frand(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (float)(rng >> 40) / (float)(1u << 24);
}

/* paths closed shapes of segs curves each, spread over w x h; a fraction of
 * them stroked (some dashed). Returns false when out of memory. */
static bool synth_build(synth *s, uint32_t paths, uint32_t segs, float w, float h, float stroke_frac) {
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
    float cx = frand() * w, cy = frand() * h, r = 8 + frand() * 60;
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
      float jx = (frand() - 0.5f) * r, jy = (frand() - 0.5f) * r;
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
    float u = frand();
    if (u < stroke_frac) {
      bool dashed = u < stroke_frac * 0.2f;
      s->strokes[s->nst] = (cn_stroke){1 + frand() * 6, 4, (uint32_t)(frand() * 4) % 4, (uint32_t)(frand() * 3) % 3,
                                       0, dashed ? 2 : 0, 0, 0};
      s->elements[s->ne++] = (cn_element){CN_TAG_STROKE, p, 0, s->nst++};
    } else {
      s->elements[s->ne++] = (cn_element){CN_TAG_FILL, p, 0, CN_RULE_NONZERO};
    }
  }
  return true;
}

static void synth_free(synth *s) {
  free(s->elements);
  free(s->paths);
  free(s->segments);
  free(s->transforms);
  free(s->strokes);
  free(s->dashes);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

#define BENCH_SPANS 4

static int bench_one(cn_context *ctx, uint32_t paths, uint32_t segs, float stroke_frac, float scale, int runs,
                     bool cpu) {
  const char *cmd = "bench-flatten";
  synth s;
  if (!synth_build(&s, paths, segs, 3840 / scale, 2160 / scale, stroke_frac)) {
    synth_free(&s);
    fprintf(stderr, "canopy %s: out of host memory\n", cmd);
    return CLI_FAIL;
  }
  cn_scene_data d = {{0, 0, 3840, 2160}, s.elements, s.ne, s.paths, paths, s.segments, s.ns, s.transforms, 1,
                     NULL, 0, NULL, 0, s.strokes, s.nst, s.dashes, 2, NULL, 0};
  cn_flatten_desc desc = {.view = {scale, 0, 0, scale, 0, 0}};
  int rc = CLI_OK;
  cn_flatten *fl = NULL;
  cn_timer *timer = NULL;
  cn_buffer buf = {0};
  cn_result r = cn_flatten_create(ctx, &fl);
  if (r == CN_OK) r = cn_timer_create(ctx, 16, &timer);
  /* upload: elements, paths, segments, transforms, strokes, dashes */
  size_t bytes[6] = {s.ne * sizeof(cn_element), paths * sizeof(cn_path), s.ns * sizeof(cn_segment),
                     sizeof(cn_transform), (s.nst ? s.nst : 1) * sizeof(cn_stroke), 2 * sizeof(float)};
  const void *src[6] = {s.elements, s.paths, s.segments, s.transforms, s.strokes, s.dashes};
  size_t off[6], total = 0;
  for (int i = 0; i < 6; i++) {
    off[i] = total;
    total += (bytes[i] + 255) & ~(size_t)255;
  }
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, total, &buf);
  for (int i = 0; i < 6 && r == CN_OK; i++) r = cn_buffer_upload(ctx, &buf, off[i], src[i], bytes[i]);
  cn_flatten_scene_gpu gpu = {buf.address + off[0], buf.address + off[1], buf.address + off[2],
                              buf.address + off[3], buf.address + off[4], buf.address + off[5]};
  double spans[BENCH_SPANS + 1][64];
  const char *names[BENCH_SPANS + 1] = {NULL};
  int measured = 0;
  uint32_t lines = 0;
  for (int it = -3; it < runs && r == CN_OK; it++) {
    VkCommandBuffer cb;
    r = cn_cmd_begin(ctx, &cb);
    if (r != CN_OK) break;
    cn_timer_reset(ctx, timer, cb);
    cn_timer_mark(ctx, timer, cb, "start");
    r = cn_flatten_record(ctx, fl, cb, &d, &gpu, &desc, timer);
    cn_result sr = cn_cmd_submit(ctx, cb);
    if (r == CN_OK) r = sr;
    bool fits = false;
    if (r == CN_OK) r = cn_flatten_finish(ctx, fl, &lines, &fits);
    if (r != CN_OK || !fits || it < 0) continue; /* warm-up, or re-run with the grown buffer */
    uint32_t n = 0;
    const char *lab[BENCH_SPANS];
    double ns[BENCH_SPANS];
    r = cn_timer_read(ctx, timer, &n, lab, ns, BENCH_SPANS);
    if (r != CN_OK || measured >= 64) break;
    double sum = 0;
    for (uint32_t i = 0; i < n && i < BENCH_SPANS; i++) {
      names[i] = lab[i];
      spans[i][measured] = ns[i] * 1e-6;
      sum += ns[i] * 1e-6;
    }
    spans[BENCH_SPANS][measured] = sum;
    measured++;
  }
  if (r != CN_OK) {
    rc = cli_fail(cmd, "flatten", r);
  } else {
    printf("%8u paths x %2u segs, %3.0f%% strokes, scale %5.2f: %9u lines |", paths, segs, 100 * stroke_frac, scale,
           lines);
    for (int i = 0; i <= BENCH_SPANS && measured; i++) {
      qsort(spans[i], (size_t)measured, sizeof(double), cmp_double);
      printf(" %s %.3f", i < BENCH_SPANS ? (names[i] ? names[i] + 9 : "?") : "total", spans[i][measured / 2]);
    }
    printf(" ms (median of %d)", measured);
    if (cpu) {
      cn_line *l = NULL;
      uint32_t n = 0;
      double t0 = now_s();
      r = cn_flatten_cpu(&d, &desc, &l, &n, NULL);
      double t1 = now_s();
      free(l);
      if (r == CN_OK) printf(" | CPU reference %.1f ms%s", (t1 - t0) * 1e3, n == lines ? "" : " (line count differs!)");
    }
    printf("\n");
  }
  cn_buffer_destroy(ctx, &buf);
  cn_timer_destroy(ctx, timer);
  cn_flatten_destroy(ctx, fl);
  synth_free(&s);
  return rc;
}

int cli_bench_flatten(int argc, char **argv) {
  const char *cmd = "bench-flatten";
  uint32_t paths = 0;
  int runs = 10;
  bool cpu = true;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      printf("usage: canopy bench-flatten [--paths N] [--runs R] [--no-cpu]\n\n"
             "Times the flatten stage (GPU timestamps per pass, median of R runs, default 10)\n"
             "on synthetic scenes of N closed curved paths (default: a table of sizes) spread\n"
             "over 3840x2160, with 0%% and 30%% strokes (a fifth of them dashed) and two zooms,\n"
             "and the CPU reference on the same scene.\n");
      return CLI_OK;
    }
    if (strcmp(argv[i], "--paths") == 0 && i + 1 < argc) paths = (uint32_t)strtoul(argv[++i], NULL, 10);
    else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) runs = atoi(argv[++i]);
    else if (strcmp(argv[i], "--no-cpu") == 0) cpu = false;
    else return cli_usage_error(cmd, "unknown option '%s'", argv[i]);
  }
  if (runs < 1 || runs > 64) return cli_usage_error(cmd, "--runs must be 1..64");
  cn_context *ctx;
  int rc = cli_context(cmd, &ctx);
  if (rc) return rc;
  printf("device: %s\n", cn_context_caps(ctx)->name);
  const uint32_t sizes[3] = {1000, 10000, 100000};
  for (int k = 0; k < 3 && rc == CLI_OK; k++) {
    uint32_t n = paths ? paths : sizes[k];
    rc = bench_one(ctx, n, 12, 0, 1, runs, cpu);
    if (rc == CLI_OK) rc = bench_one(ctx, n, 12, 0.3f, 1, runs, cpu);
    if (rc == CLI_OK) rc = bench_one(ctx, n, 12, 0.3f, 4, runs, cpu);
    if (paths) break;
  }
  cn_context_destroy(ctx);
  return rc;
}
