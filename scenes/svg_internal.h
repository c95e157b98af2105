/* svg_internal.h: what the files of the SVG loader (engine/svg_*.c) share.
 *
 *   svg_load.c       entry points, libxml2 parsing, ids, the root viewport, stats
 *   svg_render.c     the traversal: structure elements, shapes, effects wrapping
 *   svg_use.c        use, symbol, nested svg viewports, switch
 *   svg_number.c     numbers, lengths, viewBox, preserveAspectRatio
 *   svg_path.c       path data grammar, arcs, basic shapes as paths, bounds
 *   svg_transform.c  matrices and the transform attribute
 *   svg_css.c        <style> sheets: selectors, specificity, declarations
 *   svg_style.c      the cascade, properties and inheritance
 *   svg_color.c      colours
 *   svg_paint.c      paint servers (gradients, context paints) and stroke styles
 *   svg_pattern.c    pattern fills expanded into clipped tiles of geometry
 *   svg_clip.c       clipPath and mask as groups
 *   svg_marker.c     markers expanded into geometry
 *   svg_font.c, svg_text.c, svg_text_layout.c: text (svg_text.h)
 *
 * The traversal of elements (children, use, switch, nested viewports,
 * symbols) runs on an explicit stack of frames on the heap (svg_frame), so
 * XML nesting and use chains are bounded only by memory and the work budget.
 * A clipPath's own clip-path chain is followed iteratively too. Content that
 * is expanded as part of drawing another element (mask and marker content,
 * pattern tiles, the clip-path of a clipPath child) runs as a nested
 * traversal on the same frame stack, one C call level per such expansion:
 * those levels pass through cn__svg_enter(), which fails past
 * CN_SVG_MAX_DEPTH.
 */
#ifndef CN_SVG_INTERNAL_H
#define CN_SVG_INTERNAL_H

#include "cn_svg.h"
#include "scene_internal.h"

#include <libxml/tree.h>

#define SVG_PI 3.14159265358979323846

/* ---------------------------------------------------------- matrices */

typedef struct svg_mat {
  double a, b, c, d, e, f; /* x' = a x + c y + e, y' = b x + d y + f */
} svg_mat;

svg_mat cn__svg_mat_identity(void);
svg_mat cn__svg_mat_mul(svg_mat m, svg_mat n); /* m after n */
svg_mat cn__svg_mat_translate(double x, double y);
svg_mat cn__svg_mat_scale(double x, double y);
svg_mat cn__svg_mat_rotate(double degrees);
bool cn__svg_mat_invert(svg_mat m, svg_mat *out); /* false when singular */
void cn__svg_mat_apply(svg_mat m, double x, double y, double *ox, double *oy);
bool cn__svg_mat_finite(svg_mat m);
/* Parses a transform list; false (and *out = identity) when malformed. */
bool cn__svg_parse_transform(const char *s, svg_mat *out);

/* ----------------------------------------------------- numbers, lengths */

enum {
  SVG_UNIT_NONE, SVG_UNIT_PX, SVG_UNIT_PT, SVG_UNIT_PC, SVG_UNIT_MM, SVG_UNIT_CM, SVG_UNIT_IN,
  SVG_UNIT_EM, SVG_UNIT_EX, SVG_UNIT_PERCENT
};
typedef struct svg_length {
  double v;
  int unit;
} svg_length;
/* Which viewport dimension percentages refer to. */
enum { SVG_AXIS_X, SVG_AXIS_Y, SVG_AXIS_DIAG };

void cn__svg_skip_ws(const char **s);
void cn__svg_skip_comma_ws(const char **s);
/* Parses a number at *s and advances. 1: ok; 0: no number there (*s
 * unchanged); -1: a number that overflows (beyond float range). */
int cn__svg_parse_number(const char **s, double *out);
/* A whole attribute that is exactly one number (whitespace allowed). */
bool cn__svg_parse_number_attr(const char *s, double *out);
/* A length at *s (advancing); false when malformed. */
bool cn__svg_parse_length_at(const char **s, svg_length *out);
/* A whole attribute that is exactly one length. */
bool cn__svg_parse_length(const char *s, svg_length *out);
/* A length in user units; vw/vh is the viewport for percentages, font_size for em. */
double cn__svg_length_user(svg_length l, int axis, double vw, double vh, double font_size);

