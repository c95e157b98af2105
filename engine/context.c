/* context.c: Vulkan instance/device setup (standalone) or adoption (embedded),
 * device selection and capability queries, validation message counting,
 * and standalone command buffer submission. */
#include "internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CN_VALIDATION_LAYER "VK_LAYER_KHRONOS_validation"

/* ----------------------------------------------------------- validation */

static VKAPI_ATTR VkBool32 VKAPI_CALL cn__debug_callback(
    VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT types,
    const VkDebugUtilsMessengerCallbackDataEXT *data, void *user) {
  cn_context *ctx = user;
  if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
    ctx->validation_count++;
    if (!ctx->quiet) {
      fprintf(stderr, "canopy: validation %s: %s\n",
              severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ? "error" : "warning",
              data && data->pMessage ? data->pMessage : "(no message)");
    }
  }
  return VK_FALSE;
}

static bool cn__has_layer(const char *name) {
  uint32_t n = 0;
  if (vkEnumerateInstanceLayerProperties(&n, NULL) != VK_SUCCESS || n == 0) return false;
  VkLayerProperties *props = calloc(n, sizeof *props);
  if (!props) return false;
  bool found = false;
  if (vkEnumerateInstanceLayerProperties(&n, props) == VK_SUCCESS) {
    for (uint32_t i = 0; i < n; i++) found |= strcmp(props[i].layerName, name) == 0;
  }
  free(props);
  return found;
}

static bool cn__has_instance_ext(const char *name) {
  uint32_t n = 0;
  if (vkEnumerateInstanceExtensionProperties(NULL, &n, NULL) != VK_SUCCESS) return false;
  VkExtensionProperties *props = calloc(n ? n : 1, sizeof *props);
  if (!props) return false;
  bool found = false;
  if (vkEnumerateInstanceExtensionProperties(NULL, &n, props) == VK_SUCCESS) {
    for (uint32_t i = 0; i < n; i++) found |= strcmp(props[i].extensionName, name) == 0;
  }
  free(props);
  return found;
}

/* ------------------------------------------------------- device queries */

typedef struct cn__device_info {
  cn_device_caps caps;
  uint32_t queue_family; /* UINT32_MAX: no compute queue */
  bool usable;           /* has every required feature */
  char why[160];         /* what is missing, when !usable */
  bool has_13_features;  /* Vulkan 1.3 feature struct may be chained */
  bool executable_info;  /* VK_KHR_pipeline_executable_properties and its feature */
} cn__device_info;

static int cn__type_score(VkPhysicalDeviceType t) {
  switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 4;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 3;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 1;
    default: return 0;
  }
}

static bool cn__has_device_ext(VkPhysicalDevice pd, const char *name) {
  uint32_t n = 0;
  if (vkEnumerateDeviceExtensionProperties(pd, NULL, &n, NULL) != VK_SUCCESS) return false;
  VkExtensionProperties *props = calloc(n ? n : 1, sizeof *props);
  if (!props) return false;
  bool found = false;
  if (vkEnumerateDeviceExtensionProperties(pd, NULL, &n, props) == VK_SUCCESS) {
    for (uint32_t i = 0; i < n; i++) found |= strcmp(props[i].extensionName, name) == 0;
  }
  free(props);
  return found;
}

