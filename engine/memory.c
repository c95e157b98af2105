/* memory.c: buffers with device addresses, and standalone upload/download.
 *
 * One VkDeviceMemory per buffer: canopy allocates few, large buffers and keeps
 * them between frames (cn_buffer_reserve), so a sub-allocator would not pay.
 *
 * Device-local allocations of CN_ALLOC_ROUND_FROM bytes or more are made in
 * whole CN_ALLOC_ROUND units. On the H200 (driver 580) the size of one such
 * buffer moved the timing of unrelated passes: doubling the renderer's tile
 * records from 0.5 to 1 MiB at 3840x2160 made flatten's count pass on a
 * 6-element scene 17 -> 25 us (the same with the old kernels and only the
 * buffer larger), and with this rounding it took 18 us again (docs/PERF.md,
 * "Rendering"): the likeliest reading is the driver placing allocations of
 * whole 2 MiB in large pages. The cost is at most 1.5 MiB per buffer of
 * 0.5-2 MiB, and less than 2 MiB on each larger one; it counts against
 * cn_context_desc.max_device_bytes. */
#include "internal.h"

#include <string.h>

#define CN_ALLOC_ROUND ((VkDeviceSize)2 << 20)
#define CN_ALLOC_ROUND_FROM ((VkDeviceSize)512 << 10)

/* The bytes to allocate for a buffer that requires `need` of memory type `kind`. */
static VkDeviceSize cn__alloc_size(cn_memory kind, VkDeviceSize need) {
  if (kind != CN_MEMORY_DEVICE || need < CN_ALLOC_ROUND_FROM || need > ~(VkDeviceSize)0 - CN_ALLOC_ROUND) return need;
  return (need + CN_ALLOC_ROUND - 1) / CN_ALLOC_ROUND * CN_ALLOC_ROUND;
}

static int cn__find_memory_type(const VkPhysicalDeviceMemoryProperties *mp, uint32_t bits,
                                VkMemoryPropertyFlags want, VkMemoryPropertyFlags avoid) {
  for (uint32_t i = 0; i < mp->memoryTypeCount; i++) {
    VkMemoryPropertyFlags f = mp->memoryTypes[i].propertyFlags;
    if ((bits & (1u << i)) && (f & want) == want && (f & avoid) == 0) return (int)i;
  }
  return -1;
}

static int cn__pick_memory_type(const cn_context *ctx, cn_memory kind, uint32_t bits) {
  const VkPhysicalDeviceMemoryProperties *mp = &ctx->memory_props;
  const VkMemoryPropertyFlags hv = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  int t = -1;
  switch (kind) {
    case CN_MEMORY_DEVICE:
      t = cn__find_memory_type(mp, bits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0);
      if (t < 0) t = cn__find_memory_type(mp, bits, 0, 0);
      break;
    case CN_MEMORY_UPLOAD:
      /* Prefer system memory for staging: device-local host-visible (BAR) is small. */
      t = cn__find_memory_type(mp, bits, hv, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
      if (t < 0) t = cn__find_memory_type(mp, bits, hv, 0);
      break;
    case CN_MEMORY_READBACK:
      t = cn__find_memory_type(mp, bits, hv | VK_MEMORY_PROPERTY_HOST_CACHED_BIT, 0);
      if (t < 0) t = cn__find_memory_type(mp, bits, hv, 0);
      break;
  }
  return t;
}

cn_result cn_buffer_create(cn_context *ctx, cn_memory kind, VkDeviceSize size, cn_buffer *out) {
  if (!out) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_buffer_create: out is NULL");
  memset(out, 0, sizeof *out);
  if (!ctx) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_buffer_create: ctx is NULL");
  if (size > ctx->caps.max_allocation_size && ctx->caps.max_allocation_size)
    return cn_fail(CN_ERROR_OUT_OF_MEMORY, "buffer of %llu bytes exceeds the device's maximum allocation of %llu",
                   (unsigned long long)size, (unsigned long long)ctx->caps.max_allocation_size);
  size = size < 16 ? 16 : (size + 15) & ~(VkDeviceSize)15;
  VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                            .size = size,
                            .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                     VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
                                     VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                            .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
  VkBuffer buffer;
  CN_TRY(CN_VK(vkCreateBuffer(ctx->device, &bci, NULL, &buffer)));
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(ctx->device, buffer, &req);
  int type = cn__pick_memory_type(ctx, kind, req.memoryTypeBits);
  if (type < 0) {
    vkDestroyBuffer(ctx->device, buffer, NULL);
    return cn_fail(CN_ERROR_UNSUPPORTED, "no memory type for a %s buffer",
                   kind == CN_MEMORY_DEVICE ? "device" : kind == CN_MEMORY_UPLOAD ? "upload" : "readback");
  }
  VkDeviceSize bytes = cn__alloc_size(kind, req.size);
  if (ctx->max_device_bytes && (bytes > ctx->max_device_bytes || ctx->device_bytes > ctx->max_device_bytes - bytes)) {
    vkDestroyBuffer(ctx->device, buffer, NULL);
    return cn_fail(CN_ERROR_OUT_OF_MEMORY,
                   "a buffer of %llu bytes would take the context past its budget of %llu device bytes (%llu in use)",
                   (unsigned long long)bytes, (unsigned long long)ctx->max_device_bytes,
                   (unsigned long long)ctx->device_bytes);
  }
  VkMemoryAllocateFlagsInfo flags = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
                                     .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT};
  VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                              .pNext = &flags,
                              .allocationSize = bytes,
                              .memoryTypeIndex = (uint32_t)type};
  VkDeviceMemory memory;
  cn_result r = CN_VK(vkAllocateMemory(ctx->device, &mai, NULL, &memory));
  if (r != CN_OK) {
    vkDestroyBuffer(ctx->device, buffer, NULL);
    return r;
  }
  r = CN_VK(vkBindBufferMemory(ctx->device, buffer, memory, 0));
  void *mapped = NULL;
  if (r == CN_OK && (ctx->memory_props.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT))
    r = CN_VK(vkMapMemory(ctx->device, memory, 0, VK_WHOLE_SIZE, 0, &mapped));
  if (r != CN_OK) {
    vkDestroyBuffer(ctx->device, buffer, NULL);
    vkFreeMemory(ctx->device, memory, NULL);
    return r;
  }
  VkBufferDeviceAddressInfo dai = {.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, .buffer = buffer};
  out->buffer = buffer;
  out->memory = memory;
  out->address = vkGetBufferDeviceAddress(ctx->device, &dai);
  out->size = size;
  out->mapped = mapped;
  out->kind = kind;
  out->allocated = bytes;
  ctx->device_bytes += bytes;
  return CN_OK;
}

