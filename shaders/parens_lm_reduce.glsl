// parens_lm_reduce.glsl: the kernel parens_lm_reduce (and parens_lm_reduce_tree,
// which defines PARENS_TREE_FOLD first). Pass 1 of the LOWMARK variant (see parens_lm.glsl and
// include/canopy/cn_parens.h). Per partition q: its bicyclic value (a, b) = (-low,
// sum - low), low being the minimum of g relative to the partition's start, as
// level 0 of the partition tree; and its stack slice, the b unmatched '(' with
// slice position = g(k) - low (bottom first): an unmatched '(' of chunk t is
// one of its own unmatched '(' that lies below every later chunk's low mark.
// No compaction, no local-memory stack: each survivor knows its slot. The
// chunk's sum and low mark come four elements at a time (lm_summary), and so
// does its bitmask of survivors (lm_survivor_mask: no walk). The chunks'
// survivors fill consecutive slots, so the slice is assembled in shared
// memory and leaves in 16-byte stores of consecutive invocations where the
// tuning asks for it (deep input keeps most '(' unmatched: the slice is then
// as long as the partition).
// A short slice (shorter than STAGE_FROM entries; its length is known to the
// whole workgroup after the scans) is written straight from the invocations
// that hold its entries, without the shared copy and its barrier, a run four
// entries a store where it crosses 16-byte boundaries: by default every
// slice (STAGE_FROM above P), and the kernel has no shared copy at all.
// A slice of LONG entries or more (deep input) is stored compactly instead:
// chunk t's survivors as a bitmask and the slot of its first (of the next
// survivor where it has none), a uvec2 at slices[q * P + 2t] (8 bytes a
// chunk instead of 4 an entry), from which the window pass selects the
// entries it needs.
// parens_lm_reduce_tree: with tickets (pc.levels > 0, one partition per
// workgroup) the last workgroups to finish build the tree above level 0 as
// well (parens_tree_tail.glsl). parens_lm_reduce_multi (PARENS_LM_MULTI): a
// partition per subgroup, LOCAL / WG of them a workgroup (no slice staged,
// no tree: the host takes it only so).
#define PARENS_NO_PARTITION
#include "parens.glsl"
#include "parens_lm.glsl"
#include "parens_tree_tail.glsl"

layout(buffer_reference, std430, buffer_reference_align = 16) PARENS_COHERENT buffer ParensI32x4 { ivec4 v[]; };

// Partitions per workgroup, one after the other: the input of the next is
// loaded before the current one's scans and barriers, so that a workgroup
// keeps a load in flight while it works (the dispatch has ceil(n1 / RP)
// workgroups).
layout(constant_id = CN_SPEC_PARENS_MATCH) const uint RP = 1;

// Slices of at least this many entries are staged through shared memory
// (1: every slice; the id that the other variants use for their look-back
// window).
const uint STAGE_FROM = WINDOW;

// Slices of at least LONG entries are stored compactly (0: none).
layout(constant_id = CN_SPEC_PARENS_LONG) const uint LONG = 0;
layout(buffer_reference, std430, buffer_reference_align = 8) PARENS_COHERENT buffer ParensU32x2 { uvec2 v[]; };

// the partition's slice, bottom first (no array where no slice is staged:
// shared memory a workgroup holds costs its kernel even unused)
const uint SH_SLICE = STAGE_FROM <= P ? P : 1u;
shared int sh_slice[SH_SLICE];

// The element index of the lowest survivor left in m (whose bit it clears),
// first being the element of the chunk's bit 0.
int next_survivor(inout uint m, uint first) {
  uint bit = uint(findLSB(m));
  m ^= 1u << bit;
  return int(first + bit);
}

void main() {
  uint t = lm_chunk_id(), lt = gl_LocalInvocationID.x;
  uint q0 = (cn_group_id() * LM_PPW + lm_slot()) * RP;
  LmWords next = lm_fetch(q0 * P, t);
  for (uint i = 0u; i < RP; i++) {
    uint q = q0 + i;
    if (q >= pc.n1) break; // uniform in the partition's invocations
    uint part = q * P;
    LmWords cur = next;
    if (i + 1u < RP && q + 1u < pc.n1) next = lm_fetch(part + P, t);
    LmChunk c = lm_unpack(cur, part, t);
    lm_summary(c);
    int sum;
    // g(chunk start) - g(partition start); after the previous partition's
    // stores, or a partial partition's loads and walks, with a barrier first
    int start = lm_excl_add(c.sum, sum, i > 0u || part + P > pc.n);
    int low_t = start + c.low;
    int low;
    int after = lm_suffix_min(low_t, low);
    // The k-th lowest unmatched '(' of the chunk sits at g = low_t + k; it
    // survives the partition while that is below every later position.
    int b = c.sum - c.low; // unmatched '(' of the chunk
    int surv = after == LM_INF ? b : clamp(after - low_t, 0, b);
    // The survivors: below every later chunk's low mark, four elements at a
    // time for a whole chunk (a partial one was walked by lm_summary)
    uint m = c.count == LK ? lm_survivor_mask(c.closes, after == LM_INF ? int(P) + 1 : after - start) : c.mask;
    uint slot = uint(low_t - low);
    uint b_all = uint(sum - low); // the slice's length
    if (t == 0u) parens_tree_store0(q, uvec2(uint(-low), b_all));
    if (LONG != 0u && b_all >= LONG) { // uniform in the partition's invocations
      // a chunk without survivors: the slot of the next survivor, at level
      // `after` (so the first slots rise from chunk to chunk)
      uint first = after == LM_INF || surv > 0 ? slot : uint(after - low);
      ParensU32x2(pc.slices).v[(q * P) / 2u + t] = uvec2(m, first);
      continue;
    }
    if (LM_PPW > 1u || b_all < STAGE_FROM) { // uniform in the partition's invocations
      // straight from the invocation: its run of the slice, the part of it
      // on 16-byte boundaries four entries a store
      uint pos = q * P + slot, end = pos + uint(surv), first = part + t * LK;
      uint body = min(end, (pos + 3u) & ~3u), tail = max(body, end & ~3u);
      for (; pos < body; pos++) pc.slices.v[pos] = next_survivor(m, first);
      ParensI32x4 dst = ParensI32x4(pc.slices);
      for (; pos < tail; pos += 4u) {
        ivec4 v;
        v.x = next_survivor(m, first);
        v.y = next_survivor(m, first);
        v.z = next_survivor(m, first);
        v.w = next_survivor(m, first);
        dst.v[pos / 4u] = v;
      }
      for (; pos < end; pos++) pc.slices.v[pos] = next_survivor(m, first);
      continue;
    }
    // sh_slice's readers of the previous partition are past the barriers of
    // lm_excl_add and lm_suffix_min
    for (int k = 0; k < surv; k++) sh_slice[slot + uint(k)] = next_survivor(m, part + t * LK);
    barrier();
    ParensI32x4 dst = ParensI32x4(pc.slices);
    for (uint e4 = lt; 4u * e4 < b_all; e4 += WG) {
      uint e = 4u * e4;
      if (e + 4u <= b_all) {
        dst.v[(q * P + e) / 4u] = ivec4(sh_slice[e], sh_slice[e + 1u], sh_slice[e + 2u], sh_slice[e + 3u]);
      } else {
        for (uint j = e; j < b_all; j++) pc.slices.v[q * P + j] = sh_slice[j];
      }
    }
  }
#ifndef PARENS_LM_MULTI
  if (RP == 1u && pc.levels != 0u && q0 < pc.n1) parens_tree_tail(q0);
#endif
}
