/* cn_svg.h: loading SVG files into an encoded scene (engine/svg_*.c).
 *
 *   cn_scene_builder *b; cn_scene_builder_create(&b);
 *   cn_scene_data scene; cn_svg_stats stats;
 *   cn_result r = cn_svg_load_file(b, "drawing.svg", NULL, &scene, &stats);
 *   if (r != CN_OK) fprintf(stderr, "%s\n", cn_last_error());
 *
 * The XML is parsed by libxml2 with no network access, no external entities,
 * no DTD loading and no depth limit (XML_PARSE_HUGE; the input is bounded by
 * max_bytes). Nesting has no fixed limit: the traversal keeps its state on
 * the heap, bounded by the work budget and the scene limits. Supported: the
 * structure, shape, transform, styling (presentation attributes, style="",
 * <style> sheets), clipping, masking, blend group, gradient and marker
 * features of SVG 1.1/2 listed in docs/SVG.md (pattern fills are expanded
 * into clipped tiles of geometry), raster images (PNG, JPEG, GIF, WebP:
 * cn_image.h) and SVG images from data: URLs and files, use elements
 * referencing other files, and text (text, tspan, tref, textPath: fonts
 * matched with fontconfig, outlines from FreeType, shaping with HarfBuzz,
 * bidi with FriBidi; glyphs become paths of the scene). Filters and
 * foreignObject are skipped and counted in stats.skipped; so are images and
 * references that cannot be drawn, text features not drawn and font
 * fallbacks (each with a warning).
 *
 * Errors (the call fails, cn_last_error() says what and on which line):
 *   CN_ERROR_IO          the file cannot be read
 *   CN_ERROR_PARSE       empty input, malformed XML, a root that is not <svg>,
 *                        an entity this loader does not expand
 *   CN_ERROR_OUT_OF_MEMORY  no memory, in the loader or in libxml2
 *   CN_ERROR_LIMIT       input larger than max_bytes (a file: from its size,
 *                        before reading it), mask/marker/pattern content
 *                        nested deeper than CN_SVG_MAX_DEPTH, more work than
 *                        the budget, more output than the scene limits,
 *                        absurd sizes or coordinates (beyond CN_SVG_MAX_SIZE
 *                        and CN_SVG_MAX_COORD)
 *   CN_ERROR_STATE/...   only in strict mode: the first warning (below)
 * Warnings (the element in error is skipped, as SVG says; counted in stats):
 *   a reference to a missing element, a reference cycle (use, clip-path,
 *   mask, marker, gradient href), a reference to the wrong kind of element.
 */
#ifndef CN_SVG_H
#define CN_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cn_scene_api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Content expanded while drawing another element (mask content, marker
 * content, pattern tiles, the clip-path of a clipPath's child) nested deeper
 * than this fails with CN_ERROR_LIMIT: each such level is one C recursion of
 * the traversal, and at this depth it needs under 512 KB of stack, so load
 * from a thread with at least 1 MB of stack. Elements, use chains and
 * clip-path chains nest without a fixed limit (their state is on the heap). */
#define CN_SVG_MAX_DEPTH 256u
/* Default largest input accepted (options.max_bytes = 0). */
#define CN_SVG_DEFAULT_MAX_BYTES (256u << 20)
/* Largest output width or height in pixels. */
#define CN_SVG_MAX_SIZE 65536.0
/* Largest device-pixel coordinate magnitude of any path. */
#define CN_SVG_MAX_COORD 1.0e9

typedef struct cn_svg_options {
  /* Output size in pixels. 0 and 0: the SVG's own size (width/height, else
   * its viewBox, else 100x100). One of them: the other follows the SVG's
   * aspect ratio. Both: the SVG is fitted inside, keeping its aspect ratio,
   * centred. */
  float width, height;
  /* Multiplies the output size (0: 1). */
  float scale;
  /* Turn the first warning into an error (CN_ERROR_PARSE). */
  bool strict;
  /* Largest input in bytes (0: CN_SVG_DEFAULT_MAX_BYTES). */
  uint64_t max_bytes;
  /* Output limits (0: the builder's defaults, see cn_scene_limits). */
  uint32_t max_elements, max_segments;
  /* Fonts for text. font_dir_count > 0: only the fonts in these directories
   * (and their subdirectories) are used, none of the system's; the generic
   * families map to generic_families[] (sans-serif, serif, monospace,
   * cursive, fantasy; a NULL entry: CN_SVG_DEFAULT_GENERIC_FAMILIES) and text
   * without font-family uses the sans-serif one. font_dir_count 0: the
   * system's fontconfig configuration, generic families included. A
   * directory that cannot be read fails the load (CN_ERROR_IO) once the
   * document has text. */
  const char *const *font_dirs;
  uint32_t font_dir_count;
  const char *generic_families[5];
  /* Most glyphs one document may lay out (0: CN_SVG_DEFAULT_MAX_GLYPHS);
   * more fails the load with CN_ERROR_LIMIT. */
  uint32_t max_glyphs;
  /* External files: <image href="pic.png">, <use href="other.svg#id"> and
   * SVG images are read relative to the document (cn_svg_load_file: its
   * directory; cn_svg_load_memory: base_dir, without which every relative
   * reference is refused). A file is read only when its real path (symlinks
   * resolved) lies inside the document's directory tree, or inside one of
   * resource_roots; everything else (".." escapes, absolute paths and file:
   * URLs outside, symlinks leading out) is refused with a warning, and so is
   * any other URL scheme (http, https, ...): the network is never used. */
  const char *base_dir;
  const char *const *resource_roots;
  uint32_t resource_root_count;
} cn_svg_options;

