/* svg_color.c: CSS colours as SVG uses them: the 147 named colours,
 * transparent, currentColor, #rgb #rgba #rrggbb #rrggbbaa, rgb()/rgba() with
 * numbers or percentages, hsl()/hsla(). Names are case-insensitive. */
#include "svg_internal.h"

#include <math.h>
#include <string.h>
#include <strings.h>

static const struct {
  const char *name;
  uint32_t rgb;
} named[] = {
    {"aliceblue", 0xf0f8ff}, {"antiquewhite", 0xfaebd7}, {"aqua", 0x00ffff}, {"aquamarine", 0x7fffd4},
    {"azure", 0xf0ffff}, {"beige", 0xf5f5dc}, {"bisque", 0xffe4c4}, {"black", 0x000000},
    {"blanchedalmond", 0xffebcd}, {"blue", 0x0000ff}, {"blueviolet", 0x8a2be2}, {"brown", 0xa52a2a},
    {"burlywood", 0xdeb887}, {"cadetblue", 0x5f9ea0}, {"chartreuse", 0x7fff00}, {"chocolate", 0xd2691e},
    {"coral", 0xff7f50}, {"cornflowerblue", 0x6495ed}, {"cornsilk", 0xfff8dc}, {"crimson", 0xdc143c},
    {"cyan", 0x00ffff}, {"darkblue", 0x00008b}, {"darkcyan", 0x008b8b}, {"darkgoldenrod", 0xb8860b},
    {"darkgray", 0xa9a9a9}, {"darkgreen", 0x006400}, {"darkgrey", 0xa9a9a9}, {"darkkhaki", 0xbdb76b},
    {"darkmagenta", 0x8b008b}, {"darkolivegreen", 0x556b2f}, {"darkorange", 0xff8c00}, {"darkorchid", 0x9932cc},
    {"darkred", 0x8b0000}, {"darksalmon", 0xe9967a}, {"darkseagreen", 0x8fbc8f}, {"darkslateblue", 0x483d8b},
    {"darkslategray", 0x2f4f4f}, {"darkslategrey", 0x2f4f4f}, {"darkturquoise", 0x00ced1},
    {"darkviolet", 0x9400d3}, {"deeppink", 0xff1493}, {"deepskyblue", 0x00bfff}, {"dimgray", 0x696969},
    {"dimgrey", 0x696969}, {"dodgerblue", 0x1e90ff}, {"firebrick", 0xb22222}, {"floralwhite", 0xfffaf0},
    {"forestgreen", 0x228b22}, {"fuchsia", 0xff00ff}, {"gainsboro", 0xdcdcdc}, {"ghostwhite", 0xf8f8ff},
    {"gold", 0xffd700}, {"goldenrod", 0xdaa520}, {"gray", 0x808080}, {"grey", 0x808080}, {"green", 0x008000},
    {"greenyellow", 0xadff2f}, {"honeydew", 0xf0fff0}, {"hotpink", 0xff69b4}, {"indianred", 0xcd5c5c},
    {"indigo", 0x4b0082}, {"ivory", 0xfffff0}, {"khaki", 0xf0e68c}, {"lavender", 0xe6e6fa},
    {"lavenderblush", 0xfff0f5}, {"lawngreen", 0x7cfc00}, {"lemonchiffon", 0xfffacd}, {"lightblue", 0xadd8e6},
    {"lightcoral", 0xf08080}, {"lightcyan", 0xe0ffff}, {"lightgoldenrodyellow", 0xfafad2},
    {"lightgray", 0xd3d3d3}, {"lightgreen", 0x90ee90}, {"lightgrey", 0xd3d3d3}, {"lightpink", 0xffb6c1},
    {"lightsalmon", 0xffa07a}, {"lightseagreen", 0x20b2aa}, {"lightskyblue", 0x87cefa},
    {"lightslategray", 0x778899}, {"lightslategrey", 0x778899}, {"lightsteelblue", 0xb0c4de},
    {"lightyellow", 0xffffe0}, {"lime", 0x00ff00}, {"limegreen", 0x32cd32}, {"linen", 0xfaf0e6},
    {"magenta", 0xff00ff}, {"maroon", 0x800000}, {"mediumaquamarine", 0x66cdaa}, {"mediumblue", 0x0000cd},
    {"mediumorchid", 0xba55d3}, {"mediumpurple", 0x9370db}, {"mediumseagreen", 0x3cb371},
    {"mediumslateblue", 0x7b68ee}, {"mediumspringgreen", 0x00fa9a}, {"mediumturquoise", 0x48d1cc},
    {"mediumvioletred", 0xc71585}, {"midnightblue", 0x191970}, {"mintcream", 0xf5fffa},
    {"mistyrose", 0xffe4e1}, {"moccasin", 0xffe4b5}, {"navajowhite", 0xffdead}, {"navy", 0x000080},
    {"oldlace", 0xfdf5e6}, {"olive", 0x808000}, {"olivedrab", 0x6b8e23}, {"orange", 0xffa500},
    {"orangered", 0xff4500}, {"orchid", 0xda70d6}, {"palegoldenrod", 0xeee8aa}, {"palegreen", 0x98fb98},
    {"paleturquoise", 0xafeeee}, {"palevioletred", 0xdb7093}, {"papayawhip", 0xffefd5},
    {"peachpuff", 0xffdab9}, {"peru", 0xcd853f}, {"pink", 0xffc0cb}, {"plum", 0xdda0dd},
    {"powderblue", 0xb0e0e6}, {"purple", 0x800080}, {"rebeccapurple", 0x663399}, {"red", 0xff0000},
    {"rosybrown", 0xbc8f8f}, {"royalblue", 0x4169e1}, {"saddlebrown", 0x8b4513}, {"salmon", 0xfa8072},
    {"sandybrown", 0xf4a460}, {"seagreen", 0x2e8b57}, {"seashell", 0xfff5ee}, {"sienna", 0xa0522d},
    {"silver", 0xc0c0c0}, {"skyblue", 0x87ceeb}, {"slateblue", 0x6a5acd}, {"slategray", 0x708090},
    {"slategrey", 0x708090}, {"snow", 0xfffafa}, {"springgreen", 0x00ff7f}, {"steelblue", 0x4682b4},
    {"tan", 0xd2b48c}, {"teal", 0x008080}, {"thistle", 0xd8bfd8}, {"tomato", 0xff6347},
    {"turquoise", 0x40e0d0}, {"violet", 0xee82ee}, {"wheat", 0xf5deb3}, {"white", 0xffffff},
    {"whitesmoke", 0xf5f5f5}, {"yellow", 0xffff00}, {"yellowgreen", 0x9acd32},
};

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static float clamp01(double v) { return v < 0 ? 0.0f : v > 1 ? 1.0f : (float)v; }

