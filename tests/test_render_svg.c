/* test_render_svg.c: golden images: small SVG documents through the whole
 * pipeline (SVG loader, GPU flattening, renderer) against pixel values worked
 * out by hand.
 *
 * Tolerance: +-1 per 8-bit channel where a value is analytic (coverage of an
 * axis-aligned edge, a blend formula, a gradient position), exact where it is
 * 0 or 255 far from any edge. */
#include "cn_render.h"
#include "test.h"

#include <math.h>

/* Renders svg (a string) at its own size; *w, *h get the size. NULL on failure. */
static uint8_t *render_svg(const char *svg, uint32_t *w, uint32_t *h) {
  cn_context *ctx = test_context();
  if (!ctx) return NULL;
  cn_scene_builder *b = NULL;
  CHECK_OK(cn_scene_builder_create(&b));
  if (!b) return NULL;
  cn_scene_data scene;
  cn_svg_stats st;
  uint8_t *px = NULL;
  cn_result r = cn_svg_load_memory(b, svg, strlen(svg), NULL, &scene, &st);
  CHECK_OK(r);
  if (r == CN_OK) {
    *w = (uint32_t)lroundf(st.width);
    *h = (uint32_t)lroundf(st.height);
    cn_renderer *ren = NULL;
    CHECK_OK(cn_renderer_create(ctx, NULL, &ren));
    px = calloc((size_t)*w * *h, 4);
    cn_render_view v = {.width = *w, .height = *h};
    if (ren && px) {
      r = cn_render_scene_to_rgba8(ren, &scene, &v, px);
      CHECK_OK(r);
      if (r != CN_OK) {
        free(px);
        px = NULL;
      }
    }
    cn_renderer_destroy(ren);
  }
  cn_scene_builder_destroy(b);
  return px;
}

#define PX(p, w, x, y) ((p) + 4 * ((size_t)(y) * (w) + (x)))

static void expect_px(const uint8_t *p, uint32_t w, int x, int y, int r, int g, int b, int a, int tol) {
  const uint8_t *q = PX(p, w, x, y);
  int want[4] = {r, g, b, a};
  for (int c = 0; c < 4; c++) {
    if (abs(q[c] - want[c]) > tol) {
      fprintf(stderr, "  pixel (%d,%d): got %d %d %d %d, want %d %d %d %d (+-%d)\n", x, y, q[0], q[1], q[2], q[3], r, g,
              b, a, tol);
      test_failures++;
      return;
    }
  }
}

TEST(svg_rect_coverage) {
  uint32_t w, h;
  uint8_t *p = render_svg("<svg xmlns='http://www.w3.org/2000/svg' width='64' height='64'>"
                          "<rect x='10.25' y='20.5' width='30.5' height='29.5' fill='#ff0000'/></svg>",
                          &w, &h);
  if (!p) return;
  CHECK_EQ_U64(w, 64);
  expect_px(p, w, 20, 30, 255, 0, 0, 255, 0); /* inside */
  expect_px(p, w, 10, 30, 255, 0, 0, 191, 1); /* left edge: 0.75 */
  expect_px(p, w, 40, 30, 255, 0, 0, 191, 1); /* right edge: 0.75 */
  expect_px(p, w, 20, 20, 255, 0, 0, 128, 1); /* top edge: 0.5 */
  expect_px(p, w, 10, 20, 255, 0, 0, 96, 1);  /* corner: 0.375 */
  expect_px(p, w, 5, 5, 0, 0, 0, 0, 0);
  free(p);
}

TEST(svg_fill_rules) {
  /* a star; its centre is inside with nonzero, outside with even-odd */
  const char *fmt = "<svg xmlns='http://www.w3.org/2000/svg' width='100' height='100'>"
                    "<path d='M50,10 L73.5,82.4 L11.9,37.6 L88.1,37.6 L26.5,82.4 Z' fill='blue' fill-rule='%s'/></svg>";
  char svg[512];
  uint32_t w, h;
  snprintf(svg, sizeof svg, fmt, "nonzero");
  uint8_t *p = render_svg(svg, &w, &h);
  if (p) expect_px(p, w, 50, 50, 0, 0, 255, 255, 0);
  free(p);
  snprintf(svg, sizeof svg, fmt, "evenodd");
  p = render_svg(svg, &w, &h);
  if (p) {
    expect_px(p, w, 50, 50, 0, 0, 0, 0, 0);
    expect_px(p, w, 50, 25, 0, 0, 255, 255, 0); /* a point of the star */
  }
  free(p);
}

