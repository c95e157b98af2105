/* parens.c: host side of parentheses matching (see cn_parens.h): shapes from the
 * device limits, scratch layout, recording of each variant, the CPU reference. */
#include "cn_parens.h"
#include "cn_parens_shared.h"
#include "internal.h"
#include "kernels.gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  PARENS_TREE_WG = 256,       /* parens_tree workgroup: levels per pass = log2 */
  PARENS_TREE_LEVELS = 8,
  PARENS_CLEAR_WG = 256,
  PARENS_WINDOW_DIVISOR = 32, /* look-back window = partition / this */
  PARENS_SPIN_BUDGET = 16384, /* look-back: flag loads per partition (see cn_parens.h) */
  PARENS_LOWMARK_K = 16,      /* lowmark: one uvec4 of input bytes per invocation (16 or 32, parens_lm.glsl) */
  PARENS_WINDOW_WG = 64,      /* lowmark: parens_lm_window workgroup */
  PARENS_WINDOW_LANES = 16,   /* lowmark: its invocations per partition (WIN_LANES), at most the workgroup, */
  PARENS_WINDOW_LANES_WIDE = 32, /*   and per partition of 1024 elements or more */
  PARENS_LOWMARK_REDUCE_PARTS = 1, /* lowmark: partitions per reduce workgroup (tuning.lowmark_reduce_parts) */
  PARENS_LOWMARK_REDUCE_PARTS_MAX = 64,
  PARENS_LOWMARK_WINDOW_BATCH = 8,       /* lowmark: window entries a lane loads before it stores them */
  PARENS_LOWMARK_WINDOW_BATCH_MAX = 16,
  PARENS_LOWMARK_REDUCE_MULTI = 2,       /* lowmark: partitions per reduce workgroup, one per subgroup (where */
                                         /*   a partition is one subgroup; tuning.lowmark_reduce_multi) */
  PARENS_LOWMARK_MATCH_PARTS = 2,        /* lowmark: partitions per matching workgroup, one per subgroup (where */
                                         /*   a partition is one subgroup: 32 x 16 on the H200, from 2^24) */
  PARENS_LOWMARK_WG64_MIN = 1 << 22,     /* lowmark: 64 x 16 partitions from this n, 128 x 16 below */
  PARENS_LOWMARK_WG32_MIN = 1 << 24,     /* lowmark: 32 x 16 partitions from this n */
  PARENS_LOWMARK_COMPACT_MAX_P = 512,    /* lowmark: compact slices by default in partitions up to this */
  PARENS_SINGLE_K = 16,       /* single: elements per invocation at its largest n (fewer below) */
  PARENS_SINGLE_MIN_K = 4,    /* single: the fewest elements per invocation it picks */
  PARENS_SINGLE_MIN_WG = 32,  /* single: smallest workgroup */
  PARENS_SINGLE_DEFAULT_FORM = CN_PARENS_SINGLE_LOWMARK, /* single: form without tuning */
  PARENS_AUTO_TREE_SINGLE_MAX = 1 << 12, /* auto: the tree form of single up to here (no low-mark form) */
  PARENS_AUTO_LOWMARK_MIN = 1 << 18,     /* auto: simple below, lowmark from here */
  PARENS_TREE_FOLD_MAX = 1024,           /* with tickets: the reduce pass builds the tree up to this many partitions */
  PARENS_TREE_FOLD_LM_MAX = 256,         /*   (lowmark's: up to this many, one run of them) */
};

typedef struct cn__parens_shape {
  uint32_t wg, k, window; /* invocations, elements each, look-back window entries */
} cn__parens_shape;

static const char *const cn__variant_names[CN_PARENS_VARIANT_COUNT] = {"auto",     "simple",  "efficient",
                                                                             "lookback", "lowmark", "single"};

const char *cn_parens_variant_name(cn_parens_variant v) {
  return (unsigned)v < CN_PARENS_VARIANT_COUNT ? cn__variant_names[v] : "?";
}

bool cn_parens_variant_parse(const char *name, cn_parens_variant *out) {
  for (int i = 0; i < CN_PARENS_VARIANT_COUNT; i++)
    if (name && strcmp(name, cn__variant_names[i]) == 0) {
      *out = (cn_parens_variant)i;
      return true;
    }
  return false;
}

static const cn_parens_tuning cn__parens_no_tuning;

/* The arguments' tuning, else the context's (cn_tuning.parens), else the defaults. */
static const cn_parens_tuning *cn__tuning(const cn_context *ctx, const cn_parens_args *a) {
  if (a->tuning) return a->tuning;
  return ctx->tuning.parens ? ctx->tuning.parens : &cn__parens_no_tuning;
}

static uint32_t cn__parens_tree_levels(const cn_parens_tuning *t) {
  return t->tree_levels >= 1 && t->tree_levels <= PARENS_TREE_LEVELS ? t->tree_levels : PARENS_TREE_LEVELS;
}

/* lowmark's matching forms (parens_lm_match.glsl, MATCH_FORM): bit 0
 * STAGE, bit 1 REWALK, bit 2 PSV_TABLES, bit 3 POS_ROWS, bit 4 WIN_CACHE, bit 5
 * PSV_LIFT; bits 6 and 7 are the host's: LM_ONEPASS the one-pass kernel
 * (parens_lm_onepass.comp), whose window and look-back state take shared
 * memory; LM_SINGLE_KERNEL single's kernel, which keeps its answers in
 * shared memory at any size (REG_ANS in parens_lm_match.glsl). */
enum { LM_STAGE = 1, LM_REWALK = 2, LM_PSV_TABLES = 4, LM_POS_ROWS = 8, LM_WIN_CACHE = 16, LM_PSV_LIFT = 32,
       LM_ONEPASS = 64, LM_SINGLE_KERNEL = 128 };

