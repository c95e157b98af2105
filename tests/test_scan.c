/* test_scan.c: the GPU scan against the CPU scan: block boundaries, large n,
 * the look-back's fallback path, the two-pass form, every monoid. */
#include "test.h"

/* Elements per block of the one-pass scan (256 x 16; smaller devices a
 * smaller workgroup, then the sizes below still cross several blocks), from
 * LARGE_FROM elements (512 x 16), and the largest n it scans as one block
 * (1024 x 16; 8 elements per invocation up to 1024 x 8). */
#define BLOCK 4096u
#define BLOCK_LARGE 8192u
#define LARGE_FROM (1u << 19)
#define ONE_BLOCK_MAX 16384u
/* From HUGE_FROM elements, with 64-bit atomics: blocks of 512 x 32 that
 * publish their total before their rows' scans. */
#define HUGE_FROM (1u << 21)
#define BLOCK_HUGE 16384u
/* From STREAM_FROM: blocks of 512 x 24 with the rows streamed. */
#define STREAM_FROM (1u << 22)
#define BLOCK_STREAM 12288u
/* From RELOAD_FROM: blocks of 512 x 28, the streamed rows loaded again. */
#define RELOAD_FROM (1u << 24)
#define BLOCK_RELOAD 14336u
/* The two-pass form's block (256 x 8). */
#define BLOCK2 2048u

static cn_scan_tuning tuning;

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
  CHECK_OK(cn_scan_u32(ctx, &tuning, in, got, n, exclusive));
  uint64_t bad = 0, first_bad = 0;
  for (uint64_t i = 0; i < n; i++)
    if (got[i] != want[i] && bad++ == 0) first_bad = i;
  if (bad) {
    fprintf(stderr, "  n=%llu %s%s%s: %llu wrong, first at %llu: got %u want %u\n", (unsigned long long)n,
            exclusive ? "exclusive" : "inclusive", tuning.two_pass ? " two-pass" : "",
            tuning.spin_budget ? " small spin budget" : "", (unsigned long long)bad, (unsigned long long)first_bad,
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

TEST(scan_bad_arguments) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  CHECK(cn_scan_record(ctx, VK_NULL_HANDLE, NULL) == CN_ERROR_INVALID_ARGUMENT);
  CHECK(cn_scan_record(ctx, VK_NULL_HANDLE, &(cn_scan_args){.op = CN_SCAN_OP_COUNT, .n = 4}) ==
        CN_ERROR_INVALID_ARGUMENT);
  CHECK(cn_scan_record(ctx, VK_NULL_HANDLE, &(cn_scan_args){.op = CN_SCAN_U32_ADD, .n = CN_SCAN_MAX_N + 1}) ==
        CN_ERROR_LIMIT);
  CHECK(cn_scan_record(ctx, VK_NULL_HANDLE, &(cn_scan_args){.op = CN_SCAN_U32_ADD, .src = 2, .n = 4}) ==
        CN_ERROR_INVALID_ARGUMENT);
  CHECK(cn_scan_record(ctx, VK_NULL_HANDLE,
                       &(cn_scan_args){.op = CN_SCAN_U32_ADD, .n = 1u << 20,
                                       .tuning = &(cn_scan_tuning){.backoff = 1u << 24}}) == CN_ERROR_INVALID_ARGUMENT);
  /* One block needs no scratch; more need 8 bytes per block and 8 (fenced:
   * 3 words per block and one). */
  CHECK_EQ_U64(cn_scan_scratch_bytes(ctx, &(cn_scan_args){.op = CN_SCAN_U32_ADD, .n = 100}), 0);
  CHECK_EQ_U64(cn_scan_scratch_bytes(ctx, &(cn_scan_args){.op = CN_SCAN_U32_ADD, .n = ONE_BLOCK_MAX}), 0);
  CHECK(cn_scan_scratch_bytes(ctx, &(cn_scan_args){.op = CN_SCAN_U32_ADD, .n = 1u << 20}) >=
        8 * (1 + (1u << 20) / BLOCK_LARGE));
  CHECK(cn_scan_scratch_bytes(ctx, &(cn_scan_args){.op = CN_SCAN_U32_ADD, .n = 1u << 20,
                                                   .tuning = &(cn_scan_tuning){.fenced = true}}) >=
        4 * (1 + 3 * (1u << 20) / BLOCK_LARGE));
}

/* Within one block (one dispatch, subgroup rows) at every workgroup size of
 * the one-block shapes +-1, from one block to several, and every block
 * boundary +-1 of the first few blocks; sizes not a multiple of 4 (the last
 * quad partial). */
TEST(scan_block_boundaries) {
  const uint64_t sizes[] = {3, 5, 127, 129, 255, 257, 1023, 1025, 4095, 4097, ONE_BLOCK_MAX / 2 - 1,
                            ONE_BLOCK_MAX / 2 + 1, ONE_BLOCK_MAX - 1, ONE_BLOCK_MAX, ONE_BLOCK_MAX + 1,
                            5 * BLOCK - 1, 5 * BLOCK, 5 * BLOCK + 1, 6 * BLOCK + 2, 7 * BLOCK + 3,
                            LARGE_FROM - 1, LARGE_FROM, LARGE_FROM + 1, LARGE_FROM + BLOCK_LARGE + 1};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    check_scan(sizes[i], false, 0);
    check_scan(sizes[i], true, 2);
  }
}

