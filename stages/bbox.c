/* bbox.c: host side of the clip/blend box stage (see cn_bbox.h), its CPU
 * reference and its convenience call. Kernels: shaders/bbox_*.comp. */
#include "cn_bbox.h"

#include "cn_box.h"
#include "cn_parens.h"
#include "cn_scene_stage_shared.h"
#include "cn_scan.h"
#include "internal.h"
#include "kernels.gen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* ------------------------------------------------------------------ shape */

/* bbox_small: group nodes it holds (its 16-bit depth tree in shared memory),
 * the most elements per invocation, and the most elements per workgroup
 * (invocations x elements each). Its registers grow with the elements per
 * invocation while a device's register file bounds them by the workgroup
 * size: on the H200 1024 x 4 takes 56 of its 64 registers, 1024 x 8 spilled
 * (96-128 bytes per invocation, 12 KiB more shared memory) and gave wrong
 * boxes on a scene of 8112 elements, and on several tests after small
 * unrelated changes to the kernel (docs/PERF.md). So at most 4096 per
 * workgroup: 1024 x 4 by default, 512 x 8 where cn_tuning.bbox_small_wg asks
 * for 512 (at most 128 registers there; not measured). */
#define CN__BBOX_SMALL_TREE 4096u
#define CN__BBOX_SMALL_ITEMS 8u
#define CN__BBOX_SMALL_CELLS 4096u
/* Streams of at most this many elements (cn_tuning.bbox_compact_scan_max)
 * have bbox_compact add up the counts before its block instead of a scan
 * pass. H200 (docs/PERF.md), stage totals: 2^14 - 2^20 1.3 - 2.9 us faster,
 * 2^21 2.4 slower, 2^22 8 slower (a workgroup reads up to 16 of the 4096 or
 * 8192 counts an invocation). */
#define CN__BBOX_COMPACT_SCAN_MAX (1u << 20)
/* From this many elements the clip boxes that links leaving bbox_clip_local's
 * partitions bring are added per group node by bbox_clip_nodes, below it by
 * bbox_draws (cn_tuning.bbox_clip_join; H200 measurements at rc->draws_clip). */
#define CN__BBOX_CLIP_NODES_FROM (1u << 23)

typedef struct cn__bbox_shape {
  uint32_t wg, items, block; /* bbox_count / bbox_compact */
  uint32_t clip_wg;          /* bbox_clip_local partition */
  uint32_t ditems, dblock;   /* bbox_draws (wg invocations): a block divides the compaction's */
} cn__bbox_shape;

/* Shared memory of bbox_draws (two uints per invocation), bbox_compact (one
 * per invocation) and bbox_clip_local (a box and a link per invocation). */
static uint32_t cn__draws_shared(uint32_t wg, uint32_t items) { (void)items; return 8u * wg; }
static uint32_t cn__clip_shared(uint32_t wg) { return 20u * wg; }

static bool cn__pow2(uint32_t x) { return x && (x & (x - 1)) == 0; }
static int cn__log2_pow2(uint32_t x) {
  int k = 0;
  while (x > 1) x >>= 1, k++;
  return k;
}

/* The context's tuning (cn_tuning.bbox_*) replaces the shape chosen below
 * when it is valid and fits the device (ignored otherwise). */
static bool cn__bbox_shape_tuned(const cn_context *ctx, cn__bbox_shape *out) {
  uint32_t wg = ctx->tuning.bbox_wg, items = ctx->tuning.bbox_items, clip = ctx->tuning.bbox_clip_wg;
  const cn_device_caps *c = &ctx->caps;
  if (!cn__pow2(wg) || wg < 32 || wg > c->max_workgroup_invocations || !cn__pow2(items) || items > 8 ||
      !cn__pow2(clip) || clip < 32 || clip > c->max_workgroup_invocations ||
      cn__draws_shared(wg, items) > c->max_shared_memory || cn__clip_shared(clip) > c->max_shared_memory)
    return false;
  *out = (cn__bbox_shape){wg, items, wg * items, clip, items, wg * items};
  return true;
}

/* The shape for n elements and at most gb group nodes (gb <= n). */
static cn__bbox_shape cn__bbox_shape_of(const cn_context *ctx, uint64_t n, uint64_t gb) {
  cn__bbox_shape s;
  if (cn__bbox_shape_tuned(ctx, &s)) return s;
  s.wg = cn_floor_pow2(CN_MIN(256u, ctx->caps.max_workgroup_invocations));
  /* Elements an invocation (H200, docs/PERF.md). bbox_draws: two (blocks of
   * 512 on 256-wide workgroups) up to 2^22 elements, four above; with two
   * the stage took 4-6 us less from 2^14 to 2^19 (the draws kernel 3-4 us),
   * 2 - 2.5 us less at 2^20; one was as fast up to 2^19 and slower at 2^20.
   * The compaction: two below 2^20, four from there (1.5 - 2 us faster at
   * 2^20, 3 us at 2^23; eight slower), its blocks then holding two of
   * bbox_draws' up to 2^22. */
  s.ditems = n <= (1u << 22) ? 2 : 4;
  s.items = n < (1u << 20) ? 2 : 4;
  s.block = s.wg * s.items;
  s.dblock = s.wg * s.ditems;
  /* bbox_clip_local: at most half the shared memory, so that two workgroups
   * fit; the smallest partition from 256 group nodes that makes at most 256
   * partitions (the last workgroup's round of bases then takes few jumps),
   * else the largest: on the H200 the clip stage took 1.8 us less at 2^16
   * elements with 256 (26 partitions) than with 1024, 1 us less at 2^20 with
   * 512 (206), and 1024 was fastest at 2^23 - 2^24 (docs/PERF.md) */
  uint32_t c = CN_MIN(1024u, ctx->caps.max_workgroup_invocations);
  while (c > 64 && cn__clip_shared(c) > ctx->caps.max_shared_memory / 2) c /= 2;
  c = cn_floor_pow2(c);
  uint32_t small = CN_MIN(256u, c);
  while (small < c && CN_DIV_UP(gb, small) > 256) small *= 2;
  s.clip_wg = small;
  return s;
}

