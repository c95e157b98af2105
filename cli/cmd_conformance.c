/* cmd_conformance.c: `canopy conformance`: renders every test of the resvg
 * suite (SVG + reference PNG pairs, see the suite's SOURCE.md and FEATURES.tsv)
 * at its reference's size with canopy or with rsvg-convert, compares, and
 * prints pass rates per category and overall.
 *
 * Metric (issue 6): both images converted to premultiplied RGBA8; a test
 * passes when at most 1% of its pixels differ by more than 24 in any channel.
 * Tests tagged filter, raster-or-nested-image, external-file or
 * skipped-by-resvg-harness are left out (--list-skipped names them). Text is
 * rendered with only the fonts of the suite's ../fonts folder (--font-dir),
 * generic families mapped as resvg's harness maps them; rsvg-convert gets the
 * same fonts through a private fontconfig file. canopy renders with --aa
 * (default ss16: tiny-skia's 4x4 supersampling, as the references were made). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "cli.h"
#include <canopy/cn_png.h>
#include <canopy/cn_render.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define CONF_MAX_TESTS 4096
#define CONF_MAX_CATS 256
#define CONF_DIFF 24          /* a channel differing by more than this... */
#define CONF_BAD_FRACTION 0.01 /* ...in more than this fraction of pixels fails the test */
/* canopy's anti-aliasing unless --aa says otherwise: the supersampled mode,
 * which rounds edges as tiny-skia (resvg's rasterizer) did when it made the
 * references; --aa area scores the renderer's default mode. */
#define CONF_DEFAULT_AA "ss16"

static const char *const conf_excluded_tags[] = {"filter", "raster-or-nested-image", "external-file",
                                                 "skipped-by-resvg-harness"};

/* Folders scored as a category of their own: their tests need raster or
 * nested images and external files (the suite's ../resources, allowed as a
 * resource root), so the raster-or-nested-image and external-file tags do not
 * leave them out. */
static const struct {
  const char *prefix, *category;
} conf_groups[] = {{"structure/image/", "images"}, {"painting/image-rendering/", "images"}};

static const char *conf_group(const char *name) {
  for (size_t i = 0; i < sizeof conf_groups / sizeof *conf_groups; i++)
    if (strncmp(name, conf_groups[i].prefix, strlen(conf_groups[i].prefix)) == 0) return conf_groups[i].category;
  return NULL;
}

typedef struct conf_cat {
  char name[64];
  int scored, passed;
} conf_cat;

static void usage(FILE *f) {
  fprintf(f,
          "usage: canopy conformance [--renderer canopy|rsvg] [--aa area|ss16] [--suite DIR] [--font-dir DIR]\n"
          "                          [--min-rate PCT]\n"
          "                          [--min-category NAME=PCT]... [--category NAME] [--border PX]\n"
          "                          [--by subcategory] [--markdown] [--failures FILE] [--list-skipped]\n\n"
          "Renders every test of the resvg suite in DIR at its\n"
          "reference PNG's size, with canopy (default) or rsvg-convert, and compares: both images\n"
          "premultiplied RGBA8; a test passes when at most 1%% of its pixels differ by more than 24\n"
          "in any channel. Tests tagged filter, raster-or-nested-image, external-file or\n"
          "skipped-by-resvg-harness in FEATURES.tsv are left out, except that structure/image and\n"
          "painting/image-rendering are scored as the category images (their files may read the\n"
          "suite's ../resources). Text uses only the fonts in --font-dir (default: the suite's\n"
          "../fonts), generic families as resvg's harness sets them (rsvg-convert gets the same\n"
          "fonts through a private fontconfig file). --category NAME: only that category's tests.\n"
          "Prints a progress line on stderr,\n"
          "then the pass rate per category (or per category/subcategory) and overall.\n"
          "--min-rate PCT: exit 1 when the overall rate is below PCT; --min-category NAME=PCT\n"
          "(repeatable): the same for one category. --markdown: tables as Markdown.\n"
          "--aa MODE: canopy's anti-aliasing (default " CONF_DEFAULT_AA "): area, each pixel's exact covered area;\n"
          "ss16, 4x4 samples rounded as tiny-skia (resvg's rasterizer, which made the references) does.\n"
          "--border PX: a diagnostic: pixels within PX of the picture's edge are not compared.\n"
          "--failures FILE: write the failing tests, one per line, with their bad-pixel fraction.\n"
          "exit: 0 done (and at or above --min-rate), 1 below it or the suite unreadable, 2 usage.\n");
  char dir[4096];
  const char *suite = cli_default_suite_dir(dir, sizeof dir);
  fprintf(f, "default DIR: %s%s (found from the binary's place: share/canopy/conformance/resvg beside\n"
             "or above it, else ../shared/conformance/resvg beside the source tree)\n",
          suite ? "" : "none found; looked in ", dir);
}

