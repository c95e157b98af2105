/* bench_parens.c: `canopy bench parens`: every parentheses-matching variant at
 * n = 2^min .. 2^max (default 2^10 .. 2^28, as device memory allows) on random
 * '(' / ')' input, against a copy kernel moving the same bytes in the same run
 * and the CPU reference on the same machine. Every GPU result is checked
 * against the CPU reference (a prefix of the input has the prefix's output). */
#include "bench.h"


#include <stdlib.h>
#include <string.h>

enum { NV = 4 };
static const cn_parens_variant bench_variants[NV] = {CN_PARENS_SIMPLE, CN_PARENS_EFFICIENT, CN_PARENS_LOOKBACK,
                                                     CN_PARENS_LOWMARK};

/* Benchmark knob: CANOPY_BENCH_PARENS_VARIANTS=name[,name...] times only those
 * variants (shape sweeps spend less device time); unset: all of them. */
static bool bench_variant_on(cn_parens_variant v) {
  const char *e = getenv("CANOPY_BENCH_PARENS_VARIANTS");
  if (!e || !*e) return true;
  const char *name = cn_parens_variant_name(v);
  size_t len = strlen(name);
  for (const char *p = e; (p = strstr(p, name)) != NULL; p += len)
    if ((p == e || p[-1] == ',') && (p[len] == ',' || p[len] == '\0')) return true;
  return false;
}

typedef struct parens_job {
  cn_parens_variant v;
  VkDeviceAddress in, out, scratch;
  uint64_t n, copy_bytes;
} parens_job;

static cn_result record_parens(cn_context *ctx, VkCommandBuffer cmd, void *user) {
  const parens_job *j = user;
  return cn_parens_record(ctx, cmd, j->v, j->in, j->out, j->scratch, j->n);
}

/* The copy reads copy_bytes from out and writes them to scratch: 2 * copy_bytes
 * moved, the same as the n + 4n bytes of the matching. */
static cn_result record_copy(cn_context *ctx, VkCommandBuffer cmd, void *user) {
  const parens_job *j = user;
  return cn_copy_record(ctx, cmd, j->out, j->scratch, j->copy_bytes);
}

/* Median seconds of the CPU reference on n elements (batches of runs for small n). */
static double time_cpu(const uint8_t *in, int32_t *out, uint64_t n, int runs) {
  uint64_t batch = n >= (1u << 20) ? 1 : (1u << 20) / n;
  if (n >= (1u << 25)) runs = 1;
  double best[16];
  if (runs > 16) runs = 16;
  cn_parens_cpu(in, out, n); /* untimed: out's pages are touched before any timing */
  for (int r = 0; r < runs; r++) {
    double t0 = bench_now();
    for (uint64_t b = 0; b < batch; b++) cn_parens_cpu(in, out, n);
    best[r] = (bench_now() - t0) / (double)batch;
  }
  for (int i = 1; i < runs; i++) /* insertion sort, then the median */
    for (int k = i; k > 0 && best[k] < best[k - 1]; k--) {
      double x = best[k];
      best[k] = best[k - 1];
      best[k - 1] = x;
    }
  return best[runs / 2];
}

