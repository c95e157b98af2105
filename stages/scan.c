/* scan.c: host side of the generic monoid scan (see cn_scan.h, shaders/scan.glsl). */
#include "cn_scan.h"
#include "internal.h"
#include "kernels.gen.h"

#include <stdlib.h>

typedef struct cn__scan_monoid {
  int reduce, apply;   /* kernels */
  uint32_t elem_bytes;
} cn__scan_monoid;

static const cn__scan_monoid cn__monoids[CN_SCAN_OP_COUNT] = {
    [CN_SCAN_U32_ADD] = {CN_KERNEL_SCAN_U32_ADD_REDUCE, CN_KERNEL_SCAN_U32_ADD_APPLY, 4},
    [CN_SCAN_U32_MAX] = {CN_KERNEL_SCAN_U32_MAX_REDUCE, CN_KERNEL_SCAN_U32_MAX_APPLY, 4},
    [CN_SCAN_F32_SEG_ADD] = {CN_KERNEL_SCAN_F32_SEG_REDUCE, CN_KERNEL_SCAN_F32_SEG_APPLY, 4},
};

/* Tuning: 256 invocations of 8 items; shared memory is WG * elem_bytes. */
static void cn__scan_shape(const cn_context *ctx, const cn__scan_monoid *m, uint32_t *wg, uint32_t *items) {
  uint32_t w = CN_MIN(256u, ctx->caps.max_workgroup_invocations);
  while (w > 32 && w * m->elem_bytes > ctx->caps.max_shared_memory / 2) w /= 2;
  *wg = cn_floor_pow2(w);
  *items = 8;
}

uint64_t cn_scan_scratch_bytes(cn_context *ctx, cn_scan_op op, uint64_t n) {
  if ((unsigned)op >= CN_SCAN_OP_COUNT) return 0;
  const cn__scan_monoid *m = &cn__monoids[op];
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

cn_result cn_scan_record(cn_context *ctx, VkCommandBuffer cmd, cn_scan_op op, VkDeviceAddress src,
                         VkDeviceAddress dst, VkDeviceAddress scratch, uint64_t n, bool exclusive) {
  if ((unsigned)op >= CN_SCAN_OP_COUNT) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "unknown scan op %d", (int)op);
  if (n >= (1ull << 32)) return cn_fail(CN_ERROR_LIMIT, "scan of %llu elements: at most 2^32-1", (unsigned long long)n);
  if (n == 0) return CN_OK;
  const cn__scan_monoid *m = &cn__monoids[op];
  uint32_t wg, items;
  cn__scan_shape(ctx, m, &wg, &items);
  uint32_t spec[2] = {wg, items};
  VkPipeline reduce, apply;
  CN_TRY(cn_pipeline_get(ctx, m->reduce, spec, 2, &reduce));
  CN_TRY(cn_pipeline_get(ctx, m->apply, spec, 2, &apply));
  return cn__scan_level(ctx, cmd, m, reduce, apply, (uint64_t)wg * items, src, dst, scratch, n, exclusive);
}

cn_result cn_scan_u32(cn_context *ctx, const uint32_t *in, uint32_t *out, uint64_t n, bool exclusive) {
  if (n == 0) return CN_OK;
  if (!in || !out) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scan_u32: NULL array");
  cn_buffer data = {0}, scratch = {0};
  uint64_t bytes = n * 4;
  cn_result r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, bytes, &data);
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, cn_scan_scratch_bytes(ctx, CN_SCAN_U32_ADD, n), &scratch);
  if (r == CN_OK) r = cn_buffer_upload(ctx, &data, 0, in, bytes);
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  if (r == CN_OK) r = cn_cmd_begin(ctx, &cmd);
  if (r == CN_OK) {
    r = cn_scan_record(ctx, cmd, CN_SCAN_U32_ADD, data.address, data.address, scratch.address, n, exclusive);
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
