/* cn_scan.h: generic prefix scan of a monoid on the GPU (stages/scan.c).
 *
 * Inputs:  src, n elements of the monoid's element type (a device address).
 * Outputs: dst, n elements: the inclusive (dst[i] = src[0] + ... + src[i]) or
 *          exclusive (dst[i] = src[0] + ... + src[i-1], dst[0] = identity) scan.
 *          src and dst may be the same buffer.
 * Scratch: cn_scan_scratch_bytes() bytes, for the per-block partial sums of
 *          every level.
 * Limits:  n < 2^32; no limit from workgroup sizes: levels are added as n
 *          needs (each level divides n by the block size, 2048 by default).
 *
 * A new monoid is one more pair of kernels (shaders/scan_<name>_{reduce,apply}.comp,
 * a few #defines over shaders/scan.glsl) and one more row in scan.c's table.
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

/* Bytes of scratch that cn_scan_record() needs for n elements. */
CN_API uint64_t cn_scan_scratch_bytes(cn_context *ctx, cn_scan_op op, uint64_t n);

/* Records the scan into cmd. Buffers are given by device address (so callers
 * can scan a part of a larger buffer). Ends with no barrier: the caller adds
 * one (cn_cmd_barrier) before reading dst. */
CN_API cn_result cn_scan_record(cn_context *ctx, VkCommandBuffer cmd, cn_scan_op op, VkDeviceAddress src,
                         VkDeviceAddress dst, VkDeviceAddress scratch, uint64_t n, bool exclusive);

/* Convenience (standalone contexts): uploads in[], scans, reads back out[]. */
CN_API cn_result cn_scan_u32(cn_context *ctx, const uint32_t *in, uint32_t *out, uint64_t n, bool exclusive);

/* CPU reference: the same result, sequentially. in and out may be the same. */
CN_API void cn_scan_u32_cpu(const uint32_t *in, uint32_t *out, uint64_t n, bool exclusive);

#ifdef __cplusplus
}
#endif

#endif
