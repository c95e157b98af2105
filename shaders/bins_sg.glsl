// bins_sg.glsl: the count and fill passes of binning by subgroups (stages/bins.c),
// for grids whose bins all fit one subgroup's arrays in shared memory (NB >=
// nbx * nby) and subgroups of at most 32 invocations; one kernel each
// (bins_sg_count.comp, bins_sg_fill.comp define BINS_SG_FILL or not).
//
// Chunks of pc.rounds consecutive elements (a multiple of every subgroup size),
// one subgroup per chunk, CHUNKS (= the workgroup size over the device's
// largest subgroup size) chunks per workgroup: chunk = workgroup * CHUNKS + c
// for c = subgroup id, + subgroups, ... (a workgroup of more, smaller
// subgroups leaves some idle). The host pads nchunks to a multiple of CHUNKS
// (the padding chunks hold no elements: zero counts), so that a workgroup's
// matrix entries of one bin are CHUNKS consecutive words (on the H200 8:
// whole 32-byte memory sectors). A subgroup takes its chunk in rounds of one
// element per invocation and numbers the round's (element, bin) pairs by an
// inclusive scan of the per-element pair counts; pair p goes to invocation
// p mod size, which finds its element (the lane whose inclusive end is the
// first above p) by a binary search over shuffles, so a grid-covering box
// costs no more than many small ones. No workgroup barriers: every array in
// shared memory belongs to one subgroup.
//   count: cnt[bin] += 1 per pair (shared atomics)
//          -> matrix[bin * nchunks + chunk], the layout bins_count writes
//   fill:  cnt[bin] starts at the chunk's offset (the scanned matrix; chunk 0
//          also writes bin_offsets); per round, pass A ORs the element's lane
//          bit into a 32-bit mask of its bin and adds 1 to cnt[bin]; after a
//          subgroup barrier, pass B writes the element at
//          cnt[bin] - (set bits of the mask at lanes >= its own)
//          = the bin's offset before the round + the pairs of earlier lanes.
//          The masks alternate between two sets by round parity: pass B of
//          round r clears the other set, which round r + 1's pass A takes.
// So every list is in stream order without sorting (chunks in order, rounds
// in order, lanes in order), and no slot past the scanned counts is written.
//
// Loop trips per invocation (drivers that stop loops after a fixed number,
// cn_device_caps.max_loop_iterations): per round at most nbins pair steps a pass
// (T pairs <= subgroup size x bins), the mask clear NB / size; the search is
// unrolled. The host sizes chunks so that the total stays within the limit.
#include "common.glsl"

layout(constant_id = CN_SPEC_WG_SIZE) const uint WG_SIZE = 128;
layout(constant_id = CN_SPEC_ITEMS) const uint MAX_SG = 4; // subgroups of a workgroup, at most
layout(local_size_x_id = CN_SPEC_WG_SIZE) in;

