/* bench_scan.c: `canopy bench scan`: the u32 sum scan (inclusive, in place) at
 * n = 2^min .. 2^max (default 2^10 .. 2^28, as device memory allows), one pass
 * with decoupled look-back against the two-pass reduce-then-scan, and a copy
 * kernel moving the same bytes (4n read, 4n written) in the same run. Every
 * result is checked against the CPU scan at sizes <= 2^22 and the largest.
 * CANOPY_BENCH_SCAN_SHAPES="wg,items[,backoff[,static[,entries[,agg[,apart[,early[,stream[,reload]]]]]]]]] ..."
 * adds one-pass rows of those block shapes, look-back pauses
 * (cn_scan_tuning.backoff), block orders (static: .static_order), look-back
 * windows (.lookback_entries), the block's total first (.aggregate_first),
 * output to another buffer than the input (apart), the early first
 * look-back window (.early_lookback) and the rows scanned and written one by
 * one after the look-back (.stream_rows), those rows loaded again after the
 * look-back (.reload_rows) (a sweep; this
 * benchmark only; wg and items 0: the default shape);
 * with CANOPY_BENCH_SCAN_BASE=0 those rows alone (one-pass, two-pass and
 * fenced left out). */
#include "bench.h"
#include <stdio.h>

#include <stdlib.h>
#include <string.h>

typedef struct scan_job {
  cn_scan_args a;
  VkDeviceAddress copy_dst;
} scan_job;

static cn_result record_scan(cn_context *ctx, VkCommandBuffer cmd, void *user) {
  const scan_job *j = user;
  return cn_scan_record(ctx, cmd, &j->a);
}

static cn_result record_copy(cn_context *ctx, VkCommandBuffer cmd, void *user) {
  const scan_job *j = user;
  return cn_copy_record(ctx, cmd, j->a.src, j->copy_dst, (4 * j->a.n + 15) & ~(uint64_t)15);
}

