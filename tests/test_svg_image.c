/* test_svg_image.c: <image> and external references in the SVG loader:
 * data: URLs drawn on the GPU (exact texels with pixelated sampling),
 * preserveAspectRatio, the confinement of file references (every refusal
 * case, in a temporary tree with a symlink out of it), external <use>,
 * SVG and svgz images, cycles between documents, decompression bombs. */
#include <canopy/cn_image.h>
#include <canopy/cn_png.h>
#include <canopy/cn_render.h>
#include "test.h"

#include <math.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

static char root[64];   /* temporary tree: root/doc (the documents), root/outside.png */
static char docdir[128];

static void write_file(const char *path, const void *data, size_t n) {
  FILE *f = fopen(path, "wb");
  CHECK(f != NULL);
  if (!f) return;
  fwrite(data, 1, n, f);
  fclose(f);
}

static uint8_t *read_all(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long sz = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *b = malloc((size_t)sz + 1);
  *n = fread(b, 1, (size_t)sz, f);
  fclose(f);
  return b;
}

/* A 2x2 PNG: red, green / blue, white (opaque). */
static uint8_t *quad_png(size_t *n) {
  static const uint8_t px[16] = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255};
  char path[128];
  snprintf(path, sizeof path, "%s/quad.png", root);
  CHECK_OK(cn_png_write_rgba8(path, px, 2, 2));
  return read_all(path, n);
}

static char *base64(const uint8_t *d, size_t n) {
  static const char al[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  char *o = malloc(n * 4 / 3 + 8), *p = o;
  for (size_t i = 0; i < n; i += 3) {
    uint32_t v = (uint32_t)d[i] << 16 | (i + 1 < n ? (uint32_t)d[i + 1] << 8 : 0) | (i + 2 < n ? d[i + 2] : 0);
    *p++ = al[v >> 18];
    *p++ = al[(v >> 12) & 63];
    *p++ = i + 1 < n ? al[(v >> 6) & 63] : '=';
    *p++ = i + 2 < n ? al[v & 63] : '=';
  }
  *p = 0;
  return o;
}

static void setup(void) {
  if (root[0]) return;
  snprintf(root, sizeof root, "/tmp/cn_svg_image_XXXXXX");
  CHECK(mkdtemp(root) != NULL);
  snprintf(docdir, sizeof docdir, "%s/doc", root);
  mkdir(docdir, 0700);
  char p[256], q[256];
  snprintf(p, sizeof p, "%s/sub", docdir);
  mkdir(p, 0700);
  size_t n;
  uint8_t *png = quad_png(&n);
  const char *names[] = {"doc/a.png", "doc/sub/b.png", "outside.png"};
  for (int i = 0; i < 3; i++) {
    snprintf(p, sizeof p, "%s/%s", root, names[i]);
    write_file(p, png, n);
  }
  free(png);
  snprintf(p, sizeof p, "%s/outside.png", root);
  snprintf(q, sizeof q, "%s/link_out.png", docdir);
  CHECK(symlink(p, q) == 0);
  snprintf(q, sizeof q, "%s/link_in.png", docdir);
  CHECK(symlink("sub/b.png", q) == 0);
}

static void cleanup(void) {
  const char *files[] = {"doc/a.png", "doc/sub/b.png", "outside.png", "doc/link_out.png", "doc/link_in.png",
                         "doc/doc.svg", "doc/lib.svg", "doc/c1.svg", "doc/c2.svg", "doc/z.svgz", "quad.png"};
  char p[256];
  for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
    snprintf(p, sizeof p, "%s/%s", root, files[i]);
    remove(p);
  }
  snprintf(p, sizeof p, "%s/doc/sub", root);
  rmdir(p);
  rmdir(docdir);
  rmdir(root);
}

static cn_scene_builder *builder;
static cn_scene_data scene;
static cn_svg_stats stats;

/* Writes doc/NAME with text and loads it (roots: extra resource roots). */
static cn_result load_doc(const char *name, const char *text, const char *const *roots, uint32_t nroots, bool strict) {
  char p[256];
  snprintf(p, sizeof p, "%s/%s", docdir, name);
  write_file(p, text, strlen(text));
  if (!builder) CHECK_OK(cn_scene_builder_create(&builder));
  cn_svg_options o = {.resource_roots = roots, .resource_root_count = nroots, .strict = strict};
  return cn_svg_load_file(builder, p, &o, &scene, &stats);
}

