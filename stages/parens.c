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
  PARENS_WINDOW_LANES = 16,   /* lowmark: its invocations per partition (WIN_LANES) */
  PARENS_LOWMARK_STAGE = 0,   /* lowmark: match stages outputs through shared memory (STAGE); 0 measured faster at 128 x 16 */
  PARENS_LOWMARK_REWALK = 0,  /* lowmark: match walks twice instead of holding outputs (REWALK); not yet measured */
};

typedef struct cn__parens_shape {
  uint32_t wg, k, window; /* invocations, elements each, look-back window entries */
} cn__parens_shape;

static const char *const cn__variant_names[CN_PARENS_VARIANT_COUNT] = {"auto", "simple", "efficient", "lookback",
                                                                             "lowmark"};

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

uint32_t cn_parens_tree_levels_per_pass(void) {
  /* Test knob: CANOPY_PARENS_TREE_LEVELS=1..8 makes passes smaller, so tests
   * reach many tree passes with few elements. */
  const char *e = getenv("CANOPY_PARENS_TREE_LEVELS");
  int v = e ? atoi(e) : 0;
  return v >= 1 && v <= PARENS_TREE_LEVELS ? (uint32_t)v : PARENS_TREE_LEVELS;
}

/* Shared memory of the partition kernels (parens.glsl) for a shape. */
static uint64_t cn__parens_shared_bytes(cn_parens_variant v, uint32_t wg, uint32_t k, uint32_t window) {
  uint64_t p = (uint64_t)wg * k;
  if (v == CN_PARENS_LOWMARK) { /* parens_lm_match, words per chunk: sh_sg, sh_psv, log2(wg) of sh_min, k + 1 each of sh_pos and sh_ans */
    uint64_t log = 0;
    while ((1ull << log) < wg) log++;
    return 4 * (uint64_t)wg * (2 + log + 2 * (k + 1)) + 64;
  }
  uint64_t common = (p + p / 32) * 4 + (uint64_t)wg * 16 + (uint64_t)wg * 4;
  uint64_t near = v == CN_PARENS_LOOKBACK ? 0 : 32 * 8; /* parens_match's sh_near */
  return common + near + 4 * (v == CN_PARENS_LOOKBACK ? p + window : p) + 64;
}

static bool cn__parens_shape_fits(const cn_context *ctx, cn_parens_variant v, cn__parens_shape s) {
  if (v == CN_PARENS_LOWMARK && ((s.k != 16 && s.k != 32) || s.wg < ctx->caps.max_subgroup_size)) return false;
  return s.wg >= 32 && s.wg <= ctx->caps.max_workgroup_invocations && (s.wg & (s.wg - 1)) == 0 && s.k >= 1 &&
         s.k <= 32 && (s.k <= 2 || s.k % 4 == 0) && s.window >= 1 && s.window <= s.wg * s.k &&
         cn__parens_shared_bytes(v, s.wg, s.k, s.window) <= ctx->caps.max_shared_memory;
}

/* Benchmark knob: CANOPY_PARENS_<VARIANT>=wg,k[,window] replaces the shape
 * chosen below when it is valid and fits the device (ignored otherwise). */
static bool cn__parens_shape_env(const cn_context *ctx, cn_parens_variant v, cn__parens_shape *out) {
  static const char *const names[CN_PARENS_VARIANT_COUNT] = {NULL, "CANOPY_PARENS_SIMPLE", "CANOPY_PARENS_EFFICIENT",
                                                             "CANOPY_PARENS_LOOKBACK", "CANOPY_PARENS_LOWMARK"};
  const char *e = names[v] ? getenv(names[v]) : NULL;
  if (!e || !*e) return false;
  unsigned wg = 0, k = 0, window = 0;
  int got = sscanf(e, "%u,%u,%u", &wg, &k, &window);
  if (got < 2) return false;
  cn__parens_shape s = {wg, k, got == 3 ? window : CN_MAX(1u, wg * k / PARENS_WINDOW_DIVISOR)};
  if (!cn__parens_shape_fits(ctx, v, s)) return false;
  *out = s;
  return true;
}

/* Default shapes, the fastest of a sweep on the H200 (docs/PERF.md); smaller
 * devices halve the workgroup until the shared memory fits. */
static const cn__parens_shape cn__parens_default_shapes[CN_PARENS_VARIANT_COUNT] = {
    [CN_PARENS_SIMPLE] = {.wg = 64, .k = 1},
    [CN_PARENS_EFFICIENT] = {.wg = 128, .k = 4},
    [CN_PARENS_LOOKBACK] = {.wg = 256, .k = 8},
    [CN_PARENS_LOWMARK] = {.wg = 128, .k = PARENS_LOWMARK_K},
};

