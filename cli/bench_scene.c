/* bench_scene.c: `canopy bench scene`: the scene stage, stage by stage (GPU
 * timestamps between stages, median of runs after warm-up), on synthetic
 * element streams n = 2^min .. 2^max (default 2^10 .. 2^24; about 10% clip and
 * blend BEGIN/END, random-walk depth, 16x16 bins of 256 px or bins of
 * CANOPY_BENCH_SCENE_BIN=px) and on the real scenes of tests/data/scenes-real
 * (path boxes included), with a copy kernel moving the box array in the same
 * run and the CPU reference alongside. Every GPU result is checked against the
 * CPU reference before it is reported. */
#include "bench.h"
#include <canopy/cn_bbox.h>
#include <canopy/cn_bins.h>
#include <canopy/cn_pathbox.h>
#include <canopy/cn_scan.h>
#include <canopy/cn_scene_stage.h>


#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Stage labels in recording order (cn_timer_mark labels of the stages). */
/* "bbox small" and "bins small" are the single-workgroup path of small
 * streams (cn_tuning.bbox_small_max, bins_small_max): one dispatch each in place of the
 * stages before them ("bbox small" with the path boxes' segments where the scene
 * stage folds them into it, bbox_small_segs); "bins rows" binning in one dispatch of a
 * workgroup per bin row (cn_tuning.bins_rows_max). */
static const char *const stage_labels[] = {"path boxes", "bbox compact", "bbox parens", "bbox clip",
                                           "bbox draws", "bbox blend",   "bbox small",  "bins count",
                                           "bins scan",  "bins fill",    "bins small",  "bins rows"};
enum { NSTAGES = sizeof stage_labels / sizeof stage_labels[0], MAX_REPS = 60 };

typedef struct scene_job {
  /* inputs on the device */
  cn_buffer tags, boxes, result, status, scratch, offsets, elems, copy_dst;
  cn_buffer scan_state; /* the scans' persistent look-back state (zeroed once), state_bytes of it */
  uint64_t state_bytes;
  bool keys_empty; /* scenes: the previous run of the stage left the paths' keys empty */
  cn_buffer arrays[5]; /* scenes: elements, paths, segments, transforms, strokes */
  const cn_scene_data *scene;
  uint64_t n, groups, capacity;
  float viewport[4];
  cn_bins_grid grid;
} scene_job;

static void job_free(cn_context *ctx, scene_job *j) {
  cn_buffer *b[] = {&j->tags,    &j->boxes, &j->result, &j->status,  &j->scratch,
                    &j->offsets, &j->elems, &j->copy_dst, &j->scan_state};
  for (size_t i = 0; i < sizeof b / sizeof b[0]; i++) cn_buffer_destroy(ctx, b[i]);
  for (int k = 0; k < 5; k++) cn_buffer_destroy(ctx, &j->arrays[k]);
}

/* Scenes run the whole scene stage as the library sequences it
 * (cn_scene_stage_record: path boxes, bbox, bins); synthetic streams, which
 * have their element boxes already, the bbox and bins stages. */
static cn_scene_stage_args scene_args(const scene_job *j, cn_timer *t) {
  const cn_scene_data *s = j->scene;
  return (cn_scene_stage_args){.elements = j->arrays[0].address,
                               .paths = j->arrays[1].address,
                               .segments = j->arrays[2].address,
                               .transforms = j->arrays[3].address,
                               .strokes = j->arrays[4].address,
                               .element_count = s->element_count,
                               .path_count = s->path_count,
                               .segment_count = s->segment_count,
                               .transform_count = s->transform_count,
                               .stroke_count = s->stroke_count,
                               .viewport = {j->viewport[0], j->viewport[1], j->viewport[2], j->viewport[3]},
                               .group_bound = j->groups,
                               .grid = j->grid,
                               .tags = j->tags.address,
                               .path_boxes = j->boxes.address,
                               .boxes = j->result.address,
                               .status = j->status.address,
                               .bin_offsets = j->offsets.address,
                               .bin_elems = j->elems.address,
                               .bin_capacity = j->capacity,
                               .scratch = j->scratch.address,
                               .timer = t,
                               .scan_state = j->scan_state.address,
                               .scan_state_bytes = j->state_bytes,
                               .path_keys_empty = j->keys_empty};
}

