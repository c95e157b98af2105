/* cn_flatten.h: the flatten stage: fills, strokes and clip paths of an encoded
 * scene become line segments in device pixels (stages/flatten.c, kernels
 * shaders/flatten_*.comp, algorithm shaders/cn_flatten_core.h, layouts
 * shaders/cn_flatten_shared.h, CPU reference stages/flatten_cpu.c).
 *
 * Inputs
 *   - the scene arrays of cn_scene_layout.h as uploaded to the GPU (elements,
 *     paths, segments, transforms, strokes, dashes), by device address, and
 *     the scene's counts from cn_scene_check (which the scene must pass);
 *   - a view transform applied after every path's transform (pan / zoom);
 *   - a tolerance in device pixels (default 0.25).
 *
 * Outputs (cn_flatten_shared.h)
 *   - cn_line lines[]: x0 y0 x1 y1 in device pixels + the element index.
 *     Only FILL, STROKE and BEGIN_CLIP elements have lines. The lines of one
 *     element are contiguous, in path order (element-major), so each element
 *     has one range; zero-length lines are never emitted.
 *       FILL / BEGIN_CLIP: each subpath flattened in device space (after the
 *         transform, so the tolerance holds at any zoom), closed: an open
 *         subpath gets its closing line, as SVG fills it. Direction kept, so
 *         the element's rule (aux: nonzero / even-odd) applies to its lines.
 *       STROKE: closed outlines whose nonzero winding is the stroke's area;
 *         every piece (each flattened piece's two offset sides, joins, caps)
 *         winds the same way, so overlaps add up, never cancel. Fill strokes
 *         with the nonzero rule. The stroke is built in the path's local space
 *         (width, dashes in local units; non-uniform transforms shear the pen
 *         as SVG does), then transformed.
 *   - cn_flatten_elem elems[]: per element, its line range and the bounding
 *     box of its lines (device pixels).
 *   - cn_flatten_header: the exact line count and overflow flags.
 *
 * Geometry
 *   - Curves: uniform parameter steps, the count from Wang's formula
 *     (n = ceil(sqrt(d(d-1)/8 * max|second difference| / tol))), so every
 *     point of the polyline is within tol of the curve. Fills use the
 *     whole tolerance in device space. Strokes use tol/2 for the centre line
 *     (in local space: tol / the transform's largest singular value) and tol/2
 *     for arcs; the outline is the exact stroke of the flattened centre line,
 *     hence within tol of the exact stroke.
 *   - Strokes: joins miter, miter-clip (SVG 2), round, bevel, with the miter
 *     limit (a miter past it falls back to bevel; miter-clip clips it at
 *     limit * width / 2); caps butt, round, square; joins and caps use the
 *     curve's exact end tangents. Inside a curve, flattened pieces meet with
 *     round joins (so cusps and tight turns under wide pens are exact). The
 *     inner side of a join goes through the join point, which keeps every
 *     piece positively wound; only between two chords of one curve, when the
 *     turn is under 90 degrees and h sin(turn) is at most the shorter chord,
 *     it cuts straight across (one line less): that small triangle lies in
 *     both chords' quads, so its negative winding never uncovers a point.
 *     Solid strokes go further between chords of one curve: when the turn is
 *     under 90 degrees, the offset lines' intersections lie in the first half
 *     of both chords and the outer corner exceeds the round join by at most
 *     the arc tolerance, the sides simply meet there (2 lines per chord).
 *   - Degenerate input: zero-length segments take no part in joins (the
 *     neighbouring segments' directions are used); a zero-length subpath draws
 *     a dot (round cap) or an axis-aligned square (square cap), nothing for
 *     butt. NaN/Inf coordinates give garbage lines but bounded work.
 *   - Dashes: along the flattened centre line's length in local units, from
 *     each subpath's start, shifted by the dash offset; every dash is capped
 *     (zero-length dashes draw dots/squares with round/square caps), joins
 *     inside a dash are drawn. On a closed subpath a dash running through the
 *     end continues into the first dash with a join (as Skia/resvg do).
 *     A pattern whose sum is 0 or that has a negative or non-finite value
 *     strokes solid; an odd dash_count repeats the list twice. A pattern whose
 *     period is under CN_FLATTEN_DASH_COLLAPSE_PX (1/8) device pixel, measured
 *     along the transform's most stretched direction, strokes solid too, and
 *     cn_flatten_elem.cover gets its mean coverage (the renderer scales the
 *     paint's alpha by it): per period, the dashes plus what their caps cover
 *     of the gaps (square: up to 2h a gap; round: up to pi h / 2, the half
 *     discs' area over the stroke's width 2h), at most 1.
 *   - A stroke whose width vectors map to at most 1 device pixel (Skia's
 *     hairline test) gets CN_FLATTEN_ELEM_HAIRLINE in cn_flatten_elem.flags;
 *     its lines are the same.
 *   - Closed subpaths are expected to end where they start (the scene
 *     builder adds the closing line). Fills close a gap themselves; a solid
 *     stroke of a closed subpath with a gap strokes the gap as a straight
 *     closing line (a dashed one leaves it out of the pattern's length).
 *
 * Memory: count pass + scan + write pass (no line is ever dropped). The
 * caller gives a line buffer of some capacity; the count pass computes the
 * exact number of lines on the GPU, the write pass writes those that fit, and
 * the header says whether they all did. After the submission the caller reads
 * the header: if the lines did not fit it grows the buffer to the exact count
 * and records the frame again (cn_scene_gpu does this for every user of the
 * stage). Downstream stages read the header's line_count and must not trust
 * the lines when flags has CN_FLATTEN_OVERFLOW.
 *
 * Limits: elements, segments and pairs (one per segment of a fill or clip,
 * CN_FL_STROKE_SPLIT per segment of a stroke) each below 2^30;
 * at most 2^32 - 1 lines (CN_FLATTEN_TOO_MANY beyond, reported as
 * CN_ERROR_LIMIT); per curve at most CN_FLATTEN_MAX_SUBDIV pieces, per round
 * join or cap CN_FLATTEN_MAX_ARC chords, per segment CN_FLATTEN_MAX_DASHES
 * dashes (beyond those the tolerance is not met / further dashes are
 * dropped; reached only at absurd zooms or pattern lengths).
 */
