/* test_svg_bad.c: bad input to the SVG loader: each case gets the expected
 * error code and message (with its line), or loads with the element skipped
 * where SVG says so; never a crash, hang or unbounded memory. CPU only. */
#include "test.h"

#include <libxml/xmlmemory.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

static cn_scene_builder *builder;
static cn_scene_data scene;
static cn_svg_stats stats;

#define SVG_OPEN "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" "

static cn_result try_load(const char *text, size_t n, const cn_svg_options *opt) {
  if (!builder) CHECK_OK(cn_scene_builder_create(&builder));
  return cn_svg_load_memory(builder, text, n, opt, &scene, &stats);
}

/* Expects code and a message containing each of the given pieces. */
static void expect(const char *text, cn_result code, const char *msg) {
  cn_result r = try_load(text, strlen(text), NULL);
  if (r != code)
    fprintf(stderr, "  expected %s, got %s: %s\n", cn_result_name(code), cn_result_name(r), cn_last_error());
  CHECK(r == code);
  if (msg) CHECK_STR_CONTAINS(cn_last_error(), msg);
}

/* A growable string. */
typedef struct sbuf {
  char *s;
  size_t n, cap;
} sbuf;
static void put(sbuf *b, const char *t) {
  size_t k = strlen(t);
  if (b->n + k + 1 > b->cap) {
    b->cap = (b->n + k + 1) * 2;
    b->s = realloc(b->s, b->cap);
  }
  memcpy(b->s + b->n, t, k + 1);
  b->n += k;
}

TEST(empty_and_malformed) {
  expect("", CN_ERROR_PARSE, "line 1: empty input");
  expect("   \n", CN_ERROR_PARSE, "malformed XML");
  expect(SVG_OPEN "width=\"10\" height=\"10\">\n<g>\n<rect width=\"5\"", CN_ERROR_PARSE, "line 3: malformed XML");
  expect(SVG_OPEN "width=\"10\" height=\"10\">\n<g></svg>", CN_ERROR_PARSE, "line 2: malformed XML");
  expect("<html><body/></html>", CN_ERROR_PARSE, "line 1: the root element is <html>, not an SVG <svg>");
  expect("\xff\xfe\x00garbage", CN_ERROR_PARSE, "malformed XML");
  expect("<?xml version=\"1.0\"?>\n<!-- only a comment -->\n", CN_ERROR_PARSE, "malformed XML");
}

TEST(no_external_entities_or_network) {
  expect("<?xml version=\"1.0\"?>\n<!DOCTYPE svg [ <!ENTITY ext SYSTEM \"file:///etc/passwd\"> ]>\n"
         SVG_OPEN "width=\"10\" height=\"10\"><rect width=\"1\" height=\"1\" id=\"&ext;\"/></svg>",
         CN_ERROR_PARSE, "line 3: malformed XML: Attribute references external entity 'ext'");
  /* internal entities are expanded in attributes only when they hold no further references */
  expect("<?xml version=\"1.0\"?>\n<!DOCTYPE svg [ <!ENTITY a \"1\"> <!ENTITY b \"&a;&a;\"> ]>\n"
         SVG_OPEN "width=\"10\" height=\"10\">\n<rect width=\"&b;\" height=\"1\"/></svg>",
         CN_ERROR_PARSE, "line 4: attribute width of <rect> uses entity &b; which is not expanded");
  /* an external DTD is not loaded (NONET, no DTDLOAD): the document still loads */
  const char *doc = "<?xml version=\"1.0\"?>\n<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" "
                    "\"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n" SVG_OPEN
                    "width=\"10\" height=\"10\"><rect width=\"1\" height=\"1\"/></svg>";
  CHECK_OK(try_load(doc, strlen(doc), NULL));
  CHECK_EQ_U64(scene.element_count, 1);
}