/* The huge inputs' default shapes at their thresholds +-1 and across their
 * first blocks; with the early first window, the streamed rows and those
 * loaded again on top of the first (flags without a shape keep the default
 * shape); fenced (not that shape). */
TEST(scan_huge_shape) {
  const uint64_t sizes[] = {HUGE_FROM - 1,   HUGE_FROM,   HUGE_FROM + 1,   HUGE_FROM + BLOCK_HUGE + 1,
                            STREAM_FROM - 1, STREAM_FROM, STREAM_FROM + 1, STREAM_FROM + BLOCK_STREAM + 1,
                            RELOAD_FROM - 1, RELOAD_FROM + BLOCK_RELOAD + 1};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    check_scan(sizes[i], false, 0);
    check_scan(sizes[i], true, 2);
  }
  static const cn_scan_tuning others[] = {
      {.early_lookback = true}, {.stream_rows = true}, {.fenced = true}, {.spin_budget = 2},
      {.stream_rows = true, .reload_rows = true}};
  for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
    tuning = others[i];
    check_scan(HUGE_FROM + 3 * BLOCK_HUGE + 7, i & 1, 0);
  }
  tuning = (cn_scan_tuning){0};
}

TEST(scan_small_random_sizes) {
  for (int i = 0; i < 12; i++) check_scan(1 + test_rand_below(20000), i & 1, i % 3);
}

/* Thousands of blocks, so look-back chains cross many predecessors. */
TEST(scan_large) {
  check_scan((1u << 22) + 12345, false, 1);
  check_scan((1u << 22) + 3, true, 0);
}

/* The fallback of the look-back: with a spin budget of 1 or 2 flag loads a
 * block folds the predecessors it would wait for from their input (in place:
 * src == dst, so a predecessor that has published meanwhile wins); with flag
 * and value in one 64-bit word (where the device has 64-bit atomics) and
 * apart with fences. */
TEST(scan_lookback_fallback) {
  for (int fenced = 0; fenced < 2; fenced++)
    for (uint32_t b = 1; b <= 2; b++) {
      tuning = (cn_scan_tuning){.spin_budget = b, .fenced = fenced};
      check_scan(37 * BLOCK + 5, false, 0);
      check_scan(37 * BLOCK + 5, true, 2);
      check_scan(ONE_BLOCK_MAX + 1, true, 1);
    }
  tuning = (cn_scan_tuning){0};
}

/* The look-back with fences (flag and value apart) at sizes of many blocks;
 * other block shapes of the default look-back. */
