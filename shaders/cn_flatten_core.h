/* cn_flatten_core.h: the flattening and stroking algorithm of the flatten stage,
 * written once in the common subset of C and GLSL. The kernels
 * (shaders/flatten_pairs.comp) compile it as GLSL; the CPU reference
 * (stages/flatten_cpu.c) compiles it as C, so both run the same steps.
 *
 * Unit of work: one "pair" = one segment of the path of one FILL or
 * BEGIN_CLIP element, or one of the FL_STROKE_SPLIT chunks of a segment of a
 * STROKE whose path has CN_PATH_CURVED (a solid stroke's chunk walks a share of the segment's
 * chords, after restoring the walk's state at its first one; the lines of a
 * segment's chunks, in chunk order, are those of the whole walk, bit for
 * bit). fl_pair() emits that pair's lines through fl_out(a, b) (device
 * pixels), in a fixed order, so a count pass and a write pass agree.
 *
 * The includer defines, before including this file:
 *   cn_element fl_elem(CN_U32 i)      cn_path fl_path(CN_U32 i)
 *   cn_segment fl_seg(CN_U32 i)       cn_transform fl_xform(CN_U32 i)
 *   cn_stroke fl_stroke_at(CN_U32 i)  float fl_dash_at(CN_U32 i)
 *   CN_U32 fl_sub_first(CN_U32 seg)   first segment of seg's subpath
 *   CN_U32 fl_sub_last(CN_U32 first)  last segment of the subpath starting at first
 *   float fl_dist_at(CN_U32 pair)     dashed strokes: distance along the subpath
 *                                     to the pair's start (exclusive segmented sum;
 *                                     a segment's length is its first chunk's)
 *   void fl_out(vec2 a, vec2 b)       receives each line
 *   cn_transform fl_view(); float fl_tolerance();
 * and may define FL_STROKE_SPLIT (default CN_FL_STROKE_SPLIT): the pairs per
 * segment of a stroke of a curved path (the CPU reference walks unsplit, 1).
 * Rules for this file: vec2 math only through the fl_* helpers (C has no
 * operators on structs), float literals with an f suffix, no pointers, no out
 * parameters, structs built field by field.
 *
 * Stroke outline (see cn_flatten.h): each flattened piece (a chord of the
 * centre line) emits its left offset forwards and its right offset backwards;
 * at every vertex a join emits the outer geometry (round arc, miter, bevel)
 * on the outer side and two lines through the vertex on the inner side; caps
 * close the ends. Summed as chains, this is a union of positively wound
 * quads, wedges and caps, whose nonzero winding is exactly their union.
 */
#ifndef CN_FLATTEN_CORE_H
#define CN_FLATTEN_CORE_H

#ifdef VULKAN
#define FL_FN
#define FL_GLOBAL
#define fl_v(x, y) vec2(x, y)
#define fl_sqrt(x) sqrt(x)
#define fl_fma(a, b, c) fma(a, b, c)
#define fl_fabs(x) abs(x)
#define fl_floor(x) floor(x)
#define fl_ceil(x) ceil(x)
#define fl_fmin(a, b) min(a, b)
#define fl_fmax(a, b) max(a, b)
#define fl_atan2(y, x) atan(y, x)
#define fl_cos(x) cos(x)
#define fl_sin(x) sin(x)
#define fl_asin(x) asin(x)
#define FL_U(x) uint(x)
#define FL_F(x) float(x)
#else
#include <math.h>
#include <stdbool.h>
typedef struct vec2 {
  float x, y;
} vec2;
#define FL_FN static inline
#define FL_GLOBAL static _Thread_local
#define precise
static inline vec2 fl_v(float x, float y) {
  vec2 r;
  r.x = x;
  r.y = y;
  return r;
}
#define fl_sqrt(x) sqrtf(x)
#define fl_fma(a, b, c) fmaf(a, b, c)
#define fl_fabs(x) fabsf(x)
#define fl_floor(x) floorf(x)
#define fl_ceil(x) ceilf(x)
#define fl_fmin(a, b) fminf(a, b)
#define fl_fmax(a, b) fmaxf(a, b)
#define fl_atan2(y, x) atan2f(y, x)
#define fl_cos(x) cosf(x)
#define fl_sin(x) sinf(x)
#define fl_asin(x) asinf(x)
#define FL_U(x) ((uint32_t)(x))
#define FL_F(x) ((float)(x))
#endif

#define FL_PI 3.14159265358979f
#define FL_BIG 1.0e30f /* "beyond any position" for solid strokes */

/* ------------------------------------------------------------ vector math
 * Every operation here is `precise` (no fused multiply-add): a point the
 * outline reaches from two places (a side's end and the join after it, a
 * transformed end point and the closing line) must come out equal in both,
 * and a GPU compiler may fuse a multiply and an add at one inlined call site
 * and not at another (NVIDIA's does: outlines left open by one ulp). The C
 * side is built with -ffp-contract=off (CMakeLists.txt). Where a multiply
 * feeds an add, fl_fma fuses them explicitly: under `precise` GLSL's fma()
 * is one operation everywhere (NVIDIA: one FFMA; C: fmaf), so the speed of
 * fused arithmetic comes back without its site-to-site differences. */

FL_FN vec2 fl_add(vec2 a, vec2 b) {
  precise vec2 r = fl_v(a.x + b.x, a.y + b.y);
  return r;
}
FL_FN vec2 fl_sub(vec2 a, vec2 b) {
  precise vec2 r = fl_v(a.x - b.x, a.y - b.y);
  return r;
}
FL_FN vec2 fl_mul(vec2 a, float s) {
  precise vec2 r = fl_v(a.x * s, a.y * s);
  return r;
}
/* a * s + c, fused */
FL_FN vec2 fl_madd(vec2 a, float s, vec2 c) {
  precise vec2 r = fl_v(fl_fma(a.x, s, c.x), fl_fma(a.y, s, c.y));
  return r;
}
FL_FN vec2 fl_neg(vec2 a) { return fl_v(-a.x, -a.y); }
FL_FN float fl_dot(vec2 a, vec2 b) {
  precise float r = fl_fma(a.x, b.x, a.y * b.y);
  return r;
}
FL_FN float fl_cross(vec2 a, vec2 b) {
  precise float r = a.x * b.y - a.y * b.x;
  return r;
}
FL_FN vec2 fl_perp(vec2 a) { return fl_v(-a.y, a.x); } /* +90 degrees: the left normal (y up) */
FL_FN bool fl_eq(vec2 a, vec2 b) { return a.x == b.x && a.y == b.y; }
FL_FN vec2 fl_rot(vec2 a, float ang) {
  float c = fl_cos(ang), s = fl_sin(ang);
  precise vec2 r = fl_v(fl_fma(a.x, c, -(a.y * s)), fl_fma(a.x, s, a.y * c));
  return r;
}
/* Length, scaled first so tiny and huge vectors neither underflow nor overflow. */
FL_FN float fl_length(vec2 a) {
  float m = fl_fmax(fl_fabs(a.x), fl_fabs(a.y));
  if (!(m > 0.0f)) return 0.0f;
  vec2 b = fl_mul(a, 1.0f / m);
  precise float r = m * fl_sqrt(fl_dot(b, b));
  return r;
}
/* Unit vector along a (a != 0); (1, 0) for a zero or NaN vector. */
FL_FN vec2 fl_dir(vec2 a) {
  float m = fl_fmax(fl_fabs(a.x), fl_fabs(a.y));
  if (!(m > 0.0f)) return fl_v(1.0f, 0.0f);
  vec2 b = fl_mul(a, 1.0f / m);
  return fl_mul(b, 1.0f / fl_sqrt(fl_dot(b, b)));
}

