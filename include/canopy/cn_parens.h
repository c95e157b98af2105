/* cn_parens.h: parentheses matching on the GPU (stages/parens.c, shaders/parens*.comp).
 *
 * Definition. For a sequence of '(' and ')', out[i] is the index on top of the
 * stack just before element i is processed, or -1 when the stack is empty;
 * '(' pushes its own index, ')' pops when the stack is not empty. So a '('
 * gets its enclosing '(', a ')' its matching '(', an unmatched ')' gets -1
 * (or the '(' enclosing it once the stack is nonempty again). Unbalanced input
 * is valid input; the nesting depth is unlimited.
 *
 * Inputs:  n bytes at device address `in` (4-byte aligned; the buffer holds
 *          whole 32-bit words, so bytes up to the next multiple of 4 must be
 *          readable). Only the low bit of a byte counts: 0 open, 1 close, so
 *          ASCII '(' (0x28) and ')' (0x29) work directly.
 * Outputs: n int32 at `out` (4-byte aligned; LOWMARK: in and out 16-byte aligned).
 * Scratch: cn_parens_scratch_bytes() bytes at `scratch` (16-byte aligned).
 *          Sized for the worst case (every partition's slice as deep as the
 *          partition, every look-back window full): no data-dependent overflow,
 *          nothing to detect or re-run. About 4 bytes per element (+ 1/32 of
 *          that for the look-back windows, + a few bytes per partition;
 *          LOWMARK about 8: slices and windows).
 * Limits:  n < 2^31 (indices are int32), else CN_ERROR_LIMIT. Any depth.
 *
 * Shapes (workgroup x elements per invocation = partition P), defaults from
 * an H200 sweep (docs/PERF.md), halved on devices with less shared memory;
 * cn_parens_tuning replaces them for benchmarking and tests.
 *
 * Variants:
 *   SIMPLE     the paper's algorithm with one element per invocation (k = 1,
 *              P = 64; up to 2^19 elements partitions of 256 or 512
 *              invocations of 1 or 2 elements, at most 256 of them, or at
 *              most 34, so that the walk below reaches every partition and
 *              no tree is built): pass 1 per partition: its bicyclic value (a, b) (a
 *              unmatched ')', b unmatched '(') and its stack slice (the b
 *              unmatched '(' indices, by a reverse bicyclic scan over the
 *              workgroup and a compaction); pass 2 a binary tree of bicyclic
 *              values over partitions (as many levels as n needs, 8 per
 *              dispatch, so no w^2 limit; none over at most 34 partitions; with
 *              tickets over at most 1024 built by pass 1's last workgroups,
 *              cn_parens_args.tickets); pass 3 per partition: the stack
 *              before it, down to the depth the partition pops into, each entry
 *              found by walking back over the 32 nearest partitions' values and
 *              then searching the tree, ending in one partition's slice; then
 *              each element's match by a binary search over the bicyclic tree
 *              of the workgroup in shared memory.
 *   EFFICIENT  the same passes with k = 4 elements per invocation (P = 512;
 *              paper section 8, with our own chunk bookkeeping): each invocation
 *              keeps its chunk's unmatched '(' as a bitmask, so walking the
 *              chunk is O(1) per element; only when the chunk's own stack is
 *              empty does it search the workgroup tree (once per depth).
 *   LOOKBACK   one pass with decoupled look-back (k = 8, P = 2048, windows of
 *              P/32 = 64 entries): each workgroup takes its partition id from an
 *              atomic counter, publishes its bicyclic value and slice (state
 *              AGGREGATE), walks back over earlier partitions to build the stack
 *              before it (a WINDOW partition's published top entries first, else
 *              an AGGREGATE partition's slice), then publishes its own window
 *              (state WINDOW) and writes its outputs. When the entries needed lie
 *              below a window, the walk follows the window's bottom entry (a
 *              backlink) to the partition that pushed it and continues below it,
 *              so a deep stack costs a few hops, not a step per partition.
 *   LOWMARK    a prefix sum and searches over low-water marks, no stack (k =
 *              16, workgroup 128, P = 2048; from 2^22 elements workgroup
 *              64, P = 1024; from 2^24 workgroup 32, P = 512; k may be 16
 *              or 32). With g(k) = (number of '(' minus
 *              number of ')') in elements [0, k), out[i] is the largest k < i
 *              with g(k) < g(i), or -1 (a previous-smaller-value search):
 *              the '(' at k pushed the stack to depth g(i), and nothing after
 *              it went lower. Four kinds of dispatch:
 *              1. per partition (parens_lm_reduce): each invocation loads its
 *                 16 elements as one uvec4 and takes their sum and low mark
 *                 four at a time from a nibble table (only a chunk with
 *                 survivors walks its elements for its bitmask of unmatched
 *                 '('); a subgroup-based sum and
 *                 suffix minimum over the workgroup give the partition's
 *                 bicyclic value (a, b) = (-low, sum - low) and its stack
 *                 slice: an unmatched '(' sits at slot g(k) - low, so each
 *                 survivor writes itself, no compaction; in partitions of
 *                 at most 512 elements a slice of at least a quarter of a
 *                 partition (deep input) is stored compactly instead, per
 *                 chunk its survivors' bitmask and first slot, 8 bytes a
 *                 chunk (where a partition
 *                 is one subgroup and this pass builds no tree, two
 *                 partitions a workgroup, one per subgroup:
 *                 parens_lm_reduce_multi);
 *              2. the bicyclic tree over partitions (as the other multi-pass
 *                 variants, 8 levels per dispatch, any n; with tickets over
 *                 at most 256 partitions built by pass 1's last workgroup);
 *              3. per partition (parens_lm_window): the stack before it down
 *                 to the depth it pops into, by tree searches continued down
 *                 the slices (a compact slice's entries selected from its
 *                 chunks' bitmasks), 32 invocations per partition of 1024
 *                 elements or more, 16 per smaller one, written to a
 *                 window in scratch; apart from the matching so that many
 *                 partitions' chains of dependent reads overlap; partitions
 *                 of at most 512 elements first walk the values of the 16
 *                 before them, loaded at once into shared memory, and
 *                 search the tree only below those;
 *              4. per partition (parens_lm_match): each invocation walks
 *                 its 16 elements in registers; a '(' still open in its chunk
 *                 is the answer, else the element records the depth it needs
 *                 (0, 1, ... below the chunk's start). Then, per chunk and not
 *                 per element, those depths are answered: the last earlier
 *                 chunk whose low mark is below the depth holds it as one of
 *                 its unmatched '(' (a bit select in its bitmask, kept in
 *                 shared memory), found by following previous-smaller links
 *                 between chunks (each computed once, within a subgroup by
 *                 binary lifting over shuffled minima, across subgroups from
 *                 their minima); with no such chunk the
 *                 partition's window holds it. Then the recorded depths are
 *                 patched (from an array of the invocation's own, by depth;
 *                 where a chunk of the subgroup asks more than 13 depths, as
 *                 deep input does, by a select per element as each depth is
 *                 answered) and the outputs leave as 16-byte stores. Where a
 *                 partition is one subgroup (a fixed subgroup size equal to
 *                 the shape's workgroup), a workgroup holds two partitions,
 *                 one per subgroup, with subgroup barriers only. Tuning:
 *                 lowmark_stage stages them through shared memory for
 *                 contiguous stores; lowmark_rewalk walks the chunk a second
 *                 time after the queries instead of holding its outputs in
 *                 registers; lowmark_psv_tables builds the links by binary
 *                 lifting over min tables in shared memory instead;
 *                 lowmark_psv_per_lane uses one shuffle per earlier lane
 *                 instead of the lifting; lowmark_window_cache loads the window's
 *                 first wg entries into shared memory with the input;
 *                 lowmark_reduce_parts has each reduce workgroup work
 *                 through several partitions, the next one's input loaded
 *                 ahead; lowmark_slice_stage_from sets the slice length from
 *                 which the reduce kernel stages slices through shared
 *                 memory; lowmark_window_batch the window entries each
 *                 invocation of the window kernel has in flight, and
 *                 lowmark_window_lanes its invocations per partition;
 *                 lowmark_compact_from the slice length from which the
 *                 reduce kernel stores a slice compactly (per chunk its
 *                 survivors' bitmask and first slot) for the window kernel
 *                 to select entries from;
 *                 lowmark_match_parts the partitions of a matching
 *                 workgroup, one per subgroup, and lowmark_reduce_multi
 *                 those of a reduce workgroup;
 *                 lowmark_onepass runs the variant in one dispatch, each
 *                 partition publishing its value and slice and then
 *                 looking back over the earlier partitions' for its window
 *                 (slower on the H200: docs/PERF.md).
 *              Needs in and out 16-byte aligned (CN_ERROR_INVALID_ARGUMENT
 *              otherwise) and full subgroups (chunk order follows subgroup
 *              id and lane).
 *   SINGLE     small inputs in one dispatch: one workgroup, no scratch, no
 *              barrier between passes (n <= cn_parens_single_max(): 1024
 *              invocations x 16 elements). Two forms (tuning.single_form):
 *              the low-mark form (the default) is LOWMARK's matching kernel
 *              over the whole input with an empty stack before it: 16
 *              elements per invocation, else 32, in the smallest
 *              power-of-two workgroup that covers n, with min tables and
 *              index rows in shared memory where they fit, else subgroup
 *              links (binary lifting over shuffled low marks) and
 *              bitmasks; where the device's shared memory holds
 *              that workgroup (on a 48 KiB device: n <= 8192) and in and
 *              out are 16-byte aligned; otherwise the tree
 *              form: the EFFICIENT partition walk with no stack before the
 *              partition (chunk bitmasks, a bicyclic tree over the chunks in
 *              shared memory, each element's match by a tree search), 4, 8
 *              or 16 elements per invocation, the fewest that cover n.
 *   AUTO       the variant measured fastest for n on the H200 (docs/PERF.md):
 *              single where its low-mark form holds n (else up to 2^12, the
 *              tree form), simple below 2^18, lowmark from there; efficient
 *              instead of lowmark, and simple instead of single above 2^12,
 *              when in or out is not 16-byte aligned.
 *
 * Memory ordering of LOOKBACK. Flag accesses are relaxed atomics by one
 * invocation; ordering comes from workgroup-uniform control barriers with
 * device-scope acquire-release semantics on buffer memory, acting as fences:
 *   publish: every invocation stores slice / value / window entries to
 *            `coherent` buffers; control barrier (device scope, acq_rel);
 *            invocation 0 atomically stores the flag: a release fence before
 *            the store, so whoever reads the flag sees the data;
 *   consume: invocation 0 spins on an atomic load of the flag; control barrier
 *            (device scope, acq_rel); then `coherent` loads of what the flag
 *            covers: an acquire fence after the load.
 * Fences stay out of divergent code on purpose: llvmpipe turns a memory
 * barrier inside one invocation's branch into a workgroup barrier, which
 * desynchronises the workgroup. Flags and the counter are zeroed by a kernel
 * at the start of each recording, followed by a barrier.
 *
 * Forward progress. A workgroup only waits on lower partition ids, taken by
 * workgroups already running, so on a GPU the spin ends. llvmpipe, however,
 * ends every loop of an invocation once all its loops together have iterated
 * 65535 times; so a spin has a budget, and when it runs out the waiting
 * workgroup computes the missing partition's value and slice itself (the
 * same values that partition writes) and goes on. Tested on lavapipe, where
 * this happens.
 */
