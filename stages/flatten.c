/* flatten.c: host side of the flatten stage (see cn_flatten.h): checks the
 * scene, sizes the buffers, records the passes, reads back the line count.
 *
 * Passes (all kernels take cn_flatten_push; see shaders/flatten_*.comp):
 *   setup  elements: pairs per element -> scan -> pair_base (one workgroup
 *          doing both, up to cn_tuning.flatten_setup_fuse_max elements)
 *          subpaths: start flags -> max scan -> sub_first; link -> sub_last
 *          (the flags beside the element pass, or earlier: record_links; the
 *          link beside the pair-base scan)
 *          (dashed strokes) pairs: flattened lengths -> segmented scan -> distances
 *   count  pairs: lines per pair (and the total, in the header)
 *   scan   exclusive scan of lines per pair -> each pair's first line (up to
 *          cn_tuning.flatten_write_scan_max pairs: none; count adds up each
 *          workgroup's lines, write numbers its pairs' lines from them)
 *   write  pairs: the lines; elements: ranges, boxes, overflow flag (the
 *          element part in the caller's next pass when caller_finish)
 */
#include "cn_flatten.h"
#include "cn_scene_gpu.h"
#include "cn_scan.h"
#include "internal.h"
#include "kernels.gen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FL_WG 64u
#define FL_MAX_COUNT (1u << 30)
/* default cn_tuning.flatten_write_scan_max: up to 4096 workgroups of pairs,
 * each summing at most 64 earlier totals per invocation (stroke chunks made
 * mapWaadt.svg 90 000 pairs: 6 µs faster at 3840x2160 than with its scan,
 * docs/PERF.md) */
#define FL_WRITE_SCAN_DEFAULT (4096u * FL_WG)
_Static_assert(FL_WG == CN_FL_PAIR_GROUP, "the work buffer's per-workgroup totals are per FL_WG pairs");

/* Whether the count and write passes number the lines themselves (no scan
 * between them): at most cn_tuning.flatten_write_scan_max pairs. */
static bool fl_write_scans(const cn_context *ctx, uint32_t pairs) {
  uint32_t max = ctx->tuning.flatten_write_scan_max;
  if (max == CN_SMALL_OFF) return false;
  return pairs > 0 && pairs <= (max ? max : FL_WRITE_SCAN_DEFAULT);
}

/* default cn_tuning.flatten_setup_fuse_max: two rows of a 1024-wide
 * workgroup (E + 1 entries of the pair-base scan). In the frames that flatten
 * beside the scene stage the fused pass moves the line count and the write
 * pass a stage pass sooner (beside the boxes and the bins), which on the H200
 * gains 2-9 µs a frame on the real scenes up to 576 elements and 5 µs on
 * 1715 (mapWaadt), where the fused pass takes about 6 µs longer than the path
 * boxes it runs beside; on 2859 elements (three rows) it lost 9 µs
 * (docs/PERF.md). */
#define FL_SETUP_FUSE_DEFAULT 2047u

/* The workgroup of the fused element pass and pair-base scan
 * (CN_FL_MODE_ELEM_INIT_SCAN) for E elements; 0: the two passes apart. */
static uint32_t fl_setup_fuse_wg(const cn_context *ctx, uint32_t E) {
  uint32_t max = ctx->tuning.flatten_setup_fuse_max;
  if (max == CN_SMALL_OFF || E > (max ? max : FL_SETUP_FUSE_DEFAULT)) return 0;
  uint32_t wg = cn_floor_pow2(CN_MIN(1024u, ctx->caps.max_workgroup_invocations));
  uint32_t sg = ctx->caps.subgroup_size;
  return sg && wg >= sg && wg % sg == 0 ? wg : 0;
}

static cn_result fl_kernel(cn_context *ctx, int kernel, VkPipeline *out) {
  uint32_t spec[1] = {FL_WG};
  return cn_pipeline_get(ctx, kernel, spec, 1, out);
}

/* Whether lines may leave the box flatten cuts them to: unless the extent is
 * known and the view maps it (with a margin) inside [-30000, 30000]^2. */
