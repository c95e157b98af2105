/* flatten_cpu.c: CPU reference of the flatten stage (cn_flatten_cpu in
 * cn_flatten.h). The algorithm is shaders/cn_flatten_core.h compiled as C;
 * this file supplies its inputs (the scene arrays, subpath links and dash
 * distances computed sequentially) and collects its lines. */
#include "cn_flatten.h"
#include "cn_scan.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Inputs of the core for the call in progress (the reference is single-threaded). */
typedef struct fl_cpu_state {
  const cn_scene_data *scene;
  cn_transform view;
  float tolerance;
  uint32_t *sub_first, *sub_last;
  float *dist;
  uint8_t *curved; /* per path: CN_PATH_CURVED as cn_scene_gpu sets it in its device copy */
  /* output */
  cn_line *lines;
  uint64_t count, cap;
  uint32_t element;
  bool oom;
  float box[4];
} fl_cpu_state;

static _Thread_local fl_cpu_state *fl_st;

static bool fl_draws_cpu(uint32_t tag) {
  return tag == CN_TAG_FILL || tag == CN_TAG_STROKE || tag == CN_TAG_BEGIN_CLIP;
}

static cn_element fl_elem(uint32_t i) { return fl_st->scene->elements[i]; }
static cn_path fl_path(uint32_t i) {
  cn_path p = fl_st->scene->paths[i];
  p.flags = (p.flags & ~CN_PATH_CURVED) | (fl_st->curved[i] ? CN_PATH_CURVED : 0u);
  return p;
}
static cn_segment fl_seg(uint32_t i) { return fl_st->scene->segments[i]; }
static cn_transform fl_xform(uint32_t i) { return fl_st->scene->transforms[i]; }
static cn_stroke fl_stroke_at(uint32_t i) { return fl_st->scene->strokes[i]; }
static float fl_dash_at(uint32_t i) { return fl_st->scene->dashes[i]; }
static uint32_t fl_sub_first(uint32_t s) { return fl_st->sub_first[s]; }
static uint32_t fl_sub_last(uint32_t first) { return fl_st->sub_last[first]; }
static float fl_dist_at(uint32_t pair) { return fl_st->dist[pair]; }
static cn_transform fl_view(void) { return fl_st->view; }
static float fl_tolerance(void) { return fl_st->tolerance; }

typedef struct vec2 vec2;
static void fl_out(vec2 a, vec2 b);

/* Pairs per segment of a stroke of a curved path: 1 (the whole walk at once,
 * so the kernels' CN_FL_STROKE_SPLIT chunks are checked against the unsplit
 * walk), or a test's (cn__flatten_cpu_split: any split gives the same lines). */
static _Thread_local uint32_t fl_cpu_split = 1;
#define FL_STROKE_SPLIT fl_cpu_split

#include "cn_flatten_core.h"

static void fl_out(vec2 a, vec2 b) {
  fl_cpu_state *s = fl_st;
  if (s->oom) return;
  if (s->count == s->cap) {
    uint64_t cap = s->cap ? s->cap * 2 : 1024;
    cn_line *l = cap < (1ull << 32) ? realloc(s->lines, cap * sizeof *l) : NULL;
    if (!l) {
      s->oom = true;
      return;
    }
    s->lines = l;
    s->cap = cap;
  }
  s->lines[s->count++] = (cn_line){a.x, a.y, b.x, b.y, s->element};
  float lo_x = fminf(a.x, b.x), lo_y = fminf(a.y, b.y), hi_x = fmaxf(a.x, b.x), hi_y = fmaxf(a.y, b.y);
  if (lo_x < s->box[0]) s->box[0] = lo_x;
  if (lo_y < s->box[1]) s->box[1] = lo_y;
  if (hi_x > s->box[2]) s->box[2] = hi_x;
  if (hi_y > s->box[3]) s->box[3] = hi_y;
}

/* The subpath links of flatten_subpaths.comp, sequentially. */
static void fl_cpu_subpaths(const cn_scene_data *sc, uint32_t *first, uint32_t *last) {
  uint32_t start = 0;
  for (uint32_t i = 0; i < sc->segment_count; i++) {
    bool starts = i == 0 || (sc->segments[i - 1].info & CN_SEG_SUBPATH_END) ||
                  (sc->segments[i - 1].info >> CN_SEG_PATH_SHIFT) != (sc->segments[i].info >> CN_SEG_PATH_SHIFT);
    if (starts) start = i;
    first[i] = start;
    last[i] = 0;
  }
  for (uint32_t i = 0; i < sc->segment_count; i++) {
    bool ends = i + 1 == sc->segment_count || first[i + 1] == i + 1;
    if (ends) last[first[i]] = i;
  }
}

/* Pairs per segment of element el: fl_cpu_split for a STROKE of a curved path, else 1 (the
 * kernels' layout when fl_cpu_split is CN_FL_STROKE_SPLIT). */
static uint32_t fl_cpu_split_of(const fl_cpu_state *st, const cn_element *el) {
  return el->tag == CN_TAG_STROKE && st->curved[el->path] ? fl_cpu_split : 1u;
}
static uint32_t fl_cpu_pairs(const fl_cpu_state *st, const cn_element *el) {
  if (!fl_draws_cpu(el->tag)) return 0;
  return st->scene->paths[el->path].seg_count * fl_cpu_split_of(st, el);
}

