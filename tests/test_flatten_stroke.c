/* test_flatten_stroke.c: stroke outlines of the flatten stage: exact shapes
 * for simple strokes (rectangles, joins, caps, dots, dashes), an independent
 * oracle for round joins and caps (a point is inside iff it is within half
 * the width of the exact centre line), and GPU against the CPU reference on
 * random and adversarial strokes. */
#include "flatten_util.h"

#include <canopy/cn_render.h>
#include <canopy/cn_scene_gpu.h>
#include <canopy/cn_svg.h>

#include "internal.h" /* cn__flatten_cpu_split */

typedef struct stroke_run {
  cn_line *l;
  uint32_t n;
} stroke_run;

/* GPU run, checked against the CPU reference, closure and orientation. */
static stroke_run run_checked(const fu_scene *s, const cn_flatten_desc *desc) {
  stroke_run out = {NULL, 0};
  cn_context *ctx = test_context();
  if (!ctx) return out;
  cn_scene_data d = fu_data(s);
  cn_line *c = NULL;
  uint32_t nc = 0;
  CHECK_OK(cn_flatten_run(ctx, &d, desc, &out.l, &out.n, NULL, NULL));
  CHECK_OK(cn_flatten_cpu(&d, desc, &c, &nc, NULL));
  CHECK(fu_closed(out.l, out.n));
  CHECK(fu_closed(c, nc));
  float box[4] = {INFINITY, INFINITY, -INFINITY, -INFINITY};
  for (uint32_t i = 0; i < nc; i++) {
    box[0] = fminf(box[0], fminf(c[i].x0, c[i].x1));
    box[1] = fminf(box[1], fminf(c[i].y0, c[i].y1));
    box[2] = fmaxf(box[2], fmaxf(c[i].x0, c[i].x1));
    box[3] = fmaxf(box[3], fmaxf(c[i].y0, c[i].y1));
  }
  if (nc) fu_compare(out.l, out.n, c, nc, s->ne, box, 0.02, 200);
  /* every piece winds the same way: no point of a stroke has a winding of the other sign */
  for (uint32_t e = 0; e < s->ne; e++) {
    int pos = 0, neg = 0;
    for (int k = 0; k < 300 && nc; k++) {
      double x = box[0] + (box[2] - box[0]) * (double)test_rand_below(100000) / 1e5;
      double y = box[1] + (box[3] - box[1]) * (double)test_rand_below(100000) / 1e5;
      int w = fu_winding(out.l, out.n, e, x, y);
      pos += w > 0;
      neg += w < 0;
    }
    if (s->elements[e].tag == CN_TAG_STROKE && pos && neg) {
      fprintf(stderr, "  element %u: windings of both signs (%d positive, %d negative samples)\n", e, pos, neg);
      CHECK(0);
    }
  }
  free(c);
  return out;
}

static bool inside(stroke_run r, uint32_t e, double x, double y) { return fu_winding(r.l, r.n, e, x, y) != 0; }

static fu_scene *new_scene(void) {
  fu_scene *s = calloc(1, sizeof *s);
  fu_init(s);
  return s;
}

TEST(stroke_line_butt_is_rectangle) {
  fu_scene *s = new_scene();
  fu_path(s, 0);
  fu_move(s, 10, 10);
  fu_line(s, 30, 10);
  fu_end(s, false);
  fu_stroke(s, 4, CN_JOIN_MITER, CN_CAP_BUTT, 4, NULL, 0, 0);
  stroke_run r = run_checked(s, NULL);
  CHECK_EQ_U64(r.n, 4);
  for (uint32_t i = 0; i < r.n; i++) {
    CHECK(r.l[i].x0 == 10 || r.l[i].x0 == 30);
    CHECK(r.l[i].y0 == 8 || r.l[i].y0 == 12);
    CHECK(r.l[i].x0 == r.l[i].x1 || r.l[i].y0 == r.l[i].y1);
  }
  CHECK(inside(r, 0, 20, 10) && inside(r, 0, 10.01, 8.01) && inside(r, 0, 29.99, 11.99));
  CHECK(!inside(r, 0, 9.99, 10) && !inside(r, 0, 30.01, 10) && !inside(r, 0, 20, 12.01) && !inside(r, 0, 20, 7.99));
  free(r.l);
  free(s);
}

/* A straight polyline: consecutive segments with the same direction (the
 * same bits) meet without a join, so three segments with butt caps are
 * exactly their six sides and two caps, in every join style. The test of a
 * straight vertex is exact; a cross product contracted to a fused multiply-add
 * is the rounding error of a product, not 0 (the H200 drew a join at every
 * such vertex), hence the precise in fl_join_at. */
TEST(stroke_straight_vertices_no_joins) {
  for (uint32_t join = CN_JOIN_MITER; join <= CN_JOIN_MITER_CLIP; join++) {
    fu_scene *s = new_scene();
    fu_path(s, fu_transform(s, 1.1f, 0.3f, -0.2f, 0.9f, 3, 4));
    fu_move(s, 0, 0);
    fu_line(s, 7.5f, 3.125f); /* equal steps, exact in binary: the same direction each time */
    fu_line(s, 15, 6.25f);
    fu_line(s, 22.5f, 9.375f);
    fu_end(s, false);
    fu_stroke(s, 2, join, CN_CAP_BUTT, 4, NULL, 0, 0);
    stroke_run r = run_checked(s, NULL);
    CHECK_EQ_U64(r.n, 8);
    free(r.l);
    free(s);
  }
}

/* Right-angle corner (0,0) -> (10,0) -> (10,10), width 2: the four joins. */
static stroke_run corner(uint32_t join, float limit, uint32_t cap) {
  fu_scene *s = new_scene();
  fu_path(s, 0);
  fu_move(s, 0, 0);
  fu_line(s, 10, 0);
  fu_line(s, 10, 10);
  fu_end(s, false);
  fu_stroke(s, 2, join, cap, limit, NULL, 0, 0);
  stroke_run r = run_checked(s, NULL);
  free(s);
  return r;
}

