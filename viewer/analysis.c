/* analysis.c: what the host knows of the viewed scene, in window pixels:
 * each element's nesting depth and the counts (computed here from the tags,
 * once per scene), and its result box and the elements per bin. Those come
 * from the renderer's own buffers (gpu.c copies them in the frame's
 * submission), or, when canopy cannot render the scene, from the library's
 * CPU references (cn_scene_stage_cpu, cn_flatten_cpu) on the viewed scene,
 * with their flattened segments (at most VW_MAX_LINES), which the viewer then
 * uploads for the overlays.
 */
#include "vw.h"

#include <canopy/cn_flatten.h>
#include <canopy/cn_scene_stage.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


const char *vw_tag_name(uint32_t tag) {
  switch (tag) {
    case CN_TAG_FILL: return "fill";
    case CN_TAG_STROKE: return "stroke";
    case CN_TAG_BEGIN_CLIP: return "clip group";
    case CN_TAG_END_CLIP: return "end clip";
    case CN_TAG_BEGIN_BLEND: return "blend group";
    case CN_TAG_END_BLEND: return "end blend";
    default: return "unknown";
  }
}

void vw_analysis_free(vw_analysis *a) {
  free(a->boxes);
  free(a->depth);
  free(a->tags);
  free(a->bin_counts);
  free(a->lines);
  free(a->line_element);
  memset(a, 0, sizeof *a);
}

bool vw_analysis_compute(vw_analysis *a, const cn_scene_data *s, uint32_t w, uint32_t h, char *err, size_t errcap) {
  vw_analysis_free(a);
  uint32_t n = s->element_count;
  a->count = n;
  a->source = "none";
  a->bin_size = VW_BIN_SIZE;
  a->bins_x = (w + VW_BIN_SIZE - 1) / VW_BIN_SIZE;
  a->bins_y = (h + VW_BIN_SIZE - 1) / VW_BIN_SIZE;
  a->boxes = calloc(n ? n : 1, sizeof *a->boxes);
  a->depth = calloc(n ? n : 1, sizeof *a->depth);
  a->tags = calloc(n ? n : 1, sizeof *a->tags);
  a->bin_counts = calloc((size_t)a->bins_x * a->bins_y + 1, sizeof *a->bin_counts);
  if (!a->boxes || !a->depth || !a->tags || !a->bin_counts) {
    vw_analysis_free(a);
    snprintf(err, errcap, "out of memory analysing %u elements", n);
    return false;
  }
  uint32_t top = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t t = s->elements[i].tag;
    a->tags[i] = t;
    if (t == CN_TAG_END_CLIP || t == CN_TAG_END_BLEND) top -= top > 0;
    a->depth[i] = top;
    if (t == CN_TAG_FILL || t == CN_TAG_STROKE) a->draws++;
    if (t == CN_TAG_BEGIN_CLIP) a->clips++;
    if (t == CN_TAG_BEGIN_BLEND) a->blends++;
    if (t == CN_TAG_BEGIN_CLIP || t == CN_TAG_BEGIN_BLEND) {
      if (top > a->max_depth) a->max_depth = top;
      top++;
    }
  }
  return true;
}

bool vw_analysis_set_bins(vw_analysis *a, const uint32_t *offsets, uint32_t bins_x, uint32_t bins_y, char *err,
                          size_t errcap) {
  uint32_t nbins = bins_x * bins_y;
  uint32_t *counts = realloc(a->bin_counts, ((size_t)nbins + 1) * sizeof *counts);
  if (!counts) {
    snprintf(err, errcap, "out of memory for %u bins", nbins);
    return false;
  }
  a->bin_counts = counts;
  a->bins_x = bins_x;
  a->bins_y = bins_y;
  a->bins_used = 0;
  for (uint32_t b = 0; b < nbins; b++) {
    counts[b] = offsets[b + 1] - offsets[b];
    a->bins_used += counts[b] > 0;
  }
  return true;
}

bool vw_analysis_set_lines(vw_analysis *a, const cn_line *lines, uint32_t n, char *err, size_t errcap) {
  if (n > VW_MAX_LINES) n = VW_MAX_LINES;
  float *l = realloc(a->lines, ((size_t)n + 1) * 4 * sizeof *l);
  if (l) a->lines = l;
  uint32_t *owner = l ? realloc(a->line_element, ((size_t)n + 1) * sizeof *owner) : NULL;
  if (!l || !owner) {
    snprintf(err, errcap, "out of memory for %u lines", n);
    return false;
  }
  a->line_element = owner;
  a->line_count = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (lines[i].element >= a->count) continue;
    float *q = &a->lines[4 * (size_t)a->line_count];
    q[0] = lines[i].x0, q[1] = lines[i].y0, q[2] = lines[i].x1, q[3] = lines[i].y1;
    a->line_element[a->line_count++] = lines[i].element;
  }
  return true;
}

void vw_analysis_lines_on_gpu(vw_analysis *a, uint32_t count) {
  free(a->lines);
  free(a->line_element);
  a->lines = NULL;
  a->line_element = NULL;
  a->line_count = count;
}

bool vw_analysis_cpu(vw_analysis *a, const cn_scene_data *viewed, char *err, size_t errcap) {
  cn_scene_stage_desc d = {.bin_size = VW_BIN_SIZE};
  cn_scene_stage_result res;
  cn_result r = cn_scene_stage_cpu(viewed, NULL, &d, &res);
  if (r != CN_OK) {
    snprintf(err, errcap, "CPU scene stage: %s: %s", cn_result_name(r), cn_last_error());
    return false;
  }
  memcpy(a->boxes, res.boxes, (size_t)a->count * sizeof *a->boxes);
  bool ok = vw_analysis_set_bins(a, res.bin_offsets, res.grid.nbx, res.grid.nby, err, errcap);
  cn_scene_stage_result_free(&res);
  if (!ok) return false;
  cn_line *lines = NULL;
  uint32_t nl = 0;
  r = cn_flatten_cpu(viewed, NULL, &lines, &nl, NULL);
  if (r != CN_OK) {
    snprintf(err, errcap, "CPU flatten: %s: %s", cn_result_name(r), cn_last_error());
    return false;
  }
  ok = vw_analysis_set_lines(a, lines, nl, err, errcap);
  free(lines);
  a->source = "cpu reference";
  return ok;
}
