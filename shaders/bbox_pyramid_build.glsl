// bbox_pyramid_build.glsl: the union pyramid over the gap keys (bbox_keys.glsl),
// built at the end of bbox_draws (stages/bbox.c): level j+1 entry x = level j
// entries 2x ∪ 2x+1, each level right after the previous one in the buffer
// (level 0: group_bound entries at offset 0, the gap keys).
//
// In stages of 8 levels over blocks of 256 entries. Stage 0: block P of
// level 0 (entries 256 P .. 256 P + 255) is final once every bbox_draws
// workgroup whose group nodes reach into it has folded its draws in;
// bbox_compact counted those workgroups into ticket[P] (block b reaches gap
// entries offsets[b] .. min(offsets[b + 1], group_bound - 1), the last block up
// to group_bound - 1), and each of them takes 1 off after its atomics: the one
// that takes the last reduces block P through 8 levels (one entry of level 8).
// Stage s >= 1: the last of the (up to) 256 workgroups that feed one block of
// 256 entries 8 levels up (a counter per block, from 0) reduces that block
// through the next 8 levels, and so on up to the top entry. The layout is the
// one a dispatch per 8 levels would make; the serial tail is one block per
// stage. Tickets: stage 0's (one per level-0 block), then stage 1's, ... from
// word 0; bbox_count zeroes them all before bbox_compact counts.
//
// Memory ordering: atomics and stores, then a device-scope acquire-release
// control barrier, then the ticket (relaxed atomic); the barrier after the
// ticket of the workgroup that takes the last makes every feeding workgroup's
// atomics and stores (and, transitively, what those had acquired) visible to
// it (as parens_lookback). Nothing waits on another workgroup.
//
// The kernel defines WG_SIZE, declares `coherent buffer KeyBox { ivec4 v[]; }`
// and has pc.pyramid, pc.ticket, pc.group_bound; needs bbox_keys.glsl.
#ifndef CN_BBOX_PYRAMID_BUILD_GLSL
#define CN_BBOX_PYRAMID_BUILD_GLSL

shared ivec4 sh_key[512]; // two halves: one level read, the next written
shared uint sh_last;

void pyr_fence_barrier() {
  controlBarrier(gl_ScopeWorkgroup, gl_ScopeDevice, gl_StorageSemanticsBuffer | gl_StorageSemanticsShared,
                 gl_SemanticsAcquireRelease);
}

// Reduces entries [256 g, 256 g + 256) of the level at off (count entries)
// through up to 8 levels. Every invocation calls it.
void pyr_reduce_block(uint g, uint off, uint count) {
  KeyBox pyr = KeyBox(pc.pyramid);
  uint t = gl_LocalInvocationID.x;
  barrier();
  for (uint x = t; x < 256u; x += WG_SIZE) {
    uint src = g * 256u + x;
    sh_key[x] = src < count ? pyr.v[off + src] : KEY_BOX_EMPTY;
  }
  uint cur = 0u;
  for (uint w = 128u; w >= 1u && count > 1u; w >>= 1) {
    barrier();
    off += count;
    count = (count + 1u) / 2u;
    uint nxt = 256u - cur;
    for (uint x = t; x < w; x += WG_SIZE) {
      ivec4 v = key_union(sh_key[cur + 2u * x], sh_key[cur + 2u * x + 1u]);
      sh_key[nxt + x] = v;
      uint gx = g * w + x;
      if (gx < count) pyr.v[off + gx] = v;
    }
    cur = nxt;
  }
}

// Tickets of stage 0: one per block of 256 level-0 entries.
uint pyr_stage0_tickets() { return (pc.group_bound + 255u) / 256u; }

// Called by every invocation after this workgroup's gap atomics, for each
// level-0 block P it reaches into (sole: the only one, no ticket): builds
// what becomes final through it.
void pyr_arrive(uint P, bool sole) {
  uint t = gl_LocalInvocationID.x;
  pyr_fence_barrier(); // release: this workgroup's atomics and stores before its ticket
  if (t == 0u) sh_last = sole || atomicAdd(pc.ticket.v[P], 0xFFFFFFFFu) == 1u ? 1u : 0u;
  pyr_fence_barrier(); // acquire (for the last)
  bool go = sh_last != 0u;
  uint g = P, off = 0u, count = pc.group_bound, tbase = pyr_stage0_tickets();
  while (go) { // uniform in the workgroup
    uint blocks = (count + 255u) / 256u;
    pyr_reduce_block(g, off, count);
    if (blocks <= 1u) break; // the top entry is built
    for (uint k = 0u; k < 8u; k++) { // the next stage's source: 8 levels up (blocks entries)
      off += count;
      count = (count + 1u) / 2u;
    }
    uint parent = g / 256u, children = min(256u, blocks - parent * 256u);
    pyr_fence_barrier(); // release
    if (t == 0u) sh_last = atomicAdd(pc.ticket.v[tbase + parent], 1u) == children - 1u ? 1u : 0u;
    pyr_fence_barrier(); // acquire
    go = sh_last != 0u;
    tbase += (blocks + 255u) / 256u;
    g = parent;
  }
  barrier(); // sh_last and sh_key are reused by the next call
}

#endif