/* lowmark's matching form under tuning t (multi-pass; single picks its own). */
static uint32_t cn__lm_form(const cn_parens_tuning *t) {
  return (t->lowmark_stage ? LM_STAGE : 0u) | (t->lowmark_rewalk ? LM_REWALK : 0u) |
         (t->lowmark_psv_tables ? LM_PSV_TABLES : 0u) | (t->lowmark_window_cache ? LM_WIN_CACHE : 0u) |
         (t->lowmark_psv_per_lane ? 0u : LM_PSV_LIFT) | (t->lowmark_onepass ? LM_ONEPASS : 0u);
}

/* Shared memory of the partition kernels (parens.glsl, parens_lm_match.glsl
 * in form lm_form; lowmark's reduce kernel needs less) for a shape. */
static uint64_t cn__parens_shared_bytes(cn_parens_variant v, uint32_t wg, uint32_t k, uint32_t window,
                                        uint32_t lm_form) {
  uint64_t p = (uint64_t)wg * k;
  if (v == CN_PARENS_SINGLE) return 4 * (uint64_t)wg * 5 + 64; /* sh_tree, sh_mask, sh_scalars */
  if (v == CN_PARENS_LOWMARK) { /* parens_lm_match, words per chunk: sh_sg, sh_link, sh_mask (rows: k + 1 of
                                   sh_pos), sh_min (tables: log2(wg) levels of it), k + 1 of sh_ans (none
                                   where answers stay in registers: REG_ANS) */
    uint64_t log = 0;
    while ((1ull << log) < wg) log++;
    return 4 * (uint64_t)wg *
               (2 + (lm_form & LM_POS_ROWS ? k + 1 : 1) + (lm_form & LM_PSV_TABLES ? log : 1) +
                (!(lm_form & (LM_STAGE | LM_REWALK | LM_SINGLE_KERNEL)) && wg <= 64 ? 0 : k + 1) +
                (lm_form & LM_WIN_CACHE ? 1 : 0) + (lm_form & LM_ONEPASS ? k : 0)) +
           (lm_form & LM_ONEPASS ? 32 : 0) + 64; /* one-pass: sh_run, sh_lb */
  }
  uint64_t common = (p + p / 32) * 4 + (uint64_t)wg * 16 + (uint64_t)wg * 4;
  uint64_t near = v == CN_PARENS_LOOKBACK ? 0 : 32 * 8; /* parens_match's sh_near */
  return common + near + 4 * (v == CN_PARENS_LOOKBACK ? p + window : p) + 64;
}

/* Whether every subgroup of the device has wg invocations (a fixed subgroup size). */
static bool cn__parens_one_subgroup(const cn_context *ctx, uint32_t wg) {
  return ctx->caps.min_subgroup_size == wg && ctx->caps.max_subgroup_size == wg;
}

static bool cn__parens_shape_fits(const cn_context *ctx, cn_parens_variant v, cn__parens_shape s, uint32_t lm_form) {
  if (v == CN_PARENS_LOWMARK && ((s.k != 16 && s.k != 32) || s.wg < ctx->caps.max_subgroup_size)) return false;
  /* lowmark also in partitions of one subgroup under 32 invocations */
  bool small_ok = v == CN_PARENS_LOWMARK && cn__parens_one_subgroup(ctx, s.wg);
  return (s.wg >= 32 || small_ok) && s.wg <= ctx->caps.max_workgroup_invocations && (s.wg & (s.wg - 1)) == 0 && s.k >= 1 &&
         s.k <= 32 && (s.k <= 2 || s.k % 4 == 0) && s.window >= 1 && s.window <= s.wg * s.k &&
         cn__parens_shared_bytes(v, s.wg, s.k, s.window, lm_form) <= ctx->caps.max_shared_memory;
}

/* Default shapes, the fastest of a sweep on the H200 (docs/PERF.md); smaller
 * devices halve the workgroup until the shared memory fits. */
static const cn__parens_shape cn__parens_default_shapes[CN_PARENS_VARIANT_COUNT] = {
    [CN_PARENS_SIMPLE] = {.wg = 64, .k = 1},
    [CN_PARENS_EFFICIENT] = {.wg = 128, .k = 4},
    [CN_PARENS_LOOKBACK] = {.wg = 256, .k = 8},
    [CN_PARENS_LOWMARK] = {.wg = 128, .k = PARENS_LOWMARK_K},
    [CN_PARENS_SINGLE] = {.wg = 1024, .k = PARENS_SINGLE_K},
};

/* simple's shape by size without tuning: up to max_n elements, wg x k. */
static const struct {
  uint64_t max_n;
  uint32_t wg, k;
} cn__simple_shapes[] = {
    {(CN_PARENS_NEAR + 2) * 512, 256, 2}, /* at most NEAR + 2 partitions: no tree */
    {1u << 16, 256, 1},
    {1u << 17, 256, 2},
    {1u << 19, 512, 2},
};

/* The shape of variant v (not AUTO) for n elements: the tuning's when it
 * sets one (*ok false when the device cannot run it), else the default shape,
 * halved until its shared memory fits. lowmark's default workgroup halves to
 * 64 invocations (not below the subgroup) from PARENS_LOWMARK_WG64_MIN
 * elements and to 32 from PARENS_LOWMARK_WG32_MIN: on the H200 64 x 16
 * partitions are 4-7% faster than 128 x 16 from 2^22 up, 5-7% slower at
 * 2^18-2^19, and 32 x 16 another 5-6% faster at 2^24-2^26 (docs/PERF.md). */