typedef struct svg_viewbox {
  double x, y, w, h;
} svg_viewbox;
/* "minx miny w h"; false when malformed or w/h <= 0. */
bool cn__svg_parse_viewbox(const char *s, svg_viewbox *out);
typedef struct svg_aspect {
  int align_x, align_y; /* -1: none; 0 min, 1 mid, 2 max */
  bool slice;
} svg_aspect;
void cn__svg_parse_aspect(const char *s, svg_aspect *out); /* defaults to xMidYMid meet */
/* The matrix mapping viewBox vb into the viewport (0,0,w,h). */
svg_mat cn__svg_viewbox_matrix(svg_viewbox vb, svg_aspect ar, double w, double h);

/* --------------------------------------------------------------- colours */

typedef struct svg_color {
  float r, g, b, a;
} svg_color;
/* Parses a colour; *current is set for currentColor. false when malformed. */
bool cn__svg_parse_color(const char *s, size_t n, svg_color *out, bool *current);

/* ----------------------------------------------------------------- paths */

enum { SVG_OP_MOVE, SVG_OP_LINE, SVG_OP_QUAD, SVG_OP_CUBIC, SVG_OP_CLOSE };
/* A path in user space. Points: MOVE/LINE 1, QUAD 2, CUBIC 3, CLOSE 0.
 * ops[i] bit 7 marks a segment that continues an arc (no vertex for markers). */
#define SVG_OP_ARC_CONT 0x80
typedef struct svg_path {
  uint8_t *ops;
  double *pts; /* x, y pairs */
  size_t nops, npts, cap_ops, cap_pts;
  bool oom;
} svg_path;

void cn__svg_path_free(svg_path *p);
void cn__svg_path_move(svg_path *p, double x, double y);
void cn__svg_path_line(svg_path *p, double x, double y);
void cn__svg_path_quad(svg_path *p, double x1, double y1, double x, double y);
void cn__svg_path_cubic(svg_path *p, double x1, double y1, double x2, double y2, double x, double y);
void cn__svg_path_close(svg_path *p);
/* An SVG arc from (x0,y0) to (x,y) as cubics. */
void cn__svg_path_arc(svg_path *p, double x0, double y0, double rx, double ry, double angle, bool large, bool sweep,
                  double x, double y);
/* Parses path data, keeping everything before the first error (SVG's rule).
 * Returns false when there was an error. */
bool cn__svg_parse_path_data(const char *d, svg_path *p);
/* Basic shapes. */
void cn__svg_path_rect(svg_path *p, double x, double y, double w, double h, double rx, double ry);
void cn__svg_path_ellipse(svg_path *p, double cx, double cy, double rx, double ry);
/* "x,y x,y ..." (an odd trailing number is dropped); close for polygon. */
void cn__svg_parse_points(const char *s, svg_path *p, bool close);
/* Bounds of the points (control points included) mapped by m: x0 y0 x1 y1.
 * false for an empty path. */
bool cn__svg_path_bounds(const svg_path *p, svg_mat m, double box[4]);
/* Bounds of the curve itself (curve extrema), in user space. */
bool cn__svg_path_tight_bounds(const svg_path *p, double box[4]);

/* ------------------------------------------------------------------- CSS */

typedef struct svg_sheet svg_sheet;
/* Parses the text of all <style> elements (CSS subset of docs/SVG.md).
 * Unsupported selectors never match; unsupported at-rules are skipped. */
cn_result cn__svg_sheet_parse(const char *text, size_t len, svg_sheet **out);
void cn__svg_sheet_free(svg_sheet *s);

typedef struct svg_decl {
  const char *name, *value;
  uint32_t name_len, value_len;
  bool important;
} svg_decl;
typedef void (*svg_decl_fn)(void *user, const svg_decl *d);
/* Calls fn for each declaration of a "name: value; ..." list. */
void cn__svg_parse_declarations(const char *text, size_t len, svg_decl_fn fn, void *user);
/* Calls fn for each declaration of the rules matching node, in cascade order
 * (specificity, then order); important ones included (d->important). Adds
 * the selector tests done to *work. */
