/* cn_bins.h: binning (stages/bins.c): per-bin lists of elements in stream
 * order, on the GPU, with its CPU reference.
 *
 * Grid: square bins of bin_size pixels anchored at the viewport's (x0, y0),
 * nbx = ceil(width / B) by nby = ceil(height / B) bins, numbered row-major
 * (bin = by * nbx + bx). Bin bx spans [x0 + bx*B, x0 + (bx+1)*B] (cn_box.h
 * gives the exact float rule). An element is listed in every bin its
 * non-empty result box overlaps with positive area (x0 < bin_x1 and
 * x1 > bin_x0, likewise in y); empty boxes are listed nowhere.
 *
 * Output (CSR), what the renderer's coarse stage reads:
 *   bin_offsets: nbins + 1 uint32; bin b's list is
 *                elems[bin_offsets[b] .. bin_offsets[b + 1]); bin_offsets[nbins]
 *                is the total number of (bin, element) entries.
 *   elems:       element indices, each bin's list in increasing (stream) order.
 *
 * GPU pipeline (cn_bins_record): bins_count (one workgroup per chunk of
 * rounds x 256 elements and slice of 256-512 bins; per chunk and bin: how many
 * of the chunk's elements the bin lists, by shared-memory atomics: an element
 * of at most 4 bins in the slice adds its own, a larger one marks its runs of
 * bins in difference arrays, summed once after the chunk's last round, so that
 * one element covering the grid costs no more than many small ones and no
 * round waits for another)
 * -> exclusive cn_scan_record over the count matrix, stored bin-major so the
 * scan lays the lists out contiguously in chunk order -> bins_fill (each
 * pair's slot = offset + running count + rank in a 256-bit bitmap of its bin:
 * stream order with no sort; chunk 0 also writes bin_offsets, bins_gather
 * only when there are no elements or no bins). The counts are exact, so
 * nothing can overflow: entries beyond `capacity` are not written, and the
 * caller sees bin_offsets[nbins] > capacity and re-runs with more
 * (cn_bins_run does). Test knob: CANOPY_BINS_ROUNDS=r (1..64) sets rounds.
 * Streams of at least cn_tuning.bins_own_fill_from elements (2^21 by
 * default) take bins_fill_own in place of bins_fill: an element of at most 4
 * pairs in the slice sets its bits and writes its entries itself, and a round
 * numbers and spreads pairs only when some element has more; a round without
 * such an element moves its bins' counts and clears its bits pair by pair
 * (two workgroup barriers, one for a round without pairs, instead of five and
 * a pass over the slice's bins; CLI knob CANOPY_BINS_OWN_FILL=n|off). Where a
 * chunk has at most 32 rounds, bins_count records per workgroup which rounds
 * have pairs in its slice (a word in scratch) and either fill kernel runs
 * only those: a round that lists nothing costs the fill no load or barrier.
 * The fill workgroups take slices of 128 bins (of 32 up to 2^20 elements on
 * grids of at most 256 bins; cn_tuning.bins_fill_slice, CLI knob
 * CANOPY_BINS_FILL_SLICE=b), within the count's: a chunk's pairs spread over
 * more workgroups, each running the rounds its count slice recorded. Rounds
 * per chunk: as few as keep the count matrix within max(3n / 8, 2^19)
 * entries and 2^21, and up to 2^20 elements also the chunks within 512.
 *
 * With the tuning below, streams on grids of at most 1024 bins, on devices
 * whose subgroups have at most 32 invocations, bin by subgroups
 * (bins_sg_count and bins_sg_fill, in place of bins_count and bins_fill; the
 * same count matrix layout, scan and wrap check): every bin of the grid in a
 * subgroup's shared arrays, rounds of one element per lane, an element of at
 * most 4 bins listed by its own lane and the others' pairs spread over the
 * lanes by a subgroup scan and a binary search over shuffles, stream-order
 * ranks from a 32-bit lane mask per bin. cn_tuning.bins_sg_rounds (1..4)
 * takes workgroup rows: a chunk of that many rounds of the workgroup's size
 * per workgroup, one consecutive part per subgroup, one count-matrix row per
 * workgroup (the fill recounts each subgroup's part and runs each bin's
 * offset through the subgroups; two barriers in all). cn_tuning.bins_sub
 * takes subgroup chunks of that many elements and a matrix row per subgroup
 * (no workgroup barrier). Neither is the default: on the H200 the stage with
 * the workgroup kernels is faster at every measured size (2^23 elements on
 * 256 bins: 505 against 542 us with workgroup rows of 4 rounds and 689 with
 * subgroup chunks of 1024; 2^24: 878 against 981 and 1020; on 1024 bins
 * about half the time of workgroup rows; docs/PERF.md). The timer marks the
 * same spans. Test knobs: CANOPY_BINS_SG_ROUNDS=r|off, CANOPY_BINS_SUB=n|off.
 *
 * Small streams (n <= cn_tuning.bins_small_max, 512 by default, with n x
 * nbins < 2^32 - 1) run in one workgroup and one dispatch instead
 * (bins_small): for each slice of bins in turn, the count pass over all the
 * elements, an exclusive scan of the slice's counts after the earlier slices
 * (the bin offsets), and the fill pass: the same lists, the same capacity
 * rule. On drivers with a loop-trip limit (cn_device_caps.max_loop_iterations)
 * only when its loops stay inside it (slices x rounds x about 4 x 512 trips).
 * Past a few rounds of 256 elements it is slower than the multi-pass kernels
 * (its rounds run one after another): docs/PERF.md. The timer then marks one
 * span, "bins small".
 *
 * Before either: streams of at most cn_tuning.bins_rows_max elements (8192
 * by default, fewer where the device's shared memory holds fewer list
 * entries) on grids of at most min(512, workgroup size) bins a row, with
 * n x nbins < 2^32 - 1 and n x nby <= 2^20, run in one dispatch of one
 * workgroup per bin row (bins_rows): each workgroup reads every box, sums the
 * pairs of the rows above its own (its first offset, with no count matrix
 * and no scan between workgroups), lists the elements meeting its row in
 * shared memory in stream order, and then counts and fills each bin of the
 * row with subgroup ballots over that list (a subgroup per bin): the same
 * lists, the same capacity rule. Its workgroups have 256 invocations up to
 * 2048 elements on rows of at most 256 bins, else 1024 (cn_tuning.bins_rows_wg
 * sets another size). The timer marks "bins rows".
 *
 * Limits: n < 2^32 - 2^16; nbx * B and nby * B below 2^24 pixels; at most
 * 2^22 bins; the count matrix has nbins x chunks entries (chunks of 256 x
 * rounds elements, rounds the fewest (at most 16) that keep it within
 * max(3n / 8, 2^19) entries and within 2^21, and up to 2^20 elements the
 * chunks within 512; nbins x n / 4096 when 16 are not enough) and
 * must stay below 2^32 entries.
 * Larger grids fail with CN_ERROR_LIMIT. The kernels number invocations by
 * subgroup: 256 must be a multiple of the subgroup size (else CN_ERROR_LIMIT).
 * At most 2^32 - 2 entries in all: when n * nbins could exceed that, a check
 * pass (bins_check) looks for a wrapped 32-bit sum and then sets
 * bin_offsets[nbins] to UINT32_MAX (cn_bins_run reports CN_ERROR_LIMIT).
 */
