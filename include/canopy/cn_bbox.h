/* cn_bbox.h: the clip/blend box stage (stages/bbox.c): result boxes of every
 * element of a scene stream, on the GPU, with its CPU reference.
 *
 * Semantics (identical on GPU and CPU, bit for bit: only min/max on float32):
 *   - a draw (CN_TAG_FILL, CN_TAG_STROKE) gets its box ∩ the box of every
 *     enclosing clip (BEGIN_CLIP's box = its clip path's box) ∩ the viewport;
 *   - a group's BEGIN and END (clip or blend) both get the union of the result
 *     boxes of all draws between them; a group with none visible gets empty;
 *   - every empty result is the canonical empty box 0 0 0 0 (cn_box.h says
 *     what empty means and how inputs are cleaned: NaN boxes are empty, -0 and
 *     subnormal coordinates read as +0).
 *
 * GPU pipeline (cn_bbox_record), all on device, no host round trip:
 *   1. compaction: bbox_count counts BEGIN/END tags per block of elements (and
 *      resets the scratch the later kernels accumulate into), cn_scan_record
 *      scans the counts, bbox_compact writes the compacted group array
 *      (element index + a byte: bit 0 close, bit 1 blend) from ballot counts,
 *      the bytes by byte stores where the context has 8-bit buffer stores
 *      (cn_device_caps.storage_buffer_8bit; bbox_compact_bytes), else by
 *      atomic ORs into their words;
 *      streams of at most cn_tuning.bbox_compact_scan_max elements (2^20 by
 *      default) have no scan pass: each bbox_compact workgroup adds up the
 *      counts of the blocks before its own; where bbox_draws' blocks are
 *      smaller than the compaction's (by default from 2^20 to 2^22
 *      elements: 1024 against 512), bbox_compact also writes the count
 *      before each draws block;
 *   2. parentheses matching of the compacted bytes (cn_parens_record):
 *      for an END its BEGIN, for a BEGIN its enclosing BEGIN (with tickets
 *      that bbox_count zeroes: over few partitions the matching's reduce pass
 *      builds its partition tree, cn_parens_args.tickets);
 *   3. clips: pointer jumping inside partitions of group nodes in shared memory
 *      (bbox_clip_local): each BEGIN gets the ∩ of the clips of its ancestors
 *      inside its partition (acc) and a link to the first one outside it (a
 *      BEGIN still open at the end of its partition). All such BEGINs of a
 *      partition link to one BEGIN, its base: the last workgroup to finish
 *      (a ticket) follows the bases from partition to partition by pointer
 *      jumping in shared memory, giving each partition the whole clip stack
 *      box at its base (clipg). A BEGIN's whole clip stack box (∩ of its and
 *      its ancestors' clips and the viewport) is then acc[k], ∩ acc[t] ∩
 *      clipg[t's partition] where its link t leaves the partition;
 *   4. draws: bbox_draws, one element per invocation: group node c = the first
 *      after the draw (a block offset + a ballot count) names its innermost
 *      group (parens[c]); result = box ∩ that group's clip stack box (adding
 *      what its link brings itself below 2^23 elements; from there a pass
 *      over the group nodes, bbox_clip_nodes, writes each node's enclosing
 *      clip stack box first: cn_tuning.bbox_clip_join); and
 *      gap[c] ∪= result (ordered-int keys, subgroup-reduced atomics): the union
 *      of the draws between group nodes c - 1 and c; a BEGIN/END's slot gets
 *      the empty box here (rows of whole 32-byte sectors), its box in step 5;
 *   5. blends: bbox_pyramid builds a union pyramid over gap[] in one dispatch
 *      (8 levels per workgroup, 8 more by the last of each run of 256
 *      workgroups to finish, the rest by the last run), bbox_groups answers each group's union (gap[BEGIN + 1 .. END], a range
 *      query, paper 6.2) at its END and writes it to the BEGIN and the END.
 *
 * Small streams (n <= cn_tuning.bbox_small_max, 4096 by default and at
 * most) run all of it in one workgroup and one dispatch instead (bbox_small; one
 * element per invocation up to 1024 elements, in the smallest power-of-two
 * workgroup from 128 that holds them, else 1024 invocations holding up to 4
 * elements each in registers: more ran out of registers on the H200 and
 * spilled; cn_tuning.bbox_small_wg sets another size, up to 8 elements each
 * where the workgroup is smaller), with the same results and status bit for
 * bit: compaction and depths by workgroup scans; matching as "the last group
 * node before k whose depth (+1 per BEGIN, -1 per END, unclamped) is lower",
 * found in a 16-bit min tree of the depths in shared memory; clips by
 * pointer jumping per chunk of a workgroup's group nodes (stopping once no
 * link stays in the chunk); draws with a segmented subgroup scan in place of
 * per-element atomics; blends by the same pyramid (its levels inside a
 * subgroup by shuffles) and range queries. Workgroup barriers replace the dispatches between the
 * phases; nothing waits on another workgroup. The timer then marks one span,
 * "bbox small".
 *
 * Unbalanced streams: the GPU does not stop; it reports in a cn_bbox_status
 * (every END whose parens match is missing or of the other kind, the count of
 * ENDs against the count of group nodes, unknown tags). cn_bbox_status_check()
 * turns it into an error; results are unspecified when it fails. The
 * convenience call cn_bbox_run() then names the first offending element by a
 * CPU pass over the tags (cn_bbox_validate).
 *
 * Limits: n < 2^32 - 2^12 elements, BEGIN/END elements < 2^31 (parentheses
 * matching); no limit on clips, groups or depth (a nested chain crossing
 * many clip partitions costs nothing per node: bbox_clip_local's last
 * workgroup follows the partitions' bases, a workgroup's worth of partitions
 * a round; on the H200 the clip stage takes 54 us at 2^24 elements, 1.7
 * million group nodes in 1640 partitions, two rounds).
 * bbox_compact and bbox_draws number invocations by subgroup (id * size +
 * lane): workgroups must be whole subgroups (256 with subgroups of 8 to 64,
 * as on lavapipe and the H200). group_bound (>= the BEGIN/END count) sizes scratch and the
 * matching: a larger bound only costs time (the matching runs over zero
 * padding after the real group nodes, which cannot change their results); a
 * stream with more group nodes is reported (CN_ERROR_LIMIT), never overrun.
 */
