/* png.c: RGBA8 PNG files through libpng's simplified API (see cn_png.h). */
#include "cn_png.h"
#include "scene_internal.h"

#include <errno.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CN_TRY_PNG(expr)            \
  do {                              \
    cn_result t_ = (expr);          \
    if (t_ != CN_OK) return t_;     \
  } while (0)

cn_result cn_png_encode_rgba8(const uint8_t *rgba, uint32_t width, uint32_t height, void **png, size_t *size) {
  if (!png || !size) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_png_encode_rgba8: NULL argument");
  *png = NULL;
  *size = 0;
  if (!rgba || !width || !height) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_png_encode_rgba8: no pixels or zero size");
  if (width > 0x7fffffffu / 4) return cn_fail(CN_ERROR_LIMIT, "cn_png_encode_rgba8: %u pixels wide is too wide", width);
  png_image img;
  memset(&img, 0, sizeof img);
  img.version = PNG_IMAGE_VERSION;
  img.width = width;
  img.height = height;
  img.format = PNG_FORMAT_RGBA; /* 8-bit sRGB, straight alpha */
  /* First the size (NULL memory), then the bytes. */
  png_alloc_size_t n = 0;
  if (!png_image_write_to_memory(&img, NULL, &n, 0, rgba, (png_int_32)(width * 4), NULL)) {
    cn_result r = cn_fail(CN_ERROR_IO, "PNG encoding failed: %s", img.message);
    png_image_free(&img);
    return r;
  }
  void *buf = malloc(n ? n : 1);
  if (!buf) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "out of memory for a %zu-byte PNG", (size_t)n);
  if (!png_image_write_to_memory(&img, buf, &n, 0, rgba, (png_int_32)(width * 4), NULL)) {
    cn_result r = cn_fail(CN_ERROR_IO, "PNG encoding failed: %s", img.message);
    png_image_free(&img);
    free(buf);
    return r;
  }
  *png = buf;
  *size = (size_t)n;
  return CN_OK;
}

cn_result cn_png_write_rgba8(const char *path, const uint8_t *rgba, uint32_t width, uint32_t height) {
  if (!path || !rgba || !width || !height)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_png_write_rgba8: NULL argument or zero size");
  void *png = NULL;
  size_t size = 0;
  CN_TRY_PNG(cn_png_encode_rgba8(rgba, width, height, &png, &size));
  /* A temporary file beside path, renamed over it once complete: a failure
   * leaves an existing file as it was. */
  size_t len = strlen(path);
  char *tmp = malloc(len + 8);
  if (!tmp) {
    free(png);
    return cn_fail(CN_ERROR_OUT_OF_MEMORY, "out of host memory");
  }
  memcpy(tmp, path, len);
  memcpy(tmp + len, ".XXXXXX", 8);
  cn_result r = CN_OK;
  int fd = mkstemp(tmp);
  FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
  if (!f) {
    r = cn_fail(CN_ERROR_IO, "%s: cannot write: %s", path, strerror(errno));
    if (fd >= 0) close(fd), unlink(tmp);
  } else {
    mode_t mask = umask(0);
    umask(mask);
    bool ok = fchmod(fd, 0666 & ~mask) == 0;
    ok &= fwrite(png, 1, size, f) == size;
    ok &= fflush(f) == 0;
    int e = errno;
    ok &= fclose(f) == 0;
    if (ok && rename(tmp, path) != 0) ok = false, e = errno;
    if (!ok) {
      unlink(tmp);
      r = cn_fail(CN_ERROR_IO, "%s: cannot write: %s", path, strerror(e ? e : errno));
    }
  }
  free(tmp);
  free(png);
  return r;
}

cn_result cn_png_read_rgba8(const char *path, uint8_t **rgba, uint32_t *width, uint32_t *height) {
  if (!path || !rgba || !width || !height) return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_png_read_rgba8: NULL argument");
  *rgba = NULL;
  *width = *height = 0;
  FILE *f = fopen(path, "rb");
  if (!f) return cn_fail(CN_ERROR_IO, "%s: cannot open: %s", path, strerror(errno));
  png_image img;
  memset(&img, 0, sizeof img);
  img.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_stdio(&img, f)) {
    fclose(f);
    return cn_fail(CN_ERROR_PARSE, "%s: not a readable PNG: %s", path, img.message);
  }
  if (img.width == 0 || img.height == 0 || img.width > 65536 || img.height > 65536) {
    png_image_free(&img);
    fclose(f);
    return cn_fail(CN_ERROR_LIMIT, "%s: PNG of %ux%u pixels: each side must be 1..65536", path, img.width, img.height);
  }
  img.format = PNG_FORMAT_RGBA;
  uint8_t *px = malloc((size_t)img.width * img.height * 4);
  if (!px) {
    png_image_free(&img);
    fclose(f);
    return cn_fail(CN_ERROR_OUT_OF_MEMORY, "%s: out of memory for %ux%u pixels", path, img.width, img.height);
  }
  int ok = png_image_finish_read(&img, NULL, px, (png_int_32)(img.width * 4), NULL);
  fclose(f);
  if (!ok) {
    cn_result r = cn_fail(CN_ERROR_PARSE, "%s: PNG read failed: %s", path, img.message);
    png_image_free(&img);
    free(px);
    return r;
  }
  *rgba = px;
  *width = img.width;
  *height = img.height;
  return CN_OK;
}
