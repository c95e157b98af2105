#version 460
// parens_lm_match: pass 4 of the LOWMARK variant (see parens_lm.glsl and
// stages/cn_parens.h). Per partition: the chunks' walks and an exclusive sum
// over the workgroup give each chunk's start value and low-water mark; then
// each invocation walks its K (16 or 32) elements in registers:
//   - a '(' of the chunk still open (bitmask) is the top: its index;
//   - else, for v = g(i) relative to the partition, the last chunk u before t
//     whose low mark is below v holds the answer, as the (v - 1 - low_u)-th
//     lowest unmatched '(' of u; the search steps back chunk by chunk and
//     skips whole subgroups by their minimum, and is monotone over the walk;
//   - else (v <= 0) the entry at depth -v of the stack before the partition,
//     from the window that parens_lm_window wrote.
// Outputs leave registers as 16-byte stores, four elements at a time.
#define PARENS_NO_PARTITION
#include "parens.glsl"
#include "parens_lm.glsl"

shared int sh_low[WG];   // low mark of each chunk, relative to the partition start
shared uint sh_mask[WG]; // unmatched '(' of each chunk
shared int sh_blk[WG];   // minimum of sh_low over each subgroup's chunks

// Position of the r-th lowest set bit of m.
uint lm_select_low(uint m, uint r) {
  for (uint k = 0u; k < r; k++) m &= m - 1u;
  return uint(findLSB(m));
}

void main() {
  uint q = cn_group_id(), t = lm_chunk_id();
  uint part = q * P;
  LmChunk c = lm_load(part, t);
  int sum;
  int start = lm_excl_add(c.sum, sum);
  int low_t = start + c.low;
  sh_low[t] = low_t;
  sh_mask[t] = c.mask;
  int blk = subgroupMin(low_t);
  if (subgroupElect()) sh_blk[gl_SubgroupID] = blk;
  barrier();

  uint base = part + t * LK;
  int sgs = int(gl_SubgroupSize), sgshift = findLSB(gl_SubgroupSize); // a power of two
  bool whole = c.count == LK;
  ParensOut4 dst = ParensOut4(pc.dst);
  ivec4 quad = ivec4(0);
  uint mask = 0u;
  int r = 0, u = int(t) - 1;
  [[unroll]] for (uint j = 0u; j < LK; j++) {
    int o;
    if (mask != 0u) {
      o = int(base + uint(findMSB(mask)));
    } else {
      int v = start + r; // g before element j, relative to the partition start
      while (u >= 0 && sh_low[u] >= v) {
        if (((u + 1) & (sgs - 1)) == 0 && sh_blk[u >> sgshift] >= v) u -= sgs;
        else u--;
      }
      if (u >= 0) o = int(part + uint(u) * LK + lm_select_low(sh_mask[u], uint(v - 1 - sh_low[u])));
      else o = pc.win.v[q * P + uint(-v)];
    }
    quad[j % 4u] = o;
    if (j % 4u == 3u && whole) dst.v[base / 4u + j / 4u] = quad;
    if (!whole && j < c.count) pc.dst.v[base + j] = o;
    if ((c.closes >> j & 1u) != 0u) {
      if (mask != 0u) mask ^= 1u << findMSB(mask);
      r--;
    } else {
      mask |= 1u << j;
      r++;
    }
  }
}
