/* host.c: the viewer's Vulkan instance, device, swapchain and command buffers.
 *
 * This is the "engine" side of the embedding: nothing here is canopy's. The
 * device is created with the features canopy asks for
 * (cn_device_features_require), on the device canopy itself would choose
 * (cn_device_list, so CANOPY_DEVICE works here too) when it can present to
 * the window. With validation on, the layer's warnings and errors are printed
 * and counted the way canopy counts them for its own contexts.
 */
#include "host.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VW_VALIDATION_LAYER "VK_LAYER_KHRONOS_validation"

static bool vw__fail(char *err, size_t cap, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, cap, fmt, ap);
  va_end(ap);
  return false;
}

#define VW_CHECK(call)                                                                      \
  do {                                                                                      \
    VkResult vw_r_ = (call);                                                                \
    if (vw_r_ != VK_SUCCESS)                                                                \
      return vw__fail(err, errcap, "%s failed: %s (%s:%d)", #call, cn_vk_result_name(vw_r_), \
                      __FILE__, __LINE__);                                                  \
  } while (0)

static VKAPI_ATTR VkBool32 VKAPI_CALL vw__debug(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                VkDebugUtilsMessageTypeFlagsEXT types,
                                                const VkDebugUtilsMessengerCallbackDataEXT *data, void *user) {
  vw_host *h = user;
  if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
    h->validation_count++;
    fprintf(stderr, "canopy-view: validation %s: %s\n",
            severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ? "error" : "warning",
            data && data->pMessage ? data->pMessage : "(no message)");
  }
  return VK_FALSE;
}

static bool vw__has_layer(const char *name) {
  uint32_t n = 0;
  if (vkEnumerateInstanceLayerProperties(&n, NULL) != VK_SUCCESS || n == 0) return false;
  VkLayerProperties *p = calloc(n, sizeof *p);
  bool found = false;
  if (p && vkEnumerateInstanceLayerProperties(&n, p) == VK_SUCCESS)
    for (uint32_t i = 0; i < n; i++) found |= strcmp(p[i].layerName, name) == 0;
  free(p);
  return found;
}

static bool vw__create_instance(vw_host *h, char *err, size_t errcap) {
  uint32_t nglfw = 0;
  const char **glfw_exts = glfwGetRequiredInstanceExtensions(&nglfw);
  if (!glfw_exts) return vw__fail(err, errcap, "GLFW finds no Vulkan surface extensions for this display");
  const char *exts[16];
  uint32_t next = 0;
  for (uint32_t i = 0; i < nglfw && next < 15; i++) exts[next++] = glfw_exts[i];
  const char *layers[1];
  uint32_t nlayers = 0;
  if (h->validation) {
    if (!vw__has_layer(VW_VALIDATION_LAYER))
      return vw__fail(err, errcap, "CANOPY_VALIDATION=1 but %s is not installed (vulkan-validationlayers)",
                      VW_VALIDATION_LAYER);
    layers[nlayers++] = VW_VALIDATION_LAYER;
    exts[next++] = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
  }
  VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                           .pApplicationName = "canopy-view",
                           .pEngineName = "canopy-view",
                           .apiVersion = VK_API_VERSION_1_2};
  VkInstanceCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                             .pApplicationInfo = &app,
                             .enabledLayerCount = nlayers,
                             .ppEnabledLayerNames = layers,
                             .enabledExtensionCount = next,
                             .ppEnabledExtensionNames = exts};
  VW_CHECK(vkCreateInstance(&ci, NULL, &h->instance));
  if (h->validation) {
    PFN_vkCreateDebugUtilsMessengerEXT create =
        (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(h->instance, "vkCreateDebugUtilsMessengerEXT");
    if (!create) return vw__fail(err, errcap, "vkCreateDebugUtilsMessengerEXT not found");
    VkDebugUtilsMessengerCreateInfoEXT mci = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity =
            VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
        .pfnUserCallback = vw__debug,
        .pUserData = h};
    VW_CHECK(create(h->instance, &mci, NULL, &h->messenger));
  }
  return true;
}