static cn__parens_shape cn__parens_shape_of(const cn_context *ctx, cn_parens_variant v, const cn_parens_tuning *t,
                                            uint64_t n, bool *ok) {
  *ok = true;
  const cn_parens_shape *ts = &t->shape[v];
  if (ts->wg || ts->k || ts->window) {
    cn__parens_shape s = {ts->wg, ts->k, ts->window ? ts->window : CN_MAX(1u, ts->wg * ts->k / PARENS_WINDOW_DIVISOR)};
    *ok = cn__parens_shape_fits(ctx, v, s, cn__lm_form(t));
    return s;
  }
  cn__parens_shape s = cn__parens_default_shapes[v];
  /* simple up to 2^19 elements: partitions of 256 or 512 invocations, at
   * most 256 of them (a tree the reduce pass builds, with tickets), or at
   * most CN_PARENS_NEAR + 2 (no tree: parens_match walks back over all of
   * them). On the H200 (docs/PERF.md), against the former shapes (256 x 4
   * up to 34 816 elements, 64 x 1 above), fair coin: 2^14 12.3 against
   * 15.3 us, 2^15 13.2 against 15.9, 2^16 16.8 against 18.7, 2^17 19.1
   * against 22.4; the scene stage's group nodes: 13 294 13.1 against 15.7,
   * 52 746 16.5 against 18.7, 105 106 19.0 against 22.5, 209 222 21.1
   * against 27.7. */
  if (v == CN_PARENS_SIMPLE && n && n <= cn__simple_shapes[CN_ARRAY_LEN(cn__simple_shapes) - 1].max_n) {
    size_t i = 0;
    while (n > cn__simple_shapes[i].max_n) i++;
    s = (cn__parens_shape){.wg = cn__simple_shapes[i].wg, .k = cn__simple_shapes[i].k};
  }
  if (v == CN_PARENS_LOWMARK && n >= PARENS_LOWMARK_WG64_MIN)
    s.wg = CN_MIN(s.wg, CN_MAX(n >= PARENS_LOWMARK_WG32_MIN ? 32u : 64u, ctx->caps.max_subgroup_size));
  uint32_t wg = cn_floor_pow2(CN_MIN(s.wg, ctx->caps.max_workgroup_invocations));
  for (;;) {
    s.wg = wg;
    s.window = CN_MAX(1u, wg * s.k / PARENS_WINDOW_DIVISOR);
    if (wg <= CN_MAX(32u, ctx->caps.max_subgroup_size) ||
        cn__parens_shared_bytes(v, wg, s.k, s.window, cn__lm_form(t)) <=
            ctx->caps.max_shared_memory)
      break;
    wg /= 2;
  }
  return s;
}

uint64_t cn_parens_single_max(cn_context *ctx) {
  bool ok;
  cn__parens_shape s = cn__parens_shape_of(ctx, CN_PARENS_SINGLE, &cn__parens_no_tuning, 0, &ok);
  return ok ? (uint64_t)s.wg * s.k : 0;
}

static uint64_t cn__parens_scratch_of(cn_context *ctx, cn_parens_variant v, const cn_parens_tuning *t, uint64_t n);

/* Workgroup of single's low-mark form for n with k elements per invocation
 * (16 or 32) and matching form lm_form: the smallest power of two of at
 * least 32 invocations and the subgroup size that covers n; false when the
 * device cannot run it. */
static bool cn__parens_lm_single_wg(const cn_context *ctx, uint64_t n, uint32_t k, uint32_t lm_form, uint32_t *wg) {
  *wg = CN_MAX((uint32_t)PARENS_SINGLE_MIN_WG, ctx->caps.max_subgroup_size);
  while ((uint64_t)*wg * k < n && *wg <= ctx->caps.max_workgroup_invocations) *wg *= 2;
  return *wg <= ctx->caps.max_workgroup_invocations &&
         cn__parens_shared_bytes(CN_PARENS_LOWMARK, *wg, k, 1, lm_form | LM_SINGLE_KERNEL) <=
             ctx->caps.max_shared_memory;
}

/* single's low-mark form for n: elements per invocation (the tuned k when it
 * is 16 or 32, else 16, then 32), its matching form and workgroup; 0 when
 * none fits. The H200 runs (docs/PERF.md): min tables and index rows, the
 * fastest where they fit (4.6-5.8 us up to 2^12; subgroup links there:
 * 4.6-6.4), else subgroup links by binary lifting and masks (512 x 16 at
 * 2^13: 8.1-8.3 us, 8.5-8.7 with one shuffle per earlier lane; 256 x 32:
 * 9.5). With links (tuning single_psv_links) index rows where they fit, else
 * masks. */
static uint32_t cn__parens_lm_single_pick(const cn_context *ctx, uint64_t n, uint32_t tuned_k, bool links,
                                          uint32_t *wg, uint32_t *lm_form) {
  const uint32_t forms[2] = {links ? LM_POS_ROWS | LM_PSV_LIFT : LM_PSV_TABLES | LM_POS_ROWS, LM_PSV_LIFT};
  for (uint32_t k = 16; k <= 32; k *= 2) {
    if (tuned_k && k != tuned_k) continue;
    for (int f = 0; f < 2; f++)
      if (cn__parens_lm_single_wg(ctx, n, k, forms[f], wg)) {
        *lm_form = forms[f];
        return k;
      }
  }
  return 0;
}

/* Largest n of single's low-mark form here (a power of two; 0: none). */
static uint64_t cn__parens_lm_single_max(const cn_context *ctx) {
  uint64_t n = 0;
  if (!ctx) return 0;
  uint32_t wg, form;
  for (uint64_t m = 32; m <= ((uint64_t)1 << 16) && cn__parens_lm_single_pick(ctx, m, 0, false, &wg, &form); m *= 2)
    n = m;
  return n;
}

