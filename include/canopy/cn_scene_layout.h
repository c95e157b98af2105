/* cn_scene_layout.h: the encoded scene, as C builds it and GLSL reads it.
 *
 * A scene is a flat stream of n elements in paint order. Groups are brackets:
 *   BEGIN_CLIP(path, rule) ... END_CLIP       content is clipped by the path
 *   BEGIN_BLEND(blend)     ... END_BLEND      content is composited as a group
 * (a mask is a BEGIN_BLEND whose blend record says so; see cn_blend.flags).
 * Every array below is uploaded as it is (std430: 4-byte scalars, no vec3),
 * and an element finds its data by index:
 *
 *   elements[i]            tag, path, paint, aux
 *   paths[e.path]          first segment, segment count, transform, flags
 *   segments[p.seg_first + k]   one line/quad/cubic in the path's local space
 *   transforms[p.transform]     local space -> device pixels (root transform applied)
 *   paints[e.paint]        solid colour, gradient (stops in stops[]) or image (images[])
 *   images[p.stop_first]   an image paint's pixels: image_pixels[offset ..] (RGBA8 premultiplied)
 *   strokes[e.aux]         width, joins, caps, dashes (dash lengths in dashes[])  -- STROKE
 *   blends[e.aux]          mode, alpha, isolation, mask kind                        -- BEGIN_BLEND
 *
 * Colours are straight-alpha sRGB floats (SVG composites in sRGB). Fields
 * that do not apply to an element hold CN_NONE.
 */
#ifndef CN_SCENE_LAYOUT_H
#define CN_SCENE_LAYOUT_H

#include "cn_config.h"

#define CN_NONE 0xFFFFFFFFu

/* element tags (cn_element.tag) */
#define CN_TAG_FILL 1u
#define CN_TAG_STROKE 2u
#define CN_TAG_BEGIN_CLIP 3u
#define CN_TAG_END_CLIP 4u
#define CN_TAG_BEGIN_BLEND 5u
#define CN_TAG_END_BLEND 6u

/* fill and clip rules (cn_element.aux of FILL and BEGIN_CLIP) */
#define CN_RULE_NONZERO 0u
#define CN_RULE_EVENODD 1u

/* segment kinds (low 2 bits of cn_segment.info) */
#define CN_SEG_LINE 0u
#define CN_SEG_QUAD 1u
#define CN_SEG_CUBIC 2u
/* cn_segment.info flags */
#define CN_SEG_SUBPATH_END (1u << 2)    /* last segment of its subpath */
#define CN_SEG_SUBPATH_CLOSED (1u << 3) /* set on every segment of a closed subpath */
#define CN_SEG_PATH_SHIFT 4             /* info >> 4 = path index (paths < 2^28) */
/* cn_path.flags: canopy sets this in its own device copy of a scene
 * (cn_scene_gpu) for every path with a quadratic or cubic segment, when the
 * scene stays within cn_tuning.flatten_split_max pairs with it; the flatten
 * stage walks the strokes of such paths in cn_flatten_args.stroke_split (at
 * most CN_FL_STROKE_SPLIT, cn_flatten_shared.h) chunks per segment, the
 * others in one. A hint only: the lines
 * are the same either way. Scene data may leave it 0. */
#define CN_PATH_CURVED 1u

/* paint kinds */
#define CN_PAINT_SOLID 0u
#define CN_PAINT_LINEAR 1u
#define CN_PAINT_RADIAL 2u
#define CN_PAINT_IMAGE 3u /* stop_first: image index; spread: CN_SAMPLE_*; transform: image pixels -> device */
/* image sampling (cn_paint.spread of an image paint) */
#define CN_SAMPLE_BILINEAR 0u /* smooth: bilinear between texel centres */
#define CN_SAMPLE_NEAREST 1u  /* pixelated: the texel the point falls in */
/* gradient spread */
#define CN_SPREAD_PAD 0u
#define CN_SPREAD_REFLECT 1u
#define CN_SPREAD_REPEAT 2u

/* stroke joins and caps */
#define CN_JOIN_MITER 0u
#define CN_JOIN_ROUND 1u
#define CN_JOIN_BEVEL 2u
#define CN_JOIN_MITER_CLIP 3u
#define CN_CAP_BUTT 0u
#define CN_CAP_ROUND 1u
#define CN_CAP_SQUARE 2u

/* blend modes: the 16 of CSS compositing, in the order of mix-blend-mode */
#define CN_BLEND_NORMAL 0u
#define CN_BLEND_MULTIPLY 1u
#define CN_BLEND_SCREEN 2u
#define CN_BLEND_OVERLAY 3u
#define CN_BLEND_DARKEN 4u
#define CN_BLEND_LIGHTEN 5u
#define CN_BLEND_COLOR_DODGE 6u
#define CN_BLEND_COLOR_BURN 7u
#define CN_BLEND_HARD_LIGHT 8u
#define CN_BLEND_SOFT_LIGHT 9u
#define CN_BLEND_DIFFERENCE 10u
#define CN_BLEND_EXCLUSION 11u
#define CN_BLEND_HUE 12u
#define CN_BLEND_SATURATION 13u
#define CN_BLEND_COLOR 14u
#define CN_BLEND_LUMINOSITY 15u
#define CN_BLEND_MODE_COUNT 16u
/* cn_blend.flags */
#define CN_BLEND_ISOLATED (1u << 0)
/* Masks (docs/SCENE.md, "Masks"): two sibling groups, mask first,
 *   BEGIN_BLEND(flags MASK_LUMINANCE or MASK_ALPHA)  <mask content>  END_BLEND
 *   BEGIN_BLEND(flags MASKED, mode, alpha)            <content>       END_BLEND
 * The mask group draws nothing by itself: at its END_BLEND its layer becomes a
 * coverage (luminance x alpha, or alpha) kept for the group that follows at
 * once; at that masked group's END_BLEND the group's colour is multiplied by
 * the coverage and by alpha, then composited with mode. The scene stage
 * treats every BEGIN_BLEND/END_BLEND pair as a group whatever its flags. */
