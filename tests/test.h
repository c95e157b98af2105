/* test.h: the small test harness every tests/test_*.c uses.
 *
 *   TEST(name) { ... CHECK(cond); CHECK_EQ_U64(a, b); ... }
 *   int main(void) { return test_main(tests, count); }   -- via TEST_MAIN(...)
 *
 * A failed CHECK prints file:line and the values, marks the test failed and
 * goes on. test_context() makes a Vulkan context with the validation layer on;
 * a test that leaves a validation message behind fails. The last line printed
 * is "N passed, N failed". */
#ifndef CN_TEST_H
#define CN_TEST_H

#include <canopy/canopy.h>
#include <canopy/cn_scan.h>
#include <canopy/cn_parens.h>
#include <canopy/cn_scene.h>
#include <canopy/cn_scene_api.h>
#include <canopy/cn_svg.h>
#include <canopy/cn_pathbox.h>
#include <canopy/cn_bbox.h>
#include <canopy/cn_bins.h>
#include <canopy/cn_box.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int test_failures; /* CHECK failures in the running test */

#define CHECK(cond)                                                           \
  do {                                                                        \
    if (!(cond)) {                                                            \
      fprintf(stderr, "  %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
      test_failures++;                                                        \
    }                                                                         \
  } while (0)

#define CHECK_EQ_U64(a, b)                                                                   \
  do {                                                                                       \
    uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);                                         \
    if (a_ != b_) {                                                                          \
      fprintf(stderr, "  %s:%d: %s == %s failed: %" PRIu64 " != %" PRIu64 "\n", __FILE__, __LINE__, #a, #b, a_, b_); \
      test_failures++;                                                                       \
    }                                                                                        \
  } while (0)

#define CHECK_OK(expr)                                                                        \
  do {                                                                                        \
    cn_result r_ = (expr);                                                                    \
    if (r_ != CN_OK) {                                                                        \
      fprintf(stderr, "  %s:%d: %s returned %s: %s\n", __FILE__, __LINE__, #expr, cn_result_name(r_), \
              cn_last_error());                                                               \
      test_failures++;                                                                        \
    }                                                                                         \
  } while (0)

#define CHECK_STR_CONTAINS(hay, needle)                                                          \
  do {                                                                                           \
    const char *h_ = (hay), *n_ = (needle);                                                      \
    if (!h_ || !strstr(h_, n_)) {                                                                \
      fprintf(stderr, "  %s:%d: \"%s\" does not contain \"%s\"\n", __FILE__, __LINE__, h_ ? h_ : "(null)", n_); \
      test_failures++;                                                                           \
    }                                                                                            \
  } while (0)

typedef struct test_case {
  const char *name;
  void (*fn)(void);
} test_case;

#define TEST(name) static void name(void)
#define TEST_MAIN(...)                                          \
  int main(int argc, char **argv) {                             \
    static const test_case tests_[] = {__VA_ARGS__};            \
    return test_main(argc, argv, tests_, sizeof tests_ / sizeof tests_[0]); \
  }
#define T(name) {#name, name}

int test_main(int argc, char **argv, const test_case *tests, size_t n);

/* The shared context (validation on), made on first use; NULL if it failed
 * (the failure is counted). */
cn_context *test_context(void);
/* The source tree's root (for tests/data and ../shared), from test.c's own path. */
const char *test_src_root(void);

/* Deterministic xorshift random numbers. */
uint64_t test_rand(void);
void test_seed(uint64_t seed);
/* Uniform in [0, n). */
static inline uint64_t test_rand_below(uint64_t n) { return n ? test_rand() % n : 0; }

#endif
