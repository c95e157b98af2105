/* test_svg_corpus.c: whole files through the SVG loader, each scene checked
 * with cn_scene_validate():
 *   - tests/data/scenes-real/ (real-world SVGs, copied with their licences):
 *     every file loads;
 *   - the resvg test suite at ../shared/conformance/resvg (680 files, read in
 *     place when present beside the repository, as in CI; CANOPY_SHARED
 *     overrides the shared/ folder): every file loads, except the two with an
 *     invalid root size that resvg itself refuses (they must fail with the
 *     size message);
 *   - tests/data/svg-crash/ (inputs that once crashed or hung the loader, or
 *     the fuzzer found): any result, but a failure has a message. */
#include "test.h"

#include <dirent.h>
#include <sys/stat.h>
#include <time.h>

static cn_scene_builder *builder;

typedef struct corpus_result {
  uint32_t files, ok, failed;
} corpus_result;

typedef cn_result (*file_check)(const char *path, cn_result r, corpus_result *res);

static void walk(const char *dir, int depth, file_check check, corpus_result *res) {
  if (depth > 8) return;
  DIR *d = opendir(dir);
  if (!d) return;
  /* sorted for a stable order */
  char **names = NULL;
  size_t n = 0, cap = 0;
  for (struct dirent *e; (e = readdir(d));) {
    if (e->d_name[0] == '.') continue;
    if (n == cap) names = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof *names);
    names[n++] = strdup(e->d_name);
  }
  closedir(d);
  for (size_t i = 0; i + 1 < n; i++)
    for (size_t j = i + 1; j < n; j++)
      if (strcmp(names[i], names[j]) > 0) {
        char *t = names[i];
        names[i] = names[j], names[j] = t;
      }
  for (size_t i = 0; i < n; i++) {
    char path[2048];
    int len = snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    if (len < 0 || (size_t)len >= sizeof path) {
      fprintf(stderr, "  %s/%s: path too long\n", dir, names[i]);
      test_failures++;
      free(names[i]);
      continue;
    }
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
      walk(path, depth + 1, check, res);
    } else {
      size_t l = strlen(names[i]);
      if (l > 4 && strcmp(names[i] + l - 4, ".svg") == 0) {
        cn_scene_data scene;
        cn_svg_stats stats;
        cn_result r = cn_svg_load_file(builder, path, NULL, &scene, &stats);
        res->files++;
        if (r == CN_OK) {
          cn_result v = cn_scene_validate(&scene);
          if (v != CN_OK) {
            fprintf(stderr, "  %s: invalid encoding: %s\n", path, cn_last_error());
            test_failures++;
          }
        }
        check(path, r, res);
      }
    }
    free(names[i]);
  }
  free(names);
}

static cn_result must_load(const char *path, cn_result r, corpus_result *res) {
  if (r == CN_OK) {
    res->ok++;
  } else {
    res->failed++;
    fprintf(stderr, "  %s: %s: %s\n", path, cn_result_name(r), cn_last_error());
    test_failures++;
  }
  return r;
}

static cn_result resvg_check(const char *path, cn_result r, corpus_result *res) {
  bool invalid_size = strstr(path, "structure/svg/negative-size.svg") || strstr(path, "structure/svg/zero-size.svg");
  if (!invalid_size) return must_load(path, r, res);
  res->failed++;
  if (r != CN_ERROR_PARSE || !strstr(cn_last_error(), "must be positive")) {
    fprintf(stderr, "  %s: expected the invalid size error, got %s: %s\n", path, cn_result_name(r), cn_last_error());
    test_failures++;
  }
  return r;
}

static cn_result any_result(const char *path, cn_result r, corpus_result *res) {
  if (r == CN_OK) {
    res->ok++;
  } else {
    res->failed++;
    if (!cn_last_error()[0]) {
      fprintf(stderr, "  %s: failed with no message\n", path);
      test_failures++;
    }
  }
  return r;
}

TEST(scenes_real_all_load) {
  if (!builder) CHECK_OK(cn_scene_builder_create(&builder));
  char dir[1200];
  snprintf(dir, sizeof dir, "%s/tests/data/scenes-real", test_src_root());
  corpus_result res = {0};
  walk(dir, 0, must_load, &res);
  printf("  scenes-real: %u files, %u loaded\n", res.files, res.ok);
  CHECK_EQ_U64(res.files, 10);
  CHECK_EQ_U64(res.ok, 10);
}

TEST(resvg_suite_all_load) {
  if (!builder) CHECK_OK(cn_scene_builder_create(&builder));
  char dir[1200];
  const char *shared = getenv("CANOPY_SHARED");
  const char *candidates[3] = {shared, NULL, "/work/shared"};
  char beside[1100];
  snprintf(beside, sizeof beside, "%s/../shared", test_src_root());
  candidates[1] = beside;
  dir[0] = 0;
  for (int i = 0; i < 3; i++) {
    if (!candidates[i]) continue;
    char probe[1200];
    snprintf(probe, sizeof probe, "%s/conformance/resvg/SOURCE.md", candidates[i]);
    struct stat st;
    if (stat(probe, &st) == 0) {
      snprintf(dir, sizeof dir, "%s/conformance/resvg", candidates[i]);
      break;
    }
  }
  if (!dir[0]) {
    printf("  resvg suite not found beside the repository (../shared/conformance/resvg): not run\n");
    return;
  }
  corpus_result res = {0};
  clock_t t0 = clock();
  walk(dir, 0, resvg_check, &res);
  printf("  resvg (%s): %u files, %u loaded, %u refused as invalid (%.2f s)\n", dir, res.files, res.ok, res.failed,
         (double)(clock() - t0) / CLOCKS_PER_SEC);
  CHECK(res.files >= 680);
  CHECK_EQ_U64(res.failed, 2);
}

TEST(crash_corpus_never_crashes) {
  if (!builder) CHECK_OK(cn_scene_builder_create(&builder));
  char dir[1200];
  snprintf(dir, sizeof dir, "%s/tests/data/svg-crash", test_src_root());
  corpus_result res = {0};
  walk(dir, 0, any_result, &res);
  printf("  svg-crash: %u files (%u loaded, %u refused with a message)\n", res.files, res.ok, res.failed);
  CHECK(res.files >= 1);
}

TEST(zz_cleanup) {
  cn_scene_builder_destroy(builder);
  builder = NULL;
}

TEST_MAIN(T(scenes_real_all_load), T(resvg_suite_all_load), T(crash_corpus_never_crashes), T(zz_cleanup))