cn_parens_variant cn_parens_choose(cn_context *ctx, uint64_t n) {
  /* From the H200 runs of 2026-11-23 (docs/PERF.md): single's low-mark form
   * (one dispatch) takes 5.1-5.9 us up to 2^12 and 8.6 at 2^13, the tree
   * form 9.7-24.6 and simple's three dispatches 12-15; without the low-mark
   * form (shared memory) the tree form up to 2^12, where it is level with
   * simple. Above, the multi-partition variants: on the walk that never goes below
   * depth 0 (every balanced stream, the scene stage's group nodes) lowmark
   * is 2.8-4.4 us slower than simple and efficient below 2^18 and level on
   * fair-coin input; from 2^18 lowmark is fastest, by 3.3x over efficient at
   * 2^26. cn_parens_record() falls back to efficient when lowmark's 16-byte
   * alignment is not met, and to simple when single's is not above 2^12. */
  uint64_t smax = cn_parens_single_max(ctx);
  if (n <= CN_MIN(cn__parens_lm_single_max(ctx), smax) || n <= CN_MIN(smax, PARENS_AUTO_TREE_SINGLE_MAX))
    return CN_PARENS_SINGLE;
  cn_parens_variant v = n < PARENS_AUTO_LOWMARK_MIN ? CN_PARENS_SIMPLE : CN_PARENS_LOWMARK;
  /* The scratch must fit one allocation of the device (lowmark keeps a
   * partition's window per partition: 8 bytes an element, 2.15 GB at 2^28,
   * over lavapipe's 2 GiB): else the next variant whose scratch fits. */
  uint64_t most = ctx ? ctx->caps.max_allocation_size : 0;
  const cn_parens_tuning *t = ctx && ctx->tuning.parens ? ctx->tuning.parens : &cn__parens_no_tuning;
  if (!most || cn__parens_scratch_of(ctx, v, t, n) <= most) return v;
  static const cn_parens_variant order[] = {CN_PARENS_EFFICIENT, CN_PARENS_LOOKBACK, CN_PARENS_SIMPLE};
  for (int i = 0; i < 3; i++) {
    uint64_t b = cn__parens_scratch_of(ctx, order[i], t, n);
    if (b && b <= most) return order[i];
  }
  return v; /* nothing fits: creating the scratch buffer names the size */
}

uint64_t cn_parens_partition_size(cn_context *ctx, const cn_parens_args *a) {
  cn_parens_variant v = a->variant;
  if (v == CN_PARENS_AUTO) v = a->n ? cn_parens_choose(ctx, a->n) : CN_PARENS_LOWMARK; /* AUTO's choice for large n */
  if ((unsigned)v >= CN_PARENS_VARIANT_COUNT) return 0;
  bool ok;
  cn__parens_shape s = cn__parens_shape_of(ctx, v, cn__tuning(ctx, a), a->n, &ok);
  return ok ? (uint64_t)s.wg * s.k : 0;
}

/* Whether lowmark runs its one-pass form for n elements in shape s: asked for
 * by the tuning, and, on a device that ends an invocation's loops after
 * max_loop_iterations trips in all (lavapipe), only where the look-back's
 * trips fit that (parens_lm_onepass.glsl): its spin budget; per earlier
 * partition at most a step of the walk, a round's copy, a read again and a
 * computation of the partition (two loops over the subgroups, one over a
 * chunk's survivors); the window's copy and the matching kernel's own
 * loops. Else the four passes. */
static bool cn__parens_onepass(const cn_context *ctx, cn_parens_variant v, const cn_parens_tuning *t,
                               cn__parens_shape s, uint64_t n) {
  if (v != CN_PARENS_LOWMARK || !t->lowmark_onepass) return false;
  uint64_t trips = ctx ? ctx->caps.max_loop_iterations : 0;
  if (!trips) return true;
  uint64_t spin = t->spin_budget ? t->spin_budget : PARENS_SPIN_BUDGET;
  uint64_t part = (uint64_t)s.wg * s.k, sg = CN_MAX(1u, ctx->caps.min_subgroup_size);
  uint64_t per_part = 3 + 2 * CN_DIV_UP(s.wg, sg) + s.k;
  return spin + per_part * CN_DIV_UP(n, part) + 2 * part + 4096 <= trips;
}

/* Scratch layout: offsets in bytes, each 16-byte aligned. */
typedef struct cn__parens_layout {
  uint64_t n1, n1p, part;
  uint64_t flags, tree, slices, win, total;
} cn__parens_layout;

static uint64_t cn__align16(uint64_t x) { return (x + 15) & ~(uint64_t)15; }

/* onepass: lowmark's one-pass form (flags, one value per partition, slices
 * and one skip per partition). */
static cn__parens_layout cn__parens_layout_of(cn_parens_variant v, cn__parens_shape s, uint64_t n, bool onepass) {
  cn__parens_layout l = {0};
  l.part = (uint64_t)s.wg * s.k;
  l.n1 = CN_DIV_UP(n, l.part);
  l.n1p = 1;
  while (l.n1p < l.n1) l.n1p *= 2;
  uint64_t at = 0;
  if (v == CN_PARENS_SINGLE) return l; /* no scratch */
  if (v == CN_PARENS_LOOKBACK || onepass) {
    l.flags = at;
    at += cn__align16(4 * (1 + l.n1));
    l.tree = at; /* agg: one bicyclic value per partition */
    at += cn__align16(8 * l.n1);
  } else {
    l.tree = at;
    at += cn__align16(8 * (2 * l.n1p));
  }
  l.slices = at;
  at += cn__align16(4 * l.n1 * l.part);
  if (onepass) { /* one skip per partition */
    l.win = at;
    at += cn__align16(8 * l.n1);
  } else if (v == CN_PARENS_LOOKBACK || v == CN_PARENS_LOWMARK) { /* lowmark: a whole partition's worth per partition */
    l.win = at;
    at += cn__align16(4 * l.n1 * (v == CN_PARENS_LOWMARK ? l.part : s.window));
  }
  l.total = at;
  return l;
}

/* Scratch of variant v (not AUTO); 0 when its shape is not valid. */
static uint64_t cn__parens_scratch_of(cn_context *ctx, cn_parens_variant v, const cn_parens_tuning *t, uint64_t n) {
  bool ok;
  cn__parens_shape s = cn__parens_shape_of(ctx, v, t, n, &ok);
  return ok ? cn__parens_layout_of(v, s, n, cn__parens_onepass(ctx, v, t, s, n)).total : 0;
}

