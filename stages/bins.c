/* bins.c: host side of binning (see cn_bins.h), its CPU reference and its
 * convenience call. Kernels: shaders/bins.glsl (bins_count, bins_fill, bins_fill_own, bins_small),
 * bins_rows, bins_sg.glsl (bins_sg_count, bins_sg_fill), bins_gather, bins_check. */
#include "cn_bins.h"

#include "cn_box.h"
#include "cn_scene_stage_shared.h"
#include "cn_scan.h"
#include "internal.h"
#include "kernels.gen.h"

#include <math.h>
#include <stdlib.h>

#define CN__BINS_MAX (1u << 22)
#define CN__BINS_WG 256u /* bins.glsl: one bit per element of a round */
/* Streams of at least this many elements take the workgroup fill kernel with
 * own pairs, bins_fill_own (cn_tuning.bins_own_fill_from; H200, docs/PERF.md:
 * binfill 106 -> 93 us at 2^22, 52 -> 51 at 2^21, 0.8-1.1 us slower at 2^20). */
#define CN__BINS_OWN_FILL_FROM (1u << 21)
/* Bins per fill workgroup (cn_tuning.bins_fill_slice): CN__BINS_FILL_SLICE,
 * but CN__BINS_FILL_SLICE_FEW up to CN__BINS_FEW_CHUNKS_MAX elements on grids
 * it cuts into at most CN__BINS_FILL_SLICES_FEW slices (256 bins). A chunk's
 * pairs spread over the workgroups of its slices; a fill workgroup costs a
 * round's latency per round with pairs. H200, docs/PERF.md, bench scene with
 * 256 bins: binfill in us for slices of 256 / 128 / 64 / 32, 2^16 13.2 / 9.5
 * / 8.3 / 8.0, 2^20 19.9 / 15.3 / 15.0 / 19.2, 2^22 45 / 44 / 51 / 66, 2^24
 * 91 / 81 / 85 / 104 (older chunks); the stage with the chunks below, 32
 * against 64: 2^14 47.4 - 47.7 against 49.3 - 49.4 us, 2^19 88.4 - 89.5
 * against 89.6 - 91.2, 2^20 96.7 - 97.9 against 98.7 - 99.1 (and 64 against
 * 128 with the older chunks: 2^17 65.3 - 66.4 against 68.3 - 68.7, 2^21
 * 160.4 - 160.7 against 159.5 - 159.8). But bench render's 100 000 paths on
 * 510 bins: 1.941 - 1.942 ms with 32 against 1.929 with 128, 1.938 - 1.939
 * with 64 against 1.933. */
#define CN__BINS_FILL_SLICE 128u
#define CN__BINS_FILL_SLICE_FEW 32u
#define CN__BINS_FILL_SLICES_FEW 8u
/* Chunks of elements at most, up to this many elements (cn__bins_shape_of). */
#define CN__BINS_FEW_CHUNKS_MAX (1u << 20)
#define CN__BINS_FEW_CHUNKS 512u

cn_result cn_bins_grid_make(const float vp[4], uint32_t bin_size, cn_bins_grid *out) {
  memset(out, 0, sizeof *out);
  if (!vp) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "bins: no viewport");
  for (int k = 0; k < 4; k++)
    if (!isfinite(vp[k])) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "bins: the viewport must be finite");
  if (vp[2] < vp[0] || vp[3] < vp[1])
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "bins: viewport %g %g %g %g has x1 < x0 or y1 < y0", vp[0], vp[1],
                   vp[2], vp[3]);
  if (bin_size == 0) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "bins: bin size 0");
  double w = ceil(((double)vp[2] - vp[0]) / bin_size), h = ceil(((double)vp[3] - vp[1]) / bin_size);
  if (w * bin_size >= 16777216.0 || h * bin_size >= 16777216.0 || w * h > CN__BINS_MAX)
    return cn_fail(CN_ERROR_LIMIT, "bins: %.0f x %.0f bins of %u pixels: at most 2^22 bins and 2^24 pixels a side", w,
                   h, bin_size);
  /* the anchor is cleaned like every coordinate (cn_box.h): no subnormal for a GPU to flush */
  *out = (cn_bins_grid){cn_coord_clean(vp[0]), cn_coord_clean(vp[1]), bin_size, (uint32_t)w, (uint32_t)h};
  return CN_OK;
}

typedef struct cn__bins_shape {
  uint32_t slice, rounds;
  uint64_t nbins, nchunks, matrix; /* matrix entries, with the total at the end */
} cn__bins_shape;

