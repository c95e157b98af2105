/* test_bbox.c: the clip/blend box stage on the GPU against its CPU reference,
 * bit for bit, on random and adversarial streams; the CPU reference against
 * hand-worked results; error reporting of unbalanced streams. */
#include "test.h"

#include "internal.h" /* cn__bbox_small: which path a stream takes */

#include <canopy/cn_bbox.h>
#include <canopy/cn_bins.h>
#include <canopy/cn_box.h>
#include <canopy/cn_scan.h>

#include <math.h>

typedef struct stream {
  uint32_t *tags;
  cn_box *boxes;
  uint64_t n;
} stream;

static stream stream_alloc(uint64_t n) {
  stream s = {malloc((n ? n : 1) * 4), malloc((n ? n : 1) * sizeof(cn_box)), n};
  return s;
}
static void stream_free(stream *s) {
  free(s->tags);
  free(s->boxes);
}

static float rand_coord(void) { return (float)((int64_t)test_rand_below(4000) - 500) * 0.25f; }

static cn_box rand_box(void) {
  uint64_t r = test_rand_below(100);
  if (r < 3) return (cn_box){NAN, 0, 10, 10};                         /* NaN: empty */
  if (r < 8) return (cn_box){5, 5, 5, 9};                             /* zero width: empty */
  if (r < 10) return (cn_box){-0.0f, -0.0f, 1e-40f, 30};               /* -0 and a subnormal */
  if (r < 12) return (cn_box){-INFINITY, -INFINITY, INFINITY, INFINITY}; /* unbounded */
  float x = rand_coord(), y = rand_coord();
  float w = (float)test_rand_below(600) * 0.5f, h = (float)test_rand_below(600) * 0.5f;
  return (cn_box){x, y, x + w, y + h};
}

/* A balanced random stream. groups: percent of BEGIN among non-END picks;
 * blend: percent of groups that are blends; deep: open first, close late. */
static stream gen_stream(uint64_t n, int groups, int blend, bool deep) {
  stream s = stream_alloc(n);
  uint32_t *stack = malloc((n ? n : 1) * 4);
  uint64_t depth = 0;
  for (uint64_t i = 0; i < n; i++) {
    uint64_t left = n - i;
    uint32_t tag;
    if (depth >= left) {
      tag = stack[depth - 1] + 1; /* must close */
    } else {
      uint64_t r = test_rand_below(100);
      bool can_open = depth + 1 < left;
      bool want_close = depth && (deep ? i * 2 >= n && r < 70 : r < (uint64_t)groups / 2);
      if (want_close) {
        tag = stack[depth - 1] + 1;
      } else if (can_open && test_rand_below(100) < (uint64_t)(deep && i * 2 < n ? 60 : groups)) {
        tag = test_rand_below(100) < (uint64_t)blend ? CN_TAG_BEGIN_BLEND : CN_TAG_BEGIN_CLIP;
      } else {
        tag = test_rand_below(2) ? CN_TAG_FILL : CN_TAG_STROKE;
      }
    }
    if (tag == CN_TAG_BEGIN_CLIP || tag == CN_TAG_BEGIN_BLEND) stack[depth++] = tag;
    if (tag == CN_TAG_END_CLIP || tag == CN_TAG_END_BLEND) depth--;
    s.tags[i] = tag;
    s.boxes[i] = (tag == CN_TAG_END_CLIP || tag == CN_TAG_END_BLEND || tag == CN_TAG_BEGIN_BLEND)
                     ? (cn_box){0, 0, 0, 0}
                     : rand_box();
  }
  free(stack);
  return s;
}

static void check_stream(const stream *s, const float vp[4], const char *what) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  cn_box *want = malloc((s->n ? s->n : 1) * sizeof(cn_box)), *got = malloc((s->n ? s->n : 1) * sizeof(cn_box));
  cn_result r = cn_bbox_cpu(s->tags, s->boxes, s->n, vp, want);
  CHECK_OK(r);
  memset(got, 0xAB, (s->n ? s->n : 1) * sizeof(cn_box));
  cn_result g = cn_bbox_run(ctx, s->tags, s->boxes, s->n, vp, got);
  CHECK_OK(g);
  if (r == CN_OK && g == CN_OK) {
    uint64_t bad = 0, first = 0;
    for (uint64_t i = 0; i < s->n; i++)
      if (memcmp(&want[i], &got[i], sizeof(cn_box)) != 0 && bad++ == 0) first = i;
    if (bad) {
      fprintf(stderr, "  %s n=%llu: %llu boxes differ, first at %llu (tag %u): got %g %g %g %g want %g %g %g %g\n", what,
              (unsigned long long)s->n, (unsigned long long)bad, (unsigned long long)first, s->tags[first],
              got[first].x0, got[first].y0, got[first].x1, got[first].y1, want[first].x0, want[first].y0,
              want[first].x1, want[first].y1);
      test_failures++;
    }
  }
  free(want);
  free(got);
}

static const float VP_UNBOUNDED[4] = {-INFINITY, -INFINITY, INFINITY, INFINITY};
static const float VP_SMALL[4] = {0, 0, 640, 480};

/* Worked by hand. */
TEST(bbox_cpu_hand) {
  uint32_t tags[] = {CN_TAG_BEGIN_CLIP, CN_TAG_FILL, CN_TAG_BEGIN_BLEND, CN_TAG_STROKE, CN_TAG_FILL,
                     CN_TAG_END_BLEND, CN_TAG_END_CLIP, CN_TAG_FILL, CN_TAG_BEGIN_BLEND, CN_TAG_END_BLEND};
  cn_box boxes[] = {{0, 0, 100, 100}, {50, 50, 150, 150}, {0, 0, 0, 0}, {-10, 20, 30, 40}, {200, 200, 300, 300},
                    {0, 0, 0, 0},     {0, 0, 0, 0},       {90, 90, 700, 700}, {0, 0, 0, 0}, {0, 0, 0, 0}};
  cn_box want[] = {{0, 0, 100, 100},  {50, 50, 100, 100}, {0, 20, 30, 40}, {0, 20, 30, 40}, {0, 0, 0, 0},
                   {0, 20, 30, 40},   {0, 0, 100, 100},   {90, 90, 640, 480}, {0, 0, 0, 0}, {0, 0, 0, 0}};
  /* element 0 and 6: union of (50,50,100,100) and (0,20,30,40) = (0,20,100,100) */
  want[0] = want[6] = (cn_box){0, 20, 100, 100};
  cn_box out[10];
  CHECK_OK(cn_bbox_cpu(tags, boxes, 10, VP_SMALL, out));
  for (int i = 0; i < 10; i++) {
    if (memcmp(&out[i], &want[i], sizeof(cn_box)) != 0) {
      fprintf(stderr, "  element %d: %g %g %g %g\n", i, out[i].x0, out[i].y0, out[i].x1, out[i].y1);
      test_failures++;
    }
  }
  stream s = {tags, boxes, 10};
  check_stream(&s, VP_SMALL, "hand");
}

