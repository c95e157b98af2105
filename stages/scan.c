/* scan.c: host side of the generic monoid scan (see cn_scan.h, shaders/scan_lb.glsl
 * and, for the two-pass form, shaders/scan.glsl). */
#include "cn_scan.h"
#include "internal.h"
#include "kernels.gen.h"

#include <stdlib.h>

enum {
  SCAN_WG = 256,              /* one-pass: invocations per block (several blocks) */
  SCAN_WG_LARGE = 512,        /* the same from SCAN_LARGE_FROM elements */
  SCAN_LARGE_FROM = 1 << 19,
  SCAN_ITEMS = 16,            /* one-pass: elements per invocation (a multiple of 4) */
  SCAN_HUGE_FROM = 1 << 21,   /* 64-bit look-back: from this many elements, blocks of */
  SCAN_HUGE_WG = 512,         /*   SCAN_HUGE_WG x SCAN_HUGE_ITEMS with the block's */
  SCAN_HUGE_ITEMS = 32,       /*   total first (aggregate_first) */
  SCAN_STREAM_FROM = 1 << 22, /* 64-bit look-back: from this many elements, blocks of */
  SCAN_STREAM_ITEMS = 24,     /*   SCAN_HUGE_WG x SCAN_STREAM_ITEMS with the rows streamed (stream_rows) */
  SCAN_RELOAD_FROM = 1 << 24, /* 64-bit look-back: from this many elements, blocks of SCAN_HUGE_WG x */
  SCAN_RELOAD_ITEMS = 28,     /*   SCAN_RELOAD_ITEMS, the rows streamed and loaded again (reload_rows) */
  SCAN_ONE_BLOCK_WG = 1024,   /* one-pass: n up to this many invocations x SCAN_ITEMS in one block */
  SCAN_ONE_BLOCK_ITEMS = 8,   /* one block: elements per invocation while the workgroup covers n with them */
  SCAN_LOOKBACK_ENTRIES = 1,  /* 64-bit look-back: predecessors per lane and step */
  SCAN_SPIN_BUDGET = 16384,   /* one-pass: flag loads per block (see cn_scan.h) */
  SCAN_CLEAR_WG = 256,        /* scan_clear's workgroup */
  SCAN_TWO_PASS_ITEMS = 8,    /* two-pass: elements per invocation */
};

typedef struct cn__scan_monoid {
  int single, single64, reduce, apply; /* kernels: one-pass (fenced, 64-bit atomics); two-pass */
  uint32_t elem_bytes;
} cn__scan_monoid;

static const cn__scan_monoid cn__monoids[CN_SCAN_OP_COUNT] = {
    [CN_SCAN_U32_ADD] = {CN_KERNEL_SCAN_U32_ADD, CN_KERNEL_SCAN_U32_ADD_A64, CN_KERNEL_SCAN_U32_ADD_REDUCE,
                         CN_KERNEL_SCAN_U32_ADD_APPLY, 4},
    [CN_SCAN_U32_MAX] = {CN_KERNEL_SCAN_U32_MAX, CN_KERNEL_SCAN_U32_MAX_A64, CN_KERNEL_SCAN_U32_MAX_REDUCE,
                         CN_KERNEL_SCAN_U32_MAX_APPLY, 4},
    [CN_SCAN_F32_SEG_ADD] = {CN_KERNEL_SCAN_F32_SEG, CN_KERNEL_SCAN_F32_SEG_A64, CN_KERNEL_SCAN_F32_SEG_REDUCE,
                             CN_KERNEL_SCAN_F32_SEG_APPLY, 4},
};

/* Whether the one-pass look-back packs flag and value in 64-bit atomics. */
static bool cn__scan_a64(const cn_context *ctx, const cn_scan_tuning *tu) {
  return ctx->caps.buffer_int64_atomics && !tu->fenced;
}

static const cn_scan_tuning cn__scan_no_tuning;

/* The arguments' tuning, else the context's (cn_tuning.scan), else the defaults. */
static const cn_scan_tuning *cn__scan_tuning(const cn_context *ctx, const cn_scan_args *a) {
  if (a->tuning) return a->tuning;
  return ctx->tuning.scan ? ctx->tuning.scan : &cn__scan_no_tuning;
}

/* Whether the one-pass scan of n elements takes the default shape for huge
 * inputs: blocks of SCAN_HUGE_WG x SCAN_HUGE_ITEMS that publish their total
 * before their rows' scans, from SCAN_STREAM_FROM blocks of SCAN_HUGE_WG x
 * SCAN_STREAM_ITEMS with their rows streamed after the look-back (the tuning
 * names no shape; 64-bit look-back, the form they were measured in). */