static cn_result cn__bins_shape_of(const cn_context *ctx, uint64_t n, const cn_bins_grid *g, cn__bins_shape *s) {
  s->nbins = (uint64_t)g->nbx * g->nby;
  /* 512 bins a slice where shared memory holds them, 256 where the grid
   * has no more (less shared memory per workgroup for the same work) */
  s->slice = ctx->caps.max_shared_memory >= 24u * 1024u && s->nbins > 256 ? 512u : 256u;
  /* Rounds of 256 elements per chunk: as few as keep the count matrix
   * (nbins x chunks) within max(3n / 8, 2^19) entries and within 2^21,
   * at most 16. A round costs a workgroup latency, a matrix entry scan
   * bandwidth, which up to 2^19 entries is not what the scan waits on. H200
   * (docs/PERF.md), bench scene with 256 bins, since the fill runs only the
   * rounds with pairs: 2^24 elements, 8 rounds 722-726 us for the stage
   * (6: 724-726) against 11 rounds' 731-733 and 4 rounds' 741-743; 2^23, 4
   * rounds 445-448 against 6 rounds' 451-454 and 8 rounds' 455-456; 2^22,
   * 3 rounds 283 against 2 rounds' 297 and 4 rounds' 291; 2^21, 3 rounds
   * 182 against 2 rounds' 185 and 4 rounds' 198; 2^20, 2 rounds 126 against
   * 3 rounds' 131 and 4 rounds' 137; in earlier builds 2^19,
   * 1 round 144-146 against 2 rounds' 151, and 2^18, 1 round 120-121
   * against 4 rounds' 138-139. bench render's 100 000 paths on 510 bins: 1
   * round (2 x 10^5 entries) against 4, count 0.026 -> 0.016 ms, fill 0.108
   * -> 0.080 (beside flatten's write pass), scan 0.011 both. */
  uint64_t budget = CN_MIN(CN_MAX(n / 8 * 3, 1u << 19), 1u << 21);
  uint64_t chunks_max = CN_MAX(budget / CN_MAX(s->nbins, 1), 1);
  /* Up to CN__BINS_FEW_CHUNKS_MAX elements also at most CN__BINS_FEW_CHUNKS
   * chunks: a workgroup's setup and its matrix column cost more there than
   * its rounds (H200, 256 bins, the stage: 2^19 elements 88 - 89 us with 2
   * to 4 rounds against 94.5 with 1; 2^20 99 with 8 against 103 with 2;
   * 2^21 3 rounds fastest, as the budget gives). */
  if (n <= CN__BINS_FEW_CHUNKS_MAX) chunks_max = CN_MIN(chunks_max, CN__BINS_FEW_CHUNKS);
  uint64_t r = CN_DIV_UP(CN_DIV_UP(n, CN__BINS_WG), chunks_max);
  s->rounds = (uint32_t)CN_MIN(16u, CN_MAX(1u, r));
  /* The context's tuning (cn_tuning.bins_rounds, 1..64) replaces it. */
  uint32_t tr = ctx->tuning.bins_rounds;
  if (tr >= 1 && tr <= 64) s->rounds = tr;
  /* Drivers that stop an invocation's loops after a fixed number of trips
   * (cn_device_caps.max_loop_iterations; llvmpipe) bound the rounds: a round
   * costs an invocation at most 3 passes of SLICE pairs (bins.glsl), the
   * subgroup totals and a few bin_range steps; the shared-memory setup once. */
  if (ctx->caps.max_loop_iterations) {
    uint64_t per_round = 3ull * s->slice + CN__BINS_WG / CN_MAX(ctx->caps.min_subgroup_size, 1u) + 32;
    uint64_t setup = (s->slice / CN__BINS_WG) * 9ull + 64;
    uint64_t most = ctx->caps.max_loop_iterations > setup ? (ctx->caps.max_loop_iterations - setup) / per_round : 0;
    if (most < 1) return cn_fail(CN_ERROR_LIMIT, "bins: the device runs at most %u loop trips per invocation",
                                 ctx->caps.max_loop_iterations);
    if (s->rounds > most) s->rounds = (uint32_t)most;
  }
  s->nchunks = CN_DIV_UP(n, (uint64_t)CN__BINS_WG * s->rounds);
  s->matrix = s->nbins * s->nchunks + 1;
  if (n >= (1ull << 32) - (1u << 16)) return cn_fail(CN_ERROR_LIMIT, "bins: %llu elements", (unsigned long long)n);
  if (s->nbins > CN__BINS_MAX) return cn_fail(CN_ERROR_LIMIT, "bins: %llu bins, at most 2^22", (unsigned long long)s->nbins);
  if (s->matrix >= (1ull << 32))
    return cn_fail(CN_ERROR_LIMIT, "bins: %llu bins x %llu chunks of elements is too large a count matrix",
                   (unsigned long long)s->nbins, (unsigned long long)s->nchunks);
  return CN_OK;
}

/* The fill kernels' slice (cn_tuning.bins_fill_slice): a power of two from 32
 * up to the count's slice, in which it lies whole (the fill reads the count
 * workgroup's record of rounds with pairs). */
