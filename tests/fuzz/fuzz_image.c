/* fuzz_image.c: libFuzzer target of the image decoders and data: URLs
 * (cn_image.h). Any input must decode or fail with a message; a decoded
 * image must lie within the pixel limit given. Seeds: tests/fuzz/seeds/image/
 * (small PNG, JPEG, GIF and WebP files of every kind, headers claiming huge
 * sizes, truncated files, a data: URL). */
#include <canopy/canopy.h>
#include <canopy/cn_image.h>

#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const uint64_t max_pixels = 1u << 20; /* keeps each run quick */
  uint32_t *texels = NULL, w = 0, h = 0;
  cn_result r = cn_image_decode(data, size, max_pixels, &texels, &w, &h, NULL);
  if (r == CN_OK) {
    if (!texels || !w || !h || (uint64_t)w * h > max_pixels) {
      fprintf(stderr, "fuzz_image: decoded %ux%u beyond the limit\n", w, h);
      abort();
    }
    free(texels);
  } else if (!cn_last_error()[0]) {
    fprintf(stderr, "fuzz_image: %s without a message\n", cn_result_name(r));
    abort();
  }
  uint8_t *bytes = NULL;
  size_t n = 0;
  char mime[32];
  r = cn_data_url_decode((const char *)data, size, &bytes, &n, mime, sizeof mime);
  if (r == CN_OK && (!bytes || n > size)) abort();
  free(bytes);
  return 0;
}
