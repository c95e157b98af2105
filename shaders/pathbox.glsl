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

// The key boxes the segment step folds into: pc.keys unless the kernel
// names them otherwise (bbox_small_segs: past its scratch).
#ifndef PB_KEYS
#define PB_KEYS pc.keys
#endif

#if defined(CN_USE_PATHBOX_PUSH) || defined(CN_PATHBOX_SEGMENT_STEP)
// The kernels' shared steps (pathbox_segments, pathbox_elements, pathbox_small,
// bbox_small_segs: the same code, so the single-workgroup kernels give the
// same bits). Needs scene_box.glsl.

vec2 pb_xform(cn_transform m, float x, float y) { return vec2(m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f); }

// Segment j's key box (its control points through its path's transform, then
// endpoints and interior extrema) and its path; false when it is skipped
// (a NaN, or a path or transform that does not exist). j < segment count.
bool segment_key(uint j, out uint path, out ivec4 key) {
  key = ivec4(KEY_POS_INF, KEY_POS_INF, KEY_NEG_INF, KEY_NEG_INF);
  cn_segment s = pc.segments.v[j];
  path = s.info >> CN_SEG_PATH_SHIFT;
  bool ok = path < pc.path_count;
  uint tr = ok ? pc.paths.v[path].transform : 0u;
  ok = ok && tr < pc.transform_count;
  if (!ok) return false;
  cn_transform m = pc.transforms.v[tr];
  uint kind = s.info & 3u;
  uint np = kind == CN_SEG_LINE ? 2u : kind == CN_SEG_QUAD ? 3u : 4u;
  vec2 p0 = pb_xform(m, s.x0, s.y0), p1 = pb_xform(m, s.x1, s.y1);
  vec2 p2 = np > 2u ? pb_xform(m, s.x2, s.y2) : p1;
  vec2 p3 = np > 3u ? pb_xform(m, s.x3, s.y3) : p2;
  vec2 pe = np == 2u ? p1 : np == 3u ? p2 : p3;
  vec2 lo = min(p0, pe), hi = max(p0, pe);
  if (np > 2u) {
    curve_extrema(np, p0.x, p1.x, p2.x, p3.x, lo.x, hi.x);
    curve_extrema(np, p0.y, p1.y, p2.y, p3.y, lo.y, hi.y);
  }
  vec4 b = vec4(lo, hi);
  ok = !(coord_is_nan(b.x) || coord_is_nan(b.y) || coord_is_nan(b.z) || coord_is_nan(b.w)) &&
       !(coord_is_nan(p1.x) || coord_is_nan(p1.y) || coord_is_nan(p2.x) || coord_is_nan(p2.y) ||
         coord_is_nan(p3.x) || coord_is_nan(p3.y));
  if (ok) key = ivec4(f32_key(b.x), f32_key(b.y), f32_key(b.z), f32_key(b.w));
  return ok;
}

#endif

#if defined(CN_USE_PATHBOX_PUSH) || defined(CN_PATHBOX_ELEMENT_STEP)
// The element step (pathbox_elements, pathbox_small, pathbox_fused, and
// bbox_small with FROM_PATHS and bbox_small_segs, whose push blocks have the
// same field names: paths, transforms, strokes and their counts).

// Whether element e takes its box from its path's key box.
bool element_has_path_box(cn_element e) {
  bool drawn = e.tag == CN_TAG_FILL || e.tag == CN_TAG_STROKE || e.tag == CN_TAG_BEGIN_CLIP;
  return drawn && e.path < pc.path_count;
}

// The box of element e from its path's key box k (element_has_path_box(e)):
// FILL and BEGIN_CLIP take the path box; STROKE grows it by half the width
// times the transform's largest singular value times max(1, miter_limit for
// miter joins, sqrt(2) for square caps) on every side. Canonical. In two
// steps: element_pad needs only the element (its loads may run before the
// key is known), element_box_padded the key and the pad.

// The growth of a STROKE's box on every side (0 for FILL and BEGIN_CLIP), or
// -1 for a stroke whose style or transform does not exist (its box is
// empty; a NaN width gives a NaN pad, which box_clean handles).
float element_pad(cn_element e) {
  if (e.tag != CN_TAG_STROKE) return 0.0;
  uint tr = pc.paths.v[e.path].transform;
  if (e.aux >= pc.stroke_count || tr >= pc.transform_count) return -1.0;
  cn_stroke s = pc.strokes.v[e.aux];
  cn_transform m = pc.transforms.v[tr];
  float sum = m.a * m.a + m.b * m.b + m.c * m.c + m.d * m.d;
  float det = m.a * m.d - m.b * m.c;
  float sigma = sqrt(0.5 * (sum + sqrt(max(sum * sum - 4.0 * det * det, 0.0))));
  float f = 1.0;
  if (s.join == CN_JOIN_MITER || s.join == CN_JOIN_MITER_CLIP) f = max(f, s.miter_limit);
  if (s.cap == CN_CAP_SQUARE) f = max(f, 1.41421356);
  return 0.5 * abs(s.width) * sigma * f;
}