static bool cn__scan_huge(const cn_context *ctx, const cn_scan_tuning *tu, uint64_t n) {
  return !tu->wg && !tu->items && n >= SCAN_HUGE_FROM && cn__scan_a64(ctx, tu) &&
         ctx->caps.max_workgroup_invocations >= SCAN_HUGE_WG;
}

/* Whether the huge inputs' shape is the streamed one (SCAN_STREAM_FROM up). */
static bool cn__scan_streamed(const cn_context *ctx, const cn_scan_tuning *tu, uint64_t n) {
  return n >= SCAN_STREAM_FROM && cn__scan_huge(ctx, tu, n);
}

/* Whether the streamed rows are loaded again after the look-back instead of
 * held across it (SCAN_RELOAD_FROM up). */
static bool cn__scan_reloaded(const cn_context *ctx, const cn_scan_tuning *tu, uint64_t n) {
  return n >= SCAN_RELOAD_FROM && cn__scan_huge(ctx, tu, n);
}

/* One-pass block shape: the tuning's; else, for n that one workgroup of up to
 * SCAN_ONE_BLOCK_WG invocations covers, one block (one dispatch, no clear of
 * the look-back state): SCAN_ONE_BLOCK_ITEMS elements per invocation while
 * they cover n, then SCAN_ITEMS, and the smallest power-of-two workgroup
 * (at least 32 and the subgroup size) that covers n with them; else SCAN_WG
 * (SCAN_WG_LARGE from SCAN_LARGE_FROM elements; or the device's largest power
 * of two below it) x SCAN_ITEMS, and SCAN_HUGE_WG x SCAN_HUGE_ITEMS from
 * SCAN_HUGE_FROM elements (cn__scan_huge). False when
 * the tuning's shape does not fit. (H200 measurements in docs/PERF.md: one
 * block scans 2^12 in 3.6 us, where 256 x 16 took 4.2, and 2^13 in 4.9
 * against 7.4 for two blocks and their clear; several blocks of 512 x 16 are
 * faster than 256 x 16 from 2^19 up (2^26: 224 against 234 us), slower below
 * (2^16: 8.1 against 7.6 us), so 256 x 16 blocks below 2^19; 512 x 32 with
 * the total first is faster than 512 x 16 from 2^21 up (2^22: 15.7 against
 * 17.7 us, 2^26: 194.5 against 206), no faster at 2^20 and slower below
 * (2^16: 9.8 against 7.4 us: too few blocks); 512 x 24 with the rows
 * streamed after the look-back (40 registers against 64: three workgroups per
 * SM) is faster than that from 2^22 up (2^22: 15.2 against 15.7, 2^26: 188.2
 * - 189.5 against 193.6 - 196.3), slightly slower at 2^21 (12.1 against
 * 11.9); 512 x 28 with the streamed rows loaded again after the look-back
 * instead of held across it is faster than that from 2^24 up (2^26: 181.1 -
 * 181.4 against 185.3 - 189.9; 2^24 53.3 - 53.6 against 54.7 - 54.9), slower
 * below (2^22: 16.1 against 14.6 - 14.9; 2^20: 73 blocks, fewer than the
 * H200's SMs).) */
static bool cn__scan_block(const cn_context *ctx, const cn_scan_tuning *tu, uint64_t n, uint32_t *wg,
                           uint32_t *items) {
  uint32_t wg_default = n >= SCAN_LARGE_FROM ? SCAN_WG_LARGE : SCAN_WG;
  bool huge = cn__scan_huge(ctx, tu, n);
  if (huge) wg_default = SCAN_HUGE_WG;
  *wg = tu->wg ? tu->wg : cn_floor_pow2(CN_MIN(wg_default, ctx->caps.max_workgroup_invocations));
  *items = tu->items                    ? tu->items
           : cn__scan_reloaded(ctx, tu, n) ? SCAN_RELOAD_ITEMS
           : cn__scan_streamed(ctx, tu, n) ? SCAN_STREAM_ITEMS
           : huge                          ? SCAN_HUGE_ITEMS
                                           : SCAN_ITEMS;
  if (!tu->wg && !tu->items) {
    uint32_t most = cn_floor_pow2(CN_MIN((uint32_t)SCAN_ONE_BLOCK_WG, ctx->caps.max_workgroup_invocations));
    uint32_t least = CN_MAX(32u, ctx->caps.max_subgroup_size);
    if (most >= least && n <= (uint64_t)most * SCAN_ITEMS && most * 4 <= ctx->caps.max_shared_memory) {
      *items = n <= (uint64_t)most * SCAN_ONE_BLOCK_ITEMS ? SCAN_ONE_BLOCK_ITEMS : SCAN_ITEMS;
      for (*wg = least; (uint64_t)*wg * *items < n;) *wg *= 2;
    }
  }
  return (*wg & (*wg - 1)) == 0 && *wg >= ctx->caps.max_subgroup_size && *wg <= ctx->caps.max_workgroup_invocations &&
         *wg * 4 <= ctx->caps.max_shared_memory && *items >= 4 && *items <= 64 && *items % 4 == 0;
}