FL_FN vec2 fl_apply(cn_transform t, vec2 p) {
  precise vec2 r = fl_v(fl_fma(t.a, p.x, fl_fma(t.c, p.y, t.e)), fl_fma(t.b, p.x, fl_fma(t.d, p.y, t.f)));
  return r;
}
/* v after m. */
FL_FN cn_transform fl_compose(cn_transform v, cn_transform m) {
  cn_transform r;
  r.a = v.a * m.a + v.c * m.b;
  r.b = v.b * m.a + v.d * m.b;
  r.c = v.a * m.c + v.c * m.d;
  r.d = v.b * m.c + v.d * m.d;
  r.e = v.a * m.e + v.c * m.f + v.e;
  r.f = v.b * m.e + v.d * m.f + v.f;
  return r;
}
/* The largest singular value of the linear part: how much a local distance
 * can grow in device pixels. */
FL_FN float fl_max_scale(cn_transform t) {
  float e = t.a * t.a + t.b * t.b + t.c * t.c + t.d * t.d;
  float det = t.a * t.d - t.b * t.c;
  float disc = fl_sqrt(fl_fmax(e * e - 4.0f * det * det, 0.0f));
  return fl_sqrt(0.5f * (e + disc));
}

/* ----------------------------------------------------------------- curves */

CN_STRUCT(fl_curve) {
  vec2 p0, p1, p2, p3;
  CN_U32 kind; /* CN_SEG_LINE, CN_SEG_QUAD, CN_SEG_CUBIC */
} CN_STRUCT_END(fl_curve)

FL_FN fl_curve fl_load(CN_U32 si) {
  cn_segment s = fl_seg(si);
  fl_curve c;
  c.kind = s.info & 3u;
  if (c.kind > CN_SEG_CUBIC) c.kind = CN_SEG_LINE;
  c.p0 = fl_v(s.x0, s.y0);
  c.p1 = fl_v(s.x1, s.y1);
  c.p2 = fl_v(s.x2, s.y2);
  c.p3 = fl_v(s.x3, s.y3);
  return c;
}

FL_FN vec2 fl_end_pt(fl_curve c) { return c.kind == CN_SEG_LINE ? c.p1 : c.kind == CN_SEG_QUAD ? c.p2 : c.p3; }

FL_FN fl_curve fl_curve_xf(fl_curve c, cn_transform t) {
  fl_curve r;
  r.kind = c.kind;
  r.p0 = fl_apply(t, c.p0);
  r.p1 = fl_apply(t, c.p1);
  r.p2 = fl_apply(t, c.p2);
  r.p3 = fl_apply(t, c.p3);
  return r;
}

FL_FN vec2 fl_eval(fl_curve c, float t) {
  float mt = 1.0f - t;
  if (c.kind == CN_SEG_LINE) return fl_madd(c.p1, t, fl_mul(c.p0, mt));
  if (c.kind == CN_SEG_QUAD) return fl_madd(c.p2, t * t, fl_madd(c.p1, 2.0f * mt * t, fl_mul(c.p0, mt * mt)));
  return fl_madd(c.p3, t * t * t,
                 fl_madd(c.p2, 3.0f * mt * t * t, fl_madd(c.p1, 3.0f * mt * mt * t, fl_mul(c.p0, mt * mt * mt))));
}

/* Vertex i of the n-piece polyline; the ends are the exact end points. */
FL_FN vec2 fl_point(fl_curve c, CN_U32 i, CN_U32 n) {
  if (i == 0u) return c.p0;
  if (i >= n) return fl_end_pt(c);
  return fl_eval(c, FL_F(i) / FL_F(n));
}

/* Wang's formula: pieces so that the polyline is within tol of the curve. */
FL_FN CN_U32 fl_subdiv(fl_curve c, float tol) {
  if (c.kind == CN_SEG_LINE) return 1u;
  precise float nf;
  if (c.kind == CN_SEG_QUAD) {
    float dd = fl_length(fl_add(fl_sub(c.p0, fl_mul(c.p1, 2.0f)), c.p2));
    nf = fl_ceil(fl_sqrt(0.25f * dd / tol));
  } else {
    float d1 = fl_length(fl_add(fl_sub(c.p0, fl_mul(c.p1, 2.0f)), c.p2));
    float d2 = fl_length(fl_add(fl_sub(c.p1, fl_mul(c.p2, 2.0f)), c.p3));
    nf = fl_ceil(fl_sqrt(0.75f * fl_fmax(d1, d2) / tol));
  }
  if (!(nf >= 1.0f)) nf = 1.0f; /* also NaN */
  if (nf > FL_F(CN_FLATTEN_MAX_SUBDIV)) nf = FL_F(CN_FLATTEN_MAX_SUBDIV);
  return FL_U(nf);
}

/* Exact unit tangents at the ends (first non-zero control-point difference). */
FL_FN vec2 fl_tan0(fl_curve c) {
  vec2 e = fl_end_pt(c);
  vec2 d = fl_sub(c.p1, c.p0);
  if (c.kind != CN_SEG_LINE && fl_eq(c.p1, c.p0)) d = fl_sub(c.kind == CN_SEG_CUBIC && !fl_eq(c.p2, c.p0) ? c.p2 : e, c.p0);
  return fl_dir(d);
}
FL_FN vec2 fl_tan1(fl_curve c) {
  vec2 e = fl_end_pt(c);
  vec2 before = c.kind == CN_SEG_LINE ? c.p0 : c.kind == CN_SEG_QUAD ? c.p1 : c.p2;
  vec2 d = fl_sub(e, before);
  if (c.kind != CN_SEG_LINE && fl_eq(before, e)) d = fl_sub(e, c.kind == CN_SEG_CUBIC && !fl_eq(c.p1, e) ? c.p1 : c.p0);
  return fl_dir(d);
}

/* ------------------------------------------------------- per-element state */

FL_GLOBAL cn_transform fl_T;   /* local -> device */
FL_GLOBAL float fl_tol_dev;    /* fills: device pixels */
FL_GLOBAL float fl_tol_curve;  /* strokes: centre line, local units */
FL_GLOBAL float fl_arc_step;   /* strokes: angle per arc chord */
FL_GLOBAL float fl_h;          /* strokes: half width, local units */
FL_GLOBAL CN_U32 fl_join_style, fl_cap_style;
FL_GLOBAL float fl_limit;      /* miter limit, >= 1 */
FL_GLOBAL CN_U32 fl_path_first, fl_path_end; /* the path's segment range */
FL_GLOBAL bool fl_dashed;
FL_GLOBAL CN_U32 fl_dash_first, fl_dash_count, fl_dash_m; /* m: entries of one period (count, doubled if odd) */
FL_GLOBAL float fl_dash_period, fl_dash_off0;
FL_GLOBAL float fl_cover; /* the paint's alpha factor: < 1 for a collapsed dash pattern */
FL_GLOBAL CN_U32 fl_flags; /* CN_FLATTEN_ELEM_* of the element */
FL_GLOBAL CN_U32 fl_split; /* pairs per segment of the element: FL_STROKE_SPLIT for strokes of CN_PATH_CURVED paths, else 1 */

#ifndef FL_STROKE_SPLIT
#define FL_STROKE_SPLIT CN_FL_STROKE_SPLIT
#endif

FL_FN float fl_dash_len(CN_U32 jm) { return fl_dash_at(fl_dash_first + jm % fl_dash_count); }