uint64_t cn_parens_scratch_bytes(cn_context *ctx, const cn_parens_args *a) {
  cn_parens_variant v = a->variant;
  const cn_parens_tuning *t = cn__tuning(ctx, a);
  if (a->n == 0 || (unsigned)v >= CN_PARENS_VARIANT_COUNT) return 0;
  if (v != CN_PARENS_AUTO) return cn__parens_scratch_of(ctx, v, t, a->n);
  v = cn_parens_choose(ctx, a->n);
  uint64_t bytes = cn__parens_scratch_of(ctx, v, t, a->n);
  if (v == CN_PARENS_LOWMARK) /* cn_parens_record() falls back to efficient for unaligned buffers */
    bytes = CN_MAX(bytes, cn__parens_scratch_of(ctx, CN_PARENS_EFFICIENT, t, a->n));
  if (v == CN_PARENS_SINGLE && a->n > PARENS_AUTO_TREE_SINGLE_MAX) /* and to simple from single */
    bytes = CN_MAX(bytes, cn__parens_scratch_of(ctx, CN_PARENS_SIMPLE, t, a->n));
  return bytes;
}

/* Ticket words of the tree built by the reduce pass over n1 partitions
 * (parens_tree_tail.glsl): a word per run of 256 nodes, level after level. */
static uint64_t cn__parens_ticket_words(uint64_t n1) {
  uint64_t w = 0;
  while (n1 > 1) {
    n1 = CN_DIV_UP(n1, 256);
    w += n1;
  }
  return w;
}

uint64_t cn_parens_ticket_bytes(uint64_t n) { return 4 * CN_MAX(1, cn__parens_ticket_words(CN_DIV_UP(n, 32))); }

/* With a timer: a barrier, then the mark for the pass that just ended. */
static void cn__parens_pass(cn_context *ctx, VkCommandBuffer cmd, cn_timer *timer, const char *label) {
  if (!timer) return;
  cn_cmd_barrier(ctx, cmd);
  cn_timer_mark(ctx, timer, cmd, label);
}

/* lowmark's matching workgroup: partitions per workgroup (PARENS_LM_MULTI in
 * parens_lm_match.comp), one per subgroup, where every subgroup has the
 * shape's invocations and the form is the default one; else 1. On the H200
 * (32 x 16 from 2^24 elements, at most 32 workgroups an SM) 2 took lowmark
 * at 2^26 from 412.0-412.2 to 406.7-407.2 us and at 2^25 from 220.3-220.9
 * to 217.5-217.7; 4 the same (docs/PERF.md). */
static uint32_t cn__parens_match_parts(const cn_context *ctx, cn__parens_shape s, uint32_t form,
                                       const cn_parens_tuning *tu) {
  uint32_t want = tu->lowmark_match_parts ? tu->lowmark_match_parts : PARENS_LOWMARK_MATCH_PARTS;
  if (want <= 1 || !cn__parens_one_subgroup(ctx, s.wg) ||
      (form & (LM_STAGE | LM_REWALK | LM_PSV_TABLES | LM_POS_ROWS | LM_WIN_CACHE)))
    return 1;
  uint64_t shared = cn__parens_shared_bytes(CN_PARENS_LOWMARK, s.wg, s.k, s.window, form);
  while (want > 1 && ((uint64_t)want * s.wg > ctx->caps.max_workgroup_invocations ||
                      (uint64_t)want * shared > ctx->caps.max_shared_memory))
    want /= 2;
  return CN_MAX(want, 1u);
}