static bool fl_needs_box_clip(const cn_flatten_args *a, const float view[6]) {
  if (!(a->extent > 0) || !isfinite(a->extent)) return true;
  double e = a->extent;
  double x = (fabs((double)view[0]) + fabs((double)view[2])) * e + fabs((double)view[4]);
  double y = (fabs((double)view[1]) + fabs((double)view[3])) * e + fabs((double)view[5]);
  return !(x < 30000.0 && y < 30000.0);
}

/* Scratch layout: the work words (header first), then the scans' scratch, 256-aligned. */
static uint64_t fl_work_bytes(const cn_flatten_args *a) {
  uint64_t w = CN_FL_WORDS((uint64_t)a->element_count, (uint64_t)a->pair_count, (uint64_t)a->segment_count) * 4;
  return (w + 255) & ~255ull;
}

/* Scans of the work buffer: in place, one scratch region shared by all. */
static bool fl_scan_one_block(const cn_context *ctx, uint64_t n, cn_scan_tuning *t);

static uint64_t fl_scan_scratch(cn_context *ctx, cn_scan_op op, uint64_t n) {
  cn_scan_tuning one;
  uint64_t b = cn_scan_scratch_bytes(ctx, &(cn_scan_args){.op = op, .n = n});
  if (fl_scan_one_block(ctx, n, &one))
    b = CN_MAX(b, cn_scan_scratch_bytes(ctx, &(cn_scan_args){.op = op, .n = n, .tuning = &one}));
  return b;
}

/* The one-workgroup shape for a scan of n elements (cn_tuning.flatten_scan_one_block_max):
 * above what the scan's default covers in one block, up to the limit. */
static bool fl_scan_one_block(const cn_context *ctx, uint64_t n, cn_scan_tuning *t) {
  const cn_scan_tuning *base = ctx->tuning.scan;
  if (base && (base->wg || base->items || base->two_pass)) return false;
  uint32_t inv = cn_floor_pow2(CN_MIN(1024u, ctx->caps.max_workgroup_invocations));
  uint32_t max = ctx->tuning.flatten_scan_one_block_max;
  if (max == CN_SMALL_OFF || inv < CN_MAX(32u, ctx->caps.max_subgroup_size) || inv * 4 > ctx->caps.max_shared_memory)
    return false;
  uint64_t limit = (uint64_t)inv * 32;
  if (max) limit = CN_MIN(limit, (uint64_t)max);
  if (n <= (uint64_t)inv * 16 || n > limit) return false;
  *t = base ? *base : (cn_scan_tuning){0};
  t->wg = inv;
  t->items = (uint32_t)((CN_DIV_UP(n, (uint64_t)inv) + 3) & ~3ull); /* 20..32 */
  return true;
}

static cn_result fl_scan(cn_context *ctx, VkCommandBuffer cmd, cn_scan_op op, VkDeviceAddress data,
                         VkDeviceAddress scratch, uint64_t n, bool exclusive) {
  cn_scan_tuning one;
  bool one_block = fl_scan_one_block(ctx, n, &one);
  return cn_scan_record(ctx, cmd,
                        &(cn_scan_args){.op = op, .src = data, .dst = data, .scratch = scratch, .n = n,
                                        .exclusive = exclusive, .tuning = one_block ? &one : NULL});
}

/* Two scan scratch regions: the pair-base and subpath-start scans of setup are
 * independent and run without a barrier between them, each in its own region
 * (the first region serves every other scan too). */
static uint64_t fl_scan_bytes_a(cn_context *ctx, const cn_flatten_args *a) {
  uint64_t E = a->element_count, P = a->pair_count;
  uint64_t m = CN_MAX(fl_scan_scratch(ctx, CN_SCAN_U32_ADD, P + 1), fl_scan_scratch(ctx, CN_SCAN_U32_ADD, E + 1));
  m = a->dashed ? CN_MAX(m, fl_scan_scratch(ctx, CN_SCAN_F32_SEG_ADD, P)) : m;
  return (CN_MAX(m, 16) + 255) & ~255ull;
}