static void cn__query_device(VkPhysicalDevice pd, cn__device_info *info) {
  memset(info, 0, sizeof *info);
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(pd, &props);
  cn_device_caps *c = &info->caps;
  snprintf(c->name, sizeof c->name, "%s", props.deviceName);
  c->type = props.deviceType;
  c->api_version = props.apiVersion;
  c->driver_version = props.driverVersion;
  c->vendor_id = props.vendorID;
  c->max_shared_memory = props.limits.maxComputeSharedMemorySize;
  c->max_workgroup_invocations = props.limits.maxComputeWorkGroupInvocations;
  for (int i = 0; i < 3; i++) {
    c->max_workgroup_size[i] = props.limits.maxComputeWorkGroupSize[i];
    c->max_workgroup_count[i] = props.limits.maxComputeWorkGroupCount[i];
  }
  info->has_13_features = props.apiVersion >= VK_API_VERSION_1_3;

  if (props.apiVersion < VK_API_VERSION_1_2) {
    info->queue_family = UINT32_MAX;
    snprintf(info->why, sizeof info->why, "Vulkan %u.%u < 1.2", VK_API_VERSION_MAJOR(props.apiVersion),
             VK_API_VERSION_MINOR(props.apiVersion));
    return;
  }

  VkPhysicalDeviceSubgroupSizeControlProperties ssc = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES};
  VkPhysicalDeviceDriverProperties drv = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES,
                                          .pNext = info->has_13_features ? &ssc : NULL};
  VkPhysicalDeviceSubgroupProperties sg = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES,
                                           .pNext = &drv};
  VkPhysicalDeviceProperties2 props2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &sg};
  vkGetPhysicalDeviceProperties2(pd, &props2);
  c->subgroup_size = sg.subgroupSize;
  c->min_subgroup_size = info->has_13_features ? ssc.minSubgroupSize : sg.subgroupSize;
  c->max_subgroup_size = info->has_13_features ? ssc.maxSubgroupSize : sg.subgroupSize;
  /* gallivm (llvmpipe) counts the trips of all loops of an invocation and
   * ends them after LP_MAX_TGSI_LOOP_ITERATIONS = 65535. */
  c->max_loop_iterations = drv.driverID == VK_DRIVER_ID_MESA_LLVMPIPE ? 65535u : 0u;

  bool has_exec = cn__has_device_ext(pd, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR fexec = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
  VkPhysicalDeviceVulkan13Features f13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
                                          .pNext = has_exec ? &fexec : NULL};
  VkPhysicalDeviceVulkan12Features f12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                          .pNext = info->has_13_features ? (void *)&f13 : has_exec ? (void *)&fexec : NULL};
  bool has_sucf = cn__has_device_ext(pd, VK_KHR_SHADER_SUBGROUP_UNIFORM_CONTROL_FLOW_EXTENSION_NAME);
  VkPhysicalDeviceShaderSubgroupUniformControlFlowFeaturesKHR fsucf = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_UNIFORM_CONTROL_FLOW_FEATURES_KHR, .pNext = &f12};
  VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                  .pNext = has_sucf ? (void *)&fsucf : (void *)&f12};
  vkGetPhysicalDeviceFeatures2(pd, &f2);
  c->shader_int64 = f2.features.shaderInt64;
  c->buffer_int64_atomics = f12.shaderBufferInt64Atomics;
  c->storage_buffer_8bit = f12.storageBuffer8BitAccess;
  c->subgroup_uniform_control_flow = has_sucf && fsucf.shaderSubgroupUniformControlFlow;
  info->executable_info = has_exec && fexec.pipelineExecutableInfo;
  c->subgroup_size_control = info->has_13_features && f13.subgroupSizeControl && f13.computeFullSubgroups &&
                             (ssc.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT);

  VkPhysicalDeviceMemoryProperties mem;
  vkGetPhysicalDeviceMemoryProperties(pd, &mem);
  for (uint32_t i = 0; i < mem.memoryHeapCount; i++) {
    if ((mem.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) && mem.memoryHeaps[i].size > c->device_local_bytes)
      c->device_local_bytes = mem.memoryHeaps[i].size;
  }
  VkPhysicalDeviceMaintenance3Properties m3 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES};
  VkPhysicalDeviceProperties2 p2m = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &m3};
  vkGetPhysicalDeviceProperties2(pd, &p2m);
  c->max_allocation_size = m3.maxMemoryAllocationSize;

  /* A queue family with compute; prefer one with timestamps. */
  uint32_t nq = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, NULL);
  VkQueueFamilyProperties *qf = calloc(nq ? nq : 1, sizeof *qf);
  info->queue_family = UINT32_MAX;
  if (qf) {
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, qf);
    for (uint32_t i = 0; i < nq; i++) {
      if (!(qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT)) continue;
      bool better = info->queue_family == UINT32_MAX ||
                    (qf[i].timestampValidBits > 0 && c->timestamp_valid_bits == 0) ||
                    ((qf[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) && c->timestamp_valid_bits == qf[i].timestampValidBits &&
                     !(qf[info->queue_family].queueFlags & VK_QUEUE_GRAPHICS_BIT));
      if (better) {
        info->queue_family = i;
        c->timestamp_valid_bits = qf[i].timestampValidBits;
      }
    }
    free(qf);
  }
  c->timestamp_period_ns = c->timestamp_valid_bits ? props.limits.timestampPeriod : 0.0f;

  const char *missing = NULL;
  if (info->queue_family == UINT32_MAX) missing = "a compute queue";
  else if (!f12.bufferDeviceAddress) missing = "bufferDeviceAddress";
  else if (!f12.vulkanMemoryModel) missing = "vulkanMemoryModel";
  else if (!f12.vulkanMemoryModelDeviceScope) missing = "vulkanMemoryModelDeviceScope";
  else if ((sg.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) == 0) missing = "subgroups in compute";
  else if ((sg.supportedOperations & (VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_ARITHMETIC_BIT |
                                      VK_SUBGROUP_FEATURE_BALLOT_BIT | VK_SUBGROUP_FEATURE_SHUFFLE_BIT)) !=
           (VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_ARITHMETIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT |
            VK_SUBGROUP_FEATURE_SHUFFLE_BIT))
    missing = "subgroup basic/arithmetic/ballot/shuffle operations";
  if (missing) snprintf(info->why, sizeof info->why, "lacks %s", missing);
  info->usable = missing == NULL;
}

