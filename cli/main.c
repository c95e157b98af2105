/* main.c: build/canopy, the command-line front of the library. Dispatches to
 * one function per subcommand (cli/cmd_*.c). */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cli_command commands[] = {
    {"info", "list Vulkan devices, mark the chosen one, print its limits", cli_info},
    {"parens", "parentheses matching of a file of '(' and ')' on the GPU", cli_parens},
    {"bench", "GPU benchmarks (bench parens, ...), timed with GPU timestamps", cli_bench},
    {"stats", "load an SVG into a scene and print its counts (or the error)", cli_stats},
    {"bbox", "clip/blend result boxes of an element stream or an SVG (scene stage)", cli_bbox},
    {"bins", "per-bin element lists of an element stream (scene stage)", cli_bins},
    {"render", "render an SVG on the GPU into a PNG", cli_render},
    {"conformance", "render the resvg test suite and print pass rates (canopy or rsvg-convert)", cli_conformance},
};

static void print_help(FILE *f) {
  fprintf(f,
          "canopy %s: GPU scene processing for 2D vector renderers (Vulkan compute)\n\n"
          "usage: canopy [--help] [--version] <command> [options]\n\n"
          "commands:\n",
          cn_version());
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    fprintf(f, "  %-12s %s\n", commands[i].name, commands[i].summary);
  fprintf(f,
          "\n`canopy <command> --help` describes a command.\n"
          "Every command takes --help, and --verbose (-v) for error messages with the library's\n"
          "source locations. Options take their value as --name VALUE or --name=VALUE; `--` ends\n"
          "the options; `-` names standard input or output where a command reads or writes files.\n\n"
          "environment: CANOPY_DEVICE=<index|name> picks a device; CANOPY_VALIDATION=1 turns the\n"
          "Vulkan validation layer on; CANOPY_BBOX_SHAPE=wg,items,clip_wg, CANOPY_BINS_ROUNDS=r,\n"
          "CANOPY_BINS_SUB=n|off (elements per subgroup chunk of binning by subgroups),\n"
          "CANOPY_BINS_SG_ROUNDS=r|off (rounds per workgroup chunk of binning by subgroups) and\n"
          "CANOPY_SCENE_SMALL=n|off|bbox,bins[,pathbox[,binsrows[,pathboxfused[,pathboxfold]]]] (the scene\n"
          "stage's one-dispatch kernels up to n elements; pathbox: segments and elements; binsrows:\n"
          "binning by bin rows; pathboxfused: path boxes in two dispatches; pathboxfold: element boxes\n"
          "in the one-workgroup bbox kernel), CANOPY_SCENE_SMALL_WG=bbox,binsrows (their workgroup sizes),\n"
          "CANOPY_PATHBOX_SEGMENTS=apart (the folded path boxes' segments in a dispatch of their own),\n"
          "CANOPY_BBOX_COMPACT_SCAN=n|off (the compaction without a scan pass up to n elements),\n"
          "CANOPY_BBOX_GROUP_BYTE_ATOMICS=1 (the compaction's group bytes by atomic ORs, not byte stores),\n"
          "CANOPY_BINS_OWN_FILL=n|off (binning's fill kernel with own pairs from n elements, default 2^21),\n"
          "CANOPY_BINS_FILL_SLICE=b (bins per workgroup of binning's fill kernels, 32..512),\n"
          "CANOPY_PARENS_* (parentheses matching's shapes and forms: `canopy bench parens`)\n"
          "try other kernel shapes (benchmarks; results do not change); compiled GPU pipelines are kept in\n"
          "$XDG_CACHE_HOME/canopy/pipelines.bin (else ~/.cache/canopy/pipelines.bin) to start\n"
          "faster: CANOPY_PIPELINE_CACHE=FILE puts it elsewhere, CANOPY_PIPELINE_CACHE=0 turns it off.\n"
          "exit codes: 0 success, 1 failure, 2 usage error.\n");
}

int cli_usage_error(const char *cmd, const char *fmt, ...) {
  fprintf(stderr, "canopy%s%s: ", cmd ? " " : "", cmd ? cmd : "");
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\nrun `canopy %s%s--help` for usage\n", cmd ? cmd : "", cmd ? " " : "");
  return CLI_USAGE;
}

/* The CLI's environment knobs (the library reads none): the device, the
 * validation layer, the pipeline cache file, and research shapes for
 * benchmarks and tests. */
static bool cli_env_flag(const char *name) {
  const char *v = getenv(name);
  return v && *v && strcmp(v, "0") != 0;
}

static cn_tuning cli_tuning;

int cli_context(const char *cmd, cn_context **out) { return cli_context_stats(cmd, false, out); }