#ifndef CN_FLATTEN_H
#define CN_FLATTEN_H

#include "canopy.h"
#include "cn_flatten_shared.h"
#include "cn_scene.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cn_flatten_desc {
  /* View transform a b c d e f (SVG order), applied after each path's
   * transform. All zero: the identity. */
  float view[6];
  /* Maximum distance between a curve and its lines, in device pixels. 0: 0.25. */
  float tolerance;
  /* Lines the first recording has room for (cn_flatten_run). 0: a guess from
   * the scene. Tests set 1 to exercise the overflow path. */
  uint32_t initial_line_capacity;
} cn_flatten_desc;

#define CN_FLATTEN_DEFAULT_TOLERANCE 0.25f

typedef struct cn_flatten_args {
  /* inputs: the scene arrays on the device (cn_scene_layout.h); dashes may be
   * 0 when no stroke is dashed */
  VkDeviceAddress elements, paths, segments, transforms, strokes, dashes;
  /* counts from cn_scene_check (the scene must pass it: the kernels trust the indices) */
  uint32_t element_count, segment_count;
  uint32_t pair_count; /* at least the pairs the element pass counts: cn_scene_info.pair_count
                          (CN_FL_STROKE_SPLIT per stroke segment, a bound; pairs past the
                          count the kernels find do nothing) */
  bool dashed;         /* cn_scene_info.dashed */
  /* pairs per segment of a STROKE whose path has CN_PATH_CURVED: 1, 2, 4, 8
   * or 16 (0: CN_FL_STROKE_SPLIT). Every value gives the same lines; more
   * chunks shorten the longest walk, fewer make fewer pairs. */
  uint32_t stroke_split;
  /* cn_scene_info.extent, or 0 when unknown. Lines are cut to the box
   * [-32768, 49152]^2 device pixels (cn_flatten_core.h); when the view maps
   * the extent well inside it, nothing can leave the box and the kernel is
   * built without the cut (it costs registers in the stroke code). */
  float extent;
  float view[6];       /* as cn_flatten_desc */
  float tolerance;     /* 0: 0.25 */
  /* optional: element_count result boxes (cn_bbox.h); an element whose box is
   * empty gets no lines (culled: its range is empty) */
  VkDeviceAddress cull_boxes;
  /* outputs */
  VkDeviceAddress lines;   /* line_capacity cn_line */
  uint32_t line_capacity;
  VkDeviceAddress elems;   /* element_count cn_flatten_elem */
  VkDeviceAddress scratch; /* cn_flatten_scratch_bytes() bytes, 256-byte aligned; starts with the
                              cn_flatten_header (exact line count, flags) */
  cn_timer *timer; /* optional: marks "flatten: setup", "flatten: count", "flatten: scan", "flatten: write" */
  /* true: the record ends without its last barrier; the caller records one
   * before anything reads the outputs or the header (work that touches none of
   * them may run between, overlapping the last pass) */
  bool caller_barrier;
  /* true: cn_flatten_record_links was recorded into the same command buffer
   * earlier with the same args, with a barrier since */
  bool links_recorded;
  /* true: the subpath links are in the scratch already: an earlier record
   * with the same segments and the same scratch computed them (they depend on
   * the segments alone, and no pass writes their words again) and has run;
   * this record neither computes nor scans them (cn_scene_gpu: from the
   * second frame of a scene on) */
  bool links_ready;
  /* true: the record ends after the write pass and its barrier, leaving the
   * last pass (each element's line range and box, the header's capacity and
   * overflow flag: fl_finish_element of shaders/flatten_finish.glsl) to the
   * caller's next pass, which runs it for every element (and element 0 for
   * the header) before reading the outputs, and records a barrier after it.
   * caller_barrier is then not used. */
  bool caller_finish;
} cn_flatten_args;

