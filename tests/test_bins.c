/* test_bins.c: binning on the GPU against the CPU reference (exact lists), a
 * hand-worked grid, boxes on bin edges, thousands of bins, and the limits. */
#include "test.h"

#include "internal.h" /* cn__bins_small_grid: which path a stream takes */

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
    if (wt == gt) {
      uint64_t k = 0, bad = 0;
      while (k < wt && we[k] == ge[k]) k++;
      for (uint64_t j = 0; j < wt; j++) bad += we[j] != ge[j];
      if (k < wt)
        fprintf(stderr, "  first list difference at entry %llu: got %u want %u (%llu differ)\n", (unsigned long long)k,
                ge[k], we[k], (unsigned long long)bad);
    }
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
    cn_context_set_tuning(ctx, &(cn_tuning){.bins_rounds = rounds[k], .bins_small_max = CN_SMALL_OFF,
                                            .bins_rows_max = CN_SMALL_OFF, .bins_sub = CN_SMALL_OFF});
    check_bins(b, n, vp, 64, names[k]);
  }
  cn_context_set_tuning(ctx, NULL);
  check_bins(b, n, vp, 64, "big elements");
  free(b);
}

/* The fill kernel with own pairs (cn_tuning.bins_own_fill_from): elements of
 * at most 4 pairs in a slice set their bits and write their entries
 * themselves; a round with a larger element also numbers and spreads that
 * one's pairs. Rounds of only small elements (no spreading), of both, of
 * none (sparse streams: the fill runs only the rounds the count kernel found
 * pairs in, up to 32 rounds a chunk), of 1, 3, 16, 33 and 36 rounds a chunk,
 * boxes of 4 and of 5 bins, several slices of 512 bins whose rows a box
 * crosses, empty boxes, and lists past the first capacity (cn_bins_run runs
 * again with the exact count). */
static void set_own_fill(uint32_t from, uint32_t rounds) {
  cn_context *ctx = test_context();
  if (ctx)
    cn_context_set_tuning(ctx, &(cn_tuning){.bins_own_fill_from = from, .bins_rounds = rounds,
                                            .bins_small_max = CN_SMALL_OFF, .bins_rows_max = CN_SMALL_OFF,
                                            .bins_sub = CN_SMALL_OFF});
}

static cn_box own_fill_box(const float vp[4], int kind) {
  float x = (float)test_rand_below((uint64_t)vp[2] - 200), y = (float)test_rand_below((uint64_t)vp[3] - 200);
  float w = 1 + (float)test_rand_below(60), h = 1 + (float)test_rand_below(60);
  switch (kind) {
  case 0: return (cn_box){x, y, x + w, y + h};          /* 1 to 4 bins */
  case 1: return (cn_box){x, y, x + 64 * 3 + 1, y + 10}; /* 4 or 5 bins a row, 1 or 2 rows */
  case 2: return (cn_box){x, y, x + 65, y + 65};        /* 4 to 9 bins */
  case 3: return (cn_box){0, 0, 0, 0};                  /* empty */
  default: return rand_box_in(vp, 1500);                /* large */
  }
}

/* A sparse stream's box kind: one element in 200 listed, an eighth of those
 * large, so that rounds without pairs, with own pairs only and with spread
 * pairs follow each other in every order. */
static int sparse_kind(void) { return test_rand_below(200) ? 3 : test_rand_below(8) ? 0 : 4; }