static uint32_t cn__bins_fill_slice(const cn_context *ctx, const cn__bins_shape *s, uint64_t n) {
  uint32_t v = ctx->tuning.bins_fill_slice;
  if (!v)
    v = n <= CN__BINS_FEW_CHUNKS_MAX && CN_DIV_UP(s->nbins, CN__BINS_FILL_SLICE_FEW) <= CN__BINS_FILL_SLICES_FEW
            ? CN__BINS_FILL_SLICE_FEW
            : CN__BINS_FILL_SLICE;
  uint32_t fs = 32; /* the count's slice is at least 256 */
  while (fs * 2 <= v && fs * 2 <= s->slice) fs *= 2;
  return fs;
}

/* bins_small: the whole binning in one workgroup and one dispatch, for
 * streams up to cn__bins_small_max elements whose total cannot wrap 32 bits;
 * on drivers with a loop-trip limit only when its loops stay inside it
 * (slices x rounds x (4 SLICE + 2 (subgroups + 32)) and the setup), with
 * slices of 256 bins when those fit and the usual slice does not. *slice: the
 * slice it takes. */
uint32_t cn__bins_small_max(const cn_context *ctx) {
  uint32_t v = ctx->tuning.bins_small_max;
  if (v == CN_SMALL_OFF) return 0;
  return v ? v : CN_BINS_SMALL_DEFAULT;
}

static bool cn__bins_small(const cn_context *ctx, uint64_t n, const cn__bins_shape *s, uint32_t *slice) {
  if (n > cn__bins_small_max(ctx) || n * s->nbins >= UINT32_MAX) return false;
  *slice = s->slice;
  uint64_t most = ctx->caps.max_loop_iterations;
  if (!most) return true;
  uint64_t rounds = CN_DIV_UP(n, CN__BINS_WG), sg = CN__BINS_WG / CN_MAX(ctx->caps.min_subgroup_size, 1u);
  for (uint32_t sl = s->slice; sl >= CN__BINS_WG; sl /= 2) {
    uint64_t slices = CN_DIV_UP(s->nbins, sl);
    uint64_t trips = 8ull * sl / CN__BINS_WG + slices * (rounds * (4ull * sl + 2 * (sg + 32)) + 2ull * sl / CN__BINS_WG + sg + 64);
    if (trips <= most) {
      *slice = sl;
      return true;
    }
  }
  return false;
}

bool cn__bins_small_grid(const cn_context *ctx, uint64_t n, const cn_bins_grid *g) {
  cn__bins_shape s = {0};
  uint32_t slice;
  return cn__bins_shape_of(ctx, n, g, &s) == CN_OK && cn__bins_small(ctx, n, &s, &slice);
}

/* bins_rows: one workgroup per bin row, each reading every box (see the
 * kernel). It takes n elements on grid g when n is at most the threshold and
 * the shared list (LIST entries: the threshold, at most 2^14, as many as the
 * device's shared memory holds after the kernel's other arrays), a row has at
 * most min(workgroup, 512) bins, the 32-bit total cannot wrap
 * (n x nbins < 2^32 - 1), n x rows stays within 2^20 box reads (16 MiB of
 * cached reads; a tall grid takes the multi-pass kernels), and on drivers with a loop-trip limit its
 * loops stay inside it. *wg, *list: the shape it runs with. */
#define CN__BINS_ROWS_MIN_WG 256u /* bins_rows' smallest default workgroup */

uint32_t cn__bins_rows_max(const cn_context *ctx) {
  uint32_t v = ctx->tuning.bins_rows_max;
  if (v == CN_SMALL_OFF) return 0;
  return v ? v : CN_BINS_ROWS_DEFAULT;
}

