// scan_lb.glsl: a generic monoid scan in one pass with decoupled look-back,
// instantiated once per monoid (scan_<name>.comp; see include/canopy/cn_scan.h).
//
// A kernel file defines, then includes this file:
//   SCAN_IDENTITY     the identity element (elements are 32-bit words: uint)
//   SCAN_COMBINE(a,b) the associative operation (a before b)
//   SCAN_SG_INCLUSIVE(x) optional: a subgroup inclusive scan builtin
//                     (subgroupInclusiveAdd, ...); default: shuffles
//   SCAN_SG_REDUCE(x) optional, for a commutative operation: a subgroup
//                     reduction builtin (subgroupAdd, ...)
//
// Blocks of WG * ITEMS elements; a block's subgroup s owns the contiguous
// SG * ITEMS elements from s * SG * ITEMS, read in rows of SG * 4: lane l
// of row r holds the four elements at (r * SG + l) * 4 (one 16-byte load where
// the buffers are 16-byte aligned, VEC4). Per row: the four elements'
// running fold in registers, a subgroup scan of the lanes' totals and a carry
// between rows; the subgroups' totals are folded in shared memory.
//
// Look-back (blocks > 1, pc.has_partial = 1): a block takes its id from a
// counter (state word 0; ids follow the order blocks start in), publishes its
// total (AGGREGATE), folds its predecessors' published values backwards until
// one has published its inclusive prefix (PREFIX), publishes its own prefix and
// writes its outputs. The first subgroup reads a window of as many
// predecessors as it has lanes at once (one memory fence per window, not per
// predecessor), so prefixes do not propagate one block at a time. State at pc.partial: word 0 the counter, words 1 + b
// block b's flag, then one aggregate and one prefix word per block; zeroed
// before each scan (scan_clear). Memory ordering and forward progress follow
// parens_lookback.comp: flags are relaxed atomics of one invocation, ordered
// by workgroup-uniform control barriers with device-scope acquire-release
// semantics; a wait has a budget of flag loads (llvmpipe ends loops that run
// too long), and when it runs out the block folds the missing predecessor's
// input itself, then looks at its flag once more and prefers what it has
// published by then (its outputs may overwrite its input when src == dst).
// With AGG_FIRST (mode bit 4) a block folds its total from the loaded rows
// (one subgroup reduction where the operation is commutative) and publishes
// it before the rows' scans; the other subgroups scan their rows while the
// first walks back (64-bit form), the first after its walk.
// With a persistent state (pc.state_words != 0, cn_scan_args.state_bytes):
// pc.partial holds a word of the parity (bit 31) and the blocks' counter (8
// bytes), then two regions of pc.state_words words, each laid out as above
// (their counter words unused). A block takes its id and the parity from
// that word in one atomic, uses the region the parity selects (which the
// previous scan left zero), and after its outputs clears its share of the
// other region; the block taking the last id resets the word to the other
// parity and a zero count. So no dispatch clears the state between scans.
// With SCAN_ATOMIC64 (devices with 64-bit buffer atomics) a block's flag and
// value share one 64-bit word (state: the counter, then one word per block
// from byte 8), read and written by relaxed atomics: no fences, and the first
// subgroup alone walks back, LB_LANE predecessors per lane and step (a
// window of subgroup size x LB_LANE blocks).
// With EARLY_LB (mode bit 5; 64-bit form, one entry per lane) the first
// subgroup reads its first window as soon as its own rows are loaded, before
// the workgroup's fold of the subgroups' totals: when that window already
// ends at a published prefix with every block after it published, the walk
// is over without a load after the block publishes its total; else the
// window is read again as usual.
// With STREAM (mode bit 6) the block's total comes first as with AGG_FIRST,
// and every subgroup scans its rows only after the look-back, one row at a
// time, each written as soon as it is scanned: no row's prefix is held across
// the look-back (fewer registers, so more workgroups per SM), at the cost of
// the rows' scans after the walk instead of during it.
// With RELOAD (mode bit 7, with STREAM) no row is held across the look-back
// at all: each is loaded again just before its scan (from L2: the block read
// it a walk ago), so the walk holds no element in registers.
#include "common.glsl"
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_shader_subgroup_vote : require

