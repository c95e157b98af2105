/* test_image.c: image decoding (cn_image.h) on small images generated here
 * with the encoders of the same libraries (exact texel values), data: URLs,
 * decompression bombs (headers claiming huge sizes) and truncated files. */
#include <canopy/cn_image.h>
#include <canopy/cn_scene_api.h>
#include "test.h"

#include <gif_lib.h>
#include <jpeglib.h>
#include <png.h>
#include <stdio.h>
#include <webp/encode.h>
#include <zlib.h>

/* ---------------------------------------------------------------- encoders */

typedef struct membuf {
  uint8_t *p;
  size_t n, cap;
} membuf;

static void mb_put(membuf *m, const void *d, size_t n) {
  if (m->n + n > m->cap) {
    m->cap = (m->n + n) * 2 + 64;
    m->p = realloc(m->p, m->cap);
  }
  memcpy(m->p + m->n, d, n);
  m->n += n;
}

static void png_mem_write(png_structp png, png_bytep d, size_t n) { mb_put(png_get_io_ptr(png), d, n); }
static void png_mem_flush(png_structp png) { (void)png; }

/* A PNG of color_type / bit_depth from rows of samples (16-bit samples big-endian as PNG stores them). */
static membuf make_png(int w, int h, int color_type, int depth, const uint8_t *rows, size_t stride,
                       const png_color *pal, int npal, const uint8_t *trns, int ntrns) {
  membuf m = {0};
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png_create_info_struct(png);
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    free(m.p);
    return (membuf){0};
  }
  png_set_write_fn(png, &m, png_mem_write, png_mem_flush);
  png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, depth, color_type, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  if (pal) png_set_PLTE(png, info, pal, npal);
  if (trns) png_set_tRNS(png, info, trns, ntrns, NULL);
  png_write_info(png, info);
  for (int y = 0; y < h; y++) png_write_row(png, rows + (size_t)y * stride);
  png_write_end(png, NULL);
  png_destroy_write_struct(&png, &info);
  return m;
}

static membuf make_jpeg(int w, int h, int comps, const uint8_t *px) {
  struct jpeg_compress_struct c;
  struct jpeg_error_mgr err;
  c.err = jpeg_std_error(&err);
  jpeg_create_compress(&c);
  unsigned char *out = NULL;
  unsigned long n = 0;
  jpeg_mem_dest(&c, &out, &n);
  c.image_width = (JDIMENSION)w;
  c.image_height = (JDIMENSION)h;
  c.input_components = comps;
  c.in_color_space = comps == 1 ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_set_defaults(&c);
  jpeg_set_quality(&c, 100, TRUE);
  for (int i = 0; i < c.num_components; i++) c.comp_info[i].h_samp_factor = c.comp_info[i].v_samp_factor = 1;
  jpeg_start_compress(&c, TRUE);
  while (c.next_scanline < c.image_height) {
    JSAMPROW row = (JSAMPROW)(px + (size_t)c.next_scanline * w * comps);
    jpeg_write_scanlines(&c, &row, 1);
  }
  jpeg_finish_compress(&c);
  jpeg_destroy_compress(&c);
  membuf m = {0};
  mb_put(&m, out, n);
  free(out);
  return m;
}

static int gif_mem_write(GifFileType *f, const GifByteType *d, int n) {
  mb_put(f->UserData, d, (size_t)n);
  return n;
}

/* A GIF89a of screen sw x sh with one frame (fx, fy, fw, fh) of palette indices;
 * transparent index tr (-1: none); interlaced frames are written in pass order. */
static membuf make_gif(int sw, int sh, int fx, int fy, int fw, int fh, const uint8_t *idx, int tr, bool interlace) {
  membuf m = {0};
  int err;
  GifFileType *f = EGifOpen(&m, gif_mem_write, &err);
  GifColorType cols[4] = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {10, 20, 30}};
  ColorMapObject *cmap = GifMakeMapObject(4, cols);
  EGifSetGifVersion(f, true);
  EGifPutScreenDesc(f, sw, sh, 2, 0, cmap);
  if (tr >= 0) {
    GraphicsControlBlock gcb = {.DisposalMode = DISPOSAL_UNSPECIFIED, .DelayTime = 0, .TransparentColor = tr};
    GifByteType ext[4];
    size_t n = EGifGCBToExtension(&gcb, ext);
    EGifPutExtension(f, GRAPHICS_EXT_FUNC_CODE, (int)n, ext);
  }
  EGifPutImageDesc(f, fx, fy, fw, fh, interlace, NULL);
  static const int start[4] = {0, 4, 2, 1}, step[4] = {8, 8, 4, 2};
  for (int pass = 0; pass < (interlace ? 4 : 1); pass++)
    for (int y = interlace ? start[pass] : 0; y < fh; y += interlace ? step[pass] : 1)
      EGifPutLine(f, (GifPixelType *)(idx + (size_t)y * fw), fw);
  EGifCloseFile(f, &err);
  GifFreeMapObject(cmap);
  return m;
}