TEST(bins_own_fill) {
  const float vp[4] = {0, 0, 4096, 2048}; /* 64 x 32 bins of 64 px: 4 slices of 512, 8 rows each */
  uint64_t n = 20000;
  cn_box *b = malloc(n * sizeof *b);
  struct { const char *name; int kinds; uint32_t rounds; } runs[] = {
      {"own fill, small elements, 1 round", 2, 1},  {"own fill, small elements, 3 rounds", 2, 3},
      {"own fill, 4 to 9 bins, 3 rounds", 4, 3},    {"own fill, mixed, 1 round", 5, 1},
      {"own fill, mixed, 3 rounds", 5, 3},          {"own fill, mixed, 16 rounds", 5, 16},
      {"own fill, sparse, 16 rounds", 0, 16},       {"own fill, sparse, 3 rounds", 0, 3},
  };
  for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
    for (uint64_t i = 0; i < n; i++) {
      int kind = (int)test_rand_below((uint64_t)CN_MAX(runs[k].kinds, 1));
      if (kind == 4 && test_rand_below(40)) kind = 0; /* a few large elements: most rounds have one */
      if (!runs[k].kinds) kind = sparse_kind(); /* sparse (kinds 0) */
      b[i] = own_fill_box(vp, kind);
    }
    set_own_fill(1, runs[k].rounds);
    check_bins(b, n, vp, 64, runs[k].name);
  }
  /* sparse streams with the plain fill kernel, and past 32 rounds a chunk,
   * where the count kernel keeps no record of the rounds with pairs (every
   * round runs) */
  for (uint64_t i = 0; i < n; i++) b[i] = own_fill_box(vp, sparse_kind());
  set_own_fill(CN_SMALL_OFF, 16);
  check_bins(b, n, vp, 64, "plain fill, sparse, 16 rounds");
  set_own_fill(1, 33);
  check_bins(b, n, vp, 64, "own fill, sparse, 33 rounds");
  set_own_fill(CN_SMALL_OFF, 36);
  check_bins(b, n, vp, 64, "plain fill, sparse, 36 rounds");
  /* chunks without pairs, chunk 0 among them (it still writes the bin
   * starts): elements listed in two runs only */
  for (uint64_t i = 0; i < n; i++)
    b[i] = own_fill_box(vp, (i >= 5000 && i < 5300) || (i >= 15000 && i < 15010) ? (int)test_rand_below(5) : 3);
  for (uint32_t from = 1; from; from = from == 1 ? CN_SMALL_OFF : 0) {
    set_own_fill(from, 1);
    check_bins(b, n, vp, 64, "empty chunks, 1 round");
    set_own_fill(from, 4);
    check_bins(b, n, vp, 64, "empty chunks, 4 rounds");
  }
  /* only from the threshold: below it the plain kernel, the same lists */
  set_own_fill(30000, 3);
  check_bins(b, n, vp, 64, "own fill below its threshold");
  /* lists past the first capacity (4 n): every element over 10 to 18 bins */
  for (uint64_t i = 0; i < 4000; i++) {
    float x = (float)(i % 60) * 64;
    b[i] = (cn_box){x, 0, x + 100, 300 + (float)(i % 5) * 64};
  }
  set_own_fill(1, 2);
  check_bins(b, 4000, vp, 64, "own fill past the capacity");
  /* grid-covering boxes: every round spreads (llvmpipe's loop-trip limit) */
  for (uint64_t i = 0; i < 1024; i++) b[i] = (cn_box){0, 0, 2048, 2048};
  const float vp2[4] = {0, 0, 2048, 2048};
  set_own_fill(1, 4);
  check_bins(b, 1024, vp2, 64, "own fill, 1024 grid-covering boxes");
  cn_context_set_tuning(test_context(), NULL);
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
  /* 1100 viewport-covering boxes on 2048^2 one-pixel bins: 4.6e9 entries,
   * refused from the boxes before any GPU work (it used to run to a GPU timeout) */
  cn_context *ctx = test_context();
  const float big[4] = {0, 0, 2048, 2048};
  CHECK_OK(cn_bins_grid_make(big, 1, &g));
  cn_box *full = malloc(1100 * sizeof *full);
  for (int i = 0; i < 1100; i++) full[i] = (cn_box){0, 0, 2048, 2048};
  uint32_t *off = NULL, *el = NULL;
  uint64_t total = 0;
  if (ctx) {
    CHECK(cn_bins_run(ctx, full, 1100, &g, &off, &el, &total) == CN_ERROR_LIMIT);
    CHECK_STR_CONTAINS(cn_last_error(), "4613734400 (bin, element) entries, more than 2^32 - 2");
    CHECK(off == NULL && el == NULL && total == 0);
  }
  CHECK(cn_bins_cpu(full, 1100, &g, &off, &el, &total) == CN_ERROR_LIMIT);
  CHECK(off == NULL && el == NULL && total == 0);
  free(full);
}

/* Fill slices smaller than the count's (cn_tuning.bins_fill_slice): each
 * fill workgroup takes part of a count workgroup's bins and runs that
 * workgroup's rounds with pairs (recorded up to 32 rounds a chunk, every round
 * past that). Grids of 64 x 32 bins (count slices of 512 bins, 8 rows each)
 * and of 50 x 30 (slices across rows, the last one partial), both fill
 * kernels, mixed and sparse streams. */
