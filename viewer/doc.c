/* doc.c: the open document: loading an SVG file into an encoded scene, keeping
 * the previous scene when a load fails, and noticing when the file changes on
 * disk (modification time or size) so the viewer can reload it.
 */
#include "vw.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The bundled scenes live in share/canopy/scenes: beside the binary in a
 * build tree (build/share/...), one level up once installed
 * (<prefix>/bin/canopy-view, <prefix>/share/canopy/scenes). CANOPY_SCENES
 * overrides both. */
const char *vw_default_scene(void) {
  static char path[4096];
  const char *dir = getenv("CANOPY_SCENES");
  if (dir && *dir) {
    snprintf(path, sizeof path, "%s/default.svg", dir);
    return path;
  }
  char exe[2048];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (slash) *slash = 0;
    static const char *const rel[] = {"share/canopy/scenes", "../share/canopy/scenes"};
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
      snprintf(path, sizeof path, "%s/%s/default.svg", exe, rel[i]);
      if (access(path, R_OK) == 0) return path;
    }
  }
  snprintf(path, sizeof path, "share/canopy/scenes/default.svg");
  return path;
}

/* *regular: a regular file (anything else, a FIFO above all, is never read:
 * opening one would block until a writer comes). */
static bool vw__stat(const char *path, long long *mtime_ns, long long *size, bool *regular) {
  struct stat st;
  if (stat(path, &st) != 0) return false;
  *mtime_ns = (long long)st.st_mtim.tv_sec * 1000000000ll + st.st_mtim.tv_nsec;
  *size = (long long)st.st_size;
  *regular = S_ISREG(st.st_mode);
  return true;
}

static void vw__builder_free(void *b) { cn_scene_builder_destroy(b); }

/* Parses the SVG file at path (cn_svg_load_file) into a scene whose arrays
 * the builder *owner holds. */
static bool vw__load_svg(const vw_doc *doc, const char *path, cn_scene_data *scene, void **owner,
                         void (**owner_free)(void *), char *err, size_t errcap, cn_svg_stats *stats) {
  cn_scene_builder *b = NULL;
  cn_svg_options opt = {.font_dirs = doc->font_dirs, .font_dir_count = doc->font_dir_count};
  cn_result r = cn_scene_builder_create(&b);
  if (r == CN_OK) r = cn_svg_load_file(b, path, &opt, scene, stats);
  if (r != CN_OK) {
    snprintf(err, errcap, "%s: %s", path, cn_last_error());
    cn_scene_builder_destroy(b);
    return false;
  }
  *owner = b;
  *owner_free = vw__builder_free;
  return true;
}

static void vw__release(vw_doc *doc) {
  if (doc->owner && doc->owner_free) doc->owner_free(doc->owner);
  doc->owner = NULL;
  doc->owner_free = NULL;
  memset(&doc->scene, 0, sizeof doc->scene);
  doc->loaded = false;
}

bool vw_doc_load(vw_doc *doc, const char *path) {
  long long mtime = 0, size = 0;
  bool regular = false;
  if (!vw__stat(path, &mtime, &size, &regular)) {
    snprintf(doc->error, sizeof doc->error, "%s: %s", path, strerror(errno));
    if (!doc->loaded && path != doc->path) snprintf(doc->path, sizeof doc->path, "%s", path);
    return false;
  }
  cn_scene_data scene;
  memset(&scene, 0, sizeof scene);
  void *owner = NULL;
  void (*owner_free)(void *) = NULL;
  char err[sizeof doc->error];
  cn_svg_stats stats;
  memset(&stats, 0, sizeof stats);
  if (!regular) snprintf(err, sizeof err, "%s: not a regular file", path);
  if (!regular || !vw__load_svg(doc, path, &scene, &owner, &owner_free, err, sizeof err, &stats)) {
    snprintf(doc->error, sizeof doc->error, "%s", err);
    /* Watch the failed file too (when it is the one shown, or nothing is), so
     * fixing it reloads it. */
    if (strcmp(doc->path, path) == 0 || !doc->loaded) {
      if (path != doc->path) snprintf(doc->path, sizeof doc->path, "%s", path);
      doc->mtime_ns = mtime;
      doc->size = size;
    }
    return false;
  }
  vw__release(doc);
  if (path != doc->path) snprintf(doc->path, sizeof doc->path, "%s", path);
  doc->scene = scene;
  /* what the loader did not draw, for the HUD: "image=2 refused-ref=1" */
  doc->skipped[0] = 0;
  for (int k = 0; k < CN_SVG_SKIP_COUNT; k++) {
    size_t used = strlen(doc->skipped);
    if (stats.skipped[k] && used + 1 < sizeof doc->skipped)
      snprintf(doc->skipped + used, sizeof doc->skipped - used, "%s%s=%u", used ? " " : "",
               cn_svg_skip_name((cn_svg_skip)k), stats.skipped[k]);
  }
  doc->owner = owner;
  doc->owner_free = owner_free;
  doc->loaded = true;
  doc->mtime_ns = mtime;
  doc->size = size;
  doc->error[0] = 0;
  doc->generation++;
  return true;
}

bool vw_doc_demo(vw_doc *doc) {
  cn_scene_data scene;
  void *owner = NULL;
  if (!vw_demo_scene(&scene, &owner)) {
    snprintf(doc->error, sizeof doc->error, "out of memory building the demo scene");
    return false;
  }
  vw__release(doc);
  snprintf(doc->path, sizeof doc->path, "demo");
  doc->scene = scene;
  doc->skipped[0] = 0;
  doc->owner = owner;
  doc->owner_free = free;
  doc->loaded = true;
  doc->mtime_ns = 0;
  doc->size = -1; /* nothing on disk to watch */
  doc->error[0] = 0;
  doc->generation++;
  return true;
}

bool vw_doc_changed_on_disk(const vw_doc *doc) {
  if (!doc->path[0] || doc->size < 0) return false;
  long long mtime = 0, size = 0;
  bool regular;
  if (!vw__stat(doc->path, &mtime, &size, &regular)) return false;
  return mtime != doc->mtime_ns || size != doc->size;
}

void vw_doc_free(vw_doc *doc) { vw__release(doc); }
