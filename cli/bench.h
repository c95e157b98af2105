/* bench.h: what the targets of `canopy bench` share (cli/cmd_bench.c). A target
 * is one bench_<name>.c with a run function listed in cmd_bench.c's table. */
#ifndef CN_BENCH_H
#define CN_BENCH_H

#include "cli.h"

#include <stdio.h>

/* Options every target takes. */
typedef struct bench_opts {
  bool quick;          /* a small run (tests, lavapipe) */
  const char *out;     /* also write the report here (NULL: stdout only) */
  int runs, warmup;    /* timed runs (median), untimed runs before them */
  int warm_ms;         /* at least this much untimed work before the timed runs (--warm-ms) */
  int min_log2, max_log2; /* size range where the target has one (0: its default) */
  const char *command; /* the command line, for the report */
  const char *scenes;  /* the real-scenes directory (--scenes, else the default; see cli.h) */
  uint32_t aa;         /* render: the renderer's anti-aliasing (--aa, CN_AA_*) */
  bool passes;         /* scene: also each pass of the box stages (--passes, cn_tuning.timer_passes) */
} bench_opts;

/* The report: printed to stdout and, with --out, to a file. */
typedef struct bench_report bench_report;
void bench_printf(bench_report *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Header lines: date (UTC), device, driver, Vulkan version, command. */
void bench_header(bench_report *r, cn_context *ctx, const bench_opts *o);

/* Untimed work recorded before the timed runs, in their command buffer, so
 * that the GPU's clocks have ramped up: about o->warm_ms milliseconds of
 * it (bench_warm_runs), at most BENCH_MAX_WARM runs. */
enum { BENCH_MAX_WARM = 20000 };
/* Untimed runs before the timed ones for a run of est_ns: o->warm_ms worth,
 * at least o->warmup, at most BENCH_MAX_WARM (est_ns 0: BENCH_MAX_WARM / 20). */
uint32_t bench_warm_runs(const bench_opts *o, double est_ns);

/* Records one run of the work being timed into cmd. */
typedef cn_result (*bench_record_fn)(cn_context *ctx, VkCommandBuffer cmd, void *user);

/* Times three runs, then records bench_warm_runs (o->warm_ms worth) untimed runs and
 * o->runs timed ones in one command buffer (a barrier after each, GPU
 * timestamps between the timed ones); *ns gets the median of the timed ones. */
cn_result bench_gpu_median(cn_context *ctx, const bench_opts *o, bench_record_fn fn, void *user, double *ns);

/* Runs the work untimed for about o->warm_ms (as bench_gpu_median does
 * before its timed runs), for timings recorded otherwise: the GPU's clocks
 * fall while the CPU builds inputs and references, and come up only after a
 * sustained load (on the H200 20 ms was not enough, docs/PERF.md). */
cn_result bench_gpu_warm(cn_context *ctx, const bench_opts *o, bench_record_fn fn, void *user);

/* The dispatch floor: the median time of an empty dispatch followed by a
 * barrier, measured like any stage (bench_gpu_median), in the same run. */
cn_result bench_floor(cn_context *ctx, const bench_opts *o, double *ns);

/* The driver's statistics (registers, spills, ...) of every kernel the
 * context built, one line each with its specialization constants (the end of
 * every target's report). */
void bench_kernel_stats(cn_context *ctx, bench_report *r);

/* Seconds of a monotonic clock. */
double bench_now(void);

/* Targets. Each returns a CLI exit code. */
int bench_parens(cn_context *ctx, const bench_opts *o, bench_report *r);
int bench_scene(cn_context *ctx, const bench_opts *o, bench_report *r);
int bench_render(cn_context *ctx, const bench_opts *o, bench_report *r);
int bench_flatten(cn_context *ctx, const bench_opts *o, bench_report *r);
int bench_scan(cn_context *ctx, const bench_opts *o, bench_report *r);

#endif