TEST(stroke_joins) {
  /* the outer corner is at (11, -1); the bevel cuts it along x - y = 11 (0.707 from the corner point) */
  stroke_run m = corner(CN_JOIN_MITER, 4, CN_CAP_BUTT);
  CHECK(inside(m, 0, 10.95, -0.95) && inside(m, 0, 5, 0) && inside(m, 0, 10, 5) && !inside(m, 0, 11.05, -0.5));
  CHECK(!inside(m, 0, -0.05, 0) && !inside(m, 0, 10, 10.05)); /* butt ends */
  stroke_run b = corner(CN_JOIN_BEVEL, 4, CN_CAP_BUTT);
  CHECK(!inside(b, 0, 10.9, -0.9) && inside(b, 0, 10.45, -0.45) && inside(b, 0, 10.9, -0.05));
  stroke_run o = corner(CN_JOIN_ROUND, 4, CN_CAP_BUTT);
  CHECK(inside(o, 0, 10.69, -0.69) && !inside(o, 0, 10.73, -0.73) && !inside(o, 0, 10.9, -0.9));
  /* ratio sqrt(2) > 1.2: miter falls back to bevel; miter-clip cuts at 1.2 from the corner point */
  stroke_run mb = corner(CN_JOIN_MITER, 1.2f, CN_CAP_BUTT);
  CHECK(!inside(mb, 0, 10.9, -0.9) && inside(mb, 0, 10.45, -0.45) && !inside(mb, 0, 10.6, -0.6));
  stroke_run mc = corner(CN_JOIN_MITER_CLIP, 1.2f, CN_CAP_BUTT);
  CHECK(inside(mc, 0, 10.8, -0.8) && !inside(mc, 0, 10.9, -0.9) && inside(mc, 0, 10.98, -0.6));
  /* ratio sqrt(2) <= 1.5: a full miter for both */
  stroke_run mc2 = corner(CN_JOIN_MITER_CLIP, 1.5f, CN_CAP_BUTT);
  CHECK(inside(mc2, 0, 10.95, -0.95));
  stroke_run sq = corner(CN_JOIN_MITER, 4, CN_CAP_SQUARE);
  CHECK(inside(sq, 0, -0.95, 0.95) && !inside(sq, 0, -1.05, 0) && inside(sq, 0, 10.95, 10.95) &&
        !inside(sq, 0, 10, 11.05));
  stroke_run rc = corner(CN_JOIN_MITER, 4, CN_CAP_ROUND);
  CHECK(inside(rc, 0, -0.69, 0.69) && !inside(rc, 0, -0.73, 0.73) && inside(rc, 0, -0.99, 0) &&
        inside(rc, 0, 10, 10.99));
  stroke_run all[] = {m, b, o, mb, mc, mc2, sq, rc};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) free(all[i].l);
}

/* A reversal (0,0) -> (10,0) -> (0,0): a miter would be infinite, so bevel
 * (nothing beyond x = 10); a round join is a half disc. */
TEST(stroke_reversal_and_degenerate) {
  for (int round = 0; round < 2; round++) {
    fu_scene *s = new_scene();
    fu_path(s, 0);
    fu_move(s, 0, 0);
    fu_line(s, 10, 0);
    fu_line(s, 10, 0); /* zero length: ignored for joins */
    fu_line(s, 0, 0);
    fu_end(s, false);
    fu_stroke(s, 2, round ? CN_JOIN_ROUND : CN_JOIN_MITER, CN_CAP_BUTT, 10, NULL, 0, 0);
    stroke_run r = run_checked(s, NULL);
    CHECK(inside(r, 0, 9.9, 0.9) && inside(r, 0, 5, -0.9));
    CHECK(round ? inside(r, 0, 10.95, 0) : !inside(r, 0, 10.05, 0));
    CHECK(!inside(r, 0, 11.05, 0) && !inside(r, 0, -0.05, 0));
    free(r.l);
    free(s);
  }
}

/* Zero-length subpaths: a disc, an axis-aligned square, or nothing. */
TEST(stroke_zero_length_subpaths) {
  const uint32_t caps[3] = {CN_CAP_ROUND, CN_CAP_SQUARE, CN_CAP_BUTT};
  for (int c = 0; c < 3; c++) {
    fu_scene *s = new_scene();
    fu_path(s, fu_transform(s, 0.8f, 0.6f, -0.6f, 0.8f, 50, 50)); /* rotated: the square turns with it */
    fu_move(s, 10, 10);
    fu_line(s, 10, 10);
    fu_end(s, false);
    fu_move(s, 20, 10);
    fu_line(s, 20, 10);
    fu_line(s, 20, 10);
    fu_end(s, true);
    fu_stroke(s, 6, CN_JOIN_MITER, caps[c], 4, NULL, 0, 0);
    stroke_run r = run_checked(s, NULL);
    for (int k = 0; k < 2; k++) {
      double lx = k ? 20 : 10, ly = 10;
#define DEV(x, y) 0.8 * (x) - 0.6 * (y) + 50, 0.6 * (x) + 0.8 * (y) + 50
      if (c == 2) {
        CHECK_EQ_U64(r.n, 0);
      } else {
        CHECK(inside(r, 0, DEV(lx, ly)));
        CHECK(inside(r, 0, DEV(lx + 2.9, ly)) && !inside(r, 0, DEV(lx + 3.1, ly)));
        CHECK(inside(r, 0, DEV(lx - 2.9, ly)) && !inside(r, 0, DEV(lx - 3.1, ly)));
        CHECK(inside(r, 0, DEV(lx, ly + 2.9)) && !inside(r, 0, DEV(lx, ly - 3.1)));
        CHECK(inside(r, 0, DEV(lx + 2.8, ly + 2.8)) == (c == 1)); /* the square's corner */
      }
#undef DEV
    }
    free(r.l);
    free(s);
  }
}

/* The width is in local units: scale (4, 1) makes a horizontal line's caps 4x
 * longer and a vertical line 4x wider. */
TEST(stroke_non_uniform_transform) {
  fu_scene *s = new_scene();
  fu_path(s, fu_transform(s, 4, 0, 0, 1, 0, 0));
  fu_move(s, 0, 0);
  fu_line(s, 10, 0);
  fu_end(s, false);
  fu_move(s, 20, 0);
  fu_line(s, 20, 10);
  fu_end(s, false);
  fu_stroke(s, 2, CN_JOIN_MITER, CN_CAP_SQUARE, 4, NULL, 0, 0);
  stroke_run r = run_checked(s, NULL);
  CHECK(inside(r, 0, -3.9, 0.9) && !inside(r, 0, -4.1, 0) && !inside(r, 0, 0, 1.1) && inside(r, 0, 43.9, -0.9));
  CHECK(inside(r, 0, 76.1, 5) && inside(r, 0, 83.9, 5) && !inside(r, 0, 75.9, 5) && !inside(r, 0, 84.1, 5));
  CHECK(inside(r, 0, 80, -0.9) && !inside(r, 0, 80, -1.1) && inside(r, 0, 80, 10.9));
  free(r.l);
  free(s);
}

