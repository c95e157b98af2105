/* pipeline.c: compute pipelines from the embedded SPIR-V, and dispatch.
 *
 * Every kernel uses one pipeline layout (push constants only; buffers are
 * device addresses). Pipelines are built on first use and cached per
 * (kernel, specialization constants), through a VkPipelineCache when the
 * context has one (a file between runs for standalone contexts). */
#include "internal.h"
#include "kernels.gen.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Reads the driver's statistics of every executable of pipeline (a compute
 * pipeline has one; any more are numbered in the names) into e->stats. A
 * failure only leaves the statistics out: they inform, nothing depends on them. */
static void cn__pipeline_stats(cn_context *ctx, VkPipeline pipeline, cn_pipeline_entry *e) {
  VkPipelineInfoKHR pi = {.sType = VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR, .pipeline = pipeline};
  uint32_t nexec = 0;
  if (ctx->get_executable_properties(ctx->device, &pi, &nexec, NULL) != VK_SUCCESS || nexec == 0) return;
  cn_kernel_stat *out = calloc(CN_KERNEL_STATS_MAX, sizeof *out);
  if (!out) return;
  uint32_t nout = 0;
  for (uint32_t x = 0; x < nexec && nout < CN_KERNEL_STATS_MAX; x++) {
    VkPipelineExecutableInfoKHR ei = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR, .pipeline = pipeline, .executableIndex = x};
    VkPipelineExecutableStatisticKHR st[CN_KERNEL_STATS_MAX];
    uint32_t ns = CN_KERNEL_STATS_MAX;
    for (uint32_t i = 0; i < ns; i++) st[i] = (VkPipelineExecutableStatisticKHR){
        .sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR};
    VkResult vr = ctx->get_executable_statistics(ctx->device, &ei, &ns, st);
    if (vr != VK_SUCCESS && vr != VK_INCOMPLETE) continue;
    for (uint32_t i = 0; i < ns && nout < CN_KERNEL_STATS_MAX; i++) {
      cn_kernel_stat *o = &out[nout++];
      if (nexec > 1) snprintf(o->name, sizeof o->name, "%u:%.36s", x, st[i].name); /* names are cut to fit */
      else snprintf(o->name, sizeof o->name, "%.47s", st[i].name);
      switch (st[i].format) {
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
          snprintf(o->value, sizeof o->value, "%s", st[i].value.b32 ? "true" : "false");
          break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
          snprintf(o->value, sizeof o->value, "%" PRId64, st[i].value.i64);
          break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
          snprintf(o->value, sizeof o->value, "%" PRIu64, st[i].value.u64);
          break;
        default:
          snprintf(o->value, sizeof o->value, "%g", st[i].value.f64);
          break;
      }
    }
  }
  e->stats = out;
  e->nstats = nout;
}

/* SPIR-V words this file reads and writes (SPIR-V 1.5 unified specification). */
enum {
  CN__SPV_MAGIC = 0x07230203u,
  CN__OP_EXTENSION = 10,
  CN__OP_EXT_INST_IMPORT = 11,
  CN__OP_MEMORY_MODEL = 14,
  CN__OP_ENTRY_POINT = 15,
  CN__OP_EXECUTION_MODE = 16,
  CN__OP_CAPABILITY = 17,
  CN__OP_EXECUTION_MODE_ID = 331,
  CN__MODE_SUCF = 4421, /* SubgroupUniformControlFlowKHR */
  CN__SUCF_ENTRY_POINTS = 4 /* at most: 4 OpExecutionMode + the OpExtension fit CN_SPIRV_SUCF_EXTRA */
};
static const char cn__sucf_ext[] = "SPV_KHR_subgroup_uniform_control_flow";

/* The layout rules (SPIR-V 2.4, "Logical Layout of a Module") put extensions
 * right after the capabilities and execution modes right after the entry
 * points; both sections end before the debug instructions. The OpExtension
 * goes at the end of the extensions, each OpExecutionMode at the end of the
 * execution modes. */