vec4 element_box_padded(bool stroke, float pad, ivec4 k) {
  vec4 box = vec4(key_f32(k.x), key_f32(k.y), key_f32(k.z), key_f32(k.w));
  if (stroke) box = pad < 0.0 ? BOX_EMPTY : box + vec4(-pad, -pad, pad, pad); // a NaN pad passes on
  return box_canon(box_clean(box));
}

vec4 element_box(cn_element e, ivec4 k) { return element_box_padded(e.tag == CN_TAG_STROKE, element_pad(e), k); }

#endif

#if (defined(CN_USE_PATHBOX_PUSH) && defined(CN_PATHBOX_SEGMENT_PASS)) || defined(CN_PATHBOX_SEGMENT_STEP)
shared uint sh_seg_path;
shared ivec4 sh_seg_key;

// Folds segment j (past the end: nothing) into keys[path]; every invocation of
// the workgroup calls it (barriers), at the top of the kernel. pathbox_segments,
// pathbox_fused, bbox_small_segs. Paths are runs of consecutive segments, so neighbouring lanes
// mostly share a path:
// - each subgroup folds every run of equal paths into its last lane (a
//   segmented scan by shuffles, right after a barrier, selects instead of
//   branches; min/max take any lane twice harmlessly, so runs of a path
//   interrupted by another give a right result too);
// - a run's last lane folds it into the workgroup's box when the run is of the
//   workgroup's first segment's path (shared atomics; one set of global atomics
//   per workgroup after the second barrier), else into keys[path] (global).
// So a subgroup issues one set of atomics per path it holds, not one per segment.
void fold_segment(uint j) {
  uint path = 0xFFFFFFFFu;
  ivec4 key = ivec4(KEY_POS_INF, KEY_POS_INF, KEY_NEG_INF, KEY_NEG_INF);
  bool ok = j < pc.count && segment_key(j, path, key); // not ok: key stays the empty box
  path = ok ? path : 0xFFFFFFFFu;
  if (gl_LocalInvocationID.x == 0u) {
    sh_seg_path = path;
    sh_seg_key = ivec4(KEY_POS_INF, KEY_POS_INF, KEY_NEG_INF, KEY_NEG_INF);
  }
  barrier();
  uint lane = gl_SubgroupInvocationID;
  for (uint d = 1u; d < gl_SubgroupSize; d <<= 1) {
    uint from = lane >= d ? lane - d : lane; // plain shuffles (no shuffle_relative needed)
    uint up = subgroupShuffle(path, from);
    ivec4 k = ivec4(subgroupShuffle(key.x, from), subgroupShuffle(key.y, from), subgroupShuffle(key.z, from),
                    subgroupShuffle(key.w, from));
    bool take = lane >= d && up == path;
    key = mix(key, ivec4(min(key.xy, k.xy), max(key.zw, k.zw)), bvec4(take));
  }
  uint down = subgroupShuffle(path, min(lane + 1u, gl_SubgroupSize - 1u));
  bool last = ok && (lane + 1u == gl_SubgroupSize || down != path);
  if (last && path == sh_seg_path) {
    atomicMin(sh_seg_key.x, key.x);
    atomicMin(sh_seg_key.y, key.y);
    atomicMax(sh_seg_key.z, key.z);
    atomicMax(sh_seg_key.w, key.w);
  } else if (last) {
    atomicMin(PB_KEYS.v[path].x, key.x);
    atomicMin(PB_KEYS.v[path].y, key.y);
    atomicMax(PB_KEYS.v[path].z, key.z);
    atomicMax(PB_KEYS.v[path].w, key.w);
  }
  barrier();
  if (gl_LocalInvocationID.x == 0u && sh_seg_path < pc.path_count) {
    ivec4 k = sh_seg_key;
    atomicMin(PB_KEYS.v[sh_seg_path].x, k.x);
    atomicMin(PB_KEYS.v[sh_seg_path].y, k.y);
    atomicMax(PB_KEYS.v[sh_seg_path].z, k.z);
    atomicMax(PB_KEYS.v[sh_seg_path].w, k.w);
  }
}
#endif

#endif