TEST(bbox_errors) {
  uint32_t t1[] = {CN_TAG_BEGIN_CLIP, CN_TAG_FILL, CN_TAG_END_BLEND};
  cn_box b[4] = {{0}};
  cn_box out[4];
  CHECK(cn_bbox_cpu(t1, b, 3, VP_SMALL, out) == CN_ERROR_UNBALANCED);
  CHECK_STR_CONTAINS(cn_last_error(), "element 2: END_BLEND closes the BEGIN_CLIP at element 0");
  uint32_t t2[] = {CN_TAG_FILL, CN_TAG_END_CLIP};
  CHECK(cn_bbox_cpu(t2, b, 2, VP_SMALL, out) == CN_ERROR_UNBALANCED);
  CHECK_STR_CONTAINS(cn_last_error(), "element 1: END_CLIP without a BEGIN");
  uint32_t t3[] = {CN_TAG_BEGIN_BLEND, CN_TAG_BEGIN_CLIP, CN_TAG_END_CLIP};
  CHECK(cn_bbox_cpu(t3, b, 3, VP_SMALL, out) == CN_ERROR_UNBALANCED);
  CHECK_STR_CONTAINS(cn_last_error(), "element 0: BEGIN_BLEND is never closed");
  uint32_t t4[] = {CN_TAG_FILL, 9};
  CHECK(cn_bbox_cpu(t4, b, 2, VP_SMALL, out) == CN_ERROR_INVALID_ARGUMENT);
  cn_context *ctx = test_context();
  if (!ctx) return;
  CHECK(cn_bbox_run(ctx, t1, b, 3, VP_SMALL, out) == CN_ERROR_UNBALANCED);
  CHECK_STR_CONTAINS(cn_last_error(), "element 2: END_BLEND closes the BEGIN_CLIP at element 0");
  CHECK(cn_bbox_run(ctx, t3, b, 3, VP_SMALL, out) == CN_ERROR_UNBALANCED);
  CHECK(cn_bbox_run(ctx, t4, b, 2, VP_SMALL, out) == CN_ERROR_INVALID_ARGUMENT);
  /* The GPU status alone, without the CPU's explanation. */
  cn_bbox_status st = {4, 1, UINT32_MAX, UINT32_MAX};
  CHECK(cn_bbox_status_check(&st, 4) == CN_ERROR_UNBALANCED);
  CHECK_STR_CONTAINS(cn_last_error(), "2 BEGIN elements are never closed");
  st = (cn_bbox_status){6, 3, 5, UINT32_MAX};
  CHECK(cn_bbox_status_check(&st, 6) == CN_ERROR_UNBALANCED);
  CHECK_STR_CONTAINS(cn_last_error(), "element 5: END without a BEGIN of its kind");
  st = (cn_bbox_status){8, 4, UINT32_MAX, UINT32_MAX};
  CHECK(cn_bbox_status_check(&st, 6) == CN_ERROR_LIMIT);
  st = (cn_bbox_status){8, 4, UINT32_MAX, UINT32_MAX};
  CHECK_OK(cn_bbox_status_check(&st, 8));
}

/* Large streams made unbalanced in one place: the GPU status must catch it. */
TEST(bbox_unbalanced_large) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  for (int k = 0; k < 3; k++) {
    stream s = gen_stream(200000, 20, 50, false);
    uint64_t i = 100000;
    while (s.tags[i] != (k == 0 ? CN_TAG_END_CLIP : CN_TAG_END_BLEND)) i++;
    if (k == 1) /* the last END: its BEGIN stays open to the end */
      for (i = s.n - 1; s.tags[i] != CN_TAG_END_CLIP && s.tags[i] != CN_TAG_END_BLEND; i--) {}
    if (k == 0) s.tags[i] = CN_TAG_END_BLEND;    /* closes a clip */
    else if (k == 1) s.tags[i] = CN_TAG_FILL;    /* a BEGIN left open */
    else s.tags[i] = CN_TAG_BEGIN_BLEND;         /* mismatched from here on */
    cn_box *out = malloc(s.n * sizeof *out);
    /* cn_bbox_run consults the CPU only after the GPU status reported a problem */
    cn_result g = cn_bbox_run(ctx, s.tags, s.boxes, s.n, VP_SMALL, out);
    CHECK(g == CN_ERROR_UNBALANCED);
    char msg[64];
    snprintf(msg, sizeof msg, "element %llu: END_BLEND closes the BEGIN_CLIP", (unsigned long long)i);
    if (k == 0) CHECK_STR_CONTAINS(cn_last_error(), msg);
    if (k == 1) CHECK_STR_CONTAINS(cn_last_error(), "is never closed");
    free(out);
    stream_free(&s);
  }
}

static stream gen_nested(uint64_t levels, bool clips_only);

/* Other shapes of the kernels (cn_tuning.bbox_*: wg, items, clip_wg) than
 * the default (256 invocations of 2 items where the device allows), which
 * every other test runs: 1, 4 and 8 items included. The first shape takes
 * the compaction's scan pass (bbox_compact_scan_max off), the others have
 * bbox_compact add up the counts before its block itself (the default at
 * these sizes), over up to 313 blocks (several trips of its loop: 79
 * groups of four counts over 32 invocations). The second and fourth have the
 * compaction OR the group bytes by atomics (bbox_compact) where the others
 * store them (bbox_compact_bytes, on devices with 8-bit stores). */
TEST(bbox_shapes) {
  const char *shapes[] = {"128,4,1024", "64,8,64", "256,1,128", "32,2,32"};
  const uint32_t off = CN_SMALL_OFF; /* the multi-pass kernels also at small n */
  const cn_tuning tunings[] = {{.bbox_wg = 128, .bbox_items = 4, .bbox_clip_wg = 1024, .bbox_small_max = off,
                                .bbox_compact_scan_max = off},
                               {.bbox_wg = 64, .bbox_items = 8, .bbox_clip_wg = 64, .bbox_small_max = off,
                                .bbox_group_byte_atomics = true},
                               {.bbox_wg = 256, .bbox_items = 1, .bbox_clip_wg = 128, .bbox_small_max = off},
                               {.bbox_wg = 32, .bbox_items = 2, .bbox_clip_wg = 32, .bbox_small_max = off,
                                .bbox_group_byte_atomics = true}};
  cn_context *ctx = test_context();
  if (!ctx) return;
  for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
    cn_context_set_tuning(ctx, &tunings[k]);
    for (int j = 0; j < 3; j++) {
      stream s = gen_stream(j == 0 ? 700 : j == 1 ? 20000 : 5000, 30, 50, j == 2);
      check_stream(&s, j ? VP_SMALL : VP_UNBOUNDED, shapes[k]);
      stream_free(&s);
    }
    stream s = gen_nested(3000, k & 1);
    check_stream(&s, VP_SMALL, shapes[k]);
    stream_free(&s);
  }
  cn_context_set_tuning(ctx, NULL);
}

/* Clip chains across many of bbox_clip_local's partitions, with the boxes
 * their links bring added in either place (bbox_draws, or bbox_clip_nodes
 * first): streams whose clips are wide random boxes (x0, y0 in [0, 400), x1,
 * y1 in [600, 1000), 2^20 values each) so that no intersection is empty and
 * each draw's result (over everything) is its whole clip stack box, whose
 * every side comes from one ancestor anywhere in its chain: a partition or a
 * jump left out changes it. Partitions of 32, 64 and 1024 group nodes (the
 * partitions' bases taken in several rounds of 32 and 64 partitions), deep
 * streams of 3 000 and 60 000 elements and a shallow one of 20 000. */
