/* cn_render_shared.h: layouts the renderer's kernels share with C (stages/render*.c).
 *
 * The renderer turns line segments (device pixels, tagged with the element they
 * belong to) into pixels in four GPU steps:
 *
 *   render_bbox       per line: the element's pixel bounding box (atomics);
 *                     whole scenes use the flatten stage's boxes instead
 *   render_tile_alloc per element: its tile rectangle (its box, bounded by the
 *                     scene stage's result box for whole scenes) and a run of
 *                     tile records
 *   render_tile_seg   per line, twice: first the backdrop deltas and how many
 *                     pieces of lines each tile record gets (counting); after
 *                     render_backdrop, the pieces themselves, each stored in
 *                     its tile's run of records (writing, beside coarse)
 *   render_backdrop   per element row of tiles: prefix sum of the deltas, and
 *                     each tile's run of piece records (a scan of the counts)
 *   render_coarse     per bin of 8x8 tiles: per-tile command lists in draw order;
 *                     writes the pixels of tiles whose list leaves one colour
 *                     (no command, or one opaque solid) and lists the others
 *   render_fine       per listed tile (indirect): walks its commands, writes 16x16 pixels
 *
 * Every kernel takes one push-constant block (cn_render_push): the device
 * address of a cn_render_config (all buffer addresses and sizes of the frame)
 * and a pass-specific word. Buffers whose size depends on the scene are
 * bump-allocated against a capacity written in the config; an allocation past
 * the capacity sets a bit in cn_render_bump.failed and keeps counting (tile
 * records of elements left without storage still count their segments, a
 * cut command list still counts its chunks), so the host learns the size it
 * needs (exact, or an upper bound), grows the buffer once and re-runs the frame.
 */
#ifndef CN_RENDER_SHARED_H
#define CN_RENDER_SHARED_H

#include "cn_config.h"
#include "cn_scene_layout.h"

/* Tiles are CN_TILE x CN_TILE pixels; one fine workgroup per tile, one
 * invocation per pixel. Bins (the coarse workgroup) are CN_BIN x CN_BIN tiles. */
#define CN_TILE 16
#define CN_TILE_SHIFT 4 /* log2(CN_TILE) */
#define CN_TILE_PIXELS (CN_TILE * CN_TILE)
#define CN_BIN 8
#define CN_BIN_TILES (CN_BIN * CN_BIN)

/* Command lists: each tile owns a first chunk of CN_CMD_CHUNK words at
 * tile * CN_CMD_CHUNK; further chunks come from the bump allocator in runs
 * of CN_CMD_RUN contiguous chunks (cn_render_bump.chunks and cap_chunks
 * count chunks), each run reached through CN_CMD_JUMP. */
#define CN_CMD_CHUNK 64u
#define CN_CMD_RUN 4u

/* Commands (first word of each; the payload words follow). */
#define CN_CMD_END 0u         /* end of the list */
#define CN_CMD_JUMP 1u        /* [next chunk word offset] */
/* A draw is one command, its coverage and its paint: FILL / FILL_GRADIENT
 * (the tile's part of a path) and SOLID / SOLID_GRADIENT (the tile wholly
 * inside it), each with a colour or a gradient, so fine loads one tag a draw
 * (bit 0 set: coverage 1; bit 2 set: a gradient). */
#define CN_CMD_FILL 2u           /* [first seg, seg count, backdrop (int), rule, r g b a] a path's coverage, premultiplied colour */
#define CN_CMD_SOLID 3u          /* [r g b a] coverage 1, premultiplied colour */
#define CN_CMD_FILL_GRADIENT 4u  /* [first seg, seg count, backdrop, rule, paint index, alpha factor (float)] a gradient or image */
#define CN_CMD_SOLID_GRADIENT 5u /* [paint index, alpha factor (float)] coverage 1, a gradient or image */
#define CN_CMD_BEGIN_CLIP 6u  /* push the current colour, start a transparent layer */
#define CN_CMD_END_CLIP 7u    /* [first seg, seg count, backdrop, rule]: layer masked by the clip over the saved colour */
#define CN_CMD_BEGIN_BLEND 8u /* push the current colour, start a transparent layer */
#define CN_CMD_END_BLEND 9u   /* [mode | flags << 8, opacity (float)] of its blend: composite the layer */
#define CN_CMD_POP 10u        /* drop the top of the stack (a mask whose masked group is empty here) */

