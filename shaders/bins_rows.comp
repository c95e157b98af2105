#version 460
// bins_rows: the whole binning of a stream of at most LIST elements in one
// dispatch of one workgroup per bin row (stages/bins.c), with the lists the
// multi-pass kernels make (stream order, bin_offsets[nbins] = the total,
// entries past capacity not written). Workgroup y:
//   1. reads every box, takes its bin rectangle (bin_range, as bins.glsl),
//      sums the pairs it makes in the rows above y (the row's first offset:
//      no count matrix, no scan between workgroups) and lists the elements
//      whose rectangle meets row y in shared memory, in stream order
//      (subgroup ballots, one round of WG elements after another);
//   2. counts each bin of the row over that list, one subgroup per bin, a
//      subgroup's lanes taking consecutive list entries (each lane adds its
//      count to the bin's with a shared atomic);
//   3. scans the row's counts (bin_offsets of the row);
//   4. writes each bin's list, one subgroup per bin again, every lane its
//      entry's slot by the ballot's exclusive bit count.
// The host takes it only where nbx <= min(WG, 512), n <= LIST <= 2^14 and
// n * nbins < 2^32 - 1 (no 32-bit total can wrap); a list entry packs the
// element (14 bits) and its columns lx, hx (9 bits each). Needs workgroups of
// whole subgroups: element of a round = subgroup id * subgroup size + lane.
#include "common.glsl"

layout(buffer_reference, std430, buffer_reference_align = 16) buffer BoxBuf { vec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer U32Buf { uint v[]; };
#define CN_USE_BINS_PUSH
#include "cn_scene_stage_shared.h"

layout(constant_id = CN_SPEC_WG_SIZE) const uint WG = 1024;
layout(constant_id = CN_SPEC_BINS_LIST) const uint LIST = 8192;
layout(local_size_x_id = CN_SPEC_WG_SIZE) in;
#include "scene_box.glsl"

shared uint sh_list[LIST];
shared uint sh_cnt[512]; // per bin of the row: its count, then its first slot
shared uint sh_sg[WG];   // per subgroup: a partial total (WG / subgroup size entries used)

uint col_lo(uint v) { return (v >> 14) & 0x1FFu; }
uint col_hi(uint v) { return v >> 23; }

// The entries of sh_sg (one per subgroup) before this invocation's subgroup
// (x) and over all of them (y).
uvec2 sg_prefix() {
  uvec2 r;
  CN_SUBGROUP_TOTALS(sh_sg, r.x, r.y)
  return r;
}

// Sum over the workgroup (every invocation calls it; returns the sum to all).
uint wg_sum(uint v) {
  barrier(); // earlier readers of sh_sg are done, and subgroupAdd follows no branch
  uint s = subgroupAdd(v);
  if (subgroupElect()) sh_sg[gl_SubgroupID] = s;
  barrier();
  return sg_prefix().y;
}

void main() {
  uint t = gl_LocalInvocationID.x;
  uint y = cn_group_id();
  uint slot = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
  for (uint x = t; x < 512u; x += WG) sh_cnt[x] = 0u; // phase 2 adds to it (the rounds' barriers come first)
  // 1. rectangles: pairs above the row, the row's list
  uint above = 0u, m = 0u; // m: entries of sh_list (the same in every invocation)
  for (uint i0 = 0u; i0 < pc.n; i0 += WG) {
    uint i = i0 + slot;
    uint lx = 0u, hx = 0u, ly = 0u, hy = 0u;
    bool have = false;
    if (i < pc.n) {
      vec4 bx = pc.boxes.v[i];
      have = !box_is_empty(bx) && bin_range(bx.x, bx.z, pc.vp_x0, pc.bin_size, pc.nbx, lx, hx) &&
             bin_range(bx.y, bx.w, pc.vp_y0, pc.bin_size, pc.nby, ly, hy);
    }
    if (have && ly < y) above += (hx - lx + 1u) * (min(hy, y - 1u) - ly + 1u);
    bool in_row = have && ly <= y && y <= hy;
    // the previous round is done with sh_sg; the ballot follows no branch
    // (Vulkan does not promise that a subgroup reconverges after one)
    barrier();
    uvec4 ball = subgroupBallot(in_row);
    uint rank = subgroupBallotExclusiveBitCount(ball);
    if (subgroupElect()) sh_sg[gl_SubgroupID] = subgroupBallotBitCount(ball);
    barrier();
    uvec2 pre = sg_prefix();
    if (in_row) sh_list[m + pre.x + rank] = i | (lx << 14) | (hx << 23);
    m += pre.y;
  }
  uint first = wg_sum(above); // also the barrier after the last round's list entries
  uint nsg = gl_NumSubgroups;
  // 2. counts of the row's bins, one subgroup per bin: each lane counts its
  // share of the list and adds it (no subgroup operation: none follows the
  // previous bin's branches)
  for (uint x = gl_SubgroupID; x < pc.nbx; x += nsg) {
    uint c = 0u;
    for (uint j = gl_SubgroupInvocationID; j < m; j += gl_SubgroupSize) {
      uint v = sh_list[j];
      c += col_lo(v) <= x && x <= col_hi(v) ? 1u : 0u;
    }
    if (c != 0u) atomicAdd(sh_cnt[x], c);
  }
  barrier();
  // 3. the row's offsets (nbx <= WG: invocation t has bin t)
  uint c = sh_cnt[min(t, 511u)]; // clamped, then selected: no branch before the scan
  c = t < pc.nbx ? c : 0u;
  uint incl = subgroupInclusiveAdd(c);
  barrier(); // sh_sg's last readers (wg_sum) and sh_cnt's readers are done
  if (gl_SubgroupInvocationID == gl_SubgroupSize - 1u) sh_sg[gl_SubgroupID] = incl;
  barrier();
  uvec2 pre = sg_prefix();
  uint start = first + pre.x + incl - c, row = pre.y;
  if (t < pc.nbx) {
    sh_cnt[t] = start;
    pc.bin_offsets.v[y * pc.nbx + t] = start;
  }
  if (t == 0u && y + 1u == pc.nby) pc.bin_offsets.v[pc.nbx * pc.nby] = first + row;
  barrier();
  // 4. the lists, one subgroup per bin
  for (uint x = gl_SubgroupID; x < pc.nbx; x += nsg) {
    uint pos = sh_cnt[x];
    for (uint j0 = 0u; j0 < m; j0 += gl_SubgroupSize) {
      uint j = j0 + gl_SubgroupInvocationID;
      uint v = sh_list[min(j, LIST - 1u)]; // no branch before the ballot (unused past m)
      bool hit = j < m && col_lo(v) <= x && x <= col_hi(v);
      uvec4 b = subgroupBallot(hit);
      uint at = pos + subgroupBallotExclusiveBitCount(b);
      if (hit && at < pc.capacity) pc.elems.v[at] = v & 0x3FFFu;
      pos += subgroupBallotBitCount(b);
    }
  }
}
