/* test_scene_stage.c: path boxes (GPU against CPU, and hand-worked curves and
 * strokes), the whole scene stage on built scenes and on every SVG of the
 * corpus (GPU against the CPU reference: path boxes to a tolerance, result
 * boxes and bins bit for bit), and errors of bad encoded scenes. */
#include "test.h"

#include "internal.h" /* cn__bbox_small, cn__bins_small_grid, cn__bins_rows_grid: which path a scene takes */

#include <canopy/cn_bbox.h>
#include <canopy/cn_box.h>
#include <canopy/cn_pathbox.h>
#include <canopy/cn_scene_gpu.h>
#include <canopy/cn_scene_stage.h>

#include <dirent.h>
#include <math.h>
#include <sys/stat.h>

static bool near(float a, float b, float mag) { return fabsf(a - b) <= 1e-4f * fmaxf(1.0f, mag); }

/* Path boxes agree to a tolerance (float rounding differs between CPU and GPU);
 * an empty box on one side must be degenerate on the other. */
static bool boxes_near(cn_box g, cn_box c) {
  float mag = fmaxf(fmaxf(fabsf(c.x0), fabsf(c.x1)), fmaxf(fabsf(c.y0), fabsf(c.y1)));
  mag = fmaxf(mag, fmaxf(fmaxf(fabsf(g.x0), fabsf(g.x1)), fmaxf(fabsf(g.y0), fabsf(g.y1))));
  bool ge = cn_box_is_empty(g), ce = cn_box_is_empty(c);
  if (ge != ce) {
    cn_box b = ge ? c : g;
    return b.x1 - b.x0 <= 1e-4f * fmaxf(1.0f, mag) || b.y1 - b.y0 <= 1e-4f * fmaxf(1.0f, mag);
  }
  if (ge) return true;
  return near(g.x0, c.x0, mag) && near(g.y0, c.y0, mag) && near(g.x1, c.x1, mag) && near(g.y1, c.y1, mag);
}

/* The whole stage on the GPU against the CPU reference started from the GPU's
 * path boxes; returns false (and counts a failure) on a difference. */
static bool check_scene(const cn_scene_data *s, uint32_t bin_size, const char *what) {
  cn_context *ctx = test_context();
  if (!ctx) return false;
  cn_scene_stage_desc d = {.bin_size = bin_size};
  cn_scene_stage_result g, c, p;
  cn_result r = cn_scene_stage_run(ctx, s, &d, &g);
  if (r != CN_OK) {
    fprintf(stderr, "  %s: GPU scene stage: %s: %s\n", what, cn_result_name(r), cn_last_error());
    test_failures++;
    return false;
  }
  bool ok = true;
  r = cn_scene_stage_cpu(s, g.path_boxes, &d, &c);
  CHECK_OK(r);
  if (r == CN_OK) {
    for (uint64_t i = 0; i < g.n && ok; i++)
      if (memcmp(&g.boxes[i], &c.boxes[i], sizeof(cn_box)) != 0) {
        fprintf(stderr, "  %s: element %llu: GPU %g %g %g %g, CPU %g %g %g %g\n", what, (unsigned long long)i,
                g.boxes[i].x0, g.boxes[i].y0, g.boxes[i].x1, g.boxes[i].y1, c.boxes[i].x0, c.boxes[i].y0,
                c.boxes[i].x1, c.boxes[i].y1);
        ok = false;
      }
    uint64_t nbins = (uint64_t)g.grid.nbx * g.grid.nby;
    if (ok && (g.bin_total != c.bin_total || memcmp(g.bin_offsets, c.bin_offsets, (nbins + 1) * 4) != 0 ||
               memcmp(g.bin_elems, c.bin_elems, g.bin_total * 4) != 0)) {
      fprintf(stderr, "  %s: bins differ (%llu vs %llu entries)\n", what, (unsigned long long)g.bin_total,
              (unsigned long long)c.bin_total);
      ok = false;
    }
    cn_scene_stage_result_free(&c);
  }
  r = cn_scene_stage_cpu(s, NULL, &d, &p); /* CPU path boxes */
  CHECK_OK(r);
  if (r == CN_OK) {
    for (uint64_t i = 0; i < g.n && ok; i++)
      if (!boxes_near(g.path_boxes[i], p.path_boxes[i])) {
        fprintf(stderr, "  %s: path box of element %llu: GPU %.9g %.9g %.9g %.9g, CPU %.9g %.9g %.9g %.9g\n", what,
                (unsigned long long)i, g.path_boxes[i].x0, g.path_boxes[i].y0, g.path_boxes[i].x1,
                g.path_boxes[i].y1, p.path_boxes[i].x0, p.path_boxes[i].y0, p.path_boxes[i].x1, p.path_boxes[i].y1);
        ok = false;
      }
    cn_scene_stage_result_free(&p);
  }
  cn_scene_stage_result_free(&g);
  if (!ok) test_failures++;
  return ok;
}

static cn_scene_builder *builder(void) {
  static cn_scene_builder *b;
  if (!b) cn_scene_builder_create(&b);
  return b;
}

