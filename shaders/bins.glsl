// bins.glsl: the count and fill passes of binning (stages/bins.c), one kernel
// each (bins_count.comp, bins_fill.comp define BINS_FILL or not).
//
// Workgroup = (chunk of ROUNDS * 256 consecutive elements, slice of SLICE bins
// held in shared memory): workgroup id = slice * nchunks + chunk. For every
// round of 256 elements of the chunk, each
// element ORs its bit into a 256-bit bitmap of every bin of the slice its
// result box overlaps. Then
//   count: cnt[bin] += popcount(bitmap)      -> matrix[bin * nchunks + chunk]
//   fill:  an element's slot in a bin's list is
//          offset[bin][chunk] + cnt[bin] + popcount(bits of earlier elements)
// so every list is in stream order with no sorting and no overflow (the fill
// slots come from the scanned counts). Empty boxes are listed nowhere.
#include "common.glsl"

layout(local_size_x = 256) in;

layout(buffer_reference, std430, buffer_reference_align = 16) buffer BoxBuf { vec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer U32Buf { uint v[]; };
#define CN_USE_BINS_PUSH
#include "cn_scene_stage_shared.h"
layout(constant_id = CN_SPEC_BINS_SLICE) const uint SLICE = 256;
#include "scene_box.glsl"

shared uint sh_bits[SLICE * 8u];
shared uint sh_cnt[SLICE];
#ifdef BINS_FILL
shared uint sh_base[SLICE];
#endif

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
#endif
  if (s0 >= nbins) return;
  uint word = t >> 5, bit = 1u << (t & 31u);
  {
    uint sl = min(SLICE, nbins - s0);
    for (uint x = t; x < sl; x += 256u) {
      sh_cnt[x] = 0u;
#ifdef BINS_FILL
      sh_base[x] = pc.matrix.v[(s0 + x) * pc.nchunks + ch];
#endif
    }
    uint row0 = s0 / pc.nbx, row1 = (s0 + sl - 1u) / pc.nbx;
    for (uint r = 0u; r < pc.rounds; r++) {
      for (uint x = t; x < sl * 8u; x += 256u) sh_bits[x] = 0u;
      barrier();
      uint i = (ch * pc.rounds + r) * 256u + t;
      uint lx = 0u, hx = 0u, ly = 0u, hy = 0u;
      bool have = false;
      if (i < pc.n) {
        vec4 bx = pc.boxes.v[i];
        have = !box_is_empty(bx) && bin_range(bx.x, bx.z, pc.vp_x0, pc.bin_size, pc.nbx, lx, hx) &&
               bin_range(bx.y, bx.w, pc.vp_y0, pc.bin_size, pc.nby, ly, hy);
      }
      uint y0 = max(ly, row0), y1 = min(hy, row1);
      if (have) {
        for (uint y = y0; y <= y1; y++) {
          uint rb = y * pc.nbx;
          uint b0 = max(rb + lx, s0), b1 = min(rb + hx, s0 + sl - 1u);
          for (uint bn = b0; bn <= b1 && b1 >= b0; bn++) atomicOr(sh_bits[(bn - s0) * 8u + word], bit);
        }
      }
      barrier();
#ifdef BINS_FILL
      if (have) {
        for (uint y = y0; y <= y1; y++) {
          uint rb = y * pc.nbx;
          uint b0 = max(rb + lx, s0), b1 = min(rb + hx, s0 + sl - 1u);
          for (uint bn = b0; bn <= b1 && b1 >= b0; bn++) {
            uint s = bn - s0;
            uint below = bitCount(sh_bits[s * 8u + word] & (bit - 1u));
            for (uint w = 0u; w < word; w++) below += bitCount(sh_bits[s * 8u + w]);
            uint pos = sh_base[s] + sh_cnt[s] + below;
            if (pos < pc.capacity) pc.elems.v[pos] = i;
          }
        }
      }
      barrier();
#endif
      for (uint x = t; x < sl; x += 256u) {
        uint c = 0u;
        for (uint w = 0u; w < 8u; w++) c += bitCount(sh_bits[x * 8u + w]);
        sh_cnt[x] += c;
      }
      barrier();
    }
#ifndef BINS_FILL
    for (uint x = t; x < sl; x += 256u) pc.matrix.v[(s0 + x) * pc.nchunks + ch] = sh_cnt[x];
#endif
  }
}
