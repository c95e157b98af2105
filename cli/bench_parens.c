/* bench_parens.c: `canopy bench parens`: every parentheses-matching variant at
 * n = 2^min .. 2^max (default 2^10 .. 2^28, as device memory allows) on random
 * '(' / ')' input, against a copy kernel moving the same bytes in the same run
 * and the CPU reference on the same machine; then the same at the two largest
 * sizes on nested, drift and saw-tooth inputs; each pass of each variant timed
 * apart; lowmark's traffic model (the bytes each of its passes must move); and
 * the driver's statistics of every kernel built (registers, spills,
 * shared memory: VK_KHR_pipeline_executable_properties, "n/a" without it).
 * Every GPU result is checked against the CPU reference (a prefix of the input
 * has the prefix's output).
 *
 * Environment (read by cli_parens_tuning_env: this benchmark's tuning, and
 * every command's context tuning, cn_tuning.parens; the library reads none):
 *   CANOPY_PARENS_<SIMPLE|EFFICIENT|LOOKBACK|LOWMARK|SINGLE>=wg,k[,window]  a shape
 *   CANOPY_PARENS_LOWMARK_STAGE=0|1, CANOPY_PARENS_LOWMARK_REWALK=0|1, CANOPY_PARENS_LOWMARK_TABLES=0|1
 *   CANOPY_PARENS_LOWMARK_REDUCE_PARTS=1..64, CANOPY_PARENS_LOWMARK_WINDOW_CACHE=0|1,
 *   CANOPY_PARENS_LOWMARK_LIFT=0|1 (0: one shuffle per lane in place of the lifting, the default)
 *   CANOPY_PARENS_LOWMARK_SLICE_STAGE=N (reduce: slices of N entries or more staged; 1: all),
 *   CANOPY_PARENS_LOWMARK_WINDOW_BATCH=1..16 (window: entries in flight per invocation)
 *   CANOPY_PARENS_LOWMARK_WINDOW_LANES=1..64 (window: invocations per partition, a power of two)
 *   CANOPY_PARENS_LOWMARK_COMPACT=n|never (slices of n entries or more stored as chunk bitmasks)
 *   CANOPY_PARENS_LOWMARK_MATCH_PARTS=N (match: partitions per workgroup, one per subgroup)
 *   CANOPY_PARENS_LOWMARK_REDUCE_MULTI=N (reduce: the same, a power of two)
 *   CANOPY_PARENS_LOWMARK_ONEPASS=0|1 (lowmark in one dispatch, windows by look-back)
 *   CANOPY_BENCH_PARENS_TRAFFIC=only  print lowmark's traffic model at the largest size, time nothing
 *   CANOPY_PARENS_TREE_LEVELS=1..8, CANOPY_PARENS_SPIN_BUDGET=N
 *   CANOPY_PARENS_SINGLE_FORM=tree|lowmark, CANOPY_PARENS_SINGLE_LINKS=0|1
 *   CANOPY_PARENS_TREE_APART=0|1 (1: the partition tree in dispatches of its own, though this
 *   benchmark passes tickets)
 *   CANOPY_BENCH_PARENS_VARIANTS=name[,name...]  time only those variants */
#include "bench.h"


#include <stdlib.h>
#include <string.h>

enum { NV = 6, PASS_RUNS = 24, MAX_LABELS = 8 };
static const cn_parens_variant bench_variants[NV] = {CN_PARENS_SIMPLE,  CN_PARENS_EFFICIENT, CN_PARENS_LOOKBACK,
                                                     CN_PARENS_LOWMARK, CN_PARENS_SINGLE,    CN_PARENS_AUTO};

/* CANOPY_BENCH_PARENS_VARIANTS=name[,name...] times only those variants
 * (shape sweeps spend less device time); unset: all of them. */
static bool bench_variant_on(cn_parens_variant v) {
  const char *e = getenv("CANOPY_BENCH_PARENS_VARIANTS");
  if (!e || !*e) return true;
  const char *name = cn_parens_variant_name(v);
  size_t len = strlen(name);
  for (const char *p = e; (p = strstr(p, name)) != NULL; p += len)
    if ((p == e || p[-1] == ',') && (p[len] == ',' || p[len] == '\0')) return true;
  return false;
}

/* The tuning from the environment (see the header comment); false with a
 * message when a variable is malformed. */