/* Round joins and caps: the stroke is the set of points within h of the
 * centre line (a Minkowski sum), checked point by point against the exact
 * curves, for random paths, widths and similarity transforms. */
static void oracle_check(float width, float scale, uint64_t seed, int segs, bool wild, bool mirror) {
  test_seed(seed);
  fu_scene *s = new_scene();
  float rot = (float)test_rand_below(628) / 100;
  float fx = mirror ? -1.0f : 1.0f; /* a mirroring transform flips every piece's winding alike */
  fu_path(s, fu_transform(s, fx * scale * cosf(rot), fx * scale * sinf(rot), -scale * sinf(rot), scale * cosf(rot), 20, 30));
  float range = wild ? 40 : 100;
  fu_move(s, (float)test_rand_below(100) * range / 100, (float)test_rand_below(100) * range / 100);
  for (int k = 0; k < segs; k++) {
#define RC ((float)test_rand_below(1000) * range / 1000)
    switch (test_rand_below(3)) {
      case 0: fu_line(s, RC, RC); break;
      case 1: fu_quad(s, RC, RC, RC, RC); break;
      default: fu_cubic(s, RC, RC, RC, RC, RC, RC); break;
    }
#undef RC
  }
  bool closed = test_rand_below(2);
  fu_end(s, closed);
  fu_stroke(s, width, CN_JOIN_ROUND, CN_CAP_ROUND, 4, NULL, 0, 0);
  cn_flatten_desc desc = {.tolerance = 0.2f};
  stroke_run r = run_checked(s, &desc);
  const cn_transform *t = &s->transforms[1];
  double h = width / 2, margin = 0.2 / scale + 1e-3 * (1 + h);
  int bad = 0;
  for (int k = 0; k < 400; k++) {
    double lx = -h - 5 + (range + 2 * h + 10) * (double)test_rand_below(100000) / 1e5;
    double ly = -h - 5 + (range + 2 * h + 10) * (double)test_rand_below(100000) / 1e5;
    double dist = fu_curve_dist(s, 0, lx, ly);
    if (fabs(dist - h) < margin) continue;
    double dx = t->a * lx + t->c * ly + t->e, dy = t->b * lx + t->d * ly + t->f;
    bool in = inside(r, 0, dx, dy);
    if (in != (dist < h) && bad++ < 3)
      fprintf(stderr, "  seed %llu width %g: local (%g, %g) at %g from the centre line (h %g) is %s\n",
              (unsigned long long)seed, width, lx, ly, dist, h, in ? "inside" : "outside");
  }
  CHECK(bad == 0);
  free(r.l);
  free(s);
}

TEST(stroke_round_oracle) {
  for (int i = 0; i < 6; i++)
    oracle_check(1 + (float)i * 3, 1 + (float)(i % 3), 100 + (uint64_t)i, 3 + i % 4, false, i == 4);
  /* very wide pens on small, tight curves (cusps, loops) */
  for (int i = 0; i < 4; i++) oracle_check(30 + (float)i * 20, 0.5f, 200 + (uint64_t)i, 4, true, i == 1);
}

/* The inner side of a join between two chords of one curve may cut straight
 * across only when that triangle stays inside both chords' quads. Two-chord
 * curves (a coarse tolerance), butt caps, wide pens, turns from 20 to 170
 * degrees: no point may wind the other way. */
TEST(stroke_inner_join_safety) {
  for (int k = 0; k < 9; k++) {
    fu_scene *s = new_scene();
    fu_path(s, 0);
    float alpha = (float)(5 + 10 * k) * 3.14159265f / 180; /* turn 2 alpha = 10 .. 170 degrees */
    float apx = 10 * cosf(alpha), apy = 10 * sinf(alpha), ex = 20 * cosf(alpha);
    fu_move(s, 0, 0);
    fu_quad(s, (4 * apx - ex) / 2, 2 * apy, ex, 0); /* B(1/2) = the apex: chords of length 10 */
    fu_end(s, false);
    fu_stroke(s, 80, CN_JOIN_ROUND, CN_CAP_BUTT, 4, NULL, 0, 0);
    /* n = 2: tol_local = tol / 2 >= |p0 - 2 p1 + p2| / 16 = 40 sin(alpha) / 16 */
    cn_flatten_desc desc = {.tolerance = 5 * sinf(alpha) * 1.001f};
    stroke_run r = run_checked(s, &desc);
    int neg = 0, pos = 0;
    for (int i = 0; i < 200; i++)
      for (int j = 0; j < 200; j++) {
        int w = fu_winding(r.l, r.n, 0, -50 + 0.6 * i + 0.041, -50 + 0.6 * j + 0.037);
        neg += w < 0;
        pos += w > 0;
      }
    if (neg && pos)
      fprintf(stderr, "  turn %d degrees: %d samples wind one way, %d the other\n", 10 + 20 * k, pos, neg);
    CHECK(neg == 0 || pos == 0);
    free(r.l);
    free(s);
  }
}

/* Dashes along a 100-unit line: [10, 5] gives dashes at [0,10], [15,25], ... [90,100]. */
TEST(stroke_dashes_line) {
  for (int variant = 0; variant < 3; variant++) {
    fu_scene *s = new_scene();
    fu_path(s, 0);
    fu_move(s, 0, 0);
    fu_line(s, 60, 0);
    fu_line(s, 100, 0); /* a vertex inside a dash: no seam, no extra caps */
    fu_end(s, false);
    float dash[2] = {10, 5};
    float off = variant == 1 ? 5 : variant == 2 ? -20 : 0; /* -20 == 10 mod 15 */
    fu_stroke(s, 2, CN_JOIN_MITER, CN_CAP_BUTT, 4, dash, 2, off);
    stroke_run r = run_checked(s, NULL);
    int runs = 0;
    bool prev = false;
    for (double x = 0.25; x < 100; x += 0.5) {
      bool in = inside(r, 0, x, 0.5);
      double ph = fmod(x + (variant == 1 ? 5 : variant == 2 ? 10 : 0), 15);
      CHECK(in == (ph < 10));
      runs += in && !prev;
      prev = in;
    }
    CHECK_EQ_U64(runs, variant == 0 ? 7 : 7);
    if (variant == 0) CHECK_EQ_U64(r.n, 7 * 4); /* 7 rectangles: the dash [60, 70] starts at the vertex */
    free(r.l);
    free(s);
  }
}