void cn_buffer_destroy(cn_context *ctx, cn_buffer *buf) {
  if (!ctx || !buf) return;
  if (buf->buffer) vkDestroyBuffer(ctx->device, buf->buffer, NULL);
  if (buf->memory) {
    vkFreeMemory(ctx->device, buf->memory, NULL);
    ctx->device_bytes -= buf->allocated <= ctx->device_bytes ? buf->allocated : ctx->device_bytes;
  }
  memset(buf, 0, sizeof *buf);
}

cn_result cn_buffer_reserve(cn_context *ctx, cn_memory kind, VkDeviceSize size, cn_buffer *buf) {
  if (buf->buffer && buf->size >= size && buf->kind == kind) return CN_OK;
  VkDeviceSize grow = buf->buffer && buf->kind == kind ? buf->size + buf->size / 2 : 0;
  VkDeviceSize want = size > grow ? size : grow;
  if (ctx->caps.max_allocation_size && want > ctx->caps.max_allocation_size && size <= ctx->caps.max_allocation_size)
    want = size;
  cn_buffer_destroy(ctx, buf);
  return cn_buffer_create(ctx, kind, want, buf);
}

/* Copies between a host-visible staging buffer and dst/src in chunks. */
static cn_result cn__staged_copy(cn_context *ctx, const cn_buffer *dev, VkDeviceSize offset, void *host, size_t size,
                                 bool to_device) {
  const VkDeviceSize chunk_max = 64ull << 20;
  cn_buffer staging;
  VkDeviceSize chunk = size < chunk_max ? size : chunk_max;
  CN_TRY(cn_buffer_create(ctx, to_device ? CN_MEMORY_UPLOAD : CN_MEMORY_READBACK, chunk, &staging));
  cn_result r = CN_OK;
  for (size_t done = 0; done < size && r == CN_OK;) {
    size_t n = size - done < chunk ? size - done : (size_t)chunk;
    if (to_device) memcpy(staging.mapped, (char *)host + done, n);
    VkCommandBuffer cmd;
    r = cn_cmd_begin(ctx, &cmd);
    if (r != CN_OK) break;
    VkBufferCopy region = {.srcOffset = to_device ? 0 : offset + done,
                           .dstOffset = to_device ? offset + done : 0,
                           .size = n};
    if (to_device) vkCmdCopyBuffer(cmd, staging.buffer, dev->buffer, 1, &region);
    else vkCmdCopyBuffer(cmd, dev->buffer, staging.buffer, 1, &region);
    VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                          .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                          .dstAccessMask = VK_ACCESS_HOST_READ_BIT | VK_ACCESS_SHADER_READ_BIT};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb, 0, NULL, 0,
                         NULL);
    r = cn_cmd_submit(ctx, cmd);
    if (r == CN_OK && !to_device) memcpy((char *)host + done, staging.mapped, n);
    done += n;
  }
  cn_buffer_destroy(ctx, &staging);
  return r;
}

static cn_result cn__check_range(const cn_buffer *b, VkDeviceSize offset, size_t size, const char *what) {
  if (!b || !b->buffer) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "%s: buffer is not created", what);
  if (offset > b->size || size > b->size - offset)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "%s: range %llu+%zu exceeds buffer size %llu", what,
                   (unsigned long long)offset, size, (unsigned long long)b->size);
  return CN_OK;
}

cn_result cn_buffer_upload(cn_context *ctx, cn_buffer *dst, VkDeviceSize offset, const void *src, size_t size) {
  CN_TRY(cn__check_range(dst, offset, size, "cn_buffer_upload"));
  if (size == 0) return CN_OK;
  if (dst->mapped) {
    memcpy((char *)dst->mapped + offset, src, size);
    return CN_OK;
  }
  return cn__staged_copy(ctx, dst, offset, (void *)src, size, true);
}

cn_result cn_buffer_download(cn_context *ctx, const cn_buffer *src, VkDeviceSize offset, void *dst, size_t size) {
  CN_TRY(cn__check_range(src, offset, size, "cn_buffer_download"));
  if (size == 0) return CN_OK;
  if (src->mapped && src->kind != CN_MEMORY_DEVICE) {
    memcpy(dst, (const char *)src->mapped + offset, size);
    return CN_OK;
  }
  return cn__staged_copy(ctx, src, offset, dst, size, false);
}