CN_API uint64_t cn_flatten_scratch_bytes(cn_context *ctx, const cn_flatten_args *args);

/* Records the stage into cmd; ends with a barrier (later stages may read the
 * outputs and the header) unless args->caller_barrier. The write pass writes the lines that fit; the
 * header at scratch says how many there are: when line_count > line_capacity
 * the caller grows the line buffer to line_count and records again (the
 * count is exact). Failure: CN_ERROR_INVALID_ARGUMENT, CN_ERROR_LIMIT. */
CN_API cn_result cn_flatten_record(cn_context *ctx, VkCommandBuffer cmd, const cn_flatten_args *args);

/* Records the first pass of the subpath links, which depends on the segments
 * alone (a flag at each segment that starts a subpath), into the scratch,
 * without a trailing barrier: a caller records it early, alongside other
 * work (cn_scene_gpu: with the scene stage's first pass, whose result boxes
 * flatten waits for), then cn_flatten_record with links_recorded after a
 * barrier; the links' scan and last pass run beside flatten's own setup. */
CN_API cn_result cn_flatten_record_links(cn_context *ctx, VkCommandBuffer cmd, const cn_flatten_args *args);

/* Standalone (tests, CLI): uploads the scene (cn_scene_gpu), records, submits,
 * re-runs when the lines did not fit, downloads. *lines is malloc'ed (free()
 * it; NULL when there are none); elems (may be NULL) receives element_count
 * entries; reruns (may be NULL) the number of re-runs that overflow caused. */
CN_API cn_result cn_flatten_run(cn_context *ctx, const cn_scene_data *scene, const cn_flatten_desc *desc, cn_line **lines,
                         uint32_t *line_count, cn_flatten_elem *elems, uint32_t *reruns);

/* CPU reference: the same algorithm (the same source, compiled as C), the same
 * lines in the same order up to float rounding. Decisions taken on float
 * thresholds (subdivision counts, merged joints, dash boundaries) can fall
 * the other way on a GPU, so counts may differ by a line here and there (the
 * tests compare coverage, not bits). Outputs as cn_flatten_run.
 * Not thread safe. Failure: as cn_flatten_record's checks, CN_ERROR_OUT_OF_MEMORY. */
CN_API cn_result cn_flatten_cpu(const cn_scene_data *scene, const cn_flatten_desc *desc, cn_line **lines,
                         uint32_t *line_count, cn_flatten_elem *elems);

#ifdef __cplusplus
}
#endif

#endif