/* Scratch layout: byte offsets, each 256-aligned. */
typedef struct cn__bbox_layout {
  uint64_t nblocks, ndblocks, pyramid_boxes;
  uint64_t counts, offs, doffs, scan, idx, gbytes, parens, parens_scratch, acc, link, clipbase, clipg, nodes, pyramid, ticket,
      total;
  uint64_t clip_ticket;    /* offset of bbox_clip_local's ticket in ticket */
  uint64_t parens_tickets; /* offset of the matching's tickets in ticket */
  uint64_t ticket_words;   /* words of ticket (bbox_count zeroes them all) */
} cn__bbox_layout;

static uint64_t cn__align(uint64_t x) { return (x + 255u) & ~(uint64_t)255u; }

static uint64_t cn__pyramid_boxes(uint64_t level0) {
  uint64_t total = level0;
  while (level0 > 1) {
    level0 = (level0 + 1) / 2;
    total += level0;
  }
  return total;
}

static cn__bbox_layout cn__bbox_layout_of(cn_context *ctx, const cn__bbox_shape *s, uint64_t n, uint64_t gb) {
  cn__bbox_layout l = {0};
  l.nblocks = CN_DIV_UP(n, s->block);
  l.ndblocks = CN_DIV_UP(n, s->dblock);
  l.pyramid_boxes = cn__pyramid_boxes(gb);
  uint64_t at = 0;
#define CN__PLACE(field, bytes) \
  do {                          \
    l.field = at;               \
    at += cn__align(bytes);     \
  } while (0)
  CN__PLACE(counts, (l.nblocks + 1) * 4);
  CN__PLACE(offs, (l.nblocks + 1) * 4); /* bbox_compact's sums (sum_counts); else the counts' scan in place */
  CN__PLACE(doffs, s->dblock < s->block ? (l.ndblocks + 1) * 4 : 0); /* per draws block, where smaller */
  CN__PLACE(scan, cn_scan_scratch_bytes(ctx, &(cn_scan_args){.op = CN_SCAN_U32_ADD, .n = l.nblocks + 1}));
  CN__PLACE(idx, gb * 4);
  CN__PLACE(gbytes, CN_DIV_UP(gb, 4) * 4);
  CN__PLACE(parens, gb * 4);
  uint64_t ps = 0; /* the largest variant's, so any variant can be chosen at record time */
  for (int v = 0; v < CN_PARENS_VARIANT_COUNT && gb; v++)
    ps = CN_MAX(ps, cn_parens_scratch_bytes(ctx, &(cn_parens_args){.variant = (cn_parens_variant)v, .n = gb}));
  CN__PLACE(parens_scratch, ps);
  CN__PLACE(acc, gb * 16);
  CN__PLACE(link, gb * 4);
  CN__PLACE(pyramid, l.pyramid_boxes * 16);
  /* bbox_pyramid: all runs, then each run of 256; then bbox_clip_local's; then the matching's
   * (cn_parens_args.tickets) */
  l.clip_ticket = 4 * (1 + CN_DIV_UP(CN_DIV_UP(gb, 256), 256));
  l.parens_tickets = l.clip_ticket + 4;
  l.ticket_words = (l.parens_tickets + cn_parens_ticket_bytes(gb)) / 4;
  CN__PLACE(ticket, 4 * l.ticket_words);
  /* last: bbox_small's areas above (idx, parens, acc, pyramid) stay within
   * its 16-bit word offsets (cn__bbox_segs_layout_ok). The partitions' areas
   * for partitions of at most 256 nodes: the default partition grows with gb
   * (cn__bbox_shape_of), and scratch sized for a larger bound than the
   * recording's must still hold the recording's layout */
  uint64_t clip_parts = CN_DIV_UP(gb, CN_MIN(s->clip_wg, 256u));
  CN__PLACE(clipbase, clip_parts * 4);
  CN__PLACE(clipg, clip_parts * 16);
  CN__PLACE(nodes, gb * 16);
#undef CN__PLACE
  l.total = at;
  return l;
}

static uint64_t cn__bbox_scratch(cn_context *ctx, uint64_t n, uint64_t group_bound) {
  uint64_t gb = CN_MIN(group_bound, n);
  cn__bbox_shape s = cn__bbox_shape_of(ctx, n, gb);
  return cn__bbox_layout_of(ctx, &s, n, gb).total;
}

uint64_t cn_bbox_scratch_bytes(cn_context *ctx, const cn_bbox_args *a) {
  return ctx && a ? cn__bbox_scratch(ctx, a->n, a->group_bound) : 0;
}

