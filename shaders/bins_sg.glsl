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
// costs no more than many small ones. A lane whose element has at most OWN
// (4) pairs does them itself, without the scan's spread (most elements are
// a few bins). No workgroup barriers: every array in shared memory belongs
// to one subgroup.
//   count: cnt[bin] += 1 per pair (shared atomics)
//          -> matrix[bin * nchunks + chunk], the layout bins_count writes
//   fill:  cnt[bin] starts at the chunk's offset (the scanned matrix; chunk 0
//          also writes bin_offsets); per round, pass A ORs the element's lane
//          bit into a 32-bit mask of its bin and adds 1 to cnt[bin]; after a
//          subgroup barrier, pass B writes the element at
//          cnt[bin] - (set bits of the mask at lanes >= its own)
//          = the bin's offset before the round + the pairs of earlier lanes.
//          After another subgroup barrier the round clears its masks: the
//          bins of its own pairs, or every bin when any pair was spread.
// So every list is in stream order without sorting (chunks in order, rounds
// in order, lanes in order), and no slot past the scanned counts is written.
//
// Workgroup rows (ROWS = 1): one chunk of pc.rounds elements per workgroup
// (a multiple of the workgroup size, at most 4 rounds a subgroup), cut into
// one consecutive part per subgroup, and one matrix row per workgroup (as
// many entries as the workgroup kernels of bins.glsl, with none of their
// barriers per round). Each lane loads its part's boxes once, up to four,
// and keeps them in registers.
//   count: the subgroups add into one array of the workgroup; one barrier
//          before the row is written
//   fill:  each subgroup counts its part into its own array; after a
//          barrier, the bins' offsets run through the subgroups in order
//          (subgroup j starts where j - 1 ends, subgroup 0 at the chunk's
//          offset); after another, each subgroup fills its part as above.
//
// Loop trips per invocation (drivers that stop loops after a fixed number,
// cn_device_caps.max_loop_iterations): per round at most nbins pair steps a pass
// (T pairs <= subgroup size x bins), OWN own pairs, the mask clear NB / size;
// the search is unrolled. The host sizes chunks so that the total stays within
// the limit.
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
layout(constant_id = CN_SPEC_BINS_SG_ROWS) const uint ROWS = 0;     // 1: one matrix row per workgroup
#include "scene_box.glsl"

shared uint sh_cnt[MAX_SG * NB];
#ifdef BINS_SG_FILL
shared uint sh_mask[MAX_SG * NB];
#endif

// Binary search step over the lanes' inclusive pair ends (unrolled below).
#define SG_SEARCH_STEP(k) \
  if ((k) < gl_SubgroupSize) { \
    uint v_ = subgroupShuffle(incl, s + (k) - 1u); \
    if (v_ <= p) s += (k); \
  }

// What pair (bin, lane s) of a round does: the count, or the fill's pass A
// (its lane's bit in the bin's mask, the bin's count) or pass B (the entry).
void sg_pair(uint bin, uint s, uint cb, uint r0, uint pass, bool fill) {
#ifdef BINS_SG_FILL
  if (!fill) {
    atomicAdd(sh_cnt[cb + bin], 1u);
  } else if (pass == 0u) {
    atomicOr(sh_mask[cb + bin], 1u << s);
    atomicAdd(sh_cnt[cb + bin], 1u);
  } else {
    uint pos = sh_cnt[cb + bin] - bitCount(sh_mask[cb + bin] >> s);
    if (pos < pc.capacity) pc.elems.v[pos] = r0 + s;
  }
#else
  atomicAdd(sh_cnt[cb + bin], 1u);
#endif
}

// One round: the elements r0 + lane (box bx) of the chunk ending at i1; with
// fill false (and always in the count kernel) it only counts. A lane whose
// element has at most OWN pairs does them itself; the pairs of the others
// are spread over the lanes.
const uint OWN = 4u;
void sg_round(vec4 bx, uint r0, uint i1, uint cb, bool fill) {
  uint lane = gl_SubgroupInvocationID, sgsize = gl_SubgroupSize;
  uint i = r0 + lane;
  uint lx = 0u, hx = 0u, ly = 0u, hy = 0u;
  bool have = i < i1 && !box_is_empty(bx) && bin_range(bx.x, bx.z, pc.vp_x0, pc.bin_size, pc.nbx, lx, hx) &&
              bin_range(bx.y, bx.w, pc.vp_y0, pc.bin_size, pc.nby, ly, hy);
  uint w = hx - lx + 1u;
  uint count = have ? w * (hy - ly + 1u) : 0u;
  bool own = count <= OWN;
  uint spread = own ? 0u : count;
  uint incl = subgroupInclusiveAdd(spread);
  uint total = subgroupAdd(spread);
  uint first = incl - spread; // the lane's first spread pair
  uint xw = lx | (w << 16);   // lx, w < 2^16 (at most NB <= 2^14 bins)
#ifdef BINS_SG_FILL
  uint nbins = pc.nbx * pc.nby;
  for (uint pass = 0u; pass < (fill ? 2u : 1u); pass++) {
#else
  uint pass = 0u;
#endif
    if (own && count > 0u) // at most OWN trips
      for (uint y = ly; y <= hy; y++)
        for (uint x = lx; x <= hx; x++) sg_pair(y * pc.nbx + x, lane, cb, r0, pass, fill);
    for (uint pb = 0u; pb < total; pb += sgsize) {
      uint p = pb + lane, s = 0u;
      SG_SEARCH_STEP(16u) SG_SEARCH_STEP(8u) SG_SEARCH_STEP(4u) SG_SEARCH_STEP(2u) SG_SEARCH_STEP(1u)
      uint e_xw = subgroupShuffle(xw, s), e_ly = subgroupShuffle(ly, s), e_first = subgroupShuffle(first, s);
      if (p < total) {
        uint k = p - e_first, ew = e_xw >> 16;
        sg_pair((e_ly + k / ew) * pc.nbx + (e_xw & 0xFFFFu) + k % ew, s, cb, r0, pass, fill);
      }
    }
#ifdef BINS_SG_FILL
    if (!fill) break;
    subgroupBarrier();
  }
  if (fill) { // the masks back to 0: the round's own bins, or all when any pair was spread
    if (total == 0u) {
      if (own && count > 0u)
        for (uint y = ly; y <= hy; y++)
          for (uint x = lx; x <= hx; x++) sh_mask[cb + y * pc.nbx + x] = 0u;
    } else {
      for (uint b = lane; b < nbins; b += sgsize) sh_mask[cb + b] = 0u;
    }
    subgroupBarrier();
  }
#endif
}