size_t cn__spirv_add_sucf(const uint32_t *in, size_t nwords, uint32_t *out) {
  if (!in || !out || nwords < 5 || in[0] != CN__SPV_MAGIC || in[1] < 0x00010300u) return 0; /* needs SPIR-V 1.3 */
  size_t ext_end = 0, modes_end = 0, at = 5;
  uint32_t entries[CN__SUCF_ENTRY_POINTS], nentries = 0;
  bool has_mode = false, has_ext = false; /* the mode: on any entry point (kernels have one) */
  while (at < nwords) {
    uint32_t op = in[at] & 0xFFFFu, len = in[at] >> 16;
    if (len == 0 || len > nwords - at) return 0;
    bool preamble = op == CN__OP_CAPABILITY || op == CN__OP_EXTENSION || op == CN__OP_EXT_INST_IMPORT ||
                    op == CN__OP_MEMORY_MODEL || op == CN__OP_ENTRY_POINT || op == CN__OP_EXECUTION_MODE ||
                    op == CN__OP_EXECUTION_MODE_ID;
    if (!preamble) break;
    if (op == CN__OP_CAPABILITY || op == CN__OP_EXTENSION) ext_end = at + len;
    if (op == CN__OP_EXTENSION && len * 4 >= sizeof cn__sucf_ext + 4 &&
        memcmp(&in[at + 1], cn__sucf_ext, sizeof cn__sucf_ext) == 0)
      has_ext = true;
    if (op == CN__OP_ENTRY_POINT) {
      if (len < 3 || nentries == CN__SUCF_ENTRY_POINTS) return 0;
      entries[nentries++] = in[at + 2];
    }
    if (op == CN__OP_EXECUTION_MODE && len == 3 && in[at + 2] == CN__MODE_SUCF) has_mode = true;
    modes_end = at + len;
    at += len;
  }
  if (!ext_end || !nentries || ext_end > modes_end) return 0;
  enum { EXT_WORDS = 1 + (sizeof cn__sucf_ext + 3) / 4 };
  memcpy(out, in, ext_end * 4);
  size_t o = ext_end;
  if (!has_ext) {
    out[o++] = (uint32_t)EXT_WORDS << 16 | CN__OP_EXTENSION;
    memset(&out[o], 0, (EXT_WORDS - 1) * 4);
    memcpy(&out[o], cn__sucf_ext, sizeof cn__sucf_ext);
    o += EXT_WORDS - 1;
  }
  memcpy(&out[o], &in[ext_end], (modes_end - ext_end) * 4);
  o += modes_end - ext_end;
  for (uint32_t i = 0; i < nentries && !has_mode; i++) {
    out[o++] = 3u << 16 | CN__OP_EXECUTION_MODE;
    out[o++] = entries[i];
    out[o++] = CN__MODE_SUCF;
  }
  memcpy(&out[o], &in[modes_end], (nwords - modes_end) * 4);
  return o + (nwords - modes_end);
}

