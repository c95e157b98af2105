/* cmd_info.c: `canopy info`: the Vulkan devices, the chosen one, its limits. */
#include "cli.h"
#include <canopy/cn_render.h>

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

/* A small scene that runs every renderer kernel: fills (nonzero, even-odd), a
 * stroke, a gradient, a clip and a translucent group. */
static const char info_svg[] =
    "<svg xmlns='http://www.w3.org/2000/svg' width='64' height='64'>"
    "<defs><linearGradient id='g'><stop offset='0' stop-color='red'/><stop offset='1' stop-color='blue'/>"
    "</linearGradient><clipPath id='c'><circle cx='32' cy='32' r='28'/></clipPath></defs>"
    "<rect width='64' height='64' fill='url(#g)'/>"
    "<g clip-path='url(#c)' opacity='0.5'><path d='M4 4L60 10L20 60Z' fill='green' fill-rule='evenodd'/>"
    "<path d='M2 40C20 0 40 80 62 20' stroke='black' stroke-width='3' fill='none'/></g></svg>";

/* Renders info_svg at 64x64 with a renderer made from desc (NULL: the
 * defaults): builds the renderer's, flatten's and the scene stage's kernels. */
static cn_result info_render(cn_context *ctx, const cn_renderer_desc *desc) {
  cn_scene_builder *b = NULL;
  cn_renderer *ren = NULL;
  cn_result r = cn_scene_builder_create(&b);
  if (r == CN_OK) r = cn_renderer_create(ctx, desc, &ren);
  cn_scene_data scene;
  cn_svg_options opt = {.width = 64, .height = 64};
  if (r == CN_OK) r = cn_svg_load_memory(b, info_svg, sizeof info_svg - 1, &opt, &scene, NULL);
  uint8_t *px = r == CN_OK ? malloc(64 * 64 * 4) : NULL;
  if (r == CN_OK && !px) r = CN_ERROR_OUT_OF_MEMORY;
  if (r == CN_OK) r = cn_render_scene_to_rgba8(ren, &scene, &(cn_render_view){.width = 64, .height = 64}, px);
  free(px);
  cn_renderer_destroy(ren);
  cn_scene_builder_destroy(b);
  return r;
}

/* --kernels: builds the kernels of parentheses matching (every variant), of
 * the scans and of rendering (scene stage, flatten, renderer) by running each
 * once on a small input, then prints each kernel's statistics from the driver
 * (VK_KHR_pipeline_executable_properties). */