vec4 sg_load(uint i, uint i1) { return i < i1 ? pc.boxes.v[i] : BOX_EMPTY; }

#ifdef BINS_SG_FILL
#define SG_FILL true
#else
#define SG_FILL false
#endif

// The rounds of the part [i0, i1) (at most 4 subgroup widths, boxes b0..b3).
#define SG_ROUNDS(cb, fill) \
  sg_round(b0, i0, i1, cb, fill); \
  if (i0 + sgsize < i1) sg_round(b1, i0 + sgsize, i1, cb, fill); \
  if (i0 + 2u * sgsize < i1) sg_round(b2, i0 + 2u * sgsize, i1, cb, fill); \
  if (i0 + 3u * sgsize < i1) sg_round(b3, i0 + 3u * sgsize, i1, cb, fill);

// ROWS = 1: the workgroup's chunk, one part per subgroup (see the top).
void rows_main() {
  uint lane = gl_SubgroupInvocationID, sgsize = gl_SubgroupSize, t = gl_LocalInvocationID.x;
  uint nbins = pc.nbx * pc.nby, ch = cn_group_id();
  uint part = pc.rounds / gl_NumSubgroups; // whole rounds: pc.rounds is a multiple of the workgroup size
  uint i0 = ch * pc.rounds + gl_SubgroupID * part, i1 = min(pc.n, i0 + part);
  vec4 b0 = sg_load(i0 + lane, i1), b1 = sg_load(i0 + sgsize + lane, i1);
  vec4 b2 = sg_load(i0 + 2u * sgsize + lane, i1), b3 = sg_load(i0 + 3u * sgsize + lane, i1);
#ifdef BINS_SG_FILL
  if (ch == 0u && t == 0u) pc.bin_offsets.v[nbins] = pc.matrix.v[nbins * pc.nchunks];
  uint cb = gl_SubgroupID * NB;
  for (uint b = lane; b < nbins; b += sgsize) {
    sh_cnt[cb + b] = 0u;
    sh_mask[cb + b] = 0u;
  }
  subgroupBarrier();
  if (i0 < i1) { SG_ROUNDS(cb, false) }
  barrier();
  // each bin's offsets through the subgroups in order, from the chunk's
  for (uint b = t; b < nbins; b += WG_SIZE) {
    uint run = pc.matrix.v[b * pc.nchunks + ch];
    if (ch == 0u) pc.bin_offsets.v[b] = run; // bin starts
    for (uint j = 0u; j < gl_NumSubgroups; j++) {
      uint c = sh_cnt[j * NB + b];
      sh_cnt[j * NB + b] = run;
      run += c;
    }
  }
  barrier();
  if (i0 < i1) { SG_ROUNDS(cb, true) }
#else
  if (ch == 0u && t == 0u) pc.matrix.v[nbins * pc.nchunks] = 0u; // the total
  for (uint b = t; b < nbins; b += WG_SIZE) sh_cnt[b] = 0u;
  barrier();
  if (i0 < i1) { SG_ROUNDS(0u, false) }
  barrier();
  for (uint b = t; b < nbins; b += WG_SIZE) pc.matrix.v[b * pc.nchunks + ch] = sh_cnt[b];
#endif
}

void main() {
  if (ROWS != 0u) {
    rows_main();
    return;
  }
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
#else
      sh_cnt[cb + b] = 0u;
#endif
    }
    subgroupBarrier();
    uint i0 = ch * pc.rounds, i1 = min(pc.n, i0 + pc.rounds);
      // four rounds at a time, their four loads issued together (more bytes in
    // flight per invocation than one round ahead)
    for (uint r0 = i0; r0 < i1; r0 += 4u * sgsize) {
      vec4 b0 = sg_load(r0 + lane, i1), b1 = sg_load(r0 + sgsize + lane, i1);
      vec4 b2 = sg_load(r0 + 2u * sgsize + lane, i1), b3 = sg_load(r0 + 3u * sgsize + lane, i1);
      sg_round(b0, r0, i1, cb, SG_FILL);
      if (r0 + sgsize < i1) sg_round(b1, r0 + sgsize, i1, cb, SG_FILL);
      if (r0 + 2u * sgsize < i1) sg_round(b2, r0 + 2u * sgsize, i1, cb, SG_FILL);
      if (r0 + 3u * sgsize < i1) sg_round(b3, r0 + 3u * sgsize, i1, cb, SG_FILL);
    }
#ifndef BINS_SG_FILL
    subgroupBarrier();
    for (uint b = lane; b < nbins; b += sgsize) pc.matrix.v[b * pc.nchunks + ch] = sh_cnt[cb + b];
#endif
    subgroupBarrier(); // the arrays are free for the next chunk
  }
}