void cn__svg_sheet_match(const svg_sheet *s, xmlNode *node, svg_decl_fn fn, void *user, uint64_t *work);

/* ----------------------------------------------------------------- style */

/* dominant-baseline and alignment-baseline values */
enum { SVG_BASELINE_AUTO, SVG_BASELINE_BASELINE, SVG_BASELINE_ALPHABETIC, SVG_BASELINE_IDEOGRAPHIC,
       SVG_BASELINE_HANGING, SVG_BASELINE_MATHEMATICAL, SVG_BASELINE_CENTRAL, SVG_BASELINE_MIDDLE,
       SVG_BASELINE_TEXT_AFTER_EDGE, SVG_BASELINE_TEXT_BEFORE_EDGE, SVG_BASELINE_NO_CHANGE };

enum { SVG_PAINT_NONE, SVG_PAINT_COLOR, SVG_PAINT_CURRENT, SVG_PAINT_REF, SVG_PAINT_CONTEXT_FILL,
       SVG_PAINT_CONTEXT_STROKE };
typedef struct svg_paint {
  uint8_t kind;          /* SVG_PAINT_* */
  uint8_t fallback_kind; /* REF: what to use when the server is unusable */
  svg_color color, fallback;
  xmlNode *ref;          /* REF: the paint server */
  uint32_t missing_line; /* a url() to a missing id: the line, for the warning */
} svg_paint;

typedef struct svg_style {
  /* inherited */
  svg_paint fill, stroke;
  float fill_opacity, stroke_opacity;
  uint8_t fill_rule, clip_rule; /* CN_RULE_* */
  svg_length stroke_width, dash_offset;
  float miter_limit;
  uint8_t join, cap;
  const char *dasharray; /* NULL: none */
  uint32_t dasharray_len;
  svg_color color;
  bool visible;
  xmlNode *marker[3]; /* start, mid, end */
  uint8_t paint_order[3]; /* 0 fill, 1 stroke, 2 markers */
  double font_size;
  bool image_pixelated; /* image-rendering: optimizeSpeed, pixelated, crisp-edges (nearest texel) */
  /* text (inherited) */
  const char *font_family; /* the CSS list as written, or NULL (the default) */
  uint32_t font_family_len;
  const char *font_variations; /* font-variation-settings, or NULL (normal) */
  uint32_t font_variations_len;
  uint16_t font_weight;    /* 100..900 */
  uint8_t font_style;      /* 0 normal, 1 italic, 2 oblique */
  uint8_t font_stretch;    /* 1 ultra-condensed .. 5 normal .. 9 ultra-expanded */
  bool small_caps;
  bool kerning;            /* font-kerning not none and kerning not 0 */
  uint8_t text_anchor;     /* 0 start, 1 middle, 2 end */
  uint8_t dominant_baseline; /* SVG_BASELINE_* */
  bool vertical;           /* writing-mode tb, tb-rl, vertical-* */
  bool rtl;                /* direction: rtl */
  svg_length letter_spacing, word_spacing;
  /* text (not inherited) */
  uint8_t alignment_baseline; /* SVG_BASELINE_* */
  uint8_t decoration;      /* bits: 1 underline, 2 overline, 4 line-through (this element's own) */
  uint8_t decoration_all;  /* this element's and its ancestors' decorations (kept inherited) */
  uint8_t baseline_shift_kind; /* 0 baseline, 1 sub, 2 super, 3 length */
  svg_length baseline_shift;
  bool bidi_override;      /* unicode-bidi: bidi-override */
  /* not inherited */
  float opacity;
  bool display_none;
  xmlNode *clip_path, *mask;
  bool clip_missing, mask_missing;
  uint8_t blend; /* CN_BLEND_* */
  bool isolate;
  bool filter;
  bool overflow_visible, overflow_set;
  svg_color stop_color;
  float stop_opacity;
  bool mask_alpha; /* mask-type: alpha */
  const char *transform; /* the CSS transform property (overrides the attribute), or NULL */
  uint32_t transform_len;
} svg_style;

