#version 460
// render_frame_init: a frame's resets in one dispatch, recorded in the
// frame's setup beside the passes before tile allocation (none of which
// touches what it writes): each element's cn_render_elem from its initial
// record, every tile record zeroed, the bump counters (lines and host_lines
// the line capacity, the rest 0) and fine's list header. A grid of at most
// 1024 workgroups strides over the elements' and the tiles' 16-byte words.
#include "common.glsl"
layout(local_size_x = 256) in;
layout(buffer_reference, std430, buffer_reference_align = 16) buffer InitVec4Buf { uvec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer InitWordBuf { uint v[]; };
#define CN_USE_RENDER_INIT_PUSH
#define CN_RENDER_NO_CONFIG
#include "cn_render_shared.h"

void main() {
  uint first = gl_WorkGroupID.x * 256u + gl_LocalInvocationID.x, stride = gl_NumWorkGroups.x * 256u;
  for (uint i = first; i < pc.elem_vec4s; i += stride) pc.elem.v[i] = pc.elem_init.v[i];
  uint tile_vec4s = pc.tile_words / 4u;
  for (uint i = first; i < tile_vec4s; i += stride) pc.tiles.v[i] = uvec4(0u);
  if (first < pc.tile_words - 4u * tile_vec4s) InitWordBuf(uint64_t(pc.tiles)).v[4u * tile_vec4s + first] = 0u;
  // cn_render_bump: failed, lines, tiles, segs, chunks, spill, host_lines, fine_tiles, fills,
  // fill_pieces, long_pieces, vl_tiles, long_bins, max_bin, two pads
  if (first < 16u) pc.bump.v[first] = first == 1u || first == 6u ? pc.cap_lines : 0u;
  // fine's list: the indirect dispatch (x = 0, y = 1, z = 1), then its counts
  if (first < CN_FINE_LIST_FIRST) pc.fine_tiles.v[first] = first == 1u || first == 2u ? 1u : 0u;
}
