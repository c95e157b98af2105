/* image_decode.c: raster image decoding (cn_image.h) through libpng,
 * libjpeg-turbo, giflib and libwebp, and data: URLs. Every decoder reads the
 * size from the header first and refuses it against the pixel limit before
 * allocating pixels. */
#include "cn_image.h"
#include "cn_scene_api.h"
#include "scene_internal.h"

#include <ctype.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <gif_lib.h>
#include <jpeglib.h>
#include <jerror.h>
#include <png.h>
#include <webp/decode.h>

cn_image_format cn_image_sniff(const void *data, size_t size) {
  const uint8_t *p = data;
  if (!p) return CN_IMAGE_FORMAT_UNKNOWN;
  if (size >= 8 && memcmp(p, "\x89PNG\r\n\x1a\n", 8) == 0) return CN_IMAGE_FORMAT_PNG;
  if (size >= 3 && p[0] == 0xFF && p[1] == 0xD8 && p[2] == 0xFF) return CN_IMAGE_FORMAT_JPEG;
  if (size >= 6 && (memcmp(p, "GIF87a", 6) == 0 || memcmp(p, "GIF89a", 6) == 0)) return CN_IMAGE_FORMAT_GIF;
  if (size >= 12 && memcmp(p, "RIFF", 4) == 0 && memcmp(p + 8, "WEBP", 4) == 0) return CN_IMAGE_FORMAT_WEBP;
  if (size >= 2 && p[0] == 0x1F && p[1] == 0x8B) return CN_IMAGE_FORMAT_SVGZ;
  size_t i = 0;
  if (size >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) i = 3;
  while (i < size && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n')) i++;
  if (i < size && p[i] == '<') return CN_IMAGE_FORMAT_SVG;
  return CN_IMAGE_FORMAT_UNKNOWN;
}

const char *cn_image_format_name(cn_image_format f) {
  static const char *const names[] = {"unknown", "png", "jpeg", "gif", "webp", "svg", "svgz"};
  return (unsigned)f < CN_ARRAY_LEN(names) ? names[f] : "unknown";
}

/* Premultiplies straight RGBA8 bytes in place (words of cn_scene_image). */
static void premultiply(uint8_t *px, size_t n) {
  for (size_t i = 0; i < n; i++, px += 4) {
    uint32_t a = px[3];
    if (a == 255) continue;
    for (int c = 0; c < 3; c++) px[c] = (uint8_t)((px[c] * a + 127) / 255);
  }
}

static cn_result check_size(const char *fmt, uint64_t w, uint64_t h, uint64_t max_pixels) {
  if (w == 0 || h == 0) return cn_fail(CN_ERROR_LIMIT, "%s image of %llux%llu pixels: empty", fmt,
                                       (unsigned long long)w, (unsigned long long)h);
  if (w > 0xFFFFFFu || h > 0xFFFFFFu || w * h > max_pixels)
    return cn_fail(CN_ERROR_LIMIT, "%s image of %llux%llu pixels: at most %llu pixels (refused before decoding)", fmt,
                   (unsigned long long)w, (unsigned long long)h, (unsigned long long)max_pixels);
  return CN_OK;
}

static uint8_t *alloc_pixels(uint64_t w, uint64_t h) { return calloc((size_t)(w * h), 4); }

/* ------------------------------------------------------------------- PNG */

/* Walks the chunk list before libpng sees it: libpng allocates a text
 * chunk's declared length before reading it, so a corrupt length field
 * would cost up to 2 GiB. A chunk longer than the bytes that follow it is
 * refused here; the walk stops at IEND or where less than a chunk header
 * is left (libpng then reports the truncation itself). */
static cn_result png_check_chunks(const uint8_t *data, size_t size) {
  size_t p = 8;
  while (size - p >= 12) {
    const uint8_t *c = data + p;
    uint32_t len = (uint32_t)c[0] << 24 | (uint32_t)c[1] << 16 | (uint32_t)c[2] << 8 | c[3];
    char type[5];
    for (int i = 0; i < 4; i++) type[i] = isalpha(c[4 + i]) ? (char)c[4 + i] : '?';
    type[4] = 0;
    if (len > size - p - 12)
      return cn_fail(CN_ERROR_PARSE, "PNG image: chunk '%s' at byte %zu declares %u bytes of data, only %zu follow",
                     type, p, len, size - p - 12);
    if (memcmp(c + 4, "IEND", 4) == 0) break;
    p += 12 + (size_t)len;
  }
  return CN_OK;
}

static cn_result decode_png(const uint8_t *data, size_t size, uint64_t max_pixels, uint8_t **out, uint32_t *w,
                            uint32_t *h) {
  CN_TRY(png_check_chunks(data, size));
  png_image img;
  memset(&img, 0, sizeof img);
  img.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&img, data, size))
    return cn_fail(CN_ERROR_PARSE, "PNG image: %s", img.message);
  cn_result r = check_size("PNG", img.width, img.height, max_pixels);
  if (r != CN_OK) {
    png_image_free(&img);
    return r;
  }
  /* 16-bit files without gAMA/sRGB are sRGB like 8-bit ones (not linear) */
  img.flags |= PNG_IMAGE_FLAG_16BIT_sRGB;
  img.format = PNG_FORMAT_RGBA;
  uint8_t *px = alloc_pixels(img.width, img.height);
  if (!px) {
    png_image_free(&img);
    return cn_fail(CN_ERROR_OUT_OF_MEMORY, "PNG image: no memory for %ux%u pixels", img.width, img.height);
  }
  if (!png_image_finish_read(&img, NULL, px, (png_int_32)(img.width * 4), NULL)) {
    r = cn_fail(CN_ERROR_PARSE, "PNG image: %s", img.message);
    png_image_free(&img);
    free(px);
    return r;
  }
  *out = px;
  *w = img.width;
  *h = img.height;
  return CN_OK;
}