const char *vw_present_mode_name(VkPresentModeKHR mode) {
  switch (mode) {
    case VK_PRESENT_MODE_FIFO_KHR: return "FIFO";
    case VK_PRESENT_MODE_FIFO_RELAXED_KHR: return "FIFO_RELAXED";
    case VK_PRESENT_MODE_MAILBOX_KHR: return "MAILBOX";
    case VK_PRESENT_MODE_IMMEDIATE_KHR: return "IMMEDIATE";
    default: return "other";
  }
}

/* A queue family with graphics, compute and presentation to the surface. */
static uint32_t vw__family(VkPhysicalDevice pd, VkSurfaceKHR surface) {
  uint32_t n = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, NULL);
  VkQueueFamilyProperties qf[32];
  if (n > 32) n = 32;
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, qf);
  for (uint32_t i = 0; i < n; i++) {
    VkBool32 present = VK_FALSE;
    vkGetPhysicalDeviceSurfaceSupportKHR(pd, i, surface, &present);
    VkQueueFlags need = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
    if ((qf[i].queueFlags & need) == need && present) return i;
  }
  return UINT32_MAX;
}

static bool vw__pick_device(vw_host *h, char *err, size_t errcap) {
  /* The device canopy would choose (CANOPY_DEVICE included), matched by name. */
  cn_device_caps caps[16];
  uint32_t ncaps = 0, chosen = UINT32_MAX;
  const char *want = NULL;
  if (cn_device_list(getenv("CANOPY_DEVICE"), caps, 16, &ncaps, &chosen) == CN_OK && chosen < ncaps && chosen < 16)
    want = caps[chosen].name;
  else if (getenv("CANOPY_DEVICE"))
    return vw__fail(err, errcap, "CANOPY_DEVICE=%s: %s", getenv("CANOPY_DEVICE"), cn_last_error());

  uint32_t n = 0;
  VW_CHECK(vkEnumeratePhysicalDevices(h->instance, &n, NULL));
  if (n == 0) return vw__fail(err, errcap, "no Vulkan device found (is mesa-vulkan-drivers installed?)");
  VkPhysicalDevice pds[16];
  if (n > 16) n = 16;
  VkResult vr = vkEnumeratePhysicalDevices(h->instance, &n, pds);
  if (vr != VK_SUCCESS && vr != VK_INCOMPLETE)
    return vw__fail(err, errcap, "vkEnumeratePhysicalDevices failed: %s", cn_vk_result_name(vr));
  int best = -1;
  for (uint32_t pass = 0; pass < 2 && best < 0; pass++) {
    for (uint32_t i = 0; i < n && best < 0; i++) {
      VkPhysicalDeviceProperties p;
      vkGetPhysicalDeviceProperties(pds[i], &p);
      if (p.apiVersion < VK_API_VERSION_1_2) continue;
      if (pass == 0 && want && strcmp(p.deviceName, want) != 0) continue;
      uint32_t fam = vw__family(pds[i], h->surface);
      if (fam == UINT32_MAX) continue;
      best = (int)i;
      h->family = fam;
      snprintf(h->gpu_name, sizeof h->gpu_name, "%s", p.deviceName);
    }
  }
  if (best < 0) return vw__fail(err, errcap, "no Vulkan 1.2 device can draw to this window");
  h->gpu = pds[best];
  vkGetPhysicalDeviceMemoryProperties(h->gpu, &h->memory);
  return true;
}