/* Anti-aliasing of fine's coverage (cn_render_view.aa, cn_render_config.aa). */
#define CN_AA_AREA 0u /* exact area of the pixel square under the winding rule (the default) */
#define CN_AA_SS16 1u /* 4x4 point samples per pixel, with the sample and rounding conventions of
                         Skia's supersampling scan converter (tiny-skia, resvg): count / 16 */
#define CN_AA_COUNT 2u
/* render_fine's specialization constant holding the mode (it has no constant 0) */
#define CN_SPEC_FINE_AA 1
/* render_fine's second: how it reads a FILL's run of pieces (CN_FINE_RUNS_*,
 * chosen by render.c from the previous frame's run lengths) */
#define CN_SPEC_FINE_RUNS 2
#define CN_FINE_RUNS_SHUFFLE 0u /* a subgroup's width of pieces per load, handed round by shuffles */
#define CN_FINE_RUNS_LOADS 1u   /* every invocation loads every piece (cached broadcast loads) */
#define CN_FINE_LONG_RUN 8u     /* runs counted as long in cn_render_bump.long_pieces */
/* render_fine's third: pixels per invocation, 2 (area coverage) or 1
 * (supersampling); its workgroup (CN_SPEC_WG_SIZE) is CN_TILE_PIXELS / that */
#define CN_SPEC_FINE_PX 3
/* render_fine's fourth: 1 for the pipeline that draws the very long lists
 * listed apart (the second list of fine_tiles, below), else 0 */
#define CN_SPEC_FINE_VL 4
/* render_backdrop's: 1 when elements' rows are spread over several workgroups (slices) */
#define CN_SPEC_BACKDROP_SLICED 1
/* The rule word of FILL (coarse -> fine): this bit asks for area coverage under CN_AA_SS16 too.
 * Coarse sets it for strokes the flatten stage marked as Skia hairlines
 * (cn_flatten_elem.flags & CN_FLATTEN_ELEM_HAIRLINE, mirrored here as
 * CN_RENDER_FLAT_HAIRLINE): Skia draws those as a 1-pixel anti-aliased line
 * with its alpha scaled by the width, which the exact area of the thin
 * outline approximates (the same for a line centred on a pixel edge, at
 * most 1/8 of full coverage off elsewhere); 16 samples would quantise it to
 * quarter pixels. */
#define CN_FILL_AREA (1u << 8)
#define CN_RENDER_FLAT_HAIRLINE 1u

/* The tiles fine draws (cn_render_config.fine_tiles, u32 words): coarse
 * marks a tile whose command list leaves a single colour (empty: the
 * background; one SOLID with an opaque COLOR) for render_solid, which writes
 * its pixels beside fine (cn_render_ptile), and appends every other tile
 * here. Words 0..2 are fine's indirect dispatch (x, 1, 1; x is at
 * most the pass word coarse gets, the device's workgroup limit, and fine's
 * workgroups stride over the list), word 3 the count, the tile indices follow:
 * the tiles whose list took more than its first chunk (word 4 counts them)
 * from the front, the others from the back (word 5), so fine starts the
 * longest lists first instead of finding one at the end of its dispatch.
 * With CN_COARSE_FINE_SPLIT the very long lists (CN_FINE_VL_RUNS runs of
 * chunks or more after the first chunk) go to a second list instead, after the first's tiles_x * tiles_y
 * words (word 6 counts them), which a fine dispatch of one pixel an
 * invocation draws (render_fine's CN_SPEC_FINE_VL): when there are only a
 * few, one of them is the frame's critical path, and it is shorter with
 * twice the invocations. */
#define CN_FINE_LIST_ARGS 0u
#define CN_FINE_LIST_COUNT 3u
#define CN_FINE_LIST_LONG 4u
#define CN_FINE_LIST_SHORT 5u
#define CN_FINE_LIST_VL 6u
#define CN_FINE_LIST_FIRST 7u
#define CN_FINE_VL_RUNS 2u
/* Bins whose element list is at least this long are counted every frame
 * (cn_render_bump.long_bins): render.c runs coarse's splitting pipeline
 * (two or four invocations a tile, render_coarse.comp) when there are a few. */