static uint32_t word(uint32_t r, uint32_t g, uint32_t b, uint32_t a) { return r | g << 8 | b << 16 | a << 24; }
static uint32_t premul(uint32_t r, uint32_t g, uint32_t b, uint32_t a) {
  return word((r * a + 127) / 255, (g * a + 127) / 255, (b * a + 127) / 255, a);
}

static cn_result decode(const membuf *m, uint32_t **t, uint32_t *w, uint32_t *h) {
  return cn_image_decode(m->p, m->n, 0, t, w, h, NULL);
}

/* ------------------------------------------------------------------ tests */

TEST(image_png_kinds_exact) {
  /* 8-bit RGBA: premultiplied on decode */
  uint8_t rgba[2 * 2 * 4] = {255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 0, 200, 100, 50, 51};
  membuf m = make_png(2, 2, PNG_COLOR_TYPE_RGBA, 8, rgba, 8, NULL, 0, NULL, 0);
  uint32_t *t = NULL, w, h;
  cn_image_format fmt;
  CHECK_OK(cn_image_decode(m.p, m.n, 0, &t, &w, &h, &fmt));
  CHECK(fmt == CN_IMAGE_FORMAT_PNG && w == 2 && h == 2);
  if (t) {
    CHECK_EQ_U64(t[0], word(255, 0, 0, 255));
    CHECK_EQ_U64(t[1], premul(0, 255, 0, 128));
    CHECK_EQ_U64(t[2], 0);
    CHECK_EQ_U64(t[3], premul(200, 100, 50, 51));
  }
  free(t), free(m.p);
  /* 8-bit grey */
  uint8_t grey[3] = {0, 77, 255};
  m = make_png(3, 1, PNG_COLOR_TYPE_GRAY, 8, grey, 3, NULL, 0, NULL, 0);
  CHECK_OK(decode(&m, &t, &w, &h));
  if (t) CHECK(t[0] == word(0, 0, 0, 255) && t[1] == word(77, 77, 77, 255) && t[2] == word(255, 255, 255, 255));
  free(t), free(m.p);
  /* 16-bit RGB (sRGB samples, no gAMA): high bytes, rounded */
  uint8_t rgb16[2 * 6] = {0xFF, 0xFF, 0x80, 0x00, 0x00, 0x00, 0x12, 0x34, 0x00, 0x00, 0xAB, 0xCD};
  m = make_png(2, 1, PNG_COLOR_TYPE_RGB, 16, rgb16, 12, NULL, 0, NULL, 0);
  CHECK_OK(decode(&m, &t, &w, &h));
  if (t) {
    CHECK_EQ_U64(t[0], word(255, 0x80, 0, 255)); /* 0x8000 / 257 = 127.5 -> 128 */
    CHECK_EQ_U64(t[1], word(0x12, 0, 0xAB, 255)); /* 0x1234/257 = 18.1, 0xABCD/257 = 171.0 */
  }
  free(t), free(m.p);
  /* 16-bit grey + alpha */
  uint8_t ga16[4] = {0xFF, 0xFF, 0x80, 0x80}; /* white, alpha 0x8080/257 = 128 */
  m = make_png(1, 1, PNG_COLOR_TYPE_GRAY_ALPHA, 16, ga16, 4, NULL, 0, NULL, 0);
  CHECK_OK(decode(&m, &t, &w, &h));
  if (t) CHECK_EQ_U64(t[0], premul(255, 255, 255, 128));
  free(t), free(m.p);
  /* palette, 4-bit, with tRNS */
  png_color pal[3] = {{10, 20, 30}, {250, 0, 0}, {0, 0, 250}};
  uint8_t trns[2] = {255, 0};
  uint8_t idx4[2] = {0x01, 0x20}; /* indices 0 1 2 0 */
  m = make_png(4, 1, PNG_COLOR_TYPE_PALETTE, 4, idx4, 2, pal, 3, trns, 2);
  CHECK_OK(decode(&m, &t, &w, &h));
  CHECK(w == 4 && h == 1);
  if (t) CHECK(t[0] == word(10, 20, 30, 255) && t[1] == 0 && t[2] == word(0, 0, 250, 255) && t[3] == t[0]);
  free(t), free(m.p);
  /* 1-bit grey */
  uint8_t bits[1] = {0xA0}; /* 1 0 1 0 */
  m = make_png(4, 1, PNG_COLOR_TYPE_GRAY, 1, bits, 1, NULL, 0, NULL, 0);
  CHECK_OK(decode(&m, &t, &w, &h));
  if (t) CHECK(t[0] == word(255, 255, 255, 255) && t[1] == word(0, 0, 0, 255) && t[2] == t[0]);
  free(t), free(m.p);
}

