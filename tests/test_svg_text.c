/* test_svg_text.c: text in the SVG loader, with the bundled font
 * tests/data/fonts/NotoMono-Regular.ttf (SIL OFL, licence beside it) as the
 * only font (options.font_dirs).
 *
 * Positions are checked against HarfBuzz run here on the same font file:
 * the glyphs of "AB" at x must be exactly the glyphs of "A" at x and of "B"
 * at x + HarfBuzz's advance of A (scaled by font-size / units-per-em), and
 * likewise for anchors, spacing, dx/dy, rotate and bidi reordering. Then
 * whitespace, spans, decorations, reported fallbacks, broken fonts and the
 * glyph limit; last, a few resvg text tests rendered on the GPU and compared
 * with their reference images when the suite is present. */
#include <canopy/cn_png.h>
#include <canopy/cn_render.h>
#include "svg_dump.h"
#include "test.h"

#include <hb.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#define SVG_OPEN "<svg xmlns=\"http://www.w3.org/2000/svg\" "

static cn_scene_builder *builder;
static cn_scene_data scene;
static cn_svg_stats stats;

static const char *font_dir(void) {
  static char d[1100];
  if (!d[0]) snprintf(d, sizeof d, "%s/tests/data/fonts", test_src_root());
  return d;
}

static cn_result load_with(const char *text, const char *dir, uint32_t max_glyphs) {
  if (!builder) CHECK_OK(cn_scene_builder_create(&builder));
  const char *dirs[1] = {dir};
  cn_svg_options opt = {.font_dirs = dirs, .font_dir_count = 1, .max_glyphs = max_glyphs};
  return cn_svg_load_memory(builder, text, strlen(text), &opt, &scene, &stats);
}

static bool load(const char *text) {
  cn_result r = load_with(text, font_dir(), 0);
  if (r != CN_OK) {
    fprintf(stderr, "  load failed: %s: %s\n", cn_result_name(r), cn_last_error());
    test_failures++;
    return false;
  }
  return true;
}

/* HarfBuzz's advances (font units) of text in the bundled font; the units per em. */
static int hb_advances(const char *text, int *adv, int cap) {
  char path[1200];
  snprintf(path, sizeof path, "%s/NotoMono-Regular.ttf", font_dir());
  hb_blob_t *blob = hb_blob_create_from_file(path);
  hb_face_t *face = hb_face_create(blob, 0);
  hb_font_t *font = hb_font_create(face);
  hb_buffer_t *buf = hb_buffer_create();
  hb_buffer_add_utf8(buf, text, -1, 0, -1);
  hb_buffer_guess_segment_properties(buf);
  hb_shape(font, buf, NULL, 0);
  unsigned n;
  hb_glyph_position_t *pos = hb_buffer_get_glyph_positions(buf, &n);
  for (unsigned i = 0; i < n && (int)i < cap; i++) adv[i] = pos[i].x_advance;
  int upem = (int)hb_face_get_upem(face);
  hb_buffer_destroy(buf);
  hb_font_destroy(font);
  hb_face_destroy(face);
  hb_blob_destroy(blob);
  return upem;
}

/* The segments of path p as points: x0 y0 of each segment, then its end. */
typedef struct seg_list {
  double v[8192];
  uint32_t n;
} seg_list;

static void segs_of(uint32_t p, seg_list *out) {
  out->n = 0;
  const cn_path *path = &scene.paths[p];
  const cn_transform *t = &scene.transforms[path->transform];
  for (uint32_t i = 0; i < path->seg_count && out->n + 4 <= 8192; i++) {
    const cn_segment *s = &scene.segments[path->seg_first + i];
    double pts[2][2] = {{s->x0, s->y0}, {s->x1, s->y1}};
    for (int k = 0; k < 2; k++) {
      out->v[out->n++] = t->a * pts[k][0] + t->c * pts[k][1] + t->e;
      out->v[out->n++] = t->b * pts[k][0] + t->d * pts[k][1] + t->f;
    }
  }
}

