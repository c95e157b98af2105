/* vw.h: what the files of the viewer (build/canopy-view) share.
 *
 * The viewer is a small Vulkan application that embeds canopy the way a game
 * engine would: it owns the instance, device, swapchain and command buffers
 * (host.c), hands canopy its device through cn_context_adopt() and lets canopy
 * record into the frame's command buffer (gpu.c: the renderer, whose buffers
 * the overlays read on the GPU). Around that sit:
 *
 *   view.c     the view transform (pan, zoom about a point, fit)
 *   doc.c      the open document: loading, reload on change, load errors
 *   analysis.c depth and counts of the viewed scene; the host's boxes and bin
 *              counts; the CPU references' when canopy refused the scene
 *   overlay.c  overlay names, outline and legend geometry; hover hit test
 *   hud.c      the heads-up display (stb_easy_font text)
 *   draw.c     the graphics pipelines that put the picture, the overlays
 *              (shaders/overlay.vert) and the host's geometry on screen
 *   demo.c     the --demo scene
 *   main.c     command line, input, the main loop, the headless screenshot check
 *
 * Coordinates: "scene" space is the encoded scene's device-pixel space
 * (cn_scene_data.viewport); "window" space is framebuffer pixels, y down.
 */
#ifndef VW_H
#define VW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <canopy/canopy.h>
#include <canopy/cn_scan.h>
#include <canopy/cn_parens.h>
#include <canopy/cn_scene.h>
#include <canopy/cn_scene_api.h>
#include <canopy/cn_svg.h>
#include <canopy/cn_pathbox.h>
#include <canopy/cn_render.h>
#include <canopy/cn_flatten.h>
#include <canopy/cn_bbox.h>
#include <canopy/cn_bins.h>
#include <canopy/cn_box.h>

#include "vw_overlay.h"

#define GLFW_INCLUDE_VULKAN
#include <GLFW/glfw3.h>

/* ------------------------------------------------------------------ view */

/* window = scale * scene + (tx, ty) */
typedef struct vw_view {
  double scale, tx, ty;
} vw_view;

#define VW_ZOOM_MIN 1e-4
#define VW_ZOOM_MAX 1e4

/* Fits the rectangle box (x0 y0 x1 y1) into a w x h window, centred; a box
 * of exactly the window's size gives the identity. An empty box gives scale 1. */
vw_view vw_view_fit(const float box[4], double w, double h);
/* Zooms by factor keeping the window point (px, py) fixed; the scale stays
 * within VW_ZOOM_MIN..VW_ZOOM_MAX. */
vw_view vw_view_zoom_at(vw_view v, double factor, double px, double py);
vw_view vw_view_pan(vw_view v, double dx, double dy);
/* Keeps the scene point at the window's centre there when the window changes
 * from (ow, oh) to (nw, nh). */
vw_view vw_view_resize(vw_view v, double ow, double oh, double nw, double nh);
static inline void vw_view_apply(const vw_view *v, double x, double y, double *ox, double *oy) {
  *ox = v->scale * x + v->tx;
  *oy = v->scale * y + v->ty;
}
/* The scene with the view applied: every transform premultiplied by the view
 * and the viewport set to the window. transforms must hold
 * src->transform_count entries; *out aliases every other array of src. */
void vw_view_scene(const vw_view *v, const cn_scene_data *src, uint32_t w, uint32_t h,
                   cn_transform *transforms, cn_scene_data *out);
/* The view as an affine transform a b c d e f (SVG order), for the renderer. */
void vw_view_affine(const vw_view *v, float out[6]);

/* ------------------------------------------------------------- document */

typedef struct vw_doc {
  char path[4096];       /* "" for the bundled default before it is resolved */
  cn_scene_data scene;   /* valid when loaded */
  void *owner;           /* the loader's object that owns scene's arrays */
  void (*owner_free)(void *owner);
  bool loaded;
  long long mtime_ns;    /* of the loaded file; reload watches it */
  long long size;
  char error[1024];      /* the last load's error ("" when it worked) */
  char skipped[200];     /* content the loader did not draw, per kind ("" when none) */
  uint32_t generation;   /* bumped on every successful (re)load */
  const char *const *font_dirs; /* --font-dir: text uses only these fonts (none: the system's) */
  uint32_t font_dir_count;
} vw_doc;

/* Loads path into doc. On success the previous scene is freed and replaced;
 * on failure doc keeps its previous scene and error says what went wrong
 * (returns false). */
bool vw_doc_load(vw_doc *doc, const char *path);
/* True when the file's modification time or size changed since it was loaded
 * (and it still exists). */
