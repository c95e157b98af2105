/* flatten.c: host side of the flatten stage (see cn_flatten.h): checks the
 * scene, sizes the buffers, records the passes, reads back the line count.
 *
 * Passes (all kernels take cn_flatten_push; see shaders/flatten_*.comp):
 *   setup  elements: pairs per element -> scan -> pair_base
 *          subpaths: start flags -> max scan -> sub_first; link -> sub_last
 *          (dashed strokes) pairs: flattened lengths -> segmented scan -> distances
 *   count  pairs: lines per pair (and the total, in the header)
 *   scan   exclusive scan of lines per pair -> each pair's first line
 *   write  pairs: the lines; elements: ranges, boxes, overflow flag
 */
#include "cn_flatten.h"
#include "internal.h"
#include "kernels.gen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FL_WG 64u
#define FL_MAX_COUNT (1u << 30)

struct cn_flatten {
  cn_buffer lines, elems, work, scratch, readback;
  uint32_t line_capacity;
  uint32_t element_count;
};

cn_result cn_flatten_create(cn_context *ctx, cn_flatten **out) {
  if (!out) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_flatten_create: out is NULL");
  *out = NULL;
  if (!ctx) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_flatten_create: ctx is NULL");
  cn_flatten *fl = calloc(1, sizeof *fl);
  if (!fl) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "out of host memory");
  cn_result r = cn_buffer_create(ctx, CN_MEMORY_READBACK, sizeof(cn_flatten_header), &fl->readback);
  if (r != CN_OK) {
    free(fl);
    return r;
  }
  *out = fl;
  return CN_OK;
}

void cn_flatten_destroy(cn_context *ctx, cn_flatten *fl) {
  if (!fl) return;
  cn_buffer_destroy(ctx, &fl->lines);
  cn_buffer_destroy(ctx, &fl->elems);
  cn_buffer_destroy(ctx, &fl->work);
  cn_buffer_destroy(ctx, &fl->scratch);
  cn_buffer_destroy(ctx, &fl->readback);
  free(fl);
}

static bool fl_draws(uint32_t tag) { return tag == CN_TAG_FILL || tag == CN_TAG_STROKE || tag == CN_TAG_BEGIN_CLIP; }

cn_result cn_flatten_check_scene(const cn_scene_data *s, uint32_t *pair_count) {
  *pair_count = 0;
  if (!s) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "flatten: scene is NULL");
  if (s->element_count >= FL_MAX_COUNT || s->segment_count >= FL_MAX_COUNT)
    return cn_fail(CN_ERROR_LIMIT, "flatten: %u elements, %u segments: at most 2^30 - 1 each", s->element_count,
                   s->segment_count);
  uint64_t pairs = 0;
  for (uint32_t e = 0; e < s->element_count; e++) {
    const cn_element *el = &s->elements[e];
    if (!fl_draws(el->tag)) continue;
    if (el->path >= s->path_count)
      return cn_fail(CN_ERROR_INVALID_ARGUMENT, "flatten: element %u: path %u out of range (%u paths)", e, el->path,
                     s->path_count);
    const cn_path *p = &s->paths[el->path];
    if ((uint64_t)p->seg_first + p->seg_count > s->segment_count)
      return cn_fail(CN_ERROR_INVALID_ARGUMENT, "flatten: element %u: path %u segments %u+%u out of range (%u)", e,
                     el->path, p->seg_first, p->seg_count, s->segment_count);
    if (p->transform >= s->transform_count)
      return cn_fail(CN_ERROR_INVALID_ARGUMENT, "flatten: element %u: path %u transform %u out of range (%u)", e,
                     el->path, p->transform, s->transform_count);
    if (el->tag == CN_TAG_STROKE) {
      if (el->aux >= s->stroke_count)
        return cn_fail(CN_ERROR_INVALID_ARGUMENT, "flatten: element %u: stroke %u out of range (%u strokes)", e,
                       el->aux, s->stroke_count);
      const cn_stroke *st = &s->strokes[el->aux];
      if (st->dash_count && (uint64_t)st->dash_first + st->dash_count > s->dash_count)
        return cn_fail(CN_ERROR_INVALID_ARGUMENT, "flatten: element %u: dashes %u+%u out of range (%u)", e,
                       st->dash_first, st->dash_count, s->dash_count);
    }
    pairs += p->seg_count;
  }
  if (pairs >= FL_MAX_COUNT)
    return cn_fail(CN_ERROR_LIMIT, "flatten: %llu (element, segment) pairs: at most 2^30 - 1",
                   (unsigned long long)pairs);
  *pair_count = (uint32_t)pairs;
  return CN_OK;
}

