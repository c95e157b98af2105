/* cn_scene_api.h: the C scene API: build an encoded scene (cn_scene_data)
 * without SVG.
 *
 * A cn_scene_builder owns growable arrays of the encoding of
 * cn_scene_layout.h and hands out a read-only cn_scene_data view of them.
 * docs/SCENE.md documents the encoding; in short:
 *
 *   cn_scene_builder *b; cn_scene_builder_create(&b);
 *   cn_scene_begin(b, 0, 0, 256, 256);              viewport in device pixels
 *   cn_scene_set_transform(b, &t);                  local -> device for new paths
 *   cn_scene_path_begin(b);                         a path: subpaths of segments
 *   cn_scene_move_to(b, 10, 10); cn_scene_line_to(b, 100, 10); ...; cn_scene_close(b);
 *   uint32_t path; cn_scene_path_end(b, &path);
 *   uint32_t red;  cn_scene_solid(b, 1, 0, 0, 1, &red);
 *   cn_scene_fill(b, path, red, CN_RULE_NONZERO);
 *   cn_scene_push_clip(b, path, CN_RULE_EVENODD); ... cn_scene_pop(b);
 *   cn_scene_push_blend(b, CN_BLEND_MULTIPLY, 0.5f, CN_BLEND_ISOLATED); ... cn_scene_pop(b);
 *   cn_scene_data data; cn_scene_end(b, &data);     the view stays valid until the
 *                                                   next cn_scene_begin or destroy
 *
 * Paths and paints are defined once and may be used by any number of
 * elements. Every call returns a cn_result; misuse (a pop with nothing
 * pushed, an end with groups open, a path call outside a path, a NaN or
 * infinite coordinate, an index that does not exist) fails with
 * CN_ERROR_STATE, CN_ERROR_UNBALANCED or CN_ERROR_INVALID_ARGUMENT and a
 * message (cn_last_error()); it never crashes. After a failure the builder
 * stays usable: the failed call had no effect.
 *
 * Limits: a scene holds at most cn_scene_limits (defaults below) elements,
 * segments and so on; going beyond fails with CN_ERROR_LIMIT.
 */
#ifndef CN_SCENE_API_H
#define CN_SCENE_API_H

#include <stdbool.h>
#include <stdint.h>

#include "canopy.h"
#include "cn_scene.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cn_scene_builder cn_scene_builder;

/* Default limits (a scene beyond them fails with CN_ERROR_LIMIT). */
#define CN_SCENE_DEFAULT_MAX_ELEMENTS (1u << 22)
#define CN_SCENE_DEFAULT_MAX_SEGMENTS (1u << 22) /* 4 Mi segments = 192 MiB */
#define CN_SCENE_MAX_PATHS (1u << 28)            /* segment info holds path << 4 */

typedef struct cn_scene_limits {
  uint32_t max_elements; /* 0: CN_SCENE_DEFAULT_MAX_ELEMENTS */
  uint32_t max_segments; /* 0: CN_SCENE_DEFAULT_MAX_SEGMENTS (paths, paints, stops and
                            transforms are each bounded by the same number) */
} cn_scene_limits;

/* Creates an empty builder. On failure *out is NULL (CN_ERROR_OUT_OF_MEMORY). */
CN_API cn_result cn_scene_builder_create(cn_scene_builder **out);
/* Frees the builder and every view it handed out. NULL is fine. */
CN_API void cn_scene_builder_destroy(cn_scene_builder *b);
/* Sets the limits used from the next cn_scene_begin. NULL: the defaults. */
CN_API cn_result cn_scene_builder_set_limits(cn_scene_builder *b, const cn_scene_limits *limits);

/* Starts a new scene (dropping the previous one) drawn into the device-pixel
 * rectangle x0 y0 x1 y1. The transform is reset to the identity.
 * Fails: CN_ERROR_INVALID_ARGUMENT on a non-finite or empty rectangle. */
