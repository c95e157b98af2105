/* test_render.c: the renderer core (coarse + fine) against exact expectations
 * and against the CPU reference of render_ref.h.
 *
 * Tolerance: images are compared as premultiplied RGBA8 (rgb * a / 255); a
 * pixel matches when every channel is within 1 of the expectation (the GPU
 * works in 32-bit floats, the reference in doubles; rounding at .5 may differ).
 * Hand-computed expectations (coverage of a known square, W3C blend results)
 * use the same tolerance. Every comparison with the reference runs in both
 * anti-aliasing modes (CN_AA_AREA, CN_AA_SS16); the supersampled mode must
 * match exactly (the reference follows Skia's fixed point per line, the GPU
 * the tile decomposition), ties at sample centres included. */
#include "render_ref.h"
#include "test.h"

#define CN_MAX(a, b) ((a) > (b) ? (a) : (b))
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static cn_renderer *renderer(const cn_renderer_desc *desc) {
  cn_context *ctx = test_context();
  if (!ctx) return NULL;
  cn_renderer *r = NULL;
  CHECK_OK(cn_renderer_create(ctx, desc, &r));
  return r;
}

/* Renders s (flattened on the CPU) at w x h with anti-aliasing aa; returns malloc'd RGBA8 or NULL. */
static uint8_t *gpu_render_aa(cn_renderer *r, const ref_scene *s, int w, int h, const float *bg, uint32_t aa) {
  cn_scene_data d = ref_data(s, (float)w, (float)h);
  ref_lines *L = ref_flatten_alloc(&d);
  uint8_t *px = calloc((size_t)w * h, 4);
  cn_render_view v = {.width = (uint32_t)w, .height = (uint32_t)h, .aa = aa};
  if (bg) memcpy(v.background, bg, sizeof v.background);
  cn_result res = cn_render_lines_to_rgba8(r, &d, L->v, L->n, &v, px);
  CHECK_OK(res);
  ref_lines_free(L);
  if (res != CN_OK) {
    free(px);
    return NULL;
  }
  return px;
}

static uint8_t *gpu_render(cn_renderer *r, const ref_scene *s, int w, int h, const float *bg) {
  return gpu_render_aa(r, s, w, h, bg, CN_AA_AREA);
}

static void premul8(const uint8_t *p, int *o) {
  for (int i = 0; i < 3; i++) o[i] = (int)lround(p[i] * p[3] / 255.0);
  o[3] = p[3];
}

/* Counts pixels differing by more than tol in premultiplied RGBA8; prints the first few. */
static int compare(const char *what, const uint8_t *got, const uint8_t *want, int w, int h, int tol) {
  int bad = 0;
  for (int i = 0; i < w * h; i++) {
    int a[4], b[4];
    premul8(got + 4 * i, a);
    premul8(want + 4 * i, b);
    int diff = 0;
    for (int c = 0; c < 4; c++) diff = CN_MAX(diff, abs(a[c] - b[c]));
    if (diff > tol) {
      if (bad < 5)
        fprintf(stderr, "  %s: pixel (%d,%d): got %d %d %d %d want %d %d %d %d\n", what, i % w, i / w, got[4 * i],
                got[4 * i + 1], got[4 * i + 2], got[4 * i + 3], want[4 * i], want[4 * i + 1], want[4 * i + 2],
                want[4 * i + 3]);
      bad++;
    }
  }
  return bad;
}


static int check_against_ref_tol(const char *what, const ref_scene *s, int w, int h, const cn_renderer_desc *desc,
                                 int tol);
/* GPU result equals the CPU reference (premultiplied, +-1), in both anti-aliasing modes. */
static void check_against_ref(const char *what, const ref_scene *s, int w, int h, const cn_renderer_desc *desc) {
  check_against_ref_tol(what, s, w, h, desc, 1);
}

/* The same with tolerance tol; returns the number of pixels compared in the
 * area mode (0 when no GPU). */
static int check_against_ref_tol(const char *what, const ref_scene *s, int w, int h, const cn_renderer_desc *desc,
                                 int tol) {
  int compared = 0;
  cn_renderer *r = renderer(desc);
  if (!r) return 0;
  for (uint32_t aa = 0; aa < CN_AA_COUNT; aa++) {
    uint8_t *got = gpu_render_aa(r, s, w, h, NULL, aa);
    if (!got) break;
    cn_scene_data d = ref_data(s, (float)w, (float)h);
    ref_lines *L = ref_flatten_alloc(&d);
    uint8_t *want = malloc((size_t)w * h * 4);
    ref_render_aa(&d, L, w, h, aa, want);
    int bad = compare(what, got, want, w, h, tol);
    if (bad) fprintf(stderr, "  %s (%s): %d pixels differ\n", what, aa == CN_AA_SS16 ? "ss16" : "area", bad);
    CHECK(bad == 0);
    if (aa == CN_AA_AREA) compared = w * h;
    free(want);
    ref_lines_free(L);
    free(got);
  }
  cn_renderer_destroy(r);
  return compared;
}

/* ---------------------------------------------------------------- tests */

/* A rectangle at fractional coordinates: coverage of each pixel is known exactly. */
TEST(render_rect_exact_coverage) {
  static ref_scene s;
  ref_init(&s);
  uint32_t p = ref_rect(&s, 10.25f, 20.5f, 40.75f, 50.0f);
  ref_fill(&s, p, ref_solid(&s, 1, 0, 0, 1), CN_RULE_NONZERO);
  cn_renderer *r = renderer(NULL);
  if (!r) return;
  uint8_t *px = gpu_render(r, &s, 64, 64, NULL);
  if (px) {
    int bad = 0;
    for (int y = 0; y < 64; y++)
      for (int x = 0; x < 64; x++) {
        double cx = fmax(0, fmin(x + 1, 40.75) - fmax(x, 10.25));
        double cy = fmax(0, fmin(y + 1, 50.0) - fmax(y, 20.5));
        int want_a = (int)lround(cx * cy * 255), got_a = px[4 * (y * 64 + x) + 3];
        if (abs(want_a - got_a) > 1) {
          if (bad++ < 5) fprintf(stderr, "  (%d,%d): alpha %d, want %d\n", x, y, got_a, want_a);
        }
        if (got_a > 0 && px[4 * (y * 64 + x)] != 255) bad++;
      }
    CHECK(bad == 0);
    /* spot checks: interior, left edge (0.75), corner (0.75 * 0.5) */
    CHECK_EQ_U64(px[4 * (30 * 64 + 20) + 3], 255);
    CHECK_EQ_U64(px[4 * (30 * 64 + 10) + 3], 191);
    CHECK_EQ_U64(px[4 * (20 * 64 + 10) + 3], 96);
    CHECK_EQ_U64(px[4 * (5 * 64 + 5) + 3], 0);
  }
  free(px);
  cn_renderer_destroy(r);
}

/* ---- supersampled coverage (CN_AA_SS16), computed here sample by sample */

/* A sample point inside a shape, with the scan converter's conventions: an
 * edge at x covers the samples strictly right of it, an edge's y extent takes
 * the sample rows in (y_top, y_bottom]. */
typedef bool (*ss_inside)(double sx, double sy);
static bool ss_in_rect(double sx, double sy, double x0, double y0, double x1, double y1) {
  return x0 < sx && sx <= x1 && y0 < sy && sy <= y1;
}

/* Skia's alpha of pixel (px, py): per sample row 16 per covered sample, a full
 * row 64 (the pixel's last row 63). */
static int ss_alpha(ss_inside in, int px, int py) {
  int alpha = 0;
  for (int j = 0; j < 4; j++) {
    int n = 0;
    for (int i = 0; i < 4; i++) n += in(px + (i + 0.5) / 4, py + (j + 0.5) / 4);
    alpha += n == 4 ? 64 - (j == 3) : 16 * n;
  }
  return alpha;
}

/* Renders s (opaque black paint) in the mode aa and checks every pixel's alpha
 * against in(); returns the alpha image (malloc'd) or NULL. */
static uint8_t *check_ss_exact(const char *what, const ref_scene *s, int w, int h, ss_inside in) {
  cn_renderer *r = renderer(NULL);
  if (!r) return NULL;
  uint8_t *px = gpu_render_aa(r, s, w, h, NULL, CN_AA_SS16);
  cn_renderer_destroy(r);
  if (!px) return NULL;
  int bad = 0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      int want = ss_alpha(in, x, y), got = px[4 * (y * w + x) + 3];
      if (got != want && bad++ < 5) fprintf(stderr, "  %s: (%d,%d): alpha %d, want %d\n", what, x, y, got, want);
    }
  if (bad) fprintf(stderr, "  %s: %d pixels differ\n", what, bad);
  CHECK(bad == 0);
  return px;
}

/* The frame every image test of the resvg suite draws: a 1-unit stroke at
 * 3.75 px per unit, its edges at 1.875 and 5.625 px (sample centres). */
static bool ss_frame(double sx, double sy) {
  return ss_in_rect(sx, sy, 1.875, 1.875, 62.125, 62.125) && !ss_in_rect(sx, sy, 5.625, 5.625, 58.375, 58.375);
}

TEST(render_ss16_frame_exact) {
  static ref_scene s;
  ref_init(&s);
  uint32_t p = ref_path_begin(&s);
  ref_line(&s, 1.875f, 1.875f, 62.125f, 1.875f); /* outer, clockwise */
  ref_line(&s, 62.125f, 1.875f, 62.125f, 62.125f);
  ref_line(&s, 62.125f, 62.125f, 1.875f, 62.125f);
  ref_line(&s, 1.875f, 62.125f, 1.875f, 1.875f);
  ref_close(&s);
  ref_line(&s, 5.625f, 5.625f, 5.625f, 58.375f); /* inner, anticlockwise */
  ref_line(&s, 5.625f, 58.375f, 58.375f, 58.375f);
  ref_line(&s, 58.375f, 58.375f, 58.375f, 5.625f);
  ref_line(&s, 58.375f, 5.625f, 5.625f, 5.625f);
  ref_close(&s);
  ref_fill(&s, p, ref_solid(&s, 0, 0, 0, 1), CN_RULE_NONZERO);
  uint8_t *px = check_ss_exact("frame", &s, 64, 64, ss_frame);
  if (px) {
    /* tiny-skia's values, which resvg's references hold */
    CHECK_EQ_U64(px[4 * (30 * 64 + 1) + 3], 0);   /* edge at 1.875: no sample right of it in pixel 1 */
    CHECK_EQ_U64(px[4 * (30 * 64 + 2) + 3], 255);
    CHECK_EQ_U64(px[4 * (30 * 64 + 5) + 3], 192); /* edge at 5.625: 3 of 4 columns, 4 rows */
    CHECK_EQ_U64(px[4 * (30 * 64 + 6) + 3], 0);
    CHECK_EQ_U64(px[4 * (1 * 64 + 30) + 3], 0);   /* the same along y */
    CHECK_EQ_U64(px[4 * (5 * 64 + 30) + 3], 192); /* rows 0-2 of pixel 5 full, 64 each */
    CHECK_EQ_U64(px[4 * (5 * 64 + 5) + 3], 240);  /* corner: three full rows and 3 samples */
    CHECK_EQ_U64(px[4 * (30 * 64 + 62) + 3], 64); /* 62.125: the sample at the edge is covered */
  }
  free(px);
  /* the area mode gives the exact area: 0.125 and 0.625 of the pixel */
  cn_renderer *r = renderer(NULL);
  if (!r) return;
  px = gpu_render(r, &s, 64, 64, NULL);
  if (px) {
    CHECK_EQ_U64(px[4 * (30 * 64 + 1) + 3], 32);
    CHECK_EQ_U64(px[4 * (30 * 64 + 5) + 3], 159);
  }
  free(px);
  cn_renderer_destroy(r);
}

