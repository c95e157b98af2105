/* scene_check.c: the one check of an encoded scene that every stage and the
 * renderer run before upload (cn_scene_check), and the producers' stricter
 * invariants (cn_scene_validate, docs/SCENE.md "Invariants"). */
#include "cn_flatten_shared.h"
#include "cn_scene.h"
#include "internal.h"
#include "scene_gpu_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Elements, segments and (element, segment) pairs each stay below this (the
 * flatten stage's 30-bit counters). */
#define CN__MAX_COUNT (1u << 30)

static const char *cn__tag(uint32_t t) {
  static const char *names[] = {"?", "FILL", "STROKE", "BEGIN_CLIP", "END_CLIP", "BEGIN_BLEND", "END_BLEND"};
  return t < 7 ? names[t] : "?";
}

static bool cn__mask(const cn_scene_data *s, uint32_t blend) {
  return (s->blends[blend].flags & (CN_BLEND_MASK_LUMINANCE | CN_BLEND_MASK_ALPHA)) != 0;
}

/* The largest |coordinate| of segments [first, first + count). */
static double cn__seg_max(const cn_scene_data *s, uint32_t first, uint32_t count) {
  double m = 0;
  for (uint32_t i = first; i < first + count; i++) {
    const float *v = &s->segments[i].x0;
    for (int k = 0; k < 8; k++) m = fmax(m, fabs((double)v[k]));
  }
  return m;
}

/* cn_scene_info.extent, for a checked scene: the largest over the drawn
 * elements (FILL, STROKE, BEGIN_CLIP) of a bound on their path under its own
 * transform. Control points bound the curves: |x'| <= (|a| + |c|) M + |e|
 * (likewise y), M the path's largest |coordinate|; a stroke reaches at most
 * its half width times max(miter limit, sqrt 2) (miter joins, square caps;
 * round joins and caps reach the half width) further out, scaled by the same
 * transform. Each path's M is taken once (one pass over the segments where
 * paths do not share them); where the paths' ranges add up to more than the
 * segments twice over, or without memory for the per-path values, the
 * scene's largest coordinate stands in for M (looser, never smaller; the
 * work stays bounded). */
static float cn__scene_extent(const cn_scene_data *s) {
  double e = 0, all = -1;
  double *pm = s->path_count ? malloc((size_t)s->path_count * sizeof *pm) : NULL;
  uint64_t work = 0, budget = 2ull * s->segment_count + 1024;
  for (uint32_t p = 0; pm && p < s->path_count; p++) pm[p] = -1;
  for (uint32_t i = 0; i < s->element_count && isfinite(e); i++) {
    const cn_element *el = &s->elements[i];
    if (el->tag != CN_TAG_FILL && el->tag != CN_TAG_STROKE && el->tag != CN_TAG_BEGIN_CLIP) continue;
    const cn_path *q = &s->paths[el->path];
    double m;
    if (pm && pm[el->path] >= 0) {
      m = pm[el->path];
    } else if (pm && work + q->seg_count <= budget) {
      work += q->seg_count;
      m = pm[el->path] = cn__seg_max(s, q->seg_first, q->seg_count);
    } else {
      if (all < 0) all = cn__seg_max(s, 0, s->segment_count);
      m = all;
    }
    if (el->tag == CN_TAG_STROKE) {
      const cn_stroke *st = &s->strokes[el->aux];
      m += 0.5 * fabs((double)st->width) * fmax((double)st->miter_limit, 1.4142135623730951);
    }
    const cn_transform *t = &s->transforms[q->transform];
    double lin = fmax(fabs((double)t->a) + fabs((double)t->c), fabs((double)t->b) + fabs((double)t->d));
    e = fmax(e, lin * m + fmax(fabs((double)t->e), fabs((double)t->f)));
  }
  free(pm);
  return isfinite(e) && e < 3.0e38 ? (float)e : INFINITY;
}

