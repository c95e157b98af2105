/* test_scene_builder.c: the C scene API: exact encodings of paths, paints,
 * strokes and groups, fill twins of open subpaths, and every misuse
 * returning an error with a message (never a crash). CPU only. */
#include "test.h"

#include <math.h>

static cn_scene_builder *make(void) {
  cn_scene_builder *b = NULL;
  CHECK_OK(cn_scene_builder_create(&b));
  CHECK_OK(cn_scene_begin(b, 0, 0, 100, 50));
  return b;
}

static bool seg_is(const cn_segment *s, uint32_t info, float x0, float y0, float x1, float y1) {
  return s->info == info && s->x0 == x0 && s->y0 == y0 && s->x1 == x1 && s->y1 == y1;
}

TEST(triangle_fill_encoding) {
  cn_scene_builder *b = make();
  cn_transform t = {2, 0, 0, 2, 10, 20};
  CHECK_OK(cn_scene_set_transform(b, &t));
  uint32_t path = 99, red = 99;
  CHECK_OK(cn_scene_path_begin(b));
  CHECK_OK(cn_scene_move_to(b, 0, 0));
  CHECK_OK(cn_scene_line_to(b, 10, 0));
  CHECK_OK(cn_scene_line_to(b, 10, 10));
  CHECK_OK(cn_scene_close(b));
  CHECK_OK(cn_scene_path_end(b, &path));
  CHECK_OK(cn_scene_solid(b, 1, 0, 0, 1, &red));
  CHECK_OK(cn_scene_fill(b, path, red, CN_RULE_EVENODD));
  cn_scene_data d;
  CHECK_OK(cn_scene_end(b, &d));
  CHECK(d.viewport[0] == 0 && d.viewport[2] == 100 && d.viewport[3] == 50);
  CHECK_EQ_U64(d.element_count, 1);
  CHECK(d.elements[0].tag == CN_TAG_FILL && d.elements[0].path == 0 && d.elements[0].paint == 0 &&
        d.elements[0].aux == CN_RULE_EVENODD);
  CHECK_EQ_U64(d.path_count, 1);
  CHECK(d.paths[0].seg_first == 0 && d.paths[0].seg_count == 3 && d.paths[0].transform == 0 && d.paths[0].flags == 0);
  CHECK_EQ_U64(d.segment_count, 3);
  uint32_t c = CN_SEG_SUBPATH_CLOSED;
  CHECK(seg_is(&d.segments[0], CN_SEG_LINE | c, 0, 0, 10, 0));
  CHECK(seg_is(&d.segments[1], CN_SEG_LINE | c, 10, 0, 10, 10));
  CHECK(seg_is(&d.segments[2], CN_SEG_LINE | c | CN_SEG_SUBPATH_END, 10, 10, 0, 0));
  CHECK_EQ_U64(d.transform_count, 1);
  CHECK(memcmp(&d.transforms[0], &t, sizeof t) == 0);
  CHECK(d.paints[0].kind == CN_PAINT_SOLID && d.paints[0].r == 1 && d.paints[0].g == 0 && d.paints[0].a == 1 &&
        d.paints[0].transform == CN_NONE && d.paints[0].stop_first == CN_NONE);
  cn_scene_builder_destroy(b);
}

