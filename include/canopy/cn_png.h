/* cn_png.h: reading and writing 8-bit RGBA PNG files with libpng (engine/png.c).
 *
 * Pixels are row-major RGBA8, 4 bytes per pixel, rows packed (stride width*4).
 * Written files are 8-bit sRGB RGBA with straight (non-premultiplied) alpha.
 */
#ifndef CN_PNG_H
#define CN_PNG_H

#include <stddef.h>
#include <stdint.h>

#include "canopy.h"
#include "cn_scene.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes width x height pixels to path, through a temporary file in the same
 * directory renamed over path once complete (a failure leaves an existing
 * file as it was). Fails with CN_ERROR_INVALID_ARGUMENT (NULL, a zero size),
 * CN_ERROR_IO (the file cannot be written: the message names it and why). */
CN_API cn_result cn_png_write_rgba8(const char *path, const uint8_t *rgba, uint32_t width, uint32_t height);

/* Encodes width x height pixels as a PNG file's bytes in memory: *png is
 * malloc'ed (free() it), *size its length. For writing to a stream or through
 * an application's own file handling. */
CN_API cn_result cn_png_encode_rgba8(const uint8_t *rgba, uint32_t width, uint32_t height, void **png, size_t *size);

/* Reads any PNG (palette, grey, 16-bit, with or without alpha) converted to
 * RGBA8 (straight alpha). *rgba is malloc'ed (free() it). Fails with
 * CN_ERROR_IO (cannot open), CN_ERROR_PARSE (not a valid PNG), CN_ERROR_LIMIT
 * (either side above 65536). */
CN_API cn_result cn_png_read_rgba8(const char *path, uint8_t **rgba, uint32_t *width, uint32_t *height);

#ifdef __cplusplus
}
#endif

#endif
