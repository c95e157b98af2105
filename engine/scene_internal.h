/* scene_internal.h: what the SVG loader needs of the scene builder beyond
 * cn_scene_api.h.
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

/* Number of elements emitted so far in this scene. */
uint32_t cn__scene_element_count(const cn_scene_builder *b);
/* Number of segments defined so far in this scene. */
uint32_t cn__scene_segment_count(const cn_scene_builder *b);
/* Moves elements [split, end) in front of [mark, split); mark <= split <= end. */
cn_result cn__scene_rotate(cn_scene_builder *b, uint32_t mark, uint32_t split);

/* Drops the elements past count. Only for a balanced run of elements
 * (a group's content that turned out not to be rendered). */
void cn__scene_truncate_elements(cn_scene_builder *b, uint32_t count);

#endif