/* Two-pass: 256 invocations of 8 items; shared memory is WG * elem_bytes. */
static void cn__scan_shape(const cn_context *ctx, const cn__scan_monoid *m, uint32_t *wg, uint32_t *items) {
  uint32_t w = CN_MIN(256u, ctx->caps.max_workgroup_invocations);
  while (w > 32 && w * m->elem_bytes > ctx->caps.max_shared_memory / 2) w /= 2;
  *wg = cn_floor_pow2(w);
  *items = SCAN_TWO_PASS_ITEMS;
}

/* A persistent look-back state (cn_scan_args.state_bytes): a word of the
 * parity (bit 31) and the blocks' counter (8 bytes), then two regions of the
 * same size, each laid out as a one-pass scan's scratch (the counter word
 * unused, then the flags and values of the blocks). */
static uint64_t cn__scan_state_region(uint64_t state_bytes) {
  return state_bytes < 8 ? 0 : ((state_bytes - 8) / 2) & ~7ull;
}

/* Bytes of a region that a scan of `blocks` blocks uses (64-bit atomics: one
 * 8-byte word per block after the counter's; else a flag, an aggregate and a
 * prefix word per block after the counter). */
static uint64_t cn__scan_region_need(bool a64, uint64_t blocks) {
  return a64 ? 8 * (1 + blocks) : (4 * (1 + 3 * blocks) + 7) & ~7ull;
}

uint64_t cn_scan_state_bytes(cn_context *ctx, const cn_scan_args *a) {
  if (!ctx || !a || (unsigned)a->op >= CN_SCAN_OP_COUNT) return 0;
  const cn_scan_tuning *tu = cn__scan_tuning(ctx, a);
  if (tu->two_pass) return 0;
  /* the most blocks of any n' <= n: block shapes grow with n at powers of
   * two, so the candidates are n and each 2^k - 1 below it */
  uint64_t blocks = 0;
  for (int k = 0; k <= 64; k++) {
    uint64_t c = k == 64 ? a->n : CN_MIN(a->n, (1ull << k) - 1);
    uint32_t wg, items;
    if (c == 0) continue;
    if (!cn__scan_block(ctx, tu, c, &wg, &items)) return 0;
    blocks = CN_MAX(blocks, CN_DIV_UP(c, (uint64_t)wg * items));
  }
  /* either form's layout fits, so the tuning may change between scans */
  return 8 + 2 * CN_MAX(cn__scan_region_need(true, blocks), cn__scan_region_need(false, blocks));
}

/* Records scan_clear zeroing `words` 32-bit words at dst (no barrier after). */
static cn_result cn__scan_clear(cn_context *ctx, VkCommandBuffer cmd, VkDeviceAddress dst, uint64_t words) {
  VkPipeline clear;
  CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_SCAN_CLEAR, NULL, 0, &clear));
  cn_scan_push cpc = {.dst = dst, .n = (uint32_t)words};
  cn_dispatch(ctx, cmd, clear, &cpc, sizeof cpc, CN_DIV_UP(words, (uint64_t)SCAN_CLEAR_WG));
  return CN_OK;
}

cn_result cn_scan_state_init(cn_context *ctx, VkCommandBuffer cmd, VkDeviceAddress state, uint64_t bytes) {
  if (!ctx || !state || state % 8 || bytes < 8 || bytes % 4 || bytes / 4 > UINT32_MAX)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scan_state_init: state must be 8-byte aligned, its size a multiple of 4");
  return cn__scan_clear(ctx, cmd, state, bytes / 4);
}