static bool cn__bins_rows(const cn_context *ctx, uint64_t n, const cn_bins_grid *g, uint32_t *wg, uint32_t *list) {
  const cn_device_caps *c = &ctx->caps;
  uint32_t w = cn_floor_pow2(CN_MIN(1024u, c->max_workgroup_invocations));
  /* One invocation per element (a round of the list per workgroup), in no
   * fewer than 256 invocations and no fewer than the row's bins, up to the
   * largest workgroup (on the H200 the fastest of 256, 512 and 1024 on every
   * real scene within 0.4 us: docs/PERF.md); the tuning's size
   * (cn_tuning.bins_rows_wg, a power of two, at least 32) where it holds the
   * row's bins */
  uint32_t tw = ctx->tuning.bins_rows_wg, dw = CN__BINS_ROWS_MIN_WG;
  while ((dw < n || dw < g->nbx) && dw < w) dw *= 2;
  if (tw && (tw & (tw - 1)) == 0 && tw <= w && tw >= 32 && g->nbx <= tw) w = tw;
  else if (!tw && dw < w) w = dw;
  if (!c->subgroup_size || !c->min_subgroup_size || w % c->subgroup_size || w < 32) return false;
  uint64_t other = 512 * 4 + (uint64_t)w * 4 + 64; /* sh_cnt, sh_sg and slack */
  uint64_t fit = c->max_shared_memory > other ? (c->max_shared_memory - other) / 4 : 0;
  uint64_t l = CN_MIN(CN_MIN((uint64_t)cn__bins_rows_max(ctx), 1u << 14), fit);
  uint64_t nbins = (uint64_t)g->nbx * g->nby;
  if (!n || n > l || !g->nbx || !g->nby || g->nbx > CN_MIN(w, 512u) || n * nbins >= UINT32_MAX ||
      n * g->nby > (1u << 20))
    return false;
  if (c->max_loop_iterations) {
    uint64_t sgs = w / c->min_subgroup_size; /* subgroups, at most */
    uint64_t trips = CN_DIV_UP(n, w) * (sgs + 40) + 2 * CN_DIV_UP(g->nbx, w / c->max_subgroup_size) *
                     (CN_DIV_UP(n, c->min_subgroup_size) + 1) + 3 * sgs + 64;
    if (trips > c->max_loop_iterations) return false;
  }
  *wg = w;
  *list = (uint32_t)l;
  return true;
}

bool cn__bins_rows_grid(const cn_context *ctx, uint64_t n, const cn_bins_grid *g) {
  uint32_t wg, list;
  return cn__bins_rows(ctx, n, g, &wg, &list);
}

/* bins_sg: binning by subgroups (bins_sg.glsl): count and fill kernels with
 * one chunk of `sub` elements per subgroup and every bin of the grid in that
 * subgroup's shared arrays, in place of the workgroup kernels (whose rounds of
 * 256 elements each cost several workgroup barriers). It takes grids of 1 to
 * 1024 bins on devices whose subgroups have at most 32 invocations (a lane
 * mask per bin), when its arrays fit shared memory and, on drivers with a
 * loop-trip limit, its loops stay inside it. */
#define CN__BINS_SG_MAX_BINS 1024u

static bool cn__pow2_u32(uint32_t x) { return x && (x & (x - 1)) == 0; }

typedef struct cn__bins_sg_shape {
  uint32_t wg, max_sg, nb, chunks, sub, rows; /* rows: one matrix row per workgroup, chunks of sub elements */
  uint64_t nchunks, groups, matrix;
} cn__bins_sg_shape;

/* Two forms (bins_sg.glsl), each only where the tuning asks for it:
 * workgroup rows (a chunk of r rounds of the workgroup's size per workgroup,
 * one count-matrix row per workgroup, r = cn_tuning.bins_sg_rounds) and
 * subgroup chunks (a chunk of `sub` elements per subgroup, a row per
 * subgroup, sub = cn_tuning.bins_sub). On the H200 (bench scene,
 * docs/PERF.md) the workgroup kernels with the own-pairs fill are faster at
 * every measured size: 2^23 elements on 256 bins 503 against 538 us for the
 * stage with workgroup rows of 4 rounds, 2^24 864-869 against 974 (subgroup
 * chunks of 1024 slower still). */