static cn_result record_stage(cn_context *ctx, VkCommandBuffer cmd, scene_job *j, cn_timer *t) {
  if (j->scene) {
    cn_scene_stage_args a = scene_args(j, t);
    return cn_scene_stage_record(ctx, cmd, &a);
  }
  cn_bbox_args ba = {.tags = j->tags.address,
                     .boxes = j->boxes.address,
                     .result = j->result.address,
                     .status = j->status.address,
                     .scratch = j->scratch.address,
                     .n = j->n,
                     .group_bound = j->groups,
                     .viewport = {j->viewport[0], j->viewport[1], j->viewport[2], j->viewport[3]},
                     .timer = t,
                     .scan_state = j->scan_state.address,
                     .scan_state_bytes = j->state_bytes};
  CLI_TRY(cn_bbox_record(ctx, cmd, &ba));
  cn_cmd_barrier(ctx, cmd);
  cn_bins_args na = {.boxes = j->result.address,
                     .bin_offsets = j->offsets.address,
                     .elems = j->elems.address,
                     .scratch = j->scratch.address,
                     .n = j->n,
                     .capacity = j->capacity,
                     .grid = j->grid,
                     .timer = t,
                     .scan_state = j->scan_state.address,
                     .scan_state_bytes = j->state_bytes};
  return cn_bins_record(ctx, cmd, &na);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}
static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The passes inside stages (cn_tuning.timer_passes): labels and medians (ns)
 * in recording order. */
enum { MAX_PASSES = 16 };
typedef struct pass_times {
  int count;
  const char *label[MAX_PASSES];
  double ns[MAX_PASSES];
} pass_times;

/* Records and submits reps runs of the stage, each after a barrier and a
 * "gap" mark, as a frame loop does: from the second run on, the keys the run
 * before left empty are not cleared again. With stage_marks the stages mark
 * themselves on t and one "end" mark follows the last run; without, the
 * stages mark nothing and a "run" mark follows each run. */
static cn_result record_runs(cn_context *ctx, scene_job *j, int reps, cn_timer *t, bool stage_marks) {
  VkCommandBuffer cmd;
  cn_result r = cn_cmd_begin(ctx, &cmd);
  if (r != CN_OK) return r;
  cn_timer_reset(ctx, t, cmd);
  for (int i = 0; i < reps && r == CN_OK; i++) {
    cn_cmd_barrier(ctx, cmd);
    cn_timer_mark(ctx, t, cmd, "gap");
    if (j->scene) {
      cn_scene_stage_args a = scene_args(j, NULL);
      j->keys_empty = i > 0 && cn_scene_stage_keeps_keys_empty(ctx, &a);
    }
    r = record_stage(ctx, cmd, j, stage_marks ? t : NULL);
    cn_cmd_barrier(ctx, cmd);
    if (!stage_marks) cn_timer_mark(ctx, t, cmd, "run");
    else if (i == reps - 1) cn_timer_mark(ctx, t, cmd, "end");
  }
  j->keys_empty = false;
  cn_result s = cn_cmd_submit(ctx, cmd);
  return r == CN_OK ? s : r;
}

/* Per-stage medians (ns), the median of whole runs and, where the stages
 * mark their passes, each pass's median. A stage's time is the sum of the
 * spans since the previous stage's mark (its passes' and its own). */