#define CN_COARSE_LONG_BIN 64u
/* render_coarse's pass word: the most workgroups fine may ask for (below
 * 2^30), plus these bits: list every tile for fine, write no pixel; list
 * the very long lists apart (above). */
#define CN_COARSE_FINE_ALL (1u << 31)
#define CN_COARSE_FINE_SPLIT (1u << 30)

/* render_tile_seg's pass word: lines per workgroup (0: 256), plus this bit
 * for the writing pass (without it: the counting pass). */
#define CN_TILE_SEG_WRITE (1u << 31)

/* Registers of the fine clip/blend stack; deeper levels spill to memory. */
#define CN_FINE_STACK_REGS 4u

/* cn_render_bump.failed bits: which capacity was exceeded. */
#define CN_FAIL_TILES (1u << 0)
#define CN_FAIL_SEGS (1u << 1)
#define CN_FAIL_CMDS (1u << 2)
#define CN_FAIL_SPILL (1u << 3)
#define CN_FAIL_LINES (1u << 4)

#ifdef VULKAN
#define CN_RSTRUCT(name) struct name
#define CN_RSTRUCT_END(name) ;
#else
#define CN_RSTRUCT(name) typedef struct name
#define CN_RSTRUCT_END(name) name;
#endif

/* One line segment of a flattened element, in device pixels: the same layout
 * as the flatten stage's cn_line (20 bytes, 4-byte aligned), so its output is
 * read in place. */
CN_RSTRUCT(cn_render_line) {
  CN_F32 x0, y0, x1, y1;
  CN_U32 element; /* index into the element stream (FILL, STROKE or BEGIN_CLIP) */
} CN_RSTRUCT_END(cn_render_line)

/* Counters of the frame's bump allocators (zeroed before each run). "used"
 * counts keep growing past the capacity so the host learns the need. */
CN_RSTRUCT(cn_render_bump) {
  CN_U32 failed;      /* CN_FAIL_* bits */
  CN_U32 lines;       /* lines the frame read (copied from *line_count by render_tile_alloc) */
  CN_U32 tiles;       /* tile records used */
  CN_U32 segs;        /* tile segment records the frame's pieces need */
  CN_U32 chunks;      /* extra command chunks used */
  CN_U32 spill;       /* spilled stack entries used (each CN_TILE_PIXELS vec4) */
  CN_U32 host_lines;  /* lines uploaded from the host (what line_count points at then) */
  CN_U32 fine_tiles;  /* tiles coarse listed for fine (the others it filled with one colour) */
  CN_U32 fills;       /* FILL and END_CLIP commands coarse wrote with pieces to read */
  CN_U32 fill_pieces; /* the pieces those commands name (fine reads each once per pixel) */
  CN_U32 long_pieces; /* ... of them, those in runs of CN_FINE_LONG_RUN pieces or more */
  CN_U32 vl_tiles;    /* tiles whose command list took CN_FINE_VL_RUNS runs of chunks or more */
  CN_U32 long_bins;   /* bins whose element list holds CN_COARSE_LONG_BIN elements or more */
  CN_U32 max_bin;     /* the longest of those lists (0: none) */
  CN_U32 pad0, pad1;
} CN_RSTRUCT_END(cn_render_bump)

/* cn_render_elem.flags: a BEGIN_CLIP whose content blends with a mode other
 * than normal right inside it: the clip is an isolated layer even where it
 * covers a whole tile (elsewhere a covering clip is skipped). */
#define CN_ELEM_ISOLATE (1u << 0)

/* Per element: its pixel bounding box (built with atomics) and tile rectangle. */
CN_RSTRUCT(cn_render_elem) {
  CN_I32 px0, py0, px1, py1; /* pixel bbox: floor of min, ceil of max */
  CN_I32 tx0, ty0, tx1, ty1; /* tile rectangle, clamped to the target; empty when tx1 <= tx0 */
  CN_U32 tile_off;           /* first tile record; CN_NONE: none could be allocated (the frame re-runs),
                                the rectangle still counts what it needs */
  CN_U32 pair;               /* END_*: index of its BEGIN; BEGIN_*: index of its END; else CN_NONE */
  CN_U32 flags;              /* CN_ELEM_* (host-computed) */
  CN_U32 pad0;
} CN_RSTRUCT_END(cn_render_elem)