#ifndef CN_PARENS_H
#define CN_PARENS_H

#include "canopy.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cn_parens_variant {
  CN_PARENS_AUTO = 0,
  CN_PARENS_SIMPLE,
  CN_PARENS_EFFICIENT,
  CN_PARENS_LOOKBACK,
  CN_PARENS_LOWMARK,
  CN_PARENS_SINGLE,
  CN_PARENS_VARIANT_COUNT
} cn_parens_variant;

/* Largest n the GPU variants accept. */
#define CN_PARENS_MAX_N 0x7fffffffull

/* cn_parens_tuning.lowmark_compact_from: no slice stored compactly. */
#define CN_PARENS_COMPACT_NEVER 0xffffffffu

/* A variant's shape: invocations per workgroup (a power of two, 32 ..
 * the device's limit), elements per invocation (1, 2 or a multiple of 4, at
 * most 32; lowmark 16 or 32; single: the largest workgroup and its elements
 * per invocation, used for every n; with k = 16 or 32 the low-mark form runs
 * with that k where it holds n) and, for lookback, the stack entries
 * each partition publishes (1 .. wg * k). All zero: the variant's default. */
typedef struct cn_parens_shape {
  uint32_t wg, k, window;
} cn_parens_shape;

/* Tuning of the matching (benchmarks and tests); a zeroed struct, or a NULL
 * pointer, means the defaults. */