#define SVG_HEAD "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" "

/* One image element referencing href: drawn (one image paint) or skipped with kind and a warning containing what. */
static void expect_image(const char *href, int kind, const char *what, const char *const *roots, uint32_t nroots) {
  char doc[1024];
  snprintf(doc, sizeof doc, SVG_HEAD "width=\"20\" height=\"20\"><image width=\"20\" height=\"20\" xlink:href=\"%s\"/></svg>",
           href);
  cn_result r = load_doc("doc.svg", doc, roots, nroots, false);
  CHECK_OK(r);
  if (r != CN_OK) return;
  if (kind < 0) {
    if (scene.image_count != 1 || stats.warning_count) fprintf(stderr, "  %s: not drawn (%s)\n", href, stats.warnings[0]);
    CHECK_EQ_U64(scene.image_count, 1);
    CHECK_EQ_U64(stats.warning_count, 0);
  } else {
    if (stats.skipped[kind] != 1) fprintf(stderr, "  %s: %s\n", href, stats.warning_count ? stats.warnings[0] : "drawn");
    CHECK_EQ_U64(scene.image_count, 0);
    CHECK_EQ_U64(stats.skipped[kind], 1);
    CHECK(stats.warning_count == 1);
    if (stats.warning_count) CHECK_STR_CONTAINS(stats.warnings[0], what);
  }
}

TEST(confinement_cases) {
  setup();
  char abs_out[256], abs_in[256], file_out[300], file_in[300], file_host[300];
  snprintf(abs_out, sizeof abs_out, "%s/outside.png", root);
  snprintf(abs_in, sizeof abs_in, "%s/a.png", docdir);
  snprintf(file_out, sizeof file_out, "file://%s/outside.png", root);
  snprintf(file_in, sizeof file_in, "file://%s/a.png", docdir);
  snprintf(file_host, sizeof file_host, "file://example.com%s/a.png", docdir);
  /* allowed: inside the document's tree */
  expect_image("a.png", -1, NULL, NULL, 0);
  expect_image("sub/b.png", -1, NULL, NULL, 0);
  expect_image("sub/../a.png", -1, NULL, NULL, 0);
  expect_image("./sub%2Fb.png", -1, NULL, NULL, 0); /* percent-encoded */
  expect_image("link_in.png", -1, NULL, NULL, 0);   /* a symlink that stays inside */
  expect_image(abs_in, -1, NULL, NULL, 0);
  expect_image(file_in, -1, NULL, NULL, 0);
  /* refused */
  expect_image("../outside.png", CN_SVG_SKIP_REFUSED, "'..' leads outside", NULL, 0);
  expect_image("sub/../../outside.png", CN_SVG_SKIP_REFUSED, "'..' leads outside", NULL, 0);
  expect_image(abs_out, CN_SVG_SKIP_REFUSED, "absolute path outside", NULL, 0);
  expect_image(file_out, CN_SVG_SKIP_REFUSED, "absolute path outside", NULL, 0);
  expect_image(file_host, CN_SVG_SKIP_REFUSED, "another host", NULL, 0);
  expect_image("link_out.png", CN_SVG_SKIP_REFUSED, "symlink leads outside", NULL, 0);
  expect_image("http://example.com/a.png", CN_SVG_SKIP_REFUSED, "http: scheme is refused", NULL, 0);
  expect_image("https://example.com/a.png", CN_SVG_SKIP_REFUSED, "https: scheme is refused", NULL, 0);
  expect_image("ftp://example.com/a.png", CN_SVG_SKIP_REFUSED, "ftp: scheme", NULL, 0);
  expect_image("/etc/passwd", CN_SVG_SKIP_REFUSED, "absolute path outside", NULL, 0);
  expect_image("missing.png", CN_SVG_SKIP_MISSING_REF, "cannot open", NULL, 0);
  expect_image("sub", CN_SVG_SKIP_MISSING_REF, "not a regular file", NULL, 0);
  /* widened by a resource root */
  const char *roots[1] = {root};
  expect_image("../outside.png", -1, NULL, roots, 1);
  expect_image(abs_out, -1, NULL, roots, 1);
  expect_image("link_out.png", -1, NULL, roots, 1);
  /* strict mode: a refusal is an error */
  char doc[512];
  snprintf(doc, sizeof doc, SVG_HEAD "width=\"9\" height=\"9\"><image width=\"9\" height=\"9\" href=\"../outside.png\"/></svg>");
  CHECK(load_doc("doc.svg", doc, NULL, 0, true) == CN_ERROR_PARSE);
  CHECK_STR_CONTAINS(cn_last_error(), "outside");
  /* from memory: relative references need base_dir */
  cn_svg_options o = {0};
  CHECK_OK(cn_svg_load_memory(builder, doc, strlen(doc), &o, &scene, &stats));
  CHECK_EQ_U64(stats.skipped[CN_SVG_SKIP_REFUSED], 1);
  const char *mem = SVG_HEAD "width=\"9\" height=\"9\"><image width=\"9\" height=\"9\" href=\"a.png\"/></svg>";
  o.base_dir = docdir;
  CHECK_OK(cn_svg_load_memory(builder, mem, strlen(mem), &o, &scene, &stats));
  CHECK_EQ_U64(scene.image_count, 1);
}