TEST(bbox_clip_chains) {
  const uint32_t off = CN_SMALL_OFF;
  const uint32_t clip_wgs[] = {32, 64, 1024};
  cn_context *ctx = test_context();
  if (!ctx) return;
  const uint32_t joins[] = {CN_CLIP_JOIN_HOP, CN_CLIP_JOIN_NODES};
  const char *join_names[] = {"hop", "nodes"};
  for (int jn = 0; jn < 2; jn++)
    for (size_t w = 0; w < sizeof clip_wgs / sizeof clip_wgs[0]; w++) {
      cn_tuning t = {.bbox_wg = 256, .bbox_items = 2, .bbox_clip_wg = clip_wgs[w], .bbox_small_max = off,
                     .bbox_clip_join = joins[jn]};
      cn_context_set_tuning(ctx, &t);
      for (int j = 0; j < 3; j++) {
        uint64_t n = j == 0 ? 3000 : j == 1 ? 20000 : 60000;
        stream s = gen_stream(n, 40, 25, j != 1);
        for (uint64_t i = 0; i < n; i++) {
          /* 2^20 values a side: an ancestor's side is seldom tied with another's */
          float x0 = (float)test_rand_below(1u << 20) * 0x1p-20f * 400.0f;
          float y0 = (float)test_rand_below(1u << 20) * 0x1p-20f * 400.0f;
          float x1 = 600.0f + (float)test_rand_below(1u << 20) * 0x1p-20f * 400.0f;
          float y1 = 600.0f + (float)test_rand_below(1u << 20) * 0x1p-20f * 400.0f;
          if (s.tags[i] == CN_TAG_BEGIN_CLIP) s.boxes[i] = (cn_box){x0, y0, x1, y1};
          else if (s.tags[i] == CN_TAG_FILL || s.tags[i] == CN_TAG_STROKE)
            s.boxes[i] = (cn_box){-100.0f + x0 * 0.1f, -100.0f, 1100.0f, 1100.0f - y1 * 0.1f};
        }
        char what[64];
        snprintf(what, sizeof what, "clip chains, %s, partitions of %u, n %llu", join_names[jn],
                 clip_wgs[w], (unsigned long long)n);
        check_stream(&s, VP_UNBOUNDED, what);
        stream_free(&s);
      }
    }
  cn_context_set_tuning(ctx, NULL);
}

/* Scratch sized for a group bound holds the stage recorded with any smaller
 * one (the same n): cn_bbox_scratch_bytes never shrinks as the bound grows,
 * across the clip partition's steps (256 -> 512 -> 1024 group nodes where
 * the partitions would pass 256) and the parentheses variants' shapes. */
TEST(bbox_scratch_grows_with_bound) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  const uint64_t ns[] = {5000, 70000, 300000, 1u << 21};
  for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
    uint64_t n = ns[k], prev = 0;
    for (uint64_t gb = 0; gb <= n; gb += (gb > 60000 && gb < 140000) || (gb > 250000 && gb < 270000) ? 1 : 1 + gb / 64) {
      uint64_t t = cn_bbox_scratch_bytes(ctx, &(cn_bbox_args){.n = n, .group_bound = gb});
      if (t < prev) {
        fprintf(stderr, "  n %llu: scratch %llu bytes at group_bound %llu, less than below it\n", (unsigned long long)n,
                (unsigned long long)t, (unsigned long long)gb);
        test_failures++;
        break;
      }
      prev = t;
    }
  }
}

TEST(bbox_small_random) {
  check_stream(&(stream){NULL, NULL, 0}, VP_SMALL, "empty");
  for (int k = 0; k < 40; k++) {
    uint64_t n = 1 + test_rand_below(k < 20 ? 40 : 3000);
    stream s = gen_stream(n, (int)test_rand_below(90) + 5, (int)test_rand_below(101), k % 5 == 0);
    check_stream(&s, k & 1 ? VP_SMALL : VP_UNBOUNDED, "small random");
    stream_free(&s);
  }
}

/* Runs the stage through the recording API with a given group_bound; the
 * results go to got (n boxes), the status to *st. */
static cn_result record_stream(const stream *s, uint64_t group_bound, const float vp[4], cn_box *got,
                               cn_bbox_status *st) {
  cn_context *ctx = test_context();
  uint64_t nn = s->n ? s->n : 1;
  cn_buffer tags = {0}, boxes = {0}, res = {0}, status = {0}, scratch = {0};
  cn_result r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, nn * 4, &tags);
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, nn * 16, &boxes);
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, nn * 16, &res);
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_READBACK, 16, &status);
  if (r == CN_OK)
    r = cn_buffer_create(ctx, CN_MEMORY_DEVICE,
                         cn_bbox_scratch_bytes(ctx, &(cn_bbox_args){.n = s->n, .group_bound = group_bound}), &scratch);
  if (r == CN_OK && s->n) r = cn_buffer_upload(ctx, &tags, 0, s->tags, s->n * 4);
  if (r == CN_OK && s->n) r = cn_buffer_upload(ctx, &boxes, 0, s->boxes, s->n * 16);
  VkCommandBuffer cmd;
  if (r == CN_OK) r = cn_cmd_begin(ctx, &cmd);
  if (r == CN_OK) {
    cn_bbox_args a = {.tags = tags.address, .boxes = boxes.address, .result = res.address,
                      .status = status.address, .scratch = scratch.address, .n = s->n,
                      .group_bound = group_bound, .viewport = {vp[0], vp[1], vp[2], vp[3]}};
    r = cn_bbox_record(ctx, cmd, &a);
    cn_cmd_barrier(ctx, cmd);
    cn_result q = cn_cmd_submit(ctx, cmd);
    if (r == CN_OK) r = q;
  }
  if (r == CN_OK) memcpy(st, status.mapped, sizeof *st);
  if (r == CN_OK && s->n) r = cn_buffer_download(ctx, &res, 0, got, s->n * 16);
  cn_buffer_destroy(ctx, &tags);
  cn_buffer_destroy(ctx, &boxes);
  cn_buffer_destroy(ctx, &res);
  cn_buffer_destroy(ctx, &status);
  cn_buffer_destroy(ctx, &scratch);
  return r;
}

/* The stream through bbox_small (small, *ss) and through the multi-pass
 * kernels (multi, *sm: bbox_small turned off for that run). */
static void record_small_and_multi(const stream *s, uint64_t gb, cn_box *small, cn_bbox_status *ss, cn_box *multi,
                                   cn_bbox_status *sm) {
  cn_context *ctx = test_context();
  CHECK_OK(record_stream(s, gb, VP_SMALL, small, ss));
  cn_context_set_tuning(ctx, &(cn_tuning){.bbox_small_max = CN_SMALL_OFF});
  CHECK(!cn__bbox_small(ctx, s->n, gb));
  CHECK_OK(record_stream(s, gb, VP_SMALL, multi, sm));
  cn_context_set_tuning(ctx, NULL);
}