/* Loads svg and returns the device-space segments of its glyph path (the last path). */
static bool glyph_segs(const char *svg, seg_list *out) {
  if (!load(svg)) return false;
  if (scene.path_count == 0) {
    fprintf(stderr, "  no path for %s\n", svg);
    test_failures++;
    return false;
  }
  segs_of(scene.path_count - 1, out);
  return true;
}

static bool same_points(const double *a, const double *b, uint32_t n, double tol) {
  for (uint32_t i = 0; i < n; i++)
    if (!(fabs(a[i] - b[i]) <= tol)) {
      fprintf(stderr, "  point %u: %g vs %g\n", i, a[i], b[i]);
      return false;
    }
  return true;
}

#define TEXT_AT(xattr, rest, body) \
  SVG_OPEN "width=\"300\" height=\"100\"><text font-family=\"Noto Mono\" font-size=\"20\" " xattr " y=\"50\" " rest ">" body "</text></svg>"

static seg_list sa, sb, sab;

/* "AB" = "A" at x, then "B" at x + advance(A) (+ extra), each checked point by point. */
static void check_pair(const char *svg_ab, double x, double extra_x, double extra_y) {
  int adv[4] = {0};
  int upem = hb_advances("AB", adv, 4);
  double x2 = x + adv[0] * 20.0 / upem + extra_x;
  char a[512], b[512];
  snprintf(a, sizeof a, TEXT_AT("x=\"%g\"", "", "A"), x);
  snprintf(b, sizeof b, SVG_OPEN "width=\"300\" height=\"100\"><text font-family=\"Noto Mono\" font-size=\"20\" "
                                 "x=\"%.9g\" y=\"%g\">B</text></svg>", x2, 50 + extra_y);
  if (!glyph_segs(svg_ab, &sab) || !glyph_segs(a, &sa) || !glyph_segs(b, &sb)) return;
  CHECK_EQ_U64(sab.n, sa.n + sb.n);
  if (sab.n != sa.n + sb.n) return;
  CHECK(same_points(sab.v, sa.v, sa.n, 1e-3));
  CHECK(same_points(sab.v + sa.n, sb.v, sb.n, 1e-3));
}

TEST(glyphs_follow_harfbuzz_advances) {
  check_pair(TEXT_AT("x=\"10\"", "", "AB"), 10, 0, 0);
  CHECK_EQ_U64(stats.glyphs, 1); /* the last load: "B" */
  if (!load(TEXT_AT("x=\"10\"", "", "AB"))) return;
  CHECK_EQ_U64(stats.glyphs, 2);
  CHECK_STR(dump_elements(&scene), "FILL(p0,k0,nz)"); /* one path for the span, filled black */
  CHECK_STR(dump_paint(&scene, 0), "solid(0,0,0,1)");
  CHECK_EQ_U64(stats.warning_count, 0);
}

TEST(anchor_spacing_and_offsets) {
  int adv[4];
  int upem = hb_advances("AB", adv, 4);
  double total = (adv[0] + adv[1]) * 20.0 / upem;
  char svg[512];
  snprintf(svg, sizeof svg, TEXT_AT("x=\"150\"", "text-anchor=\"middle\"", "AB"));
  check_pair(svg, 150 - total / 2, 0, 0);
  snprintf(svg, sizeof svg, TEXT_AT("x=\"150\"", "text-anchor=\"end\"", "AB"));
  check_pair(svg, 150 - total, 0, 0);
  /* letter-spacing after every character but the last */
  check_pair(TEXT_AT("x=\"10\"", "letter-spacing=\"7\"", "AB"), 10, 7, 0);
  /* per-character dx and dy accumulate */
  check_pair(TEXT_AT("x=\"10\"", "dx=\"0 3\" dy=\"0 2\"", "AB"), 10, 3, 2);
  /* an absolute x on the second character starts a new chunk there (a span, a path of its own) */
  if (!glyph_segs(TEXT_AT("x=\"10 100\"", "", "AB"), &sab)) return;
  CHECK_STR(dump_elements(&scene), "FILL(p0,k0,nz) FILL(p1,k0,nz)");
  if (!glyph_segs(TEXT_AT("x=\"100\"", "", "B"), &sb)) return;
  CHECK(sab.n == sb.n && same_points(sab.v, sb.v, sb.n, 1e-3));
}

