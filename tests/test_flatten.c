/* test_flatten.c: the flatten stage's fills and clip paths, its memory
 * handling and input checks: exact lines for simple shapes, the tolerance
 * against the exact curves, GPU against the CPU reference on random paths. */
#include "flatten_util.h"

#include <math.h>

/* Runs GPU and CPU; checks closure and agreement; returns the GPU lines. */
static cn_line *run_both(const fu_scene *s, const cn_flatten_desc *desc, uint32_t *n, cn_flatten_elem *elems) {
  cn_context *ctx = test_context();
  *n = 0;
  if (!ctx) return NULL;
  cn_scene_data d = fu_data(s);
  cn_line *g = NULL, *c = NULL;
  uint32_t ng = 0, nc = 0;
  cn_flatten_elem ce[256];
  CHECK_OK(cn_flatten_run(ctx, &d, desc, &g, &ng, elems, NULL));
  CHECK_OK(cn_flatten_cpu(&d, desc, &c, &nc, ce));
  CHECK(fu_closed(g, ng));
  CHECK(fu_closed(c, nc));
  float box[4] = {INFINITY, INFINITY, -INFINITY, -INFINITY};
  for (uint32_t i = 0; i < nc; i++) {
    box[0] = fminf(box[0], fminf(c[i].x0, c[i].x1));
    box[1] = fminf(box[1], fminf(c[i].y0, c[i].y1));
    box[2] = fmaxf(box[2], fmaxf(c[i].x0, c[i].x1));
    box[3] = fmaxf(box[3], fmaxf(c[i].y0, c[i].y1));
  }
  if (nc) fu_compare(g, ng, c, nc, s->ne, box, 0.02, 300);
  if (elems)
    for (uint32_t e = 0; e < s->ne; e++) {
      CHECK_EQ_U64(elems[e].line_count, ce[e].line_count);
      CHECK_EQ_U64(elems[e].line_first, ce[e].line_first);
      CHECK(fabsf(elems[e].x0 - ce[e].x0) < 0.01f && fabsf(elems[e].y1 - ce[e].y1) < 0.01f);
    }
  free(c);
  *n = ng;
  return g;
}

TEST(fill_square_exact) {
  fu_scene *s = calloc(1, sizeof *s);
  fu_init(s);
  fu_path(s, 0);
  fu_move(s, 1, 2);
  fu_line(s, 11, 2);
  fu_line(s, 11, 12);
  fu_line(s, 1, 12);
  fu_end(s, true); /* adds the closing line */
  fu_fill(s, CN_RULE_NONZERO);
  cn_flatten_elem el[1];
  uint32_t n;
  cn_line *l = run_both(s, NULL, &n, el);
  CHECK_EQ_U64(n, 4);
  const float want[4][4] = {{1, 2, 11, 2}, {11, 2, 11, 12}, {11, 12, 1, 12}, {1, 12, 1, 2}};
  for (uint32_t i = 0; i < n && i < 4; i++) {
    CHECK(l[i].x0 == want[i][0] && l[i].y0 == want[i][1] && l[i].x1 == want[i][2] && l[i].y1 == want[i][3]);
    CHECK_EQ_U64(l[i].element, 0);
  }
  CHECK_EQ_U64(el[0].line_first, 0);
  CHECK_EQ_U64(el[0].line_count, 4);
  CHECK(el[0].x0 == 1 && el[0].y0 == 2 && el[0].x1 == 11 && el[0].y1 == 12);
  free(l);
  free(s);
}

/* An open subpath is closed for filling; the view transform applies. */
TEST(fill_open_subpath_and_view) {
  fu_scene *s = calloc(1, sizeof *s);
  fu_init(s);
  fu_path(s, fu_transform(s, 2, 0, 0, 2, 10, 0));
  fu_move(s, 0, 0);
  fu_line(s, 4, 0);
  fu_line(s, 4, 4);
  fu_end(s, false);
  fu_fill(s, CN_RULE_EVENODD);
  cn_flatten_desc desc = {.view = {1, 0, 0, 1, 0, 100}};
  uint32_t n;
  cn_line *l = run_both(s, &desc, &n, NULL);
  CHECK_EQ_U64(n, 3);
  if (n == 3) {
    CHECK(l[0].x0 == 10 && l[0].y0 == 100 && l[0].x1 == 18 && l[0].y1 == 100);
    CHECK(l[1].x1 == 18 && l[1].y1 == 108);
    CHECK(l[2].x0 == 18 && l[2].y0 == 108 && l[2].x1 == 10 && l[2].y1 == 100);
  }
  free(l);
  free(s);
}