TEST(bins_fill_slices) {
  const float vp[4] = {0, 0, 4096, 2048}, vp2[4] = {0, 0, 3200, 1920};
  uint64_t n = 12000;
  cn_box *b = malloc(n * sizeof *b);
  cn_context *ctx = test_context();
  const uint32_t slices[] = {32, 64, 128, 256};
  for (int sparse = 0; sparse < 2 && ctx; sparse++) {
    for (int g = 0; g < 2; g++) {
      const float *v = g ? vp2 : vp;
      for (uint64_t i = 0; i < n; i++) {
        int kind = sparse ? sparse_kind() : (int)test_rand_below(5);
        if (kind == 4 && test_rand_below(20)) kind = 0;
        b[i] = own_fill_box(v, kind);
      }
      for (int k = 0; k < 4; k++) {
        uint32_t rounds = k == 3 ? 36 : k == 2 ? 16 : k ? 3 : 1;
        uint32_t from = (k + g + sparse) % 2 ? 1 : CN_SMALL_OFF;
        cn_context_set_tuning(ctx, &(cn_tuning){.bins_own_fill_from = from, .bins_rounds = rounds,
                                                .bins_fill_slice = slices[(k + 2 * g + sparse) % 4],
                                                .bins_small_max = CN_SMALL_OFF, .bins_rows_max = CN_SMALL_OFF,
                                                .bins_sub = CN_SMALL_OFF});
        char name[96];
        snprintf(name, sizeof name, "fill slice %u, %s, %u rounds, %s fill, grid %d", slices[(k + 2 * g + sparse) % 4],
                 sparse ? "sparse" : "mixed", rounds, from == 1 ? "own" : "plain", g);
        check_bins(b, n, v, 64, name);
      }
    }
  }
  if (ctx) cn_context_set_tuning(ctx, NULL);
  free(b);
}

/* Other chunk shapes of the multi-pass workgroup kernels through the
 * context's tuning (0: the defaults, the one-dispatch paths for small streams
 * and the subgroup kernels included). */
static void set_rounds(uint32_t r) {
  cn_context *ctx = test_context();
  if (ctx)
    cn_context_set_tuning(ctx, r ? &(cn_tuning){.bins_rounds = r, .bins_small_max = CN_SMALL_OFF,
                                                .bins_rows_max = CN_SMALL_OFF, .bins_sub = CN_SMALL_OFF}
                                 : NULL);
}

/* Deeply nested blend groups in vp (origin 0, 0): `groups` BEGINs with a
 * 150 x 90 draw after every `every`-th, then the ENDs; returns the result
 * boxes of the CPU bbox reference (every group the union of the draws inside
 * it), *n_out of them (free the array). */
static cn_box *nested_groups(uint32_t groups, uint32_t every, const float vp[4], uint64_t *n_out) {
  uint64_t n = 0, cap = 2 * (uint64_t)groups + groups / every + 1;
  uint32_t *tags = malloc(cap * 4);
  cn_box *in = calloc(cap, sizeof *in), *out = malloc(cap * sizeof *out);
  for (uint32_t g = 0; g < groups; g++) {
    tags[n++] = CN_TAG_BEGIN_BLEND;
    if (g % every == 0) {
      float x = (float)test_rand_below((uint32_t)vp[2] - 150), y = (float)test_rand_below((uint32_t)vp[3] - 90);
      in[n] = (cn_box){x, y, x + 150, y + 90};
      tags[n++] = CN_TAG_FILL;
    }
  }
  for (uint32_t g = 0; g < groups; g++) tags[n++] = CN_TAG_END_BLEND;
  CHECK_OK(cn_bbox_cpu(tags, in, n, vp, out));
  free(tags), free(in);
  *n_out = n;
  return out;
}

TEST(bins_nested_groups) {
  /* Deeply nested blend groups (boxes from the CPU bbox reference: every
   * group is the union of the draws inside it), a 150 x 90 draw every 97
   * groups, 2048^2 at 64 px, rounds of 256 elements each covering nearly the
   * whole grid. llvmpipe ends an invocation's loops after 65 535 trips in
   * total: with per-pair loops (a binary search, a bitmap rank) and pairs
   * outside the slice the fill stopped part-way through the 4th round, and
   * the end of every chunk's lists stayed unwritten. */
  const float vp[4] = {0, 0, 2048, 2048};
  uint64_t n;
  cn_box *out = nested_groups(520, 97, vp, &n);
  const uint32_t rounds[] = {4, 5, 16};
  for (int k = 0; k < 3; k++) {
    set_rounds(rounds[k]);
    check_bins(out, n, vp, 64, "nested groups");
  }
  set_rounds(0);
  /* the same shape: 1024 boxes over the whole grid, one chunk of 4 rounds */
  for (uint64_t i = 0; i < 1024; i++) out[i] = (cn_box){0, 0, 2048, 2048};
  set_rounds(4);
  check_bins(out, 1024, vp, 64, "1024 grid-covering boxes");
  set_rounds(0);
  free(out);
}

/* The single-workgroup path (bins_small) against the CPU reference: sizes
 * around its threshold (where the multi-pass kernels take over), one bin,
 * grids of several slices, rows of a slice, elements covering everything, no
 * elements, and lists that overflow the first capacity (cn_bins_run grows the
 * buffer to the exact count and runs again). The path is asserted where the
 * device's loop-trip limit (llvmpipe) admits it. */