TEST(billion_laughs) {
  sbuf b = {0};
  put(&b, "<?xml version=\"1.0\"?>\n<!DOCTYPE svg [\n<!ENTITY lol0 \"lol\">\n");
  for (int i = 1; i < 10; i++) {
    char line[256];
    int k = snprintf(line, sizeof line, "<!ENTITY lol%d \"", i);
    for (int j = 0; j < 10; j++) k += snprintf(line + k, sizeof line - (size_t)k, "&lol%d;", i - 1);
    snprintf(line + k, sizeof line - (size_t)k, "\">\n");
    put(&b, line);
  }
  put(&b, "]>\n" SVG_OPEN "width=\"10\" height=\"10\"><desc>&lol9;</desc><rect fill=\"&lol9;\"/></svg>");
  cn_result r = try_load(b.s, b.n, NULL);
  CHECK(r == CN_ERROR_PARSE);
  CHECK_STR_CONTAINS(cn_last_error(), "line ");
  /* libxml2 stops it ("entity reference loop"), or our attribute rule does */
  CHECK(strstr(cn_last_error(), "entity") != NULL);
  free(b.s);
}

TEST(deep_group_nesting) {
  /* 100 000 nested groups: no depth limit in the parser or the traversal */
  sbuf b = {0};
  put(&b, SVG_OPEN "width=\"10\" height=\"10\">\n");
  for (int i = 0; i < 100000; i++) put(&b, "<g>");
  put(&b, "<rect width=\"1\" height=\"1\"/>");
  for (int i = 0; i < 100000; i++) put(&b, "</g>");
  put(&b, "</svg>");
  CHECK_OK(try_load(b.s, b.n, NULL));
  CHECK_EQ_U64(scene.element_count, 1);
  CHECK_EQ_U64(stats.fills, 1);
  free(b.s);
  /* 100 000 nested blend groups, two drawings in the innermost */
  b = (sbuf){0};
  put(&b, SVG_OPEN "width=\"10\" height=\"10\">\n");
  for (int i = 0; i < 100000; i++) put(&b, "<g opacity=\"0.9\">");
  put(&b, "<rect width=\"1\" height=\"1\"/><rect width=\"1\" height=\"1\"/>");
  for (int i = 0; i < 100000; i++) put(&b, "</g>");
  put(&b, "</svg>");
  CHECK_OK(try_load(b.s, b.n, NULL));
  CHECK_EQ_U64(stats.max_depth, 100000);
  CHECK_EQ_U64(stats.blend_groups, 100000);
  CHECK_EQ_U64(scene.element_count, 200002);
  CHECK_OK(cn_scene_validate(&scene));
  free(b.s);
  /* 400 000 nested blend groups hit the work budget (8 steps an element,
   * and each group's stream elements) or the element limit, never the C stack */
  b = (sbuf){0};
  put(&b, SVG_OPEN "width=\"10\" height=\"10\">\n");
  for (int i = 0; i < 400000; i++) put(&b, "<g opacity=\".5\">");
  put(&b, "<rect width=\"1\" height=\"1\"/><rect width=\"1\" height=\"1\"/>");
  for (int i = 0; i < 400000; i++) put(&b, "</g>");
  put(&b, "</svg>");
  cn_svg_options o = {.max_elements = 500000};
  CHECK(try_load(b.s, b.n, &o) == CN_ERROR_LIMIT);
  CHECK_STR_CONTAINS(cn_last_error(), "scene has more than 500000 elements");
  free(b.s);
}

