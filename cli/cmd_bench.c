/* cmd_bench.c: `canopy bench <target>`: GPU benchmarks timed with timestamp
 * queries (median of runs after warm-up), printed as a table and optionally
 * written to a file. Targets are rows of the table below (bench_<name>.c). */
#include "bench.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define CN_BENCH_MIN3(a, b, c) ((a) < (b) ? ((a) < (c) ? (a) : (c)) : ((b) < (c) ? (b) : (c)))

typedef struct bench_target {
  const char *name;
  const char *summary;
  int (*run)(cn_context *ctx, const bench_opts *o, bench_report *r);
} bench_target;

static const bench_target targets[] = {
    {"parens", "parentheses matching, every variant, n = 2^10..2^28, vs a copy kernel and the CPU", bench_parens},
    {"scene", "scene stage per stage (path boxes .. bins), n = 2^10..2^24 and real SVGs, vs copy and CPU", bench_scene},
    {"render", "whole-scene rendering per stage: real SVGs and 100k synthetic paths at 3840x2160", bench_render},
    {"flatten", "flatten stage: synthetic scenes (fills, strokes, dashes, zoom) and scenes-real at 4K", bench_flatten},
    {"scan", "u32 sum scan, one pass (look-back) and two-pass, n = 2^10..2^28, vs a copy kernel", bench_scan},
};

struct bench_report {
  FILE *file;
};

void bench_printf(bench_report *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  fflush(stdout);
  if (r->file) {
    va_start(ap, fmt);
    vfprintf(r->file, fmt, ap);
    va_end(ap);
  }
}

