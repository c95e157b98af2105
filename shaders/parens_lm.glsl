// parens_lm.glsl: the partition-local half of the LOWMARK variant
// (parens_lm_reduce, parens_lm_match; see include/canopy/cn_parens.h).
//
// Formulation. Let g(k) be the prefix sum of +1 per '(' and -1 per ')' over
// elements [0, k) (g(0) = 0, no clamping). Then
//   out[i] = the largest k < i with g(k) < g(i), or -1 if there is none
// (a "previous smaller value" search): the stack entry at depth g(i) just
// before i is the last '(' that pushed to that depth, and nothing after it
// went lower. So matching is a prefix sum plus searches over low-water marks
// (minima of g over ranges), with no stack.
//
// A workgroup owns a partition of P = WG * K elements (K = 16 or 32);
// invocation t owns chunk t, the K elements of K / 16 uvec4s of input bytes. The chunk order is
// subgroup-major (t = subgroup id * subgroup size + lane) so that subgroup
// scans follow element order on any device; subgroups must be full (the
// workgroup size is a power of two >= the subgroup size).
// With PARENS_LM_MULTI (parens_lm_match.comp) a workgroup of LOCAL invocations
// holds LOCAL / WG partitions, one per subgroup (the host runs it only where
// every subgroup has WG invocations): each partition's shared arrays are its
// own slice (lm_slot()), and it synchronises with subgroup barriers alone, so
// the partitions of a workgroup never wait on each other, and an SM holds
// more of them than its limit of workgroups would allow one per workgroup.
// Include after parens.glsl (with PARENS_NO_PARTITION).
#ifndef PARENS_LM_GLSL
#define PARENS_LM_GLSL

#extension GL_EXT_control_flow_attributes : require
#include "parens_lm_nibble.glsl"

layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer ParensIn4 { uvec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) writeonly buffer ParensOut4 { ivec4 v[]; };

// K (parens.glsl, a specialization constant) is 16 or 32 here: the chunk's
// bits fit a uint, its input is whole uvec4s, its outputs whole ivec4s.
const uint LK = K;
const int LM_INF = 0x7fffffff;

shared int sh_sg[WG]; // one value per subgroup (scans across subgroups)

#ifdef PARENS_LM_MULTI
const uint LM_PPW = LOCAL / WG; // partitions per workgroup
#else
const uint LM_PPW = 1u;
#endif

// Chunk index of this invocation in its partition (subgroup-major, see above).
uint lm_chunk_id() {
  return LM_PPW > 1u ? gl_SubgroupInvocationID : gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
}

// The partition's place in its workgroup (0 .. LM_PPW - 1).
uint lm_slot() { return LM_PPW > 1u ? gl_SubgroupID : 0u; }

// A barrier over the partition's invocations, its shared memory included:
// the workgroup's, or its subgroup's when the workgroup holds several
// partitions.
void lm_barrier() {
  if (LM_PPW > 1u) {
    subgroupMemoryBarrierShared();
    subgroupBarrier();
  } else {
    barrier();
  }
}

// One chunk: close bits and its walk relative to its start.
struct LmChunk {
  uint closes; // bit j: element j is ')'
  uint count;  // elements inside n
  uint mask;   // '(' not popped inside the chunk, bit j = element j
  int sum;     // g(end) - g(start)
  int low;     // min of g - g(start) over the chunk's positions, end included (<= 0)
};

// The input words of chunk t of the partition starting at `part`: one uvec4
// per 16 elements, read straight when the chunk is whole; words past n are 0
// (their bytes are masked off by lm_unpack). Kept apart from lm_unpack so that
// a kernel can issue the loads of its next partition before it works on this
// one.
struct LmWords {
  uvec4 w0, w1; // elements 0-15, 16-31 (w1 only when K = 32)
};

LmWords lm_fetch(uint part, uint t) {
  LmWords r;
  r.w1 = uvec4(0u);
  uint base = part + t * LK;
  uint count = base < pc.n ? min(LK, pc.n - base) : 0u;
  uint nwords = (pc.n + 3u) / 4u;
  [[unroll]] for (uint h = 0u; h < LK / 16u; h++) {
    uvec4 w = uvec4(0u);
    if (count == LK) {
      w = ParensIn4(pc.src).v[base / 16u + h];
    } else if (count != 0u) {
      for (uint i = 0u; i < 4u; i++)
        if (base / 4u + 4u * h + i < nwords) w[i] = pc.src.v[base / 4u + 4u * h + i];
    }
    if (h == 0u) r.w0 = w;
    else r.w1 = w;
  }
  return r;
}

// The close bits of chunk t from its words (lm_fetch); bits past n are 0.
// mask, sum and low are left for lm_walk / lm_summary.
LmChunk lm_unpack(LmWords r, uint part, uint t) {
  LmChunk c;
  uint base = part + t * LK;
  c.count = base < pc.n ? min(LK, pc.n - base) : 0u;
  c.closes = 0u;
  [[unroll]] for (uint h = 0u; h < LK / 16u; h++) {
    [[unroll]] for (uint i = 0u; i < 4u; i++) {
      uint m = (h == 0u ? r.w0[i] : r.w1[i]) & 0x01010101u; // the low bit of each byte, gathered into 4 bits
      m |= m >> 7;
      m |= m >> 14;
      c.closes |= (m & 0xFu) << (16u * h + 4u * i);
    }
  }
  uint valid = c.count == LK ? 0xFFFFFFFFu >> (32u - LK) : (1u << c.count) - 1u;
  c.closes &= valid;
  c.mask = 0u;
  c.sum = 0;
  c.low = 0;
  return c;
}