cn_result cn_pipeline_get(cn_context *ctx, int kernel, const uint32_t *spec, uint32_t nspec, VkPipeline *out) {
  *out = VK_NULL_HANDLE;
  if (kernel < 0 || kernel >= CN_KERNEL_COUNT) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "no kernel %d", kernel);
  if (nspec > CN_MAX_SPEC_CONSTANTS) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "too many specialization constants");
  for (uint32_t i = 0; i < ctx->npipelines; i++) {
    const cn_pipeline_entry *e = &ctx->pipelines[i];
    if (e->kernel == kernel && e->nspec == nspec && (nspec == 0 || memcmp(e->spec, spec, nspec * sizeof *spec) == 0)) {
      *out = e->pipeline;
      return CN_OK;
    }
  }
  if (ctx->npipelines == ctx->cap_pipelines) {
    uint32_t cap = ctx->cap_pipelines ? ctx->cap_pipelines * 2 : 32;
    cn_pipeline_entry *p = realloc(ctx->pipelines, cap * sizeof *p);
    if (!p) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "out of host memory");
    ctx->pipelines = p;
    ctx->cap_pipelines = cap;
  }
  const cn_kernel_spirv *k = &cn_kernel_table[kernel];
  VkShaderModuleCreateInfo smci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                   .codeSize = *k->size,
                                   .pCode = (const uint32_t *)(const void *)k->code};
  /* With VK_KHR_shader_subgroup_uniform_control_flow every kernel carries its
   * execution mode: a subgroup whose invocations enter a branch or loop
   * together leaves it together (shaders/README.md, "Subgroup operations and
   * branches"). */
  uint32_t *patched = NULL;
  if (ctx->caps.subgroup_uniform_control_flow) {
    size_t nwords = *k->size / 4;
    patched = malloc((nwords + CN_SPIRV_SUCF_EXTRA) * 4);
    if (!patched) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "out of host memory");
    size_t n = cn__spirv_add_sucf(smci.pCode, nwords, patched);
    if (!n) {
      free(patched);
      return cn_fail(CN_ERROR_INVALID_ARGUMENT, "kernel %s: its SPIR-V takes no execution mode", k->name);
    }
    smci.codeSize = n * 4;
    smci.pCode = patched;
  }
  VkShaderModule module;
  cn_result mr = CN_VK(vkCreateShaderModule(ctx->device, &smci, NULL, &module));
  free(patched);
  CN_TRY(mr);
  VkSpecializationMapEntry entries[CN_MAX_SPEC_CONSTANTS];
  for (uint32_t i = 0; i < nspec; i++)
    entries[i] = (VkSpecializationMapEntry){.constantID = i, .offset = i * 4, .size = 4};
  VkSpecializationInfo si = {.mapEntryCount = nspec, .pMapEntries = entries, .dataSize = nspec * 4, .pData = spec};
  VkComputePipelineCreateInfo cpci = {
      .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
      .flags = VK_PIPELINE_CREATE_DISPATCH_BASE_BIT |
               (ctx->kernel_statistics ? VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR : 0),
      .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                .module = module,
                .pName = "main",
                .pSpecializationInfo = nspec ? &si : NULL},
      .layout = ctx->layout};
  VkPipeline pipeline;
  cn_result r = CN_VK(vkCreateComputePipelines(ctx->device, ctx->pipeline_cache, 1, &cpci, NULL, &pipeline));
  vkDestroyShaderModule(ctx->device, module, NULL);
  if (r != CN_OK) return cn_fail(r, "building kernel %s: %s", k->name, cn_last_error());
  cn_pipeline_entry *e = &ctx->pipelines[ctx->npipelines++];
  memset(e, 0, sizeof *e);
  e->kernel = kernel;
  e->nspec = nspec;
  if (nspec) memcpy(e->spec, spec, nspec * sizeof *spec);
  e->pipeline = pipeline;
  ctx->pipelines_built++;
  if (ctx->kernel_statistics) cn__pipeline_stats(ctx, pipeline, e);
  *out = pipeline;
  return CN_OK;
}

bool cn_context_kernel_statistics(const cn_context *ctx) { return ctx && ctx->kernel_statistics; }

uint32_t cn_context_kernel_count(const cn_context *ctx) { return ctx ? ctx->npipelines : 0; }

cn_result cn_context_kernel_info(const cn_context *ctx, uint32_t i, cn_kernel_info *out) {
  if (!ctx || !out) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_context_kernel_info: NULL argument");
  if (i >= ctx->npipelines)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_context_kernel_info: index %u of %u kernels", i, ctx->npipelines);
  const cn_pipeline_entry *e = &ctx->pipelines[i];
  memset(out, 0, sizeof *out);
  out->kernel = cn_kernel_table[e->kernel].name;
  out->nspec = e->nspec;
  memcpy(out->spec, e->spec, e->nspec * sizeof *e->spec);
  out->nstats = e->nstats;
  if (e->nstats) memcpy(out->stats, e->stats, e->nstats * sizeof *e->stats);
  return CN_OK;
}

void cn_dispatch(cn_context *ctx, VkCommandBuffer cmd, VkPipeline pipeline, const void *push, uint32_t size,
                 uint64_t groups) {
  if (groups == 0) return;
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  if (size) vkCmdPushConstants(cmd, ctx->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, size, push);
  /* Full rows of CN_GROUPS_X, then the remainder as one partial row. */
  uint64_t rows = groups / CN_GROUPS_X;
  uint32_t rem = (uint32_t)(groups % CN_GROUPS_X);
  if (rows) ctx->cmd_dispatch_base(cmd, 0, 0, 0, CN_GROUPS_X, (uint32_t)rows, 1);
  if (rem) ctx->cmd_dispatch_base(cmd, 0, (uint32_t)rows, 0, rem, 1, 1);
}

/* ---------------------------------------------------- pipeline cache file */