static bool cn__bins_sg(const cn_context *ctx, uint64_t n, const cn_bins_grid *g, cn__bins_sg_shape *out) {
  const cn_device_caps *c = &ctx->caps;
  uint32_t tsub = ctx->tuning.bins_sub;
  uint64_t nbins = (uint64_t)g->nbx * g->nby;
  if (tsub == CN_SMALL_OFF || !n || n >= (1ull << 32) - (1u << 16) || !nbins || nbins > CN__BINS_SG_MAX_BINS)
    return false;
  if (!c->min_subgroup_size || !c->max_subgroup_size || !c->subgroup_size || c->max_subgroup_size > 32) return false;
  cn__bins_sg_shape s = {0};
  s.nb = 32;
  while (s.nb < nbins) s.nb *= 2;
  /* 8 chunks a workgroup (a bin's entries of one workgroup: 32 bytes), fewer
   * where the subgroups' arrays (2 words a bin) do not fit shared memory */
  for (s.chunks = 8;; s.chunks /= 2) {
    s.wg = s.chunks * c->max_subgroup_size;
    s.max_sg = s.wg / c->min_subgroup_size;
    if (s.wg <= c->max_workgroup_invocations && (uint64_t)s.max_sg * s.nb * 2 * 4 <= c->max_shared_memory) break;
    if (s.chunks == 1) return false;
  }
  if (s.wg % c->subgroup_size) return false;
  /* a chunk size from the tuning turns subgroup chunks on at any size, a
   * round count workgroup rows (unless a chunk size is set) */
  bool tuned = cn__pow2_u32(tsub) && tsub >= 32 && tsub <= 4096 && tsub % c->max_subgroup_size == 0;
  uint32_t tr = ctx->tuning.bins_sg_rounds;
  bool rows_tuned = tr >= 1 && tr <= 4;
  if (!tuned && !rows_tuned) return false;
  if (!tuned) {
    uint64_t r = tr;
    bool fits = true;
    if (c->max_loop_iterations) {
      /* an invocation: the setup and the offsets' pass over the subgroups
       * (nbins / size + (nbins / wg) x (subgroups + 1)), then per round one
       * count pass and (fill) two passes of at most nbins pair steps, its
       * own pairs and the mask clear */
      uint64_t sg = c->min_subgroup_size;
      uint64_t trips = 2 * CN_DIV_UP(nbins, sg) + CN_DIV_UP(nbins, s.wg) * (s.max_sg + 2) + 32 +
                       r * (3 * (nbins + 1) + CN_DIV_UP(nbins, sg) + 32);
      fits = trips <= c->max_loop_iterations;
    }
    uint64_t chunks = CN_DIV_UP(n, r * s.wg);
    if (fits && nbins * chunks + 1 < (1ull << 32)) {
      s.rows = 1;
      s.sub = (uint32_t)r * s.wg;
      s.groups = s.nchunks = chunks;
      s.matrix = nbins * chunks + 1;
      *out = s;
      return true;
    }
  }
  if (!tuned) return false;
  s.sub = tsub;
  if (c->max_loop_iterations) {
    /* an invocation runs one chunk (its subgroups are at least CHUNKS): the
     * setup (nbins / size), then per round two passes of at most nbins pair
     * steps, the mask clear and the round's own trip */
    uint64_t sg = c->min_subgroup_size;
    for (;;) {
      uint64_t rounds = CN_DIV_UP(s.sub, sg);
      uint64_t trips = 2 * CN_DIV_UP(nbins, sg) + 16 + rounds * (2 * (nbins + 1) + CN_DIV_UP(nbins, sg) + 24);
      if (trips <= c->max_loop_iterations) break;
      if (s.sub / 2 < 32 || (s.sub / 2) % c->max_subgroup_size) return false;
      s.sub /= 2;
    }
  }
  s.groups = CN_DIV_UP(CN_DIV_UP(n, s.sub), s.chunks);
  s.nchunks = s.groups * s.chunks; /* padded: whole workgroups (see bins_sg.glsl) */
  s.matrix = nbins * s.nchunks + 1;
  if (s.matrix >= (1ull << 32)) return false;
  *out = s;
  return true;
}

bool cn__bins_sg_grid(const cn_context *ctx, uint64_t n, const cn_bins_grid *g) {
  cn__bins_sg_shape s;
  return cn__bins_sg(ctx, n, g, &s);
}

static uint64_t cn__bins_scratch(cn_context *ctx, uint64_t n, const cn_bins_grid *g);

uint64_t cn_bins_scratch_bytes(cn_context *ctx, const cn_bins_args *a) {
  return ctx && a ? cn__bins_scratch(ctx, a->n, &a->grid) : 0;
}

/* Entries of the counts' matrix (either count kernel's), 0 when n and the grid are out of range. */
static uint64_t cn__bins_matrix(cn_context *ctx, uint64_t n, const cn_bins_grid *g) {
  cn__bins_shape s = {0};
  if (cn__bins_shape_of(ctx, n, g, &s) != CN_OK) return 0;
  cn__bins_sg_shape sg;
  return cn__bins_sg(ctx, n, g, &sg) ? CN_MAX(sg.matrix, s.matrix) : s.matrix;
}

/* The workgroup kernels' record of the rounds with pairs (bins.glsl,
 * pc.live): a word per workgroup (chunk and slice), where a chunk has at
 * most 32 rounds; else none (0). */
static uint64_t cn__bins_live_words(const cn__bins_shape *s) {
  return s->rounds <= 32 ? s->nchunks * CN_DIV_UP(s->nbins, s->slice) : 0;
}

/* Scratch: the count matrix, the scan's scratch, then the live words. */
static uint64_t cn__bins_live_at(cn_context *ctx, uint64_t entries) {
  uint64_t m = (entries * 4 + 255) & ~255ull;
  uint64_t scan = cn_scan_scratch_bytes(ctx, &(cn_scan_args){.op = CN_SCAN_U32_ADD, .n = entries});
  return (m + scan + 255) & ~255ull;
}

static uint64_t cn__bins_scratch(cn_context *ctx, uint64_t n, const cn_bins_grid *g) {
  uint64_t entries = cn__bins_matrix(ctx, n, g);
  if (!entries) return 0;
  cn__bins_shape s = {0};
  uint64_t live = cn__bins_shape_of(ctx, n, g, &s) == CN_OK ? cn__bins_live_words(&s) : 0;
  return cn__bins_live_at(ctx, entries) + live * 4;
}

