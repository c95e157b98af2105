/* fuzz_svg.c: libFuzzer target of the SVG loader (built with clang when
 * -DCANOPY_FUZZ=ON; scripts/fuzz.sh runs it for a bounded time).
 *
 * Any input must load or fail with a message; a loaded scene must pass
 * cn_scene_validate(). Anything else (a crash, a sanitizer report, a hang
 * past -timeout, memory past -rss_limit_mb, an abort below) is a bug: add
 * the input to tests/data/svg-crash/ with the fix. */
#include <canopy/canopy.h>
#include <canopy/cn_scene.h>
#include <canopy/cn_svg.h>

#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static cn_scene_builder *b;
  if (!b && cn_scene_builder_create(&b) != CN_OK) abort();
  /* smaller output limits than the defaults keep each run quick */
  static const char *const fonts[1] = {CANOPY_FUZZ_FONTS};
  cn_svg_options opt = {.max_segments = 1u << 20, .max_elements = 1u << 20, .font_dirs = fonts, .font_dir_count = 1,
                        .max_glyphs = 1u << 16};
  cn_scene_data scene;
  cn_svg_stats stats;
  cn_result r = cn_svg_load_memory(b, data, size, &opt, &scene, &stats);
  if (r == CN_OK) {
    if (cn_scene_validate(&scene) != CN_OK) {
      fprintf(stderr, "fuzz_svg: loaded scene is invalid: %s\n", cn_last_error());
      abort();
    }
  } else if (!cn_last_error()[0]) {
    fprintf(stderr, "fuzz_svg: %s without a message\n", cn_result_name(r));
    abort();
  }
  return 0;
}
