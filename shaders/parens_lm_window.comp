#version 460
// parens_lm_window: pass 3 of the LOWMARK variant (see include/canopy/cn_parens.h).
// Per partition q (WIN_LANES invocations), the stack before it down to the depth it
// pops into, top first, at win[q * P ...] (need = min(a_q + 1, P) entries,
// -1 past the bottom): the searches of the partition tree that the matching
// kernels of the other variants run inside their partition work, here in a
// kernel of their own. Each search is a chain of dependent tree reads; run
// apart, the chains of many partitions overlap (small workgroups, no shared
// memory to speak of), and the matching pass reads a finished window instead
// of holding its workgroup through the chain. Few invocations per partition
// (16: a random input needs a few dozen entries) let many partitions' chains
// be in flight at once. Lane t fills depths t, t + 16, ...: one search for its
// first depth, then down r's slice 16 entries at a time (the lanes together
// read and write consecutive entries), and a search continued below r when
// the slice runs out.
#define PARENS_NO_PARTITION
#include "parens.glsl"
#include "parens_stack.glsl"

const uint WIN_LANES = 16u; // invocations per partition; WG is a multiple

void main() {
  uint q = cn_group_id() * (WG / WIN_LANES) + gl_LocalInvocationID.x / WIN_LANES;
  uint t = gl_LocalInvocationID.x % WIN_LANES;
  if (q >= pc.n1) return;
  uint need = min(pc.tree.v[q].x + 1u, P);
  uint d = t;
  uint i = q;
  uvec2 acc = uvec2(0u);
  int r = -1, slot = -1;
  for (; d < need; d += WIN_LANES) {
    if (slot < 0) {
      if (r >= 0) { // past r's slice: continue below it
        acc = bic(pc.tree.v[uint(r)], acc);
        i = uint(r);
      }
      r = parens_find_part(i, acc, d);
      if (r < 0) break;
      slot = int(pc.tree.v[uint(r)].y) - 1 - int(acc.x + d - acc.y);
    }
    pc.win.v[q * P + d] = pc.slices.v[uint(r) * P + uint(slot)];
    slot -= int(WIN_LANES);
  }
  for (; d < need; d += WIN_LANES) pc.win.v[q * P + d] = -1; // below the bottom of the stack
}
