/* png.c: RGBA8 PNG files through libpng's simplified API (see cn_png.h). */
#include "cn_png.h"
#include "cn_png.h"
#include "scene_internal.h"

#include <errno.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

cn_result cn_png_write_rgba8(const char *path, const uint8_t *rgba, uint32_t width, uint32_t height) {
  if (!path || !rgba || !width || !height)
    return cn_fail(CN_ERROR_INVALID_ARGUMENT, "cn_png_write_rgba8: NULL argument or zero size");
  FILE *f = fopen(path, "wb");
  if (!f) return cn_fail(CN_ERROR_IO, "%s: cannot write: %s", path, strerror(errno));
  png_image img;
  memset(&img, 0, sizeof img);
  img.version = PNG_IMAGE_VERSION;
  img.width = width;
  img.height = height;
  img.format = PNG_FORMAT_RGBA; /* 8-bit sRGB, straight alpha */
  int ok = png_image_write_to_stdio(&img, f, 0, rgba, (png_int_32)(width * 4), NULL);
  int closed = fclose(f);
  if (!ok) {
    cn_result r = cn_fail(CN_ERROR_IO, "%s: PNG write failed: %s", path, img.message);
    png_image_free(&img);
    return r;
  }
  if (closed != 0) return cn_fail(CN_ERROR_IO, "%s: cannot write: %s", path, strerror(errno));
  return CN_OK;
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