TEST(pathbox_hand) {
  cn_scene_builder *b = builder();
  CHECK_OK(cn_scene_begin(b, 0, 0, 400, 300));
  cn_transform t = {2, 0, 0, 2, 0, 0};
  CHECK_OK(cn_scene_set_transform(b, &t));
  uint32_t quad, cubic, red;
  /* quad (0,0) (25,50) (50,0) -> device (0,0) (50,100) (100,0): top of the curve at y = 50 */
  CHECK_OK(cn_scene_path_begin(b));
  CHECK_OK(cn_scene_move_to(b, 0, 0));
  CHECK_OK(cn_scene_quad_to(b, 25, 50, 50, 0));
  CHECK_OK(cn_scene_close(b));
  CHECK_OK(cn_scene_path_end(b, &quad));
  /* cubic (0,0) (0,40) (40,40) (40,0) -> device x 0..80, y up to 0.75 * 80 = 60 */
  CHECK_OK(cn_scene_path_begin(b));
  CHECK_OK(cn_scene_move_to(b, 0, 0));
  CHECK_OK(cn_scene_cubic_to(b, 0, 40, 40, 40, 40, 0));
  CHECK_OK(cn_scene_close(b));
  CHECK_OK(cn_scene_path_end(b, &cubic));
  CHECK_OK(cn_scene_solid(b, 1, 0, 0, 1, &red));
  CHECK_OK(cn_scene_fill(b, quad, red, CN_RULE_NONZERO));
  CHECK_OK(cn_scene_fill(b, cubic, red, CN_RULE_NONZERO));
  cn_stroke_desc sd = {.width = 10, .miter_limit = 4, .join = CN_JOIN_BEVEL, .cap = CN_CAP_BUTT};
  CHECK_OK(cn_scene_stroke(b, quad, red, &sd)); /* grows by 5 * 2 = 10 */
  sd.join = CN_JOIN_MITER;
  CHECK_OK(cn_scene_stroke(b, quad, red, &sd)); /* by 5 * 2 * 4 = 40 */
  sd.join = CN_JOIN_ROUND, sd.cap = CN_CAP_SQUARE;
  CHECK_OK(cn_scene_stroke(b, quad, red, &sd)); /* by 10 * sqrt(2) */
  CHECK_OK(cn_scene_push_clip(b, cubic, CN_RULE_NONZERO));
  CHECK_OK(cn_scene_fill(b, quad, red, CN_RULE_NONZERO));
  CHECK_OK(cn_scene_pop(b));
  cn_scene_data s;
  CHECK_OK(cn_scene_end(b, &s));
  float q = 10.0f * 1.41421356f;
  cn_box want[6] = {{0, 0, 100, 50},  {0, 0, 80, 60}, {-10, -10, 110, 60}, {-40, -40, 140, 90},
                    {-q, -q, 100 + q, 50 + q}, {0, 0, 80, 60}};
  /* results: within the viewport; the clip group and its fill: quad box ∩ cubic box */
  cn_box want_res[8] = {{0, 0, 100, 50}, {0, 0, 80, 60},         {0, 0, 110, 60}, {0, 0, 140, 90},
                        {0, 0, 100 + q, 50 + q}, {0, 0, 80, 50}, {0, 0, 80, 50},  {0, 0, 80, 50}};
  cn_box cpu[8];
  if (s.element_count != 8) {
    CHECK_EQ_U64(s.element_count, 8);
    return;
  }
  CHECK_OK(cn_pathbox_cpu(&s, cpu));
  for (int i = 0; i < 6; i++) /* path boxes */
    if (!boxes_near(cpu[i], want[i])) {
      fprintf(stderr, "  element %d: %g %g %g %g\n", i, cpu[i].x0, cpu[i].y0, cpu[i].x1, cpu[i].y1);
      test_failures++;
    }
  cn_context *ctx = test_context();
  if (!ctx) return;
  cn_scene_stage_result g;
  CHECK_OK(cn_scene_stage_run(ctx, &s, NULL, &g));
  for (int i = 0; i < 8 && g.n == 8; i++)
    if (!boxes_near(g.boxes[i], want_res[i])) {
      fprintf(stderr, "  result %d: %g %g %g %g\n", i, g.boxes[i].x0, g.boxes[i].y0, g.boxes[i].x1, g.boxes[i].y1);
      test_failures++;
    }
  cn_scene_stage_result_free(&g);
  check_scene(&s, 64, "hand");
}

static float frand(float lo, float hi) { return lo + (hi - lo) * (float)test_rand_below(1000001) / 1000000.0f; }

/* A random scene: random transforms, lines, quads and cubics, fills and
 * strokes of every join and cap, clips and blends nested up to 'depth'. */
static void build_random(cn_scene_builder *b, int elements, int depth, cn_scene_data *out) {
  CHECK_OK(cn_scene_begin(b, 0, 0, 1000, 700));
  uint32_t paint;
  CHECK_OK(cn_scene_solid(b, 0, 0, 1, 1, &paint));
  int open = 0;
  for (int e = 0; e < elements; e++) {
    float ang = frand(0, 6.28f), sx = frand(0.1f, 3), sy = frand(0.1f, 3), sk = frand(-1, 1);
    cn_transform t = {sx * cosf(ang), sx * sinf(ang), -sy * sinf(ang) + sk, sy * cosf(ang), frand(0, 1000),
                      frand(0, 700)};
    CHECK_OK(cn_scene_set_transform(b, &t));
    uint32_t path;
    CHECK_OK(cn_scene_path_begin(b));
    CHECK_OK(cn_scene_move_to(b, frand(-100, 100), frand(-100, 100)));
    int segs = 1 + (int)test_rand_below(5);
    for (int k = 0; k < segs; k++) {
      switch (test_rand_below(3)) {
        case 0: CHECK_OK(cn_scene_line_to(b, frand(-100, 100), frand(-100, 100))); break;
        case 1: CHECK_OK(cn_scene_quad_to(b, frand(-150, 150), frand(-150, 150), frand(-100, 100), frand(-100, 100))); break;
        default:
          CHECK_OK(cn_scene_cubic_to(b, frand(-150, 150), frand(-150, 150), frand(-150, 150), frand(-150, 150),
                                     frand(-100, 100), frand(-100, 100)));
      }
    }
    CHECK_OK(cn_scene_close(b));
    CHECK_OK(cn_scene_path_end(b, &path));
    uint64_t r = test_rand_below(100);
    if (r < 12 && open < depth) {
      CHECK_OK(cn_scene_push_clip(b, path, CN_RULE_NONZERO));
      open++;
    } else if (r < 20 && open < depth) {
      CHECK_OK(cn_scene_push_blend(b, CN_BLEND_MULTIPLY, 0.5f, 0));
      open++;
    } else if (r < 32 && open > 0) {
      CHECK_OK(cn_scene_pop(b));
      open--;
    } else if (r < 70) {
      CHECK_OK(cn_scene_fill(b, path, paint, CN_RULE_EVENODD));
    } else {
      cn_stroke_desc sd = {.width = frand(0.5f, 20),
                           .miter_limit = frand(1, 10),
                           .join = (uint32_t)test_rand_below(4),
                           .cap = (uint32_t)test_rand_below(3)};
      CHECK_OK(cn_scene_stroke(b, path, paint, &sd));
    }
  }
  while (open-- > 0) CHECK_OK(cn_scene_pop(b));
  CHECK_OK(cn_scene_end(b, out));
}