bool vw_doc_changed_on_disk(const vw_doc *doc);
void vw_doc_free(vw_doc *doc);
/* Replaces the document by the scene built in code (demo.c); "path" is "demo". */
bool vw_doc_demo(vw_doc *doc);
/* The bundled default scene's path: $CANOPY_SCENES/default.svg, else
 * scenes/default.svg of the source tree this viewer was built from. */
const char *vw_default_scene(void);
/* The scene built in code: nested clips, a blend group, gradients. *owner is
 * freed with free(). False when out of memory. */
bool vw_demo_scene(cn_scene_data *out, void **owner);

/* ------------------------------------------------------------- analysis */

/* Per-element data the host reads (hover, the HUD, --print-boxes, outlines),
 * in window pixels. Depth, tags and counts come from the tags (analysis.c,
 * once per scene); boxes and bin counts from the copies of the renderer's
 * buffers made in the frame's submission (gpu.c), or, with lines, from the
 * library's CPU references when the scene cannot be rendered. The overlays
 * read the renderer's buffers themselves, on the GPU. */
typedef struct vw_analysis {
  uint32_t count;           /* elements */
  cn_box *boxes;            /* result boxes: FILL/STROKE after clips; BEGIN_ and END_: the group's box */
  uint32_t *depth;          /* nesting depth of each element (0 = top level) */
  uint32_t *tags;           /* copy of element tags */
  uint32_t clips, blends, draws;
  uint32_t max_depth;
  /* bins: a grid of bin_size pixels anchored at the window's origin */
  uint32_t bin_size, bins_x, bins_y;
  uint32_t *bin_counts;     /* elements touching each bin */
  uint32_t bins_used;
  /* flattened segments: pairs of points (x0 y0 x1 y1) and the element each
   * belongs to, from the CPU references only (the renderer's stay on the GPU) */
  float *lines;             /* NULL when the lines are the renderer's (on the GPU) */
  uint32_t *line_element;
  uint32_t line_count;      /* segments (the renderer's count, or the lines held here) */
  const char *source;       /* where boxes and bins came from ("renderer" or "cpu reference") */
} vw_analysis;

#define VW_BIN_SIZE (CN_BIN * CN_TILE) /* the renderer's bins (CN_BIN x CN_BIN tiles of CN_TILE px: 128 px) */
#define VW_MAX_LINES (1u << 20)     /* segments of the CPU references kept at most */

/* Depth, tags and counts of a scene (once per scene: they do not depend on
 * the view); allocates boxes and a bin grid for a w x h window (zeroed).
 * False with a message in err when memory runs out. */
bool vw_analysis_compute(vw_analysis *a, const cn_scene_data *s, uint32_t w, uint32_t h, char *err, size_t errcap);
/* Bin counts from CSR offsets (bins_x * bins_y + 1 of them). */
bool vw_analysis_set_bins(vw_analysis *a, const uint32_t *offsets, uint32_t bins_x, uint32_t bins_y, char *err,
                          size_t errcap);
/* Segments from flattened lines (at most VW_MAX_LINES). */
bool vw_analysis_set_lines(vw_analysis *a, const cn_line *lines, uint32_t n, char *err, size_t errcap);
/* The renderer's lines stay on the GPU (the overlays draw them from there):
 * no host copy (lines NULL), only their count. */
void vw_analysis_lines_on_gpu(vw_analysis *a, uint32_t count);
/* Boxes, bins and lines from the library's CPU references on the viewed scene. */
bool vw_analysis_cpu(vw_analysis *a, const cn_scene_data *viewed, char *err, size_t errcap);
void vw_analysis_free(vw_analysis *a);
const char *vw_tag_name(uint32_t tag);

/* -------------------------------------------------------------- overlay */

enum {
  VW_OVERLAY_BOXES,
  VW_OVERLAY_CLIPS,
  VW_OVERLAY_BLENDS,
  VW_OVERLAY_BINS,
  VW_OVERLAY_TILES,
  VW_OVERLAY_DEPTH,
  VW_OVERLAY_SEGMENTS,
  VW_OVERLAY_COUNT
};
typedef struct vw_overlay_info {
  const char *name; /* --overlay NAME */
  int key;          /* GLFW_KEY_* toggling it */
  const char *key_label;
  const char *what;
} vw_overlay_info;
extern const vw_overlay_info vw_overlays[VW_OVERLAY_COUNT];
int vw_overlay_by_name(const char *name); /* -1 if none */

/* A vertex of the geometry pass: window position and straight-alpha colour. */
typedef struct vw_vertex {
  float x, y;
  uint32_t rgba; /* r | g << 8 | b << 16 | a << 24 */
} vw_vertex;