TEST(scan_fenced_and_shapes) {
  tuning = (cn_scan_tuning){.fenced = true};
  check_scan(ONE_BLOCK_MAX + 1, false, 0);
  check_scan((1u << 20) + 7, true, 0);
  static const uint32_t shapes[][2] = {{64, 32}, {512, 8}, {1024, 16}, {64, 64}, {256, 64}, {64, 24}, {128, 48}};
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
    tuning = (cn_scan_tuning){.wg = shapes[i][0], .items = shapes[i][1]};
    uint64_t blk = (uint64_t)shapes[i][0] * shapes[i][1];
    check_scan(blk - 1, false, 0);
    check_scan(3 * blk + 1, true, 2);
    check_scan(40 * blk + 3, false, 0);
  }
  /* The look-back's pause between flag loads, the static block order (block
   * = workgroup id; on llvmpipe blocks then often wait on ones not yet
   * started: the fallback) and windows of 1 .. 8 predecessors per lane, alone
   * and with a tiny spin budget. */
  static const cn_scan_tuning others[] = {{.backoff = 8},
                                          {.static_order = true},
                                          {.static_order = true, .backoff = 4, .spin_budget = 2},
                                          {.lookback_entries = 1},
                                          {.lookback_entries = 2},
                                          {.lookback_entries = 8, .spin_budget = 2},
                                          {.wg = 64, .items = 16, .lookback_entries = 4},
                                          {.aggregate_first = true},
                                          {.aggregate_first = true, .spin_budget = 2},
                                          {.aggregate_first = true, .fenced = true},
                                          {.aggregate_first = true, .fenced = true, .spin_budget = 1},
                                          {.aggregate_first = true, .wg = 64, .items = 16, .lookback_entries = 2},
                                          /* the early first window: alone, with the total first, with 64
                                             elements per invocation, a tiny spin budget, the static order,
                                             and where it does not apply (2 entries per lane, fenced) */
                                          {.early_lookback = true},
                                          {.early_lookback = true, .aggregate_first = true},
                                          {.early_lookback = true, .aggregate_first = true, .wg = 64, .items = 64},
                                          {.early_lookback = true, .wg = 64, .items = 16, .spin_budget = 2},
                                          {.early_lookback = true, .static_order = true, .spin_budget = 2},
                                          {.early_lookback = true, .lookback_entries = 2},
                                          {.early_lookback = true, .fenced = true},
                                          /* the rows scanned and written one by one after the look-back */
                                          {.stream_rows = true},
                                          {.stream_rows = true, .wg = 64, .items = 64, .spin_budget = 2},
                                          {.stream_rows = true, .wg = 64, .items = 24},
                                          {.stream_rows = true, .early_lookback = true, .wg = 256, .items = 64},
                                          {.stream_rows = true, .fenced = true, .wg = 64, .items = 32},
                                          {.stream_rows = true, .aggregate_first = true, .fenced = true, .spin_budget = 1},
                                          /* and loaded again after the look-back */
                                          {.stream_rows = true, .reload_rows = true},
                                          {.stream_rows = true, .reload_rows = true, .wg = 64, .items = 64, .spin_budget = 2},
                                          {.stream_rows = true, .reload_rows = true, .wg = 64, .items = 24},
                                          {.stream_rows = true, .reload_rows = true, .fenced = true, .wg = 64, .items = 32}};
  for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
    tuning = others[i];
    check_scan(3 * 64 * 16 + 5, true, 0); /* one block of the default shape, three of 64 x 16 */
    check_scan(ONE_BLOCK_MAX + 1, false, 0);
    check_scan(23 * BLOCK + 9, true, 2);
  }
  tuning = (cn_scan_tuning){0};
}

/* The two-pass form at its levels' boundaries (block, block^2) +-1. */
TEST(scan_two_pass) {
  tuning = (cn_scan_tuning){.two_pass = true};
  const uint64_t sizes[] = {BLOCK2 - 1, BLOCK2, BLOCK2 + 1, 2 * BLOCK2 + 1, (uint64_t)BLOCK2 * BLOCK2 - 1,
                            (uint64_t)BLOCK2 * BLOCK2 + 1};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    check_scan(sizes[i], false, 0);
    check_scan(sizes[i], true, 2);
  }
  tuning = (cn_scan_tuning){0};
}

/* A persistent look-back state (cn_scan_args.state_bytes) through a run of
 * scans of different sizes and tunings, each checked against the CPU scan:
 * every scan must find its half of the state zero, so a scan that left the
 * next one's half dirty makes that one wrong. At the end the half the
 * parity selects is zero and the parity counts the scans of several blocks.
 * Also: a state too small, and two_pass with a state, are refused. */