static uint64_t fl_scan_bytes_b(cn_context *ctx, const cn_flatten_args *a) {
  return CN_MAX(fl_scan_scratch(ctx, CN_SCAN_U32_MAX, a->segment_count), 16);
}

uint64_t cn_flatten_scratch_bytes(cn_context *ctx, const cn_flatten_args *a) {
  if (!ctx || !a) return 0;
  return fl_work_bytes(a) + fl_scan_bytes_a(ctx, a) + fl_scan_bytes_b(ctx, a);
}

/* The subpath links: sub_first (start flags, max scan) and sub_last. They
 * read only the segments and write only their own words of the work buffer
 * and the second scan region. */
static cn_result fl_record_links(cn_context *ctx, VkCommandBuffer cmd, const cn_flatten_args *a) {
  VkPipeline k_sub;
  CN_TRY(fl_kernel(ctx, CN_KERNEL_FLATTEN_SUBPATHS, &k_sub));
  const uint32_t E = a->element_count, S = a->segment_count, P = a->pair_count;
  cn_flatten_push pc = {.segments = a->segments, .work = a->scratch, .element_count = E, .pair_count = P,
                        .segment_count = S, .mode = CN_FL_MODE_SUB_START};
  cn_dispatch(ctx, cmd, k_sub, &pc, sizeof pc, CN_DIV_UP((uint64_t)S, FL_WG));
  return CN_OK;
}

static cn_result fl_check_args(const cn_flatten_args *a) {
  if (a->element_count >= FL_MAX_COUNT || a->segment_count >= FL_MAX_COUNT || a->pair_count >= FL_MAX_COUNT)
    return cn_fail(CN_ERROR_LIMIT, "flatten: %u elements, %u segments, %u pairs: at most 2^30 - 1 each",
                   a->element_count, a->segment_count, a->pair_count);
  if (!a->scratch || !a->elems || !a->lines || (a->element_count && (!a->elements || !a->paths)))
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_flatten_record: a buffer address is 0");
  if (a->stroke_split > CN_FL_STROKE_SPLIT || (a->stroke_split & (a->stroke_split - 1)))
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "flatten: stroke_split %u: 0, 1, 2, 4, 8 or %u", a->stroke_split,
                   CN_FL_STROKE_SPLIT);
  return CN_OK;
}

cn_result cn_flatten_record_links(cn_context *ctx, VkCommandBuffer cmd, const cn_flatten_args *a) {
  if (!ctx || !cmd || !a) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_flatten_record_links: NULL argument");
  CN_TRY(fl_check_args(a));
  return fl_record_links(ctx, cmd, a);
}

/* What every recorded pass of one record shares. */
typedef struct fl_rec {
  const cn_flatten_args *a;
  cn_flatten_push pc;
  VkPipeline k_elem, k_sub, k_pairs, k_setup; /* k_setup: the fused element pass and pair-base scan */
  bool write_scans, links, fused;
  VkDeviceAddress w, scan_scratch, scan_scratch_b;
  uint64_t off_pair_lines, off_sub_first, off_dash;
} fl_rec;