static bool excluded(const char *name, const char *tags, const char **why) {
  for (size_t k = 0; k < sizeof conf_excluded_tags / sizeof *conf_excluded_tags; k++) {
    const char *t = conf_excluded_tags[k];
    if (conf_group(name) && (strcmp(t, "raster-or-nested-image") == 0 || strcmp(t, "external-file") == 0)) continue;
    size_t n = strlen(t);
    for (const char *p = tags; (p = strstr(p, t)) != NULL; p += n) {
      bool start = p == tags || p[-1] == ' ' || p[-1] == ',' || p[-1] == '\t';
      bool end = p[n] == 0 || p[n] == ' ' || p[n] == ',' || p[n] == '\n' || p[n] == '\r';
      if (start && end) {
        *why = t;
        return true;
      }
    }
  }
  return false;
}

/* Fraction of pixels whose premultiplied RGBA8 differ by more than CONF_DIFF;
 * with border > 0, pixels within border of the edge are not counted (a
 * diagnostic: the fraction is still of all w x h pixels). */
static double bad_fraction(const uint8_t *a, const uint8_t *b, uint32_t w, uint32_t h, uint32_t border) {
  size_t bad = 0, n = (size_t)w * h;
  for (size_t i = 0; i < n; i++) {
    uint32_t x = (uint32_t)(i % w), y = (uint32_t)(i / w);
    if (border && (x < border || y < border || x + border >= w || y + border >= h)) continue;
    const uint8_t *p = a + 4 * i, *q = b + 4 * i;
    int worst = abs(p[3] - q[3]);
    for (int c = 0; c < 3; c++) {
      int pa = (p[c] * p[3] + 127) / 255, qa = (q[c] * q[3] + 127) / 255;
      int d = abs(pa - qa);
      if (d > worst) worst = d;
    }
    if (worst > CONF_DIFF) bad++;
  }
  return n ? (double)bad / (double)n : 0;
}

/* Runs rsvg-convert on svg at w x h into png; false (with a reason) on failure. */
static bool run_rsvg(const char *svg, const char *png, uint32_t w, uint32_t h, char *why, size_t whylen) {
  char ws[16], hs[16];
  snprintf(ws, sizeof ws, "%u", w);
  snprintf(hs, sizeof hs, "%u", h);
  char *args[] = {"rsvg-convert", "-w", ws, "-h", hs, "-f", "png", "-o", (char *)png, (char *)svg, NULL};
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t pid;
  int err = posix_spawnp(&pid, "rsvg-convert", &fa, NULL, args, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (err) {
    snprintf(why, whylen, "cannot run rsvg-convert: %s", strerror(err));
    return false;
  }
  int status = 0;
  if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    snprintf(why, whylen, "rsvg-convert failed");
    return false;
  }
  return true;
}