struct svg_loader;
/* The initial style of the root. */
void cn__svg_style_initial(svg_style *s);
/* Computes node's style from its parent's: presentation attributes, sheet
 * rules, style="" with !important, inherit. */
void cn__svg_style_compute(struct svg_loader *L, xmlNode *node, const svg_style *parent, svg_style *out);
/* The style of a referenced element (mask, clipPath, marker, gradient
 * stop): computed down the chain of its ancestors. */
cn_result cn__svg_style_of(struct svg_loader *L, xmlNode *node, svg_style *out);

/* ---------------------------------------------------------------- loader */

typedef struct svg_id_entry {
  const char *id;
  xmlNode *node;
} svg_id_entry;

/* One paint of a context element (SVG 2 context-fill/context-stroke): the
 * element's fill or stroke with what is needed to make it again. */
typedef struct svg_context_paint {
  svg_paint paint; /* never a context-* kind: those are resolved when the context is set */
  svg_color color; /* the context element's currentColor */
  svg_mat ctm;
  double bbox[4];
  bool has_bbox;
} svg_context_paint;

typedef struct svg_loader {
  cn_scene_builder *b;
  xmlDoc *doc;
  cn_svg_options opt;
  cn_svg_stats *stats;
  svg_sheet *sheet;
  xmlNode *root; /* the root <svg> */
  svg_id_entry *ids; /* open addressing, cap a power of two */
  size_t id_cap, id_count;
  /* current viewport size (user units) for percentages */
  double vw, vh;
  /* nested expansions through cn__svg_enter (C recursion) */
  uint32_t depth;
  /* the chain of references being expanded (cycles), innermost last; each
   * node in it has _private set */
  xmlNode **active;
  uint32_t nactive, cap_active;
  /* the traversal's frame stack (svg_frame), in chunks that never move */
  struct svg_frame **chunks;
  uint32_t nchunks, cap_chunks;
  uint32_t nframes;
  /* bounding box accumulators (objectBoundingBox clip/mask), innermost last;
   * shapes add to those from acc_floor on (clip, mask, marker and pattern
   * content raise it: it is part of no one's bounds) */
  struct svg_bbox_acc *acc;
  uint32_t nacc, cap_acc, acc_floor;
  uint64_t work; /* selector tests and elements visited: bounded */
  /* context-fill / context-stroke: the context element's paints (markers: the
   * shape; use: the use element); valid when has_context */
  svg_context_paint context[2];
  bool has_context;
  /* external files (svg_image.c) */
  char *doc_dir;               /* real path of the directory relative references start from; NULL: none */
  struct svg_loader *top;      /* the main document's loader (owns roots, sub-documents, image cache) */
  struct svg_loader *parent;   /* a sub-document while it renders: the loader it renders for */
  char *doc_path;              /* a sub-document file's real path (NULL: the main document, a data: URL) */
  char **roots;                /* top: real paths of the allowed trees */
  uint32_t nroots;
  struct svg_subdoc *subdocs;  /* top: sub-documents loaded from files */
  uint32_t nsubdocs;
  struct svg_image_entry *images; /* per document: decoded images by href */
  uint32_t nimages;
  /* text: the font database (created with the first text) and glyphs laid out */
  struct svg_fontdb *fonts;
  uint64_t glyphs;
} svg_loader;

/* A bounding box being gathered in the space of `inv` (device -> element user space). */
typedef struct svg_bbox_acc {
  svg_mat to_user; /* element's user space <- the ctm space of shapes */
  svg_mat ctm_inv;
  double box[4];
  bool any;
} svg_bbox_acc;

/* Steps (elements visited, path commands, selector tests) a document may take. */
#define SVG_MAX_WORK (1ull << 25)