TEST(bins_small_path) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  /* bins_rows (tested below) comes first where it fits: off here */
  const cn_tuning no_rows = {.bins_rows_max = CN_SMALL_OFF};
  cn_context_set_tuning(ctx, &no_rows);
  bool limited = cn_context_caps(ctx)->max_loop_iterations != 0;
  uint64_t max = cn__bins_small_max(ctx);
  const float vp[4] = {0, 0, 1024, 1000}; /* 16 x 16 bins of 64 */
  cn_bins_grid g;
  CHECK_OK(cn_bins_grid_make(vp, 64, &g));
  const uint64_t sizes[] = {0, 1, 255, 256, 257, 3000, max - 1, max, max + 1};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    uint64_t n = sizes[k];
    cn_box *b = malloc((n ? n : 1) * sizeof *b);
    for (uint64_t i = 0; i < n; i++) b[i] = test_rand_below(10) ? rand_box_in(vp, 150) : (cn_box){0, 0, 0, 0};
    CHECK(cn__bins_small_grid(ctx, n, &g) == (n <= max));
    check_bins(b, n, vp, 64, "small path");
    free(b);
  }
  /* one bin; 40 x 30 bins (three slices); a row of 700 bins (a slice is part of it) */
  const float vps[3][4] = {{0, 0, 50, 50}, {-3.5f, 2, 1276.5f, 962}, {0, 0, 700 * 4, 4}};
  const uint32_t bs[3] = {64, 32, 4};
  for (int k = 0; k < 3; k++) {
    uint64_t n = max;
    cn_box *b = malloc(n * sizeof *b);
    for (uint64_t i = 0; i < n; i++)
      b[i] = test_rand_below(20) ? rand_box_in(vps[k], 200) : (cn_box){vps[k][0], vps[k][1], vps[k][2], vps[k][3]};
    cn_bins_grid gk;
    CHECK_OK(cn_bins_grid_make(vps[k], bs[k], &gk));
    if (!limited) CHECK(cn__bins_small_grid(ctx, n, &gk));
    check_bins(b, n, vps[k], bs[k], "small path grids");
    free(b);
  }
  /* boxes over all 256 bins: about 170 n entries, far past the first capacity (4n) */
  cn_box *b = malloc(max * sizeof *b);
  for (uint64_t i = 0; i < max; i++) b[i] = i % 3 ? (cn_box){0, 0, 1024, 1000} : rand_box_in(vp, 300);
  CHECK(cn__bins_small_grid(ctx, max, &g));
  check_bins(b, max, vp, 64, "small path overflow");
  free(b);
  /* no bins at all (a flat viewport): only the total, 0 */
  const float flat[4] = {5, 5, 5, 9};
  cn_bins_grid gf;
  CHECK_OK(cn_bins_grid_make(flat, 4, &gf));
  b = malloc(100 * sizeof *b);
  for (int i = 0; i < 100; i++) b[i] = (cn_box){5, 5, 6, 6};
  CHECK(cn__bins_small_grid(ctx, 100, &gf));
  check_bins(b, 100, flat, 4, "small path, no bins");
  free(b);
  /* turned off: never */
  cn_context_set_tuning(ctx, &(cn_tuning){.bins_small_max = CN_SMALL_OFF, .bins_rows_max = CN_SMALL_OFF});
  CHECK(!cn__bins_small_grid(ctx, 10, &g));
  /* a higher threshold: 3000 elements in one workgroup (12 rounds) */
  cn_context_set_tuning(ctx, &(cn_tuning){.bins_small_max = 3000, .bins_rows_max = CN_SMALL_OFF});
  b = malloc(3000 * sizeof *b);
  for (int i = 0; i < 3000; i++) b[i] = test_rand_below(10) ? rand_box_in(vp, 150) : (cn_box){0, 0, 0, 0};
  CHECK(cn__bins_small_grid(ctx, 3000, &g));
  check_bins(b, 3000, vp, 64, "small path, threshold 3000");
  free(b);
  cn_context_set_tuning(ctx, NULL);
}

/* The largest n that bins_rows takes on grid g (it takes every n from 1 up
 * to it): the tuning's threshold or the default, less where the device's
 * shared memory holds fewer list entries. */