TEST(image_jpeg_gif_webp_exact) {
  /* JPEG, flat areas at quality 100 without subsampling decode to their values */
  uint8_t g[16 * 16];
  memset(g, 137, sizeof g);
  membuf m = make_jpeg(16, 16, 1, g);
  uint32_t *t = NULL, w, h;
  cn_image_format fmt;
  CHECK_OK(cn_image_decode(m.p, m.n, 0, &t, &w, &h, &fmt));
  CHECK(fmt == CN_IMAGE_FORMAT_JPEG && w == 16 && h == 16);
  if (t) CHECK_EQ_U64(t[5 * 16 + 7], word(137, 137, 137, 255));
  free(t), free(m.p);
  uint8_t rgb[8 * 8 * 3];
  for (int i = 0; i < 64; i++) rgb[3 * i] = 200, rgb[3 * i + 1] = 100, rgb[3 * i + 2] = 40;
  m = make_jpeg(8, 8, 3, rgb);
  CHECK_OK(decode(&m, &t, &w, &h));
  if (t) { /* YCbCr round trip: within 1 */
    int r = t[9] & 255, gg = (t[9] >> 8) & 255, b = (t[9] >> 16) & 255;
    CHECK(abs(r - 200) <= 1 && abs(gg - 100) <= 1 && abs(b - 40) <= 1 && (t[9] >> 24) == 255);
  }
  free(t), free(m.p);

  /* GIF: the frame at (1, 1) on a 4x3 screen; index 3 transparent */
  uint8_t idx[2 * 2] = {0, 1, 2, 3};
  m = make_gif(4, 3, 1, 1, 2, 2, idx, 3, false);
  CHECK_OK(cn_image_decode(m.p, m.n, 0, &t, &w, &h, &fmt));
  CHECK(fmt == CN_IMAGE_FORMAT_GIF && w == 4 && h == 3);
  if (t) {
    CHECK_EQ_U64(t[0], 0);                          /* outside the frame */
    CHECK_EQ_U64(t[1 * 4 + 1], word(255, 0, 0, 255)); /* index 0 */
    CHECK_EQ_U64(t[1 * 4 + 2], word(0, 255, 0, 255));
    CHECK_EQ_U64(t[2 * 4 + 1], word(0, 0, 255, 255));
    CHECK_EQ_U64(t[2 * 4 + 2], 0); /* transparent index */
  }
  free(t), free(m.p);
  /* interlaced: 1 x 9 rows, index = row % 4 */
  uint8_t col[9];
  for (int y = 0; y < 9; y++) col[y] = (uint8_t)(y % 4);
  m = make_gif(1, 9, 0, 0, 1, 9, col, -1, true);
  CHECK_OK(decode(&m, &t, &w, &h));
  if (t && h == 9) {
    CHECK_EQ_U64(t[5], word(0, 255, 0, 255)); /* row 5: index 1 */
    CHECK_EQ_U64(t[7], word(10, 20, 30, 255)); /* row 7: index 3 */
  }
  free(t), free(m.p);

  /* WebP, lossless */
  uint8_t px[3 * 4] = {255, 0, 0, 255, 0, 128, 255, 255, 30, 60, 90, 100};
  uint8_t *out = NULL;
  size_t n = WebPEncodeLosslessRGBA(px, 3, 1, 12, &out);
  CHECK(n > 0);
  CHECK_OK(cn_image_decode(out, n, 0, &t, &w, &h, &fmt));
  CHECK(fmt == CN_IMAGE_FORMAT_WEBP && w == 3 && h == 1);
  if (t) CHECK(t[0] == word(255, 0, 0, 255) && t[1] == word(0, 128, 255, 255) && t[2] == premul(30, 60, 90, 100));
  WebPFree(out);
  free(t);
}