/* L BEGINs (clips, every third a blend), a draw after each, then L ENDs, then
 * `tail` draws: depth L. */
static stream gen_deep(uint64_t L, uint64_t tail) {
  stream s = stream_alloc(3 * L + tail);
  uint64_t m = 0;
  uint32_t *open = malloc((L ? L : 1) * 4);
  for (uint64_t i = 0; i < L; i++) {
    open[i] = i % 3 == 1 ? CN_TAG_BEGIN_BLEND : CN_TAG_BEGIN_CLIP;
    s.tags[m] = open[i];
    s.boxes[m++] = (cn_box){(float)(i % 50), (float)(i % 40), 900.0f - (float)(i % 30), 700.0f - (float)(i % 20)};
    s.tags[m] = CN_TAG_FILL, s.boxes[m++] = rand_box();
  }
  for (uint64_t i = L; i-- > 0;) s.tags[m] = open[i] + 1, s.boxes[m++] = (cn_box){0};
  for (uint64_t i = 0; i < tail; i++) s.tags[m] = CN_TAG_STROKE, s.boxes[m++] = rand_box();
  free(open);
  return s;
}

/* The single-workgroup path (bbox_small) against the CPU reference and the
 * multi-pass kernels: random nestings, deep nesting, empty and all-group
 * streams, sizes around its threshold and its group-node capacity (where the
 * multi-pass kernels take over), unbalanced streams and a too small
 * group_bound. The path each stream takes is asserted. */
