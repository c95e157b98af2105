/* main.c: build/canopy-view, the interactive viewer.
 *
 *   canopy-view [options] [FILE.svg]
 *
 * Opens FILE.svg (or the bundled default.svg) in a window, runs it
 * through canopy on the viewer's own Vulkan device each time the view
 * changes, and draws the picture with debug overlays and a HUD. With
 * --frames N --screenshot OUT.png it renders N frames, writes the window's
 * image and exits (the headless check CI runs under Xvfb). See viewer/README.md.
 */
#include <errno.h>
#include <math.h>
#include <png.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <canopy/cn_render.h>
#include <dirent.h>
#include <strings.h>
#include <sys/stat.h>

#include "gpu.h"

#define VW_EXIT_OK 0
#define VW_EXIT_FAIL 1
#define VW_EXIT_USAGE 2
#define VW_BACKGROUND 0xFFFFFFFFu /* opaque white, RGBA8 */
#define VW_TILE_SIZE 16u
#define VW_WATCH_PERIOD_S 0.5
#define VW_PAN_STEP 64.0
#define VW_ZOOM_STEP 1.25
#define VW_WHEEL_STEP 1.15
#define VW_MAX_INPUT 64
/* Interactive use on slow devices (lavapipe): while the view keeps changing,
 * a run slower than VW_SLOW_RUN_MS waits until the view has been still for
 * VW_SETTLE_S; meanwhile the last picture and overlays are shown moved. */
#define VW_SLOW_RUN_MS 40.0
#define VW_SETTLE_S 0.25
#define VW_AWAIT_CHANGE_S 30.0
#define VW_FRAME_RING 512 /* frame times kept for the last second's statistics */

typedef struct vw_app {
  GLFWwindow *window;
  vw_host host;
  vw_draw draw;
  vw_gpu gpu;
  bool draw_ready;
  vw_doc doc;
  vw_view view;
  bool have_view;
  uint32_t fb_w, fb_h;         /* size the view was last laid out for */
  uint32_t overlays;           /* mask of 1 << VW_OVERLAY_* */
  bool hud;
  bool redraw;                 /* something changed: draw a frame */
  bool rerun;                  /* the view or the scene changed: run canopy again */
  bool swapchain_dirty;
  uint32_t run_generation;     /* doc generation canopy last ran on */
  uint32_t analysis_generation; /* doc generation of the analysis's depth and counts */
  vw_view run_view;            /* the view the picture and analysis were made for */
  vw_view prev_view;           /* the view of the previous frame */
  double last_view_change;
  double last_run_ms;
  bool deferred;               /* a run waits for the view to settle */
  int presented;               /* frames presented so far */
  vw_analysis analysis;
  bool have_analysis;
  cn_transform *viewed_xf;
  uint32_t viewed_cap;
  cn_scene_data viewed;
  vw_mesh mesh;
  uint32_t under;              /* mesh vertices drawn under the overlays (outlines); the rest over them */
  float legend_max_at[3];      /* where the GPU writes the bins legend's largest count: x, y, scale */
  double mouse_x, mouse_y;     /* framebuffer pixels */
  bool dragging;
  bool cursor_inside;          /* hover only while the cursor is over the window */
  int hover;
  char status[160];
  double status_until;
  double frame_ms;
  double last_watch;
  char pending_drop[4096];
  /* headless check */
  int frames;                  /* 0: interactive */
  const char *screenshot;
  bool print_boxes;            /* --print-boxes: the last frame's analysis to stdout */
  bool print_frames;           /* --print-frames: each frame's submissions to stdout */
  /* the last frame: queue submissions the viewer made, whether canopy ran in
   * it, re-recorded because a buffer grew or because canopy refused it, and
   * scene uploads (canopy's own copy, once per load) */
  uint32_t frame_submits, frame_reruns, frame_uploads;
  bool frame_canopy, frame_refused;
  const char *shots_dir;       /* --overlay-shots DIR: one screenshot per overlay after the frames */
  char *input[VW_MAX_INPUT];   /* --input: scripted events, one before each frame after the first */
  int ninput;
  cn_buffer readback;
  char render_error[1024];      /* the renderer refused the scene: shown, outlines instead */
  char **files;                /* the scenes given on the command line (directories expanded) */
  uint32_t nfiles, cur_file;
  bool stats;                  /* I: the stats panel */
  bool announce_present;       /* V: say which present mode the new swapchain got */
  bool print_hud;              /* --print-hud: the HUD's rectangle after the last frame */
  vw_hud_layout hud_layout;
  double frame_t[VW_FRAME_RING], frame_ms_ring[VW_FRAME_RING]; /* when each frame ended, its time */
  uint32_t frame_next, frame_fill;
  char fatal[1024];
} vw_app;

