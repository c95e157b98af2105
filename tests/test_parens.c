/* test_parens.c: parentheses matching, every GPU variant against the CPU
 * reference: random, nested, one-sided and adversarial inputs at sizes built
 * from each variant's partition size and tree levels. */
#include "test.h"

#include <time.h>

static const cn_parens_variant variants[] = {CN_PARENS_SIMPLE, CN_PARENS_EFFICIENT, CN_PARENS_LOOKBACK,
                                             CN_PARENS_LOWMARK, CN_PARENS_AUTO};
#define NVARIANTS (sizeof variants / sizeof variants[0])

static uint64_t scratch_of(cn_context *ctx, cn_parens_variant v, uint64_t n);

/* The tuning check() runs with; tests set fields and reset it. */
static cn_parens_tuning tuning;

static uint64_t partition_size(cn_context *ctx, cn_parens_variant v) {
  return cn_parens_partition_size(ctx, &(cn_parens_args){.variant = v, .tuning = &tuning});
}

enum pattern {
  PAT_RANDOM,        /* fair coin */
  PAT_OPEN_HEAVY,    /* 3/4 open */
  PAT_CLOSE_HEAVY,   /* 3/4 close */
  PAT_NESTED,        /* n/2 '(' then n/2 ')' */
  PAT_ALL_OPEN,
  PAT_ALL_CLOSE,
  PAT_STAIRS,        /* the stack grows by a few per partition, then long runs of ')' pop it */
  PAT_SAWTOOTH,      /* deep climbs and descents of random lengths around the partition size */
  PAT_COUNT
};

static const char *const pattern_names[PAT_COUNT] = {"random", "open-heavy", "close-heavy", "nested",
                                                     "all-open", "all-close", "stairs", "sawtooth"};

/* Low bit: 0 open, 1 close; the other bits are noise the stage must ignore,
 * except that ASCII '(' / ')' is used for half the patterns. */
static uint8_t elem(bool close, bool ascii) {
  if (ascii) return close ? ')' : '(';
  return (uint8_t)((test_rand() & 0xFE) | (close ? 1 : 0));
}

static void fill(uint8_t *in, uint64_t n, int pat, uint64_t part) {
  bool ascii = pat % 2 == 0;
  uint64_t run = 0;
  bool close = false;
  for (uint64_t i = 0; i < n; i++) {
    bool c;
    switch (pat) {
      case PAT_RANDOM: c = test_rand() & 1; break;
      case PAT_OPEN_HEAVY: c = test_rand_below(4) == 0; break;
      case PAT_CLOSE_HEAVY: c = test_rand_below(4) != 0; break;
      case PAT_NESTED: c = i >= n / 2; break;
      case PAT_ALL_OPEN: c = false; break;
      case PAT_ALL_CLOSE: c = true; break;
      case PAT_STAIRS: {
        /* First 3/4: balanced pairs with one extra '(' every 8 elements; then ')'. */
        if (i < n - n / 4) c = (i % 8 == 7) ? false : (i % 2 == 1);
        else c = true;
        break;
      }
      default: /* PAT_SAWTOOTH */
        if (run == 0) {
          close = !close;
          run = 1 + test_rand_below(3 * part);
        }
        run--;
        c = close ? test_rand_below(8) != 0 : test_rand_below(8) == 0;
        break;
    }
    in[i] = elem(c, ascii);
  }
}

/* The CPU reference checked against an explicit stack. */
static void naive_parens(const uint8_t *in, int32_t *out, uint64_t n) {
  int32_t *stack = malloc((n ? n : 1) * sizeof *stack);
  uint64_t depth = 0;
  for (uint64_t i = 0; i < n; i++) {
    out[i] = depth ? stack[depth - 1] : -1;
    if (!(in[i] & 1)) stack[depth++] = (int32_t)i;
    else if (depth) depth--;
  }
  free(stack);
}

/* Variant v on the n elements of in against the CPU reference; label names
 * the input in the message. */
static int check_input(cn_parens_variant v, const uint8_t *in, uint64_t n, const char *label) {
  cn_context *ctx = test_context();
  if (!ctx) return 1;
  uint64_t part = partition_size(ctx, v);
  int32_t *want = malloc((n ? n : 1) * 4), *got = malloc((n ? n : 1) * 4);
  cn_parens_cpu(in, want, n);
  for (uint64_t i = 0; i < n; i++) got[i] = -7;
  cn_result r = cn_parens(ctx, v, &tuning, in, got, n);
  int bad = 0;
  if (r != CN_OK) {
    fprintf(stderr, "  %s n=%llu %s: %s: %s\n", cn_parens_variant_name(v), (unsigned long long)n, label,
            cn_result_name(r), cn_last_error());
    bad = 1;
  } else {
    uint64_t wrong = 0, first = 0;
    for (uint64_t i = 0; i < n; i++)
      if (got[i] != want[i] && wrong++ == 0) first = i;
    if (wrong) {
      fprintf(stderr, "  %s n=%llu %s (partition %llu): %llu wrong, first at %llu: got %d want %d\n",
              cn_parens_variant_name(v), (unsigned long long)n, label, (unsigned long long)part,
              (unsigned long long)wrong, (unsigned long long)first, got[first], want[first]);
      bad = 1;
    }
  }
  test_failures += bad;
  free(want);
  free(got);
  return bad;
}

static int check(cn_parens_variant v, uint64_t n, int pat) {
  cn_context *ctx = test_context();
  if (!ctx) return 1;
  const char *only = getenv("PARENS_TEST_VARIANT"); /* debugging: run one variant */
  if (only && strcmp(only, cn_parens_variant_name(v)) != 0) return 0;
  uint8_t *in = malloc(n ? n : 1);
  fill(in, n, pat, partition_size(ctx, v));
  int bad = check_input(v, in, n, pattern_names[pat]);
  free(in);
  return bad;
}