static uint64_t rows_threshold(cn_context *ctx, const cn_bins_grid *g) {
  uint64_t lo = 0, hi = 1u << 15;
  while (lo < hi) {
    uint64_t mid = (lo + hi + 1) / 2;
    if (cn__bins_rows_grid(ctx, mid, g)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/* A box anywhere around the viewport: inside, across its edges or outside
 * it, on bin edges, one pixel or zero wide, covering everything, empty. */
static cn_box adversarial_box(const float vp[4], uint32_t bs) {
  float w = vp[2] - vp[0], h = vp[3] - vp[1];
  switch (test_rand_below(8)) {
  case 0: return (cn_box){vp[0], vp[1], vp[2], vp[3]};
  case 1: return (cn_box){vp[0] - 50, vp[1] - 50, vp[2] + 50, vp[3] + 50};
  case 2: return (cn_box){0, 0, 0, 0};
  case 3: { /* exactly on bin edges */
    float x = vp[0] + (float)(test_rand_below((uint64_t)(w / bs) + 1) * bs);
    float y = vp[1] + (float)(test_rand_below((uint64_t)(h / bs) + 1) * bs);
    float k = (float)(bs * (1 + test_rand_below(3)));
    return (cn_box){x, y, x + k, y + k};
  }
  case 4: { /* zero wide on an edge */
    float x = vp[0] + (float)(test_rand_below((uint64_t)(w / bs) + 1) * bs);
    return (cn_box){x, vp[1], x, vp[3]};
  }
  default: { /* anywhere, crossing the viewport's edges */
    float x = vp[0] - 100 + (float)test_rand_below((uint64_t)w + 200);
    float y = vp[1] - 100 + (float)test_rand_below((uint64_t)h + 200);
    return (cn_box){x, y, x + (float)test_rand_below(4 * bs), y + (float)test_rand_below(4 * bs)};
  }
  }
}

/* bins_rows (one workgroup per bin row) against the CPU reference: sizes
 * around subgroups, rounds of its workgroup (256 and 1024 elements) and
 * its threshold (bins_small or the multi-pass kernels past it), a
 * lower threshold from the tuning, one bin, rows of 512 bins (the most it
 * takes) and 513 (not taken), a tall column of rows, boxes across and
 * outside the viewport and on bin edges, lists that overflow the first
 * capacity (cn_bins_run grows the buffer to the exact count and runs again). */
TEST(bins_rows_path) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  CHECK_EQ_U64(cn__bins_rows_max(ctx), 8192);
  const float vp[4] = {0, 0, 1024, 1000}; /* 16 x 16 bins of 64 */
  cn_bins_grid g;
  CHECK_OK(cn_bins_grid_make(vp, 64, &g));
  uint64_t thr = rows_threshold(ctx, &g);
  CHECK(thr >= 1024 && thr <= 8192);
  const uint64_t sizes[] = {0, 1, 2, 7, 8, 9, 31, 32, 33, 1023, 1024, 1025, 4095, 4096, 4097, thr - 1, thr, thr + 1};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    uint64_t n = sizes[k];
    cn_box *b = malloc((n ? n : 1) * sizeof *b);
    for (uint64_t i = 0; i < n; i++) b[i] = test_rand_below(10) ? rand_box_in(vp, 150) : adversarial_box(vp, 64);
    CHECK(cn__bins_rows_grid(ctx, n, &g) == (n >= 1 && n <= thr));
    check_bins(b, n, vp, 64, "rows path");
    free(b);
  }
  /* grids: one bin; a row of 512 bins (taken) and of 513 (not); 2 x 750 rows */
  const float vps[4][4] = {{0, 0, 50, 50}, {0, 0, 512 * 4, 8}, {0, 0, 513 * 4, 8}, {-3.5f, 2, 4.5f, 3002}};
  const uint32_t bs[4] = {64, 4, 4, 4};
  const uint64_t ns[4] = {thr, thr, 2000, 1000};
  for (int k = 0; k < 4; k++) {
    uint64_t n = ns[k];
    cn_box *b = malloc(n * sizeof *b);
    for (uint64_t i = 0; i < n; i++)
      b[i] = test_rand_below(4) ? rand_box_in(vps[k], 20) : adversarial_box(vps[k], bs[k]);
    cn_bins_grid gk;
    CHECK_OK(cn_bins_grid_make(vps[k], bs[k], &gk));
    CHECK(cn__bins_rows_grid(ctx, n, &gk) == (k != 2));
    check_bins(b, n, vps[k], bs[k], "rows path grids");
    free(b);
  }
  /* not past 2^20 box reads: 2000 elements on the 750 rows above */
  cn_bins_grid gt;
  CHECK_OK(cn_bins_grid_make(vps[3], 4, &gt));
  CHECK_EQ_U64(gt.nby, 750);
  CHECK(!cn__bins_rows_grid(ctx, 2000, &gt));
  /* boxes over all 256 bins: about 170 n entries, far past the first capacity (4n) */
  cn_box *b = malloc(thr * sizeof *b);
  for (uint64_t i = 0; i < thr; i++) b[i] = i % 3 ? (cn_box){0, 0, 1024, 1000} : rand_box_in(vp, 300);
  check_bins(b, thr, vp, 64, "rows path overflow");
  free(b);
  /* not where the 32-bit total could wrap: 8192 elements on 512 x 1024 bins */
  const float wrap[4] = {0, 0, 512, 1024};
  cn_bins_grid gw;
  CHECK_OK(cn_bins_grid_make(wrap, 1, &gw));
  CHECK(!cn__bins_rows_grid(ctx, 8192, &gw));
  /* a lower threshold from the tuning: 100 in bins_rows, 101 not */
  cn_context_set_tuning(ctx, &(cn_tuning){.bins_rows_max = 100});
  CHECK_EQ_U64(rows_threshold(ctx, &g), 100);
  for (uint64_t n = 100; n <= 101; n++) {
    b = malloc(n * sizeof *b);
    for (uint64_t i = 0; i < n; i++) b[i] = adversarial_box(vp, 64);
    check_bins(b, n, vp, 64, "rows path, threshold 100");
    free(b);
  }
  /* turned off: never */
  cn_context_set_tuning(ctx, &(cn_tuning){.bins_rows_max = CN_SMALL_OFF});
  CHECK(!cn__bins_rows_grid(ctx, 10, &g));
  cn_context_set_tuning(ctx, NULL);
}

TEST(bins_loop_limit_known) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  const cn_device_caps *c = cn_context_caps(ctx);
  if (strstr(c->name, "llvmpipe")) CHECK_EQ_U64(c->max_loop_iterations, 65535);
}