uint64_t cn_bbox_scan_state_bytes(cn_context *ctx, const cn_bbox_args *a) {
  if (!ctx || !a || !a->n) return 0;
  cn__bbox_shape s = cn__bbox_shape_of(ctx, a->n, CN_MIN(a->group_bound, a->n)); /* its block alone counts here */
  return cn_scan_state_bytes(ctx, &(cn_scan_args){.op = CN_SCAN_U32_ADD, .n = CN_DIV_UP(a->n, s.block) + 1});
}

/* -------------------------------------------------------------- recording */

static void cn__mark(cn_context *ctx, VkCommandBuffer cmd, cn_timer *t, const char *label) {
  if (t) cn_timer_mark(ctx, t, cmd, label);
}

/* A pass inside a stage, after its barrier: marked with cn_tuning.timer_passes. */
static void cn__pass(cn_context *ctx, VkCommandBuffer cmd, cn_timer *t, const char *label) {
  if (t && ctx->tuning.timer_passes) cn_timer_mark(ctx, t, cmd, label);
}

typedef struct cn__bbox_rec {
  cn__bbox_shape s;
  cn__bbox_layout l;
  uint64_t n, gb;
  uint64_t offsets; /* scratch offset of the blocks' exclusive scan: l.offs or l.counts */
  bool sum_counts;  /* bbox_compact adds up the counts itself (no scan pass) */
  uint32_t draws_clip; /* CN_DRAWS_CLIP_* */
  cn_box vp;
  VkPipeline count, compact, clip_local, clip_nodes, draws, pyramid, groups;
} cn__bbox_rec;

static cn_result cn__bbox_prepare(cn_context *ctx, const cn_bbox_args *a, cn__bbox_rec *rc) {
  if (!ctx || !a) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_bbox_record: NULL argument");
  if (a->n >= (1ull << 32) - 4096)
    return cn_fail(CN_ERROR_LIMIT, "cn_bbox_record: %llu elements, at most 2^32 - 4097", (unsigned long long)a->n);
  if (!a->tags || !a->boxes || !a->result || !a->status || !a->scratch)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_bbox_record: a buffer address is 0");
  for (int k = 0; k < 4; k++)
    if (isnan(a->viewport[k])) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_bbox_record: viewport has a NaN");
  if (CN_MIN(a->group_bound, a->n) > CN_PARENS_MAX_N)
    return cn_fail(CN_ERROR_LIMIT, "cn_bbox_record: group_bound %llu: parentheses matching takes at most 2^31 - 1",
                   (unsigned long long)a->group_bound);
  rc->s = cn__bbox_shape_of(ctx, a->n, CN_MIN(a->group_bound, a->n));
  uint32_t sg = ctx->caps.subgroup_size;
  if (!sg || rc->s.wg % sg)
    return cn_fail(CN_ERROR_LIMIT, "cn_bbox_record: workgroups of %u are not whole subgroups of %u", rc->s.wg, sg);
  rc->n = a->n;
  rc->gb = CN_MIN(a->group_bound, a->n);
  rc->l = cn__bbox_layout_of(ctx, &rc->s, rc->n, rc->gb);
  uint32_t sum_max = ctx->tuning.bbox_compact_scan_max;
  if (!sum_max) sum_max = CN__BBOX_COMPACT_SCAN_MAX;
  rc->sum_counts = sum_max != CN_SMALL_OFF && rc->n && rc->n <= sum_max;
  rc->offsets = rc->sum_counts ? rc->l.offs : rc->l.counts;
  /* where bbox_draws' clip boxes come from: over one clip partition acc is
   * whole; over more, what a link leaving a partition brings is added by
   * bbox_draws below 2^23 elements, by a pass over the group nodes from there
   * (H200, docs/PERF.md: the stage 1 - 4 us faster at 2^14 - 2^20 the
   * first way, within 1.5 us at 2^22; 3 - 5 us faster at 2^23 - 2^24 the
   * second) */
  uint32_t join = ctx->tuning.bbox_clip_join;
  if (join != CN_CLIP_JOIN_HOP && join != CN_CLIP_JOIN_NODES)
    join = rc->n < CN__BBOX_CLIP_NODES_FROM ? CN_CLIP_JOIN_HOP : CN_CLIP_JOIN_NODES;
  rc->draws_clip = CN_DIV_UP(rc->gb, rc->s.clip_wg) <= 1 ? CN_DRAWS_CLIP_WHOLE
                   : join == CN_CLIP_JOIN_NODES          ? CN_DRAWS_CLIP_NODES
                                                         : CN_DRAWS_CLIP_HOP;
  rc->vp = cn_box_clean((cn_box){a->viewport[0], a->viewport[1], a->viewport[2], a->viewport[3]});
  return CN_OK;
}