static double hue_to_rgb(double p, double q, double t) {
  if (t < 0) t += 1;
  if (t > 1) t -= 1;
  if (t < 1.0 / 6) return p + (q - p) * 6 * t;
  if (t < 0.5) return q;
  if (t < 2.0 / 3) return p + (q - p) * (2.0 / 3 - t) * 6;
  return p;
}

/* Parses "(a, b, c[, d])" into up to 4 numbers with a % flag each. */
static int func_args(const char **s, const char *end, double v[4], bool pct[4]) {
  const char *p = *s;
  cn__svg_skip_ws(&p);
  if (p >= end || *p != '(') return -1;
  p++;
  int n = 0;
  for (;;) {
    cn__svg_skip_ws(&p);
    if (p < end && *p == ')') {
      p++;
      break;
    }
    if (n == 4) return -1;
    if (cn__svg_parse_number(&p, &v[n]) != 1 || p > end) return -1;
    pct[n] = p < end && *p == '%';
    if (pct[n]) p++;
    else if (p + 3 <= end && strncmp(p, "deg", 3) == 0) p += 3;
    n++;
    cn__svg_skip_ws(&p);
    if (p < end && (*p == ',' || *p == '/')) p++;
  }
  *s = p;
  return n;
}

bool cn__svg_parse_color(const char *s, size_t n, svg_color *out, bool *current) {
  if (current) *current = false;
  while (n && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')) s++, n--;
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r')) n--;
  if (n == 0) return false;
  const char *end = s + n;
  if (s[0] == '#') {
    int h[8];
    size_t k = n - 1;
    if (k != 3 && k != 4 && k != 6 && k != 8) return false;
    for (size_t i = 0; i < k; i++)
      if ((h[i] = hexval(s[1 + i])) < 0) return false;
    if (k <= 4) {
      out->r = h[0] * 17 / 255.0f, out->g = h[1] * 17 / 255.0f, out->b = h[2] * 17 / 255.0f;
      out->a = k == 4 ? h[3] * 17 / 255.0f : 1.0f;
    } else {
      out->r = (h[0] * 16 + h[1]) / 255.0f, out->g = (h[2] * 16 + h[3]) / 255.0f, out->b = (h[4] * 16 + h[5]) / 255.0f;
      out->a = k == 8 ? (h[6] * 16 + h[7]) / 255.0f : 1.0f;
    }
    return true;
  }
  if ((n >= 4 && strncasecmp(s, "rgb(", 4) == 0) || (n >= 5 && strncasecmp(s, "rgba(", 5) == 0)) {
    const char *p = s + (s[3] == '(' ? 3 : 4);
    double v[4];
    bool pct[4];
    int k = func_args(&p, end, v, pct);
    if ((k != 3 && k != 4) || p != end) return false;
    float c[3];
    for (int i = 0; i < 3; i++) c[i] = clamp01(pct[i] ? v[i] / 100.0 : v[i] / 255.0);
    out->r = c[0], out->g = c[1], out->b = c[2];
    out->a = k == 4 ? clamp01(pct[3] ? v[3] / 100.0 : v[3]) : 1.0f;
    return true;
  }
  if ((n >= 4 && strncasecmp(s, "hsl(", 4) == 0) || (n >= 5 && strncasecmp(s, "hsla(", 5) == 0)) {
    const char *p = s + (s[3] == '(' ? 3 : 4);
    double v[4];
    bool pct[4];
    int k = func_args(&p, end, v, pct);
    if ((k != 3 && k != 4) || p != end) return false;
    double h = fmod(v[0], 360.0);
    if (h < 0) h += 360;
    h /= 360.0;
    double sat = clamp01(v[1] / 100.0), l = clamp01(v[2] / 100.0);
    double q = l < 0.5 ? l * (1 + sat) : l + sat - l * sat, pp = 2 * l - q;
    out->r = clamp01(hue_to_rgb(pp, q, h + 1.0 / 3));
    out->g = clamp01(hue_to_rgb(pp, q, h));
    out->b = clamp01(hue_to_rgb(pp, q, h - 1.0 / 3));
    out->a = k == 4 ? clamp01(pct[3] ? v[3] / 100.0 : v[3]) : 1.0f;
    return true;
  }
  if (n == 12 && strncasecmp(s, "currentColor", 12) == 0) {
    if (current) *current = true;
    *out = (svg_color){0, 0, 0, 1};
    return true;
  }
  if (n == 11 && strncasecmp(s, "transparent", 11) == 0) {
    *out = (svg_color){0, 0, 0, 0};
    return true;
  }
  for (size_t i = 0; i < CN_ARRAY_LEN(named); i++)
    if (strlen(named[i].name) == n && strncasecmp(s, named[i].name, n) == 0) {
      uint32_t c = named[i].rgb;
      *out = (svg_color){(c >> 16) / 255.0f, ((c >> 8) & 255) / 255.0f, (c & 255) / 255.0f, 1.0f};
      return true;
    }
  return false;
}

bool cn_svg_parse_color(const char *text, float rgba[4]) {
  svg_color c;
  bool current = false;
  if (!text || !cn__svg_parse_color(text, strlen(text), &c, &current) || current) return false;
  rgba[0] = c.r, rgba[1] = c.g, rgba[2] = c.b, rgba[3] = c.a;
  return true;
}