TEST(deep_reference_chains) {
  /* 100 000 clipPaths each clipped by the next: 100 000 nested clip groups */
  sbuf b = {0};
  put(&b, SVG_OPEN "width=\"10\" height=\"10\"><defs>\n");
  char line[200];
  for (int i = 0; i < 100000; i++) {
    snprintf(line, sizeof line, "<clipPath id=\"c%d\" clip-path=\"url(#c%d)\"><rect width=\"5\" height=\"5\"/></clipPath>\n",
             i, i + 1);
    put(&b, line);
  }
  put(&b, "</defs><rect width=\"5\" height=\"5\" clip-path=\"url(#c0)\"/></svg>");
  CHECK_OK(try_load(b.s, b.n, NULL));
  CHECK_EQ_U64(stats.clips, 100000);
  CHECK_EQ_U64(stats.max_depth, 100000);
  CHECK_EQ_U64(scene.element_count, 200001);
  CHECK_EQ_U64(stats.skipped[CN_SVG_SKIP_MISSING_REF], 0);
  CHECK_OK(cn_scene_validate(&scene));
  free(b.s);
  /* 100 000 groups each using the next, the last a rectangle */
  b = (sbuf){0};
  put(&b, SVG_OPEN "width=\"10\" height=\"10\"><defs>\n");
  for (int i = 0; i < 100000; i++) {
    snprintf(line, sizeof line, "<g id=\"g%d\"><use href=\"#g%d\" x=\"%s\"/></g>\n", i, i + 1, i % 2 ? "0.00001" : "0");
    put(&b, line);
  }
  put(&b, "<rect id=\"g100000\" width=\"1\" height=\"1\"/></defs><use href=\"#g0\"/></svg>");
  CHECK_OK(try_load(b.s, b.n, NULL));
  CHECK_EQ_U64(scene.element_count, 1);
  CHECK_EQ_U64(scene.transform_count, 1);
  CHECK(fabsf(scene.transforms[0].e - 0.5f) < 1e-3f); /* 50 000 translations of 1e-5 */
  CHECK_EQ_U64(stats.warning_count, 0);
  free(b.s);
  /* the same as a cycle: the last uses the first */
  b = (sbuf){0};
  put(&b, SVG_OPEN "width=\"10\" height=\"10\"><defs>\n");
  for (int i = 0; i < 20000; i++) {
    snprintf(line, sizeof line, "<g id=\"g%d\"><use href=\"#g%d\"/><rect width=\"1\" height=\"1\"/></g>\n", i,
             (i + 1) % 20000);
    put(&b, line);
  }
  put(&b, "</defs><use href=\"#g0\"/></svg>");
  CHECK_OK(try_load(b.s, b.n, NULL));
  CHECK_EQ_U64(scene.element_count, 20000);
  CHECK_EQ_U64(stats.skipped[CN_SVG_SKIP_CYCLE], 1);
  CHECK_STR_CONTAINS(stats.warnings[0], "line 20001: <use> references #g0, which contains it (a cycle); skipped");
  free(b.s);
  /* masks whose content is masked by the next mask nest on the C stack:
   * refused past CN_SVG_MAX_DEPTH, naming the element */
  b = (sbuf){0};
  put(&b, SVG_OPEN "width=\"10\" height=\"10\"><defs>\n");
  for (int i = 0; i < 1000; i++) {
    snprintf(line, sizeof line, "<mask id=\"m%d\"><rect width=\"5\" height=\"5\" fill=\"white\" mask=\"url(#m%d)\"/></mask>\n",
             i, i + 1);
    put(&b, line);
  }
  put(&b, "</defs><rect width=\"5\" height=\"5\" mask=\"url(#m0)\"/></svg>");
  CHECK(try_load(b.s, b.n, NULL) == CN_ERROR_LIMIT);
  CHECK_STR_CONTAINS(cn_last_error(), "line 258: <mask>: mask, marker, pattern and clipPath-child clip-path content nested "
                                      "deeper than 256 levels");
  free(b.s);
}

