/* svg_text_layout.c: laying out a text element's chunks and drawing them.
 *
 * Per chunk: FriBidi's embedding levels (paragraph left to right) cut the
 * characters into runs in visual order; each run is shaped with HarfBuzz in
 * the font of every span (unscaled, in font units), glyphs that a font lacks
 * are taken from a fallback font, and each span keeps the clusters that start
 * in it. Clusters then get letter-spacing, word-spacing and textLength, their
 * positions (anchor, dx/dy, rotate, or the point and angle along a textPath)
 * and their span's baseline shift. The layout follows resvg's (usvg's text
 * layout), so that renders compare with its reference images: positions and
 * metrics are those of the font's tables scaled by font-size / units-per-em.
 *
 * Drawing: per span, overline and underline, then the glyph outlines as one
 * path painted with the span's fill, stroke and paint order (paint servers
 * sized by the whole text's box, fill-rule nonzero), then line-through. */
#include "svg_text.h"

#include <fribidi.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct lglyph {
  uint32_t gid;
  svg_font *font;
  int32_t adv, xoff, yoff;
  uint32_t cluster; /* chunk-local character index */
} lglyph;

typedef struct glist {
  lglyph *g;
  uint32_t n, cap;
} glist;

typedef struct lcluster {
  uint32_t ch;      /* chunk-local index of its first character */
  uint32_t g0, ng;  /* its glyphs */
  uint16_t span;
  double width, advance, ascent, descent;
  bool shifted, visible;
  svg_mat ts;       /* position (and lengthAdjust scale) in the chunk */
  svg_mat path_ts;  /* vertical writing: the glyph's own rotation */
} lcluster;

typedef struct run {
  uint32_t start, len;
  FriBidiLevel level;
} run;

typedef struct chunk_out {
  glist glyphs;
  lcluster *cl;
  uint32_t ncl;
  /* the clusters of each span of the chunk (spans s0 .. s0 + nsp - 1), in visual order:
   * order[first[s - s0] .. first[s - s0 + 1]) */
  uint32_t s0, nsp;
  uint32_t *first, *order;
} chunk_out;

static void glist_free(glist *g) { free(g->g), g->g = NULL, g->n = g->cap = 0; }

static bool glist_push(glist *l, lglyph g) {
  if (l->n == l->cap) {
    uint32_t cap = l->cap ? l->cap * 2 : 32;
    lglyph *ng = realloc(l->g, cap * sizeof *ng);
    if (!ng) return false;
    l->g = ng, l->cap = cap;
  }
  l->g[l->n++] = g;
  return true;
}

/* ---------------------------------------------------------------- bidi */

static cn_result bidi_runs(const text_chunk *c, run **out, uint32_t *nout) {
  uint32_t n = c->n;
  FriBidiCharType *types = malloc(n * sizeof *types);
  FriBidiBracketType *br = malloc(n * sizeof *br);
  FriBidiLevel *lv = malloc(n * sizeof *lv);
  run *runs = malloc(n * sizeof *runs);
  if (!types || !br || !lv || !runs) {
    free(types), free(br), free(lv), free(runs);
    return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for bidi");
  }
  fribidi_get_bidi_types(c->cps, (FriBidiStrIndex)n, types);
  fribidi_get_bracket_types(c->cps, (FriBidiStrIndex)n, types, br);
  FriBidiParType base = FRIBIDI_PAR_LTR;
  FriBidiLevel max = fribidi_get_par_embedding_levels_ex(types, br, (FriBidiStrIndex)n, &base, lv);
  if (!max) { /* failure: everything left to right */
    memset(lv, 0, n * sizeof *lv);
    max = 1;
  }
  max--; /* fribidi returns the highest level plus one */
  uint32_t nr = 0;
  for (uint32_t i = 0; i < n;) {
    uint32_t j = i;
    while (j < n && lv[j] == lv[i]) j++;
    runs[nr++] = (run){i, j - i, lv[i]};
    i = j;
  }
  /* L2: from the highest level down to the lowest odd one, reverse every
   * sequence of runs at that level or higher */
  int lowest_odd = 1000;
  for (uint32_t i = 0; i < nr; i++)
    if ((runs[i].level & 1) && runs[i].level < lowest_odd) lowest_odd = runs[i].level;
  for (int lev = max; lev >= lowest_odd; lev--) {
    for (uint32_t i = 0; i < nr;) {
      if (runs[i].level < lev) {
        i++;
        continue;
      }
      uint32_t j = i;
      while (j < nr && runs[j].level >= lev) j++;
      for (uint32_t a = i, b = j - 1; a < b; a++, b--) {
        run t = runs[a];
        runs[a] = runs[b], runs[b] = t;
      }
      i = j;
    }
  }
  free(types), free(br), free(lv);
  *out = runs, *nout = nr;
  return CN_OK;
}

/* -------------------------------------------------------------- shaping */

typedef struct shaper {
  svg_loader *L;
  text_layout *T;
  const text_chunk *c;
  const run *runs;
  uint32_t nruns;
  hb_buffer_t *buf;
} shaper;

