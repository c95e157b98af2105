/* svg_path.c: SVG path data (every command, relative forms, implicit
 * repeats, arcs as cubics, the rule of rendering up to the first error),
 * basic shapes as paths (rect with rx/ry, circle, ellipse, polyline points)
 * and path bounds. */
#include "svg_internal.h"

#include <math.h>
#include <stdlib.h>

/* Kappa: control point distance of a quarter circle of radius 1 as a cubic. */
#define SVG_KAPPA 0.5522847498307936

void cn__svg_path_free(svg_path *p) {
  free(p->ops);
  free(p->pts);
  *p = (svg_path){0};
}

static bool grow(svg_path *p, size_t nops, size_t npts) {
  if (p->oom) return false;
  if (p->nops + nops > p->cap_ops) {
    size_t c = p->cap_ops ? p->cap_ops * 2 : 16;
    while (c < p->nops + nops) c *= 2;
    uint8_t *o = realloc(p->ops, c);
    if (!o) return p->oom = true, false;
    p->ops = o, p->cap_ops = c;
  }
  if (p->npts + 2 * npts > p->cap_pts) {
    size_t c = p->cap_pts ? p->cap_pts * 2 : 32;
    while (c < p->npts + 2 * npts) c *= 2;
    double *q = realloc(p->pts, c * sizeof *q);
    if (!q) return p->oom = true, false;
    p->pts = q, p->cap_pts = c;
  }
  return true;
}

static void add(svg_path *p, uint8_t op, const double *v, int n) {
  if (!grow(p, 1, (size_t)n)) return;
  p->ops[p->nops++] = op;
  for (int i = 0; i < 2 * n; i++) p->pts[p->npts++] = v[i];
}

void cn__svg_path_move(svg_path *p, double x, double y) { add(p, SVG_OP_MOVE, (double[]){x, y}, 1); }
void cn__svg_path_line(svg_path *p, double x, double y) { add(p, SVG_OP_LINE, (double[]){x, y}, 1); }
void cn__svg_path_quad(svg_path *p, double x1, double y1, double x, double y) {
  add(p, SVG_OP_QUAD, (double[]){x1, y1, x, y}, 2);
}
void cn__svg_path_cubic(svg_path *p, double x1, double y1, double x2, double y2, double x, double y) {
  add(p, SVG_OP_CUBIC, (double[]){x1, y1, x2, y2, x, y}, 3);
}
void cn__svg_path_close(svg_path *p) { add(p, SVG_OP_CLOSE, NULL, 0); }

/* Endpoint arc -> centre form -> at most 90 degree cubic pieces (SVG 1.1 F.6). */
void cn__svg_path_arc(svg_path *p, double x0, double y0, double rx, double ry, double angle, bool large, bool sweep,
                  double x, double y) {
  if (x0 == x && y0 == y) return; /* omitted */
  rx = fabs(rx), ry = fabs(ry);
  if (rx == 0 || ry == 0) {
    cn__svg_path_line(p, x, y);
    return;
  }
  double phi = fmod(angle, 360.0) * SVG_PI / 180.0;
  double cp = cos(phi), sp = sin(phi);
  double dx = (x0 - x) / 2, dy = (y0 - y) / 2;
  double x1p = cp * dx + sp * dy, y1p = -sp * dx + cp * dy;
  double lambda = (x1p * x1p) / (rx * rx) + (y1p * y1p) / (ry * ry);
  if (lambda > 1) {
    double s = sqrt(lambda);
    rx *= s, ry *= s;
  }
  double num = rx * rx * ry * ry - rx * rx * y1p * y1p - ry * ry * x1p * x1p;
  double den = rx * rx * y1p * y1p + ry * ry * x1p * x1p;
  double coef = den > 0 && num > 0 ? sqrt(num / den) : 0;
  if (large == sweep) coef = -coef;
  double cxp = coef * rx * y1p / ry, cyp = -coef * ry * x1p / rx;
  double cx = cp * cxp - sp * cyp + (x0 + x) / 2, cy = sp * cxp + cp * cyp + (y0 + y) / 2;
  double ux = (x1p - cxp) / rx, uy = (y1p - cyp) / ry, vx = (-x1p - cxp) / rx, vy = (-y1p - cyp) / ry;
  double th1 = atan2(uy, ux);
  double dth = atan2(ux * vy - uy * vx, ux * vx + uy * vy);
  if (!sweep && dth > 0) dth -= 2 * SVG_PI;
  if (sweep && dth < 0) dth += 2 * SVG_PI;
  if (!isfinite(dth) || !isfinite(cx) || !isfinite(cy)) {
    cn__svg_path_line(p, x, y);
    return;
  }
  int n = (int)ceil(fabs(dth) / (SVG_PI / 2) - 1e-9);
  if (n < 1) n = 1;
  double step = dth / n, t = 4.0 / 3.0 * tan(step / 4);
  double a = th1;
  for (int i = 0; i < n; i++) {
    double c1 = cos(a), s1 = sin(a), c2 = cos(a + step), s2 = sin(a + step);
    double e1x = c1 - t * s1, e1y = s1 + t * c1, e2x = c2 + t * s2, e2y = s2 - t * c2;
    double pts[6] = {e1x, e1y, e2x, e2y, c2, s2};
    for (int k = 0; k < 3; k++) {
      double ex = pts[2 * k] * rx, ey = pts[2 * k + 1] * ry;
      pts[2 * k] = cp * ex - sp * ey + cx;
      pts[2 * k + 1] = sp * ex + cp * ey + cy;
    }
    if (i == n - 1) pts[4] = x, pts[5] = y; /* land exactly */
    add(p, (uint8_t)(SVG_OP_CUBIC | (i ? SVG_OP_ARC_CONT : 0)), pts, 3);
    a += step;
  }
}