/* Enumerates physical devices into a malloc'd array. */
static cn_result cn__enumerate(VkInstance instance, VkPhysicalDevice **out, uint32_t *count) {
  *out = NULL;
  *count = 0;
  uint32_t n = 0;
  CN_TRY(CN_VK(vkEnumeratePhysicalDevices(instance, &n, NULL)));
  if (n == 0) return CN_OK;
  VkPhysicalDevice *pds = calloc(n, sizeof *pds);
  if (!pds) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "out of host memory listing devices");
  VkResult vr = vkEnumeratePhysicalDevices(instance, &n, pds);
  if (vr != VK_SUCCESS && vr != VK_INCOMPLETE) {
    free(pds);
    return CN_VK(vr);
  }
  *out = pds;
  *count = n;
  return CN_OK;
}

static bool cn__contains_ci(const char *hay, const char *needle) {
  size_t nl = strlen(needle);
  for (const char *h = hay; *h; h++) {
    size_t i = 0;
    while (i < nl && h[i] && tolower((unsigned char)h[i]) == tolower((unsigned char)needle[i])) i++;
    if (i == nl) return true;
  }
  return nl == 0;
}

/* Picks a device: select is an index, a name substring, or NULL for the best. */
static cn_result cn__choose(const cn__device_info *infos, uint32_t n, const char *select, uint32_t *chosen) {
  if (select && *select) {
    char *end = NULL;
    unsigned long idx = strtoul(select, &end, 10);
    bool numeric = end && *end == 0 && end != select;
    for (uint32_t i = 0; i < n; i++) {
      bool match = numeric ? i == idx : cn__contains_ci(infos[i].caps.name, select);
      if (!match) continue;
      if (!infos[i].usable)
        return cn_fail(CN_ERROR_UNSUPPORTED, "device %u (%s) selected by \"%s\" %s", i, infos[i].caps.name, select,
                       infos[i].why);
      *chosen = i;
      return CN_OK;
    }
    return cn_fail(CN_ERROR_NO_DEVICE, "no Vulkan device matches \"%s\" (%u devices; see `canopy info`)", select, n);
  }
  int best = -1, best_score = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (!infos[i].usable) continue;
    int s = cn__type_score(infos[i].caps.type) + 1;
    if (s > best_score) { best = (int)i; best_score = s; }
  }
  if (best < 0) {
    if (n == 0) return cn_fail(CN_ERROR_NO_DEVICE, "no Vulkan device found (is mesa-vulkan-drivers installed?)");
    return cn_fail(CN_ERROR_NO_DEVICE, "no Vulkan device has what canopy needs: device 0 (%s) %s", infos[0].caps.name,
                   infos[0].why);
  }
  *chosen = (uint32_t)best;
  return CN_OK;
}