TEST(bins_shape_sweep) {
  /* Random grids from one column to thousands of columns (slices that start
   * and end mid-row, rows longer than a slice), bin sizes, chunk shapes and
   * boxes from single bins to whole rows and the whole grid. */
  for (int k = 0; k < 16; k++) {
    uint32_t bs = 1u << (2 + test_rand_below(5)); /* 4 .. 64 */
    bool wide = k % 4 == 0; /* rows of thousands of bins: a slice is part of one or two rows */
    uint32_t nbx = wide ? 2000 + (uint32_t)test_rand_below(2000) : 1 + (uint32_t)test_rand_below(200);
    uint32_t nby = 1 + (uint32_t)test_rand_below(wide ? 3 : 60);
    float w = (float)(nbx * bs) - (float)test_rand_below(bs), h = (float)(nby * bs) - (float)test_rand_below(bs);
    float vp[4] = {-7.5f, 3.25f, -7.5f + w, 3.25f + h};
    uint64_t n = 1 + test_rand_below(wide ? 600 : 1500);
    cn_box *b = malloc(n * sizeof *b);
    uint64_t entries = 0;
    for (uint64_t i = 0; i < n; i++) {
      int kind = wide && test_rand_below(2) ? 1 : (int)test_rand_below(6);
      float x0 = vp[0] + (float)test_rand_below((uint64_t)w), y0 = vp[1] + (float)test_rand_below((uint64_t)h);
      if (kind == 0) b[i] = (cn_box){vp[0], vp[1], vp[2], vp[3]};           /* everything */
      else if (kind == 1) b[i] = (cn_box){vp[0], y0, vp[2], y0 + (float)bs}; /* a whole row */
      else if (kind == 2) b[i] = (cn_box){x0, vp[1], x0 + 1, vp[3]};         /* a whole column */
      else if (kind == 3) b[i] = (cn_box){0, 0, 0, 0};                       /* empty */
      else b[i] = (cn_box){x0, y0, x0 + (float)test_rand_below(6 * bs), y0 + (float)test_rand_below(6 * bs)};
      entries += kind == 0 ? (uint64_t)nbx * nby : kind == 1 ? 2 * nbx : kind == 2 ? nby : 49;
    }
    uint64_t most = wide ? 2500000 : 1000000;
    if (entries > most) n = n * most / entries + 1; /* seconds on lavapipe */
    const uint32_t rs[] = {0, 1, 2, 3, 5, 16, 64};
    uint32_t r = rs[test_rand_below(7)];
    if (r) set_rounds(r);
    check_bins(b, n, vp, bs, "sweep");
    set_rounds(0);
    free(b);
  }
}


/* Binning by subgroups (bins_sg_count / bins_sg_fill) against the CPU
 * reference: chunk sizes from 32 elements (the device's subgroup or a few of
 * it) up, stream sizes at and around chunk and workgroup boundaries, one bin,
 * a row of bins, the largest grid the device's shared memory admits and the
 * first one past the path's limit, boxes over the whole grid (the most pairs
 * a round can have: every lane's element on every bin, and lists far past the
 * first capacity, so cn_bins_run runs again with the exact count), empty
 * boxes, boxes on bin edges and outside the viewport, and the boxes of deeply
 * nested groups. */
static void set_sub(uint32_t sub) {
  cn_context *ctx = test_context();
  if (ctx)
    cn_context_set_tuning(ctx, &(cn_tuning){.bins_sub = sub, .bins_small_max = CN_SMALL_OFF,
                                            .bins_rows_max = CN_SMALL_OFF});
}