/* Zero-length dashes with round caps draw dots; with butt caps nothing. */
TEST(stroke_dashes_zero_length) {
  for (int c = 0; c < 2; c++) {
    fu_scene *s = new_scene();
    fu_path(s, 0);
    fu_move(s, 0, 0);
    fu_line(s, 100, 0);
    fu_end(s, false);
    float dash[2] = {0, 10};
    fu_stroke(s, 4, CN_JOIN_MITER, c ? CN_CAP_BUTT : CN_CAP_ROUND, 4, dash, 2, 0);
    stroke_run r = run_checked(s, NULL);
    if (c) CHECK_EQ_U64(r.n, 0);
    else {
      for (int k = 0; k < 10; k++) {
        CHECK(inside(r, 0, 10.0 * k + 1.9, 0) && inside(r, 0, 10.0 * k - 1.9, 0.1));
        CHECK(!inside(r, 0, 10.0 * k + 2.1, 0) && !inside(r, 0, 10.0 * k + 5, 0));
      }
      CHECK(!inside(r, 0, 99.5, 0)); /* a dash starting at the very end is not drawn */
    }
    free(r.l);
    free(s);
  }
}

/* A dash over a corner is joined; a closed square whose pattern is on at both
 * its start and end joins them across the start. */
TEST(stroke_dashes_joins_and_closed) {
  fu_scene *s = new_scene();
  fu_path(s, 0);
  fu_move(s, 0, 0);
  fu_line(s, 10, 0);
  fu_line(s, 10, 10);
  fu_end(s, false);
  float d1[2] = {15, 100};
  fu_stroke(s, 2, CN_JOIN_MITER, CN_CAP_BUTT, 4, d1, 2, 0);
  fu_path(s, 0);
  fu_move(s, 50, 0);
  fu_line(s, 90, 0);
  fu_line(s, 90, 40);
  fu_line(s, 50, 40);
  fu_end(s, true); /* perimeter 160 */
  float d2[2] = {30, 10};
  fu_stroke(s, 2, CN_JOIN_MITER, CN_CAP_BUTT, 4, d2, 2, 0); /* dashes [0,30] ... [120,150]; off at the end */
  fu_path(s, 0);
  fu_move(s, 50, 60);
  fu_line(s, 90, 60);
  fu_line(s, 90, 100);
  fu_line(s, 50, 100);
  fu_end(s, true);
  float d3[2] = {30, 10};
  fu_stroke(s, 2, CN_JOIN_MITER, CN_CAP_BUTT, 4, d3, 2, 15); /* on at 0 and at 160: joined at (50, 60) */
  stroke_run r = run_checked(s, NULL);
  CHECK(inside(r, 0, 10.95, -0.95) && inside(r, 0, 10, 4.9) && !inside(r, 0, 10, 5.1));
  CHECK(!inside(r, 1, 49.05, -0.95) && inside(r, 1, 50.5, 0)); /* cap at the start, no join */
  CHECK(inside(r, 2, 49.05, 59.05));                           /* mitered across the start */
  /* on for s + 15 mod 40 < 30; the left side runs s = 120 (y = 100) .. 160 (y = 60) */
  CHECK(inside(r, 2, 50, 74.5) && !inside(r, 2, 50, 75.5) && !inside(r, 2, 50, 84.5) && inside(r, 2, 50, 85.5));
  free(r.l);
  free(s);
}

/* Random paths of lines, quads, cubics and degenerate segments, 1-2 subpaths
 * each, under random transforms; stroked with every join, cap and dash kind,
 * or (with fills, one in four) filled with either rule. */
static void random_strokes(fu_scene *s, int paths, bool fills) {
  const float pat[4] = {7, 3, 0, 4};
  for (int p = 0; p < paths; p++) {
    float a = 0.3f + (float)test_rand_below(100) / 50, b = ((float)test_rand_below(100) - 50) / 60;
    fu_path(s, fu_transform(s, a, b, -b * 0.5f, a * 0.8f, (float)test_rand_below(40), (float)test_rand_below(40)));
    for (int sp = 0; sp < 1 + (int)test_rand_below(2); sp++) {
      fu_move(s, (float)test_rand_below(100), (float)test_rand_below(100));
      int segs = 1 + (int)test_rand_below(5);
      for (int k = 0; k < segs; k++) {
#define RC ((float)test_rand_below(100))
        switch (test_rand_below(5)) {
          case 0: fu_line(s, RC, RC); break;
          case 1: fu_quad(s, RC, RC, RC, RC); break;
          case 2: fu_line(s, s->cx, s->cy); break; /* degenerate */
          default: fu_cubic(s, RC, RC, RC, RC, RC, RC); break;
        }
#undef RC
      }
      fu_end(s, test_rand_below(2));
    }
    if (fills && test_rand_below(4) == 0) {
      fu_fill(s, test_rand_below(2) ? CN_RULE_EVENODD : CN_RULE_NONZERO);
      continue;
    }
    uint32_t nd = (uint32_t)test_rand_below(3);
    fu_stroke(s, 0.5f + (float)test_rand_below(200) / 10, (uint32_t)test_rand_below(4), (uint32_t)test_rand_below(3),
              1 + (float)test_rand_below(60) / 10, pat + (p % 2) * 2, nd == 2 ? 2 : nd == 1 ? 1 : 0,
              (float)test_rand_below(20) - 5);
  }
}

/* Random strokes of every join, cap and dash kind: GPU against CPU, closed
 * outlines, one orientation. */
TEST(stroke_random_gpu_vs_cpu) {
  fu_scene *s = new_scene();
  random_strokes(s, 24, false);
  stroke_run r = run_checked(s, NULL);
  CHECK(r.n > 500);
  free(r.l);
  free(s);
}

/* A stroke segment is walked as CN_FL_STROKE_SPLIT chunks of its chords, each
 * restoring the walk's state at its first chord: the CPU reference with any
 * split gives the lines of the unsplit walk, bit for bit, element by element
 * (random strokes of every kind, at two zooms, plus curves whose first or
 * last chords collapse to one point, so chunks start and end in runs of
 * degenerate chords). */