static cn_result cn__create_instance(bool validation, VkInstance *out) {
  VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                           .pApplicationName = "canopy",
                           .pEngineName = "canopy",
                           .apiVersion = VK_API_VERSION_1_3};
  uint32_t loader_version = VK_API_VERSION_1_0;
  PFN_vkEnumerateInstanceVersion ev =
      (PFN_vkEnumerateInstanceVersion)vkGetInstanceProcAddr(NULL, "vkEnumerateInstanceVersion");
  if (ev) ev(&loader_version);
  if (loader_version < VK_API_VERSION_1_2)
    return cn_fail(CN_ERROR_UNSUPPORTED, "the Vulkan loader is version %u.%u; canopy needs 1.2",
                   VK_API_VERSION_MAJOR(loader_version), VK_API_VERSION_MINOR(loader_version));
  if (loader_version < VK_API_VERSION_1_3) app.apiVersion = VK_API_VERSION_1_2;

  const char *layers[1];
  const char *exts[1];
  uint32_t nlayers = 0, nexts = 0;
  if (validation) {
    if (!cn__has_layer(CN_VALIDATION_LAYER))
      return cn_fail(CN_ERROR_UNSUPPORTED, "validation requested but %s is not installed (vulkan-validationlayers)",
                     CN_VALIDATION_LAYER);
    if (!cn__has_instance_ext(VK_EXT_DEBUG_UTILS_EXTENSION_NAME))
      return cn_fail(CN_ERROR_UNSUPPORTED, "validation requested but %s is missing", VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    layers[nlayers++] = CN_VALIDATION_LAYER;
    exts[nexts++] = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
  }
  VkInstanceCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                             .pApplicationInfo = &app,
                             .enabledLayerCount = nlayers,
                             .ppEnabledLayerNames = layers,
                             .enabledExtensionCount = nexts,
                             .ppEnabledExtensionNames = exts};
  return CN_VK(vkCreateInstance(&ci, NULL, out));
}

cn_result cn_device_list(const char *select, cn_device_caps *out, uint32_t cap, uint32_t *count, uint32_t *chosen) {
  if (!count) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_device_list: count is NULL");
  *count = 0;
  if (chosen) *chosen = UINT32_MAX;
  VkInstance instance = VK_NULL_HANDLE;
  CN_TRY(cn__create_instance(false, &instance));
  VkPhysicalDevice *pds = NULL;
  uint32_t n = 0;
  cn_result r = cn__enumerate(instance, &pds, &n);
  cn__device_info *infos = n ? calloc(n, sizeof *infos) : NULL;
  if (r == CN_OK && n && !infos) r = cn_fail(CN_ERROR_OUT_OF_MEMORY, "out of host memory");
  if (r == CN_OK) {
    for (uint32_t i = 0; i < n; i++) {
      cn__query_device(pds[i], &infos[i]);
      if (out && i < cap) out[i] = infos[i].caps;
    }
    *count = n;
    uint32_t c = UINT32_MAX;
    if (chosen && cn__choose(infos, n, select, &c) == CN_OK) *chosen = c;
  }
  free(infos);
  free(pds);
  vkDestroyInstance(instance, NULL);
  return r;
}

/* ------------------------------------------------------ context set-up */