TEST(parens_cpu_reference) {
  const char *s = "((()((())(()()))))";
  int32_t want[] = {-1, 0, 1, 2, 1, 4, 5, 6, 5, 4, 9, 10, 9, 12, 9, 4, 1, 0};
  int32_t out[18];
  cn_parens_cpu((const uint8_t *)s, out, 18);
  CHECK(memcmp(out, want, sizeof want) == 0);
  /* Unbalanced: unmatched ')' get -1 or the enclosing '(' once the stack refills. */
  const char *u = "))(()))(";
  int32_t want_u[] = {-1, -1, -1, 2, 3, 2, -1, -1};
  cn_parens_cpu((const uint8_t *)u, out, 8);
  CHECK(memcmp(out, want_u, sizeof want_u) == 0);
  /* Against an explicit stack on every pattern. */
  for (int pat = 0; pat < PAT_COUNT; pat++) {
    uint64_t n = 5000 + test_rand_below(5000);
    uint8_t *in = malloc(n);
    int32_t *a = malloc(n * 4), *b = malloc(n * 4);
    fill(in, n, pat, 256);
    cn_parens_cpu(in, a, n);
    naive_parens(in, b, n);
    CHECK(memcmp(a, b, n * 4) == 0);
    free(in);
    free(a);
    free(b);
  }
}

TEST(parens_variant_names) {
  cn_parens_variant v;
  CHECK(cn_parens_variant_parse("lookback", &v) && v == CN_PARENS_LOOKBACK);
  CHECK(cn_parens_variant_parse("lowmark", &v) && v == CN_PARENS_LOWMARK);
  CHECK(cn_parens_variant_parse("auto", &v) && v == CN_PARENS_AUTO);
  CHECK(cn_parens_variant_parse("single", &v) && v == CN_PARENS_SINGLE);
  CHECK(!cn_parens_variant_parse("fast", &v));
  CHECK(strcmp(cn_parens_variant_name(CN_PARENS_EFFICIENT), "efficient") == 0);
}

TEST(parens_bad_arguments) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  uint8_t in[4] = {'(', ')', '(', ')'};
  int32_t out[4];
  CHECK(cn_parens(ctx, (cn_parens_variant)99, NULL, in, out, 4) == CN_ERROR_INVALID_ARGUMENT);
  CHECK(cn_parens(ctx, CN_PARENS_SIMPLE, NULL, in, out, CN_PARENS_MAX_N + 1) == CN_ERROR_LIMIT);
  CHECK_STR_CONTAINS(cn_last_error(), "at most");
  CHECK(cn_parens(ctx, CN_PARENS_SIMPLE, NULL, NULL, out, 4) == CN_ERROR_INVALID_ARGUMENT);
  CHECK(cn_parens_record(ctx, VK_NULL_HANDLE, NULL) == CN_ERROR_INVALID_ARGUMENT);
  CHECK(cn_parens_record(ctx, VK_NULL_HANDLE, &(cn_parens_args){.variant = CN_PARENS_SIMPLE, .in = 2, .n = 4}) ==
        CN_ERROR_INVALID_ARGUMENT);
  /* lowmark loads and stores 16 bytes at a time: it needs 16-byte aligned in and out. */
  CHECK(cn_parens_record(ctx, VK_NULL_HANDLE,
                         &(cn_parens_args){.variant = CN_PARENS_LOWMARK, .in = 4, .out = 16, .scratch = 16, .n = 4}) ==
        CN_ERROR_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(cn_last_error(), "16-byte");
  CHECK(cn_parens_record(ctx, VK_NULL_HANDLE,
                         &(cn_parens_args){.variant = CN_PARENS_LOWMARK, .in = 16, .out = 8, .scratch = 16, .n = 4}) ==
        CN_ERROR_INVALID_ARGUMENT);
  /* single: one workgroup, so a limit on n. */
  uint64_t smax = cn_parens_single_max(ctx);
  CHECK(smax >= 1024);
  CHECK(cn_parens(ctx, CN_PARENS_SINGLE, NULL, in, out, smax + 1) == CN_ERROR_LIMIT);
  CHECK_STR_CONTAINS(cn_last_error(), "single");
  /* A tuned shape the device cannot run is an error naming it, not a silent default. */
  cn_parens_tuning bad = {0};
  bad.shape[CN_PARENS_EFFICIENT] = (cn_parens_shape){.wg = 48, .k = 4};
  CHECK(cn_parens(ctx, CN_PARENS_EFFICIENT, &bad, in, out, 4) == CN_ERROR_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(cn_last_error(), "wg 48");
  CHECK(cn_parens_scratch_bytes(ctx, &(cn_parens_args){.variant = CN_PARENS_EFFICIENT, .n = 4, .tuning = &bad}) == 0);
  /* auto falls back to a variant without that need, so its scratch covers both. */
  uint64_t big = 1u << 24;
  uint64_t sauto = cn_parens_scratch_bytes(ctx, &(cn_parens_args){.variant = CN_PARENS_AUTO, .n = big});
  CHECK(sauto >= cn_parens_scratch_bytes(ctx, &(cn_parens_args){.variant = CN_PARENS_EFFICIENT, .n = big}));
  CHECK(sauto >= cn_parens_scratch_bytes(ctx, &(cn_parens_args){.variant = CN_PARENS_LOWMARK, .n = big}));
  CHECK_OK(cn_parens(ctx, CN_PARENS_SIMPLE, NULL, in, out, 0));
  CHECK(cn_parens_scratch_bytes(ctx, &(cn_parens_args){.variant = CN_PARENS_EFFICIENT, .n = 0}) == 0);
}

/* The one-dispatch path, in both forms (the low-mark form with 16 and with
 * 32 elements per invocation, with min tables and index rows at the smaller
 * sizes and subgroup links and bitmasks above, or with subgroup links and
 * index rows at the smaller sizes, the tree form): every size class of its
 * workgroup at and around its boundary, chunk boundaries, up to the largest
 * n; sizes the low-mark form cannot hold on this device take the tree form.
 * auto runs single up to the largest n it picks it for and a
 * multi-partition variant from one more element. */
TEST(parens_single_sizes) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  uint64_t smax = cn_parens_single_max(ctx);
  CHECK_EQ_U64(partition_size(ctx, CN_PARENS_SINGLE), smax);
  CHECK(cn_parens_choose(ctx, 1u << 12) == CN_PARENS_SINGLE);
  CHECK(cn_parens_choose(ctx, smax + 1) != CN_PARENS_SINGLE);
  uint64_t auto_max = 1u << 12; /* the largest power of two auto runs single for */
  while (auto_max < smax && cn_parens_choose(ctx, 2 * auto_max) == CN_PARENS_SINGLE) auto_max *= 2;
  CHECK(cn_parens_choose(ctx, auto_max + 1) != CN_PARENS_SINGLE);
  uint32_t wg_max = (uint32_t)(smax / 16);
  static const struct {
    uint32_t form, k; /* k: the tuned elements per invocation, 0 the default */
    bool links;       /* previous-smaller links from subgroups, not min tables */
  } forms[] = {{CN_PARENS_SINGLE_LOWMARK, 0, false},
               {CN_PARENS_SINGLE_LOWMARK, 32, false},
               {CN_PARENS_SINGLE_LOWMARK, 0, true},
               {CN_PARENS_SINGLE_LOWMARK, 32, true},
               {CN_PARENS_SINGLE_TREE, 0, false}};
  for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
    tuning = (cn_parens_tuning){.single_form = forms[f].form, .single_psv_links = forms[f].links};
    if (forms[f].k) tuning.shape[CN_PARENS_SINGLE] = (cn_parens_shape){.wg = wg_max, .k = forms[f].k};
    uint64_t fmax = partition_size(ctx, CN_PARENS_SINGLE);
    uint64_t small[] = {1, 2, 3, 15, 16, 17, 31, 33, 511, 513};
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++)
      for (int pat = 0; pat < PAT_COUNT; pat++) check(CN_PARENS_SINGLE, small[i], pat);
    for (uint64_t w = 32 * 16; w <= fmax; w *= 2) {
      check(CN_PARENS_SINGLE, w - 1, PAT_RANDOM);
      check(CN_PARENS_SINGLE, w, PAT_SAWTOOTH);
      check(CN_PARENS_SINGLE, w + 1 <= fmax ? w + 1 : w, PAT_STAIRS);
      check(CN_PARENS_SINGLE, w, PAT_NESTED);
    }
    for (int pat = 0; pat < PAT_COUNT; pat++) {
      check(CN_PARENS_SINGLE, fmax, pat);
      check(CN_PARENS_SINGLE, fmax - 1, pat);
    }
  }
  tuning = (cn_parens_tuning){0};
  for (int pat = 0; pat < PAT_COUNT; pat++) {
    check(CN_PARENS_AUTO, auto_max, pat);
    check(CN_PARENS_AUTO, auto_max + 1, pat);
    check(CN_PARENS_AUTO, smax, pat);
    check(CN_PARENS_AUTO, smax + 1, pat);
  }
}