TEST(rotate_turns_glyphs_about_their_origin) {
  int adv[4];
  int upem = hb_advances("AB", adv, 4);
  double x2 = 10 + adv[0] * 20.0 / upem;
  if (!glyph_segs(TEXT_AT("x=\"10\"", "rotate=\"0 90\"", "AB"), &sab)) return;
  if (!glyph_segs(TEXT_AT("x=\"10\"", "", "A"), &sa)) return;
  char b[512];
  snprintf(b, sizeof b, SVG_OPEN "width=\"300\" height=\"100\"><text font-family=\"Noto Mono\" font-size=\"20\" "
                                 "x=\"%.9g\" y=\"50\">B</text></svg>", x2);
  if (!glyph_segs(b, &sb)) return;
  CHECK_EQ_U64(sab.n, sa.n + sb.n);
  if (sab.n != sa.n + sb.n) return;
  /* B rotated by 90 degrees about (x2, 50): (x, y) -> (x2 - (y - 50), 50 + (x - x2)) */
  bool ok = true;
  for (uint32_t i = 0; i < sb.n; i += 2) {
    double x = sb.v[i], y = sb.v[i + 1];
    double rx = x2 - (y - 50), ry = 50 + (x - x2);
    ok &= fabs(sab.v[sa.n + i] - rx) < 1e-3 && fabs(sab.v[sa.n + i + 1] - ry) < 1e-3;
  }
  CHECK(ok);
}

TEST(bidi_override_reorders) {
  /* U+202E RIGHT-TO-LEFT OVERRIDE: "AB" is shown as "BA" */
  if (!glyph_segs(TEXT_AT("x=\"10\"", "", "&#x202E;AB&#x202C;"), &sab)) return;
  seg_list *ba = &sa;
  if (!glyph_segs(TEXT_AT("x=\"10\"", "", "BA"), ba)) return;
  CHECK_EQ_U64(sab.n, ba->n);
  if (sab.n == ba->n) CHECK(same_points(sab.v, ba->v, ba->n, 1e-3));
}

TEST(whitespace_and_spans) {
  if (!load(TEXT_AT("x=\"10\"", "", "  A   B  "))) return;
  CHECK_EQ_U64(stats.glyphs, 3); /* "A B" */
  if (!load(TEXT_AT("x=\"10\"", "xml:space=\"preserve\"", "  A   B  "))) return;
  CHECK_EQ_U64(stats.glyphs, 9);
  if (!load(TEXT_AT("x=\"10\"", "", "\n  A\n  <tspan fill=\"red\">B</tspan>\n"))) return;
  CHECK_EQ_U64(stats.glyphs, 3); /* "A B" */
  CHECK_STR(dump_elements(&scene), "FILL(p0,k0,nz) FILL(p1,k1,nz)");
  CHECK_STR(dump_paint(&scene, 1), "solid(1,0,0,1)");
  /* display:none hides its characters */
  if (!load(TEXT_AT("x=\"10\"", "", "A<tspan display=\"none\">B</tspan>C"))) return;
  CHECK_EQ_U64(stats.glyphs, 2);
}

TEST(decorations_use_the_font_metrics) {
  int adv[4];
  int upem = hb_advances("AB", adv, 4);
  if (!load(TEXT_AT("x=\"10\"", "text-decoration=\"underline\" fill=\"blue\"", "AB"))) return;
  CHECK_STR(dump_elements(&scene), "FILL(p0,k0,nz) FILL(p1,k0,nz)"); /* the underline first, then the glyphs */
  double box[4] = {1e9, 1e9, -1e9, -1e9};
  seg_list *s = &sa;
  segs_of(0, s);
  for (uint32_t i = 0; i < s->n; i += 2) {
    box[0] = fmin(box[0], s->v[i]), box[2] = fmax(box[2], s->v[i]);
    box[1] = fmin(box[1], s->v[i + 1]), box[3] = fmax(box[3], s->v[i + 1]);
  }
  double width = (adv[0] + adv[1]) * 20.0 / upem;
  CHECK(fabs(box[0] - 10) < 1e-3 && fabs(box[2] - (10 + width)) < 1e-3);
  CHECK(box[1] > 50 && box[3] < 60 && box[3] > box[1]); /* below the baseline, thin */
  /* all three, line-through after the glyphs */
  if (!load(TEXT_AT("x=\"10\"", "text-decoration=\"underline overline line-through\"", "AB"))) return;
  CHECK_STR(dump_elements(&scene), "FILL(p0,k0,nz) FILL(p1,k0,nz) FILL(p2,k0,nz) FILL(p3,k0,nz)");
}

