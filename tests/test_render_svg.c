/* test_render_svg.c: golden images: small SVG documents through the whole
 * pipeline (SVG loader, GPU flattening, renderer) against pixel values worked
 * out by hand.
 *
 * Tolerance: +-1 per 8-bit channel where a value is analytic (coverage of an
 * axis-aligned edge, a blend formula, a gradient position), exact where it is
 * 0 or 255 far from any edge. */
#include <canopy/cn_render.h>
#include "render_ref.h"
#include "test.h"

#include <math.h>

/* Renders svg (a string) at its own size with anti-aliasing aa; *w, *h get the size. NULL on failure. */
static uint8_t *render_svg_aa(const char *svg, uint32_t *w, uint32_t *h, uint32_t aa) {
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
    cn_render_view v = {.width = *w, .height = *h, .aa = aa};
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

static uint8_t *render_svg(const char *svg, uint32_t *w, uint32_t *h) { return render_svg_aa(svg, w, h, CN_AA_AREA); }

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

/* The scene stage's bin lists (clip-culled, groups only where they draw) give
 * the same picture as walking every element: clips, nested blends, masks
 * whose mask or masked content lies in other bins, an off-screen clip. */
TEST(render_bins_match_full_walk) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  static ref_scene s;
  ref_init(&s);
  const int w = 600, h = 300; /* 5 x 3 bins of CN_BIN * CN_TILE = 128 px */
  test_seed(11);
  for (int k = 0; k < 30; k++)
    ref_fill(&s, ref_circle(&s, (float)test_rand_below(w), (float)test_rand_below(h), 5 + (float)test_rand_below(60)),
             ref_solid(&s, (float)test_rand_below(256) / 255, 0.3f, 0.6f, 0.7f), CN_RULE_NONZERO);
  ref_begin_clip(&s, ref_circle(&s, 300, 150, 140), CN_RULE_NONZERO);
  ref_begin_blend(&s, CN_BLEND_MULTIPLY, 0.8f, 0);
  ref_fill(&s, ref_rect(&s, 100, 20, 500, 280), ref_solid(&s, 0.9f, 0.8f, 0.1f, 1), CN_RULE_NONZERO);
  ref_begin_blend(&s, CN_BLEND_SCREEN, 0.9f, CN_BLEND_ISOLATED);
  ref_fill(&s, ref_circle(&s, 350, 100, 50), ref_solid(&s, 0.1f, 0.2f, 0.9f, 0.8f), CN_RULE_NONZERO);
  ref_end_blend(&s);
  ref_end_blend(&s);
  ref_end_clip(&s);
  /* mask content only on the left, masked content on the left and the right */
  ref_begin_blend(&s, CN_BLEND_NORMAL, 1, CN_BLEND_MASK_LUMINANCE);
  ref_fill(&s, ref_rect(&s, 10, 10, 200, 290), ref_solid(&s, 1, 1, 1, 1), CN_RULE_NONZERO);
  ref_end_blend(&s);
  ref_begin_blend(&s, CN_BLEND_NORMAL, 1, CN_BLEND_MASKED);
  ref_fill(&s, ref_rect(&s, 0, 100, 600, 200), ref_solid(&s, 1, 0, 0, 1), CN_RULE_NONZERO);
  ref_end_blend(&s);
  /* mask content on the right, masked content only on the left */
  ref_begin_blend(&s, CN_BLEND_NORMAL, 1, CN_BLEND_MASK_ALPHA);
  ref_fill(&s, ref_rect(&s, 400, 0, 600, 300), ref_solid(&s, 0, 0, 0, 1), CN_RULE_NONZERO);
  ref_end_blend(&s);
  ref_begin_blend(&s, CN_BLEND_DIFFERENCE, 1, CN_BLEND_MASKED);
  ref_fill(&s, ref_rect(&s, 0, 0, 100, 300), ref_solid(&s, 0, 1, 0, 1), CN_RULE_NONZERO);
  ref_end_blend(&s);
  ref_begin_clip(&s, ref_rect(&s, 700, 0, 800, 100), CN_RULE_NONZERO);
  ref_fill(&s, ref_rect(&s, 0, 0, 600, 300), ref_solid(&s, 0, 0, 0, 1), CN_RULE_NONZERO);
  ref_end_clip(&s);
  cn_scene_data d = ref_data(&s, (float)w, (float)h);
  uint8_t *img[3] = {malloc((size_t)w * h * 4), malloc((size_t)w * h * 4), malloc((size_t)w * h * 4)};
  /* 0: bins; 1: full walk; 2: bins with every buffer starting at 1 entry (re-runs) */
  cn_renderer_desc descs[3] = {{0}, {.no_bins = true},
                               {.initial_tiles = 1, .initial_segs = 1, .initial_chunks = 1, .initial_spill = 1,
                                .initial_bins = 1, .initial_lines = 1}};
  for (int i = 0; i < 3; i++) {
    cn_renderer *r = NULL;
    CHECK_OK(cn_renderer_create(ctx, &descs[i], &r));
    cn_render_view v = {.width = w, .height = h};
    if (r) CHECK_OK(cn_render_scene_to_rgba8(r, &d, &v, img[i]));
    cn_render_stats st;
    cn_renderer_stats(r, &st);
    if (i == 2) CHECK(st.reruns >= 2);
    cn_renderer_destroy(r);
  }
  for (int k = 1; k < 3; k++) {
    int bad = 0;
    for (int i = 0; i < w * h * 4; i++)
      if (abs(img[0][i] - img[k][i]) > 1 && bad++ < 5)
        fprintf(stderr, "  pixel (%d,%d) channel %d: bins %d, %s %d\n", (i / 4) % w, i / 4 / w, i % 4, img[0][i],
                k == 1 ? "full walk" : "tiny buffers", img[k][i]);
    CHECK(bad == 0);
  }
  free(img[2]);
  /* spot checks: masked red where the mask is white, nothing right of it */
  expect_px(img[0], w, 50, 150, 255, 0, 0, 255, 1);
  expect_px(img[0], w, 550, 150, 0, 0, 0, 0, 0);
  free(img[0]);
  free(img[1]);
}

