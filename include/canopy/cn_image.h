/* cn_image.h: raster images for image paints (scenes/image_decode.c).
 *
 * Decodes PNG (libpng: 1 to 16 bits, grey, palette, alpha), JPEG
 * (libjpeg-turbo: grey, YCbCr, CMYK), GIF (giflib: the first frame on its
 * logical screen, with its transparent colour) and WebP (libwebp, still
 * images) from memory into premultiplied RGBA8 texels, the format of
 * cn_scene_image(): one little-endian word per pixel, R in the low byte.
 *
 * Hostile input: the width and height are read from the header and checked
 * against max_pixels before any pixel memory is allocated (a PNG claiming
 * 100000 x 100000 fails at once with CN_ERROR_LIMIT); truncated and corrupt
 * data fail with CN_ERROR_PARSE naming the format and the decoder's message;
 * JPEGs with more than CN_IMAGE_MAX_JPEG_SCANS progressive scans are refused.
 *
 * Also here: data: URLs (RFC 2397, base64 or percent-encoded).
 */
#ifndef CN_IMAGE_H
#define CN_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "canopy.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cn_image_format {
  CN_IMAGE_FORMAT_UNKNOWN,
  CN_IMAGE_FORMAT_PNG,
  CN_IMAGE_FORMAT_JPEG,
  CN_IMAGE_FORMAT_GIF,
  CN_IMAGE_FORMAT_WEBP,
  CN_IMAGE_FORMAT_SVG,  /* XML text starting with '<' (after a BOM and spaces) */
  CN_IMAGE_FORMAT_SVGZ, /* gzip data (a compressed SVG) */
} cn_image_format;

/* Progressive JPEG scans accepted (each scan is a full pass over the image). */
#define CN_IMAGE_MAX_JPEG_SCANS 256

/* The format of data, from its first bytes (the MIME type of a data: URL is
 * not trusted, as browsers and resvg do). */
CN_API cn_image_format cn_image_sniff(const void *data, size_t size);
/* "png", "jpeg", "gif", "webp", "svg", "svgz" or "unknown"; never NULL. */
CN_API const char *cn_image_format_name(cn_image_format f);

/* Decodes a raster image (PNG, JPEG, GIF, WebP) into *texels (malloc'ed,
 * width x height premultiplied RGBA8 words; free() it). max_pixels bounds
 * width x height (0: CN_SCENE_MAX_IMAGE_PIXELS). Fails: CN_ERROR_INVALID_ARGUMENT
 * (NULL), CN_ERROR_UNSUPPORTED (not one of the four formats, an animated
 * WebP), CN_ERROR_LIMIT (too many pixels, a side of 0, too many scans),
 * CN_ERROR_PARSE (truncated or corrupt), CN_ERROR_OUT_OF_MEMORY. */
CN_API cn_result cn_image_decode(const void *data, size_t size, uint64_t max_pixels, uint32_t **texels,
                                 uint32_t *width, uint32_t *height, cn_image_format *format);

/* Decodes a data: URL ("data:[<mediatype>][;base64],<data>", whitespace in
 * base64 data ignored) of len bytes into *bytes (malloc'ed, free() it;
 * never NULL on success, even for 0 bytes). mime (cap bytes, may be NULL)
 * gets the media type, lower case ("" when none). Fails with
 * CN_ERROR_PARSE naming the problem (no "data:" scheme, no comma, a bad
 * base64 or percent escape). */
CN_API cn_result cn_data_url_decode(const char *url, size_t len, uint8_t **bytes, size_t *size, char *mime,
                                    size_t cap);

#ifdef __cplusplus
}
#endif

#endif
