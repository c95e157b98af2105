/* scene_builder.c: the C scene API (cn_scene_api.h): growable arrays of the
 * scene encoding, group bracket bookkeeping and argument checks. */
#include "scene_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A growable array of fixed-size items. */
typedef struct vec {
  void *data;
  uint32_t count, cap;
} vec;

/* Group kinds on the open-group stack. */
enum { GROUP_CLIP = 1, GROUP_BLEND = 2, GROUP_MASK = 3 };

struct cn_scene_builder {
  vec elements, paths, segments, transforms, paints, stops, strokes, dashes, blends, images, pixels;
  float viewport[4];
  cn_scene_limits limits, next_limits;
  bool in_scene, in_path;
  /* current transform and whether transforms[last] equals it */
  cn_transform xf;
  bool xf_pushed;
  /* path under construction */
  uint32_t path_seg_first;
  uint32_t sub_first;     /* first segment of the open subpath */
  bool sub_open;          /* a subpath has begun (move_to or drawing) */
  float start_x, start_y; /* subpath start */
  float cur_x, cur_y;
  /* fill twins: closed copies of paths with open subpaths (paths index -> twin or CN_NONE) */
  vec twins;
  /* open groups */
  uint8_t *stack; /* grows: nesting is bounded only by the element limit */
  uint32_t depth, max_depth, stack_cap;
  bool mask_pending; /* a mask group just ended: the next element must be a masked group */
};

static cn_result vec_reserve(vec *v, uint32_t item, uint32_t more, uint32_t limit, const char *what) {
  if (v->count + (uint64_t)more > limit)
    return cn_fail(CN_ERROR_LIMIT, "scene has more than %u %s", limit, what);
  uint32_t need = v->count + more;
  if (need <= v->cap) return CN_OK;
  uint64_t cap = v->cap ? v->cap : 64;
  while (cap < need) cap *= 2;
  void *p = realloc(v->data, (size_t)cap * item);
  if (!p) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "scene: no memory for %u %s", need, what);
  v->data = p;
  v->cap = (uint32_t)(cap > UINT32_MAX ? UINT32_MAX : cap);
  return CN_OK;
}

#define VEC_AT(v, T, i) (((T *)(v).data)[i])

cn_result cn_scene_builder_create(cn_scene_builder **out) {
  if (!out) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_builder_create: out is NULL");
  *out = NULL;
  cn_scene_builder *b = calloc(1, sizeof *b);
  if (!b) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "cn_scene_builder_create: no memory");
  *out = b;
  return CN_OK;
}

void cn_scene_builder_destroy(cn_scene_builder *b) {
  if (!b) return;
  vec *all[] = {&b->elements, &b->paths,  &b->segments, &b->transforms, &b->paints, &b->stops,
                &b->strokes,  &b->dashes, &b->blends,   &b->twins,      &b->images, &b->pixels};
  for (size_t i = 0; i < CN_ARRAY_LEN(all); i++) free(all[i]->data);
  free(b->stack);
  free(b);
}

cn_result cn_scene_builder_set_limits(cn_scene_builder *b, const cn_scene_limits *limits) {
  if (!b) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_builder_set_limits: builder is NULL");
  b->next_limits = limits ? *limits : (cn_scene_limits){0};
  return CN_OK;
}

static cn_result check_builder(const cn_scene_builder *b, const char *fn, bool need_scene) {
  if (!b) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "%s: builder is NULL", fn);
  if (need_scene && !b->in_scene) return cn_fail(CN_ERROR_STATE, "%s: no scene begun (call cn_scene_begin)", fn);
  return CN_OK;
}

