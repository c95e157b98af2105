/* test_bins.c: binning on the GPU against the CPU reference (exact lists), a
 * hand-worked grid, boxes on bin edges, thousands of bins, and the limits. */
#include "test.h"

#include <canopy/cn_bins.h>
#include <canopy/cn_box.h>

#include <math.h>

static void check_bins(const cn_box *boxes, uint64_t n, const float vp[4], uint32_t bin_size, const char *what) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  cn_bins_grid g;
  CHECK_OK(cn_bins_grid_make(vp, bin_size, &g));
  uint32_t *wo, *we, *go, *ge;
  uint64_t wt, gt;
  CHECK_OK(cn_bins_cpu(boxes, n, &g, &wo, &we, &wt));
  cn_result r = cn_bins_run(ctx, boxes, n, &g, &go, &ge, &gt);
  CHECK_OK(r);
  if (r != CN_OK) {
    free(wo), free(we);
    return;
  }
  uint64_t nbins = (uint64_t)g.nbx * g.nby;
  if (wt != gt || memcmp(wo, go, (nbins + 1) * 4) != 0 || memcmp(we, ge, wt * 4) != 0) {
    uint64_t b = 0;
    while (b <= nbins && wo[b] == go[b]) b++;
    fprintf(stderr, "  %s n=%llu bins=%llu: total got %llu want %llu; first offset difference at bin %llu\n", what,
            (unsigned long long)n, (unsigned long long)nbins, (unsigned long long)gt, (unsigned long long)wt,
            (unsigned long long)b);
    test_failures++;
  }
  free(wo), free(we), free(go), free(ge);
}

TEST(bins_hand) {
  /* viewport 0 0 600 300, B = 256: 3 x 2 bins (the last column and row stick out) */
  const float vp[4] = {0, 0, 600, 300};
  cn_box boxes[] = {
      {0, 0, 256, 256},     /* exactly bin (0,0): touching edges do not count */
      {255, 10, 257, 20},   /* bins (0,0) and (1,0) */
      {0, 0, 0, 0},         /* empty: nowhere */
      {512, 256, 600, 300}, /* bin (2,1) */
      {100, 100, 520, 260}, /* all six */
  };
  cn_bins_grid g;
  CHECK_OK(cn_bins_grid_make(vp, 256, &g));
  CHECK_EQ_U64(g.nbx, 3);
  CHECK_EQ_U64(g.nby, 2);
  uint32_t *off, *el;
  uint64_t total;
  CHECK_OK(cn_bins_cpu(boxes, 5, &g, &off, &el, &total));
  uint32_t want_off[7] = {0, 3, 5, 6, 7, 8, 10};
  uint32_t want_el[10] = {0, 1, 4, 1, 4, 4, 4, 4, 3, 4};
  CHECK_EQ_U64(total, 10);
  CHECK(memcmp(off, want_off, sizeof want_off) == 0);
  if (total == 10) CHECK(memcmp(el, want_el, sizeof want_el) == 0);
  free(off), free(el);
  check_bins(boxes, 5, vp, 256, "hand");
}

static cn_box rand_box_in(const float vp[4], float maxw) {
  float w = vp[2] - vp[0], h = vp[3] - vp[1];
  float x = vp[0] + (float)test_rand_below((uint64_t)w + 1), y = vp[1] + (float)test_rand_below((uint64_t)h + 1);
  if (test_rand_below(4) == 0) x = vp[0] + (float)(test_rand_below((uint64_t)(w / 64) + 1) * 64); /* on an edge */
  float bw = (float)test_rand_below((uint64_t)maxw + 1), bh = (float)test_rand_below((uint64_t)maxw + 1);
  if (test_rand_below(3) == 0) bw *= 0.37f;
  return (cn_box){x, y, x + bw < vp[2] ? x + bw : vp[2], y + bh < vp[3] ? y + bh : vp[3]};
}