/* A tile of an element: winding number at its top-left corner (coming from the
 * left) and its pieces of lines, seg_count records from seg_first on, stored
 * in no particular order. render_tile_seg's counting pass adds the backdrop
 * deltas and counts the pieces; render_backdrop sums the deltas and takes the
 * run of records (seg_first, and seg_next at its start: past cap_segs both
 * are cap_segs, and nothing is stored); the writing pass stores each piece at
 * seg_next, advanced by an atomic add. */
CN_RSTRUCT(cn_render_tile) {
  CN_I32 backdrop;
  CN_U32 seg_count;
  CN_U32 seg_first;
  CN_U32 seg_next;
} CN_RSTRUCT_END(cn_render_tile)

/* A piece of a line inside one tile, in tile-local pixels (0..CN_TILE), in the
 * line's direction; plus the "y edge": where the line crosses the tile's left
 * edge, the winding of the rows below changes by yedge_sign. */
CN_RSTRUCT(cn_render_seg) {
  CN_F32 x0, y0, x1, y1;
  CN_F32 yedge;      /* tile-local y of the left-edge crossing; >= CN_TILE: none */
  CN_F32 yedge_sign; /* +1 or -1 */
  CN_U32 line;       /* the line (config lines[]) it is a piece of: the supersampled coverage
                        evaluates its x from the whole line, as Skia's edges do */
  CN_U32 pad0;
} CN_RSTRUCT_END(cn_render_seg)

/* Per screen tile: where its spilled stack entries live; or, for a tile of
 * one colour (depth CN_PTILE_ONE, not in fine's list), the RGBA8 word
 * render_solid writes to its pixels. */
CN_RSTRUCT(cn_render_ptile) {
  CN_U32 spill_off; /* first spilled stack level (units of CN_TILE_PIXELS vec4); CN_PTILE_ONE: the word */
  CN_U32 depth;     /* deepest clip/blend nesting of its command list, or CN_PTILE_ONE */
} CN_RSTRUCT_END(cn_render_ptile)
#define CN_PTILE_ONE 0xFFFFFFFFu

/* Everything a render kernel needs to find: one per frame, in device memory.
 * (Kernels that do not read it define CN_RENDER_NO_CONFIG first.) */
#if !defined(VULKAN) || !defined(CN_RENDER_NO_CONFIG)
#ifdef VULKAN
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer CnRenderConfig {
#else
typedef struct cn_render_config {
#endif
  CN_PTR(ElementBuf) elements;   /* scene: cn_element[n_elements] */
  CN_PTR(PaintBuf) paints;       /* scene: cn_paint[] */
  CN_PTR(StopBuf) stops;         /* scene: cn_stop[] (read as floats) */
  CN_PTR(TransformBuf) transforms; /* scene: cn_transform[] (read as floats) */
  CN_PTR(BlendBuf) blends;       /* scene: cn_blend[] */
  CN_PTR(LineBuf) lines;         /* cn_render_line[cap_lines] */
  CN_PTR(ElemBuf) elem;          /* cn_render_elem[n_elements] */
  CN_PTR(TileBuf) tiles;         /* cn_render_tile[cap_tiles] */
  CN_PTR(SegBuf) segs;           /* cn_render_seg[cap_segs] */
  CN_PTR(BumpBuf) bump;          /* cn_render_bump */
  CN_PTR(CmdBuf) cmds;           /* u32[n_tiles * CN_CMD_CHUNK + cap_chunks * CN_CMD_CHUNK] */
  CN_PTR(PtileBuf) ptiles;       /* cn_render_ptile[n_tiles] */
  CN_PTR(SpillBuf) spill;        /* vec4[cap_spill * CN_TILE_PIXELS] */
  CN_PTR(OutBuf) target;         /* u32[width * height]: RGBA8, straight alpha, row-major */
  CN_PTR(CountBuf) line_count;   /* u32: lines valid in lines[] (clamped to cap_lines) */
  CN_U32 n_elements;
  CN_U32 width, height;          /* target in pixels */
  CN_U32 tiles_x, tiles_y;       /* CN_DIV_UP(width|height, CN_TILE) */
  CN_U32 bins_x, bins_y;
  CN_U32 cap_lines, cap_tiles, cap_segs, cap_chunks, cap_spill;
  CN_U32 paint_count, stop_count, transform_count, blend_count;
  CN_U32 out_stride;             /* pixels per output row */
  CN_F32 background[4];          /* premultiplied sRGB, composited under the scene */
  CN_F32 view_inv[6];            /* device pixels -> scene device space (inverse view transform) */
  CN_U32 use_bins;               /* 1: coarse walks the scene stage's bin lists (cn_bins.h) */
  CN_U32 cap_bins;               /* entries bin_elems holds */
  CN_U32 image_count;            /* scene: images[] */
  CN_U32 image_pixel_count;      /* scene: image_pixels[] */
  CN_U32 aa;                     /* CN_AA_*: how fine computes coverage */
  CN_PTR(BinBuf) bin_offsets;    /* bins_x * bins_y + 1 uint32 (CSR offsets) */
  CN_PTR(BinBuf) bin_elems;      /* cap_bins uint32: element indices, stream order per bin */
  /* Whole scenes: the flatten stage's per-element line boxes (cn_flatten_elem)
   * replace render_bbox's, and the scene stage's result boxes (cn_box: draw
   * intersected with its clips and the target) bound every element's tiles.
   * 0: not given. */
  CN_PTR(FlatElemBuf) flat_elems;
  CN_PTR(BoxBuf) result_boxes;
  CN_PTR(ImageBuf) images;       /* scene: cn_image[image_count] */
  CN_PTR(TexelBuf) image_pixels; /* scene: u32[image_pixel_count], RGBA8 premultiplied */
  CN_PTR(FineListBuf) fine_tiles; /* u32[CN_FINE_LIST_FIRST + 2 * tiles_x * tiles_y]: the tiles fine draws */
  /* Whole scenes: the flatten stage's work buffer (cn_flatten_args.scratch),
   * recorded with caller_finish: render_tile_alloc finishes each element's
   * cn_flatten_elem (shaders/flatten_finish.glsl) before allocating its
   * tiles. 0: flat_elems is finished already (or not given). */
  CN_PTR(FlatWorkBuf) flat_work;
#ifdef VULKAN
};
#else
} cn_render_config;
#endif
#endif /* CN_RENDER_NO_CONFIG */