static cn_result shape_all(shaper *S, svg_font *f, bool small_caps, bool kerning, glist *out) {
  out->n = 0;
  hb_feature_t feats[2];
  unsigned nf = 0;
  if (small_caps) feats[nf++] = (hb_feature_t){HB_TAG('s', 'm', 'c', 'p'), 1, 0, (unsigned)-1};
  if (!kerning) feats[nf++] = (hb_feature_t){HB_TAG('k', 'e', 'r', 'n'), 0, 0, (unsigned)-1};
  for (uint32_t r = 0; r < S->nruns; r++) {
    const run *rn = &S->runs[r];
    hb_buffer_clear_contents(S->buf);
    hb_buffer_add_codepoints(S->buf, S->c->cps, (int)S->c->n, rn->start, (int)rn->len);
    hb_buffer_set_direction(S->buf, (rn->level & 1) ? HB_DIRECTION_RTL : HB_DIRECTION_LTR);
    hb_buffer_guess_segment_properties(S->buf);
    hb_shape(f->hb, S->buf, feats, nf);
    unsigned len;
    hb_glyph_info_t *info = hb_buffer_get_glyph_infos(S->buf, &len);
    hb_glyph_position_t *pos = hb_buffer_get_glyph_positions(S->buf, &len);
    if (!hb_buffer_allocation_successful(S->buf)) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for shaping");
    for (unsigned i = 0; i < len; i++) {
      lglyph g = {info[i].codepoint, f, pos[i].x_advance, pos[i].x_offset, pos[i].y_offset, info[i].cluster};
      if (g.cluster >= S->c->n) g.cluster = S->c->n - 1;
      if (!glist_push(out, g)) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for glyphs");
    }
  }
  return CN_OK;
}

/* Shapes the chunk with f, taking glyphs f lacks from fallback fonts (as
 * resvg: a fallback that has every glyph replaces the lot). */
static cn_result shape_text(shaper *S, const xmlNode *node, svg_font *f, bool small_caps, bool kerning, glist *out) {
  CN_TRY(shape_all(S, f, small_caps, kerning, out));
  svg_font *used[16] = {f};
  uint32_t nused = 1;
  glist fb = {0};
  cn_result r = CN_OK;
  while (nused < 16) {
    uint32_t miss = UINT32_MAX;
    for (uint32_t i = 0; i < out->n && miss == UINT32_MAX; i++)
      if (out->g[i].gid == 0) miss = i;
    if (miss == UINT32_MAX) break;
    uint32_t cp = S->c->cps[out->g[miss].cluster];
    svg_font *alt;
    r = cn__svg_font_fallback(S->L, node, cp, f, used, nused, &alt);
    if (r != CN_OK || !alt) break;
    r = shape_all(S, alt, small_caps, kerning, &fb);
    if (r != CN_OK) break;
    used[nused++] = alt;
    bool all = true;
    for (uint32_t i = 0; i < fb.n && all; i++) all = fb.g[i].gid != 0;
    if (all) {
      glist t = *out;
      *out = fb, fb = t;
      break;
    }
    if (fb.n != out->n) break;
    for (uint32_t i = 0; i < out->n; i++)
      if (out->g[i].gid == 0 && fb.g[i].gid != 0) out->g[i] = fb.g[i];
  }
  glist_free(&fb);
  if (r != CN_OK) return r;
  uint32_t missing = 0, first = 0;
  for (uint32_t i = 0; i < out->n; i++)
    if (out->g[i].gid == 0 && !missing++) first = S->c->cps[out->g[i].cluster];
  if (missing && first != ' ' && first != 0xA0)
    CN_TRY(cn__svg_warn(S->L, CN_SVG_SKIP_FONT, node,
                        "no font has U+%04X (%u glyphs missing in this text); drawn as %.60s's missing glyph", first,
                        missing, cn__svg_font_family(S->L, f)));
  return CN_OK;
}