static cn__parens_shape cn__parens_shape_of(const cn_context *ctx, cn_parens_variant v) {
  cn__parens_shape s = cn__parens_default_shapes[v];
  if (cn__parens_shape_env(ctx, v, &s)) return s;
  uint32_t wg = cn_floor_pow2(CN_MIN(s.wg, ctx->caps.max_workgroup_invocations));
  for (;;) {
    s.wg = wg;
    s.window = CN_MAX(1u, wg * s.k / PARENS_WINDOW_DIVISOR);
    if (wg <= CN_MAX(32u, ctx->caps.max_subgroup_size) ||
        cn__parens_shared_bytes(v, wg, s.k, s.window) <= ctx->caps.max_shared_memory)
      break;
    wg /= 2;
  }
  return s;
}

static cn_parens_variant cn__parens_choose_by_n(uint64_t n) {
  /* From the H200 run of 2026-11-21 17:45 UTC (docs/PERF.md): below 2^15
   * every variant is dispatch-bound (15-60 us) and simple has the shortest
   * critical path; lowmark is fastest from 2^15 (17.1 vs 17.9 us) up, by
   * 3.3x over efficient at 2^26. cn_parens_record() falls back to efficient
   * when lowmark's 16-byte alignment is not met. */
  return n < (1u << 15) ? CN_PARENS_SIMPLE : CN_PARENS_LOWMARK;
}

static uint64_t cn__parens_variant_scratch(cn_context *ctx, cn_parens_variant v, uint64_t n);

cn_parens_variant cn_parens_choose(cn_context *ctx, uint64_t n) {
  cn_parens_variant v = cn__parens_choose_by_n(n);
  /* The scratch must fit one allocation of the device (lowmark keeps a
   * partition's window per partition: 8 bytes an element, 2.15 GB at 2^28,
   * over lavapipe's 2 GiB): else the next variant whose scratch fits. */
  uint64_t most = ctx ? ctx->caps.max_allocation_size : 0;
  if (!most || cn__parens_variant_scratch(ctx, v, n) <= most) return v;
  static const cn_parens_variant order[] = {CN_PARENS_EFFICIENT, CN_PARENS_LOOKBACK, CN_PARENS_SIMPLE};
  for (int i = 0; i < 3; i++)
    if (cn__parens_variant_scratch(ctx, order[i], n) <= most) return order[i];
  return v; /* nothing fits: buffer creation names the size */
}

uint64_t cn_parens_partition_size(cn_context *ctx, cn_parens_variant v) {
  if (v == CN_PARENS_AUTO) v = cn__parens_choose_by_n(CN_PARENS_MAX_N);
  if ((unsigned)v >= CN_PARENS_VARIANT_COUNT) return 0;
  cn__parens_shape s = cn__parens_shape_of(ctx, v);
  return (uint64_t)s.wg * s.k;
}

/* Scratch layout: offsets in bytes, each 16-byte aligned. */
typedef struct cn__parens_layout {
  uint64_t n1, n1p, part;
  uint64_t flags, tree, slices, win, total;
} cn__parens_layout;

static uint64_t cn__align16(uint64_t x) { return (x + 15) & ~(uint64_t)15; }