uint64_t cn_bins_scan_state_bytes(cn_context *ctx, const cn_bins_args *a) {
  uint64_t entries = ctx && a ? cn__bins_matrix(ctx, a->n, &a->grid) : 0;
  return entries ? cn_scan_state_bytes(ctx, &(cn_scan_args){.op = CN_SCAN_U32_ADD, .n = entries}) : 0;
}

cn_result cn_bins_record(cn_context *ctx, VkCommandBuffer cmd, const cn_bins_args *a) {
  return cn__bins_record_beside(ctx, cmd, a, NULL, NULL);
}

cn_result cn__bins_record_beside(cn_context *ctx, VkCommandBuffer cmd, const cn_bins_args *a, cn__beside_fn beside,
                                 void *user) {
  if (!ctx || !a) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_bins_record: NULL argument");
  if (!a->boxes || !a->bin_offsets || !a->scratch || (a->capacity && !a->elems))
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_bins_record: a buffer address is 0");
  cn__bins_shape s = {0};
  CN_TRY(cn__bins_shape_of(ctx, a->n, &a->grid, &s));
  if (!ctx->caps.subgroup_size || CN__BINS_WG % ctx->caps.subgroup_size)
    return cn_fail(CN_ERROR_LIMIT, "cn_bins_record: workgroups of %u are not whole subgroups of %u", CN__BINS_WG,
                   ctx->caps.subgroup_size);
  cn_bins_push pc = {.boxes = a->boxes,
                     .elems = a->elems,
                     .bin_offsets = a->bin_offsets,
                     .vp_x0 = a->grid.x0,
                     .vp_y0 = a->grid.y0,
                     .n = (uint32_t)a->n,
                     .bin_size = a->grid.bin_size,
                     .nbx = a->grid.nbx,
                     .nby = a->grid.nby,
                     .nchunks = 1,
                     .rounds = (uint32_t)CN_DIV_UP(a->n, CN__BINS_WG),
                     .capacity = (uint32_t)CN_MIN(a->capacity, UINT32_MAX)};
  uint32_t rows_wg, rows_list;
  if (cn__bins_rows(ctx, a->n, &a->grid, &rows_wg, &rows_list)) {
    uint32_t spec[3] = {rows_wg, 1, rows_list};
    VkPipeline rows;
    CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_BINS_ROWS, spec, 3, &rows));
    if (beside) CN_TRY(beside(user, cmd, true));
    cn_dispatch(ctx, cmd, rows, &pc, sizeof pc, a->grid.nby);
    if (a->timer) {
      cn_cmd_barrier(ctx, cmd);
      cn_timer_mark(ctx, a->timer, cmd, "bins rows");
    }
    return CN_OK;
  }
  uint32_t small_slice;
  if (cn__bins_small(ctx, a->n, &s, &small_slice)) {
    uint32_t spec[3] = {CN__BINS_WG, 1, small_slice};
    VkPipeline small;
    CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_BINS_SMALL, spec, 3, &small));
    if (beside) CN_TRY(beside(user, cmd, true));
    cn_dispatch(ctx, cmd, small, &pc, sizeof pc, 1);
    if (a->timer) {
      cn_cmd_barrier(ctx, cmd);
      cn_timer_mark(ctx, a->timer, cmd, "bins small");
    }
    return CN_OK;
  }
  VkPipeline count, fill, gather, check;
  CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_BINS_CHECK, NULL, 0, &check));
  CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_BINS_GATHER, NULL, 0, &gather));
  cn__bins_sg_shape sg;
  uint64_t groups, count_groups;
  bool by_sg = cn__bins_sg(ctx, a->n, &a->grid, &sg);
  if (by_sg) { /* same matrix layout, chunks of sg.sub elements */
    uint32_t spec[5] = {sg.wg, sg.max_sg, sg.nb, sg.chunks, sg.rows};
    CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_BINS_SG_COUNT, spec, 5, &count));
    CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_BINS_SG_FILL, spec, 5, &fill));
    s.nchunks = sg.nchunks;
    s.matrix = sg.matrix;
    s.rounds = sg.sub;
    groups = count_groups = sg.groups;
  } else {
    uint32_t spec[3] = {CN__BINS_WG, 1, s.slice};
    CN_TRY(cn_pipeline_get(ctx, CN_KERNEL_BINS_COUNT, spec, 3, &count));
    /* the fill with own pairs from cn_tuning.bins_own_fill_from elements */
    uint32_t own = ctx->tuning.bins_own_fill_from ? ctx->tuning.bins_own_fill_from : CN__BINS_OWN_FILL_FROM;
    bool own_fill = own != CN_SMALL_OFF && a->n >= own;
    uint32_t fs = cn__bins_fill_slice(ctx, &s, a->n);
    uint32_t fspec[3] = {CN__BINS_WG, 1, fs};
    CN_TRY(cn_pipeline_get(ctx, own_fill ? CN_KERNEL_BINS_FILL_OWN : CN_KERNEL_BINS_FILL, fspec, 3, &fill));
    count_groups = s.nchunks * CN_DIV_UP(s.nbins, s.slice);
    groups = s.nchunks * CN_DIV_UP(s.nbins, fs);
    pc.count_slice = s.slice;
  }
  VkDeviceAddress matrix = a->scratch, scan = a->scratch + ((s.matrix * 4 + 255) & ~255ull);
  pc.matrix = matrix;
  /* the workgroup kernels: the fill runs only the rounds the count found
   * pairs in (scratch sized for the larger matrix of either form) */
  if (!by_sg && cn__bins_live_words(&s))
    pc.live = a->scratch + cn__bins_live_at(ctx, cn__bins_matrix(ctx, a->n, &a->grid));
  pc.nchunks = (uint32_t)s.nchunks;
  pc.rounds = s.rounds;
  if (beside) CN_TRY(beside(user, cmd, false));
  cn_dispatch(ctx, cmd, count, &pc, sizeof pc, CN_MAX(count_groups, 1));
  cn_cmd_barrier(ctx, cmd);
  if (a->timer) cn_timer_mark(ctx, a->timer, cmd, "bins count");
  if (beside) CN_TRY(beside(user, cmd, false));
  CN_TRY(cn_scan_record(ctx, cmd,
                        &(cn_scan_args){.op = CN_SCAN_U32_ADD, .src = matrix, .dst = matrix,
                                        .scratch = a->scan_state ? a->scan_state : scan,
                                        .state_bytes = a->scan_state ? a->scan_state_bytes : 0, .n = s.matrix,
                                        .exclusive = true}));
  cn_cmd_barrier(ctx, cmd);
  if (a->timer) cn_timer_mark(ctx, a->timer, cmd, "bins scan");
  if (beside) CN_TRY(beside(user, cmd, true));
  cn_dispatch(ctx, cmd, fill, &pc, sizeof pc, groups); /* also writes bin_offsets when there are elements */
  if (!groups) cn_dispatch(ctx, cmd, gather, &pc, sizeof pc, CN_DIV_UP(s.nbins + 1, 256));
  if (a->n * s.nbins >= UINT32_MAX) { /* the 32-bit total could have wrapped: look for it */
    cn_cmd_barrier(ctx, cmd);
    cn_dispatch(ctx, cmd, check, &pc, sizeof pc, CN_DIV_UP(s.matrix - 1, 256));
  }
  if (a->timer) {
    cn_cmd_barrier(ctx, cmd);
    cn_timer_mark(ctx, a->timer, cmd, "bins fill");
  }
  return CN_OK;
}