/* Element tests. */
bool cn__svg_is(const xmlNode *n, const char *name); /* an SVG element named name */
bool cn__svg_is_element(const xmlNode *n);           /* any element in the SVG namespace (or none) */
/* The value of attribute name (no namespace, or xlink: for "href"), or NULL. */
const char *cn__svg_attr(const xmlNode *n, const char *name);
const char *cn__svg_href(const xmlNode *n); /* href or xlink:href, without the '#'; NULL if not local */
const char *cn__svg_href_raw(const xmlNode *n); /* href or xlink:href as written (leading spaces skipped), or NULL */
xmlNode *cn__svg_lookup(svg_loader *L, const char *id, size_t len);
/* Resolves "url(#id)" (with optional quotes); NULL when not a url or missing
 * (then *is_url says whether it was a url). */
xmlNode *cn__svg_resolve_url(svg_loader *L, const char *s, size_t n, bool *is_url, size_t *consumed);
int cn__svg_line(const xmlNode *n);

/* Depth bookkeeping: fails past CN_SVG_MAX_DEPTH (naming node's line). */
cn_result cn__svg_enter(svg_loader *L, const xmlNode *n);
void cn__svg_leave(svg_loader *L);
/* Reference chain: false when ref is already being expanded (a cycle; the
 * caller warns) or when there is no memory for the chain (*oom set when oom
 * is not NULL; else that counts as a cycle). */
bool cn__svg_push_ref(svg_loader *L, xmlNode *ref, const xmlNode *from);
void cn__svg_pop_ref(svg_loader *L);
/* Is n in the chain of references being expanded? */
bool cn__svg_is_active(const svg_loader *L, const xmlNode *n);

/* Records a warning (the element is skipped). In strict mode returns an
 * error; else CN_OK. */