static cn_result time_stages(cn_context *ctx, const bench_opts *o, scene_job *j, double *stage_ns, double *total_ns,
                             pass_times *passes) {
  int reps = o->warmup + o->runs;
  if (reps > MAX_REPS) reps = MAX_REPS;
  cn_timer *t = NULL;
  CLI_TRY(cn_timer_create(ctx, (uint32_t)(reps * (NSTAGES + MAX_PASSES + 1) + 1), &t));
  cn_result r = record_runs(ctx, j, reps, t, true);
  enum { CAP = MAX_REPS * (NSTAGES + MAX_PASSES + 1) + 1 };
  static double ns[CAP];
  static const char *labels[CAP];
  uint32_t nspans = 0;
  if (r == CN_OK) r = cn_timer_read(ctx, t, &nspans, labels, ns, CAP);
  cn_timer_destroy(ctx, t);
  if (r != CN_OK) return r;
  static double per[NSTAGES][MAX_REPS], tot[MAX_REPS], pper[MAX_PASSES][MAX_REPS];
  int cnt[NSTAGES] = {0}, pcnt[MAX_PASSES] = {0}, run = -1;
  double pending = 0; /* the spans of passes since the last stage's mark */
  for (int k = 0; k < NSTAGES; k++) stage_ns[k] = 0;
  passes->count = 0;
  for (uint32_t i = 0; i < nspans; i++) {
    if (strcmp(labels[i], "gap") == 0) {
      run++;
      pending = 0;
      if (run >= o->warmup) tot[run - o->warmup] = 0;
      continue;
    }
    if (run < o->warmup) continue;
    int stage = -1;
    for (int k = 0; k < NSTAGES && stage < 0; k++)
      if (strcmp(labels[i], stage_labels[k]) == 0) stage = k;
    if (stage >= 0) {
      per[stage][cnt[stage]++] = pending + ns[i];
      pending = 0;
    } else if (strcmp(labels[i], "end") != 0) {
      int p = 0;
      while (p < passes->count && strcmp(passes->label[p], labels[i]) != 0) p++;
      if (p == passes->count && p < MAX_PASSES) passes->label[passes->count++] = labels[i];
      if (p < passes->count) pper[p][pcnt[p]++] = ns[i];
      pending += ns[i];
    }
    tot[run - o->warmup] += ns[i];
  }
  int timed = run + 1 - o->warmup;
  if (timed < 1) return cn_error_set(CN_ERROR_STATE, "bench scene: no timed runs");
  for (int k = 0; k < NSTAGES; k++) stage_ns[k] = cnt[k] ? median(per[k], cnt[k]) : 0;
  for (int p = 0; p < passes->count; p++) passes->ns[p] = median(pper[p], pcnt[p]);
  *total_ns = median(tot, timed);
  return CN_OK;
}

/* The median of whole runs recorded without a timestamp between the stages
 * (each timestamp costs about a microsecond of the run, docs/PERF.md): what
 * a frame without a timer spends. */
static cn_result time_plain(cn_context *ctx, const bench_opts *o, scene_job *j, double *plain_ns) {
  int reps = o->warmup + o->runs;
  if (reps > MAX_REPS) reps = MAX_REPS;
  cn_timer *t = NULL;
  CLI_TRY(cn_timer_create(ctx, (uint32_t)(2 * reps + 1), &t));
  cn_result r = record_runs(ctx, j, reps, t, false);
  enum { CAP = 2 * MAX_REPS + 1 };
  static double ns[CAP], runs[MAX_REPS];
  static const char *labels[CAP];
  uint32_t nspans = 0;
  if (r == CN_OK) r = cn_timer_read(ctx, t, &nspans, labels, ns, CAP);
  cn_timer_destroy(ctx, t);
  if (r != CN_OK) return r;
  int run = 0, timed = 0;
  for (uint32_t i = 0; i < nspans; i++)
    if (strcmp(labels[i], "run") == 0 && run++ >= o->warmup) runs[timed++] = ns[i];
  if (timed < 1) return cn_error_set(CN_ERROR_STATE, "bench scene: no timed runs");
  *plain_ns = median(runs, timed);
  return CN_OK;
}

