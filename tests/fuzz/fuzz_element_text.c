/* fuzz_element_text.c: libFuzzer target of the element stream's text form
 * (cn_element_text_parse, the input of `canopy bbox` and `canopy bins`).
 *
 * Any input must parse or fail with a message that names a line. A parsed
 * stream must be what the format promises: brackets balanced and of the
 * right kinds, boxes finite, zero boxes on brackets' ends and blends, element
 * lines increasing. Anything else aborts (a bug: keep the input in
 * tests/data/fuzz-element-text/ with the fix). */
#include <canopy/cn_element_text.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what, uint64_t i) {
  fprintf(stderr, "fuzz_element_text: element %llu: %s\n", (unsigned long long)i, what);
  abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  cn_element_text s;
  cn_result r = cn_element_text_parse((const char *)data, size, &s);
  if (r != CN_OK) {
    if (!strstr(cn_last_error(), "line ")) {
      fprintf(stderr, "fuzz_element_text: %s without a line: %s\n", cn_result_name(r), cn_last_error());
      abort();
    }
    if (s.n || s.tags || s.boxes || s.lines) fail("a failed parse left elements", 0);
    return 0;
  }
  uint32_t *stack = s.n ? malloc(s.n * sizeof *stack) : NULL;
  uint64_t depth = 0;
  for (uint64_t i = 0; i < s.n; i++) {
    uint32_t t = s.tags[i];
    cn_box b = s.boxes[i];
    if (!isfinite(b.x0) || !isfinite(b.y0) || !isfinite(b.x1) || !isfinite(b.y1)) fail("box not finite", i);
    if (i && s.lines[i] <= s.lines[i - 1]) fail("lines not increasing", i);
    if (t == CN_TAG_BEGIN_CLIP || t == CN_TAG_BEGIN_BLEND) {
      stack[depth++] = t;
    } else if (t == CN_TAG_END_CLIP || t == CN_TAG_END_BLEND) {
      if (!depth || stack[depth - 1] + 1 != t) fail("unbalanced end accepted", i);
      depth--;
    } else if (t != CN_TAG_FILL) {
      fail("unknown tag", i);
    }
    bool boxed = t == CN_TAG_FILL || t == CN_TAG_BEGIN_CLIP;
    if (!boxed && (b.x0 != 0 || b.y0 != 0 || b.x1 != 0 || b.y1 != 0)) fail("box on an element without one", i);
  }
  if (depth) fail("open group accepted", s.n);
  if (s.has_viewport && !(s.viewport[2] >= s.viewport[0] && s.viewport[3] >= s.viewport[1])) fail("viewport inverted", 0);
  free(stack);
  cn_element_text_free(&s);
  return 0;
}