cn_result cn_scene_begin(cn_scene_builder *b, float x0, float y0, float x1, float y1) {
  CN_TRY(check_builder(b, "cn_scene_begin", false));
  if (!isfinite(x0) || !isfinite(y0) || !isfinite(x1) || !isfinite(y1) || !(x1 > x0) || !(y1 > y0))
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_begin: viewport %g %g %g %g is not a finite non-empty rectangle",
                   x0, y0, x1, y1);
  vec *all[] = {&b->elements, &b->paths,  &b->segments, &b->transforms, &b->paints, &b->stops,
                &b->strokes,  &b->dashes, &b->blends,   &b->twins,      &b->images, &b->pixels};
  for (size_t i = 0; i < CN_ARRAY_LEN(all); i++) all[i]->count = 0;
  b->viewport[0] = x0, b->viewport[1] = y0, b->viewport[2] = x1, b->viewport[3] = y1;
  b->limits = b->next_limits;
  if (!b->limits.max_elements) b->limits.max_elements = CN_SCENE_DEFAULT_MAX_ELEMENTS;
  if (!b->limits.max_segments) b->limits.max_segments = CN_SCENE_DEFAULT_MAX_SEGMENTS;
  if (b->limits.max_segments > CN_SCENE_MAX_PATHS) b->limits.max_segments = CN_SCENE_MAX_PATHS;
  b->in_scene = true;
  b->in_path = false;
  b->xf = (cn_transform){1, 0, 0, 1, 0, 0};
  b->xf_pushed = false;
  b->depth = b->max_depth = 0;
  b->mask_pending = false;
  return CN_OK;
}

static bool finite6(const float *v) {
  for (int i = 0; i < 6; i++)
    if (!isfinite(v[i])) return false;
  return true;
}

cn_result cn_scene_set_transform(cn_scene_builder *b, const cn_transform *t) {
  CN_TRY(check_builder(b, "cn_scene_set_transform", true));
  cn_transform x = t ? *t : (cn_transform){1, 0, 0, 1, 0, 0};
  if (!finite6(&x.a))
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_set_transform: non-finite matrix (%g %g %g %g %g %g)", x.a, x.b,
                   x.c, x.d, x.e, x.f);
  if (b->xf_pushed && memcmp(&x, &b->xf, sizeof x) == 0) return CN_OK;
  b->xf = x;
  b->xf_pushed = false;
  return CN_OK;
}

/* ------------------------------------------------------------------ paths */

cn_result cn_scene_path_begin(cn_scene_builder *b) {
  CN_TRY(check_builder(b, "cn_scene_path_begin", true));
  if (b->in_path) return cn_fail(CN_ERROR_STATE, "cn_scene_path_begin: a path is already being defined");
  b->in_path = true;
  b->path_seg_first = b->segments.count;
  b->sub_open = false;
  b->sub_first = b->segments.count;
  b->start_x = b->start_y = b->cur_x = b->cur_y = 0;
  return CN_OK;
}

static cn_result check_path_call(const cn_scene_builder *b, const char *fn, const float *v, int n) {
  CN_TRY(check_builder(b, fn, true));
  if (!b->in_path) return cn_fail(CN_ERROR_STATE, "%s: no path begun (call cn_scene_path_begin)", fn);
  for (int i = 0; i < n; i++)
    if (!isfinite(v[i])) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "%s: coordinate %d is %g (must be finite)", fn, i, v[i]);
  return CN_OK;
}

/* Marks the open subpath's last segment as its end. */
static void end_subpath(cn_scene_builder *b, bool closed) {
  if (!b->sub_open) return;
  b->sub_open = false;
  uint32_t n = b->segments.count;
  if (n == b->sub_first) return; /* a lone move_to: nothing drawn */
  VEC_AT(b->segments, cn_segment, n - 1).info |= CN_SEG_SUBPATH_END;
  if (closed)
    for (uint32_t i = b->sub_first; i < n; i++) VEC_AT(b->segments, cn_segment, i).info |= CN_SEG_SUBPATH_CLOSED;
}

static cn_result add_segment(cn_scene_builder *b, uint32_t kind, const float *p, int npts) {
  CN_TRY(vec_reserve(&b->segments, sizeof(cn_segment), 1, b->limits.max_segments, "segments"));
  if (!b->sub_open) {
    b->sub_open = true;
    b->sub_first = b->segments.count;
    b->start_x = b->cur_x, b->start_y = b->cur_y;
  }
  cn_segment s = {0};
  float *q = &s.x0;
  q[0] = b->cur_x, q[1] = b->cur_y;
  for (int i = 0; i < npts * 2; i++) q[2 + i] = p[i];
  s.info = kind | (b->paths.count << CN_SEG_PATH_SHIFT);
  VEC_AT(b->segments, cn_segment, b->segments.count++) = s;
  b->cur_x = p[npts * 2 - 2], b->cur_y = p[npts * 2 - 1];
  return CN_OK;
}

