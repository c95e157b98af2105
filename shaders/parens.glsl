// parens.glsl: the partition-local half of parentheses matching, shared by
// parens_reduce, parens_match and parens_lookback (see include/canopy/cn_parens.h).
//
// A workgroup owns one partition of P = WG * K elements; invocation t owns the
// K consecutive elements ("chunk" t) starting at part + t * K.
//   parens_load()       input bytes -> per-invocation close bits, chunk state
//                       (unmatched '(' as a bitmask, count of unmatched ')')
//   parens_tree_build() bicyclic binary tree over the WG chunks in shared memory
//   parens_find_local() top of the stack at depth d before chunk t: inside the
//                       partition (via the tree and chunk bitmasks), else a depth
//                       into the stack before the partition (sh_win)
//   parens_emit()       walks the chunk sequentially with an O(1) bitmask stack,
//                       resolving outside references, stages outputs in shared
//                       memory and writes them coalesced
// A kernel defines PARENS_WIN_CAP (entries of sh_win) before including this,
// or PARENS_NO_PARTITION for the types and bic() alone, or PARENS_SINGLE for
// one workgroup owning the whole input (parens_single: no stack before the
// partition, no shared staging of input or outputs).
#include "common.glsl"

#ifndef PARENS_COHERENT
#define PARENS_COHERENT
#endif
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer ParensIn { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) writeonly buffer ParensOut { int v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) PARENS_COHERENT buffer ParensI32 { int v[]; };
layout(buffer_reference, std430, buffer_reference_align = 8) PARENS_COHERENT buffer ParensBic { uvec2 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) PARENS_COHERENT buffer ParensU32 { uint v[]; };
#define CN_USE_PARENS_PUSH
#include "cn_parens_shared.h"

layout(constant_id = CN_SPEC_WG_SIZE) const uint WG = 256;
layout(constant_id = CN_SPEC_ITEMS) const uint K = 16; // 1, 2 or a multiple of 4, at most 32
layout(constant_id = CN_SPEC_PARENS_WINDOW) const uint WINDOW = 512;
#ifdef PARENS_LM_MULTI
// The workgroup's invocations: LOCAL / WG partitions, one per subgroup (parens_lm.glsl).
layout(constant_id = CN_SPEC_PARENS_LOCAL) const uint LOCAL = 32;
layout(local_size_x_id = CN_SPEC_PARENS_LOCAL) in;
#else
layout(local_size_x_id = CN_SPEC_WG_SIZE) in;
#endif

const uint P = WG * K;

// Bicyclic semigroup: x then y.
uvec2 bic(uvec2 x, uvec2 y) {
  uint m = min(x.y, y.x);
  return uvec2(x.x + y.x - m, x.y + y.y - m);
}

// Offset of level l in a heap-layout tree whose level 0 has `leaves` nodes.
uint parens_tree_off(uint leaves, uint l) { return 2u * leaves - ((2u * leaves) >> l); }

#ifndef PARENS_NO_PARTITION
shared uint sh_scalars[8];        // broadcast slots of kernels that need them
#ifndef PARENS_SINGLE
shared uint sh_buf[P + P / 32u]; // input words, later the staged outputs (padded)
shared int sh_win[PARENS_WIN_CAP]; // stack before the partition, top first
#endif
shared uvec2 sh_tree[2 * WG];   // chunk tree, heap layout (parens_tree_off)
shared uint sh_mask[WG];        // unmatched '(' of each chunk, bit j = element j

// Chunk state of this invocation, filled by parens_load.
struct ParensChunk {
  uint closes; // bit j: element j is ')'
  uint count;  // elements of the chunk inside n
  uint mask;   // unmatched '(' at the end of the chunk
  uint a;      // unmatched ')'
};

// Input word i of the partition starting at `part` (0 past the input).
uint parens_word(uint part, uint i) {
#ifdef PARENS_SINGLE
  uint nwords = (pc.n + 3u) / 4u;
  return part / 4u + i < nwords ? pc.src.v[part / 4u + i] : 0u;
#else
  return sh_buf[i];
#endif
}

// Reads the partition's bytes (coalesced, through sh_buf; PARENS_SINGLE:
// each invocation its own words) and analyses chunk t.
ParensChunk parens_load(uint part) {
  uint t = gl_LocalInvocationID.x;
#ifndef PARENS_SINGLE
  uint words = P / 4u;
  uint first = part / 4u, nwords = (pc.n + 3u) / 4u;
  for (uint i = t; i < words; i += WG) sh_buf[i] = first + i < nwords ? pc.src.v[first + i] : 0u;
  barrier();
#endif
  ParensChunk c;
  uint base = part + t * K;
  c.count = base < pc.n ? min(K, pc.n - base) : 0u;
  c.closes = 0u;
  if (K % 4u == 0u) {
    // Four elements per word: gather the low bit of each byte into 4 bits.
    for (uint w = 0; w < K / 4u; w++) {
      uint m = parens_word(part, t * (K / 4u) + w) & 0x01010101u;
      m |= m >> 7;
      m |= m >> 14;
      c.closes |= (m & 0xFu) << (4u * w);
    }
  } else {
    for (uint j = 0; j < K; j++) {
      uint e = t * K + j;
      c.closes |= ((parens_word(part, e >> 2) >> ((e & 3u) * 8u)) & 1u) << j;
    }
  }
  c.mask = 0u;
  c.a = 0u;
  for (uint j = 0; j < c.count; j++) {
    if ((c.closes >> j & 1u) != 0u) {
      if (c.mask != 0u) c.mask ^= 1u << findMSB(c.mask);
      else c.a++;
    } else {
      c.mask |= 1u << j;
    }
  }
#ifndef PARENS_SINGLE
  barrier(); // sh_buf is reused for outputs
#endif
  return c;
}