typedef struct conf_state {
  bool rsvg;
  cn_context *ctx;
  cn_renderer *ren;
  cn_scene_builder *builder;
  char tmp_png[64];
  char resources[4096]; /* the suite's parent folder: its resources/ are allowed */
  const char *font_dir;  /* text: only these fonts */
  uint32_t aa;           /* canopy's anti-aliasing (CN_AA_*) */
} conf_state;

/* Renders one test at w x h into *out (malloc'ed). */
static bool render_one(conf_state *S, const char *svg, uint32_t w, uint32_t h, uint8_t **out, char *why,
                       size_t whylen) {
  *out = NULL;
  if (S->rsvg) {
    if (!run_rsvg(svg, S->tmp_png, w, h, why, whylen)) return false;
    uint32_t gw, gh;
    cn_result r = cn_png_read_rgba8(S->tmp_png, out, &gw, &gh);
    if (r != CN_OK) {
      snprintf(why, whylen, "%s", cn_last_error());
      return false;
    }
    if (gw != w || gh != h) {
      snprintf(why, whylen, "rsvg-convert gave %ux%u, want %ux%u", gw, gh, w, h);
      free(*out);
      *out = NULL;
      return false;
    }
    return true;
  }
  const char *roots[1] = {S->resources};
  cn_svg_options opt = {.width = (float)w, .height = (float)h, .resource_roots = roots, .resource_root_count = 1};
  if (S->font_dir) opt.font_dirs = &S->font_dir, opt.font_dir_count = 1;
  cn_scene_data scene;
  cn_result r = cn_svg_load_file(S->builder, svg, &opt, &scene, NULL);
  if (r == CN_OK) {
    *out = malloc((size_t)w * h * 4);
    cn_render_view view = {.width = w, .height = h, .aa = S->aa};
    r = *out ? cn_render_scene_to_rgba8(S->ren, &scene, &view, *out) : CN_ERROR_OUT_OF_MEMORY;
  }
  if (r != CN_OK) {
    snprintf(why, whylen, "%s: %s", cn_result_name(r), cn_last_error());
    free(*out);
    *out = NULL;
    return false;
  }
  return true;
}

static void print_table(const char *title, const conf_cat *cats, int ncats, int scored, int passed, bool md) {
  if (md) {
    printf("| %s | scored | passed | rate |\n|---|---:|---:|---:|\n", title);
    for (int i = 0; i < ncats; i++)
      printf("| %s | %d | %d | %.1f%% |\n", cats[i].name, cats[i].scored, cats[i].passed,
             cats[i].scored ? 100.0 * cats[i].passed / cats[i].scored : 0.0);
    printf("| **overall** | %d | %d | **%.1f%%** |\n", scored, passed, scored ? 100.0 * passed / scored : 0.0);
  } else {
    printf("%-36s %7s %7s %7s\n", title, "scored", "passed", "rate");
    for (int i = 0; i < ncats; i++)
      printf("%-36s %7d %7d %6.1f%%\n", cats[i].name, cats[i].scored, cats[i].passed,
             cats[i].scored ? 100.0 * cats[i].passed / cats[i].scored : 0.0);
    printf("%-36s %7d %7d %6.1f%%\n", "overall", scored, passed, scored ? 100.0 * passed / scored : 0.0);
  }
}