cn_result cn_scene_move_to(cn_scene_builder *b, float x, float y) {
  float v[2] = {x, y};
  CN_TRY(check_path_call(b, "cn_scene_move_to", v, 2));
  end_subpath(b, false);
  b->sub_open = true;
  b->sub_first = b->segments.count;
  b->start_x = b->cur_x = x, b->start_y = b->cur_y = y;
  return CN_OK;
}

cn_result cn_scene_line_to(cn_scene_builder *b, float x, float y) {
  float v[2] = {x, y};
  CN_TRY(check_path_call(b, "cn_scene_line_to", v, 2));
  return add_segment(b, CN_SEG_LINE, v, 1);
}

cn_result cn_scene_quad_to(cn_scene_builder *b, float x1, float y1, float x, float y) {
  float v[4] = {x1, y1, x, y};
  CN_TRY(check_path_call(b, "cn_scene_quad_to", v, 4));
  return add_segment(b, CN_SEG_QUAD, v, 2);
}

cn_result cn_scene_cubic_to(cn_scene_builder *b, float x1, float y1, float x2, float y2, float x, float y) {
  float v[6] = {x1, y1, x2, y2, x, y};
  CN_TRY(check_path_call(b, "cn_scene_cubic_to", v, 6));
  return add_segment(b, CN_SEG_CUBIC, v, 3);
}

cn_result cn_scene_close(cn_scene_builder *b) {
  CN_TRY(check_path_call(b, "cn_scene_close", NULL, 0));
  if (!b->sub_open) return CN_OK;
  if (b->segments.count == b->sub_first) {
    /* "M x y Z": a zero-length closed subpath (a dot for round/square caps) */
    float p[2] = {b->cur_x, b->cur_y};
    CN_TRY(add_segment(b, CN_SEG_LINE, p, 1));
  } else if (b->cur_x != b->start_x || b->cur_y != b->start_y) {
    float p[2] = {b->start_x, b->start_y};
    CN_TRY(add_segment(b, CN_SEG_LINE, p, 1));
  }
  end_subpath(b, true);
  /* a drawing call after close starts a new subpath at the start point */
  b->cur_x = b->start_x, b->cur_y = b->start_y;
  return CN_OK;
}

cn_result cn_scene_path_end(cn_scene_builder *b, uint32_t *path) {
  CN_TRY(check_path_call(b, "cn_scene_path_end", NULL, 0));
  if (!path) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_path_end: path is NULL");
  end_subpath(b, false);
  uint32_t max = b->limits.max_segments;
  CN_TRY(vec_reserve(&b->paths, sizeof(cn_path), 1, max, "paths"));
  CN_TRY(vec_reserve(&b->twins, sizeof(uint32_t), 1, max, "paths"));
  if (!b->xf_pushed) {
    CN_TRY(vec_reserve(&b->transforms, sizeof(cn_transform), 1, max, "transforms"));
    VEC_AT(b->transforms, cn_transform, b->transforms.count++) = b->xf;
    b->xf_pushed = true;
  }
  cn_path p = {b->path_seg_first, b->segments.count - b->path_seg_first, b->transforms.count - 1, 0};
  VEC_AT(b->twins, uint32_t, b->twins.count++) = CN_NONE;
  *path = b->paths.count;
  VEC_AT(b->paths, cn_path, b->paths.count++) = p;
  b->in_path = false;
  return CN_OK;
}

/* ----------------------------------------------------------------- paints */

static bool unit(float v) { return v >= 0.0f && v <= 1.0f; } /* false for NaN */

cn_result cn_scene_solid(cn_scene_builder *b, float r, float g, float bl, float a, uint32_t *paint) {
  CN_TRY(check_builder(b, "cn_scene_solid", true));
  if (!paint) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_solid: paint is NULL");
  if (!unit(r) || !unit(g) || !unit(bl) || !unit(a))
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_solid: colour %g %g %g %g outside 0..1", r, g, bl, a);
  if (b->paints.count) { /* the same colour again (common): share the paint */
    const cn_paint *last = &VEC_AT(b->paints, cn_paint, b->paints.count - 1);
    if (last->kind == CN_PAINT_SOLID && last->r == r && last->g == g && last->b == bl && last->a == a) {
      *paint = b->paints.count - 1;
      return CN_OK;
    }
  }
  CN_TRY(vec_reserve(&b->paints, sizeof(cn_paint), 1, b->limits.max_segments, "paints"));
  cn_paint p = {.kind = CN_PAINT_SOLID, .stop_first = CN_NONE, .stop_count = 0, .spread = CN_SPREAD_PAD,
                .r = r, .g = g, .b = bl, .a = a, .transform = CN_NONE, .opacity = 1.0f};
  *paint = b->paints.count;
  VEC_AT(b->paints, cn_paint, b->paints.count++) = p;
  return CN_OK;
}