cn_result cn__scene_check(const cn_scene_data *s, cn_scene_info *info, uint32_t *pair, uint32_t *flags) {
  if (info) memset(info, 0, sizeof *info);
  if (!s) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: NULL");
  if ((s->element_count && !s->elements) || (s->path_count && !s->paths) || (s->segment_count && !s->segments) ||
      (s->transform_count && !s->transforms) || (s->stroke_count && !s->strokes) || (s->paint_count && !s->paints) ||
      (s->stop_count && !s->stops) || (s->dash_count && !s->dashes) || (s->blend_count && !s->blends) ||
      (s->image_count && !s->images) || (s->image_pixel_count && !s->image_pixels))
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: an array with a count but no data");
  for (uint32_t k = 0; k < s->image_count; k++) {
    const cn_image *im = &s->images[k];
    if (!im->width || !im->height || (uint64_t)im->width * im->height > s->image_pixel_count ||
        im->offset > s->image_pixel_count - (uint64_t)im->width * im->height)
      return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: image %u (%ux%u at texel %u) is empty or outside the %u texels",
                     k, im->width, im->height, im->offset, s->image_pixel_count);
  }
  for (uint32_t k = 0; k < s->paint_count; k++)
    if (s->paints[k].kind == CN_PAINT_IMAGE &&
        (s->paints[k].stop_first >= s->image_count || s->paints[k].transform >= s->transform_count))
      return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: paint %u: image %u or transform %u out of range (%u images)",
                     k, s->paints[k].stop_first, s->paints[k].transform, s->image_count);
  if (s->element_count >= CN__MAX_COUNT || s->segment_count >= CN__MAX_COUNT)
    return cn_fail(CN_ERROR_LIMIT, "scene: %u elements, %u segments: at most 2^30 - 1 each", s->element_count,
                   s->segment_count);
  for (uint32_t p = 0; p < s->path_count; p++) {
    const cn_path *q = &s->paths[p];
    if (q->transform >= s->transform_count)
      return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: path %u: transform %u out of range (%u transforms)", p,
                     q->transform, s->transform_count);
    if ((uint64_t)q->seg_first + q->seg_count > s->segment_count)
      return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: path %u: segments %u+%u out of range (%u segments)", p,
                     q->seg_first, q->seg_count, s->segment_count);
    for (uint32_t k = 0; k < q->seg_count; k++)
      if (s->segments[q->seg_first + k].info >> CN_SEG_PATH_SHIFT != p)
        return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: segment %u lies in path %u's range but names path %u",
                       q->seg_first + k, p, s->segments[q->seg_first + k].info >> CN_SEG_PATH_SHIFT);
  }
  for (uint32_t j = 0; j < s->segment_count; j++)
    if (s->segments[j].info >> CN_SEG_PATH_SHIFT >= s->path_count)
      return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: segment %u: path %u out of range (%u paths)", j,
                     s->segments[j].info >> CN_SEG_PATH_SHIFT, s->path_count);

  /* every element's indices first, then the group structure */
  for (uint32_t i = 0; i < s->element_count; i++) {
    const cn_element *e = &s->elements[i];
    bool drawn = e->tag == CN_TAG_FILL || e->tag == CN_TAG_STROKE || e->tag == CN_TAG_BEGIN_CLIP;
    if (drawn && e->path >= s->path_count)
      return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: element %u: path %u out of range (%u paths)", i, e->path,
                     s->path_count);
    if ((e->tag == CN_TAG_FILL || e->tag == CN_TAG_STROKE) && e->paint >= s->paint_count)
      return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: element %u: paint %u out of range (%u paints)", i, e->paint,
                     s->paint_count);
    if (e->tag == CN_TAG_FILL && e->aux > CN_RULE_EVENODD)
      return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: element %u: fill rule %u", i, e->aux);
    if (e->tag == CN_TAG_STROKE) {
      if (e->aux >= s->stroke_count)
        return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: element %u: stroke %u out of range (%u strokes)", i, e->aux,
                       s->stroke_count);
      const cn_stroke *st = &s->strokes[e->aux];
      if (st->dash_count && (uint64_t)st->dash_first + st->dash_count > s->dash_count)
        return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: element %u: dashes %u+%u out of range (%u dashes)", i,
                       st->dash_first, st->dash_count, s->dash_count);
    }
    if (e->tag == CN_TAG_BEGIN_BLEND && (e->aux >= s->blend_count || s->blends[e->aux].mode >= CN_BLEND_MODE_COUNT))
      return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: element %u: blend %u out of range (%u blends)", i, e->aux,
                     s->blend_count);
    if (e->tag < CN_TAG_FILL || e->tag > CN_TAG_END_BLEND)
      return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: element %u: unknown tag %u", i, e->tag);
  }
  uint32_t *stack = malloc(sizeof(uint32_t) * (s->element_count ? s->element_count : 1));
  if (!stack) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "scene check: out of host memory for %u elements", s->element_count);
  uint32_t depth = 0, max_depth = 0, groups = 0;
  uint64_t pairs = 0, segs = 0;
  bool after_mask = false, dashed = false; /* after_mask: the element before closed a mask group */
  cn_result r = CN_OK;
  for (uint32_t i = 0; i < s->element_count && r == CN_OK; i++) {
    const cn_element *e = &s->elements[i];
    if (pair) pair[i] = CN_NONE;
    if (flags) flags[i] = 0;
    bool was_after_mask = after_mask;
    after_mask = false;
    bool drawn = e->tag == CN_TAG_FILL || e->tag == CN_TAG_STROKE || e->tag == CN_TAG_BEGIN_CLIP;
    if (drawn) {
      if (e->path >= s->path_count) {
        r = cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: element %u: path %u out of range (%u paths)", i, e->path,
                    s->path_count);
        break;
      }
      /* the flatten stage's pairs: CN_FL_STROKE_SPLIT chunks per stroke segment */
      pairs += (uint64_t)s->paths[e->path].seg_count * (e->tag == CN_TAG_STROKE ? CN_FL_STROKE_SPLIT : 1u);
      segs += s->paths[e->path].seg_count;
    }
    switch (e->tag) {
      case CN_TAG_FILL:
      case CN_TAG_STROKE:
        if (e->paint >= s->paint_count)
          r = cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: element %u: paint %u out of range (%u paints)", i, e->paint,
                      s->paint_count);
        else if (e->tag == CN_TAG_FILL && e->aux > CN_RULE_EVENODD)
          r = cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: element %u: fill rule %u", i, e->aux);
        else if (e->tag == CN_TAG_STROKE && e->aux >= s->stroke_count)
          r = cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: element %u: stroke %u out of range (%u strokes)", i, e->aux,
                      s->stroke_count);
        else if (e->tag == CN_TAG_STROKE) {
          const cn_stroke *st = &s->strokes[e->aux];
          if (st->dash_count && (uint64_t)st->dash_first + st->dash_count > s->dash_count)
            r = cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: element %u: dashes %u+%u out of range (%u dashes)", i,
                        st->dash_first, st->dash_count, s->dash_count);
          dashed = dashed || st->dash_count;
        }
        break;
      case CN_TAG_BEGIN_CLIP:
      case CN_TAG_BEGIN_BLEND:
        if (e->tag == CN_TAG_BEGIN_BLEND) {
          if (e->aux >= s->blend_count || s->blends[e->aux].mode >= CN_BLEND_MODE_COUNT) {
            r = cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: element %u: blend %u out of range (%u blends)", i, e->aux,
                        s->blend_count);
            break;
          }
          bool masked = (s->blends[e->aux].flags & CN_BLEND_MASKED) != 0;
          if (masked != was_after_mask) {
            r = cn_fail(CN_ERROR_UNBALANCED, "scene: element %u: %s", i,
                        masked ? "a masked group that does not follow a mask group"
                               : "a mask group not followed at once by its masked group");
            break;
          }
          /* a blend mode right inside a clip needs the clip's own layer as backdrop */
          if (flags && s->blends[e->aux].mode != CN_BLEND_NORMAL && depth > 0 &&
              s->elements[stack[depth - 1]].tag == CN_TAG_BEGIN_CLIP)
            flags[stack[depth - 1]] |= CN_ELEM_ISOLATE;
        }
        stack[depth++] = i;
        groups++;
        if (depth > max_depth) max_depth = depth;
        break;
      case CN_TAG_END_CLIP:
      case CN_TAG_END_BLEND: {
        if (depth == 0) {
          r = cn_fail(CN_ERROR_UNBALANCED, "scene: element %u: %s without a BEGIN", i, cn__tag(e->tag));
          break;
        }
        uint32_t b = stack[--depth];
        if (s->elements[b].tag + 1 != e->tag) {
          r = cn_fail(CN_ERROR_UNBALANCED, "scene: element %u: %s closes the %s at element %u", i, cn__tag(e->tag),
                      cn__tag(s->elements[b].tag), b);
          break;
        }
        groups++;
        if (pair) pair[i] = b, pair[b] = i;
        after_mask = e->tag == CN_TAG_END_BLEND && cn__mask(s, s->elements[b].aux);
        break;
      }
      default:
        r = cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: element %u: unknown tag %u", i, e->tag);
    }
    if (r == CN_OK && was_after_mask && e->tag != CN_TAG_BEGIN_BLEND)
      r = cn_fail(CN_ERROR_UNBALANCED, "scene: element %u: a mask group not followed at once by its masked group", i);
  }
  if (r == CN_OK && after_mask)
    r = cn_fail(CN_ERROR_UNBALANCED, "scene: end of scene: a mask group not followed by its masked group");
  if (r == CN_OK && depth > 0)
    r = cn_fail(CN_ERROR_UNBALANCED, "scene: element %u: %s is never closed", stack[depth - 1],
                cn__tag(s->elements[stack[depth - 1]].tag));
  if (r == CN_OK && pairs >= CN__MAX_COUNT)
    r = cn_fail(CN_ERROR_LIMIT, "scene: %llu flatten pairs (one per segment of a fill or clip, %u per segment of a stroke): at most 2^30 - 1",
                (unsigned long long)pairs, CN_FL_STROKE_SPLIT);
  free(stack);
  if (r == CN_OK && info) {
    info->group_count = groups;
    info->pair_count = (uint32_t)pairs;
    info->drawn_segments = (uint32_t)segs;
    info->max_depth = max_depth;
    info->dashed = dashed;
    info->extent = cn__scene_extent(s);
  }
  return r;
}