TEST(image_unsupported_and_sniff) {
  uint32_t *t = NULL, w, h;
  CHECK(cn_image_decode("<svg/>", 6, 0, &t, &w, &h, NULL) == CN_ERROR_UNSUPPORTED);
  CHECK_STR_CONTAINS(cn_last_error(), "SVG");
  CHECK(cn_image_decode("BM\x10\x00", 4, 0, &t, &w, &h, NULL) == CN_ERROR_UNSUPPORTED);
  CHECK(t == NULL);
  CHECK(cn_image_sniff("\xEF\xBB\xBF  <svg", 9) == CN_IMAGE_FORMAT_SVG);
  CHECK(cn_image_sniff("\x1F\x8B\x08", 3) == CN_IMAGE_FORMAT_SVGZ);
  CHECK(cn_image_decode(NULL, 0, 0, &t, &w, &h, NULL) == CN_ERROR_UNSUPPORTED);
}

/* Sets a PNG's IHDR size and fixes its CRC. */
static void png_set_size(membuf *m, uint32_t w, uint32_t h) {
  uint8_t *ihdr = m->p + 8 + 4; /* "IHDR" */
  for (int i = 0; i < 4; i++) ihdr[4 + i] = (uint8_t)(w >> (24 - 8 * i)), ihdr[8 + i] = (uint8_t)(h >> (24 - 8 * i));
  uint32_t crc = (uint32_t)crc32(0, ihdr, 17);
  for (int i = 0; i < 4; i++) ihdr[17 + i] = (uint8_t)(crc >> (24 - 8 * i));
}

TEST(image_bombs_refused_before_allocation) {
  uint32_t *t = NULL, w, h;
  uint8_t grey[4] = {1, 2, 3, 4};
  membuf m = make_png(2, 2, PNG_COLOR_TYPE_GRAY, 8, grey, 2, NULL, 0, NULL, 0);
  png_set_size(&m, 100000, 100000);
  CHECK(decode(&m, &t, &w, &h) == CN_ERROR_LIMIT);
  CHECK_STR_CONTAINS(cn_last_error(), "100000x100000");
  CHECK(t == NULL);
  /* under the default limit but above a caller's */
  png_set_size(&m, 2, 2);
  CHECK_OK(cn_image_decode(m.p, m.n, 4, &t, &w, &h, NULL));
  free(t);
  CHECK(cn_image_decode(m.p, m.n, 3, &t, &w, &h, NULL) == CN_ERROR_LIMIT);
  free(m.p);
  /* JPEG whose SOF claims 65000 x 65000 (4.2 G pixels) */
  uint8_t g[64];
  memset(g, 9, sizeof g);
  m = make_jpeg(8, 8, 1, g);
  bool patched = false;
  for (size_t i = 2; i + 8 < m.n; i++)
    if (m.p[i] == 0xFF && m.p[i + 1] == 0xC0) {
      m.p[i + 5] = 0xFD, m.p[i + 6] = 0xE8, m.p[i + 7] = 0xFD, m.p[i + 8] = 0xE8;
      patched = true;
      break;
    }
  CHECK(patched);
  CHECK(decode(&m, &t, &w, &h) == CN_ERROR_LIMIT);
  CHECK_STR_CONTAINS(cn_last_error(), "65000x65000");
  free(m.p);
  /* GIF screen 65535 x 65535 */
  uint8_t idx[1] = {0};
  m = make_gif(65535, 65535, 0, 0, 1, 1, idx, -1, false);
  CHECK(decode(&m, &t, &w, &h) == CN_ERROR_LIMIT);
  free(m.p);
  /* WebP (lossless) header patched to 16384 x 16384 */
  uint8_t px[4] = {1, 2, 3, 255};
  uint8_t *out = NULL;
  size_t n = WebPEncodeLosslessRGBA(px, 1, 1, 4, &out);
  CHECK(n > 25 && memcmp(out + 12, "VP8L", 4) == 0);
  if (n > 25) {
    uint32_t bitsv = 0x3FFFu | (0x3FFFu << 14);
    for (int i = 0; i < 4; i++) out[21 + i] = (uint8_t)((out[21 + i] & (i == 3 ? 0xF0 : 0)) | (bitsv >> (8 * i)));
    CHECK(cn_image_decode(out, n, 0, &t, &w, &h, NULL) == CN_ERROR_LIMIT);
    CHECK_STR_CONTAINS(cn_last_error(), "16384x16384");
  }
  WebPFree(out);
  CHECK(t == NULL);
  /* a tEXt chunk after IHDR declaring 2 GiB of text in a file of a few dozen bytes: refused
   * before libpng allocates the declared length */
  m = make_png(2, 2, PNG_COLOR_TYPE_GRAY, 8, grey, 2, NULL, 0, NULL, 0);
  membuf bad = {0};
  mb_put(&bad, m.p, 33); /* signature and IHDR */
  mb_put(&bad, "\x78\x00\x00\x1A" "tEXt" "Comment\0x", 17);
  mb_put(&bad, m.p + 33, m.n - 33);
  CHECK(decode(&bad, &t, &w, &h) == CN_ERROR_PARSE);
  CHECK_STR_CONTAINS(cn_last_error(), "chunk 'tEXt' at byte 33 declares 2013265946 bytes");
  CHECK(t == NULL);
  free(bad.p);
  free(m.p);
}