/* Creates what a context needs on top of a device: fence, pool, layout. */
static cn_result cn__init_common(cn_context *ctx) {
  vkGetPhysicalDeviceMemoryProperties(ctx->physical_device, &ctx->memory_props);
  VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  CN_TRY(CN_VK(vkCreateFence(ctx->device, &fci, NULL, &ctx->fence)));
  VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                 .flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
                                 .queueFamilyIndex = ctx->queue_family};
  CN_TRY(CN_VK(vkCreateCommandPool(ctx->device, &pci, NULL, &ctx->pool)));
  VkPushConstantRange range = {.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .offset = 0, .size = CN_PUSH_MAX};
  VkPipelineLayoutCreateInfo lci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                    .pushConstantRangeCount = 1,
                                    .pPushConstantRanges = &range};
  CN_TRY(CN_VK(vkCreatePipelineLayout(ctx->device, &lci, NULL, &ctx->layout)));
  ctx->cmd_dispatch_base = (PFN_vkCmdDispatchBase)vkGetDeviceProcAddr(ctx->device, "vkCmdDispatchBase");
  if (!ctx->cmd_dispatch_base) return cn_fail(CN_ERROR_UNSUPPORTED, "vkCmdDispatchBase is not available");
  return CN_OK;
}

static cn_result cn__create_device(cn_context *ctx, const cn__device_info *info, bool statistics) {
  float prio = 1.0f;
  bool exec = statistics && info->executable_info;
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR fexec = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR,
      .pipelineExecutableInfo = VK_TRUE};
  const char *exts[2];
  uint32_t nexts = 0;
  if (exec) exts[nexts++] = VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME;
  bool sucf = info->caps.subgroup_uniform_control_flow;
  if (sucf) exts[nexts++] = VK_KHR_SHADER_SUBGROUP_UNIFORM_CONTROL_FLOW_EXTENSION_NAME;
  VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                 .queueFamilyIndex = info->queue_family,
                                 .queueCount = 1,
                                 .pQueuePriorities = &prio};
  VkPhysicalDeviceVulkan13Features f13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
                                          .pNext = exec ? &fexec : NULL,
                                          .subgroupSizeControl = info->caps.subgroup_size_control,
                                          .computeFullSubgroups = info->caps.subgroup_size_control};
  VkPhysicalDeviceVulkan12Features f12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                          .pNext = info->has_13_features ? (void *)&f13 : exec ? (void *)&fexec : NULL};
  cn_device_features_require(&f12);
  f12.shaderBufferInt64Atomics = info->caps.buffer_int64_atomics; /* optional: the scan's look-back uses it */
  f12.storageBuffer8BitAccess = info->caps.storage_buffer_8bit;    /* optional: the bbox compaction's byte stores */
  /* optional: every kernel then carries the SubgroupUniformControlFlowKHR
   * execution mode (cn_pipeline_get; shaders/README.md) */
  VkPhysicalDeviceShaderSubgroupUniformControlFlowFeaturesKHR fsucf = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_UNIFORM_CONTROL_FLOW_FEATURES_KHR,
      .pNext = &f12,
      .shaderSubgroupUniformControlFlow = VK_TRUE};
  VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                  .pNext = sucf ? (void *)&fsucf : (void *)&f12};
  f2.features.shaderInt64 = info->caps.shader_int64;
  VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                            .pNext = &f2,
                            .queueCreateInfoCount = 1,
                            .pQueueCreateInfos = &qci,
                            .enabledExtensionCount = nexts,
                            .ppEnabledExtensionNames = nexts ? exts : NULL};
  CN_TRY(CN_VK(vkCreateDevice(ctx->physical_device, &dci, NULL, &ctx->device)));
  vkGetDeviceQueue(ctx->device, info->queue_family, 0, &ctx->queue);
  ctx->queue_family = info->queue_family;
  if (exec) {
    ctx->get_executable_properties = (PFN_vkGetPipelineExecutablePropertiesKHR)vkGetDeviceProcAddr(
        ctx->device, "vkGetPipelineExecutablePropertiesKHR");
    ctx->get_executable_statistics = (PFN_vkGetPipelineExecutableStatisticsKHR)vkGetDeviceProcAddr(
        ctx->device, "vkGetPipelineExecutableStatisticsKHR");
    ctx->kernel_statistics = ctx->get_executable_properties && ctx->get_executable_statistics;
  }
  return CN_OK;
}

void cn_device_features_require(VkPhysicalDeviceVulkan12Features *f12) {
  if (!f12) return;
  f12->bufferDeviceAddress = VK_TRUE;
  f12->vulkanMemoryModel = VK_TRUE;
  f12->vulkanMemoryModelDeviceScope = VK_TRUE;
}

