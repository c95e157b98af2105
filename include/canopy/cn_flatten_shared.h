/* cn_flatten_shared.h: the flatten stage's buffer layouts and push constants,
 * shared by C (stages/flatten.c, stages/flatten_cpu.c) and GLSL (shaders/flatten_*.comp).
 *
 * Outputs (what coarse rasterization reads):
 *   cn_line[]          line segments in device pixels, each tagged with its element
 *   cn_flatten_elem[]  per element: its lines' range and their bounding box
 *   cn_flatten_header  the exact number of lines the scene needs, and overflow flags
 * Work buffer (one allocation, u32 words, offsets below): header, per-element
 * pair bases, per-pair line offsets, per-segment subpath links, per-pair dash
 * distances. The offsets are functions of the counts, so C and GLSL agree on them.
 */
#ifndef CN_FLATTEN_SHARED_H
#define CN_FLATTEN_SHARED_H

#include "cn_config.h"
#include "cn_scene_layout.h"

/* One line segment in device pixels, from (x0, y0) to (x1, y1). Direction
 * matters: fills keep the direction of their path, stroke outlines are all
 * oriented alike, so the nonzero winding of all lines of one element is the
 * element's coverage. element: the index of the FILL, STROKE or BEGIN_CLIP
 * element in the scene's element stream. 20 bytes, 4-byte aligned. */
CN_STRUCT(cn_line) {
  CN_F32 x0, y0, x1, y1;
  CN_U32 element;
} CN_STRUCT_END(cn_line)

/* Per element (indexed like the scene's elements): the lines of element e are
 * lines[line_first .. line_first + line_count), contiguous and in path order;
 * (x0, y0, x1, y1) is their bounding box in device pixels (all zero when the
 * element has no lines, including every element that is not FILL, STROKE or
 * BEGIN_CLIP). cover: the factor its paint's alpha is scaled by, 1 except for
 * a dashed stroke whose pattern is too fine to draw (a period under
 * CN_FLATTEN_DASH_COLLAPSE_PX device pixels): its lines are then the solid
 * stroke and cover the pattern's mean coverage (cn_flatten.h). flags: below. */
CN_STRUCT(cn_flatten_elem) {
  CN_U32 line_first;
  CN_U32 line_count;
  CN_F32 x0, y0, x1, y1;
  CN_F32 cover;
  CN_U32 flags; /* CN_FLATTEN_ELEM_* */
} CN_STRUCT_END(cn_flatten_elem)

/* cn_flatten_elem.flags: a stroke Skia (tiny-skia) draws as an anti-aliased
 * hairline with its alpha scaled by the width: its width vectors (w, 0) and
 * (0, w) under the transform each have Skia's fast length (max + min/2 of
 * |x|, |y|) of at most 1 device pixel. The renderer's supersampled mode
 * (CN_AA_SS16) gives it area coverage, which is what such a hairline comes
 * to (render_coarse.comp). */
#define CN_FLATTEN_ELEM_HAIRLINE 1u

/* The first 16 bytes of the work buffer. line_count is the exact number of
 * lines the scene needs (whatever the capacity); lines at index >= capacity
 * were not written, and flags says so. */
CN_STRUCT(cn_flatten_header) {
  CN_U32 line_count;
  CN_U32 line_capacity;
  CN_U32 flags; /* CN_FLATTEN_* below */
  CN_U32 pad0;
} CN_STRUCT_END(cn_flatten_header)

#define CN_FLATTEN_OVERFLOW 1u /* line_count > line_capacity: re-run with more room */
#define CN_FLATTEN_TOO_MANY 2u /* the count passed 2^32 - 1: the scene is beyond the stage's limit */

/* Limits on the work of one segment (documented in cn_flatten.h). */
#define CN_FLATTEN_MAX_SUBDIV 16384u /* flattened pieces per curve */
#define CN_FLATTEN_MAX_ARC 4096u     /* chords per round join or cap */
#define CN_FLATTEN_MAX_DASHES 65536u /* dashes started within one segment */
#define CN_FLATTEN_DASH_COLLAPSE_PX 0.125f /* dash periods below this (device px) draw solid at mean coverage */

/* Pairs per segment of a STROKE element whose path has CN_PATH_CURVED: a
 * solid stroke's segment is walked as this many chunks of its chords, one
 * invocation each (its pairs k * split .. k * split + split - 1), so no
 * invocation walks more than 1/split of a curve's chords; a dashed stroke's
 * segment is walked by its first pair alone. Other elements have one pair per
 * segment. cn_scene_info.pair_count counts this many for every stroke segment
 * (a bound: pairs past the GPU's total do nothing). */