/* ------------------------------------------------------------------ JPEG */

typedef struct jpeg_guard {
  struct jpeg_error_mgr pub;
  struct jpeg_progress_mgr progress;
  jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
  bool too_many_scans;
} jpeg_guard;

static void jpeg_fail_exit(j_common_ptr c) {
  jpeg_guard *g = (jpeg_guard *)c->err;
  g->pub.format_message(c, g->message);
  longjmp(g->jump, 1);
}

/* Warnings (corrupt data libjpeg recovers from) are not printed; running out
 * of data (a truncated file, which libjpeg would pad with grey) is an error. */
static void jpeg_quiet(j_common_ptr c, int level) {
  if (level == -1 && c->err->msg_code == JWRN_JPEG_EOF) {
    jpeg_guard *g = (jpeg_guard *)c->err;
    snprintf(g->message, sizeof g->message, "truncated (the data ends before the image)");
    longjmp(g->jump, 1);
  }
}

static void jpeg_scan_guard(j_common_ptr c) {
  j_decompress_ptr d = (j_decompress_ptr)c;
  jpeg_guard *g = (jpeg_guard *)c->err;
  if (d->input_scan_number > CN_IMAGE_MAX_JPEG_SCANS) {
    g->too_many_scans = true;
    snprintf(g->message, sizeof g->message, "more than %d progressive scans", CN_IMAGE_MAX_JPEG_SCANS);
    longjmp(g->jump, 1);
  }
}

static cn_result decode_jpeg(const uint8_t *data, size_t size, uint64_t max_pixels, uint8_t **out, uint32_t *w,
                             uint32_t *h) {
  struct jpeg_decompress_struct d;
  jpeg_guard g;
  memset(&g, 0, sizeof g);
  d.err = jpeg_std_error(&g.pub);
  g.pub.error_exit = jpeg_fail_exit;
  g.pub.emit_message = jpeg_quiet;
  /* set before setjmp, read after a longjmp: volatile */
  uint8_t *volatile px = NULL;
  uint8_t *volatile row = NULL;
  volatile cn_result limit = CN_OK;
  if (setjmp(g.jump)) {
    jpeg_destroy_decompress(&d);
    free(px);
    free(row);
    if (limit != CN_OK) return limit;
    return cn_fail(g.too_many_scans ? CN_ERROR_LIMIT : CN_ERROR_PARSE, "JPEG image: %s", g.message);
  }
  jpeg_create_decompress(&d);
  g.progress.progress_monitor = jpeg_scan_guard;
  d.progress = &g.progress;
  /* bounds libjpeg's own buffers (whole-image coefficient arrays of progressive files) */
  d.mem->max_memory_to_use = 512l << 20;
  jpeg_mem_src(&d, data, (unsigned long)size);
  jpeg_read_header(&d, TRUE);
  cn_result r = check_size("JPEG", d.image_width, d.image_height, max_pixels);
  if (r != CN_OK) {
    limit = r;
    longjmp(g.jump, 1);
  }
  bool cmyk = d.jpeg_color_space == JCS_CMYK || d.jpeg_color_space == JCS_YCCK;
  d.out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;
  jpeg_start_decompress(&d);
  uint32_t width = d.output_width, height = d.output_height;
  px = alloc_pixels(width, height);
  row = malloc((size_t)width * 4);
  if (!px || !row) {
    limit = cn_fail(CN_ERROR_OUT_OF_MEMORY, "JPEG image: no memory for %ux%u pixels", width, height);
    longjmp(g.jump, 1);
  }
  while (d.output_scanline < height) {
    uint8_t *dst = px + (size_t)d.output_scanline * width * 4;
    JSAMPROW rows[1] = {cmyk ? row : dst};
    if (jpeg_read_scanlines(&d, rows, 1) != 1) break;
    if (cmyk) { /* Adobe CMYK is stored inverted: R = C * K / 255 on the stored values */
      for (uint32_t x = 0; x < width; x++) {
        uint32_t k = row[4 * x + 3];
        for (int c = 0; c < 3; c++) dst[4 * x + c] = (uint8_t)((row[4 * x + c] * k + 127) / 255);
        dst[4 * x + 3] = 255;
      }
    }
  }
  jpeg_finish_decompress(&d);
  jpeg_destroy_decompress(&d);
  free(row);
  *out = px;
  *w = width;
  *h = height;
  return CN_OK;
}