TEST(reference_cycles_are_skipped_or_strict_errors) {
  const char *doc = SVG_OPEN "width=\"10\" height=\"10\">\n<g id=\"a\"><use href=\"#b\"/></g>\n"
                    "<g id=\"b\"><use href=\"#a\"/><rect width=\"1\" height=\"1\"/></g>\n<use id=\"self\" href=\"#self\"/>\n"
                    "<clipPath id=\"c\" clip-path=\"url(#c)\"><rect width=\"1\" height=\"1\"/></clipPath>\n"
                    "<rect width=\"1\" height=\"1\" clip-path=\"url(#c)\"/>\n"
                    "<mask id=\"m\"><rect width=\"1\" height=\"1\" mask=\"url(#m)\"/></mask>\n"
                    "<rect width=\"1\" height=\"1\" mask=\"url(#m)\"/>\n"
                    "<linearGradient id=\"l1\" href=\"#l2\"/><linearGradient id=\"l2\" href=\"#l1\"/>\n"
                    "<rect width=\"1\" height=\"1\" fill=\"url(#l1)\"/></svg>";
  CHECK_OK(try_load(doc, strlen(doc), NULL));
  CHECK(stats.skipped[CN_SVG_SKIP_CYCLE] >= 5);
  CHECK(stats.warning_count >= 5);
  CHECK_STR_CONTAINS(stats.warnings[0], "line 2: <use> references #b, which contains it (a cycle); skipped");
  cn_svg_options strict = {.strict = true};
  cn_result r = try_load(doc, strlen(doc), &strict);
  CHECK(r == CN_ERROR_PARSE);
  CHECK_STR_CONTAINS(cn_last_error(), "line 2: <use> references #b, which contains it (a cycle); skipped (strict mode)");
}

TEST(missing_references) {
  const char *doc = SVG_OPEN "width=\"10\" height=\"10\">\n<rect width=\"1\" height=\"1\" clip-path=\"url(#nope)\"/>\n"
                    "<rect width=\"1\" height=\"1\" mask=\"url(#nope)\" fill=\"url(#nope)\"/>\n"
                    "<rect width=\"1\" height=\"1\" fill=\"url(#nope) blue\"/><use href=\"#nope\"/>\n"
                    "<rect width=\"1\" height=\"1\" clip-path=\"url(#r)\" id=\"r\"/></svg>";
  CHECK_OK(try_load(doc, strlen(doc), NULL));
  CHECK_EQ_U64(stats.skipped[CN_SVG_SKIP_MISSING_REF], 5);
  CHECK_STR_CONTAINS(stats.warnings[0], "line 2: clip-path of <rect> is not a clipPath in this document; ignored");
  CHECK_STR_CONTAINS(stats.warnings[1], "line 3: mask of <rect> is not a mask in this document; ignored");
  CHECK_STR_CONTAINS(stats.warnings[2], "line 3: paint server of <rect> does not exist; painted as none");
  CHECK_STR_CONTAINS(stats.warnings[3], "line 4: <use> references #nope, which does not exist");
  CHECK_EQ_U64(stats.fills, 3); /* the fallback blue, the unclipped rect and the clip-path-to-rect one */
}