TEST(bbox_small_path) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  uint64_t max = cn__bbox_small_max(ctx);
  CHECK(max >= 4096);
  check_stream(&(stream){NULL, NULL, 0}, VP_SMALL, "small path: empty");
  CHECK(cn__bbox_small(ctx, 0, 0));
  const uint64_t sizes[] = {1, 2, 3, 31, 255, 1023, 1024, 1025, 2049, 3000, max - 1, max};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
    for (int j = 0; j < 3; j++) {
      stream s = gen_stream(sizes[k], j == 0 ? 10 : j == 1 ? 35 : 80, j * 40, j == 2);
      uint64_t gb = cn_bbox_count_groups(s.tags, s.n);
      if (gb <= 4096) CHECK(cn__bbox_small(ctx, s.n, gb));
      check_stream(&s, j & 1 ? VP_SMALL : VP_UNBOUNDED, "small path random");
      stream_free(&s);
    }
  /* threshold + 1: the multi-pass kernels */
  stream s = gen_stream(max + 1, 30, 50, false);
  CHECK(!cn__bbox_small(ctx, s.n, cn_bbox_count_groups(s.tags, s.n)));
  check_stream(&s, VP_SMALL, "small path threshold + 1");
  stream_free(&s);
  /* deep nesting: depth 1365 (2730 group nodes, a draw in each: 4095
   * elements) and depth 2048 (4096 group nodes and nothing else: its
   * capacity, and its element limit) */
  s = gen_deep(1365, 0);
  CHECK(cn__bbox_small(ctx, s.n, cn_bbox_count_groups(s.tags, s.n)));
  check_stream(&s, VP_SMALL, "small path deep");
  stream_free(&s);
  s = stream_alloc(4096);
  for (uint64_t i = 0; i < 2048; i++) {
    s.tags[i] = i % 3 == 1 ? CN_TAG_BEGIN_BLEND : CN_TAG_BEGIN_CLIP;
    s.boxes[i] = (cn_box){(float)(i % 50), (float)(i % 40), 900.0f - (float)(i % 30), 700.0f - (float)(i % 20)};
    s.tags[4095 - i] = s.tags[i] + 1, s.boxes[4095 - i] = (cn_box){0};
  }
  CHECK(cn__bbox_small(ctx, s.n, cn_bbox_count_groups(s.tags, s.n)));
  check_stream(&s, VP_UNBOUNDED, "small path depth 2048");
  stream_free(&s);
  s = gen_deep(2049, 0); /* 4098 group nodes: past its capacity (and its element limit) */
  CHECK(!cn__bbox_small(ctx, s.n, cn_bbox_count_groups(s.tags, s.n)));
  check_stream(&s, VP_SMALL, "small path capacity + 1");
  stream_free(&s);
  /* only BEGIN/END, 4096 of them: every group empty */
  s = stream_alloc(4096);
  for (uint64_t i = 0; i < 1024; i++) {
    s.tags[4 * i] = CN_TAG_BEGIN_CLIP, s.boxes[4 * i] = rand_box();
    s.tags[4 * i + 1] = CN_TAG_BEGIN_BLEND, s.boxes[4 * i + 1] = (cn_box){0};
    s.tags[4 * i + 2] = CN_TAG_END_BLEND, s.boxes[4 * i + 2] = (cn_box){0};
    s.tags[4 * i + 3] = CN_TAG_END_CLIP, s.boxes[4 * i + 3] = (cn_box){0};
  }
  CHECK(cn__bbox_small(ctx, s.n, 4096));
  check_stream(&s, VP_SMALL, "small path empty groups");
  stream_free(&s);
  /* no group nests in another (the clip pass has nothing to do and is
   * skipped): clip and blend groups side by side, one to three draws each,
   * 2000 to 3100 elements (2 to 4 per invocation), some streams opening
   * with an unmatched END (every BEGIN then one level lower) or ending with
   * an unmatched BEGIN; then the same with a few groups nested in others
   * near the middle (not skipped) */
  for (int k = 0; k < 8; k++) {
    uint64_t target = 2000 + test_rand_below(1100), m = 0;
    s = stream_alloc(target + 8);
    if (k & 1) s.tags[m] = CN_TAG_END_CLIP, s.boxes[m++] = (cn_box){0};
    while (m + 6 < target) {
      bool blend = test_rand_below(4) == 0;
      uint64_t open = m;
      s.tags[m] = blend ? CN_TAG_BEGIN_BLEND : CN_TAG_BEGIN_CLIP, s.boxes[m++] = rand_box();
      if (k >= 4 && m > target / 2 && m < target / 2 + 10) /* a nested group or a few */
        s.tags[m] = CN_TAG_BEGIN_CLIP, s.boxes[m++] = rand_box(), s.tags[m] = CN_TAG_FILL, s.boxes[m++] = rand_box(),
        s.tags[m] = CN_TAG_END_CLIP, s.boxes[m++] = (cn_box){0};
      for (uint64_t d = 1 + test_rand_below(3); d > 0; d--) s.tags[m] = CN_TAG_FILL, s.boxes[m++] = rand_box();
      s.tags[m] = s.tags[open] + 1, s.boxes[m++] = (cn_box){0};
      if (test_rand_below(3) == 0) s.tags[m] = CN_TAG_STROKE, s.boxes[m++] = rand_box();
    }
    if (k & 2) s.tags[m] = CN_TAG_BEGIN_CLIP, s.boxes[m++] = rand_box();
    s.n = m;
    uint64_t g = cn_bbox_count_groups(s.tags, s.n);
    CHECK(cn__bbox_small(ctx, s.n, g));
    if (k & 3) {
      /* unbalanced: the status words of the multi-pass kernels and, for the
       * draws, their boxes (group nodes' results are unspecified then) */
      cn_box *x = malloc(s.n * sizeof *x), *y = malloc(s.n * sizeof *y);
      cn_bbox_status sx, sy;
      record_small_and_multi(&s, g, x, &sx, y, &sy);
      uint64_t bad = 0;
      for (uint64_t i = 0; i < s.n; i++)
        bad += (s.tags[i] == CN_TAG_FILL || s.tags[i] == CN_TAG_STROKE) && memcmp(&x[i], &y[i], sizeof *x) != 0;
      CHECK_EQ_U64(bad, 0);
      CHECK(memcmp(&sx, &sy, sizeof sx) == 0);
      CHECK(sx.first_bad_close == (k & 1 ? 0u : 0xFFFFFFFFu));
      free(x), free(y);
    } else {
      check_stream(&s, VP_SMALL, k < 4 ? "small path flat groups" : "small path nested groups");
    }
    stream_free(&s);
  }

  /* the same bits as the multi-pass kernels, including status words */
  s = gen_stream(4000, 40, 50, false);
  uint64_t gb = cn_bbox_count_groups(s.tags, s.n);
  cn_box *a = malloc(s.n * sizeof *a), *b = malloc(s.n * sizeof *b);
  cn_bbox_status sa, sb;
  record_small_and_multi(&s, gb, a, &sa, b, &sb);
  CHECK(memcmp(a, b, s.n * sizeof *a) == 0);
  CHECK(memcmp(&sa, &sb, sizeof sa) == 0);
  /* a lower threshold: n at it and one past it */
  cn_context_set_tuning(ctx, &(cn_tuning){.bbox_small_max = 1000});
  CHECK(cn__bbox_small(ctx, 1000, 100) && !cn__bbox_small(ctx, 1001, 100));
  for (uint64_t n = 1000; n <= 1001; n++) {
    stream t = gen_stream(n, 30, 50, true);
    check_stream(&t, VP_SMALL, "small path, threshold 1000");
    stream_free(&t);
  }
  cn_context_set_tuning(ctx, NULL);
  /* group_bound below the group count: reported (CN_ERROR_LIMIT), never overrun */
  CHECK(cn__bbox_small(ctx, s.n, gb / 2));
  CHECK_OK(record_stream(&s, gb / 2, VP_SMALL, a, &sa));
  CHECK(cn_bbox_status_check(&sa, gb / 2) == CN_ERROR_LIMIT);
  CHECK_EQ_U64(sa.group_count, gb);
  free(a);
  free(b);
  stream_free(&s);

  /* unbalanced streams: the small path's status finds them, an unknown tag
   * the multi-pass kernels' too (cn_bbox_run names the element from the CPU
   * pass only after the GPU reported) */
  for (int k = 0; k < 4; k++) {
    s = gen_stream(3000, 30, 50, false);
    uint64_t i = 1500;
    while (s.tags[i] != CN_TAG_END_CLIP && s.tags[i] != CN_TAG_END_BLEND) i++;
    if (k == 0) s.tags[i] = s.tags[i] == CN_TAG_END_CLIP ? CN_TAG_END_BLEND : CN_TAG_END_CLIP; /* wrong kind */
    if (k == 1) s.tags[i] = CN_TAG_FILL;         /* a BEGIN left open */
    if (k == 2) s.tags[0] = CN_TAG_END_CLIP;     /* an END on the empty stack first */
    if (k == 3) s.tags[i] = 77;                  /* an unknown tag */
    gb = cn_bbox_count_groups(s.tags, s.n);
    CHECK(cn__bbox_small(ctx, s.n, gb));
    cn_box *out = malloc(s.n * sizeof *out);
    cn_bbox_status st;
    CHECK_OK(record_stream(&s, gb, VP_SMALL, out, &st));
    cn_result want = k == 3 ? CN_ERROR_INVALID_ARGUMENT : CN_ERROR_UNBALANCED;
    CHECK(cn_bbox_status_check(&st, gb) == want);
    if (k == 3) CHECK_EQ_U64(st.first_bad_tag, i);
    if (k == 0) CHECK_EQ_U64(st.first_bad_close, i);
    CHECK(cn_bbox_run(ctx, s.tags, s.boxes, s.n, VP_SMALL, out) == want);
    if (k == 3) { /* and a tag 0 later: the multi-pass kernels (bbox_compact) report the first too */
      uint64_t j = s.n - 1;
      while (s.tags[j] != CN_TAG_FILL && s.tags[j] != CN_TAG_STROKE) j--;
      CHECK(j > i);
      s.tags[j] = 0;
      cn_box *multi = malloc(s.n * sizeof *multi);
      cn_bbox_status sm;
      record_small_and_multi(&s, gb, out, &st, multi, &sm);
      CHECK_EQ_U64(st.first_bad_tag, i);
      CHECK_EQ_U64(sm.first_bad_tag, i);
      CHECK(cn_bbox_status_check(&sm, gb) == CN_ERROR_INVALID_ARGUMENT);
      s.tags[i] = CN_TAG_FILL; /* only the later one left */
      record_small_and_multi(&s, gb, out, &st, multi, &sm);
      CHECK_EQ_U64(st.first_bad_tag, j);
      CHECK_EQ_U64(sm.first_bad_tag, j);
      free(multi);
    }
    free(out);
    stream_free(&s);
  }
  /* depth n: nothing but BEGINs, never closed */
  s = stream_alloc(2000);
  for (uint64_t i = 0; i < s.n; i++) s.tags[i] = CN_TAG_BEGIN_CLIP, s.boxes[i] = rand_box();
  cn_box *out = malloc(s.n * sizeof *out);
  cn_bbox_status st;
  CHECK(cn__bbox_small(ctx, s.n, s.n));
  CHECK_OK(record_stream(&s, s.n, VP_SMALL, out, &st));
  CHECK(cn_bbox_status_check(&st, s.n) == CN_ERROR_UNBALANCED);
  CHECK_STR_CONTAINS(cn_last_error(), "2000 BEGIN elements are never closed");
  free(out);
  stream_free(&s);
}

/* Appends a group of `draws` draws (one in five with an empty box, so runs
 * of one group's draws have gaps) to s at *i. */
static void put_group(stream *s, uint64_t *i, uint32_t begin, uint64_t draws) {
  s->tags[*i] = begin, s->boxes[*i] = begin == CN_TAG_BEGIN_CLIP ? rand_box() : (cn_box){0};
  ++*i;
  for (uint64_t d = 0; d < draws; d++, ++*i) {
    s->tags[*i] = d % 2 ? CN_TAG_STROKE : CN_TAG_FILL;
    s->boxes[*i] = test_rand_below(5) == 0 ? (cn_box){3, 3, 3, 3} : rand_box();
  }
  s->tags[*i] = begin + 1, s->boxes[*i] = (cn_box){0};
  ++*i;
}

