/* cn_box.h: box arithmetic of the scene stage, on the CPU. shaders/scene_box.glsl
 * is the same code for the GPU; both use only comparisons, min and max on
 * float32, so the CPU reference and the GPU agree bit for bit.
 *
 * - A box x0 y0 x1 y1 is empty when !(x1 > x0 && y1 > y0) (so a NaN makes it empty).
 * - Coordinates are cleaned on input: -0 and subnormals become +0 (GPUs may
 *   flush or ignore their sign in min/max), a box with a NaN becomes CN_BOX_EMPTY.
 * - The canonical empty box CN_BOX_EMPTY is 0 0 0 0: every empty result is
 *   written as it. Union ignores empty boxes; intersection is max of mins, min of maxes.
 * - Bins: bin k of an axis spans [v0 + k*B, v0 + (k+1)*B] where v0 + k*B is
 *   one float addition of v0 and the exact integer k*B (k*B < 2^24). A box is in
 *   bin k when x0 < edge(k+1) and x1 > edge(k). */
#ifndef CN_BOX_H
#define CN_BOX_H

#include "cn_scene_layout.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define CN_BOX_EMPTY ((cn_box){0.0f, 0.0f, 0.0f, 0.0f})
#define CN_BOX_UNBOUNDED ((cn_box){-INFINITY, -INFINITY, INFINITY, INFINITY})

static inline float cn_f32_max(float a, float b) { return a > b ? a : b; }
static inline float cn_f32_min(float a, float b) { return a < b ? a : b; }

static inline uint32_t cn_f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

/* -0 and subnormals -> +0. */
static inline float cn_coord_clean(float f) { return (cn_f32_bits(f) & 0x7f800000u) == 0 ? 0.0f : f; }
static inline bool cn_coord_is_nan(float f) { return (cn_f32_bits(f) & 0x7fffffffu) > 0x7f800000u; }

static inline bool cn_box_is_empty(cn_box b) { return !(b.x1 > b.x0 && b.y1 > b.y0); }

/* An input box as every stage reads it. */
static inline cn_box cn_box_clean(cn_box b) {
  if (cn_coord_is_nan(b.x0) || cn_coord_is_nan(b.y0) || cn_coord_is_nan(b.x1) || cn_coord_is_nan(b.y1))
    return CN_BOX_EMPTY;
  return (cn_box){cn_coord_clean(b.x0), cn_coord_clean(b.y0), cn_coord_clean(b.x1), cn_coord_clean(b.y1)};
}

/* Raw intersection (may be empty, not canonicalised). */
static inline cn_box cn_box_intersect(cn_box a, cn_box b) {
  return (cn_box){cn_f32_max(a.x0, b.x0), cn_f32_max(a.y0, b.y0), cn_f32_min(a.x1, b.x1), cn_f32_min(a.y1, b.y1)};
}

/* b, or CN_BOX_EMPTY when b is empty. */
static inline cn_box cn_box_canon(cn_box b) { return cn_box_is_empty(b) ? CN_BOX_EMPTY : b; }

/* Union of two canonical boxes (CN_BOX_EMPTY or non-empty). */
static inline cn_box cn_box_union(cn_box a, cn_box b) {
  if (cn_box_is_empty(a)) return b;
  if (cn_box_is_empty(b)) return a;
  return (cn_box){cn_f32_min(a.x0, b.x0), cn_f32_min(a.y0, b.y0), cn_f32_max(a.x1, b.x1), cn_f32_max(a.y1, b.y1)};
}

static inline float cn_bin_edge(float v0, uint32_t k, uint32_t bin_size) { return v0 + (float)(k * bin_size); }

/* The bins [*lo, *hi] (0 <= lo <= hi < nb) of one axis that [a0, a1] overlaps
 * with positive length; false when none. */
static inline bool cn_bin_range(float a0, float a1, float v0, uint32_t bin_size, uint32_t nb, uint32_t *lo,
                                uint32_t *hi) {
  if (nb == 0) return false;
  float fb = (float)bin_size, top = (float)(nb - 1);
  float e0 = cn_f32_min(cn_f32_max((a0 - v0) / fb, 0.0f), top);
  float e1 = cn_f32_min(cn_f32_max((a1 - v0) / fb, 0.0f), top);
  uint32_t l = (uint32_t)e0, h = (uint32_t)e1; /* estimates; fixed exactly below */
  while (l > 0 && cn_bin_edge(v0, l, bin_size) > a0) l--;
  while (l < nb - 1 && !(cn_bin_edge(v0, l + 1, bin_size) > a0)) l++;
  while (h < nb - 1 && cn_bin_edge(v0, h + 1, bin_size) < a1) h++;
  while (h > 0 && !(cn_bin_edge(v0, h, bin_size) < a1)) h--;
  *lo = l;
  *hi = h;
  return l <= h && cn_bin_edge(v0, l + 1, bin_size) > a0 && cn_bin_edge(v0, h, bin_size) < a1;
}

#endif