static bool fl_has_dashes(const cn_scene_data *s) {
  for (uint32_t e = 0; e < s->element_count; e++) {
    const cn_element *el = &s->elements[e];
    if (el->tag == CN_TAG_STROKE && s->strokes[el->aux].dash_count) return true;
  }
  return false;
}

/* Scans of the work buffer: in place, one scratch buffer shared by all. */
static uint64_t fl_scan_scratch(cn_context *ctx, cn_scan_op op, uint64_t n) {
  return cn_scan_scratch_bytes(ctx, &(cn_scan_args){.op = op, .n = n});
}

static cn_result fl_scan(cn_context *ctx, VkCommandBuffer cmd, cn_scan_op op, VkDeviceAddress data,
                         VkDeviceAddress scratch, uint64_t n, bool exclusive) {
  return cn_scan_record(ctx, cmd,
                        &(cn_scan_args){.op = op, .src = data, .dst = data, .scratch = scratch, .n = n,
                                        .exclusive = exclusive});
}

static cn_result fl_kernel(cn_context *ctx, int kernel, VkPipeline *out) {
  uint32_t spec[1] = {FL_WG};
  return cn_pipeline_get(ctx, kernel, spec, 1, out);
}

cn_result cn_flatten_record(cn_context *ctx, cn_flatten *fl, VkCommandBuffer cmd, const cn_scene_data *scene,
                            const cn_flatten_scene_gpu *gpu, const cn_flatten_desc *desc, cn_timer *timer) {
  if (!ctx || !fl || !cmd || !gpu) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_flatten_record: NULL argument");
  uint32_t P;
  CN_TRY(cn_flatten_check_scene(scene, &P));
  const uint32_t E = scene->element_count, S = scene->segment_count;
  cn_flatten_desc d = desc ? *desc : (cn_flatten_desc){0};
  float tol = d.tolerance > 0 ? d.tolerance : CN_FLATTEN_DEFAULT_TOLERANCE;
  if (!(tol < 1e30f)) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "flatten: tolerance %g is not finite", tol);
  bool identity = true;
  for (int i = 0; i < 6; i++) {
    if (d.view[i] != 0) identity = false;
    if (!isfinite(d.view[i])) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "flatten: view[%d] is not finite", i);
  }
  if (identity) d.view[0] = d.view[3] = 1;

  if (fl->line_capacity == 0) {
    uint64_t guess = d.initial_line_capacity ? d.initial_line_capacity : 1024 + 8ull * P;
    fl->line_capacity = (uint32_t)CN_MIN(guess, (uint64_t)UINT32_MAX);
  }
  uint64_t words = CN_FL_WORDS((uint64_t)E, (uint64_t)P, (uint64_t)S);
  uint64_t scratch = CN_MAX(fl_scan_scratch(ctx, CN_SCAN_U32_ADD, (uint64_t)P + 1),
                            CN_MAX(fl_scan_scratch(ctx, CN_SCAN_U32_ADD, (uint64_t)E + 1),
                                   CN_MAX(fl_scan_scratch(ctx, CN_SCAN_U32_MAX, S),
                                          fl_scan_scratch(ctx, CN_SCAN_F32_SEG_ADD, P))));
  CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, words * 4, &fl->work));
  CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, CN_MAX((uint64_t)E * sizeof(cn_flatten_elem), 16), &fl->elems));
  CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, CN_MAX((uint64_t)fl->line_capacity * sizeof(cn_line), 16),
                           &fl->lines));
  CN_TRY(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, CN_MAX(scratch, 16), &fl->scratch));
  fl->element_count = E;

  VkPipeline k_elem, k_sub, k_pairs;
  CN_TRY(fl_kernel(ctx, CN_KERNEL_FLATTEN_ELEMENTS, &k_elem));
  CN_TRY(fl_kernel(ctx, CN_KERNEL_FLATTEN_SUBPATHS, &k_sub));
  CN_TRY(fl_kernel(ctx, CN_KERNEL_FLATTEN_PAIRS, &k_pairs));

  cn_flatten_push pc = {
      .elements = gpu->elements, .paths = gpu->paths, .segments = gpu->segments, .transforms = gpu->transforms,
      .strokes = gpu->strokes, .dashes = gpu->dashes, .work = fl->work.address, .lines = fl->lines.address,
      .elem_out = fl->elems.address, .view_a = d.view[0], .view_b = d.view[1], .view_c = d.view[2],
      .view_d = d.view[3], .view_e = d.view[4], .view_f = d.view[5], .tolerance = tol, .element_count = E,
      .pair_count = P, .segment_count = S, .line_capacity = fl->line_capacity};
  const VkDeviceAddress w = fl->work.address;
  const uint64_t off_pair_lines = CN_FL_OFF_PAIR_LINES((uint64_t)E) * 4;
  const uint64_t off_sub_first = CN_FL_OFF_SUB_FIRST((uint64_t)E, (uint64_t)P) * 4;
  const uint64_t off_dash = CN_FL_OFF_DASH((uint64_t)E, (uint64_t)P, (uint64_t)S) * 4;

  /* setup: header and the slot after the last pair's count start at 0 */
  cn_cmd_fill(ctx, cmd, &fl->work, 0, sizeof(cn_flatten_header), 0);
  cn_cmd_fill(ctx, cmd, &fl->work, off_pair_lines + (uint64_t)P * 4, 4, 0);
  cn_cmd_barrier(ctx, cmd);
  pc.mode = CN_FL_MODE_ELEM_INIT;
  cn_dispatch(ctx, cmd, k_elem, &pc, sizeof pc, CN_DIV_UP((uint64_t)E + 1, FL_WG));
  pc.mode = CN_FL_MODE_SUB_START;
  cn_dispatch(ctx, cmd, k_sub, &pc, sizeof pc, CN_DIV_UP((uint64_t)S, FL_WG));
  cn_cmd_barrier(ctx, cmd);
  CN_TRY(fl_scan(ctx, cmd, CN_SCAN_U32_ADD, w + CN_FL_OFF_PAIR_BASE * 4, fl->scratch.address, (uint64_t)E + 1, true));
  cn_cmd_barrier(ctx, cmd);
  CN_TRY(fl_scan(ctx, cmd, CN_SCAN_U32_MAX, w + off_sub_first, fl->scratch.address, S, false));
  cn_cmd_barrier(ctx, cmd);
  pc.mode = CN_FL_MODE_SUB_LINK;
  cn_dispatch(ctx, cmd, k_sub, &pc, sizeof pc, CN_DIV_UP((uint64_t)S, FL_WG));
  cn_cmd_barrier(ctx, cmd);
  if (P && fl_has_dashes(scene)) {
    pc.mode = CN_FL_MODE_DASH_LEN;
    cn_dispatch(ctx, cmd, k_pairs, &pc, sizeof pc, CN_DIV_UP((uint64_t)P, FL_WG));
    cn_cmd_barrier(ctx, cmd);
    CN_TRY(fl_scan(ctx, cmd, CN_SCAN_F32_SEG_ADD, w + off_dash, fl->scratch.address, P, true));
    cn_cmd_barrier(ctx, cmd);
  }
  if (timer) cn_timer_mark(ctx, timer, cmd, "flatten: setup");

  /* count */
  pc.mode = CN_FL_MODE_COUNT;
  cn_dispatch(ctx, cmd, k_pairs, &pc, sizeof pc, CN_DIV_UP((uint64_t)P, FL_WG));
  cn_cmd_barrier(ctx, cmd);
  if (timer) cn_timer_mark(ctx, timer, cmd, "flatten: count");

  /* scan */
  CN_TRY(fl_scan(ctx, cmd, CN_SCAN_U32_ADD, w + off_pair_lines, fl->scratch.address, (uint64_t)P + 1, true));
  cn_cmd_barrier(ctx, cmd);
  if (timer) cn_timer_mark(ctx, timer, cmd, "flatten: scan");

  /* write */
  pc.mode = CN_FL_MODE_WRITE;
  cn_dispatch(ctx, cmd, k_pairs, &pc, sizeof pc, CN_DIV_UP((uint64_t)P, FL_WG));
  cn_cmd_barrier(ctx, cmd);
  pc.mode = CN_FL_MODE_ELEM_FINISH;
  cn_dispatch(ctx, cmd, k_elem, &pc, sizeof pc, CN_DIV_UP((uint64_t)CN_MAX(E, 1), FL_WG));
  cn_cmd_barrier(ctx, cmd);
  VkBufferCopy region = {.srcOffset = 0, .dstOffset = 0, .size = sizeof(cn_flatten_header)};
  vkCmdCopyBuffer(cmd, fl->work.buffer, fl->readback.buffer, 1, &region);
  VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                        .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                        .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
  if (timer) cn_timer_mark(ctx, timer, cmd, "flatten: write");
  return CN_OK;
}