TEST(scan_persistent_state) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  const cn_scan_tuning tus[5] = {{0}, {.fenced = true}, {.static_order = true}, {.spin_budget = 1},
                                 {.wg = 64, .items = 16, .stream_rows = true}};
  const uint64_t sizes[9] = {ONE_BLOCK_MAX + 1, 37 * BLOCK + 5, 100, 5 * BLOCK, 2 * BLOCK + 1, 64 * 16 * 9 + 3,
                             LARGE_FROM + 3, LARGE_FROM - 1, 3 * BLOCK};
  const uint64_t nmax = LARGE_FROM + 3;
  uint64_t bytes = 0;
  for (int t = 0; t < 5; t++) {
    uint64_t b = cn_scan_state_bytes(ctx, &(cn_scan_args){.op = CN_SCAN_U32_ADD, .n = nmax, .tuning = &tus[t]});
    bytes = b > bytes ? b : bytes;
  }
  CHECK(bytes > 8);
  uint32_t *in = malloc(nmax * 4), *want = malloc(nmax * 4), *got = malloc(nmax * 4), *st = malloc(bytes);
  cn_buffer data = {0}, state = {0};
  CHECK_OK(cn_buffer_create(ctx, CN_MEMORY_DEVICE, nmax * 4, &data));
  CHECK_OK(cn_buffer_create(ctx, CN_MEMORY_DEVICE, bytes, &state));
  /* the state starts as garbage, then cn_scan_state_init zeroes it */
  for (uint64_t i = 0; i < bytes / 4; i++) st[i] = 0xA5A5A5A5u;
  CHECK_OK(cn_buffer_upload(ctx, &state, 0, st, bytes));
  VkCommandBuffer cmd;
  CHECK_OK(cn_cmd_begin(ctx, &cmd));
  CHECK_OK(cn_scan_state_init(ctx, cmd, state.address, bytes));
  cn_cmd_barrier(ctx, cmd);
  CHECK_OK(cn_cmd_submit(ctx, cmd));
  uint32_t multi = 0; /* scans of more than one block */
  for (int run = 0; run < 18; run++) {
    uint64_t n = sizes[run % 9];
    const cn_scan_tuning *tu = &tus[(run * 3 + run / 9) % 5];
    bool exclusive = run % 4 == 1;
    for (uint64_t i = 0; i < n; i++) in[i] = run % 3 == 2 ? 1u : (uint32_t)test_rand();
    cn_scan_u32_cpu(in, want, n, exclusive);
    CHECK_OK(cn_buffer_upload(ctx, &data, 0, in, n * 4));
    cn_scan_args a = {.op = CN_SCAN_U32_ADD, .src = data.address, .dst = data.address, .scratch = state.address,
                      .n = n, .exclusive = exclusive, .tuning = tu, .state_bytes = bytes};
    multi += cn_scan_scratch_bytes(ctx, &a) != 0;
    CHECK_OK(cn_cmd_begin(ctx, &cmd));
    CHECK_OK(cn_scan_record(ctx, cmd, &a));
    cn_cmd_barrier(ctx, cmd);
    CHECK_OK(cn_cmd_submit(ctx, cmd));
    CHECK_OK(cn_buffer_download(ctx, &data, 0, got, n * 4));
    uint64_t bad = 0, first = 0;
    for (uint64_t i = 0; i < n; i++)
      if (got[i] != want[i] && bad++ == 0) first = i;
    if (bad)
      fprintf(stderr, "  run %d n=%llu: %llu wrong, first at %llu: got %u want %u\n", run, (unsigned long long)n,
              (unsigned long long)bad, (unsigned long long)first, got[first], want[first]);
    CHECK(bad == 0);
  }
  CHECK_OK(cn_buffer_download(ctx, &state, 0, st, bytes));
  CHECK_EQ_U64(st[0], (multi & 1u) << 31); /* the parity, and a zero count */
  uint64_t region = ((bytes - 8) / 2) & ~7ull, dirty = 0;
  for (uint64_t i = 0; i < region / 4; i++) dirty += st[(8 + (multi & 1u) * region) / 4 + i] != 0;
  CHECK_EQ_U64(dirty, 0);
  /* too small a state; two_pass with a state */
  cn_scan_args a = {.op = CN_SCAN_U32_ADD, .src = data.address, .dst = data.address, .scratch = state.address,
                    .n = nmax, .state_bytes = 64};
  CHECK_OK(cn_cmd_begin(ctx, &cmd));
  CHECK(cn_scan_record(ctx, cmd, &a) == CN_ERROR_INVALID_ARGUMENT);
  a.state_bytes = bytes;
  a.tuning = &(cn_scan_tuning){.two_pass = true};
  CHECK(cn_scan_record(ctx, cmd, &a) == CN_ERROR_INVALID_ARGUMENT);
  CHECK_OK(cn_cmd_submit(ctx, cmd));
  CHECK_EQ_U64(cn_scan_state_bytes(ctx, &a), 0);
  cn_buffer_destroy(ctx, &state);
  cn_buffer_destroy(ctx, &data);
  free(in);
  free(want);
  free(got);
  free(st);
}

/* u32 max and the segmented float sum through cn_scan_record, at an odd
 * offset of 4 bytes (no 16-byte loads) and at 16-byte alignment. */
static float seg_val(uint32_t w) {
  union {
    uint32_t u;
    float f;
  } x = {w & 0x7FFFFFFFu};
  return x.f;
}