static bool is_cmd(char c) {
  switch (c) {
    case 'M': case 'm': case 'L': case 'l': case 'H': case 'h': case 'V': case 'v': case 'C': case 'c':
    case 'S': case 's': case 'Q': case 'q': case 'T': case 't': case 'A': case 'a': case 'Z': case 'z':
      return true;
    default: return false;
  }
}

static bool read_flag(const char **s, bool *f) {
  cn__svg_skip_comma_ws(s);
  if (**s != '0' && **s != '1') return false;
  *f = **s == '1';
  (*s)++;
  return true;
}

static bool read_nums(const char **s, double *v, int n) {
  for (int i = 0; i < n; i++) {
    if (i) cn__svg_skip_comma_ws(s);
    if (cn__svg_parse_number(s, &v[i]) != 1) return false;
  }
  return true;
}

bool cn__svg_parse_path_data(const char *d, svg_path *p) {
  if (!d) return true;
  const char *s = d;
  double cx = 0, cy = 0, sx = 0, sy = 0; /* current point, subpath start */
  double lcx = 0, lcy = 0;                /* last control point (S/T reflection) */
  char prev = 0, cmd = 0;
  cn__svg_skip_ws(&s);
  if (!*s) return true;
  if (*s != 'M' && *s != 'm') return false; /* must start with a moveto */
  while (*s) {
    if (p->oom) return false;
    if (is_cmd(*s)) {
      cmd = *s++;
      cn__svg_skip_ws(&s);
    } else if (!cmd) {
      return false;
    } else if (cmd == 'Z' || cmd == 'z') {
      return false; /* numbers after Z */
    }
    /* implicit repeats: after a moveto, further pairs are linetos */
    bool rel = cmd >= 'a';
    double ox = rel ? cx : 0, oy = rel ? cy : 0;
    double v[7];
    switch (cmd) {
      case 'M': case 'm':
        if (!read_nums(&s, v, 2)) return false;
        cx = sx = v[0] + ox, cy = sy = v[1] + oy;
        cn__svg_path_move(p, cx, cy);
        lcx = cx, lcy = cy;
        cmd = rel ? 'l' : 'L';
        prev = 'M';
        break;
      case 'L': case 'l':
        if (!read_nums(&s, v, 2)) return false;
        cx = v[0] + ox, cy = v[1] + oy;
        cn__svg_path_line(p, cx, cy);
        lcx = cx, lcy = cy, prev = 'L';
        break;
      case 'H': case 'h':
        if (!read_nums(&s, v, 1)) return false;
        cx = v[0] + ox;
        cn__svg_path_line(p, cx, cy);
        lcx = cx, lcy = cy, prev = 'L';
        break;
      case 'V': case 'v':
        if (!read_nums(&s, v, 1)) return false;
        cy = v[0] + oy;
        cn__svg_path_line(p, cx, cy);
        lcx = cx, lcy = cy, prev = 'L';
        break;
      case 'C': case 'c':
        if (!read_nums(&s, v, 6)) return false;
        cn__svg_path_cubic(p, v[0] + ox, v[1] + oy, v[2] + ox, v[3] + oy, v[4] + ox, v[5] + oy);
        lcx = v[2] + ox, lcy = v[3] + oy, cx = v[4] + ox, cy = v[5] + oy, prev = 'C';
        break;
      case 'S': case 's': {
        if (!read_nums(&s, v, 4)) return false;
        double x1 = prev == 'C' ? 2 * cx - lcx : cx, y1 = prev == 'C' ? 2 * cy - lcy : cy;
        cn__svg_path_cubic(p, x1, y1, v[0] + ox, v[1] + oy, v[2] + ox, v[3] + oy);
        lcx = v[0] + ox, lcy = v[1] + oy, cx = v[2] + ox, cy = v[3] + oy, prev = 'C';
        break;
      }
      case 'Q': case 'q':
        if (!read_nums(&s, v, 4)) return false;
        cn__svg_path_quad(p, v[0] + ox, v[1] + oy, v[2] + ox, v[3] + oy);
        lcx = v[0] + ox, lcy = v[1] + oy, cx = v[2] + ox, cy = v[3] + oy, prev = 'Q';
        break;
      case 'T': case 't': {
        if (!read_nums(&s, v, 2)) return false;
        double x1 = prev == 'Q' ? 2 * cx - lcx : cx, y1 = prev == 'Q' ? 2 * cy - lcy : cy;
        cn__svg_path_quad(p, x1, y1, v[0] + ox, v[1] + oy);
        lcx = x1, lcy = y1, cx = v[0] + ox, cy = v[1] + oy, prev = 'Q';
        break;
      }
      case 'A': case 'a': {
        bool large, sweep;
        if (!read_nums(&s, v, 3)) return false;
        if (!read_flag(&s, &large) || !read_flag(&s, &sweep)) return false;
        cn__svg_skip_comma_ws(&s);
        if (!read_nums(&s, v + 3, 2)) return false;
        double x = v[3] + ox, y = v[4] + oy;
        cn__svg_path_arc(p, cx, cy, v[0], v[1], v[2], large, sweep, x, y);
        cx = x, cy = y, lcx = cx, lcy = cy, prev = 'A';
        break;
      }
      case 'Z': case 'z':
        cn__svg_path_close(p);
        cx = sx, cy = sy, lcx = cx, lcy = cy, prev = 'Z';
        break;
      default: return false;
    }
    cn__svg_skip_comma_ws(&s);
  }
  return !p->oom;
}