/* The multi-pass kernels' pipelines (built on first use). */
static cn_result cn__bbox_pipelines(cn_context *ctx, cn__bbox_rec *rc) {
  uint32_t spec[2] = {rc->s.wg, rc->s.items};
  CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_BBOX_COUNT, spec, 2, &rc->count));
  uint32_t compact_spec[3] = {rc->s.wg, rc->s.items, rc->sum_counts};
  /* the group bytes stored as bytes where the device has 8-bit stores (H200,
   * docs/PERF.md: the compaction 4.5-5 us faster at 2^24 than by atomic ORs) */
  bool bytes = ctx->caps.storage_buffer_8bit && !ctx->tuning.bbox_group_byte_atomics;
  CN_TRY(cn_pipeline_get(ctx, bytes ? CN_KERNEL_BBOX_COMPACT_BYTES : CN_KERNEL_BBOX_COMPACT, compact_spec, 3,
                         &rc->compact));
  CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_BBOX_CLIP_LOCAL, &rc->s.clip_wg, 1, &rc->clip_local));
  CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_BBOX_CLIP_NODES, NULL, 0, &rc->clip_nodes));
  uint32_t draws_spec[3] = {rc->s.wg, rc->s.ditems, rc->draws_clip};
  CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_BBOX_DRAWS, draws_spec, 3, &rc->draws));
  CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_BBOX_PYRAMID, NULL, 0, &rc->pyramid));
  CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_BBOX_GROUPS, NULL, 0, &rc->groups));
  return CN_OK;
}

/* Compaction: counts, scan, compacted idx and group bytes. */
static cn_result cn__bbox_front(cn_context *ctx, VkCommandBuffer cmd, const cn_bbox_args *a, const cn__bbox_rec *rc) {
  const cn__bbox_layout l = rc->l;
  VkDeviceAddress S = a->scratch;
  uint64_t n = rc->n, gb = rc->gb;
  /* 1. compaction */
  cn_bbox_compact_push cp = {.tags = a->tags,
                             .counts = S + l.counts,
                             .idx = S + l.idx,
                             .gbytes = S + l.gbytes,
                             .status = a->status,
                             .gap = S + l.pyramid,
                             .ticket = S + l.ticket,
                             .offsets = S + l.offs,
                             .doffs = S + l.doffs,
                             .n = (uint32_t)n,
                             .nblocks = (uint32_t)l.nblocks,
                             .group_bound = (uint32_t)gb,
                             .ticket_words = (uint32_t)l.ticket_words,
                             .draws_split = rc->s.block / rc->s.dblock};
  cn_dispatch(ctx, cmd, rc->count, &cp, sizeof cp, CN_MAX(l.nblocks, 1));
  cn_cmd_barrier(ctx, cmd);
  cn__pass(ctx, cmd, a->timer, "bbox_count");
  if (!rc->sum_counts) {
    CN_TRY(cn_scan_record(ctx, cmd,
                          &(cn_scan_args){.op = CN_SCAN_U32_ADD, .src = S + l.counts, .dst = S + l.counts,
                                          .scratch = a->scan_state ? a->scan_state : S + l.scan,
                                          .state_bytes = a->scan_state ? a->scan_state_bytes : 0,
                                          .n = l.nblocks + 1, .exclusive = true}));
    cn_cmd_barrier(ctx, cmd);
    cn__pass(ctx, cmd, a->timer, "bbox counts' scan");
  }
  cn_dispatch(ctx, cmd, rc->compact, &cp, sizeof cp, l.nblocks);
  cn_cmd_barrier(ctx, cmd);
  cn__mark(ctx, cmd, a->timer, "bbox compact");
  return CN_OK;
}

/* Clips, draws, blends: after parentheses matching. */
static cn_result cn__bbox_back(cn_context *ctx, VkCommandBuffer cmd, const cn_bbox_args *a, const cn__bbox_rec *rc) {
  const cn__bbox_layout l = rc->l;
  const cn__bbox_shape s = rc->s;
  VkDeviceAddress S = a->scratch;
  uint64_t n = rc->n, gb = rc->gb;
  cn_box vp = rc->vp;

  /* 3. clips: pointer jumping inside partitions; over several, the
   * partitions' bases followed in the last workgroup */
  uint64_t parts = CN_DIV_UP(gb, s.clip_wg);
  uint32_t draws_clip = rc->draws_clip;
  cn_bbox_clip_push kp = {.boxes = a->boxes,
                          .idx = S + l.idx,
                          .gbytes = S + l.gbytes,
                          .parens = S + l.parens,
                          .offsets = S + rc->offsets,
                          .acc_dst = S + l.acc,
                          .link_dst = S + l.link,
                          .base = S + l.clipbase,
                          .clipg = S + l.clipg,
                          .ticket = S + l.ticket + l.clip_ticket,
                          .vp_x0 = vp.x0,
                          .vp_y0 = vp.y0,
                          .vp_x1 = vp.x1,
                          .vp_y1 = vp.y1,
                          .group_bound = (uint32_t)gb,
                          .nblocks = (uint32_t)l.nblocks,
                          .bases = parts > 1};
  cn_dispatch(ctx, cmd, rc->clip_local, &kp, sizeof kp, parts);
  cn_cmd_barrier(ctx, cmd);
  cn__mark(ctx, cmd, a->timer, "bbox clip");

  /* 4. draws */
  cn_bbox_draws_push dp = {.tags = a->tags,
                           .boxes = a->boxes,
                           .offsets = S + (s.dblock < s.block ? l.doffs : rc->offsets),
                           .parens = S + l.parens,
                           .acc = S + l.acc,
                           .link = S + l.link,
                           .clipg = S + l.clipg,
                           .result = a->result,
                           .pyramid = S + l.pyramid,
                           .status = a->status,
                           .vp_x0 = vp.x0,
                           .vp_y0 = vp.y0,
                           .vp_x1 = vp.x1,
                           .vp_y1 = vp.y1,
                           .n = (uint32_t)n,
                           .nblocks = (uint32_t)l.ndblocks,
                           .group_bound = (uint32_t)gb,
                           .nodes = S + l.nodes,
                           .clip_shift = (uint32_t)cn__log2_pow2(s.clip_wg)};
  if (draws_clip == CN_DRAWS_CLIP_NODES) {
    cn_dispatch(ctx, cmd, rc->clip_nodes, &dp, sizeof dp, CN_DIV_UP(gb, 256));
    cn_cmd_barrier(ctx, cmd);
    cn__pass(ctx, cmd, a->timer, "bbox_clip_nodes");
  }
  cn_dispatch(ctx, cmd, rc->draws, &dp, sizeof dp, l.ndblocks);
  cn_cmd_barrier(ctx, cmd);
  cn__mark(ctx, cmd, a->timer, "bbox draws");

  /* 5. blends: union pyramid over the gaps between group nodes (one
   * dispatch), then one query per END */
  if (gb > 1) {
    cn_bbox_pyramid_push pp = {.pyramid = S + l.pyramid, .ticket = S + l.ticket, .count = (uint32_t)gb};
    cn_dispatch(ctx, cmd, rc->pyramid, &pp, sizeof pp, CN_DIV_UP(gb, 256));
    cn_cmd_barrier(ctx, cmd);
    cn__pass(ctx, cmd, a->timer, "bbox_pyramid");
  }
  cn_bbox_groups_push gp = {.gbytes = S + l.gbytes,
                            .idx = S + l.idx,
                            .parens = S + l.parens,
                            .pyramid = S + l.pyramid,
                            .result = a->result,
                            .offsets = S + rc->offsets + 4 * l.nblocks, /* the group node count */
                            .status = a->status,
                            .group_bound = (uint32_t)gb};
  cn_dispatch(ctx, cmd, rc->groups, &gp, sizeof gp, CN_MAX(CN_DIV_UP(gb, 256), 1));
  cn__mark(ctx, cmd, a->timer, "bbox blend");
  return CN_OK;
}