cn_result cn_scene_gradient(cn_scene_builder *b, const cn_gradient_desc *g, uint32_t *paint) {
  CN_TRY(check_builder(b, "cn_scene_gradient", true));
  if (!g || !paint) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_gradient: NULL argument");
  if (g->kind != CN_PAINT_LINEAR && g->kind != CN_PAINT_RADIAL)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_gradient: kind %u is not linear or radial", g->kind);
  if (g->spread > CN_SPREAD_REPEAT) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_gradient: spread %u", g->spread);
  if (!g->stops || g->stop_count == 0) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_gradient: no stops");
  if (!finite6(g->geometry) || !finite6(&g->transform.a) || !unit(g->opacity))
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_gradient: non-finite geometry or transform, or opacity outside 0..1");
  if (g->kind == CN_PAINT_RADIAL && (g->geometry[2] < 0 || g->geometry[5] < 0))
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_gradient: negative radius");
  for (uint32_t i = 0; i < g->stop_count; i++) {
    const cn_stop *s = &g->stops[i];
    if (!unit(s->offset) || !unit(s->r) || !unit(s->g) || !unit(s->b) || !unit(s->a))
      return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_gradient: stop %u has a value outside 0..1", i);
    if (i && s->offset < g->stops[i - 1].offset)
      return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_gradient: stop %u offset decreases", i);
  }
  uint32_t max = b->limits.max_segments;
  CN_TRY(vec_reserve(&b->paints, sizeof(cn_paint), 1, max, "paints"));
  CN_TRY(vec_reserve(&b->stops, sizeof(cn_stop), g->stop_count, max, "gradient stops"));
  CN_TRY(vec_reserve(&b->transforms, sizeof(cn_transform), 1, max, "transforms"));
  cn_paint p = {.kind = g->kind, .stop_first = b->stops.count, .stop_count = g->stop_count, .spread = g->spread,
                .transform = b->transforms.count, .opacity = g->opacity};
  memcpy(&p.g0, g->geometry, sizeof g->geometry);
  memcpy(&VEC_AT(b->stops, cn_stop, b->stops.count), g->stops, g->stop_count * sizeof(cn_stop));
  b->stops.count += g->stop_count;
  VEC_AT(b->transforms, cn_transform, b->transforms.count++) = g->transform;
  b->xf_pushed = false; /* transforms[last] is no longer the path transform */
  *paint = b->paints.count;
  VEC_AT(b->paints, cn_paint, b->paints.count++) = p;
  return CN_OK;
}

/* --------------------------------------------------------------- elements */

static cn_result check_element(const cn_scene_builder *b, const char *fn) {
  CN_TRY(check_builder(b, fn, true));
  if (b->in_path) return cn_fail(CN_ERROR_STATE, "%s: inside a path definition (call cn_scene_path_end)", fn);
  return CN_OK;
}

static cn_result check_path_index(const cn_scene_builder *b, const char *fn, uint32_t path) {
  if (path >= b->paths.count)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "%s: path %u does not exist (%u defined)", fn, path, b->paths.count);
  return CN_OK;
}

static cn_result push_element(cn_scene_builder *b, const char *fn, cn_element e) {
  if (b->mask_pending && !(e.tag == CN_TAG_BEGIN_BLEND && (VEC_AT(b->blends, cn_blend, e.aux).flags & CN_BLEND_MASKED)))
    return cn_fail(CN_ERROR_STATE, "%s: a mask group must be followed at once by a masked group (CN_BLEND_MASKED)", fn);
  CN_TRY(vec_reserve(&b->elements, sizeof(cn_element), 1, b->limits.max_elements, "elements"));
  VEC_AT(b->elements, cn_element, b->elements.count++) = e;
  b->mask_pending = false;
  return CN_OK;
}