#ifndef CN_BINS_H
#define CN_BINS_H

#include "canopy.h"
#include "cn_scene.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cn_timer cn_timer;

typedef struct cn_bins_grid {
  float x0, y0;      /* anchor: the viewport's top-left */
  uint32_t bin_size; /* B, pixels */
  uint32_t nbx, nby;
} cn_bins_grid;

/* The grid of a viewport (finite, x1 >= x0, y1 >= y0) and bin size (> 0). */
CN_API cn_result cn_bins_grid_make(const float viewport[4], uint32_t bin_size, cn_bins_grid *out);

typedef struct cn_bins_args {
  VkDeviceAddress boxes;       /* n result boxes (cn_bbox_record's result), 16-byte aligned */
  VkDeviceAddress bin_offsets; /* out: nbins + 1 uint32 */
  VkDeviceAddress elems;       /* out: capacity uint32 */
  VkDeviceAddress scratch;     /* cn_bins_scratch_bytes() bytes */
  uint64_t n;
  uint64_t capacity;
  cn_bins_grid grid;
  cn_timer *timer;             /* optional: marks "bins count", "bins scan", "bins fill" (small streams: "bins rows" or "bins small") */
  /* Optional: a persistent scan look-back state (cn_scan.h) for the stage's
   * scan instead of scratch, which saves the scan's clearing dispatch:
   * scan_state_bytes at least cn_bins_scan_state_bytes(), zeroed once by
   * cn_scan_state_init and shared by nothing that runs beside the stage.
   * 0: the scan uses scratch. */
  VkDeviceAddress scan_state;
  uint64_t scan_state_bytes;
} cn_bins_args;

CN_API uint64_t cn_bins_scratch_bytes(cn_context *ctx, const cn_bins_args *args);
/* Bytes of a persistent scan state for the counts' scan (cn_bins_args.scan_state). */
CN_API uint64_t cn_bins_scan_state_bytes(cn_context *ctx, const cn_bins_args *args);

/* Records binning into cmd (no barrier at the end). CN_ERROR_LIMIT beyond the limits. */
CN_API cn_result cn_bins_record(cn_context *ctx, VkCommandBuffer cmd, const cn_bins_args *args);

/* CPU reference. On success *offsets (nbins + 1) and *elems (*total entries)
 * are malloc'd arrays the caller frees. */
CN_API cn_result cn_bins_cpu(const cn_box *boxes, uint64_t n, const cn_bins_grid *grid, uint32_t **offsets,
                      uint32_t **elems, uint64_t *total);

/* Convenience (standalone contexts): uploads boxes, bins them on the GPU
 * (re-running larger if the first guess of capacity was short), returns
 * malloc'd arrays like cn_bins_cpu. */
CN_API cn_result cn_bins_run(cn_context *ctx, const cn_box *boxes, uint64_t n, const cn_bins_grid *grid,
                      uint32_t **offsets, uint32_t **elems, uint64_t *total);

#ifdef __cplusplus
}
#endif

#endif
