/* cn_scene_stage_shared.h: push-constant layouts and constants of the scene
 * stage (path boxes, clip/blend boxes, binning), shared by C (stages/pathbox.c,
 * stages/bbox.c, stages/bins.c) and GLSL (shaders/pathbox_*, bbox_*, bins_*).
 *
 * Same rules as cn_shared.h: pointers first, then 4-byte fields; a kernel
 * declares the block it uses with #define CN_USE_<BLOCK> before including. */
#ifndef CN_SCENE_STAGE_SHARED_H
#define CN_SCENE_STAGE_SHARED_H

#include "cn_config.h"

/* Specialization constants of the scene-stage kernels (besides 0 = workgroup
 * size and 1 = items per invocation). */
#define CN_SPEC_BINS_SLICE 2 /* bins: bins held in shared memory at once */
#define CN_SPEC_BINS_LIST 2  /* bins_rows: elements its shared list holds */
#define CN_SPEC_BINS_SG_CHUNKS 3 /* bins_sg_count / bins_sg_fill: chunks per workgroup */
#define CN_SPEC_BINS_SG_ROWS 4   /* bins_sg_count / bins_sg_fill: 1 = one matrix row per workgroup */
#define CN_SPEC_BBOX_TREE_CAP 2 /* bbox_small: group nodes it can hold */
#define CN_SPEC_PATHBOX_PATHS 2 /* pathbox_small: paths whose key boxes it holds */
#define CN_SPEC_BBOX_FROM_PATHS 3 /* bbox_small: 1 to start from the elements and path keys */
#define CN_SPEC_BBOX_SUM_COUNTS 2 /* bbox_compact: 1 to add up the counts before its block (no scan pass) */
#define CN_SPEC_BBOX_DRAWS_CLIP 2 /* bbox_draws: where its clip boxes come from, CN_DRAWS_CLIP_* */

/* The compacted group array stores one byte per BEGIN/END (the input of
 * parentheses matching): bit 0 = close (END), bit 1 = blend (else clip). */
#define CN_GROUP_CLOSE 1u
#define CN_GROUP_BLEND 2u

/* Status the bbox stage writes for the host (cn_bbox_status in cn_bbox.h). */
#define CN_BBOX_STATUS_WORDS 4

/* ------------------------------------------------------------ path boxes --
 * pathbox_segments: one invocation per segment; atomics on ordered-int keys
 * into keys[path] (4 ints: min x, min y, max x, max y).
 * pathbox_elements: one invocation per element: element box from its path's
 * keys and, for strokes, the stroke's expansion; and its tag into tags[]. */
#if !defined(VULKAN) || defined(CN_USE_PATHBOX_PUSH)
CN_PUSH_BEGIN(cn_pathbox_push)
  CN_PTR(SegBuf) segments;
  CN_PTR(PathBuf) paths;
  CN_PTR(XformBuf) transforms;
  CN_PTR(KeyBuf) keys;      /* 4 ints per path */
  CN_PTR(ElemBuf) elements;
  CN_PTR(StrokeBuf) strokes;
  CN_PTR(BoxBuf) boxes;     /* out: one cn_box per element */
  CN_PTR(TagBuf) tags;      /* out (when write_tags): one uint32 tag per element */
  CN_U32 count;             /* segments (pathbox_segments, pathbox_small) or elements (pathbox_elements) */
  CN_U32 path_count;
  CN_U32 transform_count;
  CN_U32 stroke_count;
  CN_U32 write_tags;        /* pathbox_elements, pathbox_small: 1 to write tags[] */
  CN_U32 element_count;     /* pathbox_small: elements */
CN_PUSH_END(cn_pathbox_push)
CN_STATIC_ASSERT_SIZE(cn_pathbox_push, 88);
#endif

/* ------------------------------------------------------- bbox: compaction --
 * bbox_count: counts[b] = BEGIN/END tags in block b (b < nblocks); counts[nblocks] = 0.
 * bbox_compact: with offsets = exclusive scan of counts (a scan pass between
 * them, in place; or, with the specialization CN_SPEC_BBOX_SUM_COUNTS, each
 * workgroup adds up the counts before its block and writes offsets[]), writes idx[] and the group bytes of
 * every BEGIN/END (at most group_bound of them). */