/* Sets the state for element el; false when it draws nothing. */
FL_FN bool fl_begin(cn_element el) {
  fl_cover = 1.0f;
  fl_flags = 0u;
  fl_split = 1u;
  if (el.tag != CN_TAG_FILL && el.tag != CN_TAG_STROKE && el.tag != CN_TAG_BEGIN_CLIP) return false;
  cn_path p = fl_path(el.path);
  if (el.tag == CN_TAG_STROKE && (p.flags & CN_PATH_CURVED) != 0u) fl_split = FL_STROKE_SPLIT;
  fl_path_first = p.seg_first;
  fl_path_end = p.seg_first + p.seg_count;
  fl_T = fl_compose(fl_view(), fl_xform(p.transform));
  fl_tol_dev = fl_tolerance();
  fl_dashed = false;
  if (el.tag != CN_TAG_STROKE) return true;
  cn_stroke st = fl_stroke_at(el.aux);
  fl_h = 0.5f * st.width;
  if (!(fl_h > 0.0f) || !(fl_h < 3.0e37f)) return false; /* SVG: width 0 (or negative) draws nothing */
  {
    /* Skia's hairline test: both width vectors at most 1 device px long by its fast length */
    float w = st.width;
    float x0 = fl_fabs(fl_T.a * w), y0 = fl_fabs(fl_T.b * w), x1 = fl_fabs(fl_T.c * w), y1 = fl_fabs(fl_T.d * w);
    float l0 = fl_fmax(x0, y0) + 0.5f * fl_fmin(x0, y0), l1 = fl_fmax(x1, y1) + 0.5f * fl_fmin(x1, y1);
    if (l0 <= 1.0f && l1 <= 1.0f) fl_flags = CN_FLATTEN_ELEM_HAIRLINE;
  }
  fl_join_style = st.join <= CN_JOIN_MITER_CLIP ? st.join : CN_JOIN_MITER;
  fl_cap_style = st.cap <= CN_CAP_SQUARE ? st.cap : CN_CAP_BUTT;
  fl_limit = st.miter_limit >= 1.0f ? st.miter_limit : 1.0f;
  float tol_local = 0.5f * fl_tol_dev / fl_max_scale(fl_T);
  fl_tol_curve = tol_local;
  /* An arc of radius h with chords of angle x deviates by h (1 - cos(x/2)) = 2 h sin^2(x/4). */
  float r = fl_fmin(tol_local / fl_h, 2.0f);
  fl_arc_step = r >= 0.0f ? 4.0f * fl_asin(fl_sqrt(0.5f * r)) : FL_PI; /* NaN -> PI */
  if (!(fl_arc_step > 0.0f)) fl_arc_step = FL_PI;
  if (st.dash_count > 0u) {
    fl_dash_first = st.dash_first;
    fl_dash_count = st.dash_count;
    fl_dash_m = (st.dash_count & 1u) != 0u ? 2u * st.dash_count : st.dash_count;
    float sum = 0.0f;
    bool ok = true;
    for (CN_U32 j = 0u; j < fl_dash_m; j++) {
      float d = fl_dash_len(j);
      if (!(d >= 0.0f && d < 3.0e37f)) ok = false;
      sum += d;
    }
    if (ok && sum > 0.0f && sum < 3.0e37f) {
      fl_dashed = true;
      fl_dash_period = sum;
      float off = st.dash_offset;
      if (!(fl_fabs(off) < 3.0e37f)) off = 0.0f;
      float o = off - fl_floor(off / sum) * sum;
      fl_dash_off0 = o >= 0.0f && o < sum ? o : 0.0f;
      /* A period under CN_FLATTEN_DASH_COLLAPSE_PX device pixels (along the
       * most stretched direction) is drawn as the solid stroke at the
       * pattern's mean coverage: each dash, plus what its caps cover of the
       * gaps beside it (square: h on each side; round: the half discs'
       * area over the stroke's width, pi h / 4 a side), per period. */
      if (sum * fl_max_scale(fl_T) < CN_FLATTEN_DASH_COLLAPSE_PX) {
        float ext = fl_cap_style == CN_CAP_SQUARE ? 2.0f * fl_h : fl_cap_style == CN_CAP_ROUND ? 0.5f * FL_PI * fl_h : 0.0f;
        float on = 0.0f;
        for (CN_U32 j = 0u; j < fl_dash_m; j++) {
          float d = fl_dash_len(j);
          on += (j & 1u) == 0u ? d : fl_fmin(d, ext);
        }
        fl_dashed = false;
        fl_cover = fl_fmin(on / sum, 1.0f);
      }
    }
  }
  return true;
}

FL_FN bool fl_seg_is_last(CN_U32 si) {
  return (fl_seg(si).info & CN_SEG_SUBPATH_END) != 0u || si + 1u >= fl_path_end;
}
/* First / last segment of si's subpath, clamped to the path. */
FL_FN CN_U32 fl_first_of(CN_U32 si) {
  CN_U32 f = fl_sub_first(si);
  return f < fl_path_first || f > si ? fl_path_first : f;
}
FL_FN CN_U32 fl_last_of(CN_U32 first, CN_U32 si) {
  CN_U32 l = fl_sub_last(first);
  return l < si || l >= fl_path_end ? fl_path_end - 1u : l;
}

/* ------------------------------------------------------------------ lines */

/* Lines are emitted inside the box [FL_CLIP_LO, FL_CLIP_HI]^2 of device
 * pixels (it holds every render target, up to 16384 px, with a wide margin):
 * a line leaving it is cut where it crosses the box's sides and each part
 * outside is replaced by its projection on the nearest side (clamping the
 * cut points). For the nonzero/even-odd winding at any point inside the box
 * that changes nothing: a part left of the box becomes a vertical edge on
 * its left side (the same crossings of every row), parts above, below or
 * right of it stop mattering. It keeps coordinates small enough for the
 * renderer's float arithmetic (a 1e20-wide round cap, a curve spanning
 * 1e8 px lose accuracy far away, not the element). */
#define FL_CLIP_LO (-32768.0f)
#define FL_CLIP_HI 49152.0f
/* The GPU kernel is specialized without the cut when the host knows no line
 * can leave the box (cn_flatten_args.extent); the CPU reference always cuts
 * (the same lines when none leaves it). */
