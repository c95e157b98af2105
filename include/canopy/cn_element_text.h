/* cn_element_text.h: the text form of an element stream, as `canopy bbox` and
 * `canopy bins` read it (engine/element_text.c).
 *
 *   viewport x0 y0 x1 y1     optional, only as the first element line
 *   draw x0 y0 x1 y1         a FILL with this box
 *   clip x0 y0 x1 y1         a BEGIN_CLIP whose clip path has this box
 *   endclip                  END_CLIP
 *   blend                    BEGIN_BLEND
 *   endblend                 END_BLEND
 *
 * Blank lines and lines starting with '#' (after blanks) are ignored; words
 * are separated by blanks; numbers are finite decimal floats (strtof). The
 * parser checks balance as it reads: an END without a BEGIN, an END of the
 * other kind, a BEGIN never closed and every malformed line are
 * CN_ERROR_PARSE / CN_ERROR_UNBALANCED errors whose message starts with
 * "line N:". Element i is the i-th element line, counted from 0.
 *
 * Text longer than CN_ELEMENT_TEXT_MAX_BYTES fails with CN_ERROR_LIMIT: a
 * regular file from its size before it is read, a stream once it passes the
 * limit; a NUL byte stops the reading at once (CN_ERROR_PARSE naming its line). */
#ifndef CN_ELEMENT_TEXT_H
#define CN_ELEMENT_TEXT_H

#include "canopy.h"
#include "cn_scene.h"

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest element text accepted, in bytes (2 GiB: over 150 million "draw" lines). */
#define CN_ELEMENT_TEXT_MAX_BYTES (1ull << 31)

typedef struct cn_element_text {
  uint32_t *tags;   /* n CN_TAG_* */
  cn_box *boxes;    /* n boxes: draw and clip boxes; 0 0 0 0 for the others */
  uint32_t *lines;  /* n: the line of each element (1-based) */
  uint64_t n;
  bool has_viewport;
  float viewport[4]; /* -inf -inf inf inf without a viewport line */
} cn_element_text;

/* Parses len bytes of text. On failure *out is empty and the message names the line. */
CN_API cn_result cn_element_text_parse(const char *text, size_t len, cn_element_text *out);
/* Reads and parses a file (CN_ERROR_IO when it cannot be read). */
CN_API cn_result cn_element_text_load(const char *path, cn_element_text *out);
CN_API void cn_element_text_free(cn_element_text *s);

#ifdef __cplusplus
}
#endif

#endif