TEST(scene_random) {
  for (int k = 0; k < 6; k++) {
    cn_scene_data s;
    build_random(builder(), k < 4 ? 50 + 200 * k : 6000, k == 5 ? 1000 : 8, &s);
    check_scene(&s, k & 1 ? 256 : 32, "random scene");
  }
}

/* A small scene through cn_scene_gpu (the one-dispatch paths: bbox_small
 * with the element boxes folded in, bins_rows, then with bins_rows off
 * bins_small), its bin lists far past a
 * first capacity of 16 entries: one re-run at the exact count, and the same
 * results as the CPU reference and as the multi-pass kernels (all of
 * cn_tuning's thresholds off). */
TEST(scene_small_path_rerun) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  cn_scene_data s;
  build_random(builder(), 400, 2, &s); /* shallow: most draws stay visible */
  cn_bins_grid grid;
  CHECK_OK(cn_bins_grid_make(s.viewport, 64, &grid));
  uint64_t groups = 0;
  for (uint32_t i = 0; i < s.element_count; i++) groups += s.elements[i].tag >= CN_TAG_BEGIN_CLIP;
  CHECK(cn__bbox_small(ctx, s.element_count, groups));
  CHECK(cn__bins_small_grid(ctx, s.element_count, &grid));
  uint64_t nbins = (uint64_t)grid.nbx * grid.nby, n = s.element_count;
  CHECK(cn__bins_rows_grid(ctx, s.element_count, &grid));
  CHECK(cn__scene_fold_keys_at(ctx, n, groups, s.segment_count, s.path_count) != 0); /* bbox_small folds the element boxes */
  cn_box *boxes[3];
  uint32_t *offsets[3], *elems[3];
  uint64_t totals[3];
  for (int pass = 0; pass < 3; pass++) {
    if (pass == 1) cn_context_set_tuning(ctx, &(cn_tuning){.bins_rows_max = CN_SMALL_OFF});
    if (pass == 2)
      cn_context_set_tuning(ctx, &(cn_tuning){.bbox_small_max = CN_SMALL_OFF, .bins_small_max = CN_SMALL_OFF,
                                              .pathbox_small_max = CN_SMALL_OFF, .bins_rows_max = CN_SMALL_OFF,
                                              .pathbox_fused_max = CN_SMALL_OFF, .pathbox_fold_max = CN_SMALL_OFF});
    cn_scene_gpu *g = NULL;
    CHECK_OK(cn_scene_gpu_create(ctx, &(cn_scene_gpu_desc){.initial = {.bin_entries = 16}}, &g));
    CHECK_OK(cn_scene_gpu_set_scene(g, &s));
    uint32_t reruns = 9;
    CHECK_OK(cn_scene_gpu_run(g, &(cn_scene_frame){.bin_size = 64}, &reruns));
    CHECK_EQ_U64(reruns, 1);
    cn_scene_gpu_counts c;
    cn_scene_gpu_counts_get(g, &c);
    cn_scene_gpu_outputs o;
    cn_scene_gpu_outputs_get(g, &o);
    totals[pass] = c.bin_entries;
    boxes[pass] = malloc(n * sizeof(cn_box));
    offsets[pass] = malloc((nbins + 1) * 4);
    elems[pass] = malloc((c.bin_entries ? c.bin_entries : 1) * 4);
    CHECK_OK(cn_buffer_download(ctx, o.boxes_buffer, 0, boxes[pass], n * sizeof(cn_box)));
    CHECK_OK(cn_buffer_download(ctx, o.bin_offsets_buffer, 0, offsets[pass], (nbins + 1) * 4));
    if (c.bin_entries) CHECK_OK(cn_buffer_download(ctx, o.bin_elems_buffer, 0, elems[pass], c.bin_entries * 4));
    cn_scene_gpu_destroy(g);
  }
  cn_context_set_tuning(ctx, NULL);
  CHECK(totals[0] > 16);
  for (int pass = 1; pass < 3; pass++) {
    CHECK_EQ_U64(totals[0], totals[pass]);
    CHECK(memcmp(boxes[0], boxes[pass], n * sizeof(cn_box)) == 0);
    CHECK(memcmp(offsets[0], offsets[pass], (nbins + 1) * 4) == 0);
    if (totals[0] == totals[pass]) CHECK(memcmp(elems[0], elems[pass], totals[0] * 4) == 0);
  }
  check_scene(&s, 64, "small path scene"); /* against the CPU reference */
  for (int pass = 0; pass < 3; pass++) free(boxes[pass]), free(offsets[pass]), free(elems[pass]);
}

/* Paths of many random cubics (every short_every-th path, from index 1, of
 * short_segs only) whose box comes from one far segment at a random place, so
 * a lost workgroup of segments shows; each filled and stroked. */
static void build_long_paths(int paths, int short_every, int short_segs, int min_segs, int span, uint32_t join,
                             uint32_t cap, cn_scene_data *s) {
  cn_scene_builder *b = builder();
  CHECK_OK(cn_scene_begin(b, 0, 0, 800, 600));
  uint32_t paint;
  CHECK_OK(cn_scene_solid(b, 0, 1, 0, 1, &paint));
  for (int p = 0; p < paths; p++) {
    cn_transform t = {frand(0.5f, 2), frand(-0.5f, 0.5f), frand(-0.5f, 0.5f), frand(0.5f, 2), frand(0, 400),
                      frand(0, 300)};
    CHECK_OK(cn_scene_set_transform(b, &t));
    uint32_t path;
    CHECK_OK(cn_scene_path_begin(b));
    CHECK_OK(cn_scene_move_to(b, 0, 0));
    int segs = p % short_every == 1 ? short_segs : min_segs + (int)test_rand_below((uint64_t)span);
    int far = (int)test_rand_below((uint64_t)segs);
    for (int k = 0; k < segs; k++) {
      float r = k == far ? 500.0f : 50.0f;
      CHECK_OK(cn_scene_cubic_to(b, frand(-r, r), frand(-r, r), frand(-r, r), frand(-r, r), frand(-50, 50),
                                 frand(-50, 50)));
    }
    CHECK_OK(cn_scene_close(b));
    CHECK_OK(cn_scene_path_end(b, &path));
    CHECK_OK(cn_scene_fill(b, path, paint, CN_RULE_NONZERO));
    cn_stroke_desc sd = {.width = 3, .miter_limit = 4, .join = join, .cap = cap};
    CHECK_OK(cn_scene_stroke(b, path, paint, &sd));
  }
  CHECK_OK(cn_scene_end(b, s));
}