#if !defined(VULKAN) || defined(CN_USE_BBOX_COMPACT_PUSH)
CN_PUSH_BEGIN(cn_bbox_compact_push)
  CN_PTR(TagBuf) tags;
  CN_PTR(U32Buf) counts;    /* counts (bbox_count) or their exclusive scan (bbox_compact) */
  CN_PTR(U32Buf) idx;       /* out: element index of each group node */
  CN_PTR(U32Buf) gbytes;    /* out: group bytes, 4 per word (zeroed beforehand) */
  CN_PTR(U32Buf) status;
  CN_PTR(KeyBuf) gap;       /* bbox_count sets it (group_bound x 4 ints) to the empty key for bbox_draws */
  CN_PTR(U32Buf) ticket;    /* bbox_count zeroes ticket_words of it: bbox_pyramid's (1 + runs of 256 of its
                               workgroups), bbox_clip_local's, then the parentheses matching's
                               (cn_parens_args.tickets) */
  CN_PTR(U32Buf) offsets;   /* bbox_compact adding up the counts: out, their exclusive scan (nblocks + 1) */
  CN_PTR(U32Buf) doffs;     /* with draws_split > 1, bbox_compact: out, the group nodes before each of
                               bbox_draws' blocks (nblocks x draws_split of them, then the total) */
  CN_U32 n;
  CN_U32 nblocks;
  CN_U32 group_bound;
  CN_U32 ticket_words;      /* bbox_count: at most 1 + nblocks x its workgroup size */
  CN_U32 draws_split;       /* bbox_draws' blocks per compaction block (a power of two dividing ITEMS) */
  CN_U32 pad0;
CN_PUSH_END(cn_bbox_compact_push)
CN_STATIC_ASSERT_SIZE(cn_bbox_compact_push, 96);
#endif

/* ----------------------------------------------------------- bbox: clips --
 * bbox_clip_local: per partition of workgroup-size group nodes, pointer jumping
 * in shared memory until every open's link leaves the partition (writes
 * acc_dst, link_dst: the clip box of the node's chain of ancestors inside its
 * partition, and the first ancestor outside it, a "slice open": one still
 * open at the end of its own partition, or -1). Over more than one partition
 * (bases = 1): base[q] = the parent of partition q's last open whose parent
 * lies before it (every slice open of q links there), and the last workgroup
 * to finish (ticket) follows the bases from partition to partition: clipg[q]
 * = the whole clip box at base[q] (the viewport where it is -1). A node's
 * whole clip box is then acc[k], and where link[k] = t >= 0 also acc[t] ∩
 * clipg[t / workgroup size]: bbox_draws adds that (CN_DRAWS_CLIP_HOP), or
 * bbox_clip_nodes writes it per group node beforehand (CN_DRAWS_CLIP_NODES). */
#if !defined(VULKAN) || defined(CN_USE_BBOX_CLIP_PUSH)
CN_PUSH_BEGIN(cn_bbox_clip_push)
  CN_PTR(BoxBuf) boxes;     /* element boxes (clip path boxes at BEGIN_CLIP) */
  CN_PTR(U32Buf) idx;
  CN_PTR(U32Buf) gbytes;
  CN_PTR(I32Buf) parens;
  CN_PTR(U32Buf) offsets;   /* offsets[nblocks] = number of group nodes */
  CN_PTR(BoxBuf) acc_dst;
  CN_PTR(I32Buf) link_dst;
  CN_PTR(I32Buf) base;      /* with bases: one per partition */
  CN_PTR(BoxBuf) clipg;     /* with bases: one per partition */
  CN_PTR(U32Buf) ticket;    /* with bases: one word, zeroed by bbox_count */
  CN_F32 vp_x0, vp_y0, vp_x1, vp_y1;
  CN_U32 group_bound;
  CN_U32 nblocks;
  CN_U32 bases;             /* 1: more than one partition (their bases and boxes) */
  CN_U32 pad0;
CN_PUSH_END(cn_bbox_clip_push)
CN_STATIC_ASSERT_SIZE(cn_bbox_clip_push, 112);
#endif

/* ----------------------------------------------------------- bbox: draws --
 * bbox_draws: per element: result boxes of draws, and gap[c] (pyramid level 0,
 * ordered-int keys, 4 ints per group node c) = union of the draws between
 * group nodes c - 1 and c that lie inside a group. */