static cn_result fl_cpu_run(const cn_scene_data *scene, const cn_flatten_desc *desc, cn_line **lines,
                            uint32_t *line_count, cn_flatten_elem *elems) {
  *lines = NULL;
  *line_count = 0;
  cn_scene_info info;
  CN_TRY(cn_scene_check(scene, &info));
  cn_flatten_desc d = desc ? *desc : (cn_flatten_desc){0};
  fl_cpu_state st = {.scene = scene, .tolerance = d.tolerance > 0 ? d.tolerance : CN_FLATTEN_DEFAULT_TOLERANCE};
  st.curved = calloc(scene->path_count ? scene->path_count : 1, 1);
  if (!st.curved) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "out of host memory");
  for (uint32_t p = 0; p < scene->path_count; p++)
    for (uint32_t k = 0; k < scene->paths[p].seg_count && !st.curved[p]; k++)
      st.curved[p] = (scene->segments[scene->paths[p].seg_first + k].info & 3u) != CN_SEG_LINE;
  uint64_t P = 0;
  for (uint32_t e = 0; e < scene->element_count; e++) P += fl_cpu_pairs(&st, &scene->elements[e]);
  bool identity = true;
  for (int i = 0; i < 6; i++) identity = identity && d.view[i] == 0;
  st.view = identity ? (cn_transform){1, 0, 0, 1, 0, 0}
                     : (cn_transform){d.view[0], d.view[1], d.view[2], d.view[3], d.view[4], d.view[5]};
  size_t S = scene->segment_count;
  st.sub_first = malloc((S ? S : 1) * sizeof(uint32_t));
  st.sub_last = malloc((S ? S : 1) * sizeof(uint32_t));
  st.dist = calloc((size_t)P + 1, sizeof(float));
  if (!st.sub_first || !st.sub_last || !st.dist) {
    free(st.sub_first);
    free(st.sub_last);
    free(st.dist);
    free(st.curved);
    return cn_fail(CN_ERROR_OUT_OF_MEMORY, "out of host memory");
  }
  fl_cpu_subpaths(scene, st.sub_first, st.sub_last);
  fl_st = &st;

  /* Dash distances: the exclusive sum of flattened lengths within each
   * subpath (a segment's length is its first chunk's; the others add 0). */
  uint32_t pair = 0;
  for (uint32_t e = 0; e < scene->element_count; e++) {
    const cn_element *el = &scene->elements[e];
    uint32_t n = fl_cpu_pairs(&st, el), split = fl_cpu_split_of(&st, el);
    float run = 0;
    for (uint32_t k = 0; k < n; k++) {
      uint32_t si = scene->paths[el->path].seg_first + k / split;
      if (k == 0 || (k % split == 0 && st.sub_first[si] == si)) run = 0;
      st.dist[pair + k] = run;
      run += fl_pair(e, k, pair + k, true);
    }
    pair += n;
  }

  pair = 0;
  for (uint32_t e = 0; e < scene->element_count; e++) {
    const cn_element *el = &scene->elements[e];
    uint64_t first = st.count;
    st.element = e;
    st.box[0] = st.box[1] = INFINITY;
    st.box[2] = st.box[3] = -INFINITY;
    float cover = 1.0f;
    uint32_t flags = 0;
    if (fl_draws_cpu(el->tag)) {
      uint32_t n = fl_cpu_pairs(&st, el);
      for (uint32_t k = 0; k < n; k++) {
        fl_pair(e, k, pair + k, false);
        if (k == 0) cover = fl_cover, flags = fl_flags; /* as flatten_pairs: set by the element's first pair */
      }
      pair += n;
    }
    if (elems) {
      cn_flatten_elem *o = &elems[e];
      o->line_first = (uint32_t)first;
      o->line_count = (uint32_t)(st.count - first);
      bool empty = o->line_count == 0;
      o->x0 = empty ? 0 : st.box[0];
      o->y0 = empty ? 0 : st.box[1];
      o->x1 = empty ? 0 : st.box[2];
      o->y1 = empty ? 0 : st.box[3];
      o->cover = cover;
      o->flags = flags;
    }
  }
  fl_st = NULL;
  free(st.curved);
  free(st.sub_first);
  free(st.sub_last);
  free(st.dist);
  if (st.oom || st.count >= (1ull << 32)) {
    free(st.lines);
    return cn_fail(CN_ERROR_OUT_OF_MEMORY, "flatten (CPU): out of host memory for %llu lines",
                   (unsigned long long)st.count);
  }
  *lines = st.lines;
  *line_count = (uint32_t)st.count;
  return CN_OK;
}

cn_result cn_flatten_cpu(const cn_scene_data *scene, const cn_flatten_desc *desc, cn_line **lines,
                         uint32_t *line_count, cn_flatten_elem *elems) {
  fl_cpu_split = 1;
  return fl_cpu_run(scene, desc, lines, line_count, elems);
}

cn_result cn__flatten_cpu_split(const cn_scene_data *scene, const cn_flatten_desc *desc, uint32_t split,
                                cn_line **lines, uint32_t *line_count, cn_flatten_elem *elems) {
  if (split == 0 || split > 64) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "flatten (CPU): split %u: 1 to 64", split);
  fl_cpu_split = split;
  cn_result r = fl_cpu_run(scene, desc, lines, line_count, elems);
  fl_cpu_split = 1;
  return r;
}