static cn_context *cn__alloc_context(void) {
  cn_context *ctx = calloc(1, sizeof *ctx);
  if (!ctx) cn_fail(CN_ERROR_OUT_OF_MEMORY, "out of host memory creating a context");
  return ctx;
}

cn_result cn_context_create(const cn_context_desc *desc, cn_context **out) {
  if (!out) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_context_create: out is NULL");
  *out = NULL;
  cn_context_desc d = desc ? *desc : (cn_context_desc){0};
  cn_context *ctx = cn__alloc_context();
  if (!ctx) return CN_ERROR_OUT_OF_MEMORY;
  ctx->owns_device = true;
  ctx->validation = d.validation;
  if (d.tuning) ctx->tuning = *d.tuning;
  ctx->quiet = d.quiet;
  ctx->timeout_ns = (uint64_t)((d.timeout_s > 0 ? d.timeout_s : 300.0) * 1e9);
  ctx->max_device_bytes = d.max_device_bytes;

  VkPhysicalDevice *pds = NULL;
  cn__device_info *infos = NULL;
  uint32_t n = 0, chosen = 0;
  cn_result r = cn__create_instance(ctx->validation, &ctx->instance);
  if (r == CN_OK && ctx->validation) {
    PFN_vkCreateDebugUtilsMessengerEXT create = (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(
        ctx->instance, "vkCreateDebugUtilsMessengerEXT");
    VkDebugUtilsMessengerCreateInfoEXT mci = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
        .pfnUserCallback = cn__debug_callback,
        .pUserData = ctx};
    r = create ? CN_VK(create(ctx->instance, &mci, NULL, &ctx->messenger))
               : cn_fail(CN_ERROR_UNSUPPORTED, "vkCreateDebugUtilsMessengerEXT not found");
  }
  if (r == CN_OK) r = cn__enumerate(ctx->instance, &pds, &n);
  if (r == CN_OK && n) {
    infos = calloc(n, sizeof *infos);
    if (!infos) r = cn_fail(CN_ERROR_OUT_OF_MEMORY, "out of host memory");
  }
  if (r == CN_OK) {
    for (uint32_t i = 0; i < n; i++) cn__query_device(pds[i], &infos[i]);
    r = cn__choose(infos, n, d.device, &chosen);
  }
  if (r == CN_OK) {
    ctx->physical_device = pds[chosen];
    ctx->caps = infos[chosen].caps;
    r = cn__create_device(ctx, &infos[chosen], d.kernel_statistics);
  }
  if (r == CN_OK) r = cn__init_common(ctx);
  if (r == CN_OK) r = cn__pipeline_cache_open(ctx, d.pipeline_cache_path);
  free(infos);
  free(pds);
  if (r != CN_OK) {
    cn_context_destroy(ctx);
    return r;
  }
  *out = ctx;
  return CN_OK;
}