void cn_flatten_output_get(const cn_flatten *fl, cn_flatten_output *out) {
  memset(out, 0, sizeof *out);
  if (!fl) return;
  out->lines = fl->lines.address;
  out->elems = fl->elems.address;
  out->header = fl->work.address;
  out->line_capacity = fl->line_capacity;
  out->element_count = fl->element_count;
  out->lines_buffer = &fl->lines;
  out->elems_buffer = &fl->elems;
}

cn_result cn_flatten_finish(cn_context *ctx, cn_flatten *fl, uint32_t *line_count, bool *fits) {
  *line_count = 0;
  *fits = false;
  if (!fl || !fl->readback.mapped) return cn_fail(CN_ERROR_STATE, "cn_flatten_finish: nothing recorded");
  cn_flatten_header h;
  memcpy(&h, fl->readback.mapped, sizeof h);
  if (h.flags & CN_FLATTEN_TOO_MANY)
    return cn_fail(CN_ERROR_LIMIT, "flatten: the scene needs 2^32 lines or more at this scale");
  *line_count = h.line_count;
  if (h.line_count <= fl->line_capacity) {
    *fits = true;
    return CN_OK;
  }
  /* Grow to the exact count; the next recording of the same scene fits. */
  fl->line_capacity = h.line_count;
  return cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, (uint64_t)h.line_count * sizeof(cn_line), &fl->lines);
}