/* Sizes 0, 1, 2, around chunks and ±1 around 1, 2, 3 partitions. */
TEST(parens_small_boundaries) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  for (size_t vi = 0; vi < NVARIANTS; vi++) {
    uint64_t p = partition_size(ctx, variants[vi]);
    uint64_t sizes[] = {0, 1, 2, 3, 15, 16, 17, 33, p - 1, p, p + 1, 2 * p - 1, 2 * p, 2 * p + 1, 3 * p + 1};
    for (size_t i = 0; i < (sizeof sizes / sizeof sizes[0]); i++)
      for (int pat = 0; pat < PAT_COUNT; pat++) check(variants[vi], sizes[i], pat);
  }
}

/* ±1 around the partition tree's levels (powers of two partitions) and the
 * tree's passes (every 8 levels by default), for the
 * multi-pass variants; partition counts that cross several windows for lookback. */
TEST(parens_level_boundaries) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  uint64_t pass = 1ull << 8;
  for (size_t vi = 0; vi + 1 < NVARIANTS; vi++) { /* AUTO runs one of these */
    uint64_t p = partition_size(ctx, variants[vi]);
    uint64_t sizes[] = {4 * p - 1, 4 * p + 1, 37 * p + 5};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
      check(variants[vi], sizes[i], PAT_RANDOM);
      check(variants[vi], sizes[i], PAT_SAWTOOTH);
      check(variants[vi], sizes[i], PAT_NESTED);
    }
    check(variants[vi], pass * p - 1, PAT_SAWTOOTH);
    check(variants[vi], pass * p, PAT_NESTED);
    check(variants[vi], pass * p + 1, PAT_RANDOM);
  }
}

/* Many tree passes with few elements: 2 tree levels per pass (tuning), so
 * passes begin at P * 4^i partitions; ±1 around each for i = 1..4. */
TEST(parens_many_tree_passes) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  /* simple's 64 x 1 named: its default takes partitions of 256 or 512
   * invocations up to 2^19 elements; the tree in its own dispatches
   * (cn_parens fills tickets) */
  tuning = (cn_parens_tuning){.tree_levels = 2, .shape[CN_PARENS_SIMPLE] = {64, 1, 0}, .tree_apart = true};
  const cn_parens_variant tree_variants[] = {CN_PARENS_SIMPLE, CN_PARENS_EFFICIENT, CN_PARENS_LOWMARK};
  for (int vi = 0; vi < 3; vi++) {
    cn_parens_variant v = tree_variants[vi];
    uint64_t p = partition_size(ctx, v);
    for (uint64_t parts = 4; parts <= 256; parts *= 4) {
      check(v, parts * p - 1, PAT_SAWTOOTH);
      check(v, parts * p + 1, PAT_RANDOM);
      check(v, parts * p + 1, PAT_STAIRS);
    }
  }
  tuning = (cn_parens_tuning){0};
}

/* simple and efficient build no tree where parens_match's walk back over
 * CN_PARENS_NEAR partitions and a search from partition 1 (level 0 alone)
 * reach every one before it (at most NEAR + 2 partitions); simple's default
 * shape by size (stages/parens.c): 256 x 2 on at most NEAR + 2 partitions,
 * 256 x 1 up to 2^16 elements, 256 x 2 up to 2^17, 512 x 2 up to 2^19, 64 x 1
 * above. Both sides of each bound, on deep and shallow inputs (a no-tree
 * bound one partition higher fails here). */