/* The path to fill: the path itself when every subpath ends where it starts,
 * else (made once) a copy with closing lines added. */
static cn_result fill_path(cn_scene_builder *b, uint32_t path, uint32_t *out) {
  uint32_t twin = VEC_AT(b->twins, uint32_t, path);
  if (twin != CN_NONE) {
    *out = twin;
    return CN_OK;
  }
  cn_path p = VEC_AT(b->paths, cn_path, path);
  uint32_t extra = 0;
  float sx = 0, sy = 0;
  bool first = true;
  for (uint32_t i = 0; i < p.seg_count; i++) {
    const cn_segment *s = &VEC_AT(b->segments, cn_segment, p.seg_first + i);
    if (first) sx = s->x0, sy = s->y0, first = false;
    if (s->info & CN_SEG_SUBPATH_END) {
      const float *q = &s->x0;
      int k = (int)(s->info & 3u) + 1;
      if (q[2 * k] != sx || q[2 * k + 1] != sy) extra++;
      first = true;
    }
  }
  if (extra == 0) {
    VEC_AT(b->twins, uint32_t, path) = path;
    *out = path;
    return CN_OK;
  }
  uint32_t max = b->limits.max_segments;
  CN_TRY(vec_reserve(&b->segments, sizeof(cn_segment), p.seg_count + extra, max, "segments"));
  CN_TRY(vec_reserve(&b->paths, sizeof(cn_path), 1, max, "paths"));
  CN_TRY(vec_reserve(&b->twins, sizeof(uint32_t), 1, max, "paths"));
  uint32_t id = b->paths.count, first_seg = b->segments.count;
  first = true;
  for (uint32_t i = 0; i < p.seg_count; i++) {
    cn_segment s = VEC_AT(b->segments, cn_segment, p.seg_first + i);
    if (first) sx = s.x0, sy = s.y0, first = false;
    uint32_t flags = s.info & (CN_SEG_SUBPATH_END | CN_SEG_SUBPATH_CLOSED);
    s.info = (s.info & 3u) | (id << CN_SEG_PATH_SHIFT) | CN_SEG_SUBPATH_CLOSED;
    const float *q = &s.x0;
    int k = (int)(s.info & 3u) + 1;
    float ex = q[2 * k], ey = q[2 * k + 1];
    bool needs_line = (flags & CN_SEG_SUBPATH_END) && (ex != sx || ey != sy);
    if ((flags & CN_SEG_SUBPATH_END) && !needs_line) s.info |= CN_SEG_SUBPATH_END;
    VEC_AT(b->segments, cn_segment, b->segments.count++) = s;
    if (needs_line) {
      cn_segment c = {.x0 = ex, .y0 = ey, .x1 = sx, .y1 = sy};
      c.info = CN_SEG_LINE | CN_SEG_SUBPATH_END | CN_SEG_SUBPATH_CLOSED | (id << CN_SEG_PATH_SHIFT);
      VEC_AT(b->segments, cn_segment, b->segments.count++) = c;
    }
    if (flags & CN_SEG_SUBPATH_END) first = true;
  }
  cn_path q = {first_seg, b->segments.count - first_seg, p.transform, 0};
  VEC_AT(b->paths, cn_path, b->paths.count++) = q;
  VEC_AT(b->twins, uint32_t, b->twins.count++) = id; /* a twin is its own fill path */
  VEC_AT(b->twins, uint32_t, path) = id;
  *out = id;
  return CN_OK;
}

cn_result cn_scene_fill(cn_scene_builder *b, uint32_t path, uint32_t paint, uint32_t rule) {
  CN_TRY(check_element(b, "cn_scene_fill"));
  CN_TRY(check_path_index(b, "cn_scene_fill", path));
  if (paint >= b->paints.count)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_fill: paint %u does not exist (%u defined)", paint, b->paints.count);
  if (rule > CN_RULE_EVENODD) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_fill: rule %u", rule);
  uint32_t fp;
  CN_TRY(fill_path(b, path, &fp));
  return push_element(b, "cn_scene_fill", (cn_element){CN_TAG_FILL, fp, paint, rule});
}

