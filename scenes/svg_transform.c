/* svg_transform.c: 2D affine matrices and the SVG transform attribute
 * (matrix, translate, scale, rotate with centre, skewX, skewY, lists). */
#include "svg_internal.h"

#include <math.h>
#include <string.h>

svg_mat cn__svg_mat_identity(void) { return (svg_mat){1, 0, 0, 1, 0, 0}; }

svg_mat cn__svg_mat_mul(svg_mat m, svg_mat n) {
  return (svg_mat){m.a * n.a + m.c * n.b,       m.b * n.a + m.d * n.b,       m.a * n.c + m.c * n.d,
                   m.b * n.c + m.d * n.d,       m.a * n.e + m.c * n.f + m.e, m.b * n.e + m.d * n.f + m.f};
}

svg_mat cn__svg_mat_translate(double x, double y) { return (svg_mat){1, 0, 0, 1, x, y}; }
svg_mat cn__svg_mat_scale(double x, double y) { return (svg_mat){x, 0, 0, y, 0, 0}; }

svg_mat cn__svg_mat_rotate(double degrees) {
  double r = degrees * (SVG_PI / 180.0);
  double c = cos(r), s = sin(r);
  /* exact for multiples of 90 degrees */
  if (fmod(degrees, 90.0) == 0) {
    c = round(c);
    s = round(s);
  }
  return (svg_mat){c, s, -s, c, 0, 0};
}

bool cn__svg_mat_invert(svg_mat m, svg_mat *out) {
  double det = m.a * m.d - m.b * m.c;
  if (det == 0 || !isfinite(det)) return false;
  double id = 1.0 / det;
  *out = (svg_mat){m.d * id, -m.b * id, -m.c * id, m.a * id, (m.c * m.f - m.d * m.e) * id, (m.b * m.e - m.a * m.f) * id};
  return cn__svg_mat_finite(*out);
}

void cn__svg_mat_apply(svg_mat m, double x, double y, double *ox, double *oy) {
  *ox = m.a * x + m.c * y + m.e;
  *oy = m.b * x + m.d * y + m.f;
}

bool cn__svg_mat_finite(svg_mat m) {
  return isfinite(m.a) && isfinite(m.b) && isfinite(m.c) && isfinite(m.d) && isfinite(m.e) && isfinite(m.f);
}

/* Reads up to max numbers inside "( ... )"; returns the count or -1. */
static int read_args(const char **s, double *v, int max) {
  cn__svg_skip_ws(s);
  if (**s != '(') return -1;
  (*s)++;
  cn__svg_skip_ws(s);
  int n = 0;
  while (**s != ')') {
    if (n == max) return -1;
    if (cn__svg_parse_number(s, &v[n]) != 1) return -1;
    /* CSS transforms carry units: px (ignored), deg, rad, grad, turn */
    if (strncmp(*s, "rad", 3) == 0) v[n] *= 180.0 / SVG_PI, *s += 3;
    else if (strncmp(*s, "grad", 4) == 0) v[n] *= 0.9, *s += 4;
    else if (strncmp(*s, "turn", 4) == 0) v[n] *= 360.0, *s += 4;
    else if (strncmp(*s, "deg", 3) == 0) *s += 3;
    else if (strncmp(*s, "px", 2) == 0) *s += 2;
    n++;
    cn__svg_skip_comma_ws(s);
  }
  (*s)++;
  return n;
}

bool cn__svg_parse_transform(const char *s, svg_mat *out) {
  *out = cn__svg_mat_identity();
  if (!s) return true;
  svg_mat m = cn__svg_mat_identity();
  cn__svg_skip_ws(&s);
  while (*s) {
    static const char *const names[] = {"matrix", "translate", "scale", "rotate", "skewX", "skewY"};
    int which = -1;
    for (int i = 0; i < 6; i++) {
      size_t n = strlen(names[i]);
      if (strncmp(s, names[i], n) == 0) {
        which = i;
        s += n;
        break;
      }
    }
    double v[6];
    int n = which < 0 ? -1 : read_args(&s, v, 6);
    svg_mat t;
    switch (which) {
      case 0:
        if (n != 6) return false;
        t = (svg_mat){v[0], v[1], v[2], v[3], v[4], v[5]};
        break;
      case 1:
        if (n != 1 && n != 2) return false;
        t = cn__svg_mat_translate(v[0], n == 2 ? v[1] : 0);
        break;
      case 2:
        if (n != 1 && n != 2) return false;
        t = cn__svg_mat_scale(v[0], n == 2 ? v[1] : v[0]);
        break;
      case 3:
        if (n != 1 && n != 3) return false;
        t = cn__svg_mat_rotate(v[0]);
        if (n == 3)
          t = cn__svg_mat_mul(cn__svg_mat_translate(v[1], v[2]), cn__svg_mat_mul(t, cn__svg_mat_translate(-v[1], -v[2])));
        break;
      case 4:
        if (n != 1) return false;
        t = (svg_mat){1, 0, tan(v[0] * SVG_PI / 180.0), 1, 0, 0};
        break;
      case 5:
        if (n != 1) return false;
        t = (svg_mat){1, tan(v[0] * SVG_PI / 180.0), 0, 1, 0, 0};
        break;
      default: return false;
    }
    m = cn__svg_mat_mul(m, t);
    cn__svg_skip_comma_ws(&s);
  }
  if (!cn__svg_mat_finite(m)) return false;
  *out = m;
  return true;
}