TEST(curves_and_path_index_in_info) {
  cn_scene_builder *b = make();
  uint32_t p0, p1;
  CHECK_OK(cn_scene_path_begin(b));
  CHECK_OK(cn_scene_move_to(b, 1, 2));
  CHECK_OK(cn_scene_line_to(b, 3, 4));
  CHECK_OK(cn_scene_path_end(b, &p0));
  CHECK_OK(cn_scene_path_begin(b));
  CHECK_OK(cn_scene_move_to(b, 0, 0));
  CHECK_OK(cn_scene_quad_to(b, 1, 1, 2, 0));
  CHECK_OK(cn_scene_cubic_to(b, 3, 1, 4, 1, 5, 0));
  CHECK_OK(cn_scene_move_to(b, 9, 9)); /* a lone move_to draws nothing */
  CHECK_OK(cn_scene_path_end(b, &p1));
  CHECK_EQ_U64(p0, 0);
  CHECK_EQ_U64(p1, 1);
  uint32_t paint;
  CHECK_OK(cn_scene_solid(b, 0, 0, 1, 1, &paint));
  cn_stroke_desc sd = {.width = 2, .miter_limit = 4};
  CHECK_OK(cn_scene_stroke(b, p1, paint, &sd));
  cn_scene_data d;
  CHECK_OK(cn_scene_end(b, &d));
  CHECK_EQ_U64(d.segment_count, 3);
  CHECK_EQ_U64(d.segments[0].info, CN_SEG_LINE | CN_SEG_SUBPATH_END);
  const cn_segment *q = &d.segments[1], *cu = &d.segments[2];
  CHECK_EQ_U64(q->info, CN_SEG_QUAD | (1u << CN_SEG_PATH_SHIFT));
  CHECK(q->x0 == 0 && q->y0 == 0 && q->x1 == 1 && q->y1 == 1 && q->x2 == 2 && q->y2 == 0);
  CHECK_EQ_U64(cu->info, CN_SEG_CUBIC | CN_SEG_SUBPATH_END | (1u << CN_SEG_PATH_SHIFT));
  CHECK(cu->x0 == 2 && cu->x1 == 3 && cu->y1 == 1 && cu->x2 == 4 && cu->x3 == 5 && cu->y3 == 0);
  CHECK_EQ_U64(d.paths[0].transform, d.paths[1].transform); /* one transform shared */
  CHECK_EQ_U64(d.transform_count, 1);
  CHECK(d.elements[0].tag == CN_TAG_STROKE && d.elements[0].path == 1 && d.elements[0].aux == 0);
  CHECK(d.strokes[0].width == 2 && d.strokes[0].dash_count == 0 && d.strokes[0].dash_first == CN_NONE);
  cn_scene_builder_destroy(b);
}

TEST(fill_of_open_path_gets_closed_twin) {
  cn_scene_builder *b = make();
  uint32_t p, paint;
  CHECK_OK(cn_scene_path_begin(b));
  CHECK_OK(cn_scene_move_to(b, 0, 0));
  CHECK_OK(cn_scene_line_to(b, 10, 0));
  CHECK_OK(cn_scene_line_to(b, 10, 10));
  CHECK_OK(cn_scene_path_end(b, &p));
  CHECK_OK(cn_scene_solid(b, 0, 1, 0, 1, &paint));
  cn_stroke_desc sd = {.width = 1, .miter_limit = 4};
  CHECK_OK(cn_scene_fill(b, p, paint, CN_RULE_NONZERO));
  CHECK_OK(cn_scene_stroke(b, p, paint, &sd));
  CHECK_OK(cn_scene_fill(b, p, paint, CN_RULE_NONZERO)); /* the twin is reused */
  cn_scene_data d;
  CHECK_OK(cn_scene_end(b, &d));
  CHECK_EQ_U64(d.path_count, 2);
  CHECK_EQ_U64(d.elements[0].path, 1);
  CHECK_EQ_U64(d.elements[1].path, 0);
  CHECK_EQ_U64(d.elements[2].path, 1);
  CHECK(d.paths[1].seg_first == 2 && d.paths[1].seg_count == 3);
  uint32_t c = CN_SEG_SUBPATH_CLOSED | (1u << CN_SEG_PATH_SHIFT);
  CHECK(seg_is(&d.segments[4], CN_SEG_LINE | c | CN_SEG_SUBPATH_END, 10, 10, 0, 0));
  CHECK_EQ_U64(d.segments[2].info, CN_SEG_LINE | c);
  CHECK_EQ_U64(d.segments[1].info, CN_SEG_LINE | CN_SEG_SUBPATH_END); /* the stroke path stays open */
  cn_scene_builder_destroy(b);
}