static cn_result record_copy(cn_context *ctx, VkCommandBuffer cmd, void *user) {
  scene_job *j = user;
  return cn_copy_record(ctx, cmd, j->result.address, j->copy_dst.address, j->n * 16);
}

/* Uploads the stream (tags + boxes) or the scene, sizes every buffer. */
static cn_result job_setup(cn_context *ctx, scene_job *j, const uint32_t *tags, const cn_box *boxes) {
  uint64_t n = j->n, nn = n ? n : 1;
  uint64_t scratch = cn_bbox_scratch_bytes(ctx, &(cn_bbox_args){.n = n, .group_bound = j->groups});
  uint64_t bs = cn_bins_scratch_bytes(ctx, &(cn_bins_args){.n = n, .grid = j->grid});
  if (bs > scratch) scratch = bs;
  j->capacity = 8 * nn + 1024;
  /* the scans' persistent state (none where the stages run no scan) */
  cn_scene_stage_args a = {.element_count = (uint32_t)n, .group_bound = j->groups, .grid = j->grid, .bin_offsets = 1};
  if (j->scene) {
    a = scene_args(j, NULL);
    a.bin_offsets = 1; /* binned: the grid counts */
    uint64_t ss = cn_scene_stage_scratch_bytes(ctx, &a);
    if (ss > scratch) scratch = ss;
  }
  uint64_t state = cn_scene_stage_scan_state_bytes(ctx, &a);
  uint64_t nbins = (uint64_t)j->grid.nbx * j->grid.nby;
  cn_result r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, nn * 4, &j->tags);
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, nn * 16, &j->boxes);
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, nn * 16, &j->result);
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, nn * 16, &j->copy_dst);
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_READBACK, 16, &j->status);
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, scratch, &j->scratch);
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, (nbins + 1) * 4, &j->offsets);
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, j->capacity * 4, &j->elems);
  if (r == CN_OK && state) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, state, &j->scan_state);
  if (r == CN_OK && state) {
    j->state_bytes = j->scan_state.size & ~(uint64_t)7;
    VkCommandBuffer cmd;
    r = cn_cmd_begin(ctx, &cmd);
    if (r == CN_OK) {
      r = cn_scan_state_init(ctx, cmd, j->scan_state.address, j->state_bytes);
      cn_cmd_barrier(ctx, cmd);
      cn_result s = cn_cmd_submit(ctx, cmd);
      if (r == CN_OK) r = s;
    }
  }
  if (r == CN_OK && tags && n) r = cn_buffer_upload(ctx, &j->tags, 0, tags, n * 4);
  if (r == CN_OK && boxes && n) r = cn_buffer_upload(ctx, &j->boxes, 0, boxes, n * 16);
  if (r == CN_OK && j->scene) {
    const cn_scene_data *s = j->scene;
    const void *data[5] = {s->elements, s->paths, s->segments, s->transforms, s->strokes};
    uint64_t bytes[5] = {(uint64_t)s->element_count * sizeof(cn_element), (uint64_t)s->path_count * sizeof(cn_path),
                         (uint64_t)s->segment_count * sizeof(cn_segment),
                         (uint64_t)s->transform_count * sizeof(cn_transform),
                         (uint64_t)s->stroke_count * sizeof(cn_stroke)};
    for (int k = 0; k < 5 && r == CN_OK; k++) {
      r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, bytes[k] ? bytes[k] : 16, &j->arrays[k]);
      if (r == CN_OK && bytes[k]) r = cn_buffer_upload(ctx, &j->arrays[k], 0, data[k], bytes[k]);
    }
  }
  return r;
}

/* Runs once, checks the GPU against the CPU reference (boxes bit for bit, bin
 * lists exactly), and returns the CPU reference's seconds. */