int cli_context_stats(const char *cmd, bool kernel_statistics, cn_context **out) {
  const char *shape = getenv("CANOPY_BBOX_SHAPE"), *rounds = getenv("CANOPY_BINS_ROUNDS");
  unsigned wg = 0, items = 0, clip = 0;
  if (shape && sscanf(shape, "%u,%u,%u", &wg, &items, &clip) == 3)
    cli_tuning.bbox_wg = wg, cli_tuning.bbox_items = items, cli_tuning.bbox_clip_wg = clip;
  if (rounds) cli_tuning.bins_rounds = (uint32_t)strtoul(rounds, NULL, 10);
  /* CANOPY_BINS_SUB=n or off (cn_tuning.bins_sub) */
  const char *sub = getenv("CANOPY_BINS_SUB");
  if (sub && *sub) cli_tuning.bins_sub = strncmp(sub, "off", 3) == 0 ? CN_SMALL_OFF : (uint32_t)strtoul(sub, NULL, 10);
  /* CANOPY_BINS_SG_ROUNDS=r or off (cn_tuning.bins_sg_rounds) */
  const char *sgr = getenv("CANOPY_BINS_SG_ROUNDS");
  if (sgr && *sgr)
    cli_tuning.bins_sg_rounds = strncmp(sgr, "off", 3) == 0 ? CN_SMALL_OFF : (uint32_t)strtoul(sgr, NULL, 10);
  /* CANOPY_SCENE_SMALL=n, off, or bbox,bins[,pathbox[,binsrows[,pathboxfused[,pathboxfold]]]]
   * (each a count or off); n sets bbox and bins, off all six */
  const char *small = getenv("CANOPY_SCENE_SMALL");
  if (small && *small) {
    const char *comma = strchr(small, ',');
    const char *second = comma ? comma + 1 : small;
    const char *comma2 = comma ? strchr(second, ',') : NULL;
    cli_tuning.bbox_small_max = strncmp(small, "off", 3) == 0 ? CN_SMALL_OFF : (uint32_t)strtoul(small, NULL, 10);
    cli_tuning.bins_small_max = strncmp(second, "off", 3) == 0 ? CN_SMALL_OFF : (uint32_t)strtoul(second, NULL, 10);
    const char *comma3 = comma2 ? strchr(comma2 + 1, ',') : NULL;
    if (comma2)
      cli_tuning.pathbox_small_max = strncmp(comma2 + 1, "off", 3) == 0 ? CN_SMALL_OFF : (uint32_t)strtoul(comma2 + 1, NULL, 10);
    const char *comma4 = comma3 ? strchr(comma3 + 1, ',') : NULL;
    if (comma3)
      cli_tuning.bins_rows_max = strncmp(comma3 + 1, "off", 3) == 0 ? CN_SMALL_OFF : (uint32_t)strtoul(comma3 + 1, NULL, 10);
    if (comma4)
      cli_tuning.pathbox_fused_max = strncmp(comma4 + 1, "off", 3) == 0 ? CN_SMALL_OFF : (uint32_t)strtoul(comma4 + 1, NULL, 10);
    const char *comma5 = comma4 ? strchr(comma4 + 1, ',') : NULL;
    if (comma5)
      cli_tuning.pathbox_fold_max = strncmp(comma5 + 1, "off", 3) == 0 ? CN_SMALL_OFF : (uint32_t)strtoul(comma5 + 1, NULL, 10);
    if (!comma && strncmp(small, "off", 3) == 0)
      cli_tuning.pathbox_small_max = cli_tuning.bins_rows_max = cli_tuning.pathbox_fused_max = cli_tuning.pathbox_fold_max =
          CN_SMALL_OFF;
  }
  /* CANOPY_PATHBOX_SEGMENTS=apart (cn_tuning.pathbox_segments_apart) */
  const char *pb_segs = getenv("CANOPY_PATHBOX_SEGMENTS");
  if (pb_segs && strcmp(pb_segs, "apart") == 0) cli_tuning.pathbox_segments_apart = true;
  /* CANOPY_SCENE_SMALL_WG=bbox,binsrows (cn_tuning.bbox_small_wg, bins_rows_wg) */
  const char *small_wg = getenv("CANOPY_SCENE_SMALL_WG");
  unsigned bw = 0, rw = 0;
  if (small_wg && sscanf(small_wg, "%u,%u", &bw, &rw) == 2) cli_tuning.bbox_small_wg = bw, cli_tuning.bins_rows_wg = rw;
  /* CANOPY_FLATTEN_SCAN_ONE_BLOCK=n or off (cn_tuning.flatten_scan_one_block_max) */
  const char *fl_one = getenv("CANOPY_FLATTEN_SCAN_ONE_BLOCK");
  if (fl_one && *fl_one)
    cli_tuning.flatten_scan_one_block_max =
        strncmp(fl_one, "off", 3) == 0 ? CN_SMALL_OFF : (uint32_t)strtoul(fl_one, NULL, 10);
  /* CANOPY_FLATTEN_WRITE_SCAN=n or off (cn_tuning.flatten_write_scan_max) */
  const char *fl_ws = getenv("CANOPY_FLATTEN_WRITE_SCAN");
  if (fl_ws && *fl_ws)
    cli_tuning.flatten_write_scan_max = strncmp(fl_ws, "off", 3) == 0 ? CN_SMALL_OFF : (uint32_t)strtoul(fl_ws, NULL, 10);
  /* CANOPY_FLATTEN_SPLIT=n or off (cn_tuning.flatten_split_max) */
  const char *fl_sp = getenv("CANOPY_FLATTEN_SPLIT");
  if (fl_sp && *fl_sp)
    cli_tuning.flatten_split_max = strncmp(fl_sp, "off", 3) == 0 ? CN_SMALL_OFF : (uint32_t)strtoul(fl_sp, NULL, 10);
  /* CANOPY_FLATTEN_SETUP_FUSE=n or off (cn_tuning.flatten_setup_fuse_max) */
  const char *fl_fu = getenv("CANOPY_FLATTEN_SETUP_FUSE");
  if (fl_fu && *fl_fu)
    cli_tuning.flatten_setup_fuse_max = strncmp(fl_fu, "off", 3) == 0 ? CN_SMALL_OFF : (uint32_t)strtoul(fl_fu, NULL, 10);
  /* CANOPY_BBOX_COMPACT_SCAN=n or off (cn_tuning.bbox_compact_scan_max) */
  const char *cs = getenv("CANOPY_BBOX_COMPACT_SCAN");
  if (cs && *cs)
    cli_tuning.bbox_compact_scan_max = strncmp(cs, "off", 3) == 0 ? CN_SMALL_OFF : (uint32_t)strtoul(cs, NULL, 10);
  /* CANOPY_BBOX_GROUP_BYTE_ATOMICS=1 (cn_tuning.bbox_group_byte_atomics) */
  cli_tuning.bbox_group_byte_atomics = cli_env_flag("CANOPY_BBOX_GROUP_BYTE_ATOMICS");
  /* CANOPY_BBOX_CLIP_JOIN=hop|nodes (cn_tuning.bbox_clip_join) */
  const char *cj = getenv("CANOPY_BBOX_CLIP_JOIN");
  if (cj && *cj)
    cli_tuning.bbox_clip_join = strcmp(cj, "hop") == 0     ? CN_CLIP_JOIN_HOP
                                : strcmp(cj, "nodes") == 0 ? CN_CLIP_JOIN_NODES
                                                           : CN_CLIP_JOIN_DEFAULT;
  /* CANOPY_BINS_OWN_FILL=n or off (cn_tuning.bins_own_fill_from) */
  const char *of = getenv("CANOPY_BINS_OWN_FILL");
  if (of && *of)
    cli_tuning.bins_own_fill_from = strncmp(of, "off", 3) == 0 ? CN_SMALL_OFF : (uint32_t)strtoul(of, NULL, 10);
  /* CANOPY_BINS_FILL_SLICE=b (cn_tuning.bins_fill_slice) */
  const char *fs = getenv("CANOPY_BINS_FILL_SLICE");
  if (fs && *fs) cli_tuning.bins_fill_slice = (uint32_t)strtoul(fs, NULL, 10);
  /* CANOPY_PARENS_* (cn_tuning.parens: the matching's shapes and forms, as in bench parens) */
  static cn_parens_tuning parens_tuning;
  if (cli_parens_tuning_env(&parens_tuning) && memcmp(&parens_tuning, &(cn_parens_tuning){0}, sizeof parens_tuning))
    cli_tuning.parens = &parens_tuning;
  /* CANOPY_FLATTEN_OVERLAP=off (cn_tuning.flatten_no_overlap) */
  const char *fl_ov = getenv("CANOPY_FLATTEN_OVERLAP");
  if (fl_ov && strncmp(fl_ov, "off", 3) == 0) cli_tuning.flatten_no_overlap = true;
  char cache[4096];
  cn_context_desc d = {.validation = cli_env_flag("CANOPY_VALIDATION"),
                       .device = getenv("CANOPY_DEVICE"),
                       .tuning = &cli_tuning,
                       .kernel_statistics = kernel_statistics,
                       .pipeline_cache_path = cli_pipeline_cache_path(cache, sizeof cache)};
  cn_result r = cn_context_create(&d, out);
  if (r != CN_OK) return cli_fail(cmd, "cannot create a Vulkan context", r);
  return CLI_OK;
}

/* Runs the command, then checks that what it printed reached standard output
 * (a full disk, a closed pipe): the exit code says so. */
static int run(const cli_command *c, int argc, char **argv) {
  int rc = c->run(argc, argv);
  errno = 0;
  if (fflush(stdout) != 0 || ferror(stdout)) {
    int e = errno;
    fprintf(stderr, "canopy %s: error writing standard output%s%s\n", c->name, e ? ": " : "", e ? strerror(e) : "");
    if (rc == CLI_OK) rc = CLI_FAIL;
  }
  return rc;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    print_help(stderr);
    return CLI_USAGE;
  }
  const char *arg = argv[1];
  if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0 || strcmp(arg, "help") == 0) {
    print_help(stdout);
    return CLI_OK;
  }
  if (strcmp(arg, "--version") == 0 || strcmp(arg, "version") == 0) {
    printf("canopy %s\n", cn_version());
    return CLI_OK;
  }
  if (arg[0] == '-') return cli_usage_error(NULL, "unknown option '%s'", arg);
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (strcmp(arg, commands[i].name) == 0) return run(&commands[i], argc - 1, argv + 1);
  return cli_usage_error(NULL, "unknown command '%s'", arg);
}