static cn_result cn__parens_record_multipass(cn_context *ctx, VkCommandBuffer cmd, cn_parens_variant v,
                                             cn__parens_shape s, const cn__parens_layout *l, cn_parens_push pc,
                                             const cn_parens_tuning *tu, VkDeviceAddress tickets, cn_timer *timer) {
  uint32_t form = cn__lm_form(tu); /* lowmark's matching form (LM_*; the index rows only in single's form) */
  bool lm = v == CN_PARENS_LOWMARK;
  uint32_t spec[4] = {s.wg, s.k, s.window, v == CN_PARENS_LOWMARK ? form : 0};
  uint32_t rparts = tu->lowmark_reduce_parts ? CN_MIN(tu->lowmark_reduce_parts, (uint32_t)PARENS_LOWMARK_REDUCE_PARTS_MAX)
                                             : (uint32_t)PARENS_LOWMARK_REDUCE_PARTS;
  /* lowmark's reduce kernel writes every slice straight from the invocations
   * by default (no slice is that long; the kernel then holds no shared copy
   * of it): on the H200 lowmark 4% faster at 2^26 on fair coin and 5% on
   * nested input than with slices of 256 entries or more staged through
   * shared memory (docs/PERF.md) */
  uint32_t stage_from = tu->lowmark_slice_stage_from ? tu->lowmark_slice_stage_from : UINT32_MAX;
  uint32_t batch = tu->lowmark_window_batch ? CN_MIN(tu->lowmark_window_batch, (uint32_t)PARENS_LOWMARK_WINDOW_BATCH_MAX)
                                            : (uint32_t)PARENS_LOWMARK_WINDOW_BATCH;
  /* slices of a quarter of a partition or more are stored compactly (deep
   * input; a random input's are a few dozen entries), in partitions of at
   * most 512 elements. H200 (docs/PERF.md): at 2^26 (partitions of 512)
   * nested 1.14x -> 1.11x of fair coin, drift 1.16x -> 1.10x, fair coin
   * 0.7% slower; at 2^22 - 2^23 (partitions of 1024, 64 chunks a window
   * lane may walk back over) drift 1.10 - 1.13x -> 1.34 - 1.35x */
  uint32_t compact_from = tu->lowmark_compact_from;
  if (!compact_from) compact_from = s.wg * s.k <= PARENS_LOWMARK_COMPACT_MAX_P ? s.wg * s.k / 4 : CN_PARENS_COMPACT_NEVER;
  if (compact_from == CN_PARENS_COMPACT_NEVER) compact_from = 0; /* the kernels' "none" */
  /* the fifth (LOCAL) only for parens_lm_reduce_multi, set below; the sixth
   * (LONG) only for lowmark's; the window's fifth: the reduce's chunk */
  uint32_t reduce_spec[6] = {s.wg, s.k, lm ? stage_from : s.window, rparts, s.wg, compact_from};
  uint32_t tree_spec[3] = {PARENS_TREE_WG, 1, 1};
  /* lowmark's window kernel: small workgroups over the same partitions (P = WG * K). */
  /* 32 invocations per partition of at least 1024 elements: on the H200
   * lowmark 4-7% faster at 2^18 - 2^23, and 16 for 512 (2^26 0.7% faster;
   * docs/PERF.md) */
  uint32_t lanes = tu->lowmark_window_lanes;
  if (!lanes || lanes > PARENS_WINDOW_WG || (lanes & (lanes - 1)))
    lanes = s.wg * s.k >= 1024 ? PARENS_WINDOW_LANES_WIDE : PARENS_WINDOW_LANES;
  uint32_t window_spec[6] = {PARENS_WINDOW_WG, s.wg * s.k / PARENS_WINDOW_WG, lanes, batch, s.k, compact_from};
  uint32_t mparts = lm ? cn__parens_match_parts(ctx, s, form, tu) : 1;
  uint32_t match_spec[5] = {s.wg, s.k, s.window, form, s.wg * mparts};
  VkPipeline reduce, tree, window = VK_NULL_HANDLE, match;
  uint32_t levels = 0;
  while ((1ull << levels) < l->n1p) levels++;
  /* parens_match walks back over CN_PARENS_NEAR partitions before it searches
   * the tree, whose search from partition 1 reads level 0 alone: with at most
   * NEAR + 2 partitions it never reads the levels above (lowmark's window
   * pass does) */
  if (!lm && l->n1 <= CN_PARENS_NEAR + 2) levels = 0;
  /* with tickets the reduce pass builds the tree too (parens_tree_tail.glsl),
   * over few partitions: each workgroup's ticket costs it two device-scope
   * fences, and the last ones' levels follow each other. H200 (docs/PERF.md):
   * lowmark 0.7 - 1.4 us faster over 4 to 256 partitions (2^13 - 2^19),
   * level over 512, 2 us slower over 821 (the scene stage at 2^24); simple
   * 1.2 - 1.5 us faster over 820 (the scene stage at 2^19) and 1024, level
   * over 1643 and 2048; over 131 072 (lowmark at 2^26) 603 -> 739 us */
  cn_parens_push rpc = pc;
  uint64_t fold_max = lm ? PARENS_TREE_FOLD_LM_MAX : PARENS_TREE_FOLD_MAX;
  if (tickets && levels && l->n1 <= fold_max && !tu->tree_apart && (!lm || rparts == 1)) {
    rpc.flags = tickets;
    rpc.levels = levels;
    levels = 0;
  }
  /* lowmark's reduce with a partition per subgroup, two a workgroup
   * (parens_lm_reduce_multi), where a partition is one subgroup and the
   * reduce builds no tree and stages no slice: an SM holds at most 32
   * workgroups, so one-subgroup workgroups leave half its invocations idle.
   * H200 (docs/PERF.md): lowmark 382.7 - 383.5 -> 371.8 us at 2^26 on fair
   * coin (4, 8 or 16 a workgroup: 372.2 - 373.5), 2.5% faster at 2^24 and
   * 2^25, nested input 424 -> 416, drift 414 -> 423 - 424 */
  uint32_t rmulti = 1;
  if (lm && !rpc.levels && stage_from == UINT32_MAX && cn__parens_one_subgroup(ctx, s.wg)) {
    rmulti = tu->lowmark_reduce_multi ? tu->lowmark_reduce_multi : (uint32_t)PARENS_LOWMARK_REDUCE_MULTI;
    while (rmulti > 1 && ((uint64_t)rmulti * s.wg > ctx->caps.max_workgroup_invocations || (rmulti & (rmulti - 1))))
      rmulti /= 2;
  }
  reduce_spec[4] = s.wg * rmulti;
  int rk = lm ? (rpc.levels ? CN_KERNEL_PARENS_LM_REDUCE_TREE
                 : rmulti > 1 ? CN_KERNEL_PARENS_LM_REDUCE_MULTI
                              : CN_KERNEL_PARENS_LM_REDUCE)
              : (rpc.levels ? CN_KERNEL_PARENS_REDUCE_TREE : CN_KERNEL_PARENS_REDUCE);
  CN_TRY(cn_pipeline_get(ctx, rk, lm ? reduce_spec : spec, lm ? 6 : 3, &reduce));
  CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_PARENS_TREE, tree_spec, 3, &tree));
  if (lm) CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_PARENS_LM_WINDOW, window_spec, 6, &window));
  CN_TRY(cn_pipeline_get(ctx, lm ? CN_KERNEL_PARENS_LM_MATCH : CN_KERNEL_PARENS_MATCH, lm ? match_spec : spec,
                         lm ? 5 : 3, &match));
  cn_dispatch(ctx, cmd, reduce, &rpc, sizeof rpc, lm ? CN_DIV_UP(l->n1, (uint64_t)rparts * rmulti) : l->n1);
  cn_cmd_barrier(ctx, cmd);
  if (timer) cn_timer_mark(ctx, timer, cmd, "parens reduce");
  uint32_t per_pass = cn__parens_tree_levels(tu);
  for (uint32_t j0 = 0; j0 < levels; j0 += per_pass) {
    pc.level = j0;
    pc.levels = CN_MIN(per_pass, levels - j0);
    cn_dispatch(ctx, cmd, tree, &pc, sizeof pc, CN_DIV_UP(l->n1p >> j0, (uint64_t)PARENS_TREE_WG));
    cn_cmd_barrier(ctx, cmd);
    if (timer) cn_timer_mark(ctx, timer, cmd, "parens tree");
  }
  if (lm) {
    cn_dispatch(ctx, cmd, window, &pc, sizeof pc, CN_DIV_UP(l->n1, PARENS_WINDOW_WG / lanes));
    cn_cmd_barrier(ctx, cmd);
    if (timer) cn_timer_mark(ctx, timer, cmd, "parens window");
  }
  cn_dispatch(ctx, cmd, match, &pc, sizeof pc, CN_DIV_UP(l->n1, (uint64_t)mparts));
  cn__parens_pass(ctx, cmd, timer, "parens match");
  return CN_OK;
}