TEST(groups_gradients_dashes) {
  cn_scene_builder *b = make();
  uint32_t p, paint, grad;
  CHECK_OK(cn_scene_path_begin(b));
  CHECK_OK(cn_scene_move_to(b, 0, 0));
  CHECK_OK(cn_scene_line_to(b, 5, 5));
  CHECK_OK(cn_scene_close(b));
  CHECK_OK(cn_scene_path_end(b, &p));
  CHECK_OK(cn_scene_solid(b, 0, 0, 0, 0.5f, &paint));
  cn_stop stops[2] = {{0, 1, 0, 0, 1}, {1, 0, 0, 1, 1}};
  cn_gradient_desc g = {.kind = CN_PAINT_RADIAL, .spread = CN_SPREAD_REFLECT, .geometry = {1, 2, 3, 4, 5, 0},
                        .transform = {1, 0, 0, 1, 7, 8}, .opacity = 0.25f, .stops = stops, .stop_count = 2};
  CHECK_OK(cn_scene_gradient(b, &g, &grad));
  CHECK_OK(cn_scene_push_clip(b, p, CN_RULE_NONZERO));
  CHECK_OK(cn_scene_push_blend(b, CN_BLEND_SCREEN, 0.5f, CN_BLEND_ISOLATED));
  float dashes[3] = {1, 2, 3};
  cn_stroke_desc sd = {.width = 1, .miter_limit = 4, .join = CN_JOIN_ROUND, .cap = CN_CAP_SQUARE, .dashes = dashes,
                       .dash_count = 3, .dash_offset = 0.5f};
  CHECK_OK(cn_scene_stroke(b, p, grad, &sd));
  CHECK(cn_scene_depth(b) == 2);
  CHECK_OK(cn_scene_pop(b));
  CHECK_OK(cn_scene_push_blend(b, CN_BLEND_NORMAL, 1, CN_BLEND_MASK_LUMINANCE));
  CHECK_OK(cn_scene_fill(b, p, paint, CN_RULE_NONZERO));
  CHECK_OK(cn_scene_pop(b));
  CHECK_OK(cn_scene_push_blend(b, CN_BLEND_MULTIPLY, 1, CN_BLEND_MASKED | CN_BLEND_ISOLATED));
  CHECK_OK(cn_scene_fill(b, p, paint, CN_RULE_NONZERO));
  CHECK_OK(cn_scene_pop(b));
  CHECK_OK(cn_scene_pop(b));
  cn_scene_data d;
  CHECK_OK(cn_scene_end(b, &d));
  static const uint32_t tags[] = {CN_TAG_BEGIN_CLIP, CN_TAG_BEGIN_BLEND, CN_TAG_STROKE, CN_TAG_END_BLEND,
                                  CN_TAG_BEGIN_BLEND, CN_TAG_FILL, CN_TAG_END_BLEND, CN_TAG_BEGIN_BLEND,
                                  CN_TAG_FILL, CN_TAG_END_BLEND, CN_TAG_END_CLIP};
  CHECK_EQ_U64(d.element_count, 11);
  for (uint32_t i = 0; i < 11 && i < d.element_count; i++) CHECK_EQ_U64(d.elements[i].tag, tags[i]);
  CHECK(d.elements[0].path == 0 && d.elements[0].aux == CN_RULE_NONZERO && d.elements[0].paint == CN_NONE);
  CHECK(d.elements[3].path == CN_NONE && d.elements[3].aux == CN_NONE);
  CHECK_EQ_U64(d.blend_count, 3);
  CHECK(d.blends[0].mode == CN_BLEND_SCREEN && d.blends[0].alpha == 0.5f && d.blends[0].flags == CN_BLEND_ISOLATED);
  CHECK(d.blends[1].flags == CN_BLEND_MASK_LUMINANCE);
  CHECK(d.blends[2].flags == (CN_BLEND_MASKED | CN_BLEND_ISOLATED) && d.blends[2].mode == CN_BLEND_MULTIPLY);
  CHECK(d.elements[7].aux == 2);
  const cn_paint *gp = &d.paints[1];
  CHECK(gp->kind == CN_PAINT_RADIAL && gp->spread == CN_SPREAD_REFLECT && gp->stop_first == 0 && gp->stop_count == 2);
  CHECK(gp->g0 == 1 && gp->g4 == 5 && gp->opacity == 0.25f);
  CHECK(d.transforms[gp->transform].e == 7 && d.transforms[gp->transform].f == 8);
  CHECK(d.transforms[d.paths[0].transform].a == 1 && d.transforms[d.paths[0].transform].e == 0);
  CHECK_EQ_U64(d.stroke_count, 1);
  CHECK(d.strokes[0].dash_count == 6 && d.strokes[0].dash_offset == 0.5f && d.strokes[0].join == CN_JOIN_ROUND &&
        d.strokes[0].cap == CN_CAP_SQUARE);
  static const float want[6] = {1, 2, 3, 1, 2, 3};
  for (int i = 0; i < 6; i++) CHECK(d.dashes[d.strokes[0].dash_first + i] == want[i]);
  CHECK_EQ_U64(cn_scene_max_depth(b), 2);
  cn_scene_builder_destroy(b);
}