TEST(fallbacks_are_reported) {
  /* a family that is not there: the font used is named */
  if (!load(SVG_OPEN "width=\"100\" height=\"100\"><text font-family=\"Nope\" y=\"50\">A</text></svg>")) return;
  CHECK_EQ_U64(stats.glyphs, 1);
  CHECK_EQ_U64(stats.skipped[CN_SVG_SKIP_FONT], 1);
  CHECK_STR_CONTAINS(stats.warnings[0], "font family 'Nope' not found; Noto Mono used");
  /* a character no font has: drawn as the missing glyph, reported */
  if (!load(TEXT_AT("x=\"10\"", "", "A&#x4E2D;"))) return;
  CHECK_EQ_U64(stats.glyphs, 2);
  CHECK_EQ_U64(stats.skipped[CN_SVG_SKIP_FONT], 1);
  CHECK_STR_CONTAINS(stats.warnings[0], "no font has U+4E2D");
}

/* Writes the first n bytes of the bundled font to dir/name. */
static void write_truncated(const char *dir, const char *name, size_t n) {
  char src[1200], dst[1200];
  snprintf(src, sizeof src, "%s/NotoMono-Regular.ttf", font_dir());
  snprintf(dst, sizeof dst, "%s/%s", dir, name);
  FILE *f = fopen(src, "rb"), *g = fopen(dst, "wb");
  if (f && g) {
    char buf[4096];
    size_t k;
    while (n && (k = fread(buf, 1, n < sizeof buf ? n : sizeof buf, f)) > 0) fwrite(buf, 1, k, g), n -= k;
  }
  if (f) fclose(f);
  if (g) fclose(g);
}

TEST(broken_fonts_are_errors_or_reported_never_crashes) {
  char dir[] = "/tmp/canopy-fonts-XXXXXX";
  if (!mkdtemp(dir)) {
    test_failures++;
    return;
  }
  static const size_t cuts[] = {12, 2000, 30000, 60000, 100000};
  for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++) {
    write_truncated(dir, "Cut.ttf", cuts[i]);
    cn_result r = load_with(TEXT_AT("x=\"10\"", "", "AB&#x4E2D;"), dir, 0);
    /* loads (what could be used is drawn, the rest is reported) */
    CHECK_OK(r);
    if (r == CN_OK) CHECK(stats.skipped[CN_SVG_SKIP_FONT] >= 1);
  }
  char p[1200];
  snprintf(p, sizeof p, "%s/Cut.ttf", dir);
  unlink(p);
  rmdir(dir);
  /* a directory that does not exist is an error once there is text */
  cn_result r = load_with(TEXT_AT("x=\"10\"", "", "A"), "/nonexistent/fonts", 0);
  CHECK_EQ_U64(r, CN_ERROR_IO);
  CHECK_STR_CONTAINS(cn_last_error(), "font directory /nonexistent/fonts cannot be read");
}

TEST(glyph_limit) {
  cn_result r = load_with(TEXT_AT("x=\"10\"", "", "ABCD"), font_dir(), 3);
  CHECK_EQ_U64(r, CN_ERROR_LIMIT);
  CHECK_STR_CONTAINS(cn_last_error(), "more than 3 glyphs");
  CHECK_OK(load_with(TEXT_AT("x=\"10\"", "", "ABC"), font_dir(), 3));
}

/* ------------------------------------------ resvg text tests on the GPU */