TEST(absurd_numbers) {
  expect(SVG_OPEN "width=\"1e38\" height=\"1e38\"/>", CN_ERROR_LIMIT, "line 1: <svg> size 1e+38x1e+38 is beyond the limit");
  expect(SVG_OPEN "width=\"-5\" height=\"10\"/>", CN_ERROR_PARSE, "line 1: <svg> width/height -5/10 must be positive");
  expect(SVG_OPEN "width=\"10\" height=\"10\">\n\n<rect width=\"1e38\" height=\"1e38\"/></svg>", CN_ERROR_LIMIT,
         "line 3: <rect> reaches device coordinate 1e+38, beyond +-1e+09 pixels");
  expect(SVG_OPEN "width=\"10\" height=\"10\">\n<path d=\"M0 0 l3e38 0 l3e38 0 l3e38 0\"/></svg>", CN_ERROR_LIMIT, "line 2: <path>");
  expect(SVG_OPEN "width=\"10\" height=\"10\" viewBox=\"0 0 1e-30 1e-30\">\n<rect width=\"1\" height=\"1\"/></svg>",
         CN_ERROR_LIMIT, "line 2: <rect> reaches device coordinate");
  expect(SVG_OPEN "width=\"10\" height=\"10\">\n<g transform=\"scale(1e30)\"><g transform=\"scale(1e30)\">"
         "<rect width=\"1\" height=\"1\"/></g></g></svg>", CN_ERROR_LIMIT, "line 2: <rect> reaches device coordinate 1e+60");
  expect(SVG_OPEN "width=\"10\" height=\"10\">\n<g transform=\"scale(1e38)\"><g transform=\"scale(1e38)\">"
         "<g transform=\"scale(1e38)\"><g transform=\"scale(1e38)\"><g transform=\"scale(1e38)\">"
         "<g transform=\"scale(1e38)\"><g transform=\"scale(1e38)\"><g transform=\"scale(1e38)\">"
         "<g transform=\"scale(1e38)\"><rect width=\"1\" height=\"1\"/></g></g></g></g></g></g></g></g></g></svg>",
         CN_ERROR_LIMIT, "line 2: the transform of <g> overflows");
  /* beyond float range a number is invalid: the transform is ignored */
  const char *big = SVG_OPEN "width=\"10\" height=\"10\"><rect width=\"1\" height=\"1\" transform=\"scale(1e300)\"/></svg>";
  CHECK_OK(try_load(big, strlen(big), NULL));
  CHECK_EQ_U64(scene.transforms[0].a, 1);
  /* NaN, inf, 1e999 are not SVG numbers: the attribute is invalid (ignored), path data stops there */
  const char *doc = SVG_OPEN "width=\"10\" height=\"10\"><rect width=\"NaN\" height=\"1\"/>"
                    "<rect width=\"inf\" height=\"1\"/><rect width=\"1e999\" height=\"1\"/>"
                    "<path d=\"M0 0 L1 1 L1e999 0\"/><circle r=\"1\" transform=\"scale(nan)\"/>"
                    "<rect width=\"1\" height=\"1\" opacity=\"1e38\" stroke-width=\"-1\" stroke=\"red\"/></svg>";
  CHECK_OK(try_load(doc, strlen(doc), NULL));
  CHECK_EQ_U64(stats.fills, 3);   /* 1e999 overflows: not a number, like NaN and inf */
  CHECK_EQ_U64(stats.strokes, 0); /* a negative stroke-width draws no stroke (as resvg) */
  cn_svg_options o = {.width = 1e9f};
  const char *small = SVG_OPEN "width=\"10\" height=\"10\"/>";
  CHECK(try_load(small, strlen(small), &o) == CN_ERROR_LIMIT);
  CHECK_STR_CONTAINS(cn_last_error(), "output size 1e+09x1e+09 is outside");
  o = (cn_svg_options){.scale = NAN};
  CHECK(try_load(small, strlen(small), &o) == CN_ERROR_INVALID_ARGUMENT);
}

TEST(ten_megabytes_of_path_data) {
  sbuf b = {0};
  put(&b, SVG_OPEN "width=\"1000\" height=\"1000\">\n");
  char cmd[32];
  uint32_t lines = 0;
  test_seed(7);
  while (b.n < 10u * 1024 * 1024) {
    put(&b, "<path d=\"M0 0");
    for (int i = 0; i < 100000; i++, lines++) {
      snprintf(cmd, sizeof cmd, " L%u %u", (unsigned)(test_rand() % 1000), (unsigned)(test_rand() % 1000));
      put(&b, cmd);
    }
    put(&b, "\"/>\n");
  }
  put(&b, "</svg>");
  CHECK(b.n > 10u * 1024 * 1024);
  CHECK_OK(try_load(b.s, b.n, NULL));
  /* each path's fill closes it with one more line */
  CHECK_EQ_U64(stats.fills, lines / 100000);
  CHECK_EQ_U64(scene.segment_count, 2 * lines + lines / 100000);
  free(b.s);
}