layout(constant_id = CN_SPEC_WG_SIZE) const uint WG_SIZE = 256;
layout(constant_id = CN_SPEC_ITEMS) const uint ITEMS = 16; // a multiple of 4, at most 64
layout(constant_id = 2) const uint SCAN_MODE = 0;           // bits below
layout(constant_id = 3) const uint SPIN_BUDGET = 16384u;    // flag loads per block
const uint VEC4 = SCAN_MODE & 1u;                           // src and dst 16-byte aligned
const uint STATIC_ORDER = (SCAN_MODE >> 1) & 1u;            // block id = workgroup id (no counter)
const uint BACKOFF = SCAN_MODE >> 8;                        // dependent ALU steps between flag loads (0: none)
const uint LB_LANE = 1u << ((SCAN_MODE >> 2) & 3u);         // look-back entries per lane and step (64-bit form)
const uint AGG_FIRST = (SCAN_MODE >> 4) & 1u;               // block total before the rows' scans (below)
const uint EARLY_LB = (SCAN_MODE >> 5) & 1u;                // 64-bit form: the first window read before the fold (below)
const uint STREAM = (SCAN_MODE >> 6) & 1u;                  // rows scanned and written one by one after the look-back (below)
const uint RELOAD = STREAM & (SCAN_MODE >> 7);              // STREAM: each row loaded again after the look-back (below)
const uint TOTAL_FIRST = AGG_FIRST | STREAM;                // the subgroups' totals from the loaded rows, before their scans
const uint LB_MAX = 8u;
layout(local_size_x_id = CN_SPEC_WG_SIZE) in;