TEST(scan_other_monoids) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  const uint64_t n = 5 * BLOCK + 77;
  uint32_t *in = malloc(n * 4), *got = malloc(n * 4), *want = malloc(n * 4);
  /* Default shape, small blocks with a window of 8 predecessors per lane
   * (the segmented sum is not commutative: the window's fold keeps order),
   * the block's total before its rows' scans (the segmented sum's total by
   * rows in order), 64-bit and fenced; 64 elements per invocation with the
   * early first look-back window; the rows scanned and written one by one
   * after the look-back, 64-bit and fenced; and loaded again after it. */
  const cn_scan_tuning shapes[9] = {{0},
                                    {.wg = 64, .items = 16, .lookback_entries = 8},
                                    {.wg = 64, .items = 16, .aggregate_first = true},
                                    {.wg = 64, .items = 16, .aggregate_first = true, .fenced = true},
                                    {.wg = 64, .items = 64, .aggregate_first = true, .early_lookback = true},
                                    {.wg = 64, .items = 64, .stream_rows = true},
                                    {.wg = 64, .items = 32, .stream_rows = true, .fenced = true},
                                    {.wg = 64, .items = 28, .stream_rows = true, .reload_rows = true},
                                    {.wg = 64, .items = 28, .stream_rows = true, .reload_rows = true, .fenced = true}};
  for (int op = CN_SCAN_U32_MAX; op <= CN_SCAN_F32_SEG_ADD; op++)
    for (int run = 0; run < 10; run++) { /* offset 0, offset 4 (not 16-byte aligned), the other shapes */
      int off = run == 1 ? 4 : 0;
      const cn_scan_tuning *tu = &shapes[run < 2 ? 0 : run - 1];
      for (uint64_t i = 0; i < n; i++) {
        if (op == CN_SCAN_U32_MAX) {
          in[i] = (uint32_t)test_rand_below(1u << 30);
        } else {
          union {
            float f;
            uint32_t u;
          } v = {(float)test_rand_below(8)}; /* small integers: sums are exact in any order */
          in[i] = v.u | (test_rand_below(64) == 0 ? 0x80000000u : 0u);
        }
      }
      /* Exclusive reference. */
      uint32_t acc = 0;
      for (uint64_t i = 0; i < n; i++) {
        want[i] = acc;
        if (op == CN_SCAN_U32_MAX) {
          acc = acc > in[i] ? acc : in[i];
        } else if (in[i] & 0x80000000u) {
          acc = in[i];
        } else {
          union {
            float f;
            uint32_t u;
          } s = {seg_val(acc) + seg_val(in[i])};
          acc = (acc & 0x80000000u) | (s.u & 0x7FFFFFFFu);
        }
      }
      cn_scan_args a = {.op = (cn_scan_op)op, .n = n, .exclusive = true, .tuning = tu};
      cn_buffer data = {0}, scratch = {0};
      CHECK_OK(cn_buffer_create(ctx, CN_MEMORY_DEVICE, n * 4 + 16, &data));
      CHECK_OK(cn_buffer_create(ctx, CN_MEMORY_DEVICE, cn_scan_scratch_bytes(ctx, &a), &scratch));
      CHECK_OK(cn_buffer_upload(ctx, &data, (VkDeviceSize)off, in, n * 4));
      a.src = a.dst = data.address + (VkDeviceSize)off;
      a.scratch = scratch.address;
      VkCommandBuffer cmd;
      CHECK_OK(cn_cmd_begin(ctx, &cmd));
      CHECK_OK(cn_scan_record(ctx, cmd, &a));
      cn_cmd_barrier(ctx, cmd);
      CHECK_OK(cn_cmd_submit(ctx, cmd));
      CHECK_OK(cn_buffer_download(ctx, &data, (VkDeviceSize)off, got, n * 4));
      uint64_t bad = 0;
      for (uint64_t i = 0; i < n; i++) bad += got[i] != want[i];
      if (bad) fprintf(stderr, "  op %d run %d: %llu wrong\n", op, run, (unsigned long long)bad);
      CHECK(bad == 0);
      cn_buffer_destroy(ctx, &scratch);
      cn_buffer_destroy(ctx, &data);
    }
  free(in);
  free(got);
  free(want);
}

TEST_MAIN(T(scan_cpu_reference), T(scan_empty_and_one), T(scan_bad_arguments), T(scan_block_boundaries),
          T(scan_huge_shape), T(scan_small_random_sizes), T(scan_large), T(scan_lookback_fallback), T(scan_fenced_and_shapes), T(scan_two_pass),
          T(scan_other_monoids), T(scan_persistent_state))