int bench_parens(cn_context *ctx, const bench_opts *o, bench_report *rep) {
  const cn_device_caps *caps = cn_context_caps(ctx);
  int lo = o->min_log2 ? o->min_log2 : 10;
  int hi = o->max_log2 ? o->max_log2 : (o->quick ? 16 : 28);
  if (hi > 30) hi = 30;
  if (lo > hi) lo = hi;
  /* Shrink the largest size until its buffers fit (half the device memory). */
  uint64_t scratch_bytes = 0, nmax = 0;
  for (; hi >= lo; hi--) {
    nmax = 1ull << hi;
    scratch_bytes = 0;
    for (int v = 0; v < NV; v++) {
      uint64_t s = cn_parens_scratch_bytes(ctx, bench_variants[v], nmax);
      if (s > scratch_bytes) scratch_bytes = s;
    }
    uint64_t total = nmax + 4 * nmax + scratch_bytes;
    if (total <= caps->device_local_bytes / 2 && 4 * nmax <= caps->max_allocation_size &&
        scratch_bytes <= caps->max_allocation_size)
      break;
  }
  if (hi < lo) {
    fprintf(stderr, "canopy bench parens: not enough device memory for 2^%d elements\n", lo);
    return CLI_FAIL;
  }
  bench_printf(rep, "parentheses matching: random '(' and ')' (fair coin), n = 2^%d .. 2^%d\n", lo, hi);
  bench_printf(rep, "moved = n input bytes + 4n output bytes; copy = copy_u32x4 moving the same bytes in the same run\n");
  const char *stop = getenv("CANOPY_PARENS_LOWMARK_STOP");
  if (stop && *stop)
    bench_printf(rep, "CANOPY_PARENS_LOWMARK_STOP=%s: lowmark times its passes up to that one (unchecked)\n", stop);
  bench_printf(rep, "CPU = cn_parens_cpu (sequential, branchless explicit stack) on this host, after one untimed run,\n"
                    "      median of 5 (1 run from 2^25 up)\n");
  for (int v = 0; v < NV; v++)
    bench_printf(rep, "partition of %s: %llu elements\n", cn_parens_variant_name(bench_variants[v]),
                 (unsigned long long)cn_parens_partition_size(ctx, bench_variants[v]));
  bench_printf(rep, "\n");

  uint8_t *in = malloc(nmax);
  int32_t *want = malloc(nmax * 4), *got = malloc(nmax * 4), *cpu_out = malloc(nmax * 4);
  cn_buffer bin = {0}, bout = {0}, bscratch = {0};
  int rc = CLI_OK;
  cn_result r = (in && want && got && cpu_out) ? CN_OK : CN_ERROR_OUT_OF_MEMORY;
  if (r == CN_OK) {
    uint64_t x = 0x2545F4914F6CDD1Dull;
    for (uint64_t i = 0; i < nmax; i++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      in[i] = (x >> 32) & 1 ? ')' : '(';
    }
    cn_parens_cpu(in, want, nmax);
    r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, nmax + 16, &bin);
  }
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, 4 * nmax, &bout);
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, scratch_bytes + 5 * nmax / 2 + 32, &bscratch);
  if (r == CN_OK) r = cn_buffer_upload(ctx, &bin, 0, in, nmax);
  if (r != CN_OK) rc = cli_fail("bench", "setting up", r);

  /* The CPU reference first, so the GPU measurements run back to back. */
  double cpu_s_at[64] = {0};
  for (int lg = lo; lg <= hi && rc == CLI_OK; lg++) cpu_s_at[lg] = time_cpu(in, cpu_out, 1ull << lg, 5);

  bench_printf(rep, "%-5s %-10s %11s %9s %9s %8s %10s %11s %9s %9s\n", "n", "variant", "GPU us", "G elem/s",
               "GB/s", "of copy", "copy GB/s", "CPU us", "CPU Ge/s", "vs CPU");
  double best_frac26 = 0, best_speed26 = 0;
  int faster_from = -1; /* smallest log2 n from which the best GPU variant beats the CPU at every size */
  const char *best_name[64] = {0};
  for (int lg = lo; lg <= hi && rc == CLI_OK; lg++) {
    cli_progress("bench parens", lg - lo + 1, hi - lo + 1, "n = 2^%d", lg);
    uint64_t n = 1ull << lg;
    parens_job job = {.in = bin.address, .out = bout.address, .scratch = bscratch.address, .n = n};
    job.copy_bytes = ((5 * n / 2) + 15) & ~(uint64_t)15;
    double copy_ns, cpu_s = cpu_s_at[lg];
    r = bench_gpu_median(ctx, o, record_copy, &job, &copy_ns);
    if (r != CN_OK) {
      rc = cli_fail("bench", "timing the copy kernel", r);
      break;
    }
    double copy_gbs = 2.0 * (double)job.copy_bytes / copy_ns;
    double best_ns = 0;
    for (int v = 0; v < NV && rc == CLI_OK; v++) {
      if (!bench_variant_on(bench_variants[v])) continue;
      job.v = bench_variants[v];
      double ns;
      r = bench_gpu_median(ctx, o, record_parens, &job, &ns);
      if (r != CN_OK) {
        rc = cli_fail("bench", "timing parentheses matching", r);
        break;
      }
      /* Check the result (the buffer holds the last run's output). */
      /* Not checked when a pass-timing knob leaves out[] unwritten. */
      bool partial = job.v == CN_PARENS_LOWMARK && stop &&
                     (!strcmp(stop, "reduce") || !strcmp(stop, "tree") || !strcmp(stop, "window"));
      if ((lg <= 22 || lg == hi) && !partial) {
        r = cn_buffer_download(ctx, &bout, 0, got, n * 4);
        if (r != CN_OK) {
          rc = cli_fail("bench", "reading back", r);
          break;
        }
        if (memcmp(got, want, n * 4) != 0) {
          fprintf(stderr, "canopy bench parens: %s at n = 2^%d differs from the CPU reference\n",
                  cn_parens_variant_name(job.v), lg);
          rc = CLI_FAIL;
          break;
        }
      }
      double gbs = 5.0 * (double)n / ns;
      bench_printf(rep, "2^%-3d %-10s %11.2f %9.3f %9.1f %7.1f%% %10.1f %11.1f %9.3f %8.1fx\n", lg,
                   cn_parens_variant_name(job.v), ns / 1e3, (double)n / ns, gbs, 100.0 * gbs / copy_gbs, copy_gbs,
                   cpu_s * 1e6, (double)n / cpu_s / 1e9, cpu_s * 1e9 / ns);
      if (best_ns == 0 || ns < best_ns) {
        best_ns = ns;
        best_name[lg] = cn_parens_variant_name(job.v);
      }
      if (lg == 26) {
        if (100.0 * gbs / copy_gbs > best_frac26) best_frac26 = 100.0 * gbs / copy_gbs;
        if (cpu_s * 1e9 / ns > best_speed26) best_speed26 = cpu_s * 1e9 / ns;
      }
    }
    if (rc != CLI_OK) break;
    if (best_ns < cpu_s * 1e9) {
      if (faster_from < 0) faster_from = lg;
    } else {
      faster_from = -1;
    }
  }
  if (rc == CLI_OK) {
    bench_printf(rep, "\nfastest variant by size:");
    for (int lg = lo; lg <= hi; lg++) bench_printf(rep, " 2^%d %s%s", lg, best_name[lg], lg < hi ? "," : "\n");
    if (hi >= 26)
      bench_printf(rep, "at 2^26: best %.1f%% of copy bandwidth (target >= 50%%), %.0fx the CPU (target >= 300x)\n",
                   best_frac26, best_speed26);
    if (faster_from >= 0) bench_printf(rep, "best GPU variant faster than the CPU from 2^%d up (target 2^14)\n", faster_from);
    else bench_printf(rep, "best GPU variant not faster than the CPU at the largest size\n");
    bench_printf(rep, "all GPU results checked against the CPU reference at sizes <= 2^22 and 2^%d\n", hi);
  }
  cn_buffer_destroy(ctx, &bscratch);
  cn_buffer_destroy(ctx, &bout);
  cn_buffer_destroy(ctx, &bin);
  free(in);
  free(want);
  free(got);
  free(cpu_out);
  return rc;
}
