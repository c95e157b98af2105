// bins.glsl: the count and fill passes of binning (stages/bins.c), one kernel
// each (bins_count.comp, bins_fill.comp define BINS_FILL or not;
// bins_fill_own.comp also BINS_OWN_FILL); bins_small (BINS_SMALL) runs both,
// slice after slice, in one workgroup.
//
// Workgroup = (chunk of ROUNDS * 256 consecutive elements, slice of SLICE
// consecutive bins (row-major) held in shared memory): workgroup id = slice *
// nchunks + chunk; the fill kernels may take smaller slices than the count
// (pc.count_slice), so that a chunk's pairs spread over more workgroups. Each
// round takes 256 elements, one per invocation; an element's (element, bin)
// pairs are the bins of its bin rectangle inside the slice: part of the
// slice's first row, whole rows, part of its last row. In the fill (and
// bins_small), the pairs of the round are numbered by a workgroup scan of the
// per-element pair counts and spread evenly over the invocations (pair p: its
// element by a binary search of the scan), so an element that covers the
// whole grid costs no more than many small ones (the work is pairs / 256 per
// invocation, not the largest element).
//   count: cnt[bin] += 1 per pair                  -> matrix[bin * nchunks + chunk]
//          (the count kernel: an element of more than 4 pairs by difference
//          marks for its runs of bins, summed once at the end; no barrier
//          between rounds: see bins_count_chunk)
//   fill:  chunk 0 also writes bin_offsets (its offsets are the bin starts;
//          bins_gather does it only when there are no elements);
//          every pair ORs its element's bit into a 256-bit bitmap of its bin;
//          its slot in the bin's list is
//          offset[bin][chunk] + cnt[bin] + popcount(bits of earlier elements)
//          (then each bin adds its bitmap's count to cnt[bin] and clears it;
//          in bins_fill_own, after a round of own pairs only, each pair adds
//          1 to its bin's count and clears its own bit instead)
// so every list is in stream order with no sorting and no overflow (the fill
// slots come from the scanned counts). Empty boxes are listed nowhere.
// Needs workgroups of whole subgroups (256 is a multiple of every subgroup
// size the host accepts): slot = subgroup id * subgroup size + lane.
//
// Loop trips are bounded per invocation: every pair lies in the slice, so a
// round gives an invocation at most SLICE pairs per pass over them (one in
// bins_small's count, two in the fill, then SLICE / 256 bins; the count
// kernel at most 4 a round), and the binary search and the bitmap rank are
// unrolled (no loop). Some drivers stop
// loops after a fixed number of iterations per invocation (llvmpipe: 65 535
// in total over all loops, cn_device_caps.max_loop_iterations); the host
// picks rounds so that rounds * (3 * SLICE + subgroups + 2) stays below it.
#include "common.glsl"
#extension GL_EXT_control_flow_attributes : require

layout(local_size_x = 256) in;