static bool vw__has_device_ext(VkPhysicalDevice pd, const char *name) {
  uint32_t n = 0;
  if (vkEnumerateDeviceExtensionProperties(pd, NULL, &n, NULL) != VK_SUCCESS || n == 0) return false;
  VkExtensionProperties *e = calloc(n, sizeof *e);
  bool found = false;
  if (e && vkEnumerateDeviceExtensionProperties(pd, NULL, &n, e) == VK_SUCCESS)
    for (uint32_t i = 0; i < n; i++) found |= strcmp(e[i].extensionName, name) == 0;
  free(e);
  return found;
}

static bool vw__create_device(vw_host *h, char *err, size_t errcap) {
  float prio = 1.0f;
  VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                 .queueFamilyIndex = h->family,
                                 .queueCount = 1,
                                 .pQueuePriorities = &prio};
  /* canopy's optional features, where the device has them (named to canopy
   * in cn_context_adopt_desc.optional_features by gpu.c) */
  bool has_sucf = vw__has_device_ext(h->gpu, VK_KHR_SHADER_SUBGROUP_UNIFORM_CONTROL_FLOW_EXTENSION_NAME);
  VkPhysicalDeviceShaderSubgroupUniformControlFlowFeaturesKHR sucf = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_UNIFORM_CONTROL_FLOW_FEATURES_KHR};
  VkPhysicalDeviceVulkan12Features have12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                             .pNext = has_sucf ? &sucf : NULL};
  VkPhysicalDeviceFeatures2 have = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &have12};
  vkGetPhysicalDeviceFeatures2(h->gpu, &have);
  has_sucf = has_sucf && sucf.shaderSubgroupUniformControlFlow;
  VkPhysicalDeviceVulkan12Features f12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  cn_device_features_require(&f12);
  f12.shaderBufferInt64Atomics = have12.shaderBufferInt64Atomics;
  f12.storageBuffer8BitAccess = have12.storageBuffer8BitAccess;
  sucf.pNext = &f12;
  VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                  .pNext = has_sucf ? (void *)&sucf : (void *)&f12};
  f2.features.shaderInt64 = have.features.shaderInt64;
  const char *exts[] = {VK_KHR_SWAPCHAIN_EXTENSION_NAME, VK_KHR_SHADER_SUBGROUP_UNIFORM_CONTROL_FLOW_EXTENSION_NAME};
  VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                            .pNext = &f2,
                            .queueCreateInfoCount = 1,
                            .pQueueCreateInfos = &qci,
                            .enabledExtensionCount = has_sucf ? 2 : 1,
                            .ppEnabledExtensionNames = exts};
  VW_CHECK(vkCreateDevice(h->gpu, &dci, NULL, &h->device));
  h->optional_features = (f12.shaderBufferInt64Atomics ? CN_DEVICE_FEATURE_BUFFER_INT64_ATOMICS : 0u) |
                         (has_sucf ? CN_DEVICE_FEATURE_SUBGROUP_UNIFORM_CONTROL_FLOW : 0u) |
                         (f12.storageBuffer8BitAccess ? CN_DEVICE_FEATURE_STORAGE_BUFFER_8BIT : 0u);
  vkGetDeviceQueue(h->device, h->family, 0, &h->queue);

  VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                 .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                 .queueFamilyIndex = h->family};
  VW_CHECK(vkCreateCommandPool(h->device, &pci, NULL, &h->pool));
  VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                    .commandPool = h->pool,
                                    .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                    .commandBufferCount = 1};
  VW_CHECK(vkAllocateCommandBuffers(h->device, &ai, &h->cmd));
  VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VW_CHECK(vkCreateFence(h->device, &fci, NULL, &h->fence));
  VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  VW_CHECK(vkCreateSemaphore(h->device, &sci, NULL, &h->acquired));
  return true;
}