static double vw__now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void vw__status(vw_app *app, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void vw__status(vw_app *app, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(app->status, sizeof app->status, fmt, ap);
  va_end(ap);
  app->status_until = vw__now() + 2.5;
  app->redraw = true;
  if (app->frames) fprintf(stderr, "canopy-view: %s\n", app->status); /* headless: for the tests */
}

static void vw__fatal(vw_app *app, const char *what, VkResult vr) {
  if (app->fatal[0]) return;
  if (vr == VK_ERROR_DEVICE_LOST)
    snprintf(app->fatal, sizeof app->fatal, "the Vulkan device was lost (%s) during %s", cn_vk_result_name(vr), what);
  else
    snprintf(app->fatal, sizeof app->fatal, "%s failed: %s", what, cn_vk_result_name(vr));
}

/* ------------------------------------------------------------ document */

static void vw__fit(vw_app *app) {
  if (!app->doc.loaded || !app->fb_w) return;
  app->view = vw_view_fit(app->doc.scene.viewport, app->fb_w, app->fb_h);
  app->have_view = true;
  app->rerun = app->redraw = true;
}

static void vw__open(vw_app *app, const char *path, bool keep_view) {
  bool same = strcmp(path, app->doc.path) == 0;
  if (vw_doc_load(&app->doc, path)) {
    if (!keep_view || !same || !app->have_view) vw__fit(app);
    char title[4200];
    snprintf(title, sizeof title, "canopy-view: %.4000s", app->doc.path);
    glfwSetWindowTitle(app->window, title);
    vw__status(app, "%s %s", keep_view && same ? "reloaded" : "opened", path);
  } else {
    fprintf(stderr, "canopy-view: %s\n", app->doc.error);
  }
  app->rerun = app->redraw = true;
}

/* --------------------------------------------------------------- input */

static void vw__cursor_to_fb(vw_app *app, double *x, double *y) {
  int ww, wh, fw, fh;
  glfwGetWindowSize(app->window, &ww, &wh);
  glfwGetFramebufferSize(app->window, &fw, &fh);
  if (ww > 0 && wh > 0) {
    *x *= (double)fw / ww;
    *y *= (double)fh / wh;
  }
}

static void vw__on_key(GLFWwindow *w, int key, int scancode, int action, int mods) {
  vw_app *app = glfwGetWindowUserPointer(w);
  if (action == GLFW_RELEASE) return;
  double step = (mods & GLFW_MOD_SHIFT) ? 4 * VW_PAN_STEP : VW_PAN_STEP;
  double cx = app->fb_w * 0.5, cy = app->fb_h * 0.5;
  switch (key) {
    case GLFW_KEY_ESCAPE:
    case GLFW_KEY_Q: glfwSetWindowShouldClose(w, GLFW_TRUE); return;
    case GLFW_KEY_EQUAL:
    case GLFW_KEY_KP_ADD: app->view = vw_view_zoom_at(app->view, VW_ZOOM_STEP, cx, cy); break;
    case GLFW_KEY_MINUS:
    case GLFW_KEY_KP_SUBTRACT: app->view = vw_view_zoom_at(app->view, 1.0 / VW_ZOOM_STEP, cx, cy); break;
    case GLFW_KEY_LEFT: app->view = vw_view_pan(app->view, step, 0); break;
    case GLFW_KEY_RIGHT: app->view = vw_view_pan(app->view, -step, 0); break;
    case GLFW_KEY_UP: app->view = vw_view_pan(app->view, 0, step); break;
    case GLFW_KEY_DOWN: app->view = vw_view_pan(app->view, 0, -step); break;
    case GLFW_KEY_0:
    case GLFW_KEY_KP_0:
    case GLFW_KEY_F: vw__fit(app); break;
    case GLFW_KEY_R:
      if (app->doc.path[0] && strcmp(app->doc.path, "demo") != 0) vw__open(app, app->doc.path, true);
      return;
    case GLFW_KEY_H: app->hud = !app->hud; app->redraw = true; return;
    case GLFW_KEY_I:
      app->stats = !app->stats;
      app->redraw = true;
      return;
    case GLFW_KEY_V:
      app->host.vsync = !app->host.vsync;
      app->announce_present = true;
      app->swapchain_dirty = app->redraw = true;
      return;
    case GLFW_KEY_PAGE_DOWN:
    case GLFW_KEY_RIGHT_BRACKET:
    case GLFW_KEY_PAGE_UP:
    case GLFW_KEY_LEFT_BRACKET:
      if (app->nfiles > 1) {
        bool next = key == GLFW_KEY_PAGE_DOWN || key == GLFW_KEY_RIGHT_BRACKET;
        app->cur_file = (app->cur_file + (next ? 1 : app->nfiles - 1)) % app->nfiles;
        vw__open(app, app->files[app->cur_file], false);
      } else {
        vw__status(app, "one scene: give several files or a folder to switch");
      }
      return;
    default:
      for (int i = 0; i < VW_OVERLAY_COUNT; i++) {
        if (key == vw_overlays[i].key || key == GLFW_KEY_1 + i) {
          app->overlays ^= 1u << i;
          app->redraw = true;
        }
      }
      return;
  }
  app->rerun = app->redraw = true;
}

static void vw__on_scroll(GLFWwindow *w, double dx, double dy) {
  vw_app *app = glfwGetWindowUserPointer(w);
  (void)dx;
  app->view = vw_view_zoom_at(app->view, pow(VW_WHEEL_STEP, dy), app->mouse_x, app->mouse_y);
  app->rerun = app->redraw = true;
}

static void vw__on_cursor(GLFWwindow *w, double x, double y) {
  vw_app *app = glfwGetWindowUserPointer(w);
  vw__cursor_to_fb(app, &x, &y);
  if (app->dragging) {
    app->view = vw_view_pan(app->view, x - app->mouse_x, y - app->mouse_y);
    app->rerun = true;
  }
  app->mouse_x = x;
  app->mouse_y = y;
  app->redraw = true;
}

static void vw__on_button(GLFWwindow *w, int button, int action, int mods) {
  vw_app *app = glfwGetWindowUserPointer(w);
  (void)mods;
  if (button == GLFW_MOUSE_BUTTON_LEFT || button == GLFW_MOUSE_BUTTON_MIDDLE) app->dragging = action == GLFW_PRESS;
}

static void vw__on_enter(GLFWwindow *w, int entered) {
  vw_app *app = glfwGetWindowUserPointer(w);
  /* Headless runs: where the window system's pointer happens to be plays no
   * part (the pictures must not depend on it); scripted events place it. */
  if (app->frames) return;
  app->cursor_inside = entered;
  app->redraw = true;
}

static void vw__on_drop(GLFWwindow *w, int count, const char **paths) {
  vw_app *app = glfwGetWindowUserPointer(w);
  if (count > 0) snprintf(app->pending_drop, sizeof app->pending_drop, "%s", paths[0]);
  app->redraw = true;
}

static void vw__on_resize(GLFWwindow *w, int fw, int fh) {
  vw_app *app = glfwGetWindowUserPointer(w);
  (void)fw;
  (void)fh;
  app->swapchain_dirty = app->redraw = true;
}

static void vw__on_refresh(GLFWwindow *w) {
  vw_app *app = glfwGetWindowUserPointer(w);
  app->redraw = true;
}

/* ------------------------------------------------------ scripted input */

/* One --input token, fed through the same handlers as real events:
 *   a key: a letter, a digit, + - [ ] left right up down esc pgup pgdn
 *   wheel:DY@X,Y   wheel DY notches with the cursor at window point X,Y
 *   move:X,Y       the pointer moves into the window at X,Y (hover)
 *   drag:X0,Y0,X1,Y1   drag with the left button from one point to another
 *   resize:WxH     resize the window
 *   drop:PATH      drop a file on the window
 *   await-change   wait (up to 30 s) until the open file changes on disk; the
 *                  automatic reload then happens as in interactive use
 * With app NULL only checks the token. Returns false on a malformed token. */
static bool vw__input(vw_app *app, const char *t) {
  double a, b, c, d;
  int w, h, n = 0;
  char tail;
  if (strlen(t) == 1 || !strcmp(t, "left") || !strcmp(t, "right") || !strcmp(t, "up") || !strcmp(t, "down") ||
      !strcmp(t, "esc") || !strcmp(t, "pgup") || !strcmp(t, "pgdn")) {
    int key = -1;
    if (!strcmp(t, "pgup")) key = GLFW_KEY_PAGE_UP;
    else if (!strcmp(t, "pgdn")) key = GLFW_KEY_PAGE_DOWN;
    else if (*t == '[') key = GLFW_KEY_LEFT_BRACKET;
    else if (*t == ']') key = GLFW_KEY_RIGHT_BRACKET;
    else if (!strcmp(t, "left")) key = GLFW_KEY_LEFT;
    else if (!strcmp(t, "right")) key = GLFW_KEY_RIGHT;
    else if (!strcmp(t, "up")) key = GLFW_KEY_UP;
    else if (!strcmp(t, "down")) key = GLFW_KEY_DOWN;
    else if (!strcmp(t, "esc")) key = GLFW_KEY_ESCAPE;
    else if (*t == '+') key = GLFW_KEY_EQUAL;
    else if (*t == '-') key = GLFW_KEY_MINUS;
    else if (*t >= 'a' && *t <= 'z') key = GLFW_KEY_A + (*t - 'a');
    else if (*t >= '0' && *t <= '9') key = GLFW_KEY_0 + (*t - '0');
    if (key < 0) return false;
    if (app) vw__on_key(app->window, key, 0, GLFW_PRESS, 0);
    return true;
  }
  if (sscanf(t, "wheel:%lf@%lf,%lf%c", &a, &b, &c, &tail) == 3) {
    if (app) {
      vw__on_cursor(app->window, b, c);
      vw__on_scroll(app->window, 0, a);
    }
    return true;
  }
  if (sscanf(t, "move:%lf,%lf%c", &a, &b, &tail) == 2) {
    if (app) {
      app->cursor_inside = true; /* the pointer enters the window there: hover */
      vw__on_cursor(app->window, a, b);
    }
    return true;
  }
  if (sscanf(t, "drag:%lf,%lf,%lf,%lf%c", &a, &b, &c, &d, &tail) == 4) {
    if (app) {
      vw__on_cursor(app->window, a, b);
      vw__on_button(app->window, GLFW_MOUSE_BUTTON_LEFT, GLFW_PRESS, 0);
      vw__on_cursor(app->window, c, d);
      vw__on_button(app->window, GLFW_MOUSE_BUTTON_LEFT, GLFW_RELEASE, 0);
    }
    return true;
  }
  if (sscanf(t, "resize:%dx%d%n", &w, &h, &n) == 2 && t[n] == 0) {
    if (w < 1 || h < 1 || w > 16384 || h > 16384) return false;
    if (app) {
      glfwSetWindowSize(app->window, w, h);
      /* wait for the window system to apply it (a few event round trips) */
      for (int i = 0; i < 200; i++) {
        int fw = 0, fh = 0;
        glfwGetFramebufferSize(app->window, &fw, &fh);
        if (fw == w && fh == h) break;
        glfwWaitEventsTimeout(0.01);
      }
      app->swapchain_dirty = app->redraw = true;
    }
    return true;
  }
  if (!strncmp(t, "drop:", 5) && t[5]) {
    if (app) {
      const char *path = t + 5;
      vw__on_drop(app->window, 1, &path);
    }
    return true;
  }
  if (!strcmp(t, "await-change")) {
    if (app) {
      double until = vw__now() + VW_AWAIT_CHANGE_S;
      while (!vw_doc_changed_on_disk(&app->doc) && vw__now() < until) {
        struct timespec ts = {0, 20 * 1000000};
        nanosleep(&ts, NULL);
      }
      if (vw_doc_changed_on_disk(&app->doc)) vw__open(app, app->doc.path, true);
    }
    return true;
  }
  return false;
}

/* ---------------------------------------------------------- screenshot */

static bool vw__write_png(const char *path, const uint8_t *bgra_or_rgba, bool bgr, uint32_t w, uint32_t h, char *err,
                          size_t errcap) {
  FILE *f = fopen(path, "wb");
  if (!f) {
    snprintf(err, errcap, "%s: cannot write: %s", path, strerror(errno));
    return false;
  }
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  uint8_t *row = malloc((size_t)w * 4);
  if (!png || !info || !row || setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    free(row);
    fclose(f);
    snprintf(err, errcap, "%s: PNG encoding failed", path);
    return false;
  }
  png_init_io(png, f);
  png_set_IHDR(png, info, w, h, 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (uint32_t y = 0; y < h; y++) {
    const uint8_t *src = bgra_or_rgba + (size_t)y * w * 4;
    for (uint32_t x = 0; x < w; x++) {
      row[4 * x + 0] = src[4 * x + (bgr ? 2 : 0)];
      row[4 * x + 1] = src[4 * x + 1];
      row[4 * x + 2] = src[4 * x + (bgr ? 0 : 2)];
      row[4 * x + 3] = src[4 * x + 3];
    }
    png_write_row(png, row);
  }
  png_write_end(png, NULL);
  png_destroy_write_struct(&png, &info);
  free(row);
  if (fclose(f) != 0) {
    snprintf(err, errcap, "%s: cannot write: %s", path, strerror(errno));
    return false;
  }
  return true;
}

/* ---------------------------------------------------------------- frame */

/* canopy refused the scene (or its frame): the outlines and the overlays
 * come from the library's CPU references on the viewed scene. */
static void vw__use_cpu(vw_app *app) {
  fprintf(stderr, "canopy-view: %s\n", app->render_error);
  vw_gpu_drop(&app->gpu);
  char err[512];
  if (!vw_analysis_cpu(&app->analysis, &app->viewed, err, sizeof err) ||
      !vw_gpu_use_cpu(&app->gpu, &app->analysis, err, sizeof err)) {
    fprintf(stderr, "canopy-view: %s (overlays without boxes)\n", err);
    memset(app->analysis.boxes, 0, (size_t)app->analysis.count * sizeof *app->analysis.boxes);
    vw_gpu_drop(&app->gpu);
  }
  app->run_view = app->view; /* the CPU references are made for this view */
}

/* Lays the scene out for the current view, computes the depth and counts
 * once per scene and hands a new scene to canopy (one upload). *canopy: the
 * frame is to record canopy's work; false when canopy refused the scene (the
 * CPU references are then in place). False only on a fatal error. */
static bool vw__prepare_run(vw_app *app, bool *canopy) {
  *canopy = false;
  const cn_scene_data *s = &app->doc.scene;
  if (s->transform_count > app->viewed_cap) {
    cn_transform *nx = realloc(app->viewed_xf, (size_t)s->transform_count * sizeof *nx);
    if (!nx) {
      snprintf(app->fatal, sizeof app->fatal, "out of memory for %u transforms", s->transform_count);
      return false;
    }
    app->viewed_xf = nx;
    app->viewed_cap = s->transform_count;
  }
  vw_view_scene(&app->view, s, app->fb_w, app->fb_h, app->viewed_xf, &app->viewed);
  char err[512];
  if (!app->have_analysis || app->analysis_generation != app->doc.generation) {
    app->have_analysis = false;
    if (!vw_analysis_compute(&app->analysis, &app->viewed, app->fb_w, app->fb_h, err, sizeof err) ||
        !vw_gpu_set_depth(&app->gpu, &app->analysis, err, sizeof err)) {
      snprintf(app->fatal, sizeof app->fatal, "%s", err);
      return false;
    }
    app->analysis_generation = app->doc.generation;
    app->have_analysis = true;
  }
  bool lost = false;
  app->render_error[0] = 0;
  uint32_t uploads = app->gpu.uploads;
  *canopy = vw_gpu_set_scene(&app->gpu, s, app->doc.generation, &lost, app->render_error, sizeof app->render_error);
  app->frame_uploads += app->gpu.uploads - uploads;
  if (!*canopy) {
    if (lost) {
      snprintf(app->fatal, sizeof app->fatal, "%s", app->render_error);
      return false;
    }
    vw__use_cpu(app);
  }
  return true;
}

/* The number of decimal digits of n. */
static uint32_t vw__digits(uint32_t n) {
  uint32_t d = 1;
  while (n >= 10) n /= 10, d++;
  return d;
}

/* The host's triangles of a frame: the outlines while there is no picture
 * (under the overlays: app->under vertices), then the HUD and the legends;
 * and the hovered element. hit_map: framebuffer point p is the analysis's
 * point p * k + o (the host's boxes may be a run older than the frame);
 * draw_map: the same for what the frame draws (identity when canopy runs in
 * it). */
static void vw__build_mesh(vw_app *app, vw_map hit_map, vw_map draw_map) {
  vw_mesh *m = &app->mesh;
  vw_mesh_clear(m);
  const vw_analysis *a = app->have_analysis && app->doc.loaded ? &app->analysis : NULL;
  if (a && !app->gpu.picture.pixels) vw_outline_build(m, a, &app->viewed);
  if (draw_map.k != 1.0f || draw_map.ox != 0.0f || draw_map.oy != 0.0f) {
    for (uint32_t i = 0; i < m->count && !m->oom; i++) {
      m->v[i].x = (m->v[i].x - draw_map.ox) / draw_map.k;
      m->v[i].y = (m->v[i].y - draw_map.oy) / draw_map.k;
    }
  }
  app->under = m->count;
  app->hover = -1;
  if (a && app->hud && app->cursor_inside && !app->dragging)
    app->hover = vw_overlay_hit(a, app->mouse_x * hit_map.k + hit_map.ox, app->mouse_y * hit_map.k + hit_map.oy);
  const char *file = app->doc.path[0] ? app->doc.path : "(no file)";
  vw_hud_info info = {.file = file,
                      .scene_index = app->cur_file + 1,
                      .scene_count = app->nfiles,
                      .width = app->fb_w,
                      .height = app->fb_h,
                      .zoom = app->view.scale,
                      .analysis = a,
                      .picture = vw_gpu_picture_kind(&app->gpu),
                      .present_mode = vw_present_mode_name(app->host.present_mode),
                      .vsync = app->host.present_mode == VK_PRESENT_MODE_FIFO_KHR,
                      .overlays = app->overlays,
                      .frame_ms = app->frame_ms,
                      .show_stats = app->stats,
                      .reruns = app->gpu.reruns,
                      .hover = app->hover,
                      .error = app->doc.error[0] ? app->doc.error : app->render_error,
                      .has_scene = app->doc.loaded,
                      .skipped = app->doc.loaded && app->doc.skipped[0] ? app->doc.skipped : NULL,
                      .status = vw__now() < app->status_until ? app->status : NULL,
                      .show_hud = app->hud};
  /* Frame times of the last second: min, median, max. */
  double recent[VW_FRAME_RING], now = vw__now();
  uint32_t nr = 0;
  for (uint32_t i = 0; i < app->frame_fill; i++)
    if (now - app->frame_t[i] <= 1.0) recent[nr++] = app->frame_ms_ring[i];
  if (nr) {
    for (uint32_t i = 1; i < nr; i++) /* insertion sort: at most a few hundred */
      for (uint32_t j = i; j > 0 && recent[j] < recent[j - 1]; j--) {
        double t = recent[j];
        recent[j] = recent[j - 1];
        recent[j - 1] = t;
      }
    info.frame_min_ms = recent[0];
    info.frame_median_ms = nr % 2 ? recent[nr / 2] : 0.5 * (recent[nr / 2 - 1] + recent[nr / 2]);
    info.frame_max_ms = recent[nr - 1];
    info.frame_samples = nr;
  }
  /* GPU time per stage of the last frame that ran canopy: the renderer's
   * (its scene stage and flatten, whose results the overlays read, and its
   * own kernels), then the viewer's draw; the total is their sum. */
  info.spans = 0;
  info.gpu_total_ms = 0;
  for (uint32_t i = 0; i < app->gpu.spans && info.spans < VW_HUD_MAX_SPANS; i++, info.spans++) {
    bool draw = app->gpu.span_label[i] && strcmp(app->gpu.span_label[i], "draw") == 0;
    info.span_group[info.spans] = draw ? "viewer" : "renderer";
    info.span_label[info.spans] = draw ? "draw (picture, overlays, HUD)" : app->gpu.span_label[i];
    info.span_ms[info.spans] = app->gpu.span_ms[i];
    info.gpu_total_ms += app->gpu.span_ms[i];
  }
  if (app->gpu.renderer && app->gpu.picture.pixels) {
    cn_render_stats rs;
    cn_renderer_stats(app->gpu.renderer, &rs);
    info.have_buffers = true;
    const uint32_t used[4] = {rs.used_tiles, rs.used_segs, rs.used_chunks, rs.used_spill};
    const uint32_t cap[4] = {rs.cap_tiles, rs.cap_segs, rs.cap_chunks, rs.cap_spill};
    memcpy(info.buf_used, used, sizeof used);
    memcpy(info.buf_cap, cap, sizeof cap);
    info.lines = rs.lines;
  }
  vw_hud_build(m, &info, &app->hud_layout);
  app->legend_max_at[2] = 0.0f;
  if (a)
    vw_overlay_legend(m, a, app->overlays, app->fb_w, app->fb_h, app->hud_layout.scale, app->hud_layout.bottom_used,
                      app->legend_max_at);
}

/* The overlays' pass of the frame: the data wherever it is now (the
 * renderer's buffers, or the CPU references' upload), the window, the hover.
 * False when there is nothing to draw them from. */
static bool vw__overlay_pass(vw_app *app, vw_overlay_pass *ov) {
  if (!app->have_analysis || !app->doc.loaded || app->gpu.source == VW_SOURCE_NONE) return false;
  ov->params = app->gpu.src;
  ov->params.depth = app->gpu.depth.address;
  ov->params.tile = VW_TILE_SIZE;
  ov->params.width = app->fb_w;
  ov->params.height = app->fb_h;
  ov->params.hover = app->hover >= 0 ? (uint32_t)app->hover : VW_OV_NONE;
  ov->params.digits = vw__digits(ov->params.count);
  ov->params.legend_x = app->legend_max_at[0];
  ov->params.legend_y = app->legend_max_at[1];
  ov->params.legend_scale = app->legend_max_at[2];
  ov->mask = app->overlays;
  ov->legend_max = app->legend_max_at[2] > 0.0f && (app->overlays & (1u << VW_OVERLAY_BINS));
  return true;
}

static bool vw__upload_mesh(vw_app *app) {
  char err[512];
  if (app->mesh.oom || !vw_draw_upload(&app->draw, app->gpu.cn, &app->mesh, err, sizeof err)) {
    snprintf(app->fatal, sizeof app->fatal, "%s", app->mesh.oom ? "out of memory building overlays" : err);
    return false;
  }
  return true;
}

static bool vw__resize(vw_app *app) {
  uint32_t ow = app->fb_w, oh = app->fb_h;
  char err[512];
  if (!vw_host_swapchain(&app->host, err, sizeof err)) {
    snprintf(app->fatal, sizeof app->fatal, "swapchain: %s", err);
    return false;
  }
  app->swapchain_dirty = false;
  if (app->announce_present) {
    app->announce_present = false;
    VkPresentModeKHR pm = app->host.present_mode;
    vw__status(app, "vsync %s: %s%s", app->host.vsync ? "on" : "off", vw_present_mode_name(pm),
               !app->host.vsync && pm == VK_PRESENT_MODE_FIFO_KHR ? " (no other mode on this display)" : "");
  }
  if (!app->host.extent.width) return true; /* minimised */
  app->fb_w = app->host.extent.width;
  app->fb_h = app->host.extent.height;
  if (app->have_view && ow && (ow != app->fb_w || oh != app->fb_h))
    app->view = vw_view_resize(app->view, ow, oh, app->fb_w, app->fb_h);
  else if (!app->have_view)
    vw__fit(app);
  app->rerun = app->redraw = true;
  return true;
}

/* Draws one frame; false only on a fatal error (app->fatal says which).
 *
 * A frame is one recording and one submission: when the view or the scene
 * changed, canopy's whole frame (scene stage, flatten, render) is recorded
 * first, then, in the same command buffer, the copies of the result boxes and
 * bin offsets for the host, a barrier, and the render pass that draws the
 * renderer's picture, the overlays from the renderer's buffers, the HUD and
 * the legends. Only when a buffer of canopy's was too small (it has grown) or
 * canopy refused the frame is the frame recorded and submitted again, the
 * second submission waiting for the first's semaphore. */
static bool vw__frame(vw_app *app, bool capture) {
  double t0 = vw__now();
  app->frame_submits = app->frame_reruns = app->frame_uploads = 0;
  app->frame_canopy = app->frame_refused = false;
  if (app->swapchain_dirty || !app->host.swapchain) {
    if (!vw__resize(app)) return false;
  }
  if (!app->host.extent.width) return true;
  double now = vw__now();
  if (memcmp(&app->view, &app->prev_view, sizeof app->view) != 0) app->last_view_change = now;
  app->prev_view = app->view;
  app->deferred = false;
  bool canopy = false; /* canopy's work is recorded into this frame */
  if (app->rerun && app->doc.loaded) {
    bool interactive = app->frames == 0;
    bool same_scene = app->have_analysis && app->run_generation == app->doc.generation;
    bool settling = now - app->last_view_change < VW_SETTLE_S;
    if (interactive && (app->presented == 0 || (same_scene && settling && app->last_run_ms > VW_SLOW_RUN_MS))) {
      app->deferred = true; /* a preview now, the run when the view stops moving */
      if (app->presented == 0) vw__status(app, "running canopy on %s ...", app->host.gpu_name);
    } else {
      if (!vw__prepare_run(app, &canopy)) return false;
      app->run_generation = app->doc.generation;
      app->rerun = false;
      if (app->presented <= 1) app->status_until = 0;
    }
  }
  app->frame_canopy = canopy;
  /* Until canopy has run for this view, the last results are shown moved there. */
  vw_map hit_map = {1.0f, 0.0f, 0.0f};
  if (app->have_analysis && app->run_view.scale > 0) hit_map = vw_view_map(&app->run_view, &app->view);
  vw_map draw_map = canopy ? (vw_map){1.0f, 0.0f, 0.0f} : hit_map;
  vw__build_mesh(app, hit_map, draw_map);
  if (!vw__upload_mesh(app)) return false;
  uint32_t image = 0;
  VkResult vr = vkAcquireNextImageKHR(app->host.device, app->host.swapchain, 5000000000ull, app->host.acquired,
                                      VK_NULL_HANDLE, &image);
  if (vr == VK_ERROR_OUT_OF_DATE_KHR) {
    app->swapchain_dirty = app->redraw = true;
    if (canopy) app->rerun = true; /* canopy's run waits for the new swapchain */
    return true;
  }
  if (vr == VK_SUBOPTIMAL_KHR) app->swapchain_dirty = true;
  else if (vr != VK_SUCCESS) {
    vw__fatal(app, "vkAcquireNextImageKHR", vr);
    return false;
  }
  if (capture) {
    cn_result r = cn_buffer_reserve(app->gpu.cn, CN_MEMORY_READBACK,
                                    (VkDeviceSize)app->fb_w * app->fb_h * 4, &app->readback);
    if (r != CN_OK) {
      snprintf(app->fatal, sizeof app->fatal, "screenshot buffer: %s", cn_last_error());
      return false;
    }
  }
  double t_run = vw__now();
  VkSemaphore wait = app->host.acquired;
  VkCommandBuffer cmd = app->host.cmd;
  for (;;) {
    vr = vw_host_begin(&app->host, cmd);
    if (vr != VK_SUCCESS) {
      vw__fatal(app, "vkBeginCommandBuffer", vr);
      return false;
    }
    if (canopy) {
      float view[6];
      vw_view_affine(&app->view, view);
      if (!vw_gpu_record(&app->gpu, cmd, view, app->fb_w, app->fb_h, app->render_error, sizeof app->render_error)) {
        /* nothing of canopy's is submitted: the frame is recorded again without it */
        canopy = false;
        app->frame_refused = true;
        vw__use_cpu(app);
        vw__build_mesh(app, (vw_map){1.0f, 0.0f, 0.0f}, (vw_map){1.0f, 0.0f, 0.0f});
        if (!vw__upload_mesh(app)) return false;
        continue;
      }
    }
    vw_gpu_barrier_to_draw(cmd);
    vw_overlay_pass ov;
    bool overlays = vw__overlay_pass(app, &ov);
    vw_gpu_draw_begin(&app->gpu, cmd);
    if (overlays) vw_draw_prepare(&app->draw, cmd, &ov);
    vw_draw_record(&app->draw, &app->host, cmd, image, &app->gpu.picture, draw_map, VW_BACKGROUND, app->under,
                   app->mesh.count - app->under, overlays ? &ov : NULL);
    vw_gpu_draw_end(&app->gpu, cmd);
    if (capture) vw_draw_record_readback(&app->host, cmd, image, &app->readback);
    /* A second submission of this frame waits for the first's signal and signals again for the present. */
    vr = vw_host_submit_wait(&app->host, cmd, wait, app->host.rendered[image]);
    app->frame_submits++;
    wait = app->host.rendered[image];
    if (vr != VK_SUCCESS) {
      vw__fatal(app, canopy ? "running canopy's frame and drawing it" : "drawing the frame", vr);
      return false;
    }
    if (!canopy) break;
    bool again = false, lost = false;
    if (vw_gpu_finish(&app->gpu, app->doc.scene.element_count, &app->analysis, &again, &lost, app->render_error,
                      sizeof app->render_error)) {
      if (!again) {
        app->run_view = app->view;
        break;
      }
      if (++app->frame_reruns < VW_MAX_RERUNS) continue; /* a buffer grew: the frame again */
      snprintf(app->render_error, sizeof app->render_error, "canopy's buffers still too small after %d re-runs",
               VW_MAX_RERUNS);
    } else if (lost) {
      snprintf(app->fatal, sizeof app->fatal, "%s", app->render_error);
      return false;
    }
    /* canopy refused the frame: drawn again with the CPU references */
    canopy = false;
    app->frame_refused = true;
    vw__use_cpu(app);
    draw_map = (vw_map){1.0f, 0.0f, 0.0f};
    vw__build_mesh(app, draw_map, draw_map);
    if (!vw__upload_mesh(app)) return false;
  }
  if (app->frame_canopy) {
    app->gpu.reruns = app->frame_reruns;
    app->last_run_ms = (vw__now() - t_run) * 1e3;
    /* the HUD's figures and the hover come from this frame's results: show them */
    if (app->hud) app->redraw = true;
  }
  vw_gpu_collect_draw(&app->gpu);
  VkPresentInfoKHR pi = {.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR,
                         .waitSemaphoreCount = 1,
                         .pWaitSemaphores = &app->host.rendered[image],
                         .swapchainCount = 1,
                         .pSwapchains = &app->host.swapchain,
                         .pImageIndices = &image};
  vr = vkQueuePresentKHR(app->host.queue, &pi);
  if (vr == VK_ERROR_OUT_OF_DATE_KHR || vr == VK_SUBOPTIMAL_KHR) {
    app->swapchain_dirty = app->redraw = true;
  } else if (vr != VK_SUCCESS) {
    vw__fatal(app, "vkQueuePresentKHR", vr);
    return false;
  }
  char err[512];
  if (capture) {
    if (!vw__write_png(app->screenshot, app->readback.mapped, app->host.format_bgr, app->fb_w, app->fb_h, err,
                       sizeof err)) {
      snprintf(app->fatal, sizeof app->fatal, "%s", err);
      return false;
    }
  }
  double t1 = vw__now();
  app->frame_ms = (t1 - t0) * 1e3;
  app->frame_t[app->frame_next] = t1;
  app->frame_ms_ring[app->frame_next] = app->frame_ms;
  app->frame_next = (app->frame_next + 1) % VW_FRAME_RING;
  if (app->frame_fill < VW_FRAME_RING) app->frame_fill++;
  app->presented++;
  if (app->print_frames)
    printf("frame %d submissions %u canopy %d regrown %u refused %d uploads %u\n", app->presented, app->frame_submits,
           app->frame_canopy, app->frame_reruns, app->frame_refused, app->frame_uploads);
  if (app->deferred) app->redraw = true;
  return true;
}

/* ------------------------------------------------------------------ main */

static int vw__usage_error(const char *fmt, const char *arg);

static int vw__cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static bool vw__push_file(vw_app *app, const char *path) {
  char **p = realloc(app->files, (app->nfiles + 1) * sizeof *p);
  if (!p) return false;
  app->files = p;
  if (!(p[app->nfiles] = strdup(path))) return false;
  app->nfiles++;
  return true;
}

/* A file, or a folder's *.svg files in name order. */
static int vw__add_scene(vw_app *app, const char *arg) {
  struct stat st;
  if (stat(arg, &st) != 0 || !S_ISDIR(st.st_mode)) {
    if (!vw__push_file(app, arg)) return vw__usage_error("%s: out of memory", arg);
    return VW_EXIT_OK;
  }
  DIR *d = opendir(arg);
  if (!d) {
    fprintf(stderr, "canopy-view: cannot read the folder %s: %s\n", arg, strerror(errno));
    return VW_EXIT_FAIL;
  }
  uint32_t first = app->nfiles;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    size_t n = strlen(e->d_name);
    if (n < 5 || strcasecmp(e->d_name + n - 4, ".svg") != 0) continue;
    char path[4352]; /* 4000 + "/" + a 255-byte name + NUL */
    snprintf(path, sizeof path, "%.4000s/%s", arg, e->d_name);
    if (!vw__push_file(app, path)) {
      closedir(d);
      return vw__usage_error("%s: out of memory", arg);
    }
  }
  closedir(d);
  if (app->nfiles == first) {
    fprintf(stderr, "canopy-view: no .svg files in %s\n", arg);
    return VW_EXIT_FAIL;
  }
  qsort(app->files + first, app->nfiles - first, sizeof *app->files, vw__cmp_str);
  return VW_EXIT_OK;
}

/* mkdir -p */
static bool vw__mkdirs(const char *dir) {
  char p[4096];
  snprintf(p, sizeof p, "%s", dir);
  for (char *c = p + 1;; c++) {
    if (*c == '/' || *c == 0) {
      char keep = *c;
      *c = 0;
      if (mkdir(p, 0777) != 0 && errno != EEXIST) return false;
      *c = keep;
      if (!keep) break;
    }
  }
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static void vw__usage(FILE *f) {
  fprintf(f,
          "usage: canopy-view [options] [FILE.svg|DIR ...]\n\n"
          "Shows FILE.svg (default: the bundled default.svg) run through canopy on the GPU,\n"
          "with debug overlays. Several files, or a folder (its *.svg), open as a list:\n"
          "PgDn/] and PgUp/[ switch scenes. Keys: see viewer/README.md, or the HUD (H).\n\n"
          "options:\n"
          "  --demo              show the scene built into the viewer instead of a file\n"
          "  --size WxH          window size (default: the scene's size, within the screen)\n"
          "  --overlay NAME      turn an overlay on (repeatable): boxes clips blends bins tiles depth segments\n"
          "  --hud / --no-hud    show or hide the HUD (default: shown; hidden for --screenshot/--overlay-shots)\n"
          "  --stats             open with the stats panel (I) shown\n"
          "  --vsync / --no-vsync  present with FIFO (wait for the display) or MAILBOX/IMMEDIATE (default:\n"
          "                      vsync on; off for --frames); V toggles it\n"
          "  --frames N          render N frames, then exit (headless check)\n"
          "  --screenshot OUT.png  with --frames: write the window's last frame to OUT.png\n"
          "  --overlay-shots DIR with --frames: after the frames, also write DIR/none.png, DIR/<overlay>.png\n"
          "                      for each overlay alone, and DIR/all.png (same view, HUD as set); DIR is\n"
          "                      created if missing\n"
          "  --input EVENTS      with --frames: before each frame after the first, one scripted event\n"
          "                      (space-separated): a key (a letter, a digit, + - left right up down esc),\n"
          "                      wheel:DY@X,Y  move:X,Y  drag:X0,Y0,X1,Y1  resize:WxH  drop:PATH  await-change\n"
          "                      (waits until the file changes on disk and is reloaded); keys also\n"
          "                      [ ] pgup pgdn; frames are at\n"
          "                      least one more than the events\n"
          "  --aa MODE           anti-aliasing: area (default), each pixel's exact covered area; ss16,\n"
          "                      4x4 samples per pixel rounded as Skia/tiny-skia (resvg) do\n"
          "  --font-dir DIR      text uses only the fonts in DIR (repeatable); generic families as Noto\n"
          "                      Sans/Serif/Mono, Yellowtail, Sedgwick Ave Display (default: system fonts)\n"
          "  --print-boxes       with --frames: print each element's box in window pixels after the\n"
          "                      last frame (index, kind, depth, x0 y0 x1 y1; tab-separated)\n"
          "  --print-frames      with --frames: print a line per frame: 'frame N submissions S canopy C\n"
          "                      regrown R refused F uploads U' (queue submissions of the frame; C 1 when\n"
          "                      canopy ran in it; R, F: recorded again because a buffer grew or canopy\n"
          "                      refused it; U: scene uploads, canopy's own copy once per load)\n"
          "  --print-hud         with --frames: print the HUD panel's rectangle and text scale after the\n"
          "                      last frame: 'hud X0 Y0 X1 Y1 SCALE of W H'\n"
          "  --help              this text\n\n"
          "environment: CANOPY_DEVICE=<index|name> picks the device, CANOPY_VALIDATION=1 turns the\n"
          "validation layer on (any message fails a --frames run), CANOPY_SCENES=<dir> holds default.svg.\n"
          "exit codes: 0 success, 1 failure (the message says what), 2 usage error.\n");
}

static int vw__usage_error(const char *fmt, const char *arg) {
  fprintf(stderr, "canopy-view: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\nrun `canopy-view --help` for usage\n");
  return VW_EXIT_USAGE;
}

static void vw__glfw_error(int code, const char *desc) {
  (void)code;
  (void)desc; /* glfwGetError reports it where it matters */
}

int main(int argc, char **argv) {
  static vw_app app_storage;
  vw_app *app = &app_storage;
  app->hud = true;
  app->hover = -1;
  app->view = (vw_view){1.0, 0.0, 0.0};
  const char *file = NULL;
  bool demo = false, hud_set = false, vsync = true, vsync_set = false;
  uint32_t aa = CN_AA_AREA;
  int want_w = 0, want_h = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      vw__usage(stdout);
      return VW_EXIT_OK;
    } else if (!strcmp(a, "--print-boxes")) {
      app->print_boxes = true;
    } else if (!strcmp(a, "--print-frames")) {
      app->print_frames = true;
    } else if (!strcmp(a, "--print-hud")) {
      app->print_hud = true;
    } else if (!strcmp(a, "--stats")) {
      app->stats = true;
    } else if (!strcmp(a, "--vsync") || !strcmp(a, "--no-vsync")) {
      vsync = !strcmp(a, "--vsync");
      vsync_set = true;
    } else if (!strcmp(a, "--aa")) {
      if (i + 1 >= argc) return vw__usage_error("%s needs area or ss16", a);
      const char *v = argv[++i];
      if (!strcmp(v, "area")) aa = CN_AA_AREA;
      else if (!strcmp(v, "ss16")) aa = CN_AA_SS16;
      else return vw__usage_error("--aa '%s': want area or ss16", v);
    } else if (!strcmp(a, "--font-dir")) {
      static const char *font_dirs[16];
      if (i + 1 >= argc) return vw__usage_error("%s needs a directory", a);
      if (app->doc.font_dir_count == 16) return vw__usage_error("%s: at most 16 directories", a);
      font_dirs[app->doc.font_dir_count++] = argv[++i];
      app->doc.font_dirs = font_dirs;
    } else if (!strcmp(a, "--demo")) {
      demo = true;
    } else if (!strcmp(a, "--hud") || !strcmp(a, "--no-hud")) {
      app->hud = !strcmp(a, "--hud");
      hud_set = true;
    } else if (!strcmp(a, "--size") || !strcmp(a, "--overlay") || !strcmp(a, "--frames") ||
               !strcmp(a, "--screenshot") || !strcmp(a, "--overlay-shots") || !strcmp(a, "--input")) {
      if (i + 1 >= argc) return vw__usage_error("%s needs a value", a);
      const char *v = argv[++i];
      if (!strcmp(a, "--size")) {
        char tail = 0;
        if (sscanf(v, "%dx%d%c", &want_w, &want_h, &tail) != 2 || want_w < 1 || want_h < 1 || want_w > 16384 ||
            want_h > 16384)
          return vw__usage_error("--size '%s': want WxH, each 1..16384", v);
      } else if (!strcmp(a, "--overlay")) {
        int o = vw_overlay_by_name(v);
        if (o < 0)
          return vw__usage_error("unknown overlay '%s' (boxes clips blends bins tiles depth segments)", v);
        app->overlays |= 1u << o;
      } else if (!strcmp(a, "--frames")) {
        char *end = NULL;
        long n = strtol(v, &end, 10);
        if (!end || *end || n < 1 || n > 100000) return vw__usage_error("--frames '%s': want 1..100000", v);
        app->frames = (int)n;
      } else if (!strcmp(a, "--overlay-shots")) {
        app->shots_dir = v;
      } else if (!strcmp(a, "--input")) {
        char *copy = strdup(v), *save = NULL;
        if (!copy) return vw__usage_error("%s: out of memory", "--input");
        for (char *tok = strtok_r(copy, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save)) {
          if (!vw__input(NULL, tok)) {
            int rc = vw__usage_error("--input: cannot read '%s' (see --help)", tok);
            free(copy);
            return rc;
          }
          if (app->ninput == VW_MAX_INPUT) {
            free(copy);
            return vw__usage_error("--input: more than 64 events in '%s'", v);
          }
          app->input[app->ninput] = strdup(tok);
          if (!app->input[app->ninput]) {
            free(copy);
            return vw__usage_error("%s: out of memory", "--input");
          }
          app->ninput++;
        }
        free(copy);
      } else {
        app->screenshot = v;
      }
    } else if (a[0] == '-' && a[1]) {
      return vw__usage_error("unknown option '%s'", a);
    } else {
      int rc = vw__add_scene(app, a);
      if (rc != VW_EXIT_OK) return rc;
    }
  }
  if (app->nfiles) file = app->files[0];
  if (app->screenshot && !app->frames) return vw__usage_error("%s needs --frames N", "--screenshot");
  if (app->ninput && !app->frames) return vw__usage_error("%s needs --frames N", "--input");
  if (app->ninput && app->ninput >= app->frames) app->frames = app->ninput + 1;
  if (app->shots_dir && !app->frames) return vw__usage_error("%s needs --frames N", "--overlay-shots");
  if (app->print_boxes && !app->frames) return vw__usage_error("%s needs --frames N", "--print-boxes");
  if (app->print_frames && !app->frames) return vw__usage_error("%s needs --frames N", "--print-frames");
  if (app->print_hud && !app->frames) return vw__usage_error("%s needs --frames N", "--print-hud");
  if (demo && file) return vw__usage_error("--demo and a file ('%s') exclude each other", file);
  app->host.vsync = vsync_set ? vsync : !app->frames;
  if (app->shots_dir && !vw__mkdirs(app->shots_dir)) {
    fprintf(stderr, "canopy-view: --overlay-shots: cannot create %s: %s\n", app->shots_dir, strerror(errno));
    return VW_EXIT_FAIL;
  }
  if ((app->screenshot || app->shots_dir) && !hud_set) app->hud = false;
  bool headless = app->frames > 0;

  /* The document first: its size picks the window's. */
  bool loaded = demo ? vw_doc_demo(&app->doc) : vw_doc_load(&app->doc, file ? file : vw_default_scene());
  if (!loaded) fprintf(stderr, "canopy-view: %s\n", app->doc.error);

  glfwSetErrorCallback(vw__glfw_error);
  if (!glfwInit()) {
    const char *desc = NULL;
    glfwGetError(&desc);
    fprintf(stderr,
            "canopy-view: cannot open a window: %s\n"
            "canopy-view needs a display. Without one, render to a file with `canopy render FILE.svg -o OUT.png`,\n"
            "or run the viewer under a virtual display: `xvfb-run -a canopy-view ...`.\n",
            desc ? desc : "no display");
    vw_doc_free(&app->doc);
    return VW_EXIT_FAIL;
  }
  if (!glfwVulkanSupported()) {
    fprintf(stderr, "canopy-view: GLFW finds no Vulkan loader/driver that can present to a window "
                    "(is mesa-vulkan-drivers installed?); use `canopy render` without a display\n");
    glfwTerminate();
    vw_doc_free(&app->doc);
    return VW_EXIT_FAIL;
  }
  int win_w = 1024, win_h = 768;
  if (app->doc.loaded) {
    const float *vp = app->doc.scene.viewport;
    double sw = vp[2] - vp[0], sh = vp[3] - vp[1];
    if (sw >= 1 && sh >= 1 && sw <= 16384 && sh <= 16384) {
      double k = 1.0;
      GLFWmonitor *mon = glfwGetPrimaryMonitor();
      const GLFWvidmode *mode = mon ? glfwGetVideoMode(mon) : NULL;
      if (!headless && mode) k = fmin(1.0, fmin(0.9 * mode->width / sw, 0.85 * mode->height / sh));
      win_w = (int)ceil(sw * k);
      win_h = (int)ceil(sh * k);
      if (!headless) {
        if (win_w < 480) win_w = 480;
        if (win_h < 360) win_h = 360;
      }
    }
  }
  if (want_w) win_w = want_w, win_h = want_h;
  glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_FALSE);
  glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
  char title[4200];
  snprintf(title, sizeof title, "canopy-view: %.4000s", app->doc.path[0] ? app->doc.path : "(no file)");
  app->window = glfwCreateWindow(win_w, win_h, title, NULL, NULL);
  if (!app->window) {
    const char *desc = NULL;
    glfwGetError(&desc);
    fprintf(stderr, "canopy-view: cannot create a %dx%d window: %s\n", win_w, win_h, desc ? desc : "unknown error");
    glfwTerminate();
    vw_doc_free(&app->doc);
    return VW_EXIT_FAIL;
  }
  glfwSetWindowUserPointer(app->window, app);
  glfwSetKeyCallback(app->window, vw__on_key);
  glfwSetScrollCallback(app->window, vw__on_scroll);
  glfwSetCursorPosCallback(app->window, vw__on_cursor);
  glfwSetMouseButtonCallback(app->window, vw__on_button);
  glfwSetDropCallback(app->window, vw__on_drop);
  glfwSetCursorEnterCallback(app->window, vw__on_enter);
  glfwSetFramebufferSizeCallback(app->window, vw__on_resize);
  glfwSetWindowRefreshCallback(app->window, vw__on_refresh);

  const char *val = getenv("CANOPY_VALIDATION");
  bool validation = val && *val && strcmp(val, "0") != 0;
  char err[1024];
  int code = VW_EXIT_OK;
  if (!vw_host_create(&app->host, app->window, validation, err, sizeof err)) {
    fprintf(stderr, "canopy-view: Vulkan set-up failed: %s\n", err);
    code = VW_EXIT_FAIL;
  } else if (!vw_gpu_create(&app->gpu, &app->host, err, sizeof err)) {
    fprintf(stderr, "canopy-view: %s\n", err);
    code = VW_EXIT_FAIL;
  } else if (!(app->draw_ready = vw_draw_create(&app->draw, &app->host, app->gpu.cn, err, sizeof err))) {
    fprintf(stderr, "canopy-view: %s\n", err);
    code = VW_EXIT_FAIL;
  }
  if (code == VW_EXIT_OK) {
    app->gpu.aa = aa;
    app->fb_w = app->host.extent.width;
    app->fb_h = app->host.extent.height;
    vw__fit(app);
    app->redraw = true;
    int drawn = 0;
    app->last_watch = vw__now();
    while (!glfwWindowShouldClose(app->window)) {
      if (headless || (app->redraw && !app->deferred)) glfwPollEvents();
      else glfwWaitEventsTimeout(app->deferred ? 0.03 : VW_WATCH_PERIOD_S);
      if (app->pending_drop[0]) {
        char path[sizeof app->pending_drop];
        memcpy(path, app->pending_drop, sizeof path);
        app->pending_drop[0] = 0;
        vw__open(app, path, false);
      }
      double now = vw__now();
      if (!headless && now - app->last_watch >= VW_WATCH_PERIOD_S) {
        app->last_watch = now;
        if (vw_doc_changed_on_disk(&app->doc)) vw__open(app, app->doc.path, true);
        if (app->status_until && now >= app->status_until) {
          app->status_until = 0;
          app->redraw = true;
        }
      }
      if (!headless && !app->redraw) continue;
      app->redraw = false;
      if (headless && drawn >= 1 && drawn - 1 < app->ninput) {
        vw__input(app, app->input[drawn - 1]);
        if (app->pending_drop[0]) {
          char path[sizeof app->pending_drop];
          memcpy(path, app->pending_drop, sizeof path);
          app->pending_drop[0] = 0;
          vw__open(app, path, false);
        }
      }
      bool last = headless && drawn + 1 == app->frames;
      if (!vw__frame(app, last && app->screenshot)) break;
      if (app->host.validation_count && headless) break;
      if (app->host.extent.width) drawn++;
      if (headless && drawn >= app->frames) break;
    }
    if (app->shots_dir && !app->fatal[0] && drawn >= app->frames) {
      /* The same view once more per overlay set: no canopy re-run, only the draw. */
      const char *keep = app->screenshot;
      uint32_t keep_mask = app->overlays;
      char path[4200];
      for (int i = -1; i <= VW_OVERLAY_COUNT && !app->fatal[0]; i++) {
        const char *name = i < 0 ? "none" : i == VW_OVERLAY_COUNT ? "all" : vw_overlays[i].name;
        app->overlays = i < 0 ? 0 : i == VW_OVERLAY_COUNT ? (1u << VW_OVERLAY_COUNT) - 1 : 1u << i;
        snprintf(path, sizeof path, "%.4000s/%s.png", app->shots_dir, name);
        app->screenshot = path;
        for (int tries = 0; tries < 3; tries++) { /* a frame may go to a swapchain re-creation */
          bool drew = app->host.extent.width != 0 && !app->swapchain_dirty;
          if (!vw__frame(app, drew) || drew) break;
        }
      }
      app->screenshot = keep;
      app->overlays = keep_mask;
    }
    if (app->fatal[0]) {
      fprintf(stderr, "canopy-view: %s\n", app->fatal);
      code = VW_EXIT_FAIL;
    } else if (headless && drawn < app->frames) {
      fprintf(stderr, "canopy-view: the window closed after %d of %d frames\n", drawn, app->frames);
      code = VW_EXIT_FAIL;
    }
    if (app->print_boxes && app->have_analysis && code == VW_EXIT_OK) {
      const vw_analysis *a = &app->analysis;
      for (uint32_t i = 0; i < a->count; i++)
        printf("%u\t%s\t%u\t%.2f\t%.2f\t%.2f\t%.2f\n", i, vw_tag_name(a->tags[i]), a->depth[i], a->boxes[i].x0,
               a->boxes[i].y0, a->boxes[i].x1, a->boxes[i].y1);
    }
    if (app->print_hud && code == VW_EXIT_OK) {
      const vw_hud_layout *L = &app->hud_layout;
      printf("hud %.0f %.0f %.0f %.0f %.2f of %u %u\n", L->x0, L->y0, L->x1, L->y1, L->scale, app->fb_w, app->fb_h);
    }
    if (headless && !app->doc.loaded) code = VW_EXIT_FAIL;
    if (headless && (app->doc.error[0] || app->render_error[0])) code = VW_EXIT_FAIL;
    if (app->host.device) vkDeviceWaitIdle(app->host.device);
  }
  if (app->gpu.cn) cn_buffer_destroy(app->gpu.cn, &app->readback);
  if (app->draw_ready) vw_draw_destroy(&app->draw, &app->host, app->gpu.cn);
  vw_gpu_destroy(&app->gpu);
  vw_host_destroy(&app->host);
  if (app->host.validation_count) {
    fprintf(stderr, "canopy-view: the validation layer reported %u message(s)\n", app->host.validation_count);
    if (headless) code = VW_EXIT_FAIL;
  }
  glfwDestroyWindow(app->window);
  glfwTerminate();
  vw_analysis_free(&app->analysis);
  vw_mesh_free(&app->mesh);
  free(app->viewed_xf);
  for (int i = 0; i < app->ninput; i++) free(app->input[i]);
  for (uint32_t i = 0; i < app->nfiles; i++) free(app->files[i]);
  free(app->files);
  vw_doc_free(&app->doc);
  return code;
}