#ifndef FL_BOX_CLIP
#define FL_BOX_CLIP true
#endif
FL_FN vec2 fl_clamp_box(vec2 p) {
  return fl_v(fl_fmin(fl_fmax(p.x, FL_CLIP_LO), FL_CLIP_HI), fl_fmin(fl_fmax(p.y, FL_CLIP_LO), FL_CLIP_HI));
}
/* Where a coordinate going from pa to pb crosses c, strictly inside (0, 1); 2 if it does not. */
FL_FN float fl_cross_t(float pa, float pb, float c) {
  if ((pa < c) == (pb < c)) return 2.0f;
  float u = (c - pa) / (pb - pa);
  return u > 0.0f && u < 1.0f ? u : 2.0f;
}
FL_FN void fl_line(vec2 a, vec2 b) {
  if (fl_eq(a, b)) return;
  if (!FL_BOX_CLIP) {
    fl_out(a, b);
    return;
  }
  bool inside = a.x >= FL_CLIP_LO && a.x <= FL_CLIP_HI && a.y >= FL_CLIP_LO && a.y <= FL_CLIP_HI &&
                b.x >= FL_CLIP_LO && b.x <= FL_CLIP_HI && b.y >= FL_CLIP_LO && b.y <= FL_CLIP_HI;
  bool finite = a.x - a.x == 0.0f && a.y - a.y == 0.0f && b.x - b.x == 0.0f && b.y - b.y == 0.0f;
  if (inside || !finite) { /* non-finite lines: bounded work, the renderer drops them */
    fl_out(a, b);
    return;
  }
  /* The parameters where the line crosses the box's four side lines (2: it
   * does not), sorted, then the pieces between them. Straight-line code, no
   * loop: some drivers cap an invocation's loop trips (llvmpipe), and a curve
   * of 16384 pieces already takes 16384 of them. */
  float t0 = fl_cross_t(a.x, b.x, FL_CLIP_LO), t1 = fl_cross_t(a.x, b.x, FL_CLIP_HI);
  float t2 = fl_cross_t(a.y, b.y, FL_CLIP_LO), t3 = fl_cross_t(a.y, b.y, FL_CLIP_HI);
  float lo01 = fl_fmin(t0, t1), hi01 = fl_fmax(t0, t1), lo23 = fl_fmin(t2, t3), hi23 = fl_fmax(t2, t3);
  float s0 = fl_fmin(lo01, lo23), s3 = fl_fmax(hi01, hi23);
  float m0 = fl_fmax(lo01, lo23), m1 = fl_fmin(hi01, hi23);
  float s1 = fl_fmin(m0, m1), s2 = fl_fmax(m0, m1);
  vec2 p0 = fl_clamp_box(a);
  vec2 p1 = s0 < 1.0f ? fl_clamp_box(fl_add(a, fl_mul(fl_sub(b, a), s0))) : p0;
  vec2 p2 = s1 < 1.0f ? fl_clamp_box(fl_add(a, fl_mul(fl_sub(b, a), s1))) : p1;
  vec2 p3 = s2 < 1.0f ? fl_clamp_box(fl_add(a, fl_mul(fl_sub(b, a), s2))) : p2;
  vec2 p4 = s3 < 1.0f ? fl_clamp_box(fl_add(a, fl_mul(fl_sub(b, a), s3))) : p3;
  vec2 p5 = fl_clamp_box(b);
  if (!fl_eq(p0, p1)) fl_out(p0, p1);
  if (!fl_eq(p1, p2)) fl_out(p1, p2);
  if (!fl_eq(p2, p3)) fl_out(p2, p3);
  if (!fl_eq(p3, p4)) fl_out(p3, p4);
  if (!fl_eq(p4, p5)) fl_out(p4, p5);
}

/* A line given in local space. */
FL_FN void fl_sline(vec2 a, vec2 b) {
  if (!fl_eq(a, b)) fl_line(fl_apply(fl_T, a), fl_apply(fl_T, b));
}

/* ------------------------------------------------------------------ fills */

FL_FN void fl_fill_pair(CN_U32 si) {
  fl_curve c = fl_curve_xf(fl_load(si), fl_T);
  CN_U32 n = fl_subdiv(c, fl_tol_dev);
  vec2 prev = c.p0;
  for (CN_U32 i = 1u; i <= n; i++) {
    vec2 q = fl_point(c, i, n);
    fl_line(prev, q);
    prev = q;
  }
  if (fl_seg_is_last(si)) fl_line(prev, fl_apply(fl_T, fl_load(fl_first_of(si)).p0));
}

/* ---------------------------------------------------------- stroke pieces */

/* Point at the offset h to the left of direction d. */
FL_FN vec2 fl_off(vec2 p, vec2 d) { return fl_add(p, fl_mul(fl_perp(d), fl_h)); }

/* Both offset sides of the chord a -> b (direction d): left forwards, right backwards. */
FL_FN void fl_sides(vec2 a, vec2 b, vec2 d) {
  fl_sline(fl_off(a, d), fl_off(b, d));
  vec2 nd = fl_neg(d);
  fl_sline(fl_off(b, nd), fl_off(a, nd));
}

/* Arc around p from p + u to p + v, rotating u by phi (|phi| <= 2 pi). */
FL_FN void fl_arc(vec2 p, vec2 u, vec2 v, float phi) {
  precise float kf = fl_ceil(fl_fabs(phi) / fl_arc_step);
  if (!(kf >= 1.0f)) kf = 1.0f;
  if (kf > FL_F(CN_FLATTEN_MAX_ARC)) kf = FL_F(CN_FLATTEN_MAX_ARC);
  CN_U32 k = FL_U(kf);
  vec2 prev = fl_add(p, u);
  for (CN_U32 i = 1u; i < k; i++) {
    vec2 q = fl_add(p, fl_rot(u, phi * (FL_F(i) / kf)));
    fl_sline(prev, q);
    prev = q;
  }
  fl_sline(prev, fl_add(p, v));
}

/* Join at p from direction da to direction db (unit vectors) in the given
 * style. The inner side normally runs through p (no negative area at all);
 * direct (short: the shorter of the two chords meeting here, or 0) lets it
 * cut straight across when the inner triangle (p, p + h n(da), p + h n(db))
 * lies inside both chords' quads: for a turn under 90 degrees with
 * h sin(turn) <= short. That triangle winds negatively once and is covered by
 * both quads, and such triangles only chain along one segment's chords, so
 * every point keeps a winding of at least 1 (see cn_flatten.h). */
FL_FN void fl_join_at(vec2 p, vec2 da, vec2 db, CN_U32 style, float direct) {
  /* precise: the test below is exact. Contracted to fma(x, y, -x * y), the
   * cross product of a direction with itself is the rounding error of x * y,
   * not 0, and every straight vertex got a join (the H200: 28% more lines on
   * mapWaadt.svg, all of them pairs that cancel). */
  precise float cr = da.x * db.y - da.y * db.x;
  float d = fl_dot(da, db);
  if (cr == 0.0f && d > 0.0f) return; /* straight on: the sides meet */
  bool left = cr >= 0.0f;            /* turning left (or reversing): the left side is inside */
  float ang = fl_atan2(fl_fabs(cr), d);
  vec2 nda = fl_neg(da), ndb = fl_neg(db);
  vec2 u, v, eu, ev;
  bool cut = d > 0.0f && fl_h * fl_fabs(cr) <= direct;
  if (left) {
    if (cut) {
      fl_sline(fl_off(p, da), fl_off(p, db));
    } else {
      fl_sline(fl_off(p, da), p);
      fl_sline(p, fl_off(p, db));
    }
    u = fl_mul(fl_perp(ndb), fl_h);
    v = fl_mul(fl_perp(nda), fl_h);
    eu = ndb;
    ev = da;
  } else {
    if (cut) {
      fl_sline(fl_off(p, ndb), fl_off(p, nda));
    } else {
      fl_sline(fl_off(p, ndb), p);
      fl_sline(p, fl_off(p, nda));
    }
    u = fl_mul(fl_perp(da), fl_h);
    v = fl_mul(fl_perp(db), fl_h);
    eu = da;
    ev = ndb;
  }
  vec2 pu = fl_add(p, u), pv = fl_add(p, v);
  /* The outer side goes from p + u to p + v, clockwise (rotation by -ang). */
  if (style == CN_JOIN_ROUND) {
    fl_arc(p, u, v, -ang);
    return;
  }
  if (style == CN_JOIN_MITER || style == CN_JOIN_MITER_CLIP) {
    float c2 = 0.5f * (1.0f + d); /* cos^2(ang / 2); the miter ratio is 1 / cos(ang / 2) */
    if (c2 * fl_limit * fl_limit >= 1.0f) {
      vec2 tip = fl_add(p, fl_mul(fl_add(u, v), 0.5f / c2));
      fl_sline(pu, tip);
      fl_sline(tip, pv);
      return;
    }
    if (style == CN_JOIN_MITER_CLIP) {
      /* SVG 2: clip the miter at limit * h from p, perpendicular to the bisector m. */
      vec2 m = fl_rot(fl_mul(u, 1.0f / fl_h), -0.5f * ang);
      float lim = fl_limit * fl_h;
      float su = (lim - fl_dot(u, m)) / fl_dot(eu, m);
      float sv = (lim - fl_dot(v, m)) / fl_dot(ev, m);
      if (su >= 0.0f && sv >= 0.0f && su < 3.0e37f && sv < 3.0e37f) {
        vec2 a = fl_add(pu, fl_mul(eu, su)), b = fl_add(pv, fl_mul(ev, sv));
        fl_sline(pu, a);
        fl_sline(a, b);
        fl_sline(b, pv);
        return;
      }
    }
  }
  fl_sline(pu, pv); /* bevel */
}
FL_FN void fl_join(vec2 p, vec2 da, vec2 db, CN_U32 style) { fl_join_at(p, da, db, style, 0.0f); }