TEST(stroke_split_same_lines) {
  fu_scene *s = new_scene();
  random_strokes(s, 40, true);
  for (int i = 0; i < 12; i++) { /* degenerate chords at the start, the end, both */
    float x = 20.0f + 5.0f * (float)i, y = 30.0f + 3.0f * (float)(i % 5);
    fu_path(s, 0);
    fu_move(s, x, y);
    if (i % 3 == 0) fu_cubic(s, x, y, x, y, x + 0.002f, y + 40.0f);
    else if (i % 3 == 1) fu_cubic(s, x + 30.0f, y - 20.0f, x + 40.0f, y, x + 40.0f, y);
    else fu_cubic(s, x, y, x + 40.0f, y, x + 40.0f, y);
    fu_line(s, x + 10.0f, y + 50.0f);
    fu_end(s, i % 2 == 0);
    fu_stroke(s, 1.0f + (float)i, (uint32_t)i % 4, (uint32_t)i % 3, 4, NULL, 0, 0);
  }
  cn_scene_data d = fu_data(s);
  const float zooms[2] = {1, 9};
  for (int z = 0; z < 2; z++) {
    cn_flatten_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.view[0] = desc.view[3] = zooms[z];
    cn_line *ref = NULL;
    uint32_t nref = 0;
    cn_flatten_elem *eref = calloc(s->ne, sizeof *eref), *e = calloc(s->ne, sizeof *e);
    CHECK_OK(cn__flatten_cpu_split(&d, &desc, 1, &ref, &nref, eref));
    CHECK(nref > (z ? 20000u : 3000u));
    const uint32_t splits[6] = {2, 3, 5, CN_FL_STROKE_SPLIT, 13, 64};
    for (int k = 0; k < 6; k++) {
      cn_line *l = NULL;
      uint32_t n = 0;
      CHECK_OK(cn__flatten_cpu_split(&d, &desc, splits[k], &l, &n, e));
      bool same = n == nref && memcmp(l, ref, (size_t)n * sizeof *l) == 0 && memcmp(e, eref, s->ne * sizeof *e) == 0;
      if (!same) fprintf(stderr, "  zoom %g, split %u: %u lines against %u unsplit\n", zooms[z], splits[k], n, nref);
      CHECK(same);
      free(l);
    }
    free(ref);
    free(eref);
    free(e);
  }
  free(s);
}

/* A whole-scene frame of the renderer flattens inside its own command buffer:
 * the subpath links start before the scene stage, flatten culls elements whose
 * result box is empty, and render_tile_alloc runs flatten's last pass
 * (cn_flatten_args.caller_finish). Its lines and element records must equal
 * cn_flatten_run's (links, setup and finish in flatten's own passes) bit for
 * bit, element by element; an element the frame culled has only degenerate
 * lines in the standalone run. initial_lines 1: the first frame overflows. */
static void frame_vs_standalone(cn_renderer *r, const fu_scene *s, bool expect_rerun, uint32_t min_lines) {
  cn_context *ctx = test_context();
  cn_scene_data d = fu_data(s);
  const float view[6] = {1, 0.125f, -0.25f, 1.5f, 100, 60};
  cn_flatten_desc fd;
  memset(&fd, 0, sizeof fd);
  memcpy(fd.view, view, sizeof view);
  cn_line *fl = NULL;
  uint32_t fn = 0;
  cn_flatten_elem *fe = calloc(s->ne + 1, sizeof *fe), *re = calloc(s->ne + 1, sizeof *re);
  CHECK_OK(cn_flatten_run(ctx, &d, &fd, &fl, &fn, fe, NULL));
  cn_render_view v = {.width = 640, .height = 640};
  memcpy(v.transform, view, sizeof view);
  uint8_t *px = malloc((size_t)v.width * v.height * 4);
  cn_line *rl = NULL;
  if (r && px && fe && re && cn_render_scene_to_rgba8(r, &d, &v, px) == CN_OK) {
    cn_render_stats st;
    cn_renderer_stats(r, &st);
    if (expect_rerun) CHECK(st.reruns >= 1);
    cn_scene_gpu_outputs o;
    cn_scene_gpu_outputs_get(cn_renderer_scene_gpu(r), &o);
    uint32_t rn = st.lines;
    CHECK(rn <= fn && fn >= min_lines);
    rl = malloc((size_t)(rn ? rn : 1) * sizeof *rl);
    if (rn) CHECK_OK(cn_buffer_download(ctx, o.lines_buffer, 0, rl, (size_t)rn * sizeof *rl));
    if (s->ne) CHECK_OK(cn_buffer_download(ctx, o.line_elems_buffer, 0, re, (size_t)s->ne * sizeof *re));
    uint32_t culled = 0, bad = 0, sum = 0;
    for (uint32_t e = 0; e < s->ne; e++) {
      const cn_flatten_elem *a = &fe[e], *b = &re[e];
      sum += b->line_count;
      if (b->line_count == 0 && a->line_count != 0) { /* culled: nothing of it can cover a pixel */
        culled++;
        if (!(a->x0 == a->x1 || a->y0 == a->y1) && bad++ < 5)
          fprintf(stderr, "  element %u: culled in the frame, box %g %g %g %g standalone\n", e, a->x0, a->y0, a->x1,
                  a->y1);
        continue;
      }
      bool same = a->line_count == b->line_count && b->line_first + b->line_count <= rn &&
                  memcmp(&a->x0, &b->x0, sizeof *a - offsetof(cn_flatten_elem, x0)) == 0 &&
                  (a->line_count == 0 ||
                   memcmp(fl + a->line_first, rl + b->line_first, (size_t)a->line_count * sizeof *fl) == 0);
      if (!same && bad++ < 5)
        fprintf(stderr, "  element %u: %u lines at %u, box %g %g %g %g standalone; %u at %u, box %g %g %g %g in the frame\n",
                e, a->line_count, a->line_first, a->x0, a->y0, a->x1, a->y1, b->line_count, b->line_first, b->x0, b->y0,
                b->x1, b->y1);
    }
    CHECK(bad == 0);
    CHECK(sum == rn);
    CHECK(culled == 0 || rn < fn);
  } else {
    test_failures++;
  }
  free(rl);
  free(px);
  free(fl);
  free(fe);
  free(re);
}

