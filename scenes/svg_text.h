/* svg_text.h: what the text files of the SVG loader share.
 *
 *   svg_font.c         the font database of one load: fontconfig enumeration
 *                      (a private configuration with only the option's font
 *                      directories, or the system's), CSS font matching,
 *                      per-character fallback, FreeType faces with their
 *                      variations, HarfBuzz fonts, metrics, glyph outlines
 *   svg_text.c         <text>: characters and whitespace, the element tree
 *                      (tspan, tref, textPath, a), per-character x/y/dx/dy/
 *                      rotate, chunks and spans, text properties
 *   svg_text_layout.c  bidi, shaping with fallback, letter/word spacing,
 *                      textLength, anchors, baselines, text on a path,
 *                      decorations, and the glyph paths drawn into the scene
 */
#ifndef CN_SVG_TEXT_H
#define CN_SVG_TEXT_H

#include "svg_internal.h"

#include <ft2build.h>
#include FT_FREETYPE_H
#include <hb.h>

/* ------------------------------------------------------------ fonts */

#define SVG_MAX_VARIATIONS 16
/* Distinct font instances (face + variation settings) one load keeps. */
#define SVG_MAX_FONT_INSTANCES 256

typedef struct svg_variation {
  uint32_t tag;
  float value;
} svg_variation;

typedef struct svg_font {
  FT_Face face;
  hb_font_t *hb;
  uint32_t entry;  /* index in the database */
  int upem;
  /* metrics in font units (y up) */
  double ascent, descent, x_height, underline_pos, underline_thick, strike_pos, sub_off, super_off;
  bool colr;       /* has colour layers (COLR) */
  uint32_t nvar;
  svg_variation var[SVG_MAX_VARIATIONS];
} svg_font;

/* What a span asks for. */
typedef struct svg_font_query {
  const char *families; /* the font-family value (a CSS list) or NULL */
  uint32_t families_len;
  uint16_t weight;      /* 100..900 */
  uint8_t style;        /* 0 normal, 1 italic, 2 oblique */
  uint8_t stretch;      /* 1 ultra-condensed .. 5 normal .. 9 ultra-expanded */
  float size;           /* font-size: the opsz axis follows it unless set (font-optical-sizing: auto) */
  uint32_t nvar;
  svg_variation var[SVG_MAX_VARIATIONS];
} svg_font_query;

typedef struct svg_fontdb svg_fontdb;

/* The database of L's options (created on first use; failures name the
 * directory or the fontconfig step). */
cn_result cn__svg_fontdb_get(svg_loader *L, svg_fontdb **out);
void cn__svg_fontdb_destroy(svg_fontdb *db);
/* The best font for q (the family list in order, then the serif generic);
 * NULL when the database has no usable font at all (warned). node names the
 * element in warnings. */
cn_result cn__svg_font_select(svg_loader *L, const xmlNode *node, const svg_font_query *q, svg_font **out);
/* A font other than those in used[] that has character cp, preferring base's
 * style; NULL when none. */
cn_result cn__svg_font_fallback(svg_loader *L, const xmlNode *node, uint32_t cp, const svg_font *base,
                                svg_font *const *used, uint32_t nused, svg_font **out);
/* The family name of a font (for warnings). */
const char *cn__svg_font_family(svg_loader *L, const svg_font *f);
/* Appends glyph gid's outline to p, each point (x, y) in font units (y up)
 * mapped by m. false when the glyph cannot be loaded (broken font data). */
bool cn__svg_font_outline(svg_font *f, uint32_t gid, svg_mat m, svg_path *p);
/* COLRv0 layers of gid: up to cap (glyph, rgba or current colour) entries;
 * returns the count (0: not a colour glyph). */
typedef struct svg_color_layer {
  uint32_t gid;
  bool current;     /* the text's fill */
  svg_color color;
} svg_color_layer;
uint32_t cn__svg_font_color_layers(svg_font *f, uint32_t gid, svg_color_layer *layers, uint32_t cap);
/* A colour glyph this loader does not draw in colour (COLRv1 paints,
 * SVG-in-OpenType documents): its outline, if any, is drawn instead. */
bool cn__svg_font_color_unsupported(svg_font *f, uint32_t gid);

/* --------------------------------------------------------------- text */

/* A span: the characters of one text node inside one chunk, with one style. */
typedef struct text_span {
  xmlNode *node;            /* the element that holds the text */
  const svg_style *st;
  svg_font *font;           /* NULL: no usable font (not drawn) */
  double size;              /* font-size */
  double letter_spacing, word_spacing;
  double shift_px;          /* baseline-shift lengths summed (up = positive) */
  int8_t shift_sub;         /* sub (-1 each) and super (+1 each) shifts, resolved with the font */
  uint8_t dominant, alignment;
  double text_length;       /* < 0: none */
  bool spacing_and_glyphs;  /* lengthAdjust */
  const svg_style *deco[3]; /* underline, overline, line-through: the style painting it, or NULL */
  xmlNode *deco_node[3];
} text_span;

/* A chunk: characters laid out from one absolute position (or along one path). */
typedef struct text_chunk {
  uint32_t n;               /* characters */
  const uint32_t *cps;      /* code points */
  const uint32_t *gidx;     /* index of each among all of the text's characters (for dx/dy/rotate) */
  const uint16_t *span;     /* span of each */
  double x, y;              /* NAN: continue from the previous chunk */
  uint8_t anchor;
  const svg_path *path;     /* text on a path: the path in user space, else NULL */
  double start_offset;
} text_chunk;

/* The text element being laid out. */
typedef struct text_layout {
  xmlNode *node;            /* the <text> */
  const svg_style *st;
  svg_mat ctm;
  text_span *spans;
  uint32_t nspans;
  const double *dx, *dy, *rotate; /* per character of the whole text (0 when unset) */
  bool vertical;
  svg_path *outline;        /* not NULL: the glyphs (and decorations) are appended here, not drawn */
} text_layout;

/* svg_text_layout.c: lays out and draws the chunks of one text element. */
cn_result cn__svg_text_draw(svg_loader *L, text_layout *T, const text_chunk *chunks, uint32_t nchunks);

/* svg_text.c: renders a <text> element (its style computed, ctm its user space). */
cn_result cn__svg_render_text(svg_loader *L, xmlNode *node, const svg_style *st, svg_mat ctm);
/* The outline of a <text> element (visible glyphs and decorations, in its
 * user space) appended to out: text as a clipPath child. */
cn_result cn__svg_text_outline(svg_loader *L, xmlNode *node, const svg_style *st, svg_path *out);

#endif