cn_result cn_scene_stroke(cn_scene_builder *b, uint32_t path, uint32_t paint, const cn_stroke_desc *s) {
  CN_TRY(check_element(b, "cn_scene_stroke"));
  CN_TRY(check_path_index(b, "cn_scene_stroke", path));
  if (paint >= b->paints.count)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_stroke: paint %u does not exist (%u defined)", paint, b->paints.count);
  if (!s) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_stroke: stroke is NULL");
  if (!(s->width > 0) || !isfinite(s->width) || !(s->miter_limit >= 1) || !isfinite(s->miter_limit) ||
      !isfinite(s->dash_offset))
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_stroke: width %g / miter limit %g / dash offset %g invalid",
                   s->width, s->miter_limit, s->dash_offset);
  if (s->join > CN_JOIN_MITER_CLIP || s->cap > CN_CAP_SQUARE)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_stroke: join %u or cap %u unknown", s->join, s->cap);
  double total = 0;
  if (s->dash_count && !s->dashes) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_stroke: dashes is NULL");
  for (uint32_t i = 0; i < s->dash_count; i++) {
    if (!(s->dashes[i] >= 0) || !isfinite(s->dashes[i]))
      return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_stroke: dash %u is %g", i, s->dashes[i]);
    total += s->dashes[i];
  }
  if (s->dash_count && !(total > 0))
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_stroke: dash lengths sum to 0");
  uint32_t ndash = (s->dash_count & 1) ? s->dash_count * 2 : s->dash_count;
  uint32_t max = b->limits.max_segments;
  CN_TRY(vec_reserve(&b->strokes, sizeof(cn_stroke), 1, max, "strokes"));
  CN_TRY(vec_reserve(&b->dashes, sizeof(float), ndash, max, "dashes"));
  cn_stroke st = {s->width, s->miter_limit, s->join, s->cap, ndash ? b->dashes.count : CN_NONE, ndash, s->dash_offset, 0};
  for (uint32_t i = 0; i < ndash; i++) VEC_AT(b->dashes, float, b->dashes.count + i) = s->dashes[i % s->dash_count];
  cn_element e = {CN_TAG_STROKE, path, paint, b->strokes.count};
  CN_TRY(push_element(b, "cn_scene_stroke", e));
  b->dashes.count += ndash;
  VEC_AT(b->strokes, cn_stroke, b->strokes.count++) = st;
  return CN_OK;
}

/* Room for one more open group (before its BEGIN element is added, so that a
 * failure leaves the scene as it was). */
static cn_result reserve_group(cn_scene_builder *b, const char *fn) {
  if (b->depth < b->stack_cap) return CN_OK;
  uint32_t cap = b->stack_cap ? b->stack_cap * 2 : 256;
  uint8_t *s = realloc(b->stack, cap);
  if (!s) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "%s: no memory for %u open groups", fn, cap);
  b->stack = s, b->stack_cap = cap;
  return CN_OK;
}

static void push_group(cn_scene_builder *b, uint8_t kind) {
  b->stack[b->depth++] = kind;
  if (b->depth > b->max_depth) b->max_depth = b->depth;
}

cn_result cn_scene_push_clip(cn_scene_builder *b, uint32_t path, uint32_t rule) {
  CN_TRY(check_element(b, "cn_scene_push_clip"));
  CN_TRY(check_path_index(b, "cn_scene_push_clip", path));
  if (rule > CN_RULE_EVENODD) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_push_clip: rule %u", rule);
  CN_TRY(reserve_group(b, "cn_scene_push_clip"));
  uint32_t fp;
  CN_TRY(fill_path(b, path, &fp));
  CN_TRY(push_element(b, "cn_scene_push_clip", (cn_element){CN_TAG_BEGIN_CLIP, fp, CN_NONE, rule}));
  push_group(b, GROUP_CLIP);
  return CN_OK;
}