#if !defined(VULKAN) || defined(CN_USE_RENDER_PUSH)
CN_PUSH_BEGIN(cn_render_push)
  CN_PTR(CnRenderConfig) config;
  CN_U32 arg;   /* pass-specific */
  CN_U32 pad0;
CN_PUSH_END(cn_render_push)
CN_STATIC_ASSERT_SIZE(cn_render_push, 16);
#endif

/* render_frame_init's push constants: a frame's resets in one dispatch (the
 * elements' records from their initial values, the tile records zeroed, the
 * bump counters and fine's list header), where a copy, a fill and two
 * buffer updates each cost the queue a transfer. */
#if !defined(VULKAN) || defined(CN_USE_RENDER_INIT_PUSH)
CN_PUSH_BEGIN(cn_render_init_push)
  CN_PTR(InitVec4Buf) elem_init; /* cn_render_elem[n]: each element's record before a frame */
  CN_PTR(InitVec4Buf) elem;      /* cn_render_elem[n]: set from elem_init */
  CN_PTR(InitVec4Buf) tiles;     /* cn_render_tile[cap_tiles]: zeroed */
  CN_PTR(InitWordBuf) bump;      /* cn_render_bump: lines = host_lines = cap_lines, the rest 0 */
  CN_PTR(InitWordBuf) fine_tiles; /* words [0, CN_FINE_LIST_FIRST): the indirect arguments (0, 1, 1), counts 0 */
  CN_U32 elem_vec4s;             /* 16-byte words of elem: 3 n */
  CN_U32 tile_words;             /* 4-byte words of tiles: 2 cap_tiles */
  CN_U32 cap_lines;
  CN_U32 pad0;
CN_PUSH_END(cn_render_init_push)
CN_STATIC_ASSERT_SIZE(cn_render_init_push, 56);
#endif

#ifndef VULKAN
CN_STATIC_ASSERT_SIZE(cn_render_line, 20);
CN_STATIC_ASSERT_SIZE(cn_render_bump, 64);
CN_STATIC_ASSERT_SIZE(cn_render_elem, 48);
CN_STATIC_ASSERT_SIZE(cn_render_tile, 16);
CN_STATIC_ASSERT_SIZE(cn_render_seg, 32);
CN_STATIC_ASSERT_SIZE(cn_render_config, 312);
#endif

#endif