TEST(parens_no_tree_bound) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  enum { CN_PARENS_NEAR = 32 }; /* as in shaders/cn_parens_shared.h */
  const int pats[] = {PAT_SAWTOOTH, PAT_STAIRS, PAT_RANDOM, PAT_NESTED};
  const uint64_t wide = (CN_PARENS_NEAR + 2) * 256 * 2; /* the no-tree default's bound */
  static const struct {
    uint64_t n, p;
  } edges[] = {{wide - 1, 512},  {wide, 512},         {wide + 1, 256},       {1u << 16, 256},
               {(1u << 16) + 1, 512}, {1u << 17, 512}, {(1u << 17) + 1, 1024}, {1u << 19, 1024},
               {(1u << 19) + 1, 64}};
  tuning = (cn_parens_tuning){0};
  /* 512 x 2 where the device runs workgroups of 512 (else halved) */
  bool wg512 = cn_context_caps(ctx)->max_workgroup_invocations >= 512;
  for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
    uint64_t p = cn_parens_partition_size(ctx, &(cn_parens_args){.variant = CN_PARENS_SIMPLE, .n = edges[i].n});
    if (edges[i].p != 1024 || wg512) CHECK_EQ_U64(p, edges[i].p);
    for (size_t j = 0; j < sizeof pats / sizeof pats[0]; j++)
      if (edges[i].n <= wide + 1 || j < 2) check(CN_PARENS_SIMPLE, edges[i].n, pats[j]);
  }
  const cn_parens_variant vs[] = {CN_PARENS_SIMPLE, CN_PARENS_EFFICIENT};
  tuning = (cn_parens_tuning){.shape[CN_PARENS_SIMPLE] = {64, 1, 0}};
  for (int vi = 0; vi < 2; vi++) {
    uint64_t p = partition_size(ctx, vs[vi]), near = (CN_PARENS_NEAR + 2) * p;
    const uint64_t sizes[] = {near - 1, near, near + 1, near + p + 1};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
      for (size_t j = 0; j < sizeof pats / sizeof pats[0]; j++) check(vs[vi], sizes[i], pats[j]);
  }
  tuning = (cn_parens_tuning){0};
}

/* Deep one-sided inputs: stacks far deeper than a partition or a window, long
 * walks back and chains of backlinks in the look-back variant. */
TEST(parens_deep_stacks) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  for (size_t vi = 0; vi < NVARIANTS; vi++) {
    uint64_t p = partition_size(ctx, variants[vi]);
    int pats[] = {PAT_NESTED, PAT_ALL_OPEN, PAT_ALL_CLOSE, PAT_STAIRS, PAT_SAWTOOTH, PAT_OPEN_HEAVY, PAT_CLOSE_HEAVY};
    for (size_t i = 0; i < (sizeof pats / sizeof pats[0]); i++) check(variants[vi], 67 * p + 3, pats[i]);
  }
}

/* The look-back's forward-progress path: with a spin budget of 1 or 2 flag
 * loads, a partition computes the predecessors it would wait for itself. */
TEST(parens_lookback_redo) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  uint64_t p = partition_size(ctx, CN_PARENS_LOOKBACK);
  for (uint32_t b = 1; b <= 2; b++) {
    tuning = (cn_parens_tuning){.spin_budget = b};
    check(CN_PARENS_LOOKBACK, 9 * p + 7, PAT_RANDOM);
    check(CN_PARENS_LOOKBACK, 9 * p + 7, PAT_STAIRS);
    check(CN_PARENS_LOOKBACK, 9 * p + 7, PAT_SAWTOOTH);
    check(CN_PARENS_LOOKBACK, 5 * p, PAT_NESTED);
  }
  tuning = (cn_parens_tuning){0};
}

/* auto on buffers at 4-byte but not 16-byte offsets (lowmark and single's
 * low-mark form need 16): n is matched by a variant that takes them. */
static void check_unaligned(cn_context *ctx, uint64_t n) {
  uint8_t *in = malloc(n);
  int32_t *want = malloc(n * 4), *got = malloc(n * 4);
  fill(in, n, PAT_SAWTOOTH, partition_size(ctx, CN_PARENS_LOWMARK));
  cn_parens_cpu(in, want, n);
  cn_buffer bin = {0}, bout = {0}, bscratch = {0};
  CHECK_OK(cn_buffer_create(ctx, CN_MEMORY_DEVICE, n + 32, &bin));
  CHECK_OK(cn_buffer_create(ctx, CN_MEMORY_DEVICE, 4 * n + 32, &bout));
  cn_parens_args a = {.variant = CN_PARENS_AUTO, .n = n};
  uint64_t sb = cn_parens_scratch_bytes(ctx, &a);
  CHECK_OK(cn_buffer_create(ctx, CN_MEMORY_DEVICE, sb > 16 ? sb : 16, &bscratch));
  CHECK_OK(cn_buffer_upload(ctx, &bin, 4, in, n));
  VkCommandBuffer cmd;
  CHECK_OK(cn_cmd_begin(ctx, &cmd));
  a.in = bin.address + 4;
  a.out = bout.address + 4;
  a.scratch = bscratch.address;
  CHECK_OK(cn_parens_record(ctx, cmd, &a));
  cn_cmd_barrier(ctx, cmd);
  CHECK_OK(cn_cmd_submit(ctx, cmd));
  CHECK_OK(cn_buffer_download(ctx, &bout, 4, got, 4 * n));
  if (memcmp(got, want, 4 * n) != 0) {
    fprintf(stderr, "  auto on unaligned buffers, n=%llu: wrong\n", (unsigned long long)n);
    test_failures++;
  }
  cn_buffer_destroy(ctx, &bscratch);
  cn_buffer_destroy(ctx, &bout);
  cn_buffer_destroy(ctx, &bin);
  free(in);
  free(want);
  free(got);
}

/* auto's choices that need 16-byte alignment: lowmark (large n) and single
 * (small n; the tree form below 2^12 + 1, else simple). */
TEST(parens_auto_unaligned) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  uint64_t n = (1u << 22) + 77;
  CHECK(cn_parens_choose(ctx, n) == CN_PARENS_LOWMARK);
  check_unaligned(ctx, n);
  CHECK(cn_parens_choose(ctx, 3000) == CN_PARENS_SINGLE);
  check_unaligned(ctx, 3000);
  /* Above 4096 elements single's tree form gives way to simple on unaligned
   * buffers: AUTO's scratch must hold simple's wherever it picks single. */
  uint64_t sizes[] = {4097, 6000, 8192};
  for (int i = 0; i < 3; i++)
    if (cn_parens_choose(ctx, sizes[i]) == CN_PARENS_SINGLE)
      CHECK(scratch_of(ctx, CN_PARENS_AUTO, sizes[i]) >= scratch_of(ctx, CN_PARENS_SIMPLE, sizes[i]));
  check_unaligned(ctx, 4097);
  check_unaligned(ctx, 6000);
}