void cn__svg_path_rect(svg_path *p, double x, double y, double w, double h, double rx, double ry) {
  if (rx > w / 2) rx = w / 2;
  if (ry > h / 2) ry = h / 2;
  if (rx <= 0 || ry <= 0) {
    cn__svg_path_move(p, x, y);
    cn__svg_path_line(p, x + w, y);
    cn__svg_path_line(p, x + w, y + h);
    cn__svg_path_line(p, x, y + h);
    cn__svg_path_close(p);
    return;
  }
  double kx = rx * SVG_KAPPA, ky = ry * SVG_KAPPA;
  cn__svg_path_move(p, x + rx, y);
  cn__svg_path_line(p, x + w - rx, y);
  cn__svg_path_cubic(p, x + w - rx + kx, y, x + w, y + ry - ky, x + w, y + ry);
  cn__svg_path_line(p, x + w, y + h - ry);
  cn__svg_path_cubic(p, x + w, y + h - ry + ky, x + w - rx + kx, y + h, x + w - rx, y + h);
  cn__svg_path_line(p, x + rx, y + h);
  cn__svg_path_cubic(p, x + rx - kx, y + h, x, y + h - ry + ky, x, y + h - ry);
  cn__svg_path_line(p, x, y + ry);
  cn__svg_path_cubic(p, x, y + ry - ky, x + rx - kx, y, x + rx, y);
  cn__svg_path_close(p);
}

void cn__svg_path_ellipse(svg_path *p, double cx, double cy, double rx, double ry) {
  double kx = rx * SVG_KAPPA, ky = ry * SVG_KAPPA;
  cn__svg_path_move(p, cx + rx, cy);
  cn__svg_path_cubic(p, cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry);
  cn__svg_path_cubic(p, cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy);
  cn__svg_path_cubic(p, cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry);
  cn__svg_path_cubic(p, cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy);
  cn__svg_path_close(p);
}