uint64_t cn_scan_scratch_bytes(cn_context *ctx, const cn_scan_args *a) {
  if (!a || (unsigned)a->op >= CN_SCAN_OP_COUNT) return 0;
  const cn__scan_monoid *m = &cn__monoids[a->op];
  const cn_scan_tuning *tu = cn__scan_tuning(ctx, a);
  uint64_t n = a->n;
  if (!tu->two_pass) {
    uint32_t wg, items;
    if (!cn__scan_block(ctx, tu, n, &wg, &items)) return 0;
    uint64_t block = (uint64_t)wg * items;
    uint64_t blocks = CN_DIV_UP(n, block);
    if (blocks <= 1) return 0;
    return cn__scan_a64(ctx, tu) ? 8 * (1 + blocks) : 4 * (1 + 3 * blocks);
  }
  uint32_t wg, items;
  cn__scan_shape(ctx, m, &wg, &items);
  uint64_t block = (uint64_t)wg * items, total = 0;
  while (n > block) {
    n = CN_DIV_UP(n, block);
    total += n;
  }
  return total * m->elem_bytes;
}

static cn_result cn__scan_level(cn_context *ctx, VkCommandBuffer cmd, const cn__scan_monoid *m, VkPipeline reduce,
                                VkPipeline apply, uint64_t block, VkDeviceAddress src, VkDeviceAddress dst,
                                VkDeviceAddress scratch, uint64_t n, bool exclusive) {
  uint64_t blocks = CN_DIV_UP(n, block);
  cn_scan_push pc = {.src = src, .dst = dst, .n = (uint32_t)n, .exclusive = exclusive, .has_partial = blocks > 1};
  if (blocks > 1) {
    pc.partial = scratch;
    cn_dispatch(ctx, cmd, reduce, &pc, sizeof pc, blocks);
    cn_cmd_barrier(ctx, cmd);
    /* Scan the partials in place, inclusively, one level up. */
    CN_TRY(cn__scan_level(ctx, cmd, m, reduce, apply, block, scratch, scratch, scratch + blocks * m->elem_bytes,
                          blocks, false));
    cn_cmd_barrier(ctx, cmd);
  }
  cn_dispatch(ctx, cmd, apply, &pc, sizeof pc, blocks);
  return CN_OK;
}

static cn_result cn__scan_two_pass(cn_context *ctx, VkCommandBuffer cmd, const cn__scan_monoid *m,
                                   const cn_scan_args *a) {
  uint32_t wg, items;
  cn__scan_shape(ctx, m, &wg, &items);
  uint32_t spec[2] = {wg, items};
  VkPipeline reduce, apply;
  CN_TRY(cn_pipeline_get(ctx, m->reduce, spec, 2, &reduce));
  CN_TRY(cn_pipeline_get(ctx, m->apply, spec, 2, &apply));
  return cn__scan_level(ctx, cmd, m, reduce, apply, (uint64_t)wg * items, a->src, a->dst, a->scratch, a->n,
                        a->exclusive);
}