/* lowmark's other shapes (k = 16 or 32): the smallest workgroup, 32 elements
 * per invocation, larger workgroups; and the matching kernel's other forms:
 * outputs staged through shared memory, the second walk, previous-smaller
 * links from min tables or by binary lifting over shuffles, the window's
 * first wg entries cached in shared memory (deeper ones, on the deep
 * patterns, still read from global memory). */
TEST(parens_lowmark_shapes) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  static const struct {
    uint32_t wg, k;
    bool stage, rewalk, tables, cache, lift;
  } runs[] = {{32, 16, true, false, false, false, false},  {64, 32, true, false, false, false, false},
              {128, 16, true, false, false, false, false}, {64, 32, false, false, false, false, false},
              {128, 16, false, true, false, false, false}, {64, 32, false, true, false, false, false},
              {128, 16, false, false, true, false, false},  {32, 32, true, false, true, false, false},
              {256, 16, false, false, false, false, false}, {32, 16, false, false, false, true, false},
              {64, 32, true, false, false, true, true},     {128, 16, false, false, false, true, true},
              {32, 16, false, false, false, false, true},   {64, 16, false, true, false, false, true},
              {256, 16, false, false, false, false, true},  {128, 16, false, false, true, true, true}};
  for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
    tuning = (cn_parens_tuning){.lowmark_stage = runs[i].stage,
                                .lowmark_rewalk = runs[i].rewalk,
                                .lowmark_psv_tables = runs[i].tables,
                                .lowmark_window_cache = runs[i].cache,
                                .lowmark_psv_per_lane = !runs[i].lift};
    tuning.shape[CN_PARENS_LOWMARK] = (cn_parens_shape){.wg = runs[i].wg, .k = runs[i].k};
    uint64_t p = partition_size(ctx, CN_PARENS_LOWMARK);
    CHECK_EQ_U64(p, (uint64_t)runs[i].wg * runs[i].k);
    uint64_t sizes[] = {1, 31, 33, p - 1, p + 1, 9 * p + 17};
    for (size_t j = 0; j < sizeof sizes / sizeof sizes[0]; j++)
      for (int pat = 0; pat < PAT_COUNT; pat++) check(CN_PARENS_LOWMARK, sizes[j], pat);
  }
  tuning = (cn_parens_tuning){0};
}

/* lowmark's reduce kernel with several partitions per workgroup (the next
 * one's input loaded ahead): partition counts below, at and around multiples
 * of the count, the last workgroup with fewer partitions, a count beyond
 * the limit (clamped), shapes with 16 and 32 elements per invocation. */
TEST(parens_lowmark_reduce_parts) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  static const struct {
    uint32_t wg, k, parts;
  } runs[] = {{32, 16, 2}, {64, 16, 3}, {64, 32, 4}, {32, 16, 8}, {128, 16, 2}, {32, 32, 1000}};
  for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
    tuning = (cn_parens_tuning){.lowmark_reduce_parts = runs[i].parts};
    tuning.shape[CN_PARENS_LOWMARK] = (cn_parens_shape){.wg = runs[i].wg, .k = runs[i].k};
    uint64_t p = partition_size(ctx, CN_PARENS_LOWMARK);
    CHECK_EQ_U64(p, (uint64_t)runs[i].wg * runs[i].k);
    uint64_t r = runs[i].parts > 64 ? 64 : runs[i].parts;
    uint64_t sizes[] = {1, p - 1, p + 1, r * p, r * p + 1, (r + 1) * p - 3, 2 * r * p + 17, 9 * p + 5};
    for (size_t j = 0; j < sizeof sizes / sizeof sizes[0]; j++)
      for (int pat = 0; pat < PAT_COUNT; pat++) check(CN_PARENS_LOWMARK, sizes[j], pat);
  }
  tuning = (cn_parens_tuning){0};
}

/* Partitions of chosen shape for lowmark's thresholds: each partition pops a
 * ')' below its start, then holds balanced pairs, then pushes b '(' that
 * stay unmatched (its slice), with a and b drawn around the values where the
 * kernels change path (given in `at`: lengths on either side of each) or at
 * random up to the partition size. */
static void fill_levels(uint8_t *in, uint64_t n, uint64_t part, const uint64_t *at, size_t nat) {
  for (uint64_t p0 = 0; p0 < n; p0 += part) {
    uint64_t len = n - p0 < part ? n - p0 : part, ab[2];
    for (int j = 0; j < 2; j++) {
      uint64_t pick = test_rand_below(3 * nat + 2);
      if (pick < 3 * nat) ab[j] = at[pick / 3] + pick % 3 - (at[pick / 3] ? 1 : 0); /* at - 1, at, at + 1 */
      else ab[j] = test_rand_below(len + 1);
      if (ab[j] > len) ab[j] = len;
    }
    uint64_t a = ab[0], b = ab[1] > len - a ? len - a : ab[1];
    if ((len - a - b) % 2) b++; /* the rest is whole pairs */
    for (uint64_t i = 0; i < len; i++) {
      bool close = i < a || (i < len - b && (i - a) % 2 == 1);
      in[p0 + i] = elem(close, i % 3 == 0);
    }
  }
}

/* lowmark on three draws of fill_levels' input over 64 partitions of p. */
static void check_lowmark_levels(uint64_t p, const uint64_t *at, size_t nat) {
  uint64_t n = 64 * p + 5;
  uint8_t *in = malloc(n);
  for (int rep = 0; rep < 3; rep++) {
    fill_levels(in, n, p, at, nat);
    check_input(CN_PARENS_LOWMARK, in, n, "levels");
  }
  free(in);
}

/* lowmark's reduce kernel writing short slices straight and staging long ones
 * (lowmark_slice_stage_from) and its window kernel copying batches of entries
 * (lowmark_window_batch) with 1 to 64 invocations per partition
 * (lowmark_window_lanes) and selecting the entries of slices the reduce stored
 * compactly (lowmark_compact_from): slices and pops just below, at and above
 * each threshold and the batch's span, every pattern, 16 and 32 elements per
 * invocation, thresholds 1 (all staged, all compact) to past the partition
 * (none). */