#define CN_FL_STROKE_SPLIT 16u

/* Work buffer layout, in u32 words (E elements, P pairs (at most one per
 * segment of a FILL or BEGIN_CLIP, CN_FL_STROKE_SPLIT per segment of a STROKE),
 * S segments). Regions start on 16-byte boundaries. */
#define CN_FL_ALIGN4(x) (((x) + 3u) & ~3u)
#define CN_FL_OFF_PAIR_BASE 4u                                           /* E + 1: exclusive scan of pairs per element */
#define CN_FL_OFF_PAIR_LINES(E) (CN_FL_OFF_PAIR_BASE + CN_FL_ALIGN4((E) + 1u)) /* P + 1: lines per pair, then scanned */
#define CN_FL_OFF_SUB_FIRST(E, P) (CN_FL_OFF_PAIR_LINES(E) + CN_FL_ALIGN4((P) + 1u)) /* S: first segment of the subpath */
#define CN_FL_OFF_SUB_LAST(E, P, S) (CN_FL_OFF_SUB_FIRST(E, P) + CN_FL_ALIGN4(S))    /* S: at a subpath's first: its last */
#define CN_FL_OFF_DASH(E, P, S) (CN_FL_OFF_SUB_LAST(E, P, S) + CN_FL_ALIGN4(S))      /* P + 1 floats: dash distances */
#define CN_FL_OFF_AGG(E, P, S) (CN_FL_OFF_DASH(E, P, S) + CN_FL_ALIGN4((P) + 1u)) /* lines per workgroup of pairs */
#define CN_FL_PAIR_GROUP 64u /* pairs per workgroup of flatten_pairs (its CN_SPEC_WG_SIZE) */
#define CN_FL_WORDS(E, P, S) (CN_FL_OFF_AGG(E, P, S) + CN_FL_ALIGN4(((P) + CN_FL_PAIR_GROUP - 1u) / CN_FL_PAIR_GROUP))

/* Kernel modes (cn_flatten_push.mode). */
#define CN_FL_MODE_ELEM_INIT 0u    /* flatten_elements: pair counts per element, bbox init */
#define CN_FL_MODE_ELEM_FINISH 1u  /* flatten_elements: line ranges and boxes per element */
#define CN_FL_MODE_SUB_START 2u    /* flatten_subpaths: sub_first[i] = i at subpath starts, else 0 */
#define CN_FL_MODE_SUB_LINK 3u     /* flatten_subpaths: sub_last[first] = last */
#define CN_FL_MODE_COUNT 4u        /* flatten_pairs: lines per pair */
#define CN_FL_MODE_WRITE 5u        /* flatten_pairs: write the lines */
#define CN_FL_MODE_DASH_LEN 6u     /* flatten_pairs: dashed strokes' flattened lengths */
#define CN_FL_MODE_ELEM_INIT_SCAN 7u /* flatten_elements, one workgroup: ELEM_INIT and the pair-base scan */

/* Every flatten kernel takes this block (128 bytes). */
#if !defined(VULKAN) || defined(CN_USE_FLATTEN_PUSH)
CN_PUSH_BEGIN(cn_flatten_push)
  CN_PTR(ElementBuf) elements;
  CN_PTR(PathBuf) paths;
  CN_PTR(SegmentBuf) segments;
  CN_PTR(TransformBuf) transforms;
  CN_PTR(StrokeBuf) strokes;
  CN_PTR(DashBuf) dashes;
  CN_PTR(WorkBuf) work;          /* CN_FL_WORDS(E, P, S) words */
  CN_PTR(LineBuf) lines;         /* line_capacity cn_line */
  CN_PTR(ElemOutBuf) elem_out;   /* E cn_flatten_elem */
  CN_PTR(CullBuf) cull;          /* 0, or E result boxes: an element whose box is empty gets no pairs */
  CN_F32 view_a, view_b, view_c, view_d, view_e, view_f; /* applied after each path's transform */
  CN_F32 tolerance;              /* device pixels */
  CN_U32 element_count;          /* E */
  CN_U32 pair_count;             /* P */
  CN_U32 segment_count;          /* S */
  CN_U32 line_capacity;
  CN_U32 mode;                   /* CN_FL_MODE_* */
CN_PUSH_END(cn_flatten_push)
CN_STATIC_ASSERT_SIZE(cn_flatten_push, 128);
#endif

#ifndef VULKAN
CN_STATIC_ASSERT_SIZE(cn_line, 20);
CN_STATIC_ASSERT_SIZE(cn_flatten_elem, 32);
CN_STATIC_ASSERT_SIZE(cn_flatten_header, 16);
#endif

#endif