typedef struct vw_mesh {
  vw_vertex *v;
  uint32_t count, cap;
  bool oom;
} vw_mesh;

void vw_mesh_clear(vw_mesh *m);
void vw_mesh_free(vw_mesh *m);
void vw_mesh_rect(vw_mesh *m, float x0, float y0, float x1, float y1, uint32_t rgba);
void vw_mesh_frame(vw_mesh *m, float x0, float y0, float x1, float y1, float width, uint32_t rgba);
void vw_mesh_line(vw_mesh *m, float x0, float y0, float x1, float y1, float width, uint32_t rgba);
static inline uint32_t vw_rgba(unsigned r, unsigned g, unsigned b, unsigned a) {
  return (r & 255u) | (g & 255u) << 8 | (b & 255u) << 16 | (a & 255u) << 24;
}

/* Outlines of every drawn path, coloured by its paint: the picture until the
 * renderer is there. */
void vw_outline_build(vw_mesh *m, const vw_analysis *a, const cn_scene_data *s);
/* The topmost draw element (or, with none, the innermost group) under the
 * window point; -1 if none. */
int vw_overlay_hit(const vw_analysis *a, double x, double y);
/* Legends of the overlays that encode values in colour (depth, bins heat),
 * in panels at the bottom right of a w x h window, above bottom_margin
 * pixels; scale is the HUD's text scale. The bins legend's largest count is
 * the GPU's to write: max_at gets its right edge, top and text scale (zero
 * without that legend). */
void vw_overlay_legend(vw_mesh *m, const vw_analysis *a, uint32_t mask, uint32_t w, uint32_t h, float scale,
                       float bottom_margin, float max_at[3]);

/* ------------------------------------------------------------------ HUD */

/* Appends text at (x, y), scale times stb_easy_font's size; returns its width. */
float vw_text(vw_mesh *m, float x, float y, float scale, uint32_t rgba, const char *text);
float vw_text_width(const char *text, float scale);
/* stb_easy_font's digits for text drawn on the GPU (overlay.vert): advance,
 * first quad and quad count per digit in *h, the quads (x0 y0 x1 y1 at the
 * pen) in quads (at most cap); returns the quads written, *max_quads the most
 * of one digit. */
#define VW_MAX_GLYPH_QUADS 128
uint32_t vw_digit_glyphs(vw_glyph_header *h, float (*quads)[4], uint32_t cap, uint32_t *max_quads);

#define VW_HUD_MAX_SPANS 96

typedef struct vw_hud_info {
  const char *file;
  uint32_t scene_index, scene_count; /* which of the files given (1-based); count 0 or 1: one */
  uint32_t width, height;
  double zoom;
  const vw_analysis *analysis;
  const char *picture;      /* what the picture shows ("renderer", "outlines") */
  const char *present_mode; /* "FIFO" ... */
  bool vsync;
  uint32_t overlays;        /* mask */
  /* GPU time of the last frame, one entry per stage, each with the pass it
   * belongs to ("renderer", "overlays", "viewer"); they sum to gpu_total_ms */
  const char *span_group[VW_HUD_MAX_SPANS];
  const char *span_label[VW_HUD_MAX_SPANS];
  double span_ms[VW_HUD_MAX_SPANS];
  uint32_t spans;
  double gpu_total_ms;
  double frame_ms;          /* the last frame */
  double frame_min_ms, frame_median_ms, frame_max_ms; /* frames of the last second */
  uint32_t frame_samples;
  /* the stats panel (I): buffer use of the renderer's last frame and re-runs */
  bool show_stats;
  bool have_buffers;
  uint32_t buf_used[4], buf_cap[4]; /* tiles, segments, chunks, spill */
  uint32_t lines;
  uint32_t reruns;
  int hover;                /* element index or -1 */
  const char *error;        /* load error shown in a red box, or NULL */
  bool has_scene;           /* a scene is shown behind the error */
  const char *status;       /* short transient message, or NULL */
  const char *skipped;      /* content not drawn ("image=2 refused-ref=1"), or NULL */
  bool show_hud;
} vw_hud_info;

/* What vw_hud_build laid out: the HUD panel's rectangle (0 0 0 0 when
 * hidden) and the text scale it chose, for tests and the legends. */
typedef struct vw_hud_layout {
  float x0, y0, x1, y1;
  float scale;
  float bottom_used;        /* pixels used at the bottom of the window (hover, status) */
} vw_hud_layout;

/* The HUD: a panel at the top left whose text scales with the window and
 * which never covers more than a third of it (smaller text, then fewer
 * sections, until it fits); the hover line and status at the bottom. */
void vw_hud_build(vw_mesh *m, const vw_hud_info *info, vw_hud_layout *layout);

#endif