TEST(limits_on_input_and_output) {
  const char *doc = SVG_OPEN "width=\"10\" height=\"10\"><rect width=\"1\" height=\"1\"/></svg>";
  cn_svg_options o = {.max_bytes = 20};
  CHECK(try_load(doc, strlen(doc), &o) == CN_ERROR_LIMIT);
  CHECK_STR_CONTAINS(cn_last_error(), "is larger than the limit of 20 bytes");
  /* a file over the limit is refused from its size, before it is read (a
   * sparse 300 MB file: reading it would take seconds and 300 MB) */
  char path[] = "/tmp/canopy-test-bigXXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  CHECK(ftruncate(fd, 300u << 20) == 0);
  close(fd);
  if (!builder) CHECK_OK(cn_scene_builder_create(&builder));
  CHECK(cn_svg_load_file(builder, path, NULL, &scene, &stats) == CN_ERROR_LIMIT);
  CHECK_STR_CONTAINS(cn_last_error(), "is 314572800 bytes, larger than the limit of 268435456 bytes (cn_svg_options.max_bytes)");
  unlink(path);
  /* use explosion: 10^11 rectangles are refused quickly */
  sbuf b = {0};
  put(&b, SVG_OPEN "width=\"10\" height=\"10\"><defs><rect id=\"r0\" width=\"1\" height=\"1\"/>");
  char line[64];
  for (int i = 1; i < 12; i++) {
    snprintf(line, sizeof line, "<g id=\"r%d\">", i);
    put(&b, line);
    for (int j = 0; j < 10; j++) {
      snprintf(line, sizeof line, "<use href=\"#r%d\"/>", i - 1);
      put(&b, line);
    }
    put(&b, "</g>");
  }
  put(&b, "</defs><use href=\"#r11\"/></svg>");
  o = (cn_svg_options){.max_segments = 100000};
  cn_result r = try_load(b.s, b.n, &o);
  CHECK(r == CN_ERROR_LIMIT);
  CHECK_STR_CONTAINS(cn_last_error(), "scene has more than 100000 segments");
  free(b.s);
  /* marker explosion: markers whose content carries the next marker */
  b = (sbuf){0};
  put(&b, SVG_OPEN "width=\"10\" height=\"10\">");
  const char *pts = "M0 0 L1 1 L2 2 L3 3 L4 4 L5 5 L6 6 L7 7 L8 8 L9 9 L10 10";
  char mk[256];
  for (int i = 0; i < 12; i++) {
    snprintf(mk, sizeof mk, "<marker id=\"m%d\" overflow=\"visible\"><path d=\"%s\" marker-mid=\"url(#m%d)\"/></marker>",
             i, pts, i + 1);
    put(&b, mk);
  }
  snprintf(mk, sizeof mk, "<path d=\"%s\" marker-mid=\"url(#m0)\"/></svg>", pts);
  put(&b, mk);
  r = try_load(b.s, b.n, &o);
  CHECK(r == CN_ERROR_LIMIT);
  CHECK_STR_CONTAINS(cn_last_error(), "scene has more than 100000 segments");
  free(b.s);
  /* the load leaves the builder usable */
  CHECK_OK(try_load(doc, strlen(doc), NULL));
  CHECK_EQ_U64(scene.element_count, 1);
}

TEST(file_errors) {
  if (!builder) CHECK_OK(cn_scene_builder_create(&builder));
  cn_result r = cn_svg_load_file(builder, "/nonexistent/x.svg", NULL, &scene, &stats);
  CHECK(r == CN_ERROR_IO);
  CHECK_STR_CONTAINS(cn_last_error(), "cannot open /nonexistent/x.svg");
  CHECK(cn_svg_load_memory(NULL, "", 0, NULL, &scene, NULL) == CN_ERROR_INVALID_ARGUMENT);
  CHECK(cn_svg_load_file(builder, "/", NULL, &scene, &stats) != CN_OK); /* a directory */
}

TEST(zz_cleanup) {
  cn_scene_builder_destroy(builder);
  builder = NULL;
}