TEST(svg_clip_path) {
  uint32_t w, h;
  uint8_t *p = render_svg("<svg xmlns='http://www.w3.org/2000/svg' width='64' height='64'>"
                          "<clipPath id='c'><rect x='16' y='16' width='16' height='32'/></clipPath>"
                          "<rect width='64' height='64' fill='#00ff00' clip-path='url(#c)'/></svg>",
                          &w, &h);
  if (!p) return;
  expect_px(p, w, 20, 20, 0, 255, 0, 255, 0);
  expect_px(p, w, 40, 20, 0, 0, 0, 0, 0);
  expect_px(p, w, 20, 50, 0, 0, 0, 0, 0);
  free(p);
}

TEST(svg_stroke) {
  uint32_t w, h;
  /* a horizontal line, width 4, centred on y = 10: rows 8..11 covered */
  uint8_t *p = render_svg("<svg xmlns='http://www.w3.org/2000/svg' width='32' height='20'>"
                          "<path d='M4,10 H28' stroke='black' stroke-width='4'/></svg>",
                          &w, &h);
  if (!p) return;
  for (int y = 6; y < 14; y++) expect_px(p, w, 16, y, 0, 0, 0, y >= 8 && y < 12 ? 255 : 0, 0);
  expect_px(p, w, 2, 10, 0, 0, 0, 0, 0); /* butt caps */
  expect_px(p, w, 29, 10, 0, 0, 0, 0, 0);
  free(p);
}

TEST(svg_blend_multiply_and_opacity) {
  uint32_t w, h;
  uint8_t *p = render_svg("<svg xmlns='http://www.w3.org/2000/svg' width='32' height='32'>"
                          "<rect width='32' height='32' fill='#808080'/>"
                          "<rect width='16' height='32' fill='#ff8000' style='mix-blend-mode:multiply'/>"
                          "<g opacity='0.5'><rect x='16' width='16' height='32' fill='#0000ff'/></g></svg>",
                          &w, &h);
  if (!p) return;
  /* multiply: 128/255 * (1, 128/255, 0) */
  expect_px(p, w, 8, 8, 128, 64, 0, 255, 1);
  /* half-opaque blue over grey */
  expect_px(p, w, 24, 8, 64, 64, 192, 255, 1);
  free(p);
}

TEST(svg_linear_gradient) {
  uint32_t w, h;
  uint8_t *p = render_svg("<svg xmlns='http://www.w3.org/2000/svg' width='100' height='10'>"
                          "<linearGradient id='g' gradientUnits='userSpaceOnUse' x1='0' y1='0' x2='100' y2='0'>"
                          "<stop offset='0' stop-color='#000000'/><stop offset='1' stop-color='#ffffff'/>"
                          "</linearGradient><rect width='100' height='10' fill='url(#g)'/></svg>",
                          &w, &h);
  if (!p) return;
  /* pixel centre x + 0.5: t = (x + 0.5) / 100 */
  for (int x = 0; x < 100; x += 11) {
    int v = (int)lround((x + 0.5) / 100.0 * 255);
    expect_px(p, w, x, 5, v, v, v, 255, 1);
  }
  free(p);
}

TEST(svg_luminance_mask) {
  uint32_t w, h;
  uint8_t *p = render_svg("<svg xmlns='http://www.w3.org/2000/svg' width='40' height='20'>"
                          "<mask id='m' maskUnits='userSpaceOnUse' x='0' y='0' width='40' height='20'>"
                          "<rect width='20' height='20' fill='white'/><rect x='20' width='20' height='20' fill='black'/>"
                          "</mask><rect width='40' height='20' fill='red' mask='url(#m)'/></svg>",
                          &w, &h);
  if (!p) return;
  expect_px(p, w, 10, 10, 255, 0, 0, 255, 0);
  expect_px(p, w, 30, 10, 0, 0, 0, 0, 0);
  free(p);
}

TEST_MAIN(T(svg_rect_coverage), T(svg_fill_rules), T(svg_clip_path), T(svg_stroke), T(svg_blend_multiply_and_opacity),
          T(svg_linear_gradient), T(svg_luminance_mask))