/* Every prefix of each format: an error (never a crash, never a picture from half the data). */
TEST(image_truncated_and_corrupt) {
  uint8_t rgba[8 * 8 * 4];
  test_seed(5);
  for (size_t i = 0; i < sizeof rgba; i++) rgba[i] = (uint8_t)test_rand();
  uint8_t idx[64];
  for (int i = 0; i < 64; i++) idx[i] = (uint8_t)(i % 4);
  uint8_t *webp = NULL;
  size_t nwebp = WebPEncodeLosslessRGBA(rgba, 8, 8, 32, &webp);
  membuf files[4] = {make_png(8, 8, PNG_COLOR_TYPE_RGBA, 8, rgba, 32, NULL, 0, NULL, 0), make_jpeg(8, 8, 4 - 1, rgba),
                     make_gif(8, 8, 0, 0, 8, 8, idx, -1, false), {0}};
  mb_put(&files[3], webp, nwebp);
  WebPFree(webp);
  for (int f = 0; f < 4; f++) {
    uint32_t *t = NULL, w, h;
    CHECK_OK(decode(&files[f], &t, &w, &h));
    free(t);
    int errors = 0, total = 0;
    for (size_t cut = 0; cut < files[f].n; cut++) {
      cn_result r = cn_image_decode(files[f].p, cut, 0, &t, &w, &h, NULL);
      if (r == CN_OK) free(t);
      else errors++;
      total++;
    }
    /* every cut inside the pixel data fails; a cut in trailing chunks (PNG IEND, GIF trailer) may not */
    if (errors < total - 16) fprintf(stderr, "  format %d: %d of %d truncations decoded\n", f, total - errors, total);
    CHECK(errors >= total - 16);
    /* half the file is always an error */
    CHECK(cn_image_decode(files[f].p, files[f].n / 2, 0, &t, &w, &h, NULL) != CN_OK);
    /* flipped bytes: no crash, whatever the result */
    test_seed(11 + (uint32_t)f);
    for (int k = 0; k < 200; k++) {
      membuf c = {0};
      mb_put(&c, files[f].p, files[f].n);
      for (int j = 0; j < 3; j++) c.p[16 + test_rand() % (uint32_t)(c.n - 16)] ^= (uint8_t)(1 + test_rand() % 255);
      if (cn_image_decode(c.p, c.n, 0, &t, &w, &h, NULL) == CN_OK) free(t);
      free(c.p);
    }
    free(files[f].p);
  }
}