typedef struct cn_parens_tuning {
  /* Per variant (indexed by cn_parens_variant): a shape replacing the default;
   * one the device cannot run fails with CN_ERROR_INVALID_ARGUMENT. */
  cn_parens_shape shape[CN_PARENS_VARIANT_COUNT];
  /* Multi-pass variants: partition-tree levels per dispatch, 1..8 (0: 8). Fewer
   * levels reach many tree dispatches with few elements (tests). */
  uint32_t tree_levels;
  /* lookback: flag loads per partition before it computes a predecessor it
   * waits for itself (0: 16384). Small values exercise that path (tests). */
  uint32_t spin_budget;
  /* lowmark's matching kernel: stage outputs through shared memory for
   * contiguous stores; walk the chunk twice instead of holding its outputs. */
  bool lowmark_stage, lowmark_rewalk;
  /* lowmark's matching kernel: previous-smaller links by binary lifting
   * over min tables in shared memory (log2(wg) levels, a barrier each)
   * instead of subgroup shuffles and a search over the subgroups' minima
   * (one barrier, one level). (single's low-mark form picks its own.) */
  bool lowmark_psv_tables;
  /* lowmark's matching kernel: previous-smaller links inside a subgroup by
   * one shuffle per earlier lane instead of binary lifting over shuffled
   * minima (2 log2(subgroup) - 1 shuffles, the default; no effect with
   * lowmark_psv_tables). */
  bool lowmark_psv_per_lane;
  /* lowmark's matching kernel: the window's first wg entries loaded with
   * the input into shared memory, so that the queries below the partition
   * read them there instead of from global memory inside the query loop. */
  bool lowmark_window_cache;
  /* lowmark's reduce kernel: partitions per workgroup, one after the other,
   * the next one's input loaded while the current one is reduced (0: the
   * default, see stages/parens.c; at most 64). */
  uint32_t lowmark_reduce_parts;
  /* lowmark's reduce kernel: partitions per workgroup side by side, one per
   * subgroup (0: the default, 2, see stages/parens.c; a power of two). Taken
   * where every subgroup has the partition's invocations (as
   * lowmark_match_parts), the reduce builds no tree (more than 256
   * partitions, or no tickets) and stages no slice; else 1. */
  uint32_t lowmark_reduce_multi;
  /* lowmark's reduce kernel: a partition's slice of at least this many
   * entries is assembled in shared memory and leaves in 16-byte stores (a
   * barrier); a shorter one is written straight from the invocations that
   * hold its entries, each its run four entries a store where the run
   * crosses 16-byte boundaries (0: the default, no slice staged, and the
   * kernel without the shared copy; 1: every slice staged). */
  uint32_t lowmark_slice_stage_from;
  /* lowmark's window kernel: window entries each invocation loads before it
   * stores them, where the slice and the window both hold that many rows
   * (0: the default, see stages/parens.c; 1: one at a time; at most 16). */
  uint32_t lowmark_window_batch;
  /* lowmark's window kernel: invocations per partition, 1 to 64, a power of
   * two (0: the default, see stages/parens.c). */
  uint32_t lowmark_window_lanes;
  /* lowmark: a partition's slice of at least this many entries is stored
   * compactly by the reduce kernel, each chunk's unmatched '(' as a bitmask
   * and the slot of its first (8 bytes a chunk of 16 or 32 elements instead
   * of 4 bytes an entry; deep input), and the window kernel selects the
   * entries it needs from the bitmasks. 0: the default, a quarter of a
   * partition where a partition has at most 512 elements (lowmark from
   * 2^24 elements), none in larger ones; CN_PARENS_COMPACT_NEVER: every
   * slice an entry a slot. */
  uint32_t lowmark_compact_from;
  /* lowmark's matching kernel: partitions per workgroup, one per subgroup
   * (0: the default, see stages/parens.c; 1: one partition a workgroup).
   * Taken where every subgroup has the partition's invocations (the
   * device's subgroup size is fixed and equal to the shape's workgroup) and
   * the matching form is the default one (answers outside shared memory, no staging,
   * second walk, min tables, index rows or window cache); else 1. */
  uint32_t lowmark_match_parts;
  /* lowmark in one dispatch: each partition publishes its value and slice
   * as soon as it has them and finds its window by looking back over the
   * earlier partitions' (no reduce, tree or window pass; the input read
   * once). spin_budget bounds its waits as lookback's. On a device that
   * limits an invocation's loop trips (lavapipe) only where the look-back
   * fits them, else the four passes. */
  bool lowmark_onepass;
  /* single's form (see SINGLE above): CN_PARENS_SINGLE_TREE or
   * CN_PARENS_SINGLE_LOWMARK (where it holds n and the buffers are 16-byte
   * aligned, else the tree form); 0: the low-mark form. */
  uint32_t single_form;
  /* single's low-mark form: previous-smaller links from subgroup shuffles and
   * the subgroups' minima (one barrier, as lowmark's matching kernel) instead
   * of min tables (log2(workgroup) levels, a barrier each), index rows kept
   * where they fit. */
  bool single_psv_links;
  /* With tickets (cn_parens_args.tickets): build the partition tree in
   * parens_tree dispatches of its own all the same. */
  bool tree_apart;
} cn_parens_tuning;

