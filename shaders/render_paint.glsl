// render_paint.glsl: gradient and image paints, evaluated per pixel (premultiplied result).
// Linear and radial gradients as SVG 2 defines them: the radial one is the
// two-point conical gradient from the focal circle (fx, fy, fr) to the end
// circle (cx, cy, r), t the largest parameter whose circle passes through the
// point with a radius >= 0; points no circle reaches stay transparent. Stops are
// interpolated on straight colours, then premultiplied (as SVG and resvg do).
#ifndef CN_RENDER_PAINT_GLSL
#define CN_RENDER_PAINT_GLSL

// Device pixel -> gradient space: the inverse of the paint's transform.
// Returns false when the transform is singular.
bool cn_paint_to_local(CnRenderConfig cfg, uint ti, vec2 p, out vec2 q) {
  q = vec2(0.0);
  if (ti >= cfg.transform_count) return false;
  TransformBuf tr = cfg.transforms;
  float a = tr.v[ti * 6 + 0], b = tr.v[ti * 6 + 1], c = tr.v[ti * 6 + 2];
  float d = tr.v[ti * 6 + 3], e = tr.v[ti * 6 + 4], f = tr.v[ti * 6 + 5];
  float det = a * d - b * c;
  if (abs(det) < 1e-12 || isnan(det)) return false;
  // undo the view transform first
  p = vec2(cfg.view_inv[0] * p.x + cfg.view_inv[2] * p.y + cfg.view_inv[4],
           cfg.view_inv[1] * p.x + cfg.view_inv[3] * p.y + cfg.view_inv[5]);
  vec2 v = p - vec2(e, f);
  q = vec2(d * v.x - c * v.y, -b * v.x + a * v.y) / det;
  return true;
}

float cn_spread(uint spread, float t) {
  if (spread == CN_SPREAD_REPEAT) return t - floor(t);
  if (spread == CN_SPREAD_REFLECT) {
    float m = t - 2.0 * floor(t * 0.5);
    return m > 1.0 ? 2.0 - m : m;
  }
  return clamp(t, 0.0, 1.0);
}

// Straight colour of the stops at t in [0, 1].
vec4 cn_stop_color(CnRenderConfig cfg, cn_paint p, float t) {
  StopBuf st = cfg.stops;
  uint first = p.stop_first, n = p.stop_count;
  if (n == 0 || first >= cfg.stop_count || n > cfg.stop_count - first) return vec4(0.0);
  uint k = first * 5;
  vec4 prev = vec4(st.v[k + 1], st.v[k + 2], st.v[k + 3], st.v[k + 4]);
  float prev_off = st.v[k];
  if (t <= prev_off) return prev;
  for (uint i = 1; i < n; i++) {
    uint j = (first + i) * 5;
    float off = st.v[j];
    vec4 col = vec4(st.v[j + 1], st.v[j + 2], st.v[j + 3], st.v[j + 4]);
    if (t < off) {
      float u = off > prev_off ? (t - prev_off) / (off - prev_off) : 1.0;
      return mix(prev, col, u);
    }
    prev = col;
    prev_off = off;
  }
  return prev;
}

// Texel (x, y) of an image (premultiplied), x and y already clamped.
vec4 cn_texel(CnRenderConfig cfg, uint base, uint w, int x, int y) {
  return unpackUnorm4x8(cfg.image_pixels.v[base + uint(y) * w + uint(x)]);
}

