/* scene_internal.h: what scenes/ shares inside canopy::svg: error reporting
 * and small helpers (through canopy.h's public cn_error_set_at; the runtime's
 * internals are not visible here), and what the SVG loader needs of the scene
 * builder beyond cn_scene_api.h.
 *
 * The loader sometimes learns what a group's opening elements must be only
 * after it has encoded the group's content (a clip or mask in
 * objectBoundingBox units needs the content's bounding box). It then encodes
 * the opening elements after the content and moves them in front of it with
 * cn__scene_rotate().
 */
#ifndef CN_SCENE_INTERNAL_H
#define CN_SCENE_INTERNAL_H

#include "cn_scene_api.h"

#define CN_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define CN_MIN(a, b) ((a) < (b) ? (a) : (b))
#define CN_MAX(a, b) ((a) > (b) ? (a) : (b))

/* Records "file:line: message" as this thread's last error and returns code. */
#define cn_fail(code, ...) cn_error_set_at(__FILE__, __LINE__, (code), __VA_ARGS__)

/* Evaluates expr once; returns it from the enclosing function when it is an error. */
#define CN_TRY(expr)                      \
  do {                                    \
    cn_result cn_try_ = (expr);           \
    if (cn_try_ != CN_OK) return cn_try_; \
  } while (0)

/* Number of elements emitted so far in this scene. */
uint32_t cn__scene_element_count(const cn_scene_builder *b);
/* Number of segments defined so far in this scene. */
uint32_t cn__scene_segment_count(const cn_scene_builder *b);
/* Image texels and images added so far in this scene (loader limits). */
uint32_t cn__scene_image_pixels(const cn_scene_builder *b);
uint32_t cn__scene_image_count(const cn_scene_builder *b);
/* Moves elements [split, end) in front of [mark, split); mark <= split <= end. */
cn_result cn__scene_rotate(cn_scene_builder *b, uint32_t mark, uint32_t split);

/* Drops the elements past count. Only for a balanced run of elements
 * (a group's content that turned out not to be rendered). */
void cn__scene_truncate_elements(cn_scene_builder *b, uint32_t count);

#endif