/* Paths longer than a workgroup of segments, next to short ones. */
TEST(pathbox_long_paths) {
  cn_scene_data s;
  build_long_paths(40, 3, 3, 300, 900, CN_JOIN_ROUND, CN_CAP_ROUND, &s);
  check_scene(&s, 128, "long paths");
}

/* Path boxes of s through the GPU scene stage with the given tuning. */
static cn_box *gpu_path_boxes(const cn_scene_data *s, const cn_tuning *t) {
  cn_context *ctx = test_context();
  cn_context_set_tuning(ctx, t);
  cn_scene_stage_result g;
  cn_box *out = NULL;
  CHECK_OK(cn_scene_stage_run(ctx, s, &(cn_scene_stage_desc){.bin_size = 64}, &g));
  if (g.path_boxes && (out = malloc((g.n ? g.n : 1) * sizeof *out))) memcpy(out, g.path_boxes, g.n * sizeof *out);
  cn_scene_stage_result_free(&g);
  return out;
}

/* pathbox_small (one workgroup, one dispatch) with the threshold at the
 * scene's larger count (it runs) and one below (the multi-pass kernels run):
 * the same bits as the multi-pass kernels, and the whole stage against the
 * CPU reference. expect: whether it runs at the threshold (false past its
 * paths). */
/* The path boxes with a path at its threshold (at) and one below it (below)
 * equal, bit for bit, those of the reference path (ref); then the whole stage
 * with `at` against the CPU reference. */
static void path_boxes_agree(const cn_scene_data *s, const cn_tuning *at, const cn_tuning *below, const cn_tuning *ref,
                             const char *at_name, const char *ref_name, const char *what) {
  cn_context *ctx = test_context();
  cn_box *a = gpu_path_boxes(s, at), *b = gpu_path_boxes(s, below), *c = gpu_path_boxes(s, ref);
  CHECK(a && b && c);
  if (a && b && c) {
    for (uint32_t i = 0; i < s->element_count; i++)
      if (memcmp(&a[i], &c[i], sizeof *a) != 0 || memcmp(&b[i], &c[i], sizeof *a) != 0) {
        fprintf(stderr, "  %s: path box of element %u: %s %.9g %.9g %.9g %.9g, %s %.9g %.9g %.9g %.9g\n", what, i,
                at_name, a[i].x0, a[i].y0, a[i].x1, a[i].y1, ref_name, c[i].x0, c[i].y0, c[i].x1, c[i].y1);
        test_failures++;
        break;
      }
  }
  free(a), free(b), free(c);
  cn_context_set_tuning(ctx, at);
  check_scene(s, 64, what);
  cn_context_set_tuning(ctx, NULL);
}

static void check_pathbox_small(const cn_scene_data *s, bool expect, const char *what) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  uint32_t max = CN_MAX(s->segment_count, s->element_count);
  cn_tuning at = {.pathbox_small_max = max}, below = {.pathbox_small_max = max - 1, .pathbox_fused_max = CN_SMALL_OFF};
  cn_context_set_tuning(ctx, &at);
  bool small = cn__pathbox_small_wg(ctx, s->segment_count, s->element_count, s->path_count) != 0;
  CHECK(small == expect);
  cn_context_set_tuning(ctx, &below);
  CHECK(cn__pathbox_small_wg(ctx, s->segment_count, s->element_count, s->path_count) == 0);
  path_boxes_agree(s, &at, &below, &(cn_tuning){.pathbox_small_max = CN_SMALL_OFF, .pathbox_fused_max = CN_SMALL_OFF},
                   "small", "multi-pass", what);
}

/* pathbox_small on random scenes (paths of 2 to 7 segments, so subgroups
 * hold several paths), on long paths (rounds of many segments of one path),
 * and at its path limit (the key boxes it holds: it runs; one more path: it
 * does not). */
TEST(pathbox_small_path) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  for (int k = 0; k < 3; k++) {
    cn_scene_data s;
    build_random(builder(), k == 0 ? 5 : k == 1 ? 180 : 700, 4, &s);
    check_pathbox_small(&s, true, "pathbox_small random");
  }
  cn_scene_data s;
  build_long_paths(12, 4, 2, 500, 2500, CN_JOIN_MITER, CN_CAP_SQUARE, &s);
  CHECK(s.segment_count > 4 * 1024); /* more than one round of the workgroup */
  check_pathbox_small(&s, true, "pathbox_small long paths");
  uint32_t cap = cn__pathbox_small_paths(ctx);
  CHECK(cap >= 1024);
  for (uint32_t paths = cap; paths <= cap + 1; paths++) {
    build_random(builder(), (int)paths, 0, &s);
    CHECK_EQ_U64(s.path_count, paths);
    check_pathbox_small(&s, paths <= cap, "pathbox_small path limit");
  }
}

/* pathbox_fused (segments, then the last workgroup's element boxes, in one
 * dispatch after pathbox_init) with its threshold at the scene's element
 * count (it runs) and one below (the three dispatches run): the same bits as
 * the three dispatches, and the whole stage against the CPU reference. */
static void check_pathbox_fused(const cn_scene_data *s, const char *what) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  cn_tuning at = {.pathbox_small_max = CN_SMALL_OFF, .pathbox_fused_max = s->element_count},
            below = {.pathbox_small_max = CN_SMALL_OFF, .pathbox_fused_max = s->element_count - 1},
            multi = {.pathbox_small_max = CN_SMALL_OFF, .pathbox_fused_max = CN_SMALL_OFF};
  cn_context_set_tuning(ctx, &at);
  CHECK(cn__pathbox_fused_wg(ctx, s->segment_count, s->element_count) != 0);
  cn_context_set_tuning(ctx, &below);
  CHECK(cn__pathbox_fused_wg(ctx, s->segment_count, s->element_count) == 0);
  path_boxes_agree(s, &at, &below, &multi, "fused", "three passes", what);
}

/* pathbox_fused on random scenes (one workgroup of segments and several),
 * long paths across workgroups of segments, and more elements than one
 * round of the last workgroup (4 per invocation), miter joins and square caps. */