/* Cap at p facing outwards along o (unit): from the side right of o to its left... */
FL_FN void fl_cap(vec2 p, vec2 o) {
  vec2 no = fl_neg(o);
  vec2 a = fl_off(p, o), b = fl_off(p, no);
  if (fl_cap_style == CN_CAP_ROUND) {
    fl_arc(p, fl_mul(fl_perp(o), fl_h), fl_mul(fl_perp(no), fl_h), -FL_PI);
  } else if (fl_cap_style == CN_CAP_SQUARE) {
    vec2 e = fl_mul(o, fl_h);
    fl_sline(a, fl_add(a, e));
    fl_sline(fl_add(a, e), fl_add(b, e));
    fl_sline(fl_add(b, e), b);
  } else {
    fl_sline(a, b);
  }
}

/* A zero-length subpath or dash: round -> disc, square -> square, in local
 * axes when d is (1, 0). */
FL_FN void fl_spot(vec2 p, vec2 d) {
  if (fl_cap_style == CN_CAP_BUTT) return;
  fl_cap(p, fl_neg(d));
  fl_cap(p, d);
}

/* ------------------------------------------------- centre line of a segment */

/* The local polyline of a segment: its curve, pieces, and the directions at
 * its ends (ok = false when all its vertices coincide: a degenerate segment). */
CN_STRUCT(fl_poly) {
  fl_curve c;
  CN_U32 n;
  bool ok;
  vec2 t0, c0, c1, t1; /* exact tangent and first chord at the start; last chord and exact tangent at the end */
} CN_STRUCT_END(fl_poly)

FL_FN fl_poly fl_poly_of(CN_U32 si) {
  fl_poly p;
  p.c = fl_load(si);
  p.n = fl_subdiv(p.c, fl_tol_curve);
  p.ok = false;
  p.t0 = fl_v(1.0f, 0.0f);
  p.c0 = p.t0;
  p.c1 = p.t0;
  p.t1 = p.t0;
  vec2 q0 = p.c.p0;
  for (CN_U32 i = 1u; i <= p.n; i++) {
    vec2 q = fl_point(p.c, i, p.n);
    if (!fl_eq(q, q0)) {
      p.ok = true;
      p.c0 = fl_dir(fl_sub(q, q0));
      break;
    }
  }
  if (!p.ok) return p;
  vec2 qn = fl_end_pt(p.c);
  for (CN_U32 i = p.n; i > 0u; i--) {
    vec2 q = fl_point(p.c, i - 1u, p.n);
    if (!fl_eq(q, qn)) {
      p.c1 = fl_dir(fl_sub(qn, q));
      break;
    }
  }
  p.t0 = fl_tan0(p.c);
  p.t1 = fl_tan1(p.c);
  return p;
}

/* Length of the local polyline (the dash distance it covers). */
FL_FN float fl_poly_length(fl_poly p) {
  float len = 0.0f;
  vec2 prev = p.c.p0;
  for (CN_U32 i = 1u; i <= p.n; i++) {
    vec2 q = fl_point(p.c, i, p.n);
    len += fl_length(fl_sub(q, prev));
    prev = q;
  }
  return len;
}

/* ------------------------------------------------------------ chord walk
 * A cursor over the chords of the current segment, with their positions
 * along the subpath (scaled so the last chord ends exactly at fl_E). */
FL_GLOBAL fl_poly fl_me;
FL_GLOBAL float fl_S, fl_E, fl_total;
FL_GLOBAL CN_U32 fl_ci;            /* current chord: fl_q0 -> fl_q1 */
FL_GLOBAL CN_U32 fl_cn;            /* the walk ends before this chord (fl_me.n, or the chunk's end) */
FL_GLOBAL vec2 fl_q0, fl_q1, fl_cd;
FL_GLOBAL float fl_cum0, fl_x0, fl_x1;

FL_FN float fl_pos(float cum) { return fl_total > 0.0f ? fl_S + (fl_E - fl_S) * (cum / fl_total) : fl_S; }

FL_FN void fl_chord_load() {
  fl_q0 = fl_point(fl_me.c, fl_ci, fl_me.n);
  fl_q1 = fl_point(fl_me.c, fl_ci + 1u, fl_me.n);
  fl_cd = fl_dir(fl_sub(fl_q1, fl_q0));
  if (!fl_dashed) {
    /* Solid strokes need no positions, but the step compares them (u == fl_x0):
     * they must be defined. A GLSL global that is never written is undefined,
     * and NVIDIA's compiler did take u == fl_x0 as false on the H200,
     * interpolating the chord at a garbage position. */
    fl_x0 = 0.0f;
    fl_x1 = 0.0f;
    return;
  }
  float cum1 = fl_cum0 + fl_length(fl_sub(fl_q1, fl_q0));
  fl_x0 = fl_pos(fl_cum0);
  fl_x1 = fl_ci + 1u == fl_me.n || cum1 >= fl_total ? fl_E : fl_pos(cum1);
}
FL_FN void fl_chord_next() {
  if (fl_dashed) fl_cum0 += fl_length(fl_sub(fl_q1, fl_q0));
  fl_ci++;
  if (fl_ci < fl_me.n) fl_chord_load();
}
FL_FN vec2 fl_chord_at(float x) {
  if (x <= fl_x0) return fl_q0;
  if (x >= fl_x1) return fl_q1;
  return fl_add(fl_q0, fl_mul(fl_sub(fl_q1, fl_q0), (x - fl_x0) / (fl_x1 - fl_x0)));
}

/* ------------------------------------------------------------ op queue
 * Joins, caps and sides are queued and drawn by fl_flush(), which the stroke
 * loop calls from one place only: GPU compilers inline every call, and one
 * call site keeps the kernel small (and quick to build on lavapipe). */
#define FL_QMAX 8
#define FL_OP_JOIN 0u
#define FL_OP_CAP 1u
#define FL_OP_SIDES 2u
#define FL_OP_LINE 3u
FL_GLOBAL CN_U32 fl_nq;
FL_GLOBAL CN_U32 fl_qk[FL_QMAX], fl_qs[FL_QMAX];
FL_GLOBAL vec2 fl_qp[FL_QMAX], fl_qa[FL_QMAX], fl_qb[FL_QMAX];
FL_GLOBAL float fl_qd[FL_QMAX];

FL_GLOBAL bool fl_mute; /* a chunk's first step, on the chord before the chunk: state only, no ops */