static bool vw__pick_format(vw_host *h, char *err, size_t errcap) {
  uint32_t n = 0;
  VW_CHECK(vkGetPhysicalDeviceSurfaceFormatsKHR(h->gpu, h->surface, &n, NULL));
  VkSurfaceFormatKHR f[64];
  if (n > 64) n = 64;
  VW_CHECK(vkGetPhysicalDeviceSurfaceFormatsKHR(h->gpu, h->surface, &n, f));
  /* UNORM, not SRGB: canopy composites in sRGB and writes the bytes as they are. */
  for (uint32_t i = 0; i < n; i++) {
    if (f[i].format == VK_FORMAT_B8G8R8A8_UNORM || f[i].format == VK_FORMAT_R8G8B8A8_UNORM) {
      h->format = f[i].format;
      h->format_bgr = f[i].format == VK_FORMAT_B8G8R8A8_UNORM;
      return true;
    }
  }
  return vw__fail(err, errcap, "the window offers no 8-bit UNORM RGBA/BGRA surface format (%u formats)", n);
}

static bool vw__create_render_pass(vw_host *h, char *err, size_t errcap) {
  VkAttachmentDescription color = {.format = h->format,
                                   .samples = VK_SAMPLE_COUNT_1_BIT,
                                   .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                   .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
                                   .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                   .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                   .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
                                   .finalLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR};
  VkAttachmentReference ref = {.attachment = 0, .layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkSubpassDescription sub = {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
                              .colorAttachmentCount = 1,
                              .pColorAttachments = &ref};
  /* The acquire semaphore waits at colour output; make the layout change wait too. */
  VkSubpassDependency dep = {.srcSubpass = VK_SUBPASS_EXTERNAL,
                             .dstSubpass = 0,
                             .srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                             .dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                             .srcAccessMask = 0,
                             .dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT};
  VkRenderPassCreateInfo rci = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
                                .attachmentCount = 1,
                                .pAttachments = &color,
                                .subpassCount = 1,
                                .pSubpasses = &sub,
                                .dependencyCount = 1,
                                .pDependencies = &dep};
  VW_CHECK(vkCreateRenderPass(h->device, &rci, NULL, &h->render_pass));
  return true;
}

bool vw_host_create(vw_host *h, GLFWwindow *window, bool validation, char *err, size_t errcap) {
  bool vsync = h->vsync; /* the one setting made before */
  memset(h, 0, sizeof *h);
  h->vsync = vsync;
  h->window = window;
  h->validation = validation;
  bool ok = vw__create_instance(h, err, errcap);
  if (ok) {
    VkResult vr = glfwCreateWindowSurface(h->instance, window, NULL, &h->surface);
    if (vr != VK_SUCCESS) ok = vw__fail(err, errcap, "glfwCreateWindowSurface failed: %s", cn_vk_result_name(vr));
  }
  ok = ok && vw__pick_device(h, err, errcap) && vw__create_device(h, err, errcap) && vw__pick_format(h, err, errcap) &&
       vw__create_render_pass(h, err, errcap) && vw_host_swapchain(h, err, errcap);
  if (!ok) vw_host_destroy(h);
  return ok;
}

static void vw__destroy_swapchain_views(vw_host *h) {
  for (uint32_t i = 0; i < h->image_count; i++) {
    if (h->framebuffers[i]) vkDestroyFramebuffer(h->device, h->framebuffers[i], NULL);
    if (h->views[i]) vkDestroyImageView(h->device, h->views[i], NULL);
    if (h->rendered[i]) vkDestroySemaphore(h->device, h->rendered[i], NULL);
    h->framebuffers[i] = VK_NULL_HANDLE;
    h->views[i] = VK_NULL_HANDLE;
    h->rendered[i] = VK_NULL_HANDLE;
  }
  h->image_count = 0;
}