TEST(data_url_parsing) {
  uint8_t *b = NULL;
  size_t n = 0;
  char mime[64];
  CHECK_OK(cn_data_url_decode("data:image/PNG;base64,aGVs bG8=", 31, &b, &n, mime, sizeof mime));
  CHECK(n == 5 && b && memcmp(b, "hello", 5) == 0);
  CHECK(strcmp(mime, "image/png") == 0);
  free(b);
  const char *pct = "data:,a%20b%2Cc";
  CHECK_OK(cn_data_url_decode(pct, strlen(pct), &b, &n, mime, sizeof mime));
  CHECK(n == 5 && memcmp(b, "a b,c", 5) == 0 && mime[0] == 0);
  free(b);
  const char *svg = "data:image/svg+xml;charset=utf-8,%3Csvg%2F%3E";
  CHECK_OK(cn_data_url_decode(svg, strlen(svg), &b, &n, mime, sizeof mime));
  CHECK(n == 6 && memcmp(b, "<svg/>", 6) == 0 && strcmp(mime, "image/svg+xml") == 0);
  free(b);
  const char *nl = "data:;base64,\n  SGk=\n";
  CHECK_OK(cn_data_url_decode(nl, strlen(nl), &b, &n, NULL, 0));
  CHECK(n == 2 && memcmp(b, "Hi", 2) == 0);
  free(b);
  CHECK_OK(cn_data_url_decode("data:,", 6, &b, &n, NULL, 0));
  CHECK(n == 0 && b != NULL);
  free(b);
  CHECK(cn_data_url_decode("data:image/png;base64", 21, &b, &n, NULL, 0) == CN_ERROR_PARSE);
  CHECK_STR_CONTAINS(cn_last_error(), "','");
  CHECK(cn_data_url_decode("http://x/y.png", 14, &b, &n, NULL, 0) == CN_ERROR_PARSE);
  CHECK(cn_data_url_decode("data:;base64,ab!c", 17, &b, &n, NULL, 0) == CN_ERROR_PARSE);
  CHECK_STR_CONTAINS(cn_last_error(), "'!'");
  CHECK(cn_data_url_decode("data:,abc%2", 11, &b, &n, NULL, 0) == CN_ERROR_PARSE);
  CHECK(cn_data_url_decode("data:,abc%zz", 12, &b, &n, NULL, 0) == CN_ERROR_PARSE);
  CHECK(b == NULL);
}

/* The scene builder's image limits. */
TEST(image_scene_limits) {
  cn_scene_builder *sb;
  CHECK_OK(cn_scene_builder_create(&sb));
  CHECK_OK(cn_scene_begin(sb, 0, 0, 10, 10));
  uint32_t tex[4] = {0}, im, paint;
  CHECK_OK(cn_scene_image(sb, tex, 2, 2, &im));
  CHECK(cn_scene_image(sb, tex, 0, 2, &im) == CN_ERROR_INVALID_ARGUMENT);
  CHECK(cn_scene_image(sb, tex, 1u << 13, 1u << 13, &im) == CN_ERROR_LIMIT); /* 64 Mi > per-image limit */
  cn_transform t = {1, 0, 0, 1, 0, 0};
  CHECK_OK(cn_scene_image_paint(sb, 0, &t, CN_SAMPLE_NEAREST, 1, &paint));
  CHECK(cn_scene_image_paint(sb, 1, &t, CN_SAMPLE_NEAREST, 1, &paint) == CN_ERROR_INVALID_ARGUMENT);
  CHECK(cn_scene_image_paint(sb, 0, &t, 2, 1, &paint) == CN_ERROR_INVALID_ARGUMENT);
  cn_scene_data d;
  CHECK_OK(cn_scene_end(sb, &d));
  CHECK(d.image_count == 1 && d.image_pixel_count == 4 && d.paints[paint].kind == CN_PAINT_IMAGE);
  CHECK_OK(cn_scene_validate(&d));
  cn_image bad = d.images[0];
  bad.width = 3;
  cn_scene_data d2 = d;
  d2.images = &bad;
  CHECK(cn_scene_validate(&d2) == CN_ERROR_INVALID_ARGUMENT);
  cn_scene_builder_destroy(sb);
}

TEST_MAIN(T(image_png_kinds_exact), T(image_jpeg_gif_webp_exact), T(image_unsupported_and_sniff),
          T(image_bombs_refused_before_allocation), T(image_truncated_and_corrupt), T(data_url_parsing),
          T(image_scene_limits))
