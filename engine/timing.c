/* timing.c: GPU timestamps between stages (one query pool per timer). */
#include "internal.h"

#include <stdlib.h>

struct cn_timer {
  VkQueryPool pool;
  uint32_t capacity;
  uint32_t used;
  uint32_t dropped;
  const char **labels;
};

cn_result cn_timer_create(cn_context *ctx, uint32_t capacity, cn_timer **out) {
  *out = NULL;
  if (capacity < 2) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "a timer needs at least 2 timestamps");
  if (!ctx->caps.timestamp_valid_bits) return cn_fail(CN_ERROR_UNSUPPORTED, "the queue has no timestamps");
  cn_timer *t = calloc(1, sizeof *t);
  const char **labels = calloc(capacity, sizeof *labels);
  if (!t || !labels) {
    free(t);
    free(labels);
    return cn_fail(CN_ERROR_OUT_OF_MEMORY, "out of host memory");
  }
  VkQueryPoolCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                               .queryType = VK_QUERY_TYPE_TIMESTAMP,
                               .queryCount = capacity};
  cn_result r = CN_VK(vkCreateQueryPool(ctx->device, &qci, NULL, &t->pool));
  if (r != CN_OK) {
    free(t);
    free(labels);
    return r;
  }
  t->capacity = capacity;
  t->labels = labels;
  *out = t;
  return CN_OK;
}

void cn_timer_destroy(cn_context *ctx, cn_timer *t) {
  if (!t) return;
  if (t->pool) vkDestroyQueryPool(ctx->device, t->pool, NULL);
  free(t->labels);
  free(t);
}

void cn_timer_reset(cn_context *ctx, cn_timer *t, VkCommandBuffer cmd) {
  (void)ctx;
  vkCmdResetQueryPool(cmd, t->pool, 0, t->capacity);
  t->used = 0;
  t->dropped = 0;
}

void cn_timer_mark(cn_context *ctx, cn_timer *t, VkCommandBuffer cmd, const char *label) {
  (void)ctx;
  if (t->used == t->capacity) {
    t->dropped++;
    return;
  }
  t->labels[t->used] = label;
  vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, t->pool, t->used);
  t->used++;
}

cn_result cn_timer_read(cn_context *ctx, cn_timer *t, uint32_t *nspans, const char **labels, double *ns,
                        uint32_t cap) {
  *nspans = 0;
  if (t->used < 2) return CN_OK;
  uint64_t stamps[256];
  uint32_t n = CN_MIN(t->used, (uint32_t)CN_ARRAY_LEN(stamps));
  CN_TRY(CN_VK(vkGetQueryPoolResults(ctx->device, t->pool, 0, n, sizeof stamps, stamps, sizeof stamps[0],
                                     VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT)));
  uint64_t mask = ctx->caps.timestamp_valid_bits >= 64 ? ~0ull : (1ull << ctx->caps.timestamp_valid_bits) - 1;
  uint32_t spans = CN_MIN(n - 1, cap);
  for (uint32_t i = 0; i < spans; i++) {
    uint64_t d = (stamps[i + 1] - stamps[i]) & mask;
    if (labels) labels[i] = t->labels[i + 1];
    if (ns) ns[i] = (double)d * ctx->caps.timestamp_period_ns;
  }
  *nspans = spans;
  return CN_OK;
}
