#version 460
// flatten_elements: per-element passes of the flatten stage (stages/flatten.c).
//   CN_FL_MODE_ELEM_INIT:   pair_base[e] = e's pairs (segments of its path, times
//                           FL_SPLIT for a STROKE of a CN_PATH_CURVED
//                           path) if e draws (FILL,
//                           STROKE, BEGIN_CLIP) and is not culled (pc.cull: its
//                           result box is empty), else 0; pair_base[E] = 0 (the
//                           host scans it into offsets); the box is reset; the
//                           header, the last pair-count slot and the
//                           per-workgroup line totals are zeroed.
//   CN_FL_MODE_ELEM_FINISH: line range and box of every element; the header's
//                           capacity and overflow flag (flatten_finish.glsl).
//   CN_FL_MODE_ELEM_INIT_SCAN: one workgroup (stages/flatten.c: small scenes)
//                           does ELEM_INIT and the host's scan of pair_base
//                           (exclusive, E + 1 entries) in one dispatch: rows
//                           of WG_SIZE elements, a workgroup scan each.
#include "flatten_buffers.glsl"

layout(constant_id = CN_SPEC_WG_SIZE) const uint WG_SIZE = 64;
// Pairs per segment of a stroke of a CN_PATH_CURVED path (cn_flatten_args.stroke_split).
layout(constant_id = 1) const uint FL_SPLIT = CN_FL_STROKE_SPLIT;
layout(local_size_x_id = CN_SPEC_WG_SIZE) in;

shared uint sh_tot[WG_SIZE]; // ELEM_INIT_SCAN: per subgroup, its row's pairs

// The header and the slot after the last pair's count start at 0.
void init_header() {
  pc.work.v[0] = 0u;
  pc.work.v[1] = 0u;
  pc.work.v[2] = 0u;
  pc.work.v[3] = 0u;
  pc.work.v[fl_off_pair_lines() + pc.pair_count] = 0u;
}

// Element e < E: its output record reset; returns its pairs (segments of its
// path, times FL_SPLIT for a STROKE of a CN_PATH_CURVED path) if it
// draws and is not culled, else 0.
uint init_element(uint e) {
  uint n = 0u;
  cn_element el = pc.elements.v[e];
  if (fl_is_drawing(el.tag)) {
    cn_path p = pc.paths.v[el.path];
    n = p.seg_count * (el.tag == CN_TAG_STROKE && (p.flags & CN_PATH_CURVED) != 0u ? FL_SPLIT : 1u);
  }
  if (uint64_t(pc.cull) != 0ul) {
    vec4 b = pc.cull.v[e];
    if (!(b.z > b.x && b.w > b.y)) n = 0u; // empty result box: nothing of it is visible
  }
  uint o = e * FL_ELEM_WORDS;
  pc.elem_out.v[o + 0u] = 0u;
  pc.elem_out.v[o + 1u] = 0u;
  pc.elem_out.v[o + 2u] = 0xFFFFFFFFu;
  pc.elem_out.v[o + 3u] = 0xFFFFFFFFu;
  pc.elem_out.v[o + 4u] = 0u;
  pc.elem_out.v[o + 5u] = 0u;
  pc.elem_out.v[o + 6u] = floatBitsToUint(1.0); // cover (flatten_pairs: the element's first pair)
  pc.elem_out.v[o + 7u] = 0u; // flags (flatten_pairs: the element's first pair)
  return n;
}

void init_scan() {
  uint t = gl_LocalInvocationID.x, E = pc.element_count;
  uint lane = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID; // element order = scan order
  if (t == 0u) init_header();
  uint groups = (pc.pair_count + CN_FL_PAIR_GROUP - 1u) / CN_FL_PAIR_GROUP;
  for (uint w = t; w < groups; w += WG_SIZE) pc.work.v[fl_off_agg() + w] = 0u;
  uint carry = 0u;
  for (uint e0 = 0u; e0 <= E; e0 += WG_SIZE) { // E + 1 entries: pair_base[E] = the total
    uint e = e0 + lane;
    uint n = e < E ? init_element(e) : 0u;
    // the row's scan starts after a barrier (it follows a branch: Vulkan does
    // not promise that a subgroup reconverges after one), which also orders
    // the previous row's reads of sh_tot before this row's writes
    barrier();
    uint incl = subgroupInclusiveAdd(n);
    if (gl_SubgroupInvocationID == gl_SubgroupSize - 1u) sh_tot[gl_SubgroupID] = incl;
    barrier();
    uint before, all;
    CN_SUBGROUP_TOTALS(sh_tot, before, all)
    if (e <= E) pc.work.v[CN_FL_OFF_PAIR_BASE + e] = carry + before + incl - n;
    carry += all;
  }
}

void main() {
  uint e = cn_group_id() * WG_SIZE + gl_LocalInvocationID.x;
  uint E = pc.element_count;
  if (pc.mode == CN_FL_MODE_ELEM_INIT_SCAN) {
    init_scan();
    return;
  }
  if (pc.mode == CN_FL_MODE_ELEM_INIT) {
    if (e == 0u) init_header();
    // the per-workgroup line totals of flatten_pairs (used when it numbers the lines itself)
    if (e < (pc.pair_count + CN_FL_PAIR_GROUP - 1u) / CN_FL_PAIR_GROUP) pc.work.v[fl_off_agg() + e] = 0u;
    if (e > E) return;
    uint n = 0u;
    if (e < E) n = init_element(e);
    pc.work.v[CN_FL_OFF_PAIR_BASE + e] = n;
    return;
  }
  // CN_FL_MODE_ELEM_FINISH
  uint first, count;
  vec4 box;
  fl_finish_element(uint64_t(pc.work), uint64_t(pc.elem_out), E, pc.line_capacity, e, first, count, box);
}