enum { CN_PARENS_SINGLE_TREE = 1, CN_PARENS_SINGLE_LOWMARK = 2 };

/* One matching: what cn_parens_record() records (see the header comment for
 * the buffers and their alignment). */
typedef struct cn_parens_args {
  cn_parens_variant variant;
  VkDeviceAddress in, out, scratch;
  uint64_t n;
  const cn_parens_tuning *tuning; /* NULL: the context's (cn_tuning.parens), else the defaults */
  /* Optional: a timestamp after each pass, labelled "parens <pass>" (reduce,
   * tree, window, match, clear, lookback, single), so one recording times
   * its passes. Each mark adds a barrier before it. */
  cn_timer *timer;
  /* Optional: cn_parens_ticket_bytes() bytes, 4-byte aligned, that are zero
   * when the matching starts (they are zero again when it ends, so one
   * zeroing serves every later matching that nothing else interleaves with).
   * simple and efficient over at most 1024 partitions and lowmark over at
   * most 256 (one partition per reduce workgroup, the default) then build the partition tree
   * above level 0 at the end of their reduce pass: the last workgroup of each
   * run of 256 partitions to finish builds 8 levels, the last of those runs
   * the rest (instead of a tree dispatch and barrier per 8 levels; over more
   * partitions the tickets' fences cost more than those). 0: the tree
   * dispatches. */
  VkDeviceAddress tickets;
} cn_parens_args;