TEST(misuse_returns_errors) {
  cn_scene_builder *b = NULL;
  CHECK_OK(cn_scene_builder_create(&b));
  uint32_t id;
  cn_scene_data d;
  CHECK(cn_scene_fill(b, 0, 0, 0) == CN_ERROR_STATE); /* no scene */
  CHECK_STR_CONTAINS(cn_last_error(), "no scene begun");
  CHECK(cn_scene_begin(b, 0, 0, NAN, 10) == CN_ERROR_INVALID_ARGUMENT);
  CHECK(cn_scene_begin(b, 0, 0, 0, 10) == CN_ERROR_INVALID_ARGUMENT);
  CHECK_OK(cn_scene_begin(b, 0, 0, 10, 10));
  CHECK(cn_scene_pop(b) == CN_ERROR_UNBALANCED);
  CHECK_STR_CONTAINS(cn_last_error(), "cn_scene_pop: no group is open");
  CHECK(cn_scene_line_to(b, 1, 1) == CN_ERROR_STATE);
  CHECK_STR_CONTAINS(cn_last_error(), "no path begun");
  CHECK_OK(cn_scene_path_begin(b));
  CHECK(cn_scene_path_begin(b) == CN_ERROR_STATE);
  CHECK(cn_scene_move_to(b, NAN, 0) == CN_ERROR_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(cn_last_error(), "cn_scene_move_to: coordinate 0 is nan (must be finite)");
  CHECK(cn_scene_cubic_to(b, 0, 0, 0, INFINITY, 1, 1) == CN_ERROR_INVALID_ARGUMENT);
  CHECK(cn_scene_push_blend(b, 0, 1, 0) == CN_ERROR_STATE); /* inside a path */
  CHECK(cn_scene_end(b, &d) == CN_ERROR_STATE);
  CHECK_OK(cn_scene_move_to(b, 0, 0));
  CHECK_OK(cn_scene_line_to(b, 1, 1));
  CHECK_OK(cn_scene_path_end(b, &id));
  CHECK(cn_scene_fill(b, 5, 0, 0) == CN_ERROR_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(cn_last_error(), "path 5 does not exist");
  CHECK(cn_scene_fill(b, id, 0, 0) == CN_ERROR_INVALID_ARGUMENT); /* no paint yet */
  CHECK(cn_scene_solid(b, 2, 0, 0, 1, &id) == CN_ERROR_INVALID_ARGUMENT);
  CHECK(cn_scene_solid(b, NAN, 0, 0, 1, &id) == CN_ERROR_INVALID_ARGUMENT);
  cn_transform bad = {1, 0, 0, NAN, 0, 0};
  CHECK(cn_scene_set_transform(b, &bad) == CN_ERROR_INVALID_ARGUMENT);
  CHECK(cn_scene_push_blend(b, 16, 1, 0) == CN_ERROR_INVALID_ARGUMENT);
  CHECK(cn_scene_push_blend(b, 0, 1.5f, 0) == CN_ERROR_INVALID_ARGUMENT);
  CHECK(cn_scene_push_blend(b, 0, 1, CN_BLEND_MASKED) == CN_ERROR_STATE);
  CHECK(cn_scene_push_clip(b, 0, 7) == CN_ERROR_INVALID_ARGUMENT);
  cn_stop st = {0.5f, 0, 0, 0, 1}, st2[2] = {{0.5f, 0, 0, 0, 1}, {0.2f, 0, 0, 0, 1}};
  cn_gradient_desc g = {.kind = CN_PAINT_LINEAR, .geometry = {0, 0, 1, 0}, .transform = {1, 0, 0, 1, 0, 0},
                        .opacity = 1, .stops = st2, .stop_count = 2};
  CHECK(cn_scene_gradient(b, &g, &id) == CN_ERROR_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(cn_last_error(), "stop 1 offset decreases");
  g.stops = &st, g.stop_count = 0;
  CHECK(cn_scene_gradient(b, &g, &id) == CN_ERROR_INVALID_ARGUMENT);
  CHECK_OK(cn_scene_push_blend(b, CN_BLEND_NORMAL, 1, CN_BLEND_MASK_ALPHA));
  CHECK_OK(cn_scene_pop(b));
  CHECK(cn_scene_push_blend(b, CN_BLEND_NORMAL, 1, 0) == CN_ERROR_STATE); /* mask must be followed by MASKED */
  CHECK_STR_CONTAINS(cn_last_error(), "followed at once by a masked group");
  CHECK(cn_scene_end(b, &d) == CN_ERROR_STATE);
  CHECK_OK(cn_scene_push_blend(b, CN_BLEND_NORMAL, 1, CN_BLEND_MASKED));
  CHECK(cn_scene_end(b, &d) == CN_ERROR_UNBALANCED);
  CHECK_STR_CONTAINS(cn_last_error(), "cn_scene_end: 1 group still open");
  float zero[2] = {0, 0};
  uint32_t paint;
  CHECK_OK(cn_scene_solid(b, 0, 0, 0, 1, &paint));
  cn_stroke_desc sd = {.width = 1, .miter_limit = 4, .dashes = zero, .dash_count = 2};
  CHECK(cn_scene_stroke(b, 0, paint, &sd) == CN_ERROR_INVALID_ARGUMENT);
  sd = (cn_stroke_desc){.width = -1, .miter_limit = 4};
  CHECK(cn_scene_stroke(b, 0, paint, &sd) == CN_ERROR_INVALID_ARGUMENT);
  CHECK_OK(cn_scene_pop(b));
  CHECK_OK(cn_scene_end(b, &d));
  CHECK_EQ_U64(d.element_count, 4);
  /* NULL builder */
  CHECK(cn_scene_pop(NULL) == CN_ERROR_INVALID_ARGUMENT);
  CHECK(cn_scene_builder_create(NULL) == CN_ERROR_INVALID_ARGUMENT);
  cn_scene_builder_destroy(NULL);
  cn_scene_builder_destroy(b);
}

TEST(depth_and_size_limits) {
  cn_scene_builder *b = NULL;
  CHECK_OK(cn_scene_builder_create(&b));
  cn_scene_limits lim = {.max_elements = 3, .max_segments = 4};
  CHECK_OK(cn_scene_builder_set_limits(b, &lim));
  CHECK_OK(cn_scene_begin(b, 0, 0, 1, 1));
  CHECK_OK(cn_scene_path_begin(b));
  CHECK_OK(cn_scene_move_to(b, 0, 0));
  for (int i = 0; i < 4; i++) CHECK_OK(cn_scene_line_to(b, (float)i, 1));
  CHECK(cn_scene_line_to(b, 9, 9) == CN_ERROR_LIMIT);
  CHECK_STR_CONTAINS(cn_last_error(), "more than 4 segments");
  uint32_t p;
  CHECK_OK(cn_scene_path_end(b, &p));
  for (int i = 0; i < 3; i++) CHECK_OK(cn_scene_push_blend(b, 0, 1, 0));
  CHECK(cn_scene_push_blend(b, 0, 1, 0) == CN_ERROR_LIMIT);
  CHECK_STR_CONTAINS(cn_last_error(), "scene has more than 3 elements");
  cn_scene_builder_destroy(b);
  CHECK_OK(cn_scene_builder_create(&b));
  CHECK_OK(cn_scene_begin(b, 0, 0, 1, 1));
  /* groups nest to any depth: 100 000 open at once */
  for (uint32_t i = 0; i < 100000; i++) CHECK_OK(cn_scene_push_blend(b, 0, 1, 0));
  CHECK_EQ_U64(cn_scene_depth(b), 100000);
  for (uint32_t i = 0; i < 100000; i++) CHECK_OK(cn_scene_pop(b));
  cn_scene_data d;
  CHECK_OK(cn_scene_end(b, &d));
  CHECK_EQ_U64(d.element_count, 200000);
  CHECK_EQ_U64(cn_scene_max_depth(b), 100000);
  cn_scene_builder_destroy(b);
}

TEST(abandon_after_a_mask_group) {
  /* after a mask group only its masked group may follow: pop is refused, so
   * the way out of a failure there is cn_scene_abandon */
  cn_scene_builder *b;
  CHECK_OK(cn_scene_builder_create(&b));
  CHECK_OK(cn_scene_begin(b, 0, 0, 4, 4));
  CHECK_OK(cn_scene_push_blend(b, CN_BLEND_NORMAL, 1, CN_BLEND_ISOLATED));
  CHECK_OK(cn_scene_push_blend(b, CN_BLEND_NORMAL, 1, CN_BLEND_ISOLATED | CN_BLEND_MASK_ALPHA));
  CHECK_OK(cn_scene_pop(b));
  CHECK(cn_scene_pop(b) == CN_ERROR_STATE);
  CHECK_STR_CONTAINS(cn_last_error(), "a mask group must be followed at once by a masked group");
  CHECK_EQ_U64(cn_scene_depth(b), 1);
  cn_scene_abandon(b);
  CHECK_EQ_U64(cn_scene_depth(b), 0);
  cn_scene_data d;
  CHECK(cn_scene_end(b, &d) == CN_ERROR_STATE); /* no scene any more */
  CHECK_OK(cn_scene_begin(b, 0, 0, 4, 4));
  CHECK_OK(cn_scene_end(b, &d));
  CHECK_EQ_U64(d.element_count, 0);
  cn_scene_builder_destroy(b);
}

TEST_MAIN(T(triangle_fill_encoding), T(curves_and_path_index_in_info), T(fill_of_open_path_gets_closed_twin),
          T(groups_gradients_dashes), T(misuse_returns_errors), T(depth_and_size_limits), T(abandon_after_a_mask_group))
