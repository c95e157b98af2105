/* cn_scan.h: generic prefix scan of a monoid on the GPU (stages/scan.c).
 *
 * Inputs:  src, n elements of the monoid's element type (32-bit words; a
 *          device address, 4-byte aligned; 16-byte aligned src and dst read
 *          and write 16 bytes at a time).
 * Outputs: dst, n elements: the inclusive (dst[i] = src[0] + ... + src[i]) or
 *          exclusive (dst[i] = src[0] + ... + src[i-1], dst[0] = identity) scan.
 *          src and dst may be the same buffer.
 * Scratch: cn_scan_scratch_bytes() bytes: 8 bytes per block and 8 more (12
 *          and 4 without 64-bit buffer atomics); none for one block.
 * Limits:  n <= CN_SCAN_MAX_N, else CN_ERROR_LIMIT.
 *
 * Algorithm: one pass with decoupled look-back (shaders/scan_lb.glsl): blocks
 * of 256 x 16 elements (512 x 16 from 2^19 elements; with 64-bit buffer
 * atomics 512 x 32 from 2^21, publishing the block's total before its rows'
 * scans, 512 x 24 from 2^22, publishing the total first and scanning
 * and writing the rows one at a time after the look-back, and 512 x 28 from
 * 2^24, loading those rows again after the look-back), and n up to
 * 1024 x 16 in one block (1024 x 8 and
 * smaller workgroups of 8 elements each while those cover n); each
 * invocation folds four elements at a time,
 * subgroup scans join the lanes, shared memory the subgroups; each block
 * publishes its total, folds its predecessors' published totals back to the
 * first one that has published its inclusive prefix, then publishes its own.
 * Where the device has 64-bit buffer atomics, a block's flag and value travel
 * in one word (no memory fences; cn_device_caps.buffer_int64_atomics), else
 * apart, ordered by fences. n up to one block is one dispatch; more is two (a
 * kernel zeroing the look-back's flags, then the scan), or one with a
 * persistent look-back state (state_bytes below). Correct whatever the order blocks run
 * in: a block that waits too long for a predecessor folds its input itself
 * (forward progress on llvmpipe, as parentheses matching's look-back).
 * tuning.two_pass selects the older reduce-then-scan (shaders/scan.glsl: a
 * reduce pass per block, the partial sums scanned recursively, an apply pass),
 * kept for comparison.
 *
 * A new monoid is one more kernel (shaders/scan_<name>.comp, a few #defines
 * over shaders/scan_lb.glsl; with two_pass, scan_<name>_{reduce,apply}.comp
 * over shaders/scan.glsl) and one more row in scan.c's table.
 */
#ifndef CN_SCAN_H
#define CN_SCAN_H

#include "canopy.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cn_scan_op {
  CN_SCAN_U32_ADD = 0, /* uint32 sum, wrapping modulo 2^32 */
  CN_SCAN_U32_MAX,     /* uint32 maximum (identity 0) */
  CN_SCAN_F32_SEG_ADD, /* segmented float sum: bit 31 starts a segment, bits 0..30 a float >= 0
                          (shaders/scan_f32_seg.glsl) */
  CN_SCAN_OP_COUNT
} cn_scan_op;

/* Largest n of a scan. */
#define CN_SCAN_MAX_N 0xFFFF0000ull

