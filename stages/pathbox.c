/* pathbox.c: host side of the path-box stage (see cn_pathbox.h) and its CPU
 * reference. Kernels: shaders/pathbox_{init,segments,elements}.comp,
 * pathbox_fused.comp (segments and elements in one dispatch, after init) and
 * pathbox_small.comp for small scenes (one dispatch), pathbox.glsl; the
 * scene stage's small scenes run init and segments here and the element step
 * in bbox_small (cn__pathbox_record_keys, stages/scene_stage.c). */
#include "cn_pathbox.h"

#include "cn_box.h"
#include "cn_scene_stage_shared.h"
#include "cn_scan.h"
#include "internal.h"
#include "kernels.gen.h"

#include <math.h>
#include <stdlib.h>

uint64_t cn_pathbox_scratch_bytes(cn_context *ctx, const cn_pathbox_args *a) {
  (void)ctx;
  /* the key boxes, then pathbox_fused's ticket or bbox_small_segs' two */
  return a ? ((uint64_t)CN_MAX(a->path_count, 1) + 1) * 16 : 0;
}

/* ------------------------------------------------------------ small path */

uint32_t cn__pathbox_small_max(const cn_context *ctx) {
  uint32_t v = ctx->tuning.pathbox_small_max;
  if (v == CN_SMALL_OFF) return 0;
  return v ? v : CN_PATHBOX_SMALL_DEFAULT;
}

/* pathbox_small's workgroup size for a scene of these counts, 0 when it does
 * not take it: more segments or elements than the threshold, more paths than
 * its shared key boxes (cn__pathbox_small_paths: 2048 where the device has
 * 32 KiB of shared memory, else 1024, else none), a device that cannot run it, or (on drivers with a
 * loop-trip limit) loops past the limit: per invocation at most 32 trips a
 * round of segments (ITEMS segments, two extrema loops of two trips each),
 * one a round of paths and of elements. */
uint32_t cn__pathbox_small_paths(const cn_context *ctx) {
  uint32_t shared = ctx->caps.max_shared_memory;
  return shared >= 2 * CN__PATHBOX_SMALL_PATHS * 16 ? 2 * CN__PATHBOX_SMALL_PATHS
         : shared >= CN__PATHBOX_SMALL_PATHS * 16   ? CN__PATHBOX_SMALL_PATHS
                                                    : 0;
}

uint32_t cn__pathbox_small_wg(const cn_context *ctx, uint64_t segments, uint64_t elements, uint64_t paths) {
  const cn_device_caps *c = &ctx->caps;
  uint32_t wg = cn_floor_pow2(CN_MIN(1024u, c->max_workgroup_invocations));
  uint64_t max = cn__pathbox_small_max(ctx);
  if (segments > max || elements > max || paths > cn__pathbox_small_paths(ctx)) return 0;
  if (!c->subgroup_size || wg % c->subgroup_size) return 0;
  uint64_t trips = CN_DIV_UP(segments, (uint64_t)wg * CN__PATHBOX_SMALL_ITEMS) * 32 + CN_DIV_UP(paths, wg) +
                   CN_DIV_UP(elements, wg) + 16;
  if (c->max_loop_iterations && trips > c->max_loop_iterations) return 0;
  return wg;
}

/* pathbox_fused: scenes of at most cn_tuning.pathbox_fused_max elements (a
 * tuning option, off by default: on the H200 the last workgroup's element
 * boxes cost more than the dispatch they save, docs/PERF.md) run the segment
 * and element steps in one dispatch, the last workgroup writing every
 * element's box; its workgroup size (0: the three dispatches run). On drivers with a loop-trip limit only where its element
 * rounds stay inside it. */
uint32_t cn__pathbox_fused_max(const cn_context *ctx) {
  uint32_t v = ctx->tuning.pathbox_fused_max;
  if (v == CN_SMALL_OFF) return 0;
  return v ? v : CN_PATHBOX_FUSED_DEFAULT;
}

uint32_t cn__pathbox_fused_wg(const cn_context *ctx, uint64_t segments, uint64_t elements) {
  const cn_device_caps *c = &ctx->caps;
  uint32_t wg = cn_floor_pow2(CN_MIN(1024u, c->max_workgroup_invocations));
  if (elements > cn__pathbox_fused_max(ctx) || segments >= (1ull << 32) - wg) return 0;
  if (!c->subgroup_size || wg % c->subgroup_size) return 0;
  if (c->max_loop_iterations && CN_DIV_UP(elements, 4ull * wg) * 8 + 16 > c->max_loop_iterations) return 0;
  return wg;
}