static cn_result fl_prepare(cn_context *ctx, const cn_flatten_args *a, fl_rec *r) {
  CN_TRY(fl_check_args(a));
  const uint32_t E = a->element_count, S = a->segment_count, P = a->pair_count;
  float tol = a->tolerance > 0 ? a->tolerance : CN_FLATTEN_DEFAULT_TOLERANCE;
  if (!(tol < 1e30f)) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "flatten: tolerance %g is not finite", tol);
  float view[6];
  bool identity = true;
  for (int i = 0; i < 6; i++) {
    view[i] = a->view[i];
    if (view[i] != 0) identity = false;
    if (!isfinite(view[i])) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "flatten: view[%d] is not finite", i);
  }
  if (identity) view[0] = view[3] = 1;
  r->a = a;
  /* the element kernels' constants: workgroup, pairs per curved stroke segment */
  uint32_t split = a->stroke_split ? a->stroke_split : CN_FL_STROKE_SPLIT;
  uint32_t elem_spec[2] = {FL_WG, split};
  CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_FLATTEN_ELEMENTS, elem_spec, 2, &r->k_elem));
  CN_TRY(fl_kernel(ctx, CN_KERNEL_FLATTEN_SUBPATHS, &r->k_sub));
  uint32_t fuse_wg = fl_setup_fuse_wg(ctx, E);
  r->fused = fuse_wg != 0;
  uint32_t fuse_spec[2] = {fuse_wg, split};
  if (r->fused) CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_FLATTEN_ELEMENTS, fuse_spec, 2, &r->k_setup));
  r->write_scans = fl_write_scans(ctx, P);
  /* constants: workgroup, the box cut, the write pass numbering the lines,
   * pairs per curved stroke segment (flatten_pairs.comp) */
  uint32_t pair_spec[4] = {FL_WG, fl_needs_box_clip(a, view) ? 1u : 0u, r->write_scans ? 1u : 0u, split};
  CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_FLATTEN_PAIRS, pair_spec, 4, &r->k_pairs));
  r->pc = (cn_flatten_push){
      .elements = a->elements, .paths = a->paths, .segments = a->segments, .transforms = a->transforms,
      .strokes = a->strokes, .dashes = a->dashes, .work = a->scratch, .lines = a->lines,
      .elem_out = a->elems, .cull = a->cull_boxes, .view_a = view[0], .view_b = view[1], .view_c = view[2],
      .view_d = view[3], .view_e = view[4], .view_f = view[5], .tolerance = tol, .element_count = E,
      .pair_count = P, .segment_count = S, .line_capacity = a->line_capacity};
  r->w = a->scratch;
  r->scan_scratch = a->scratch + fl_work_bytes(a);
  r->scan_scratch_b = r->scan_scratch + fl_scan_bytes_a(ctx, a);
  r->off_pair_lines = CN_FL_OFF_PAIR_LINES((uint64_t)E) * 4;
  r->off_sub_first = CN_FL_OFF_SUB_FIRST((uint64_t)E, (uint64_t)P) * 4;
  r->off_dash = CN_FL_OFF_DASH((uint64_t)E, (uint64_t)P, (uint64_t)S) * 4;
  r->links = !a->links_ready; /* links_ready: they are in the scratch from an earlier record */
  return CN_OK;
}

/* Setup, first part: the element pass (header, pair counts, boxes reset),
 * beside the subpath start flags or their max scan; fused, also the pair-base
 * scan. Ends before a barrier, as does every fl_rec_* below. */
static void fl_rec_elements(cn_context *ctx, VkCommandBuffer cmd, fl_rec *r) {
  const cn_flatten_args *a = r->a;
  const uint32_t E = a->element_count, P = a->pair_count;
  if (r->fused) {
    r->pc.mode = CN_FL_MODE_ELEM_INIT_SCAN;
    cn_dispatch(ctx, cmd, r->k_setup, &r->pc, sizeof r->pc, 1);
    return;
  }
  r->pc.mode = CN_FL_MODE_ELEM_INIT; /* with write_scans it also zeroes the per-workgroup totals */
  uint64_t init_n = CN_MAX((uint64_t)E + 1, r->write_scans ? CN_DIV_UP((uint64_t)P, FL_WG) : 0);
  cn_dispatch(ctx, cmd, r->k_elem, &r->pc, sizeof r->pc, CN_DIV_UP(init_n, FL_WG));
}

/* Setup, second part: the pair-base scan (unless fused into the first),
 * beside the subpath link pass. Nothing to record where fl_pair_base_empty. */