/* bbox_small's group shapes: many short groups side by side (icon sheets:
 * every link spans a few nodes, so the union pyramid needs no level above
 * the leaves, and no two neighbouring draws share a group), groups of 1 ..
 * 100 draws (subgroups whose draws all share one group, runs across
 * subgroups, pyramids of a few levels), the same inside one outer clip and
 * one outer blend (a link across the whole stream: every level), and draws
 * between the groups. Against the CPU reference, on the small path. */
TEST(bbox_small_group_shapes) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  const uint64_t sizes[] = {1, 2, 3, 7, 8, 9, 31, 32, 33, 100};
  for (int shape = 0; shape < 6; shape++) {
    stream s = stream_alloc(8192);
    uint64_t i = 0;
    bool outer = shape >= 2 && shape < 4;
    if (outer) put_group(&s, &i, shape == 2 ? CN_TAG_BEGIN_CLIP : CN_TAG_BEGIN_BLEND, 0), i--; /* keep it open */
    while (i + 110 < 4000) {
      uint64_t draws = shape == 0 ? 1 : shape == 1 ? test_rand_below(4) : sizes[test_rand_below(10)];
      if (shape == 4 && test_rand_below(3) == 0) { /* draws outside any group */
        for (uint64_t d = 0; d < draws; d++, i++) s.tags[i] = CN_TAG_FILL, s.boxes[i] = rand_box();
        continue;
      }
      if (shape == 5 && test_rand_below(4) == 0) { /* a group inside a group */
        s.tags[i] = CN_TAG_BEGIN_CLIP, s.boxes[i++] = rand_box();
        put_group(&s, &i, CN_TAG_BEGIN_BLEND, draws);
        s.tags[i] = CN_TAG_END_CLIP, s.boxes[i++] = (cn_box){0};
        continue;
      }
      put_group(&s, &i, test_rand_below(3) ? CN_TAG_BEGIN_CLIP : CN_TAG_BEGIN_BLEND, draws);
    }
    if (outer) s.tags[i] = shape == 2 ? CN_TAG_END_CLIP : CN_TAG_END_BLEND, s.boxes[i++] = (cn_box){0};
    s.n = i;
    uint64_t gb = cn_bbox_count_groups(s.tags, s.n);
    CHECK(gb > 60 && gb <= 4096);
    CHECK(cn__bbox_small(ctx, s.n, gb));
    check_stream(&s, shape & 1 ? VP_SMALL : VP_UNBOUNDED, "small path group shapes");
    stream_free(&s);
  }
}

TEST(bbox_block_edges) {
  /* Around bbox_draws blocks (512 or 1024) and clip partitions (up to 1024). */
  const uint64_t sizes[] = {511, 512, 513, 1023, 1024, 1025, 2047, 2049, 4097, 65537};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    stream s = gen_stream(sizes[k], 30, 50, false);
    check_stream(&s, VP_SMALL, "block edges");
    stream_free(&s);
    s = gen_stream(sizes[k], 30, 50, true);
    check_stream(&s, VP_UNBOUNDED, "block edges deep");
    stream_free(&s);
  }
}

/* Depth n/2: n/2 BEGINs then n/2 ENDs, a draw inside every level. */
static stream gen_nested(uint64_t levels, bool clips_only) {
  stream s = stream_alloc(levels * 3);
  for (uint64_t i = 0; i < levels; i++) {
    uint32_t open = clips_only || (i % 3) ? CN_TAG_BEGIN_CLIP : CN_TAG_BEGIN_BLEND;
    s.tags[2 * i] = open;
    s.boxes[2 * i] = (cn_box){(float)(i % 97), (float)(i % 89), 1000.0f - (float)(i % 83), 1000.0f - (float)(i % 79)};
    s.tags[2 * i + 1] = CN_TAG_FILL;
    s.boxes[2 * i + 1] = rand_box();
    s.tags[3 * levels - 1 - i] = open + 1;
    s.boxes[3 * levels - 1 - i] = (cn_box){0};
  }
  return s;
}

TEST(bbox_fully_nested) {
  stream s = gen_nested(5000, false);
  check_stream(&s, VP_UNBOUNDED, "nested");
  stream_free(&s);
  s = gen_nested(70000, true);
  check_stream(&s, VP_SMALL, "nested clips");
  stream_free(&s);
  /* depth (n - 1) / 2: L BEGINs, one draw, L ENDs */
  uint64_t L = 100000;
  s = stream_alloc(2 * L + 1);
  for (uint64_t i = 0; i < L; i++) {
    uint32_t open = i % 5 == 2 ? CN_TAG_BEGIN_BLEND : CN_TAG_BEGIN_CLIP;
    s.tags[i] = open;
    s.boxes[i] = (cn_box){(float)(i % 1000) * 0.1f, 0, 1000.0f - (float)(i % 997) * 0.1f, 900};
    s.tags[2 * L - i] = open + 1;
    s.boxes[2 * L - i] = (cn_box){0, 0, 0, 0};
  }
  s.tags[L] = CN_TAG_FILL;
  s.boxes[L] = (cn_box){-50, -50, 2000, 2000};
  check_stream(&s, VP_UNBOUNDED, "depth n/2");
  cn_box *out = malloc(s.n * sizeof *out);
  CHECK_OK(cn_bbox_cpu(s.tags, s.boxes, s.n, VP_UNBOUNDED, out));
  /* the draw is cut by every clip: x from the largest x0 (99.9) to the smallest x1 (900.4) */
  CHECK(out[L].x0 == 99.9f && out[L].x1 == 1000.0f - 996 * 0.1f && out[L].y0 == 0 && out[L].y1 == 900);
  CHECK(memcmp(&out[0], &out[L], sizeof(cn_box)) == 0 && memcmp(&out[2 * L], &out[L], sizeof(cn_box)) == 0);
  free(out);
  stream_free(&s);
}

TEST(bbox_all_clip_and_empty_groups) {
  /* Only BEGIN/END: every group is empty. */
  uint64_t n = 20000;
  stream s = stream_alloc(n);
  uint64_t m = 0;
  for (uint64_t i = 0; i < n / 4; i++) {
    s.tags[m] = CN_TAG_BEGIN_CLIP, s.boxes[m++] = rand_box();
    s.tags[m] = CN_TAG_BEGIN_BLEND, s.boxes[m++] = (cn_box){0};
    s.tags[m] = CN_TAG_END_BLEND, s.boxes[m++] = (cn_box){0};
    s.tags[m] = CN_TAG_END_CLIP, s.boxes[m++] = (cn_box){0};
  }
  s.n = m;
  check_stream(&s, VP_SMALL, "empty groups");
  stream_free(&s);
  s = gen_stream(100000, 60, 0, false); /* every group a clip */
  check_stream(&s, VP_SMALL, "all clip");
  stream_free(&s);
}