#ifndef CN_BBOX_H
#define CN_BBOX_H

#include "canopy.h"
#include "cn_scene.h"
#include "cn_parens.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cn_timer cn_timer;

/* Written by the GPU at status (16 bytes, 4-byte aligned). */
typedef struct cn_bbox_status {
  uint32_t group_count;     /* BEGIN/END elements in the stream */
  uint32_t close_count;     /* END elements */
  uint32_t first_bad_close; /* first END without a BEGIN of its kind; UINT32_MAX if none */
  uint32_t first_bad_tag;   /* first element with an unknown tag; UINT32_MAX if none */
} cn_bbox_status;

typedef struct cn_bbox_args {
  VkDeviceAddress tags;     /* n uint32 CN_TAG_* */
  VkDeviceAddress boxes;    /* n cn_box: draw boxes; at BEGIN_CLIP the clip path's box; others ignored */
  VkDeviceAddress result;   /* out: n cn_box (16-byte aligned) */
  VkDeviceAddress status;   /* out: cn_bbox_status */
  VkDeviceAddress scratch;  /* cn_bbox_scratch_bytes() bytes, 16-byte aligned */
  uint64_t n;
  uint64_t group_bound;     /* >= number of BEGIN/END elements (n if unknown; exact is fastest) */
  float viewport[4];        /* x0 y0 x1 y1; -inf -inf inf inf for unbounded */
  cn_timer *timer;          /* optional: marks "bbox compact", "bbox parens", "bbox clip", "bbox draws", "bbox blend";
                               small streams one span, "bbox small"; with cn_tuning.timer_passes also
                               each pass inside them ("bbox_count", "bbox counts' scan" where the
                               compaction scans, "parens <pass>",
                               "bbox_clip_nodes" where it runs, "bbox_pyramid") */
  cn_parens_variant parens; /* the matching variant of the multi-pass kernels (CN_PARENS_AUTO = 0 by
                               default; bbox_small matches on its own) */
  /* Optional: a persistent scan look-back state (cn_scan.h) for the stage's
   * scan instead of scratch, which saves the scan's clearing dispatch:
   * scan_state_bytes at least cn_bbox_scan_state_bytes(), zeroed once by
   * cn_scan_state_init and shared by nothing that runs beside the stage.
   * 0: the scan uses scratch. */
  VkDeviceAddress scan_state;
  uint64_t scan_state_bytes;
} cn_bbox_args;

/* Scratch bytes cn_bbox_record() needs. */
CN_API uint64_t cn_bbox_scratch_bytes(cn_context *ctx, const cn_bbox_args *args);
/* Bytes of a persistent scan state for the compaction's scan (cn_bbox_args.scan_state). */
CN_API uint64_t cn_bbox_scan_state_bytes(cn_context *ctx, const cn_bbox_args *args);

/* Records the stage into cmd (a barrier first is the caller's; none at the
 * end: add one before reading result or status). Fails with
 * CN_ERROR_INVALID_ARGUMENT / CN_ERROR_LIMIT on bad sizes, recording nothing. */
CN_API cn_result cn_bbox_record(cn_context *ctx, VkCommandBuffer cmd, const cn_bbox_args *args);

/* CN_OK when the status says the stream was balanced and within group_bound;
 * else the error (CN_ERROR_UNBALANCED, CN_ERROR_LIMIT, CN_ERROR_INVALID_ARGUMENT) with a message. */
CN_API cn_result cn_bbox_status_check(const cn_bbox_status *status, uint64_t group_bound);

/* Number of BEGIN/END tags (a group_bound that is exact). */
CN_API uint64_t cn_bbox_count_groups(const uint32_t *tags, uint64_t n);

/* Checks tags on the CPU: known tags, balanced, every END closing a BEGIN of
 * its kind. The error names the first offending element. */
CN_API cn_result cn_bbox_validate(const uint32_t *tags, uint64_t n);

/* CPU reference: the same results sequentially (a stack). Fails like
 * cn_bbox_validate on a bad stream (out is then unspecified). */
CN_API cn_result cn_bbox_cpu(const uint32_t *tags, const cn_box *boxes, uint64_t n, const float viewport[4], cn_box *out);

/* Convenience (standalone contexts): uploads, records, checks the status,
 * downloads result. On an unbalanced stream, the error of cn_bbox_validate. */
CN_API cn_result cn_bbox_run(cn_context *ctx, const uint32_t *tags, const cn_box *boxes, uint64_t n,
                      const float viewport[4], cn_box *out);

#ifdef __cplusplus
}
#endif

#endif
