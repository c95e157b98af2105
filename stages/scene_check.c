/* scene_validate.c: cn_scene_validate(), the invariants of an encoded scene
 * (docs/SCENE.md, "Invariants") checked on the CPU. */
#include "cn_scene.h"
#include "internal.h"

#include <math.h>
#include <stdlib.h>

static bool finite_n(const float *v, int n) {
  for (int i = 0; i < n; i++)
    if (!isfinite(v[i])) return false;
  return true;
}

static cn_result check_path(const cn_scene_data *d, uint32_t p, bool closed, uint32_t element) {
  if (p >= d->path_count)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: element %u uses path %u of %u", element, p, d->path_count);
  if (!closed) return CN_OK;
  const cn_path *path = &d->paths[p];
  float sx = 0, sy = 0;
  bool start = true;
  for (uint32_t i = 0; i < path->seg_count; i++) {
    const cn_segment *s = &d->segments[path->seg_first + i];
    if (start) sx = s->x0, sy = s->y0, start = false;
    if (s->info & CN_SEG_SUBPATH_END) {
      const float *q = &s->x0;
      uint32_t k = (s->info & 3u) + 1;
      if (q[2 * k] != sx || q[2 * k + 1] != sy)
        return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: element %u fills path %u, whose subpath ending at segment %u is "
                       "not closed", element, p, path->seg_first + i);
      start = true;
    }
  }
  return CN_OK;
}

cn_result cn_scene_validate(const cn_scene_data *d) {
  if (!d) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_validate: NULL scene");
  if (!finite_n(d->viewport, 4) || !(d->viewport[2] > d->viewport[0]) || !(d->viewport[3] > d->viewport[1]))
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: viewport is not a finite non-empty rectangle");
  for (uint32_t i = 0; i < d->transform_count; i++)
    if (!finite_n(&d->transforms[i].a, 6)) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: transform %u not finite", i);
  for (uint32_t p = 0; p < d->path_count; p++) {
    const cn_path *path = &d->paths[p];
    if ((uint64_t)path->seg_first + path->seg_count > d->segment_count || path->transform >= d->transform_count)
      return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: path %u has segments or transform out of range", p);
    for (uint32_t i = 0; i < path->seg_count; i++) {
      const cn_segment *s = &d->segments[path->seg_first + i];
      if ((s->info >> CN_SEG_PATH_SHIFT) != p || (s->info & 3u) > CN_SEG_CUBIC || !finite_n(&s->x0, 8))
        return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: segment %u of path %u has a bad info or coordinate",
                       path->seg_first + i, p);
      if (i + 1 == path->seg_count && !(s->info & CN_SEG_SUBPATH_END))
        return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: path %u does not end a subpath on its last segment", p);
    }
  }
  if ((d->image_count && !d->images) || (d->image_pixel_count && !d->image_pixels))
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: image arrays missing");
  for (uint32_t k = 0; k < d->image_count; k++) {
    const cn_image *im = &d->images[k];
    if (!im->width || !im->height || (uint64_t)im->width * im->height > d->image_pixel_count ||
        im->offset > d->image_pixel_count - (uint64_t)im->width * im->height)
      return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: image %u (%ux%u at texel %u) is empty or outside the %u texels",
                     k, im->width, im->height, im->offset, d->image_pixel_count);
  }
  for (uint32_t k = 0; k < d->paint_count; k++) {
    const cn_paint *p = &d->paints[k];
    if (p->kind == CN_PAINT_SOLID) {
      if (!finite_n(&p->r, 4)) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: paint %u colour not finite", k);
      continue;
    }
    if (p->kind == CN_PAINT_IMAGE) {
      if (p->stop_first >= d->image_count || p->spread > CN_SAMPLE_NEAREST || p->transform >= d->transform_count ||
          !isfinite(p->opacity))
        return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: image paint %u is malformed", k);
      continue;
    }
    if (p->kind > CN_PAINT_RADIAL || p->stop_count == 0 || (uint64_t)p->stop_first + p->stop_count > d->stop_count ||
        p->transform >= d->transform_count || !finite_n(&p->g0, 6))
      return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: gradient paint %u is malformed", k);
    for (uint32_t i = 1; i < p->stop_count; i++)
      if (d->stops[p->stop_first + i].offset < d->stops[p->stop_first + i - 1].offset)
        return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: gradient paint %u has decreasing stops", k);
  }
  uint32_t cap = 64, depth = 0;
  uint8_t *stack = malloc(cap);
  if (!stack) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "cn_scene_validate: no memory");
  cn_result r = CN_OK;
  bool mask_pending = false;
  for (uint32_t i = 0; i < d->element_count && r == CN_OK; i++) {
    const cn_element *e = &d->elements[i];
    bool masked_begin = e->tag == CN_TAG_BEGIN_BLEND && e->aux < d->blend_count && (d->blends[e->aux].flags & CN_BLEND_MASKED);
    if (mask_pending && !masked_begin) {
      r = cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: element %u follows a mask group but is not a masked group", i);
      break;
    }
    if (masked_begin && !mask_pending) {
      r = cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: element %u is a masked group without a mask group before it", i);
      break;
    }
    mask_pending = false;
    switch (e->tag) {
      case CN_TAG_FILL:
      case CN_TAG_STROKE:
        if (e->paint >= d->paint_count) r = cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: element %u paint out of range", i);
        else if (e->tag == CN_TAG_STROKE && e->aux >= d->stroke_count)
          r = cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: element %u stroke out of range", i);
        else if (e->tag == CN_TAG_FILL && e->aux > CN_RULE_EVENODD)
          r = cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: element %u fill rule %u", i, e->aux);
        else r = check_path(d, e->path, e->tag == CN_TAG_FILL, i);
        break;
      case CN_TAG_BEGIN_CLIP:
      case CN_TAG_BEGIN_BLEND:
        if (e->tag == CN_TAG_BEGIN_CLIP) r = check_path(d, e->path, true, i);
        else if (e->aux >= d->blend_count || d->blends[e->aux].mode >= CN_BLEND_MODE_COUNT)
          r = cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: element %u blend out of range", i);
        if (r != CN_OK) break;
        if (depth == cap) {
          uint8_t *ns = realloc(stack, cap * 2);
          if (!ns) {
            r = cn_fail(CN_ERROR_OUT_OF_MEMORY, "cn_scene_validate: no memory");
            break;
          }
          stack = ns, cap *= 2;
        }
        stack[depth++] = (uint8_t)(e->tag == CN_TAG_BEGIN_CLIP ? 1 : (d->blends[e->aux].flags & (CN_BLEND_MASK_LUMINANCE | CN_BLEND_MASK_ALPHA)) ? 3 : 2);
        break;
      case CN_TAG_END_CLIP:
      case CN_TAG_END_BLEND:
        if (depth == 0 || (stack[depth - 1] == 1) != (e->tag == CN_TAG_END_CLIP)) {
          r = cn_fail(CN_ERROR_UNBALANCED, "scene: element %u (%s) does not close the open group", i,
                      e->tag == CN_TAG_END_CLIP ? "END_CLIP" : "END_BLEND");
          break;
        }
        mask_pending = stack[--depth] == 3;
        break;
      default: r = cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: element %u has tag %u", i, e->tag);
    }
  }
  if (r == CN_OK && depth) r = cn_fail(CN_ERROR_UNBALANCED, "scene: %u groups open at the end", depth);
  if (r == CN_OK && mask_pending) r = cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: the last mask group has no masked group");
  free(stack);
  return r;
}