TEST(bbox_disjoint_clips) {
  /* Nested clips whose intersection is empty: draws inside are empty, groups too. */
  uint64_t n = 3000;
  stream s = stream_alloc(n);
  for (uint64_t i = 0; i < n / 6; i++) {
    uint64_t k = 6 * i;
    s.tags[k] = CN_TAG_BEGIN_CLIP, s.boxes[k] = (cn_box){0, 0, 10, 10};
    s.tags[k + 1] = CN_TAG_BEGIN_CLIP, s.boxes[k + 1] = (cn_box){20, 20, 30, 30};
    s.tags[k + 2] = CN_TAG_FILL, s.boxes[k + 2] = (cn_box){0, 0, 100, 100};
    s.tags[k + 3] = CN_TAG_END_CLIP, s.tags[k + 4] = CN_TAG_FILL, s.boxes[k + 4] = (cn_box){5, 5, 50, 50};
    s.tags[k + 5] = CN_TAG_END_CLIP;
  }
  check_stream(&s, VP_SMALL, "disjoint");
  cn_box out[6];
  CHECK_OK(cn_bbox_cpu(s.tags, s.boxes, 6, VP_SMALL, out));
  CHECK(cn_box_is_empty(out[1]) && out[1].x0 == 0 && out[1].x1 == 0 && out[2].x1 == 0);
  CHECK(out[0].x0 == 5 && out[0].y0 == 5 && out[0].x1 == 10 && out[0].y1 == 10);
  stream_free(&s);
}

/* From 2^20 elements bbox_draws works in blocks half the compaction's (its
 * offsets per block from bbox_compact): at 2^20 with the compaction adding
 * up its counts, at 2^20 + 333 after the counts' scan pass, the last
 * compaction block holding one draws block. */
TEST(bbox_large) {
  stream s = gen_stream(1u << 20, 10, 50, false);
  check_stream(&s, VP_SMALL, "2^20");
  stream_free(&s);
  /* ... ending in a clip around one draw: the last group node follows a draw */
  uint64_t n = (1u << 20) + 333;
  s = gen_stream(n - 3, 10, 50, false);
  stream t = stream_alloc(n);
  memcpy(t.tags, s.tags, (n - 3) * sizeof *t.tags);
  memcpy(t.boxes, s.boxes, (n - 3) * sizeof *t.boxes);
  t.tags[n - 3] = CN_TAG_BEGIN_CLIP, t.boxes[n - 3] = (cn_box){10, 10, 20, 20};
  t.tags[n - 2] = CN_TAG_FILL, t.boxes[n - 2] = (cn_box){0, 0, 100, 100};
  t.tags[n - 1] = CN_TAG_END_CLIP, t.boxes[n - 1] = (cn_box){0, 0, 0, 0};
  check_stream(&t, VP_SMALL, "2^20 + 333");
  stream_free(&t);
  stream_free(&s);
  s = gen_stream((1u << 18) + 777, 20, 30, true);
  check_stream(&s, VP_UNBOUNDED, "2^18 deep");
  stream_free(&s);
}

/* One persistent scan state for the compaction's and the binning's scans,
 * frame after frame in one command buffer, over streams of different sizes:
 * scan blocks of a subgroup x 4 elements make the scans multi-block (on
 * subgroups of 8 the compaction's too, from 40 000 elements), each frame's boxes
 * and bin lists are the CPU's exactly, and the state ends with its parity
 * word's counter at zero (a scan left nothing half done). */
TEST(bbox_bins_scan_state) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  cn_scan_tuning st = {.wg = cn_context_caps(ctx)->max_subgroup_size, .items = 4};
  cn_tuning tu = {.scan = &st, .bbox_small_max = CN_SMALL_OFF, .bins_small_max = CN_SMALL_OFF,
                  .bins_rows_max = CN_SMALL_OFF, .bbox_compact_scan_max = CN_SMALL_OFF};
  cn_context_set_tuning(ctx, &tu);
  const float vp[4] = {0, 0, 640, 480};
  cn_bins_grid g;
  CHECK_OK(cn_bins_grid_make(vp, 32, &g));
  const uint64_t sizes[] = {50000, 777, 9000, 50000, 3, 35001};
  enum { FRAMES = sizeof sizes / sizeof sizes[0] };
  uint64_t nmax = 50000, nbins = (uint64_t)g.nbx * g.nby, cap = 64 * nmax;
  cn_bbox_args ba = {.n = nmax, .group_bound = nmax};
  cn_bins_args na = {.n = nmax, .grid = g};
  uint64_t state = CN_MAX(cn_bbox_scan_state_bytes(ctx, &ba), cn_bins_scan_state_bytes(ctx, &na));
  uint64_t scratch = CN_MAX(cn_bbox_scratch_bytes(ctx, &ba), cn_bins_scratch_bytes(ctx, &na));
  CHECK(state > 8 && scratch > 0);
  stream s[FRAMES];
  cn_buffer tags[FRAMES], boxes[FRAMES], res[FRAMES], off[FRAMES], el[FRAMES];
  cn_buffer status = {0}, scr = {0}, sb = {0};
  cn_result r = cn_buffer_create(ctx, CN_MEMORY_READBACK, 16, &status);
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, scratch, &scr);
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_READBACK, state, &sb);
  for (int f = 0; f < FRAMES; f++) {
    s[f] = gen_stream(sizes[f], 12, 40, f == 2);
    tags[f] = boxes[f] = res[f] = off[f] = el[f] = (cn_buffer){0};
    uint64_t n = sizes[f];
    if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, n * 4, &tags[f]);
    if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, n * 16, &boxes[f]);
    if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, n * 16, &res[f]);
    if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, (nbins + 1) * 4, &off[f]);
    if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, cap * 4, &el[f]);
    if (r == CN_OK) r = cn_buffer_upload(ctx, &tags[f], 0, s[f].tags, n * 4);
    if (r == CN_OK) r = cn_buffer_upload(ctx, &boxes[f], 0, s[f].boxes, n * 16);
  }
  CHECK_OK(r);
  VkCommandBuffer cmd;
  if (r == CN_OK) r = cn_cmd_begin(ctx, &cmd);
  if (r == CN_OK) {
    r = cn_scan_state_init(ctx, cmd, sb.address, state);
    cn_cmd_barrier(ctx, cmd);
    for (int f = 0; f < FRAMES && r == CN_OK; f++) {
      cn_bbox_args a = {.tags = tags[f].address, .boxes = boxes[f].address, .result = res[f].address,
                        .status = status.address, .scratch = scr.address, .n = sizes[f], .group_bound = sizes[f],
                        .viewport = {vp[0], vp[1], vp[2], vp[3]}, .scan_state = sb.address, .scan_state_bytes = state};
      r = cn_bbox_record(ctx, cmd, &a);
      cn_cmd_barrier(ctx, cmd);
      cn_bins_args b = {.boxes = res[f].address, .bin_offsets = off[f].address, .elems = el[f].address,
                        .scratch = scr.address, .n = sizes[f], .capacity = cap, .grid = g,
                        .scan_state = sb.address, .scan_state_bytes = state};
      if (r == CN_OK) r = cn_bins_record(ctx, cmd, &b);
      cn_cmd_barrier(ctx, cmd);
    }
    cn_result q = cn_cmd_submit(ctx, cmd);
    if (r == CN_OK) r = q;
  }
  CHECK_OK(r);
  for (int f = 0; f < FRAMES && r == CN_OK; f++) {
    uint64_t n = sizes[f];
    cn_box *want = malloc(n * 16), *got = malloc(n * 16);
    uint32_t *wo = NULL, *we = NULL, *go = malloc((nbins + 1) * 4), *ge = malloc(cap * 4);
    uint64_t wt = 0;
    CHECK_OK(cn_bbox_cpu(s[f].tags, s[f].boxes, n, vp, want));
    CHECK_OK(cn_bins_cpu(want, n, &g, &wo, &we, &wt));
    CHECK_OK(cn_buffer_download(ctx, &res[f], 0, got, n * 16));
    CHECK_OK(cn_buffer_download(ctx, &off[f], 0, go, (nbins + 1) * 4));
    CHECK_OK(cn_buffer_download(ctx, &el[f], 0, ge, CN_MIN(wt, cap) * 4));
    bool same = memcmp(want, got, n * 16) == 0 && wt <= cap && memcmp(wo, go, (nbins + 1) * 4) == 0 &&
                memcmp(we, ge, wt * 4) == 0;
    if (!same) fprintf(stderr, "  frame %d (n = %llu): the GPU differs from the CPU\n", f, (unsigned long long)n);
    CHECK(same);
    free(want), free(got), free(wo), free(we), free(go), free(ge);
  }
  uint32_t word0 = 0, used = 0;
  if (r == CN_OK) memcpy(&word0, sb.mapped, 4);
  CHECK_EQ_U64(word0 & 0x7FFFFFFFu, 0); /* the block counter: every scan took all its blocks back */
  /* the last scan's region holds its blocks' flags: the scans did use the state */
  for (uint64_t w = 2; r == CN_OK && w < state / 4; w++) used += ((const uint32_t *)sb.mapped)[w] != 0;
  CHECK(used > 0);
  /* the region the next scan takes (word 0's parity) is clear */
  uint64_t region = ((state - 8) / 2) & ~7ull, dirty = 0;
  const uint32_t *words = (const uint32_t *)((const char *)sb.mapped + 8 + (word0 >> 31) * region);
  for (uint64_t w = 0; r == CN_OK && w < region / 4; w++) dirty += words[w] != 0;
  CHECK_EQ_U64(dirty, 0);
  for (int f = 0; f < FRAMES; f++) {
    cn_buffer *bs[] = {&tags[f], &boxes[f], &res[f], &off[f], &el[f]};
    for (int k = 0; k < 5; k++) cn_buffer_destroy(ctx, bs[k]);
    stream_free(&s[f]);
  }
  cn_buffer_destroy(ctx, &status);
  cn_buffer_destroy(ctx, &scr);
  cn_buffer_destroy(ctx, &sb);
  cn_context_set_tuning(ctx, NULL);
}