TEST(parens_lowmark_slice_and_window_forms) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  static const struct {
    uint32_t wg, k, stage_from, batch, lanes, compact;
  } runs[] = {{32, 16, 1, 1, 4, 1},
              {32, 16, 17, 2, 1, 0},
              {64, 16, 64, 3, 8, 64},
              {32, 32, 256, 8, 32, CN_PARENS_COMPACT_NEVER},
              {128, 16, 0, 0, 0, 0},
              {64, 32, 5000, 16, 2, 3},
              {32, 16, 2, 40, 64, 1},
              {64, 16, 100, 5, 16, 100},
              {32, 16, 0, 0, 8, 0},
              {128, 16, 0, 0, 32, 17},
              {32, 16, 0, 0, 1, 2}};
  for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
    tuning = (cn_parens_tuning){.lowmark_slice_stage_from = runs[i].stage_from,
                                .lowmark_window_batch = runs[i].batch,
                                .lowmark_window_lanes = runs[i].lanes,
                                .lowmark_compact_from = runs[i].compact};
    tuning.shape[CN_PARENS_LOWMARK] = (cn_parens_shape){.wg = runs[i].wg, .k = runs[i].k};
    uint64_t p = partition_size(ctx, CN_PARENS_LOWMARK);
    CHECK_EQ_U64(p, (uint64_t)runs[i].wg * runs[i].k);
    uint64_t sizes[] = {p - 1, p + 1, 9 * p + 17, 40 * p + 3};
    for (size_t j = 0; j < sizeof sizes / sizeof sizes[0]; j++)
      for (int pat = 0; pat < PAT_COUNT; pat++) check(CN_PARENS_LOWMARK, sizes[j], pat);
    /* 256, 8 and 32 or 16 lanes (partitions from 1024 elements or smaller):
     * the defaults (stages/parens.c); span: rows past a batch's first */
    uint64_t stage = runs[i].stage_from ? runs[i].stage_from : 256;
    uint64_t batch = runs[i].batch ? (runs[i].batch > 16 ? 16 : runs[i].batch) : 8;
    uint64_t lanes = runs[i].lanes ? runs[i].lanes : p >= 1024 ? 32 : 16;
    uint64_t span = (batch - 1) * lanes;
    /* the compact slices' threshold: by default a quarter of a partition of at most 512 */
    uint64_t compact = runs[i].compact == CN_PARENS_COMPACT_NEVER ? p + 1
                       : runs[i].compact                          ? runs[i].compact
                       : p <= 512                                 ? p / 4
                                                                  : p + 1;
    uint64_t at[] = {0, stage, span, span + lanes, batch * lanes, compact, p / 2, p};
    check_lowmark_levels(p, at, sizeof at / sizeof at[0]);
  }
  tuning = (cn_parens_tuning){0};
}

/* lowmark's matching and reduce workgroups of several partitions, one per
 * subgroup (lowmark_match_parts, lowmark_reduce_multi; the reduce's only
 * where it builds no tree: over more than 256 partitions, and at every size
 * with the tree in dispatches of its own, tree_apart, in every other run),
 * on partitions of one subgroup of 16 and 32 elements per invocation:
 * partition counts on both sides of a multiple of the parts (the last
 * workgroup's spare subgroups), every pattern, and the levels input at the
 * window thresholds. Where the device's subgroup size is not fixed the forms
 * are not taken, and the matching is checked all the same. */
TEST(parens_lowmark_match_parts) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  uint32_t sg = cn_context_caps(ctx)->max_subgroup_size;
  static const struct {
    uint32_t k, parts;
  } runs[] = {{16, 2}, {16, 4}, {32, 3}, {16, 8}, {32, 2}};
  for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
    tuning = (cn_parens_tuning){.lowmark_match_parts = runs[i].parts,
                                .lowmark_reduce_multi = runs[i].parts == 3 ? 4 : runs[i].parts,
                                .tree_apart = i % 2 == 1};
    tuning.shape[CN_PARENS_LOWMARK] = (cn_parens_shape){.wg = sg, .k = runs[i].k};
    uint64_t p = partition_size(ctx, CN_PARENS_LOWMARK);
    if (!p) continue; /* a subgroup under 32 invocations that is not fixed: no such shape */
    CHECK_EQ_U64(p, (uint64_t)sg * runs[i].k);
    uint64_t r = runs[i].parts;
    uint64_t sizes[] = {1, p - 1, p + 1, r * p, r * p + 1, (r + 1) * p - 3, 2 * r * p + 17, 37 * p + 5, 300 * p + 1};
    for (size_t j = 0; j < sizeof sizes / sizeof sizes[0]; j++)
      for (int pat = 0; pat < PAT_COUNT; pat++) check(CN_PARENS_LOWMARK, sizes[j], pat);
    uint64_t at[] = {0, 1, 16, 32, p / 2, p};
    check_lowmark_levels(p, at, sizeof at / sizeof at[0]);
  }
  tuning = (cn_parens_tuning){0};
}

/* lowmark's default shape by size: 128 x 16 below 2^22 elements, 64 x 16 from
 * there, 32 x 16 from 2^24 (no tuning); at and around the first switch,
 * random, deep and adversarial inputs, past the second one random input
 * (32 x 16 itself is tested at every size class through tunings), and the
 * scratch of the larger size covers the smaller one's at both. */
