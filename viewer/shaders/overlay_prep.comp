#version 460
// overlay_prep.comp: one workgroup, recorded after canopy's frame and before
// the render pass, that turns the renderer's counts into what the overlays'
// draws need: the number of valid lines as the instance count of the
// indirect draws over lines, and the largest bin count (the heat scale's
// top), so no vertex computes either.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#extension GL_EXT_scalar_block_layout : require

#include "vw_overlay.h"

layout(local_size_x = 256) in;

layout(buffer_reference, scalar) readonly buffer VwData { vw_ov_params p; };
layout(buffer_reference, scalar) readonly buffer VwU32s { uint v[]; };
layout(buffer_reference, scalar) writeonly buffer VwPrep { vw_ov_prep q; };
#include "vw_push.h"

shared uint s_max;

void main() {
  vw_ov_params P = pc.data.p;
  uint i = gl_LocalInvocationID.x;
  if (i == 0u) s_max = 1u;
  barrier();
  uint nbins = P.nbx * P.nby, m = 1u;
  VwU32s off = VwU32s(P.bin_offsets);
  for (uint b = i; b < nbins; b += gl_WorkGroupSize.x) m = max(m, off.v[b + 1u] - off.v[b]);
  atomicMax(s_max, m);
  barrier();
  if (i != 0u) return;
  uint n = P.line_cap == 0u ? 0u : min(VwU32s(P.line_count).v[0], P.line_cap);
  VwPrep prep = VwPrep(P.prep);
  prep.q.lines = uint[4](6u, n, 0u, 0u);
  prep.q.ends = uint[4](6u, n <= VW_OV_MAX_DOTS ? n : 0u, 0u, 0u);
  prep.q.bins_max = s_max;
}