/* ------------------------------------------------------------ small path */

uint32_t cn__bbox_small_max(const cn_context *ctx) {
  uint32_t v = ctx->tuning.bbox_small_max;
  if (v == CN_SMALL_OFF) return 0;
  return v ? v : CN_BBOX_SMALL_DEFAULT;
}

/* bbox_small's shape for n elements and gb group nodes: one workgroup of wg
 * invocations holding items elements each; false when the stream is too large
 * for it (or for the tuning's threshold) or the device cannot run it. */
static bool cn__bbox_small_shape(const cn_context *ctx, uint64_t n, uint64_t gb, uint32_t spec[3]) {
  const cn_device_caps *c = &ctx->caps;
  uint32_t wg = cn_floor_pow2(CN_MIN(1024u, c->max_workgroup_invocations));
  /* One element per invocation up to the largest workgroup, in no fewer
   * than 128 invocations: on the H200 a workgroup no larger than the stream
   * finishes sooner (fewer subgroups at each barrier; docs/PERF.md). The
   * tuning's size (cn_tuning.bbox_small_wg, a power of two of whole
   * subgroups, at least 32) where it holds the stream at 8 per invocation. */
  uint32_t tw = ctx->tuning.bbox_small_wg, dw = 128;
  while (dw < n && dw < wg) dw *= 2;
  if (tw && (tw & (tw - 1)) == 0 && tw <= wg && tw >= 32 && c->subgroup_size && tw % c->subgroup_size == 0 &&
      n <= (uint64_t)tw * CN__BBOX_SMALL_ITEMS)
    wg = tw;
  else if (!tw && dw < wg && c->subgroup_size && dw % c->subgroup_size == 0)
    wg = dw;
  if (n > cn__bbox_small_max(ctx) || gb > CN__BBOX_SMALL_TREE || !c->subgroup_size || wg % c->subgroup_size) return false;
  uint32_t items = 1; /* any count: a row fewer is a scan and a barrier fewer (2859 elements: 3 rows, not 4) */
  while ((uint64_t)wg * items < n) items++;
  /* the scan of phase 1 keeps every row's subgroup sums in sh_sg (wg
   * entries), its counts in 16 bits (n <= 4096) */
  if (items > CN__BBOX_SMALL_ITEMS || (uint64_t)wg * items > CN__BBOX_SMALL_CELLS || items > c->min_subgroup_size)
    return false;
  /* shared memory: sh_mem (max(tree + 32, 5 wg) words), sh_sg (wg), 10 words */
  uint64_t words = CN_MAX(CN__BBOX_SMALL_TREE + 32u, 5u * wg) + wg + 10u;
  if (words * 4 > c->max_shared_memory) return false;
  spec[0] = wg, spec[1] = items, spec[2] = CN__BBOX_SMALL_TREE;
  return true;
}

bool cn__bbox_small(const cn_context *ctx, uint64_t n, uint64_t group_bound) {
  uint32_t spec[3];
  return cn__bbox_small_shape(ctx, n, CN_MIN(group_bound, n), spec);
}

/* Whether bbox_small_segs' push block holds the stream's counts and the
 * scratch offsets: 16 bits each, the offsets in 4-byte words. */
