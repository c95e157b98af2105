#version 460
// parens_lm_reduce: pass 1 of the LOWMARK variant (see parens_lm.glsl and
// include/canopy/cn_parens.h). Per partition q: its bicyclic value (a, b) = (-low,
// sum - low), low being the minimum of g relative to the partition's start, as
// level 0 of the partition tree; and its stack slice, the b unmatched '(' with
// slice position = g(k) - low (bottom first): an unmatched '(' of chunk t is
// one of its own unmatched '(' that lies below every later chunk's low mark.
// No compaction, no local-memory stack: each survivor knows its slot. The
// chunk's sum and low mark come four elements at a time (lm_summary); only a
// chunk with survivors walks its elements for its bitmask. The chunks'
// survivors fill consecutive slots, so the slice is assembled in shared
// memory and leaves in 16-byte stores of consecutive invocations (deep input
// keeps most '(' unmatched: the slice is then as long as the partition).
#define PARENS_NO_PARTITION
#include "parens.glsl"
#include "parens_lm.glsl"

layout(buffer_reference, std430, buffer_reference_align = 16) PARENS_COHERENT buffer ParensI32x4 { ivec4 v[]; };

shared int sh_slice[P]; // the partition's slice, bottom first

void main() {
  uint q = cn_group_id(), t = lm_chunk_id();
  uint part = q * P;
  LmChunk c = lm_load_bits(part, t);
  lm_summary(c);
  int sum;
  int start = lm_excl_add(c.sum, sum); // g(chunk start) - g(partition start)
  int low_t = start + c.low;
  int low;
  int after = lm_suffix_min(low_t, low);
  // The k-th lowest unmatched '(' of the chunk sits at g = low_t + k; it
  // survives the partition while that is below every later position.
  int b = c.sum - c.low; // unmatched '(' of the chunk
  int surv = after == LM_INF ? b : clamp(after - low_t, 0, b);
  if (surv > 0) lm_walk(c);
  uint m = c.mask;
  uint slot = uint(low_t - low);
  for (int k = 0; k < surv; k++) {
    uint bit = uint(findLSB(m));
    m ^= 1u << bit;
    sh_slice[slot + uint(k)] = int(part + t * LK + bit);
  }
  uint lt = gl_LocalInvocationID.x, b_all = uint(sum - low); // the slice's length
  if (lt == 0u) pc.tree.v[q] = uvec2(uint(-low), b_all);
  barrier();
  ParensI32x4 dst = ParensI32x4(pc.slices);
  for (uint i = lt; 4u * i < b_all; i += WG) {
    uint e = 4u * i;
    if (e + 4u <= b_all) {
      dst.v[(q * P + e) / 4u] = ivec4(sh_slice[e], sh_slice[e + 1u], sh_slice[e + 2u], sh_slice[e + 3u]);
    } else {
      for (uint j = e; j < b_all; j++) pc.slices.v[q * P + j] = sh_slice[j];
    }
  }
}