/* Curves: the polyline's vertices lie on the curve, the curve stays within
 * the tolerance of the polyline, and the count is Wang's. */
static void check_curve_tolerance(float scale, float tol) {
  fu_scene *s = calloc(1, sizeof *s);
  fu_init(s);
  fu_path(s, fu_transform(s, scale, 0, 0, scale, 3, 5));
  fu_move(s, 0, 0);
  fu_quad(s, 50, 80, 100, 0);
  fu_cubic(s, 150, -90, 20, 120, 0, 0);
  fu_end(s, true);
  fu_fill(s, CN_RULE_NONZERO);
  cn_flatten_desc desc = {.tolerance = tol};
  uint32_t n;
  cn_line *l = run_both(s, &desc, &n, NULL);
  /* Wang: quad n = ceil(sqrt(|p0 - 2p1 + p2| / (4 tol))), cubic sqrt(3/4 max|..| / tol), in device units */
  double q = scale * sqrt(0.0 + 0 * 0 + 160.0 * 160.0);
  double c1 = scale * hypot(100 - 300 + 20, 0 + 180 + 120), c2 = scale * hypot(150 - 40 + 0, -90 - 240 + 0);
  uint32_t nq = (uint32_t)ceil(sqrt(q / (4 * tol))), nc = (uint32_t)ceil(sqrt(0.75 * fmax(c1, c2) / tol));
  CHECK_EQ_U64(n, nq + nc);
  double worst = 0;
  for (uint32_t k = 0; k < 2; k++) {
    const cn_segment *g = &s->segments[k];
    for (int i = 0; i <= 2000; i++) {
      double x, y;
      fu_eval(g, i / 2000.0, &x, &y);
      double d = fu_line_dist(l, n, 0, scale * x + 3, scale * y + 5);
      if (d > worst) worst = d;
    }
  }
  if (!(worst <= tol * 1.01 + 1e-4)) fprintf(stderr, "  scale %g tol %g: curve %g from the lines\n", scale, tol, worst);
  CHECK(worst <= tol * 1.01 + 1e-4);
  /* vertices on the curve */
  for (uint32_t i = 0; i < n; i++) {
    double best = INFINITY;
    for (uint32_t k = 0; k < 2; k++)
      for (int j = 0; j <= 20000; j++) {
        double x, y;
        fu_eval(&s->segments[k], j / 20000.0, &x, &y);
        best = fmin(best, hypot(scale * x + 3 - l[i].x0, scale * y + 5 - l[i].y0));
      }
    if (best > 0.05 * scale + 1e-3) {
      fprintf(stderr, "  vertex %u (%g, %g) is %g off the curve\n", i, l[i].x0, l[i].y0, best);
      CHECK(0);
      break;
    }
  }
  free(l);
  free(s);
}

TEST(fill_curve_tolerance) {
  check_curve_tolerance(1, 0.25f);
  check_curve_tolerance(8, 0.25f);
  check_curve_tolerance(0.5f, 0.1f);
}

/* Random paths of lines, quads and cubics, several subpaths, random transforms. */
static void random_path(fu_scene *s, int subpaths, int segs, float range) {
  for (int sp = 0; sp < subpaths; sp++) {
    fu_move(s, (float)test_rand_below(1000) * range / 1000, (float)test_rand_below(1000) * range / 1000);
    for (int k = 0; k < segs; k++) {
#define RC ((float)test_rand_below(1000) * range / 1000)
      switch (test_rand_below(4)) {
        case 0: fu_line(s, RC, RC); break;
        case 1: fu_quad(s, RC, RC, RC, RC); break;
        default: fu_cubic(s, RC, RC, RC, RC, RC, RC); break;
      }
#undef RC
    }
    fu_end(s, test_rand_below(2));
  }
}

TEST(fill_random_gpu_vs_cpu) {
  fu_scene *s = calloc(1, sizeof *s);
  fu_init(s);
  for (int p = 0; p < 12; p++) {
    float a = 0.2f + (float)test_rand_below(100) / 40, b = ((float)test_rand_below(100) - 50) / 100;
    fu_path(s, fu_transform(s, a, b, -b, a * 0.7f, (float)test_rand_below(50), (float)test_rand_below(50)));
    random_path(s, 1 + (int)test_rand_below(3), 1 + (int)test_rand_below(6), 100);
    fu_fill(s, p & 1 ? CN_RULE_EVENODD : CN_RULE_NONZERO);
  }
  /* a clip path and an element with no geometry in between */
  s->elements[s->ne++] = (cn_element){CN_TAG_BEGIN_CLIP, 3, CN_NONE, CN_RULE_NONZERO};
  s->elements[s->ne++] = (cn_element){CN_TAG_END_CLIP, CN_NONE, CN_NONE, CN_NONE};
  cn_flatten_elem el[256];
  uint32_t n;
  cn_line *l = run_both(s, NULL, &n, el);
  CHECK(n > 100);
  CHECK_EQ_U64(el[12].line_count, el[3].line_count); /* the clip draws path 3 again */
  CHECK_EQ_U64(el[13].line_count, 0);
  for (uint32_t i = 0; i < n; i++)
    if (l[i].element >= s->ne || (i && l[i].element < l[i - 1].element)) {
      CHECK(0);
      break;
    }
  free(l);
  free(s);
}