static cn_result job_check(cn_context *ctx, scene_job *j, const uint32_t *tags, const cn_box *boxes, double *cpu_s) {
  uint64_t n = j->n, nn = n ? n : 1;
  VkCommandBuffer cmd;
  CLI_TRY(cn_cmd_begin(ctx, &cmd));
  cn_result r = record_stage(ctx, cmd, j, NULL);
  cn_cmd_barrier(ctx, cmd);
  cn_result s = cn_cmd_submit(ctx, cmd);
  if (r == CN_OK) r = s;
  if (r != CN_OK) return r;
  cn_bbox_status st;
  memcpy(&st, j->status.mapped, sizeof st);
  CLI_TRY(cn_bbox_status_check(&st, j->groups));
  cn_box *in = malloc(nn * 16), *got = malloc(nn * 16), *want = malloc(nn * 16);
  uint32_t *tg = malloc(nn * 4);
  uint64_t nbins = (uint64_t)j->grid.nbx * j->grid.nby;
  uint32_t *goff = malloc((nbins + 1) * 4), *woff = NULL, *wel = NULL;
  uint64_t wtotal = 0;
  if (!in || !got || !want || !tg || !goff) r = cn_error_set(CN_ERROR_OUT_OF_MEMORY, "bench: out of host memory");
  /* The CPU starts from the same element boxes (the GPU's path boxes for scenes). */
  if (r == CN_OK) r = boxes ? (memcpy(in, boxes, n * 16), CN_OK) : cn_buffer_download(ctx, &j->boxes, 0, in, n * 16);
  if (r == CN_OK) r = tags ? (memcpy(tg, tags, n * 4), CN_OK) : cn_buffer_download(ctx, &j->tags, 0, tg, n * 4);
  if (r == CN_OK && n) r = cn_buffer_download(ctx, &j->result, 0, got, n * 16);
  if (r == CN_OK) r = cn_buffer_download(ctx, &j->offsets, 0, goff, (nbins + 1) * 4);
  double t0 = bench_now();
  if (r == CN_OK) r = cn_bbox_cpu(tg, in, n, j->viewport, want);
  if (r == CN_OK) r = cn_bins_cpu(want, n, &j->grid, &woff, &wel, &wtotal);
  *cpu_s = bench_now() - t0;
  if (r == CN_OK && (memcmp(got, want, n * 16) != 0 || memcmp(goff, woff, (nbins + 1) * 4) != 0))
    r = cn_error_set(CN_ERROR_STATE, "bench scene: the GPU disagrees with the CPU reference at n = %llu",
                (unsigned long long)n);
  if (r == CN_OK && wtotal > j->capacity)
    r = cn_error_set(CN_ERROR_LIMIT, "bench scene: bin capacity %llu < %llu", (unsigned long long)j->capacity,
                (unsigned long long)wtotal);
  uint32_t *gel = r == CN_OK ? malloc((wtotal ? wtotal : 1) * 4) : NULL;
  if (r == CN_OK && !gel) r = cn_error_set(CN_ERROR_OUT_OF_MEMORY, "bench: out of host memory");
  if (r == CN_OK && wtotal) r = cn_buffer_download(ctx, &j->elems, 0, gel, wtotal * 4);
  if (r == CN_OK && memcmp(gel, wel, wtotal * 4) != 0)
    r = cn_error_set(CN_ERROR_STATE, "bench scene: the GPU's bin lists differ from the CPU's at n = %llu",
                (unsigned long long)n);
  free(gel);
  free(in), free(got), free(want), free(tg), free(goff), free(woff), free(wel);
  return r;
}

/* A synthetic stream: ~10% BEGIN/END (half clips, half blends), a random walk
 * of depth, boxes of 2..200 px in a 4096 x 4096 viewport. */