TEST(parens_lowmark_shape_by_size) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  tuning = (cn_parens_tuning){0};
  uint64_t edge = 1u << 22;
  uint64_t below = cn_parens_partition_size(ctx, &(cn_parens_args){.variant = CN_PARENS_LOWMARK, .n = edge - 1});
  uint64_t at = cn_parens_partition_size(ctx, &(cn_parens_args){.variant = CN_PARENS_LOWMARK, .n = edge});
  CHECK_EQ_U64(below, 2048);
  CHECK_EQ_U64(cn_parens_partition_size(ctx, &(cn_parens_args){.variant = CN_PARENS_LOWMARK}), 2048);
  if (cn_context_caps(ctx)->max_subgroup_size <= 64) CHECK_EQ_U64(at, 1024);
  CHECK(cn_parens_scratch_bytes(ctx, &(cn_parens_args){.variant = CN_PARENS_LOWMARK, .n = edge}) >=
        cn_parens_scratch_bytes(ctx, &(cn_parens_args){.variant = CN_PARENS_LOWMARK, .n = edge - 1}));
  check(CN_PARENS_LOWMARK, edge - 1, PAT_RANDOM);
  check(CN_PARENS_LOWMARK, edge, PAT_SAWTOOTH);
  check(CN_PARENS_LOWMARK, edge + 1, PAT_RANDOM);
  check(CN_PARENS_LOWMARK, edge + at + 3, PAT_STAIRS);
  check(CN_PARENS_AUTO, edge + 5, PAT_NESTED);
  uint64_t edge32 = 1u << 24;
  uint64_t at32 = cn_parens_partition_size(ctx, &(cn_parens_args){.variant = CN_PARENS_LOWMARK, .n = edge32});
  CHECK_EQ_U64(cn_parens_partition_size(ctx, &(cn_parens_args){.variant = CN_PARENS_LOWMARK, .n = edge32 - 1}), at);
  if (cn_context_caps(ctx)->max_subgroup_size <= 32) CHECK_EQ_U64(at32, 512);
  CHECK(cn_parens_scratch_bytes(ctx, &(cn_parens_args){.variant = CN_PARENS_LOWMARK, .n = edge32}) >=
        cn_parens_scratch_bytes(ctx, &(cn_parens_args){.variant = CN_PARENS_LOWMARK, .n = edge32 - 1}));
  check(CN_PARENS_LOWMARK, edge32 + 1, PAT_RANDOM);
}

/* lowmark's one-pass form (lowmark_onepass): windows by look-back over the
 * earlier partitions' published values and skips, every pattern at sizes
 * around partition multiples, the threshold-level inputs of fill_levels
 * (pops and slices of every length up to the partition), several shapes and
 * matching forms, and small spin budgets that make the workgroups compute
 * the partitions they wait for themselves (on a GPU with a budget of 1 most
 * waits do). Its scratch is smaller than the four passes'; on a device that
 * limits loop trips (lavapipe) a look-back that could exceed them runs the
 * four passes instead (a spin budget near the limit here). */
TEST(parens_lowmark_onepass) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  static const struct {
    uint32_t wg, k, spin;
    bool stage, tables;
  } runs[] = {{32, 16, 0, false, false},  {64, 16, 0, true, false},  {32, 32, 0, false, true},
              {128, 16, 1, false, false}, {64, 32, 40, false, false}, {0, 0, 0, false, false}};
  for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
    tuning = (cn_parens_tuning){.lowmark_onepass = true, .spin_budget = runs[i].spin,
                                .lowmark_stage = runs[i].stage, .lowmark_psv_tables = runs[i].tables};
    tuning.shape[CN_PARENS_LOWMARK] = (cn_parens_shape){.wg = runs[i].wg, .k = runs[i].k};
    uint64_t p = partition_size(ctx, CN_PARENS_LOWMARK);
    if (runs[i].wg) CHECK_EQ_U64(p, (uint64_t)runs[i].wg * runs[i].k);
    uint64_t sizes[] = {1, p - 1, p + 1, 9 * p + 17, 40 * p + 3};
    for (size_t j = 0; j < sizeof sizes / sizeof sizes[0]; j++)
      for (int pat = 0; pat < PAT_COUNT; pat++) check(CN_PARENS_LOWMARK, sizes[j], pat);
    uint64_t at[] = {0, 1, 2, 16, p / 2, p - 1, p};
    uint64_t n = 32 * p + 5;
    uint8_t *in = malloc(n);
    fill_levels(in, n, p, at, sizeof at / sizeof at[0]);
    check_input(CN_PARENS_LOWMARK, in, n, "levels");
    free(in);
  }
  uint64_t n = 300 * 512;
  cn_parens_tuning four = {0};
  four.shape[CN_PARENS_LOWMARK] = (cn_parens_shape){.wg = 32, .k = 16};
  tuning = four;
  tuning.lowmark_onepass = true;
  uint64_t one_bytes = cn_parens_scratch_bytes(ctx, &(cn_parens_args){.variant = CN_PARENS_LOWMARK, .n = n, .tuning = &tuning});
  uint64_t four_bytes = cn_parens_scratch_bytes(ctx, &(cn_parens_args){.variant = CN_PARENS_LOWMARK, .n = n, .tuning = &four});
  CHECK(one_bytes < four_bytes);
  tuning.spin_budget = 60000; /* with 300 partitions past lavapipe's 65 535 trips */
  one_bytes = cn_parens_scratch_bytes(ctx, &(cn_parens_args){.variant = CN_PARENS_LOWMARK, .n = n, .tuning = &tuning});
  if (cn_context_caps(ctx)->max_loop_iterations) CHECK_EQ_U64(one_bytes, four_bytes);
  else CHECK(one_bytes < four_bytes);
  check(CN_PARENS_LOWMARK, n, PAT_SAWTOOTH);
  tuning = (cn_parens_tuning){0};
}

TEST(parens_random_sizes) {
  for (int i = 0; i < 24; i++) {
    uint64_t n = 1 + test_rand_below(i < 16 ? 20000 : 200000);
    check(variants[i % NVARIANTS], n, (int)test_rand_below(PAT_COUNT));
  }
}

/* Several million elements, once per variant. */
TEST(parens_large) {
  uint64_t n = (2u << 20) + 12345;
  int pats[] = {PAT_RANDOM, PAT_SAWTOOTH, PAT_STAIRS, PAT_NESTED};
  for (size_t vi = 0; vi + 1 < NVARIANTS; vi++) check(variants[vi], n, pats[vi]);
}

/* The partition tree built by the reduce pass (cn_parens_args.tickets; up
 * to 1024 partitions, lowmark's 256): simple in partitions of 32 over 1023 of
 * them (two levels of runs of 256: 8 tree levels, then 2) and over 257 (a run
 * of 256 and a run of 1, then 1 level), lowmark in partitions of 512 over 128, each
 * matched twice in one command buffer with the same tickets, zeroed once
 * (the scratch filled with garbage in between): both results the CPU's, and
 * the tickets zero again at the end. */