/* ------------------------------------------------------------ standalone */

typedef struct fl_upload {
  cn_buffer buf;
  cn_flatten_scene_gpu gpu;
} fl_upload;

static cn_result fl_upload_scene(cn_context *ctx, const cn_scene_data *s, fl_upload *u) {
  const void *src[6] = {s->elements, s->paths, s->segments, s->transforms, s->strokes, s->dashes};
  uint64_t bytes[6] = {(uint64_t)s->element_count * sizeof(cn_element), (uint64_t)s->path_count * sizeof(cn_path),
                       (uint64_t)s->segment_count * sizeof(cn_segment),
                       (uint64_t)s->transform_count * sizeof(cn_transform),
                       (uint64_t)s->stroke_count * sizeof(cn_stroke), (uint64_t)s->dash_count * sizeof(float)};
  uint64_t off[6], total = 0;
  for (int i = 0; i < 6; i++) {
    off[i] = total;
    total += (bytes[i] + 15) & ~15ull;
  }
  CN_TRY(cn_buffer_create(ctx, CN_MEMORY_DEVICE, CN_MAX(total, 16), &u->buf));
  for (int i = 0; i < 6; i++)
    if (bytes[i] && src[i]) CN_TRY(cn_buffer_upload(ctx, &u->buf, off[i], src[i], bytes[i]));
  VkDeviceAddress a = u->buf.address;
  u->gpu = (cn_flatten_scene_gpu){a + off[0], a + off[1], a + off[2], a + off[3], a + off[4], a + off[5]};
  return CN_OK;
}

cn_result cn_flatten_run(cn_context *ctx, const cn_scene_data *scene, const cn_flatten_desc *desc, cn_line **lines,
                         uint32_t *line_count, cn_flatten_elem *elems, uint32_t *reruns) {
  *lines = NULL;
  *line_count = 0;
  if (reruns) *reruns = 0;
  uint32_t P;
  CN_TRY(cn_flatten_check_scene(scene, &P));
  cn_flatten *fl = NULL;
  fl_upload up = {0};
  CN_TRY(cn_flatten_create(ctx, &fl));
  cn_result r = fl_upload_scene(ctx, scene, &up);
  uint32_t count = 0;
  for (int attempt = 0; r == CN_OK; attempt++) {
    VkCommandBuffer cmd;
    r = cn_cmd_begin(ctx, &cmd);
    if (r != CN_OK) break;
    r = cn_flatten_record(ctx, fl, cmd, scene, &up.gpu, desc, NULL);
    cn_result s = cn_cmd_submit(ctx, cmd);
    if (r == CN_OK) r = s;
    bool fits = false;
    if (r == CN_OK) r = cn_flatten_finish(ctx, fl, &count, &fits);
    if (r != CN_OK || fits) break;
    if (attempt >= 2) {
      r = cn_fail(CN_ERROR_STATE, "flatten: lines still did not fit after growing the buffer");
      break;
    }
    if (reruns) (*reruns)++;
  }
  if (r == CN_OK && count) {
    *lines = malloc((size_t)count * sizeof(cn_line));
    if (!*lines) r = cn_fail(CN_ERROR_OUT_OF_MEMORY, "out of host memory for %u lines", count);
    else r = cn_buffer_download(ctx, &fl->lines, 0, *lines, (size_t)count * sizeof(cn_line));
  }
  if (r == CN_OK && elems && scene->element_count)
    r = cn_buffer_download(ctx, &fl->elems, 0, elems, (size_t)scene->element_count * sizeof(cn_flatten_elem));
  if (r == CN_OK) *line_count = count;
  else {
    free(*lines);
    *lines = NULL;
  }
  cn_buffer_destroy(ctx, &up.buf);
  cn_flatten_destroy(ctx, fl);
  return r;
}