cn_result cn_scan_record(cn_context *ctx, VkCommandBuffer cmd, const cn_scan_args *a) {
  if (!a) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scan: NULL arguments");
  if ((unsigned)a->op >= CN_SCAN_OP_COUNT) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "unknown scan op %d", (int)a->op);
  if (a->n > CN_SCAN_MAX_N)
    return cn_fail(CN_ERROR_LIMIT, "scan of %llu elements: at most %llu", (unsigned long long)a->n, CN_SCAN_MAX_N);
  if (a->n == 0) return CN_OK;
  if (a->src % 4 || a->dst % 4 || a->scratch % 8)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scan: src and dst must be 4-byte aligned, scratch 8-byte aligned");
  const cn__scan_monoid *m = &cn__monoids[a->op];
  const cn_scan_tuning *tu = cn__scan_tuning(ctx, a);
  if (tu->two_pass && a->state_bytes)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scan: a persistent look-back state needs the one-pass scan, not two_pass");
  if (tu->two_pass) return cn__scan_two_pass(ctx, cmd, m, a);

  uint32_t wg, items;
  if (!cn__scan_block(ctx, tu, a->n, &wg, &items))
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scan: block shape %u x %u does not fit this device", wg, items);
  uint64_t blocks = CN_DIV_UP(a->n, (uint64_t)wg * items);
  if (tu->backoff >= (1u << 24))
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scan: look-back pause of %u steps: at most %u", tu->backoff,
                   (1u << 24) - 1);
  uint32_t entries = tu->lookback_entries ? tu->lookback_entries : SCAN_LOOKBACK_ENTRIES, log_entries = 0;
  if (entries > 8 || (entries & (entries - 1)))
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scan: %u look-back entries per lane: 1, 2, 4 or 8", entries);
  while ((1u << log_entries) < entries) log_entries++;
  /* Constant 2, the mode (scan_lb.glsl): bit 0 16-byte aligned buffers, bit 1
   * static block order, bits 2-3 log2 of the look-back entries per lane, bit
   * 4 the block's total before its rows' scans, bit 5 the early first window
   * of the look-back, bit 6 the rows scanned and written one by one after the
   * look-back, bit 7 those rows loaded again after the look-back, bits 8..
   * the look-back pause. */
  bool huge = cn__scan_huge(ctx, tu, a->n), streamed = cn__scan_streamed(ctx, tu, a->n);
  uint32_t mode = (a->src % 16 == 0 && a->dst % 16 == 0) | (tu->static_order ? 2u : 0u) | log_entries << 2 |
                  (tu->aggregate_first || (huge && !streamed) ? 16u : 0u) | (tu->early_lookback ? 32u : 0u) |
                  (tu->stream_rows || streamed ? 64u : 0u) |
                  (tu->reload_rows || cn__scan_reloaded(ctx, tu, a->n) ? 128u : 0u) | tu->backoff << 8;
  uint32_t spec[4] = {wg, items, mode, tu->spin_budget ? tu->spin_budget : SCAN_SPIN_BUDGET};
  VkPipeline scan;
  bool a64 = cn__scan_a64(ctx, tu);
  CN_TRY(cn_pipeline_get(ctx, a64 ? m->single64 : m->single, spec, 4, &scan));
  cn_scan_push pc = {.src = a->src,
                     .dst = a->dst,
                     .partial = a->scratch,
                     .n = (uint32_t)a->n,
                     .exclusive = a->exclusive,
                     .has_partial = blocks > 1};
  if (blocks > 1 && a->state_bytes) {
    /* A persistent state: the region the parity selects is zero; the scan
     * clears the other one as it runs (scan_lb.glsl). */
    uint64_t region = cn__scan_state_region(a->state_bytes), need = cn__scan_region_need(a64, blocks);
    if (need > region)
      return cn_fail(CN_ERROR_INVALID_ARGUMENT,
                     "scan: a look-back state of %llu bytes is too small for %llu elements (%llu blocks): "
                     "cn_scan_state_bytes() gives %llu",
                     (unsigned long long)a->state_bytes, (unsigned long long)a->n, (unsigned long long)blocks,
                     (unsigned long long)(8 + 2 * need));
    pc.state_words = (uint32_t)(region / 4);
  } else if (blocks > 1) { /* the counter and the flags */
    CN_TRY(cn__scan_clear(ctx, cmd, a->scratch, a64 ? 2 * (1 + blocks) : 1 + blocks));
    cn_cmd_barrier(ctx, cmd);
  }
  cn_dispatch(ctx, cmd, scan, &pc, sizeof pc, blocks);
  return CN_OK;
}

cn_result cn_scan_u32(cn_context *ctx, const cn_scan_tuning *tuning, const uint32_t *in, uint32_t *out, uint64_t n,
                      bool exclusive) {
  if (n == 0) return CN_OK;
  if (!in || !out) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scan_u32: NULL array");
  if (n > CN_SCAN_MAX_N)
    return cn_fail(CN_ERROR_LIMIT, "scan of %llu elements: at most %llu", (unsigned long long)n, CN_SCAN_MAX_N);
  cn_scan_args a = {.op = CN_SCAN_U32_ADD, .n = n, .exclusive = exclusive, .tuning = tuning};
  cn_buffer data = {0}, scratch = {0};
  uint64_t bytes = n * 4;
  cn_result r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, bytes, &data);
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, cn_scan_scratch_bytes(ctx, &a), &scratch);
  if (r == CN_OK) r = cn_buffer_upload(ctx, &data, 0, in, bytes);
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  if (r == CN_OK) r = cn_cmd_begin(ctx, &cmd);
  if (r == CN_OK) {
    a.src = a.dst = data.address;
    a.scratch = scratch.address;
    r = cn_scan_record(ctx, cmd, &a);
    cn_cmd_barrier(ctx, cmd);
    cn_result s = cn_cmd_submit(ctx, cmd);
    if (r == CN_OK) r = s;
  }
  if (r == CN_OK) r = cn_buffer_download(ctx, &data, 0, out, bytes);
  cn_buffer_destroy(ctx, &scratch);
  cn_buffer_destroy(ctx, &data);
  return r;
}

void cn_scan_u32_cpu(const uint32_t *in, uint32_t *out, uint64_t n, bool exclusive) {
  uint32_t acc = 0;
  for (uint64_t i = 0; i < n; i++) {
    uint32_t x = in[i];
    out[i] = exclusive ? acc : acc + x;
    acc += x;
  }
}