CN_API cn_result cn_scene_begin(cn_scene_builder *b, float x0, float y0, float x1, float y1);

/* Sets the transform (local space -> device pixels) of the paths defined
 * from now on. NULL: the identity. Fails: CN_ERROR_INVALID_ARGUMENT on a
 * non-finite entry. */
CN_API cn_result cn_scene_set_transform(cn_scene_builder *b, const cn_transform *t);

/* Path definition: path_begin, then subpaths (move_to, then line/quad/cubic,
 * optionally close), then path_end, which returns the path's index. A drawing
 * call without a move_to first starts at the end of the previous subpath (or
 * (0,0)). Fails: CN_ERROR_STATE outside path_begin/path_end (or path_begin
 * twice), CN_ERROR_INVALID_ARGUMENT on a non-finite coordinate, CN_ERROR_LIMIT. */
CN_API cn_result cn_scene_path_begin(cn_scene_builder *b);
CN_API cn_result cn_scene_move_to(cn_scene_builder *b, float x, float y);
CN_API cn_result cn_scene_line_to(cn_scene_builder *b, float x, float y);
CN_API cn_result cn_scene_quad_to(cn_scene_builder *b, float x1, float y1, float x, float y);
CN_API cn_result cn_scene_cubic_to(cn_scene_builder *b, float x1, float y1, float x2, float y2, float x, float y);
CN_API cn_result cn_scene_close(cn_scene_builder *b);
/* Ends the path. An empty path (no segments) is valid: drawing it draws nothing. */
CN_API cn_result cn_scene_path_end(cn_scene_builder *b, uint32_t *path);

/* A solid colour paint (straight alpha sRGB, each in 0..1). The same colour
 * as the paint defined just before returns that paint's index. Fails:
 * CN_ERROR_INVALID_ARGUMENT on a value outside 0..1 or NaN. */
CN_API cn_result cn_scene_solid(cn_scene_builder *b, float r, float g, float bl, float a, uint32_t *paint);

typedef struct cn_gradient_desc {
  uint32_t kind;          /* CN_PAINT_LINEAR or CN_PAINT_RADIAL */
  uint32_t spread;        /* CN_SPREAD_* */
  float geometry[6];      /* linear: x1 y1 x2 y2 0 0; radial: cx cy r fx fy fr */
  cn_transform transform; /* gradient space -> device pixels */
  float opacity;          /* multiplies every stop's alpha, 0..1 */
  const cn_stop *stops;   /* offsets 0..1 and non-decreasing; at least one */
  uint32_t stop_count;
} cn_gradient_desc;
/* A gradient paint. Fails: CN_ERROR_INVALID_ARGUMENT on a bad kind/spread,
 * no stops, decreasing or out-of-range offsets, non-finite values. */
CN_API cn_result cn_scene_gradient(cn_scene_builder *b, const cn_gradient_desc *g, uint32_t *paint);

typedef struct cn_stroke_desc {
  float width;         /* > 0, in the path's local space */
  float miter_limit;   /* >= 1 */
  uint32_t join;       /* CN_JOIN_* */
  uint32_t cap;        /* CN_CAP_* */
  const float *dashes; /* dash_count lengths >= 0 (not all 0); odd counts are doubled */
  uint32_t dash_count; /* 0: solid */
  float dash_offset;
} cn_stroke_desc;

/* Images. Limits: CN_SCENE_MAX_IMAGE_PIXELS per image, CN_SCENE_MAX_TOTAL_IMAGE_PIXELS
 * for all images of a scene together, CN_SCENE_MAX_IMAGES images (CN_ERROR_LIMIT). */