FL_FN void fl_push(CN_U32 kind, vec2 p, vec2 a, vec2 b, CN_U32 style, float direct) {
  if (fl_nq >= FL_QMAX || fl_mute) return;
  fl_qk[fl_nq] = kind;
  fl_qp[fl_nq] = p;
  fl_qa[fl_nq] = a;
  fl_qb[fl_nq] = b;
  fl_qs[fl_nq] = style;
  fl_qd[fl_nq] = direct;
  fl_nq++;
}
FL_FN void fl_q_join(vec2 p, vec2 da, vec2 db, CN_U32 style, float direct) { fl_push(FL_OP_JOIN, p, da, db, style, direct); }
FL_FN void fl_q_cap(vec2 p, vec2 o) { fl_push(FL_OP_CAP, p, o, o, 0u, 0.0f); }
FL_FN void fl_q_sides(vec2 a, vec2 b, vec2 d) { fl_push(FL_OP_SIDES, a, b, d, 0u, 0.0f); }
FL_FN void fl_q_line(vec2 a, vec2 b) { fl_push(FL_OP_LINE, a, b, b, 0u, 0.0f); }

FL_FN void fl_flush() {
  for (CN_U32 i = 0u; i < fl_nq; i++) {
    if (fl_qk[i] == FL_OP_JOIN) fl_join_at(fl_qp[i], fl_qa[i], fl_qb[i], fl_qs[i], fl_qd[i]);
    else if (fl_qk[i] == FL_OP_CAP) fl_cap(fl_qp[i], fl_qa[i]);
    else if (fl_qk[i] == FL_OP_LINE) fl_sline(fl_qp[i], fl_qa[i]);
    else fl_sides(fl_qp[i], fl_qa[i], fl_qb[i]);
  }
  fl_nq = 0u;
}

/* ------------------------------------------------------------ pieces
 * A piece is the outline of the centre line between positions lo and hi (a
 * dash, or the whole segment when solid), walked one step at a time: each
 * step queues the ops of one chord (plus the piece's start), the last step
 * the piece's end. */
#define FL_END_NONE 0u
#define FL_END_CAP 1u
#define FL_END_JOIN 2u /* start only: join with the previous segment (fl_prev) */
#define FL_PIECE_WALK 0u
#define FL_PIECE_END 1u
#define FL_PIECE_DONE 2u
#define FL_PIECE_SPOT 3u /* a zero-length dash or subpath: two caps */

FL_GLOBAL fl_poly fl_prev;  /* the segment before (for FL_END_JOIN) */
FL_GLOBAL fl_poly fl_wrap;  /* the last non-degenerate segment of a closed subpath */
FL_GLOBAL bool fl_prev_gap; /* closed subpath whose end misses its start: stroke the closing line too */
FL_GLOBAL float fl_lo, fl_hi;
FL_GLOBAL CN_U32 fl_start_kind, fl_end_kind, fl_phase;
FL_GLOBAL bool fl_started, fl_at_end;
FL_GLOBAL vec2 fl_lastd, fl_lastp, fl_spot_p, fl_spot_d;
FL_GLOBAL float fl_lastlen;
FL_GLOBAL bool fl_mj;          /* the current chord starts at a merged vertex, */
FL_GLOBAL vec2 fl_jl, fl_jr;   /* whose offset sides meet at these points */

/* Solid strokes, between two chords of one curve: may both sides simply meet
 * at the intersections of the offset lines (no join pieces at all)? Yes when
 * the turn is under 90 degrees, each intersection lies within the first half
 * of both chords (h tan(turn/2) <= half the shorter one; so each chord's
 * piece stays a convex quadrilateral), and the outer corner exceeds the round
 * join by at most the arc tolerance. */
FL_FN bool fl_merge_ok(vec2 da, vec2 db, float la, float lb) {
  float cr = fl_cross(da, db), d = fl_dot(da, db);
  if (!(d > 0.0f)) return false;
  if (!(fl_h * (fl_fabs(cr) / (1.0f + d)) <= 0.5f * fl_fmin(la, lb))) return false;
  return fl_h * (fl_sqrt(2.0f / (1.0f + d)) - 1.0f) <= fl_tol_curve;
}

FL_FN void fl_piece_begin(float lo, float hi, CN_U32 start, CN_U32 end) {
  fl_lo = lo;
  fl_hi = hi;
  fl_start_kind = start;
  fl_end_kind = end;
  fl_phase = FL_PIECE_WALK;
  fl_started = false;
  fl_at_end = false;
  fl_lastlen = 0.0f;
  fl_lastd = fl_cd;
  fl_lastp = fl_q0;
  fl_mj = false;
}
FL_FN void fl_spot_begin(vec2 p, vec2 d) {
  fl_phase = FL_PIECE_SPOT;
  fl_spot_p = p;
  fl_spot_d = d;
}

/* The join at this segment's start vertex with the previous segment. */
FL_FN void fl_q_start_join() {
  vec2 p = fl_me.c.p0;
  vec2 pe = fl_end_pt(fl_prev.c);
  vec2 da = fl_prev.t1;
  fl_q_join(pe, fl_prev.c1, da, CN_JOIN_ROUND, 0.0f);
  if (fl_prev_gap) {
    vec2 g = fl_dir(fl_sub(p, pe));
    fl_q_join(pe, da, g, fl_join_style, 0.0f);
    fl_q_sides(pe, p, g);
    da = g;
  }
  fl_q_join(p, da, fl_me.t0, fl_join_style, 0.0f);
  fl_q_join(p, fl_me.t0, fl_me.c0, CN_JOIN_ROUND, 0.0f);
}