/* Robust memory: a capacity of 1 line overflows; the run grows and re-runs,
 * and the result equals a run that fit at once. */
TEST(fill_overflow_rerun) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  fu_scene *s = calloc(1, sizeof *s);
  fu_init(s);
  fu_path(s, 0);
  random_path(s, 3, 8, 300);
  fu_fill(s, CN_RULE_NONZERO);
  cn_scene_data d = fu_data(s);
  cn_line *a = NULL, *b = NULL;
  uint32_t na = 0, nb = 0, reruns = 0;
  cn_flatten_desc tiny = {.initial_line_capacity = 1};
  CHECK_OK(cn_flatten_run(ctx, &d, &tiny, &a, &na, NULL, &reruns));
  CHECK_EQ_U64(reruns, 1);
  CHECK_OK(cn_flatten_run(ctx, &d, NULL, &b, &nb, NULL, &reruns));
  CHECK_EQ_U64(reruns, 0);
  CHECK_EQ_U64(na, nb);
  CHECK(na > 1 && a && b && memcmp(a, b, (size_t)na * sizeof *a) == 0);

  /* The stage API directly (cn_flatten_record with buffers of our own): a
   * line buffer of 1 gets the exact count in the header and the flag; one of
   * that count fits, with the same lines. */
  cn_scene_info info;
  CHECK_OK(cn_scene_check(&d, &info));
  /* The scene's extent (identity transform, no stroke): its largest |coordinate|.
   * cn_flatten_run above used it to build the kernel without the box cut; the
   * direct recording below (extent 0) cuts, and both give the same lines. */
  float m = 0;
  for (uint32_t i = 0; i < s->ns; i++)
    for (int k = 0; k < 8; k++) m = fmaxf(m, fabsf((&s->segments[i].x0)[k]));
  CHECK(info.extent == m && m > 0);
  cn_buffer buf = {0}, lines = {0}, elems = {0}, scratch = {0};
  size_t bytes = s->ne * sizeof(cn_element);
  CHECK_OK(cn_buffer_create(ctx, CN_MEMORY_DEVICE, 4096 * 64, &buf));
  CHECK_OK(cn_buffer_upload(ctx, &buf, 0, s->elements, bytes));
  CHECK_OK(cn_buffer_upload(ctx, &buf, 4096, s->paths, s->np * sizeof(cn_path)));
  CHECK_OK(cn_buffer_upload(ctx, &buf, 8192, s->segments, s->ns * sizeof(cn_segment)));
  CHECK_OK(cn_buffer_upload(ctx, &buf, 8192 + 4096 * 48, s->transforms, s->nt * sizeof(cn_transform)));
  cn_flatten_args fa = {.elements = buf.address,
                        .paths = buf.address + 4096,
                        .segments = buf.address + 8192,
                        .transforms = buf.address + 8192 + 4096 * 48,
                        .element_count = d.element_count,
                        .segment_count = d.segment_count,
                        .pair_count = info.pair_count,
                        .dashed = info.dashed};
  CHECK_OK(cn_buffer_create(ctx, CN_MEMORY_DEVICE, (uint64_t)d.element_count * sizeof(cn_flatten_elem), &elems));
  CHECK_OK(cn_buffer_create(ctx, CN_MEMORY_DEVICE, cn_flatten_scratch_bytes(ctx, &fa), &scratch));
  /* round 2: caller_barrier (the record leaves out its last barrier, the test
   * records one); round 3: the subpath links recorded first
   * (cn_flatten_record_links, a barrier, links_recorded), the scratch cleared
   * before them: the same lines, header and element ranges as round 1 */
  cn_flatten_elem *e1 = calloc(d.element_count, sizeof *e1), *e2 = calloc(d.element_count, sizeof *e2);
  for (int round = 0; round < 4; round++) {
    fa.line_capacity = round == 0 ? 1 : nb;
    fa.caller_barrier = round == 2;
    fa.links_recorded = round == 3;
    CHECK_OK(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, (uint64_t)fa.line_capacity * sizeof(cn_line), &lines));
    fa.lines = lines.address;
    fa.elems = elems.address;
    fa.scratch = scratch.address;
    VkCommandBuffer cmd;
    CHECK_OK(cn_cmd_begin(ctx, &cmd));
    if (round == 3) {
      cn_cmd_fill(ctx, cmd, &scratch, 0, scratch.size, 0);
      cn_cmd_barrier(ctx, cmd);
      CHECK_OK(cn_flatten_record_links(ctx, cmd, &fa));
      cn_cmd_barrier(ctx, cmd);
    }
    CHECK_OK(cn_flatten_record(ctx, cmd, &fa));
    if (fa.caller_barrier) cn_cmd_barrier(ctx, cmd);
    CHECK_OK(cn_cmd_submit(ctx, cmd));
    cn_flatten_header h;
    CHECK_OK(cn_buffer_download(ctx, &scratch, 0, &h, sizeof h));
    CHECK_EQ_U64(h.line_count, nb);
    CHECK_EQ_U64(h.line_capacity, fa.line_capacity);
    CHECK((h.flags & CN_FLATTEN_OVERFLOW) == (round == 0 ? CN_FLATTEN_OVERFLOW : 0u));
    if (round >= 1) {
      cn_line *c = malloc((size_t)nb * sizeof *c);
      CHECK_OK(cn_buffer_download(ctx, &lines, 0, c, (size_t)nb * sizeof *c));
      CHECK(memcmp(c, b, (size_t)nb * sizeof *c) == 0);
      free(c);
      CHECK_OK(cn_buffer_download(ctx, &elems, 0, round == 1 ? e1 : e2, d.element_count * sizeof *e1));
      if (round >= 2) CHECK(memcmp(e1, e2, d.element_count * sizeof *e1) == 0);
    }
  }
  CHECK(e1[0].line_count == nb);
  /* stroke_split: 0 or a power of two up to CN_FL_STROKE_SPLIT; others are refused */
  const uint32_t bad_splits[] = {3, 6, 2 * CN_FL_STROKE_SPLIT};
  for (size_t i = 0; i < sizeof bad_splits / sizeof bad_splits[0]; i++) {
    fa.stroke_split = bad_splits[i];
    VkCommandBuffer cmd;
    CHECK_OK(cn_cmd_begin(ctx, &cmd));
    CHECK(cn_flatten_record(ctx, cmd, &fa) == CN_ERROR_INVALID_ARGUMENT);
    CHECK_OK(cn_cmd_submit(ctx, cmd));
  }
  free(e1);
  free(e2);
  cn_buffer_destroy(ctx, &buf);
  cn_buffer_destroy(ctx, &lines);
  cn_buffer_destroy(ctx, &elems);
  cn_buffer_destroy(ctx, &scratch);
  free(a);
  free(b);
  free(s);
}