static bool cn__bbox_segs_layout_ok(uint64_t n, uint64_t gb, const cn__bbox_layout *l) {
  return n <= 0xFFFF && gb <= 0xFFFF && l->idx / 4 <= 0xFFFF && l->parens / 4 <= 0xFFFF && l->acc / 4 <= 0xFFFF &&
         l->pyramid / 4 <= 0xFFFF && !(l->idx % 4) && !(l->parens % 4) && !(l->acc % 4) && !(l->pyramid % 4);
}

bool cn__bbox_small_segs(cn_context *ctx, uint64_t n, uint64_t group_bound) {
  uint64_t gb = CN_MIN(group_bound, n);
  uint32_t spec[3];
  if (!ctx || !cn__bbox_small_shape(ctx, n, gb, spec)) return false;
  cn__bbox_shape s = cn__bbox_shape_of(ctx, n, gb);
  cn__bbox_layout l = cn__bbox_layout_of(ctx, &s, n, gb);
  return cn__bbox_segs_layout_ok(n, gb, &l);
}

/* The whole stage in one dispatch (bbox_small), its scratch in the
 * multi-pass layout's idx, parens, acc and pyramid areas; with from (the
 * scene stage's small scenes) it also writes tags and boxes, the element
 * boxes, from the scene's elements and the path keys (cn__bbox_from_paths). */
static cn_result cn__bbox_record_small(cn_context *ctx, VkCommandBuffer cmd, const cn_bbox_args *a,
                                       const cn__bbox_rec *rc, const uint32_t spec3[3],
                                       const cn__bbox_from_paths *from) {
  VkPipeline p;
  VkDeviceAddress S = a->scratch;
  uint64_t keys_at = from ? from->keys - S : 0;
  if (from && (from->keys < S || keys_at >= (1ull << 32) || (keys_at & 15)))
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "bbox_small: the path keys are not 16-byte aligned within 4 GiB past scratch");
  if (from && from->segments) {
    /* bbox_small_segs: the first workgroup to start the stream's, the others WG segments each */
    if (!cn__bbox_segs_layout_ok(rc->n, rc->gb, &rc->l))
      return cn_fail(CN_ERROR_INVALID_ARGUMENT, "bbox_small_segs: the stream does not fit its packed push block");
    CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_BBOX_SMALL_SEGS, spec3, 3, &p));
    cn_bbox_small_segs_push pc = {.tags = a->tags,
                                  .boxes = a->boxes,
                                  .result = a->result,
                                  .status = a->status,
                                  .scratch = S,
                                  .elements = from->elements,
                                  .paths = from->paths,
                                  .transforms = from->transforms,
                                  .strokes = from->strokes,
                                  .segments = from->segments,
                                  .vp_x0 = rc->vp.x0,
                                  .vp_y0 = rc->vp.y0,
                                  .vp_x1 = rc->vp.x1,
                                  .vp_y1 = rc->vp.y1,
                                  .n_gb = (uint32_t)(rc->n | rc->gb << 16),
                                  .idx_parens = (uint32_t)(rc->l.idx / 4 | rc->l.parens / 4 << 16),
                                  .acc_pyramid = (uint32_t)(rc->l.acc / 4 | rc->l.pyramid / 4 << 16),
                                  .keys_at = (uint32_t)keys_at,
                                  .count = from->segment_count,
                                  .path_count = from->path_count,
                                  .transform_count = from->transform_count,
                                  .stroke_count = from->stroke_count};
    /* the caller's pass after it: the segment workgroups and the long one
     * take their SMs first */
    cn_dispatch(ctx, cmd, p, &pc, sizeof pc, CN_DIV_UP((uint64_t)from->segment_count, spec3[0]) + 1);
    if (from->beside) CN_TRY(from->beside(from->beside_user, cmd));
    if (a->timer) {
      cn_cmd_barrier(ctx, cmd);
      cn_timer_mark(ctx, a->timer, cmd, "bbox small");
    }
    return CN_OK;
  }
  uint32_t spec[4] = {spec3[0], spec3[1], spec3[2], from ? 1u : 0u};
  CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_BBOX_SMALL, spec, 4, &p));
  cn_bbox_small_push pc = {.tags = a->tags,
                           .boxes = a->boxes,
                           .result = a->result,
                           .status = a->status,
                           .scratch = S,
                           .elements = from ? from->elements : 0,
                           .paths = from ? from->paths : 0,
                           .transforms = from ? from->transforms : 0,
                           .strokes = from ? from->strokes : 0,
                           .vp_x0 = rc->vp.x0,
                           .vp_y0 = rc->vp.y0,
                           .vp_x1 = rc->vp.x1,
                           .vp_y1 = rc->vp.y1,
                           .n = (uint32_t)rc->n,
                           .group_bound = (uint32_t)rc->gb,
                           .idx_at = (uint32_t)rc->l.idx,
                           .parens_at = (uint32_t)rc->l.parens,
                           .acc_at = (uint32_t)rc->l.acc,
                           .pyramid_at = (uint32_t)rc->l.pyramid,
                           .keys_at = (uint32_t)keys_at,
                           .path_count = from ? from->path_count : 0,
                           .transform_count = from ? from->transform_count : 0,
                           .stroke_count = from ? from->stroke_count : 0};
  /* the caller's pass beside it: first where the one workgroup is short (a
   * row), else after it, so that it does not wait for an SM (H200: mapWaadt's
   * two rows beside flatten's line count, 0.037 -> 0.030 ms; docs/PERF.md) */
  bool beside_first = from && from->beside && spec3[1] <= 1;
  if (beside_first) CN_TRY(from->beside(from->beside_user, cmd));
  cn_dispatch(ctx, cmd, p, &pc, sizeof pc, 1);
  if (from && from->beside && !beside_first) CN_TRY(from->beside(from->beside_user, cmd));
  if (a->timer) {
    cn_cmd_barrier(ctx, cmd);
    cn_timer_mark(ctx, a->timer, cmd, "bbox small");
  }
  return CN_OK;
}