static void check_scene_frame(const fu_scene *s, uint32_t initial_lines, uint32_t min_lines) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  cn_renderer *r = NULL;
  CHECK_OK(cn_renderer_create(ctx, &(cn_renderer_desc){.initial_lines = initial_lines}, &r));
  if (r) frame_vs_standalone(r, s, initial_lines == 1, min_lines);
  cn_renderer_destroy(r);
}

/* The subpath links are computed by a scene's first frame and kept by the
 * frames after it: frames of one renderer over a scene, then over another
 * scene with the same counts (elements, paths, segments) whose subpaths
 * break at other segments (so kept links would join the wrong segments),
 * then back, each against the standalone stage. */
TEST(scene_frame_links_kept) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  fu_scene *a = new_scene(), *b = new_scene();
  for (int k = 0; k < 2; k++) {
    fu_scene *s = k ? b : a;
    fu_path(s, 0);
    for (int sp = 0; sp < 2; sp++) {
      fu_move(s, 10 + 200 * sp, 10);
      int lines = k ? (sp ? 6 : 2) : 4;
      for (int i = 0; i < lines; i++) fu_line(s, 10 + 200 * sp + 30 * (i % 3), 20 + 25 * i);
      fu_end(s, k == sp);
    }
    fu_stroke(s, 6, CN_JOIN_ROUND, CN_CAP_SQUARE, 4, NULL, 0, 0);
  }
  cn_scene_data da = fu_data(a), db = fu_data(b);
  CHECK_EQ_U64(da.segment_count, db.segment_count);
  CHECK_EQ_U64(da.element_count, db.element_count);
  cn_renderer *r = NULL;
  CHECK_OK(cn_renderer_create(ctx, NULL, &r));
  if (r) {
    frame_vs_standalone(r, a, false, 8);
    frame_vs_standalone(r, a, false, 8);
    frame_vs_standalone(r, b, false, 8);
    frame_vs_standalone(r, b, false, 8);
    frame_vs_standalone(r, a, false, 8);
  }
  cn_renderer_destroy(r);
  free(a);
  free(b);
}

/* One frame of r at view v (re-run while buffers grow): pixels, lines, and
 * whether flatten's first passes ran beside the scene stage. */
static void frame_run(cn_renderer *r, const cn_render_view *v, uint8_t *px, cn_line **lines, uint32_t *nl,
                      bool *overlapped) {
  cn_context *ctx = test_context();
  *lines = NULL;
  *nl = 0;
  *overlapped = false;
  for (int attempt = 0; attempt < 4; attempt++) {
    VkCommandBuffer cmd;
    CHECK_OK(cn_cmd_begin(ctx, &cmd));
    CHECK_OK(cn_renderer_record_scene(r, cmd, v));
    CHECK_OK(cn_cmd_submit(ctx, cmd));
    bool again = false;
    CHECK_OK(cn_renderer_frame_done(r, &again));
    if (!again) break;
  }
  CHECK_OK(cn_buffer_download(ctx, cn_renderer_output(r), 0, px, (size_t)v->width * v->height * 4));
  cn_scene_gpu *g = cn_renderer_scene_gpu(r);
  cn_scene_gpu_counts c;
  cn_scene_gpu_counts_get(g, &c);
  cn_scene_gpu_outputs o;
  cn_scene_gpu_outputs_get(g, &o);
  *overlapped = c.flatten_overlapped;
  *nl = c.lines;
  *lines = malloc((size_t)(c.lines ? c.lines : 1) * sizeof **lines);
  if (*lines && c.lines) CHECK_OK(cn_buffer_download(ctx, o.lines_buffer, 0, *lines, (size_t)c.lines * sizeof **lines));
}

/* Frames of one renderer at one view: the first culls and finds nothing to
 * cull, so the next runs flatten's first passes beside the scene stage's
 * (cn_scene_gpu_counts.flatten_overlapped) and draws the same lines and
 * pixels; a new view culls first again; with an element outside the target
 * the frames overlap too (the same pixels, more lines); with most of the
 * scene outside, every frame culls. */
TEST(scene_frame_overlap) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  fu_scene *s = new_scene();
  random_strokes(s, 30, true);
  cn_scene_data d = fu_data(s);
  cn_renderer *r = NULL;
  CHECK_OK(cn_renderer_create(ctx, NULL, &r));
  cn_render_view v = {.width = 640, .height = 640, .transform = {1, 0, 0, 1, 40, 40}};
  size_t bytes = (size_t)v.width * v.height * 4;
  uint8_t *p0 = malloc(bytes), *p1 = malloc(bytes);
  if (!r || !p0 || !p1) {
    test_failures++;
  } else {
    CHECK_OK(cn_renderer_set_scene(r, &d));
    for (int pass = 0; pass < 2; pass++) { /* the second at another view */
      if (pass) v.transform[4] = 44;
      cn_line *l0 = NULL, *l1 = NULL, *l2 = NULL;
      uint32_t n0 = 0, n1 = 0, n2 = 0;
      bool o0, o1, o2;
      frame_run(r, &v, p0, &l0, &n0, &o0);
      frame_run(r, &v, p1, &l1, &n1, &o1);
      CHECK((pass == 0 || !o0) && o1); /* the scene's first frame may have re-run, overlapped, to grow */
      CHECK(n0 > 2000 && n0 == n1 && memcmp(l0, l1, (size_t)n0 * sizeof *l0) == 0);
      CHECK(memcmp(p0, p1, bytes) == 0);
      frame_run(r, &v, p1, &l2, &n2, &o2); /* and it stays so */
      CHECK(o2 && n2 == n0 && memcmp(l0, l2, (size_t)n0 * sizeof *l0) == 0 && memcmp(p0, p1, bytes) == 0);
      free(l0);
      free(l1);
      free(l2);
    }
    /* an element outside the target: culled; the renderer's frames overlap
     * all the same (culling saved under 1/16 of the pairs), with its lines
     * and the same pixels */
    fu_path(s, 0);
    fu_move(s, 5000, 5000);
    fu_line(s, 5100, 5050);
    fu_end(s, false);
    fu_stroke(s, 3, CN_JOIN_ROUND, CN_CAP_ROUND, 4, NULL, 0, 0);
    d = fu_data(s);
    CHECK_OK(cn_renderer_set_scene(r, &d));
    cn_line *l0 = NULL, *l1 = NULL;
    uint32_t n0 = 0, n1 = 0;
    bool o0 = true, o1 = false;
    frame_run(r, &v, p0, &l0, &n0, &o0); /* culls (unless it re-ran to grow) */
    frame_run(r, &v, p1, &l1, &n1, &o1);
    CHECK(o1 && (o0 || n1 > n0) && memcmp(p0, p1, bytes) == 0);
    free(l0);
    free(l1);
    /* most of the scene outside the target: culled in every frame */
    for (int k = 0; k < 8; k++) {
      fu_path(s, 0);
      fu_move(s, 5000, 5000 + 40 * (float)k);
      for (int i = 0; i < 60; i++) fu_line(s, 5010 + 3 * (float)i, 5000 + 40 * (float)k + (float)(i % 2));
      fu_end(s, false);
      fu_fill(s, CN_RULE_NONZERO);
    }
    d = fu_data(s);
    CHECK_OK(cn_renderer_set_scene(r, &d));
    for (int k = 0; k < 3; k++) {
      cn_line *l = NULL;
      uint32_t n = 0;
      bool o = true;
      frame_run(r, &v, p1, &l, &n, &o);
      CHECK(!o && n > 2000 && memcmp(p0, p1, bytes) == 0);
      free(l);
    }
  }
  free(p0);
  free(p1);
  cn_renderer_destroy(r);
  free(s);
}