static bool ss_rect_a(double sx, double sy) { return ss_in_rect(sx, sy, 10.3, 10.25, 20.5, 20.75); }
static bool ss_rect_b(double sx, double sy) { return ss_in_rect(sx, sy, 14.5, 30.125, 33.875, 47.5); }
/* a triangle with a diagonal edge of slope 1/2 (x at sample rows on odd 1/16ths: no ties) across tiles */
static bool ss_triangle(double sx, double sy) { return 3 < sy && sy <= 35 && 12 < sx && sx <= 12 + (sy - 3) / 2; }
static bool ss_sq1(double sx, double sy) { return ss_in_rect(sx, sy, 10.3, 10.3, 22.6, 22.6); }
static bool ss_sq2(double sx, double sy) { return ss_in_rect(sx, sy, 18.125, 18.125, 30.875, 30.875); }
static bool ss_xor(double sx, double sy) { return ss_sq1(sx, sy) != ss_sq2(sx, sy); }
static bool ss_or(double sx, double sy) { return ss_sq1(sx, sy) || ss_sq2(sx, sy); }

/* Half- and quarter-pixel edges, a diagonal edge, two squares overlapping
 * under both rules: every pixel's alpha as computed sample by sample. */
TEST(render_ss16_shapes_exact) {
  static ref_scene s;
  ref_init(&s);
  ref_fill(&s, ref_rect(&s, 10.3f, 10.25f, 20.5f, 20.75f), ref_solid(&s, 0, 0, 0, 1), CN_RULE_NONZERO);
  uint8_t *px = check_ss_exact("rect", &s, 40, 40, ss_rect_a);
  if (px) {
    CHECK_EQ_U64(px[4 * (10 * 40 + 10) + 3], 144); /* 3 columns x 3 rows */
    CHECK_EQ_U64(px[4 * (15 * 40 + 10) + 3], 192); /* 3 columns x 4 rows */
    CHECK_EQ_U64(px[4 * (10 * 40 + 15) + 3], 191); /* rows 1-3 full: 64 + 64 + 63 */
    CHECK_EQ_U64(px[4 * (15 * 40 + 20) + 3], 128); /* 20.125, 20.375 <= 20.5 */
    CHECK_EQ_U64(px[4 * (20 * 40 + 20) + 3], 96);
  }
  free(px);
  ref_init(&s);
  ref_fill(&s, ref_rect(&s, 14.5f, 30.125f, 33.875f, 47.5f), ref_solid(&s, 0, 0, 0, 1), CN_RULE_NONZERO);
  free(check_ss_exact("tile-crossing rect", &s, 50, 50, ss_rect_b));
  ref_init(&s);
  float tri[6] = {12, 3, 28, 35, 12, 35};
  ref_fill(&s, ref_poly(&s, tri, 3), ref_solid(&s, 0, 0, 0, 1), CN_RULE_NONZERO);
  free(check_ss_exact("diagonal", &s, 40, 40, ss_triangle));
  for (uint32_t rule = 0; rule < 2; rule++) {
    ref_init(&s);
    uint32_t p = ref_path_begin(&s);
    float a[4] = {10.3f, 10.3f, 22.6f, 22.6f}, b[4] = {18.125f, 18.125f, 30.875f, 30.875f};
    for (int k = 0; k < 2; k++) {
      const float *q = k ? b : a;
      ref_line(&s, q[0], q[1], q[2], q[1]);
      ref_line(&s, q[2], q[1], q[2], q[3]);
      ref_line(&s, q[2], q[3], q[0], q[3]);
      ref_line(&s, q[0], q[3], q[0], q[1]);
      ref_close(&s);
    }
    ref_fill(&s, p, ref_solid(&s, 0, 0, 0, 1), rule);
    px = check_ss_exact(rule == CN_RULE_EVENODD ? "overlap even-odd" : "overlap nonzero", &s, 40, 40,
                        rule == CN_RULE_EVENODD ? ss_xor : ss_or);
    if (px) CHECK_EQ_U64(px[4 * (20 * 40 + 20) + 3], rule == CN_RULE_EVENODD ? 0 : 255);
    free(px);
  }
  /* an unknown mode is refused */
  cn_renderer *r = renderer(NULL);
  if (!r) return;
  cn_scene_data d = ref_data(&s, 8, 8);
  uint8_t out[8 * 8 * 4];
  cn_render_view v = {.width = 8, .height = 8, .aa = CN_AA_COUNT};
  CHECK(cn_render_lines_to_rgba8(r, &d, NULL, 0, &v, out) == CN_ERROR_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(cn_last_error(), "aa 2");
  cn_renderer_destroy(r);
}

/* Polygons with vertices on multiples of 1.875 px (half units at 3.75 px per
 * unit, as the resvg suite draws): edges through sample centres on many rows,
 * 45-degree and steeper diagonals, lines reaching far outside the target. */
TEST(render_ss16_ties_vs_reference) {
  test_seed(1875);
  for (int round = 0; round < 3; round++) {
    static ref_scene s;
    ref_init(&s);
    for (int k = 0; k < 14; k++) {
      float xy[24];
      int n = 3 + (int)test_rand_below(9);
      for (int i = 0; i < n; i++) {
        xy[2 * i] = 1.875f * (float)test_rand_below(60) - 7.5f;
        xy[2 * i + 1] = 1.875f * (float)test_rand_below(50) - 7.5f;
      }
      if (round == 2 && k < 3) xy[0] = k == 0 ? -900.0f : 700.0f, xy[1] = k == 1 ? -600.0f : 45.0f;
      uint32_t paint = ref_solid(&s, (float)test_rand_below(256) / 255, 0.3f, 0.8f, 0.5f);
      ref_fill(&s, ref_poly(&s, xy, n), paint, (uint32_t)test_rand_below(2));
    }
    check_against_ref("1.875-grid polygons", &s, 101, 83, NULL);
  }
}

/* A five-point star: the centre is inside with nonzero, outside with even-odd. */
TEST(render_star_nonzero_evenodd) {
  float xy[10];
  for (int i = 0; i < 5; i++) {
    double a = -M_PI / 2 + i * 4 * M_PI / 5;
    xy[2 * i] = (float)(50 + 40 * cos(a));
    xy[2 * i + 1] = (float)(50 + 40 * sin(a));
  }
  for (uint32_t rule = 0; rule < 2; rule++) {
    static ref_scene s;
    ref_init(&s);
    ref_fill(&s, ref_poly(&s, xy, 5), ref_solid(&s, 0, 0, 1, 1), rule);
    cn_renderer *r = renderer(NULL);
    if (!r) return;
    uint8_t *px = gpu_render(r, &s, 100, 100, NULL);
    if (px) {
      CHECK_EQ_U64(px[4 * (50 * 100 + 50) + 3], rule == CN_RULE_NONZERO ? 255 : 0);
      CHECK_EQ_U64(px[4 * (20 * 100 + 50) + 3], 255); /* inside the top point */
      CHECK_EQ_U64(px[4 * (2 * 100 + 2) + 3], 0);
    }
    free(px);
    cn_renderer_destroy(r);
    check_against_ref(rule ? "star evenodd" : "star nonzero", &s, 100, 100, NULL);
  }
}

/* Random polygons (self-intersecting, crossing tile and image borders, partly
 * outside the image) with both rules and translucent colours. */
TEST(render_random_polygons_vs_reference) {
  test_seed(42);
  for (int round = 0; round < 3; round++) {
    static ref_scene s;
    ref_init(&s);
    int w = 97 + round * 40, h = 83 + round * 30;
    for (int k = 0; k < 12; k++) {
      float xy[24];
      int n = 3 + (int)test_rand_below(9);
      for (int i = 0; i < n; i++) {
        xy[2 * i] = (float)test_rand_below(w * 160) / 100.0f - w * 0.3f;
        xy[2 * i + 1] = (float)test_rand_below(h * 160) / 100.0f - h * 0.3f;
      }
      uint32_t paint = ref_solid(&s, (float)test_rand_below(256) / 255, (float)test_rand_below(256) / 255,
                                 (float)test_rand_below(256) / 255, 0.3f + (float)test_rand_below(180) / 255);
      ref_fill(&s, ref_poly(&s, xy, n), paint, (uint32_t)test_rand_below(2));
    }
    check_against_ref("random polygons", &s, w, h, NULL);
  }
  /* vertices on an 8-pixel grid: edges on tile borders, horizontal and vertical runs */
  for (int round = 0; round < 2; round++) {
    static ref_scene s;
    ref_init(&s);
    for (int k = 0; k < 16; k++) {
      float xy[24];
      int n = 3 + (int)test_rand_below(9);
      for (int i = 0; i < n; i++) {
        xy[2 * i] = 8.0f * (float)test_rand_below(16) - 8;
        xy[2 * i + 1] = 8.0f * (float)test_rand_below(14) - 8;
      }
      uint32_t paint = ref_solid(&s, (float)test_rand_below(256) / 255, 0.4f, 0.7f, 0.4f);
      ref_fill(&s, ref_poly(&s, xy, n), paint, (uint32_t)test_rand_below(2));
    }
    check_against_ref("grid polygons", &s, 112, 96, NULL);
  }
}

/* Wide, narrow and tall targets: rows of many tiles (backdrop sums over
 * several loads of a subgroup per row), rows of one tile (several rows per
 * load), lines crossing dozens of tile rows and columns (tile_seg spreads
 * their pieces over the workgroup), many lines per element. */
TEST(render_wide_and_tall_vs_reference) {
  test_seed(7);
  const int sizes[3][2] = {{2200, 40}, {40, 700}, {600, 300}};
  for (int round = 0; round < 3; round++) {
    static ref_scene s;
    ref_init(&s);
    int w = sizes[round][0], h = sizes[round][1];
    for (int k = 0; k < 10; k++) {
      float xy[64];
      int n = 3 + (int)test_rand_below(29);
      for (int i = 0; i < n; i++) {
        xy[2 * i] = (float)test_rand_below(w * 140) / 100.0f - w * 0.2f;
        xy[2 * i + 1] = (float)test_rand_below(h * 140) / 100.0f - h * 0.2f;
      }
      uint32_t paint = ref_solid(&s, (float)test_rand_below(256) / 255, (float)test_rand_below(256) / 255,
                                 (float)test_rand_below(256) / 255, 0.3f + (float)test_rand_below(180) / 255);
      ref_fill(&s, ref_poly(&s, xy, n), paint, (uint32_t)test_rand_below(2));
    }
    /* a rectangle over the whole target: every tile inside, no piece in most */
    ref_fill(&s, ref_rect(&s, -3.5f, -2.25f, (float)w + 5, (float)h + 1), ref_solid(&s, 0.2f, 0.5f, 0.1f, 0.5f),
             CN_RULE_NONZERO);
    check_against_ref("wide and tall", &s, w, h, NULL);
  }
}

/* Axis-aligned edges exactly on tile borders, vertices on tile corners, tiny
 * and huge shapes, horizontal lines: the degenerate cases of tiling. */
TEST(render_tile_border_cases) {
  static ref_scene s;
  ref_init(&s);
  ref_fill(&s, ref_rect(&s, 16, 16, 48, 32), ref_solid(&s, 1, 0, 0, 0.8f), CN_RULE_NONZERO);
  float tri[6] = {32, 0, 64, 32, 0, 32};
  ref_fill(&s, ref_poly(&s, tri, 3), ref_solid(&s, 0, 1, 0, 0.6f), CN_RULE_NONZERO);
  ref_fill(&s, ref_rect(&s, 40.2f, 40.2f, 40.7f, 40.9f), ref_solid(&s, 0, 0, 1, 1), CN_RULE_NONZERO);
  ref_fill(&s, ref_rect(&s, -1000, 60, 1000, 61.5f), ref_solid(&s, 1, 1, 0, 1), CN_RULE_NONZERO);
  ref_fill(&s, ref_rect(&s, 70, -500, 71.25f, 500), ref_solid(&s, 0, 1, 1, 1), CN_RULE_NONZERO);
  /* horizontal edges on tile rows, entered and left along them (a stroke's joins do this) */
  float steps[16] = {20, 32, 40, 32, 40, 48, 72, 48, 72, 64, 88, 64, 88, 80, 20, 80};
  ref_fill(&s, ref_poly(&s, steps, 8), ref_solid(&s, 0.3f, 0.6f, 0.1f, 0.5f), CN_RULE_NONZERO);
  float steps2[12] = {8, 16, 60, 16, 60, 33.5f, 30, 33.5f, 30, 16.0f, 8, 40};
  ref_fill(&s, ref_poly(&s, steps2, 6), ref_solid(&s, 0.9f, 0.1f, 0.6f, 0.5f), CN_RULE_EVENODD);
  float zig[12] = {0, 48, 16, 64, 32, 48, 48, 64, 64, 48, 32, 96};
  ref_fill(&s, ref_poly(&s, zig, 6), ref_solid(&s, 0.5f, 0, 1, 0.7f), CN_RULE_EVENODD);
  ref_fill(&s, ref_circle(&s, 64, 64, 30), ref_solid(&s, 0.2f, 0.4f, 0.6f, 0.5f), CN_RULE_NONZERO);
  check_against_ref("tile borders", &s, 100, 100, NULL);
}

/* A scene drawn entirely off screen, an empty scene, and an opaque cover. */
TEST(render_empty_and_offscreen) {
  static ref_scene s;
  ref_init(&s);
  ref_fill(&s, ref_rect(&s, -50, -50, -10, -10), ref_solid(&s, 1, 0, 0, 1), CN_RULE_NONZERO);
  ref_fill(&s, ref_rect(&s, 200, 10, 300, 30), ref_solid(&s, 1, 0, 0, 1), CN_RULE_NONZERO);
  check_against_ref("offscreen", &s, 64, 48, NULL);
  ref_init(&s);
  cn_renderer *r = renderer(NULL);
  if (!r) return;
  float bg[4] = {0, 0.5f, 1, 1};
  uint8_t *px = gpu_render(r, &s, 40, 40, bg);
  if (px) {
    CHECK_EQ_U64(px[0], 0);
    CHECK_EQ_U64(px[1], 128);
    CHECK_EQ_U64(px[2], 255);
    CHECK_EQ_U64(px[3], 255);
  }
  free(px);
  cn_renderer_destroy(r);
}

/* Clips: a circle clip, an even-odd clip, nested clips, content outside. */
TEST(render_clips_vs_reference) {
  static ref_scene s;
  ref_init(&s);
  ref_fill(&s, ref_rect(&s, 0, 0, 120, 120), ref_solid(&s, 0.9f, 0.9f, 0.9f, 1), CN_RULE_NONZERO);
  ref_begin_clip(&s, ref_circle(&s, 60, 60, 45), CN_RULE_NONZERO);
  ref_fill(&s, ref_rect(&s, 10, 10, 80, 110), ref_solid(&s, 1, 0, 0, 0.9f), CN_RULE_NONZERO);
  float xy[10];
  for (int i = 0; i < 5; i++) {
    double a = -M_PI / 2 + i * 4 * M_PI / 5;
    xy[2 * i] = (float)(60 + 50 * cos(a));
    xy[2 * i + 1] = (float)(60 + 50 * sin(a));
  }
  ref_begin_clip(&s, ref_poly(&s, xy, 5), CN_RULE_EVENODD);
  ref_fill(&s, ref_rect(&s, 30, 0, 120, 120), ref_solid(&s, 0, 0, 1, 0.7f), CN_RULE_NONZERO);
  ref_end_clip(&s);
  ref_end_clip(&s);
  /* a clip wholly off screen hides its content */
  ref_begin_clip(&s, ref_rect(&s, 200, 200, 220, 220), CN_RULE_NONZERO);
  ref_fill(&s, ref_rect(&s, 0, 0, 120, 120), ref_solid(&s, 0, 1, 0, 1), CN_RULE_NONZERO);
  ref_end_clip(&s);
  check_against_ref("clips", &s, 120, 120, NULL);
}

/* Clip and blend nesting deeper than the fine stage's registers: spills. */
TEST(render_deep_nesting_spills) {
  static ref_scene s;
  ref_init(&s);
  ref_fill(&s, ref_rect(&s, 0, 0, 80, 80), ref_solid(&s, 1, 1, 1, 1), CN_RULE_NONZERO);
  const int depth = 12;
  for (int i = 0; i < depth; i++) {
    if (i % 2) ref_begin_blend(&s, (uint32_t)(i % 16), 0.9f, CN_BLEND_ISOLATED);
    else ref_begin_clip(&s, ref_circle(&s, 40, 40, 39.0f - 2.5f * i), CN_RULE_NONZERO);
    ref_fill(&s, ref_rect(&s, 3.0f * i, 0, 80, 80),
             ref_solid(&s, (i % 3) / 2.0f, (i % 5) / 4.0f, (i % 7) / 6.0f, 0.5f), CN_RULE_NONZERO);
  }
  for (int i = depth - 1; i >= 0; i--) {
    if (i % 2) ref_end_blend(&s);
    else ref_end_clip(&s);
  }
  check_against_ref("deep nesting", &s, 80, 80, NULL);
  /* plain loads draw four pixels an invocation: their levels spill too */
  check_against_ref("deep nesting, loads", &s, 80, 80, &(cn_renderer_desc){.fine_runs = CN_RENDER_FINE_RUNS_LOADS});
}

/* Each of the 16 blend modes on a known pair of colours, against the W3C
 * formulas evaluated here, and the whole image against the reference. */
TEST(render_blend_modes) {
  const double cb[3] = {0.8, 0.4, 0.2}, cs[3] = {0.3, 0.6, 0.9};
  for (uint32_t m = 0; m < CN_BLEND_MODE_COUNT; m++) {
    static ref_scene s;
    ref_init(&s);
    ref_fill(&s, ref_rect(&s, 0, 0, 32, 32), ref_solid(&s, (float)cb[0], (float)cb[1], (float)cb[2], 1),
             CN_RULE_NONZERO);
    ref_begin_blend(&s, m, 1, 0);
    ref_fill(&s, ref_rect(&s, 8, 8, 32, 32), ref_solid(&s, (float)cs[0], (float)cs[1], (float)cs[2], 1),
             CN_RULE_NONZERO);
    ref_end_blend(&s);
    cn_renderer *r = renderer(NULL);
    if (!r) return;
    uint8_t *px = gpu_render(r, &s, 32, 32, NULL);
    if (px) {
      /* both opaque: the result is B(cb, cs) */
      double want[3];
      ref_blend_fn(m, cb, cs, want);
      const uint8_t *p = px + 4 * (16 * 32 + 16);
      for (int c = 0; c < 3; c++) {
        int w8 = (int)lround(ref_clamp01(want[c]) * 255);
        if (abs(p[c] - w8) > 1) {
          fprintf(stderr, "  mode %u channel %d: got %d want %d\n", m, c, p[c], w8);
          test_failures++;
        }
      }
      CHECK_EQ_U64(p[3], 255);
    }
    free(px);
    cn_renderer_destroy(r);
    /* translucent pair inside a group with opacity */
    ref_init(&s);
    ref_fill(&s, ref_rect(&s, 0, 0, 32, 32), ref_solid(&s, 0, 0, 0, 0.5f), CN_RULE_NONZERO);
    ref_begin_blend(&s, m, 0.9f, CN_BLEND_ISOLATED);
    ref_fill(&s, ref_rect(&s, 0, 0, 32, 32), ref_solid(&s, 0.5f, 0.25f, 1 / 6.0f, 0.5f), CN_RULE_NONZERO);
    ref_end_blend(&s);
    check_against_ref("blend on translucent black", &s, 32, 32, NULL);
    ref_init(&s);
    ref_fill(&s, ref_circle(&s, 14, 14, 12), ref_solid(&s, 0.9f, 0.3f, 0.1f, 0.7f), CN_RULE_NONZERO);
    ref_begin_blend(&s, m, 0.8f, CN_BLEND_ISOLATED);
    ref_fill(&s, ref_circle(&s, 20, 20, 11), ref_solid(&s, 0.1f, 0.5f, 0.8f, 0.6f), CN_RULE_NONZERO);
    ref_end_blend(&s);
    check_against_ref("blend translucent", &s, 32, 32, NULL);
  }
}

/* Where the backdrop or the source is transparent the cross term of every
 * blend mode is 0: a group in any mode over nothing draws exactly what a
 * normal group does, and pixels its content misses keep the backdrop
 * exactly (fine skips the mode's arithmetic there: render_blend.glsl). */
TEST(render_blend_transparent_exact) {
  cn_renderer *r = renderer(NULL);
  if (!r) return;
  for (uint32_t m = 0; m < CN_BLEND_MODE_COUNT; m++) {
    uint8_t *img[3];
    for (int k = 0; k < 3; k++) {
      static ref_scene s;
      ref_init(&s);
      /* k 2: only the backdrop; else a group (mode m, k 1 normal) of two
       * circles over a translucent backdrop in the left half, over nothing
       * in the right half */
      ref_fill(&s, ref_rect(&s, 0, 0, 24, 32), ref_solid(&s, 0.8f, 0.4f, 0.2f, 0.6f), CN_RULE_NONZERO);
      if (k < 2) {
        ref_begin_blend(&s, k == 0 ? m : CN_BLEND_NORMAL, 0.7f, m % 2 ? CN_BLEND_ISOLATED : 0);
        ref_fill(&s, ref_circle(&s, 34, 14, 9.5f), ref_solid(&s, 0.1f, 0.6f, 0.9f, 0.8f), CN_RULE_NONZERO);
        ref_fill(&s, ref_circle(&s, 38, 20, 7.3f), ref_solid(&s, 0.9f, 0.9f, 0.1f, 0.5f), CN_RULE_NONZERO);
        ref_fill(&s, ref_rect(&s, 26, 2, 28, 30), ref_solid(&s, 0.3f, 0.2f, 0.1f, 1), CN_RULE_NONZERO);
        ref_end_blend(&s);
      }
      img[k] = gpu_render(r, &s, 48, 32, NULL);
    }
    if (img[0] && img[1] && img[2]) {
      int bad = 0;
      for (int y = 0; y < 32; y++)
        for (int x = 0; x < 48; x++) {
          const uint8_t *got = img[0] + 4 * (y * 48 + x);
          const uint8_t *want = x >= 24 ? img[1] + 4 * (y * 48 + x) : img[2] + 4 * (y * 48 + x);
          if (memcmp(got, want, 4) != 0 && bad++ < 3)
            fprintf(stderr, "  mode %u, pixel (%d,%d): %d %d %d %d, want %d %d %d %d\n", m, x, y, got[0], got[1], got[2],
                    got[3], want[0], want[1], want[2], want[3]);
        }
      CHECK_EQ_U64(bad, 0);
    } else {
      CHECK(false);
    }
    for (int k = 0; k < 3; k++) free(img[k]);
  }
  cn_renderer_destroy(r);
}

/* Hand-checked values for two modes: multiply and screen on grey levels. */
TEST(render_blend_known_values) {
  static ref_scene s;
  ref_init(&s);
  ref_fill(&s, ref_rect(&s, 0, 0, 16, 16), ref_solid(&s, 0.5f, 0.5f, 0.5f, 1), CN_RULE_NONZERO);
  ref_begin_blend(&s, CN_BLEND_MULTIPLY, 1, 0);
  ref_fill(&s, ref_rect(&s, 0, 0, 8, 16), ref_solid(&s, 0.5f, 1, 0, 1), CN_RULE_NONZERO);
  ref_end_blend(&s);
  ref_begin_blend(&s, CN_BLEND_SCREEN, 1, 0);
  ref_fill(&s, ref_rect(&s, 8, 0, 16, 16), ref_solid(&s, 0.5f, 1, 0, 1), CN_RULE_NONZERO);
  ref_end_blend(&s);
  cn_renderer *r = renderer(NULL);
  if (!r) return;
  uint8_t *px = gpu_render(r, &s, 16, 16, NULL);
  if (px) {
    /* multiply: 0.25 0.5 0 ; screen: 0.75 1 0.5 */
    CHECK_EQ_U64(px[4 * 20 + 0], 64);
    CHECK_EQ_U64(px[4 * 20 + 1], 128);
    CHECK_EQ_U64(px[4 * 20 + 2], 0);
    CHECK_EQ_U64(px[4 * 28 + 0], 191);
    CHECK_EQ_U64(px[4 * 28 + 1], 255);
    CHECK_EQ_U64(px[4 * 28 + 2], 128);
  }
  free(px);
  cn_renderer_destroy(r);
}

static uint32_t add_gradient(ref_scene *s, uint32_t kind, uint32_t spread, const float *g, uint32_t xf) {
  uint32_t first = s->nstop;
  s->stops[s->nstop++] = (cn_stop){0.0f, 1, 0, 0, 1};
  s->stops[s->nstop++] = (cn_stop){0.4f, 0, 1, 0, 0.5f};
  s->stops[s->nstop++] = (cn_stop){0.45f, 0, 0, 1, 1}; /* steep, not a jump: +-1 holds */
  s->stops[s->nstop++] = (cn_stop){1.0f, 1, 1, 0, 1};
  cn_paint p = {.kind = kind, .stop_first = first, .stop_count = 4, .spread = spread, .transform = xf, .opacity = 0.9f};
  p.g0 = g[0], p.g1 = g[1], p.g2 = g[2], p.g3 = g[3], p.g4 = g[4], p.g5 = g[5];
  s->paints[s->npaint] = p;
  return s->npaint++;
}

/* Linear and radial (focal, with fr) gradients in each spread, under a transform. */
TEST(render_gradients_vs_reference) {
  static ref_scene s;
  for (uint32_t spread = 0; spread < 3; spread++) {
    ref_init(&s);
    s.transforms[1] = (cn_transform){0.8f, 0.3f, -0.2f, 0.9f, 10, 5};
    s.nt = 2;
    float lin[6] = {10, 10, 40, 25, 0, 0};
    ref_fill(&s, ref_rect(&s, 0, 0, 96, 48), add_gradient(&s, CN_PAINT_LINEAR, spread, lin, 1), CN_RULE_NONZERO);
    float rad[6] = {48, 70, 20, 55, 65, 3};
    ref_fill(&s, ref_circle(&s, 48, 72, 40), add_gradient(&s, CN_PAINT_RADIAL, spread, rad, 0), CN_RULE_NONZERO);
    float rad2[6] = {20, 20, 10, 40, 20, 0}; /* focal point outside: a cone */
    ref_fill(&s, ref_rect(&s, 50, 0, 96, 40), add_gradient(&s, CN_PAINT_RADIAL, spread, rad2, 1), CN_RULE_NONZERO);
    check_against_ref("gradients", &s, 96, 112, NULL);
  }
}

/* Random premultiplied texels; binary: every colour channel 0 or alpha (straight 0 or 255). */
static void random_texels(uint32_t *t, int n, unsigned *seed, bool binary) {
  for (int i = 0; i < n; i++) {
    uint32_t a = (uint32_t)(rand_r(seed) % 256), c[3];
    if (i % 7 == 0) a = 255;
    if (i % 11 == 0) a = 0;
    for (int k = 0; k < 3; k++) c[k] = binary ? (rand_r(seed) & 1 ? a : 0) : (a ? (uint32_t)rand_r(seed) % (a + 1) : 0);
    t[i] = c[0] | c[1] << 8 | c[2] << 16 | a << 24;
  }
}

/* Nearest sampling: texel edges never meet a pixel centre, the rectangle covers
 * whole pixels: the GPU output equals the reference exactly, clamped edges too. */
TEST(render_image_nearest_exact) {
  static ref_scene s;
  static uint32_t tex[13 * 9];
  unsigned seed = 7;
  for (int round = 0; round < 2; round++) {
    ref_init(&s);
    random_texels(tex, 13 * 9, &seed, true);
    uint32_t im = ref_image(&s, tex, 13, 9);
    cn_transform t = round ? (cn_transform){-4, 0, 0, 3, 70.25f, 6.25f} : (cn_transform){4, 0, 0, 3, 8.25f, 6.25f};
    uint32_t blue = ref_solid(&s, 0, 0, 1, 1);
    ref_fill(&s, ref_rect(&s, 0, 0, 80, 48), blue, CN_RULE_NONZERO); /* backdrop */
    uint32_t paint = ref_image_paint(&s, im, t, CN_SAMPLE_NEAREST, 1.0f);
    ref_fill(&s, ref_rect(&s, 2, 3, 77, 44), paint, CN_RULE_NONZERO); /* past the image: edge texels */
    check_against_ref_tol("image nearest", &s, 80, 48, NULL, 0);
  }
  /* a known texel value at a known pixel */
  ref_init(&s);
  uint32_t two[2] = {0xFF0000FFu, 0x80008000u}; /* opaque red, half-alpha green (premultiplied) */
  uint32_t im = ref_image(&s, two, 2, 1);
  ref_fill(&s, ref_rect(&s, 0, 0, 16, 16), ref_image_paint(&s, im, (cn_transform){8, 0, 0, 16, 0, 0}, CN_SAMPLE_NEAREST, 1),
           CN_RULE_NONZERO);
  cn_renderer *r = renderer(NULL);
  if (!r) return;
  uint8_t *px = gpu_render(r, &s, 16, 16, NULL);
  if (px) {
    const uint8_t *a = px + 4 * (5 * 16 + 3), *b = px + 4 * (5 * 16 + 12);
    CHECK(a[0] == 255 && a[1] == 0 && a[2] == 0 && a[3] == 255);
    CHECK(b[0] == 0 && b[1] == 255 && b[2] == 0 && b[3] == 128);
  }
  free(px);
  cn_renderer_destroy(r);
}

/* Bilinear sampling under rotation and scale, opacity, clamped edges, inside a
 * clip: within 1 of the reference (premultiplied RGBA8; float vs double). */
TEST(render_image_bilinear_vs_reference) {
  static ref_scene s;
  static uint32_t tex[17 * 11];
  unsigned seed = 99;
  for (int round = 0; round < 3; round++) {
    ref_init(&s);
    random_texels(tex, 17 * 11, &seed, false);
    uint32_t im = ref_image(&s, tex, 17, 11);
    double ang = 0.3 + round * 0.9, sc = 2.5 + round;
    cn_transform t = {(float)(sc * cos(ang)), (float)(sc * sin(ang)), (float)(-sc * sin(ang)), (float)(sc * cos(ang)),
                      40.3f, 10.7f};
    ref_begin_clip(&s, ref_circle(&s, 48, 40, 36), CN_RULE_NONZERO);
    uint32_t paint = ref_image_paint(&s, im, t, CN_SAMPLE_BILINEAR, round == 1 ? 0.6f : 1.0f);
    ref_fill(&s, ref_rect(&s, 3.5f, 2.25f, 93.0f, 77.75f), paint, CN_RULE_NONZERO);
    ref_end_clip(&s);
    check_against_ref_tol("image bilinear", &s, 96, 80, NULL, 1);
  }
}

/* Luminance and alpha masks (mask group, then the masked group). */
TEST(render_masks) {
  static ref_scene s;
  ref_init(&s);
  ref_fill(&s, ref_rect(&s, 0, 0, 64, 64), ref_solid(&s, 0, 0, 0.5f, 1), CN_RULE_NONZERO);
  ref_begin_blend(&s, CN_BLEND_NORMAL, 1, CN_BLEND_MASK_LUMINANCE);
  ref_fill(&s, ref_rect(&s, 0, 0, 32, 64), ref_solid(&s, 1, 1, 1, 1), CN_RULE_NONZERO);
  ref_fill(&s, ref_rect(&s, 32, 0, 64, 32), ref_solid(&s, 0.5f, 0.5f, 0.5f, 1), CN_RULE_NONZERO);
  ref_end_blend(&s);
  ref_begin_blend(&s, CN_BLEND_NORMAL, 1, CN_BLEND_MASKED);
  ref_fill(&s, ref_rect(&s, 0, 0, 64, 64), ref_solid(&s, 1, 0, 0, 1), CN_RULE_NONZERO);
  ref_end_blend(&s);
  ref_begin_blend(&s, CN_BLEND_NORMAL, 0.5f, CN_BLEND_MASK_ALPHA);
  ref_fill(&s, ref_circle(&s, 32, 48, 12), ref_solid(&s, 0, 0, 0, 1), CN_RULE_NONZERO);
  ref_end_blend(&s);
  ref_begin_blend(&s, CN_BLEND_MULTIPLY, 1, CN_BLEND_MASKED);
  ref_fill(&s, ref_rect(&s, 0, 32, 64, 64), ref_solid(&s, 0, 1, 0, 1), CN_RULE_NONZERO);
  ref_end_blend(&s);
  cn_renderer *r = renderer(NULL);
  if (!r) return;
  uint8_t *px = gpu_render(r, &s, 64, 64, NULL);
  if (px) {
    /* left half: white mask -> red; top right: grey mask (lum 0.5) over navy */
    CHECK_EQ_U64(px[4 * (10 * 64 + 10) + 0], 255);
    CHECK_EQ_U64(px[4 * (10 * 64 + 10) + 2], 0);
    CHECK(abs(px[4 * (10 * 64 + 50) + 0] - 128) <= 1);
    CHECK(abs(px[4 * (10 * 64 + 50) + 2] - 64) <= 1);
    /* bottom right: no mask content -> navy stays */
    CHECK_EQ_U64(px[4 * (40 * 64 + 60) + 0], 0);
    CHECK_EQ_U64(px[4 * (40 * 64 + 60) + 2], 128);
  }
  free(px);
  cn_renderer_destroy(r);
  check_against_ref("masks", &s, 64, 64, NULL);
}

/* Tiny initial buffers: every capacity overflows, the frame is re-run larger,
 * and the picture equals the reference. */
TEST(render_tiny_buffers_rerun) {
  static ref_scene s;
  ref_init(&s);
  test_seed(7);
  for (int k = 0; k < 40; k++) {
    float x = (float)test_rand_below(150), y = (float)test_rand_below(100);
    ref_fill(&s, ref_circle(&s, x, y, 5 + (float)test_rand_below(40)),
             ref_solid(&s, (float)test_rand_below(256) / 255, 0.5f, 0.2f, 0.6f), CN_RULE_NONZERO);
  }
  for (int i = 0; i < 8; i++) ref_begin_clip(&s, ref_circle(&s, 75, 50, 60.0f - 5 * i), CN_RULE_NONZERO);
  ref_fill(&s, ref_rect(&s, 0, 0, 150, 100), ref_solid(&s, 0, 0, 1, 0.5f), CN_RULE_NONZERO);
  for (int i = 0; i < 8; i++) ref_end_clip(&s);
  cn_renderer_desc desc = {.initial_tiles = 1, .initial_segs = 1, .initial_chunks = 1, .initial_spill = 1};
  check_against_ref("tiny buffers", &s, 150, 100, &desc);
  cn_renderer *r = renderer(&desc);
  if (!r) return;
  uint8_t *px = gpu_render(r, &s, 150, 100, NULL);
  cn_render_stats st;
  cn_renderer_stats(r, &st);
  CHECK(st.reruns >= 1);
  CHECK(st.cap_tiles >= st.used_tiles);
  CHECK(st.cap_segs > st.used_segs);
  CHECK(st.used_spill >= 1);
  free(px);
  cn_renderer_destroy(r);
}

/* Bad scenes are refused with a message naming the element. */
TEST(render_bad_scenes) {
  cn_renderer *r = renderer(NULL);
  if (!r) return;
  static ref_scene s;
  ref_init(&s);
  ref_begin_clip(&s, ref_rect(&s, 0, 0, 5, 5), CN_RULE_NONZERO);
  cn_scene_data d = ref_data(&s, 10, 10);
  CHECK(cn_renderer_set_scene(r, &d) == CN_ERROR_UNBALANCED);
  CHECK_STR_CONTAINS(cn_last_error(), "element 0");
  ref_init(&s);
  ref_end_blend(&s);
  d = ref_data(&s, 10, 10);
  CHECK(cn_renderer_set_scene(r, &d) == CN_ERROR_UNBALANCED);
  ref_init(&s);
  ref_begin_clip(&s, ref_rect(&s, 0, 0, 5, 5), CN_RULE_NONZERO);
  ref_end_blend(&s);
  d = ref_data(&s, 10, 10);
  CHECK(cn_renderer_set_scene(r, &d) == CN_ERROR_UNBALANCED);
  ref_init(&s);
  ref_fill(&s, ref_rect(&s, 0, 0, 5, 5), 3, CN_RULE_NONZERO);
  d = ref_data(&s, 10, 10);
  CHECK(cn_renderer_set_scene(r, &d) == CN_ERROR_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(cn_last_error(), "scene: element 0: paint 3 out of range");
  ref_init(&s);
  ref_begin_blend(&s, CN_BLEND_NORMAL, 1, CN_BLEND_MASK_ALPHA);
  ref_end_blend(&s);
  d = ref_data(&s, 10, 10);
  CHECK(cn_renderer_set_scene(r, &d) == CN_ERROR_UNBALANCED);
  /* a bad target size */
  ref_init(&s);
  d = ref_data(&s, 10, 10);
  uint8_t px[4];
  cn_render_view v = {.width = 0, .height = 10};
  CHECK(cn_render_lines_to_rgba8(r, &d, NULL, 0, &v, px) == CN_ERROR_LIMIT);
  cn_renderer_destroy(r);
}

/* Renders s with each of rs[0..count) (count <= 5) two ways: img[0][k] from
 * host lines (gpu_render_aa), img[1][k] as a whole scene through
 * cn_render_scene_to_rgba8; bg NULL: transparent. The caller frees them. */
static void render_two_ways(cn_renderer *const *rs, int count, const ref_scene *s, int w, int h, const float *bg,
                            uint32_t aa, uint8_t *img[2][5]) {
  cn_scene_data sd = ref_data(s, (float)w, (float)h);
  for (int k = 0; k < count; k++) {
    img[0][k] = gpu_render_aa(rs[k], s, w, h, bg, aa);
    img[1][k] = calloc((size_t)w * h, 4);
    cn_render_view v = {.width = (uint32_t)w, .height = (uint32_t)h, .aa = aa};
    if (bg) memcpy(v.background, bg, sizeof v.background);
    CHECK_OK(cn_render_scene_to_rgba8(rs[k], &sd, &v, img[1][k]));
  }
}

/* Tiles of one colour: coarse marks a tile whose command list is empty (the
 * background) or one SOLID with an opaque COLOR, render_solid writes its
 * pixels, and fine draws only the others, its workgroups striding over the
 * list. Random scenes built around that threshold (tile-aligned and unaligned opaque rectangles, alpha 1
 * and just below, opaque fills inside clips and groups, translucent over
 * opaque and the reverse, empty groups and clips) at sizes that cut tiles and
 * bins, over transparent, opaque and translucent backgrounds: the picture
 * equals, bit for bit, the one fine draws alone for every tile
 * (fine_every_tile), with fine's workgroups capped at 1 and 3 too, and the
 * CPU reference; through host lines and whole scenes (bin lists). */
static void one_colour_scene(ref_scene *s, int w, int h) {
  ref_init(s);
  const float alphas[] = {1.0f, 1.0f, 0.99999994f, 254.0f / 255, 0.5f, 0.0f, 1.5f};
  int n = 2 + (int)test_rand_below(12);
  int open[6], nopen = 0; /* 0: clip, 1: blend group */
  for (int i = 0; i < n; i++) {
    float x0, y0, x1, y1;
    if (test_rand_below(2)) { /* on tile borders (or one pixel off them) */
      x0 = 16.0f * (float)test_rand_below((uint64_t)w / 16 + 2) - 16 + (float)test_rand_below(3) - 1;
      y0 = 16.0f * (float)test_rand_below((uint64_t)h / 16 + 2) - 16 + (float)test_rand_below(3) - 1;
      x1 = x0 + 16.0f * (float)(1 + test_rand_below(12));
      y1 = y0 + 16.0f * (float)(1 + test_rand_below(12));
    } else {
      x0 = (float)test_rand_below((uint64_t)w * 110) / 100.0f - w * 0.1f;
      y0 = (float)test_rand_below((uint64_t)h * 110) / 100.0f - h * 0.1f;
      x1 = x0 + (float)test_rand_below((uint64_t)w * 100) / 100.0f;
      y1 = y0 + (float)test_rand_below((uint64_t)h * 100) / 100.0f;
    }
    uint32_t path = test_rand_below(4) ? ref_rect(s, x0, y0, x1, y1)
                                       : ref_circle(s, 0.5f * (x0 + x1), 0.5f * (y0 + y1), 0.5f * (x1 - x0) + 1);
    uint64_t what = test_rand_below(10);
    if (what <= 1 && nopen < 6) {
      if (what == 0) ref_begin_clip(s, path, (uint32_t)test_rand_below(2));
      else
        ref_begin_blend(s, (uint32_t)test_rand_below(CN_BLEND_MODE_COUNT), test_rand_below(2) ? 1.0f : 0.8f,
                        CN_BLEND_ISOLATED);
      open[nopen++] = (int)what;
      if (test_rand_below(3) == 0) { /* an empty clip or group */
        if (open[--nopen] == 0) ref_end_clip(s);
        else ref_end_blend(s);
      }
    } else if (what == 2 && nopen > 0) {
      if (open[--nopen] == 0) ref_end_clip(s);
      else ref_end_blend(s);
    } else {
      float a = alphas[test_rand_below(sizeof alphas / sizeof alphas[0])];
      uint32_t paint = ref_solid(s, (float)test_rand_below(256) / 255, (float)test_rand_below(256) / 255,
                                 (float)test_rand_below(256) / 255, a);
      ref_fill(s, path, paint, (uint32_t)test_rand_below(2));
    }
  }
  while (nopen > 0) {
    if (open[--nopen] == 0) ref_end_clip(s);
    else ref_end_blend(s);
  }
}

TEST(render_one_colour_tiles) {
  static const int sizes[][2] = {{1, 1}, {16, 16}, {17, 15}, {255, 33}, {256, 256}, {257, 271}, {300, 170}, {530, 40}};
  static const float bgs[][4] = {{0, 0, 0, 0}, {0.2f, 0.6f, 1, 1}, {1, 0.5f, 0.25f, 0.4f}};
  cn_renderer_desc d_all = {.fine_every_tile = true}, d_one = {.fine_max_groups = 1}, d_three = {.fine_max_groups = 3};
  const cn_renderer_desc *descs[] = {NULL, &d_one, &d_three, &d_all};
  cn_renderer *rs[4] = {0};
  for (int k = 0; k < 4; k++) {
    rs[k] = renderer(descs[k]);
    if (!rs[k]) goto done;
  }
  for (int iter = 0; iter < 24; iter++) {
    static ref_scene s;
    int w = sizes[iter % 8][0], h = sizes[iter % 8][1];
    one_colour_scene(&s, w, h);
    const float *bg = bgs[iter % 3];
    uint32_t aa = (uint32_t)(iter / 2 % CN_AA_COUNT);
    uint8_t *img[2][5];
    render_two_ways(rs, 4, &s, w, h, bg, aa, img);
    for (int path = 0; path < 2; path++)
      for (int k = 0; k < 3; k++) {
        bool same = img[path][k] && img[path][3] && memcmp(img[path][k], img[path][3], (size_t)w * h * 4) == 0;
        if (!same)
          fprintf(stderr, "  one-colour tiles, scene %d (%dx%d, %s, %s): renderer %d differs from fine on every tile\n",
                  iter, w, h, aa ? "ss16" : "area", path ? "whole scene" : "host lines", k);
        CHECK(same);
      }
    for (int path = 0; path < 2; path++)
      for (int k = 0; k < 4; k++) free(img[path][k]);
    if (bg[3] == 0) check_against_ref("one-colour tiles", &s, w, h, NULL);
  }
  /* how many tiles fine drew, exactly: a square from 8.5 to 55.5 on a target
   * of 4x4 tiles has its edges in the 12 tiles of the outer ring; the 4
   * inside it are one colour when it is opaque (alpha 1, or more: clamped),
   * not when its alpha is just below 1; nothing at all: no tile for fine. */
  static ref_scene s;
  const float white[4] = {1, 1, 1, 1};
  const struct {
    float a;
    uint32_t fine;
  } known[] = {{1, 12}, {1.5f, 12}, {0.99999994f, 16}, {0.5f, 16}, {-1, 0}};
  for (int i = 0; i < 5; i++) {
    ref_init(&s);
    if (known[i].a >= 0)
      ref_fill(&s, ref_rect(&s, 8.5f, 8.5f, 55.5f, 55.5f), ref_solid(&s, 0.2f, 0.4f, 0.6f, known[i].a), CN_RULE_NONZERO);
    for (int k = 0; k < 4; k++) {
      free(gpu_render(rs[k], &s, 64, 64, white));
      cn_render_stats st;
      cn_renderer_stats(rs[k], &st);
      CHECK_EQ_U64(st.tiles, 16);
      CHECK_EQ_U64(st.fine_tiles, (k == 3 ? 16u : known[i].fine));
    }
  }
done:
  for (int k = 0; k < 4; k++) cn_renderer_destroy(rs[k]);
}

/* render_backdrop spreads each element's tile rows over backdrop slices (a
 * grid of about cn_renderer_desc.backdrop_grid workgroups): one workgroup per
 * element (grid 1), a few slices, the default, and more slices than any
 * element has row groups (rows a subgroup wide and narrower, rows longer than
 * the kernel's eight chunks a round trip: over 64 tiles on lavapipe's 8-wide
 * subgroups, 256 on 32-wide ones) give the same picture bit for bit, through
 * host lines and whole scenes, in both anti-aliasing modes; and the CPU
 * reference's. Random polygons and rectangles from one tile to wider and
 * taller than the target, 1 to 40 elements (the slices depend on the count),
 * and 300 small ones on a 128x128 target (one slice: several workgroups of
 * packed elements at grid 1, which every scene of two elements or more takes
 * there: rows of up to 16 tiles summed an invocation each, longer ones a
 * subgroup each). */
TEST(render_backdrop_slices) {
  test_seed(12);
  /* the last two have elements taller than one slice's row groups even on
   * lavapipe (32 subgroups of 8 a workgroup: rows of 33-64 tiles, one row a
   * subgroup, 32 rows a slice; 600 px and more: two slices or three) */
  static const int sizes[][2] = {{1100, 40}, {40, 700}, {300, 300}, {4200, 20},
                                 {17, 1},    {1, 300},  {640, 1400}, {1100, 600}};
  cn_renderer_desc d[5] = {{.backdrop_grid = 1}, {.backdrop_grid = 3}, {.backdrop_grid = 0},
                           {.backdrop_grid = 77}, {.backdrop_grid = 1u << 30}};
  cn_renderer *rs[5] = {0};
  for (int k = 0; k < 5; k++) {
    rs[k] = renderer(&d[k]);
    if (!rs[k]) goto done;
  }
  for (int iter = 0; iter < 11; iter++) {
    static ref_scene s;
    ref_init(&s);
    bool many = iter == 10; /* 300 small shapes on a 128x128 target */
    int w = many ? 128 : sizes[iter % 8][0], h = many ? 128 : sizes[iter % 8][1];
    int n = many ? 300 : iter % 2 ? 1 + (int)test_rand_below(4) : 1 + (int)test_rand_below(40);
    for (int i = 0; i < n; i++) {
      uint32_t path;
      if (many) {
        float x0 = (float)test_rand_below(12000) / 100.0f, y0 = (float)test_rand_below(12000) / 100.0f;
        float xy[8] = {x0, y0, x0 + 3 + (float)test_rand_below(20), y0 + (float)test_rand_below(6),
                       x0 + (float)test_rand_below(24), y0 + 3 + (float)test_rand_below(20), x0 - 4, y0 + 8};
        path = i % 2 ? ref_poly(&s, xy, 4) : ref_rect(&s, x0, y0, xy[2], xy[5]);
      } else if (test_rand_below(3) == 0) {
        float x0 = (float)test_rand_below((uint64_t)w * 120) / 100.0f - w * 0.1f;
        float y0 = (float)test_rand_below((uint64_t)h * 120) / 100.0f - h * 0.1f;
        path = ref_rect(&s, x0, y0, x0 + (float)test_rand_below((uint64_t)w * 120 + 1) / 100.0f,
                        y0 + (float)test_rand_below((uint64_t)h * 120 + 1) / 100.0f);
      } else {
        float xy[64];
        int m = 3 + (int)test_rand_below(29);
        for (int j = 0; j < m; j++) {
          xy[2 * j] = (float)test_rand_below((uint64_t)w * 140) / 100.0f - w * 0.2f;
          xy[2 * j + 1] = (float)test_rand_below((uint64_t)h * 140) / 100.0f - h * 0.2f;
        }
        path = ref_poly(&s, xy, m);
      }
      uint32_t paint = ref_solid(&s, (float)test_rand_below(256) / 255, (float)test_rand_below(256) / 255,
                                 (float)test_rand_below(256) / 255, 0.3f + (float)test_rand_below(180) / 255);
      ref_fill(&s, path, paint, (uint32_t)test_rand_below(2));
    }
    uint32_t aa = (uint32_t)((iter + iter / 4) % CN_AA_COUNT);
    uint8_t *img[2][5];
    render_two_ways(rs, 5, &s, w, h, NULL, aa, img);
    for (int path = 0; path < 2; path++)
      for (int k = 1; k < 5; k++) {
        bool same = img[path][0] && img[path][k] && memcmp(img[path][0], img[path][k], (size_t)w * h * 4) == 0;
        if (!same)
          fprintf(stderr, "  backdrop slices, scene %d (%dx%d, %d elements, %s, %s): grid %u differs from grid 1\n",
                  iter, w, h, n, aa ? "ss16" : "area", path ? "whole scene" : "host lines", d[k].backdrop_grid);
        CHECK(same);
      }
    for (int path = 0; path < 2; path++)
      for (int k = 0; k < 5; k++) free(img[path][k]);
    if (iter % 3 == 0 || iter == 7) check_against_ref("backdrop slices", &s, w, h, &d[4]);
  }
done:
  for (int k = 0; k < 5; k++) cn_renderer_destroy(rs[k]);
}

/* Fine sums a run's pieces in fixed point (2^-20 of a pixel): the same bits
 * in any order of the pieces, and a run long enough to pass 32 bits is summed
 * in 64. One path of 4096 copies of a square inside one tile: at the centre
 * the run's pieces add 4096 (2^32 units: 0 in 32 bits), so nonzero covers it
 * and even-odd does not; 4095 copies: both cover it. Both ways of reading
 * the runs (two pipelines: the compiler may contract their arithmetic
 * differently) agree within 1, and match the CPU reference. */
TEST(render_fixed_point_runs) {
  static const struct {
    int copies;
    uint32_t rule;
    bool covered;
  } cases[] = {{4096, CN_RULE_NONZERO, true}, {4096, CN_RULE_EVENODD, false}, {4095, CN_RULE_EVENODD, true}};
  const int w = 40, h = 24;
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    static ref_scene s;
    ref_init(&s);
    uint32_t path = ref_path_begin(&s);
    for (int k = 0; k < cases[c].copies; k++) {
      ref_line(&s, 3.25f, 2.75f, 11.5f, 2.75f);
      ref_line(&s, 11.5f, 2.75f, 11.5f, 13.25f);
      ref_line(&s, 11.5f, 13.25f, 3.25f, 13.25f);
      ref_line(&s, 3.25f, 13.25f, 3.25f, 2.75f);
      ref_close(&s);
    }
    ref_fill(&s, path, ref_solid(&s, 1, 0, 0, 1), cases[c].rule);
    check_against_ref("fixed-point runs", &s, w, h, NULL);
    uint8_t *img[2] = {NULL, NULL};
    const uint32_t mode[2] = {CN_RENDER_FINE_RUNS_SHUFFLE, CN_RENDER_FINE_RUNS_LOADS};
    for (int k = 0; k < 2; k++) {
      cn_renderer_desc d = {.fine_runs = mode[k]};
      cn_renderer *r = renderer(&d);
      if (!r) return;
      img[k] = gpu_render(r, &s, w, h, NULL);
      cn_renderer_destroy(r);
      if (!img[k]) continue;
      const uint8_t *px = img[k] + 4 * (8 * w + 7), want = cases[c].covered ? 255 : 0;
      if (px[0] != want || px[3] != want)
        fprintf(stderr, "  fixed-point runs, %d copies, %s, %s: centre %u %u %u %u\n", cases[c].copies,
                cases[c].rule == CN_RULE_EVENODD ? "even-odd" : "nonzero", k ? "loads" : "shuffles", px[0], px[1],
                px[2], px[3]);
      CHECK(px[0] == want && px[1] == 0 && px[2] == 0 && px[3] == want);
    }
    CHECK(img[0] && img[1] && compare("fixed-point runs, shuffles against loads", img[1], img[0], w, h, 1) == 0);
    free(img[0]);
    free(img[1]);
  }
}

/* render_tile_seg takes cn_renderer_desc.tile_seg_lines lines per workgroup
 * (fewer than its 256 invocations when the grid would leave the device idle):
 * at 1, 7, 32, 100 and 256 lines a workgroup and the default, line counts just
 * below, at and above those sizes, long lines over many tile rows and columns
 * (many row items and pieces per workgroup batch), horizontal and vertical
 * ones, each picture matches the CPU reference. */
TEST(render_tile_seg_lines) {
  test_seed(13);
  static const uint32_t per[] = {1, 7, 32, 100, 256, 0};
  static const int nlines[] = {3, 7, 8, 31, 33, 99, 101, 255, 257, 300};
  for (int iter = 0; iter < 10; iter++) {
    static ref_scene s;
    ref_init(&s);
    int w = iter % 2 ? 700 : 180, h = iter % 2 ? 90 : 520;
    int left = nlines[iter];
    while (left >= 3) {
      int m = left >= 40 ? 32 : left; /* the last polygon takes 3..39 */
      float xy[80];
      for (int j = 0; j < m; j++) {
        xy[2 * j] = (float)test_rand_below((uint64_t)w * 140) / 100.0f - w * 0.2f;
        xy[2 * j + 1] = (float)test_rand_below((uint64_t)h * 140) / 100.0f - h * 0.2f;
        if (test_rand_below(6) == 0 && j > 0) xy[2 * j + 1] = xy[2 * j - 1]; /* horizontal */
        if (test_rand_below(6) == 0 && j > 0) xy[2 * j] = xy[2 * j - 2];     /* vertical */
      }
      uint32_t paint = ref_solid(&s, (float)test_rand_below(256) / 255, (float)test_rand_below(256) / 255,
                                 (float)test_rand_below(256) / 255, 0.3f + (float)test_rand_below(180) / 255);
      ref_fill(&s, ref_poly(&s, xy, m), paint, (uint32_t)test_rand_below(2));
      left -= m;
    }
    for (size_t k = 0; k < sizeof per / sizeof per[0]; k++) {
      cn_renderer_desc d = {.tile_seg_lines = per[k]};
      check_against_ref("tile_seg lines per workgroup", &s, w, h, &d);
    }
  }
}

/* A polygon of m <= 120 vertices zigzagging 14 px across and 16 px down from
 * (x0, y0): packed into a tile or two, it gives them runs of many pieces.
 * jitter moves each vertex right by 0..0.5 px (random). */
static uint32_t zigzag(ref_scene *s, float x0, float y0, int m, bool jitter) {
  float xy[2 * 120];
  for (int j = 0; j < m && j < 120; j++) {
    xy[2 * j] = x0 + (j % 2 ? 14.0f : 0.5f) + (jitter ? (float)test_rand_below(100) / 200.0f : 0.0f);
    xy[2 * j + 1] = y0 + 16.0f * (float)j / (float)m;
  }
  return ref_poly(s, xy, m < 120 ? m : 120);
}

/* Each tile's pieces of lines are one run of records: tile_seg counts them,
 * render_seg_alloc gives each tile record its run, tile_seg's second pass
 * stores them, fine reads a subgroup's width at a time. Scenes with tiles of one piece and
 * tiles of hundreds (zigzags packed into a tile: many rounds of fine's
 * subgroup loop, on 8- and 32-wide subgroups alike) match the CPU reference;
 * the frame's piece count (used_segs) is exact: a renderer whose segment
 * buffer starts at exactly that many records draws the frame without a
 * re-run, one record fewer (or half as many) re-runs once and draws the same
 * picture, beside either backdrop pipeline (backdrop_grid 1: the packed
 * one, which scenes of many elements take). */
TEST(render_segment_runs) {
  test_seed(29);
  for (int iter = 0; iter < 3; iter++) {
    static ref_scene s;
    ref_init(&s);
    int w = 200, h = 120;
    for (int k = 0; k < 6; k++) { /* dense zigzags, each inside a tile or two */
      int m = 20 + (int)test_rand_below(100);
      float x0 = (float)test_rand_below(180), y0 = (float)test_rand_below(100);
      ref_fill(&s, zigzag(&s, x0, y0, m, true), ref_solid(&s, 0.2f, 0.4f, (float)test_rand_below(256) / 255, 0.7f),
               (uint32_t)(k % 2));
    }
    for (int k = 0; k < 8 + iter * 8; k++) /* and ordinary shapes over many tiles */
      ref_fill(&s, ref_circle(&s, (float)test_rand_below(200), (float)test_rand_below(120), 3 + (float)test_rand_below(50)),
               ref_solid(&s, 0.9f, (float)test_rand_below(256) / 255, 0.1f, 1.0f), CN_RULE_NONZERO);
    check_against_ref("segment runs", &s, w, h, NULL);
    cn_renderer *r = renderer(NULL);
    if (!r) return;
    uint8_t *want = gpu_render(r, &s, w, h, NULL);
    cn_render_stats st;
    cn_renderer_stats(r, &st);
    cn_renderer_destroy(r);
    uint32_t need = st.used_segs;
    CHECK(need > 600);
    const uint32_t starts[3] = {need, need - 1, need / 2};
    for (int k = 0; k < 6 && want; k++) {
      /* every other buffer ample: only the segments can make the frame re-run */
      cn_renderer_desc d = {.initial_segs = starts[k % 3], .initial_lines = 1u << 16, .initial_tiles = 1u << 16,
                            .initial_chunks = 1u << 12, .backdrop_grid = k < 3 ? 0u : 1u};
      r = renderer(&d);
      if (!r) break;
      uint8_t *got = gpu_render(r, &s, w, h, NULL);
      cn_renderer_stats(r, &st);
      if (st.reruns != (k % 3 == 0 ? 0u : 1u) || st.used_segs != need)
        fprintf(stderr, "  segment runs, scene %d, backdrop grid %u: start %u records: %u re-runs, %u used (need %u)\n",
                iter, d.backdrop_grid, starts[k % 3], st.reruns, st.used_segs, need);
      CHECK_EQ_U64(st.reruns, k % 3 == 0 ? 0 : 1);
      CHECK_EQ_U64(st.used_segs, need);
      CHECK(got && compare("segment runs, small start", got, want, w, h, 1) == 0);
      free(got);
      cn_renderer_destroy(r);
    }
    free(want);
  }
}

/* Fine reads a FILL's run of pieces with shuffles or with plain loads
 * (cn_renderer_desc.fine_runs): both match the CPU reference and each other,
 * on a scene of long runs (zigzags packed into tiles) and one of runs of a
 * piece or two (small triangles); by default each frame takes the loop the
 * previous frame's runs call for (loads when fewer than 1 in 16 pieces lie in
 * runs of 8 or more). */
TEST(render_fine_runs) {
  test_seed(31);
  for (int iter = 0; iter < 2; iter++) {
    static ref_scene s;
    ref_init(&s);
    int w = 160, h = 96;
    if (iter == 0) {
      for (int k = 0; k < 6; k++) {
        float x0 = (float)test_rand_below(140), y0 = (float)test_rand_below(80);
        ref_fill(&s, zigzag(&s, x0, y0, 100, false), ref_solid(&s, 0.1f, 0.5f, 0.9f, 0.8f), CN_RULE_EVENODD);
      }
    } else {
      for (int k = 0; k < 300; k++) { /* small triangles: a few pieces in each tile they touch */
        float x = (float)test_rand_below(15000) / 100.0f, y = (float)test_rand_below(8600) / 100.0f;
        float tri[6] = {x, y, x + 2 + (float)test_rand_below(500) / 100.0f, y + 1, x + 1, y + 2 + (float)test_rand_below(500) / 100.0f};
        ref_fill(&s, ref_poly(&s, tri, 3), ref_solid(&s, 0.8f, 0.2f, (float)test_rand_below(256) / 255, 1.0f),
                 CN_RULE_NONZERO);
      }
    }
    uint8_t *img[2] = {NULL, NULL};
    const uint32_t mode[2] = {CN_RENDER_FINE_RUNS_SHUFFLE, CN_RENDER_FINE_RUNS_LOADS};
    for (int k = 0; k < 2; k++) {
      cn_renderer_desc d = {.fine_runs = mode[k]};
      check_against_ref(k ? "fine runs, loads" : "fine runs, shuffles", &s, w, h, &d);
      cn_renderer *r = renderer(&d);
      if (!r) return;
      img[k] = gpu_render(r, &s, w, h, NULL);
      cn_render_stats st;
      cn_renderer_stats(r, &st);
      CHECK_EQ_U64(st.fine_runs, mode[k]);
      cn_renderer_destroy(r);
    }
    CHECK(img[0] && img[1] && compare("fine runs, shuffles against loads", img[1], img[0], w, h, 1) == 0);
    free(img[0]);
    free(img[1]);
    /* the default: the first frame shuffles, the second follows the first's runs */
    cn_renderer *r = renderer(NULL);
    if (!r) return;
    free(gpu_render(r, &s, w, h, NULL));
    cn_render_stats st;
    cn_renderer_stats(r, &st);
    CHECK_EQ_U64(st.fine_runs, CN_RENDER_FINE_RUNS_SHUFFLE);
    CHECK(st.fills > 0 && st.fill_pieces >= st.fills && st.long_pieces <= st.fill_pieces);
    bool short_runs = 16ull * st.long_pieces < st.fill_pieces;
    if (short_runs != (iter == 1))
      fprintf(stderr, "  fine runs, scene %d: %u FILLs, %u pieces, %u in long runs\n", iter, st.fills,
              st.fill_pieces, st.long_pieces);
    CHECK(short_runs == (iter == 1)); /* zigzags: long runs; small triangles: short */
    free(gpu_render(r, &s, w, h, NULL));
    cn_renderer_stats(r, &st);
    CHECK_EQ_U64(st.fine_runs, short_runs ? CN_RENDER_FINE_RUNS_LOADS : CN_RENDER_FINE_RUNS_SHUFFLE);
    cn_renderer_destroy(r);
  }
}

/* Fine's very long lists apart (cn_renderer_desc.fine_split): a stack of
 * translucent rectangles gives every tile a list of 8 chunks or more; drawn
 * apart (one pixel an invocation, also from a grid of fewer workgroups than
 * such tiles) and not, both match the CPU reference and each other. By
 * default a frame draws them apart when the previous frame had at most 128:
 * here 16 of them (64 x 64 pixels), not 256 (256 x 256). */
static void stacked_rects(ref_scene *s, int w, int h) {
  ref_init(s);
  for (int k = 0; k < 100; k++) { /* each covers every tile; its left edge crosses the first column */
    float x0 = 0.5f + 0.1f * (float)k, r[8] = {x0, 0, (float)w, 0, (float)w, (float)h, x0, (float)h};
    ref_fill(s, ref_poly(s, r, 4), ref_solid(s, (float)(k % 7) / 6, 0.5f, (float)(k % 3) / 2, 0.05f), CN_RULE_NONZERO);
  }
}

TEST(render_fine_split) {
  static ref_scene s;
  int w = 64, h = 64;
  stacked_rects(&s, w, h);
  uint8_t *img[2] = {NULL, NULL};
  const uint32_t mode[2] = {CN_RENDER_FINE_SPLIT_OFF, CN_RENDER_FINE_SPLIT_ON};
  for (int k = 0; k < 2; k++) {
    cn_renderer_desc d = {.fine_split = mode[k], .fine_max_groups = k ? 3 : 0};
    check_against_ref(k ? "fine split" : "fine not split", &s, w, h, &d);
    cn_renderer *r = renderer(&d);
    if (!r) return;
    img[k] = gpu_render(r, &s, w, h, NULL);
    cn_render_stats st;
    cn_renderer_stats(r, &st);
    CHECK_EQ_U64(st.vl_tiles, 16);
    CHECK_EQ_U64(st.fine_tiles, 16);
    CHECK(st.fine_split == (k == 1));
    cn_renderer_destroy(r);
  }
  CHECK(img[0] && img[1] && compare("fine split against not", img[1], img[0], w, h, 1) == 0);
  free(img[0]);
  free(img[1]);
  /* the default: apart after a frame with 16, not after one with 256 */
  for (int big = 0; big < 2; big++) {
    int n = big ? 256 : 64;
    stacked_rects(&s, n, n);
    cn_renderer *r = renderer(NULL);
    if (!r) return;
    free(gpu_render(r, &s, n, n, NULL));
    free(gpu_render(r, &s, n, n, NULL));
    cn_render_stats st;
    cn_renderer_stats(r, &st);
    CHECK_EQ_U64(st.vl_tiles, big ? 256 : 16);
    CHECK(st.fine_split == !big);
    cn_renderer_destroy(r);
  }
}

/* The very long lists apart with everything fine draws: FILLs with pieces and
 * SOLIDs, solid colours and gradients, blend groups of every mode, clips,
 * nested groups, masks and masked groups, lists of several runs of chunks:
 * drawn apart (one pixel an invocation) and not, with either way of reading
 * pieces, every picture matches the CPU reference and the others. */
TEST(render_fine_split_content) {
  static ref_scene s;
  ref_init(&s);
  int w = 64, h = 64;
  ref_fill(&s, ref_rect(&s, 0, 0, 64, 64), ref_solid(&s, 0.2f, 0.3f, 0.4f, 1), CN_RULE_NONZERO);
  float lin[6] = {4, 4, 60, 50, 0, 0};
  uint32_t grad = add_gradient(&s, CN_PAINT_LINEAR, 0, lin, 0);
  for (int i = 0; i < 24; i++) {
    float d = 0.37f * (float)i;
    ref_fill(&s, ref_circle(&s, 32 + d, 31 - d * 0.5f, 30 - d), ref_solid(&s, (i % 5) / 4.0f, 0.6f, (i % 3) / 2.0f, 0.3f),
             CN_RULE_NONZERO);
    if (i % 4 == 1) ref_begin_clip(&s, ref_circle(&s, 30, 33, 26 + d), i % 8 == 1 ? CN_RULE_EVENODD : CN_RULE_NONZERO);
    if (i % 5 == 3) ref_begin_blend(&s, CN_BLEND_SCREEN, 0.6f, CN_BLEND_ISOLATED); /* nested groups */
    ref_begin_blend(&s, (uint32_t)i % CN_BLEND_MODE_COUNT, 0.85f, i % 2 ? CN_BLEND_ISOLATED : 0);
    float r[8] = {1.5f + d, 2.25f, 62.5f, 3.5f + d, 61.75f - d, 62.5f, 2.5f, 60.25f - d};
    ref_fill(&s, ref_poly(&s, r, 4), i % 3 == 0 ? grad : ref_solid(&s, 0.9f, (i % 4) / 3.0f, 0.2f, 0.5f),
             i % 2 ? CN_RULE_EVENODD : CN_RULE_NONZERO);
    ref_end_blend(&s);
    if (i % 5 == 3) ref_end_blend(&s);
    if (i % 4 == 1) ref_end_clip(&s);
    if (i % 6 == 2) {
      ref_begin_blend(&s, CN_BLEND_NORMAL, 0.9f, i % 12 == 2 ? CN_BLEND_MASK_LUMINANCE : CN_BLEND_MASK_ALPHA);
      ref_fill(&s, ref_circle(&s, 20 + d, 40, 18), ref_solid(&s, 1, 1, 1, 0.8f), CN_RULE_NONZERO);
      ref_end_blend(&s);
      ref_begin_blend(&s, CN_BLEND_MULTIPLY, 1, CN_BLEND_MASKED);
      ref_fill(&s, ref_rect(&s, 0.5f, 0.5f, 63.5f, 63.5f), ref_solid(&s, 0.1f, 0.8f, 0.3f, 0.7f), CN_RULE_NONZERO);
      ref_end_blend(&s);
    }
  }
  uint8_t *img[4] = {NULL, NULL, NULL, NULL};
  for (int k = 0; k < 4; k++) {
    bool apart = k & 1;
    cn_renderer_desc d = {.fine_split = apart ? CN_RENDER_FINE_SPLIT_ON : CN_RENDER_FINE_SPLIT_OFF,
                          .fine_runs = k & 2 ? CN_RENDER_FINE_RUNS_LOADS : CN_RENDER_FINE_RUNS_SHUFFLE,
                          .fine_max_groups = apart ? 3 : 0};
    check_against_ref(apart ? "content, apart" : "content, not apart", &s, w, h, &d);
    cn_renderer *r = renderer(&d);
    if (!r) return;
    img[k] = gpu_render(r, &s, w, h, NULL);
    cn_render_stats st;
    cn_renderer_stats(r, &st);
    CHECK(st.vl_tiles >= 12); /* the lists of (at least) the inner tiles took two runs */
    CHECK(st.fine_split == apart);
    cn_renderer_destroy(r);
  }
  for (int k = 1; k < 4; k++) CHECK(img[0] && img[k] && compare("content, against the first way", img[k], img[0], w, h, 1) == 0);
  for (int k = 0; k < 4; k++) free(img[k]);
}

/* Coarse's splitting pipeline (render_coarse.comp): the walk of a block of
 * many elements split between a tile's two invocations, with groups open
 * across the split point and across blocks, a clip around them (partly
 * covering some tiles, wholly others, missing the rest), opaque fills of
 * whole tiles on either side of the split, groups whose content misses a
 * tile, a mask in one variant (its blocks are not split), tiny initial
 * buffers (lists cut, the frame re-run), nesting deep enough to spill:
 * every picture matches the CPU
 * reference, split or not (in two parts, and in four once a frame has seen
 * a bin of 128 elements or more). By default a frame splits after one with
 * a few bins of 64 elements or more. */
TEST(render_coarse_split) {
  static ref_scene s;
  test_seed(77);
  for (int variant = 0; variant < 6; variant++) {
    ref_init(&s);
    int w = 96, h = 64;
    ref_fill(&s, ref_rect(&s, 0, 0, 96, 64), ref_solid(&s, 0.2f, 0.3f, 0.4f, 1), CN_RULE_NONZERO);
    if (variant != 1) ref_begin_clip(&s, ref_circle(&s, 40, 30, 28), CN_RULE_NONZERO);
    if (variant == 5) /* nesting past fine's registers: levels spilled, sized by the parts' depths */
      for (int d = 0; d < 6; d++) ref_begin_blend(&s, d % 2 ? CN_BLEND_SCREEN : CN_BLEND_NORMAL, 0.9f, CN_BLEND_ISOLATED);
    for (int i = 0; i < 60; i++) {
      float x = (float)test_rand_below(8000) / 100.0f, y = (float)test_rand_below(5000) / 100.0f;
      float r = 2 + (float)test_rand_below(1500) / 100.0f;
      ref_fill(&s, ref_circle(&s, x, y, r), ref_solid(&s, (i % 5) / 4.0f, 0.6f, (i % 3) / 2.0f, 0.8f), CN_RULE_NONZERO);
      if (variant == 2 && i % 17 == 9) /* an opaque fill of every tile of the clip's box */
        ref_fill(&s, ref_rect(&s, 0, 0, 96, 64), ref_solid(&s, 0.9f, 0.9f, (i % 2) * 0.5f, 1), CN_RULE_NONZERO);
      if (variant == 3 && i == 40) { /* a mask and its masked group */
        ref_begin_blend(&s, CN_BLEND_NORMAL, 1, CN_BLEND_MASK_ALPHA);
        ref_fill(&s, ref_circle(&s, 48, 32, 20), ref_solid(&s, 0, 0, 0, 0.7f), CN_RULE_NONZERO);
        ref_end_blend(&s);
        ref_begin_blend(&s, CN_BLEND_NORMAL, 1, CN_BLEND_MASKED);
        ref_fill(&s, ref_rect(&s, 10, 10, 90, 60), ref_solid(&s, 1, 0.5f, 0, 1), CN_RULE_NONZERO);
        ref_end_blend(&s);
      }
      ref_begin_blend(&s, i % 4 == 0 ? CN_BLEND_MULTIPLY : CN_BLEND_NORMAL, 0.6f, 0);
      ref_fill(&s, ref_circle(&s, x + 1, y + 2, r * 0.7f), ref_solid(&s, 0.1f, 0.8f, 0.3f, 1), CN_RULE_NONZERO);
      ref_fill(&s, ref_rect(&s, x, y, x + r, y + 1.5f), ref_solid(&s, 0.9f, 0.2f, 0.3f, 1), CN_RULE_NONZERO);
      ref_end_blend(&s);
    }
    if (variant == 5)
      for (int d = 0; d < 6; d++) ref_end_blend(&s);
    if (variant != 1) ref_end_clip(&s);
    ref_fill(&s, ref_rect(&s, 70, 40, 96, 64), ref_solid(&s, 0, 0, 0, 1), CN_RULE_NONZERO);
    static const char *names[6] = {"clip", "no clip", "opaque fills", "mask", "tiny buffers", "deep"};
    uint8_t *img[2] = {NULL, NULL};
    for (int k = 0; k < 2; k++) {
      cn_renderer_desc d = {.coarse_split = k ? CN_RENDER_COARSE_SPLIT_ON : CN_RENDER_COARSE_SPLIT_OFF};
      if (variant == 4) d.initial_chunks = 4, d.initial_tiles = 16;
      char what[64];
      snprintf(what, sizeof what, "coarse %s, %s", k ? "split" : "not split", names[variant]);
      check_against_ref(what, &s, w, h, &d);
      cn_renderer *r = renderer(&d);
      if (!r) return;
      img[k] = gpu_render(r, &s, w, h, NULL);
      cn_render_stats st;
      cn_renderer_stats(r, &st);
      CHECK(st.coarse_split == (k == 1));
      CHECK_EQ_U64(st.long_bins, 1); /* one bin: the whole scene */
      cn_renderer_destroy(r);
    }
    CHECK(img[0] && img[1] && compare("coarse split against not", img[1], img[0], w, h, 0) == 0);
    free(img[0]);
    free(img[1]);
  }
  /* the default: not split after a frame without a long bin, split in two
   * after one with a bin of 70 elements, in four after one of 140 (and the
   * pictures match the reference) */
  static const int counts[3] = {40, 70, 140};
  static const uint32_t segs[3] = {1, 2, 4};
  for (int n = 0; n < 3; n++) {
    ref_init(&s);
    for (int i = 0; i < counts[n]; i++)
      ref_fill(&s, ref_rect(&s, 0.25f * (i % 80), 0.5f * (i / 80), 128, 64),
               ref_solid(&s, 0.5f, (i % 4) / 3.0f, 0.2f, 0.3f), CN_RULE_NONZERO);
    cn_renderer *r = renderer(NULL);
    if (!r) return;
    free(gpu_render(r, &s, 128, 64, NULL));
    free(gpu_render(r, &s, 128, 64, NULL));
    cn_render_stats st;
    cn_renderer_stats(r, &st);
    CHECK_EQ_U64(st.long_bins, n ? 1 : 0);
    CHECK(st.coarse_split == (n > 0));
    CHECK_EQ_U64(st.coarse_segs, segs[n]);
    cn_renderer_destroy(r);
  }
}

/* Groups with nothing drawn in a bin: coarse drops a BEGIN whose next
 * staged element is its own END, in rounds from the innermost group out,
 * where a block holds 8 plain BEGINs or more. A target three bins wide;
 * groups (normal and other modes, clips among them, nested three deep)
 * whose draws lie in the left and right bins only, so that their boxes
 * span the middle bin, where they are empty; others with a draw in the
 * middle bin too (not empty there); masks and masked groups among them
 * (never dropped); more than a block of elements, so that some groups span
 * two blocks. Every picture matches the CPU reference, the walk split or
 * not, through host lines and as a whole scene (bin lists; rectangles, so
 * that both paths draw the same lines). */
TEST(render_empty_groups_in_bins) {
  static ref_scene s;
  test_seed(123);
  const int w = 3 * CN_BIN * CN_TILE, h = 40;
  cn_renderer *rs[2] = {0};
  for (int k = 0; k < 2; k++) {
    cn_renderer_desc d = {.coarse_split = k ? CN_RENDER_COARSE_SPLIT_ON : CN_RENDER_COARSE_SPLIT_OFF};
    rs[k] = renderer(&d);
    if (!rs[k]) goto done;
  }
  for (int variant = 0; variant < 4; variant++) {
    ref_init(&s);
    int open = 0, kinds[4];
    for (int i = 0; i < 90; i++) {
      uint64_t what = test_rand_below(10);
      float y = 4 + (float)test_rand_below(3000) / 100.0f, r = 2 + (float)test_rand_below(600) / 100.0f;
      if (what < 4 && open < 3) { /* a group or a clip around what follows */
        if (what == 3) {
          ref_begin_clip(&s, ref_rect(&s, 2, 2, (float)w - 2, (float)h - 2), CN_RULE_NONZERO);
          kinds[open++] = 0;
        } else {
          ref_begin_blend(&s, (uint32_t)test_rand_below(CN_BLEND_MODE_COUNT), what == 0 ? 0.8f : 1.0f,
                          what == 1 ? CN_BLEND_ISOLATED : 0);
          kinds[open++] = 1;
        }
      } else if (what < 6 && open > 0) {
        if (kinds[--open] == 0) ref_end_clip(&s);
        else ref_end_blend(&s);
      } else if (what == 6 && variant % 2 == 1) { /* a mask and its masked group, left and right */
        ref_begin_blend(&s, CN_BLEND_NORMAL, 1, CN_BLEND_MASK_ALPHA);
        ref_fill(&s, ref_rect(&s, 10, y - r, 30 + r, y + r), ref_solid(&s, 0, 0, 0, 0.7f), CN_RULE_NONZERO);
        ref_end_blend(&s);
        ref_begin_blend(&s, CN_BLEND_MULTIPLY, 1, CN_BLEND_MASKED);
        ref_fill(&s, ref_rect(&s, (float)w - 30, y - r, (float)w - 10, y), ref_solid(&s, 0.2f, 0.9f, 0.4f, 1),
                 CN_RULE_NONZERO);
        ref_fill(&s, ref_rect(&s, 15, y - r, 25, y + r), ref_solid(&s, 0.9f, 0.2f, 0.4f, 1), CN_RULE_NONZERO);
        ref_end_blend(&s);
      } else { /* a draw in the left or the right bin, now and then in the middle one */
        uint64_t where = test_rand_below(9);
        float x = where < 4 ? 8 + (float)test_rand_below(10000) / 100.0f
                  : where < 8 ? (float)w - 8 - (float)test_rand_below(10000) / 100.0f
                              : (float)w / 2 + (float)test_rand_below(4000) / 100.0f - 20;
        ref_fill(&s, ref_rect(&s, x - r, y - r * 0.7f, x + r, y + r),
                 ref_solid(&s, (float)(i % 5) / 4, (float)(i % 3) / 2, (float)(i % 7) / 6, 0.5f + 0.1f * (i % 5)),
                 CN_RULE_NONZERO);
      }
    }
    while (open > 0) {
      if (kinds[--open] == 0) ref_end_clip(&s);
      else ref_end_blend(&s);
    }
    uint32_t aa = (uint32_t)(variant / 2);
    uint8_t *img[2][5];
    render_two_ways(rs, 2, &s, w, h, NULL, aa, img);
    cn_scene_data d = ref_data(&s, (float)w, (float)h);
    ref_lines *L = ref_flatten_alloc(&d);
    uint8_t *want = malloc((size_t)w * h * 4);
    ref_render_aa(&d, L, w, h, aa, want);
    for (int path = 0; path < 2; path++)
      for (int k = 0; k < 2; k++) {
        char what[96];
        snprintf(what, sizeof what, "empty groups in bins, variant %d, %s, %s", variant,
                 path ? "whole scene" : "host lines", k ? "split" : "not split");
        int bad = img[path][k] ? compare(what, img[path][k], want, w, h, 1) : -1;
        if (bad) fprintf(stderr, "  %s: %d pixels differ\n", what, bad);
        CHECK(bad == 0);
        free(img[path][k]);
      }
    free(want);
    ref_lines_free(L);
  }
done:
  for (int k = 0; k < 2; k++) cn_renderer_destroy(rs[k]);
}

/* The order sets the shards (index modulo 2, tests/CMakeLists.txt): the long
 * tests (render_backdrop_slices, render_tile_seg_lines, render_coarse_split)
 * are spread over both. */
TEST_MAIN(T(render_rect_exact_coverage), T(render_ss16_frame_exact), T(render_ss16_shapes_exact), T(render_ss16_ties_vs_reference),
          T(render_star_nonzero_evenodd), T(render_random_polygons_vs_reference), T(render_wide_and_tall_vs_reference),
          T(render_tile_border_cases), T(render_empty_and_offscreen), T(render_clips_vs_reference),
          T(render_deep_nesting_spills), T(render_blend_modes), T(render_blend_known_values), T(render_blend_transparent_exact),
          T(render_gradients_vs_reference), T(render_image_nearest_exact),
          T(render_image_bilinear_vs_reference), T(render_masks), T(render_tiny_buffers_rerun), T(render_bad_scenes),
          T(render_one_colour_tiles),
          T(render_backdrop_slices), T(render_tile_seg_lines), T(render_segment_runs), T(render_fine_runs), T(render_fine_split), T(render_fine_split_content), T(render_empty_groups_in_bins), T(render_coarse_split),
          T(render_fixed_point_runs))
