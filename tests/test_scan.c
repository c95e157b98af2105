/* test_scan.c: the GPU scan against the CPU scan, at edge and large sizes. */
#include "test.h"

static void check_scan(uint64_t n, bool exclusive, int pattern) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  uint32_t *in = malloc((n ? n : 1) * 4), *want = malloc((n ? n : 1) * 4), *got = malloc((n ? n : 1) * 4);
  for (uint64_t i = 0; i < n; i++) {
    switch (pattern) {
      case 0: in[i] = (uint32_t)test_rand(); break;    /* full range: exercises wrap-around */
      case 1: in[i] = 1; break;                         /* result is the index */
      default: in[i] = (uint32_t)test_rand_below(4); break;
    }
    got[i] = 0xDEADBEEF;
  }
  cn_scan_u32_cpu(in, want, n, exclusive);
  CHECK_OK(cn_scan_u32(ctx, in, got, n, exclusive));
  uint64_t bad = 0, first_bad = 0;
  for (uint64_t i = 0; i < n; i++)
    if (got[i] != want[i] && bad++ == 0) first_bad = i;
  if (bad) {
    fprintf(stderr, "  n=%llu %s: %llu wrong, first at %llu: got %u want %u\n", (unsigned long long)n,
            exclusive ? "exclusive" : "inclusive", (unsigned long long)bad, (unsigned long long)first_bad,
            got[first_bad], want[first_bad]);
    test_failures++;
  }
  free(in);
  free(want);
  free(got);
}

TEST(scan_cpu_reference) {
  uint32_t in[5] = {3, 1, 4, 1, 5}, out[5];
  cn_scan_u32_cpu(in, out, 5, false);
  uint32_t incl[5] = {3, 4, 8, 9, 14};
  CHECK(memcmp(out, incl, sizeof out) == 0);
  cn_scan_u32_cpu(in, out, 5, true);
  uint32_t excl[5] = {0, 3, 4, 8, 9};
  CHECK(memcmp(out, excl, sizeof out) == 0);
}

TEST(scan_empty_and_one) {
  check_scan(0, false, 0);
  check_scan(1, false, 0);
  check_scan(1, true, 0);
}

/* Every block boundary +-1 for the first three levels (block = 2048 here). */
TEST(scan_block_boundaries) {
  const uint64_t block = 2048;
  const uint64_t sizes[] = {block - 1, block, block + 1, 2 * block - 1, 2 * block, 2 * block + 1,
                            block * block - 1, block * block, block * block + 1};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    check_scan(sizes[i], false, 0);
    check_scan(sizes[i], true, 2);
  }
}

TEST(scan_small_random_sizes) {
  for (int i = 0; i < 12; i++) check_scan(1 + test_rand_below(20000), i & 1, i % 3);
}

/* Three levels (> 2048^2 = 4.2M elements). */
TEST(scan_large) {
  check_scan((1u << 22) + 12345, false, 1);
}

TEST_MAIN(T(scan_cpu_reference), T(scan_empty_and_one), T(scan_block_boundaries), T(scan_small_random_sizes),
          T(scan_large))