layout(buffer_reference, std430, buffer_reference_align = 16) buffer BoxBuf { vec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer U32Buf { uint v[]; };
#define CN_USE_BINS_PUSH
#include "cn_scene_stage_shared.h"
layout(constant_id = CN_SPEC_BINS_SLICE) const uint SLICE = 256;
#include "scene_box.glsl"

const uint WG = 256u;

#ifdef BINS_SMALL
#define BINS_COUNT_PASS
#endif
#if !defined(BINS_SMALL) && !defined(BINS_FILL)
#define BINS_COUNT_KERNEL
#endif
#if defined(BINS_SMALL) || defined(BINS_FILL)
#define BINS_FILL_PASS
// The round's bitmaps: word w of bin b at bits_at(b, w) = w * SLICE + b, so
// that the per-bin passes over the slice (an invocation per bin) read and
// clear them without bank conflicts, and so do a subgroup's own pairs, which
// all touch the same word index (laid out bin-major, 8 words a bin, such
// accesses met in 4 of the 32 banks).
shared uint sh_bits[SLICE * 8u];
uint bits_at(uint b, uint w) { return w * SLICE + b; }
#endif
// An element of at most OWN pairs in the slice: the count kernel adds them
// one by one; the fill kernel with own pairs (bins_fill_own.comp) sets its
// own bits before the round's first barrier and writes its entries after it,
// and a round scans and spreads pairs only when some element has more
// (sh_flag; sh_own: some element has own pairs; a word per round, three in
// turn, set by plain stores of 1).
const uint OWN = 4u;
#ifdef BINS_OWN_FILL
shared uint sh_flag[3], sh_own[3];
#endif
shared uint sh_cnt[SLICE];
shared uint sh_sg[WG];     // per subgroup: its pair total (the count kernel: its sum)
#ifndef BINS_COUNT_KERNEL
shared uint sh_end[WG];    // per slot: inclusive end of its pairs (non-decreasing)
shared uvec4 sh_rect[WG];  // per slot: see pair_bin

// The slot of pair p: the first slot whose end is above p (sh_end is
// non-decreasing and p < sh_end[WG - 1]). Unrolled: 8 halvings of 256 slots.
#define PAIR_SLOT_STEP(k) if (sh_end[lo + (k) - 1u] <= p) lo += (k);
uint pair_slot(uint p) {
  uint lo = 0u;
  PAIR_SLOT_STEP(128u) PAIR_SLOT_STEP(64u) PAIR_SLOT_STEP(32u) PAIR_SLOT_STEP(16u)
  PAIR_SLOT_STEP(8u) PAIR_SLOT_STEP(4u) PAIR_SLOT_STEP(2u) PAIR_SLOT_STEP(1u)
  return lo;
}
#endif

// An element's pairs in the slice [s0, s0 + sl), whose bins run from column
// a of row row0 to column c of row row1, in this order:
//   A: row row0, columns max(lx, a) .. (row1 > row0 ? hx : min(hx, c)): nA
//   B: rows yB .. yB + nB - 1 (strictly between row0 and row1), columns lx .. hx
//   C: row row1 (when row1 > row0), columns lx .. min(hx, c)
// with yB = max(ly, row0 + 1) (so yB + nB = row1 when there is a C).
// sh_rect[slot] = (lx | e << 24, w = hx - lx + 1, nA, (yB - row0) | nB << 16):
// lx < 2^22 (at most 2^22 bins), e < 256, rows of a slice < 2^16.

// Bin of pair k of an element (lx, w, nA, yB - row0, nB) relative to the
// slice start (always inside it).
uint rect_bin(uint k, uint lx, uint w, uint nA, uint yB, uint nB, uint a, uint row0) {
  uint y, col;
  if (k < nA) {
    y = row0;
    col = max(lx, a) + k;
  } else {
    k -= nA;
    if (k < nB * w) {
      y = row0 + yB + k / w;
      col = lx + k % w;
    } else {
      y = row0 + yB + nB; // row1: B ends right above it, or yB = row1 when B is empty
      col = lx + (k - nB * w);
    }
  }
  return (y - row0) * pc.nbx + col - a;
}

#ifndef BINS_COUNT_KERNEL
// Bin of pair p (slot s) relative to the slice start.
uint pair_bin(uint p, uint s, uint a, uint row0) {
  uint start = s == 0u ? 0u : sh_end[s - 1u];
  uvec4 r = sh_rect[s];
  return rect_bin(p - start, r.x & 0xFFFFFFu, r.y, r.z, r.w & 0xFFFFu, r.w >> 16, a, row0);
}
#endif

// Set bits of the first `word` words of bin b's bitmap (unrolled).
#ifdef BINS_FILL_PASS
uint bits_below(uint b, uint word) {
  uint n = 0u;
  n += word > 0u ? bitCount(sh_bits[bits_at(b, 0u)]) : 0u;
  n += word > 1u ? bitCount(sh_bits[bits_at(b, 1u)]) : 0u;
  n += word > 2u ? bitCount(sh_bits[bits_at(b, 2u)]) : 0u;
  n += word > 3u ? bitCount(sh_bits[bits_at(b, 3u)]) : 0u;
  n += word > 4u ? bitCount(sh_bits[bits_at(b, 4u)]) : 0u;
  n += word > 5u ? bitCount(sh_bits[bits_at(b, 5u)]) : 0u;
  n += word > 6u ? bitCount(sh_bits[bits_at(b, 6u)]) : 0u;
  return n;
}
#endif

#ifdef BINS_FILL_PASS
// After a round's entries: per bin of the slice, its count moves past the
// round's elements and its bitmap clears (8 independent loads, no search per
// pair; consecutive invocations read consecutive words: no bank conflicts).
void bins_fill_next(uint sl) {
  for (uint x = gl_LocalInvocationID.x; x < sl; x += WG) {
    uint c = 0u;
    [[unroll]] for (uint w = 0u; w < 8u; w++) {
      c += bitCount(sh_bits[bits_at(x, w)]);
      sh_bits[bits_at(x, w)] = 0u;
    }
    sh_cnt[x] += c;
  }
}
#endif

#ifdef BINS_OWN_FILL
// The entries of invocation t's own element (its `own` pairs, bit t of each
// of its bins' bitmaps set and visible): element index i.
void bins_own_entries(uint own, uint i, uint lx, uint w, uint nA, uint yB, uint nB, uint a, uint row0) {
  uint t = gl_LocalInvocationID.x, word = t >> 5;
  for (uint k = 0u; k < own; k++) { // at most OWN trips
    uint b = rect_bin(k, lx, w, nA, yB, nB, a, row0);
    uint below = bitCount(sh_bits[bits_at(b, word)] & ((1u << (t & 31u)) - 1u)) + bits_below(b, word);
    uint pos = sh_cnt[b] + below;
    if (pos < pc.capacity) pc.elems.v[pos] = i;
  }
}
#endif

// An element's box bx (have: it is in the stream) as pairs in the slice
// whose rows are row0 .. row1, first column a, last column c (see rect_bin):
// its columns lx .. hx (w of them), nA pairs in row0, nB rows from yB,
// nC pairs in row1; returns the pair count (0 for an empty box or one
// outside the slice's rows).
uint bins_rect(vec4 bx, bool have, uint row0, uint row1, uint a, uint c, out uint lx, out uint w, out uint nA,
               out uint yB, out uint nB, out uint nC) {
  uint hx = 0u, ly = 0u, hy = 0u;
  lx = 0u;
  have = have && !box_is_empty(bx) && bin_range(bx.x, bx.z, pc.vp_x0, pc.bin_size, pc.nbx, lx, hx) &&
         bin_range(bx.y, bx.w, pc.vp_y0, pc.bin_size, pc.nby, ly, hy);
  w = hx - lx + 1u;
  nA = 0u;
  nB = 0u;
  nC = 0u;
  yB = row0 + 1u;
  if (!have || ly > row1 || hy < row0) return 0u;
  if (ly <= row0) { // A
    uint endA = row1 > row0 ? hx : min(hx, c);
    uint colA = max(lx, a);
    nA = endA >= colA ? endA - colA + 1u : 0u;
  }
  yB = max(ly, row0 + 1u);
  uint yB1 = min(hy, row1 - 1u); // row1 - 1 >= row0 whenever row1 > row0
  nB = row1 > row0 + 1u && yB1 >= yB ? yB1 - yB + 1u : 0u;
  if (row1 > row0 && hy >= row1) { // C (ly <= row1 holds)
    uint endC = min(hx, c);
    nC = endC >= lx ? endC - lx + 1u : 0u;
  }
  return nA + nB * w + nC;
}

// The first round at or after r that the fill runs: every round, or with
// `live` (masked: the count kernel's record, at most 32 rounds) the next one
// with pairs in the slice (rounds: none).
uint bins_next_round(uint r, bool masked, uint live, uint rounds) {
  if (!masked) return r;
  uint rest = r < 32u ? live & ~((1u << r) - 1u) : 0u;
  return rest == 0u ? rounds : uint(findLSB(rest));
}

#ifdef BINS_COUNT_KERNEL
// The count kernel: sh_cnt[b] += the chunk's pairs in bin b of the slice
// [s0, s0 + sl); returns (in every invocation) which of its first 32 rounds
// have pairs in the slice. No round waits for another: the boxes are
// loaded BATCH rounds at a time and there is no barrier between rounds. An
// element of at most OWN pairs adds them one by one; a larger one marks its
// runs of bins in difference arrays over the slice's bins (index b - s0 =
// (row - row0) * nbx + column - a):
//   sh_d1: its A and C runs: +1 at a run's first bin, -1 past its last;
//   sh_ds: its B rows, which are whole rows of the slice, so the same runs
//          one row (nbx bins) apart: +1 at the first B row's first bin and
//          -1 past its last, and the opposite nB rows further on;
// at the end (only where the slice had such an element) a prefix sum of
// sh_ds with stride nbx turns the B marks into one run per row, and a
// prefix sum of sh_d1 + sh_ds gives the counts. Marks at or past sl are
// left out (they end runs at the slice's end). Sums wrap modulo 2^32, which
// leaves every count (< 2^32) exact.
shared uint sh_d1[SLICE], sh_ds[SLICE];
shared uint sh_big, sh_live;
const uint BATCH = 4u;

void bins_mark(uint at, uint v, uint sl, bool strided) {
  if (at < sl) {
    if (strided) atomicAdd(sh_ds[at], v);
    else atomicAdd(sh_d1[at], v);
  }
}

uint bins_count_chunk(uint ch, uint rounds, uint s0, uint sl) {
  uint t = gl_LocalInvocationID.x;
  uint row0 = s0 / pc.nbx, row1 = (s0 + sl - 1u) / pc.nbx;
  uint a = s0 % pc.nbx, c = (s0 + sl - 1u) % pc.nbx; // the slice's first and last column
  uint seen = 0u;
  bool big = false;
  for (uint r0 = 0u; r0 < rounds; r0 += BATCH) {
    vec4 bx[BATCH];
    [[unroll]] for (uint q = 0u; q < BATCH; q++) {
      uint i = (ch * rounds + r0 + q) * WG + t;
      bx[q] = r0 + q < rounds && i < pc.n ? pc.boxes.v[i] : BOX_EMPTY;
    }
    [[unroll]] for (uint q = 0u; q < BATCH; q++) {
      uint lx, w, nA, yB, nB, nC;
      uint count = bins_rect(bx[q], r0 + q < rounds, row0, row1, a, c, lx, w, nA, yB, nB, nC);
      if (count == 0u) continue;
      if (r0 + q < 32u) seen |= 1u << (r0 + q);
      uint yBr = yB - row0;
      if (count <= OWN) {
        for (uint k = 0u; k < count; k++) // at most OWN trips
          atomicAdd(sh_cnt[rect_bin(k, lx, w, nA, yBr, nB, a, row0)], 1u);
        continue;
      }
      big = true;
      if (nA != 0u) { // row0 from max(lx, a)
        uint f = max(lx, a) - a;
        bins_mark(f, 1u, sl, false);
        bins_mark(f + nA, 0xFFFFFFFFu, sl, false);
      }
      if (nB != 0u) {
        uint f = yBr * pc.nbx + lx - a;
        bins_mark(f, 1u, sl, true);
        bins_mark(f + w, 0xFFFFFFFFu, sl, true);
        bins_mark(f + nB * pc.nbx, 0xFFFFFFFFu, sl, true);
        bins_mark(f + nB * pc.nbx + w, 1u, sl, true);
      }
      if (nC != 0u) { // row1 from lx
        uint f = (row1 - row0) * pc.nbx + lx - a;
        bins_mark(f, 1u, sl, false);
        bins_mark(f + nC, 0xFFFFFFFFu, sl, false);
      }
    }
  }
  if (big) sh_big = 1u;
  uint any = subgroupOr(seen);
  if (subgroupElect() && any != 0u) atomicOr(sh_live, any);
  barrier();
  if (sh_big != 0u) { // uniform
    // B rows: a prefix sum with stride nbx (steps of nbx, 2 nbx, 4 nbx ...)
    for (uint st = pc.nbx; st < sl; st *= 2u) {
      uint v[SLICE / WG];
      [[unroll]] for (uint e = 0u; e < SLICE / WG; e++) {
        uint x = e * WG + t;
        v[e] = x < sl && x >= st ? sh_ds[x - st] : 0u;
      }
      barrier();
      [[unroll]] for (uint e = 0u; e < SLICE / WG; e++) sh_ds[e * WG + t] += v[e];
      barrier();
    }
    // the counts: a prefix sum of both, SLICE / WG consecutive bins per
    // invocation in slot order
    uint slot = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
    uint d[SLICE / WG], sum = 0u;
    [[unroll]] for (uint e = 0u; e < SLICE / WG; e++) {
      uint x = slot * (SLICE / WG) + e;
      d[e] = sh_d1[x] + sh_ds[x];
      sum += d[e];
    }
    uint incl = subgroupInclusiveAdd(sum), total = subgroupAdd(sum);
    if (subgroupElect()) sh_sg[gl_SubgroupID] = total;
    barrier();
    uint before, all;
    CN_SUBGROUP_TOTALS(sh_sg, before, all);
    uint run = before + incl - sum;
    [[unroll]] for (uint e = 0u; e < SLICE / WG; e++) {
      run += d[e];
      sh_cnt[slot * (SLICE / WG) + e] += run;
    }
  }
  return sh_live;
}
#else
// The rounds of chunk ch over the slice [s0, s0 + sl) (bins_small's count
// and fill passes, the fill kernels): the count pass adds the chunk's pairs
// to sh_cnt; the fill pass (sh_cnt = the chunk's offset in each bin, sh_bits
// clear) writes the chunk's list entries, in only the rounds of `live` where
// masked (a round without pairs then costs neither a box load nor a
// barrier).
void bins_rounds(uint ch, uint rounds, uint s0, uint sl, bool fill, bool masked, uint live) {
  uint t = gl_LocalInvocationID.x;
  uint row0 = s0 / pc.nbx, row1 = (s0 + sl - 1u) / pc.nbx;
  uint a_start = s0 % pc.nbx, c_end = (s0 + sl - 1u) % pc.nbx; // the slice's first and last column
  uint slot = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
  uint r = bins_next_round(0u, masked, live, rounds), rn;
  uint i_next = (ch * rounds + r) * WG + t;
  vec4 bx_next = r < rounds && i_next < pc.n ? pc.boxes.v[i_next] : BOX_EMPTY;
  // kr: the rounds run before this one (the flags' turns: each round that
  // runs has a barrier after its flags are set)
  for (uint kr = 0u; r < rounds; r = rn, kr++) {
    // this round's box; the next round's load is in flight during this round
    uint i = i_next;
    vec4 bx = bx_next;
    rn = bins_next_round(r + 1u, masked, live, rounds);
    i_next = (ch * rounds + rn) * WG + t;
    if (rn < rounds && i_next < pc.n) bx_next = pc.boxes.v[i_next];
    uint lx, w, nA, yB, nB, nC;
    uint count = bins_rect(bx, i < pc.n, row0, row1, a_start, c_end, lx, w, nA, yB, nB, nC);
    uint yBr = min(yB - row0, 0xFFFFu); // B's first row relative to row0 (see sh_rect)
#ifdef BINS_OWN_FILL
    // An own element's bits (bit t: only this invocation sets or clears it,
    // in any round). The previous round's
    // updates come before, in this invocation's order or behind the barrier
    // that ended a spread round.
    uint own = 0u;
    if (count <= OWN) {
      for (uint k = 0u; k < count; k++) // at most OWN trips
        atomicOr(sh_bits[bits_at(rect_bin(k, lx, w, nA, yBr, nB, a_start, row0), t >> 5)], 1u << (t & 31u));
      own = count;
      count = 0u; // nothing to spread
      if (own != 0u) sh_own[kr % 3u] = 1u;
    } else {
      sh_flag[kr % 3u] = 1u;
    }
    // the flags of the next round: their last readers (round kr - 2) are
    // past round kr - 1's barrier, their writers wait for this round's
    if (t == 0u) sh_flag[(kr + 1u) % 3u] = sh_own[(kr + 1u) % 3u] = 0u;
    // also the barrier the scan below needs: the previous round is done with
    // sh_sg, sh_end, sh_rect, and the branches above end here
    barrier();
    if (sh_flag[kr % 3u] == 0u) { // uniform: every element of the round has at most OWN pairs
      if (sh_own[kr % 3u] == 0u) continue; // no pairs in this round (without a mask): one barrier
      bins_own_entries(own, i, lx, w, nA, yBr, nB, a_start, row0);
      if (rn < rounds) {
        barrier(); // every rank of the round is taken
        // each own pair moves its bin's count and clears its own bit: the
        // next round's ranks (behind its first barrier) see both, and its
        // bits are set by their owners (atomics: bits of other owners in
        // the same word may be set or cleared meanwhile)
        for (uint k = 0u; k < own; k++) { // at most OWN trips
          uint b = rect_bin(k, lx, w, nA, yBr, nB, a_start, row0);
          atomicAdd(sh_cnt[b], 1u);
          atomicAnd(sh_bits[bits_at(b, t >> 5)], ~(1u << (t & 31u)));
        }
      }
      continue;
    }
#else
    // pair numbering: exclusive scan in slot order. The barrier first: the
    // previous round is done with sh_sg, sh_end, sh_rect, and the subgroup
    // scan follows no branch (the branches above, and the previous round's
    // pair loops, end at it).
    barrier();
#endif
    uint incl = subgroupInclusiveAdd(count);
    uint sgsum = subgroupAdd(count);
    if (subgroupElect()) sh_sg[gl_SubgroupID] = sgsum;
    barrier();
    uint base = 0u, total = 0u;
    for (uint j = 0u; j < gl_NumSubgroups; j++) {
      uint v = sh_sg[j];
      base += j < gl_SubgroupID ? v : 0u;
      total += v;
    }
    sh_end[slot] = base + incl;
    sh_rect[slot] = uvec4(lx | (t << 24), w, nA, yBr | (nB << 16));
    barrier();
#ifdef BINS_COUNT_PASS
    if (!fill) {
      for (uint p = t; p < total; p += WG) {
        atomicAdd(sh_cnt[pair_bin(p, pair_slot(p), a_start, row0)], 1u);
      }
    }
#endif
#ifdef BINS_FILL_PASS
    if (fill) {
      // the first pair's slot and bin are kept for the second pass (most
      // rounds give an invocation one pair)
      uint s1 = 0u, b1 = 0u;
      for (uint p = t; p < total; p += WG) {
        uint s = pair_slot(p);
        uint b = pair_bin(p, s, a_start, row0);
        if (p == t) {
          s1 = s;
          b1 = b;
        }
        uint e = sh_rect[s].x >> 24;
        atomicOr(sh_bits[bits_at(b, e >> 5)], 1u << (e & 31u));
      }
      barrier();
      for (uint p = t; p < total; p += WG) {
        uint s = s1, b = b1;
        if (p != t) {
          s = pair_slot(p);
          b = pair_bin(p, s, a_start, row0);
        }
        uint e = sh_rect[s].x >> 24, word = e >> 5;
        uint below = bitCount(sh_bits[bits_at(b, word)] & ((1u << (e & 31u)) - 1u)) + bits_below(b, word);
        uint pos = sh_cnt[b] + below;
        if (pos < pc.capacity) pc.elems.v[pos] = (ch * rounds + r) * WG + e;
      }
#ifdef BINS_OWN_FILL
      bins_own_entries(own, i, lx, w, nA, yBr, nB, a_start, row0);
#endif
      // the per-bin update: after the last round nothing reads the counts
      // and bitmaps, but in bins_small the next slice's fill
#ifdef BINS_SMALL
      bool more = true;
#else
      bool more = rn < rounds;
#endif
      if (more) {
        barrier();
        bins_fill_next(sl);
#ifdef BINS_OWN_FILL
        barrier();
#endif
      }
    }
#endif
  }
}
#endif

#ifndef BINS_SMALL
void main() {
  uint t = gl_LocalInvocationID.x;
  uint nbins = pc.nbx * pc.nby;
  if (pc.nchunks == 0u) { // no elements: the total is 0
#ifndef BINS_FILL
    if (t == 0u) pc.matrix.v[0] = 0u;
#endif
    return;
  }
  uint ch = cn_group_id() % pc.nchunks;
  uint s0 = (cn_group_id() / pc.nchunks) * SLICE;
#ifndef BINS_FILL
  if (cn_group_id() == 0u && t == 0u) pc.matrix.v[nbins * pc.nchunks] = 0u; // the total, also with no bins
#else
  if (cn_group_id() == 0u && t == 0u) pc.bin_offsets.v[nbins] = pc.matrix.v[nbins * pc.nchunks];
#endif
  if (s0 >= nbins) return;
  uint sl = min(SLICE, nbins - s0);
  // pc.live: per count workgroup (chunk and slice), the rounds with pairs in
  // the slice, which the count kernel records and the fill kernel runs alone
  // (0: no record, every round runs; the host sets it for at most 32 rounds).
  // A fill slice lies inside one count slice (both powers of two, the fill's
  // no larger): its rounds with pairs are among that slice's.
  bool masked = uint64_t(pc.live) != 0ul;
#ifdef BINS_FILL
  uint live = masked ? pc.live.v[(s0 / pc.count_slice) * pc.nchunks + ch] : 0u;
  // a chunk without pairs in the slice has nothing to fill; chunk 0 still
  // writes the slice's bin starts (uniform)
  if (masked && live == 0u && ch != 0u) return;
#endif
  for (uint x = t; x < SLICE; x += WG) {
#ifdef BINS_FILL
    sh_cnt[x] = x < sl ? pc.matrix.v[(s0 + x) * pc.nchunks + ch] : 0u;
    if (ch == 0u && x < sl) pc.bin_offsets.v[s0 + x] = sh_cnt[x]; // bin starts (chunk 0's offsets)
    for (uint w = 0u; w < 8u; w++) sh_bits[bits_at(x, w)] = 0u;
#else
    sh_cnt[x] = sh_d1[x] = sh_ds[x] = 0u;
#endif
  }
#ifdef BINS_FILL
#ifdef BINS_OWN_FILL
  if (t == 0u) sh_flag[0] = sh_own[0] = 0u;
  barrier(); // sh_cnt, sh_bits and the first round's flags come before the own bits
#endif
  bins_rounds(ch, pc.rounds, s0, sl, true, masked, live);
#else
  if (t == 0u) sh_big = sh_live = 0u;
  barrier(); // the counts and marks are clear
  uint seen = bins_count_chunk(ch, pc.rounds, s0, sl);
  barrier();
  for (uint x = t; x < sl; x += WG) pc.matrix.v[(s0 + x) * pc.nchunks + ch] = sh_cnt[x];
  if (masked && t == 0u) pc.live.v[cn_group_id()] = seen;
#endif
}
#endif