// lm_unpack(lm_fetch(part, t), part, t).
LmChunk lm_load_bits(uint part, uint t) { return lm_unpack(lm_fetch(part, t), part, t); }

// The chunk's walk, element by element (its first c.count elements): the
// unmatched '(' bitmask, sum and low mark.
void lm_walk(inout LmChunk c) {
  uint mask = 0u;
  int r = 0, lo = 0;
  [[unroll]] for (uint j = 0u; j < LK; j++) {
    if (j < c.count) {
      if ((c.closes >> j & 1u) != 0u) {
        if (mask != 0u) mask ^= 1u << findMSB(mask);
        r--;
      } else {
        mask |= 1u << j;
        r++;
      }
      lo = min(lo, r);
    }
  }
  c.mask = mask;
  c.sum = r;
  c.low = lo;
}

// The unmatched '(' of a whole chunk (close bits `closes`) at levels below
// `bound` (relative to the chunk's start, g before the element), as a
// bitmask: four elements at a time and no walk. A group's own unmatched '('
// sit at consecutive levels from its low mark up, lowest first; those below
// the low marks of every later group and below bound are unmatched in the
// chunk and kept: the lowest s of the group's.
uint lm_survivor_mask(uint closes, int bound) {
  const uint NG = LK / 4u;
  int lv[NG], cnt[NG];
  int acc = 0;
  [[unroll]] for (uint h = 0u; h < NG; h++) {
    uint x = bitfieldExtract(closes, int(4u * h), 4);
    int drop = lm_nibble_drop(x), sum = 4 - 2 * int(bitCount(x));
    lv[h] = acc - drop;  // the group's low mark
    cnt[h] = sum + drop; // its unmatched '(' (sum - low)
    acc += sum;
  }
  uint m = 0u;
  [[unroll]] for (int h = int(NG) - 1; h >= 0; h--) {
    int s = clamp(bound - lv[h], 0, cnt[h]);
    m |= lm_nibble_lowest(bitfieldExtract(closes, 4 * h, 4), s) << uint(4 * h);
    bound = min(bound, lv[h]);
  }
  return m;
}

// Sum and low mark of the chunk (not its mask): four elements at a time for a
// whole chunk, else by lm_walk.
void lm_summary(inout LmChunk c) {
  if (c.count != LK) {
    lm_walk(c);
    return;
  }
  int acc = 0, lo = 0;
  [[unroll]] for (uint h = 0u; h < LK / 4u; h++) {
    uint x = bitfieldExtract(c.closes, int(4u * h), 4);
    lo = min(lo, acc - lm_nibble_drop(x));
    acc += 4 - 2 * int(bitCount(x));
  }
  c.sum = acc;
  c.low = lo;
}

// Exclusive prefix sum of x over the workgroup's chunks; `total` gets the sum.
// Every invocation calls it, with the same `sync`: true where the caller's
// lanes may have branched apart before it (a partial partition's loads and
// walks, a previous partition's stores). A barrier then comes first, so that
// the subgroup operations follow no branch (Vulkan does not promise that a
// subgroup reconverges after one).
int lm_excl_add(int x, out int total, bool sync) {
  if (LM_PPW > 1u) { // the partition is one subgroup
    if (sync) subgroupBarrier();
    total = subgroupAdd(x);
    return subgroupExclusiveAdd(x);
  }
  if (sync) barrier();
  int incl = subgroupInclusiveAdd(x);
  int sg = subgroupAdd(x);
  if (subgroupElect()) sh_sg[gl_SubgroupID] = sg;
  barrier();
  int before = 0, all = 0;
  for (uint s = 0u; s < gl_NumSubgroups; s++) {
    int v = sh_sg[s];
    before += s < gl_SubgroupID ? v : 0;
    all += v;
  }
  barrier(); // sh_sg is reused
  total = all;
  return before + incl - x;
}

// Minimum of x over the chunks after this one (LM_INF for the last); `total`
// gets the minimum over all chunks.
int lm_suffix_min(int x, out int total) {
  uint last = gl_SubgroupSize - 1u, l = gl_SubgroupInvocationID;
  int rev = subgroupShuffle(x, last - l);             // lanes reversed
  int after = subgroupShuffle(subgroupExclusiveMin(rev), last - l);
  if (LM_PPW > 1u) { // the partition is one subgroup
    total = subgroupMin(x);
    return after;
  }
  int sg = subgroupMin(x);
  if (subgroupElect()) sh_sg[gl_SubgroupID] = sg;
  barrier();
  int all = LM_INF;
  for (uint s = 0u; s < gl_NumSubgroups; s++) {
    int v = sh_sg[s];
    if (s > gl_SubgroupID) after = min(after, v);
    all = min(all, v);
  }
  barrier(); // sh_sg is reused
  total = all;
  return after;
}

#endif