bool vw_host_swapchain(vw_host *h, char *err, size_t errcap) {
  vkDeviceWaitIdle(h->device);
  vw__destroy_swapchain_views(h);
  VkSurfaceCapabilitiesKHR caps;
  VW_CHECK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(h->gpu, h->surface, &caps));
  int fw = 0, fh = 0;
  glfwGetFramebufferSize(h->window, &fw, &fh);
  VkExtent2D ext = caps.currentExtent;
  if (ext.width == UINT32_MAX) {
    ext.width = (uint32_t)fw;
    ext.height = (uint32_t)fh;
  }
  if (ext.width < caps.minImageExtent.width) ext.width = caps.minImageExtent.width;
  if (ext.height < caps.minImageExtent.height) ext.height = caps.minImageExtent.height;
  if (ext.width > caps.maxImageExtent.width) ext.width = caps.maxImageExtent.width;
  if (ext.height > caps.maxImageExtent.height) ext.height = caps.maxImageExtent.height;
  if (ext.width == 0 || ext.height == 0 || fw == 0 || fh == 0) { /* minimised */
    h->extent = (VkExtent2D){0, 0};
    return true;
  }
  VkImageUsageFlags usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  if ((caps.supportedUsageFlags & usage) != usage)
    return vw__fail(err, errcap, "the swapchain cannot be a transfer source (needed for --screenshot)");

  uint32_t nmodes = 0;
  VkPresentModeKHR modes[16];
  VW_CHECK(vkGetPhysicalDeviceSurfacePresentModesKHR(h->gpu, h->surface, &nmodes, NULL));
  if (nmodes > 16) nmodes = 16;
  VW_CHECK(vkGetPhysicalDeviceSurfacePresentModesKHR(h->gpu, h->surface, &nmodes, modes));
  /* vsync: FIFO, always there. Without: MAILBOX (no tearing), else IMMEDIATE,
   * else FIFO after all (the HUD shows which one is in use). */
  h->present_mode = VK_PRESENT_MODE_FIFO_KHR;
  if (!h->vsync) {
    bool mailbox = false, immediate = false;
    for (uint32_t i = 0; i < nmodes; i++) {
      mailbox |= modes[i] == VK_PRESENT_MODE_MAILBOX_KHR;
      immediate |= modes[i] == VK_PRESENT_MODE_IMMEDIATE_KHR;
    }
    h->present_mode = mailbox ? VK_PRESENT_MODE_MAILBOX_KHR : immediate ? VK_PRESENT_MODE_IMMEDIATE_KHR
                                                                       : VK_PRESENT_MODE_FIFO_KHR;
  }

  uint32_t want = caps.minImageCount + 1;
  if (caps.maxImageCount && want > caps.maxImageCount) want = caps.maxImageCount;
  if (want > VW_MAX_IMAGES) want = VW_MAX_IMAGES;
  VkSwapchainKHR old = h->swapchain;
  VkSwapchainCreateInfoKHR sci = {.sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR,
                                  .surface = h->surface,
                                  .minImageCount = want,
                                  .imageFormat = h->format,
                                  .imageColorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR,
                                  .imageExtent = ext,
                                  .imageArrayLayers = 1,
                                  .imageUsage = usage,
                                  .imageSharingMode = VK_SHARING_MODE_EXCLUSIVE,
                                  .preTransform = caps.currentTransform,
                                  .compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR,
                                  .presentMode = h->present_mode,
                                  .clipped = VK_TRUE,
                                  .oldSwapchain = old};
  if (!(caps.supportedCompositeAlpha & VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR))
    sci.compositeAlpha = VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR;
  VkResult vr = vkCreateSwapchainKHR(h->device, &sci, NULL, &h->swapchain);
  if (old) vkDestroySwapchainKHR(h->device, old, NULL);
  if (vr != VK_SUCCESS) {
    h->swapchain = VK_NULL_HANDLE;
    return vw__fail(err, errcap, "vkCreateSwapchainKHR (%ux%u) failed: %s", ext.width, ext.height,
                    cn_vk_result_name(vr));
  }
  h->extent = ext;
  uint32_t n = 0;
  VW_CHECK(vkGetSwapchainImagesKHR(h->device, h->swapchain, &n, NULL));
  if (n > VW_MAX_IMAGES) return vw__fail(err, errcap, "the swapchain has %u images (at most %d handled)", n, VW_MAX_IMAGES);
  VW_CHECK(vkGetSwapchainImagesKHR(h->device, h->swapchain, &n, h->images));
  h->image_count = n;
  for (uint32_t i = 0; i < n; i++) {
    VkImageViewCreateInfo vci = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                 .image = h->images[i],
                                 .viewType = VK_IMAGE_VIEW_TYPE_2D,
                                 .format = h->format,
                                 .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
    VW_CHECK(vkCreateImageView(h->device, &vci, NULL, &h->views[i]));
    VkFramebufferCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
                                   .renderPass = h->render_pass,
                                   .attachmentCount = 1,
                                   .pAttachments = &h->views[i],
                                   .width = ext.width,
                                   .height = ext.height,
                                   .layers = 1};
    VW_CHECK(vkCreateFramebuffer(h->device, &fci, NULL, &h->framebuffers[i]));
    VkSemaphoreCreateInfo sem = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    VW_CHECK(vkCreateSemaphore(h->device, &sem, NULL, &h->rendered[i]));
  }
  return true;
}