double bench_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void bench_header(bench_report *r, cn_context *ctx, const bench_opts *o) {
  const cn_device_caps *c = cn_context_caps(ctx);
  char date[64];
  time_t now = time(NULL);
  strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
  uint32_t d = c->driver_version;
  char driver[64];
  if (c->vendor_id == 0x10de) /* NVIDIA packs 10.8.8.6 bits */
    snprintf(driver, sizeof driver, "%u.%u.%u", d >> 22, (d >> 14) & 0xff, (d >> 6) & 0xff);
  else
    snprintf(driver, sizeof driver, "%u.%u.%u", VK_API_VERSION_MAJOR(d), VK_API_VERSION_MINOR(d),
             VK_API_VERSION_PATCH(d));
  bench_printf(r, "date:    %s\n", date);
  bench_printf(r, "device:  %s (subgroup %u, shared memory %u bytes)\n", c->name, c->subgroup_size,
               c->max_shared_memory);
  bench_printf(r, "driver:  %s, Vulkan %u.%u.%u\n", driver, VK_API_VERSION_MAJOR(c->api_version),
               VK_API_VERSION_MINOR(c->api_version), VK_API_VERSION_PATCH(c->api_version));
  bench_printf(r, "command: %s\n", o->command);
  bench_printf(r,
               "timing:  GPU timestamps, median of %d runs, after >= %d untimed runs (and >= %d ms of them)\n"
               "         in the same command buffer, so clocks have ramped up\n\n",
               o->runs, o->warmup, o->warm_ms);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Records warm untimed then runs timed repetitions in one command buffer;
 * spans[i] gets the nanoseconds of timed repetition i. */
static cn_result bench_reps(cn_context *ctx, bench_record_fn fn, void *user, uint32_t warm, uint32_t runs,
                            double *spans) {
  cn_timer *timer = NULL;
  cn_result r = cn_timer_create(ctx, runs + 1, &timer);
  if (r != CN_OK) return r;
  VkCommandBuffer cmd;
  r = cn_cmd_begin(ctx, &cmd);
  if (r == CN_OK) {
    cn_timer_reset(ctx, timer, cmd);
    for (uint32_t i = 0; i < warm && r == CN_OK; i++) {
      r = fn(ctx, cmd, user);
      cn_cmd_barrier(ctx, cmd);
    }
    cn_timer_mark(ctx, timer, cmd, "start");
    for (uint32_t i = 0; i < runs && r == CN_OK; i++) {
      r = fn(ctx, cmd, user);
      cn_cmd_barrier(ctx, cmd);
      cn_timer_mark(ctx, timer, cmd, "run");
    }
    cn_result s = cn_cmd_submit(ctx, cmd);
    if (r == CN_OK) r = s;
  }
  uint32_t nspans = 0;
  if (r == CN_OK) r = cn_timer_read(ctx, timer, &nspans, NULL, spans, runs);
  cn_timer_destroy(ctx, timer);
  if (r == CN_OK && nspans < runs) r = CN_ERROR_STATE;
  return r;
}

static cn_result bench_empty(cn_context *ctx, VkCommandBuffer cmd, void *user) {
  (void)user;
  return cn_cmd_dispatch_empty(ctx, cmd);
}

cn_result bench_floor(cn_context *ctx, const bench_opts *o, double *ns) {
  return bench_gpu_median(ctx, o, bench_empty, NULL, ns);
}

void bench_kernel_stats(cn_context *ctx, bench_report *rep) {
  uint32_t nk = cn_context_kernel_count(ctx);
  bench_printf(rep, "\nkernel statistics (VK_KHR_pipeline_executable_properties%s): kernel [spec constants] stats\n",
               cn_context_kernel_statistics(ctx) ? "" : ": not offered by this driver, n/a");
  for (uint32_t i = 0; i < nk; i++) {
    cn_kernel_info ki;
    if (cn_context_kernel_info(ctx, i, &ki) != CN_OK) continue;
    bench_printf(rep, "  %-22s [", ki.kernel);
    for (uint32_t s = 0; s < ki.nspec; s++) bench_printf(rep, "%s%u", s ? "," : "", ki.spec[s]);
    bench_printf(rep, "]");
    if (!ki.nstats) bench_printf(rep, " n/a");
    for (uint32_t s = 0; s < ki.nstats; s++) bench_printf(rep, "%s %s=%s", s ? "," : "", ki.stats[s].name, ki.stats[s].value);
    bench_printf(rep, "\n");
  }
}

uint32_t bench_warm_runs(const bench_opts *o, double est_ns) {
  /* a run too short for the timestamps to see: BENCH_MAX_WARM / 20 of them */
  double warm = est_ns > 0 ? o->warm_ms * 1e6 / est_ns : (o->warm_ms ? BENCH_MAX_WARM / 20 : 0);
  uint32_t w = warm > BENCH_MAX_WARM ? BENCH_MAX_WARM : (uint32_t)warm;
  return w < (uint32_t)o->warmup ? (uint32_t)o->warmup : w;
}

cn_result bench_gpu_median(cn_context *ctx, const bench_opts *o, bench_record_fn fn, void *user, double *ns) {
  *ns = 0;
  double spans[256];
  /* Three runs to estimate the time (the fastest: the first may pay for
   * first use), then enough warm-up runs in the same command buffer for about
   * o->warm_ms of work, so that clocks have ramped up. */
  cn_result r = bench_reps(ctx, fn, user, 0, 3, spans);
  if (r != CN_OK) return r;
  double est = CN_BENCH_MIN3(spans[0], spans[1], spans[2]);
  r = bench_reps(ctx, fn, user, bench_warm_runs(o, est), (uint32_t)o->runs, spans);
  if (r != CN_OK) return r;
  qsort(spans, (size_t)o->runs, sizeof *spans, cmp_double);
  *ns = o->runs % 2 ? spans[o->runs / 2] : 0.5 * (spans[o->runs / 2 - 1] + spans[o->runs / 2]);
  return CN_OK;
}

cn_result bench_gpu_warm(cn_context *ctx, const bench_opts *o, bench_record_fn fn, void *user) {
  bench_opts w = *o;
  w.runs = 1;
  double ns;
  return bench_gpu_median(ctx, &w, fn, user, &ns);
}

static void print_help(FILE *f) {
  char dir[4096];
  const char *scenes = cli_default_scenes_dir(dir, sizeof dir);
  fprintf(f,
          "usage: canopy bench <target> [--quick] [-o FILE] [--runs N] [--warmup N] [--warm-ms MS]\n"
          "                    [--min-log2 A] [--max-log2 B] [--scenes DIR] [--aa area|ss16] [--passes]\n\n"
          "GPU benchmarks: GPU timestamps, median of --runs (default 10) after --warmup (default 3)\n"
          "runs and at least --warm-ms (default 200) of them, so that the GPU's clocks are up; a table\n"
          "on stdout, also written to FILE with --out (-o; written whole at the end).\n"
          "--quick: a small run (5 runs, 20 ms of warm-up unless given). Progress on stderr, a line per\n"
          "item when not a terminal.\n"
          "--aa MODE: render's anti-aliasing, area (default) or ss16 (4x4 samples, Skia's rounding).\n"
          "--passes: scene also times each pass of the box stages apart (a timestamp after each: the\n"
          "stages' columns then include those timestamps' cost).\n"
          "--scenes DIR: the real scenes (folders of SVGs) of render, scene and flatten; default\n"
          "%s%s.\n\ntargets:\n",
          scenes ? "" : "(not found; looked in) ", dir);
  for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++)
    fprintf(f, "  %-8s %s\n", targets[i].name, targets[i].summary);
}