static const char *suite_dir(void) {
  static char d[1200];
  static bool done;
  if (done) return d[0] ? d : NULL;
  done = true;
  const char *env = getenv("CANOPY_SHARED");
  char cand[3][1000];
  snprintf(cand[0], sizeof cand[0], "%.900s", env ? env : "");
  snprintf(cand[1], sizeof cand[1], "%.900s/../shared", test_src_root());
  snprintf(cand[2], sizeof cand[2], "/work/shared");
  for (int i = 0; i < 3; i++) {
    char probe[1100];
    struct stat st;
    snprintf(probe, sizeof probe, "%.900s/conformance/fonts", cand[i]);
    if (cand[i][0] && stat(probe, &st) == 0) {
      snprintf(d, sizeof d, "%.900s/conformance", cand[i]);
      return d;
    }
  }
  d[0] = 0;
  return NULL;
}

TEST(resvg_text_cases_match_their_references) {
  const char *suite = suite_dir();
  if (!suite) {
    printf("  (resvg suite not found: skipped)\n");
    return;
  }
  static const char *const cases[] = {"text/text/simple-case", "text/tspan/mixed", "text/text-anchor/end-on-text",
                                      "text/text-decoration/all-types-inline", "text/textPath/simple-case",
                                      "text/tspan/bidi-reordering", "text/letter-spacing/non-ASCII-character"};
  cn_context *ctx = test_context();
  if (!ctx) return;
  cn_renderer *ren = NULL;
  CHECK_OK(cn_renderer_create(ctx, NULL, &ren));
  if (!ren) return;
  char fonts[1300];
  snprintf(fonts, sizeof fonts, "%s/fonts", suite);
  const char *dirs[1] = {fonts};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char svg[1400], png[1400];
    snprintf(svg, sizeof svg, "%s/resvg/%s.svg", suite, cases[i]);
    snprintf(png, sizeof png, "%s/resvg/%s.png", suite, cases[i]);
    uint8_t *want = NULL;
    uint32_t w, h;
    if (cn_png_read_rgba8(png, &want, &w, &h) != CN_OK) {
      printf("  (%s not in the suite: skipped)\n", cases[i]);
      continue;
    }
    cn_svg_options opt = {.width = (float)w, .height = (float)h, .font_dirs = dirs, .font_dir_count = 1};
    if (!builder) CHECK_OK(cn_scene_builder_create(&builder));
    cn_result r = cn_svg_load_file(builder, svg, &opt, &scene, &stats);
    CHECK_OK(r);
    uint8_t *got = malloc((size_t)w * h * 4);
    cn_render_view v = {.width = w, .height = h};
    if (r == CN_OK && got) r = cn_render_scene_to_rgba8(ren, &scene, &v, got);
    CHECK_OK(r);
    if (r == CN_OK && got) {
      /* the conformance metric: premultiplied, at most 1% of pixels off by more than 24 */
      size_t bad = 0;
      for (size_t k = 0; k < (size_t)w * h; k++) {
        const uint8_t *p = got + 4 * k, *q = want + 4 * k;
        int worst = abs(p[3] - q[3]);
        for (int c = 0; c < 3; c++) {
          int d = abs((p[c] * p[3] + 127) / 255 - (q[c] * q[3] + 127) / 255);
          if (d > worst) worst = d;
        }
        bad += worst > 24;
      }
      double frac = (double)bad / ((double)w * h);
      if (frac > 0.01) {
        fprintf(stderr, "  %s: %.2f%% of pixels differ\n", cases[i], 100 * frac);
        test_failures++;
      }
      CHECK_EQ_U64(stats.skipped[CN_SVG_SKIP_FONT], 0);
    }
    free(got);
    free(want);
  }
  cn_renderer_destroy(ren);
}

static void cleanup(void) {
  cn_scene_builder_destroy(builder);
  (void)dump_path, (void)dump_transform;
}

int main(int argc, char **argv) {
  static const test_case tests[] = {T(glyphs_follow_harfbuzz_advances), T(anchor_spacing_and_offsets),
                                    T(rotate_turns_glyphs_about_their_origin), T(bidi_override_reorders),
                                    T(whitespace_and_spans), T(decorations_use_the_font_metrics),
                                    T(fallbacks_are_reported), T(broken_fonts_are_errors_or_reported_never_crashes),
                                    T(glyph_limit), T(resvg_text_cases_match_their_references)};
  int rc = test_main(argc, argv, tests, sizeof tests / sizeof *tests);
  cleanup();
  return rc;
}
