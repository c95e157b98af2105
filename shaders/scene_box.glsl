// scene_box.glsl: box arithmetic of the scene stage on the GPU; the same code
// as stages/cn_box.h (read its comment): only comparisons, min and max, so the
// GPU and the CPU reference agree bit for bit. A box is a vec4 (x0, y0, x1, y1).
#ifndef CN_SCENE_BOX_GLSL
#define CN_SCENE_BOX_GLSL

const vec4 BOX_EMPTY = vec4(0.0);

bool box_is_empty(vec4 b) { return !(b.z > b.x && b.w > b.y); }

float coord_clean(float f) { return (floatBitsToUint(f) & 0x7f800000u) == 0u ? 0.0 : f; }
bool coord_is_nan(float f) { return (floatBitsToUint(f) & 0x7fffffffu) > 0x7f800000u; }

vec4 box_clean(vec4 b) {
  if (coord_is_nan(b.x) || coord_is_nan(b.y) || coord_is_nan(b.z) || coord_is_nan(b.w)) return BOX_EMPTY;
  return vec4(coord_clean(b.x), coord_clean(b.y), coord_clean(b.z), coord_clean(b.w));
}

float f32_max(float a, float b) { return a > b ? a : b; }
float f32_min(float a, float b) { return a < b ? a : b; }

vec4 box_intersect(vec4 a, vec4 b) {
  return vec4(f32_max(a.x, b.x), f32_max(a.y, b.y), f32_min(a.z, b.z), f32_min(a.w, b.w));
}

vec4 box_canon(vec4 b) { return box_is_empty(b) ? BOX_EMPTY : b; }

vec4 box_union(vec4 a, vec4 b) {
  if (box_is_empty(a)) return b;
  if (box_is_empty(b)) return a;
  return vec4(f32_min(a.x, b.x), f32_min(a.y, b.y), f32_max(a.z, b.z), f32_max(a.w, b.w));
}

float bin_edge(float v0, uint k, uint bin_size) { return v0 + float(k * bin_size); }

// Bins [lo, hi] of one axis that [a0, a1] overlaps with positive length.
bool bin_range(float a0, float a1, float v0, uint bin_size, uint nb, out uint lo, out uint hi) {
  lo = 0u;
  hi = 0u;
  if (nb == 0u) return false;
  float fb = float(bin_size), top = float(nb - 1u);
  uint l = uint(f32_min(f32_max((a0 - v0) / fb, 0.0), top));
  uint h = uint(f32_min(f32_max((a1 - v0) / fb, 0.0), top));
  while (l > 0u && bin_edge(v0, l, bin_size) > a0) l--;
  while (l < nb - 1u && !(bin_edge(v0, l + 1u, bin_size) > a0)) l++;
  while (h < nb - 1u && bin_edge(v0, h + 1u, bin_size) < a1) h++;
  while (h > 0u && !(bin_edge(v0, h, bin_size) < a1)) h--;
  lo = l;
  hi = h;
  return l <= h && bin_edge(v0, l + 1u, bin_size) > a0 && bin_edge(v0, h, bin_size) < a1;
}

#endif