/* One step of the current piece: queues its ops, advances the cursor. */
FL_FN void fl_piece_step() {
  if (fl_phase == FL_PIECE_SPOT) {
    if (fl_cap_style != CN_CAP_BUTT) {
      fl_q_cap(fl_spot_p, fl_neg(fl_spot_d));
      fl_q_cap(fl_spot_p, fl_spot_d);
    }
    fl_phase = FL_PIECE_DONE;
    return;
  }
  if (fl_phase == FL_PIECE_WALK) {
    float lo = fl_lo, hi = fl_hi;
    while (fl_ci < fl_cn &&
           (fl_eq(fl_q0, fl_q1) || (fl_dashed && (fl_x1 < lo || (fl_x1 == lo && fl_x0 < fl_x1)))))
      fl_chord_next();
    if (fl_ci >= fl_cn || (fl_dashed && fl_x0 >= hi && fl_started)) {
      fl_phase = FL_PIECE_END;
    } else {
      float u = fl_dashed ? fl_fmax(lo, fl_x0) : fl_x0;
      float v = fl_dashed ? fl_fmin(hi, fl_x1) : fl_x1;
      vec2 a = u == fl_x0 ? fl_q0 : fl_chord_at(u);
      vec2 b = v == fl_x1 ? fl_q1 : fl_chord_at(v);
      float len = fl_length(fl_sub(b, a));
      if (!fl_started) {
        bool at_start = !fl_dashed || (u == fl_S && fl_x0 == fl_S);
        if (fl_start_kind == FL_END_JOIN) {
          fl_q_start_join();
        } else if (fl_start_kind == FL_END_CAP) {
          if (at_start) {
            fl_q_cap(a, fl_neg(fl_me.t0));
            fl_q_join(a, fl_me.t0, fl_cd, CN_JOIN_ROUND, 0.0f);
          } else {
            fl_q_cap(a, fl_neg(fl_cd));
          }
        }
        fl_started = true;
      } else if (!fl_mj) {
        fl_q_join(fl_q0, fl_lastd, fl_cd, CN_JOIN_ROUND, fl_fmin(fl_lastlen, len));
      }
      if (fl_dashed) {
        fl_q_sides(a, b, fl_cd);
      } else {
        /* Solid: the sides run from the start joint (merged or plain) to the
         * end joint, merged with the next chord of this segment when allowed. */
        vec2 nd = fl_neg(fl_cd);
        vec2 sl = fl_mj ? fl_jl : fl_off(a, fl_cd), sr = fl_mj ? fl_jr : fl_off(a, nd);
        vec2 el = fl_off(b, fl_cd), er = fl_off(b, nd);
        fl_mj = false;
        CN_U32 j = fl_ci + 1u;
        while (j < fl_me.n && fl_eq(fl_point(fl_me.c, j, fl_me.n), fl_point(fl_me.c, j + 1u, fl_me.n))) j++;
        if (j < fl_me.n) {
          vec2 qn = fl_point(fl_me.c, j + 1u, fl_me.n);
          vec2 dn = fl_dir(fl_sub(qn, b));
          if (fl_merge_ok(fl_cd, dn, len, fl_length(fl_sub(qn, b)))) {
            vec2 m = fl_mul(fl_add(fl_perp(fl_cd), fl_perp(dn)), fl_h / (1.0f + fl_dot(fl_cd, dn)));
            el = fl_add(b, m);
            er = fl_add(b, fl_neg(m));
            fl_mj = true;
            fl_jl = el;
            fl_jr = er;
          }
        }
        fl_q_line(sl, el);
        fl_q_line(er, sr);
      }
      fl_lastlen = len;
      fl_lastd = fl_cd;
      fl_lastp = b;
      fl_at_end = !fl_dashed || v == fl_E;
      if (fl_dashed && fl_x1 > hi) fl_phase = FL_PIECE_END; /* the piece ends inside this chord */
      else fl_chord_next();
    }
    if (fl_phase == FL_PIECE_WALK) return;
  }
  if (fl_phase == FL_PIECE_END) {
    /* a chunk that ends before the segment's last chord leaves the end to the next */
    if (fl_started && fl_end_kind == FL_END_CAP && fl_cn == fl_me.n) {
      if (fl_at_end) {
        fl_q_join(fl_lastp, fl_lastd, fl_me.t1, CN_JOIN_ROUND, 0.0f);
        fl_q_cap(fl_lastp, fl_me.t1);
      } else {
        fl_q_cap(fl_lastp, fl_lastd);
      }
    }
    fl_phase = FL_PIECE_DONE;
  }
}

/* A zero-length dash at position x: a dot facing along the chord there. */
FL_FN void fl_zero_dash_begin(float x) {
  while (fl_ci < fl_me.n && (fl_eq(fl_q0, fl_q1) || fl_x1 < x)) fl_chord_next();
  if (fl_ci >= fl_me.n) fl_phase = FL_PIECE_DONE;
  else if (x <= fl_S) fl_spot_begin(fl_me.c.p0, fl_me.t0);
  else fl_spot_begin(fl_chord_at(x), fl_cd);
}

/* ------------------------------------------------------------ dash pattern
 * Interval j of the pattern (dash when j is even) spans [B(j), B(j+1)); the
 * boundaries are computed from the start of their period, the same way by
 * every pair, so pairs agree exactly on where a dash starts or ends. */
FL_GLOBAL float fl_bpos;    /* B(current interval) */
FL_GLOBAL float fl_bcyc;    /* current period */
FL_GLOBAL CN_U32 fl_bj;     /* current interval within the period */

FL_FN float fl_dash_end() {
  return fl_bj + 1u == fl_dash_m ? (fl_bcyc + 1.0f) * fl_dash_period - fl_dash_off0 : fl_bpos + fl_dash_len(fl_bj);
}
FL_FN void fl_dash_advance() {
  fl_bpos = fl_dash_end();
  fl_bj++;
  if (fl_bj == fl_dash_m) {
    fl_bj = 0u;
    fl_bcyc += 1.0f;
  }
}
FL_FN void fl_dash_seek(float s) { /* to the first interval whose end is >= s */
  float c = fl_floor((s + fl_dash_off0) / fl_dash_period) - 1.0f;
  fl_bcyc = c > 0.0f ? c : 0.0f;
  fl_bj = 0u;
  fl_bpos = fl_bcyc * fl_dash_period - fl_dash_off0;
  for (CN_U32 guard = 0u; guard < 4u * fl_dash_m + 4u; guard++) {
    if (fl_dash_end() >= s) return;
    fl_dash_advance();
  }
}
/* Is the pattern on right after s (s in a dash, or a dash starts at s)? */
FL_FN bool fl_dash_on_after(float s) {
  fl_dash_seek(s);
  for (CN_U32 guard = 0u; guard < 2u * fl_dash_m + 2u; guard++) {
    float b = fl_dash_end();
    if ((fl_bj & 1u) == 0u && fl_bpos <= s && b > s) return true;
    if (fl_bpos > s) return false;
    fl_dash_advance();
  }
  return false;
}
/* Is the pattern on right before s (a dash covers (s - eps, s])? */
FL_FN bool fl_dash_on_before(float s) {
  fl_dash_seek(s);
  for (CN_U32 guard = 0u; guard < 2u * fl_dash_m + 2u; guard++) {
    float b = fl_dash_end();
    if ((fl_bj & 1u) == 0u && fl_bpos < s && b >= s) return true;
    if (fl_bpos >= s) return false;
    fl_dash_advance();
  }
  return false;
}

FL_GLOBAL CN_U32 fl_first_start, fl_last_end;
FL_GLOBAL bool fl_is_first, fl_is_last;

/* ----------------------------------------------------------------- strokes */

/* Chunk `chunk` of the stroke outline of segment si (pair: the pair index of
 * the segment's first chunk). length_only: just return the segment's
 * flattened length (dashed strokes' distance pass; 0 from chunks past the first). */