static void synth(uint64_t n, uint32_t *tags, cn_box *boxes, uint64_t *groups) {
  uint64_t state = 0x9E3779B97F4A7C15ull ^ n, depth = 0, g = 0;
  uint32_t *stack = malloc((n ? n : 1) * 4);
#define RND() (state ^= state << 13, state ^= state >> 7, state ^= state << 17, state)
  for (uint64_t i = 0; i < n; i++) {
    uint64_t r = RND() % 1000, left = n - i;
    uint32_t tag;
    if (depth >= left || (depth && r < 50)) tag = stack[--depth] + 1;
    else if (r < 100 && depth + 2 <= left) tag = stack[depth++] = (RND() & 1) ? CN_TAG_BEGIN_CLIP : CN_TAG_BEGIN_BLEND;
    else tag = (RND() & 1) ? CN_TAG_FILL : CN_TAG_STROKE;
    g += tag >= CN_TAG_BEGIN_CLIP;
    float x = (float)(RND() % 4096), y = (float)(RND() % 4096);
    float w = tag == CN_TAG_BEGIN_CLIP ? 400.0f + (float)(RND() % 2000) : 2.0f + (float)(RND() % 199);
    float h = tag == CN_TAG_BEGIN_CLIP ? 400.0f + (float)(RND() % 2000) : 2.0f + (float)(RND() % 199);
    tags[i] = tag;
    boxes[i] = (cn_box){x, y, x + w, y + h};
  }
#undef RND
  free(stack);
  *groups = g;
}

static double floor_ns; /* the dispatch floor of this run (bench_floor) */

static void print_row(bench_report *rep, const char *name, const scene_job *j, const double *st, double total,
                      double plain, double copy_ns, double cpu_s) {
  double bbox = 0;
  for (int k = 1; k <= 6; k++) bbox += st[k];
  /* bbox moves at least tags (4n) + boxes (16n) in, results (16n) out; the copy 16n in, 16n out */
  double gbs = bbox > 0 ? 36.0 * (double)j->n / bbox : 0, copy_gbs = copy_ns > 0 ? 32.0 * (double)j->n / copy_ns : 0;
  bench_printf(rep, "%-24s %9llu %8llu", name, (unsigned long long)j->n, (unsigned long long)j->groups);
  for (int k = 0; k < NSTAGES; k++) bench_printf(rep, " %8.1f", st[k] / 1e3);
  bench_printf(rep, " %9.1f %8.1f %7.1f%% %9.3f %8.1fx %9.1f\n", total / 1e3, copy_ns / 1e3,
               copy_gbs > 0 ? 100.0 * gbs / copy_gbs : 0, cpu_s * 1e3, total > 0 ? cpu_s * 1e9 / total : 0,
               plain / 1e3);
  if (floor_ns > 0) { /* the same stages in multiples of the dispatch floor */
    bench_printf(rep, "%-24s %9s %8s", "  x floor", "", "");
    for (int k = 0; k < NSTAGES; k++) bench_printf(rep, " %8.1f", st[k] / floor_ns);
    bench_printf(rep, " %9.1f\n", total / floor_ns);
  }
}

/* One run of the stage without marks (bench_gpu_warm's record function). */
static cn_result record_stage_plain(cn_context *ctx, VkCommandBuffer cmd, void *user) {
  return record_stage(ctx, cmd, user, NULL);
}

static int run_job(cn_context *ctx, const bench_opts *o, bench_report *rep, const char *name, scene_job *j,
                   const uint32_t *tags, const cn_box *boxes) {
  double st[NSTAGES], total = 0, plain = 0, copy_ns = 0, cpu_s = 0;
  pass_times passes = {0};
  cn_result r = job_setup(ctx, j, tags, boxes);
  if (r == CN_OK) r = job_check(ctx, j, tags, boxes, &cpu_s);
  /* the clocks, down while the CPU reference ran, up again before the timed runs */
  if (r == CN_OK) r = bench_gpu_warm(ctx, o, record_stage_plain, j);
  if (r == CN_OK) r = time_stages(ctx, o, j, st, &total, &passes);
  if (r == CN_OK) r = time_plain(ctx, o, j, &plain);
  if (r == CN_OK && j->n) r = bench_gpu_median(ctx, o, record_copy, j, &copy_ns);
  if (r == CN_OK) print_row(rep, name, j, st, total, plain, copy_ns, cpu_s);
  if (r == CN_OK && passes.count) { /* --passes: each pass inside the stages, in order */
    bench_printf(rep, "%-24s", "  passes (us)");
    for (int p = 0; p < passes.count; p++) bench_printf(rep, "  %s %.1f", passes.label[p], passes.ns[p] / 1e3);
    bench_printf(rep, "\n");
  }
  job_free(ctx, j);
  if (r != CN_OK) {
    fprintf(stderr, "canopy bench scene: %s: %s: %s\n", name, cn_result_name(r), cn_last_error());
    return CLI_FAIL;
  }
  return CLI_OK;
}