cn_result cn_context_adopt(const cn_context_adopt_desc *desc, cn_context **out) {
  if (!out) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_context_adopt: out is NULL");
  *out = NULL;
  if (!desc || !desc->instance || !desc->physical_device || !desc->device)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_context_adopt: instance, physical_device and device are required");
  cn__device_info info;
  cn__query_device(desc->physical_device, &info);
  if (!info.usable) return cn_fail(CN_ERROR_UNSUPPORTED, "adopted device %s %s", info.caps.name, info.why);
  uint32_t nq = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(desc->physical_device, &nq, NULL);
  if (desc->queue_family >= nq) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "queue_family %u out of range (%u families)",
                                                 desc->queue_family, nq);
  VkQueueFamilyProperties qf[64];
  uint32_t nq2 = CN_MIN(nq, 64u);
  vkGetPhysicalDeviceQueueFamilyProperties(desc->physical_device, &nq2, qf);
  if (desc->queue_family < nq2) {
    if (!(qf[desc->queue_family].queueFlags & VK_QUEUE_COMPUTE_BIT))
      return cn_fail(CN_ERROR_INVALID_ARGUMENT, "queue family %u has no compute", desc->queue_family);
    info.caps.timestamp_valid_bits = qf[desc->queue_family].timestampValidBits;
    if (!info.caps.timestamp_valid_bits) info.caps.timestamp_period_ns = 0;
  }
  uint32_t opt = desc->optional_features;
  if (opt & ~(uint32_t)(CN_DEVICE_FEATURE_BUFFER_INT64_ATOMICS | CN_DEVICE_FEATURE_SUBGROUP_UNIFORM_CONTROL_FLOW |
                        CN_DEVICE_FEATURE_STORAGE_BUFFER_8BIT))
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_context_adopt: unknown optional_features bits 0x%x", opt);
  if ((opt & CN_DEVICE_FEATURE_BUFFER_INT64_ATOMICS) && !info.caps.buffer_int64_atomics)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_context_adopt: %s does not support shaderBufferInt64Atomics",
                   info.caps.name);
  if ((opt & CN_DEVICE_FEATURE_STORAGE_BUFFER_8BIT) && !info.caps.storage_buffer_8bit)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_context_adopt: %s does not support storageBuffer8BitAccess",
                   info.caps.name);
  if ((opt & CN_DEVICE_FEATURE_SUBGROUP_UNIFORM_CONTROL_FLOW) && !info.caps.subgroup_uniform_control_flow)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_context_adopt: %s does not support %s", info.caps.name,
                   VK_KHR_SHADER_SUBGROUP_UNIFORM_CONTROL_FLOW_EXTENSION_NAME);
  cn_context *ctx = cn__alloc_context();
  if (!ctx) return CN_ERROR_OUT_OF_MEMORY;
  ctx->instance = desc->instance;
  ctx->physical_device = desc->physical_device;
  ctx->device = desc->device;
  ctx->queue = desc->queue;
  ctx->queue_family = desc->queue_family;
  ctx->max_device_bytes = desc->max_device_bytes;
  ctx->caps = info.caps;
  ctx->timeout_ns = (uint64_t)300e9;
  ctx->pipeline_cache = desc->pipeline_cache;
  if (desc->tuning) ctx->tuning = *desc->tuning;
  /* The host decides what it enabled: subgroup size control is not relied
   * on, the optional features only where the host says it enabled them. */
  ctx->caps.subgroup_size_control = false;
  ctx->caps.buffer_int64_atomics = (opt & CN_DEVICE_FEATURE_BUFFER_INT64_ATOMICS) != 0;
  ctx->caps.subgroup_uniform_control_flow = (opt & CN_DEVICE_FEATURE_SUBGROUP_UNIFORM_CONTROL_FLOW) != 0;
  ctx->caps.storage_buffer_8bit = (opt & CN_DEVICE_FEATURE_STORAGE_BUFFER_8BIT) != 0;
  cn_result r = cn__init_common(ctx);
  if (r != CN_OK) {
    cn_context_destroy(ctx);
    return r;
  }
  *out = ctx;
  return CN_OK;
}

