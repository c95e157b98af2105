/* pngcheck.c: build/viewer/vw-pngcheck, the picture checks of tests/cli_viewer.sh.
 *
 *   vw-pngcheck size A.png                 prints "W H"
 *   vw-pngcheck pixel A.png X Y            prints "R G B A" of one pixel
 *   vw-pngcheck match A.png B.png [--white B]
 *       the conformance metric: pixels where any channel differs by more than
 *       24; exit 0 when at most 1% of them do. --white composites B (a
 *       premultiplied RGBA8 image, as `canopy render` writes) over white first,
 *       which is what the viewer shows.
 *   vw-pngcheck differ A.png B.png         prints how many pixels differ at all;
 *       exit 0 when some do
 *   vw-pngcheck changes A.png B.png BOXES.tsv KIND
 *       where the two pictures differ, against boxes (lines "index tag depth x0
 *       y0 x1 y1" from canopy-view --print-boxes, tags as names). KIND "frame":
 *       every changed pixel lies within 2 px of the border of a box with tag
 *       fill/stroke, and every such box has changes along at least half of its
 *       border inside the picture; KIND "clip"/"blend": every changed pixel lies
 *       within 2 px of a clip-group/blend-group box, and each such box changed.
 *       Prints counts; exit 0 when all holds.
 * Exit codes: 0 holds, 1 does not, 2 usage or unreadable input.
 */
#include <math.h>
#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct img {
  uint32_t w, h;
  uint8_t *px; /* RGBA8 */
} img;

static int load(const char *path, img *out) {
  png_image im;
  memset(&im, 0, sizeof im);
  im.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&im, path)) {
    fprintf(stderr, "vw-pngcheck: %s: %s\n", path, im.message);
    return 0;
  }
  im.format = PNG_FORMAT_RGBA;
  out->w = im.width;
  out->h = im.height;
  out->px = malloc(PNG_IMAGE_SIZE(im));
  if (!out->px || !png_image_finish_read(&im, NULL, out->px, 0, NULL)) {
    fprintf(stderr, "vw-pngcheck: %s: %s\n", path, out->px ? im.message : "out of memory");
    png_image_free(&im);
    return 0;
  }
  return 1;
}

typedef struct box {
  char tag[32];
  float x0, y0, x1, y1;
} box;

static box *read_boxes(const char *path, uint32_t *n) {
  FILE *f = fopen(path, "r");
  if (!f) return NULL;
  box *b = NULL;
  uint32_t cap = 0;
  *n = 0;
  char line[512];
  while (fgets(line, sizeof line, f)) {
    box x;
    unsigned idx, depth;
    char tag[32];
    /* tags may have a space ("clip group"): read the fields around it */
    if (sscanf(line, "%u\t%31[^\t]\t%u\t%f\t%f\t%f\t%f", &idx, tag, &depth, &x.x0, &x.y0, &x.x1, &x.y1) != 7) continue;
    snprintf(x.tag, sizeof x.tag, "%s", tag);
    if (*n == cap) {
      cap = cap ? 2 * cap : 64;
      box *nb = realloc(b, cap * sizeof *nb);
      if (!nb) break;
      b = nb;
    }
    b[(*n)++] = x;
  }
  fclose(f);
  return b;
}

static int differs(const uint8_t *a, const uint8_t *b, int tol) {
  for (int c = 0; c < 4; c++)
    if (abs((int)a[c] - (int)b[c]) > tol) return 1;
  return 0;
}

/* Distance (in pixels, Chebyshev) from pixel centre (x, y) to the box border. */
static float border_dist(const box *b, float x, float y) {
  float cx = x + 0.5f, cy = y + 0.5f;
  int inside_x = cx >= b->x0 - 2 && cx <= b->x1 + 2, inside_y = cy >= b->y0 - 2 && cy <= b->y1 + 2;
  if (!inside_x || !inside_y) return INFINITY;
  float d = fminf(fminf(fabsf(cx - b->x0), fabsf(cx - b->x1)), fminf(fabsf(cy - b->y0), fabsf(cy - b->y1)));
  return d;
}

static int is_kind(const box *b, const char *kind) {
  if (!strcmp(kind, "frame")) return !strcmp(b->tag, "fill") || !strcmp(b->tag, "stroke");
  if (!strcmp(kind, "clip")) return !strcmp(b->tag, "clip group");
  if (!strcmp(kind, "blend")) return !strcmp(b->tag, "blend group");
  return 0;
}

