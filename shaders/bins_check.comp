#version 460
// bins_check: after the scan of the count matrix (stages/bins.c), only when
// n * nbins >= 2^32 - 1 (so that the 32-bit total could have wrapped): the
// prefix sums only grow, and each count is small, so a wrap shows as an entry
// smaller than the one before it. Any such entry sets bin_offsets[nbins] to
// UINT32_MAX, which the host reports as "too many bin entries".
#include "common.glsl"

layout(local_size_x = 256) in;

layout(buffer_reference, std430, buffer_reference_align = 16) buffer BoxBuf { vec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer U32Buf { uint v[]; };
#define CN_USE_BINS_PUSH
#include "cn_scene_stage_shared.h"

void main() {
  uint i = cn_group_id() * 256u + gl_LocalInvocationID.x;
  uint entries = pc.nbx * pc.nby * pc.nchunks; // + 1 with the total
  if (i < entries && pc.matrix.v[i + 1u] < pc.matrix.v[i]) pc.bin_offsets.v[pc.nbx * pc.nby] = 0xFFFFFFFFu;
}