TEST(pathbox_fused_path) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  CHECK_EQ_U64(cn__pathbox_fused_max(ctx), 0); /* off by default */
  const int paths[] = {3, 5, 180, 700, 2600};
  for (size_t k = 0; k < sizeof paths / sizeof paths[0]; k++) {
    cn_scene_data s;
    build_random(builder(), paths[k], 4, &s);
    check_pathbox_fused(&s, "pathbox_fused random");
  }
  cn_scene_data s;
  build_long_paths(12, 4, 2, 500, 2500, CN_JOIN_MITER, CN_CAP_SQUARE, &s);
  CHECK(s.segment_count > 4 * 1024); /* several workgroups of segments */
  check_pathbox_fused(&s, "pathbox_fused long paths");
  build_long_paths(2200, 5, 1, 2, 3, CN_JOIN_BEVEL, CN_CAP_BUTT, &s);
  CHECK(s.element_count > 4096); /* more than one round of the last workgroup's elements */
  check_pathbox_fused(&s, "pathbox_fused many elements");
}

/* The whole stage's outputs with the given tuning (cn_scene_stage_run). */
static bool stage_with(const cn_scene_data *s, const cn_tuning *t, cn_scene_stage_result *out) {
  cn_context *ctx = test_context();
  cn_context_set_tuning(ctx, t);
  cn_result r = cn_scene_stage_run(ctx, s, &(cn_scene_stage_desc){.bin_size = 64}, out);
  CHECK_OK(r);
  return r == CN_OK;
}

static bool stage_same(const cn_scene_stage_result *a, const cn_scene_stage_result *b) {
  uint64_t nbins = (uint64_t)a->grid.nbx * a->grid.nby;
  return a->n == b->n && memcmp(a->tags, b->tags, a->n * 4) == 0 &&
         memcmp(a->path_boxes, b->path_boxes, a->n * sizeof(cn_box)) == 0 &&
         memcmp(a->boxes, b->boxes, a->n * sizeof(cn_box)) == 0 && a->bin_total == b->bin_total &&
         memcmp(a->bin_offsets, b->bin_offsets, (nbins + 1) * 4) == 0 &&
         memcmp(a->bin_elems, b->bin_elems, a->bin_total * 4) == 0;
}

/* The element step folded into bbox_small (cn_tuning.pathbox_fold_max) with
 * the threshold at the scene's element count (it folds, where bbox_small
 * takes the stream: expect) and one below (pathbox_elements runs): tags, path
 * boxes, result boxes and bin lists the same bits as with the fold off, and
 * the whole stage against the CPU reference. pathbox_small is off in all
 * three, so that small scenes take the three-dispatch path boxes. */
static void check_fold(const cn_scene_data *s, bool expect, const char *what) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  uint64_t n = s->element_count, groups = 0;
  for (uint32_t i = 0; i < s->element_count; i++) groups += s->elements[i].tag >= CN_TAG_BEGIN_CLIP;
  cn_tuning at = {.pathbox_small_max = CN_SMALL_OFF, .pathbox_fold_max = (uint32_t)n},
            below = {.pathbox_small_max = CN_SMALL_OFF, .pathbox_fold_max = (uint32_t)n - 1},
            off = {.pathbox_small_max = CN_SMALL_OFF, .pathbox_fold_max = CN_SMALL_OFF},
            apart = {.pathbox_small_max = CN_SMALL_OFF, .pathbox_fold_max = (uint32_t)n, .pathbox_segments_apart = true};
  cn_context_set_tuning(ctx, &at);
  bool folds = cn__scene_fold_keys_at(ctx, n, groups, s->segment_count, s->path_count) != 0;
  /* where it folds, bbox_small_segs folds the segments (the scene stage's default) */
  if (folds && !cn__bbox_small_segs(ctx, n, groups)) {
    fprintf(stderr, "  %s: %llu elements fold, but not with bbox_small_segs\n", what, (unsigned long long)n);
    test_failures++;
  }
  if (folds != expect) {
    fprintf(stderr, "  %s: %llu elements, %llu group nodes: folds %d, expected %d\n", what, (unsigned long long)n,
            (unsigned long long)groups, folds, expect);
    test_failures++;
  }
  cn_context_set_tuning(ctx, &below);
  CHECK_EQ_U64(cn__scene_fold_keys_at(ctx, n, groups, s->segment_count, s->path_count), 0);
  cn_scene_stage_result ra, rb, rc, rd;
  bool ok = stage_with(s, &at, &ra), okb = stage_with(s, &below, &rb), okc = stage_with(s, &off, &rc),
       okd = stage_with(s, &apart, &rd);
  if (ok && okb && okc && okd && (!stage_same(&ra, &rc) || !stage_same(&rb, &rc) || !stage_same(&rd, &rc))) {
    fprintf(stderr, "  %s: the folded stage differs from pathbox_elements' (%llu elements)\n", what,
            (unsigned long long)n);
    test_failures++;
  }
  if (ok) cn_scene_stage_result_free(&ra);
  if (okb) cn_scene_stage_result_free(&rb);
  if (okc) cn_scene_stage_result_free(&rc);
  if (okd) cn_scene_stage_result_free(&rd);
  cn_context_set_tuning(ctx, &at);
  check_scene(s, 64, what);
  cn_context_set_tuning(ctx, NULL);
}

/* Mostly group nodes: clips and blends nested and side by side, many of them
 * empty (a pop right after the push), paths with no segments filled, clipped
 * and stroked, fills between; depth up to max_depth. */