/* ----------------------------------------------------------- CPU reference */

/* Entries the boxes make on grid g (what cn_bins_cpu would list). */
static uint64_t cn__bins_entries(const cn_box *boxes, uint64_t n, const cn_bins_grid *g) {
  uint64_t total = 0;
  for (uint64_t i = 0; i < n; i++) {
    uint32_t lx, hx, ly, hy;
    cn_box b = boxes[i];
    if (cn_box_is_empty(b) || !cn_bin_range(b.x0, b.x1, g->x0, g->bin_size, g->nbx, &lx, &hx) ||
        !cn_bin_range(b.y0, b.y1, g->y0, g->bin_size, g->nby, &ly, &hy))
      continue;
    total += (uint64_t)(hx - lx + 1) * (hy - ly + 1);
  }
  return total;
}

cn_result cn_bins_cpu(const cn_box *boxes, uint64_t n, const cn_bins_grid *g, uint32_t **offsets, uint32_t **elems,
                      uint64_t *total) {
  *offsets = NULL;
  *elems = NULL;
  *total = 0;
  uint64_t nbins = (uint64_t)g->nbx * g->nby;
  uint64_t need = cn__bins_entries(boxes, n, g);
  if (need >= UINT32_MAX)
    return cn_fail(CN_ERROR_LIMIT, "bins reference: %llu (bin, element) entries, more than 2^32 - 2",
                   (unsigned long long)need);
  uint32_t *off = calloc(nbins + 1, 4);
  if (!off) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "bins reference: out of host memory");
  /* Pass 1: counts per bin; pass 2: fill in stream order. */
  for (int pass = 0; pass < 2; pass++) {
    uint32_t *fillpos = NULL;
    if (pass == 1) {
      uint64_t acc = 0;
      for (uint64_t b = 0; b <= nbins; b++) {
        uint64_t c = b < nbins ? off[b] : 0;
        off[b] = (uint32_t)acc;
        acc += c;
      }
      *total = acc;
      *elems = malloc((acc ? acc : 1) * 4);
      fillpos = malloc((nbins ? nbins : 1) * 4);
      if (!*elems || !fillpos) {
        free(fillpos);
        free(*elems);
        free(off);
        *elems = NULL;
        return cn_fail(CN_ERROR_OUT_OF_MEMORY, "bins reference: out of host memory");
      }
      memcpy(fillpos, off, nbins * 4);
    }
    for (uint64_t i = 0; i < n; i++) {
      cn_box b = boxes[i];
      uint32_t lx, hx, ly, hy;
      if (cn_box_is_empty(b) || !cn_bin_range(b.x0, b.x1, g->x0, g->bin_size, g->nbx, &lx, &hx) ||
          !cn_bin_range(b.y0, b.y1, g->y0, g->bin_size, g->nby, &ly, &hy))
        continue;
      for (uint32_t y = ly; y <= hy; y++)
        for (uint32_t x = lx; x <= hx; x++) {
          uint64_t bin = (uint64_t)y * g->nbx + x;
          if (pass == 0) off[bin]++;
          else (*elems)[fillpos[bin]++] = (uint32_t)i;
        }
    }
    free(fillpos);
  }
  *offsets = off;
  return CN_OK;
}