/* The file is the driver's pipeline cache data, which starts with
 * VkPipelineCacheHeaderVersionOne: header size, version, vendor ID, device ID,
 * pipeline cache UUID. A file whose header does not match this device and
 * driver is ignored (drivers must cope with foreign data, but not all do it
 * well, and a mismatched file only costs time). */
static bool cn__cache_header_ok(const cn_context *ctx, const uint8_t *data, size_t size) {
  VkPhysicalDeviceProperties p;
  vkGetPhysicalDeviceProperties(ctx->physical_device, &p);
  if (size < 16 + VK_UUID_SIZE) return false;
  uint32_t h[4];
  memcpy(h, data, sizeof h);
  return h[0] >= 16 + VK_UUID_SIZE && h[0] <= size && h[1] == VK_PIPELINE_CACHE_HEADER_VERSION_ONE &&
         h[2] == p.vendorID && h[3] == p.deviceID && memcmp(data + 16, p.pipelineCacheUUID, VK_UUID_SIZE) == 0;
}

#define CN_CACHE_MAX_BYTES (256u << 20) /* a larger file is not ours: ignored */

cn_result cn__pipeline_cache_open(cn_context *ctx, const char *path) {
  uint8_t *data = NULL;
  size_t size = 0;
  FILE *f = path ? fopen(path, "rb") : NULL;
  if (f) {
    if (fseek(f, 0, SEEK_END) == 0) {
      long n = ftell(f);
      if (n > 0 && (unsigned long)n <= CN_CACHE_MAX_BYTES && fseek(f, 0, SEEK_SET) == 0 &&
          (data = malloc((size_t)n)) != NULL) {
        size = fread(data, 1, (size_t)n, f);
        if (size != (size_t)n) size = 0;
      }
    }
    fclose(f);
  }
  if (!cn__cache_header_ok(ctx, data, size)) size = 0;
  VkPipelineCacheCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO,
                                  .initialDataSize = size,
                                  .pInitialData = size ? data : NULL};
  VkResult vr = vkCreatePipelineCache(ctx->device, &ci, NULL, &ctx->pipeline_cache);
  if (vr != VK_SUCCESS && size) { /* the driver refused the data: start empty */
    ci.initialDataSize = 0;
    ci.pInitialData = NULL;
    vr = vkCreatePipelineCache(ctx->device, &ci, NULL, &ctx->pipeline_cache);
  }
  free(data);
  if (vr != VK_SUCCESS) {
    ctx->pipeline_cache = VK_NULL_HANDLE;
    return CN_VK(vr);
  }
  ctx->owns_pipeline_cache = true;
  if (path) {
    ctx->cache_path = malloc(strlen(path) + 1);
    if (!ctx->cache_path) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "out of host memory");
    strcpy(ctx->cache_path, path);
  }
  return CN_OK;
}

bool cn__pipeline_cache_save(cn_context *ctx) {
  if (!ctx->pipeline_cache || !ctx->cache_path || ctx->pipelines_built == 0) return true;
  /* Records no error message: this runs inside cn_context_destroy(), after
   * the failure a caller may still be reporting. */
  size_t size = 0;
  if (vkGetPipelineCacheData(ctx->device, ctx->pipeline_cache, &size, NULL) != VK_SUCCESS || size == 0) return false;
  uint8_t *data = malloc(size);
  size_t len = strlen(ctx->cache_path);
  char *tmp = malloc(len + 8);
  bool ok = data && tmp && vkGetPipelineCacheData(ctx->device, ctx->pipeline_cache, &size, data) == VK_SUCCESS;
  if (ok) {
    /* Written next to the file and renamed over it: readers see the old file
     * or the new one, never a part (several processes may save at once). */
    memcpy(tmp, ctx->cache_path, len);
    memcpy(tmp + len, ".XXXXXX", 8);
    int fd = mkstemp(tmp);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!f && fd >= 0) close(fd);
    ok = f != NULL;
    if (f) {
      ok = fwrite(data, 1, size, f) == size;
      ok &= fclose(f) == 0;
      ok = ok && rename(tmp, ctx->cache_path) == 0;
      if (!ok) unlink(tmp);
    }
  }
  free(tmp);
  free(data);
  return ok;
}
_Static_assert(CN_MAX_SPEC_CONSTANTS <= sizeof(((cn_kernel_info *)0)->spec) / sizeof(uint32_t), "cn_kernel_info.spec holds every constant");