/* ------------------------------------------------------------------- GIF */

typedef struct gif_mem {
  const uint8_t *data;
  size_t size, pos;
} gif_mem;

static int gif_read(GifFileType *f, GifByteType *buf, int n) {
  gif_mem *m = f->UserData;
  size_t left = m->size - m->pos, k = n < 0 ? 0 : (size_t)n;
  if (k > left) k = left;
  memcpy(buf, m->data + m->pos, k);
  m->pos += k;
  return (int)k;
}

static cn_result gif_error(GifFileType *f, int err) {
  const char *msg = GifErrorString(f ? f->Error : err);
  cn_result r = cn_fail(CN_ERROR_PARSE, "GIF image: %s", msg ? msg : "corrupt data");
  if (f) DGifCloseFile(f, &err);
  return r;
}

/* The first frame on its logical screen (transparent elsewhere), with the
 * transparent colour of the graphic control extension before it. */
static cn_result decode_gif(const uint8_t *data, size_t size, uint64_t max_pixels, uint8_t **out, uint32_t *w,
                            uint32_t *h) {
  gif_mem m = {data, size, 0};
  int err = 0;
  GifFileType *f = DGifOpen(&m, gif_read, &err);
  if (!f) return gif_error(NULL, err);
  int transparent = -1;
  for (;;) {
    GifRecordType type;
    if (DGifGetRecordType(f, &type) == GIF_ERROR) return gif_error(f, 0);
    if (type == TERMINATE_RECORD_TYPE) {
      DGifCloseFile(f, &err);
      return cn_fail(CN_ERROR_PARSE, "GIF image: no image in the file");
    }
    if (type == EXTENSION_RECORD_TYPE) {
      int code;
      GifByteType *ext;
      if (DGifGetExtension(f, &code, &ext) == GIF_ERROR) return gif_error(f, 0);
      if (code == GRAPHICS_EXT_FUNC_CODE && ext && ext[0] >= 4) transparent = (ext[1] & 1) ? ext[4] : -1;
      while (ext) {
        if (DGifGetExtensionNext(f, &ext) == GIF_ERROR) return gif_error(f, 0);
      }
      continue;
    }
    if (type != IMAGE_DESC_RECORD_TYPE) continue;
    if (DGifGetImageDesc(f) == GIF_ERROR) return gif_error(f, 0);
    GifImageDesc *id = &f->Image;
    uint64_t sw = f->SWidth ? (uint64_t)f->SWidth : (uint64_t)id->Width;
    uint64_t sh = f->SHeight ? (uint64_t)f->SHeight : (uint64_t)id->Height;
    cn_result r = check_size("GIF", sw, sh, max_pixels);
    if (r == CN_OK) r = check_size("GIF frame of", id->Width, id->Height, max_pixels);
    if (r != CN_OK) {
      DGifCloseFile(f, &err);
      return r;
    }
    ColorMapObject *cmap = id->ColorMap ? id->ColorMap : f->SColorMap;
    if (!cmap) {
      DGifCloseFile(f, &err);
      return cn_fail(CN_ERROR_PARSE, "GIF image: no colour table");
    }
    uint8_t *px = alloc_pixels(sw, sh);
    GifPixelType *line = malloc((size_t)id->Width + 1);
    if (!px || !line) {
      free(px);
      free(line);
      DGifCloseFile(f, &err);
      return cn_fail(CN_ERROR_OUT_OF_MEMORY, "GIF image: no memory for %llux%llu pixels", (unsigned long long)sw,
                     (unsigned long long)sh);
    }
    static const int start[4] = {0, 4, 2, 1}, step[4] = {8, 8, 4, 2};
    int passes = id->Interlace ? 4 : 1;
    for (int pass = 0; pass < passes; pass++) {
      for (int y = id->Interlace ? start[pass] : 0; y < id->Height; y += id->Interlace ? step[pass] : 1) {
        if (DGifGetLine(f, line, id->Width) == GIF_ERROR) {
          free(px);
          free(line);
          return gif_error(f, 0);
        }
        int64_t dy = (int64_t)id->Top + y;
        if (dy < 0 || (uint64_t)dy >= sh) continue;
        for (int x = 0; x < id->Width; x++) {
          int64_t dx = (int64_t)id->Left + x;
          int c = line[x];
          if (dx < 0 || (uint64_t)dx >= sw || c == transparent || c >= cmap->ColorCount) continue;
          uint8_t *o = px + 4 * ((size_t)dy * sw + (size_t)dx);
          o[0] = cmap->Colors[c].Red, o[1] = cmap->Colors[c].Green, o[2] = cmap->Colors[c].Blue, o[3] = 255;
        }
      }
    }
    free(line);
    DGifCloseFile(f, &err);
    *out = px;
    *w = (uint32_t)sw;
    *h = (uint32_t)sh;
    return CN_OK;
  }
}