static cn_pathbox_push cn__pathbox_push(const cn_pathbox_args *a) {
  return (cn_pathbox_push){.segments = a->segments,
                        .paths = a->paths,
                        .transforms = a->transforms,
                        .keys = a->scratch,
                        .elements = a->elements,
                        .strokes = a->strokes,
                        .boxes = a->boxes,
                        .tags = a->tags,
                        .path_count = a->path_count,
                        .transform_count = a->transform_count,
                        .stroke_count = a->stroke_count,
                        .write_tags = a->tags != 0};
}

/* pathbox_init (unless the keys hold empty boxes already), then
 * pathbox_segments: the key boxes of the three-dispatch path, without the
 * element step. */
static cn_result cn__pathbox_record_key_passes(cn_context *ctx, VkCommandBuffer cmd, const cn_pathbox_args *a,
                                               cn_pathbox_push *pc, bool keys_empty) {
  VkPipeline init, segs;
  CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_PATHBOX_INIT, NULL, 0, &init));
  CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_PATHBOX_SEGMENTS, NULL, 0, &segs));
  if (!keys_empty) {
    cn_dispatch(ctx, cmd, init, pc, sizeof *pc, CN_MAX(CN_DIV_UP((uint64_t)a->path_count, 256), 1));
    cn_cmd_barrier(ctx, cmd);
  }
  pc->count = a->segment_count;
  cn_dispatch(ctx, cmd, segs, pc, sizeof *pc, CN_DIV_UP((uint64_t)a->segment_count, 256));
  return CN_OK;
}

cn_result cn__pathbox_record_keys(cn_context *ctx, VkCommandBuffer cmd, const cn_pathbox_args *a, bool keys_empty,
                                  bool init_only) {
  if (!ctx || !a) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_pathbox_record: NULL argument");
  cn_pathbox_push pc = cn__pathbox_push(a);
  if (init_only) {
    VkPipeline init;
    CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_PATHBOX_INIT, NULL, 0, &init));
    cn_dispatch(ctx, cmd, init, &pc, sizeof pc, CN_MAX(CN_DIV_UP((uint64_t)a->path_count, 256), 1));
    return CN_OK;
  }
  CN_TRY(cn__pathbox_record_key_passes(ctx, cmd, a, &pc, keys_empty));
  if (a->timer) {
    cn_cmd_barrier(ctx, cmd);
    cn_timer_mark(ctx, a->timer, cmd, "path boxes");
  }
  return CN_OK;
}

cn_result cn_pathbox_record(cn_context *ctx, VkCommandBuffer cmd, const cn_pathbox_args *a) {
  if (!ctx || !a) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_pathbox_record: NULL argument");
  if (a->element_count && !a->boxes) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_pathbox_record: no boxes buffer");
  cn_pathbox_push pc = cn__pathbox_push(a);
  uint32_t wg = cn__pathbox_small_wg(ctx, a->segment_count, a->element_count, a->path_count);
  if (wg) {
    uint32_t spec[3] = {wg, CN__PATHBOX_SMALL_ITEMS, cn__pathbox_small_paths(ctx)};
    VkPipeline small;
    CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_PATHBOX_SMALL, spec, 3, &small));
    pc.count = a->segment_count;
    pc.element_count = a->element_count;
    cn_dispatch(ctx, cmd, small, &pc, sizeof pc, a->element_count || a->segment_count ? 1 : 0);
  } else if ((wg = cn__pathbox_fused_wg(ctx, a->segment_count, a->element_count)) != 0) {
    uint32_t spec[1] = {wg};
    VkPipeline init, fused;
    CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_PATHBOX_INIT, NULL, 0, &init));
    CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_PATHBOX_FUSED, spec, 1, &fused));
    cn_dispatch(ctx, cmd, init, &pc, sizeof pc, CN_MAX(CN_DIV_UP((uint64_t)a->path_count, 256), 1));
    cn_cmd_barrier(ctx, cmd);
    pc.count = a->segment_count;
    pc.element_count = a->element_count;
    cn_dispatch(ctx, cmd, fused, &pc, sizeof pc, CN_MAX(CN_DIV_UP((uint64_t)a->segment_count, wg), 1));
  } else {
    VkPipeline elems;
    CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_PATHBOX_ELEMENTS, NULL, 0, &elems));
    CN_TRY(cn__pathbox_record_key_passes(ctx, cmd, a, &pc, false));
    cn_cmd_barrier(ctx, cmd);
    pc.count = a->element_count;
    cn_dispatch(ctx, cmd, elems, &pc, sizeof pc, CN_DIV_UP((uint64_t)a->element_count, 256));
  }
  if (a->timer) {
    cn_cmd_barrier(ctx, cmd);
    cn_timer_mark(ctx, a->timer, cmd, "path boxes");
  }
  return CN_OK;
}

/* ----------------------------------------------------------- CPU reference */