/* A view transform (the viewer's pan and zoom) moves geometry and paints
 * together: zoom 2 about the origin equals the document drawn at twice its
 * size; and under a view transform the bin lists (scene stage on transforms
 * composed with the view) give the same picture as walking every element. */
TEST(render_view_transform) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  const char *svg = "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' viewBox='0 0 40 20'>"
                    "<linearGradient id='g' gradientUnits='userSpaceOnUse' x1='0' y1='0' x2='40' y2='0'>"
                    "<stop offset='0' stop-color='#ff0000'/><stop offset='1' stop-color='#0000ff'/>"
                    "</linearGradient><rect x='4' y='2' width='32' height='16' fill='url(#g)'/>"
                    "<circle cx='20' cy='10' r='6' fill='#00ff00' fill-opacity='0.5'/></svg>";
  char doc[1024];
  uint8_t *img[3] = {calloc(640 * 320, 4), calloc(640 * 320, 4), calloc(640 * 320, 4)};
  for (int i = 0; i < 3; i++) { /* 0: direct; 1: view transform, bins; 2: view transform, full walk */
    snprintf(doc, sizeof doc, svg, i ? 320 : 640, i ? 160 : 320); /* wider than a bin: several bins */
    cn_scene_builder *b = NULL;
    CHECK_OK(cn_scene_builder_create(&b));
    cn_scene_data scene;
    cn_renderer *r = NULL;
    CHECK_OK(cn_renderer_create(ctx, &(cn_renderer_desc){.no_bins = i == 2}, &r));
    if (b && r && cn_svg_load_memory(b, doc, strlen(doc), NULL, &scene, NULL) == CN_OK) {
      cn_render_view v = {.width = 640, .height = 320};
      if (i) { /* the half-size document zoomed 2x: x' = 2x, y' = 2y */
        v.transform[0] = 2, v.transform[3] = 2;
      }
      CHECK_OK(cn_render_scene_to_rgba8(r, &scene, &v, img[i]));
      cn_render_stats st;
      cn_renderer_stats(r, &st);
      CHECK(st.binned == (i != 2));
    } else {
      test_failures++;
    }
    cn_renderer_destroy(r);
    cn_scene_builder_destroy(b);
  }
  int bad = 0, bad_walk = 0;
  for (int i = 0; i < 640 * 320 * 4; i++) {
    if (abs(img[0][i] - img[1][i]) > 2 && bad++ < 5)
      fprintf(stderr, "  pixel (%d,%d) channel %d: direct %d, view transform %d\n", (i / 4) % 640, i / 4 / 640, i % 4,
              img[0][i], img[1][i]);
    if (abs(img[1][i] - img[2][i]) > 1 && bad_walk++ < 5)
      fprintf(stderr, "  pixel (%d,%d) channel %d: view transform with bins %d, full walk %d\n", (i / 4) % 640,
              i / 4 / 640, i % 4, img[1][i], img[2][i]);
  }
  CHECK(bad == 0);
  CHECK(bad_walk == 0);
  for (int i = 0; i < 3; i++) free(img[i]);
}