static void print_head(bench_report *rep) {
  bench_printf(rep, "%-24s %9s %8s", "input", "n", "groups");
  const char *short_names[NSTAGES] = {"pathbox", "compact", "parens",  "clip",    "draws", "blend",
                                      "bbox1",   "bincount", "binscan", "binfill", "bins1",  "binsrow"};
  for (int k = 0; k < NSTAGES; k++) bench_printf(rep, " %8s", short_names[k]);
  bench_printf(rep, " %9s %8s %8s %9s %9s %9s\n", "total_us", "copy_us", "bbox/cp", "cpu_ms", "vs_cpu", "plain_us");
}

int bench_scene(cn_context *ctx, const bench_opts *o, bench_report *rep) {
  int lo = o->min_log2 ? o->min_log2 : 10, hi = o->max_log2 ? o->max_log2 : (o->quick ? 16 : 24);
  if (hi > 26) hi = 26;
  if (lo > hi) lo = hi;
  /* CANOPY_BENCH_SCENE_BIN=px: the synthetic streams' bin size (16..4096, default 256: 16 x 16 bins) */
  uint32_t bin = 256;
  const char *be = getenv("CANOPY_BENCH_SCENE_BIN");
  if (be && *be) {
    char *end;
    unsigned long v = strtoul(be, &end, 10);
    if (*end || v < 16 || v > 4096) {
      fprintf(stderr, "canopy bench scene: CANOPY_BENCH_SCENE_BIN=%s: a bin size of 16 to 4096 pixels\n", be);
      return CLI_USAGE;
    }
    bin = (uint32_t)v;
  }
  uint32_t side = (4096 + bin - 1) / bin;
  bench_printf(rep, "scene stage: per-stage GPU time in microseconds (medians); synthetic streams: ~10%% BEGIN/END\n"
                    "(clips and blends), random-walk depth, boxes of 2..200 px in 4096 x 4096, %u x %u bins of %u px.\n"
                    "total_us = median of whole runs (compaction through bins, + path boxes for scenes; a scene's\n"
                    "pathbox is 0 where bbox1 folds its segments too: bbox_small_segs, cn_tuning.pathbox_fold_max);\n"
                    "copy_us = copy_u32x4 of the 16n-byte box array in the same run; bbox/cp = bytes/s of the five\n"
                    "bbox stages (36n bytes: tags, boxes in, results out) over the copy's bytes/s;\n"
                    "cpu_ms = cn_bbox_cpu + cn_bins_cpu on this host (one run); vs_cpu = cpu / total;\n"
                    "plain_us = median of whole runs recorded without the timestamps between stages (a frame\n"
                    "without a timer; the columns before include those timestamps).\n"
                    "Every row was checked against the CPU reference first.\n\n",
               side, side, bin);
  /* --passes: the stages mark each pass (restored at the end) */
  const cn_tuning saved = *cn_context_tuning(ctx);
  if (o->passes) {
    cn_tuning t = saved;
    t.timer_passes = true;
    cn_context_set_tuning(ctx, &t);
    bench_printf(rep, "--passes: after each row, the passes inside the box stages (a timestamp after each; its\n"
                      "stage's column is the sum of its passes' spans and its own, timestamps included).\n\n");
  }
  if (bench_floor(ctx, o, &floor_ns) != CN_OK) floor_ns = 0;
  bench_printf(rep, "dispatch floor (an empty dispatch and a barrier, median): %.2f us; each row is followed by\n"
                    "its stages in multiples of it (x floor).\n\n", floor_ns * 1e-3);
  print_head(rep);
  int rc = CLI_OK;
  /* Smallest first. On the H200 a size run after a larger one in the same
   * process can be 2-3x slower in every stage and in the copy (seen both
   * ways: 2^24 after 2^23, and 2^23 .. 2^10 after 2^24); for headline figures
   * run one size per process (--min-log2 e --max-log2 e). docs/PERF.md. */
  for (int e = lo; e <= hi && rc == CLI_OK; e++) {
    cli_progress("bench scene", e - lo + 1, hi - lo + 1, "synthetic 2^%d", e);
    uint64_t n = 1ull << e;
    uint32_t *tags = malloc(n * 4);
    cn_box *boxes = malloc(n * 16);
    if (!tags || !boxes) {
      free(tags), free(boxes);
      fprintf(stderr, "canopy bench scene: out of host memory at 2^%d\n", e);
      cn_context_set_tuning(ctx, &saved);
      return CLI_FAIL;
    }
    scene_job j = {.n = n, .viewport = {0, 0, 4096, 4096}};
    synth(n, tags, boxes, &j.groups);
    cn_result r = cn_bins_grid_make(j.viewport, bin, &j.grid);
    char name[64];
    snprintf(name, sizeof name, "synthetic 2^%d", e);
    rc = r == CN_OK ? run_job(ctx, o, rep, name, &j, tags, boxes) : cli_fail("bench", "grid", r);
    free(tags), free(boxes);
  }
  /* Real scenes: the SVGs one folder deep under --scenes, as loaded at their own size. */
  const char *dir = o->scenes;
  const char *sub[] = {"batik", "flag-icons", "inkscape", "pathfinder"};
  cn_scene_builder *b = NULL;
  if (rc == CLI_OK && cn_scene_builder_create(&b) == CN_OK) {
    bench_printf(rep, "\nreal scenes (%s), bins of 64 px:\n", dir);
    for (size_t s = 0; s < sizeof sub / sizeof sub[0] && rc == CLI_OK; s++) {
      char sd[1200];
      snprintf(sd, sizeof sd, "%s/%s", dir, sub[s]);
      DIR *d = opendir(sd);
      if (!d) continue;
      for (struct dirent *ent; rc == CLI_OK && (ent = readdir(d));) {
        size_t l = strlen(ent->d_name);
        if (l < 5 || strcmp(ent->d_name + l - 4, ".svg")) continue;
        char path[2400];
        snprintf(path, sizeof path, "%s/%s", sd, ent->d_name);
        cn_scene_data scene;
        cli_progress("bench scene", (int)s + 1, (int)(sizeof sub / sizeof sub[0]), "%s/%s", sub[s], ent->d_name);
        if (cn_svg_load_file(b, path, NULL, &scene, NULL) != CN_OK) continue;
        scene_job j = {.n = scene.element_count, .scene = &scene};
        memcpy(j.viewport, scene.viewport, sizeof j.viewport);
        uint32_t *tg = malloc((j.n ? j.n : 1) * 4);
        for (uint64_t i = 0; tg && i < j.n; i++) tg[i] = scene.elements[i].tag;
        j.groups = tg ? cn_bbox_count_groups(tg, j.n) : j.n;
        free(tg);
        if (cn_bins_grid_make(j.viewport, 64, &j.grid) != CN_OK) continue;
        rc = run_job(ctx, o, rep, ent->d_name, &j, NULL, NULL);
      }
      closedir(d);
    }
  }
  cn_scene_builder_destroy(b);
  cn_context_set_tuning(ctx, &saved);
  return rc;
}
