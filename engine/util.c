/* util.c: small kernels every stage and benchmark may use: iota and copy. */
#include "internal.h"
#include "kernels.gen.h"

cn_result cn_iota_record(cn_context *ctx, VkCommandBuffer cmd, VkDeviceAddress dst, uint32_t n, uint32_t base) {
  VkPipeline p;
  CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_IOTA_U32, NULL, 0, &p));
  cn_util_push pc = {.dst = dst, .n = n, .base = base};
  cn_dispatch(ctx, cmd, p, &pc, sizeof pc, CN_DIV_UP((uint64_t)n, 64));
  return CN_OK;
}

cn_result cn_copy_record(cn_context *ctx, VkCommandBuffer cmd, VkDeviceAddress src, VkDeviceAddress dst,
                              uint64_t bytes) {
  if (bytes % 16) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "copy of %llu bytes: not a multiple of 16",
                                 (unsigned long long)bytes);
  if (bytes / 16 >= (1ull << 32)) return cn_fail(CN_ERROR_LIMIT, "copy of %llu bytes: too large",
                                                 (unsigned long long)bytes);
  VkPipeline p;
  CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_COPY_U32X4, NULL, 0, &p));
  cn_util_push pc = {.src = src, .dst = dst, .n = (uint32_t)(bytes / 16)};
  cn_dispatch(ctx, cmd, p, &pc, sizeof pc, CN_DIV_UP(bytes / 16, 1024));
  return CN_OK;
}

cn_result cn_cmd_dispatch_empty(cn_context *ctx, VkCommandBuffer cmd) {
  if (!ctx || !cmd) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_cmd_dispatch_empty: NULL argument");
  VkPipeline p;
  CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_NOOP, NULL, 0, &p));
  cn_util_push pc = {0};
  cn_dispatch(ctx, cmd, p, &pc, sizeof pc, 1);
  return CN_OK;
}