cn_result cn_scene_push_blend(cn_scene_builder *b, uint32_t mode, float alpha, uint32_t flags) {
  CN_TRY(check_element(b, "cn_scene_push_blend"));
  if (mode >= CN_BLEND_MODE_COUNT) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_push_blend: mode %u unknown", mode);
  if (!unit(alpha)) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_push_blend: alpha %g outside 0..1", alpha);
  uint32_t known = CN_BLEND_ISOLATED | CN_BLEND_MASK_LUMINANCE | CN_BLEND_MASK_ALPHA | CN_BLEND_MASKED;
  uint32_t mask = flags & (CN_BLEND_MASK_LUMINANCE | CN_BLEND_MASK_ALPHA);
  if ((flags & ~known) || mask == (CN_BLEND_MASK_LUMINANCE | CN_BLEND_MASK_ALPHA) || (mask && (flags & CN_BLEND_MASKED)))
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_push_blend: flags 0x%x invalid", flags);
  if ((flags & CN_BLEND_MASKED) && !b->mask_pending)
    return cn_fail(CN_ERROR_STATE, "cn_scene_push_blend: CN_BLEND_MASKED without a mask group just before");
  CN_TRY(reserve_group(b, "cn_scene_push_blend"));
  CN_TRY(vec_reserve(&b->blends, sizeof(cn_blend), 1, b->limits.max_segments, "blends"));
  VEC_AT(b->blends, cn_blend, b->blends.count) = (cn_blend){mode, alpha, flags, 0};
  CN_TRY(push_element(b, "cn_scene_push_blend", (cn_element){CN_TAG_BEGIN_BLEND, CN_NONE, CN_NONE, b->blends.count}));
  b->blends.count++;
  push_group(b, mask ? GROUP_MASK : GROUP_BLEND);
  return CN_OK;
}

cn_result cn_scene_pop(cn_scene_builder *b) {
  CN_TRY(check_element(b, "cn_scene_pop"));
  if (b->depth == 0) return cn_fail(CN_ERROR_UNBALANCED, "cn_scene_pop: no group is open");
  uint8_t kind = b->stack[b->depth - 1];
  uint32_t tag = kind == GROUP_CLIP ? CN_TAG_END_CLIP : CN_TAG_END_BLEND;
  CN_TRY(push_element(b, "cn_scene_pop", (cn_element){tag, CN_NONE, CN_NONE, CN_NONE}));
  b->depth--;
  if (kind == GROUP_MASK) b->mask_pending = true;
  return CN_OK;
}

cn_result cn_scene_end(cn_scene_builder *b, cn_scene_data *out) {
  CN_TRY(check_builder(b, "cn_scene_end", true));
  if (!out) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_end: out is NULL");
  if (b->in_path) return cn_fail(CN_ERROR_STATE, "cn_scene_end: a path is still being defined");
  if (b->depth) return cn_fail(CN_ERROR_UNBALANCED, "cn_scene_end: %u group%s still open", b->depth, b->depth == 1 ? "" : "s");
  if (b->mask_pending) return cn_fail(CN_ERROR_STATE, "cn_scene_end: a mask group is not followed by a masked group");
  b->in_scene = false;
  *out = (cn_scene_data){
      .viewport = {b->viewport[0], b->viewport[1], b->viewport[2], b->viewport[3]},
      .elements = b->elements.data, .element_count = b->elements.count,
      .paths = b->paths.data, .path_count = b->paths.count,
      .segments = b->segments.data, .segment_count = b->segments.count,
      .transforms = b->transforms.data, .transform_count = b->transforms.count,
      .paints = b->paints.data, .paint_count = b->paints.count,
      .stops = b->stops.data, .stop_count = b->stops.count,
      .strokes = b->strokes.data, .stroke_count = b->strokes.count,
      .dashes = b->dashes.data, .dash_count = b->dashes.count,
      .blends = b->blends.data, .blend_count = b->blends.count,
      .images = b->images.data, .image_count = b->images.count,
      .image_pixels = b->pixels.data, .image_pixel_count = b->pixels.count,
  };
  return CN_OK;
}

void cn_scene_abandon(cn_scene_builder *b) {
  if (!b) return;
  b->in_scene = b->in_path = false;
  b->depth = 0;
  b->mask_pending = false;
}

uint32_t cn_scene_depth(const cn_scene_builder *b) { return b ? b->depth : 0; }
uint32_t cn_scene_max_depth(const cn_scene_builder *b) { return b ? b->max_depth : 0; }

/* ----------------------------------------------------------------- images */