TEST(failure_inside_a_mask_group_ends) {
  /* a clip of two children becomes a mask group; the second child's own
   * clip fails inside that mask group (a coordinate beyond the limit): the
   * load must end with that error, and the builder must be usable again */
  const char *doc =
      SVG_OPEN "width=\"200\" height=\"200\"><clipPath id=\"c2\"><rect/><rect y=\"1e30\" width=\"1\" height=\"1\"/>"
      "</clipPath><clipPath id=\"c1\"><rect width=\"9\" height=\"9\" clip-path=\"url(#c2)\"/><rect/></clipPath>"
      "<rect width=\"200\" height=\"200\" clip-path=\"url(#c1)\"/></svg>";
  expect(doc, CN_ERROR_LIMIT, "line 1: <rect> reaches device coordinate 1e+30, beyond +-1e+09 pixels");
  expect(SVG_OPEN "width=\"4\" height=\"4\"><rect width=\"2\" height=\"2\"/></svg>", CN_OK, NULL);
  CHECK_EQ_U64(scene.element_count, 1);
}

/* libxml2's allocator with a budget: after `xml_budget` more allocations
 * every one fails, as in a process that has run out of memory. */
static long xml_budget = -1; /* < 0: no limit */
static long xml_failed;
static bool xml_take(void) {
  if (xml_budget < 0) return true;
  if (xml_budget == 0) return xml_failed++, false;
  xml_budget--;
  return true;
}
static void *xml_malloc(size_t n) { return xml_take() ? malloc(n) : NULL; }
static void *xml_realloc(void *p, size_t n) { return xml_take() ? realloc(p, n) : NULL; }
static char *xml_strdup(const char *s) { return xml_take() ? strdup(s) : NULL; }

TEST(out_of_memory_in_libxml2_is_an_error) {
  CHECK(xmlMemSetup(free, xml_malloc, xml_realloc, xml_strdup) == 0);
  /* many groups, then the only drawing at the very end: a tree cut short
   * by a failed allocation would load "fine" with no elements */
  sbuf b = {0};
  put(&b, SVG_OPEN "width=\"10\" height=\"10\">\n");
  for (int i = 0; i < 2000; i++) put(&b, "<g/>\n");
  put(&b, "<rect width=\"5\" height=\"5\" fill=\"red\"/>\n</svg>\n");
  xml_budget = -1;
  CHECK_OK(try_load(b.s, b.n, NULL));
  CHECK_EQ_U64(scene.element_count, 1);
  /* every budget up to what the whole parse needs: out of memory, never a
   * shorter scene and never another error */
  int oom = 0, ok = 0;
  for (long budget = 0; budget < 40000; budget += budget < 64 ? 1 : 97) {
    xml_budget = budget;
    xml_failed = 0;
    cn_result r = try_load(b.s, b.n, NULL);
    if (r == CN_OK) {
      CHECK_EQ_U64(scene.element_count, 1);
      CHECK_EQ_U64(xml_failed, 0);
      ok++;
    } else {
      if (r != CN_ERROR_OUT_OF_MEMORY)
        fprintf(stderr, "  budget %ld: %s: %s\n", budget, cn_result_name(r), cn_last_error());
      CHECK(r == CN_ERROR_OUT_OF_MEMORY);
      CHECK(xml_failed > 0);
      oom++;
    }
  }
  xml_budget = -1;
  CHECK(oom > 100);
  CHECK(ok > 0); /* the sweep reached budgets large enough for the whole parse */
  CHECK_OK(try_load(b.s, b.n, NULL));
  free(b.s);
  /* the message names the cause, and where in the parse it struck */
  const char *doc = SVG_OPEN "width=\"10\" height=\"10\">\n<g><g><g><rect width=\"5\" height=\"5\"/></g></g></g></svg>";
  bool creating = false, parsing = false;
  for (long budget = 0; budget < 200 && !(creating && parsing); budget++) {
    xml_budget = budget;
    cn_result r = try_load(doc, strlen(doc), NULL);
    if (r == CN_OK) break;
    CHECK(r == CN_ERROR_OUT_OF_MEMORY);
    if (strstr(cn_last_error(), "out of memory creating the XML parser (libxml2)")) creating = true;
    if (strstr(cn_last_error(), "out of memory while parsing the XML (libxml2)")) parsing = true;
  }
  CHECK(creating && parsing);
  xml_budget = -1;
}