/* Absurd zoom and NaN coordinates: bounded work, no crash, closed chains. */
TEST(fill_adversarial) {
  fu_scene *s = calloc(1, sizeof *s);
  fu_init(s);
  fu_path(s, fu_transform(s, 1e6f, 0, 0, 1e6f, 0, 0));
  fu_move(s, 0, 0);
  fu_cubic(s, 100, 0, 100, 100, 0, 100);
  fu_end(s, true);
  fu_fill(s, CN_RULE_NONZERO);
  fu_path(s, 0);
  fu_move(s, 0, 0);
  fu_cubic(s, NAN, 0, 1, INFINITY, 5, 5);
  fu_end(s, false);
  fu_fill(s, CN_RULE_NONZERO);
  fu_path(s, 0);
  fu_move(s, 3, 3);
  fu_line(s, 3, 3); /* zero-length */
  fu_end(s, true);
  fu_fill(s, CN_RULE_NONZERO);
  cn_context *ctx = test_context();
  if (!ctx) return;
  cn_scene_data d = fu_data(s);
  cn_line *l = NULL;
  uint32_t n = 0;
  cn_flatten_elem el[3];
  CHECK_OK(cn_flatten_run(ctx, &d, NULL, &l, &n, el, NULL));
  /* element 0 spans 1e8 px: its 16384 pieces and closing line are cut at the
   * box [-32768, 49152]^2 and the parts outside projected on its sides (no
   * coordinate outside it), still one closed chain */
  CHECK(el[0].line_count >= 2 && el[0].line_count <= 4 * (CN_FLATTEN_MAX_SUBDIV + 1));
  if (el[0].line_count >= 2 && el[0].line_first + el[0].line_count <= n) {
    const cn_line *c = l + el[0].line_first;
    uint32_t outside = 0, gaps = 0;
    for (uint32_t i = 0; i < el[0].line_count; i++) {
      float v[4] = {c[i].x0, c[i].y0, c[i].x1, c[i].y1};
      for (int k = 0; k < 4; k++) outside += !(v[k] >= -32768.0f && v[k] <= 49152.0f);
      const cn_line *nx = &c[(i + 1) % el[0].line_count];
      gaps += c[i].x1 != nx->x0 || c[i].y1 != nx->y0;
    }
    CHECK_EQ_U64(outside, 0);
    CHECK_EQ_U64(gaps, 0);
  }
  CHECK(el[1].line_count >= 1 && el[1].line_count <= CN_FLATTEN_MAX_SUBDIV + 1);
  CHECK_EQ_U64(el[2].line_count, 0);
  free(l);
  free(s);
}