// An image paint at image-space point q: nearest or bilinear between texel
// centres, points outside the image taking the nearest edge texel.
vec4 cn_image_sample(CnRenderConfig cfg, cn_paint p, vec2 q) {
  if (p.stop_first >= cfg.image_count) return vec4(0.0);
  cn_image im = cfg.images.v[p.stop_first];
  uint w = im.width, h = im.height;
  if (w == 0 || h == 0 || im.offset > cfg.image_pixel_count || h > (cfg.image_pixel_count - im.offset) / w)
    return vec4(0.0);
  if (any(isnan(q))) return vec4(0.0);
  int wm = int(w) - 1, hm = int(h) - 1;
  // clamp in float first: far points must not overflow the int conversion
  q = clamp(q, vec2(-1.0), vec2(float(w) + 1.0, float(h) + 1.0));
  vec4 c;
  if (p.spread == CN_SAMPLE_NEAREST) {
    c = cn_texel(cfg, im.offset, w, clamp(int(floor(q.x)), 0, wm), clamp(int(floor(q.y)), 0, hm));
  } else {
    vec2 u = q - 0.5;
    vec2 f0 = floor(u);
    vec2 t = u - f0;
    int x0 = clamp(int(f0.x), 0, wm), x1 = clamp(int(f0.x) + 1, 0, wm);
    int y0 = clamp(int(f0.y), 0, hm), y1 = clamp(int(f0.y) + 1, 0, hm);
    vec4 top = mix(cn_texel(cfg, im.offset, w, x0, y0), cn_texel(cfg, im.offset, w, x1, y0), t.x);
    vec4 bot = mix(cn_texel(cfg, im.offset, w, x0, y1), cn_texel(cfg, im.offset, w, x1, y1), t.x);
    c = mix(top, bot, t.y);
  }
  return c * clamp(p.opacity, 0.0, 1.0);
}

// The paint's premultiplied colour at device point pt (a pixel centre).
vec4 cn_gradient(CnRenderConfig cfg, uint pi, vec2 pt) {
  if (pi >= cfg.paint_count) return vec4(0.0);
  cn_paint p = cfg.paints.v[pi];
  vec2 q;
  if (!cn_paint_to_local(cfg, p.transform, pt, q)) return vec4(0.0);
  if (p.kind == CN_PAINT_IMAGE) return cn_image_sample(cfg, p, q);
  float t;
  if (p.kind == CN_PAINT_LINEAR) {
    vec2 p1 = vec2(p.g0, p.g1), d = vec2(p.g2, p.g3) - p1;
    float dd = dot(d, d);
    t = dd > 0.0 ? dot(q - p1, d) / dd : 1.0;
  } else if (p.kind == CN_PAINT_RADIAL) {
    vec2 c = vec2(p.g0, p.g1), f = vec2(p.g3, p.g4);
    float r = p.g2, fr = p.g5;
    vec2 cd = c - f, pd = q - f;
    float dr = r - fr;
    float A = dot(cd, cd) - dr * dr;
    float B = dot(pd, cd) + fr * dr;
    float C = dot(pd, pd) - fr * fr;
    if (dot(cd, cd) + dr * dr <= 1e-12 * max(1.0, r * r)) {
      // focal circle = end circle (SVG leaves it undefined): the first stop
      // inside the circle, the last outside, as resvg draws it
      t = dot(pd, pd) > r * r ? 1.0 : 0.0;
    } else if (abs(A) < 1e-9 * max(1.0, dot(cd, cd) + dr * dr)) {
      if (abs(B) < 1e-12) return vec4(0.0);
      t = C / (2.0 * B);
      if (fr + t * dr < 0.0) return vec4(0.0);
    } else {
      float disc = B * B - A * C;
      if (disc < 0.0) return vec4(0.0);
      float sq = sqrt(disc);
      float t1 = (B + sq) / A, t2 = (B - sq) / A;
      float hi = max(t1, t2), lo = min(t1, t2);
      if (fr + hi * dr >= 0.0) t = hi;
      else if (fr + lo * dr >= 0.0) t = lo;
      else return vec4(0.0);
    }
  } else {
    float a = clamp(p.a, 0.0, 1.0);
    return vec4(clamp(vec3(p.r, p.g, p.b), 0.0, 1.0) * a, a);
  }
  if (isnan(t) || isinf(t)) return vec4(0.0);
  vec4 col = clamp(cn_stop_color(cfg, p, cn_spread(p.spread, t)), 0.0, 1.0);
  col.a *= clamp(p.opacity, 0.0, 1.0);
  return vec4(col.rgb * col.a, col.a);
}

#endif