#if !defined(VULKAN) || defined(CN_USE_BBOX_DRAWS_PUSH)
CN_PUSH_BEGIN(cn_bbox_draws_push)
  CN_PTR(TagBuf) tags;
  CN_PTR(BoxBuf) boxes;
  CN_PTR(U32Buf) offsets;
  CN_PTR(I32Buf) parens;
  CN_PTR(BoxBuf) acc;       /* clip stack box of every open group node (see bbox_clip_local) */
  CN_PTR(I32Buf) link;      /* CN_DRAWS_CLIP_HOP, bbox_clip_nodes: bbox_clip_local's links */
  CN_PTR(BoxBuf) clipg;     /* CN_DRAWS_CLIP_HOP, bbox_clip_nodes: bbox_clip_local's partition boxes */
  CN_PTR(BoxBuf) nodes;     /* CN_DRAWS_CLIP_NODES: per group node, its enclosing clip box (bbox_clip_nodes) */
  CN_PTR(BoxBuf) result;    /* result boxes, one per element */
  CN_PTR(KeyBuf) pyramid;   /* level 0: gap keys, one ivec4 per group node */
  CN_PTR(U32Buf) status;
  CN_F32 vp_x0, vp_y0, vp_x1, vp_y1;
  CN_U32 n;
  CN_U32 nblocks;
  CN_U32 group_bound;
  CN_U32 clip_shift;        /* log2 of bbox_clip_local's partition */
CN_PUSH_END(cn_bbox_draws_push)
CN_STATIC_ASSERT_SIZE(cn_bbox_draws_push, 120);
/* bbox_draws' specialisation CN_SPEC_BBOX_DRAWS_CLIP (a constant, so that each form compiles to its own
 * code: on the H200 a form's draws pass at 2^24 elements took 20 - 40 us longer with another's code
 * behind a uniform branch) */
#define CN_DRAWS_CLIP_WHOLE 0u /* acc[e] is the whole clip box */
#define CN_DRAWS_CLIP_HOP 1u   /* acc[e] ∩ acc[t] ∩ clipg[t's partition] where t = link[e] >= 0 */
#define CN_DRAWS_CLIP_NODES 2u /* nodes[c] (bbox_clip_nodes) */
#endif

/* bbox_pyramid: the union tree (ordered-int keys: min, min, max, max) above
 * level 0 (count entries at offset 0, in ivec4s); level j+1 follows level j.
 * Each workgroup builds 8 levels over its 256 entries, the last of each run
 * of 256 workgroups to finish (ticket[1 + run]) 8 more over the run's, and
 * the last run to finish (ticket[0]) the rest. */
#if !defined(VULKAN) || defined(CN_USE_BBOX_PYRAMID_PUSH)
CN_PUSH_BEGIN(cn_bbox_pyramid_push)
  CN_PTR(KeyBuf) pyramid;
  CN_PTR(U32Buf) ticket;    /* 1 + runs words, zeroed beforehand */
  CN_U32 count;             /* level-0 entries, > 1 */
  CN_U32 pad0;
CN_PUSH_END(cn_bbox_pyramid_push)
CN_STATIC_ASSERT_SIZE(cn_bbox_pyramid_push, 24);
#endif

/* bbox_groups: one invocation per group node; at each END k with BEGIN o the
 * group's union = pyramid range query over gap[o + 1 .. k], written to the
 * results of both elements. */
#if !defined(VULKAN) || defined(CN_USE_BBOX_GROUPS_PUSH)
CN_PUSH_BEGIN(cn_bbox_groups_push)
  CN_PTR(U32Buf) gbytes;
  CN_PTR(U32Buf) idx;
  CN_PTR(I32Buf) parens;
  CN_PTR(KeyBuf) pyramid;
  CN_PTR(BoxBuf) result;
  CN_PTR(U32Buf) offsets;
  CN_PTR(U32Buf) status;
  CN_U32 group_bound;
  CN_U32 pad0;
CN_PUSH_END(cn_bbox_groups_push)
CN_STATIC_ASSERT_SIZE(cn_bbox_groups_push, 64);
#endif

/* bbox_small: the whole bbox stage of a small stream in one workgroup
 * (stages/bbox.c): the outputs of bbox_count .. bbox_groups from the same
 * inputs; scratch: idx, parens (group_bound words each), acc (group_bound
 * boxes), pyramid (the key pyramid over group_bound leaves). */
#if !defined(VULKAN) || defined(CN_USE_BBOX_SMALL_PUSH)
/* bbox_small: idx, parens, acc and pyramid (and, with FROM_PATHS, the path
 * boxes' keys) at byte offsets into scratch. With FROM_PATHS (a
 * specialization constant) it starts from the scene's elements and the
 * keys that pathbox_segments left, and writes tags[] and boxes[] (the path
 * boxes) itself, as pathbox_elements would. */