/* ------------------------------------------------------------ convenience */



cn_result cn_bins_run(cn_context *ctx, const cn_box *boxes, uint64_t n, const cn_bins_grid *g, uint32_t **offsets,
                      uint32_t **elems, uint64_t *total) {
  *offsets = NULL;
  *elems = NULL;
  *total = 0;
  uint64_t nbins = (uint64_t)g->nbx * g->nby;
  /* The number of entries is known from the boxes: refuse what cannot be
   * listed before any GPU work (2^32 - 2 entries; the count pass alone would
   * run for minutes on such a grid). */
  uint64_t need = cn__bins_entries(boxes, n, g);
  if (need >= UINT32_MAX)
    return cn_fail(CN_ERROR_LIMIT, "bins: %llu (bin, element) entries, more than 2^32 - 2 (%llu elements, %u x %u bins of %u px)",
                   (unsigned long long)need, (unsigned long long)n, g->nbx, g->nby, g->bin_size);
  cn_buffer in = {0}, offs = {0}, out = {0}, scratch = {0};
  uint64_t cap = CN_MAX(4 * n, 1024);
  cn_result r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, CN_MAX(n, 1) * 16, &in);
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, (nbins + 1) * 4, &offs);
  if (r == CN_OK) r = cn_buffer_create(ctx, CN_MEMORY_DEVICE, CN_MAX(cn__bins_scratch(ctx, n, g), 16), &scratch);
  if (r == CN_OK && n) r = cn_buffer_upload(ctx, &in, 0, boxes, n * 16);
  uint32_t *off = malloc((nbins + 1) * 4);
  if (r == CN_OK && !off) r = cn_fail(CN_ERROR_OUT_OF_MEMORY, "out of host memory");
  for (int attempt = 0; r == CN_OK && attempt < 2; attempt++) {
    r = cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, cap * 4, &out);
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    if (r == CN_OK) r = cn_cmd_begin(ctx, &cmd);
    if (r != CN_OK) break;
    cn_bins_args a = {.boxes = in.address,
                      .bin_offsets = offs.address,
                      .elems = out.address,
                      .scratch = scratch.address,
                      .n = n,
                      .capacity = cap,
                      .grid = *g};
    r = cn_bins_record(ctx, cmd, &a);
    cn_cmd_barrier(ctx, cmd);
    cn_result s = cn_cmd_submit(ctx, cmd);
    if (r == CN_OK) r = s;
    if (r == CN_OK) r = cn_buffer_download(ctx, &offs, 0, off, (nbins + 1) * 4);
    if (r != CN_OK) break;
    *total = off[nbins];
    if (*total == UINT32_MAX) {
      r = cn_fail(CN_ERROR_LIMIT, "bins: more than 2^32 - 2 (bin, element) entries");
      break;
    }
    if (*total <= cap) break;
    cap = *total; /* exact: the second run fits */
  }
  if (r == CN_OK) {
    *elems = malloc(CN_MAX(*total, 1) * 4);
    if (!*elems) r = cn_fail(CN_ERROR_OUT_OF_MEMORY, "out of host memory");
    else if (*total) r = cn_buffer_download(ctx, &out, 0, *elems, *total * 4);
  }
  if (r == CN_OK) {
    *offsets = off;
  } else {
    free(off);
    free(*elems);
    *elems = NULL;
    *total = 0;
  }
  cn_buffer_destroy(ctx, &in);
  cn_buffer_destroy(ctx, &offs);
  cn_buffer_destroy(ctx, &out);
  cn_buffer_destroy(ctx, &scratch);
  return r;
}
