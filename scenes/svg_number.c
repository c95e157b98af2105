/* svg_number.c: SVG numbers, lengths, viewBox and preserveAspectRatio.
 *
 * Numbers follow the SVG grammar (sign, digits, fraction, exponent); "nan",
 * "inf" and hexadecimal are not numbers. The conversion is locale-free. A
 * number beyond float range (1e39) is an overflow, reported as -1 so callers
 * can treat it as invalid rather than as infinity. */
#include "svg_internal.h"

#include <math.h>
#include <string.h>

static bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }

void cn__svg_skip_ws(const char **s) {
  while (is_ws(**s)) (*s)++;
}

void cn__svg_skip_comma_ws(const char **s) {
  cn__svg_skip_ws(s);
  if (**s == ',') {
    (*s)++;
    cn__svg_skip_ws(s);
  }
}

int cn__svg_parse_number(const char **s, double *out) {
  const char *p = *s;
  bool neg = false;
  if (*p == '+' || *p == '-') neg = *p++ == '-';
  uint64_t mant = 0;
  int digits = 0, exp10 = 0;
  bool any = false;
  while (is_digit(*p)) {
    any = true;
    if (mant < 100000000000000000ull) {
      mant = mant * 10 + (uint64_t)(*p - '0');
      if (mant) digits++;
    } else {
      exp10++;
    }
    p++;
  }
  if (*p == '.' && is_digit(p[1])) {
    p++;
    while (is_digit(*p)) {
      any = true;
      if (mant < 100000000000000000ull) {
        mant = mant * 10 + (uint64_t)(*p - '0');
        exp10--;
      }
      p++;
    }
  } else if (*p == '.' && any) {
    p++; /* "5." is a number */
  }
  if (!any) return 0;
  if ((*p == 'e' || *p == 'E') && (is_digit(p[1]) || ((p[1] == '+' || p[1] == '-') && is_digit(p[2])))) {
    p++;
    bool eneg = false;
    if (*p == '+' || *p == '-') eneg = *p++ == '-';
    int e = 0;
    while (is_digit(*p)) {
      if (e < 100000) e = e * 10 + (*p - '0');
      p++;
    }
    exp10 += eneg ? -e : e;
  }
  *s = p;
  static const double p10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  double v = (double)mant;
  if (mant != 0) {
    if (exp10 > 400) v = INFINITY;
    else if (exp10 < -400) v = 0;
    else if (exp10 >= 0 && exp10 <= 22) v *= p10[exp10]; /* exact powers: the common case */
    else if (exp10 < 0 && exp10 >= -22) v /= p10[-exp10];
    else v *= pow(10.0, exp10);
  }
  if (neg) v = -v;
  if (!(fabs(v) <= 3.4e38)) return -1;
  *out = v;
  return 1;
}

bool cn__svg_parse_number_attr(const char *s, double *out) {
  if (!s) return false;
  cn__svg_skip_ws(&s);
  if (cn__svg_parse_number(&s, out) != 1) return false;
  cn__svg_skip_ws(&s);
  return *s == 0;
}

static const struct {
  const char *name;
  int unit;
} units[] = {{"px", SVG_UNIT_PX}, {"pt", SVG_UNIT_PT}, {"pc", SVG_UNIT_PC}, {"mm", SVG_UNIT_MM},
             {"cm", SVG_UNIT_CM}, {"in", SVG_UNIT_IN}, {"em", SVG_UNIT_EM}, {"ex", SVG_UNIT_EX}};

bool cn__svg_parse_length_at(const char **s, svg_length *out) {
  const char *p = *s;
  double v;
  if (cn__svg_parse_number(&p, &v) != 1) return false;
  int unit = SVG_UNIT_NONE;
  if (*p == '%') {
    unit = SVG_UNIT_PERCENT;
    p++;
  } else {
    for (size_t i = 0; i < CN_ARRAY_LEN(units); i++)
      if (p[0] == units[i].name[0] && p[1] == units[i].name[1]) {
        unit = units[i].unit;
        p += 2;
        break;
      }
  }
  *s = p;
  *out = (svg_length){v, unit};
  return true;
}

bool cn__svg_parse_length(const char *s, svg_length *out) {
  if (!s) return false;
  cn__svg_skip_ws(&s);
  svg_length l;
  if (!cn__svg_parse_length_at(&s, &l)) return false;
  cn__svg_skip_ws(&s);
  if (*s) return false;
  *out = l;
  return true;
}

double cn__svg_length_user(svg_length l, int axis, double vw, double vh, double font_size) {
  switch (l.unit) {
    case SVG_UNIT_PT: return l.v * 4.0 / 3.0;
    case SVG_UNIT_PC: return l.v * 16.0;
    case SVG_UNIT_MM: return l.v * 96.0 / 25.4;
    case SVG_UNIT_CM: return l.v * 96.0 / 2.54;
    case SVG_UNIT_IN: return l.v * 96.0;
    case SVG_UNIT_EM: return l.v * font_size;
    case SVG_UNIT_EX: return l.v * font_size / 2.0;
    case SVG_UNIT_PERCENT:
      if (axis == SVG_AXIS_X) return l.v / 100.0 * vw;
      if (axis == SVG_AXIS_Y) return l.v / 100.0 * vh;
      return l.v / 100.0 * sqrt((vw * vw + vh * vh) / 2.0);
    default: return l.v;
  }
}

bool cn__svg_parse_viewbox(const char *s, svg_viewbox *out) {
  if (!s) return false;
  double v[4];
  cn__svg_skip_ws(&s);
  for (int i = 0; i < 4; i++) {
    if (cn__svg_parse_number(&s, &v[i]) != 1) return false;
    cn__svg_skip_comma_ws(&s);
  }
  if (*s || !(v[2] > 0) || !(v[3] > 0)) return false;
  *out = (svg_viewbox){v[0], v[1], v[2], v[3]};
  return true;
}

void cn__svg_parse_aspect(const char *s, svg_aspect *out) {
  *out = (svg_aspect){1, 1, false};
  if (!s) return;
  cn__svg_skip_ws(&s);
  if (strncmp(s, "defer", 5) == 0) {
    s += 5;
    cn__svg_skip_ws(&s);
  }
  static const char *const names[] = {"xMinYMin", "xMidYMin", "xMaxYMin", "xMinYMid", "xMidYMid",
                                      "xMaxYMid", "xMinYMax", "xMidYMax", "xMaxYMax"};
  if (strncmp(s, "none", 4) == 0) {
    out->align_x = out->align_y = -1;
    s += 4;
  } else {
    bool found = false;
    for (int i = 0; i < 9; i++)
      if (strncmp(s, names[i], 8) == 0) {
        out->align_x = i % 3, out->align_y = i / 3;
        s += 8;
        found = true;
        break;
      }
    if (!found) return;
  }
  cn__svg_skip_ws(&s);
  if (strncmp(s, "slice", 5) == 0) out->slice = true;
}

svg_mat cn__svg_viewbox_matrix(svg_viewbox vb, svg_aspect ar, double w, double h) {
  double sx = w / vb.w, sy = h / vb.h;
  if (ar.align_x < 0) return cn__svg_mat_mul(cn__svg_mat_scale(sx, sy), cn__svg_mat_translate(-vb.x, -vb.y));
  double s = ar.slice ? fmax(sx, sy) : fmin(sx, sy);
  double tx = -vb.x * s, ty = -vb.y * s;
  double fx = w - vb.w * s, fy = h - vb.h * s;
  tx += fx * ar.align_x / 2.0;
  ty += fy * ar.align_y / 2.0;
  return (svg_mat){s, 0, 0, s, tx, ty};
}
