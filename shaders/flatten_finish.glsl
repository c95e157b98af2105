// flatten_finish.glsl: the flatten stage's last step for one element, shared by
// flatten_elements.comp (CN_FL_MODE_ELEM_FINISH) and render_tile_alloc.comp,
// which runs it in its own pass when the renderer takes flatten's output
// (cn_flatten_args.caller_finish): one dispatch and barrier fewer per frame.
// Reads the work buffer (pair bases, scanned line counts, the header) and the
// element's box words that flatten_pairs grew as ordered integers; writes the
// element's cn_flatten_elem words 0..5 (first line, count, box as floats).
// Element 0 also writes the header's capacity and overflow flag.
#ifndef CN_FLATTEN_FINISH_GLSL
#define CN_FLATTEN_FINISH_GLSL

#include "common.glsl"
#include "cn_flatten_shared.h"

layout(buffer_reference, std430, buffer_reference_align = 4) buffer FlFinishWords { uint v[]; };

// Floats as unsigned integers in the same order (for atomicMin/Max), and back.
uint fl_ord(float f) {
  uint u = floatBitsToUint(f);
  return (u & 0x80000000u) != 0u ? ~u : (u | 0x80000000u);
}
float fl_unord(uint u) { return uintBitsToFloat((u & 0x80000000u) != 0u ? (u & 0x7FFFFFFFu) : ~u); }

// The element's line range and box (box = 0 when it has no lines) as stored;
// work and elem_out are the addresses of cn_flatten_args.scratch and .elems.
// e < element_count, or e == 0 of an empty scene (header only: returns false).
bool fl_finish_element(uint64_t work_addr, uint64_t elem_addr, uint element_count, uint line_capacity, uint e,
                       out uint first, out uint count, out vec4 box) {
  FlFinishWords work = FlFinishWords(work_addr);
  if (e == 0u) {
    uint total = work.v[0];
    work.v[1] = line_capacity;
    if (total > line_capacity) atomicOr(work.v[2], CN_FLATTEN_OVERFLOW);
  }
  first = 0u;
  count = 0u;
  box = vec4(0.0);
  if (e >= element_count) return false;
  FlFinishWords el = FlFinishWords(elem_addr);
  uint pl = CN_FL_OFF_PAIR_LINES(element_count);
  first = work.v[pl + work.v[CN_FL_OFF_PAIR_BASE + e]];
  uint end = work.v[pl + work.v[CN_FL_OFF_PAIR_BASE + e + 1u]];
  count = end - first;
  uint o = e * 8u;
  el.v[o + 0u] = first;
  el.v[o + 1u] = count;
  uint x0 = el.v[o + 2u], y0 = el.v[o + 3u];
  uint x1 = el.v[o + 4u], y1 = el.v[o + 5u];
  bool empty = end == first || x0 > x1 || y0 > y1;
  box = empty ? vec4(0.0) : vec4(fl_unord(x0), fl_unord(y0), fl_unord(x1), fl_unord(y1));
  el.v[o + 2u] = floatBitsToUint(box.x);
  el.v[o + 3u] = floatBitsToUint(box.y);
  el.v[o + 4u] = floatBitsToUint(box.z);
  el.v[o + 5u] = floatBitsToUint(box.w);
  return true;
}

#endif