void vw_host_destroy(vw_host *h) {
  if (h->device) {
    vkDeviceWaitIdle(h->device);
    vw__destroy_swapchain_views(h);
    if (h->swapchain) vkDestroySwapchainKHR(h->device, h->swapchain, NULL);
    if (h->render_pass) vkDestroyRenderPass(h->device, h->render_pass, NULL);
    if (h->acquired) vkDestroySemaphore(h->device, h->acquired, NULL);
    if (h->fence) vkDestroyFence(h->device, h->fence, NULL);
    if (h->pool) vkDestroyCommandPool(h->device, h->pool, NULL);
    vkDestroyDevice(h->device, NULL);
  }
  if (h->instance) {
    if (h->surface) vkDestroySurfaceKHR(h->instance, h->surface, NULL);
    if (h->messenger) {
      PFN_vkDestroyDebugUtilsMessengerEXT destroy =
          (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(h->instance, "vkDestroyDebugUtilsMessengerEXT");
      if (destroy) destroy(h->instance, h->messenger, NULL);
    }
    vkDestroyInstance(h->instance, NULL);
  }
  uint32_t count = h->validation_count;
  GLFWwindow *w = h->window;
  memset(h, 0, sizeof *h);
  h->validation_count = count;
  h->window = w;
}

VkResult vw_host_begin(vw_host *h, VkCommandBuffer cmd) {
  VkResult vr = vkResetCommandBuffer(cmd, 0);
  if (vr != VK_SUCCESS) return vr;
  VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                 .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
  return vkBeginCommandBuffer(cmd, &bi);
}

VkResult vw_host_submit_wait(vw_host *h, VkCommandBuffer cmd, VkSemaphore wait, VkSemaphore signal) {
  VkResult vr = vkEndCommandBuffer(cmd);
  if (vr != VK_SUCCESS) return vr;
  VkPipelineStageFlags stage = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                     .waitSemaphoreCount = wait ? 1 : 0,
                     .pWaitSemaphores = &wait,
                     .pWaitDstStageMask = &stage,
                     .commandBufferCount = 1,
                     .pCommandBuffers = &cmd,
                     .signalSemaphoreCount = signal ? 1 : 0,
                     .pSignalSemaphores = &signal};
  vr = vkQueueSubmit(h->queue, 1, &si, h->fence);
  if (vr != VK_SUCCESS) return vr;
  vr = vkWaitForFences(h->device, 1, &h->fence, VK_TRUE, 60ull * 1000000000ull);
  if (vr == VK_TIMEOUT) {
    vkDeviceWaitIdle(h->device);
  }
  VkResult rr = vkResetFences(h->device, 1, &h->fence);
  return vr != VK_SUCCESS ? vr : rr;
}