TEST(svg_subpixel_dashes) {
  /* Dash patterns far below a pixel draw the solid stroke at the pattern's
   * mean coverage (docs/RENDER.md): 0.03 on, 0.03 off with butt caps is half
   * coverage along the whole line. It used to stop two thirds of the way
   * (6000 dashes ran past llvmpipe's loop limit) and took the rectangle's
   * lines with it: the rectangle grew to its tile's edge. */
  uint32_t w, h;
  uint8_t *p = render_svg("<svg xmlns='http://www.w3.org/2000/svg' width='200' height='200'>"
                          "<rect x='10' y='10' width='75' height='75' fill='blue'/>"
                          "<path d='M10 150 L190 150' stroke='black' stroke-width='4' stroke-dasharray='0.03'/>"
                          "<path d='M10 170 L190 170' stroke='black' stroke-width='4' stroke-dasharray='0.01 0.03'/>"
                          "<path d='M10 180 L190 180' stroke='black' stroke-width='2' stroke-dasharray='0.01 0.03'"
                          " stroke-linecap='square'/>"
                          "<path d='M10 190 L190 190' stroke='black' stroke-width='2' stroke-dasharray='0.01 0.03'"
                          " stroke-linecap='round'/></svg>",
                          &w, &h);
  if (!p) return;
  expect_px(p, w, 84, 50, 0, 0, 255, 255, 0); /* the rectangle, and nothing beyond it */
  expect_px(p, w, 85, 50, 0, 0, 0, 0, 0);
  expect_px(p, w, 90, 84, 0, 0, 0, 0, 0);
  expect_px(p, w, 50, 85, 0, 0, 0, 0, 0);
  for (int x = 10; x < 190; x += 7) {
    expect_px(p, w, x, 149, 0, 0, 0, 128, 1);   /* 1/2 */
    expect_px(p, w, x, 170, 0, 0, 0, 64, 1);    /* butt: 1/4 */
    expect_px(p, w, x, 180, 0, 0, 0, 255, 0);   /* square caps close the 0.03 gaps */
    expect_px(p, w, x, 190, 0, 0, 0, 255, 0);   /* round caps too */
  }
  expect_px(p, w, 189, 150, 0, 0, 0, 128, 1);
  expect_px(p, w, 9, 150, 0, 0, 0, 0, 0); /* butt ends */
  expect_px(p, w, 190, 150, 0, 0, 0, 0, 0);
  expect_px(p, w, 9, 180, 0, 0, 0, 255, 0); /* the square cap sticks out by 1 */
  expect_px(p, w, 8, 180, 0, 0, 0, 0, 0);
  free(p);
  /* A red triangle and its outline dashed at 0.1 px (40 wide, dashes of 2
   * under a viewBox of 8000 at 200 px): the triangle keeps its shape. */
  p = render_svg("<svg xmlns='http://www.w3.org/2000/svg' width='200' height='200' viewBox='0 0 8000 8000'>"
                 "<path d='M400 400 L7600 400 L4000 7600 Z' fill='red'/>"
                 "<path d='M400 400 L7600 400 L4000 7600 Z' fill='none' stroke='red' stroke-width='40'"
                 " stroke-dasharray='2'/></svg>",
                 &w, &h);
  if (!p) return;
  expect_px(p, w, 100, 80, 255, 0, 0, 255, 0); /* inside */
  expect_px(p, w, 5, 100, 0, 0, 0, 0, 0);      /* outside: left, right, below, the corners */
  expect_px(p, w, 195, 100, 0, 0, 0, 0, 0);
  expect_px(p, w, 100, 195, 0, 0, 0, 0, 0);
  expect_px(p, w, 2, 2, 0, 0, 0, 0, 0);
  expect_px(p, w, 30, 150, 0, 0, 0, 0, 0);
  expect_px(p, w, 170, 150, 0, 0, 0, 0, 0);
  free(p);
}