#define CN_BLEND_MASK_LUMINANCE (1u << 1)
#define CN_BLEND_MASK_ALPHA (1u << 2)
#define CN_BLEND_MASKED (1u << 3) /* consumes the mask group just before it */

#ifdef VULKAN
#define CN_STRUCT(name) struct name
#define CN_STRUCT_END(name) ;
#else
#define CN_STRUCT(name) typedef struct name
#define CN_STRUCT_END(name) name;
#endif

CN_STRUCT(cn_element) {
  CN_U32 tag;   /* CN_TAG_* */
  CN_U32 path;  /* FILL, STROKE, BEGIN_CLIP: index into paths; else CN_NONE */
  CN_U32 paint; /* FILL, STROKE: index into paints; else CN_NONE */
  CN_U32 aux;   /* FILL, BEGIN_CLIP: CN_RULE_*; STROKE: strokes index; BEGIN_BLEND: blends index */
} CN_STRUCT_END(cn_element)

CN_STRUCT(cn_path) {
  CN_U32 seg_first;
  CN_U32 seg_count;
  CN_U32 transform; /* index into transforms */
  CN_U32 flags;     /* CN_PATH_CURVED (see there) or 0; other bits reserved, 0 */
} CN_STRUCT_END(cn_path)

CN_STRUCT(cn_segment) {
  CN_F32 x0, y0, x1, y1, x2, y2, x3, y3; /* line: p0,p1; quad: p0,p1,p2; cubic: all four */
  CN_U32 info;                           /* kind | flags | path << CN_SEG_PATH_SHIFT */
  CN_U32 pad0, pad1, pad2;
} CN_STRUCT_END(cn_segment)

CN_STRUCT(cn_transform) {
  CN_F32 a, b, c, d, e, f; /* x' = a x + c y + e, y' = b x + d y + f (SVG matrix order) */
} CN_STRUCT_END(cn_transform)

CN_STRUCT(cn_paint) {
  CN_U32 kind;       /* CN_PAINT_* */
  CN_U32 stop_first; /* gradients: index into stops; images: index into images */
  CN_U32 stop_count;
  CN_U32 spread;     /* gradients: CN_SPREAD_*; images: CN_SAMPLE_* */
  CN_F32 r, g, b, a; /* solid colour (straight alpha, sRGB, 0..1); opacity already folded into a */
  CN_F32 g0, g1, g2, g3, g4, g5; /* linear: x1 y1 x2 y2 _ _; radial: cx cy r fx fy fr (gradient space) */
  CN_U32 transform;  /* gradient (image) space -> device pixels: index into transforms */
  CN_F32 opacity;    /* gradients: multiplies every stop's alpha; images: every texel */
} CN_STRUCT_END(cn_paint)

/* An image of an image paint. Its texels are image_pixels[offset + y * width + x],
 * each a little-endian RGBA8 word (R in the low byte), premultiplied sRGB. In
 * image space texel (x, y) covers [x, x+1] x [y, y+1]; points outside the
 * image take the nearest edge texel (the image element's path bounds it). */
CN_STRUCT(cn_image) {
  CN_U32 offset; /* first texel in image_pixels */
  CN_U32 width, height;
  CN_U32 flags;  /* reserved, 0 */
} CN_STRUCT_END(cn_image)

CN_STRUCT(cn_stop) {
  CN_F32 offset; /* 0..1, non-decreasing */
  CN_F32 r, g, b, a;
} CN_STRUCT_END(cn_stop)

CN_STRUCT(cn_stroke) {
  CN_F32 width;       /* in the path's local space (scaled by its transform) */
  CN_F32 miter_limit;
  CN_U32 join;        /* CN_JOIN_* */
  CN_U32 cap;         /* CN_CAP_* */
  CN_U32 dash_first;  /* index into dashes; dash_count 0: solid */
  CN_U32 dash_count;  /* even (odd lists are doubled by the encoder) */
  CN_F32 dash_offset;
  CN_U32 pad0;
} CN_STRUCT_END(cn_stroke)

CN_STRUCT(cn_blend) {
  CN_U32 mode;  /* CN_BLEND_* */
  CN_F32 alpha; /* group opacity */
  CN_U32 flags; /* CN_BLEND_ISOLATED | CN_BLEND_MASK_* */
  CN_U32 pad0;
} CN_STRUCT_END(cn_blend)

/* A box: x0 y0 x1 y1; empty when x1 <= x0 or y1 <= y0. */
CN_STRUCT(cn_box) {
  CN_F32 x0, y0, x1, y1;
} CN_STRUCT_END(cn_box)

#ifndef VULKAN
CN_STATIC_ASSERT_SIZE(cn_element, 16);
CN_STATIC_ASSERT_SIZE(cn_path, 16);
CN_STATIC_ASSERT_SIZE(cn_segment, 48);
CN_STATIC_ASSERT_SIZE(cn_transform, 24);
CN_STATIC_ASSERT_SIZE(cn_paint, 64);
CN_STATIC_ASSERT_SIZE(cn_stop, 20);
CN_STATIC_ASSERT_SIZE(cn_image, 16);
CN_STATIC_ASSERT_SIZE(cn_stroke, 32);
CN_STATIC_ASSERT_SIZE(cn_blend, 16);
CN_STATIC_ASSERT_SIZE(cn_box, 16);
#endif

#endif