bool cli_parens_tuning_env(cn_parens_tuning *t) {
  static const struct {
    cn_parens_variant v;
    const char *name;
  } shapes[] = {{CN_PARENS_SIMPLE, "CANOPY_PARENS_SIMPLE"},
                {CN_PARENS_EFFICIENT, "CANOPY_PARENS_EFFICIENT"},
                {CN_PARENS_LOOKBACK, "CANOPY_PARENS_LOOKBACK"},
                {CN_PARENS_LOWMARK, "CANOPY_PARENS_LOWMARK"},
                {CN_PARENS_SINGLE, "CANOPY_PARENS_SINGLE"}};
  memset(t, 0, sizeof *t);
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
    const char *e = getenv(shapes[i].name);
    if (!e || !*e) continue;
    unsigned wg = 0, k = 0, window = 0;
    if (sscanf(e, "%u,%u,%u", &wg, &k, &window) < 2) {
      fprintf(stderr, "canopy bench parens: %s=%s: expected wg,k[,window]\n", shapes[i].name, e);
      return false;
    }
    t->shape[shapes[i].v] = (cn_parens_shape){wg, k, window};
  }
  const char *e;
  if ((e = getenv("CANOPY_PARENS_LOWMARK_STAGE")) && *e) t->lowmark_stage = strcmp(e, "1") == 0;
  if ((e = getenv("CANOPY_PARENS_LOWMARK_REWALK")) && *e) t->lowmark_rewalk = strcmp(e, "1") == 0;
  if ((e = getenv("CANOPY_PARENS_TREE_LEVELS")) && *e) t->tree_levels = (uint32_t)strtoul(e, NULL, 10);
  if ((e = getenv("CANOPY_PARENS_SPIN_BUDGET")) && *e) t->spin_budget = (uint32_t)strtoul(e, NULL, 10);
  if ((e = getenv("CANOPY_PARENS_LOWMARK_TABLES")) && *e) t->lowmark_psv_tables = strcmp(e, "1") == 0;
  if ((e = getenv("CANOPY_PARENS_LOWMARK_WINDOW_CACHE")) && *e) t->lowmark_window_cache = strcmp(e, "1") == 0;
  if ((e = getenv("CANOPY_PARENS_LOWMARK_LIFT")) && *e) t->lowmark_psv_per_lane = strcmp(e, "0") == 0;
  if ((e = getenv("CANOPY_PARENS_LOWMARK_REDUCE_PARTS")) && *e) t->lowmark_reduce_parts = (uint32_t)strtoul(e, NULL, 10);
  if ((e = getenv("CANOPY_PARENS_LOWMARK_REDUCE_MULTI")) && *e) t->lowmark_reduce_multi = (uint32_t)strtoul(e, NULL, 10);
  if ((e = getenv("CANOPY_PARENS_LOWMARK_SLICE_STAGE")) && *e)
    t->lowmark_slice_stage_from = (uint32_t)strtoul(e, NULL, 10);
  if ((e = getenv("CANOPY_PARENS_LOWMARK_WINDOW_BATCH")) && *e) t->lowmark_window_batch = (uint32_t)strtoul(e, NULL, 10);
  if ((e = getenv("CANOPY_PARENS_LOWMARK_WINDOW_LANES")) && *e) t->lowmark_window_lanes = (uint32_t)strtoul(e, NULL, 10);
  if ((e = getenv("CANOPY_PARENS_LOWMARK_COMPACT")) && *e)
    t->lowmark_compact_from = strcmp(e, "never") == 0 ? CN_PARENS_COMPACT_NEVER : (uint32_t)strtoul(e, NULL, 10);
  if ((e = getenv("CANOPY_PARENS_LOWMARK_MATCH_PARTS")) && *e) t->lowmark_match_parts = (uint32_t)strtoul(e, NULL, 10);
  if ((e = getenv("CANOPY_PARENS_LOWMARK_ONEPASS")) && *e) t->lowmark_onepass = strcmp(e, "1") == 0;
  if ((e = getenv("CANOPY_PARENS_SINGLE_FORM")) && *e)
    t->single_form = strcmp(e, "lowmark") == 0 ? CN_PARENS_SINGLE_LOWMARK : CN_PARENS_SINGLE_TREE;
  if ((e = getenv("CANOPY_PARENS_SINGLE_LINKS")) && *e) t->single_psv_links = strcmp(e, "1") == 0;
  if ((e = getenv("CANOPY_PARENS_TREE_APART")) && *e) t->tree_apart = strcmp(e, "1") == 0;
  return true;
}

typedef struct parens_job {
  cn_parens_args a;
  uint64_t copy_bytes;
} parens_job;

static cn_result record_parens(cn_context *ctx, VkCommandBuffer cmd, void *user) {
  const parens_job *j = user;
  return cn_parens_record(ctx, cmd, &j->a);
}

/* The copy reads copy_bytes from out and writes them to scratch: 2 * copy_bytes
 * moved, the same as the n + 4n bytes of the matching. */