static cn_box sg_box(const float vp[4], int kind) {
  float w = vp[2] - vp[0], h = vp[3] - vp[1];
  switch (kind) {
    case 0: return (cn_box){vp[0], vp[1], vp[2], vp[3]}; /* the whole grid */
    case 1: return (cn_box){0, 0, 0, 0};                 /* empty */
    case 2: return (cn_box){vp[2] + 5, vp[1], vp[2] + 50, vp[3]}; /* right of the viewport */
    default: return rand_box_in(vp, kind == 3 ? (w > h ? w : h) : 150);
  }
}

TEST(bins_sg_path) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  const cn_device_caps *c = cn_context_caps(ctx);
  bool sg_ok = c->max_subgroup_size <= 32;
  uint32_t sgmax = c->max_subgroup_size;
  const float vp[4] = {0, 0, 1024, 1000}; /* 16 x 16 bins of 64 */
  cn_bins_grid g;
  CHECK_OK(cn_bins_grid_make(vp, 64, &g));
  /* neither subgroup form by default (the workgroup kernels; a shape query:
   * no GPU work), nor with workgroup rows off and no chunk size */
  set_sub(0);
  CHECK(!cn__bins_sg_grid(ctx, 1u << 23, &g));
  CHECK(!cn__bins_sg_grid(ctx, 1u << 24, &g));
  CHECK(!cn__bins_sg_grid(ctx, 1u << 26, &g));
  cn_context_set_tuning(ctx, &(cn_tuning){.bins_sg_rounds = CN_SMALL_OFF, .bins_small_max = CN_SMALL_OFF,
                                          .bins_rows_max = CN_SMALL_OFF});
  CHECK(!cn__bins_sg_grid(ctx, 1u << 24, &g));
  const uint32_t subs[] = {32, 64, 128};
  for (int s = 0; s < 3; s++) {
    uint32_t sub = subs[s];
    if (sub % sgmax) continue;
    set_sub(sub);
    uint32_t u = sub;
    const uint64_t sizes[] = {1, u - 1, u, u + 1, 4 * u - 1, 4 * u + 1, 9 * u + 7, 5000};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
      uint64_t n = sizes[k];
      cn_box *b = malloc(n * sizeof *b);
      for (uint64_t i = 0; i < n; i++) b[i] = sg_box(vp, test_rand_below(40) ? 3 + (int)test_rand_below(8) : (int)test_rand_below(3));
      if (sg_ok) CHECK(cn__bins_sg_grid(ctx, n, &g));
      check_bins(b, n, vp, 64, "subgroup path");
      free(b);
    }
  }
  uint32_t sub_any = 32 % sgmax ? sgmax : 32; /* a chunk size this device takes */
  set_sub(sub_any);
  /* one bin; a row of 300 bins; 8 x 64 = 512 bins; 1025 bins (past the path) */
  const float vps[4][4] = {{0, 0, 50, 50}, {-3.5f, 2, 300 * 4 - 3.5f, 5}, {0, 0, 8 * 32, 64 * 32}, {0, 0, 41 * 16, 25 * 16}};
  const uint32_t bs[4] = {64, 4, 32, 16};
  for (int k = 0; k < 4; k++) {
    uint64_t n = 2000;
    cn_box *b = malloc(n * sizeof *b);
    for (uint64_t i = 0; i < n; i++) b[i] = sg_box(vps[k], test_rand_below(30) ? 3 + (int)test_rand_below(8) : (int)test_rand_below(4));
    cn_bins_grid gk;
    CHECK_OK(cn_bins_grid_make(vps[k], bs[k], &gk));
    if (k == 3) CHECK(!cn__bins_sg_grid(ctx, n, &gk));
    else if (sg_ok && k < 2) CHECK(cn__bins_sg_grid(ctx, n, &gk));
    check_bins(b, n, vps[k], bs[k], "subgroup path grids");
    free(b);
  }
  /* every box over the whole grid: rounds with the most pairs, ~256 n entries */
  for (uint32_t sub = 32; sub <= 128; sub *= 4) {
    if (sub % sgmax) continue;
    set_sub(sub);
    uint64_t n = 3 * sub + 5;
    cn_box *b = malloc(n * sizeof *b);
    for (uint64_t i = 0; i < n; i++) b[i] = i % 5 == 4 ? sg_box(vp, 4) : sg_box(vp, 0);
    if (sg_ok) CHECK(cn__bins_sg_grid(ctx, n, &g));
    check_bins(b, n, vp, 64, "subgroup path, grid-covering boxes");
    free(b);
  }
  /* deeply nested blend groups (boxes from the CPU bbox reference) */
  const float vn[4] = {0, 0, 1024, 1024};
  uint64_t n;
  cn_box *out = nested_groups(700, 13, vn, &n);
  set_sub(sub_any);
  CHECK(cn__bins_sg_grid(ctx, n, &g) == sg_ok);
  check_bins(out, n, vn, 64, "subgroup path, nested groups");
  /* off: the workgroup kernels take the same stream */
  set_sub(CN_SMALL_OFF);
  CHECK(!cn__bins_sg_grid(ctx, n, &g));
  check_bins(out, n, vn, 64, "subgroup path off");
  cn_context_set_tuning(ctx, NULL);
  free(out);
}

