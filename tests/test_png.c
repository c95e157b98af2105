/* test_png.c: PNG writing and reading (engine/png.c). */
#include <canopy/cn_png.h>
#include "test.h"

#include <stdio.h>
#include <unistd.h>

TEST(png_round_trip) {
  const uint32_t w = 37, h = 19;
  uint8_t *px = malloc(w * h * 4);
  test_seed(3);
  for (uint32_t i = 0; i < w * h * 4; i++) px[i] = (uint8_t)test_rand();
  char path[] = "/tmp/cn_test_png_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd >= 0) close(fd);
  CHECK_OK(cn_png_write_rgba8(path, px, w, h));
  uint8_t *back = NULL;
  uint32_t bw = 0, bh = 0;
  CHECK_OK(cn_png_read_rgba8(path, &back, &bw, &bh));
  CHECK_EQ_U64(bw, w);
  CHECK_EQ_U64(bh, h);
  CHECK(back && memcmp(back, px, w * h * 4) == 0); /* straight alpha survives exactly */
  free(back);
  /* not a PNG */
  FILE *f = fopen(path, "wb");
  if (f) {
    fputs("not a png at all", f);
    fclose(f);
  }
  CHECK(cn_png_read_rgba8(path, &back, &bw, &bh) == CN_ERROR_PARSE);
  CHECK_STR_CONTAINS(cn_last_error(), path);
  remove(path);
  CHECK(cn_png_read_rgba8("/nonexistent/x.png", &back, &bw, &bh) == CN_ERROR_IO);
  CHECK(cn_png_write_rgba8("/nonexistent/dir/x.png", px, w, h) == CN_ERROR_IO);
  CHECK_STR_CONTAINS(cn_last_error(), "/nonexistent/dir/x.png");
  CHECK(cn_png_write_rgba8(path, px, 0, h) == CN_ERROR_INVALID_ARGUMENT);
  free(px);
}

TEST_MAIN(T(png_round_trip))