int cli_conformance(int argc, char **argv) {
  const char *suite = NULL, *failures_path = NULL, *renderer = "canopy", *by = NULL, *font_dir = NULL, *only = NULL;
  const char *aa_name = CONF_DEFAULT_AA;
  int border = 0;
  bool md = false, list_skipped = false;
  float min_rate = -1;
  cli_strings min_cats = {0};
  const cli_opt opts[] = {
      {.name = "renderer", .kind = CLI_OPT_STRING, .dst = &renderer, .metavar = "canopy or rsvg"},
      {.name = "aa", .kind = CLI_OPT_STRING, .dst = &aa_name, .metavar = "area or ss16"},
      {.name = "suite", .kind = CLI_OPT_STRING, .dst = &suite, .metavar = "a directory"},
      {.name = "min-rate", .kind = CLI_OPT_FLOAT, .dst = &min_rate, .lo = 0, .hi = 100, .metavar = "a percentage"},
      {.name = "min-category", .kind = CLI_OPT_STRINGS, .dst = &min_cats, .metavar = "NAME=PCT"},
      {.name = "font-dir", .kind = CLI_OPT_STRING, .dst = &font_dir, .metavar = "a directory"},
      {.name = "category", .kind = CLI_OPT_STRING, .dst = &only, .metavar = "a name"},
      {.name = "border", .kind = CLI_OPT_INT, .dst = &border, .lo = 0, .hi = 64, .metavar = "a pixel count"},
      {.name = "by", .kind = CLI_OPT_STRING, .dst = &by, .metavar = "'subcategory'"},
      {.name = "markdown", .kind = CLI_OPT_FLAG, .dst = &md},
      {.name = "list-skipped", .kind = CLI_OPT_FLAG, .dst = &list_skipped},
      {.name = "failures", .kind = CLI_OPT_STRING, .dst = &failures_path, .metavar = "a file name"},
      {0}};
  int nops = 0;
  CLI_PARSE("conformance", argc, argv, opts, usage, &nops);
  if (nops) return cli_usage_error("conformance", "unexpected argument '%s'", argv[1]);
  bool rsvg = strcmp(renderer, "rsvg") == 0;
  if (!rsvg && strcmp(renderer, "canopy") != 0)
    return cli_usage_error("conformance", "--renderer: '%s' is neither canopy nor rsvg", renderer);
  uint32_t aa = CN_AA_AREA;
  if (cli_parse_aa("conformance", aa_name, &aa) != CLI_OK) return CLI_USAGE;
  if (by && strcmp(by, "subcategory") != 0) return cli_usage_error("conformance", "--by takes 'subcategory'");
  bool by_sub = by != NULL;
  /* --min-category NAME=PCT: a floor per category */
  char min_cat_name[CLI_MAX_REPEAT][64];
  float min_cat_rate[CLI_MAX_REPEAT];
  int nmin_cat = 0;
  for (uint32_t k = 0; k < min_cats.n; k++) {
    const char *v = min_cats.v[k], *eq = strchr(v, '=');
    char *end;
    double pct = eq ? strtod(eq + 1, &end) : -1;
    if (!eq || eq == v || eq - v >= 64 || end == eq + 1 || *end || !(pct >= 0 && pct <= 100))
      return cli_usage_error("conformance", "--min-category: '%s' is not NAME=PCT", v);
    snprintf(min_cat_name[nmin_cat], sizeof min_cat_name[0], "%.*s", (int)(eq - v), v);
    min_cat_rate[nmin_cat++] = (float)pct;
  }
  char dir[4096];
  if (!suite && !(suite = cli_default_suite_dir(dir, sizeof dir)))
    return cli_error("conformance",
                     "the resvg test suite is not installed (looked in %s).\n"
                     "It is a folder of SVG + PNG pairs from resvg's crates/resvg/tests/tests with a FEATURES.tsv\n"
                     "(docs/CONFORMANCE.md says how to get it); give its place with --suite DIR.",
                     dir);

  char path[4096];
  snprintf(path, sizeof path, "%.4000s/FEATURES.tsv", suite);
  FILE *tsv = fopen(path, "r");
  if (!tsv)
    return cli_error("conformance", "%s is not the resvg suite: cannot open %s: %s (see docs/CONFORMANCE.md)", suite,
                     path, strerror(errno));
  FILE *ff = NULL;
  cli_out failures;
  if (failures_path) {
    if (cli_out_open("conformance", failures_path, &failures) != CLI_OK) {
      fclose(tsv);
      return CLI_FAIL;
    }
    ff = failures.f;
  }
  /* the list of tests */
  static char tests[CONF_MAX_TESTS][256];
  int ntests = 0, nskipped = 0;
  char line[1024];
  while (fgets(line, sizeof line, tsv)) {
    if (line[0] == '#' || line[0] == '\n') continue;
    char *tab = strchr(line, '\t');
    const char *tags = tab ? tab + 1 : "";
    if (tab) *tab = 0;
    line[strcspn(line, "\r\n")] = 0;
    const char *why;
    size_t ol = only ? strlen(only) : 0;
    if (only && (strncmp(line, only, ol) != 0 || line[ol] != '/') && !(conf_group(line) && !strcmp(conf_group(line), only)))
      continue;
    if (excluded(line, tags, &why)) {
      nskipped++;
      if (list_skipped) printf("skipped (%s): %s\n", why, line);
      continue;
    }
    if (ntests < CONF_MAX_TESTS) snprintf(tests[ntests++], sizeof tests[0], "%.255s", line);
  }
  fclose(tsv);

  /* the fonts: --font-dir, else the suite's ../fonts when it is there */
  static char font_dir_buf[4096];
  if (!font_dir) {
    snprintf(font_dir_buf, sizeof font_dir_buf, "%.4000s/../fonts", suite);
    char probe_path[4200];
    snprintf(probe_path, sizeof probe_path, "%s/README.md", font_dir_buf);
    FILE *probe = fopen(probe_path, "r");
    if (probe) fclose(probe), font_dir = font_dir_buf;
  }
  char fc_conf[64] = "";
  if (rsvg && font_dir) { /* rsvg-convert: a fontconfig file with only these fonts and the same generic families */
    snprintf(fc_conf, sizeof fc_conf, "/tmp/canopy-conf-fc-XXXXXX");
    int fd = mkstemp(fc_conf);
    FILE *fc = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!fc) {
      fprintf(stderr, "canopy conformance: cannot write a fontconfig file: %s\n", strerror(errno));
      return CLI_FAIL;
    }
    char *abs = realpath(font_dir, NULL);
    static const char *const gen[5][2] = {{"sans-serif", "Noto Sans"}, {"serif", "Noto Serif"}, {"monospace", "Noto Mono"},
                                          {"cursive", "Yellowtail"}, {"fantasy", "Sedgwick Ave Display"}};
    fprintf(fc, "<?xml version=\"1.0\"?>\n<fontconfig>\n  <dir>%s</dir>\n", abs ? abs : font_dir);
    for (int k = 0; k < 5; k++)
      fprintf(fc, "  <alias binding=\"strong\"><family>%s</family><prefer><family>%s</family></prefer></alias>\n", gen[k][0],
              gen[k][1]);
    fprintf(fc, "</fontconfig>\n");
    fclose(fc);
    free(abs);
    setenv("FONTCONFIG_FILE", fc_conf, 1); /* environ goes to rsvg-convert */
  }
  static conf_state S;
  S = (conf_state){.rsvg = rsvg, .font_dir = font_dir, .aa = aa};
  snprintf(S.resources, sizeof S.resources, "%.4000s/..", suite);
  int rc = CLI_OK;
  if (!rsvg) {
    rc = cli_context("conformance", &S.ctx);
    cn_result r = rc == CLI_OK ? cn_renderer_create(S.ctx, NULL, &S.ren) : CN_OK;
    if (rc == CLI_OK && r == CN_OK) r = cn_scene_builder_create(&S.builder);
    if (rc == CLI_OK && r != CN_OK) rc = cli_fail("conformance", "cannot set up the renderer", r);
  } else {
    snprintf(S.tmp_png, sizeof S.tmp_png, "/tmp/canopy-conf-XXXXXX");
    int fd = mkstemp(S.tmp_png);
    if (fd < 0) {
      fprintf(stderr, "canopy conformance: cannot make a temporary file: %s\n", strerror(errno));
      rc = CLI_FAIL;
    } else {
      close(fd);
    }
  }
  static conf_cat cats[CONF_MAX_CATS];
  int ncats = 0, scored = 0, passed = 0;
  for (int t = 0; t < ntests && rc == CLI_OK; t++) {
    const char *name = tests[t];
    /* category: the first path component (or the first two with --by subcategory) */
    char cat[64];
    snprintf(cat, sizeof cat, "%.63s", name);
    char *slash = strchr(cat, '/');
    if (slash && by_sub) slash = strchr(slash + 1, '/');
    if (slash) *slash = 0;
    if (conf_group(name) && !by_sub) snprintf(cat, sizeof cat, "%s", conf_group(name));
    int ci = 0;
    while (ci < ncats && strcmp(cats[ci].name, cat) != 0) ci++;
    if (ci == ncats && ncats < CONF_MAX_CATS) snprintf(cats[ncats++].name, sizeof cats[0].name, "%.63s", cat);
    if (ci >= CONF_MAX_CATS) ci = CONF_MAX_CATS - 1;

    char svg[4096], png[4096], why[512] = "";
    snprintf(svg, sizeof svg, "%.3000s/%.255s.svg", suite, name);
    snprintf(png, sizeof png, "%.3000s/%.255s.png", suite, name);
    uint8_t *want = NULL, *got = NULL;
    uint32_t w = 0, h = 0;
    bool ok = false;
    double frac = 1;
    cn_result r = cn_png_read_rgba8(png, &want, &w, &h);
    if (r != CN_OK) snprintf(why, sizeof why, "reference: %s", cn_last_error());
    else if (render_one(&S, svg, w, h, &got, why, sizeof why)) {
      frac = bad_fraction(got, want, w, h, border);
      ok = frac <= CONF_BAD_FRACTION;
    }
    free(want);
    free(got);
    cats[ci].scored++;
    scored++;
    if (ok) cats[ci].passed++, passed++;
    else if (ff) fprintf(ff, "%s\t%.4f\t%s\n", name, frac, why);
    cli_progress("conformance", t + 1, ntests, "%d passed  %s%s", passed, name, ok ? "" : "  FAIL");
  }
  cli_progress_end();
  if (ff && rc == CLI_OK) rc = cli_out_commit("conformance", &failures);
  else if (ff) cli_out_abort(&failures);
  if (S.tmp_png[0]) remove(S.tmp_png);
  if (fc_conf[0]) remove(fc_conf);
  cn_scene_builder_destroy(S.builder);
  cn_renderer_destroy(S.ren);
  cn_context_destroy(S.ctx);
  if (rc != CLI_OK) return rc;
  printf("%s%s on %s: %d tests scored, %d left out (--list-skipped)\n", rsvg ? "rsvg-convert" : "canopy",
         rsvg ? "" : aa == CN_AA_SS16 ? " --aa ss16" : " --aa area", suite, scored, nskipped);
  print_table(by_sub ? "subcategory" : "category", cats, ncats, scored, passed, md);
  double rate = scored ? 100.0 * passed / scored : 0;
  for (int k = 0; k < nmin_cat; k++) {
    int ci = 0;
    while (ci < ncats && strcmp(cats[ci].name, min_cat_name[k]) != 0) ci++;
    double cr = ci < ncats && cats[ci].scored ? 100.0 * cats[ci].passed / cats[ci].scored : -1;
    if (cr + 1e-9 < min_cat_rate[k]) {
      if (ci == ncats) fprintf(stderr, "canopy conformance: no category %s was scored\n", min_cat_name[k]);
      else
        fprintf(stderr, "canopy conformance: %s pass rate %.1f%% is below the required %.1f%%\n", min_cat_name[k], cr,
                min_cat_rate[k]);
      return CLI_FAIL;
    }
  }
  if (min_rate >= 0 && rate + 1e-9 < min_rate) {
    fprintf(stderr, "canopy conformance: pass rate %.1f%% is below the required %.1f%%\n", rate, min_rate);
    return CLI_FAIL;
  }
  return CLI_OK;
}