void cn_context_destroy(cn_context *ctx) {
  if (!ctx) return;
  if (ctx->device) {
    if (ctx->owns_device) vkDeviceWaitIdle(ctx->device);
    /* Best effort: a cache that cannot be saved costs the next run time only. */
    if (ctx->owns_pipeline_cache) (void)cn__pipeline_cache_save(ctx);
    if (ctx->owns_pipeline_cache && ctx->pipeline_cache) vkDestroyPipelineCache(ctx->device, ctx->pipeline_cache, NULL);
    for (uint32_t i = 0; i < ctx->npipelines; i++) vkDestroyPipeline(ctx->device, ctx->pipelines[i].pipeline, NULL);
    for (uint32_t i = 0; i < ctx->npipelines; i++) free(ctx->pipelines[i].stats);
    if (ctx->layout) vkDestroyPipelineLayout(ctx->device, ctx->layout, NULL);
    if (ctx->pool) vkDestroyCommandPool(ctx->device, ctx->pool, NULL);
    if (ctx->fence) vkDestroyFence(ctx->device, ctx->fence, NULL);
    if (ctx->owns_device) vkDestroyDevice(ctx->device, NULL);
  }
  free(ctx->pipelines);
  free(ctx->cache_path);
  if (ctx->owns_device && ctx->instance) {
    if (ctx->messenger) {
      PFN_vkDestroyDebugUtilsMessengerEXT destroy = (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(
          ctx->instance, "vkDestroyDebugUtilsMessengerEXT");
      if (destroy) destroy(ctx->instance, ctx->messenger, NULL);
    }
    vkDestroyInstance(ctx->instance, NULL);
  }
  free(ctx);
}

const cn_device_caps *cn_context_caps(const cn_context *ctx) { return &ctx->caps; }
uint32_t cn_context_validation_count(const cn_context *ctx) { return ctx ? ctx->validation_count : 0; }
bool cn_context_validation_enabled(const cn_context *ctx) { return ctx && ctx->validation; }
VkDevice cn_context_device(const cn_context *ctx) { return ctx->device; }

/* ------------------------------------------------------------ recording */

cn_result cn_cmd_begin(cn_context *ctx, VkCommandBuffer *out) {
  *out = VK_NULL_HANDLE;
  VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                    .commandPool = ctx->pool,
                                    .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                    .commandBufferCount = 1};
  VkCommandBuffer cmd;
  CN_TRY(CN_VK(vkAllocateCommandBuffers(ctx->device, &ai, &cmd)));
  VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                 .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
  cn_result r = CN_VK(vkBeginCommandBuffer(cmd, &bi));
  if (r != CN_OK) {
    vkFreeCommandBuffers(ctx->device, ctx->pool, 1, &cmd);
    return r;
  }
  *out = cmd;
  return CN_OK;
}

cn_result cn_cmd_submit(cn_context *ctx, VkCommandBuffer cmd) {
  if (!ctx->queue) {
    vkFreeCommandBuffers(ctx->device, ctx->pool, 1, &cmd);
    return cn_fail(CN_ERROR_STATE, "cn_cmd_submit: this context has no queue");
  }
  cn_result r = CN_VK(vkEndCommandBuffer(cmd));
  if (r == CN_OK) {
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd};
    r = CN_VK(vkQueueSubmit(ctx->queue, 1, &si, ctx->fence));
    if (r == CN_OK) {
      VkResult vr = vkWaitForFences(ctx->device, 1, &ctx->fence, VK_TRUE, ctx->timeout_ns);
      if (vr == VK_TIMEOUT) {
        /* The fence is still pending: wait it out before touching the pool. */
        r = cn_fail(CN_ERROR_TIMEOUT, "GPU work did not finish within %.0f s", ctx->timeout_ns / 1e9);
        vkDeviceWaitIdle(ctx->device);
      } else if (vr != VK_SUCCESS) {
        r = CN_VK(vr);
      }
      vkResetFences(ctx->device, 1, &ctx->fence);
    }
  }
  vkFreeCommandBuffers(ctx->device, ctx->pool, 1, &cmd);
  if (r == CN_OK && ctx->validation_count)
    r = cn_fail(CN_ERROR_VALIDATION, "the validation layer reported %u message(s)", ctx->validation_count);
  return r;
}

void cn_cmd_barrier(cn_context *ctx, VkCommandBuffer cmd) {
  (void)ctx;
  VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                        .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                        .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                                         VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &mb, 0, NULL, 0,
                       NULL);
}

void cn_cmd_fill(cn_context *ctx, VkCommandBuffer cmd, const cn_buffer *buf, VkDeviceSize offset, VkDeviceSize size,
                 uint32_t value) {
  (void)ctx;
  if (size == 0) return;
  vkCmdFillBuffer(cmd, buf->buffer, offset, size & ~(VkDeviceSize)3, value);
}

void cn_context_set_tuning(cn_context *ctx, const cn_tuning *tuning) {
  if (!ctx) return;
  if (tuning) ctx->tuning = *tuning;
  else memset(&ctx->tuning, 0, sizeof ctx->tuning);
}

const cn_tuning *cn_context_tuning(const cn_context *ctx) { return ctx ? &ctx->tuning : NULL; }