/* Renders the loaded scene at w x h. */
static uint8_t *render(uint32_t w, uint32_t h) {
  cn_context *ctx = test_context();
  if (!ctx) return NULL;
  cn_renderer *ren = NULL;
  CHECK_OK(cn_renderer_create(ctx, NULL, &ren));
  uint8_t *px = calloc((size_t)w * h, 4);
  cn_render_view v = {.width = w, .height = h};
  cn_result r = ren ? cn_render_scene_to_rgba8(ren, &scene, &v, px) : CN_ERROR_STATE;
  CHECK_OK(r);
  cn_renderer_destroy(ren);
  if (r != CN_OK) {
    free(px);
    return NULL;
  }
  return px;
}

static void expect(const uint8_t *px, uint32_t w, int x, int y, uint32_t want) {
  const uint8_t *q = px + 4 * ((size_t)y * w + x);
  uint32_t got = q[0] | q[1] << 8 | q[2] << 16 | (uint32_t)q[3] << 24;
  if (got != want) fprintf(stderr, "  pixel (%d,%d): got %08x want %08x\n", x, y, got, want);
  CHECK_EQ_U64(got, want);
}

TEST(data_url_image_drawn_on_gpu) {
  setup();
  size_t n;
  uint8_t *png = quad_png(&n);
  char *b64 = base64(png, n);
  free(png);
  char *doc = malloc(strlen(b64) + 1024);
  /* pixelated, 2x2 texels over 40x40 at (10, 10); a second one 2:1 in a square box (meet, centred) */
  sprintf(doc, SVG_HEAD "width=\"60\" height=\"100\"><image x=\"10\" y=\"10\" width=\"40\" height=\"40\" "
               "style=\"image-rendering:pixelated\" xlink:href=\"data:image/png;base64,%s\"/>"
               "<g image-rendering=\"optimizeSpeed\"><image x=\"10\" y=\"55\" width=\"40\" height=\"40\" "
               "preserveAspectRatio=\"xMidYMid meet\" href=\"data:;base64,%s\" transform=\"scale(1 1)\"/></g></svg>",
          b64, b64);
  CHECK_OK(load_doc("doc.svg", doc, NULL, 0, false));
  CHECK_EQ_U64(scene.image_count, 1); /* the same data twice: one image */
  CHECK_EQ_U64(stats.warning_count, 0);
  uint8_t *px = render(60, 100);
  if (px) {
    expect(px, 60, 5, 5, 0);
    expect(px, 60, 15, 15, 0xFF0000FFu);  /* red */
    expect(px, 60, 45, 15, 0xFF00FF00u);  /* green */
    expect(px, 60, 15, 45, 0xFFFF0000u);  /* blue */
    expect(px, 60, 45, 45, 0xFFFFFFFFu);  /* white */
    expect(px, 60, 29, 29, 0xFF0000FFu);  /* the texel edge at 30 */
    expect(px, 60, 30, 30, 0xFFFFFFFFu);
    /* the second: square image in a square box */
    expect(px, 60, 15, 60, 0xFF0000FFu);
    expect(px, 60, 45, 90, 0xFFFFFFFFu);
  }
  free(px);
  /* smooth: the centre of the quad is the mean of the four texels */
  sprintf(doc, SVG_HEAD "width=\"40\" height=\"40\"><image width=\"40\" height=\"40\" opacity=\"0.5\" "
               "xlink:href=\"data:image/png;base64,%s\"/></svg>",
          b64);
  CHECK_OK(load_doc("doc.svg", doc, NULL, 0, false));
  px = render(40, 40);
  if (px) {
    const uint8_t *c = px + 4 * (20 * 40 + 20); /* pixel centre (20.5, 20.5): texel space 1.025 */
    CHECK(c[3] >= 127 && c[3] <= 128);
    /* weights .475 and .525 per axis: red .475^2 + .525^2, green and blue .525 (straight, +-1) */
    CHECK(abs(c[0] - 128) <= 1 && abs(c[1] - 134) <= 1 && abs(c[2] - 134) <= 1);
    expect(px, 40, 2, 2, 0x800000FFu); /* clamped edge: red at half opacity */
  }
  free(px);
  free(doc);
  free(b64);
}