#define SCAN_T uint
layout(buffer_reference, std430, buffer_reference_align = 4) buffer ScanBuf { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer ScanBuf4 { uvec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) coherent buffer ScanState { uint v[]; };
#ifdef SCAN_ATOMIC64
#extension GL_EXT_shader_atomic_int64 : require
// Block b's state: (flag << 32) | value at byte 8 + 8 b of the state.
layout(buffer_reference, std430, buffer_reference_align = 8) coherent buffer ScanState64 { uint64_t v[]; };
uint64_t scan_pack(uint flag, uint value) { return (uint64_t(flag) << 32) | uint64_t(value); }
#endif

#define CN_USE_SCAN_PUSH
#include "cn_shared.h"

const uint ROWS = ITEMS / 4u;
const uint FLAG_AGGREGATE = 1u, FLAG_PREFIX = 2u;

shared uint sh_sg[WG_SIZE]; // one total per subgroup
shared uint sh_bcast[4];    // invocation 0 to all: block id, flag state

// A pause between two loads of a flag that is not yet set (BACKOFF steps of
// a dependent multiply-add on the loaded word; spinning lanes then load less
// often from the few cache lines every waiting block polls). The result is
// folded into `sink`, which the kernel keeps live.
uint scan_backoff(uint x) {
  [[dont_unroll]] for (uint i = 0u; i < BACKOFF; i++) x = x * 1664525u + 1013904223u;
  return x;
}

#ifndef SCAN_SG_INCLUSIVE
uint scan_sg_inclusive(uint x) {
  uint l = gl_SubgroupInvocationID;
  for (uint d = 1u; d < gl_SubgroupSize; d <<= 1) {
    uint y = subgroupShuffle(x, l >= d ? l - d : 0u);
    if (l >= d) x = SCAN_COMBINE(y, x);
  }
  return x;
}
#define SCAN_SG_INCLUSIVE(x) scan_sg_inclusive(x)
#endif

void fence_barrier() {
  controlBarrier(gl_ScopeWorkgroup, gl_ScopeDevice, gl_StorageSemanticsBuffer | gl_StorageSemanticsShared,
                 gl_SemanticsAcquireRelease);
}

// The four elements of row r of this invocation in block b (identity past n).
uvec4 scan_load(uint b, uint r) {
  uint e = b * WG_SIZE * ITEMS + gl_SubgroupID * gl_SubgroupSize * ITEMS + (r * gl_SubgroupSize + gl_SubgroupInvocationID) * 4u;
  if (VEC4 != 0u && e + 4u <= pc.n) return ScanBuf4(pc.src).v[e / 4u];
  uvec4 x = uvec4(SCAN_IDENTITY);
  for (uint i = 0u; i < 4u; i++)
    if (e + i < pc.n) x[i] = pc.src.v[e + i];
  return x;
}

// Fold of the subgroups' totals: `before` those before this subgroup, the
// result all of them. Every invocation calls it (barriers). With 64-bit
// atomics it runs once per block (the look-back's fallback folds by one
// subgroup), so sh_sg needs no barrier after its reads.
uint scan_fold_subgroups(uint mine, out uint before) {
  if (subgroupElect()) sh_sg[gl_SubgroupID] = mine;
  barrier();
  uint all = SCAN_IDENTITY;
  before = SCAN_IDENTITY;
  for (uint s = 0u; s < gl_NumSubgroups; s++) {
    if (s == gl_SubgroupID) before = all;
    all = SCAN_COMBINE(all, sh_sg[s]);
  }
#ifndef SCAN_ATOMIC64
  barrier(); // sh_sg is reused (the fenced look-back's fallback, scan_block_total)
#endif
  return all;
}

// Total of block b (the look-back's fallback): every invocation calls it.
uint scan_block_total(uint b) {
  uint acc = SCAN_IDENTITY;
  for (uint r = 0u; r < ROWS; r++) {
    uvec4 x = scan_load(b, r);
    uint t = SCAN_COMBINE(SCAN_COMBINE(x.x, x.y), SCAN_COMBINE(x.z, x.w));
    uint incl = SCAN_SG_INCLUSIVE(t);
    acc = SCAN_COMBINE(acc, subgroupShuffle(incl, gl_SubgroupSize - 1u));
  }
  uint before;
  return scan_fold_subgroups(acc, before);
}

#ifdef SCAN_ATOMIC64
// Total of block b by the calling subgroup alone (the look-back's fallback):
// rows of SG * 4 elements in order, each lane's four, then the lanes in order.
uint scan_block_total_sg(uint b) {
  uint acc = SCAN_IDENTITY, lane = gl_SubgroupInvocationID;
  uint first = b * WG_SIZE * ITEMS, rows = WG_SIZE * ITEMS / (gl_SubgroupSize * 4u);
  for (uint r = 0u; r < rows; r++) {
    uint e = first + (r * gl_SubgroupSize + lane) * 4u;
    uint x = SCAN_IDENTITY;
    for (uint i = 0u; i < 4u; i++)
      if (e + i < pc.n) x = SCAN_COMBINE(x, pc.src.v[e + i]);
    uint incl = SCAN_SG_INCLUSIVE(x);
    acc = SCAN_COMBINE(acc, subgroupShuffle(incl, gl_SubgroupSize - 1u));
  }
  return acc;
}
#endif

// One row's scan in place: x becomes the running fold of the lane's four;
// returns the lane's prefix (carry, the fold of everything before the row,
// then the lanes before this one) and advances carry past the row.
uint scan_row(inout uvec4 x, inout uint carry) {
  uint l = gl_SubgroupInvocationID;
  x.y = SCAN_COMBINE(x.x, x.y);
  x.z = SCAN_COMBINE(x.y, x.z);
  x.w = SCAN_COMBINE(x.z, x.w);
  uint incl = SCAN_SG_INCLUSIVE(x.w);
  uint excl = subgroupShuffle(incl, l == 0u ? 0u : l - 1u);
  uint pre = l == 0u ? carry : SCAN_COMBINE(carry, excl);
  carry = SCAN_COMBINE(carry, subgroupShuffle(incl, gl_SubgroupSize - 1u));
  return pre;
}

// The rows' scans in place: each element's fold within its invocation's
// four (run), each lane's prefix within its subgroup's segment (lane_pre);
// returns the subgroup's total.
uint scan_rows(inout uvec4 run[ROWS], out uint lane_pre[ROWS]) {
  uint carry = SCAN_IDENTITY;
  [[unroll]] for (uint r = 0u; r < ROWS; r++) lane_pre[r] = scan_row(run[r], carry);
  return carry;
}

// Row r of this subgroup's segment of block b written: x the running fold of
// the lane's four, p the lane's prefix.
void scan_store(uint b, uint r, uint p, uvec4 x) {
  uvec4 o = pc.exclusive != 0u ? uvec4(p, SCAN_COMBINE(p, x.x), SCAN_COMBINE(p, x.y), SCAN_COMBINE(p, x.z))
                               : uvec4(SCAN_COMBINE(p, x.x), SCAN_COMBINE(p, x.y), SCAN_COMBINE(p, x.z),
                                       SCAN_COMBINE(p, x.w));
  uint e = b * WG_SIZE * ITEMS + gl_SubgroupID * gl_SubgroupSize * ITEMS + (r * gl_SubgroupSize + gl_SubgroupInvocationID) * 4u;
  if (VEC4 != 0u && e + 4u <= pc.n) {
    ScanBuf4(pc.dst).v[e / 4u] = o;
  } else {
    for (uint i = 0u; i < 4u; i++)
      if (e + i < pc.n) pc.dst.v[e + i] = o[i];
  }
}

// The subgroup's total of its loaded rows (rows in order, lanes in order).
uint scan_rows_total(uvec4 run[ROWS]) {
#ifdef SCAN_SG_REDUCE
  uint x = SCAN_IDENTITY;
  [[unroll]] for (uint r = 0u; r < ROWS; r++)
    x = SCAN_COMBINE(x, SCAN_COMBINE(SCAN_COMBINE(run[r].x, run[r].y), SCAN_COMBINE(run[r].z, run[r].w)));
  return SCAN_SG_REDUCE(x);
#else
  uint acc = SCAN_IDENTITY;
  [[unroll]] for (uint r = 0u; r < ROWS; r++) {
    uvec4 x = run[r];
    uint incl = SCAN_SG_INCLUSIVE(SCAN_COMBINE(SCAN_COMBINE(x.x, x.y), SCAN_COMBINE(x.z, x.w)));
    acc = SCAN_COMBINE(acc, subgroupShuffle(incl, gl_SubgroupSize - 1u));
  }
  return acc;
#endif
}

void main() {
  uint t = gl_LocalInvocationID.x;
  bool lookback = pc.has_partial != 0u;
  uint nb = (pc.n + WG_SIZE * ITEMS - 1u) / (WG_SIZE * ITEMS);
  // The look-back state: pc.partial, zeroed before the scan; or, with a
  // persistent state (pc.state_words != 0), the region its parity bit
  // selects (zero: the previous scan cleared it), while this scan clears
  // the other region for the next one (see the header).
  uint64_t state = uint64_t(pc.partial);
  uint agg_at = 1u + nb, pre_at = 1u + 2u * nb; // state words of aggregates, prefixes
  uint b = 0u, parity = 0u;
  bool persistent = pc.state_words != 0u;
  if (lookback && (STATIC_ORDER == 0u || persistent)) {
    if (t == 0u) {
      if (persistent) {
        // One word holds the parity (bit 31) and the blocks' counter: the
        // block taking the last id sets the other parity and a zero count
        // (every block has taken its id, and with it the parity, by then).
        uint old = atomicAdd(ScanState(pc.partial).v[0], 1u);
        uint id = old & 0x7FFFFFFFu, p = old >> 31;
        if (id == nb - 1u)
          atomicStore(ScanState(pc.partial).v[0], (p ^ 1u) << 31, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                      gl_SemanticsRelaxed);
        sh_bcast[0] = id;
        sh_bcast[1] = p;
      } else {
        sh_bcast[0] = atomicAdd(ScanState(state).v[0], 1u);
      }
    }
    barrier();
    b = STATIC_ORDER != 0u ? cn_group_id() : sh_bcast[0];
    parity = persistent ? sh_bcast[1] : 0u; // read before any later barrier (sh_bcast[1] is reused)
  } else if (lookback) {
    b = cn_group_id();
  }
  if (lookback && persistent) state = uint64_t(pc.partial) + 8ul + uint64_t(parity) * uint64_t(pc.state_words) * 4ul;
  ScanState st = ScanState(state);

  // 1. Rows: each element's fold within its invocation's four, each lane's
  // prefix within its subgroup's segment (with AGG_FIRST only the subgroup's
  // total here, the rows' scans after the block's total is published).
  uvec4 run[ROWS];
  uint lane_pre[ROWS];
  uint l = gl_SubgroupInvocationID;
  [[unroll]] for (uint r = 0u; r < ROWS; r++) run[r] = scan_load(b, r);
  // The last block's loads branch per element: its subgroups' scans start
  // after a barrier (Vulkan does not promise reconvergence after a branch).
  if (b == nb - 1u) barrier();
  uint sg_total = TOTAL_FIRST != 0u ? scan_rows_total(run) : scan_rows(run, lane_pre);
#ifdef SCAN_ATOMIC64
  // The early window (EARLY_LB): entry `lane` is block b - 1 - lane. Its
  // index depends on sg_total (a test that never holds: n is never 0 here)
  // so that the load is issued after this subgroup's rows have arrived.
  uint64_t early = scan_pack(FLAG_PREFIX, SCAN_IDENTITY); // lanes past block 0 never end a window first
  if (EARLY_LB != 0u && LB_LANE == 1u && lookback && gl_SubgroupID == 0u && l < b) {
    uint q = b - 1u - l;
    if (sg_total == 0xFFFFFFFFu && pc.n == 0u) q = 0u;
    early = atomicLoad(ScanState64(state + 8ul).v[q], gl_ScopeDevice, gl_StorageSemanticsBuffer,
                       gl_SemanticsRelaxed);
  }
#endif
  uint sg_before;
  uint total = scan_fold_subgroups(sg_total, sg_before);

  // 2. Look-back: the fold of every block before this one.
  uint prefix = SCAN_IDENTITY;
#ifdef SCAN_ATOMIC64
  if (lookback) {
    // Flag and value in one 64-bit word: no fences. The first subgroup alone
    // walks back; the workgroup waits at the barrier below.
    ScanState64 s64 = ScanState64(state + 8ul);
    // Published by every lane of the first subgroup (the same value): no
    // lane of the subgroup that walks back branches off before its ballots.
    if (gl_SubgroupID == 0u)
      atomicStore(s64.v[b], scan_pack(b == 0u ? FLAG_PREFIX : FLAG_AGGREGATE, total), gl_ScopeDevice,
                  gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
    if (AGG_FIRST != 0u && STREAM == 0u && gl_SubgroupID != 0u) scan_rows(run, lane_pre); // while the first subgroup walks back
    if (gl_SubgroupID == 0u && b != 0u) {
      uint r = b, budget = SPIN_BUDGET, lane = gl_SubgroupInvocationID, sg = gl_SubgroupSize;
      uint acc = SCAN_IDENTITY, sink = 0u, span = sg * LB_LANE;
      if (EARLY_LB != 0u && LB_LANE == 1u) {
        // The early window ends the walk when its nearest entry that is not
        // an aggregate is a prefix (every entry before it published).
        uint f = uint(early >> 32);
        uvec4 stop = subgroupBallot(f != FLAG_AGGREGATE);
        uint m = subgroupBallotFindLSB(stop); // block 0 (a prefix) or a lane past it is in every window of block b <= sg
        bool done = any(notEqual(stop, uvec4(0u))) && subgroupShuffle(f, m) == FLAG_PREFIX;
        if (done) {
          uint x = l <= m ? uint(early) : SCAN_IDENTITY;
          for (uint d = 1u; d < sg; d <<= 1) { // lane 0: fold of lanes m .. 0, oldest first
            uint y = subgroupShuffle(x, min(l + d, sg - 1u));
            if (l + d < sg) x = SCAN_COMBINE(y, x);
          }
          acc = subgroupBroadcast(x, 0u);
          r = 0u;
        }
      }
      while (r != 0u) { // uniform in the subgroup
        // Entries e = lane * LB_LANE + j of the window: block r - 1 - e (older
        // as e grows). All loads first, then the subgroup spins together while
        // any entry is unset, every lane reloading at a clamped index and
        // keeping what it needs: no branch separates the lanes before the
        // ballot below (Vulkan does not promise that a subgroup reconverges
        // after one). r >= 1 here.
        uint64_t w[LB_MAX];
        bool unset = false;
        [[unroll]] for (uint j = 0u; j < LB_MAX; j++) {
          uint e = lane * LB_LANE + j;
          w[j] = scan_pack(FLAG_PREFIX, SCAN_IDENTITY); // entries past block 0 never end a window first
          if (j < LB_LANE) { // a constant
            uint64_t x = atomicLoad(s64.v[r - 1u - min(e, r - 1u)], gl_ScopeDevice, gl_StorageSemanticsBuffer,
                                    gl_SemanticsRelaxed);
            w[j] = e < r ? x : w[j];
            unset = unset || (w[j] >> 32) == 0ul;
          }
        }
        while (subgroupAny(unset) && budget != 0u) { // uniform in the subgroup
          budget = budget > BACKOFF ? budget - 1u - BACKOFF : 0u; // the pause's steps count (llvmpipe's loop limit)
          if (BACKOFF != 0u) sink ^= scan_backoff(uint(w[0]) + budget);
          unset = false;
          [[unroll]] for (uint j = 0u; j < LB_MAX; j++) {
            uint e = lane * LB_LANE + j;
            if (j < LB_LANE) { // a constant
              uint64_t x = atomicLoad(s64.v[r - 1u - min(e, r - 1u)], gl_ScopeDevice, gl_StorageSemanticsBuffer,
                                      gl_SemanticsRelaxed);
              w[j] = (w[j] >> 32) == 0ul ? x : w[j]; // entries past r hold a prefix: never reloaded
              unset = unset || (w[j] >> 32) == 0ul;
            }
          }
        }
        // The window ends at the nearest entry that is not an aggregate (a
        // prefix, or nothing published within the budget).
        uint jl = LB_LANE, fl = FLAG_AGGREGATE;
        [[unroll]] for (uint j = LB_MAX; j-- > 0u;) {
          uint f = uint(w[j] >> 32);
          if (j < LB_LANE && f != FLAG_AGGREGATE) {
            jl = j;
            fl = f;
          }
        }
        uvec4 stop = subgroupBallot(jl < LB_LANE);
        uint ml = any(notEqual(stop, uvec4(0u))) ? subgroupBallotFindLSB(stop) : sg;
        uint m = ml < sg ? ml * LB_LANE + subgroupShuffle(jl, ml) : span;
        uint fm = ml < sg ? subgroupShuffle(fl, ml) : FLAG_AGGREGATE;
        uint cnt = fm == FLAG_PREFIX ? m + 1u : m;
        uint x = SCAN_IDENTITY; // this lane's entries below cnt, oldest first
        [[unroll]] for (uint j = LB_MAX; j-- > 0u;)
          if (j < LB_LANE && lane * LB_LANE + j < cnt) x = SCAN_COMBINE(x, uint(w[j]));
        for (uint d = 1u; d < sg; d <<= 1) { // lane 0: fold of lanes sg-1 .. 0, oldest first
          uint y = subgroupShuffle(x, min(lane + d, sg - 1u));
          if (lane + d < sg) x = SCAN_COMBINE(y, x);
        }
        acc = SCAN_COMBINE(subgroupBroadcast(x, 0u), acc);
        if (fm == FLAG_PREFIX) {
          r = 0u;
        } else if (m < span) { // block r - 1 - m published nothing in time: fold its input here
          uint q = r - 1u - m;
          uint v = scan_block_total_sg(q);
          uint64_t wq = atomicLoad(s64.v[q], gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
          uint fq = uint(wq >> 32);
          if (fq != 0u) v = uint(wq); // published meanwhile: that value, not a fold of input it may overwrite
          acc = SCAN_COMBINE(v, acc);
          r = fq == FLAG_PREFIX ? 0u : q;
        } else {
          r = r > span ? r - span : 0u; // r <= span ends at a prefix (block 0's at the latest) or a fallback
        }
      }
      if (BACKOFF != 0u && sink == 0x9E3779B9u) sh_bcast[2] = sink; // keeps the pause's work (sh_bcast[2] is unused here)
      if (lane == 0u) {
        sh_bcast[3] = acc;
        atomicStore(s64.v[b], scan_pack(FLAG_PREFIX, SCAN_COMBINE(acc, total)), gl_ScopeDevice,
                    gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
      }
    }
    barrier();
    if (b != 0u) prefix = sh_bcast[3];
    if (AGG_FIRST != 0u && STREAM == 0u && gl_SubgroupID == 0u) scan_rows(run, lane_pre);
  } else if (AGG_FIRST != 0u && STREAM == 0u) {
    scan_rows(run, lane_pre);
  }
#else
  if (lookback) {
    if (t == 0u) {
      st.v[agg_at + b] = total;
      if (b == 0u) st.v[pre_at] = total;
    }
    fence_barrier(); // release: the values before the flag
    if (t == 0u)
      atomicStore(st.v[1u + b], b == 0u ? FLAG_PREFIX : FLAG_AGGREGATE, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                  gl_SemanticsRelaxed);
    // Windows of SG predecessors at once, one per lane of the first
    // subgroup (lane l: block r - 1 - l): the nearest lane whose block has
    // published its prefix (or has published nothing within the budget)
    // ends the window; the lanes before it give aggregates.
    uint r = b, budget = SPIN_BUDGET, lane = gl_SubgroupInvocationID, sg = gl_SubgroupSize;
    while (r != 0u) { // uniform: r comes from shared memory
      uint f = FLAG_PREFIX; // lanes past block 0 stand for nothing and never end a window first
      if (gl_SubgroupID == 0u) {
        // Every lane loads at a clamped index and the subgroup spins together
        // while any flag is unset: no branch separates the lanes before the
        // ballot (Vulkan does not promise that a subgroup reconverges after
        // one). r >= 1 here.
        uint g = atomicLoad(st.v[r - min(lane, r - 1u)], gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
        f = lane < r ? g : FLAG_PREFIX;
        while (subgroupAny(f == 0u) && budget != 0u) { // uniform in the subgroup
          budget = budget > BACKOFF ? budget - 1u - BACKOFF : 0u; // the pause's steps count (llvmpipe's loop limit)
          if (BACKOFF != 0u && scan_backoff(budget) == 0x9E3779B9u) budget = 0u; // keeps the pause's work
          g = atomicLoad(st.v[r - min(lane, r - 1u)], gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
          f = f == 0u ? g : f; // lanes past block 0 hold FLAG_PREFIX: never reloaded
        }
        uvec4 stop = subgroupBallot(f != FLAG_AGGREGATE);
        uint m = any(notEqual(stop, uvec4(0u))) ? subgroupBallotFindLSB(stop) : sg;
        uint fm = subgroupShuffle(f, m < sg ? m : 0u);
        if (lane == 0u) {
          sh_bcast[1] = m;
          sh_bcast[2] = m < sg ? fm : FLAG_AGGREGATE;
        }
      }
      fence_barrier(); // acquire what the window's blocks published
      uint m = sh_bcast[1], fm = sh_bcast[2];
      uint cnt = fm == FLAG_PREFIX ? m + 1u : m; // lanes folded from the window
      if (gl_SubgroupID == 0u) {
        // the lane's value at a clamped index, then selected (no branch before the shuffles)
        uint v = st.v[(lane == m ? pre_at : agg_at) + r - 1u - min(lane, r - 1u)];
        uint x = lane < cnt ? v : SCAN_IDENTITY;
        for (uint d = 1u; d < sg; d <<= 1) { // lane 0: fold of lanes cnt-1 .. 0, oldest first
          uint y = subgroupShuffle(x, min(lane + d, sg - 1u));
          x = lane + d < sg ? SCAN_COMBINE(y, x) : x;
        }
        if (lane == 0u) sh_bcast[3] = x;
      }
      barrier();
      prefix = SCAN_COMBINE(sh_bcast[3], prefix);
      if (fm == FLAG_PREFIX) {
        r = 0u;
      } else if (m < sg) { // block r - 1 - m published nothing in time: fold its input here
        uint q = r - 1u - m;
        uint v = scan_block_total(q);
        if (t == 0u) sh_bcast[1] = atomicLoad(st.v[1u + q], gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
        fence_barrier();
        uint fq = sh_bcast[1];
        if (fq == FLAG_PREFIX) v = st.v[pre_at + q];
        else if (fq == FLAG_AGGREGATE) v = st.v[agg_at + q];
        prefix = SCAN_COMBINE(v, prefix);
        r = fq == FLAG_PREFIX ? 0u : q;
      } else {
        r -= sg;
      }
      barrier(); // sh_bcast is rewritten in the next round
    }
    if (b != 0u) {
      if (t == 0u) st.v[pre_at + b] = SCAN_COMBINE(prefix, total);
      fence_barrier();
      if (t == 0u)
        atomicStore(st.v[1u + b], FLAG_PREFIX, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
    }
  }
  if (AGG_FIRST != 0u && STREAM == 0u) scan_rows(run, lane_pre);
#endif

  // 3. Outputs.
  uint base = SCAN_COMBINE(prefix, sg_before);
  if (STREAM != 0u) {
    [[unroll]] for (uint r = 0u; r < ROWS; r++) {
      uvec4 x = RELOAD != 0u ? scan_load(b, r) : run[r];
      // the last block's loads and stores branch per element
      if ((r > 0u || RELOAD != 0u) && b == nb - 1u) barrier();
      uint p = scan_row(x, base);
      scan_store(b, r, p, x);
    }
  } else {
    [[unroll]] for (uint r = 0u; r < ROWS; r++) scan_store(b, r, SCAN_COMBINE(base, lane_pre[r]), run[r]);
  }

  // 4. A persistent state: this block's share of clearing the other region
  // for the next scan (last: no subgroup operation follows its loop).
  if (lookback && persistent) {
    ScanState other = ScanState(uint64_t(pc.partial) + 8ul + uint64_t(parity ^ 1u) * uint64_t(pc.state_words) * 4ul);
    for (uint w = b * WG_SIZE + t; w < pc.state_words; w += nb * WG_SIZE) other.v[w] = 0u;
  }
}