static cn_result record_copy(cn_context *ctx, VkCommandBuffer cmd, void *user) {
  const parens_job *j = user;
  return cn_copy_record(ctx, cmd, j->a.out, j->a.scratch, j->copy_bytes);
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

/* Inputs of the depth table. */
enum { IN_RANDOM, IN_NESTED, IN_DRIFT, IN_SAWTOOTH, IN_COUNT };
static const char *const input_names[IN_COUNT] = {"random", "nested", "drift", "sawtooth"};

static uint64_t bench_rng(uint64_t *x) {
  *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
  return *x;
}

/* The group nodes of `bench scene`'s synthetic stream: a fair coin that never
 * closes at depth 0 and closes everything at the end (depth >= 0 throughout). */
static void fill_reflect(uint8_t *in, uint64_t n) {
  uint64_t x = 0x9E3779B97F4A7C15ull, depth = 0;
  for (uint64_t i = 0; i < n; i++) {
    bool close = depth >= n - i || (depth && (bench_rng(&x) >> 32) & 1);
    in[i] = close ? ')' : '(';
    depth += close ? -1 : 1;
  }
}

/* random: a fair coin; nested: n/2 '(' then n/2 ')'; drift: runs of 1 ..
 * 40000 elements, each 9:1 biased towards '(' or ')' (the stack wanders far up
 * and down); sawtooth: balanced teeth, a climb of 1 .. 65536 '(' then as many ')'. */
static void fill_input(uint8_t *in, uint64_t n, int kind) {
  uint64_t x = 0x2545F4914F6CDD1Dull + (uint64_t)kind;
  uint64_t i = 0;
  while (i < n) {
    if (kind == IN_RANDOM) {
      in[i++] = (bench_rng(&x) >> 32) & 1 ? ')' : '(';
    } else if (kind == IN_NESTED) {
      in[i] = i < n / 2 ? '(' : ')';
      i++;
    } else if (kind == IN_DRIFT) {
      uint64_t run = 1 + bench_rng(&x) % 40000;
      bool up = bench_rng(&x) & 1;
      for (uint64_t k = 0; k < run && i < n; k++, i++) in[i] = ((bench_rng(&x) % 10 != 0) == up) ? '(' : ')';
    } else {
      uint64_t h = 1 + bench_rng(&x) % 65536;
      for (uint64_t k = 0; k < 2 * h && i < n; k++, i++) in[i] = k < h ? '(' : ')';
    }
  }
}

/* Bytes each pass of lowmark must move on input in[0, n) with partitions of
 * p elements (a model from the input alone, not a measurement): reduce reads
 * the input and writes each partition's bicyclic value and its slice of b
 * unmatched '(' (4 bytes an entry, or with the default threshold, b >= p / 4
 * where p <= 512, compactly: 8 bytes a chunk of 16 elements); window writes min(a + 1, p)
 * entries per partition (a its unmatched ')') and reads those that exist
 * below the stack's top (4 bytes an entry, a compact slice's chunk words 8
 * bytes per 16 entries; the tree searches' reads left out); match reads the
 * input and the window entries its queries reach (one per depth below the
 * partition's start) and writes the output. The tree's few bytes per
 * partition are left out. */
typedef struct lm_traffic {
  double reduce, window, match;
  double window_one; /* of window: partitions whose window lies inside one earlier slice */
} lm_traffic;

static lm_traffic lowmark_traffic(const uint8_t *in, uint64_t n, uint64_t p) {
  lm_traffic t = {0};
  uint64_t n1 = (n + p - 1) / p, sum_b = 0, sum_need = 0, sum_read = 0, sum_query = 0;
  double one = 0; /* bytes */
  /* the default threshold (stages/parens.c): a quarter of a partition of at most 512 elements */
  uint64_t compact_from = p <= 512 ? p / 4 : p + 1, sum_compact = 0, read_compact = 0; /* slices stored compactly, entries read from them */
  /* The stack before each partition as runs of (partition, entries, the
   * partition's slice length), top last. */
  uint64_t *run_q = malloc(n1 * sizeof *run_q), *run_len = malloc(n1 * sizeof *run_len), runs = 0;
  uint64_t *run_b = malloc(n1 * sizeof *run_b);
  uint64_t depth = 0; /* the stack's size before the partition */
  for (uint64_t q = 0; q < n1; q++) {
    int64_t g = 0, low = 0;
    uint64_t end = (q + 1) * p < n ? (q + 1) * p : n;
    for (uint64_t i = q * p; i < end; i++) {
      g += in[i] & 1 ? -1 : 1;
      if (g < low) low = g;
    }
    uint64_t a = (uint64_t)-low, b = (uint64_t)(g - low);
    uint64_t need = a + 1 < p ? a + 1 : p, read = need < depth ? need : depth;
    sum_b += b < compact_from ? b : 0;
    sum_compact += b < compact_from ? 0 : 1;
    sum_need += need;
    sum_read += read;
    sum_query += a < p ? a : p;
    if (run_q && run_len && run_b) {
      if (runs && run_len[runs - 1] >= read) one += 4.0 * (double)need + (run_b[runs - 1] >= compact_from ? 0.5 : 4.0) * (double)read;
      uint64_t left = read;
      for (uint64_t k = runs; k-- > 0 && left;) { /* the entries read, top first */
        uint64_t take = left < run_len[k] ? left : run_len[k];
        if (run_b[k] >= compact_from) read_compact += take;
        left -= take;
      }
      for (uint64_t pop = a; pop && runs;) { /* a pops, then b pushes */
        uint64_t k = pop < run_len[runs - 1] ? pop : run_len[runs - 1];
        run_len[runs - 1] -= k;
        pop -= k;
        if (!run_len[runs - 1]) runs--;
      }
      if (b) {
        run_q[runs] = q;
        run_b[runs] = b;
        run_len[runs++] = b;
      }
    }
    depth = (depth > a ? depth - a : 0) + b;
  }
  free(run_q);
  free(run_len);
  free(run_b);
  double in_bytes = (double)((n + 15) & ~(uint64_t)15);
  t.reduce = in_bytes + 8.0 * (double)n1 + 4.0 * (double)sum_b + 8.0 * (double)(p / 16) * (double)sum_compact;
  t.window = 4.0 * (double)(sum_need + sum_read - read_compact) + 0.5 * (double)read_compact;
  t.window_one = one;
  t.match = in_bytes + 4.0 * (double)sum_query + 4.0 * (double)n;
  return t;
}

/* The model's table for every input at n (copy_gbs > 0: also the time of
 * those bytes at the same-run copy rate). */
static void print_traffic(bench_report *rep, uint8_t *in, int lg, uint64_t p, double copy_gbs) {
  uint64_t n = 1ull << lg;
  bench_printf(rep, "\nlowmark traffic model at n = 2^%d, partition %llu: the bytes each pass must move (MB;\n"
                    "tree searches and the tree left out)%s\n",
               lg, (unsigned long long)p,
               copy_gbs > 0 ? "; \"at copy\" = those bytes at the same-run copy rate (us)" : "");
  bench_printf(rep, "(\"one slice\": of window, the bytes of windows that lie inside one earlier partition's slice)\n");
  bench_printf(rep, "%-10s %9s %9s %9s %9s %9s", "input", "reduce", "window", "one slice", "match", "sum");
  if (copy_gbs > 0) bench_printf(rep, "   at copy: %7s %7s %7s %7s", "reduce", "window", "match", "sum");
  bench_printf(rep, "\n");
  for (int kind = 0; kind < IN_COUNT; kind++) {
    fill_input(in, n, kind);
    lm_traffic t = lowmark_traffic(in, n, p);
    double sum = t.reduce + t.window + t.match;
    bench_printf(rep, "%-10s %9.1f %9.1f %9.1f %9.1f %9.1f", input_names[kind], t.reduce / 1e6, t.window / 1e6,
                 t.window_one / 1e6, t.match / 1e6, sum / 1e6);
    if (copy_gbs > 0)
      bench_printf(rep, "   at copy: %7.1f %7.1f %7.1f %7.1f", t.reduce / copy_gbs / 1e3, t.window / copy_gbs / 1e3,
                   t.match / copy_gbs / 1e3, sum / copy_gbs / 1e3);
    bench_printf(rep, "\n");
  }
}

/* Median nanoseconds of each labelled pass of one variant: PASS_RUNS
 * recordings, each mark-separated (cn_parens_args.timer), after o->warm_ms
 * of untimed runs (est_ns: a run's time; 0: measured first). */
static cn_result time_passes(cn_context *ctx, const bench_opts *o, parens_job *job, double est_ns, const char **labels,
                             double *ns, uint32_t *nlabels) {
  *nlabels = 0;
  if (est_ns <= 0) {
    cn_result er = bench_gpu_median(ctx, o, record_parens, job, &est_ns);
    if (er != CN_OK) return er;
  }
  uint32_t warm = bench_warm_runs(o, est_ns);
  cn_timer *timer = NULL;
  cn_result tr = cn_timer_create(ctx, 256, &timer);
  if (tr != CN_OK) return tr;
  VkCommandBuffer cmd;
  cn_result r = cn_cmd_begin(ctx, &cmd);
  uint32_t runs = 0;
  if (r == CN_OK) {
    cn_timer_reset(ctx, timer, cmd);
    for (uint32_t i = 0; i < warm && r == CN_OK; i++) {
      r = cn_parens_record(ctx, cmd, &job->a);
      cn_cmd_barrier(ctx, cmd);
    }
    parens_job timed = *job;
    timed.a.timer = timer;
    for (; runs < PASS_RUNS && r == CN_OK; runs++) {
      cn_timer_mark(ctx, timer, cmd, "start");
      r = cn_parens_record(ctx, cmd, &timed.a);
      cn_cmd_barrier(ctx, cmd);
    }
    cn_result s = cn_cmd_submit(ctx, cmd);
    if (r == CN_OK) r = s;
  }
  const char *span_labels[256];
  double spans[256];
  uint32_t nspans = 0;
  if (r == CN_OK) r = cn_timer_read(ctx, timer, &nspans, span_labels, spans, 256);
  cn_timer_destroy(ctx, timer);
  if (r != CN_OK) return r;
  /* Per run: the sum of each label's spans; then the median over runs. */
  double per[MAX_LABELS][PASS_RUNS];
  uint32_t run = 0;
  memset(per, 0, sizeof per);
  for (uint32_t i = 0; i < nspans; i++) {
    if (strcmp(span_labels[i], "start") == 0) {
      run++;
      continue;
    }
    uint32_t k = 0;
    while (k < *nlabels && strcmp(labels[k], span_labels[i]) != 0) k++;
    if (k == *nlabels) {
      if (k == MAX_LABELS) continue;
      labels[(*nlabels)++] = span_labels[i];
    }
    if (run < PASS_RUNS) per[k][run] += spans[i];
  }
  uint32_t nruns = run + 1 < runs ? run + 1 : runs;
  for (uint32_t k = 0; k < *nlabels; k++) {
    for (uint32_t i = 1; i < nruns; i++)
      for (uint32_t m = i; m > 0 && per[k][m] < per[k][m - 1]; m--) {
        double t = per[k][m];
        per[k][m] = per[k][m - 1];
        per[k][m - 1] = t;
      }
    ns[k] = per[k][nruns / 2];
  }
  return CN_OK;
}

int bench_parens(cn_context *ctx, const bench_opts *o, bench_report *rep) {
  const cn_device_caps *caps = cn_context_caps(ctx);
  cn_parens_tuning tuning;
  if (!cli_parens_tuning_env(&tuning)) return CLI_USAGE;
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
      uint64_t s = cn_parens_scratch_bytes(ctx, &(cn_parens_args){.variant = bench_variants[v], .n = nmax,
                                                                  .tuning = &tuning});
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
  uint64_t single_max = cn_parens_partition_size(ctx, &(cn_parens_args){.variant = CN_PARENS_SINGLE, .tuning = &tuning});
  bench_printf(rep, "parentheses matching: random '(' and ')' (fair coin), n = 2^%d .. 2^%d\n", lo, hi);
  bench_printf(rep, "moved = n input bytes + 4n output bytes; copy = copy_u32x4 moving the same bytes in the same run\n");
  bench_printf(rep, "CPU = cn_parens_cpu (sequential, branchless explicit stack) on this host, after one untimed run,\n"
                    "      median of 5 (1 run from 2^25 up)\n");
  for (int v = 0; v < NV; v++) {
    cn_parens_args pa = {.variant = bench_variants[v], .tuning = &tuning, .n = bench_variants[v] == CN_PARENS_SINGLE ? 0 : nmax};
    if (bench_variants[v] != CN_PARENS_AUTO)
      bench_printf(rep, "partition of %s: %llu elements%s\n", cn_parens_variant_name(bench_variants[v]),
                   (unsigned long long)cn_parens_partition_size(ctx, &pa),
                   bench_variants[v] == CN_PARENS_SINGLE ? " (its largest n; one workgroup, one dispatch)" : "");
  }
  bench_printf(rep, "auto at 2^10 .. 2^%d:", hi);
  for (int lg = 10; lg <= hi; lg++) bench_printf(rep, " %s", cn_parens_variant_name(cn_parens_choose(ctx, 1ull << lg)));
  bench_printf(rep, "\n\n");

  uint8_t *in = malloc(nmax);
  int32_t *want = malloc(nmax * 4), *got = malloc(nmax * 4), *cpu_out = malloc(nmax * 4);
  cn_buffer bin = {0}, bout = {0}, bscratch = {0}, btickets = {0};
  int rc = CLI_OK;
  cn_result r = (in && want && got && cpu_out) ? CN_OK : CN_ERROR_OUT_OF_MEMORY;
  /* lowmark's partition at the largest size (its default shape depends on n) */
  uint64_t lm_part =
      cn_parens_partition_size(ctx, &(cn_parens_args){.variant = CN_PARENS_LOWMARK, .n = nmax, .tuning = &tuning});
  const char *traffic = getenv("CANOPY_BENCH_PARENS_TRAFFIC");
  if (r == CN_OK && traffic && strcmp(traffic, "only") == 0 && lm_part) { /* the model alone, no GPU runs */
    print_traffic(rep, in, hi, lm_part, 0.0);
    free(in);
    free(want);
    free(got);
    free(cpu_out);
    return CLI_OK;
  }
  if (r == CN_OK) {
    fill_input(in, nmax, IN_RANDOM);
    cn_parens_cpu(in, want, nmax);
    r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, nmax + 16, &bin);
  }
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, 4 * nmax, &bout);
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, scratch_bytes + 5 * nmax / 2 + 32, &bscratch);
  if (r == CN_OK) r = cn_buffer_upload(ctx, &bin, 0, in, nmax);
  /* the matching's tickets (cn_parens_args.tickets), zeroed once: each
   * matching leaves them zero */
  uint64_t tbytes = cn_parens_ticket_bytes(nmax);
  uint8_t *zeros = r == CN_OK ? calloc(1, tbytes) : NULL;
  if (r == CN_OK && !zeros) r = CN_ERROR_OUT_OF_MEMORY;
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, tbytes, &btickets);
  if (r == CN_OK) r = cn_buffer_upload(ctx, &btickets, 0, zeros, tbytes);
  free(zeros);
  if (r != CN_OK) rc = cli_fail("bench", "setting up", r);

  /* The CPU reference first, so the GPU measurements run back to back. */
  double cpu_s_at[64] = {0};
  for (int lg = lo; lg <= hi && rc == CLI_OK; lg++) cpu_s_at[lg] = time_cpu(in, cpu_out, 1ull << lg, 5);

  /* The GPU idled through the CPU timings: keep it busy for a while (copies
   * of the largest size, then one untimed round of the smallest size's row)
   * so that the first row is not measured while its clocks come up. */
  for (int i = 0; i < 5 && rc == CLI_OK; i++) {
    parens_job warm = {.a = {.out = bout.address, .scratch = bscratch.address, .tickets = btickets.address}};
    warm.copy_bytes = ((5 * nmax / 2) + 15) & ~(uint64_t)15;
    double ns;
    r = bench_gpu_median(ctx, o, record_copy, &warm, &ns);
    if (r != CN_OK) rc = cli_fail("bench", "warming up", r);
  }
  for (int v = 0; v < NV && rc == CLI_OK; v++) {
    parens_job warm = {.a = {.variant = bench_variants[v], .in = bin.address, .out = bout.address,
                             .scratch = bscratch.address, .tickets = btickets.address, .n = 1ull << lo, .tuning = &tuning}};
    warm.copy_bytes = ((5 * warm.a.n / 2) + 15) & ~(uint64_t)15;
    double ns;
    if (bench_variants[v] == CN_PARENS_SINGLE && warm.a.n > single_max) continue;
    r = bench_gpu_median(ctx, o, v == 0 ? record_copy : record_parens, &warm, &ns);
    if (r == CN_OK && v == 0) r = bench_gpu_median(ctx, o, record_parens, &warm, &ns);
    if (r != CN_OK) rc = cli_fail("bench", "warming up", r);
  }

  bench_printf(rep, "%-5s %-10s %11s %9s %9s %8s %10s %11s %9s %9s\n", "n", "variant", "GPU us", "G elem/s",
               "GB/s", "of copy", "copy GB/s", "CPU us", "CPU Ge/s", "vs CPU");
  double best_frac26 = 0, best_speed26 = 0, copy_ns_at[64] = {0}, ns_at[64][NV];
  memset(ns_at, 0, sizeof ns_at);
  int faster_from = -1; /* smallest log2 n from which the best GPU variant beats the CPU at every size */
  const char *best_name[64] = {0};
  for (int lg = lo; lg <= hi && rc == CLI_OK; lg++) {
    cli_progress("bench parens", lg - lo + 1, hi - lo + 1, "n = 2^%d", lg);
    uint64_t n = 1ull << lg;
    parens_job job = {.a = {.in = bin.address, .out = bout.address, .scratch = bscratch.address, .tickets = btickets.address, .n = n,
                            .tuning = &tuning}};
    job.copy_bytes = ((5 * n / 2) + 15) & ~(uint64_t)15;
    double copy_ns, cpu_s = cpu_s_at[lg];
    r = bench_gpu_median(ctx, o, record_copy, &job, &copy_ns);
    if (r != CN_OK) {
      rc = cli_fail("bench", "timing the copy kernel", r);
      break;
    }
    copy_ns_at[lg] = copy_ns;
    double copy_gbs = 2.0 * (double)job.copy_bytes / copy_ns;
    double best_ns = 0;
    for (int v = 0; v < NV && rc == CLI_OK; v++) {
      if (!bench_variant_on(bench_variants[v])) continue;
      if (bench_variants[v] == CN_PARENS_SINGLE && n > single_max) continue;
      job.a.variant = bench_variants[v];
      double ns;
      r = bench_gpu_median(ctx, o, record_parens, &job, &ns);
      if (r != CN_OK) {
        rc = cli_fail("bench", "timing parentheses matching", r);
        break;
      }
      /* Check the result (the buffer holds the last run's output). */
      if (lg <= 22 || lg == hi) {
        r = cn_buffer_download(ctx, &bout, 0, got, n * 4);
        if (r != CN_OK) {
          rc = cli_fail("bench", "reading back", r);
          break;
        }
        if (memcmp(got, want, n * 4) != 0) {
          fprintf(stderr, "canopy bench parens: %s at n = 2^%d differs from the CPU reference\n",
                  cn_parens_variant_name(job.a.variant), lg);
          rc = CLI_FAIL;
          break;
        }
      }
      ns_at[lg][v] = ns;
      double gbs = 5.0 * (double)n / ns;
      bench_printf(rep, "2^%-3d %-10s %11.2f %9.3f %9.1f %7.1f%% %10.1f %11.1f %9.3f %8.1fx\n", lg,
                   cn_parens_variant_name(job.a.variant), ns / 1e3, (double)n / ns, gbs, 100.0 * gbs / copy_gbs,
                   copy_gbs, cpu_s * 1e6, (double)n / cpu_s / 1e9, cpu_s * 1e9 / ns);
      if (bench_variants[v] != CN_PARENS_AUTO && (best_ns == 0 || ns < best_ns)) {
        best_ns = ns;
        best_name[lg] = cn_parens_variant_name(job.a.variant);
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
      bench_printf(rep, "at 2^26: best %.1f%% of copy bandwidth (target >= 50%%), %.0fx the CPU\n", best_frac26,
                   best_speed26);
    if (lo <= 10 && ns_at[10][4] > 0)
      bench_printf(rep, "at 2^10: single %.2f us (target <= 10 us)\n", ns_at[10][4] / 1e3);
    if (faster_from >= 0) bench_printf(rep, "best GPU variant faster than the CPU from 2^%d up (target 2^12)\n", faster_from);
    else bench_printf(rep, "best GPU variant not faster than the CPU at the largest size\n");
    bench_printf(rep, "all GPU results checked against the CPU reference at sizes <= 2^22 and 2^%d\n", hi);
  }

  /* Depth: other inputs at the two largest sizes (from 2^20). */
  int dlo = hi >= 27 ? hi - 2 : hi;
  if (rc == CLI_OK && hi >= 20) {
    bench_printf(rep, "\ndepth: the same variants on other inputs (%% of the same-run copy; vs random = this input's\n"
                      "time over the fair-coin time at the same n; target: within 15%%)\n");
    bench_printf(rep, "%-5s %-10s %-10s %11s %8s %10s %8s\n", "n", "input", "variant", "GPU us", "of copy",
                 "vs random", "depth");
  }
  for (int lg = dlo; lg <= hi && rc == CLI_OK && hi >= 20; lg += 2) {
    uint64_t n = 1ull << lg;
    for (int kind = IN_NESTED; kind < IN_COUNT && rc == CLI_OK; kind++) {
      fill_input(in, n, kind);
      cn_parens_cpu(in, cpu_out, n);
      int64_t depth = 0, maxdepth = 0;
      for (uint64_t i = 0; i < n; i++) {
        depth += in[i] & 1 ? (depth > 0 ? -1 : 0) : 1;
        if (depth > maxdepth) maxdepth = depth;
      }
      r = cn_buffer_upload(ctx, &bin, 0, in, n);
      if (r != CN_OK) {
        rc = cli_fail("bench", "uploading", r);
        break;
      }
      for (int v = 0; v < NV && rc == CLI_OK; v++) {
        if (!bench_variant_on(bench_variants[v]) || bench_variants[v] == CN_PARENS_SINGLE) continue;
        parens_job job = {.a = {.variant = bench_variants[v], .in = bin.address, .out = bout.address,
                                .scratch = bscratch.address, .tickets = btickets.address, .n = n, .tuning = &tuning}};
        double ns;
        r = bench_gpu_median(ctx, o, record_parens, &job, &ns);
        if (r == CN_OK) r = cn_buffer_download(ctx, &bout, 0, got, n * 4);
        if (r != CN_OK) {
          rc = cli_fail("bench", "timing parentheses matching", r);
          break;
        }
        if (memcmp(got, cpu_out, n * 4) != 0) {
          fprintf(stderr, "canopy bench parens: %s on %s input at n = 2^%d differs from the CPU reference\n",
                  cn_parens_variant_name(job.a.variant), input_names[kind], lg);
          rc = CLI_FAIL;
          break;
        }
        double copy_gbs = 2.0 * (double)(((5 * n / 2) + 15) & ~(uint64_t)15) / copy_ns_at[lg];
        bench_printf(rep, "2^%-3d %-10s %-10s %11.2f %7.1f%% %9.2fx %8lld\n", lg, input_names[kind],
                     cn_parens_variant_name(job.a.variant), ns / 1e3, 100.0 * 5.0 * (double)n / ns / copy_gbs,
                     ns_at[lg][v] > 0 ? ns / ns_at[lg][v] : 0.0, (long long)maxdepth);
        if (lg == dlo && (job.a.variant == CN_PARENS_LOWMARK || job.a.variant == CN_PARENS_EFFICIENT)) {
          const char *labels[MAX_LABELS];
          double pns[MAX_LABELS];
          uint32_t nl = 0;
          if (time_passes(ctx, o, &job, ns, labels, pns, &nl) == CN_OK) {
            bench_printf(rep, "      passes (us):");
            for (uint32_t k = 0; k < nl; k++) bench_printf(rep, " %s %.1f", labels[k] + strlen("parens "), pns[k] / 1e3);
            bench_printf(rep, "\n");
          }
        }
      }
    }
  }
  /* The scene stage's input: its synthetic 2^20 stream has 105106 group nodes
   * (a walk that never goes below depth 0); the same n and 2^17 on fair-coin
   * and on that walk, each pass of lowmark apart. */
  static const uint64_t scene_ns[2] = {105106, 131072};
  if (rc == CLI_OK && nmax >= scene_ns[1])
    bench_printf(rep, "\nscene input: n = 105106 (the group nodes of `bench scene` at 2^20) and 2^17; random = fair coin,\n"
                      "reflect = a fair walk that never closes at depth 0 (the scene's group nodes)\n"
                      "%-7s %-8s %-10s %11s   passes (us)\n", "n", "input", "variant", "GPU us");
  for (int si = 0; si < 2 && rc == CLI_OK && nmax >= scene_ns[1]; si++) {
    uint64_t n = scene_ns[si];
    for (int kind = 0; kind < 2 && rc == CLI_OK; kind++) {
      if (kind == 0) fill_input(in, n, IN_RANDOM);
      else fill_reflect(in, n);
      cn_parens_cpu(in, cpu_out, n);
      r = cn_buffer_upload(ctx, &bin, 0, in, n);
      for (int v = 0; v < NV && rc == CLI_OK && r == CN_OK; v++) {
        cn_parens_variant pv = bench_variants[v];
        if (!bench_variant_on(pv) || pv == CN_PARENS_SINGLE || pv == CN_PARENS_LOOKBACK) continue;
        parens_job job = {.a = {.variant = pv, .in = bin.address, .out = bout.address, .scratch = bscratch.address, .tickets = btickets.address,
                                .n = n, .tuning = &tuning}};
        double ns;
        r = bench_gpu_median(ctx, o, record_parens, &job, &ns);
        if (r == CN_OK) r = cn_buffer_download(ctx, &bout, 0, got, n * 4);
        if (r != CN_OK) break;
        if (memcmp(got, cpu_out, n * 4) != 0) {
          fprintf(stderr, "canopy bench parens: %s on the scene input at n = %llu differs from the CPU reference\n",
                  cn_parens_variant_name(pv), (unsigned long long)n);
          rc = CLI_FAIL;
          break;
        }
        bench_printf(rep, "%-7llu %-8s %-10s %11.2f  ", (unsigned long long)n, kind ? "reflect" : "random",
                     cn_parens_variant_name(pv), ns / 1e3);
        const char *labels[MAX_LABELS];
        double pns[MAX_LABELS];
        uint32_t nl = 0;
        if (pv != CN_PARENS_AUTO && time_passes(ctx, o, &job, ns, labels, pns, &nl) == CN_OK)
          for (uint32_t k = 0; k < nl; k++) bench_printf(rep, " %s %.1f", labels[k] + strlen("parens "), pns[k] / 1e3);
        bench_printf(rep, "\n");
      }
      if (r != CN_OK && rc == CLI_OK) rc = cli_fail("bench", "timing the scene input", r);
    }
  }

  if (rc == CLI_OK && hi >= 17) { /* the fair-coin input back, for the pass times */
    fill_input(in, nmax, IN_RANDOM);
    r = cn_buffer_upload(ctx, &bin, 0, in, nmax);
    if (r != CN_OK) rc = cli_fail("bench", "uploading", r);
  }

  /* Each pass apart, at the largest size below 2^27 (a barrier and a
   * timestamp after each pass; their sum can exceed the whole's time). */
  int plg = hi > 26 ? 26 : hi;
  if (rc == CLI_OK) {
    bench_printf(rep, "\npasses at n = 2^%d, fair coin (median of %d recordings, us; a pass repeated, e.g. the\n"
                      "tree's, is summed):\n", plg, PASS_RUNS);
  }
  for (int v = 0; v < NV && rc == CLI_OK; v++) {
    if (!bench_variant_on(bench_variants[v]) || bench_variants[v] == CN_PARENS_AUTO) continue;
    if (bench_variants[v] == CN_PARENS_SINGLE && (1ull << plg) > single_max) continue;
    parens_job job = {.a = {.variant = bench_variants[v], .in = bin.address, .out = bout.address,
                            .scratch = bscratch.address, .tickets = btickets.address, .n = 1ull << plg, .tuning = &tuning}};
    const char *labels[MAX_LABELS];
    double ns[MAX_LABELS];
    uint32_t nl = 0;
    r = time_passes(ctx, o, &job, ns_at[plg][v], labels, ns, &nl); /* the row's time where it was timed */
    if (r == CN_ERROR_UNSUPPORTED) {
      bench_printf(rep, "  (no timestamps on this queue)\n");
      break;
    }
    if (r != CN_OK) {
      rc = cli_fail("bench", "timing passes", r);
      break;
    }
    double sum = 0;
    bench_printf(rep, "  %-10s", cn_parens_variant_name(job.a.variant));
    for (uint32_t k = 0; k < nl; k++) {
      bench_printf(rep, " %s %.1f", labels[k] + strlen("parens "), ns[k] / 1e3);
      sum += ns[k];
    }
    bench_printf(rep, "; sum %.1f\n", sum / 1e3);
  }
  if (rc == CLI_OK && bench_variant_on(CN_PARENS_LOWMARK) && lm_part) {
    uint64_t n = 1ull << plg;
    double copy_gbs = copy_ns_at[plg] > 0 ? 2.0 * (double)(((5 * n / 2) + 15) & ~(uint64_t)15) / copy_ns_at[plg] : 0.0;
    print_traffic(rep, in, plg,
                  cn_parens_partition_size(ctx, &(cn_parens_args){.variant = CN_PARENS_LOWMARK, .n = n, .tuning = &tuning}),
                  copy_gbs);
  }
  cn_buffer_destroy(ctx, &btickets);
  cn_buffer_destroy(ctx, &bscratch);
  cn_buffer_destroy(ctx, &bout);
  cn_buffer_destroy(ctx, &bin);
  free(in);
  free(want);
  free(got);
  free(cpu_out);
  return rc;
}
