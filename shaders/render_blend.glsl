// render_blend.glsl: the 16 blend modes of W3C Compositing and Blending Level 1
// and source-over compositing, on premultiplied sRGB colours.
#ifndef CN_RENDER_BLEND_GLSL
#define CN_RENDER_BLEND_GLSL

float cn_lum(vec3 c) { return dot(c, vec3(0.3, 0.59, 0.11)); }

vec3 cn_clip_color(vec3 c) {
  float l = cn_lum(c);
  float n = min(c.r, min(c.g, c.b));
  float x = max(c.r, max(c.g, c.b));
  if (n < 0.0) c = l + (c - l) * l / max(l - n, 1e-12);
  if (x > 1.0) c = l + (c - l) * (1.0 - l) / max(x - l, 1e-12);
  return c;
}

vec3 cn_set_lum(vec3 c, float l) { return cn_clip_color(c + (l - cn_lum(c))); }

float cn_sat(vec3 c) { return max(c.r, max(c.g, c.b)) - min(c.r, min(c.g, c.b)); }

vec3 cn_set_sat(vec3 c, float s) {
  float mx = max(c.r, max(c.g, c.b)), mn = min(c.r, min(c.g, c.b));
  if (mx <= mn) return vec3(0.0);
  return (c - mn) * s / (mx - mn);
}

float cn_color_dodge(float b, float s) {
  if (b == 0.0) return 0.0;
  if (s >= 1.0) return 1.0;
  return min(1.0, b / (1.0 - s));
}

float cn_color_burn(float b, float s) {
  if (b >= 1.0) return 1.0;
  if (s <= 0.0) return 0.0;
  return 1.0 - min(1.0, (1.0 - b) / s);
}

float cn_soft_light(float b, float s) {
  if (s <= 0.5) return b - (1.0 - 2.0 * s) * b * (1.0 - b);
  float d = b <= 0.25 ? ((16.0 * b - 12.0) * b + 4.0) * b : sqrt(b);
  return b + (2.0 * s - 1.0) * (d - b);
}

float cn_hard_light(float b, float s) {
  return s <= 0.5 ? b * 2.0 * s : 1.0 - (1.0 - b) * (1.0 - (2.0 * s - 1.0));
}

// B(cb, cs) of the mode, on straight colours.
vec3 cn_blend_fn(uint mode, vec3 b, vec3 s) {
  switch (mode) {
    case CN_BLEND_MULTIPLY: return b * s;
    case CN_BLEND_SCREEN: return b + s - b * s;
    case CN_BLEND_OVERLAY: return vec3(cn_hard_light(s.r, b.r), cn_hard_light(s.g, b.g), cn_hard_light(s.b, b.b));
    case CN_BLEND_DARKEN: return min(b, s);
    case CN_BLEND_LIGHTEN: return max(b, s);
    case CN_BLEND_COLOR_DODGE:
      return vec3(cn_color_dodge(b.r, s.r), cn_color_dodge(b.g, s.g), cn_color_dodge(b.b, s.b));
    case CN_BLEND_COLOR_BURN:
      return vec3(cn_color_burn(b.r, s.r), cn_color_burn(b.g, s.g), cn_color_burn(b.b, s.b));
    case CN_BLEND_HARD_LIGHT: return vec3(cn_hard_light(b.r, s.r), cn_hard_light(b.g, s.g), cn_hard_light(b.b, s.b));
    case CN_BLEND_SOFT_LIGHT: return vec3(cn_soft_light(b.r, s.r), cn_soft_light(b.g, s.g), cn_soft_light(b.b, s.b));
    case CN_BLEND_DIFFERENCE: return abs(b - s);
    case CN_BLEND_EXCLUSION: return b + s - 2.0 * b * s;
    case CN_BLEND_HUE: return cn_set_lum(cn_set_sat(s, cn_sat(b)), cn_lum(b));
    case CN_BLEND_SATURATION: return cn_set_lum(cn_set_sat(b, cn_sat(s)), cn_lum(b));
    case CN_BLEND_COLOR: return cn_set_lum(s, cn_lum(b));
    case CN_BLEND_LUMINOSITY: return cn_set_lum(b, cn_lum(s));
    default: return s; // normal
  }
}

// Composites premultiplied source src over premultiplied backdrop dst with mode:
// co = cs (1 - ab) + cb (1 - as) + as ab B(Cb, Cs), ao = as + ab - as ab.
// Where either alpha is 0 the term of B is 0 and the rest is source-over, to
// the bit (a premultiplied colour of alpha 0 is 0, and B is finite): those
// pixels skip the mode's arithmetic. A group inside an isolated group mostly
// has a transparent backdrop (the 100 000-path scene of `canopy bench render`:
// fine 1.49 -> 1.33 ms, docs/PERF.md).
vec4 cn_blend_over(uint mode, vec4 dst, vec4 src) {
  if (mode == CN_BLEND_NORMAL || mode >= CN_BLEND_MODE_COUNT || dst.a == 0.0 || src.a == 0.0)
    return src + dst * (1.0 - src.a);
  vec3 cb = dst.a > 0.0 ? clamp(dst.rgb / dst.a, 0.0, 1.0) : vec3(0.0);
  vec3 cs = src.a > 0.0 ? clamp(src.rgb / src.a, 0.0, 1.0) : vec3(0.0);
  vec3 mixed = cn_blend_fn(mode, cb, cs);
  vec3 rgb = src.rgb * (1.0 - dst.a) + dst.rgb * (1.0 - src.a) + src.a * dst.a * mixed;
  return vec4(rgb, src.a + dst.a - src.a * dst.a);
}

#endif
