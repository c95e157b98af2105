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
// (a random input needs a few dozen entries) let many partitions' chains be
// in flight at once (partitions of at most NEAR_P elements first walk the
// values of the WIN_LANES partitions before them: sh_nv, below). Lane t
// fills depths t, t + L, ... (L = WIN_LANES): one search for its first
// depth, then down r's slice L entries at a time (the lanes together read
// and write consecutive entries), and a search continued below r when the
// slice runs out. Where the slice and the window both hold BATCH more
// rows, a lane loads BATCH entries before it stores any: a deep window (up to
// a partition of entries, one partition per L lanes) is a copy, and a copy
// with one load in flight per lane waits on each load's latency.
// A slice of LONG entries or more (deep input) was stored compactly by the
// reduce pass, per chunk of CHUNK elements its survivors' bitmask and first
// slot: a lane finds the chunk holding its slot by walking back from the
// partition's last chunk (its slots only fall from there) and selects the
// bit. (A binary search for each partition's first slot, always or where
// the last chunk does not hold it: the pass 3 - 5% slower on the H200's
// deep inputs, docs/PERF.md.)
#extension GL_EXT_control_flow_attributes : require
#define PARENS_NO_PARTITION
#include "parens.glsl"
#include "parens_stack.glsl"
#include "parens_lm_nibble.glsl"

// Invocations per partition, a power of two up to WG: the third
// specialization constant (parens.glsl's WINDOW, the look-back window of the
// other variants' kernels).
const uint WIN_LANES = WINDOW;
// Entries each lane loads before it stores them (1: one at a time), 1 .. 16.
layout(constant_id = CN_SPEC_PARENS_MATCH) const uint BATCH = 8;
// Slices of at least LONG entries are stored compactly (0: none), in chunks
// of CHUNK elements (the reduce pass's; 16 or 32).
layout(constant_id = CN_SPEC_PARENS_LONG) const uint LONG = 0;
layout(constant_id = CN_SPEC_PARENS_LOCAL) const uint CHUNK = 16;
const uint NCH = P / CHUNK; // chunks of a partition

layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer WinU32x2 { uvec2 v[]; };

// Partitions of at most NEAR_P elements: the values of the WIN_LANES
// partitions before each of the workgroup's (lane t of partition q: q - 1 -
// t's, or 0 below partition 0), loaded at once: most entries of a random
// input's window lie in their slices, found by a walk over these in shared
// memory instead of a tree search (a chain of dependent reads). On the H200
// (docs/PERF.md) lowmark at 2^26 4% faster with partitions of 512, but 2.7 -
// 3.6 us slower at 2^22 - 2^23 with those of 1024, and slower on the scene
// stage's inputs with those of 2048.
const uint NEAR_P = 512u;
const bool NEAR_WALK = P <= NEAR_P;
shared uvec2 sh_nv[WG];

// The partition r < i holding depth d of the stack before partition q,
// partitions [i, q) combined into acc (acc.y <= d; on a hit acc becomes
// Bic(r+1..q-1)): the near values while they last (base: this partition's
// first entry of sh_nv; near: how many there are), then the tree
// (parens_find_part).
int lm_find_part(uint q, uint base, uint near, uint i, inout uvec2 acc, uint d) {
  for (; i + near > q; i--) { // partition i - 1 is near: entry q - i
    uvec2 next = bic(sh_nv[base + q - i], acc);
    if (next.y > d) return int(i) - 1;
    acc = next;
  }
  return parens_find_part(i, acc, d);
}

// Partition r's value: from sh_nv when it is near.
uvec2 lm_part_value(uint q, uint base, uint near, uint r) {
  return r + near >= q ? sh_nv[base + q - 1u - r] : pc.tree.v[r];
}

// Chunk word c of partition r's compact slice: its survivors' bitmask, the
// slot of the first.
uvec2 lm_chunk_word(uint r, uint c) { return WinU32x2(pc.slices).v[(r * P) / 2u + c]; }

void main() {
  uint q = cn_group_id() * (WG / WIN_LANES) + gl_LocalInvocationID.x / WIN_LANES;
  uint t = gl_LocalInvocationID.x % WIN_LANES;
  uint base = gl_LocalInvocationID.x - t;
  uint need = 0u;
  if (NEAR_WALK) { // uniform; the loads at a clamped index (no branch around them), both at once
    uint qc = min(q, pc.n1 - 1u);
    need = min(pc.tree.v[qc].x + 1u, P);
    uvec2 nv = pc.tree.v[t < qc ? qc - 1u - t : 0u];
    sh_nv[gl_LocalInvocationID.x] = t < q ? nv : uvec2(0u);
    barrier();
  }
  if (q >= pc.n1) return;
  if (!NEAR_WALK) need = min(pc.tree.v[q].x + 1u, P);
  uint near = NEAR_WALK ? min(q, WIN_LANES) : 0u;
  uint d = t;
  uint i = q;
  uvec2 acc = uvec2(0u);
  int r = -1, slot = -1;
  bool compact = false;
  uint ch = 0u; // compact: a chunk at or after the one holding slot (the last
                // whose first slot is at most slot; one without survivors
                // has the first slot of the next)
  const uint span = (BATCH - 1u) * WIN_LANES; // rows past the first of a batch
  while (d < need) {
    if (slot < 0) {
      if (r >= 0) { // past r's slice: continue below it
        acc = bic(lm_part_value(q, base, near, uint(r)), acc);
        i = uint(r);
      }
      r = lm_find_part(q, base, near, i, acc, d);
      if (r < 0) break;
      uint br = lm_part_value(q, base, near, uint(r)).y;
      slot = int(br) - 1 - int(acc.x + d - acc.y);
      compact = LONG != 0u && br >= LONG;
      ch = NCH - 1u;
    }
    if (compact) {
      uvec2 w = lm_chunk_word(uint(r), ch);
      while (w.y > uint(slot)) w = lm_chunk_word(uint(r), --ch);
      pc.win.v[q * P + d] = int(uint(r) * P + ch * CHUNK + lm_select_low(w.x, uint(slot) - w.y));
      d += WIN_LANES;
      slot -= int(WIN_LANES);
      continue;
    }
    uint from = uint(r) * P + uint(slot), to = q * P + d;
    if (BATCH > 1u && slot >= int(span) && d + span < need) {
      int e[BATCH];
      [[unroll]] for (uint k = 0u; k < BATCH; k++) e[k] = pc.slices.v[from - k * WIN_LANES];
      [[unroll]] for (uint k = 0u; k < BATCH; k++) pc.win.v[to + k * WIN_LANES] = e[k];
      d += BATCH * WIN_LANES;
      slot -= int(BATCH * WIN_LANES);
    } else {
      pc.win.v[to] = pc.slices.v[from];
      d += WIN_LANES;
      slot -= int(WIN_LANES);
    }
  }
  for (; d < need; d += WIN_LANES) pc.win.v[q * P + d] = -1; // below the bottom of the stack
}