/* ------------------------------------------------------------------ WebP */

static cn_result decode_webp(const uint8_t *data, size_t size, uint64_t max_pixels, uint8_t **out, uint32_t *w,
                             uint32_t *h) {
  WebPBitstreamFeatures feat;
  VP8StatusCode st = WebPGetFeatures(data, size, &feat);
  if (st != VP8_STATUS_OK) return cn_fail(CN_ERROR_PARSE, "WebP image: unreadable header (libwebp status %d)", (int)st);
  if (feat.has_animation) return cn_fail(CN_ERROR_UNSUPPORTED, "WebP image: animated WebP is not supported");
  CN_TRY(check_size("WebP", (uint64_t)feat.width, (uint64_t)feat.height, max_pixels));
  uint8_t *px = alloc_pixels((uint64_t)feat.width, (uint64_t)feat.height);
  if (!px) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "WebP image: no memory for %dx%d pixels", feat.width, feat.height);
  size_t bytes = (size_t)feat.width * (size_t)feat.height * 4;
  if (!WebPDecodeRGBAInto(data, size, px, bytes, feat.width * 4)) {
    free(px);
    return cn_fail(CN_ERROR_PARSE, "WebP image: corrupt or truncated data");
  }
  *out = px;
  *w = (uint32_t)feat.width;
  *h = (uint32_t)feat.height;
  return CN_OK;
}

cn_result cn_image_decode(const void *data, size_t size, uint64_t max_pixels, uint32_t **texels, uint32_t *width,
                          uint32_t *height, cn_image_format *format) {
  if (!texels || !width || !height || (!data && size))
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_image_decode: NULL argument");
  *texels = NULL;
  *width = *height = 0;
  if (!max_pixels || max_pixels > CN_SCENE_MAX_IMAGE_PIXELS) max_pixels = CN_SCENE_MAX_IMAGE_PIXELS;
  cn_image_format f = cn_image_sniff(data, size);
  if (format) *format = f;
  uint8_t *px = NULL;
  uint32_t w = 0, h = 0;
  cn_result r;
  switch (f) {
    case CN_IMAGE_FORMAT_PNG: r = decode_png(data, size, max_pixels, &px, &w, &h); break;
    case CN_IMAGE_FORMAT_JPEG: r = decode_jpeg(data, size, max_pixels, &px, &w, &h); break;
    case CN_IMAGE_FORMAT_GIF: r = decode_gif(data, size, max_pixels, &px, &w, &h); break;
    case CN_IMAGE_FORMAT_WEBP: r = decode_webp(data, size, max_pixels, &px, &w, &h); break;
    default:
      return cn_fail(CN_ERROR_UNSUPPORTED, "image data of %zu bytes is not PNG, JPEG, GIF or WebP%s", size,
                     f == CN_IMAGE_FORMAT_SVG || f == CN_IMAGE_FORMAT_SVGZ ? " (an SVG document)" : "");
  }
  if (r != CN_OK) return r;
  premultiply(px, (size_t)w * h);
  *texels = (uint32_t *)px; /* little-endian: bytes R G B A are the word R | G << 8 | ... */
  *width = w;
  *height = h;
  return CN_OK;
}