/* The recording API directly, with every parentheses-matching variant, and a
 * group_bound larger than needed (the matching then runs over padding). */
TEST(bbox_record_variants) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  stream s = gen_stream(70000, 25, 50, false);
  uint64_t n = s.n, gb = cn_bbox_count_groups(s.tags, n);
  cn_box *want = malloc(n * sizeof *want), *got = malloc(n * sizeof *got);
  CHECK_OK(cn_bbox_cpu(s.tags, s.boxes, n, VP_SMALL, want));
  cn_buffer tags = {0}, boxes = {0}, res = {0}, status = {0}, scratch = {0};
  CHECK_OK(cn_buffer_create(ctx, CN_MEMORY_DEVICE, n * 4, &tags));
  CHECK_OK(cn_buffer_create(ctx, CN_MEMORY_DEVICE, n * 16, &boxes));
  CHECK_OK(cn_buffer_create(ctx, CN_MEMORY_DEVICE, n * 16, &res));
  CHECK_OK(cn_buffer_create(ctx, CN_MEMORY_READBACK, 16, &status));
  CHECK_OK(cn_buffer_create(ctx, CN_MEMORY_DEVICE, cn_bbox_scratch_bytes(ctx, &(cn_bbox_args){.n = n, .group_bound = gb + 5000}), &scratch));
  CHECK_OK(cn_buffer_upload(ctx, &tags, 0, s.tags, n * 4));
  CHECK_OK(cn_buffer_upload(ctx, &boxes, 0, s.boxes, n * 16));
  for (int v = 0; v < CN_PARENS_VARIANT_COUNT; v++) {
    if (v == CN_PARENS_SINGLE && gb + 5000 > cn_parens_single_max(ctx)) continue; /* one workgroup: a limit on n */
    for (int pad = 0; pad < 2; pad++) {
      VkCommandBuffer cmd;
      CHECK_OK(cn_cmd_begin(ctx, &cmd));
      cn_bbox_args a = {.tags = tags.address, .boxes = boxes.address, .result = res.address,
                        .status = status.address, .scratch = scratch.address, .n = n,
                        .group_bound = gb + (pad ? 5000 : 0), .viewport = {0, 0, 640, 480},
                        .parens = (cn_parens_variant)v};
      CHECK_OK(cn_bbox_record(ctx, cmd, &a));
      cn_cmd_barrier(ctx, cmd);
      CHECK_OK(cn_cmd_submit(ctx, cmd));
      cn_bbox_status st;
      memcpy(&st, status.mapped, sizeof st);
      CHECK_OK(cn_bbox_status_check(&st, a.group_bound));
      CHECK_EQ_U64(st.group_count, gb);
      CHECK_OK(cn_buffer_download(ctx, &res, 0, got, n * 16));
      if (memcmp(got, want, n * 16) != 0) {
        fprintf(stderr, "  variant %s pad %d: results differ\n", cn_parens_variant_name((cn_parens_variant)v), pad);
        test_failures++;
      }
    }
  }
  /* group_bound too small: reported, not overrun */
  VkCommandBuffer cmd;
  CHECK_OK(cn_cmd_begin(ctx, &cmd));
  cn_bbox_args a = {.tags = tags.address, .boxes = boxes.address, .result = res.address, .status = status.address,
                    .scratch = scratch.address, .n = n, .group_bound = gb / 2, .viewport = {0, 0, 640, 480}};
  CHECK_OK(cn_bbox_record(ctx, cmd, &a));
  cn_cmd_barrier(ctx, cmd);
  CHECK_OK(cn_cmd_submit(ctx, cmd));
  cn_bbox_status st;
  memcpy(&st, status.mapped, sizeof st);
  CHECK(cn_bbox_status_check(&st, a.group_bound) == CN_ERROR_LIMIT);
  cn_buffer_destroy(ctx, &tags);
  cn_buffer_destroy(ctx, &boxes);
  cn_buffer_destroy(ctx, &res);
  cn_buffer_destroy(ctx, &status);
  cn_buffer_destroy(ctx, &scratch);
  free(want);
  free(got);
  stream_free(&s);
}

TEST_MAIN(T(bbox_cpu_hand), T(bbox_record_variants), T(bbox_bins_scan_state), T(bbox_unbalanced_large), T(bbox_shapes), T(bbox_clip_chains), T(bbox_scratch_grows_with_bound), T(bbox_errors), T(bbox_small_random), T(bbox_small_path), T(bbox_small_group_shapes), T(bbox_block_edges), T(bbox_fully_nested),
          T(bbox_all_clip_and_empty_groups), T(bbox_disjoint_clips), T(bbox_large))
