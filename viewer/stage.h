/* stage.h: canopy's scene stage (stages/cn_scene_stage.h) run for the viewer:
 * per-element result boxes after clip intersection, group boxes and per-bin
 * element lists of the viewed scene, on the GPU, for the overlays and the
 * hover. The scene's arrays are uploaded once per (re)load; a view change
 * writes only the viewed transforms and re-records the stage into the viewer's
 * command buffer. Only public canopy headers are used.
 */
#ifndef VW_STAGE_H
#define VW_STAGE_H

#include "host.h"

#define VW_BIN_SIZE 256u

typedef struct vw_stage {
  uint32_t generation;      /* document generation uploaded; 0: none */
  uint32_t element_count, path_count, segment_count, transform_count, stroke_count;
  uint64_t group_bound;
  cn_buffer elements, paths, segments, strokes; /* device, per load */
  cn_buffer transforms;                         /* upload memory, written per view */
  cn_buffer tags, path_boxes, boxes, status, bin_offsets, bin_elems, scratch;
  uint64_t bin_capacity;
  cn_buffer rb_boxes, rb_status, rb_offsets;    /* readback */
  cn_buffer dashes;                             /* device, per load (the flatten stage reads it) */
  struct cn_flatten *flatten;                   /* flattened segments for the overlays */
  cn_buffer rb_lines;                           /* readback of the flattened lines */
  cn_timer *timer;
} vw_stage;

/* Runs the scene stage and the flatten stage on the viewed scene (window
 * pixels, w x h; its transforms change with the view, its other arrays only
 * with generation) and writes the GPU's boxes, bin counts and flattened lines
 * into a (which the CPU analysis filled first, without lines). Spans of the stage are appended to labels/ms (up to cap; *nspans
 * counts them). False with err on failure; *device_lost when the device is gone. */
bool vw_stage_run(vw_stage *st, cn_context *cn, vw_host *h, const cn_scene_data *viewed, uint32_t generation,
                  uint32_t w, uint32_t hgt, vw_analysis *a, const char **labels, double *ms, uint32_t cap,
                  uint32_t *nspans, bool *device_lost, char *err, size_t errcap);
void vw_stage_destroy(vw_stage *st, cn_context *cn);

#endif
