/* cn_scene.h: an encoded scene as the GPU stages consume it.
 *
 * cn_scene_data is a read-only view of the arrays of cn_scene_layout.h. The
 * scene builder (C scene API) and the SVG loader produce it; the scene stage
 * (path boxes, clip/blend boxes, binning) and the renderer upload it as it is.
 * docs/SCENE.md documents the layout in full.
 */
#ifndef CN_SCENE_H
#define CN_SCENE_H

#include <stdint.h>

#include "canopy.h"
#include "cn_scene_layout.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cn_scene_data {
  /* Device-pixel rectangle the scene is drawn into: x0 y0 x1 y1. Output
   * images cover it; binning anchors its grid at (x0, y0). */
  float viewport[4];
  const cn_element *elements;
  uint32_t element_count;
  const cn_path *paths;
  uint32_t path_count;
  const cn_segment *segments;
  uint32_t segment_count;
  const cn_transform *transforms;
  uint32_t transform_count;
  const cn_paint *paints;
  uint32_t paint_count;
  const cn_stop *stops;
  uint32_t stop_count;
  const cn_stroke *strokes;
  uint32_t stroke_count;
  const float *dashes;
  uint32_t dash_count;
  const cn_blend *blends;
  uint32_t blend_count;
  /* Images of CN_PAINT_IMAGE paints and their texels (cn_image). */
  const cn_image *images;
  uint32_t image_count;
  const uint32_t *image_pixels; /* RGBA8 premultiplied words */
  uint32_t image_pixel_count;
} cn_scene_data;

/* What cn_scene_check learns about a scene. */
typedef struct cn_scene_info {
  uint32_t group_count; /* BEGIN/END elements */
  uint32_t pair_count;  /* the flatten stage's pairs, at most: one per segment of a FILL or BEGIN_CLIP,
                           CN_FL_STROKE_SPLIT (cn_flatten_shared.h) per segment of a STROKE */
  uint32_t drawn_segments; /* (element, segment) pairs of FILL, STROKE and BEGIN_CLIP elements */
  uint32_t max_depth;   /* deepest clip/blend nesting */
  bool dashed;          /* some STROKE has a dash pattern */
  /* A bound on |x| and |y| of everything the scene can draw before a view
   * transform: the largest over the drawn elements of their path's control
   * points under the path's own transform, plus the farthest a stroke's
   * outline (joins, caps) can reach. Infinity when not finite. */
  float extent;
} cn_scene_info;

/* The check every GPU stage and the renderer run before they upload a scene
 * (one set of messages, each naming the element, path or segment): arrays
 * present for their counts; every index in range (paths and their segments
 * and transforms, paints, strokes and their dashes, blends); each segment
 * naming the path whose range holds it; known tags and fill rules; groups
 * balanced, every END closing a BEGIN of its kind; each mask group followed
 * at once by its masked group; elements, segments and the flatten stage's
 * pairs (cn_scene_info.pair_count) below 2^30.
 * Fails with CN_ERROR_INVALID_ARGUMENT, CN_ERROR_UNBALANCED or CN_ERROR_LIMIT.
 * info (may be NULL) gets the scene's counts. */
CN_API cn_result cn_scene_check(const cn_scene_data *s, cn_scene_info *info);

/* Checks that d is a well-formed encoding as producers write it: everything
 * cn_scene_check checks, plus: fill and clip paths
 * closed (every subpath ends where it starts), finite coordinates and
 * transforms, masks followed by their masked group, paint stops sorted.
 * Any producer's output can be checked before upload (the fuzz target and
 * tests do). Fails: CN_ERROR_UNBALANCED or CN_ERROR_INVALID_ARGUMENT naming
 * the first bad element, path or segment. */
CN_API cn_result cn_scene_validate(const cn_scene_data *d);

#ifdef __cplusplus
}
#endif

#endif