static bool same_key(const text_span *a, const text_span *b) {
  return a->font == b->font && a->st->small_caps == b->st->small_caps && a->st->kerning == b->st->kerning;
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* The chunk's glyphs: shaped with the first span's font, then each other
 * span's clusters replaced by those its own font gives. */
static cn_result process_chunk(svg_loader *L, text_layout *T, const text_chunk *c, glist *out) {
  run *runs = NULL;
  uint32_t nruns = 0;
  CN_TRY(bidi_runs(c, &runs, &nruns));
  shaper S = {L, T, c, runs, nruns, hb_buffer_create()};
  cn_result r = CN_OK;
  glist tmp = {0};
  bool *replaced = calloc(c->n, 1);
  if (!hb_buffer_allocation_successful(S.buf) || !replaced) {
    r = cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for shaping");
    goto done;
  }
  /* the base: the first span with a font */
  uint32_t base = UINT32_MAX;
  for (uint32_t i = 0; i < c->n && base == UINT32_MAX; i++)
    if (T->spans[c->span[i]].font) base = c->span[i];
  if (base == UINT32_MAX) goto done;
  const text_span *bs = &T->spans[base];
  r = shape_text(&S, bs->node, bs->font, bs->st->small_caps, bs->st->kerning, out);
  /* the other spans, each distinct font (and feature set) once */
  const text_span **keys = NULL;
  uint32_t nkeys = 0;
  bool *is_start = calloc(c->n, 1);
  uint32_t *tfirst = calloc(c->n + 1, sizeof *tfirst), *torder = NULL, *pick = NULL;
  if (!is_start || !tfirst) r = cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for shaping");
  uint32_t prev = c->span[0];
  for (uint32_t i = 0; i < c->n && r == CN_OK; i++) {
    uint32_t s = c->span[i];
    if (i > 0 && s == prev) continue;
    prev = s;
    const text_span *sp = &T->spans[s];
    if (!sp->font || same_key(sp, bs)) continue;
    bool seen = false;
    for (uint32_t k = 0; k < nkeys && !seen; k++) seen = same_key(keys[k], sp);
    if (seen) continue;
    const text_span **nk = realloc(keys, (nkeys + 1) * sizeof *nk);
    if (!nk) {
      r = cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for shaping");
      break;
    }
    keys = nk, keys[nkeys++] = sp;
    r = shape_text(&S, sp->node, sp->font, sp->st->small_caps, sp->st->kerning, &tmp);
    if (r == CN_OK) r = cn__svg_work(L, T->node, tmp.n); /* shaping is work: bounded */
    if (r != CN_OK) break;
    /* tmp's glyphs by character, and where the base's clusters start */
    memset(tfirst, 0, (c->n + 1) * sizeof *tfirst);
    memset(is_start, 0, c->n);
    uint32_t *no = realloc(torder, (tmp.n ? tmp.n : 1) * sizeof *no);
    uint32_t *np = realloc(pick, (tmp.n ? tmp.n : 1) * sizeof *np);
    if (no) torder = no;
    if (np) pick = np;
    if (!no || !np) {
      r = cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for shaping");
      break;
    }
    for (uint32_t k = 0; k < tmp.n; k++) tfirst[tmp.g[k].cluster + 1]++;
    for (uint32_t k = 0; k < c->n; k++) tfirst[k + 1] += tfirst[k];
    for (uint32_t k = 0; k < tmp.n; k++) torder[tfirst[tmp.g[k].cluster]++] = k;
    for (uint32_t k = c->n; k > 0; k--) tfirst[k] = tfirst[k - 1];
    tfirst[0] = 0;
    for (uint32_t k = 0; k < out->n; k++) is_start[out->g[k].cluster] = true;
    /* each base cluster that starts in a span with this key is replaced by
     * the glyphs this font gives for the same characters (a ligature of the
     * base font comes apart, as resvg does) */
    glist merged = {0};
    bool ok = true;
    for (uint32_t x = 0; x < out->n && ok;) {
      uint32_t ch = out->g[x].cluster, y = x;
      while (y < out->n && out->g[y].cluster == ch) y++;
      if (!same_key(&T->spans[c->span[ch]], sp) || replaced[ch]) {
        for (uint32_t k = x; k < y && ok; k++) ok = glist_push(&merged, out->g[k]);
        x = y;
        continue;
      }
      uint32_t end = ch + 1; /* the characters of this cluster: up to the next cluster start */
      while (end < c->n && !is_start[end]) end++;
      uint32_t taken = 0;
      for (uint32_t k = tfirst[ch]; k < tfirst[end]; k++) pick[taken++] = torder[k];
      qsort(pick, taken, sizeof *pick, cmp_u32); /* in tmp's (visual) order */
      for (uint32_t k = 0; k < taken && ok; k++) ok = glist_push(&merged, tmp.g[pick[k]]);
      for (uint32_t k = x; k < y && ok && !taken; k++) ok = glist_push(&merged, out->g[k]);
      for (uint32_t k = ch; k < end; k++) replaced[k] = true;
      x = y;
    }
    if (!ok) {
      glist_free(&merged);
      r = cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for glyphs");
      break;
    }
    glist_free(out);
    *out = merged;
  }
  free(keys), free(is_start), free(tfirst), free(torder), free(pick);
done:
  glist_free(&tmp);
  free(replaced);
  hb_buffer_destroy(S.buf);
  free(runs);
  return r;
}

/* ----------------------------------------------------------- positions */

static bool spacing_script(uint32_t cp) {
  hb_script_t s = hb_unicode_script(hb_unicode_funcs_get_default(), cp);
  switch (s) {
    case HB_SCRIPT_ARABIC: case HB_SCRIPT_SYRIAC: case HB_SCRIPT_NKO: case HB_SCRIPT_MANICHAEAN:
    case HB_SCRIPT_PSALTER_PAHLAVI: case HB_SCRIPT_MANDAIC: case HB_SCRIPT_MONGOLIAN: case HB_SCRIPT_PHAGS_PA:
    case HB_SCRIPT_DEVANAGARI: case HB_SCRIPT_BENGALI: case HB_SCRIPT_GURMUKHI: case HB_SCRIPT_MODI:
    case HB_SCRIPT_SHARADA: case HB_SCRIPT_SYLOTI_NAGRI: case HB_SCRIPT_TIRHUTA: case HB_SCRIPT_OGHAM:
      return false;
    default: return true;
  }
}

static bool word_separator(uint32_t c) {
  return c == 0x20 || c == 0xA0 || c == 0x1361 || c == 0x10100 || c == 0x10101 || c == 0x1039F || c == 0x1091F;
}

/* Upright in vertical writing (Unicode's Vertical_Orientation U/Tu, the main blocks). */
static bool upright(uint32_t c) {
  return (c >= 0x1100 && c <= 0x11FF) || (c >= 0x2E80 && c <= 0xA4CF) || (c >= 0xAC00 && c <= 0xD7AF) ||
         (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0xFF00 && c <= 0xFFEF) ||
         (c >= 0x20000 && c <= 0x3FFFD);
}

static double fscale(const text_span *sp, const svg_font *f) { return sp->size / f->upem; }

static svg_mat rotate_at(double deg, double x, double y) {
  return cn__svg_mat_mul(cn__svg_mat_translate(x, y), cn__svg_mat_mul(cn__svg_mat_rotate(deg), cn__svg_mat_translate(-x, -y)));
}

static double anchor_offset(uint8_t anchor, double width) { return anchor == 1 ? -width / 2 : anchor == 2 ? -width : 0; }

/* Baseline shift of a span (down positive), as resvg resolves it. */
static double span_baseline(const text_span *sp, bool vertical) {
  const svg_font *f = sp->font;
  if (!f) return 0;
  double s = fscale(sp, f);
  double sum = sp->shift_px;
  if (sp->shift_sub < 0) sum -= -sp->shift_sub * f->sub_off * s;
  if (sp->shift_sub > 0) sum += sp->shift_sub * f->super_off * s;
  double shift = -sum;
  if (vertical) return shift;
  int b = sp->alignment == SVG_BASELINE_AUTO || sp->alignment == SVG_BASELINE_BASELINE ? sp->dominant : sp->alignment;
  double asc = f->ascent * s, desc = f->descent * s;
  switch (b) {
    case SVG_BASELINE_TEXT_BEFORE_EDGE: shift += asc; break;
    case SVG_BASELINE_MIDDLE: shift += f->x_height * s * 0.5; break;
    case SVG_BASELINE_CENTRAL: shift += asc - (asc - desc) * 0.5; break;
    case SVG_BASELINE_TEXT_AFTER_EDGE: case SVG_BASELINE_IDEOGRAPHIC: shift += desc; break;
    case SVG_BASELINE_HANGING: shift += asc * 0.8; break;
    case SVG_BASELINE_MATHEMATICAL: shift += asc * 0.5; break;
    default: break;
  }
  return shift;
}

/* A point and direction along a path (polyline of its curves, found by
 * arc length; the exact curve evaluated there). */
typedef struct path_walker {
  const svg_path *p;
} path_walker;

static void seg_eval(int op, const double *p0, const double *v, double t, double *x, double *y, double *dx, double *dy) {
  double u = 1 - t;
  if (op == SVG_OP_QUAD) {
    *x = u * u * p0[0] + 2 * u * t * v[0] + t * t * v[2];
    *y = u * u * p0[1] + 2 * u * t * v[1] + t * t * v[3];
    *dx = 2 * u * (v[0] - p0[0]) + 2 * t * (v[2] - v[0]);
    *dy = 2 * u * (v[1] - p0[1]) + 2 * t * (v[3] - v[1]);
  } else if (op == SVG_OP_CUBIC) {
    *x = u * u * u * p0[0] + 3 * u * u * t * v[0] + 3 * u * t * t * v[2] + t * t * t * v[4];
    *y = u * u * u * p0[1] + 3 * u * u * t * v[1] + 3 * u * t * t * v[3] + t * t * t * v[5];
    *dx = 3 * u * u * (v[0] - p0[0]) + 6 * u * t * (v[2] - v[0]) + 3 * t * t * (v[4] - v[2]);
    *dy = 3 * u * u * (v[1] - p0[1]) + 6 * u * t * (v[3] - v[1]) + 3 * t * t * (v[5] - v[3]);
  } else {
    *x = p0[0] + (v[0] - p0[0]) * t, *y = p0[1] + (v[1] - p0[1]) * t;
    *dx = v[0] - p0[0], *dy = v[1] - p0[1];
  }
}

/* Finds the point at arc length s; false beyond the end. */
static bool path_at(const svg_path *p, double s, double *x, double *y, double *angle) {
  double len = 0, cur[2] = {0, 0}, start[2] = {0, 0};
  const double *v = p->pts;
  for (size_t i = 0; i < p->nops; i++) {
    int op = p->ops[i] & 0x7f;
    int np = op == SVG_OP_MOVE || op == SVG_OP_LINE ? 1 : op == SVG_OP_QUAD ? 2 : op == SVG_OP_CUBIC ? 3 : 0;
    if (op == SVG_OP_MOVE) {
      cur[0] = start[0] = v[0], cur[1] = start[1] = v[1];
      v += 2;
      continue;
    }
    double end_pt[2];
    const double *sv = v;
    if (op == SVG_OP_CLOSE) {
      end_pt[0] = start[0], end_pt[1] = start[1];
      sv = end_pt;
      op = SVG_OP_LINE;
    }
    enum { STEPS = 128 };
    double px = cur[0], py = cur[1], pt = 0;
    for (int k = 1; k <= STEPS; k++) {
      double t = (double)k / STEPS, qx, qy, ddx, ddy;
      seg_eval(op, cur, sv, t, &qx, &qy, &ddx, &ddy);
      double d = hypot(qx - px, qy - py);
      if (s >= len && s <= len + d) {
        double f = d > 0 ? (s - len) / d : 0, tt = pt + (t - pt) * f;
        seg_eval(op, cur, sv, tt, x, y, &ddx, &ddy);
        *angle = atan2(ddy, ddx) * 180 / SVG_PI;
        return true;
      }
      len += d, px = qx, py = qy, pt = t;
    }
    const double *last = sv + 2 * ((op == SVG_OP_LINE ? 1 : op == SVG_OP_QUAD ? 2 : 3) - 1);
    cur[0] = last[0], cur[1] = last[1];
    v += 2 * np;
  }
  return false;
}

/* ------------------------------------------------------------- drawing */

static void box_add(double box[4], bool *any, svg_mat m, double x0, double y0, double x1, double y1) {
  double xs[4] = {x0, x1, x1, x0}, ys[4] = {y0, y0, y1, y1};
  for (int k = 0; k < 4; k++) {
    double x, y;
    cn__svg_mat_apply(m, xs[k], ys[k], &x, &y);
    if (!*any) box[0] = box[2] = x, box[1] = box[3] = y, *any = true;
    box[0] = fmin(box[0], x), box[1] = fmin(box[1], y), box[2] = fmax(box[2], x), box[3] = fmax(box[3], y);
  }
}

static void rect_path(svg_path *p, svg_mat m, double x0, double y0, double x1, double y1) {
  double xs[4] = {x0, x1, x1, x0}, ys[4] = {y0, y0, y1, y1};
  for (int k = 0; k < 4; k++) {
    double x, y;
    cn__svg_mat_apply(m, xs[k], ys[k], &x, &y);
    if (k == 0) cn__svg_path_move(p, x, y);
    else cn__svg_path_line(p, x, y);
  }
  cn__svg_path_close(p);
}

/* The decoration of kind k (0 underline, 1 overline, 2 line-through) of span s. */
static void decoration_path(const text_layout *T, const chunk_out *co, uint16_t s, int k, svg_mat span_ts, svg_path *p) {
  const text_span *sp = &T->spans[s];
  const svg_font *f = sp->font;
  double sc = fscale(sp, f);
  double thick = f->underline_thick * sc;
  double dy = k == 0 ? (T->vertical ? (f->ascent - f->descent) * sc / 2 : -f->underline_pos * sc)
            : k == 1 ? (T->vertical ? -(f->ascent - f->descent) * sc / 2 : -f->ascent * sc)
                     : (T->vertical ? 0 : -f->strike_pos * sc);
  bool started = false;
  double width = 0;
  svg_mat ts = cn__svg_mat_identity();
  uint32_t a = co->first[s - co->s0], b = co->first[s - co->s0 + 1];
  for (uint32_t j = a; j < b; j++) {
    const lcluster *c = &co->cl[co->order[j]];
    bool adjacent = j > a && co->order[j] == co->order[j - 1] + 1;
    if (started && (!adjacent || c->shifted)) {
      rect_path(p, cn__svg_mat_mul(span_ts, cn__svg_mat_mul(ts, cn__svg_mat_translate(0, dy))), 0, -thick / 2, width, thick / 2);
      started = false;
    }
    if (!started) width = c->advance, started = true, ts = c->ts;
    else width += c->advance;
  }
  if (started)
    rect_path(p, cn__svg_mat_mul(span_ts, cn__svg_mat_mul(ts, cn__svg_mat_translate(0, dy))), 0, -thick / 2, width, thick / 2);
}

static cn_result draw_decoration(svg_loader *L, const text_layout *T, const chunk_out *co, uint16_t s, int k,
                                 svg_mat span_ts, const double bbox[4]) {
  const text_span *sp = &T->spans[s];
  if (!sp->deco[k] || !sp->font || !sp->st->visible) return CN_OK;
  if (co->first[s - co->s0] == co->first[s - co->s0 + 1]) return CN_OK;
  if (T->outline) {
    decoration_path(T, co, s, k, span_ts, T->outline);
    return CN_OK;
  }
  svg_path p = {0};
  decoration_path(T, co, s, k, span_ts, &p);
  svg_style ds = *sp->deco[k];
  ds.paint_order[0] = 0, ds.paint_order[1] = 1, ds.paint_order[2] = 2;
  cn_result r = p.nops ? cn__svg_paint_path(L, sp->deco_node[k], &ds, &p, T->ctm, bbox, true) : CN_OK;
  cn__svg_path_free(&p);
  return r;
}

/* The transform of glyph g (at x units into its cluster) of cluster c in span s. */
static svg_mat glyph_matrix(const text_span *sp, const lcluster *c, const lglyph *g, double x_units, svg_mat span_ts) {
  double s = fscale(sp, g->font);
  svg_mat m = cn__svg_mat_mul(span_ts, cn__svg_mat_mul(c->ts, c->path_ts));
  m = cn__svg_mat_mul(m, cn__svg_mat_scale(s, s));
  m = cn__svg_mat_mul(m, cn__svg_mat_translate(x_units + g->xoff, -g->yoff));
  return cn__svg_mat_mul(m, cn__svg_mat_scale(1, -1));
}

static cn_result draw_span(svg_loader *L, const text_layout *T, const chunk_out *co, uint16_t s, svg_mat span_ts,
                           const double bbox[4]) {
  const text_span *sp = &T->spans[s];
  if (!sp->font) return CN_OK;
  CN_TRY(draw_decoration(L, T, co, s, 1, span_ts, bbox));
  CN_TRY(draw_decoration(L, T, co, s, 0, span_ts, bbox));
  svg_path p = {0};
  cn_result r = CN_OK;
  uint32_t broken = 0, bitmap = 0;
  for (uint32_t ki = co->first[s - co->s0]; ki < co->first[s - co->s0 + 1] && r == CN_OK; ki++) {
    const lcluster *c = &co->cl[co->order[ki]];
    if (!c->visible) continue;
    double x = 0;
    for (uint32_t k = 0; k < c->ng && r == CN_OK; k++) {
      const lglyph *g = &co->glyphs.g[c->g0 + k];
      svg_mat m = glyph_matrix(sp, c, g, x, span_ts);
      x += g->adv;
      if (T->outline) { /* as a clip: the outline only, colour layers or not */
        if (sp->st->visible && !cn__svg_font_outline(g->font, g->gid, m, T->outline)) broken++;
        continue;
      }
      svg_color_layer layers[16];
      uint32_t nl = cn__svg_font_color_layers(g->font, g->gid, layers, 16);
      if (nl) { /* a colour glyph: the outline so far, then each layer in its colour */
        if (sp->st->visible && p.nops) r = cn__svg_paint_path(L, sp->node, sp->st, &p, T->ctm, bbox, true);
        cn__svg_path_free(&p);
        p = (svg_path){0};
        for (uint32_t li = 0; li < nl && r == CN_OK; li++) {
          svg_path lp = {0};
          if (!cn__svg_font_outline(g->font, layers[li].gid, m, &lp)) broken++;
          svg_style ls = *sp->st;
          if (!layers[li].current) ls.fill = (svg_paint){.kind = SVG_PAINT_COLOR, .color = layers[li].color};
          ls.stroke.kind = SVG_PAINT_NONE;
          if (sp->st->visible && lp.nops) r = cn__svg_paint_path(L, sp->node, &ls, &lp, T->ctm, bbox, true);
          cn__svg_path_free(&lp);
        }
        continue;
      }
      if (cn__svg_font_color_unsupported(g->font, g->gid)) bitmap++; /* drawn as its outline, if any */
      if (!cn__svg_font_outline(g->font, g->gid, m, &p) && !FT_HAS_COLOR(g->font->face)) broken++;
    }
  }
  if (r == CN_OK && sp->st->visible && p.nops) r = cn__svg_paint_path(L, sp->node, sp->st, &p, T->ctm, bbox, true);
  cn__svg_path_free(&p);
  if (r == CN_OK && broken)
    r = cn__svg_warn(L, CN_SVG_SKIP_FONT, sp->node, "%u glyphs of %.60s cannot be loaded (broken font data); not drawn",
                     broken, cn__svg_font_family(L, sp->font));
  if (r == CN_OK && bitmap)
    r = cn__svg_warn(L, CN_SVG_SKIP_TEXT, sp->node, "%u colour glyphs of %.60s (bitmaps, SVG documents or COLRv1 paints) are not drawn in colour",
                     bitmap, cn__svg_font_family(L, sp->font));
  CN_TRY(r);
  return draw_decoration(L, T, co, s, 2, span_ts, bbox);
}

/* ----------------------------------------------------------- the layout */

static cn_result layout_chunk(svg_loader *L, text_layout *T, const text_chunk *c, chunk_out *co, double *last_x,
                              double *last_y, svg_mat *span_ts, double box[4], bool *any) {
  CN_TRY(process_chunk(L, T, c, &co->glyphs));
  glist *gl = &co->glyphs;
  if (!gl->n) return CN_OK;
  L->glyphs += gl->n;
  uint64_t max = L->opt.max_glyphs ? L->opt.max_glyphs : CN_SVG_DEFAULT_MAX_GLYPHS;
  if (L->glyphs > max)
    return cn_fail(CN_ERROR_LIMIT, "line %d: the document lays out more than %llu glyphs", cn__svg_line(T->node),
                   (unsigned long long)max);
  /* clusters */
  co->cl = calloc(gl->n, sizeof *co->cl);
  if (!co->cl) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for text");
  for (uint32_t a = 0; a < gl->n;) {
    uint32_t b = a;
    while (b < gl->n && gl->g[b].cluster == gl->g[a].cluster) b++;
    lcluster *cl = &co->cl[co->ncl++];
    cl->ch = gl->g[a].cluster, cl->g0 = a, cl->ng = b - a;
    cl->span = c->span[cl->ch];
    const text_span *sp = &T->spans[cl->span];
    for (uint32_t k = a; k < b; k++) {
      double w = gl->g[k].adv * fscale(sp, gl->g[k].font);
      cl->advance += w;
      if (w > cl->width) cl->width = w;
    }
    const svg_font *f0 = gl->g[a].font;
    cl->ascent = f0->ascent * fscale(sp, f0), cl->descent = f0->descent * fscale(sp, f0);
    cl->visible = true;
    cl->ts = cn__svg_mat_identity(), cl->path_ts = cn__svg_mat_identity();
    a = b;
  }
  /* the clusters of each span */
  uint32_t smin = c->span[0], smax = c->span[0];
  for (uint32_t i = 0; i < c->n; i++) smin = c->span[i] < smin ? c->span[i] : smin, smax = c->span[i] > smax ? c->span[i] : smax;
  co->s0 = smin, co->nsp = smax - smin + 1;
  co->first = calloc(co->nsp + 1, sizeof *co->first);
  co->order = malloc(co->ncl * sizeof *co->order);
  if (!co->first || !co->order) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for text");
  for (uint32_t i = 0; i < co->ncl; i++) co->first[co->cl[i].span - smin + 1]++;
  for (uint32_t k = 0; k < co->nsp; k++) co->first[k + 1] += co->first[k];
  {
    uint32_t *fill = malloc((co->nsp + 1) * sizeof *fill);
    if (!fill) return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for text");
    memcpy(fill, co->first, (co->nsp + 1) * sizeof *fill);
    for (uint32_t i = 0; i < co->ncl; i++) co->order[fill[co->cl[i].span - smin]++] = i;
    free(fill);
  }
  /* vertical writing: upright characters turn about their centre; the others move down half their height */
  if (T->vertical) {
    for (uint32_t i = 0; i < co->ncl; i++) {
      lcluster *cl = &co->cl[i];
      if (upright(c->cps[cl->ch])) {
        svg_mat m = cn__svg_mat_translate(0, (cl->ascent + cl->descent) / 2);
        cl->path_ts = cn__svg_mat_mul(m, rotate_at(-90, cl->width / 2, -(cl->ascent + cl->descent) / 2));
        cl->ascent = cl->width / 2, cl->descent = -cl->width / 2;
      } else {
        cl->ts = cn__svg_mat_mul(cl->ts, cn__svg_mat_translate(0, (cl->ascent + cl->descent) / 2));
      }
    }
  }
  /* letter-spacing (not after the last cluster; not in cursive scripts) and word-spacing */
  bool ls = false, ws = false;
  for (uint32_t i = 0; i < c->n; i++) {
    ls |= T->spans[c->span[i]].letter_spacing != 0;
    ws |= T->spans[c->span[i]].word_spacing != 0;
  }
  for (uint32_t i = 0; ls && i < co->ncl; i++) {
    lcluster *cl = &co->cl[i];
    if (!spacing_script(c->cps[cl->ch])) continue;
    if (i != co->ncl - 1) cl->advance += T->spans[cl->span].letter_spacing;
    if (!(cl->advance > 0)) cl->width = cl->advance = 0, cl->ng = 0;
  }
  for (uint32_t i = 0; ws && i < co->ncl; i++)
    if (word_separator(c->cps[co->cl[i].ch])) co->cl[i].advance += T->spans[co->cl[i].span].word_spacing;
  /* textLength: per span */
  for (uint32_t sp_i = 0; sp_i < co->nsp; sp_i++) {
    const text_span *sp = &T->spans[co->s0 + sp_i];
    uint32_t a = co->first[sp_i], b = co->first[sp_i + 1];
    if (sp->text_length < 0 || a == b) continue;
    double width = 0;
    for (uint32_t k = a; k < b; k++) width += co->cl[co->order[k]].width;
    if (!sp->spacing_and_glyphs) {
      double f = b - a > 1 ? (sp->text_length - width) / (b - a - 1) : 0;
      for (uint32_t k = a; k < b; k++) co->cl[co->order[k]].advance = co->cl[co->order[k]].width + f;
    } else {
      double f = sp->text_length / width;
      if (!(f >= 0.001)) continue;
      for (uint32_t k = a; k < b; k++) {
        lcluster *cl = &co->cl[co->order[k]];
        cl->ts = cn__svg_mat_mul(cl->ts, cn__svg_mat_scale(f, 1));
        if (c->path) cl->advance *= f, cl->width *= f;
      }
    }
  }
  double total = 0;
  for (uint32_t i = 0; i < co->ncl; i++) total += co->cl[i].advance;
  double x0 = c->path ? 0 : (isnan(c->x) ? *last_x : c->x), y0 = c->path ? 0 : (isnan(c->y) ? *last_y : c->y);
  double cx = 0, cy = 0;
  if (!c->path) {
    double x = anchor_offset(c->anchor, total), y = 0;
    for (uint32_t i = 0; i < co->ncl; i++) {
      lcluster *cl = &co->cl[i];
      uint32_t g = c->gidx[cl->ch];
      double ddx = T->dx[g], ddy = T->dy[g];
      if (!T->vertical) x += ddx, y += ddy;
      else y -= ddx, x += ddy;
      cl->shifted = ddx != 0 || ddy != 0;
      cl->ts = cn__svg_mat_mul(cl->ts, cn__svg_mat_translate(x, y));
      if (T->rotate[g] != 0) cl->ts = cn__svg_mat_mul(cl->ts, cn__svg_mat_rotate(T->rotate[g])), cl->shifted = true;
      x += cl->advance;
    }
    cx = x, cy = y;
  } else {
    double adv = (isnan(c->x) ? 0 : c->x) + c->start_offset + anchor_offset(c->anchor, total);
    double dy_acc = 0;
    for (uint32_t i = 0; i < co->ncl; i++) {
      lcluster *cl = &co->cl[i];
      uint32_t g = c->gidx[cl->ch];
      double hw = cl->width / 2;
      adv += T->dx[g];
      double off = adv + hw, px, py, ang;
      adv += cl->advance;
      if (off < 0 || !path_at(c->path, off, &px, &py, &ang)) {
        cl->visible = false;
        continue;
      }
      cl->shifted = true;
      svg_mat orig = cl->ts;
      svg_mat m = cn__svg_mat_mul(cn__svg_mat_translate(px - hw, py), rotate_at(ang, hw, 0));
      dy_acc += T->dy[g];
      double shift = span_baseline(&T->spans[cl->span], T->vertical);
      if (dy_acc != 0 || shift != 0) m = cn__svg_mat_mul(m, cn__svg_mat_translate(0, dy_acc + shift));
      if (T->rotate[g] != 0) m = cn__svg_mat_mul(m, cn__svg_mat_rotate(T->rotate[g]));
      cl->ts = cn__svg_mat_mul(m, orig);
      cx = px + cl->advance, cy = py;
    }
  }
  svg_mat text_ts = cn__svg_mat_identity();
  if (T->vertical && !c->path) text_ts = rotate_at(90, x0, y0);
  /* each span's transform; the text's box from the font metrics of every cluster */
  for (uint32_t sp_i = 0; sp_i < co->nsp; sp_i++) {
    uint32_t s = co->s0 + sp_i;
    svg_mat m = cn__svg_mat_mul(text_ts, cn__svg_mat_translate(x0, y0));
    if (!c->path) m = cn__svg_mat_mul(m, cn__svg_mat_translate(0, span_baseline(&T->spans[s], T->vertical)));
    span_ts[s] = m;
    for (uint32_t k = co->first[sp_i]; k < co->first[sp_i + 1]; k++) {
      const lcluster *cl = &co->cl[co->order[k]];
      if (!cl->visible) continue;
      double a = cl->advance > 0 ? cl->advance : 1;
      box_add(box, any, cn__svg_mat_mul(m, cn__svg_mat_mul(cl->ts, cl->path_ts)), 0, -cl->ascent, a, -cl->descent);
    }
    const text_span *sp = &T->spans[s];
    for (int k = 0; k < 3 && sp->font; k++) {
      if (!sp->deco[k]) continue;
      svg_path p = {0};
      double b[4];
      decoration_path(T, co, (uint16_t)s, k, m, &p);
      if (cn__svg_path_bounds(&p, cn__svg_mat_identity(), b)) box_add(box, any, cn__svg_mat_identity(), b[0], b[1], b[2], b[3]);
      cn__svg_path_free(&p);
    }
  }
  if (T->vertical && !c->path) {
    double t = cx;
    cx = cy, cy = t;
  }
  *last_x = x0 + cx, *last_y = y0 + cy;
  return CN_OK;
}

cn_result cn__svg_text_draw(svg_loader *L, text_layout *T, const text_chunk *chunks, uint32_t nchunks) {
  chunk_out *co = calloc(nchunks, sizeof *co);
  svg_mat *span_ts = calloc(T->nspans, sizeof *span_ts);
  if (!co || !span_ts) {
    free(co), free(span_ts);
    return cn_fail(CN_ERROR_OUT_OF_MEMORY, "no memory for text");
  }
  cn_result r = CN_OK;
  double last_x = 0, last_y = 0, box[4] = {0, 0, 0, 0};
  bool any = false;
  for (uint32_t i = 0; i < nchunks && r == CN_OK; i++)
    if (chunks[i].n) r = layout_chunk(L, T, &chunks[i], &co[i], &last_x, &last_y, span_ts, box, &any);
  if (r == CN_OK && any) {
    /* bounds for clip paths and masks: the text's box */
    svg_path bp = {0};
    rect_path(&bp, cn__svg_mat_identity(), box[0], box[1], box[2], box[3]);
    cn__svg_bbox_add(L, &bp, T->ctm);
    cn__svg_path_free(&bp);
    for (uint32_t i = 0; i < nchunks && r == CN_OK; i++)
      for (uint32_t k = 0; co[i].first && k < co[i].nsp && r == CN_OK; k++)
        r = draw_span(L, T, &co[i], (uint16_t)(co[i].s0 + k), span_ts[co[i].s0 + k], box);
  }
  for (uint32_t i = 0; i < nchunks; i++) glist_free(&co[i].glyphs), free(co[i].cl), free(co[i].first), free(co[i].order);
  free(co), free(span_ts);
  return r;
}
