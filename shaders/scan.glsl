// scan.glsl: a generic monoid scan, instantiated once per monoid.
//
// A kernel file defines, then includes this file:
//   SCAN_T            the element type (a struct is fine)
//   SCAN_IDENTITY     the identity element
//   SCAN_COMBINE(a,b) the associative operation (a before b)
//   SCAN_REDUCE or SCAN_APPLY: which of the two passes this kernel is
//
// Algorithm (reduce-then-scan, any n): the input is cut into blocks of
// WG_SIZE * ITEMS elements, ITEMS contiguous elements per invocation.
//   reduce: partial[b] = fold of block b
//   (the host scans partial[] inclusively, recursively, with these same kernels)
//   apply:  dst[i] = partial[b-1] + scan within block b, inclusive or exclusive
// Inside a block: each invocation folds its items, the workgroup scans those
// totals in shared memory (Hillis-Steele), then each invocation re-walks its items.
#include "common.glsl"

layout(constant_id = CN_SPEC_WG_SIZE) const uint WG_SIZE = 256;
layout(constant_id = CN_SPEC_ITEMS) const uint ITEMS = 8;
layout(local_size_x_id = CN_SPEC_WG_SIZE) in;

layout(buffer_reference, std430, buffer_reference_align = 4) buffer ScanBuf { SCAN_T v[]; };

#define CN_USE_SCAN_PUSH
#include "cn_shared.h"

shared SCAN_T sh_scan[WG_SIZE];

// Inclusive scan of x across the workgroup; every invocation must call it.
SCAN_T scan_workgroup_inclusive(SCAN_T x) {
  uint t = gl_LocalInvocationID.x;
  sh_scan[t] = x;
  for (uint off = 1; off < WG_SIZE; off <<= 1) {
    barrier();
    SCAN_T other = t >= off ? sh_scan[t - off] : SCAN_IDENTITY;
    barrier();
    x = SCAN_COMBINE(other, x);
    sh_scan[t] = x;
  }
  barrier();
  return x;
}

void main() {
  uint block = cn_group_id();
  uint first = block * WG_SIZE * ITEMS;
  if (first >= pc.n) return; // uniform across the workgroup
  uint t = gl_LocalInvocationID.x;
  uint mine = first + t * ITEMS;
  uint end = min(mine + ITEMS, pc.n);

  SCAN_T acc = SCAN_IDENTITY;
  for (uint i = mine; i < end; i++) acc = SCAN_COMBINE(acc, pc.src.v[i]);
  SCAN_T incl = scan_workgroup_inclusive(acc);

#ifdef SCAN_REDUCE
  if (t == WG_SIZE - 1) pc.partial.v[block] = incl;
#else
  SCAN_T run = t > 0 ? sh_scan[t - 1] : SCAN_IDENTITY;
  if (pc.has_partial != 0 && block > 0) run = SCAN_COMBINE(pc.partial.v[block - 1], run);
  for (uint i = mine; i < end; i++) {
    SCAN_T x = pc.src.v[i];
    SCAN_T next = SCAN_COMBINE(run, x);
    pc.dst.v[i] = pc.exclusive != 0 ? run : next;
    run = next;
  }
#endif
}