static int changes(const img *a, const img *b, const char *boxes_path, const char *kind) {
  uint32_t n = 0;
  box *bx = read_boxes(boxes_path, &n);
  if (!bx) {
    fprintf(stderr, "vw-pngcheck: cannot read boxes from %s\n", boxes_path);
    return 2;
  }
  int frame = !strcmp(kind, "frame");
  uint64_t changed = 0, stray = 0;
  for (uint32_t y = 0; y < a->h; y++) {
    for (uint32_t x = 0; x < a->w; x++) {
      size_t o = 4 * ((size_t)y * a->w + x);
      if (!differs(a->px + o, b->px + o, 0)) continue;
      changed++;
      int ok = 0;
      for (uint32_t i = 0; i < n && !ok; i++) {
        if (!is_kind(&bx[i], kind) || !(bx[i].x1 > bx[i].x0)) continue;
        float d = border_dist(&bx[i], (float)x, (float)y);
        ok = frame ? d <= 2.0f
                   : ((float)x + 0.5f >= bx[i].x0 - 2 && (float)x + 0.5f <= bx[i].x1 + 2 &&
                      (float)y + 0.5f >= bx[i].y0 - 2 && (float)y + 0.5f <= bx[i].y1 + 2);
      }
      if (!ok) {
        if (stray < 5) fprintf(stderr, "vw-pngcheck: pixel (%u, %u) changed away from every %s box\n", x, y, kind);
        stray++;
      }
    }
  }
  /* every box of the kind, where visible, shows */
  uint32_t boxes = 0, unseen = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (!is_kind(&bx[i], kind) || !(bx[i].x1 - bx[i].x0 >= 4) || !(bx[i].y1 - bx[i].y0 >= 4)) continue;
    /* the pixels whose centres the 1-px frame covers: [x0, x0 + 1) and [x1 - 1, x1) */
    int x0 = (int)fmaxf(floorf(bx[i].x0 + 0.5f), 0), y0 = (int)fmaxf(floorf(bx[i].y0 + 0.5f), 0);
    int x1 = (int)fminf(floorf(bx[i].x1 - 0.5f), (float)a->w - 1), y1 = (int)fminf(floorf(bx[i].y1 - 0.5f), (float)a->h - 1);
    if (x1 <= x0 || y1 <= y0) continue;
    boxes++;
    uint32_t on = 0, total = 0;
    /* its border pixels (frames) or its interior (groups: faint fill) */
    for (int y = y0; y <= y1; y++) {
      for (int x = x0; x <= x1; x++) {
        int border = x == x0 || x == x1 || y == y0 || y == y1;
        if (frame && !border) continue;
        size_t o = 4 * ((size_t)y * a->w + x);
        total++;
        on += differs(a->px + o, b->px + o, 0);
      }
    }
    if (on * 2 < total) {
      if (unseen < 5)
        fprintf(stderr, "vw-pngcheck: %s box (%.1f %.1f %.1f %.1f): only %u of %u pixels changed\n", bx[i].tag,
                bx[i].x0, bx[i].y0, bx[i].x1, bx[i].y1, on, total);
      unseen++;
    }
  }
  free(bx);
  printf("changed %llu stray %llu boxes %u unseen %u\n", (unsigned long long)changed, (unsigned long long)stray, boxes,
         unseen);
  return stray == 0 && unseen == 0 && changed > 0 && boxes > 0 ? 0 : 1;
}

int main(int argc, char **argv) {
  if (argc >= 3 && !strcmp(argv[1], "size")) {
    img a;
    if (!load(argv[2], &a)) return 2;
    printf("%u %u\n", a.w, a.h);
    free(a.px);
    return 0;
  }
  if (argc == 5 && !strcmp(argv[1], "pixel")) {
    img a;
    if (!load(argv[2], &a)) return 2;
    long x = strtol(argv[3], NULL, 10), y = strtol(argv[4], NULL, 10);
    if (x < 0 || y < 0 || x >= (long)a.w || y >= (long)a.h) return 2;
    const uint8_t *p = a.px + 4 * ((size_t)y * a.w + x);
    printf("%u %u %u %u\n", p[0], p[1], p[2], p[3]);
    free(a.px);
    return 0;
  }
  if ((argc == 4 || argc == 5) && !strcmp(argv[1], "match")) {
    img a, b;
    a.px = b.px = NULL;
    if (!load(argv[2], &a) || !load(argv[3], &b)) return 2;
    if (a.w != b.w || a.h != b.h) {
      printf("size differs: %ux%u vs %ux%u\n", a.w, a.h, b.w, b.h);
      free(a.px);
      free(b.px);
      return 1;
    }
    int white = argc == 5 && !strcmp(argv[4], "--white");
    uint64_t bad = 0, n = (uint64_t)a.w * a.h;
    for (uint64_t i = 0; i < n; i++) {
      uint8_t q[4];
      memcpy(q, b.px + 4 * i, 4);
      if (white)
        for (int c = 0; c < 4; c++) q[c] = (uint8_t)(c == 3 ? 255 : (q[c] + 255 - q[3] > 255 ? 255 : q[c] + 255 - q[3]));
      bad += differs(a.px + 4 * i, q, 24);
    }
    printf("%llu of %llu pixels differ by more than 24 (%.3f%%)\n", (unsigned long long)bad, (unsigned long long)n,
           100.0 * (double)bad / (double)n);
    free(a.px);
    free(b.px);
    return bad * 100 <= n ? 0 : 1;
  }
  if (argc == 4 && !strcmp(argv[1], "differ")) {
    img a, b;
    a.px = b.px = NULL;
    if (!load(argv[2], &a) || !load(argv[3], &b)) return 2;
    uint64_t n = 0;
    if (a.w == b.w && a.h == b.h)
      for (uint64_t i = 0; i < (uint64_t)a.w * a.h; i++) n += differs(a.px + 4 * i, b.px + 4 * i, 0);
    else
      n = 1;
    printf("%llu pixels differ\n", (unsigned long long)n);
    free(a.px);
    free(b.px);
    return n ? 0 : 1;
  }
  if (argc == 6 && !strcmp(argv[1], "changes")) {
    img a, b;
    a.px = b.px = NULL;
    if (!load(argv[2], &a) || !load(argv[3], &b)) return 2;
    int r = a.w != b.w || a.h != b.h ? 1 : changes(&a, &b, argv[4], argv[5]);
    free(a.px);
    free(b.px);
    return r;
  }
  fprintf(stderr,
          "usage: vw-pngcheck size A.png | pixel A.png X Y | match A.png B.png [--white] | differ A.png B.png |\n"
          "       changes A.png B.png BOXES.tsv frame|clip|blend\n");
  return 2;
}