cn_result cn__bbox_record_from_paths(cn_context *ctx, VkCommandBuffer cmd, const cn_bbox_args *a,
                                     const cn__bbox_from_paths *from) {
  cn__bbox_rec rc;
  CN_TRY(cn__bbox_prepare(ctx, a, &rc));
  uint32_t spec[3];
  if (!from || !from->elements || !from->paths || !from->keys)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "bbox_small: a scene array address is 0");
  if (!cn__bbox_small_shape(ctx, rc.n, rc.gb, spec))
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "bbox_small: %llu elements do not take the one-workgroup path",
                   (unsigned long long)rc.n);
  return cn__bbox_record_small(ctx, cmd, a, &rc, spec, from);
}

cn_result cn_bbox_record(cn_context *ctx, VkCommandBuffer cmd, const cn_bbox_args *a) {
  cn__bbox_rec rc;
  CN_TRY(cn__bbox_prepare(ctx, a, &rc));
  uint32_t spec[3];
  if (cn__bbox_small_shape(ctx, rc.n, rc.gb, spec)) return cn__bbox_record_small(ctx, cmd, a, &rc, spec, NULL);
  CN_TRY(cn__bbox_pipelines(ctx, &rc));
  CN_TRY(cn__bbox_front(ctx, cmd, a, &rc));
  VkDeviceAddress S = a->scratch;
  if (rc.gb)
    CN_TRY(cn_parens_record(ctx, cmd,
                            &(cn_parens_args){.variant = a->parens, .in = S + rc.l.gbytes, .out = S + rc.l.parens,
                                              .scratch = S + rc.l.parens_scratch, .n = rc.gb,
                                              .timer = ctx->tuning.timer_passes ? a->timer : NULL,
                                              .tickets = S + rc.l.ticket + rc.l.parens_tickets}));
  cn_cmd_barrier(ctx, cmd);
  cn__mark(ctx, cmd, a->timer, "bbox parens");
  return cn__bbox_back(ctx, cmd, a, &rc);
}

cn_result cn_bbox_status_check(const cn_bbox_status *st, uint64_t group_bound) {
  if (st->first_bad_tag != UINT32_MAX)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "element %u: unknown tag", st->first_bad_tag);
  if (st->group_count > group_bound)
    return cn_fail(CN_ERROR_LIMIT, "the stream has %u BEGIN/END elements, more than group_bound %llu",
                   st->group_count, (unsigned long long)group_bound);
  if (st->first_bad_close != UINT32_MAX)
    return cn_fail(CN_ERROR_UNBALANCED, "element %u: END without a BEGIN of its kind", st->first_bad_close);
  if (2ull * st->close_count != st->group_count)
    return cn_fail(CN_ERROR_UNBALANCED, "%u BEGIN elements are never closed",
                   st->group_count - 2 * st->close_count);
  return CN_OK;
}

/* ----------------------------------------------------------- CPU reference */

static bool cn__is_begin(uint32_t t) { return t == CN_TAG_BEGIN_CLIP || t == CN_TAG_BEGIN_BLEND; }
static bool cn__is_end(uint32_t t) { return t == CN_TAG_END_CLIP || t == CN_TAG_END_BLEND; }
static const char *cn__tag_name(uint32_t t) {
  switch (t) {
    case CN_TAG_BEGIN_CLIP: return "BEGIN_CLIP";
    case CN_TAG_END_CLIP: return "END_CLIP";
    case CN_TAG_BEGIN_BLEND: return "BEGIN_BLEND";
    case CN_TAG_END_BLEND: return "END_BLEND";
    default: return "?";
  }
}

uint64_t cn_bbox_count_groups(const uint32_t *tags, uint64_t n) {
  uint64_t m = 0;
  for (uint64_t i = 0; i < n; i++) m += cn__is_begin(tags[i]) || cn__is_end(tags[i]);
  return m;
}

typedef struct cn__frame {
  uint64_t open; /* element index of the BEGIN */
  cn_box clip;   /* clip stack box inside the group */
  cn_box uni;    /* union of draws so far */
} cn__frame;

