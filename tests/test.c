/* test.c: the harness behind test.h. */
#include <stdio.h>
#include "test.h"

int test_failures;
static cn_context *shared_ctx;
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

uint64_t test_rand(void) {
  uint64_t x = rng_state;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return rng_state = x;
}

void test_seed(uint64_t seed) { rng_state = seed ? seed : 0x9E3779B97F4A7C15ull; }

cn_context *test_context(void) {
  if (shared_ctx) return shared_ctx;
  /* the library reads no environment: the tests take the device from CANOPY_DEVICE */
  cn_result r = cn_context_create(&(cn_context_desc){.validation = true, .device = getenv("CANOPY_DEVICE")}, &shared_ctx);
  if (r != CN_OK) {
    fprintf(stderr, "  cannot create a context: %s: %s\n", cn_result_name(r), cn_last_error());
    test_failures++;
    shared_ctx = NULL;
  }
  return shared_ctx;
}

int test_main(int argc, char **argv, const test_case *tests, size_t n) {
  /* the argument: a substring of the names to run, or --shard=K/N (the tests
   * whose index is K - 1 modulo N: CTest runs a long binary as N entries) */
  const char *only = argc > 1 ? argv[1] : NULL;
  unsigned shard = 0, shards = 0;
  if (only && sscanf(only, "--shard=%u/%u", &shard, &shards) == 2 && shard >= 1 && shard <= shards) only = NULL;
  else shards = 0;
  int passed = 0, failed = 0;
  uint32_t validation_before = 0;
  for (size_t i = 0; i < n; i++) {
    if (only && !strstr(tests[i].name, only)) continue;
    if (shards && i % shards != shard - 1) continue;
    test_failures = 0;
    test_seed(0x9E3779B97F4A7C15ull + i);
    cn_clear_error();
    tests[i].fn();
    uint32_t v = cn_context_validation_count(shared_ctx);
    if (v != validation_before) {
      fprintf(stderr, "  %u validation message(s) during %s\n", v - validation_before, tests[i].name);
      test_failures++;
      validation_before = v;
    }
    if (test_failures) {
      printf("FAIL %s\n", tests[i].name);
      failed++;
    } else {
      printf("ok   %s\n", tests[i].name);
      passed++;
    }
    fflush(stdout);
  }
  cn_context_destroy(shared_ctx);
  shared_ctx = NULL;
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}

const char *test_src_root(void) {
  static char root[1024];
  if (!root[0]) {
    snprintf(root, sizeof root, "%s", __FILE__);
    for (int i = 0; i < 2; i++) { /* tests/test.c -> the root */
      char *sl = strrchr(root, '/');
      if (sl) *sl = 0;
    }
  }
  return root;
}