TEST(stroke_width_below_float_range_is_not_drawn) {
  /* 1e-46 is positive as a double and 0 as a float: the stroke is skipped
   * like a zero width one (the file loads, the fill stays) */
  expect(SVG_OPEN "width=\"20\" height=\"20\"><rect width=\"10\" height=\"10\" fill=\"red\" stroke=\"blue\" "
                  "stroke-width=\"1e-46\"/></svg>",
         CN_OK, NULL);
  CHECK_EQ_U64(stats.fills, 1);
  CHECK_EQ_U64(stats.strokes, 0);
  CHECK_EQ_U64(scene.element_count, 1);
  /* dashes that are all below float range: a solid stroke */
  expect(SVG_OPEN "width=\"20\" height=\"20\"><rect width=\"10\" height=\"10\" fill=\"none\" stroke=\"blue\" "
                  "stroke-dasharray=\"1e-46 1e-46\"/></svg>",
         CN_OK, NULL);
  CHECK_EQ_U64(stats.strokes, 1);
  CHECK_EQ_U64(scene.stroke_count, 1);
  CHECK_EQ_U64(scene.strokes[0].dash_count, 0);
}

TEST(output_size_clamps_to_a_pixel) {
  /* a very wide SVG at --width 64: the height follows the aspect ratio
   * (0.0107 px) but is one pixel, the drawing centred in it */
  const char *wide = SVG_OPEN "width=\"60000\" height=\"10\"><rect width=\"60000\" height=\"10\"/></svg>";
  cn_svg_options o = {.width = 64};
  CHECK_OK(try_load(wide, strlen(wide), &o));
  CHECK(stats.width == 64 && stats.height == 1);
  CHECK_EQ_U64(scene.transform_count, 1);
  double s = 64.0 / 60000;
  CHECK(fabs(scene.transforms[0].a - s) < 1e-9 && fabs(scene.transforms[0].d - s) < 1e-9);
  CHECK(fabs(scene.transforms[0].f - (1 - 10 * s) / 2) < 1e-6);
  /* the same for a tall one at --height; the SVG's own size may exceed the
   * output limit when the options give the size */
  const char *tall = SVG_OPEN "viewBox=\"0 0 1 1000000\"><rect width=\"1\" height=\"1000000\"/></svg>";
  o = (cn_svg_options){.height = 64};
  CHECK_OK(try_load(tall, strlen(tall), &o));
  CHECK(stats.width == 1 && stats.height == 64);
  /* without options that size is the output: refused, naming it */
  CHECK(try_load(tall, strlen(tall), NULL) == CN_ERROR_LIMIT);
  CHECK_STR_CONTAINS(cn_last_error(), "line 1: <svg> size 1x1e+06 is beyond the limit of 65536 pixels");
  /* and an output that the other option makes too large is still refused */
  o = (cn_svg_options){.width = 64};
  CHECK(try_load(tall, strlen(tall), &o) == CN_ERROR_LIMIT);
  CHECK_STR_CONTAINS(cn_last_error(), "line 1: output size 64x6.4e+07 is outside 1..65536 pixels");
}

TEST_MAIN(T(failure_inside_a_mask_group_ends), T(output_size_clamps_to_a_pixel), T(stroke_width_below_float_range_is_not_drawn), T(out_of_memory_in_libxml2_is_an_error), T(empty_and_malformed), T(no_external_entities_or_network), T(billion_laughs), T(deep_group_nesting),
          T(deep_reference_chains), T(reference_cycles_are_skipped_or_strict_errors), T(missing_references),
          T(absurd_numbers), T(ten_megabytes_of_path_data), T(limits_on_input_and_output), T(file_errors),
          T(zz_cleanup))