static cn_result cn__parens_record_single(cn_context *ctx, VkCommandBuffer cmd, cn__parens_shape s, bool tuned,
                                          uint64_t n, cn_parens_push pc, const cn_parens_tuning *tu,
                                          cn_timer *timer) {
  uint32_t form = tu->single_form ? tu->single_form : PARENS_SINGLE_DEFAULT_FORM;
  /* The low-mark form (a tuned shape's k when it is 16 or 32, its workgroup
   * then the largest; else 16 or 32 elements per invocation by n). */
  uint32_t lm_wg = 0, lm_k = 0, lm_form = 0;
  if (tuned && (s.k == 16 || s.k == 32)) {
    lm_k = cn__parens_lm_single_pick(ctx, n, s.k, tu->single_psv_links, &lm_wg, &lm_form);
    if (lm_wg > s.wg) lm_k = 0;
  } else if (!tuned) {
    lm_k = cn__parens_lm_single_pick(ctx, n, 0, tu->single_psv_links, &lm_wg, &lm_form);
  }
  if (form == CN_PARENS_SINGLE_LOWMARK && lm_k && pc.src % 16 == 0 && pc.dst % 16 == 0) {
    uint32_t spec[4] = {lm_wg, lm_k, 1, lm_form};
    VkPipeline single;
    CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_PARENS_LM_SINGLE, spec, 4, &single));
    cn_dispatch(ctx, cmd, single, &pc, sizeof pc, 1);
    cn__parens_pass(ctx, cmd, timer, "parens single");
    return CN_OK;
  }
  /* Elements per invocation: the tuning's, else the fewest of 4, 8, 16 that
   * the largest workgroup covers n with (a shorter serial walk per
   * invocation); then the smallest power-of-two workgroup that covers n. */
  uint32_t k = s.k;
  if (!tuned)
    for (k = PARENS_SINGLE_MIN_K; k < s.k && (uint64_t)s.wg * k < n;) k *= 2;
  uint32_t wg = PARENS_SINGLE_MIN_WG;
  while ((uint64_t)wg * k < n && wg < s.wg) wg *= 2;
  uint32_t spec[2] = {wg, k};
  VkPipeline single;
  CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_PARENS_SINGLE, spec, 2, &single));
  cn_dispatch(ctx, cmd, single, &pc, sizeof pc, 1);
  cn__parens_pass(ctx, cmd, timer, "parens single");
  return CN_OK;
}

/* The single-pass kernels (lookback, lowmark's one-pass form): the
 * partition counter and flags cleared, then one dispatch of `kernel`. */
static cn_result cn__parens_record_flagged(cn_context *ctx, VkCommandBuffer cmd, int kernel, const uint32_t *spec,
                                           uint32_t nspec, const cn__parens_layout *l, cn_parens_push pc,
                                           cn_timer *timer, const char *label) {
  uint32_t clear_spec[3] = {PARENS_CLEAR_WG, 1, 1};
  VkPipeline clear, main;
  CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_PARENS_CLEAR, clear_spec, 3, &clear));
  CN_TRY(cn_pipeline_get(ctx, kernel, spec, nspec, &main));
  cn_parens_push cpc = pc;
  cpc.n = (uint32_t)(1 + l->n1);
  cn_dispatch(ctx, cmd, clear, &cpc, sizeof cpc, CN_DIV_UP(1 + l->n1, (uint64_t)PARENS_CLEAR_WG));
  cn_cmd_barrier(ctx, cmd);
  if (timer) cn_timer_mark(ctx, timer, cmd, "parens clear");
  cn_dispatch(ctx, cmd, main, &pc, sizeof pc, l->n1);
  cn__parens_pass(ctx, cmd, timer, label);
  return CN_OK;
}

cn_result cn_parens_record(cn_context *ctx, VkCommandBuffer cmd, const cn_parens_args *a) {
  if (!a) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "parentheses matching: NULL arguments");
  cn_parens_variant v = a->variant;
  uint64_t n = a->n;
  const cn_parens_tuning *tu = cn__tuning(ctx, a);
  if ((unsigned)v >= CN_PARENS_VARIANT_COUNT)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "parentheses matching: unknown variant %d", (int)v);
  if (n > CN_PARENS_MAX_N)
    return cn_fail(CN_ERROR_LIMIT, "parentheses matching of %llu elements: at most %llu", (unsigned long long)n,
                   CN_PARENS_MAX_N);
  uint64_t single_max = cn_parens_partition_size(ctx, &(cn_parens_args){.variant = CN_PARENS_SINGLE, .tuning = tu});
  if (v == CN_PARENS_SINGLE && n > single_max)
    return cn_fail(CN_ERROR_LIMIT, "parentheses matching (single) of %llu elements: at most %llu here",
                   (unsigned long long)n, (unsigned long long)single_max);
  if (n == 0) return CN_OK;
  if (a->in % 4 || a->out % 4 || a->scratch % 16)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT,
                   "parentheses matching: in and out must be 4-byte aligned, scratch 16-byte aligned");
  if (v == CN_PARENS_AUTO) {
    v = cn_parens_choose(ctx, n);
    if (v == CN_PARENS_LOWMARK && (a->in % 16 || a->out % 16)) v = CN_PARENS_EFFICIENT;
    /* single's low-mark form needs 16-byte alignment; its tree form is slower
     * than simple above PARENS_AUTO_TREE_SINGLE_MAX */
    if (v == CN_PARENS_SINGLE && (a->in % 16 || a->out % 16) && n > PARENS_AUTO_TREE_SINGLE_MAX) v = CN_PARENS_SIMPLE;
  } else if (v == CN_PARENS_LOWMARK && (a->in % 16 || a->out % 16)) {
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "parentheses matching (lowmark): in and out must be 16-byte aligned");
  }
  bool ok;
  cn__parens_shape s = cn__parens_shape_of(ctx, v, tu, n, &ok);
  if (!ok)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT,
                   "parentheses matching (%s): shape wg %u, k %u, window %u does not fit this device or variant",
                   cn_parens_variant_name(v), s.wg, s.k, s.window);
  bool onepass = cn__parens_onepass(ctx, v, tu, s, n);
  cn__parens_layout l = cn__parens_layout_of(v, s, n, onepass);
  cn_parens_push pc = {.src = a->in,
                       .dst = a->out,
                       .slices = a->scratch + l.slices,
                       .tree = a->scratch + l.tree,
                       .flags = a->scratch + l.flags,
                       .win = a->scratch + l.win,
                       .n = (uint32_t)n,
                       .n1 = (uint32_t)l.n1,
                       .n1p = (uint32_t)l.n1p};
  if (v == CN_PARENS_SINGLE) {
    const cn_parens_shape *ts = &tu->shape[CN_PARENS_SINGLE];
    return cn__parens_record_single(ctx, cmd, s, ts->wg || ts->k, n, pc, tu, a->timer);
  }
  uint32_t spin = tu->spin_budget ? tu->spin_budget : PARENS_SPIN_BUDGET;
  if (v == CN_PARENS_LOOKBACK) {
    uint32_t spec[4] = {s.wg, s.k, s.window, spin};
    return cn__parens_record_flagged(ctx, cmd, CN_KERNEL_PARENS_LOOKBACK, spec, 4, &l, pc, a->timer, "parens lookback");
  }
  if (onepass) {
    uint32_t spec[5] = {s.wg, s.k, 1, cn__lm_form(tu) & ~(uint32_t)LM_ONEPASS, spin};
    return cn__parens_record_flagged(ctx, cmd, CN_KERNEL_PARENS_LM_ONEPASS, spec, 5, &l, pc, a->timer, "parens onepass");
  }
  if (a->tickets % 4)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "parentheses matching: tickets must be 4-byte aligned");
  return cn__parens_record_multipass(ctx, cmd, v, s, &l, pc, tu, a->tickets, a->timer);
}