static cn__parens_layout cn__parens_layout_of(cn_parens_variant v, cn__parens_shape s, uint64_t n) {
  cn__parens_layout l = {0};
  l.part = (uint64_t)s.wg * s.k;
  l.n1 = CN_DIV_UP(n, l.part);
  l.n1p = 1;
  while (l.n1p < l.n1) l.n1p *= 2;
  uint64_t at = 0;
  if (v == CN_PARENS_LOOKBACK) {
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
  if (v == CN_PARENS_LOOKBACK || v == CN_PARENS_LOWMARK) { /* lowmark: a whole partition's worth per partition */
    l.win = at;
    at += cn__align16(4 * l.n1 * (v == CN_PARENS_LOWMARK ? l.part : s.window));
  }
  l.total = at;
  return l;
}

static uint64_t cn__parens_variant_scratch(cn_context *ctx, cn_parens_variant v, uint64_t n) {
  return cn__parens_layout_of(v, cn__parens_shape_of(ctx, v), n).total;
}

uint64_t cn_parens_scratch_bytes(cn_context *ctx, cn_parens_variant v, uint64_t n) {
  if (n == 0 || (unsigned)v >= CN_PARENS_VARIANT_COUNT) return 0;
  if (v != CN_PARENS_AUTO) return cn__parens_layout_of(v, cn__parens_shape_of(ctx, v), n).total;
  v = cn_parens_choose(ctx, n);
  uint64_t bytes = cn__parens_layout_of(v, cn__parens_shape_of(ctx, v), n).total;
  if (v == CN_PARENS_LOWMARK) { /* cn_parens_record() falls back to efficient for unaligned buffers */
    uint64_t e = cn__parens_layout_of(CN_PARENS_EFFICIENT, cn__parens_shape_of(ctx, CN_PARENS_EFFICIENT), n).total;
    bytes = CN_MAX(bytes, e);
  }
  return bytes;
}

/* A 0/1 benchmark knob of lowmark's matching kernel: the environment
 * variable `name` when it is "0" or "1", else `fallback`. */
static uint32_t cn__parens_lowmark_flag(const char *name, uint32_t fallback) {
  const char *e = getenv(name);
  if (e && (strcmp(e, "0") == 0 || strcmp(e, "1") == 0)) return (uint32_t)(e[0] - '0');
  return fallback;
}

static cn_result cn__parens_record_multipass(cn_context *ctx, VkCommandBuffer cmd, cn_parens_variant v,
                                             cn__parens_shape s, const cn__parens_layout *l, cn_parens_push pc) {
  /* lowmark's matching form (parens_lm_match.comp): bit 0 STAGE, bit 1 REWALK, from
   * CANOPY_PARENS_LOWMARK_STAGE / _REWALK */
  uint32_t form = cn__parens_lowmark_flag("CANOPY_PARENS_LOWMARK_STAGE", PARENS_LOWMARK_STAGE) |
                  cn__parens_lowmark_flag("CANOPY_PARENS_LOWMARK_REWALK", PARENS_LOWMARK_REWALK) << 1;
  uint32_t spec[4] = {s.wg, s.k, s.window, v == CN_PARENS_LOWMARK ? form : 0};
  uint32_t tree_spec[3] = {PARENS_TREE_WG, 1, 1};
  /* lowmark's window kernel: small workgroups over the same partitions (P = WG * K). */
  uint32_t window_spec[3] = {PARENS_WINDOW_WG, s.wg * s.k / PARENS_WINDOW_WG, 1};
  bool lm = v == CN_PARENS_LOWMARK;
  VkPipeline reduce, tree, window = VK_NULL_HANDLE, match;
  CN_TRY(cn_pipeline_get(ctx, lm ? CN_KERNEL_PARENS_LM_REDUCE : CN_KERNEL_PARENS_REDUCE, spec, 3, &reduce));
  CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_PARENS_TREE, tree_spec, 3, &tree));
  if (lm) CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_PARENS_LM_WINDOW, window_spec, 3, &window));
  CN_TRY(cn_pipeline_get(ctx, lm ? CN_KERNEL_PARENS_LM_MATCH : CN_KERNEL_PARENS_MATCH, spec, lm ? 4 : 3, &match));
  /* Benchmark knob: CANOPY_PARENS_LOWMARK_STOP=reduce|tree|window records
   * lowmark only up to and including that pass, so a benchmark can time each
   * pass by difference (out[] is then left unwritten). */
  const char *stop = lm ? getenv("CANOPY_PARENS_LOWMARK_STOP") : NULL;
  if (stop && !*stop) stop = NULL;
  cn_dispatch(ctx, cmd, reduce, &pc, sizeof pc, l->n1);
  cn_cmd_barrier(ctx, cmd);
  if (stop && strcmp(stop, "reduce") == 0) return CN_OK;
  uint32_t levels = 0;
  while ((1ull << levels) < l->n1p) levels++;
  uint32_t per_pass = cn_parens_tree_levels_per_pass();
  for (uint32_t j0 = 0; j0 < levels; j0 += per_pass) {
    pc.level = j0;
    pc.levels = CN_MIN(per_pass, levels - j0);
    cn_dispatch(ctx, cmd, tree, &pc, sizeof pc, CN_DIV_UP(l->n1p >> j0, (uint64_t)PARENS_TREE_WG));
    cn_cmd_barrier(ctx, cmd);
  }
  if (stop && strcmp(stop, "tree") == 0) return CN_OK;
  if (lm) {
    cn_dispatch(ctx, cmd, window, &pc, sizeof pc, CN_DIV_UP(l->n1, PARENS_WINDOW_WG / PARENS_WINDOW_LANES));
    cn_cmd_barrier(ctx, cmd);
  }
  if (stop && strcmp(stop, "window") == 0) return CN_OK;
  cn_dispatch(ctx, cmd, match, &pc, sizeof pc, l->n1);
  return CN_OK;
}