TEST(aspect_ratio_and_sizes) {
  setup();
  /* a 2x2 image in a 40x20 box: meet -> 20x20 centred at x 10..30; slice -> 40x40 cut to the box */
  const char *d1 = SVG_HEAD "width=\"40\" height=\"20\"><image width=\"40\" height=\"20\" href=\"a.png\"/></svg>";
  CHECK_OK(load_doc("doc.svg", d1, NULL, 0, false));
  if (scene.paint_count) {
    const cn_paint *p = &scene.paints[scene.paint_count - 1];
    CHECK(p->kind == CN_PAINT_IMAGE && p->spread == CN_SAMPLE_BILINEAR);
    const cn_transform *t = &scene.transforms[p->transform];
    CHECK(t->a == 10 && t->d == 10 && t->e == 10 && t->f == 0);
  }
  uint8_t *px = render(40, 20);
  if (px) {
    expect(px, 40, 5, 10, 0);
    expect(px, 40, 35, 10, 0);
    CHECK(px[4 * (10 * 40 + 12) + 3] == 255);
  }
  free(px);
  const char *d2 = SVG_HEAD "width=\"40\" height=\"20\"><image width=\"40\" height=\"20\" "
                   "preserveAspectRatio=\"xMinYMin slice\" href=\"a.png\"/></svg>";
  CHECK_OK(load_doc("doc.svg", d2, NULL, 0, false));
  const cn_transform *t = &scene.transforms[scene.paints[scene.paint_count - 1].transform];
  CHECK(t->a == 20 && t->d == 20 && t->e == 0 && t->f == 0);
  /* the drawn rectangle is the box (the image is cut) */
  CHECK_EQ_U64(scene.element_count, 1);
  /* no width/height: the image's own size; one of them: the other follows its ratio */
  const char *d3 = SVG_HEAD "width=\"40\" height=\"40\"><image href=\"a.png\"/><image y=\"10\" width=\"8\" href=\"a.png\"/></svg>";
  CHECK_OK(load_doc("doc.svg", d3, NULL, 0, false));
  CHECK_EQ_U64(scene.element_count, 2);
  t = &scene.transforms[scene.paints[1].transform];
  CHECK(t->a == 4 && t->d == 4 && t->f == 10);
  /* zero size: nothing */
  const char *d4 = SVG_HEAD "width=\"40\" height=\"40\"><image width=\"0\" height=\"5\" href=\"a.png\"/></svg>";
  CHECK_OK(load_doc("doc.svg", d4, NULL, 0, false));
  CHECK_EQ_U64(scene.element_count, 0);
}