FL_FN float fl_stroke_pair(CN_U32 si, CN_U32 pair, CN_U32 chunk, bool length_only) {
  if (chunk > 0u && fl_dashed) return 0.0f; /* dashed: the first chunk walks the whole segment */
  /* Every global the walk reads is set here or before it reads it (GLSL
   * leaves an unwritten global undefined; NVIDIA's compiler takes that
   * literally): the spot and dash paths do not set these below. */
  fl_mute = false;
  fl_cn = 0u;
  CN_U32 first = fl_first_of(si);
  CN_U32 last = fl_last_of(first, si);
  bool closed = (fl_seg(si).info & CN_SEG_SUBPATH_CLOSED) != 0u;
  /* Neighbour queries, in one loop (one inlined copy of fl_poly_of):
   *   0 this segment; 1 the previous non-degenerate one; 2 is there a later
   *   non-degenerate one; 3 the last non-degenerate one of the subpath;
   *   4 the subpath's last segment (its length, for dashed closed subpaths). */
  CN_U32 prev = CN_NONE, wrap_last = CN_NONE;
  bool has_next = false;
  float last_len = 0.0f;
  /* A solid stroke's chunk walks chords [ca, cb) of the segment's fl_me.n. */
  CN_U32 ca = 0u, cb = 0u;
  for (CN_U32 q = 0u; q < 5u; q++) {
    CN_U32 from = si, count = 1u;
    bool down = false;
    if (q > 0u && length_only) break;
    if (q == 1u && chunk > 0u) {
      ca = (chunk * fl_me.n) / FL_STROKE_SPLIT;
      cb = ((chunk + 1u) * fl_me.n) / FL_STROKE_SPLIT;
      if (!fl_me.ok || ca == cb) return 0.0f; /* a degenerate segment's dot comes from its first chunk */
    }
    if (q == 1u) {
      if (!fl_me.ok) continue;
      from = si - 1u;
      count = si - first;
      down = true;
    } else if (q == 2u) {
      if (!fl_me.ok) continue;
      from = si + 1u;
      count = last - si;
    } else if (q == 3u) {
      if (fl_me.ok ? !closed || prev != CN_NONE : si != last) continue;
      from = last;
      count = last - first + 1u;
      down = true;
    } else if (q == 4u) {
      if (!fl_me.ok || !fl_dashed || !closed || (prev != CN_NONE && has_next)) continue;
      from = last;
    }
    for (CN_U32 i = 0u; i < count; i++) {
      CN_U32 j = down ? from - i : from + i;
      fl_poly p = fl_poly_of(j);
      if (q == 0u || q == 4u) {
        float len = fl_dashed && p.ok ? fl_poly_length(p) : 0.0f;
        if (q == 0u) {
          fl_me = p;
          fl_total = len;
        } else {
          last_len = len;
        }
        break;
      }
      if (!p.ok) continue;
      if (q == 1u) {
        prev = j;
        fl_prev = p;
      } else if (q == 2u) {
        has_next = true;
      } else {
        wrap_last = j;
        fl_wrap = p;
      }
      break;
    }
  }
  if (length_only) return fl_total;
  fl_nq = 0u;
  bool have_piece = false;
  bool single = true; /* solid strokes and spots: one piece */
  if (!fl_me.ok) {
    /* A zero-length subpath draws a dot, once: from its last segment. */
    if (si == last && wrap_last == CN_NONE && (!fl_dashed || fl_dash_on_after(0.0f))) {
      fl_spot_begin(fl_me.c.p0, fl_v(1.0f, 0.0f));
      have_piece = true;
    }
  } else {
    bool is_first = prev == CN_NONE;
    bool is_last = !has_next;
    if (fl_dashed) {
      fl_S = si == first ? 0.0f : fl_dist_at(pair); /* pair + 1: the next chunk, or segment, at fl_S + fl_total */
      fl_E = si == last ? fl_S + fl_total : fl_dist_at(pair + 1u);
      if (!(fl_E >= fl_S)) fl_E = fl_S;
    } else {
      fl_S = 0.0f;
      fl_E = FL_BIG;
    }
    /* Closed subpaths join across their start, when the pattern runs through it. */
    bool wrap = closed;
    if (closed && fl_dashed && (is_first || is_last)) {
      float total = last == first ? 0.0f : fl_dist_at(pair + (last - si) * fl_split);
      wrap = fl_dash_on_after(0.0f) && fl_dash_on_before(total + last_len);
    }
    fl_prev_gap = false;
    if (is_first && wrap) {
      fl_prev = fl_wrap;
      fl_prev_gap = !fl_eq(fl_end_pt(fl_prev.c), fl_me.c.p0);
    }
    fl_ci = 0u;
    fl_cum0 = 0.0f;
    fl_cn = fl_me.n;
    fl_mute = false;
    if (!fl_dashed && fl_split > 1u) {
      /* The chunk's first step runs, muted, on the last chord before the
       * chunk that is not degenerate (the chords between are): it leaves the
       * state the whole walk has there (started, the last direction, length
       * and end point, the merge with the next chord). Without one, the
       * chunk starts the piece itself. */
      ca = (chunk * fl_me.n) / FL_STROKE_SPLIT;
      cb = ((chunk + 1u) * fl_me.n) / FL_STROKE_SPLIT;
      if (ca == cb) return 0.0f; /* fewer chords than chunks: this one has none */
      fl_ci = ca;
      fl_cn = cb;
      for (CN_U32 j = ca; j > 0u; j--) {
        if (!fl_eq(fl_point(fl_me.c, j - 1u, fl_me.n), fl_point(fl_me.c, j, fl_me.n))) {
          fl_ci = j - 1u;
          fl_mute = true;
          break;
        }
      }
    }
    fl_chord_load();
    CN_U32 first_start = is_first && !wrap ? FL_END_CAP : FL_END_JOIN;
    CN_U32 last_end = is_last && !wrap ? FL_END_CAP : FL_END_NONE;
    if (!fl_dashed) {
      fl_piece_begin(fl_S, fl_E, first_start, last_end);
      have_piece = true;
    } else {
      single = false;
      fl_dash_seek(fl_S);
      fl_first_start = first_start;
      fl_last_end = last_end;
      fl_is_first = is_first;
      fl_is_last = is_last;
    }
  }
  /* The stroke loop: next dash (when dashed), one step of the current piece,
   * then draw what the step queued (the only fl_flush call). */
  CN_U32 intervals = 0u;
  for (CN_U32 guard = 0u; guard < 4u * (CN_FLATTEN_MAX_SUBDIV + 2u * CN_FLATTEN_MAX_DASHES) + 64u; guard++) {
    if (!have_piece) {
      if (single) break;
      float S = fl_S, E = fl_E;
      float a = fl_bpos, b = fl_dash_end();
      if (a >= E || intervals >= 2u * CN_FLATTEN_MAX_DASHES + 4u * fl_dash_m) break;
      intervals++;
      if ((fl_bj & 1u) == 0u) {
        if (a < E && b > S) {
          CN_U32 start = a > S ? FL_END_CAP : a == S ? (fl_is_first ? fl_first_start : FL_END_CAP)
                                                      : (fl_is_first ? fl_first_start : FL_END_JOIN);
          CN_U32 end = b < E ? FL_END_CAP : fl_is_last ? fl_last_end : (b == E ? FL_END_CAP : FL_END_NONE);
          float lo = fl_fmax(a, S), hi = fl_fmin(b, E);
          if (lo < hi) fl_piece_begin(lo, hi, start, end);
          else fl_zero_dash_begin(lo);
          have_piece = true;
        } else if (a == b && a == S) {
          fl_zero_dash_begin(a);
          have_piece = true;
        }
      }
      fl_dash_advance();
      if (!have_piece) continue;
    }
    fl_piece_step();
    fl_mute = false;
    fl_flush();
    if (fl_phase == FL_PIECE_DONE) {
      have_piece = false;
      if (single) break;
    }
  }
  return 0.0f;
}

/* ------------------------------------------------------------------ entry */

/* Pair k of element e (pair: its index among all pairs; k / fl_split is the
 * segment of e's path, k % fl_split the chunk of a stroke's): emits its lines, or
 * with length_only returns a dashed stroke's flattened length (0 for
 * anything else) and emits nothing. One entry, so kernels inline it once. */
FL_FN float fl_pair(CN_U32 e, CN_U32 k, CN_U32 pair, bool length_only) {
  cn_element el = fl_elem(e);
  if (!fl_begin(el)) return 0.0f;
  CN_U32 seg = fl_split == 1u ? k : k / FL_STROKE_SPLIT;
  CN_U32 chunk = k - seg * fl_split;
  CN_U32 si = fl_path_first + seg;
  if (si >= fl_path_end) return 0.0f;
  if (el.tag == CN_TAG_STROKE) {
    if (length_only && !fl_dashed) return 0.0f;
    return fl_stroke_pair(si, pair - chunk, chunk, length_only);
  }
  if (!length_only) fl_fill_pair(si);
  return 0.0f;
}

#endif