cn_result cn_scene_image(cn_scene_builder *b, const uint32_t *texels, uint32_t width, uint32_t height,
                         uint32_t *image) {
  CN_TRY(check_builder(b, "cn_scene_image", true));
  if (!texels || !image) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_image: NULL argument");
  uint64_t n = (uint64_t)width * height;
  if (!width || !height) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_image: empty image %ux%u", width, height);
  if (n > CN_SCENE_MAX_IMAGE_PIXELS)
    return cn_fail(CN_ERROR_LIMIT, "cn_scene_image: image of %ux%u pixels: at most %u pixels per image", width, height,
                   CN_SCENE_MAX_IMAGE_PIXELS);
  if (b->pixels.count + n > CN_SCENE_MAX_TOTAL_IMAGE_PIXELS)
    return cn_fail(CN_ERROR_LIMIT, "cn_scene_image: images of the scene exceed %u pixels in all",
                   CN_SCENE_MAX_TOTAL_IMAGE_PIXELS);
  CN_TRY(vec_reserve(&b->images, sizeof(cn_image), 1, CN_SCENE_MAX_IMAGES, "images"));
  CN_TRY(vec_reserve(&b->pixels, sizeof(uint32_t), (uint32_t)n, CN_SCENE_MAX_TOTAL_IMAGE_PIXELS, "image pixels"));
  memcpy(&VEC_AT(b->pixels, uint32_t, b->pixels.count), texels, (size_t)n * sizeof(uint32_t));
  *image = b->images.count;
  VEC_AT(b->images, cn_image, b->images.count++) =
      (cn_image){.offset = b->pixels.count, .width = width, .height = height, .flags = 0};
  b->pixels.count += (uint32_t)n;
  return CN_OK;
}

cn_result cn_scene_image_paint(cn_scene_builder *b, uint32_t image, const cn_transform *t, uint32_t sampling,
                               float opacity, uint32_t *paint) {
  CN_TRY(check_builder(b, "cn_scene_image_paint", true));
  if (!t || !paint) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_image_paint: NULL argument");
  if (image >= b->images.count)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_image_paint: image %u of %u", image, b->images.count);
  if (sampling > CN_SAMPLE_NEAREST)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_image_paint: sampling %u", sampling);
  if (!finite6(&t->a) || !unit(opacity))
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_scene_image_paint: non-finite transform or opacity outside 0..1");
  uint32_t max = b->limits.max_segments;
  CN_TRY(vec_reserve(&b->paints, sizeof(cn_paint), 1, max, "paints"));
  CN_TRY(vec_reserve(&b->transforms, sizeof(cn_transform), 1, max, "transforms"));
  cn_paint p = {.kind = CN_PAINT_IMAGE, .stop_first = image, .stop_count = 0, .spread = sampling,
                .transform = b->transforms.count, .opacity = opacity};
  VEC_AT(b->transforms, cn_transform, b->transforms.count++) = *t;
  b->xf_pushed = false;
  *paint = b->paints.count;
  VEC_AT(b->paints, cn_paint, b->paints.count++) = p;
  return CN_OK;
}

uint32_t cn__scene_image_pixels(const cn_scene_builder *b) { return b->pixels.count; }
uint32_t cn__scene_image_count(const cn_scene_builder *b) { return b->images.count; }

/* ------------------------------------------------------ loader internals */

uint32_t cn__scene_element_count(const cn_scene_builder *b) { return b->elements.count; }
uint32_t cn__scene_segment_count(const cn_scene_builder *b) { return b->segments.count; }

cn_result cn__scene_rotate(cn_scene_builder *b, uint32_t mark, uint32_t split) {
  uint32_t end = b->elements.count;
  if (mark > split || split > end) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn__scene_rotate: bad range");
  uint32_t tail = end - split;
  if (tail == 0 || split == mark) return CN_OK;
  cn_element *e = b->elements.data;
  cn_element *tmp = malloc((size_t)tail * sizeof *tmp);
  if (!tmp) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "scene: no memory to reorder %u elements", tail);
  memcpy(tmp, e + split, (size_t)tail * sizeof *tmp);
  memmove(e + mark + tail, e + mark, (size_t)(split - mark) * sizeof *e);
  memcpy(e + mark, tmp, (size_t)tail * sizeof *tmp);
  free(tmp);
  return CN_OK;
}

void cn__scene_truncate_elements(cn_scene_builder *b, uint32_t count) {
  if (count < b->elements.count) b->elements.count = count;
}