static void build_groups(int steps, int max_depth, cn_scene_data *out) {
  cn_scene_builder *b = builder();
  CHECK_OK(cn_scene_begin(b, 0, 0, 900, 600));
  uint32_t paint, empty, path;
  CHECK_OK(cn_scene_solid(b, 1, 0, 1, 1, &paint));
  CHECK_OK(cn_scene_path_begin(b));
  CHECK_OK(cn_scene_path_end(b, &empty)); /* no segments: the empty box */
  int open = 0;
  for (int k = 0; k < steps; k++) {
    cn_transform t = {frand(0.2f, 2), 0, 0, frand(0.2f, 2), frand(0, 900), frand(0, 600)};
    CHECK_OK(cn_scene_set_transform(b, &t));
    CHECK_OK(cn_scene_path_begin(b));
    CHECK_OK(cn_scene_move_to(b, frand(-100, 100), frand(-100, 100)));
    CHECK_OK(cn_scene_cubic_to(b, frand(-150, 150), frand(-150, 150), frand(-150, 150), frand(-150, 150),
                               frand(-100, 100), frand(-100, 100)));
    CHECK_OK(cn_scene_close(b));
    CHECK_OK(cn_scene_path_end(b, &path));
    uint64_t r = test_rand_below(100);
    uint32_t p = test_rand_below(8) == 0 ? empty : path;
    if (r < 25 && open < max_depth) {
      CHECK_OK(cn_scene_push_clip(b, p, CN_RULE_NONZERO));
      open++;
      if (test_rand_below(3) == 0) { /* an empty group */
        CHECK_OK(cn_scene_pop(b));
        open--;
      }
    } else if (r < 45 && open < max_depth) {
      CHECK_OK(cn_scene_push_blend(b, CN_BLEND_MULTIPLY, 0.5f, 0));
      open++;
      if (test_rand_below(3) == 0) {
        CHECK_OK(cn_scene_pop(b));
        open--;
      }
    } else if (r < 75 && open > 0) {
      CHECK_OK(cn_scene_pop(b));
      open--;
    } else if (r < 90) {
      CHECK_OK(cn_scene_fill(b, p, paint, CN_RULE_NONZERO));
    } else {
      cn_stroke_desc sd = {.width = 4, .miter_limit = 4, .join = CN_JOIN_MITER, .cap = CN_CAP_SQUARE};
      CHECK_OK(cn_scene_stroke(b, p, paint, &sd));
    }
  }
  while (open-- > 0) CHECK_OK(cn_scene_pop(b));
  CHECK_OK(cn_scene_end(b, out));
}

/* count fills of one path (n elements exactly). */
static void build_fills(int count, cn_scene_data *out) {
  cn_scene_builder *b = builder();
  CHECK_OK(cn_scene_begin(b, 0, 0, 600, 400));
  uint32_t paint, path;
  CHECK_OK(cn_scene_solid(b, 0, 0, 1, 1, &paint));
  CHECK_OK(cn_scene_path_begin(b));
  CHECK_OK(cn_scene_move_to(b, 10, 10));
  CHECK_OK(cn_scene_quad_to(b, 300, 500, 590, 10));
  CHECK_OK(cn_scene_close(b));
  CHECK_OK(cn_scene_path_end(b, &path));
  for (int k = 0; k < count; k++) CHECK_OK(cn_scene_fill(b, path, paint, CN_RULE_NONZERO));
  CHECK_OK(cn_scene_end(b, out));
}

/* count squares of 40 px, one path each, in clip groups of 50 under one
 * clip path: 6240 elements for 6000, 8112 for 7800. */
static void build_clipped_squares(int count, cn_scene_data *out) {
  cn_scene_builder *b = builder();
  CHECK_OK(cn_scene_begin(b, 0, 0, 600, 400));
  uint32_t paint, clip, path;
  CHECK_OK(cn_scene_solid(b, 0, 0, 0, 1, &paint));
  CHECK_OK(cn_scene_path_begin(b));
  CHECK_OK(cn_scene_move_to(b, 20, 20));
  CHECK_OK(cn_scene_line_to(b, 520, 20));
  CHECK_OK(cn_scene_line_to(b, 520, 320));
  CHECK_OK(cn_scene_line_to(b, 20, 320));
  CHECK_OK(cn_scene_close(b));
  CHECK_OK(cn_scene_path_end(b, &clip));
  for (int k = 0; k < count; k++) {
    float x = (float)(k * 37 % 500), y = (float)(k * 53 % 300);
    if (k % 50 == 0) CHECK_OK(cn_scene_push_clip(b, clip, CN_RULE_NONZERO));
    CHECK_OK(cn_scene_path_begin(b));
    CHECK_OK(cn_scene_move_to(b, x, y));
    CHECK_OK(cn_scene_line_to(b, x + 40, y));
    CHECK_OK(cn_scene_line_to(b, x + 40, y + 40));
    CHECK_OK(cn_scene_close(b));
    CHECK_OK(cn_scene_path_end(b, &path));
    CHECK_OK(cn_scene_fill(b, path, paint, CN_RULE_NONZERO));
    if (k % 50 == 49) CHECK_OK(cn_scene_pop(b));
  }
  CHECK_OK(cn_scene_end(b, out));
}

/* The fold on random scenes (one row of the workgroup and several), deep
 * nesting, many group nodes with empty groups and empty paths, at
 * bbox_small's element limit and one past it (4096 folds, 4097 does not:
 * the multi-pass bbox kernels run), and clip groups of 6240 and 8112
 * elements; with
 * bbox_small_segs (the default) and the segments apart, on scenes whose
 * segments take one workgroup and many (a few elements of long paths, filled
 * and stroked: the segment workgroups outlast the stream's phases, so one of
 * them goes on with the back half; many elements of short paths: the
 * workgroup that runs the phases goes on). */
TEST(scene_fold_path) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  CHECK_EQ_U64(cn__scene_fold_max(ctx), 4096);
  const int sizes[] = {5, 180, 700, 2600};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    cn_scene_data s;
    build_random(builder(), sizes[k], 4, &s);
    check_fold(&s, true, "fold random");
  }
  cn_scene_data s;
  build_random(builder(), 3000, 1000, &s);
  check_fold(&s, true, "fold deep");
  build_long_paths(3, 2, 1, 3000, 2000, CN_JOIN_MITER, CN_CAP_SQUARE, &s);
  CHECK(s.segment_count > 4000);
  check_fold(&s, true, "fold long paths");
  build_long_paths(40, 3, 3, 300, 900, CN_JOIN_ROUND, CN_CAP_ROUND, &s);
  check_fold(&s, true, "fold long and short paths");
  build_groups(3000, 40, &s);
  check_fold(&s, true, "fold groups");
  /* 4096 elements (1024 x 4; where workgroups are smaller, 8 per invocation) */
  uint32_t wg = CN_MIN(1024u, cn_floor_pow2(ctx->caps.max_workgroup_invocations)), limit = CN_MIN(4096u, 8u * wg);
  for (uint32_t n = limit; n <= limit + 1; n++) {
    build_fills((int)n, &s);
    CHECK_EQ_U64(s.element_count, n);
    check_fold(&s, n == limit, "fold at bbox_small's element limit");
  }
  /* past it, clip groups in 7 and 8 rows of 1024: bbox_small's 1024 x 8
   * form (which the limit no longer allows) gave wrong boxes for the second
   * on the H200 and the H100 (docs/PERF.md) */
  for (int count = 6000; count <= 7800; count += 1800) {
    build_clipped_squares(count, &s);
    CHECK_EQ_U64(s.element_count, (uint64_t)count + count / 50 * 2);
    check_fold(&s, false, "clip groups past the fold's limit");
  }
}