static bool fl_pair_base_empty(const fl_rec *r) { return r->fused && !(r->a->segment_count && r->links); }
static cn_result fl_rec_pair_base(cn_context *ctx, VkCommandBuffer cmd, fl_rec *r) {
  const cn_flatten_args *a = r->a;
  if (!r->fused)
    CN_TRY(fl_scan(ctx, cmd, CN_SCAN_U32_ADD, r->w + CN_FL_OFF_PAIR_BASE * 4, r->scan_scratch,
                   (uint64_t)a->element_count + 1, true));
  if (a->segment_count && r->links) {
    r->pc.mode = CN_FL_MODE_SUB_LINK;
    cn_dispatch(ctx, cmd, r->k_sub, &r->pc, sizeof r->pc, CN_DIV_UP((uint64_t)a->segment_count, FL_WG));
  }
  return CN_OK;
}

static void fl_rec_count(cn_context *ctx, VkCommandBuffer cmd, fl_rec *r) {
  r->pc.mode = CN_FL_MODE_COUNT;
  cn_dispatch(ctx, cmd, r->k_pairs, &r->pc, sizeof r->pc, CN_DIV_UP((uint64_t)r->a->pair_count, FL_WG));
}

/* After the count pass and its barrier: the scan of the pairs' line counts,
 * unless the write pass numbers the lines (write_scans). Ends before a barrier. */
static cn_result fl_rec_line_scan(cn_context *ctx, VkCommandBuffer cmd, fl_rec *r) {
  return fl_scan(ctx, cmd, CN_SCAN_U32_ADD, r->w + r->off_pair_lines, r->scan_scratch, (uint64_t)r->a->pair_count + 1,
                 true);
}

/* The write pass (after the scan or, with write_scans, the count, and a
 * barrier). Ends before a barrier. */
static void fl_rec_write_pass(cn_context *ctx, VkCommandBuffer cmd, fl_rec *r) {
  r->pc.mode = CN_FL_MODE_WRITE;
  cn_dispatch(ctx, cmd, r->k_pairs, &r->pc, sizeof r->pc, CN_DIV_UP((uint64_t)r->a->pair_count, FL_WG));
}

/* After the write pass and its barrier: the element pass that finishes the
 * elements, unless the caller's next pass does (flatten_finish.glsl). */
static void fl_rec_finish(cn_context *ctx, VkCommandBuffer cmd, fl_rec *r) {
  const cn_flatten_args *a = r->a;
  if (!a->caller_finish) {
    r->pc.mode = CN_FL_MODE_ELEM_FINISH;
    cn_dispatch(ctx, cmd, r->k_elem, &r->pc, sizeof r->pc, CN_DIV_UP((uint64_t)CN_MAX(a->element_count, 1), FL_WG));
    if (!a->caller_barrier) cn_cmd_barrier(ctx, cmd);
  }
  if (a->timer) cn_timer_mark(ctx, a->timer, cmd, "flatten: write");
}

/* After the count pass and its barrier: the scan (unless the write pass
 * numbers the lines), the write pass and the element pass. */
static cn_result fl_rec_write(cn_context *ctx, VkCommandBuffer cmd, fl_rec *r) {
  cn_timer *timer = r->a->timer;
  if (!r->write_scans) {
    CN_TRY(fl_rec_line_scan(ctx, cmd, r));
    cn_cmd_barrier(ctx, cmd);
    if (timer) cn_timer_mark(ctx, timer, cmd, "flatten: scan");
  }
  fl_rec_write_pass(ctx, cmd, r);
  cn_cmd_barrier(ctx, cmd);
  fl_rec_finish(ctx, cmd, r);
  return CN_OK;
}