/* Whether the renderer's last frame marked a span of flatten's before the
 * last of binning's (flatten's passes beside binning's). */
static bool flatten_in_bins(cn_renderer *r) {
  uint32_t n = 0;
  const char *labels[64];
  double ns[64];
  if (cn_renderer_stage_times(r, &n, labels, ns, 64) != CN_OK) return false;
  bool flatten = false, in = false;
  for (uint32_t i = 0; i < n; i++) {
    if (strncmp(labels[i], "bins ", 5) == 0) in = flatten;
    flatten = flatten || strncmp(labels[i], "flatten: ", 9) == 0;
  }
  return in;
}

/* A frame that culls runs flatten's passes beside binning's, its write pass
 * beside binning's last (only coarse reads the bins): with binning in one
 * pass (bins_rows) or three (count, scan, fill),
 * with and without flatten's line scan, every frame after the first (whose
 * subpath links are computed in it) draws the same lines and pixels, bit for
 * bit, as a frame at the same view that flattens after the stage
 * (cn_tuning.flatten_no_overlap); its timer shows flatten's spans before
 * binning's last. Each frame is at another view, so that lists left by the
 * frame before would draw another picture. */
TEST(scene_frame_beside_bins) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  fu_scene *s = new_scene();
  random_strokes(s, 30, true);
  for (int k = 0; k < 8; k++) { /* most of the pairs outside the target: every frame culls */
    fu_path(s, 0);
    fu_move(s, 5000, 5000 + 40 * (float)k);
    for (int i = 0; i < 60; i++) fu_line(s, 5010 + 3 * (float)i, 5000 + 40 * (float)k + (float)(i % 2));
    fu_end(s, false);
    fu_fill(s, CN_RULE_NONZERO);
  }
  cn_scene_data d = fu_data(s);
  enum { FRAMES = 3 };
  cn_render_view v = {.width = 640, .height = 640, .transform = {1, 0, 0, 1, 40, 40}};
  size_t bytes = (size_t)v.width * v.height * 4;
  uint8_t *want[FRAMES], *got = malloc(bytes);
  bool ok = got != NULL;
  for (int f = 0; f < FRAMES; f++) ok = (want[f] = malloc(bytes)) != NULL && ok;
  const cn_tuning tunings[3] = {
      {0},
      {.bins_rows_max = CN_SMALL_OFF, .bins_small_max = CN_SMALL_OFF},
      {.bins_rows_max = CN_SMALL_OFF, .bins_small_max = CN_SMALL_OFF, .flatten_write_scan_max = CN_SMALL_OFF}};
  for (int t = 0; t < 3 && ok; t++) {
    cn_line *ref[FRAMES] = {NULL};
    uint32_t nref[FRAMES] = {0};
    for (int beside = 0; beside < 2; beside++) {
      cn_tuning tu = tunings[t];
      tu.flatten_no_overlap = !beside;
      cn_context_set_tuning(ctx, &tu);
      cn_renderer *r = NULL;
      CHECK_OK(cn_renderer_create(ctx, &(cn_renderer_desc){.timing = true}, &r));
      if (!r) break;
      CHECK_OK(cn_renderer_set_scene(r, &d));
      for (int f = 0; f < FRAMES; f++) {
        v.transform[4] = 40 + 13 * (float)f;
        v.transform[5] = 40 - 7 * (float)f;
        cn_line *l = NULL;
        uint32_t n = 0;
        bool o = true;
        frame_run(r, &v, beside ? got : want[f], &l, &n, &o);
        CHECK(!o && n > 2000);
        if (!beside) {
          ref[f] = l;
          nref[f] = n;
          continue;
        }
        bool same = n == nref[f] && ref[f] && memcmp(l, ref[f], (size_t)n * sizeof *l) == 0 &&
                    memcmp(got, want[f], bytes) == 0;
        bool in = flatten_in_bins(r);
        if (!same || (f > 0 && !in))
          fprintf(stderr, "  tuning %d, frame %d: %u lines (want %u), pixels %s, flatten in the bins' spans %d\n", t,
                  f, n, nref[f], memcmp(got, want[f], bytes) ? "differ" : "same", in);
        CHECK(same);
        if (f > 0) CHECK(in); /* (the first frame may have re-run beside, to grow) */
        free(l);
      }
      if (!beside) CHECK(!flatten_in_bins(r));
      cn_renderer_destroy(r);
    }
    for (int f = 0; f < FRAMES; f++) free(ref[f]);
  }
  cn_context_set_tuning(ctx, NULL);
  for (int f = 0; f < FRAMES; f++) free(want[f]);
  free(got);
  free(s);
}

/* n random paths (fills and strokes of lines and curves, a third under a
 * rotation) inside a 320x320 document, as SVG text (free it). */
