/* cmd_info.c: `canopy info`: the Vulkan devices, the chosen one, its limits. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *type_name(VkPhysicalDeviceType t) {
  switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
    default: return "other";
  }
}

static void usage(FILE *f) {
  fprintf(f, "usage: canopy info\n\nLists the Vulkan devices, marks with * the one canopy chooses\n"
             "(CANOPY_DEVICE=<index|name> overrides), and prints its limits.\n");
}

int cli_info(int argc, char **argv) {
  const cli_opt opts[] = {{0}};
  int nops = 0;
  CLI_PARSE("info", argc, argv, opts, usage, &nops);
  if (nops) return cli_usage_error("info", "unexpected argument '%s'", argv[1]);
  cn_device_caps devs[16];
  uint32_t n = 0, chosen = UINT32_MAX;
  cn_result r = cn_device_list(getenv("CANOPY_DEVICE"), devs, 16, &n, &chosen);
  if (r != CN_OK) return cli_fail("info", "cannot list Vulkan devices", r);
  printf("Vulkan devices:\n");
  for (uint32_t i = 0; i < n && i < 16; i++) {
    printf(" %c %u: %s (%s, Vulkan %u.%u.%u)\n", i == chosen ? '*' : ' ', i, devs[i].name, type_name(devs[i].type),
           VK_API_VERSION_MAJOR(devs[i].api_version), VK_API_VERSION_MINOR(devs[i].api_version),
           VK_API_VERSION_PATCH(devs[i].api_version));
  }
  if (chosen == UINT32_MAX) {
    /* Ask the context for the reason: it records why no device qualifies. */
    cn_context *ctx = NULL;
    r = cn_context_create(&(cn_context_desc){.device = getenv("CANOPY_DEVICE")}, &ctx);
    cn_context_destroy(ctx);
    return cli_fail("info", "no usable device", r == CN_OK ? CN_ERROR_NO_DEVICE : r);
  }
  const cn_device_caps *c = &devs[chosen];
  printf("\nchosen: %u: %s\n", chosen, c->name);
  printf("  subgroup size:           %u (min %u, max %u%s)\n", c->subgroup_size, c->min_subgroup_size,
         c->max_subgroup_size, c->subgroup_size_control ? ", controllable" : "");
  printf("  shared memory:           %u bytes\n", c->max_shared_memory);
  printf("  max workgroup size:      %u x %u x %u (%u invocations)\n", c->max_workgroup_size[0],
         c->max_workgroup_size[1], c->max_workgroup_size[2], c->max_workgroup_invocations);
  printf("  max workgroup count:     %u x %u x %u\n", c->max_workgroup_count[0], c->max_workgroup_count[1],
         c->max_workgroup_count[2]);
  if (c->timestamp_valid_bits)
    printf("  timestamp period:        %g ns (%u valid bits)\n", c->timestamp_period_ns, c->timestamp_valid_bits);
  else
    printf("  timestamp period:        none (no timestamps on the compute queue)\n");
  printf("  max allocation:          %llu bytes\n", (unsigned long long)c->max_allocation_size);
  printf("  device-local memory:     %llu bytes\n", (unsigned long long)c->device_local_bytes);
  return CLI_OK;
}
