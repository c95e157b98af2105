#version 460
// flatten_pairs: one invocation per (element, segment) pair runs the algorithm
// of cn_flatten_core.h (stages/flatten.c records it).
//   CN_FL_MODE_DASH_LEN: dash_dist[pair] = the pair's flattened length, with
//                        bit 31 set at subpath starts (segmented scan input).
//   CN_FL_MODE_COUNT:    pair_lines[pair] = the number of lines; the header's
//                        line_count gets the total (and CN_FLATTEN_TOO_MANY past 2^32).
//   CN_FL_MODE_WRITE:    writes the lines at pair_lines[pair] (scanned) onward,
//                        those below the capacity, and the element's box.
// With FL_WRITE_SCANS (constant 2) no scan runs between the two: COUNT also adds
// each workgroup's lines to its total (work region agg), and WRITE numbers its
// pairs' lines itself (the totals of the workgroups before it plus a workgroup
// scan of its counts) and stores the offsets in pair_lines for the finish
// pass; the same integers as the scan's, so the same lines.
// COUNT and WRITE are one kernel so that both run the same float code.
#extension GL_KHR_shader_subgroup_vote : require
#include "flatten_buffers.glsl"

layout(constant_id = CN_SPEC_WG_SIZE) const uint WG_SIZE = 64;
// 0: the host knows no line can leave the box of fl_line (cn_flatten_args.extent), so the cut is
// compiled out; it costs registers in the stroke code.
layout(constant_id = 1) const uint FL_BOX_CLIP_SPEC = 1;
#define FL_BOX_CLIP (FL_BOX_CLIP_SPEC != 0u)
// 1: the count and write passes number the lines without a scan between them
// (stages/flatten.c: at most cn_tuning.flatten_write_scan_max pairs); WG_SIZE is then CN_FL_PAIR_GROUP.
layout(constant_id = 2) const uint FL_WRITE_SCANS_SPEC = 0;
#define FL_WRITE_SCANS (FL_WRITE_SCANS_SPEC != 0u)
// Pairs per segment of a stroke of a CN_PATH_CURVED path (cn_flatten_args.stroke_split).
layout(constant_id = 3) const uint FL_SPLIT_SPEC = CN_FL_STROKE_SPLIT;
#define FL_STROKE_SPLIT FL_SPLIT_SPEC
layout(local_size_x_id = CN_SPEC_WG_SIZE) in;

shared uint sh_total[WG_SIZE]; // per subgroup: its pairs' lines
shared uint sh_prev[WG_SIZE];  // per subgroup: its share of the earlier workgroups' totals

// The first line of this invocation's pair: the lines of every earlier
// workgroup (their totals, summed by the whole workgroup) and of the earlier
// pairs of this one (subgroup scans, then the subgroups' totals). Called by
// every invocation of the workgroup (count: 0 past the pairs).
uint fl_first_line(uint count) {
  uint group = cn_group_id(), agg = fl_off_agg();
  uint prev = 0u;
  for (uint i = gl_LocalInvocationID.x; i < group; i += WG_SIZE) prev += pc.work.v[agg + i];
  barrier(); // the loop's trip count differs by lane: the subgroup operations follow no branch
  uint before = subgroupExclusiveAdd(count);
  uint total = subgroupAdd(count);
  prev = subgroupAdd(prev);
  if (subgroupElect()) {
    sh_total[gl_SubgroupID] = total;
    sh_prev[gl_SubgroupID] = prev;
  }
  barrier();
  uint first = 0u;
  for (uint s = 0u; s < gl_NumSubgroups; s++) first += sh_prev[s] + (s < gl_SubgroupID ? sh_total[s] : 0u);
  return first + before;
}

cn_element fl_elem(uint i) { return pc.elements.v[i]; }
cn_path fl_path(uint i) { return pc.paths.v[i]; }
cn_segment fl_seg(uint i) { return pc.segments.v[i]; }
cn_transform fl_xform(uint i) { return pc.transforms.v[i]; }
cn_stroke fl_stroke_at(uint i) { return pc.strokes.v[i]; }
float fl_dash_at(uint i) { return pc.dashes.v[i]; }
uint fl_sub_first(uint s) { return pc.work.v[fl_off_sub_first() + s]; }
uint fl_sub_last(uint first) { return pc.work.v[fl_off_sub_last() + first]; }
float fl_dist_at(uint pair) { return uintBitsToFloat(pc.work.v[fl_off_dash() + pair] & 0x7FFFFFFFu); }
cn_transform fl_view() {
  return cn_transform(pc.view_a, pc.view_b, pc.view_c, pc.view_d, pc.view_e, pc.view_f);
}
float fl_tolerance() { return pc.tolerance; }

uint g_count;   // lines emitted so far by this pair
uint g_base;    // WRITE: index of the pair's first line
uint g_quota;   // WRITE: lines the count pass gave this pair
uint g_element;
vec2 g_min, g_max;

void fl_out(vec2 a, vec2 b) {
  if (pc.mode == CN_FL_MODE_WRITE && g_count < g_quota) {
    uint idx = g_base + g_count;
    if (idx < pc.line_capacity) pc.lines.v[idx] = cn_line(a.x, a.y, b.x, b.y, g_element);
    g_min = min(g_min, min(a, b));
    g_max = max(g_max, max(a, b));
  }
  g_count++;
}