cn_result cn_flatten_record(cn_context *ctx, VkCommandBuffer cmd, const cn_flatten_args *a) {
  if (!ctx || !cmd || !a) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_flatten_record: NULL argument");
  fl_rec r;
  CN_TRY(fl_prepare(ctx, a, &r));
  const uint32_t S = a->segment_count, P = a->pair_count;
  cn_timer *timer = a->timer;

  /* setup: header and the slot after the last pair's count start at 0; the
   * subpath links alongside: the start flags (unless recorded earlier), their
   * max scan, then the link beside the pair-base scan. The two scans are
   * independent (own scratch regions). */
  fl_rec_elements(ctx, cmd, &r);
  if (r.links && !a->links_recorded) {
    r.pc.mode = CN_FL_MODE_SUB_START;
    cn_dispatch(ctx, cmd, r.k_sub, &r.pc, sizeof r.pc, CN_DIV_UP((uint64_t)S, FL_WG));
    cn_cmd_barrier(ctx, cmd);
  }
  if (r.links) CN_TRY(fl_scan(ctx, cmd, CN_SCAN_U32_MAX, r.w + r.off_sub_first, r.scan_scratch_b, S, false));
  cn_cmd_barrier(ctx, cmd);
  if (!fl_pair_base_empty(&r)) {
    CN_TRY(fl_rec_pair_base(ctx, cmd, &r));
    cn_cmd_barrier(ctx, cmd);
  }
  if (P && a->dashed) {
    r.pc.mode = CN_FL_MODE_DASH_LEN;
    cn_dispatch(ctx, cmd, r.k_pairs, &r.pc, sizeof r.pc, CN_DIV_UP((uint64_t)P, FL_WG));
    cn_cmd_barrier(ctx, cmd);
    CN_TRY(fl_scan(ctx, cmd, CN_SCAN_F32_SEG_ADD, r.w + r.off_dash, r.scan_scratch, P, true));
    cn_cmd_barrier(ctx, cmd);
  }
  if (timer) cn_timer_mark(ctx, timer, cmd, "flatten: setup");

  fl_rec_count(ctx, cmd, &r);
  cn_cmd_barrier(ctx, cmd);
  if (timer) cn_timer_mark(ctx, timer, cmd, "flatten: count");
  return fl_rec_write(ctx, cmd, &r);
}

/* Overlapped with the scene stage (cn__flatten_overlap in internal.h). */
enum {
  FL_STEP_ELEMENTS,
  FL_STEP_PAIR_BASE, /* passed over where fused: the later passes then come a stage pass sooner */
  FL_STEP_DASH_LEN,
  FL_STEP_DASH_SCAN,
  FL_STEP_COUNT,
  FL_STEP_LINE_SCAN, /* passed over with write_scans */
  FL_STEP_WRITE,
  FL_STEP_DONE
};

struct cn__flatten_overlap {
  fl_rec r;
  cn_context *ctx;
  int next; /* the next pass, FL_STEP_* */
};

cn_result cn__flatten_overlap_begin(cn_context *ctx, const cn_flatten_args *a, cn__flatten_overlap **out) {
  *out = NULL;
  if (!ctx || !a) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn__flatten_overlap_begin: NULL argument");
  if (!a->links_ready) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "flatten: only a record with its links ready overlaps");
  cn__flatten_overlap *o = calloc(1, sizeof *o);
  if (!o) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "out of host memory");
  cn_result res = fl_prepare(ctx, a, &o->r);
  if (res != CN_OK) {
    free(o);
    return res;
  }
  o->ctx = ctx;
  *out = o;
  return CN_OK;
}

/* Whether step k records nothing for this record (fused, no dashes, or the
 * write pass numbering the lines). */
static bool fl_step_skipped(const cn__flatten_overlap *o, int k) {
  const cn_flatten_args *a = o->r.a;
  if (k == FL_STEP_PAIR_BASE) return fl_pair_base_empty(&o->r);
  if (k == FL_STEP_DASH_LEN || k == FL_STEP_DASH_SCAN) return !(a->pair_count && a->dashed);
  if (k == FL_STEP_LINE_SCAN) return o->r.write_scans;
  return false;
}