CN_PUSH_BEGIN(cn_bbox_small_push)
  CN_PTR(TagBuf) tags;          /* in; out with FROM_PATHS */
  CN_PTR(BoxBuf) boxes;         /* in; out with FROM_PATHS */
  CN_PTR(BoxBuf) result;
  CN_PTR(U32Buf) status;
  CN_PTR(U32Buf) scratch;
  CN_PTR(ElemBuf) elements;     /* FROM_PATHS: the scene's arrays */
  CN_PTR(PathBuf) paths;
  CN_PTR(XformBuf) transforms;
  CN_PTR(StrokeBuf) strokes;
  CN_F32 vp_x0, vp_y0, vp_x1, vp_y1;
  CN_U32 n;
  CN_U32 group_bound;
  CN_U32 idx_at, parens_at, acc_at, pyramid_at, keys_at; /* byte offsets into scratch */
  CN_U32 path_count, transform_count, stroke_count;     /* FROM_PATHS */
CN_PUSH_END(cn_bbox_small_push)
CN_STATIC_ASSERT_SIZE(cn_bbox_small_push, 128);
#endif

#if !defined(VULKAN) || defined(CN_USE_BBOX_SMALL_SEGS_PUSH)
/* bbox_small_segs: bbox_small with FROM_PATHS whose dispatch also folds the
 * segments into the paths' key boxes (stages/bbox.c): the first workgroup to
 * start runs the stream, the ceil(count / WG) others fold WG segments each.
 * To stay within 128 bytes the stream's counts and the scratch offsets are
 * packed:
 * n_gb = n | group_bound << 16 (both at most 8192 here), idx_parens and
 * acc_pyramid two offsets of 4-byte words each (low 16 bits the first; the
 * scratch areas lie within 256 KiB). keys_at: the key boxes' byte offset
 * into scratch, then the two tickets (the words after the last path's
 * key). */
CN_PUSH_BEGIN(cn_bbox_small_segs_push)
  CN_PTR(TagBuf) tags;          /* out */
  CN_PTR(BoxBuf) boxes;         /* out */
  CN_PTR(BoxBuf) result;
  CN_PTR(U32Buf) status;
  CN_PTR(U32Buf) scratch;
  CN_PTR(ElemBuf) elements;
  CN_PTR(PathBuf) paths;
  CN_PTR(XformBuf) transforms;
  CN_PTR(StrokeBuf) strokes;
  CN_PTR(SegBuf) segments;
  CN_F32 vp_x0, vp_y0, vp_x1, vp_y1;
  CN_U32 n_gb;
  CN_U32 idx_parens, acc_pyramid; /* word offsets into scratch, 16 bits each */
  CN_U32 keys_at;
  CN_U32 count;                   /* segments */
  CN_U32 path_count, transform_count, stroke_count;
CN_PUSH_END(cn_bbox_small_segs_push)
CN_STATIC_ASSERT_SIZE(cn_bbox_small_segs_push, 128);
#endif

/* ------------------------------------------------------------------ bins --
 * bins_count / bins_fill: per chunk of rounds * 256 elements, per slice of bins
 * in shared memory: one 256-bit bitmap per bin and round gives counts (count)
 * and stream-order ranks (fill). matrix[bin * nchunks + chunk]: counts, then
 * (after an exclusive scan) offsets. bins_gather: bin_offsets[b] = matrix[b * nchunks].
 * bins_sg_count / bins_sg_fill (bins_sg.glsl): the same matrix layout, one
 * chunk of `rounds` elements (not rounds of 256) per subgroup. */
#if !defined(VULKAN) || defined(CN_USE_BINS_PUSH)
CN_PUSH_BEGIN(cn_bins_push)
  CN_PTR(BoxBuf) boxes;
  CN_PTR(U32Buf) matrix;
  CN_PTR(U32Buf) elems;     /* fill: out, at most capacity entries */
  CN_PTR(U32Buf) bin_offsets; /* gather: out, nbins + 1 entries */
  CN_F32 vp_x0, vp_y0;
  CN_U32 n;
  CN_U32 bin_size;
  CN_U32 nbx, nby;
  CN_U32 nchunks;
  CN_U32 rounds;
  CN_U32 capacity;
  CN_U32 count_slice;       /* fill: the count kernel's slice (its workgroups' live words) */
  CN_PTR(U32Buf) live;      /* count: out, fill: in (0: none); a word per count workgroup */
CN_PUSH_END(cn_bins_push)
CN_STATIC_ASSERT_SIZE(cn_bins_push, 80);
#endif

#endif