#include "cn_flatten_core.h"

void main() {
  uint pair = cn_group_id() * WG_SIZE + gl_LocalInvocationID.x;
  uint pl = fl_off_pair_lines();
  if (FL_WRITE_SCANS && pc.mode == CN_FL_MODE_WRITE) {
    // the counts of this workgroup's pairs (COUNT: 0 for culled pairs) -> their first lines
    g_quota = pair < pc.pair_count ? pc.work.v[pl + pair] : 0u;
    g_base = fl_first_line(g_quota);
    if (pair < pc.pair_count) pc.work.v[pl + pair] = g_base;
    if (pair + 1u == pc.pair_count) pc.work.v[pl + pair + 1u] = g_base + g_quota;
  }
  if (pair >= pc.pair_count) return;
  // Culled elements have no pairs: the pairs past the live total do nothing
  // (their counts are 0, so the scan skips them).
  if (pair >= pc.work.v[CN_FL_OFF_PAIR_BASE + pc.element_count]) {
    if (pc.mode == CN_FL_MODE_COUNT) pc.work.v[fl_off_pair_lines() + pair] = 0u;
    if (pc.mode == CN_FL_MODE_DASH_LEN) pc.work.v[fl_off_dash() + pair] = 0x80000000u;
    return;
  }
  // The element: the last e with pair_base[e] <= pair (pair_base[E] = P > pair).
  uint lo = 0u, hi = pc.element_count;
  while (hi - lo > 1u) {
    uint mid = (lo + hi) >> 1;
    if (pc.work.v[CN_FL_OFF_PAIR_BASE + mid] <= pair) lo = mid;
    else hi = mid;
  }
  uint e = lo;
  uint k = pair - pc.work.v[CN_FL_OFF_PAIR_BASE + e];

  if (pc.mode == CN_FL_MODE_DASH_LEN) {
    float len = fl_pair(e, k, pair, true); // sets fl_split
    uint seg = k / fl_split;
    uint si = pc.paths.v[pc.elements.v[e].path].seg_first + seg;
    bool start = k == 0u || (k == seg * fl_split && fl_sub_first(si) == si); // a segment's first chunk
    pc.work.v[fl_off_dash() + pair] = (floatBitsToUint(len) & 0x7FFFFFFFu) | (start ? 0x80000000u : 0u);
    return;
  }

  g_count = 0u;
  g_element = e;
  g_min = vec2(3.0e38);
  g_max = vec2(-3.0e38);
  if (pc.mode == CN_FL_MODE_WRITE && !FL_WRITE_SCANS) {
    g_base = pc.work.v[pl + pair];
    g_quota = pc.work.v[pl + pair + 1u] - g_base;
  }
  fl_pair(e, k, pair, false);
  if (pc.mode == CN_FL_MODE_WRITE && k == 0u) {
    pc.elem_out.v[e * FL_ELEM_WORDS + 6u] = floatBitsToUint(fl_cover);
    pc.elem_out.v[e * FL_ELEM_WORDS + 7u] = fl_flags;
  }

  if (pc.mode == CN_FL_MODE_COUNT) {
    pc.work.v[pl + pair] = g_count;
    if (FL_WRITE_SCANS && g_count != 0u) atomicAdd(pc.work.v[fl_off_agg() + cn_group_id()], g_count);
    uint old = atomicAdd(pc.work.v[0], g_count);
    if (old + g_count < old) atomicOr(pc.work.v[2], CN_FLATTEN_TOO_MANY);
    return;
  }
  // WRITE: should the count pass have given more room than used, pad with
  // zero-length lines (they cover nothing), so no slot holds garbage.
  for (uint i = g_count; i < g_quota; i++) {
    uint idx = g_base + i;
    if (idx < pc.line_capacity) pc.lines.v[idx] = cn_line(g_max.x, g_max.y, g_max.x, g_max.y, e);
  }
  // The element's box: one atomic per subgroup when the subgroup shares the element.
  bool have = g_min.x <= g_max.x;
  uint o = e * FL_ELEM_WORDS;
  if (subgroupAllEqual(e)) {
    vec2 mn = subgroupMin(g_min), mx = subgroupMax(g_max);
    if (subgroupElect() && mn.x <= mx.x) {
      atomicMin(pc.elem_out.v[o + 2u], fl_ord(mn.x));
      atomicMin(pc.elem_out.v[o + 3u], fl_ord(mn.y));
      atomicMax(pc.elem_out.v[o + 4u], fl_ord(mx.x));
      atomicMax(pc.elem_out.v[o + 5u], fl_ord(mx.y));
    }
  } else if (have) {
    atomicMin(pc.elem_out.v[o + 2u], fl_ord(g_min.x));
    atomicMin(pc.elem_out.v[o + 3u], fl_ord(g_min.y));
    atomicMax(pc.elem_out.v[o + 4u], fl_ord(g_max.x));
    atomicMax(pc.elem_out.v[o + 5u], fl_ord(g_max.y));
  }
}