static char *random_svg(int n) {
  size_t cap = (size_t)n * 200 + 200, len = 0;
  char *t = malloc(cap);
  if (!t) return NULL;
  len += (size_t)snprintf(t + len, cap - len, "<svg xmlns='http://www.w3.org/2000/svg' width='320' height='320'>");
  for (int i = 0; i < n; i++) {
    int x = 20 + (int)test_rand_below(260), y = 20 + (int)test_rand_below(260), w = 2 + (int)test_rand_below(20);
    bool stroke = test_rand_below(3) == 0, curve = test_rand_below(2) == 0;
    len += (size_t)snprintf(t + len, cap - len, "<path d='M%d %d L%d %d %c%d %d %d %d Z'", x, y, x + w, y,
                            curve ? 'Q' : 'L', x + w, y + w, x, y + w / 2);
    if (stroke)
      len += (size_t)snprintf(t + len, cap - len, " fill='none' stroke='#%06x' stroke-width='%d'",
                              (unsigned)test_rand_below(1u << 24), 1 + (int)test_rand_below(4));
    else
      len += (size_t)snprintf(t + len, cap - len, " fill='#%06x'", (unsigned)test_rand_below(1u << 24));
    if (i % 3 == 0) len += (size_t)snprintf(t + len, cap - len, " transform='rotate(%d %d %d)'", (int)test_rand_below(90), x, y);
    len += (size_t)snprintf(t + len, cap - len, "/>");
  }
  snprintf(t + len, cap - len, "</svg>");
  return t;
}

/* Larger scenes in frames that flatten beside the scene stage (on devices
 * with 1024-invocation workgroups): 1100 elements (the element pass and
 * pair-base scan fused, bbox_small of two rows dispatched before the line
 * count beside it, the write pass beside the bins; under a rotation the
 * view's transforms a phase of their own before them) and 2100 under a
 * rotation (the passes apart: the element pass beside the view's
 * transforms, the count beside a bbox_small of three rows, the write pass
 * beside the bins). The overlapped frame's lines and pixels equal those of
 * the culling frame before it. */
TEST(scene_frame_overlap_large) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  const int sizes[2] = {1100, 2100};
  for (int k = 0; k < 2; k++) {
    char *svg = random_svg(sizes[k]);
    cn_scene_builder *b = NULL;
    CHECK_OK(cn_scene_builder_create(&b));
    cn_scene_data d;
    cn_svg_stats st;
    cn_renderer *r = NULL;
    CHECK_OK(cn_renderer_create(ctx, NULL, &r));
    cn_render_view v = {.width = 320, .height = 320};
    size_t bytes = (size_t)v.width * v.height * 4;
    uint8_t *p0 = malloc(bytes), *p1 = malloc(bytes);
    if (!svg || !b || !r || !p0 || !p1 || cn_svg_load_memory(b, svg, strlen(svg), NULL, &d, &st) != CN_OK) {
      test_failures++;
    } else {
      CHECK_EQ_U64(d.element_count, (uint64_t)sizes[k]);
      CHECK_OK(cn_renderer_set_scene(r, &d));
      /* a first frame at another view sizes the buffers: each view's first frame below culls */
      const float views[3][6] = {{1, 0, 0, 1, 3, 0}, {1, 0, 0, 1, 0, 0}, {0.8f, 0.12f, -0.12f, 0.8f, 45, 5}};
      for (int pass = 0; pass < 3; pass++) {
        if (k == 1 && pass == 1) continue; /* 2100 elements: the rotation only */
        memcpy(v.transform, views[pass], sizeof views[pass]);
        cn_line *l0 = NULL, *l1 = NULL;
        uint32_t n0 = 0, n1 = 0;
        bool o0, o1;
        frame_run(r, &v, p0, &l0, &n0, &o0);
        frame_run(r, &v, p1, &l1, &n1, &o1);
        CHECK((pass == 0 || !o0) && o1);
        CHECK(n0 > 4000 && n0 == n1 && l0 && l1 && memcmp(l0, l1, (size_t)n0 * sizeof *l0) == 0);
        CHECK(memcmp(p0, p1, bytes) == 0);
        free(l0);
        free(l1);
      }
    }
    free(p0);
    free(p1);
    cn_renderer_destroy(r);
    cn_scene_builder_destroy(b);
    free(svg);
  }
}

TEST(scene_frame_vs_standalone) {
  fu_scene *s = new_scene();
  /* empty scene: the header alone (element 0 of a frame without elements) */
  check_scene_frame(s, 0, 0);
  /* random strokes (dashed too) and fills, a few elements: one workgroup everywhere */
  random_strokes(s, 5, true);
  check_scene_frame(s, 0, 1);
  fu_init(s);
  random_strokes(s, 40, true);
  check_scene_frame(s, 0, 500);
  check_scene_frame(s, 1, 500);
  /* Long subpaths: more segments than one block of the scans holds (16384 on
   * devices with 1024 invocations), so the links' max scan runs in several
   * blocks and subpaths cross block edges; a stroke and a fill of the same
   * zigzag, then a few random strokes after them. */
  fu_init(s);
  fu_path(s, 0);
  for (int sp = 0; sp < 3; sp++) {
    fu_move(s, 10, 20.0f + 80.0f * (float)sp);
    for (int k = 0; k < 6000; k++) fu_line(s, 10 + (float)(k + 1) * 0.05f, 20.0f + 80.0f * (float)sp + (float)(k % 2) * 3);
    fu_end(s, sp == 1);
  }
  fu_stroke(s, 2, CN_JOIN_ROUND, CN_CAP_ROUND, 4, NULL, 0, 0);
  fu_fill(s, CN_RULE_NONZERO);
  random_strokes(s, 6, true);
  CHECK(s->ns > 18000);
  check_scene_frame(s, 0, 36000);
  free(s);
}

TEST_MAIN(T(scene_frame_vs_standalone), T(scene_frame_links_kept), T(scene_frame_overlap), T(scene_frame_overlap_large), T(scene_frame_beside_bins), T(stroke_line_butt_is_rectangle), T(stroke_joins), T(stroke_reversal_and_degenerate),
          T(stroke_zero_length_subpaths), T(stroke_non_uniform_transform), T(stroke_round_oracle), T(stroke_inner_join_safety),
          T(stroke_dashes_line), T(stroke_dashes_zero_length), T(stroke_dashes_joins_and_closed),
          T(stroke_random_gpu_vs_cpu), T(stroke_straight_vertices_no_joins), T(stroke_split_same_lines))