/* The sequential algorithm; out may be NULL (validation only). */
static cn_result cn__bbox_walk(const uint32_t *tags, const cn_box *boxes, uint64_t n, const float viewport[4],
                               cn_box *out) {
  cn__frame *stack = NULL;
  uint64_t depth = 0, cap = 0;
  cn_box root = viewport ? cn_box_clean((cn_box){viewport[0], viewport[1], viewport[2], viewport[3]})
                         : CN_BOX_UNBOUNDED;
  cn_result r = CN_OK;
  for (uint64_t i = 0; i < n && r == CN_OK; i++) {
    uint32_t t = tags[i];
    cn_box clip = depth ? stack[depth - 1].clip : root;
    if (t == CN_TAG_FILL || t == CN_TAG_STROKE) {
      if (!out) continue;
      cn_box b = cn_box_canon(cn_box_intersect(cn_box_clean(boxes[i]), clip));
      out[i] = b;
      if (depth) stack[depth - 1].uni = cn_box_union(stack[depth - 1].uni, b);
    } else if (cn__is_begin(t)) {
      if (depth == cap) {
        uint64_t nc = cap ? cap * 2 : 64;
        cn__frame *ns = realloc(stack, nc * sizeof *ns);
        if (!ns) {
          r = cn_fail(CN_ERROR_OUT_OF_MEMORY, "bbox reference: out of host memory at depth %llu",
                      (unsigned long long)depth);
          break;
        }
        stack = ns;
        cap = nc;
      }
      cn_box c = clip;
      if (t == CN_TAG_BEGIN_CLIP && out) c = cn_box_intersect(cn_box_clean(boxes[i]), clip);
      stack[depth++] = (cn__frame){i, c, CN_BOX_EMPTY};
    } else if (cn__is_end(t)) {
      if (!depth) {
        r = cn_fail(CN_ERROR_UNBALANCED, "element %llu: %s without a BEGIN", (unsigned long long)i, cn__tag_name(t));
        break;
      }
      cn__frame f = stack[--depth];
      if (tags[f.open] + 1 != t) {
        r = cn_fail(CN_ERROR_UNBALANCED, "element %llu: %s closes the %s at element %llu", (unsigned long long)i,
                    cn__tag_name(t), cn__tag_name(tags[f.open]), (unsigned long long)f.open);
        break;
      }
      if (out) {
        out[f.open] = out[i] = f.uni;
        if (depth) stack[depth - 1].uni = cn_box_union(stack[depth - 1].uni, f.uni);
      }
    } else {
      r = cn_fail(CN_ERROR_INVALID_ARGUMENT, "element %llu: unknown tag %u", (unsigned long long)i, t);
    }
  }
  if (r == CN_OK && depth)
    r = cn_fail(CN_ERROR_UNBALANCED, "element %llu: %s is never closed", (unsigned long long)stack[depth - 1].open,
                cn__tag_name(tags[stack[depth - 1].open]));
  free(stack);
  return r;
}

cn_result cn_bbox_validate(const uint32_t *tags, uint64_t n) {
  if (n && !tags) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_bbox_validate: NULL tags");
  return cn__bbox_walk(tags, NULL, n, NULL, NULL);
}

cn_result cn_bbox_cpu(const uint32_t *tags, const cn_box *boxes, uint64_t n, const float viewport[4], cn_box *out) {
  if (n && (!tags || !boxes || !out)) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_bbox_cpu: NULL array");
  for (int k = 0; viewport && k < 4; k++)
    if (isnan(viewport[k])) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_bbox_cpu: viewport has a NaN");
  return cn__bbox_walk(tags, boxes, n, viewport, out);
}

/* ------------------------------------------------------------ convenience */


cn_result cn_bbox_run(cn_context *ctx, const uint32_t *tags, const cn_box *boxes, uint64_t n,
                      const float viewport[4], cn_box *out) {
  if (!ctx || (n && (!tags || !boxes || !out)) || !viewport)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_bbox_run: NULL argument");
  uint64_t gb = cn_bbox_count_groups(tags, n);
  uint64_t nn = CN_MAX(n, 1);
  cn_buffer in_tags = {0}, in_boxes = {0}, res = {0}, scratch = {0}, status = {0};
  cn_result r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, nn * 4, &in_tags);
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, nn * 16, &in_boxes);
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, nn * 16, &res);
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_READBACK, sizeof(cn_bbox_status), &status);
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, cn__bbox_scratch(ctx, n, gb), &scratch);
  if (r == CN_OK && n) r = cn_buffer_upload(ctx, &in_tags, 0, tags, n * 4);
  if (r == CN_OK && n) r = cn_buffer_upload(ctx, &in_boxes, 0, boxes, n * 16);
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  if (r == CN_OK) r = cn_cmd_begin(ctx, &cmd);
  if (r == CN_OK) {
    cn_bbox_args a = {.tags = in_tags.address,
                      .boxes = in_boxes.address,
                      .result = res.address,
                      .status = status.address,
                      .scratch = scratch.address,
                      .n = n,
                      .group_bound = gb,
                      .viewport = {viewport[0], viewport[1], viewport[2], viewport[3]}};
    r = cn_bbox_record(ctx, cmd, &a);
    cn_cmd_barrier(ctx, cmd);
    cn_result s = cn_cmd_submit(ctx, cmd);
    if (r == CN_OK) r = s;
  }
  if (r == CN_OK) {
    cn_bbox_status st;
    memcpy(&st, status.mapped, sizeof st);
    r = cn_bbox_status_check(&st, gb);
    if (r != CN_OK) {
      cn_result v = cn_bbox_validate(tags, n); /* a precise message */
      if (v != CN_OK) r = v;
    }
  }
  if (r == CN_OK && n) r = cn_buffer_download(ctx, &res, 0, out, n * 16);
  cn_buffer_destroy(ctx, &in_tags);
  cn_buffer_destroy(ctx, &in_boxes);
  cn_buffer_destroy(ctx, &res);
  cn_buffer_destroy(ctx, &status);
  cn_buffer_destroy(ctx, &scratch);
  return r;
}