cn_result cn__flatten_overlap_step(cn__flatten_overlap *o, VkCommandBuffer cmd) {
  const cn_flatten_args *a = o->r.a;
  while (o->next < FL_STEP_DONE && fl_step_skipped(o, o->next)) o->next++;
  switch (o->next) {
    case FL_STEP_ELEMENTS: fl_rec_elements(o->ctx, cmd, &o->r); break;
    case FL_STEP_PAIR_BASE: CN_TRY(fl_rec_pair_base(o->ctx, cmd, &o->r)); break;
    case FL_STEP_DASH_LEN:
      o->r.pc.mode = CN_FL_MODE_DASH_LEN;
      cn_dispatch(o->ctx, cmd, o->r.k_pairs, &o->r.pc, sizeof o->r.pc, CN_DIV_UP((uint64_t)a->pair_count, FL_WG));
      break;
    case FL_STEP_DASH_SCAN:
      CN_TRY(fl_scan(o->ctx, cmd, CN_SCAN_F32_SEG_ADD, o->r.w + o->r.off_dash, o->r.scan_scratch, a->pair_count, true));
      break;
    case FL_STEP_COUNT: fl_rec_count(o->ctx, cmd, &o->r); break;
    case FL_STEP_LINE_SCAN: CN_TRY(fl_rec_line_scan(o->ctx, cmd, &o->r)); break;
    case FL_STEP_WRITE: fl_rec_write_pass(o->ctx, cmd, &o->r); break;
    default: return CN_OK;
  }
  o->next++;
  return CN_OK;
}

const char *cn__flatten_overlap_step_label(const cn__flatten_overlap *o) {
  int k = o->next - 1; /* the step recorded last (next is past it) */
  if (k <= FL_STEP_DASH_SCAN) return "flatten: setup";
  if (k == FL_STEP_COUNT) return "flatten: count";
  if (k == FL_STEP_LINE_SCAN) return "flatten: scan";
  return "flatten: write";
}

uint32_t cn__flatten_overlap_steps(const cn__flatten_overlap *o) {
  uint32_t n = 0;
  for (int k = o->next; k < FL_STEP_DONE; k++) n += !fl_step_skipped(o, k);
  return n;
}

cn_result cn__flatten_overlap_end(cn__flatten_overlap *o, VkCommandBuffer cmd) {
  cn_result res = CN_OK;
  while (res == CN_OK && o->next < FL_STEP_DONE) { /* the passes the stage had no room for */
    res = cn__flatten_overlap_step(o, cmd);
    cn_cmd_barrier(o->ctx, cmd);
  }
  if (res == CN_OK) fl_rec_finish(o->ctx, cmd, &o->r);
  free(o);
  return res;
}

void cn__flatten_overlap_free(cn__flatten_overlap *o) { free(o); }

cn_result cn_flatten_run(cn_context *ctx, const cn_scene_data *scene, const cn_flatten_desc *desc, cn_line **lines,
                         uint32_t *line_count, cn_flatten_elem *elems, uint32_t *reruns) {
  *lines = NULL;
  *line_count = 0;
  if (reruns) *reruns = 0;
  cn_flatten_desc d = desc ? *desc : (cn_flatten_desc){0};
  cn_scene_gpu_desc gd = {.initial = {.lines = d.initial_line_capacity}};
  cn_scene_gpu *g = NULL;
  CN_TRY(cn_scene_gpu_create(ctx, &gd, &g));
  cn_result r = cn_scene_gpu_set_scene(g, scene);
  cn_scene_frame f = {.flatten = true, .tolerance = d.tolerance};
  memcpy(f.transform, d.view, sizeof f.transform);
  if (r == CN_OK) r = cn_scene_gpu_run(g, &f, reruns);
  cn_scene_gpu_counts counts;
  cn_scene_gpu_counts_get(g, &counts);
  cn_scene_gpu_outputs o;
  cn_scene_gpu_outputs_get(g, &o);
  uint32_t count = counts.lines;
  if (r == CN_OK && count) {
    *lines = malloc((size_t)count * sizeof(cn_line));
    if (!*lines) r = cn_fail(CN_ERROR_OUT_OF_MEMORY, "out of host memory for %u lines", count);
    else r = cn_buffer_download(ctx, o.lines_buffer, 0, *lines, (size_t)count * sizeof(cn_line));
  }
  if (r == CN_OK && elems && scene->element_count)
    r = cn_buffer_download(ctx, o.line_elems_buffer, 0, elems, (size_t)scene->element_count * sizeof(cn_flatten_elem));
  if (r == CN_OK) *line_count = count;
  else {
    free(*lines);
    *lines = NULL;
  }
  cn_scene_gpu_destroy(g);
  return r;
}
