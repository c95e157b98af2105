// bbox_small: the whole bbox stage of a small stream (n <= WG * ITEMS
// elements, at most TREE_CAP BEGIN/END kept) in one workgroup and one
// dispatch (stages/bbox.c): the same results, bit for bit, as the multi-pass
// kernels (bbox_count .. bbox_groups), phase after phase with workgroup
// barriers in between instead of dispatches.
//
// Lane t (subgroup id * subgroup size + invocation) holds elements t, WG + t,
// 2 WG + t, ... (rows of WG consecutive elements): their tags and boxes in
// registers through phase 1, then one word each (group nodes before it, its
// kind) to the end; phase 4 loads the draws' boxes again (with
// BBOX_SMALL_SEGMENTS they are in registers from phase 2 on). 1024 invocations
// leave 64 registers each: per-row arrays held across the phases went to
// local memory at 4 rows (docs/PERF.md).
//  1. compaction: a workgroup scan of (BEGIN/END, depth step) over all the
//     rows (one barrier) gives each group node its slot k and the depth g(k)
//     before it (+1 per BEGIN, -1 per END, not clamped); idx[k] = element |
//     kind bits; g(k) goes to level 0 of a min tree in shared memory (16-bit
//     entries).
//  2. matching: the top of the stack before node k is the last node j < k
//     with g(j) < g(k) (-1 if none; an END on an empty stack pops nothing,
//     which the unclamped g accounts for: everything before is then higher),
//     found by a climb and a descent of the min tree; a node whose g is the
//     least of all (the outermost BEGINs) has none and skips the search.
//  3. clips: per chunk of WG group nodes, pointer jumping in shared memory
//     (as bbox_clip_local) while links stay in the chunk, from each BEGIN's
//     own clip (written to acc[] in phase 1); a link that leaves the chunk
//     points at a BEGIN of an earlier chunk whose clip stack box is final.
//     Skipped where no group nests in another (phase 1 wrote each BEGIN's
//     own clip, which is then its clip stack box).
//  4. draws: result = box ∩ clip stack box of the innermost group (or the
//     viewport); gap[c] ∪= result (ordered-int keys) where c = group nodes
//     before the draw: draws with the same c are consecutive, so a subgroup
//     reduction (all lanes one c) or a segmented subgroup scan leaves one
//     lane per run to do the atomics (each lane its own where no two
//     neighbouring lanes contribute to one c); a run that holds every
//     element of its c (it starts and ends inside the subgroup) stores its
//     union instead (material_design_icons: 1.3 µs sooner, docs/PERF.md).
//  5. blends: the union pyramid over gap[] (bbox_pyramid's layout, levels in
//     shared memory per chunk of WG leaves), built only up to the level at
//     which the longest link of phase 2 spans at most 4 entries, and one
//     range query per END.
// Status words as the multi-pass kernels write them. Needs workgroups of
// whole subgroups.
//
// FROM_PATHS (the scene stage's small scenes, stages/scene_stage.c): the
// element boxes of the path-box stage are computed here instead of by
// pathbox_elements, from the elements and the paths' key boxes that
// pathbox_segments left in scratch (the same code, pathbox.glsl, so the same
// bits); tags[] and boxes[] are written as pathbox_elements writes them.
//
// BBOX_SMALL_SEGMENTS (bbox_small_segs.comp; the scene stage's small scenes
// by default): FROM_PATHS whose dispatch also folds the segments into the
// key boxes, instead of a pathbox_segments dispatch and a barrier before
// it. The workgroups take tickets as they start: the first (front) loads
// the elements (their tags, their strokes' pads: element_pad) and runs
// phases 1 and 2, which need no box, while the others fold WG segments each
// (fold_segment, as pathbox_segments). (The ticket rather than the
// workgroup id: on the H200 the front then starts its loads before the
// segment workgroups issue theirs, 0.3 - 1 µs sooner done on the real
// scenes, docs/PERF.md.) Each then takes a second ticket; the last of the
// dispatch's workgroups to finish goes on (no workgroup waits for another:
// as pathbox_fused, nothing depends on the order in which workgroups run):
// it loads the keys, writes the element boxes and the BEGIN_CLIPs' own
// clips, and runs phases 3 to 5. A segment workgroup that finishes last
// runs phases 1 and 2 itself first (writing what the front wrote, the same
// values), so that every scratch word it reads it wrote
// (workgroupcoherent suffices); only the keys come from other workgroups (a
// coherent reference, after the device-scope barriers around the ticket).
// It leaves the keys empty and the tickets 0 for the next frame.
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_EXT_control_flow_attributes : require
#include "common.glsl"
#include "cn_scene_layout.h"