#define CN_SCENE_MAX_IMAGE_PIXELS (1u << 25)       /* 32 Mi pixels (128 MiB) per image */
#define CN_SCENE_MAX_TOTAL_IMAGE_PIXELS (1u << 26) /* 64 Mi pixels (256 MiB) per scene */
#define CN_SCENE_MAX_IMAGES 65536u
/* Copies width x height texels (row-major, packed rows, each an RGBA8 word
 * with R in the low byte, premultiplied sRGB) into the scene; *image gets
 * its index. Fails: CN_ERROR_INVALID_ARGUMENT on NULL or an empty size,
 * CN_ERROR_LIMIT past the limits above. */
CN_API cn_result cn_scene_image(cn_scene_builder *b, const uint32_t *texels, uint32_t width, uint32_t height,
                                uint32_t *image);
/* An image paint: image space (texel (x, y) covers [x, x+1] x [y, y+1]) maps
 * to device pixels by t; sampling CN_SAMPLE_BILINEAR or CN_SAMPLE_NEAREST;
 * opacity 0..1 multiplies every texel. Outside the image the nearest edge
 * texel repeats: fill a path inside the image's rectangle with it. Fails:
 * CN_ERROR_INVALID_ARGUMENT on an unknown image, a bad sampling, a
 * non-finite transform, an opacity outside 0..1. */
CN_API cn_result cn_scene_image_paint(cn_scene_builder *b, uint32_t image, const cn_transform *t, uint32_t sampling,
                                      float opacity, uint32_t *paint);
/* Draw elements. path and paint are indices from path_end and solid/gradient.
 * Fails: CN_ERROR_INVALID_ARGUMENT on an unknown index, rule, bad stroke;
 * CN_ERROR_STATE inside a path definition or outside begin/end; CN_ERROR_LIMIT. */
CN_API cn_result cn_scene_fill(cn_scene_builder *b, uint32_t path, uint32_t paint, uint32_t rule);
CN_API cn_result cn_scene_stroke(cn_scene_builder *b, uint32_t path, uint32_t paint, const cn_stroke_desc *stroke);

/* Groups: BEGIN_CLIP / BEGIN_BLEND now, the matching END at cn_scene_pop.
 * push_blend: mode CN_BLEND_*, alpha 0..1, flags CN_BLEND_ISOLATED |
 * CN_BLEND_MASK_* | CN_BLEND_MASKED (see docs/SCENE.md for the mask protocol:
 * a mask group must be followed at once by a masked group; the builder checks).
 * Fails: CN_ERROR_INVALID_ARGUMENT on bad values, CN_ERROR_LIMIT past the
 * element limit, CN_ERROR_STATE where no group may start. Groups nest to any
 * depth (each open group costs one byte of builder memory). */
CN_API cn_result cn_scene_push_clip(cn_scene_builder *b, uint32_t path, uint32_t rule);
CN_API cn_result cn_scene_push_blend(cn_scene_builder *b, uint32_t mode, float alpha, uint32_t flags);
/* Fails: CN_ERROR_UNBALANCED with nothing pushed. */
CN_API cn_result cn_scene_pop(cn_scene_builder *b);

/* Ends the scene and fills *out with a view of its arrays (valid until the
 * next cn_scene_begin or cn_scene_builder_destroy). Fails: CN_ERROR_UNBALANCED
 * with groups open (naming how many), CN_ERROR_STATE inside a path or a mask
 * group not followed by its masked group. */
CN_API cn_result cn_scene_end(cn_scene_builder *b, cn_scene_data *out);
/* Drops the scene being built, whatever its state (open groups, a path being
 * defined, a mask group waiting for its masked group): the way out after a
 * failed call, since popping may itself be refused (after a mask group only
 * its masked group may follow). The builder can begin another scene. */
CN_API void cn_scene_abandon(cn_scene_builder *b);

/* Current open-group depth and the deepest seen since begin (stats). */
CN_API uint32_t cn_scene_depth(const cn_scene_builder *b);
CN_API uint32_t cn_scene_max_depth(const cn_scene_builder *b);


#ifdef __cplusplus
}
#endif

#endif
