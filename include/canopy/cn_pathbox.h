/* cn_pathbox.h: path boxes (stages/pathbox.c): the box of every element of an
 * encoded scene from its path's segments, on the GPU, with a CPU reference.
 *
 * Inputs: the scene arrays of cn_scene_layout.h, uploaded as they are:
 * elements, paths, segments, transforms, strokes.
 * Output: one cn_box per element (the bbox stage's `boxes` input):
 *   - FILL, BEGIN_CLIP: the tight box of the path in device pixels: each
 *     segment's control points go through the path's transform (an affine
 *     map keeps a Bézier a Bézier), then the box of the transformed curve:
 *     its endpoints and its interior extrema (roots of the derivative of each
 *     coordinate, quadratic for cubics, linear for quads), not the control points.
 *   - STROKE: conservative: the path box grown on every side by
 *       e = width/2 * sigma * f,
 *     sigma = the transform's largest singular value (the most a unit length
 *     can stretch), f = max(1, miter_limit if join is MITER or MITER_CLIP,
 *     sqrt(2) if cap is SQUARE): round/bevel joins and butt/round caps reach at
 *     most width/2 from the path, a miter tip at most miter_limit * width/2,
 *     a square cap's corner sqrt(2) * width/2. Dashes only remove ink.
 *   - other elements, and empty results (a path with no segments, a fill of
 *     zero area): the canonical empty box 0 0 0 0.
 *   Optionally every element's tag into a uint32 array (the bbox stage's tags).
 * GPU: pathbox_init clears one key box per path, pathbox_segments folds every
 * segment's box into its path (info >> CN_SEG_PATH_SHIFT) with integer
 * atomic min/max on order-preserving keys (exact, any order), pathbox_elements
 * writes the element boxes. Small scenes (at most cn_tuning.pathbox_small_max
 * segments and elements, 1024 by default, and at most 2048 paths, 1024 on
 * devices with less than 32 KiB of shared memory) run the
 * same steps in one workgroup and one dispatch (pathbox_small: the paths' key
 * boxes in shared memory), with the same results bit for bit. As a tuning
 * option (off by default: slower on the H200, docs/PERF.md), scenes of at
 * most cn_tuning.pathbox_fused_max elements run
 * pathbox_init and then pathbox_fused, which folds the segments as
 * pathbox_segments does and has its last workgroup to finish (a ticket
 * counter after the key boxes) write every element's box: two dispatches
 * instead of three, the same bits.
 * Precision: float32 on both sides, but the GPU may contract or round
 * differently (sqrt, division): the CPU reference agrees to within a few ulps
 * of the coordinates' magnitude, not bit for bit (the later stages are exact).
 * Limits: counts < 2^32; paths < 2^28 (the segment encoding). Indices out of
 * range are skipped on the GPU; cn_scene_check() (cn_scene.h) reports them first.
 */
#ifndef CN_PATHBOX_H
#define CN_PATHBOX_H

#include "canopy.h"
#include "cn_scene.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cn_timer cn_timer;

typedef struct cn_pathbox_args {
  VkDeviceAddress elements, paths, segments, transforms, strokes; /* the scene arrays */
  uint32_t element_count, path_count, segment_count, transform_count, stroke_count;
  VkDeviceAddress scratch; /* cn_pathbox_scratch_bytes() bytes, 16-byte aligned */
  VkDeviceAddress boxes;   /* out: element_count cn_box */
  VkDeviceAddress tags;    /* out (optional, 0 for none): element_count uint32 tags */
  cn_timer *timer;         /* optional: marks "path boxes" */
} cn_pathbox_args;

CN_API uint64_t cn_pathbox_scratch_bytes(cn_context *ctx, const cn_pathbox_args *args);

/* Records the path-box kernels into cmd (no barrier at the end). */
CN_API cn_result cn_pathbox_record(cn_context *ctx, VkCommandBuffer cmd, const cn_pathbox_args *args);

/* CPU reference: out gets element_count boxes. */
CN_API cn_result cn_pathbox_cpu(const cn_scene_data *s, cn_box *out);

#ifdef __cplusplus
}
#endif

#endif