// Builds the chunk tree; returns the partition's bicyclic value (all invocations).
uvec2 parens_tree_build(ParensChunk c) {
  uint t = gl_LocalInvocationID.x;
  sh_tree[t] = uvec2(c.a, bitCount(c.mask));
  sh_mask[t] = c.mask;
  for (uint l = 1; (WG >> l) != 0u; l++) {
    barrier();
    if (t < (WG >> l)) {
      uint src = parens_tree_off(WG, l - 1u) + 2u * t;
      sh_tree[parens_tree_off(WG, l) + t] = bic(sh_tree[src], sh_tree[src + 1u]);
    }
  }
  barrier();
  return sh_tree[parens_tree_off(WG, findMSB(WG))];
}

// Bicyclic value of chunks [t + 1, WG) (the chunks after t), from the tree.
uvec2 parens_suffix(uint t) {
  uvec2 acc = uvec2(0u);
  uint i = t + 1u;
  while (i < WG) {
    uint j = uint(findLSB(i));
    acc = bic(acc, sh_tree[parens_tree_off(WG, j) + (i >> j)]);
    i += 1u << j;
  }
  return acc;
}

// Position of the r-th highest set bit of m (r = 0: the highest).
uint parens_select_high(uint m, uint r) {
  for (uint k = 0; k < r; k++) m ^= 1u << findMSB(m);
  return uint(findMSB(m));
}

// The entry at depth d (0 = top) of the stack just before chunk t. Inside the
// partition it is an element index; otherwise it is sh_win[depth before the
// partition]. The search is the bicyclic tree search of the paper (Fig. 2),
// upward then downward, for the largest chunk u < t with Bic(u..t-1).b > d.
int parens_find_local(uint part, uint t, uint d) {
  uint i = t, j = 0u;
  uvec2 acc = uvec2(0u);
  bool hit = false;
  while (i != 0u) {
    if (((i >> j) & 1u) != 0u) {
      uvec2 q = bic(sh_tree[parens_tree_off(WG, j) + (i >> j) - 1u], acc);
      if (q.y > d) {
        hit = true;
        break;
      }
      acc = q;
      i -= 1u << j;
    }
    j++;
  }
#ifdef PARENS_SINGLE
  if (!hit) return -1; // nothing before the partition: the stack is empty
#else
  if (!hit) return sh_win[d - acc.y + acc.x];
#endif
  while (j > 0u) {
    j--;
    uvec2 q = bic(sh_tree[parens_tree_off(WG, j) + (i >> j) - 1u], acc);
    if (q.y <= d) {
      acc = q;
      i -= 1u << j;
    }
  }
  uint u = i - 1u;
  return int(part + u * K + parens_select_high(sh_mask[u], acc.x + d - acc.y));
}

// Writes out[] for the partition. sh_win must hold the stack before the
// partition down to depth Bic(partition).a (or P - 1).
void parens_emit(uint part, ParensChunk c) {
  uint t = gl_LocalInvocationID.x;
  uint base = part + t * K;
  uint mask = 0u, a = 0u;
  int cached_depth = -1, cached = -1;
  for (uint j = 0; j < c.count; j++) {
    int o;
    if (mask != 0u) {
      o = int(base + uint(findMSB(mask)));
    } else {
      if (int(a) != cached_depth) {
        cached = parens_find_local(part, t, a);
        cached_depth = int(a);
      }
      o = cached;
    }
#ifdef PARENS_SINGLE
    if (j < c.count) pc.dst.v[base + j] = o;
#else
    uint e = t * K + j;
    sh_buf[e + (e >> 5)] = uint(o); // one pad word per 32: no bank conflicts
#endif
    if ((c.closes >> j & 1u) != 0u) {
      if (mask != 0u) mask ^= 1u << findMSB(mask);
      else a++;
    } else {
      mask |= 1u << j;
    }
  }
#ifndef PARENS_SINGLE
  barrier();
  uint end = min(P, pc.n - part);
  for (uint i = t; i < end; i += WG) pc.dst.v[part + i] = int(sh_buf[i + (i >> 5)]);
#endif
}

// Writes the partition's unmatched '(' (its stack slice, bottom first) to
// slices[q * P ...]: chunk t's survivors are its lowest bits not popped by the
// chunks after it, placed below everything those chunks leave.
void parens_write_slice(uint q, uint part, ParensChunk c, uvec2 total) {
  uint t = gl_LocalInvocationID.x;
  uvec2 after = parens_suffix(t);
  uint b = bitCount(c.mask);
  uint surv = b - min(b, after.x);
  uint pos = total.y - after.y - surv;
  uint m = c.mask;
  for (uint s = 0; s < surv; s++) {
    uint bitpos = uint(findLSB(m));
    m ^= 1u << bitpos;
    pc.slices.v[q * P + pos + s] = int(part + t * K + bitpos);
  }
}
#endif // PARENS_NO_PARTITION