/* "auto", "simple", "efficient", "lookback", "lowmark", "single"; "?" for a bad value. */
CN_API const char *cn_parens_variant_name(cn_parens_variant v);
/* Parses a name of cn_parens_variant_name(); false if unknown. */
CN_API bool cn_parens_variant_parse(const char *name, cn_parens_variant *out);

/* The variant AUTO runs for n elements on this context: by size, then the first
 * whose scratch fits the device's largest allocation (lowmark, efficient, lookback, simple). */
CN_API cn_parens_variant cn_parens_choose(cn_context *ctx, uint64_t n);

/* Largest n of the SINGLE variant on this device (16 * the largest workgroup
 * whose shared memory fits: 2^14 on the H200 and on lavapipe). */
CN_API uint64_t cn_parens_single_max(cn_context *ctx);

/* Elements per partition (workgroup) of a->variant with a->tuning on this
 * device for a->n elements (AUTO: of the variant chosen for a->n, or for a
 * large n when a->n is 0; SINGLE: its largest n; LOWMARK's default shape has
 * half the workgroup from 2^22 elements and a quarter from 2^24, a->n = 0
 * gives the shape below 2^22); 0 for a bad variant or shape. Tests build boundary sizes from it. */
CN_API uint64_t cn_parens_partition_size(cn_context *ctx, const cn_parens_args *a);

/* Bytes of scratch cn_parens_record() needs for a->variant, a->n and a->tuning
 * (0 for n == 0, a bad variant or shape). */
CN_API uint64_t cn_parens_scratch_bytes(cn_context *ctx, const cn_parens_args *a);

/* Bytes of cn_parens_args.tickets for up to n elements, any variant and shape:
 * a word per run of 256 partitions of the smallest shape (32 elements), per
 * level of runs. */
CN_API uint64_t cn_parens_ticket_bytes(uint64_t n);

/* Records the matching of a->n elements into cmd; no trailing barrier: add
 * cn_cmd_barrier() before reading out. n == 0 records nothing. Fails with
 * CN_ERROR_INVALID_ARGUMENT (bad variant or shape, misaligned address),
 * CN_ERROR_LIMIT (n too large, for SINGLE above cn_parens_single_max()), or a
 * pipeline error. */
CN_API cn_result cn_parens_record(cn_context *ctx, VkCommandBuffer cmd, const cn_parens_args *a);

/* Standalone convenience: uploads in[0..n), matches with variant v (tuning
 * may be NULL), reads back out[0..n). */
CN_API cn_result cn_parens(cn_context *ctx, cn_parens_variant v, const cn_parens_tuning *tuning, const uint8_t *in,
                    int32_t *out, uint64_t n);

/* CPU reference: a sequential, branchless explicit stack (n + 1 int32 of
 * host memory, no recursion); if that allocation fails, the stack kept in
 * out[] itself (popping follows out[top]). Any n. */
CN_API void cn_parens_cpu(const uint8_t *in, int32_t *out, uint64_t n);

#ifdef __cplusplus
}
#endif

#endif