TEST(flatten_bad_input) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  fu_scene *s = calloc(1, sizeof *s);
  fu_init(s);
  fu_path(s, 0);
  fu_move(s, 0, 0);
  fu_line(s, 1, 1);
  fu_end(s, false);
  fu_fill(s, 0);
  s->elements[s->ne++] = (cn_element){CN_TAG_FILL, 7, 0, 0};
  cn_scene_data d = fu_data(s);
  cn_line *l = NULL;
  uint32_t n = 0;
  CHECK(cn_flatten_run(ctx, &d, NULL, &l, &n, NULL, NULL) == CN_ERROR_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(cn_last_error(), "element 1: path 7 out of range");
  CHECK(cn_flatten_cpu(&d, NULL, &l, &n, NULL) == CN_ERROR_INVALID_ARGUMENT);
  s->elements[1] = (cn_element){CN_TAG_STROKE, 0, 0, 5};
  CHECK(cn_flatten_cpu(&d, NULL, &l, &n, NULL) == CN_ERROR_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(cn_last_error(), "element 1: stroke 5 out of range");
  s->paths[0].seg_count = 100;
  CHECK(cn_flatten_cpu(&d, NULL, &l, &n, NULL) == CN_ERROR_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(cn_last_error(), "segments 0+100 out of range");
  CHECK(l == NULL && n == 0);
  /* an empty scene is fine */
  cn_scene_data empty;
  memset(&empty, 0, sizeof empty);
  CHECK_OK(cn_flatten_run(ctx, &empty, NULL, &l, &n, NULL, NULL));
  CHECK(l == NULL && n == 0);
  free(s);
}

typedef struct fl_pt {
  uint32_t e;
  float x, y;
} fl_pt;
static int fl_pt_cmp(const void *a, const void *b) {
  const fl_pt *p = a, *q = b;
  if (p->e != q->e) return p->e < q->e ? -1 : 1;
  if (p->x != q->x) return p->x < q->x ? -1 : 1;
  if (p->y != q->y) return p->y < q->y ? -1 : 1;
  return 0;
}
/* Closed chains for big line sets: the sorted start points equal the sorted end points. */
static bool closed_sorted(const cn_line *l, uint32_t n) {
  fl_pt *a = malloc((n ? n : 1) * sizeof *a), *b = malloc((n ? n : 1) * sizeof *b);
  for (uint32_t i = 0; i < n; i++) {
    a[i] = (fl_pt){l[i].element, l[i].x0, l[i].y0};
    b[i] = (fl_pt){l[i].element, l[i].x1, l[i].y1};
  }
  qsort(a, n, sizeof *a, fl_pt_cmp);
  qsort(b, n, sizeof *b, fl_pt_cmp);
  bool ok = n == 0 || memcmp(a, b, n * sizeof *a) == 0;
  free(a);
  free(b);
  return ok;
}

/* d flattened under tuning t gives the lines g (ng of them) and element
 * records ge, bit for bit. */
static void same_flatten(cn_context *ctx, const cn_scene_data *d, const cn_flatten_desc *desc, const cn_tuning *t,
                         const cn_line *g, uint32_t ng, const cn_flatten_elem *ge) {
  cn_context_set_tuning(ctx, t);
  cn_line *g2 = NULL;
  uint32_t ng2 = 0;
  cn_flatten_elem *ge2 = calloc(d->element_count + 1, sizeof *ge2);
  CHECK_OK(cn_flatten_run(ctx, d, desc, &g2, &ng2, ge2, NULL));
  cn_context_set_tuning(ctx, NULL);
  CHECK_EQ_U64(ng2, ng);
  CHECK(ng2 == ng && (!ng || memcmp(g2, g, (size_t)ng * sizeof *g) == 0));
  CHECK(memcmp(ge2, ge, d->element_count * sizeof *ge) == 0);
  free(g2);
  free(ge2);
}

/* Every real scene of tests/data/scenes-real fitted to 1024 px: GPU and CPU
 * give closed chains, the same line counts per element (up to a few lines
 * where a float threshold falls the other way), the same boxes, and the same
 * coverage (sampled over a random choice of elements). */
TEST(flatten_real_scenes) {
  static const char *const files[] = {
      "pathfinder/pathfinder_logo.svg", "pathfinder/material_design_icons.svg", "flag-icons/ni.svg",
      "flag-icons/rs.svg",           "flag-icons/sh-ac.svg",            "batik/anne.svg",
      "batik/batik3D.svg",           "batik/mapWaadt.svg",              "batik/batikLogo.svg",
      "inkscape/inkscape-about.svg"};
  cn_context *ctx = test_context();
  if (!ctx) return;
  for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
    char path[1200];
    snprintf(path, sizeof path, "%s/tests/data/scenes-real/%s", test_src_root(), files[f]);
    cn_scene_builder *b = NULL;
    cn_scene_data d;
    CHECK_OK(cn_scene_builder_create(&b));
    if (!b) return;
    cn_result r = cn_svg_load_file(b, path, NULL, &d, NULL);
    CHECK_OK(r);
    if (r != CN_OK) {
      cn_scene_builder_destroy(b);
      continue;
    }
    float w = d.viewport[2] - d.viewport[0], h = d.viewport[3] - d.viewport[1];
    float sc = w > 0 && h > 0 ? fminf(1024 / w, 1024 / h) : 1;
    cn_flatten_desc desc = {.view = {sc, 0, 0, sc, -d.viewport[0] * sc, -d.viewport[1] * sc}};
    cn_flatten_elem *ge = calloc(d.element_count + 1, sizeof *ge), *ce = calloc(d.element_count + 1, sizeof *ce);
    cn_line *g = NULL, *c = NULL;
    uint32_t ng = 0, nc = 0;
    CHECK_OK(cn_flatten_run(ctx, &d, &desc, &g, &ng, ge, NULL));
    CHECK_OK(cn_flatten_cpu(&d, &desc, &c, &nc, ce));
    CHECK(closed_sorted(g, ng));
    CHECK(closed_sorted(c, nc));
    uint32_t off = 0, bad = 0;
    for (uint32_t e = 0; e < d.element_count; e++) {
      int64_t diff = (int64_t)ge[e].line_count - (int64_t)ce[e].line_count;
      if (diff < -2 || diff > 2) off++;
      if (ge[e].line_count && fabsf(ge[e].x0 - ce[e].x0) + fabsf(ge[e].y1 - ce[e].y1) > 0.05f) off++;
    }
    for (int k = 0; k < 40 && d.element_count; k++) {
      uint32_t e = (uint32_t)test_rand_below(d.element_count);
      if (!ce[e].line_count || !ge[e].line_count) continue;
      const cn_line *gl = g + ge[e].line_first, *cl = c + ce[e].line_first;
      for (int t = 0; t < 30; t++) {
        double x = ce[e].x0 + (ce[e].x1 - ce[e].x0) * (double)test_rand_below(10000) / 1e4;
        double y = ce[e].y0 + (ce[e].y1 - ce[e].y0) * (double)test_rand_below(10000) / 1e4;
        bool ig = fu_winding(gl, ge[e].line_count, e, x, y) != 0, ic = fu_winding(cl, ce[e].line_count, e, x, y) != 0;
        if (ig != ic && fmin(fu_line_dist(gl, ge[e].line_count, e, x, y), fu_line_dist(cl, ce[e].line_count, e, x, y)) > 0.02)
          bad++;
      }
    }
    if (off || bad) fprintf(stderr, "  %s: %u elements differ in count or box, %u coverage samples differ\n", files[f], off, bad);
    CHECK(off == 0 && bad == 0);
    /* the element pass and the pair-base scan apart (cn_tuning.flatten_setup_fuse_max
     * off) and in one workgroup (the threshold at the scene's elements: the
     * fused pass at any size): the same lines and records as the default */
    for (int k = 0; k < 2; k++) {
      same_flatten(ctx, &d, &desc, &(cn_tuning){.flatten_setup_fuse_max = k ? d.element_count : CN_SMALL_OFF}, g, ng, ge);
    }
    /* the strokes of curved paths in 16, 4 or 1 chunks per segment
     * (cn_tuning.flatten_split_max at the scene's pairs with that many; the
     * default may take another): the same lines and records */
    uint64_t plain = 0, curved = 0;
    for (uint32_t e = 0; e < d.element_count; e++) {
      const cn_element *el = &d.elements[e];
      if (el->tag != CN_TAG_FILL && el->tag != CN_TAG_STROKE && el->tag != CN_TAG_BEGIN_CLIP) continue;
      const cn_path *p = &d.paths[el->path];
      bool curve = false;
      for (uint32_t k = 0; k < p->seg_count && !curve; k++) curve = (d.segments[p->seg_first + k].info & 3u) != CN_SEG_LINE;
      plain += p->seg_count;
      curved += el->tag == CN_TAG_STROKE && curve ? p->seg_count : 0;
    }
    for (uint32_t chunks = 16; curved && chunks >= 1; chunks /= 4) {
      uint64_t max = plain + (chunks - 1) * curved;
      same_flatten(ctx, &d, &desc, &(cn_tuning){.flatten_split_max = chunks == 1 ? CN_SMALL_OFF : (uint32_t)max}, g, ng,
                   ge);
    }
    free(g);
    free(c);
    free(ge);
    free(ce);
    cn_scene_builder_destroy(b);
  }
}

/* Zigzag subpaths of segs line segments in all, three open subpaths (a fill
 * closes them through the subpath links), filled, and stroked when stroke. */
static void zigzag_scene(fu_scene *s, uint32_t segs, bool stroke) {
  fu_init(s);
  fu_path(s, 0);
  for (uint32_t k = 0; k < segs; k++) {
    if (k % (segs / 3 + 1) == 0) {
      if (k) fu_end(s, false);
      fu_move(s, 5, 10.0f + 40.0f * (float)(k / (segs / 3 + 1)));
    }
    fu_line(s, s->cx + 0.02f, s->cy + ((k % 2) ? -3.0f : 3.0f) + (float)(k % 7) * 0.01f);
  }
  fu_end(s, false);
  fu_fill(s, CN_RULE_NONZERO);
  if (stroke) fu_stroke(s, 1.5f, CN_JOIN_ROUND, CN_CAP_SQUARE, 4, NULL, 0, 0);
}

/* Flattens zigzag_scene(s, segs, stroke) under each of the three tunings and
 * checks that all give the same lines and element records as the first. */
static void check_tunings_agree(cn_context *ctx, fu_scene *s, uint32_t segs, bool stroke, const cn_tuning tunings[3]) {
  zigzag_scene(s, segs, stroke);
  cn_scene_data d = fu_data(s);
  cn_line *l[3] = {NULL, NULL, NULL};
  uint32_t n[3] = {0, 0, 0};
  cn_flatten_elem el[3][2];
  memset(el, 0, sizeof el);
  for (int k = 0; k < 3; k++) {
    cn_context_set_tuning(ctx, &tunings[k]);
    CHECK_OK(cn_flatten_run(ctx, &d, NULL, &l[k], &n[k], el[k], NULL));
  }
  cn_context_set_tuning(ctx, NULL);
  CHECK(n[0] > segs);
  for (int k = 1; k < 3; k++) {
    CHECK_EQ_U64(n[k], n[0]);
    CHECK(memcmp(el[k], el[0], sizeof el[0]) == 0);
    if (n[k] == n[0] && l[0] && l[k] && memcmp(l[k], l[0], (size_t)n[0] * sizeof *l[0]) != 0) {
      fprintf(stderr, "  %u segments%s: lines differ between tunings %d and 0\n", segs,
              stroke ? " (fill and stroke)" : "", k);
      CHECK(0);
    }
  }
  for (int k = 0; k < 3; k++) free(l[k]);
}

/* cn_scene_info.extent: each drawn element's path under its own transform
 * (plus a stroke's reach), not the scene's largest coordinate under its
 * largest transform; a path no element draws does not count. */
TEST(scene_extent_per_element) {
  static fu_scene s;
  fu_init(&s);
  uint32_t small = fu_transform(&s, 0.01f, 0, 0, 0.01f, 5, -7);
  uint32_t shift = fu_transform(&s, 1, 0, 0, 1, 3, 0);
  fu_path(&s, small); /* 10 000 units at 1/100: about 107 */
  fu_move(&s, -10000, 0);
  fu_line(&s, 10000, 20);
  fu_end(&s, false);
  fu_fill(&s, CN_RULE_NONZERO);
  fu_path(&s, shift); /* 50 units, a miter stroke 4 wide with limit 10: 50 + 20 + 3 */
  fu_move(&s, 0, 0);
  fu_line(&s, 50, -40);
  fu_end(&s, false);
  fu_stroke(&s, 4, CN_JOIN_MITER, CN_CAP_BUTT, 10, NULL, 0, 0);
  fu_path(&s, shift); /* drawn by nothing */
  fu_move(&s, 1e6f, 0);
  fu_line(&s, 0, 1e6f);
  fu_end(&s, false);
  cn_scene_data d = fu_data(&s);
  cn_scene_info info;
  CHECK_OK(cn_scene_check(&d, &info));
  double lin = fabs((double)0.01f), fill = lin * 10000.0 + 7.0, stroke = 1.0 * (50.0 + 0.5 * 4.0 * 10.0) + 3.0;
  CHECK(info.extent == (float)fmax(fill, stroke));
  /* the stroke's transform scaled up: its reach takes over */
  s.transforms[shift].a = s.transforms[shift].d = 30;
  d = fu_data(&s);
  CHECK_OK(cn_scene_check(&d, &info));
  CHECK(info.extent == (float)(30.0 * (50.0 + 20.0) + 3.0));
  /* an infinite coordinate in a drawn path: no finite bound */
  s.segments[0].x1 = INFINITY;
  d = fu_data(&s);
  CHECK_OK(cn_scene_check(&d, &info));
  CHECK(isinf(info.extent));
}

/* flatten's scans in one workgroup (cn_tuning.flatten_scan_one_block_max)
 * give the same lines as the scan's own shapes, at the threshold and one
 * above it, for the subpath links' scan (segments) and the line offsets'
 * (pairs + 1); the devices' workgroups of 1024 put the default range at
 * 16385..32768 elements. */
TEST(flatten_scan_one_block_threshold) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  const uint32_t T = 20001;
  fu_scene *s = calloc(1, sizeof *s);
  /* fills: links' scan over S, offsets' over S + 1 (T - 1: T and T - 1; T: T + 1 and T);
   * with a stroke: offsets' over 2S + 1 (T, T + 2) */
  const struct { uint32_t segs; bool stroke; } cases[] = {
      {T - 1, false}, {T, false}, {(T - 1) / 2, true}, {(T + 1) / 2, true}};
  cn_tuning tunings[3] = {{.flatten_scan_one_block_max = T}, {.flatten_scan_one_block_max = CN_SMALL_OFF}, {0}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    check_tunings_agree(ctx, s, cases[c].segs, cases[c].stroke, tunings);
  /* and against the CPU reference once, at the threshold */
  zigzag_scene(s, T, false);
  cn_context_set_tuning(ctx, &tunings[0]);
  uint32_t nl = 0;
  free(run_both(s, NULL, &nl, NULL));
  cn_context_set_tuning(ctx, NULL);
  CHECK(nl > T);
  free(s);
}

/* The count and write passes numbering the lines without a scan between them
 * (cn_tuning.flatten_write_scan_max) give the same lines and element records
 * as with the scan: at the threshold and one above it, many workgroups of
 * pairs, a fill and a stroke. */
TEST(flatten_write_scan_threshold) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  const uint32_t T = 1000;
  fu_scene *s = calloc(1, sizeof *s);
  const struct { uint32_t segs; bool stroke; } cases[] = {{T, false}, {T + 1, false}, {T / 2, true}, {T / 2 + 1, true},
                                                          {63, false}, {65, true}};
  cn_tuning tunings[3] = {{.flatten_write_scan_max = T}, {.flatten_write_scan_max = CN_SMALL_OFF}, {0}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
    check_tunings_agree(ctx, s, cases[c].segs, cases[c].stroke, tunings);
  /* against the CPU reference at the threshold (a stroke: 2 x 500 pairs) */
  zigzag_scene(s, T / 2, true);
  cn_context_set_tuning(ctx, &tunings[0]);
  uint32_t nl = 0;
  cn_flatten_elem el[2];
  free(run_both(s, NULL, &nl, el));
  cn_context_set_tuning(ctx, NULL);
  CHECK(nl > T);
  free(s);
}

TEST_MAIN(T(fill_square_exact), T(scene_extent_per_element), T(flatten_scan_one_block_threshold), T(flatten_write_scan_threshold), T(fill_open_subpath_and_view), T(fill_curve_tolerance), T(fill_random_gpu_vs_cpu),
          T(fill_overflow_rerun), T(fill_adversarial), T(flatten_bad_input),
          T(flatten_real_scenes))