int cli_bench(int argc, char **argv) {
  bench_opts o = {.runs = 10, .warmup = 3, .warm_ms = 200};
  bool runs_set = false, warm_set = false;
  const char *aa = NULL;
  char command[1024] = "canopy bench";
  for (int i = 1; i < argc; i++) {
    size_t len = strlen(command);
    snprintf(command + len, sizeof command - len, " %s", argv[i]);
  }
  o.command = command;
  const cli_opt opts[] = {
      {.name = "quick", .kind = CLI_OPT_FLAG, .dst = &o.quick},
      {.name = "out", .short_name = 'o', .kind = CLI_OPT_STRING, .dst = &o.out, .metavar = "a file name"},
      {.name = "runs", .kind = CLI_OPT_INT, .dst = &o.runs, .lo = 1, .hi = 200, .seen = &runs_set},
      {.name = "warmup", .kind = CLI_OPT_INT, .dst = &o.warmup, .lo = 0, .hi = 50},
      {.name = "warm-ms", .kind = CLI_OPT_INT, .dst = &o.warm_ms, .lo = 0, .hi = 10000, .seen = &warm_set},
      {.name = "min-log2", .kind = CLI_OPT_INT, .dst = &o.min_log2, .lo = 1, .hi = 40},
      {.name = "max-log2", .kind = CLI_OPT_INT, .dst = &o.max_log2, .lo = 1, .hi = 40},
      {.name = "scenes", .kind = CLI_OPT_STRING, .dst = &o.scenes, .metavar = "a directory"},
      {.name = "aa", .kind = CLI_OPT_STRING, .dst = &aa, .metavar = "area or ss16"},
      {.name = "passes", .kind = CLI_OPT_FLAG, .dst = &o.passes},
      {0}};
  int nops = 0;
  CLI_PARSE("bench", argc, argv, opts, print_help, &nops);
  if (cli_parse_aa("bench", aa, &o.aa) != CLI_OK) return CLI_USAGE;
  if (nops == 0) {
    print_help(stderr);
    return CLI_USAGE;
  }
  if (nops > 1) return cli_usage_error("bench", "one target at a time ('%s' and '%s' given)", argv[1], argv[2]);
  const bench_target *target = NULL;
  for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++)
    if (strcmp(argv[1], targets[i].name) == 0) target = &targets[i];
  if (!target) return cli_usage_error("bench", "unknown target '%s'", argv[1]);
  if (o.quick && !runs_set) o.runs = 5;
  if (o.quick && !warm_set) o.warm_ms = 20;
  char dir[4096];
  if (strcmp(target->name, "parens") != 0) {
    if (!o.scenes && !(o.scenes = cli_default_scenes_dir(dir, sizeof dir)))
      return cli_error("bench",
                       "no real-scenes directory found (looked in %s): pass --scenes DIR (the repository's "
                       "tests/data/scenes-real)",
                       dir);
    struct stat st;
    if (stat(o.scenes, &st) != 0 || !S_ISDIR(st.st_mode))
      return cli_error("bench", "--scenes %s: not a directory", o.scenes);
  }

  bench_report report = {0};
  cli_out out = {0};
  if (o.out) {
    int orc = cli_out_open("bench", o.out, &out);
    if (orc != CLI_OK) return orc;
    report.file = out.f;
  }
  /* Kernel statistics (registers, spills, ...) where the driver offers them:
   * the report ends with those of the kernels the target ran. */
  cn_context *ctx = NULL;
  int rc = cli_context_stats("bench", true, &ctx);
  if (rc == CLI_OK) {
    bench_header(&report, ctx, &o);
    rc = target->run(ctx, &o, &report);
    if (rc == CLI_OK) bench_kernel_stats(ctx, &report);
  }
  cli_progress_end();
  cn_context_destroy(ctx);
  if (report.file) {
    if (rc == CLI_OK) rc = cli_out_commit("bench", &out);
    else cli_out_abort(&out);
  }
  return rc;
}