/* --------------------------------------------------------------- data: */

static int hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static int b64val(int c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+' || c == '-') return 62; /* '-' and '_': the URL-safe alphabet */
  if (c == '/' || c == '_') return 63;
  return -1;
}

cn_result cn_data_url_decode(const char *url, size_t len, uint8_t **bytes, size_t *size, char *mime, size_t cap) {
  if (!url || !bytes || !size) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_data_url_decode: NULL argument");
  *bytes = NULL;
  *size = 0;
  if (mime && cap) mime[0] = 0;
  size_t i = 0;
  while (i < len && isspace((unsigned char)url[i])) i++;
  if (len - i < 5 || strncasecmp(url + i, "data:", 5) != 0)
    return cn_fail(CN_ERROR_PARSE, "data URL: does not start with 'data:'");
  i += 5;
  const char *comma = memchr(url + i, ',', len - i);
  if (!comma) return cn_fail(CN_ERROR_PARSE, "data URL: no ',' before the data");
  size_t head_end = (size_t)(comma - url);
  /* media type: up to the first ';' of the header; ";base64" as the last parameter */
  bool base64 = false;
  size_t mt_end = i;
  while (mt_end < head_end && url[mt_end] != ';') mt_end++;
  if (mime && cap) {
    size_t k = 0;
    for (size_t j = i; j < mt_end && k + 1 < cap; j++)
      if (!isspace((unsigned char)url[j])) mime[k++] = (char)tolower((unsigned char)url[j]);
    mime[k] = 0;
  }
  for (size_t j = mt_end; j < head_end;) {
    size_t s = j + 1, e = s;
    while (e < head_end && url[e] != ';') e++;
    size_t a = s, b = e;
    while (a < b && isspace((unsigned char)url[a])) a++;
    while (b > a && isspace((unsigned char)url[b - 1])) b--;
    if (b - a == 6 && strncasecmp(url + a, "base64", 6) == 0) base64 = true;
    j = e;
  }
  const char *d = comma + 1;
  size_t n = len - head_end - 1;
  uint8_t *out = malloc(n + 1); /* decoded data is never longer than its text */
  if (!out) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "data URL: no memory for %zu bytes", n);
  size_t o = 0;
  if (base64) {
    uint32_t acc = 0;
    int bits = 0;
    bool pad = false;
    for (size_t j = 0; j < n; j++) {
      int c = (unsigned char)d[j];
      if (c == '%' && j + 2 < n && hexval(d[j + 1]) >= 0 && hexval(d[j + 2]) >= 0) { /* percent-escaped base64 */
        c = hexval(d[j + 1]) * 16 + hexval(d[j + 2]);
        j += 2;
      }
      if (isspace(c)) continue;
      if (c == '=') {
        pad = true;
        continue;
      }
      int v = b64val(c);
      if (v < 0 || pad) {
        free(out);
        return cn_fail(CN_ERROR_PARSE, "data URL: '%c' at data offset %zu is not base64", isprint(c) ? c : '?', j);
      }
      acc = (acc << 6) | (uint32_t)v;
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        out[o++] = (uint8_t)(acc >> bits);
      }
    }
  } else {
    for (size_t j = 0; j < n; j++) {
      if (d[j] == '%') {
        if (j + 2 >= n) {
          free(out);
          return cn_fail(CN_ERROR_PARSE, "data URL: truncated '%%' escape at data offset %zu", j);
        }
        int a = hexval(d[j + 1]), b = hexval(d[j + 2]);
        if (a < 0 || b < 0) {
          free(out);
          return cn_fail(CN_ERROR_PARSE, "data URL: bad '%%' escape at data offset %zu", j);
        }
        out[o++] = (uint8_t)(a * 16 + b);
        j += 2;
      } else {
        out[o++] = (uint8_t)d[j];
      }
    }
  }
  *bytes = out;
  *size = o;
  return CN_OK;
}