/* Tuning (benchmarks, tests); NULL or zeroed: the defaults. */
typedef struct cn_scan_tuning {
  bool two_pass;        /* reduce-then-scan instead of the one-pass look-back */
  /* One-pass block shape: invocations (a power of two, at least the subgroup
   * size) and elements per invocation (4 .. 64, a multiple of 4); both 0: the
   * default shape by n (see above; the huge inputs' shape also turns
   * aggregate_first, stream_rows or reload_rows on). A shape the device cannot run fails with
   * CN_ERROR_INVALID_ARGUMENT. */
  uint32_t wg, items;
  /* One-pass: the look-back with memory fences (flag and value apart) even
   * where the device has 64-bit buffer atomics (flag and value in one word). */
  bool fenced;
  uint32_t spin_budget; /* look-back: flag loads per block before it folds a
                           predecessor's input itself (0: 16384); small values
                           exercise that path */
  uint32_t backoff;     /* look-back: a pause of this many dependent ALU steps
                           between two loads of an unset flag (0: none) */
  uint32_t lookback_entries; /* 64-bit look-back: predecessors each lane of the
                           walking subgroup reads per step, 1, 2, 4 or 8 (a window
                           of subgroup size x this); 0: the default */
  bool static_order;    /* look-back: block b is workgroup b (no counter handing
                           out block ids in the order blocks start; correct in
                           any order through the spin budget, fast only where
                           the device starts workgroups in id order) */
  bool aggregate_first; /* one-pass: a block publishes its total before it scans
                           its rows (the first subgroup walks back while the
                           others scan theirs) */
  bool early_lookback;  /* one-pass with 64-bit atomics, one look-back entry per
                           lane: the first subgroup reads its first window of
                           predecessors as soon as its own rows are loaded, before
                           the block's total is known, and ends the walk there when
                           that window already reaches a published prefix */
  bool stream_rows;     /* one-pass: the block's total first (as aggregate_first),
                           then after the look-back each subgroup scans and writes
                           its rows one at a time (no row's prefix held across the
                           walk: fewer registers, more workgroups per SM) */
  bool reload_rows;     /* with stream_rows: each row loaded again (from the
                           cache) just before its scan, so that no element is
                           held in registers across the look-back */
} cn_scan_tuning;

/* One scan: what cn_scan_record() records. Buffers are given by device
 * address (so callers can scan a part of a larger buffer). */
typedef struct cn_scan_args {
  cn_scan_op op;
  VkDeviceAddress src, dst, scratch;
  uint64_t n;
  bool exclusive;
  const cn_scan_tuning *tuning; /* NULL: the context's (cn_tuning.scan), else the defaults */
  /* 0: scratch is plain scratch (cn_scan_scratch_bytes), zeroed by a dispatch
   * of its own before each scan of more than one block. Else scratch is a
   * persistent look-back state of state_bytes bytes (cn_scan_state_bytes),
   * zeroed once by cn_scan_state_init and written by nothing but the scans
   * given it since: each scan finds the half it uses zero and clears the other
   * half for the next one as it runs, one dispatch instead of two. Scans
   * sharing a state must not overlap (a barrier between them, as for their
   * data); replaying a recorded command buffer is fine (the state's parity
   * lives on the GPU). The one-pass scan only (not tuning.two_pass). */
  uint64_t state_bytes;
} cn_scan_args;

/* Bytes of scratch that cn_scan_record() needs for a->op, a->n, a->tuning. */
CN_API uint64_t cn_scan_scratch_bytes(cn_context *ctx, const cn_scan_args *a);

/* Bytes of a persistent look-back state that serves every scan of up to a->n
 * elements with a->tuning (either look-back form: fenced or not); 0 for
 * two_pass. */
CN_API uint64_t cn_scan_state_bytes(cn_context *ctx, const cn_scan_args *a);

/* Records the zeroing of a persistent look-back state (state: 8-byte aligned,
 * bytes from cn_scan_state_bytes), once before its first scan. Ends with no
 * barrier: the caller adds one (cn_cmd_barrier) before the first scan. */
CN_API cn_result cn_scan_state_init(cn_context *ctx, VkCommandBuffer cmd, VkDeviceAddress state, uint64_t bytes);

/* Records the scan into cmd. Ends with no barrier: the caller adds one
 * (cn_cmd_barrier) before reading dst. */
CN_API cn_result cn_scan_record(cn_context *ctx, VkCommandBuffer cmd, const cn_scan_args *a);

/* Convenience (standalone contexts): uploads in[], scans (u32 add; tuning may
 * be NULL), reads back out[]. */
CN_API cn_result cn_scan_u32(cn_context *ctx, const cn_scan_tuning *tuning, const uint32_t *in, uint32_t *out, uint64_t n,
                      bool exclusive);

/* CPU reference: the same result, sequentially. in and out may be the same. */
CN_API void cn_scan_u32_cpu(const uint32_t *in, uint32_t *out, uint64_t n, bool exclusive);

#ifdef __cplusplus
}
#endif

#endif