TEST(external_use_svg_images_and_cycles) {
  setup();
  const char *lib = SVG_HEAD "width=\"10\" height=\"10\"><rect id=\"r\" width=\"10\" height=\"10\" fill=\"#00ff00\"/>"
                    "<use id=\"u\" href=\"c1.svg#x\"/></svg>";
  char p[256];
  snprintf(p, sizeof p, "%s/lib.svg", docdir);
  write_file(p, lib, strlen(lib));
  /* use of an element of another file */
  CHECK_OK(load_doc("doc.svg", SVG_HEAD "width=\"20\" height=\"20\"><use href=\"lib.svg#r\" x=\"5\"/></svg>", NULL, 0,
                    false));
  CHECK_EQ_U64(stats.warning_count, 0);
  CHECK_EQ_U64(scene.element_count, 1);
  if (scene.element_count) {
    CHECK(scene.paints[scene.elements[0].paint].g == 1.0f);
    CHECK(scene.transforms[scene.paths[scene.elements[0].path].transform].e == 5);
  }
  /* missing id, no id, refused file */
  CHECK_OK(load_doc("doc.svg", SVG_HEAD "width=\"20\" height=\"20\"><use href=\"lib.svg#nope\"/><use href=\"lib.svg\"/>"
                    "<use href=\"../lib.svg#r\"/></svg>", NULL, 0, false));
  CHECK_EQ_U64(stats.skipped[CN_SVG_SKIP_MISSING_REF], 2);
  CHECK_EQ_U64(stats.skipped[CN_SVG_SKIP_REFUSED], 1);
  CHECK_EQ_U64(scene.element_count, 0);
  /* an SVG image: a clip of the viewport around the document's content */
  CHECK_OK(load_doc("doc.svg", SVG_HEAD "width=\"20\" height=\"20\"><image width=\"20\" height=\"20\" href=\"lib.svg\"/></svg>",
                    NULL, 0, false));
  CHECK(scene.element_count == 3 && scene.elements[0].tag == CN_TAG_BEGIN_CLIP && scene.elements[1].tag == CN_TAG_FILL);
  if (scene.element_count == 3) CHECK(scene.transforms[scene.paths[scene.elements[1].path].transform].a == 2);
  /* a cycle: c1 uses c2, c2 images c1 */
  const char *c1 = SVG_HEAD "width=\"10\" height=\"10\"><g id=\"x\"><use href=\"c2.svg#y\"/><rect width=\"1\" height=\"1\"/></g></svg>";
  const char *c2 = SVG_HEAD "width=\"10\" height=\"10\"><g id=\"y\"><image width=\"5\" height=\"5\" href=\"c1.svg\"/></g></svg>";
  snprintf(p, sizeof p, "%s/c2.svg", docdir);
  write_file(p, c2, strlen(c2));
  CHECK_OK(load_doc("c1.svg", c1, NULL, 0, false));
  CHECK_EQ_U64(stats.skipped[CN_SVG_SKIP_CYCLE], 1);
  CHECK_EQ_U64(scene.element_count, 1); /* the rect */
  /* svgz */
  const char *zdoc = SVG_HEAD "width=\"10\" height=\"10\"><rect width=\"10\" height=\"10\" fill=\"blue\"/></svg>";
  z_stream z;
  memset(&z, 0, sizeof z);
  uint8_t gz[1024];
  CHECK(deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  z.next_in = (Bytef *)zdoc;
  z.avail_in = (uInt)strlen(zdoc);
  z.next_out = gz;
  z.avail_out = sizeof gz;
  CHECK(deflate(&z, Z_FINISH) == Z_STREAM_END);
  snprintf(p, sizeof p, "%s/z.svgz", docdir);
  write_file(p, gz, sizeof gz - z.avail_out);
  deflateEnd(&z);
  CHECK_OK(load_doc("doc.svg", SVG_HEAD "width=\"20\" height=\"20\"><image width=\"20\" height=\"20\" href=\"z.svgz\"/></svg>",
                    NULL, 0, false));
  CHECK_EQ_U64(scene.element_count, 3);
  /* truncated svgz: a warning, not drawn */
  write_file(p, gz, 20);
  CHECK_OK(load_doc("doc.svg", SVG_HEAD "width=\"20\" height=\"20\"><image width=\"20\" height=\"20\" href=\"z.svgz\"/></svg>",
                    NULL, 0, false));
  CHECK_EQ_U64(stats.skipped[CN_SVG_SKIP_IMAGE], 1);
  CHECK_EQ_U64(scene.element_count, 0);
}

TEST(bombs_and_bad_images_in_documents) {
  setup();
  /* a PNG whose header claims 100000 x 100000 */
  size_t n;
  uint8_t *png = quad_png(&n);
  uint8_t *ihdr = png + 12;
  uint32_t big = 100000;
  for (int i = 0; i < 4; i++) ihdr[4 + i] = ihdr[8 + i] = (uint8_t)(big >> (24 - 8 * i));
  uint32_t crc = (uint32_t)crc32(0, ihdr, 17);
  for (int i = 0; i < 4; i++) ihdr[17 + i] = (uint8_t)(crc >> (24 - 8 * i));
  char *b64 = base64(png, n);
  char *doc = malloc(strlen(b64) + 512);
  sprintf(doc, SVG_HEAD "width=\"9\" height=\"9\"><image width=\"9\" height=\"9\" href=\"data:image/png;base64,%s\"/>"
               "<image width=\"9\" height=\"9\" href=\"data:image/png;base64,iVBORw0KGgo=\"/>"
               "<image width=\"9\" height=\"9\" href=\"data:image/bmp;base64,Qk0=\"/>"
               "<image width=\"9\" height=\"9\" href=\"data:image/png;base64,%%%%\"/></svg>",
          b64);
  CHECK_OK(load_doc("doc.svg", doc, NULL, 0, false));
  CHECK_EQ_U64(stats.skipped[CN_SVG_SKIP_IMAGE], 4);
  CHECK_EQ_U64(scene.image_count, 0);
  CHECK_STR_CONTAINS(stats.warnings[0], "100000x100000");
  CHECK_STR_CONTAINS(stats.warnings[1], "PNG");
  CHECK_STR_CONTAINS(stats.warnings[2], "not PNG, JPEG, GIF or WebP");
  CHECK_STR_CONTAINS(stats.warnings[3], "data URL");
  CHECK(load_doc("doc.svg", doc, NULL, 0, true) == CN_ERROR_PARSE);
  CHECK_STR_CONTAINS(cn_last_error(), "100000x100000");
  free(doc);
  free(b64);
  free(png);
}

/* anne.svg ends with <use xlink:href="batikLogo.svg#Batik_Tag_Box"/>: the tag box draws. */
TEST(batik_anne_uses_the_logo_file) {
  char path[1024];
  snprintf(path, sizeof path, "%s", __FILE__); /* .../tests/test_svg_image.c */
  char *slash = strrchr(path, '/');
  if (!slash) return;
  snprintf(slash, sizeof path - (size_t)(slash - path), "/data/scenes-real/batik/anne.svg");
  if (!builder) CHECK_OK(cn_scene_builder_create(&builder));
  cn_result r = cn_svg_load_file(builder, path, NULL, &scene, &stats);
  CHECK_OK(r);
  if (r != CN_OK) return;
  CHECK_EQ_U64(stats.warning_count, 0);
  for (int k = 0; k < CN_SVG_SKIP_COUNT; k++) CHECK_EQ_U64(stats.skipped[k], 0);
  /* the drawing's 131 elements, then the tag box: its black frame (a stroke, untransformed) and
   * the squiggle (a use with a size: a viewport clip around three fills) */
  CHECK_EQ_U64(scene.element_count, 137);
  if (scene.element_count != 137) return;
  static const uint32_t tags[6] = {CN_TAG_STROKE, CN_TAG_BEGIN_CLIP, CN_TAG_FILL, CN_TAG_FILL, CN_TAG_FILL,
                                   CN_TAG_END_CLIP};
  for (int i = 0; i < 6; i++) CHECK_EQ_U64(scene.elements[131 + i].tag, tags[i]);
  const cn_element *frame = &scene.elements[131];
  const cn_transform *t = &scene.transforms[scene.paths[frame->path].transform];
  CHECK(t->a == 1 && t->d == 1 && t->e == 0 && t->f == 0);
  const cn_paint *p = &scene.paints[frame->paint];
  CHECK(p->kind == CN_PAINT_SOLID && p->r == 0 && p->g == 0 && p->b == 0 && p->a == 1);
}

TEST(zz_cleanup) {
  cn_scene_builder_destroy(builder);
  builder = NULL;
  cleanup();
}

TEST_MAIN(T(confinement_cases), T(data_url_image_drawn_on_gpu), T(aspect_ratio_and_sizes),
          T(external_use_svg_images_and_cycles), T(bombs_and_bad_images_in_documents),
          T(batik_anne_uses_the_logo_file), T(zz_cleanup))