int bench_scan(cn_context *ctx, const bench_opts *o, bench_report *rep) {
  const cn_device_caps *caps = cn_context_caps(ctx);
  int lo = o->min_log2 ? o->min_log2 : 10;
  int hi = o->max_log2 ? o->max_log2 : (o->quick ? 16 : 28);
  if (hi > 30) hi = 30;
  if (lo > hi) lo = hi;
  enum { MAX_FORMS = 20 };
  cn_scan_tuning forms[MAX_FORMS] = {{.two_pass = false}, {.two_pass = false}, {.two_pass = true}, {.fenced = true}};
  char form_names[MAX_FORMS][24] = {"one-pass", "1p-state", "two-pass", "1p-fenced"};
  bool apart[MAX_FORMS] = {false};   /* output to the copy's buffer, not in place */
  bool persist[MAX_FORMS] = {false, true}; /* a persistent look-back state (cn_scan_args.state_bytes) */
  int nforms = caps->buffer_int64_atomics ? 4 : 3; /* the fenced look-back apart only where it is not the default */
  const char *sw = getenv("CANOPY_BENCH_SCAN_SHAPES"), *base = getenv("CANOPY_BENCH_SCAN_BASE");
  if (sw && *sw && base && strcmp(base, "0") == 0) nforms = 0; /* the listed shapes alone, the first timed first */
  for (const char *p = sw; p && *p && nforms < MAX_FORMS;) {
    unsigned wg = 0, items = 0, backoff = 0, ordered = 0, entries = 0, agg = 0, out = 0, early = 0, stream = 0, reload = 0;
    int used = 0, more = 0;
    if (sscanf(p, " %u,%u%n", &wg, &items, &used) != 2) {
      fprintf(stderr,
              "canopy bench scan: CANOPY_BENCH_SCAN_SHAPES=%s: expected "
              "\"wg,items[,backoff[,static[,entries[,agg[,apart[,early[,stream[,reload]]]]]]]]] ...\"\n",
              sw);
      return CLI_USAGE;
    }
    p += used;
    if (sscanf(p, ",%u%n", &backoff, &more) == 1) {
      p += more;
      if (sscanf(p, ",%u%n", &ordered, &more) == 1) {
        p += more;
        if (sscanf(p, ",%u%n", &entries, &more) == 1) {
          p += more;
          if (sscanf(p, ",%u%n", &agg, &more) == 1) {
            p += more;
            if (sscanf(p, ",%u%n", &out, &more) == 1) {
              p += more;
              if (sscanf(p, ",%u%n", &early, &more) == 1) {
                p += more;
                if (sscanf(p, ",%u%n", &stream, &more) == 1) {
                  p += more;
                  if (sscanf(p, ",%u%n", &reload, &more) == 1) p += more;
                }
              }
            }
          }
        }
      }
    }
    forms[nforms] = (cn_scan_tuning){.wg = wg,
                                     .items = items,
                                     .backoff = backoff,
                                     .static_order = ordered != 0,
                                     .lookback_entries = entries,
                                     .aggregate_first = agg != 0,
                                     .early_lookback = early != 0,
                                     .stream_rows = stream != 0,
                                     .reload_rows = reload != 0};
    apart[nforms] = out != 0;
    snprintf(form_names[nforms], sizeof form_names[nforms], "1p-%ux%u%s%.0u%s%s%.0u%s%s%s%s%s", wg, items,
             backoff ? "b" : "", backoff, ordered ? "s" : "", entries ? "w" : "", entries, agg ? "a" : "",
             out ? "o" : "", early ? "e" : "", stream ? "r" : "", reload ? "l" : "");
    nforms++;
    while (*p == ' ') p++;
  }
  uint64_t nmax = 0, scratch_bytes = 0, state_bytes = 0;
  for (; hi >= lo; hi--) {
    nmax = 1ull << hi;
    scratch_bytes = state_bytes = 0;
    for (int f = 0; f < nforms; f++) {
      cn_scan_args sa = {.op = CN_SCAN_U32_ADD, .n = nmax, .tuning = &forms[f]};
      uint64_t s = persist[f] ? cn_scan_state_bytes(ctx, &sa) : cn_scan_scratch_bytes(ctx, &sa);
      if (persist[f] && s > state_bytes) state_bytes = s;
      if (!persist[f] && s > scratch_bytes) scratch_bytes = s;
    }
    if (12 * nmax + scratch_bytes + state_bytes <= caps->device_local_bytes / 2 && 4 * nmax <= caps->max_allocation_size)
      break;
  }
  if (hi < lo) {
    fprintf(stderr, "canopy bench scan: not enough device memory for 2^%d elements\n", lo);
    return CLI_FAIL;
  }
  bench_printf(rep, "u32 sum scan, inclusive, in place: random words, n = 2^%d .. 2^%d\n", lo, hi);
  bench_printf(rep, "moved = 4n bytes read + 4n written; copy = copy_u32x4 moving the same bytes in the same run\n");
  bench_printf(rep, "one-pass: decoupled look-back, blocks of 256 x 16, 512 x 16 from 2^19, 512 x 32 with the block's\n"
                    "          total first from 2^21, 512 x 24 with the rows streamed from 2^22 (64-bit atomics)\n"
                    "          (a clear of its flags and the scan: 2 dispatches),\n"
                    "          n <= 16384 in one block and one dispatch (1024 x 16; 8 items per invocation up to 8192),\n"
                    "          flag and value in one 64-bit atomic word%s;\n"
                    "1p-state: the same with a persistent look-back state (each scan clears the next one's\n"
                    "          flags as it runs: 1 dispatch);\n"
                    "1p-fenced: the same with flag and value apart, ordered by memory fences;\n"
                    "two-pass: reduce, scan of the block sums (recursively), apply; 1p-WGxITEMS: other block shapes\n"
                    "          (0x0: the default; suffixes: bN pause, s static order, wN window, a total first,\n"
                    "          o output to another buffer, e early first window, r rows streamed)\n\n",
               caps->buffer_int64_atomics ? "" : " (not on this device: fenced)");
  uint32_t *in = malloc(nmax * 4), *want = malloc(nmax * 4), *got = malloc(nmax * 4);
  cn_buffer data = {0}, orig = {0}, copy = {0}, scratch = {0}, state = {0};
  int rc = CLI_OK;
  cn_result r = in && want && got ? CN_OK : CN_ERROR_OUT_OF_MEMORY;
  if (r == CN_OK) {
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (uint64_t i = 0; i < nmax; i++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      in[i] = (uint32_t)(x >> 32);
    }
    r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, 4 * nmax, &data);
  }
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, 4 * nmax, &orig);
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, 4 * nmax, &copy);
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, scratch_bytes, &scratch);
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, state_bytes ? state_bytes : 16, &state);
  if (r == CN_OK) r = cn_buffer_upload(ctx, &orig, 0, in, 4 * nmax);
  if (r == CN_OK && state_bytes) { /* the state is zeroed once, then only scans touch it */
    VkCommandBuffer cmd;
    r = cn_cmd_begin(ctx, &cmd);
    if (r == CN_OK) {
      r = cn_scan_state_init(ctx, cmd, state.address, state_bytes);
      cn_cmd_barrier(ctx, cmd);
      cn_result s = cn_cmd_submit(ctx, cmd);
      if (r == CN_OK) r = s;
    }
  }
  if (r != CN_OK) rc = cli_fail("bench", "setting up", r);

  bench_printf(rep, "%-5s %-13s %11s %9s %9s %8s %10s\n", "n", "form", "GPU us", "G elem/s", "GB/s", "of copy",
               "copy GB/s");
  double frac26 = 0, state26 = -1;
  for (int lg = lo; lg <= hi && rc == CLI_OK; lg++) {
    uint64_t n = 1ull << lg;
    scan_job job = {.a = {.op = CN_SCAN_U32_ADD, .src = data.address, .dst = data.address,
                          .scratch = scratch.address, .n = n},
                    .copy_dst = copy.address};
    double copy_ns;
    r = bench_gpu_median(ctx, o, record_copy, &job, &copy_ns);
    if (r != CN_OK) {
      rc = cli_fail("bench", "timing the copy kernel", r);
      break;
    }
    double copy_gbs = 8.0 * (double)n / copy_ns;
    for (int f = 0; f < nforms && rc == CLI_OK; f++) {
      job.a.tuning = &forms[f];
      job.a.dst = apart[f] ? copy.address : data.address;
      job.a.scratch = persist[f] ? state.address : scratch.address;
      job.a.state_bytes = persist[f] ? state_bytes : 0;
      double ns;
      r = bench_gpu_median(ctx, o, record_scan, &job, &ns);
      if (r != CN_OK) {
        rc = cli_fail("bench", "timing the scan", r);
        break;
      }
      if (lg <= 22 || lg == hi) { /* one scan of the original words, checked */
        VkCommandBuffer cmd;
        r = cn_cmd_begin(ctx, &cmd);
        if (r == CN_OK) {
          r = cn_copy_record(ctx, cmd, orig.address, data.address, 4 * n);
          cn_cmd_barrier(ctx, cmd);
          if (r == CN_OK) r = cn_scan_record(ctx, cmd, &job.a);
          cn_cmd_barrier(ctx, cmd);
          cn_result s = cn_cmd_submit(ctx, cmd);
          if (r == CN_OK) r = s;
        }
        if (r == CN_OK) r = cn_buffer_download(ctx, apart[f] ? &copy : &data, 0, got, 4 * n);
        if (r != CN_OK) {
          rc = cli_fail("bench", "checking the scan", r);
          break;
        }
        cn_scan_u32_cpu(in, want, n, false);
        if (memcmp(got, want, 4 * n) != 0) {
          fprintf(stderr, "canopy bench scan: %s at n = 2^%d differs from the CPU scan\n", form_names[f], lg);
          rc = CLI_FAIL;
          break;
        }
      }
      double gbs = 8.0 * (double)n / ns;
      bench_printf(rep, "2^%-3d %-13s %11.2f %9.3f %9.1f %7.1f%% %10.1f\n", lg, form_names[f], ns / 1e3,
                   (double)n / ns, gbs, 100.0 * gbs / copy_gbs, copy_gbs);
      if (lg == 26 && f == 0) frac26 = 100.0 * gbs / copy_gbs;
      if (lg == 26 && persist[f]) state26 = 100.0 * gbs / copy_gbs;
    }
  }
  if (rc == CLI_OK && hi >= 26) {
    bench_printf(rep, "\nat 2^26: %s %.1f%% of copy bandwidth", form_names[0], frac26);
    if (state26 >= 0) bench_printf(rep, ", 1p-state %.1f%%", state26);
    bench_printf(rep, " (target >= 70%%)\n");
  }
  if (rc == CLI_OK) bench_printf(rep, "results checked against the CPU scan at sizes <= 2^22 and 2^%d\n", hi);
  cn_buffer_destroy(ctx, &state);
  cn_buffer_destroy(ctx, &scratch);
  cn_buffer_destroy(ctx, &copy);
  cn_buffer_destroy(ctx, &orig);
  cn_buffer_destroy(ctx, &data);
  free(in);
  free(want);
  free(got);
  return rc;
}