TEST(svg_huge_geometry) {
  /* Geometry far beyond the target loses accuracy out there, not the element:
   * a round-capped stroke 1e20 wide covers everything; a cubic spanning
   * +-5e7 px (zoom 10240) keeps its inside. Both used to vanish (the
   * renderer's float arithmetic at 1e19 px). */
  uint32_t w, h;
  uint8_t *p = render_svg("<svg xmlns='http://www.w3.org/2000/svg' width='64' height='48'>"
                          "<path d='M20 20 L40 30' stroke='black' stroke-width='1e20' stroke-linecap='round'/></svg>",
                          &w, &h);
  if (p) {
    for (int y = 0; y < 48; y += 5)
      for (int x = 0; x < 64; x += 7) expect_px(p, w, x, y, 0, 0, 0, 255, 0);
  }
  free(p);
  p = render_svg("<svg xmlns='http://www.w3.org/2000/svg' width='200' height='200'>"
                 "<g transform='translate(100 150) scale(10240)'>"
                 "<path d='M-5000 0 C -5000 -10000 5000 -10000 5000 0 Z' fill='blue'/></g></svg>",
                 &w, &h);
  if (p) {
    expect_px(p, w, 100, 100, 0, 0, 255, 255, 0); /* inside the dome */
    expect_px(p, w, 5, 5, 0, 0, 255, 255, 0);
    expect_px(p, w, 195, 140, 0, 0, 255, 255, 0);
    expect_px(p, w, 100, 160, 0, 0, 0, 0, 0);     /* below its base */
    expect_px(p, w, 5, 195, 0, 0, 0, 0, 0);
  }
  free(p);
}