cn_result cn_scene_check(const cn_scene_data *s, cn_scene_info *info) { return cn__scene_check(s, info, NULL, NULL); }

/* ------------------------------------------------- producers' invariants */

static bool finite_n(const float *v, int n) {
  for (int i = 0; i < n; i++)
    if (!isfinite(v[i])) return false;
  return true;
}

static cn_result check_closed(const cn_scene_data *d, uint32_t p, uint32_t element) {
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
        return cn_fail(CN_ERROR_INVALID_ARGUMENT,
                       "scene: element %u: fills path %u, whose subpath ending at segment %u is not closed", element, p,
                       path->seg_first + i);
      start = true;
    }
  }
  return CN_OK;
}

cn_result cn_scene_validate(const cn_scene_data *d) {
  CN_TRY(cn_scene_check(d, NULL));
  if (!finite_n(d->viewport, 4) || !(d->viewport[2] > d->viewport[0]) || !(d->viewport[3] > d->viewport[1]))
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: viewport is not a finite non-empty rectangle");
  for (uint32_t i = 0; i < d->transform_count; i++)
    if (!finite_n(&d->transforms[i].a, 6))
      return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: transform %u: not finite", i);
  for (uint32_t p = 0; p < d->path_count; p++) {
    const cn_path *path = &d->paths[p];
    for (uint32_t i = 0; i < path->seg_count; i++) {
      const cn_segment *s = &d->segments[path->seg_first + i];
      if ((s->info & 3u) > CN_SEG_CUBIC || !finite_n(&s->x0, 8))
        return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: segment %u of path %u: bad kind or coordinate",
                       path->seg_first + i, p);
      if (i + 1 == path->seg_count && !(s->info & CN_SEG_SUBPATH_END))
        return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: path %u: does not end a subpath on its last segment", p);
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
      if (!finite_n(&p->r, 4)) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: paint %u: colour not finite", k);
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
      return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: paint %u: malformed gradient", k);
    for (uint32_t i = 1; i < p->stop_count; i++)
      if (d->stops[p->stop_first + i].offset < d->stops[p->stop_first + i - 1].offset)
        return cn_fail(CN_ERROR_INVALID_ARGUMENT, "scene: paint %u: decreasing stops", k);
  }
  for (uint32_t i = 0; i < d->element_count; i++) {
    const cn_element *e = &d->elements[i];
    if (e->tag == CN_TAG_FILL || e->tag == CN_TAG_BEGIN_CLIP) CN_TRY(check_closed(d, e->path, i));
  }
  return CN_OK;
}