/* Frames of one cn_scene_gpu at changing views: from the second frame on the
 * stage skips pathbox_init, as bbox_small emptied the paths' keys after
 * reading them. Every frame's path boxes, result boxes and bin lists equal
 * those of a fresh cn_scene_gpu's first frame at the same view (which clears
 * the keys), bit for bit: keys left over from the view before would widen them. */
static void frame_outputs(cn_scene_gpu *g, const float view[6], cn_box *pb, cn_box *rb, uint32_t *off, uint64_t nbins) {
  cn_context *ctx = test_context();
  cn_scene_frame f = {.bin_size = 64};
  memcpy(f.transform, view, sizeof f.transform);
  uint32_t reruns = 0;
  CHECK_OK(cn_scene_gpu_run(g, &f, &reruns));
  cn_scene_gpu_outputs o;
  cn_scene_gpu_outputs_get(g, &o);
  uint64_t n = o.element_count;
  CHECK_OK(cn_buffer_download(ctx, o.path_boxes_buffer, 0, pb, n * sizeof(cn_box)));
  CHECK_OK(cn_buffer_download(ctx, o.boxes_buffer, 0, rb, n * sizeof(cn_box)));
  CHECK_OK(cn_buffer_download(ctx, o.bin_offsets_buffer, 0, off, (nbins + 1) * 4));
}

TEST(scene_keys_left_empty) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  cn_scene_data s;
  build_random(builder(), 700, 4, &s);
  uint64_t n = s.element_count, groups = 0;
  for (uint32_t i = 0; i < s.element_count; i++) groups += s.elements[i].tag >= CN_TAG_BEGIN_CLIP;
  const float views[5][6] = {{1, 0, 0, 1, 0, 0},
                             {0.5f, 0, 0, 0.5f, 40, -10},
                             {2, 0.3f, -0.3f, 2, -100, 50},
                             {0.25f, 0, 0, 0.25f, 0, 0},
                             {1, 0, 0, 1, 0, 0}};
  cn_bins_grid grid;
  CHECK_OK(cn_bins_grid_make(s.viewport, 64, &grid));
  uint64_t nbins = (uint64_t)grid.nbx * grid.nby;
  cn_box *pa = malloc(n * sizeof(cn_box)), *ra = malloc(n * sizeof(cn_box));
  cn_box *pb = malloc(n * sizeof(cn_box)), *rb = malloc(n * sizeof(cn_box));
  uint32_t *oa = malloc((nbins + 1) * 4), *ob = malloc((nbins + 1) * 4);
  /* the segments folded by bbox_small_segs (the default), then apart */
  for (int apart = 0; apart < 2; apart++) {
    cn_context_set_tuning(ctx, &(cn_tuning){.pathbox_small_max = CN_SMALL_OFF, .pathbox_segments_apart = apart});
    CHECK(cn__scene_fold_keys_at(ctx, n, groups, s.segment_count, s.path_count) != 0);
    CHECK(cn__bbox_small_segs(ctx, n, groups));
    cn_scene_gpu *g = NULL;
    CHECK_OK(cn_scene_gpu_create(ctx, NULL, &g));
    CHECK_OK(cn_scene_gpu_set_scene(g, &s));
    for (int v = 0; v < 5 && g; v++) {
      frame_outputs(g, views[v], pa, ra, oa, nbins);
      cn_scene_gpu *fresh = NULL;
      CHECK_OK(cn_scene_gpu_create(ctx, NULL, &fresh));
      CHECK_OK(cn_scene_gpu_set_scene(fresh, &s));
      if (fresh) frame_outputs(fresh, views[v], pb, rb, ob, nbins);
      cn_scene_gpu_destroy(fresh);
      bool same = memcmp(pa, pb, n * sizeof(cn_box)) == 0 && memcmp(ra, rb, n * sizeof(cn_box)) == 0 &&
                  memcmp(oa, ob, (nbins + 1) * 4) == 0;
      if (!same)
        fprintf(stderr, "  view %d (segments %s): the scene's frame differs from a fresh one's\n", v,
                apart ? "apart" : "in bbox_small_segs");
      CHECK(same);
    }
    cn_scene_gpu_destroy(g);
  }
  cn_context_set_tuning(ctx, NULL);
  free(pa), free(ra), free(pb), free(rb), free(oa), free(ob);
}

/* The workgroup sizes of bbox_small and bins_rows (their defaults by n and
 * cn_tuning.bbox_small_wg, bins_rows_wg): the same outputs, bit for bit,
 * with the defaults, with 64 (bbox_small at up to 8 elements per
 * invocation, else the default) and with 1024: at and around every default
 * threshold (bbox_small: 128, 1024 elements; bins_rows: 2048 elements, 256
 * bins a row) and on random and deep scenes. */
static void check_wg(const cn_scene_data *s, uint32_t bin_size, const char *what) {
  cn_context *ctx = test_context();
  uint32_t sg = ctx->caps.subgroup_size, small = CN_MAX(sg, 64u);
  cn_tuning tunings[2] = {{.bbox_small_wg = small, .bins_rows_wg = small}, {.bbox_small_wg = 1024, .bins_rows_wg = 1024}};
  cn_scene_stage_desc d = {.bin_size = bin_size};
  cn_scene_stage_result ref;
  cn_context_set_tuning(ctx, NULL);
  cn_result r = cn_scene_stage_run(ctx, s, &d, &ref);
  CHECK_OK(r);
  for (int k = 0; k < 2 && r == CN_OK; k++) {
    cn_scene_stage_result o;
    cn_context_set_tuning(ctx, &tunings[k]);
    cn_result r2 = cn_scene_stage_run(ctx, s, &d, &o);
    CHECK_OK(r2);
    if (r2 == CN_OK && !stage_same(&ref, &o)) {
      fprintf(stderr, "  %s: %u elements, workgroups of %u: the outputs differ from the defaults'\n", what,
              s->element_count, tunings[k].bbox_small_wg);
      test_failures++;
    }
    if (r2 == CN_OK) cn_scene_stage_result_free(&o);
  }
  if (r == CN_OK) cn_scene_stage_result_free(&ref);
  cn_context_set_tuning(ctx, NULL);
  check_scene(s, bin_size, what);
}

