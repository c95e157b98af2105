// pathbox.glsl: geometry of the path-box kernels (stages/pathbox.c has the same
// code for the CPU reference). Boxes of paths travel as ordered-int keys so that
// atomicMin/atomicMax on ints give the float min/max, in any order, exactly.
#ifndef CN_PATHBOX_GLSL
#define CN_PATHBOX_GLSL

int f32_key(float f) {
  int b = floatBitsToInt(f);
  return b >= 0 ? b : b ^ 0x7FFFFFFF;
}
float key_f32(int k) { return intBitsToFloat(k >= 0 ? k : k ^ 0x7FFFFFFF); }

const int KEY_POS_INF = 0x7F800000;          // f32_key(+inf)
const int KEY_NEG_INF = int(0x807FFFFFu);    // f32_key(-inf)

// Extends [lo, hi] by the interior extrema of a quadratic (n = 3) or cubic
// (n = 4) Bézier coordinate a0..a3 (endpoints are already in).
void curve_extrema(uint n, float a0, float a1, float a2, float a3, inout float lo, inout float hi) {
  if (n == 3u) {
    float d = a0 - 2.0 * a1 + a2;
    if (d != 0.0) {
      float t = (a0 - a1) / d;
      if (t > 0.0 && t < 1.0) {
        float mt = 1.0 - t;
        float v = mt * mt * a0 + 2.0 * mt * t * a1 + t * t * a2;
        lo = min(lo, v);
        hi = max(hi, v);
      }
    }
    return;
  }
  // B'(t)/3 = A t^2 + B t + C
  float A = -a0 + 3.0 * a1 - 3.0 * a2 + a3;
  float B = 2.0 * (a0 - 2.0 * a1 + a2);
  float C = a1 - a0;
  float ts[2];
  uint nt = 0u;
  if (A == 0.0) {
    if (B != 0.0) ts[nt++] = -C / B;
  } else {
    float disc = B * B - 4.0 * A * C;
    if (disc >= 0.0) {
      float sq = sqrt(disc);
      ts[nt++] = (-B + sq) / (2.0 * A);
      ts[nt++] = (-B - sq) / (2.0 * A);
    }
  }
  for (uint k = 0u; k < nt; k++) {
    float t = ts[k];
    if (t > 0.0 && t < 1.0) {
      float mt = 1.0 - t;
      float v = mt * mt * mt * a0 + 3.0 * mt * mt * t * a1 + 3.0 * mt * t * t * a2 + t * t * t * a3;
      lo = min(lo, v);
      hi = max(hi, v);
    }
  }
}

#endif