cn_result cn__svg_warn(svg_loader *L, cn_svg_skip kind, const xmlNode *n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
void cn__svg_skip(svg_loader *L, cn_svg_skip kind);
/* Counts one unit of work; fails past SVG_MAX_WORK. */
cn_result cn__svg_work(svg_loader *L, const xmlNode *n, uint64_t units);

/* svg_render.c: the traversal */

/* One frame of the traversal: an element being rendered (its style,
 * transform, the groups it opened, where its children are) or a list of
 * children rendered with a given style and transform. A step function runs
 * the frame until it must wait for frames it pushes (children, a use's
 * target) and says where to go on (phase); the frame is popped when done. */
typedef struct svg_frame svg_frame;
struct svg_use_state;
struct svg_frame {
  uint8_t kind;  /* SVG_FRAME_* */
  uint8_t phase; /* where the step function goes on (SVG_PHASE_*) */
  uint8_t then;  /* the phase after the children */
  uint8_t after; /* element frames: what follows the content (SVG_AFTER_*) */
  bool single;   /* iterate only the first node */
  bool clip;     /* a viewport's clip group is open */
  bool group;    /* SVG_AFTER_BOUNDS: a blend group is part of the effects */
  float alpha;   /* a group opacity folded into the paints */
  xmlNode *node;
  svg_frame *parent; /* its cst and cctm are this element's parent style and transform */
  /* what the children (or a use's target) are rendered with */
  const svg_style *cst;
  svg_mat cctm;
  xmlNode *cursor; /* the next child */
  svg_mat m;       /* element frames: the element's transform */
  uint32_t mark, pushed; /* effects: elements before the content, groups to pop */
  double saved_vw, saved_vh;
  struct svg_use_state *use; /* a use element's state (heap) */
  svg_style st;              /* element frames: the element's style (last: not cleared) */
};
enum { SVG_FRAME_ELEMENT, SVG_FRAME_CHILDREN };
enum {
  SVG_PHASE_START,         /* an element: style, transform, effects, then its content */
  SVG_PHASE_SYMBOL,        /* a symbol (or svg) instanced by a use */
  SVG_PHASE_CHILDREN,      /* the next child, then `then` */
  SVG_PHASE_VIEWPORT_END,  /* a viewport's children are done */
  SVG_PHASE_AFTER_CONTENT, /* the effects are closed */
  SVG_PHASE_USE_DRY,       /* a use: the dry run for its bounds is done */
  SVG_PHASE_USE_END,       /* a use: its target is done */
  SVG_PHASE_DONE
};
enum { SVG_AFTER_NONE, SVG_AFTER_POP, SVG_AFTER_BOUNDS };

/* Pushes a frame (zeroed but for kind and parent); NULL when out of memory. */
svg_frame *cn__svg_frame_push(svg_loader *L, uint8_t kind, svg_frame *parent);
/* Children frames: iterate the children of f->cursor's parent from
 * f->cursor with f->cst and f->cctm, pushing an element frame for each. */
void cn__svg_frame_children(svg_frame *f, xmlNode *first, const svg_style *st, svg_mat ctm);

/* Renders node (any element) with the parent's style and transform: runs
 * the traversal to completion. */
cn_result cn__svg_render_node(svg_loader *L, xmlNode *node, const svg_style *parent, svg_mat ctm);
/* Renders the element children of node (a nested traversal). */
cn_result cn__svg_render_children(svg_loader *L, xmlNode *node, const svg_style *style, svg_mat ctm);
/* Frees the frame stack (at the end of a load). */
void cn__svg_frames_free(svg_loader *L);
/* Emits path p with transform ctm; *id gets the path index. Fails on absurd
 * coordinates (naming node). */
cn_result cn__svg_emit_path(svg_loader *L, const xmlNode *node, const svg_path *p, svg_mat ctm, uint32_t *id);
/* The geometry of a shape element (path, rect, circle, ...); false if node
 * is not a shape or is not rendered (zero size). */
bool cn__svg_shape_path(svg_loader *L, xmlNode *node, const svg_style *st, svg_path *p);
bool cn__svg_is_shape(const xmlNode *n);
/* Paints path p (user space of ctm) with st's fill, stroke and paint order,
 * paint servers sized by bbox (x0 y0 x1 y1 in user space); the fill rule is
 * st's unless nonzero is set. For text, whose glyph paths use the text's box. */
cn_result cn__svg_paint_path(svg_loader *L, xmlNode *n, const svg_style *st, const svg_path *p, svg_mat ctm,
                             const double bbox[4], bool nonzero);
/* Graphics and container elements (what a switch chooses among). */
bool cn__svg_is_renderable(const xmlNode *n);
/* Bounding boxes of content in the user space of m: begin (*ok false when m
 * is singular: then no end), render, end (false when nothing had geometry). */
cn_result cn__svg_bbox_begin(svg_loader *L, svg_mat m, bool *ok);
bool cn__svg_bbox_end(svg_loader *L, double box[4]);
/* Adds a shape's geometry to the open bounding-box accumulators. */
void cn__svg_bbox_add(svg_loader *L, const svg_path *p, svg_mat ctm);

/* The transform attribute attr of n (or the CSS transform property of st
 * for "transform"), with transform-origin, whose percentages and keywords
 * refer to a ref_w x ref_h box. */
svg_mat cn__svg_transform_attr(svg_loader *L, const xmlNode *n, const char *attr, const svg_style *st, double ref_w,
                           double ref_h);

/* svg_use.c: the content of use, nested svg and switch elements in frames */
/* A use element's content (f is its frame): its target, pushed as a frame. */
cn_result cn__svg_use_begin(svg_loader *L, svg_frame *f);
/* The later phases of a use (SVG_PHASE_USE_*). */
cn_result cn__svg_use_step(svg_loader *L, svg_frame *f);
/* Frees f->use (when the frame is popped). */
void cn__svg_use_free(svg_loader *L, svg_frame *f);
/* A symbol or svg instanced by a use (SVG_PHASE_SYMBOL). */
cn_result cn__svg_symbol_begin(svg_loader *L, svg_frame *f);
/* A new viewport of size w x h at x, y (nested <svg>, or a symbol): its
 * clip, viewport size, and f's children; SVG_PHASE_VIEWPORT_END then calls
 * cn__svg_viewport_end. */
cn_result cn__svg_viewport_begin(svg_loader *L, svg_frame *f, const svg_style *st, svg_mat ctm, double x, double y,
                                 double w, double h);
cn_result cn__svg_viewport_end(svg_loader *L, svg_frame *f);
/* The child of a switch that renders, or NULL. */
xmlNode *cn__svg_switch_choice(xmlNode *sw);
/* Conditional processing attributes (systemLanguage, requiredExtensions). */
bool cn__svg_conditions_pass(const xmlNode *n);

/* svg_paint.c */
/* Makes the paint for a fill or stroke of a shape with user-space bounds
 * bbox (x0 y0 x1 y1) under ctm; *paint = CN_NONE when nothing is painted. */
cn_result cn__svg_make_paint(svg_loader *L, const xmlNode *node, const svg_paint *p, const svg_style *st, float opacity,
                         svg_mat ctm, const double bbox[4], uint32_t *paint);
/* Sets the context paints from an element with style st, transform ctm and
 * bounds bbox (NULL: unknown), saving the previous ones in *saved. */
void cn__svg_context_push(svg_loader *L, const svg_style *st, svg_mat ctm, const double *bbox, svg_context_paint saved[2],
                      bool *saved_valid);
void cn__svg_context_pop(svg_loader *L, const svg_context_paint saved[2], bool saved_valid);
/* The stroke description of a style (dashes in dash_buf, cap 64); false
 * when the stroke is not drawn (width <= 0). */
bool cn__svg_make_stroke(svg_loader *L, const svg_style *st, cn_stroke_desc *out, float *dash_buf, uint32_t dash_cap);

/* svg_pattern.c */
/* Fills path (emitted, with rule) with pattern as tiles of geometry; shape
 * bounds bbox in the space of ctm. *painted false: the caller uses the
 * fallback colour (bounds without area, too many tiles, a cycle). */
cn_result cn__svg_fill_pattern(svg_loader *L, xmlNode *node, xmlNode *pattern, uint32_t path, uint32_t rule,
                           float opacity, svg_mat ctm, const double bbox[4], bool *painted);

/* svg_clip.c */
/* Opens the groups a clip-path reference asks for around content in an
 * element whose user space is ctm and bounds bbox (NULL: unknown; units
 * objectBoundingBox then need it). *pushed counts groups to pop; *hidden is
 * set when the clip hides everything (then nothing is pushed). */
cn_result cn__svg_push_clip_path(svg_loader *L, xmlNode *clip, const xmlNode *user, svg_mat ctm, const double *bbox,
                             uint32_t *pushed, bool *hidden);
/* Emits the mask group of mask and opens the masked group (mode, alpha).
 * *pushed counts groups to pop; *hidden when the mask hides everything. */
cn_result cn__svg_push_mask(svg_loader *L, xmlNode *mask, const xmlNode *user, svg_mat ctm, const double *bbox,
                        uint32_t mode, float alpha, uint32_t *pushed, bool *hidden);

/* svg_image.c */
/* <image>: raster images as an image-painted rectangle, SVG images as a
 * sub-document in the image's viewport. */
cn_result cn__svg_render_image(svg_loader *L, xmlNode *node, const svg_style *st, svg_mat ctm);
/* <use href="file.svg#id">: opens the other document (confined, cached) and
 * finds the element; *sub NULL when not usable (a warning was recorded).
 * Render the element with *sub between external_begin and external_end. */
cn_result cn__svg_open_external(svg_loader *L, const xmlNode *node, const char *href, svg_loader **sub, xmlNode **ref);
void cn__svg_external_begin(svg_loader *L, svg_loader *sub);
void cn__svg_external_end(svg_loader *L, svg_loader *sub);
/* Sets up the main loader's document directory and allowed roots from the
 * options (path: the document file, or NULL). */
cn_result cn__svg_resources_init(svg_loader *L, const char *path);
/* Frees what svg_image.c attached to a loader (sub-documents of the top). */
void cn__svg_resources_free(svg_loader *L);

/* svg_load.c, for sub-documents */
cn_result cn__svg_parse_xml(const void *data, size_t size, xmlDoc **out);
cn_result cn__svg_index_document(svg_loader *L, xmlNode *root);
void cn__svg_loader_free(svg_loader *L);

/* svg_marker.c */
cn_result cn__svg_render_markers(svg_loader *L, xmlNode *node, const svg_style *st, const svg_path *p, svg_mat ctm);

#endif