static cn_result cn__parens_record_lookback(cn_context *ctx, VkCommandBuffer cmd, cn__parens_shape s,
                                            const cn__parens_layout *l, cn_parens_push pc) {
  /* Test knob: CANOPY_PARENS_SPIN_BUDGET (flag loads per partition before it
   * computes a waited-for predecessor itself); small values exercise that path. */
  const char *e = getenv("CANOPY_PARENS_SPIN_BUDGET");
  uint32_t spin = e && *e ? (uint32_t)strtoul(e, NULL, 10) : PARENS_SPIN_BUDGET;
  uint32_t spec[4] = {s.wg, s.k, s.window, spin};
  uint32_t clear_spec[3] = {PARENS_CLEAR_WG, 1, 1};
  VkPipeline clear, lookback;
  CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_PARENS_CLEAR, clear_spec, 3, &clear));
  CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_PARENS_LOOKBACK, spec, 4, &lookback));
  cn_parens_push cpc = pc;
  cpc.n = (uint32_t)(1 + l->n1);
  cn_dispatch(ctx, cmd, clear, &cpc, sizeof cpc, CN_DIV_UP(1 + l->n1, (uint64_t)PARENS_CLEAR_WG));
  cn_cmd_barrier(ctx, cmd);
  cn_dispatch(ctx, cmd, lookback, &pc, sizeof pc, l->n1);
  return CN_OK;
}

cn_result cn_parens_record(cn_context *ctx, VkCommandBuffer cmd, cn_parens_variant v, VkDeviceAddress in,
                           VkDeviceAddress out, VkDeviceAddress scratch, uint64_t n) {
  if ((unsigned)v >= CN_PARENS_VARIANT_COUNT)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "parentheses matching: unknown variant %d", (int)v);
  if (n > CN_PARENS_MAX_N)
    return cn_fail(CN_ERROR_LIMIT, "parentheses matching of %llu elements: at most %llu", (unsigned long long)n,
                   CN_PARENS_MAX_N);
  if (n == 0) return CN_OK;
  if (in % 4 || out % 4 || scratch % 16)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT,
                   "parentheses matching: in and out must be 4-byte aligned, scratch 16-byte aligned");
  if (v == CN_PARENS_AUTO) {
    v = cn_parens_choose(ctx, n);
    if (v == CN_PARENS_LOWMARK && (in % 16 || out % 16)) v = CN_PARENS_EFFICIENT;
  } else if (v == CN_PARENS_LOWMARK && (in % 16 || out % 16)) {
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "parentheses matching (lowmark): in and out must be 16-byte aligned");
  }
  cn__parens_shape s = cn__parens_shape_of(ctx, v);
  cn__parens_layout l = cn__parens_layout_of(v, s, n);
  cn_parens_push pc = {.src = in,
                       .dst = out,
                       .slices = scratch + l.slices,
                       .tree = scratch + l.tree,
                       .flags = scratch + l.flags,
                       .win = scratch + l.win,
                       .n = (uint32_t)n,
                       .n1 = (uint32_t)l.n1,
                       .n1p = (uint32_t)l.n1p};
  if (v == CN_PARENS_LOOKBACK) return cn__parens_record_lookback(ctx, cmd, s, &l, pc);
  return cn__parens_record_multipass(ctx, cmd, v, s, &l, pc);
}

cn_result cn_parens(cn_context *ctx, cn_parens_variant v, const uint8_t *in, int32_t *out, uint64_t n) {
  if ((unsigned)v >= CN_PARENS_VARIANT_COUNT)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "parentheses matching: unknown variant %d", (int)v);
  if (n > CN_PARENS_MAX_N)
    return cn_fail(CN_ERROR_LIMIT, "parentheses matching of %llu elements: at most %llu", (unsigned long long)n,
                   CN_PARENS_MAX_N);
  if (n == 0) return CN_OK;
  if (!in || !out) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_parens: NULL array");
  cn_buffer bin = {0}, bout = {0}, bscratch = {0};
  cn_result r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, cn__align16(n), &bin);
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, 4 * n, &bout);
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, cn_parens_scratch_bytes(ctx, v, n), &bscratch);
  if (r == CN_OK) r = cn_buffer_upload(ctx, &bin, 0, in, n);
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  if (r == CN_OK) r = cn_cmd_begin(ctx, &cmd);
  if (r == CN_OK) {
    r = cn_parens_record(ctx, cmd, v, bin.address, bout.address, bscratch.address, n);
    cn_cmd_barrier(ctx, cmd);
    cn_result s = cn_cmd_submit(ctx, cmd);
    if (r == CN_OK) r = s;
  }
  if (r == CN_OK) r = cn_buffer_download(ctx, &bout, 0, out, 4 * n);
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
