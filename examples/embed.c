/* embed.c: canopy inside a host application's own Vulkan objects.
 *
 * The host creates its instance and device (with the features canopy needs),
 * hands them to canopy with cn_context_adopt(), records canopy's work into its
 * own command buffer, submits it on its own queue, and reads the result back.
 * Here the work is an inclusive prefix sum of 1, 2, ..., n, checked against
 * the closed form n (n + 1) / 2 for every element.
 *
 * Build against an installed canopy:
 *   cmake -S examples -B build-examples -DCMAKE_PREFIX_PATH=<prefix>   (find_package(canopy))
 *   cc examples/embed.c $(pkg-config --cflags --libs canopy) -o embed     (pkg-config)
 * Exit status 0 when every value is right, 1 otherwise (the message says why).
 */
#include <canopy/canopy.h>
#include <canopy/cn_scan.h>

#include <stdio.h>
#include <stdlib.h>

#define N 100000u

static int fail(const char *what, const char *why) {
  fprintf(stderr, "embed: %s: %s\n", what, why);
  return 1;
}

/* The first queue family with compute; UINT32_MAX when none. */
static uint32_t compute_family(VkPhysicalDevice gpu) {
  uint32_t n = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(gpu, &n, NULL);
  VkQueueFamilyProperties props[32];
  if (n > 32) n = 32;
  vkGetPhysicalDeviceQueueFamilyProperties(gpu, &n, props);
  for (uint32_t i = 0; i < n; i++)
    if (props[i].queueFlags & VK_QUEUE_COMPUTE_BIT) return i;
  return UINT32_MAX;
}

int main(void) {
  /* ---- the host's own Vulkan objects */
  VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .pApplicationName = "embed",
                           .apiVersion = VK_API_VERSION_1_2};
  VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};
  VkInstance instance;
  if (vkCreateInstance(&ici, NULL, &instance) != VK_SUCCESS) return fail("vkCreateInstance", "no Vulkan");
  uint32_t ngpu = 1;
  VkPhysicalDevice gpu = VK_NULL_HANDLE;
  VkResult vr = vkEnumeratePhysicalDevices(instance, &ngpu, &gpu);
  if ((vr != VK_SUCCESS && vr != VK_INCOMPLETE) || ngpu == 0) return fail("vkEnumeratePhysicalDevices", "no device");
  uint32_t family = compute_family(gpu);
  if (family == UINT32_MAX) return fail("queue families", "no compute queue");

  float priority = 1;
  VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = family,
                                 .queueCount = 1, .pQueuePriorities = &priority};
  VkPhysicalDeviceFeatures have;
  vkGetPhysicalDeviceFeatures(gpu, &have);
  VkPhysicalDeviceVulkan12Features f12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  cn_device_features_require(&f12); /* bufferDeviceAddress, vulkanMemoryModel(+DeviceScope) */
  VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f12};
  f2.features.shaderInt64 = have.shaderInt64; /* where the device has it */
  VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &f2,
                            .queueCreateInfoCount = 1, .pQueueCreateInfos = &qci};
  VkDevice device;
  if (vkCreateDevice(gpu, &dci, NULL, &device) != VK_SUCCESS) return fail("vkCreateDevice", "failed");
  VkQueue queue;
  vkGetDeviceQueue(device, family, 0, &queue);

  /* ---- canopy adopts them */
  cn_context *cn = NULL;
  cn_result r = cn_context_adopt(&(cn_context_adopt_desc){.instance = instance, .physical_device = gpu,
                                                          .device = device, .queue_family = family,
                                                          .queue = queue},
                                 &cn);
  if (r != CN_OK) return fail("cn_context_adopt", cn_last_error());
  printf("embed: canopy %s on %s\n", cn_version(), cn_context_caps(cn)->name);

  cn_buffer data = {0}, scratch = {0};
  cn_scan_args scan = {.op = CN_SCAN_U32_ADD, .n = N}; /* inclusive */
  r = cn_buffer_create(cn, CN_MEMORY_DEVICE, N * 4, &data);
  if (r == CN_OK) r = cn_buffer_create(cn, CN_MEMORY_DEVICE, cn_scan_scratch_bytes(cn, &scan), &scratch);
  if (r != CN_OK) return fail("cn_buffer_create", cn_last_error());

  /* ---- record into the host's command buffer */
  VkCommandPool pool;
  VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, .queueFamilyIndex = family};
  vkCreateCommandPool(device, &pci, NULL, &pool);
  VkCommandBuffer cmd;
  VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = pool,
                                    .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1};
  vkAllocateCommandBuffers(device, &ai, &cmd);
  vkBeginCommandBuffer(cmd, &(VkCommandBufferBeginInfo){.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO});
  r = cn_iota_record(cn, cmd, data.address, N, 1); /* 1, 2, ..., N */
  cn_cmd_barrier(cn, cmd);
  scan.src = scan.dst = data.address;
  scan.scratch = scratch.address;
  if (r == CN_OK) r = cn_scan_record(cn, cmd, &scan);
  cn_cmd_barrier(cn, cmd);
  vkEndCommandBuffer(cmd);
  if (r != CN_OK) return fail("recording", cn_last_error());

  VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd};
  if (vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE) != VK_SUCCESS || vkQueueWaitIdle(queue) != VK_SUCCESS)
    return fail("vkQueueSubmit", "the GPU work failed");

  /* ---- read back and check */
  uint32_t *out = malloc(N * 4);
  if (!out) return fail("malloc", "out of memory");
  r = cn_buffer_download(cn, &data, 0, out, N * 4);
  if (r != CN_OK) return fail("cn_buffer_download", cn_last_error());
  uint32_t bad = 0, first_bad = 0;
  for (uint32_t i = 0; i < N; i++) {
    uint32_t want = (uint32_t)((uint64_t)(i + 1) * (i + 2) / 2);
    if (out[i] != want && bad++ == 0) first_bad = i;
  }
  if (bad) fprintf(stderr, "embed: %u of %u sums wrong, first at %u\n", bad, N, first_bad);
  else printf("embed: %u prefix sums, all right (last %u)\n", N, out[N - 1]);

  free(out);
  cn_buffer_destroy(cn, &scratch);
  cn_buffer_destroy(cn, &data);
  cn_context_destroy(cn); /* canopy frees its own objects; the host's stay */
  vkDestroyCommandPool(device, pool, NULL);
  vkDestroyDevice(device, NULL);
  vkDestroyInstance(instance, NULL);
  return bad ? 1 : 0;
}
