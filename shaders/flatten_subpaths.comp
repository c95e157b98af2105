#version 460
// flatten_subpaths: per-segment passes that link each segment to its subpath
// (stages/flatten.c).
//   CN_FL_MODE_SUB_START: sub_first[i] = i where a subpath starts (after a
//                         SUBPATH_END, at a change of path, at 0), else 0; the
//                         host max-scans it, so sub_first[i] = the start of i's subpath.
//   CN_FL_MODE_SUB_LINK:  sub_last[sub_first[i]] = i for the last segment i of
//                         each subpath.
#include "flatten_buffers.glsl"

layout(constant_id = CN_SPEC_WG_SIZE) const uint WG_SIZE = 64;
layout(local_size_x_id = CN_SPEC_WG_SIZE) in;

bool fl_starts(uint i) {
  if (i == 0u) return true;
  uint a = pc.segments.v[i - 1u].info, b = pc.segments.v[i].info;
  return (a & CN_SEG_SUBPATH_END) != 0u || (a >> CN_SEG_PATH_SHIFT) != (b >> CN_SEG_PATH_SHIFT);
}

void main() {
  uint i = cn_group_id() * WG_SIZE + gl_LocalInvocationID.x;
  if (i >= pc.segment_count) return;
  if (pc.mode == CN_FL_MODE_SUB_START) {
    pc.work.v[fl_off_sub_first() + i] = fl_starts(i) ? i : 0u;
    return;
  }
  bool ends = i + 1u == pc.segment_count || fl_starts(i + 1u);
  if (ends) pc.work.v[fl_off_sub_last() + pc.work.v[fl_off_sub_first() + i]] = i;
}