layout(constant_id = CN_SPEC_WG_SIZE) const uint WG = 1024;
layout(constant_id = CN_SPEC_ITEMS) const uint ITEMS = 8;
layout(local_size_x_id = CN_SPEC_WG_SIZE) in;

layout(buffer_reference, std430, buffer_reference_align = 4) buffer TagBuf { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) workgroupcoherent buffer BoxBuf { vec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) workgroupcoherent buffer U32Buf { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) workgroupcoherent buffer I32Buf { int v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) workgroupcoherent buffer KeyBuf { ivec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) workgroupcoherent buffer KeyIntBuf { int v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer ElemBuf { cn_element v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer PathBuf { cn_path v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer XformBuf { cn_transform v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer StrokeBuf { cn_stroke v[]; };
// the path keys (FROM_PATHS): read, then left empty for the next frame (not
// readonly: a write through a readonly reference is undefined)
layout(buffer_reference, std430, buffer_reference_align = 16) buffer PathKeyBuf { ivec4 v[]; };
#ifdef BBOX_SMALL_SEGMENTS
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer SegBuf { cn_segment v[]; };
// the keys other workgroups fold into, and the two tickets after them
layout(buffer_reference, std430, buffer_reference_align = 16) coherent buffer SegKeyBuf { ivec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) coherent buffer TicketBuf { uint v[]; };
#define CN_USE_BBOX_SMALL_SEGS_PUSH
#include "cn_scene_stage_shared.h"
#define BS_N (pc.n_gb & 0xFFFFu)
#define BS_GROUP_BOUND (pc.n_gb >> 16)
#define BS_IDX_AT ((pc.idx_parens & 0xFFFFu) * 4u)
#define BS_PARENS_AT ((pc.idx_parens >> 16) * 4u)
#define BS_ACC_AT ((pc.acc_pyramid & 0xFFFFu) * 4u)
#define BS_PYRAMID_AT ((pc.acc_pyramid >> 16) * 4u)
#define PB_KEYS SegKeyBuf(uint64_t(pc.scratch) + uint64_t(pc.keys_at))
#define CN_PATHBOX_SEGMENT_STEP
const uint FROM_PATHS = 1u;
#else
#define CN_USE_BBOX_SMALL_PUSH
#include "cn_scene_stage_shared.h"
#define BS_N pc.n
#define BS_GROUP_BOUND pc.group_bound
#define BS_IDX_AT pc.idx_at
#define BS_PARENS_AT pc.parens_at
#define BS_ACC_AT pc.acc_at
#define BS_PYRAMID_AT pc.pyramid_at
layout(constant_id = CN_SPEC_BBOX_FROM_PATHS) const uint FROM_PATHS = 0;
#endif
layout(constant_id = CN_SPEC_BBOX_TREE_CAP) const uint TREE_CAP = 4096;
#define CN_PATHBOX_ELEMENT_STEP
#include "scene_box.glsl"
#include "pathbox.glsl"
#include "bbox_keys.glsl"

// The scratch areas (set first in main).
U32Buf g_idx;
I32Buf g_parens;
BoxBuf g_acc;
KeyBuf g_pyramid;

// Kind bits of idx[] (n < 2^30 here).
const uint IDX_CLOSE = 1u << 30, IDX_BLEND = 1u << 31, IDX_ELEM = IDX_CLOSE - 1u;
// The depth tree stores g + DEPTH_BIAS as 16 bits (|g| <= TREE_CAP < 2^15).
const uint DEPTH_BIAS = 32768u;
// Kinds of an element in range (kc[]): any other tag is KIND_OTHER.
const uint KIND_OTHER = 0u, KIND_DRAW = 1u, KIND_GROUP = 2u;

// One array the phases use in turn: the 16-bit min tree of phase 2 (about
// 2 TREE_CAP entries), the clip values and links of a chunk in phase 3 (5 WG
// words), a block's key boxes in phase 5 (4 WG words).
const uint MEM_WORDS = TREE_CAP + 32u > 5u * WG ? TREE_CAP + 32u : 5u * WG;
shared uint sh_mem[MEM_WORDS];
shared uint sh_sg[WG];
shared uint sh_first_bad_tag, sh_first_bad_close, sh_closes;
shared uint sh_depth_min, sh_span; // phase 1: the least depth entry; phase 2: the longest link
shared uint sh_begin_max;          // phase 1: the greatest depth entry of a BEGIN
shared uint sh_live[2];
#ifdef BBOX_SMALL_SEGMENTS
shared uint sh_ticket, sh_finish; // this workgroup's tickets: as it starts, once its part is done
#endif

// Every earlier write of the workgroup (shared and buffer) is visible after it.
void sync() {
  controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer | gl_StorageSemanticsShared,
                 gl_SemanticsAcquireRelease);
}

#ifdef BBOX_SMALL_SEGMENTS
// A workgroup barrier that also orders buffer memory at device scope (as
// pathbox_fused).
void fence_barrier() {
  controlBarrier(gl_ScopeWorkgroup, gl_ScopeDevice, gl_StorageSemanticsBuffer | gl_StorageSemanticsShared,
                 gl_SemanticsAcquireRelease);
}

// After this workgroup's part (its writes released first): whether it is the
// last of the dispatch's seg_groups + 1 workgroups to finish, which goes on
// (and then sees every other workgroup's writes).
bool finished_last(TicketBuf tickets, uint seg_groups) {
  fence_barrier();
  if (gl_LocalInvocationID.x == 0u) sh_finish = atomicAdd(tickets.v[1], 1u);
  fence_barrier();
  return sh_finish == seg_groups;
}
#endif

// Element i's words (tag, path, paint, aux); zeros past the stream.
uvec4 element_words(uint i) {
  if (i >= BS_N) return uvec4(0u);
  cn_element x = pc.elements.v[i];
  return uvec4(x.tag, x.path, x.paint, x.aux);
}

// ------------------------------------------------------------ depth tree

uint tree_size(uint leaves, uint l) { return (leaves + (1u << l) - 1u) >> l; }
uint tree_get(uint e) { return (sh_mem[e >> 1] >> ((e & 1u) * 16u)) & 0xFFFFu; }
void tree_put(uint e, uint v) { atomicOr(sh_mem[e >> 1], v << ((e & 1u) * 16u)); }

// The last node j < k with depth entry < v, or -1, in the tree over
// `leaves` entries: a climb from k while the blocks to the left stay at v or
// above, then a descent into the block that holds a lower entry. Level l
// starts at the sum of the sizes of the levels below it; both loops carry
// that offset (no array of offsets: indexed at run time it would live in
// local memory).
int prev_lower(uint k, uint v, uint leaves) {
  uint i = k, j = 0u, off = 0u;
  bool hit = false;
  while (i != 0u) {
    if (((i >> j) & 1u) != 0u) {
      if (tree_get(off + (i >> j) - 1u) < v) {
        hit = true;
        break;
      }
      i -= 1u << j;
    }
    off += tree_size(leaves, j);
    j++;
  }
  if (!hit) return -1;
  while (j > 0u) {
    j--;
    off -= tree_size(leaves, j);
    if (!(tree_get(off + (i >> j) - 1u) < v)) i -= 1u << j;
  }
  return int(i) - 1;
}

// ------------------------------------------------------------- pyramid

#define PYRAMID_AT(x) g_pyramid.v[x]
#include "bbox_pyramid_query.glsl"

ivec4 sh_key(uint x) { return ivec4(sh_mem[4u * x], sh_mem[4u * x + 1u], sh_mem[4u * x + 2u], sh_mem[4u * x + 3u]); }
void sh_key_put(uint x, ivec4 k) { sh_mem[4u * x] = k.x, sh_mem[4u * x + 1u] = k.y, sh_mem[4u * x + 2u] = k.z, sh_mem[4u * x + 3u] = k.w; }

// bbox_pyramid's reduce_block with WG leaves per block: entries [WG g, WG g +
// WG) of the level at off (count entries) through up to log2(WG) levels.
// Lane l holds entry WG g + l; the levels inside a subgroup come from
// butterfly unions of shuffled key boxes (no barriers: an entry of level j
// is the union of the 2^j level-0 entries below it, and the union of keys
// is exact in any order), then one entry per subgroup goes on in shared
// memory, a level per pair of barriers.
void reduce_block(uint g, uint off, uint count, uint steps) {
  uint t = gl_LocalInvocationID.x;
  uint lane = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
  uint src = g * WG + lane;
  sync();
  ivec4 v = src < count ? g_pyramid.v[off + src] : KEY_BOX_EMPTY;
  uint w = WG, built = 0u;
  for (uint d = 1u; d < gl_SubgroupSize && count > 1u && built < steps; d <<= 1, built++) {
    v = key_union(v, subgroupShuffleXor(v, d));
    off += count;
    count = (count + 1u) / 2u;
    w >>= 1;
    uint x = g * w + lane / (2u * d);
    if ((gl_SubgroupInvocationID & (2u * d - 1u)) == 0u && x < count) g_pyramid.v[off + x] = v;
  }
  if (count <= 1u || built >= steps) return;
  if (gl_SubgroupInvocationID == 0u) sh_key_put(gl_SubgroupID, v);
  for (w >>= 1; w >= 1u && count > 1u && built < steps; w >>= 1, built++) {
    barrier();
    ivec4 u = t < w ? key_union(sh_key(2u * t), sh_key(2u * t + 1u)) : KEY_BOX_EMPTY;
    barrier();
    off += count;
    count = (count + 1u) / 2u;
    if (t < w) {
      sh_key_put(t, u);
      uint x = g * w + t;
      if (x < count) g_pyramid.v[off + x] = u;
    }
  }
}

// Levels 1 .. top of the pyramid over `leaves` entries (the queries of
// phase 5 union what is left at level top entry by entry).
void build_pyramid(uint leaves, uint top) {
  uint off = 0u, count = leaves, built = 0u;
  uint levels = uint(findMSB(WG));
  while (count > 1u && built < top) {
    uint steps = min(levels, top - built);
    uint blocks = (count + WG - 1u) / WG;
    for (uint g = 0u; g < blocks; g++) reduce_block(g, off, count, steps);
    for (uint k = 0u; k < steps && count > 1u; k++, built++) {
      off += count;
      count = (count + 1u) / 2u;
    }
  }
  sync();
}

// ------------------------------------------------------------------ main

void main() {
  uint64_t scratch = uint64_t(pc.scratch);
#ifdef BBOX_SMALL_SEGMENTS
  // Tickets in the order the workgroups start: the first runs the stream's
  // phases 1 and 2 (front), the others fold WG segments each.
  TicketBuf tickets = TicketBuf(scratch + uint64_t(pc.keys_at) + uint64_t(pc.path_count) * 16ul);
  uint seg_groups = (pc.count + WG - 1u) / WG;
  if (gl_LocalInvocationID.x == 0u) sh_ticket = atomicAdd(tickets.v[0], 1u);
  barrier();
  bool front = sh_ticket == 0u; // uniform in the workgroup
  if (!front) {
    fold_segment((sh_ticket - 1u) * WG + gl_LocalInvocationID.x);
    if (!finished_last(tickets, seg_groups)) return;
  }
#else
  const bool front = true;
#endif
  g_idx = U32Buf(scratch + BS_IDX_AT);
  g_parens = I32Buf(scratch + BS_PARENS_AT);
  g_acc = BoxBuf(scratch + BS_ACC_AT);
  g_pyramid = KeyBuf(scratch + BS_PYRAMID_AT);
  uint t = gl_LocalInvocationID.x;
  uint lane = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
  vec4 vp = vec4(pc.vp_x0, pc.vp_y0, pc.vp_x1, pc.vp_y1);
  uint gb = min(BS_GROUP_BOUND, TREE_CAP);
  for (uint w = t; w < MEM_WORDS; w += WG) sh_mem[w] = 0u;
  if (t == 0u) {
    sh_first_bad_tag = 0xFFFFFFFFu;
    sh_first_bad_close = 0xFFFFFFFFu;
    sh_closes = 0u;
    sh_depth_min = 0xFFFFFFFFu;
    sh_begin_max = 0u;
    sh_span = 0u;
  }
  for (uint k = t; k < gb; k += WG) g_pyramid.v[k] = KEY_BOX_EMPTY;
  uint tag[ITEMS];
  vec4 box[ITEMS]; // until phase 1 (phase 4 loads the draws' boxes again: fewer registers live)
  // after phase 1: the group nodes before each element (bits 2..) and its
  // kind (KIND_*)
  uint kc[ITEMS];
#ifdef BBOX_SMALL_SEGMENTS
  // The elements now (their tags for phases 1 and 2, their strokes' pads);
  // their keys after phase 2, once the segments are folded.
  uint epath[ITEMS]; // the path whose key box the element takes, or ~0
  float epad[ITEMS];
  {
    uvec4 ev[ITEMS]; // tag, path, paint, aux
    [[unroll]] for (uint r = 0u; r < ITEMS; r++) ev[r] = element_words(r * WG + lane);
    [[unroll]] for (uint r = 0u; r < ITEMS; r++) {
      uint i = r * WG + lane;
      cn_element e = cn_element(ev[r].x, ev[r].y, ev[r].z, ev[r].w);
      bool has = i < BS_N && element_has_path_box(e);
      tag[r] = ev[r].x;
      epath[r] = has ? e.path : 0xFFFFFFFFu;
      epad[r] = has ? element_pad(e) : 0.0;
      box[r] = BOX_EMPTY; // set after phase 2
      if (i < BS_N) pc.tags.v[i] = tag[r];
    }
  }
#else
  if (FROM_PATHS != 0u) {
    // pathbox_elements' step, every row's loads in flight together: the
    // elements, then their paths' key boxes
    PathKeyBuf keys = PathKeyBuf(scratch + pc.keys_at);
    uvec4 ev[ITEMS]; // tag, path, paint, aux
    bool has[ITEMS];
    [[unroll]] for (uint r = 0u; r < ITEMS; r++) {
      uint i = r * WG + lane;
      ev[r] = element_words(i);
      has[r] = i < BS_N && element_has_path_box(cn_element(ev[r].x, ev[r].y, ev[r].z, ev[r].w));
    }
    ivec4 key[ITEMS];
    [[unroll]] for (uint r = 0u; r < ITEMS; r++) key[r] = has[r] ? keys.v[ev[r].y] : ivec4(0);
    [[unroll]] for (uint r = 0u; r < ITEMS; r++) {
      uint i = r * WG + lane;
      tag[r] = ev[r].x;
      box[r] = has[r] ? element_box(cn_element(ev[r].x, ev[r].y, ev[r].z, ev[r].w), key[r]) : BOX_EMPTY;
      if (i < BS_N) {
        pc.boxes.v[i] = box[r];
        pc.tags.v[i] = tag[r];
      }
    }
  } else {
    [[unroll]] for (uint r = 0u; r < ITEMS; r++) {
      uint i = r * WG + lane;
      tag[r] = i < BS_N ? pc.tags.v[i] : 0u;
      box[r] = i < BS_N ? pc.boxes.v[i] : BOX_EMPTY;
    }
  }
#endif
  sync();

  // 1. compaction and depths: one exclusive workgroup scan over every row
  // at once (rows in order, each in lane order) of the group nodes and the
  // BEGINs, packed in one word (16 bits each: n <= 4096); the depth before
  // an element is 2 BEGINs - nodes. Per row an inclusive subgroup scan, the
  // subgroups' sums of every row in shared memory behind a single barrier
  // (ITEMS <= subgroup size: they fit sh_sg), then each row's base from its
  // subgroups before it and the rows before it; no barrier between rows
  // (docs/PERF.md).
  uint step[ITEMS], incl[ITEMS];
  [[unroll]] for (uint r = 0u; r < ITEMS; r++) {
    uint tg = tag[r];
    bool group = r * WG + lane < BS_N && tg >= CN_TAG_BEGIN_CLIP && tg <= CN_TAG_END_BLEND;
    bool close = group && (tg == CN_TAG_END_CLIP || tg == CN_TAG_END_BLEND);
    step[r] = group ? (close ? 1u : 0x10001u) : 0u;
    incl[r] = subgroupInclusiveAdd(step[r]);
  }
  if (gl_SubgroupInvocationID == gl_SubgroupSize - 1u)
    [[unroll]] for (uint r = 0u; r < ITEMS; r++) sh_sg[r * gl_NumSubgroups + gl_SubgroupID] = incl[r];
#ifndef BBOX_SMALL_SEGMENTS
  if (FROM_PATHS != 0u) {
    // every key has been read (and used) before the sync() above: leave them
    // empty for the next frame's pathbox_segments, which then needs no
    // pathbox_init (cn_scene_stage_args.path_keys_empty). Here, before a
    // barrier: a subgroup operation right after this loop (whose lanes
    // branch apart where there are fewer paths than invocations) would run
    // on a subgroup that Vulkan does not promise has reconverged.
    PathKeyBuf keys = PathKeyBuf(scratch + pc.keys_at);
    for (uint p = t; p < pc.path_count; p += WG) keys.v[p] = ivec4(KEY_POS_INF, KEY_POS_INF, KEY_NEG_INF, KEY_NEG_INF);
  }
#endif
  barrier();
  // Every row's subgroup adds first, then the rows' stores and atomics: a
  // subgroup operation after an earlier row's branches would not be
  // promised a reconverged subgroup.
  uint base = 0u;
  uint entry[ITEMS]; // a group node's depth entry (g + DEPTH_BIAS)
  [[unroll]] for (uint r = 0u; r < ITEMS; r++) {
    // the same trip count in every lane: a loop whose lanes leave it apart
    // is a branch too
    uint before = 0u, all = 0u;
    for (uint j0 = 0u; j0 < gl_NumSubgroups; j0 += gl_SubgroupSize) {
      uint j = j0 + gl_SubgroupInvocationID;
      uint x = sh_sg[r * gl_NumSubgroups + min(j, gl_NumSubgroups - 1u)];
      x = j < gl_NumSubgroups ? x : 0u;
      before += j < gl_SubgroupID ? x : 0u;
      all += x;
    }
    uint ex = base + subgroupAdd(before) + incl[r] - step[r]; // before this element, over all rows
    base += subgroupAdd(all);
    uint k = ex & 0xFFFFu, tg = tag[r];
    bool draw = r * WG + lane < BS_N && (tg == CN_TAG_FILL || tg == CN_TAG_STROKE);
    kc[r] = k << 2 | (step[r] != 0u ? KIND_GROUP : draw ? KIND_DRAW : KIND_OTHER);
    entry[r] = uint(int(2u * (ex >> 16)) - int(k) + int(DEPTH_BIAS));
  }
  uint closes = 0u, depth_min = 0xFFFFFFFFu, begin_max = 0u;
  [[unroll]] for (uint r = 0u; r < ITEMS; r++) {
    uint i = r * WG + lane;
    bool in_range = i < BS_N;
    uint tg = tag[r];
    bool group = step[r] != 0u;
    bool close = step[r] == 1u;
    bool blend = tg == CN_TAG_BEGIN_BLEND || tg == CN_TAG_END_BLEND;
    if (in_range && !group && tg != CN_TAG_FILL && tg != CN_TAG_STROKE) atomicMin(sh_first_bad_tag, i);
    uint k = kc[r] >> 2;
    if (group && k < gb) {
      g_idx.v[k] = i | (close ? IDX_CLOSE : 0u) | (blend ? IDX_BLEND : 0u);
      // a BEGIN's own clip (the viewport for a blend), for phase 3 (with
      // BBOX_SMALL_SEGMENTS a BEGIN_CLIP's after phase 2)
#ifdef BBOX_SMALL_SEGMENTS
      if (!close && blend) g_acc.v[k] = vp;
#else
      if (!close) g_acc.v[k] = blend ? vp : box_intersect(box_clean(box[r]), vp);
#endif
      tree_put(k, entry[r]);
      depth_min = min(depth_min, entry[r]);
      if (!close) begin_max = max(begin_max, entry[r]);
      closes += close ? 1u : 0u;
    }
  }
  closes = subgroupAdd(closes);
  depth_min = subgroupMin(depth_min);
  begin_max = subgroupMax(begin_max);
  if (subgroupElect()) {
    if (closes != 0u) atomicAdd(sh_closes, closes);
    atomicMin(sh_depth_min, depth_min);
    atomicMax(sh_begin_max, begin_max);
  }
  uint m = base & 0xFFFFu, limit = min(m, gb);

  // 2. matching: the min tree's levels above level 0, then one search per
  // node; a node whose entry is the least of all has no lower one before it
  // (the outermost BEGINs), so it skips the search.
  for (uint l = 1u, below_at = 0u; tree_size(limit, l - 1u) > 1u; l++) {
    barrier();
    uint below = tree_size(limit, l - 1u), size = tree_size(limit, l), at = below_at + below;
    for (uint x = t; x < size; x += WG) {
      uint a = tree_get(below_at + 2u * x);
      uint b = 2u * x + 1u < below ? tree_get(below_at + 2u * x + 1u) : 0xFFFFu;
      tree_put(at + x, min(a, b));
    }
    below_at = at;
  }
  barrier();
  uint least = sh_depth_min, span = 0u;
  for (uint k = t; k < limit; k += WG) {
    uint v = tree_get(k);
    int o = v <= least ? -1 : prev_lower(k, v, limit);
    g_parens.v[k] = o;
    if (o >= 0) span = max(span, k - uint(o));
  }
  span = subgroupMax(span);
  if (subgroupElect() && span != 0u) atomicMax(sh_span, span);
  sync();

#ifdef BBOX_SMALL_SEGMENTS
  if (front && !finished_last(tickets, seg_groups)) return;
  // The element boxes (every row's key loads in flight together) and the
  // BEGIN_CLIPs' own clips.
  {
    SegKeyBuf keys = PB_KEYS;
    ivec4 key[ITEMS];
    [[unroll]] for (uint r = 0u; r < ITEMS; r++) key[r] = epath[r] != 0xFFFFFFFFu ? keys.v[epath[r]] : ivec4(0);
    [[unroll]] for (uint r = 0u; r < ITEMS; r++) {
      uint i = r * WG + lane;
      box[r] = epath[r] != 0xFFFFFFFFu ? element_box_padded(tag[r] == CN_TAG_STROKE, epad[r], key[r]) : BOX_EMPTY;
      if (i < BS_N) pc.boxes.v[i] = box[r];
      uint k = kc[r] >> 2;
      if ((kc[r] & 3u) == KIND_GROUP && tag[r] == CN_TAG_BEGIN_CLIP && k < gb)
        g_acc.v[k] = box_intersect(box_clean(box[r]), vp);
    }
  }
  sync();
  {
    // every key has been read: leave them empty and the tickets 0 for the
    // next frame (cn_scene_stage_args.path_keys_empty); every workgroup of
    // the dispatch has taken both
    SegKeyBuf keys = PB_KEYS;
    for (uint p = t; p < pc.path_count; p += WG) keys.v[p] = ivec4(KEY_POS_INF, KEY_POS_INF, KEY_NEG_INF, KEY_NEG_INF);
    if (t == 0u) {
      tickets.v[0] = 0u;
      tickets.v[1] = 0u;
    }
  }
#endif

  // 3. clips, chunk after chunk of WG group nodes. Where no BEGIN's entry
  // is above the least (no group nests in another: every BEGIN's link is
  // -1) each BEGIN's clip stack box is its own clip, which phase 1 wrote,
  // and nothing reads an END's: the phase has nothing to do.
  uint p_end = sh_begin_max > least ? limit : 0u;
  for (uint p0 = 0u; p0 < p_end; p0 += WG) {
    uint k = p0 + t;
    vec4 val = vp;
    int link = -1;
    if (k < limit) {
      uint id = g_idx.v[k];
      vec4 own = g_acc.v[k];
      int up = g_parens.v[k];
      if ((id & IDX_CLOSE) == 0u) val = own, link = up;
    }
    uint span = min(WG, limit - p0);
    // log2(span) steps at most; they stop early once no link stays in the
    // chunk (after s steps a link spans 2^s levels of nesting, so shallow
    // nesting takes few steps): sh_live[s & 1] says whether any did
    if (t == 0u) sh_live[0] = 0u;
    for (uint step = 1u, s = 0u; step < span; step <<= 1, s++) {
      barrier();
      sh_mem[4u * t] = floatBitsToUint(val.x), sh_mem[4u * t + 1u] = floatBitsToUint(val.y);
      sh_mem[4u * t + 2u] = floatBitsToUint(val.z), sh_mem[4u * t + 3u] = floatBitsToUint(val.w);
      sh_mem[4u * WG + t] = uint(link);
      if (t == 0u) sh_live[(s + 1u) & 1u] = 0u; // the next step's flag (its last readers are past the barrier above)
      if (link >= int(p0)) atomicOr(sh_live[s & 1u], 1u);
      barrier();
      if (sh_live[s & 1u] == 0u) break; // the same for every invocation: nothing is left to follow
      if (link >= int(p0)) {
        uint l = uint(link) - p0;
        val = box_intersect(val, uintBitsToFloat(uvec4(sh_mem[4u * l], sh_mem[4u * l + 1u], sh_mem[4u * l + 2u],
                                                         sh_mem[4u * l + 3u])));
        link = int(sh_mem[4u * WG + l]);
      }
    }
    if (link >= 0) val = box_intersect(val, g_acc.v[link]); // final: an earlier chunk
    if (k < limit) g_acc.v[k] = val;
    sync();
  }

  // 4. draws (the innermost groups' clips of every row loaded first: the
  // loads of all rows are in flight together)
  int enc[ITEMS];
  vec4 res[ITEMS];
  [[unroll]] for (uint r = 0u; r < ITEMS; r++) {
    bool draw = (kc[r] & 3u) == KIND_DRAW;
    uint c = kc[r] >> 2;
    enc[r] = draw && c < limit ? g_parens.v[c] : -1;
#ifdef BBOX_SMALL_SEGMENTS
    res[r] = draw ? box[r] : BOX_EMPTY;
#else
    res[r] = draw ? pc.boxes.v[r * WG + lane] : BOX_EMPTY;
#endif
  }
  [[unroll]] for (uint r = 0u; r < ITEMS; r++) {
    vec4 clip = enc[r] >= 0 ? g_acc.v[enc[r]] : vp;
    res[r] = box_canon(box_intersect(box_clean(res[r]), clip)); // BOX_EMPTY where no draw
  }
  // gap[c] ∪= the draws' boxes by atomics (the union of keys is the same in
  // any order), or a store where one lane has the union of all of gap c. c
  // is non-decreasing along the lanes: where no two neighbouring lanes
  // contribute to the same c, each contributing lane does its own atomics;
  // where the whole subgroup shares one c, one lane does them for the
  // subgroup's union; otherwise a segmented inclusive scan over lanes with
  // equal c leaves each run's union in its last lane. A row's shuffles
  // start after a barrier (not right after the previous row's atomics:
  // Vulkan does not promise that a subgroup reconverges after a branch, and
  // on the H200 a barrier per row costs less than holding every row's key
  // boxes until the atomics).
  [[unroll]] for (uint r = 0u; r < ITEMS; r++) {
    uint i = r * WG + lane;
    uint c = kc[r] >> 2;
    bool contribute = enc[r] >= 0 && !box_is_empty(res[r]); // a draw (enc) that adds to gap c
    if (i < BS_N && (kc[r] & 3u) != KIND_GROUP) pc.result.v[i] = res[r];
    ivec4 q = contribute ? ivec4(f32_key(res[r].x), f32_key(res[r].y), f32_key(res[r].z), f32_key(res[r].w)) : KEY_BOX_EMPTY;
    barrier();
    uint sl = gl_SubgroupInvocationID, last = gl_SubgroupSize - 1u;
    uint left = sl > 0u ? sl - 1u : 0u, right = min(sl + 1u, last);
    uint left_c = subgroupShuffle(c, left), right_c = subgroupShuffle(c, right);
    bool left_contributes = subgroupShuffle(contribute, left);
    bool merge = sl > 0u && contribute && left_contributes && left_c == c;
    bool group = (kc[r] & 3u) == KIND_GROUP;
    // The lanes of one c form a run (c is non-decreasing along the lanes).
    // A run that starts after the subgroup's first lane and ends before its
    // last one, or in a group node (node c: the elements after it have
    // c + 1), holds every element of gap c: its acting lane then stores the
    // union (no other lane or row adds to c), else it unions by atomics.
    bool act = contribute, whole = false;
    if (subgroupAny(merge)) {
      if (subgroupAllEqual(c)) {
        q = ivec4(subgroupMin(q.x), subgroupMin(q.y), subgroupMax(q.z), subgroupMax(q.w));
        act = subgroupElect();
      } else {
        for (uint d = 1u; d < gl_SubgroupSize; d <<= 1) {
          uint from = sl >= d ? sl - d : sl;
          ivec4 o = subgroupShuffle(q, from);
          uint oc = subgroupShuffle(c, from);
          q = sl >= d && oc == c ? key_union(q, o) : q;
        }
        act = sl == last || right_c != c; // the run's last lane
        whole = c != subgroupBroadcast(c, 0u) && (sl < last || group);
      }
    } else {
      // each contributing lane alone in its run of contributing lanes
      bool right_group = subgroupShuffle(group, right);
      whole = sl > 0u && left_c != c && sl < last && (right_c != c || right_group);
    }
    if (act && q.x < q.z) { // a non-empty key box: some draw of the run contributed (so c < limit)
      if (whole) {
        g_pyramid.v[c] = q;
      } else {
        atomicMin(KeyIntBuf(g_pyramid).v[4u * c], q.x);
        atomicMin(KeyIntBuf(g_pyramid).v[4u * c + 1u], q.y);
        atomicMax(KeyIntBuf(g_pyramid).v[4u * c + 2u], q.z);
        atomicMax(KeyIntBuf(g_pyramid).v[4u * c + 3u], q.w);
      }
    }
  }

  // 5. blends: the pyramid's levels up to the one where the longest range
  // of phase 2's links spans at most 4 entries (none where every group is
  // short), the rest of each range unioned entry by entry there
  uint top = 0u;
  while ((sh_span >> top) > 4u) top++;
  build_pyramid(limit, top);
  for (uint k = t; k < limit; k += WG) {
    uint id = g_idx.v[k];
    if ((id & IDX_CLOSE) == 0u) continue;
    uint c = id & IDX_ELEM;
    int o = g_parens.v[k];
    uint oid = o >= 0 ? g_idx.v[o] : 0u;
    if (o < 0 || ((oid ^ id) & IDX_BLEND) != 0u) {
      atomicMin(sh_first_bad_close, c);
      pc.result.v[c] = BOX_EMPTY;
      continue;
    }
    vec4 u = key_box(pyramid_query_below(o + 1, int(k), limit, top));
    pc.result.v[oid & IDX_ELEM] = u;
    pc.result.v[c] = u;
  }
  barrier();
  if (t == 0u) {
    pc.status.v[0] = m;
    pc.status.v[1] = sh_closes;
    pc.status.v[2] = sh_first_bad_close;
    pc.status.v[3] = sh_first_bad_tag;
  }
}
