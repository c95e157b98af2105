#version 460
// bins_gather: after the exclusive scan of the count matrix (stages/bins.c),
// bin_offsets[b] = matrix[b * nchunks] for b <= nbins: bin b's list is
// elems[bin_offsets[b] .. bin_offsets[b + 1]), and bin_offsets[nbins] is the total.
#include "common.glsl"

layout(local_size_x = 256) in;

layout(buffer_reference, std430, buffer_reference_align = 16) buffer BoxBuf { vec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer U32Buf { uint v[]; };
#define CN_USE_BINS_PUSH
#include "cn_scene_stage_shared.h"

void main() {
  uint b = cn_group_id() * 256u + gl_LocalInvocationID.x;
  uint nbins = pc.nbx * pc.nby;
  if (b <= nbins) pc.bin_offsets.v[b] = pc.matrix.v[b * pc.nchunks];
}