TEST(parens_tree_tickets) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  const struct {
    cn_parens_variant v;
    uint64_t n;
  } cases[] = {{CN_PARENS_SIMPLE, 1023 * 32 - 5}, {CN_PARENS_SIMPLE, 257 * 32}, {CN_PARENS_LOWMARK, 128 * 512 - 3}};
  const cn_parens_tuning tu = {.shape[CN_PARENS_SIMPLE] = {32, 1, 0}, .shape[CN_PARENS_LOWMARK] = {32, 16, 0}};
  for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
    uint64_t n = cases[ci].n, tbytes = cn_parens_ticket_bytes(n);
    uint8_t *in = malloc(n);
    int32_t *want = malloc(n * 4), *got = malloc(n * 4);
    uint32_t *t = malloc(tbytes);
    fill(in, n, ci == 1 ? PAT_STAIRS : PAT_SAWTOOTH, 32);
    cn_parens_cpu(in, want, n);
    cn_parens_args a = {.variant = cases[ci].v, .n = n, .tuning = &tu};
    cn_buffer bin = {0}, bout = {0}, bscratch = {0}, bt = {0};
    CHECK_OK(cn_buffer_create(ctx, CN_MEMORY_DEVICE, (n + 15) & ~15ull, &bin));
    CHECK_OK(cn_buffer_create(ctx, CN_MEMORY_DEVICE, 4 * n, &bout));
    CHECK_OK(cn_buffer_create(ctx, CN_MEMORY_DEVICE, cn_parens_scratch_bytes(ctx, &a), &bscratch));
    CHECK_OK(cn_buffer_create(ctx, CN_MEMORY_DEVICE, tbytes, &bt));
    CHECK_OK(cn_buffer_upload(ctx, &bin, 0, in, n));
    VkCommandBuffer cmd;
    CHECK_OK(cn_cmd_begin(ctx, &cmd));
    cn_cmd_fill(ctx, cmd, &bt, 0, bt.size, 0);
    cn_cmd_fill(ctx, cmd, &bout, 0, bout.size, 0xFFFFFFF9u);
    cn_cmd_barrier(ctx, cmd);
    a.in = bin.address, a.out = bout.address, a.scratch = bscratch.address, a.tickets = bt.address;
    for (int k = 0; k < 2; k++) { /* the second runs on what the first left */
      CHECK_OK(cn_parens_record(ctx, cmd, &a));
      cn_cmd_barrier(ctx, cmd);
      if (k == 0) {
        cn_cmd_fill(ctx, cmd, &bout, 0, bout.size, 0xFFFFFFF9u);
        cn_cmd_fill(ctx, cmd, &bscratch, 0, bscratch.size, 0xFFFFFFFFu); /* no tree left from the first */
        cn_cmd_barrier(ctx, cmd);
      }
    }
    CHECK_OK(cn_cmd_submit(ctx, cmd));
    CHECK_OK(cn_buffer_download(ctx, &bout, 0, got, 4 * n));
    uint64_t wrong = 0;
    for (uint64_t i = 0; i < n; i++) wrong += got[i] != want[i];
    if (wrong)
      fprintf(stderr, "  %s n=%llu: %llu wrong\n", cn_parens_variant_name(a.variant), (unsigned long long)n,
              (unsigned long long)wrong);
    CHECK_EQ_U64(wrong, 0);
    CHECK_OK(cn_buffer_download(ctx, &bt, 0, t, tbytes));
    uint64_t nonzero = 0;
    for (uint64_t i = 0; i < tbytes / 4; i++) nonzero += t[i] != 0;
    CHECK_EQ_U64(nonzero, 0);
    cn_buffer_destroy(ctx, &bt);
    cn_buffer_destroy(ctx, &bscratch);
    cn_buffer_destroy(ctx, &bout);
    cn_buffer_destroy(ctx, &bin);
    free(in), free(want), free(got), free(t);
  }
}

static uint64_t scratch_of(cn_context *ctx, cn_parens_variant v, uint64_t n) {
  return cn_parens_scratch_bytes(ctx, &(cn_parens_args){.variant = v, .n = n});
}

TEST(parens_auto_fits_one_allocation) {
  /* AUTO's scratch must fit one allocation of the device: at 2^28 lowmark's
   * would be 2.15 GB, over lavapipe's 2 GiB, so AUTO takes the next variant
   * that fits; below that it stays lowmark. */
  cn_context *ctx = test_context();
  if (!ctx) return;
  uint64_t most = cn_context_caps(ctx)->max_allocation_size;
  uint64_t sizes[] = {1u << 18, 1u << 20, 1u << 26, 1u << 28, 1ull << 30};
  for (int i = 0; i < 5; i++) {
    uint64_t n = sizes[i];
    cn_parens_variant v = cn_parens_choose(ctx, n);
    if (!most || scratch_of(ctx, CN_PARENS_LOWMARK, n) <= most) CHECK_EQ_U64(v, CN_PARENS_LOWMARK);
    else if (scratch_of(ctx, CN_PARENS_EFFICIENT, n) <= most) CHECK_EQ_U64(v, CN_PARENS_EFFICIENT);
    if (most && scratch_of(ctx, v, n) <= most) CHECK(scratch_of(ctx, CN_PARENS_AUTO, n) <= most);
  }
  if (most == (1ull << 31)) { /* lavapipe: the case of the report */
    CHECK(scratch_of(ctx, CN_PARENS_LOWMARK, 1u << 28) > most);
    CHECK_EQ_U64(cn_parens_choose(ctx, 1u << 28), CN_PARENS_EFFICIENT);
    CHECK(scratch_of(ctx, CN_PARENS_AUTO, 1u << 28) <= most);
  }
}

TEST_MAIN(T(parens_cpu_reference), T(parens_variant_names), T(parens_bad_arguments), T(parens_single_sizes), T(parens_small_boundaries),
          T(parens_level_boundaries), T(parens_many_tree_passes), T(parens_no_tree_bound), T(parens_tree_tickets), T(parens_deep_stacks), T(parens_lookback_redo),
          T(parens_auto_unaligned), T(parens_lowmark_shapes), T(parens_lowmark_reduce_parts),
          T(parens_lowmark_slice_and_window_forms), T(parens_lowmark_match_parts), T(parens_lowmark_shape_by_size), T(parens_lowmark_onepass), T(parens_random_sizes),
          T(parens_large), T(parens_auto_fits_one_allocation))
