#version 460
// bins_small: the whole binning of a small stream in one workgroup and one
// dispatch (stages/bins.c), with the lists the multi-pass kernels make: for
// each slice of SLICE bins in turn, bins.glsl's count pass over all the
// elements (one chunk of `rounds` rounds), an exclusive scan of the slice's
// counts after the slices before it (bin_offsets), and bins.glsl's fill pass.
// bin_offsets[nbins] = the total; entries past capacity are not written.
// Loop trips per invocation: slices x rounds x (4 SLICE + subgroups + ...),
// which the host bounds on drivers with a loop-trip limit.
#define BINS_SMALL
#include "bins.glsl"

void main() {
  uint t = gl_LocalInvocationID.x;
  uint nbins = pc.nbx * pc.nby;
  uint rounds = (pc.n + WG - 1u) / WG;
  uint per = SLICE / WG; // bins of a slice per invocation in the scan (SLICE is a multiple of WG)
  uint done = 0u;        // entries of the slices before
  for (uint x = t; x < SLICE * 8u; x += WG) sh_bits[x] = 0u;
  for (uint s0 = 0u; s0 < nbins; s0 += SLICE) {
    uint sl = min(SLICE, nbins - s0);
    barrier(); // the previous slice is done with sh_cnt
    for (uint x = t; x < SLICE; x += WG) sh_cnt[x] = 0u;
    bins_rounds(0u, rounds, s0, sl, false, false, 0u);
    barrier();
    // exclusive scan of the slice's counts: invocation t owns bins t * per ..
    uint mine = 0u;
    for (uint j = 0u; j < per; j++) mine += sh_cnt[t * per + j];
    uint incl = subgroupInclusiveAdd(mine);
    if (gl_SubgroupInvocationID == gl_SubgroupSize - 1u) sh_sg[gl_SubgroupID] = incl;
    barrier();
    uint before = 0u, all = 0u;
    for (uint j = 0u; j < gl_NumSubgroups; j++) {
      uint v = sh_sg[j];
      before += j < gl_SubgroupID ? v : 0u;
      all += v;
    }
    uint at = done + before + incl - mine;
    for (uint j = 0u; j < per; j++) {
      uint x = t * per + j, c = sh_cnt[x];
      sh_cnt[x] = at; // the fill pass's running slot of bin s0 + x
      if (x < sl) pc.bin_offsets.v[s0 + x] = at;
      at += c;
    }
    done += all;
    bins_rounds(0u, rounds, s0, sl, true, false, 0u);
  }
  if (t == 0u) pc.bin_offsets.v[nbins] = done;
}
