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
// Each pair's element: a binary search, or one the subgroup shares (fl_find_element).
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
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
// Bit 0: the stroke code (0: the scene has no STROKE element, cn_flatten_args.fills_only);
// bit 1 (cn_tuning.flatten_lean): the element search shared by the subgroup (fl_find_element;
// 0: each invocation's own) and the count's totals added once per subgroup (0: per pair).
layout(constant_id = 3) const uint FL_FLAGS = 1u;
#define FL_STROKES ((FL_FLAGS & 1u) != 0u)
#define FL_LEAN ((FL_FLAGS & 2u) != 0u)
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

uint fl_pair_base(uint e) { return pc.work.v[CN_FL_OFF_PAIR_BASE + e]; }

// The element of pair q (q < live = pair_base[E]): the last e with
// pair_base[e] <= q, and that base. Called by every invocation of the
// subgroup (q clamped by the caller). With FL_LEAN they share the
// search: the lanes probe
// pair_base at subgroup-size evenly spaced elements at once, narrowing the
// range holding the subgroup's first pair until it spans at most one probe
// per lane; then each lane loads one element's base past that range, and each
// invocation counts the bases at or below its pair by a binary search over
// the lanes (shuffles). Pairs beyond the lanes' window (more elements start
// within the subgroup's pairs than it has lanes) search alone. About
// log_{subgroup size} E dependent loads instead of log2 E.
uint fl_find_element(uint q, out uint base) {
  uint E = pc.element_count, L = gl_SubgroupSize, lane = gl_SubgroupInvocationID;
  if (!FL_LEAN || L < 4u || L > WG_SIZE) { // a plain binary search
    uint lo = 0u, hi = E;
    while (hi - lo > 1u) {
      uint mid = (lo + hi) >> 1;
      if (fl_pair_base(mid) <= q) lo = mid;
      else hi = mid;
    }
    base = fl_pair_base(lo);
    return lo;
  }
  uint p0 = subgroupMin(q);
  // pair_base[lo] <= p0 < pair_base[hi] (pair_base[E] = live > p0); lo_base = pair_base[lo] (pair_base[0] = 0)
  uint lo = 0u, hi = E, lo_base = 0u;
  while (hi - lo > L) {
    uint step = (hi - lo + L - 1u) / L;
    uint probe = lo + lane * step;
    uint v = probe < hi ? fl_pair_base(probe) : 0xFFFFFFFFu;
    uint c = subgroupBallotBitCount(subgroupBallot(v <= p0)); // lanes 0..c-1 (lane 0 always)
    lo_base = subgroupShuffle(v, c - 1u);
    lo += (c - 1u) * step;
    hi = min(lo + step, hi);
  }
  uint idx = lo + 1u + lane;
  uint mine = idx <= E ? fl_pair_base(idx) : 0xFFFFFFFFu;
  uint c = 0u; // lanes j with pair_base[lo + 1 + j] <= q (a prefix of the lanes)
  for (uint b = L >> 1; b > 0u; b >>= 1) {
    uint v = subgroupShuffle(mine, c + b - 1u);
    if (v <= q) c += b;
  }
  // c < L: when every lane's base is at or below q the pair lies past the window
  uint last = subgroupShuffle(mine, L - 1u);
  uint got = subgroupShuffle(mine, c == 0u ? 0u : c - 1u);
  if (last > q) {
    base = c == 0u ? lo_base : got;
    return lo + c;
  }
  uint a = lo + L, z = E; // pair_base[a] <= q < pair_base[z]
  while (z - a > 1u) {
    uint mid = (a + z) >> 1;
    if (fl_pair_base(mid) <= q) a = mid;
    else z = mid;
  }
  base = fl_pair_base(a);
  return a;
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

// Pair `pair` = segment k of element e (pl: the pair-line counts' offset).
void fl_pair_main(uint pair, uint e, uint k, uint pl) {
  if (pc.mode == CN_FL_MODE_DASH_LEN) {
    float len = fl_pair(e, k, pair, true);
    uint si = pc.paths.v[pc.elements.v[e].path].seg_first + k;
    bool start = k == 0u || fl_sub_first(si) == si;
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
    if (!FL_LEAN) {
      if (FL_WRITE_SCANS && g_count != 0u) atomicAdd(pc.work.v[fl_off_agg() + cn_group_id()], g_count);
      uint old = atomicAdd(pc.work.v[0], g_count);
      if (old + g_count < old) atomicOr(pc.work.v[2], CN_FLATTEN_TOO_MANY);
      return;
    }
    // FL_LEAN: the totals, one atomic per subgroup; summed in 16-bit halves,
    // so that a subgroup's lines past 2^32 - 1 are seen.
    uint hi = subgroupAdd(g_count >> 16), lo = subgroupAdd(g_count & 0xFFFFu);
    if (subgroupElect()) {
      uint t = (hi << 16) + lo;
      if (FL_WRITE_SCANS && t != 0u) atomicAdd(pc.work.v[fl_off_agg() + cn_group_id()], t);
      uint old = atomicAdd(pc.work.v[0], t);
      if (hi + (lo >> 16) > 0xFFFFu || old + t < old) atomicOr(pc.work.v[2], CN_FLATTEN_TOO_MANY);
    }
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
  // Culled elements have no pairs: the pairs past the live total do nothing
  // (their counts are 0, so the scan skips them).
  uint live = pc.work.v[CN_FL_OFF_PAIR_BASE + pc.element_count];
  if (live == 0u || pc.element_count == 0u) {
    if (pair >= pc.pair_count) return;
  } else {
    // every invocation of the subgroup takes part in the search (pairs past the live ones as the last)
    uint base;
    uint e = fl_find_element(min(pair, live - 1u), base);
    if (pair >= pc.pair_count) return;
    if (pair < live) {
      fl_pair_main(pair, e, pair - base, pl);
      return;
    }
  }
  if (pc.mode == CN_FL_MODE_COUNT) pc.work.v[fl_off_pair_lines() + pair] = 0u;
  if (pc.mode == CN_FL_MODE_DASH_LEN) pc.work.v[fl_off_dash() + pair] = 0x80000000u;
}