TEST(bins_random) {
  const float vps[3][4] = {{0, 0, 1000, 700}, {-33.5f, 12.25f, 2000, 1500}, {0, 0, 64, 64}};
  const uint32_t sizes[3] = {256, 64, 16};
  for (int k = 0; k < 9; k++) {
    uint64_t n = k == 0 ? 0 : 1 + test_rand_below(k < 5 ? 300 : 20000);
    const float *vp = vps[k % 3];
    cn_box *b = malloc((n ? n : 1) * sizeof *b);
    for (uint64_t i = 0; i < n; i++) b[i] = test_rand_below(10) ? rand_box_in(vp, 300) : (cn_box){0, 0, 0, 0};
    check_bins(b, n, vp, sizes[k % 3], "random");
    free(b);
  }
}

TEST(bins_thousands) {
  /* 8192 x 4096 at B = 64: 128 x 64 = 8192 bins, several slices and rounds. */
  const float vp[4] = {0, 0, 8192, 4096};
  uint64_t n = 150000;
  cn_box *b = malloc(n * sizeof *b);
  for (uint64_t i = 0; i < n; i++) b[i] = rand_box_in(vp, test_rand_below(50) ? 200 : 3000);
  check_bins(b, n, vp, 64, "thousands");
  /* one box covering everything, then small ones */
  b[0] = (cn_box){0, 0, 8192, 4096};
  check_bins(b, 3000, vp, 32, "32768 bins");
  free(b);
}

TEST(bins_rounds_and_big_elements) {
  /* Other chunk shapes (cn_tuning.bins_rounds), and rounds whose pair count is
   * far above 256: many elements covering most of the grid (pairs are spread
   * over the invocations; bitmaps give ranks in stream order). */
  const float vp[4] = {0, 0, 1024, 1024};
  uint64_t n = 5000;
  cn_box *b = malloc(n * sizeof *b);
  for (uint64_t i = 0; i < n; i++)
    b[i] = test_rand_below(4) ? rand_box_in(vp, 100) : (cn_box){1, 1, 1000 + (float)test_rand_below(24), 1023};
  const char *names[] = {"1 round", "3 rounds", "64 rounds"};
  const uint32_t rounds[] = {1, 3, 64};
  cn_context *ctx = test_context();
  for (int k = 0; k < 3 && ctx; k++) {
    cn_context_set_tuning(ctx, &(cn_tuning){.bins_rounds = rounds[k]});
    check_bins(b, n, vp, 64, names[k]);
  }
  cn_context_set_tuning(ctx, NULL);
  check_bins(b, n, vp, 64, "big elements");
  free(b);
}

TEST(bins_limits) {
  cn_bins_grid g;
  const float huge[4] = {0, 0, 3e7f, 10};
  CHECK(cn_bins_grid_make(huge, 256, &g) == CN_ERROR_LIMIT);
  const float many[4] = {0, 0, 1e6f, 1e6f};
  CHECK(cn_bins_grid_make(many, 16, &g) == CN_ERROR_LIMIT);
  const float inf[4] = {0, 0, INFINITY, 10};
  CHECK(cn_bins_grid_make(inf, 16, &g) == CN_ERROR_INVALID_ARGUMENT);
  const float ok[4] = {0, 0, 10, 10};
  CHECK(cn_bins_grid_make(ok, 0, &g) == CN_ERROR_INVALID_ARGUMENT);
  const float flat[4] = {5, 5, 5, 9};
  CHECK_OK(cn_bins_grid_make(flat, 4, &g));
  CHECK_EQ_U64(g.nbx, 0);
  cn_box b[600];
  for (int i = 0; i < 600; i++) b[i] = (cn_box){5, 5, 6, 6};
  check_bins(b, 600, flat, 4, "no bins");
  const float vp[4] = {0, 0, 64, 64};
  check_bins(b, 600, vp, 4, "some bins");
}

TEST_MAIN(T(bins_hand), T(bins_random), T(bins_thousands), T(bins_rounds_and_big_elements), T(bins_limits))