static void cn__extrema(int n, float a0, float a1, float a2, float a3, float *lo, float *hi) {
  float ts[2];
  int nt = 0;
  if (n == 3) {
    float d = a0 - 2.0f * a1 + a2;
    if (d != 0.0f) ts[nt++] = (a0 - a1) / d;
  } else {
    float A = -a0 + 3.0f * a1 - 3.0f * a2 + a3, B = 2.0f * (a0 - 2.0f * a1 + a2), C = a1 - a0;
    if (A == 0.0f) {
      if (B != 0.0f) ts[nt++] = -C / B;
    } else {
      float disc = B * B - 4.0f * A * C;
      if (disc >= 0.0f) {
        float sq = sqrtf(disc);
        ts[nt++] = (-B + sq) / (2.0f * A);
        ts[nt++] = (-B - sq) / (2.0f * A);
      }
    }
  }
  for (int k = 0; k < nt; k++) {
    float t = ts[k], mt = 1.0f - t, v;
    if (!(t > 0.0f && t < 1.0f)) continue;
    if (n == 3) v = mt * mt * a0 + 2.0f * mt * t * a1 + t * t * a2;
    else v = mt * mt * mt * a0 + 3.0f * mt * mt * t * a1 + 3.0f * mt * t * t * a2 + t * t * t * a3;
    *lo = fminf(*lo, v);
    *hi = fmaxf(*hi, v);
  }
}

cn_result cn_pathbox_cpu(const cn_scene_data *s, cn_box *out) {
  CN_TRY(cn_scene_check(s, NULL));
  cn_box *pb = malloc((size_t)CN_MAX(s->path_count, 1) * sizeof *pb);
  if (!pb) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "path boxes: out of host memory");
  for (uint32_t p = 0; p < s->path_count; p++) pb[p] = (cn_box){INFINITY, INFINITY, -INFINITY, -INFINITY};
  for (uint32_t j = 0; j < s->segment_count; j++) {
    cn_segment g = s->segments[j];
    uint32_t p = g.info >> CN_SEG_PATH_SHIFT;
    cn_transform m = s->transforms[s->paths[p].transform];
    int np = (g.info & 3) == CN_SEG_LINE ? 2 : (g.info & 3) == CN_SEG_QUAD ? 3 : 4;
    float x[4] = {g.x0, g.x1, g.x2, g.x3}, y[4] = {g.y0, g.y1, g.y2, g.y3}, X[4], Y[4];
    for (int k = 0; k < 4; k++) {
      int q = k < np ? k : np - 1;
      X[k] = m.a * x[q] + m.c * y[q] + m.e;
      Y[k] = m.b * x[q] + m.d * y[q] + m.f;
    }
    bool nan = false;
    for (int k = 0; k < 4; k++) nan |= isnan(X[k]) || isnan(Y[k]);
    if (nan) continue;
    float lx = fminf(X[0], X[np - 1]), hx = fmaxf(X[0], X[np - 1]);
    float ly = fminf(Y[0], Y[np - 1]), hy = fmaxf(Y[0], Y[np - 1]);
    if (np > 2) {
      cn__extrema(np, X[0], X[1], X[2], X[3], &lx, &hx);
      cn__extrema(np, Y[0], Y[1], Y[2], Y[3], &ly, &hy);
    }
    pb[p] = (cn_box){fminf(pb[p].x0, lx), fminf(pb[p].y0, ly), fmaxf(pb[p].x1, hx), fmaxf(pb[p].y1, hy)};
  }
  for (uint32_t i = 0; i < s->element_count; i++) {
    cn_element e = s->elements[i];
    cn_box b = CN_BOX_EMPTY;
    if (e.tag == CN_TAG_FILL || e.tag == CN_TAG_BEGIN_CLIP) b = pb[e.path];
    if (e.tag == CN_TAG_STROKE) {
      cn_stroke st = s->strokes[e.aux];
      cn_transform m = s->transforms[s->paths[e.path].transform];
      float sum = m.a * m.a + m.b * m.b + m.c * m.c + m.d * m.d, det = m.a * m.d - m.b * m.c;
      float sigma = sqrtf(0.5f * (sum + sqrtf(fmaxf(sum * sum - 4.0f * det * det, 0.0f))));
      float f = 1.0f;
      if (st.join == CN_JOIN_MITER || st.join == CN_JOIN_MITER_CLIP) f = fmaxf(f, st.miter_limit);
      if (st.cap == CN_CAP_SQUARE) f = fmaxf(f, 1.41421356f);
      float ex = 0.5f * fabsf(st.width) * sigma * f;
      b = pb[e.path];
      b = (cn_box){b.x0 - ex, b.y0 - ex, b.x1 + ex, b.y1 + ex};
    }
    out[i] = cn_box_canon(cn_box_clean(b));
  }
  free(pb);
  return CN_OK;
}