layout(buffer_reference, std430, buffer_reference_align = 16) buffer BoxBuf { vec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer U32Buf { uint v[]; };
#define CN_USE_BINS_PUSH
#include "cn_scene_stage_shared.h"
layout(constant_id = CN_SPEC_BINS_SLICE) const uint NB = 256;  // bins per subgroup array (>= nbx * nby)
layout(constant_id = CN_SPEC_BINS_SG_CHUNKS) const uint CHUNKS = 4; // chunks per workgroup
#include "scene_box.glsl"

shared uint sh_cnt[MAX_SG * NB];
#ifdef BINS_SG_FILL
shared uint sh_mask[2u * MAX_SG * NB];
#endif

// Binary search step over the lanes' inclusive pair ends (unrolled below).
#define SG_SEARCH_STEP(k) \
  if ((k) < gl_SubgroupSize) { \
    uint v_ = subgroupShuffle(incl, s + (k) - 1u); \
    if (v_ <= p) s += (k); \
  }

// One round: the elements r0 + lane (box bx) of the chunk ending at i1.
void sg_round(vec4 bx, uint r0, uint i1, uint cb, inout uint par) {
  uint lane = gl_SubgroupInvocationID, sgsize = gl_SubgroupSize;
  uint i = r0 + lane;
  uint lx = 0u, hx = 0u, ly = 0u, hy = 0u;
  bool have = i < i1 && !box_is_empty(bx) && bin_range(bx.x, bx.z, pc.vp_x0, pc.bin_size, pc.nbx, lx, hx) &&
              bin_range(bx.y, bx.w, pc.vp_y0, pc.bin_size, pc.nby, ly, hy);
  uint w = hx - lx + 1u;
  uint count = have ? w * (hy - ly + 1u) : 0u;
  uint incl = subgroupInclusiveAdd(count);
  uint total = subgroupAdd(count);
  uint first = incl - count; // the lane's first pair
  uint xw = lx | (w << 16);  // lx, w < 2^16 (at most NB <= 2^14 bins)
#ifdef BINS_SG_FILL
  uint nbins = pc.nbx * pc.nby;
  uint mb = par * MAX_SG * NB + cb;
  for (uint pass = 0u; pass < 2u; pass++) {
#endif
    for (uint pb = 0u; pb < total; pb += sgsize) {
      uint p = pb + lane, s = 0u;
      SG_SEARCH_STEP(16u) SG_SEARCH_STEP(8u) SG_SEARCH_STEP(4u) SG_SEARCH_STEP(2u) SG_SEARCH_STEP(1u)
      uint e_xw = subgroupShuffle(xw, s), e_ly = subgroupShuffle(ly, s), e_first = subgroupShuffle(first, s);
      if (p < total) {
        uint k = p - e_first, ew = e_xw >> 16;
        uint bin = (e_ly + k / ew) * pc.nbx + (e_xw & 0xFFFFu) + k % ew;
#ifdef BINS_SG_FILL
        if (pass == 0u) {
          atomicOr(sh_mask[mb + bin], 1u << s);
          atomicAdd(sh_cnt[cb + bin], 1u);
        } else {
          uint pos = sh_cnt[cb + bin] - bitCount(sh_mask[mb + bin] >> s);
          if (pos < pc.capacity) pc.elems.v[pos] = r0 + s;
        }
#else
        atomicAdd(sh_cnt[cb + bin], 1u);
#endif
      }
    }
#ifdef BINS_SG_FILL
    if (pass == 1u) // the other set: last read by the previous round's pass B
      for (uint b = lane; b < nbins; b += sgsize) sh_mask[(par ^ 1u) * MAX_SG * NB + cb + b] = 0u;
    subgroupBarrier();
  }
  par ^= 1u;
#endif
}

vec4 sg_load(uint i, uint i1) { return i < i1 ? pc.boxes.v[i] : BOX_EMPTY; }

void main() {
  uint lane = gl_SubgroupInvocationID, sgsize = gl_SubgroupSize;
  uint nbins = pc.nbx * pc.nby;
#ifdef BINS_SG_FILL
  if (cn_group_id() == 0u && gl_LocalInvocationID.x == 0u) pc.bin_offsets.v[nbins] = pc.matrix.v[nbins * pc.nchunks];
#else
  if (cn_group_id() == 0u && gl_LocalInvocationID.x == 0u) pc.matrix.v[nbins * pc.nchunks] = 0u; // the total
#endif
  uint cb = gl_SubgroupID * NB;
  for (uint c = gl_SubgroupID; c < CHUNKS; c += gl_NumSubgroups) {
    uint ch = cn_group_id() * CHUNKS + c;
    if (ch >= pc.nchunks) break;
    for (uint b = lane; b < nbins; b += sgsize) {
#ifdef BINS_SG_FILL
      uint off = pc.matrix.v[b * pc.nchunks + ch];
      sh_cnt[cb + b] = off;
      if (ch == 0u) pc.bin_offsets.v[b] = off; // bin starts
      sh_mask[cb + b] = 0u;
      sh_mask[MAX_SG * NB + cb + b] = 0u;
#else
      sh_cnt[cb + b] = 0u;
#endif
    }
    subgroupBarrier();
    uint i0 = ch * pc.rounds, i1 = min(pc.n, i0 + pc.rounds);
    uint par = 0u;
    // four rounds at a time, their four loads issued together (more bytes in
    // flight per invocation than one round ahead)
    for (uint r0 = i0; r0 < i1; r0 += 4u * sgsize) {
      vec4 b0 = sg_load(r0 + lane, i1), b1 = sg_load(r0 + sgsize + lane, i1);
      vec4 b2 = sg_load(r0 + 2u * sgsize + lane, i1), b3 = sg_load(r0 + 3u * sgsize + lane, i1);
      sg_round(b0, r0, i1, cb, par);
      if (r0 + sgsize < i1) sg_round(b1, r0 + sgsize, i1, cb, par);
      if (r0 + 2u * sgsize < i1) sg_round(b2, r0 + 2u * sgsize, i1, cb, par);
      if (r0 + 3u * sgsize < i1) sg_round(b3, r0 + 3u * sgsize, i1, cb, par);
    }
#ifndef BINS_SG_FILL
    subgroupBarrier();
    for (uint b = lane; b < nbins; b += sgsize) pc.matrix.v[b * pc.nchunks + ch] = sh_cnt[cb + b];
#endif
    subgroupBarrier(); // the arrays are free for the next chunk
  }
}