/* The generic families used with font_dirs, as resvg's test harness sets them. */
#define CN_SVG_DEFAULT_GENERIC_FAMILIES {"Noto Sans", "Noto Serif", "Noto Mono", "Yellowtail", "Sedgwick Ave Display"}
/* Default glyph limit per document. */
#define CN_SVG_DEFAULT_MAX_GLYPHS (1u << 20)
/* Characters of one text element beyond this fail the load (CN_ERROR_LIMIT). */
#define CN_SVG_MAX_TEXT_CHARS (1u << 20)

/* Kinds of skipped content (stats.skipped[kind]). */
typedef enum cn_svg_skip {
  CN_SVG_SKIP_TEXT,         /* text features not drawn (vertical writing, colour glyph layers, ...) */
  CN_SVG_SKIP_FILTER,       /* elements with a filter (not rendered) */
  CN_SVG_SKIP_IMAGE,        /* images not drawn: unreadable, unsupported format, over the limits */
  CN_SVG_SKIP_PATTERN,      /* patterns not expanded (strokes, > 4096 tiles): the fallback colour is used */
  CN_SVG_SKIP_FOREIGN,      /* foreignObject, elements of other namespaces */
  CN_SVG_SKIP_UNKNOWN,      /* unknown SVG elements */
  CN_SVG_SKIP_MISSING_REF,  /* references to missing or unsuitable elements */
  CN_SVG_SKIP_CYCLE,        /* reference cycles */
  CN_SVG_SKIP_REFUSED,      /* external references refused (network, outside the allowed tree) */
  CN_SVG_SKIP_FONT,         /* font fallbacks: a family not found, a character no font has
                               (drawn as the font's missing glyph), a font file that fails to load */
  CN_SVG_SKIP_COUNT
} cn_svg_skip;

/* Name of a skip kind ("text", "filter", ...); never NULL. */
/* Parses an SVG/CSS colour (names, #rgb, #rrggbb(aa), rgb(), rgba(), hsl(),
 * transparent) into straight-alpha rgba in [0, 1]. false when malformed or
 * currentColor (which has no value outside a document). */
CN_API bool cn_svg_parse_color(const char *text, float rgba[4]);

CN_API const char *cn_svg_skip_name(cn_svg_skip kind);

#define CN_SVG_MAX_WARNINGS 8

typedef struct cn_svg_stats {
  float width, height;       /* output size in pixels (the viewport) */
  uint32_t elements;         /* draw-stream elements */
  uint32_t paths, segments, transforms, paints;
  uint32_t fills, strokes;
  uint32_t clips;            /* BEGIN_CLIP groups */
  uint32_t masks;            /* mask groups (BEGIN_BLEND with CN_BLEND_MASK_*) */
  uint32_t blend_groups;     /* other BEGIN_BLEND groups */
  uint32_t max_depth;        /* deepest group nesting in the stream */
  uint32_t glyphs;           /* glyphs laid out (text) */
  uint32_t skipped[CN_SVG_SKIP_COUNT];
  uint32_t warning_count;    /* all warnings; the first CN_SVG_MAX_WARNINGS are kept */
  char warnings[CN_SVG_MAX_WARNINGS][192];
} cn_svg_stats;

/* Loads an SVG document from memory into b (which cn_scene_begin()s and
 * cn_scene_end()s it) and fills *out with the scene view (valid as
 * cn_scene_end says). options and stats may be NULL. On failure the builder
 * holds no scene and cn_last_error() names what failed and where. */
CN_API cn_result cn_svg_load_memory(cn_scene_builder *b, const void *data, size_t size, const cn_svg_options *options,
                             cn_scene_data *out, cn_svg_stats *stats);
/* The same, reading the file at path. */
CN_API cn_result cn_svg_load_file(cn_scene_builder *b, const char *path, const cn_svg_options *options, cn_scene_data *out,
                           cn_svg_stats *stats);

#ifdef __cplusplus
}
#endif

#endif