TEST(render_under_device_budget) {
  /* Out of device memory anywhere in a frame is an error the library returns:
   * a context with a budget (cn_context_desc.max_device_bytes) fails every
   * allocation past it. From 16 KiB up, doubling: each attempt either fails
   * with CN_ERROR_OUT_OF_MEMORY naming the budget, or renders exactly the
   * picture of an unbudgeted context; the first success ends the sweep. */
  const char *svg = "<svg xmlns='http://www.w3.org/2000/svg' width='96' height='64'>"
                    "<rect x='4' y='4' width='60' height='40' fill='#3080c0'/>"
                    "<g opacity='0.5'><circle cx='60' cy='36' r='24' fill='red' stroke='black' stroke-width='3'/></g>"
                    "<path d='M0 60 C30 0 60 120 96 20' fill='none' stroke='green' stroke-width='2' stroke-dasharray='5 3'/>"
                    "</svg>";
  uint32_t w = 0, h = 0;
  uint8_t *want = render_svg(svg, &w, &h);
  if (!want) return;
  cn_scene_builder *b = NULL;
  CHECK_OK(cn_scene_builder_create(&b));
  cn_scene_data scene;
  if (!b || cn_svg_load_memory(b, svg, strlen(svg), NULL, &scene, NULL) != CN_OK) {
    test_failures++;
    cn_scene_builder_destroy(b);
    free(want);
    return;
  }
  uint8_t *px = calloc((size_t)w * h, 4);
  bool rendered = false;
  int failures = 0;
  for (uint64_t budget = 16384; budget <= (1ull << 31) && !rendered; budget *= 2) {
    cn_context *ctx = NULL;
    cn_result r = cn_context_create(&(cn_context_desc){.validation = true, .max_device_bytes = budget}, &ctx);
    if (r == CN_OK) {
      cn_renderer *ren = NULL;
      r = cn_renderer_create(ctx, NULL, &ren);
      cn_render_view v = {.width = w, .height = h};
      if (r == CN_OK) r = cn_render_scene_to_rgba8(ren, &scene, &v, px);
      if (r == CN_OK) {
        rendered = true;
        CHECK(memcmp(px, want, (size_t)w * h * 4) == 0);
      } else {
        CHECK_EQ_U64(r, CN_ERROR_OUT_OF_MEMORY);
        CHECK_STR_CONTAINS(cn_last_error(), "budget");
        failures++;
      }
      cn_renderer_destroy(ren);
      CHECK_EQ_U64(cn_context_validation_count(ctx), 0);
    } else {
      CHECK_EQ_U64(r, CN_ERROR_OUT_OF_MEMORY); /* the context's own buffers */
      failures++;
    }
    cn_context_destroy(ctx);
  }
  CHECK(rendered);
  CHECK(failures >= 3); /* the smallest budgets cannot hold a frame */
  free(px);
  free(want);
  cn_scene_builder_destroy(b);
}

/* The supersampled mode through the whole pipeline, as the resvg suite draws
 * its pictures: an 80-unit viewBox at 300 px (3.75 px per unit). The frame's
 * 1-unit stroke has its edges at 1.875 and 5.625 px: tiny-skia's 4x4 samples
 * give 0 and 192 there (exact area: 32 and 159). The crosshair's 0.2-unit
 * stroke (0.75 px, at most 1 px: a Skia hairline, flagged by the flatten
 * stage) keeps area coverage, 0.375 on each side of x = 150 px, as Skia's
 * hairline scaled by its width gives; 16 samples would give 64 and 128. */
TEST(svg_ss16_frame_and_hairline) {
  const char *svg = "<svg xmlns='http://www.w3.org/2000/svg' width='300' height='300' viewBox='0 0 80 80'>"
                    "<path d='M 40 8 L 40 72' stroke='black' stroke-width='0.2'/>"
                    "<rect x='1' y='1' width='78' height='78' fill='none' stroke='black'/></svg>";
  uint32_t w, h;
  uint8_t *ss = render_svg_aa(svg, &w, &h, CN_AA_SS16), *area = render_svg(svg, &w, &h);
  if (ss && area) {
    CHECK_EQ_U64(w, 300);
    expect_px(ss, w, 1, 150, 0, 0, 0, 0, 0);
    expect_px(ss, w, 3, 150, 0, 0, 0, 255, 0);
    expect_px(ss, w, 5, 150, 0, 0, 0, 192, 0);
    expect_px(ss, w, 150, 5, 0, 0, 0, 192, 0);
    expect_px(ss, w, 5, 5, 0, 0, 0, 240, 0); /* corner: 3 full sample rows, then 3 samples */
    expect_px(area, w, 1, 150, 0, 0, 0, 32, 1);
    expect_px(area, w, 5, 150, 0, 0, 0, 159, 1);
    for (int x = 149; x <= 150; x++) {
      expect_px(ss, w, x, 100, 0, 0, 0, 96, 1);
      expect_px(area, w, x, 100, 0, 0, 0, 96, 1);
    }
  }
  free(ss);
  free(area);
}

TEST_MAIN(T(svg_ss16_frame_and_hairline), T(render_view_transform), T(render_bins_match_full_walk), T(svg_rect_coverage), T(svg_fill_rules), T(svg_clip_path), T(svg_stroke), T(svg_blend_multiply_and_opacity),
          T(svg_linear_gradient), T(svg_luminance_mask), T(render_under_device_budget), T(svg_subpixel_dashes), T(svg_huge_geometry))
