/* paths.c: default data directories found from the binary's location, and the
 * user's pipeline cache file (see cli.h). The current directory plays no part:
 * the same command gives the same result wherever it is run from. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool is_dir(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The directory holding the running binary, "" when unknown. */
static const char *exe_dir(void) {
  static char dir[PATH_MAX];
  if (dir[0]) return dir;
  ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 1);
  if (n <= 0) return dir[0] = 0, dir;
  dir[n] = 0;
  char *slash = strrchr(dir, '/');
  if (slash) *slash = 0;
  return dir;
}

/* The source tree the binary was built in: the first of its directory's
 * ancestors (up to three levels) holding cli/main.c and tests/data; "" if none. */
static const char *source_root(void) {
  static char root[PATH_MAX];
  static bool done = false;
  if (done) return root;
  done = true;
  const char *e = exe_dir();
  char probe[PATH_MAX + 64];
  for (int up = 0; up <= 3 && *e; up++) {
    char base[PATH_MAX];
    snprintf(base, sizeof base, "%s", e);
    for (int k = 0; k < up; k++) strncat(base, "/..", sizeof base - strlen(base) - 1);
    snprintf(probe, sizeof probe, "%s/cli/main.c", base);
    if (access(probe, R_OK) != 0) continue;
    snprintf(probe, sizeof probe, "%s/tests/data", base);
    if (!is_dir(probe)) continue;
    if (!realpath(base, root)) snprintf(root, sizeof root, "%s", base);
    return root;
  }
  root[0] = 0;
  return root;
}

/* Tries <exe>/share/canopy/NAME, <exe>/../share/canopy/NAME, then
 * <source root>/IN_TREE. On failure buf lists the places tried. */
static const char *find_dir(char *buf, size_t cap, const char *name, const char *in_tree) {
  const char *e = exe_dir();
  char cand[3][PATH_MAX + 128];
  int n = 0;
  if (*e) {
    snprintf(cand[n++], sizeof cand[0], "%s/share/canopy/%s", e, name);
    snprintf(cand[n++], sizeof cand[0], "%s/../share/canopy/%s", e, name);
  }
  const char *root = source_root();
  if (*root) snprintf(cand[n++], sizeof cand[0], "%s/%s", root, in_tree);
  for (int i = 0; i < n; i++)
    if (is_dir(cand[i])) {
      char real[PATH_MAX];
      snprintf(buf, cap, "%s", realpath(cand[i], real) ? real : cand[i]);
      return buf;
    }
  size_t len = 0;
  buf[0] = 0;
  for (int i = 0; i < n && len < cap; i++) {
    int w = snprintf(buf + len, cap - len, "%s%s", i ? ", " : "", cand[i]);
    if (w < 0) break;
    len += (size_t)w;
  }
  return NULL;
}

const char *cli_default_scenes_dir(char *buf, size_t cap) {
  return find_dir(buf, cap, "scenes-real", "tests/data/scenes-real");
}

const char *cli_default_suite_dir(char *buf, size_t cap) {
  return find_dir(buf, cap, "conformance/resvg", "../shared/conformance/resvg");
}

/* mkdir -p of the directories above the file at path. */
static bool make_parents(char *path) {
  for (char *p = path + 1; *p; p++) {
    if (*p != '/') continue;
    *p = 0;
    bool ok = mkdir(path, 0755) == 0 || errno == EEXIST;
    *p = '/';
    if (!ok) return false;
  }
  return true;
}

const char *cli_pipeline_cache_path(char *buf, size_t cap) {
  const char *off = getenv("CANOPY_PIPELINE_CACHE");
  if (off && strcmp(off, "0") == 0) return NULL;
  if (off && *off) {
    snprintf(buf, cap, "%s", off);
  } else {
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (xdg && xdg[0] == '/') snprintf(buf, cap, "%s/canopy/pipelines.bin", xdg);
    else if (home && home[0] == '/') snprintf(buf, cap, "%s/.cache/canopy/pipelines.bin", home);
    else return NULL;
  }
  return make_parents(buf) ? buf : NULL;
}