/* n fills of small random paths in a viewport cols * 4 px wide (bins of 4 px: cols a row). */
static void build_strip(int n, uint32_t cols, cn_scene_data *s) {
  cn_scene_builder *b = builder();
  CHECK_OK(cn_scene_begin(b, 0, 0, 4.0f * (float)cols, 64));
  uint32_t paint, path;
  CHECK_OK(cn_scene_solid(b, 1, 1, 0, 1, &paint));
  for (int e = 0; e < n; e++) {
    cn_transform t = {1, 0, 0, 1, frand(0, 4.0f * (float)cols), frand(0, 64)};
    CHECK_OK(cn_scene_set_transform(b, &t));
    CHECK_OK(cn_scene_path_begin(b));
    CHECK_OK(cn_scene_move_to(b, 0, 0));
    CHECK_OK(cn_scene_line_to(b, frand(1, 60), frand(0, 9)));
    CHECK_OK(cn_scene_line_to(b, 0, frand(1, 9)));
    CHECK_OK(cn_scene_close(b));
    CHECK_OK(cn_scene_path_end(b, &path));
    CHECK_OK(cn_scene_fill(b, path, paint, CN_RULE_NONZERO));
  }
  CHECK_OK(cn_scene_end(b, s));
}

TEST(scene_small_wg) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  const int fills[] = {128, 129, 1024, 1025};
  cn_scene_data s;
  for (size_t k = 0; k < sizeof fills / sizeof fills[0]; k++) {
    build_fills(fills[k], &s);
    check_wg(&s, 64, "workgroups, fills");
  }
  for (int k = 0; k < 3; k++) {
    build_random(builder(), k == 0 ? 40 : k == 1 ? 300 : 900, k == 2 ? 200 : 3, &s);
    check_wg(&s, k & 1 ? 16 : 64, "workgroups, random");
  }
  for (int n = 2048; n <= 2049; n++) {
    build_strip(n, 100, &s);
    CHECK_EQ_U64(s.element_count, (uint64_t)n);
    check_wg(&s, 4, "workgroups, bins_rows at 2048 elements");
  }
  for (uint32_t cols = 256; cols <= 257; cols++) {
    build_strip(300, cols, &s);
    check_wg(&s, 4, "workgroups, bins_rows at 256 bins a row");
  }
}

TEST(scene_errors) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  cn_element el[3] = {{CN_TAG_BEGIN_BLEND, CN_NONE, CN_NONE, 0}, {CN_TAG_END_CLIP, CN_NONE, CN_NONE, 0},
                      {CN_TAG_FILL, 7, 0, 0}};
  cn_blend bl = {0, 1, 0, 0};
  cn_scene_data s = {.viewport = {0, 0, 100, 100}, .elements = el, .element_count = 2, .blends = &bl, .blend_count = 1};
  cn_scene_stage_result res;
  CHECK(cn_scene_stage_run(ctx, &s, NULL, &res) == CN_ERROR_UNBALANCED);
  CHECK_STR_CONTAINS(cn_last_error(), "element 1: END_CLIP closes the BEGIN_BLEND at element 0");
  s.element_count = 3;
  CHECK(cn_scene_stage_run(ctx, &s, NULL, &res) == CN_ERROR_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(cn_last_error(), "scene: element 2: path 7 out of range (0 paths)");
  s.element_count = 1;
  CHECK(cn_scene_stage_run(ctx, &s, NULL, &res) == CN_ERROR_UNBALANCED);
  CHECK_STR_CONTAINS(cn_last_error(), "element 0: BEGIN_BLEND is never closed");
  s.element_count = 0;
  CHECK_OK(cn_scene_stage_run(ctx, &s, NULL, &res));
  CHECK_EQ_U64(res.n, 0);
  CHECK_EQ_U64(res.bin_total, 0);
  cn_scene_stage_result_free(&res);
}

/* ------------------------------------------------------------------ corpus */

typedef struct corpus_count {
  uint32_t files, loaded, checked;
} corpus_count;

static void walk(const char *dir, int depth, corpus_count *cc) {
  if (depth > 8) return;
  DIR *d = opendir(dir);
  if (!d) return;
  for (struct dirent *e; (e = readdir(d));) {
    if (e->d_name[0] == '.') continue;
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
      walk(path, depth + 1, cc);
      continue;
    }
    size_t l = strlen(e->d_name);
    if (l < 5 || strcmp(e->d_name + l - 4, ".svg") != 0) continue;
    cc->files++;
    cn_scene_data s;
    if (cn_svg_load_file(builder(), path, NULL, &s, NULL) != CN_OK) continue; /* the loader's tests judge that */
    cc->loaded++;
    cc->checked += check_scene(&s, 64, path);
  }
  closedir(d);
}

TEST(scene_corpus) {
  char dir[1200];
  corpus_count cc = {0};
  snprintf(dir, sizeof dir, "%s/tests/data/scenes-real", test_src_root());
  walk(dir, 0, &cc);
  CHECK(cc.files >= 10);
  fprintf(stderr, "  scenes-real: %u files, %u loaded, %u agree\n", cc.files, cc.loaded, cc.checked);
  const char *shared = getenv("CANOPY_SHARED");
  if (shared) snprintf(dir, sizeof dir, "%s/conformance/resvg", shared);
  else snprintf(dir, sizeof dir, "%s/../shared/conformance/resvg", test_src_root());
  corpus_count rv = {0};
  walk(dir, 0, &rv);
  fprintf(stderr, "  resvg (%s): %u files, %u loaded, %u agree\n", dir, rv.files, rv.loaded, rv.checked);
  CHECK(rv.loaded == rv.checked);
}

TEST_MAIN(T(scene_keys_left_empty), T(pathbox_hand), T(pathbox_long_paths), T(pathbox_small_path), T(pathbox_fused_path), T(scene_fold_path), T(scene_small_wg), T(scene_random), T(scene_small_path_rerun), T(scene_errors), T(scene_corpus))