/* Binning by subgroups in workgroup chunks (cn_tuning.bins_sg_rounds: 1..4
 * rounds of the workgroup's size per chunk, one count-matrix row per
 * workgroup): stream sizes around the chunk edges of every subgroup and
 * workgroup size, the grids above (one bin, a row of 300, 512 bins; 1025
 * bins take the workgroup kernels), grid-covering boxes (the most pairs a
 * round can have), empty boxes, boxes outside the viewport and nested
 * groups, each against the CPU reference. */
static void set_sg_rounds(uint32_t r) {
  cn_context *ctx = test_context();
  if (ctx)
    cn_context_set_tuning(ctx, &(cn_tuning){.bins_sg_rounds = r, .bins_small_max = CN_SMALL_OFF,
                                            .bins_rows_max = CN_SMALL_OFF});
}

TEST(bins_sg_rows_path) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  bool sg_ok = cn_context_caps(ctx)->max_subgroup_size <= 32;
  const float vp[4] = {0, 0, 1024, 1000}; /* 16 x 16 bins of 64 */
  cn_bins_grid g;
  CHECK_OK(cn_bins_grid_make(vp, 64, &g));
  for (uint32_t r = 1; r <= 4; r++) {
    set_sg_rounds(r);
    const uint64_t sizes[] = {1, 31, 63, 64, 65, 255, 256, 257, 4 * 64 * r - 1, 4 * 256 * r + 1, 3000, 9000 + r};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
      uint64_t n = sizes[k];
      cn_box *b = malloc(n * sizeof *b);
      for (uint64_t i = 0; i < n; i++)
        b[i] = sg_box(vp, test_rand_below(40) ? 3 + (int)test_rand_below(8) : (int)test_rand_below(3));
      CHECK(cn__bins_sg_grid(ctx, n, &g) == sg_ok);
      check_bins(b, n, vp, 64, "workgroup rows");
      free(b);
    }
  }
  const float vps[4][4] = {{0, 0, 50, 50}, {-3.5f, 2, 300 * 4 - 3.5f, 5}, {0, 0, 8 * 32, 64 * 32}, {0, 0, 41 * 16, 25 * 16}};
  const uint32_t bs[4] = {64, 4, 32, 16};
  for (int k = 0; k < 4; k++) {
    set_sg_rounds(1 + (uint32_t)k % 4);
    uint64_t n = 2500;
    cn_box *b = malloc(n * sizeof *b);
    for (uint64_t i = 0; i < n; i++)
      b[i] = sg_box(vps[k], test_rand_below(30) ? 3 + (int)test_rand_below(8) : (int)test_rand_below(4));
    cn_bins_grid gk;
    CHECK_OK(cn_bins_grid_make(vps[k], bs[k], &gk));
    if (k == 3) CHECK(!cn__bins_sg_grid(ctx, n, &gk));
    else CHECK(cn__bins_sg_grid(ctx, n, &gk) == sg_ok);
    check_bins(b, n, vps[k], bs[k], "workgroup rows, grids");
    free(b);
  }
  for (uint32_t r = 1; r <= 4; r += 3) {
    set_sg_rounds(r);
    uint64_t n = 700 * r + 3;
    cn_box *b = malloc(n * sizeof *b);
    for (uint64_t i = 0; i < n; i++) b[i] = i % 5 == 4 ? sg_box(vp, 4) : sg_box(vp, 0);
    check_bins(b, n, vp, 64, "workgroup rows, grid-covering boxes");
    free(b);
  }
  const float vn[4] = {0, 0, 1024, 1024};
  uint64_t n;
  cn_box *out = nested_groups(700, 13, vn, &n);
  set_sg_rounds(4);
  CHECK(cn__bins_sg_grid(ctx, n, &g) == sg_ok);
  check_bins(out, n, vn, 64, "workgroup rows, nested groups");
  set_sg_rounds(0);
  CHECK(!cn__bins_sg_grid(ctx, n, &g));
  set_sg_rounds(CN_SMALL_OFF);
  CHECK(!cn__bins_sg_grid(ctx, n, &g));
  check_bins(out, n, vn, 64, "workgroup rows off");
  cn_context_set_tuning(ctx, NULL);
  free(out);
}

TEST_MAIN(T(bins_hand), T(bins_random), T(bins_thousands), T(bins_rounds_and_big_elements), T(bins_own_fill), T(bins_fill_slices), T(bins_limits), T(bins_nested_groups), T(bins_loop_limit_known), T(bins_small_path), T(bins_rows_path),
          T(bins_shape_sweep), T(bins_sg_path), T(bins_sg_rows_path))