void cn__svg_parse_points(const char *s, svg_path *p, bool close) {
  if (!s) return;
  bool first = true;
  cn__svg_skip_ws(&s);
  while (*s) {
    double x, y;
    if (cn__svg_parse_number(&s, &x) != 1) break;
    cn__svg_skip_comma_ws(&s);
    if (cn__svg_parse_number(&s, &y) != 1) break;
    cn__svg_skip_comma_ws(&s);
    if (first) cn__svg_path_move(p, x, y);
    else cn__svg_path_line(p, x, y);
    first = false;
  }
  if (close && !first) cn__svg_path_close(p);
}

bool cn__svg_path_bounds(const svg_path *p, svg_mat m, double box[4]) {
  bool any = false;
  size_t k = 0;
  for (size_t i = 0; i < p->nops; i++) {
    int op = p->ops[i] & 0x7f;
    int n = op == SVG_OP_MOVE || op == SVG_OP_LINE ? 1 : op == SVG_OP_QUAD ? 2 : op == SVG_OP_CUBIC ? 3 : 0;
    for (int j = 0; j < n; j++, k += 2) {
      double x, y;
      cn__svg_mat_apply(m, p->pts[k], p->pts[k + 1], &x, &y);
      if (!any) box[0] = box[2] = x, box[1] = box[3] = y, any = true;
      if (x < box[0]) box[0] = x; /* plain comparisons: fmin/fmax are calls */
      if (y < box[1]) box[1] = y;
      if (x > box[2]) box[2] = x;
      if (y > box[3]) box[3] = y;
    }
  }
  return any;
}

static void extend(double box[4], double x, double y) {
  if (x < box[0]) box[0] = x;
  if (y < box[1]) box[1] = y;
  if (x > box[2]) box[2] = x;
  if (y > box[3]) box[3] = y;
}

/* Extrema of one coordinate of a cubic p0..p3: adds the curve points at the roots. */
static void cubic_extrema(const double *q, double box[4]) {
  for (int axis = 0; axis < 2; axis++) {
    double p0 = q[axis], p1 = q[2 + axis], p2 = q[4 + axis], p3 = q[6 + axis];
    double a = -p0 + 3 * p1 - 3 * p2 + p3, b = 2 * (p0 - 2 * p1 + p2), c = p1 - p0;
    double ts[2];
    int nt = 0;
    if (fabs(a) < 1e-12) {
      if (fabs(b) > 1e-12) ts[nt++] = -c / b;
    } else {
      double disc = b * b - 4 * a * c;
      if (disc >= 0) {
        double r = sqrt(disc);
        ts[nt++] = (-b + r) / (2 * a);
        ts[nt++] = (-b - r) / (2 * a);
      }
    }
    for (int i = 0; i < nt; i++) {
      double t = ts[i];
      if (!(t > 0 && t < 1)) continue;
      double u = 1 - t;
      double x = u * u * u * q[0] + 3 * u * u * t * q[2] + 3 * u * t * t * q[4] + t * t * t * q[6];
      double y = u * u * u * q[1] + 3 * u * u * t * q[3] + 3 * u * t * t * q[5] + t * t * t * q[7];
      extend(box, x, y);
    }
  }
}

bool cn__svg_path_tight_bounds(const svg_path *p, double box[4]) {
  bool any = false;
  size_t k = 0;
  double cx = 0, cy = 0, sx = 0, sy = 0;
  for (size_t i = 0; i < p->nops; i++) {
    int op = p->ops[i] & 0x7f;
    const double *v = p->pts + k;
    if (op == SVG_OP_CLOSE) {
      cx = sx, cy = sy;
      continue;
    }
    if (op == SVG_OP_MOVE) sx = v[0], sy = v[1];
    int n = op == SVG_OP_MOVE || op == SVG_OP_LINE ? 1 : op == SVG_OP_QUAD ? 2 : 3;
    double ex = v[2 * n - 2], ey = v[2 * n - 1];
    if (!any) box[0] = box[2] = ex, box[1] = box[3] = ey, any = true;
    extend(box, ex, ey);
    if (op == SVG_OP_QUAD) { /* as a cubic */
      double q[8] = {cx, cy, cx + 2.0 / 3 * (v[0] - cx), cy + 2.0 / 3 * (v[1] - cy),
                     ex + 2.0 / 3 * (v[0] - ex), ey + 2.0 / 3 * (v[1] - ey), ex, ey};
      cubic_extrema(q, box);
    } else if (op == SVG_OP_CUBIC) {
      double q[8] = {cx, cy, v[0], v[1], v[2], v[3], ex, ey};
      cubic_extrema(q, box);
    }
    cx = ex, cy = ey;
    k += 2 * (size_t)n;
  }
  return any;
}