static int info_kernels(void) {
  cn_context *ctx = NULL;
  if (cli_context_stats("info", true, &ctx) != CLI_OK) return CLI_FAIL;
  cn_result r = CN_OK;
  enum { N = 40000 };
  uint8_t *in = malloc(N);
  int32_t *out = malloc(N * sizeof *out);
  uint32_t *words = malloc(N * sizeof *words);
  if (!in || !out || !words) r = CN_ERROR_OUT_OF_MEMORY;
  for (int i = 0; i < N && r == CN_OK; i++) in[i] = (uint8_t)((i * 7 + i / 3) & 1 ? ')' : '('), words[i] = (uint32_t)i;
  for (int v = 1; v < CN_PARENS_VARIANT_COUNT && r == CN_OK; v++) {
    uint64_t n = v == CN_PARENS_SINGLE ? cn_parens_single_max(ctx) : N;
    r = cn_parens(ctx, (cn_parens_variant)v, NULL, in, out, n < N ? n : N);
  }
  for (int f = 0; f < 2 && r == CN_OK; f++) r = cn_scan_u32(ctx, &(cn_scan_tuning){.two_pass = f == 1}, words, words, N, false);
  free(in);
  free(out);
  free(words);
  if (r == CN_OK) r = info_render(ctx, NULL);
  /* a backdrop grid of one workgroup: several elements a workgroup, the
   * kernel of scenes of many elements (render_backdrop_packed) */
  if (r == CN_OK) r = info_render(ctx, &(cn_renderer_desc){.backdrop_grid = 1});
  /* fine's other loop over a FILL's pieces, the very long lists apart, and
   * coarse's walk in parts: the pipelines render.c picks per frame */
  if (r == CN_OK)
    r = info_render(ctx, &(cn_renderer_desc){.fine_runs = CN_RENDER_FINE_RUNS_LOADS,
                                             .fine_split = CN_RENDER_FINE_SPLIT_ON,
                                             .coarse_split = CN_RENDER_COARSE_SPLIT_ON});
  /* again without the tiny scene's one-workgroup path boxes and row binning:
   * pathbox_fused and bins_small are built too */
  const cn_tuning other = {.pathbox_small_max = CN_SMALL_OFF, .bins_rows_max = CN_SMALL_OFF};
  if (r == CN_OK) cn_context_set_tuning(ctx, &other);
  if (r == CN_OK) r = info_render(ctx, NULL);
  /* and with every one-workgroup path off: the multi-pass box and binning
   * kernels of large streams */
  const cn_tuning large = {.pathbox_small_max = CN_SMALL_OFF, .bins_rows_max = CN_SMALL_OFF,
                           .bins_small_max = CN_SMALL_OFF, .bbox_small_max = CN_SMALL_OFF};
  if (r == CN_OK) cn_context_set_tuning(ctx, &large);
  if (r == CN_OK) r = info_render(ctx, NULL);
  if (r != CN_OK) {
    cn_context_destroy(ctx);
    return cli_fail("info", "building the kernels", r);
  }
  printf("%s: kernel statistics%s\n", cn_context_caps(ctx)->name,
         cn_context_kernel_statistics(ctx) ? "" : ": n/a (the driver does not offer VK_KHR_pipeline_executable_properties)");
  uint32_t nk = cn_context_kernel_count(ctx);
  for (uint32_t i = 0; i < nk; i++) {
    cn_kernel_info ki;
    if (cn_context_kernel_info(ctx, i, &ki) != CN_OK) continue;
    printf("  %-22s [", ki.kernel);
    for (uint32_t s = 0; s < ki.nspec; s++) printf("%s%u", s ? "," : "", ki.spec[s]);
    printf("]");
    if (!ki.nstats) printf(" n/a");
    for (uint32_t s = 0; s < ki.nstats; s++) printf("%s %s=%s", s ? "," : "", ki.stats[s].name, ki.stats[s].value);
    printf("\n");
  }
  cn_context_destroy(ctx);
  return CLI_OK;
}

static void usage(FILE *f) {
  fprintf(f, "usage: canopy info [--kernels]\n\nLists the Vulkan devices, marks with * the one canopy chooses\n"
             "(CANOPY_DEVICE=<index|name> overrides), and prints its limits.\n"
             "--kernels: builds the parentheses-matching, scan and rendering kernels (running each\n"
             "once on a small input) and prints the driver's statistics of each: registers, spills, shared\n"
             "memory, ... as the driver names them (n/a where it does not offer them).\n");
}

int cli_info(int argc, char **argv) {
  bool kernels = false;
  const cli_opt opts[] = {{.name = "kernels", .kind = CLI_OPT_FLAG, .dst = &kernels}, {0}};
  int nops = 0;
  CLI_PARSE("info", argc, argv, opts, usage, &nops);
  if (nops) return cli_usage_error("info", "unexpected argument '%s'", argv[1]);
  if (kernels) return info_kernels();
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
  printf("  64-bit buffer atomics:   %s\n", c->buffer_int64_atomics ? "yes" : "no");
  printf("  8-bit buffer stores:     %s\n", c->storage_buffer_8bit ? "yes" : "no");
  printf("  subgroup uniform control flow: %s\n", c->subgroup_uniform_control_flow ? "yes" : "no");
  return CLI_OK;
}