cn_result cn_parens(cn_context *ctx, cn_parens_variant v, const cn_parens_tuning *tuning, const uint8_t *in,
                    int32_t *out, uint64_t n) {
  if ((unsigned)v >= CN_PARENS_VARIANT_COUNT)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "parentheses matching: unknown variant %d", (int)v);
  if (n > CN_PARENS_MAX_N)
    return cn_fail(CN_ERROR_LIMIT, "parentheses matching of %llu elements: at most %llu", (unsigned long long)n,
                   CN_PARENS_MAX_N);
  uint64_t single_max = cn_parens_partition_size(ctx, &(cn_parens_args){.variant = CN_PARENS_SINGLE, .tuning = tuning});
  if (v == CN_PARENS_SINGLE && n > single_max)
    return cn_fail(CN_ERROR_LIMIT, "parentheses matching (single) of %llu elements: at most %llu here",
                   (unsigned long long)n, (unsigned long long)single_max);
  if (n == 0) return CN_OK;
  if (!in || !out) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_parens: NULL array");
  cn_parens_args a = {.variant = v, .n = n, .tuning = tuning};
  cn_buffer bin = {0}, bout = {0}, bscratch = {0}, btickets = {0};
  cn_result r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, cn__align16(n), &bin);
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, 4 * n, &bout);
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, cn_parens_scratch_bytes(ctx, &a), &bscratch);
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, cn_parens_ticket_bytes(n), &btickets);
  if (r == CN_OK) r = cn_buffer_upload(ctx, &bin, 0, in, n);
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  if (r == CN_OK) r = cn_cmd_begin(ctx, &cmd);
  if (r == CN_OK) {
    a.in = bin.address;
    a.out = bout.address;
    a.scratch = bscratch.address;
    a.tickets = btickets.address; /* zeroed here: the tree is built by the reduce pass */
    cn_cmd_fill(ctx, cmd, &btickets, 0, btickets.size, 0);
    cn_cmd_barrier(ctx, cmd);
    r = cn_parens_record(ctx, cmd, &a);
    cn_cmd_barrier(ctx, cmd);
    cn_result s = cn_cmd_submit(ctx, cmd);
    if (r == CN_OK) r = s;
  }
  if (r == CN_OK) r = cn_buffer_download(ctx, &bout, 0, out, 4 * n);
  cn_buffer_destroy(ctx, &btickets);
  cn_buffer_destroy(ctx, &bscratch);
  cn_buffer_destroy(ctx, &bout);
  cn_buffer_destroy(ctx, &bin);
  return r;
}

/* The in-place chain: the stack lives in out[] itself (popping reads
 * out[top]), O(1) extra memory, but a pop may reach far back in memory. */
static void cn__parens_cpu_chain(const uint8_t *in, int32_t *out, uint64_t n) {
  int64_t top = -1;
  for (uint64_t i = 0; i < n; i++) {
    out[i] = (int32_t)top;
    if (!(in[i] & 1)) top = (int64_t)i;
    else if (top >= 0) top = out[top];
  }
}

void cn_parens_cpu(const uint8_t *in, int32_t *out, uint64_t n) {
  /* A branchless explicit stack (n + 1 entries, slot 0 a -1 sentinel): each
   * element writes its index above the top; '(' keeps it, ')' drops a level. */
  int32_t *stack = n < CN_PARENS_MAX_N ? malloc((size_t)(n + 2) * sizeof *stack) : NULL;
  if (!stack) {
    cn__parens_cpu_chain(in, out, n);
    return;
  }
  int64_t sp = 0;
  stack[0] = -1;
  for (uint64_t i = 0; i < n; i++) {
    out[i] = stack[sp];
    stack[sp + 1] = (int32_t)i;
    sp += 1 - 2 * (int64_t)(in[i] & 1); /* arithmetic, not a branch: input is unpredictable */
    sp &= ~(sp >> 63);                  /* a pop of the empty stack stays at the sentinel */
  }
  free(stack);
}
