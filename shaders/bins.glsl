// bins.glsl: the count and fill passes of binning (stages/bins.c), one kernel
// each (bins_count.comp, bins_fill.comp define BINS_FILL or not).
//
// Workgroup = (chunk of ROUNDS * 256 consecutive elements, slice of SLICE bins
// held in shared memory): workgroup id = slice * nchunks + chunk. Each round
// takes 256 elements, one per invocation; an element's (element, bin) pairs
// are those of its bin rectangle on the rows that meet the slice. The pairs of
// the round are numbered by a workgroup scan of the per-element pair counts and
// spread evenly over the invocations (pair p: its element by a binary search of
// the scan), so an element that covers the whole grid costs no more than many
// small ones (the work is pairs / 256 per invocation, not the largest element).
//   count: cnt[bin] += 1 per pair                  -> matrix[bin * nchunks + chunk]
//   fill:  chunk 0 also writes bin_offsets (its offsets are the bin starts;
//          bins_gather does it only when there are no elements);
//          every pair ORs its element's bit into a 256-bit bitmap of its bin;
//          its slot in the bin's list is
//          offset[bin][chunk] + cnt[bin] + popcount(bits of earlier elements)
//          (then it clears its bit and adds 1 to cnt[bin])
// so every list is in stream order with no sorting and no overflow (the fill
// slots come from the scanned counts). Empty boxes are listed nowhere.
// Needs workgroups of whole subgroups (256 is a multiple of every subgroup
// size the host accepts): slot = subgroup id * subgroup size + lane.
#include "common.glsl"

layout(local_size_x = 256) in;

layout(buffer_reference, std430, buffer_reference_align = 16) buffer BoxBuf { vec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer U32Buf { uint v[]; };
#define CN_USE_BINS_PUSH
#include "cn_scene_stage_shared.h"
layout(constant_id = CN_SPEC_BINS_SLICE) const uint SLICE = 256;
#include "scene_box.glsl"

const uint WG = 256u;

#ifdef BINS_FILL
shared uint sh_bits[SLICE * 8u];
#endif
shared uint sh_cnt[SLICE];
shared uint sh_end[WG];    // per slot: inclusive end of its pairs (non-decreasing)
shared uvec4 sh_rect[WG];  // per slot: first bin column, width, first row, element's local index
shared uint sh_sg[WG];     // per subgroup: its pair total

// The slot of pair p: the first slot whose end is above p.
uint pair_slot(uint p) {
  uint lo = 0u, hi = WG - 1u;
  while (lo < hi) {
    uint mid = (lo + hi) >> 1;
    if (sh_end[mid] > p) hi = mid;
    else lo = mid + 1u;
  }
  return lo;
}

// Bin of pair p (slot s) relative to the slice start; >= SLICE when outside it.
uint pair_bin(uint p, uint s, uint s0) {
  uint start = s == 0u ? 0u : sh_end[s - 1u];
  uvec4 r = sh_rect[s];
  uint k = p - start;
  uint bn = (r.z + k / r.y) * pc.nbx + r.x + k % r.y;
  return bn - s0; // wraps to a large value below s0
}

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
  for (uint x = t; x < SLICE; x += WG) {
#ifdef BINS_FILL
    sh_cnt[x] = x < sl ? pc.matrix.v[(s0 + x) * pc.nchunks + ch] : 0u;
    if (ch == 0u && x < sl) pc.bin_offsets.v[s0 + x] = sh_cnt[x]; // bin starts (chunk 0's offsets)
    for (uint w = 0u; w < 8u; w++) sh_bits[x * 8u + w] = 0u;
#else
    sh_cnt[x] = 0u;
#endif
  }
  uint row0 = s0 / pc.nbx, row1 = (s0 + sl - 1u) / pc.nbx;
  uint slot = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
  uint i_next = ch * pc.rounds * WG + t;
  vec4 bx_next = i_next < pc.n ? pc.boxes.v[i_next] : BOX_EMPTY;
  for (uint r = 0u; r < pc.rounds; r++) {
    // this round's box; the next round's load is in flight during this round
    uint i = i_next;
    vec4 bx = bx_next;
    i_next += WG;
    if (r + 1u < pc.rounds && i_next < pc.n) bx_next = pc.boxes.v[i_next];
    uint lx = 0u, hx = 0u, ly = 0u, hy = 0u;
    bool have = false;
    if (i < pc.n) {
      have = !box_is_empty(bx) && bin_range(bx.x, bx.z, pc.vp_x0, pc.bin_size, pc.nbx, lx, hx) &&
             bin_range(bx.y, bx.w, pc.vp_y0, pc.bin_size, pc.nby, ly, hy);
    }
    uint y0 = max(ly, row0), y1 = min(hy, row1);
    uint count = have && y0 <= y1 ? (y1 - y0 + 1u) * (hx - lx + 1u) : 0u;
    // pair numbering: exclusive scan in slot order
    uint incl = subgroupInclusiveAdd(count);
    uint sgsum = subgroupAdd(count);
    barrier(); // the previous round is done with sh_sg, sh_end, sh_rect
    if (subgroupElect()) sh_sg[gl_SubgroupID] = sgsum;
    barrier();
    uint base = 0u, total = 0u;
    for (uint j = 0u; j < gl_NumSubgroups; j++) {
      uint v = sh_sg[j];
      base += j < gl_SubgroupID ? v : 0u;
      total += v;
    }
    sh_end[slot] = base + incl;
    sh_rect[slot] = uvec4(lx, hx - lx + 1u, y0, t);
    barrier();
#ifndef BINS_FILL
    for (uint p = t; p < total; p += WG) {
      uint b = pair_bin(p, pair_slot(p), s0);
      if (b < sl) atomicAdd(sh_cnt[b], 1u);
    }
#else
    for (uint p = t; p < total; p += WG) {
      uint s = pair_slot(p);
      uint b = pair_bin(p, s, s0);
      uint e = sh_rect[s].w;
      if (b < sl) atomicOr(sh_bits[b * 8u + (e >> 5)], 1u << (e & 31u));
    }
    barrier();
    for (uint p = t; p < total; p += WG) {
      uint s = pair_slot(p);
      uint b = pair_bin(p, s, s0);
      if (b >= sl) continue;
      uint e = sh_rect[s].w, word = e >> 5;
      uint below = bitCount(sh_bits[b * 8u + word] & ((1u << (e & 31u)) - 1u));
      for (uint w = 0u; w < word; w++) below += bitCount(sh_bits[b * 8u + w]);
      uint pos = sh_cnt[b] + below;
      if (pos < pc.capacity) pc.elems.v[pos] = (ch * pc.rounds + r) * WG + e;
    }
    barrier();
    for (uint p = t; p < total; p += WG) {
      uint s = pair_slot(p);
      uint b = pair_bin(p, s, s0);
      uint e = sh_rect[s].w;
      if (b >= sl) continue;
      atomicAnd(sh_bits[b * 8u + (e >> 5)], ~(1u << (e & 31u)));
      atomicAdd(sh_cnt[b], 1u);
    }
#endif
  }
#ifndef BINS_FILL
  barrier();
  for (uint x = t; x < sl; x += WG) pc.matrix.v[(s0 + x) * pc.nchunks + ch] = sh_cnt[x];
#endif
}
