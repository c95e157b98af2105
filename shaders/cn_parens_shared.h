/* cn_parens_shared.h: push constants and specialization constants of the
 * parentheses-matching kernels (stages/parens.c, shaders/parens_*.comp),
 * shared by C and GLSL. See include/canopy/cn_parens.h for the algorithm.
 *
 * One push-constant block serves every parens kernel; each kernel reads the
 * fields it needs. Scratch regions (all inside the caller's scratch buffer):
 *   slices  N1 * P int32: partition q's unmatched '(' indices, bottom first,
 *           at slices[q * P ...] (its count is tree/agg[q].y)
 *   tree    multi-pass: a binary tree of bicyclic values over partitions in
 *           heap layout: level j (node count N1P >> j) starts at
 *           2 * N1P - (2 * N1P >> j); level 0 is one value per partition.
 *           lookback: agg[q], one value per partition.
 *   flags   lookback: word 0 the partition counter, word 1 + q partition q's
 *           state (0 nothing, 1 aggregate and slice, 2 window too; lowmark's
 *           one-pass form: 3 skip too).
 *   win     lookback: N1 * WINDOW int32: the top WINDOW entries of the stack
 *           after partition q, top first, -1 past the bottom.
 *           lowmark: N1 * P int32: the stack before partition q, top first,
 *           down to the depth q pops into (min(a_q + 1, P) entries).
 *           lowmark's one-pass form: N1 uvec2, partition q's skip (e + 1,
 *           a of the value of partitions (e, q]; parens_lm_onepass.glsl).
 * A bicyclic value is uvec2(a, b): a unmatched ')' then b unmatched '('. */
#ifndef CN_PARENS_SHARED_H
#define CN_PARENS_SHARED_H

#include "cn_config.h"

/* Specialization constant (constant_id) beyond CN_SPEC_WG_SIZE/CN_SPEC_ITEMS. */
#define CN_SPEC_PARENS_WINDOW 2 /* lookback: stack entries published per partition; lowmark reduce: slice length staged from; lowmark window: invocations per partition */
#define CN_SPEC_PARENS_SPIN 3   /* lookback: flag loads per partition before it redoes a predecessor */
#define CN_SPEC_PARENS_MATCH 3  /* lowmark match: its form (parens_lm_match.glsl); lowmark reduce: partitions per workgroup; lowmark window: entries in flight per invocation */
#define CN_SPEC_PARENS_ONEPASS_SPIN 4 /* lowmark one-pass: flag loads per workgroup before it computes a predecessor itself */
#define CN_SPEC_PARENS_LOCAL 4  /* lowmark match: the workgroup's invocations, a partition (WG) per subgroup (parens_lm.glsl); lowmark window: the reduce's elements per chunk */
#define CN_SPEC_PARENS_LONG 5   /* lowmark reduce and window: slices of at least this many entries are stored compactly (0: none) */

/* parens_match: the partitions before its own whose bicyclic values it walks
 * back over before it searches the partition tree (parens_stack.glsl); the
 * search then starts at partition q - NEAR, and from partition 1 it reads
 * level 0 alone: with n1 <= CN_PARENS_NEAR + 2 partitions the tree above
 * level 0 is never read, and simple and efficient do not build it. */
#define CN_PARENS_NEAR 32u

/* Partition states in flags (lookback; lowmark's one-pass form). */
#define CN_PARENS_FLAG_NONE 0u
#define CN_PARENS_FLAG_AGGREGATE 1u
#define CN_PARENS_FLAG_WINDOW 2u
#define CN_PARENS_FLAG_SKIP 3u /* lowmark one-pass: the skip past the partitions its window walk passed over too */

#if !defined(VULKAN) || defined(CN_USE_PARENS_PUSH)
CN_PUSH_BEGIN(cn_parens_push)
  CN_PTR(ParensIn) src;      /* n bytes, read as 32-bit words */
  CN_PTR(ParensOut) dst;     /* n int32 */
  CN_PTR(ParensI32) slices;  /* see above */
  CN_PTR(ParensBic) tree;    /* tree (multi-pass) or agg (lookback) */
  CN_PTR(ParensU32) flags;   /* lookback; clear: the words to zero */
  CN_PTR(ParensI32) win;     /* lookback */
  CN_U32 n;                  /* elements; clear: words */
  CN_U32 n1;                 /* partitions */
  CN_U32 n1p;                /* partitions rounded up to a power of two */
  CN_U32 level;              /* tree: first level this dispatch reads */
  CN_U32 levels;             /* tree: levels this dispatch writes */
  CN_U32 pad0;
CN_PUSH_END(cn_parens_push)
CN_STATIC_ASSERT_SIZE(cn_parens_push, 72);
#endif

#endif
