// scan_f32_seg.glsl: the monoid of a segmented float sum over 32-bit words:
// bits 0..30 a non-negative float, bit 31 "a segment starts here". Combining
// (a, b): b when b starts a segment, else a's flag with the sum of both values.
// Instantiated by scan_f32_seg_{reduce,apply}.comp over scan.glsl.
#include "common.glsl"
#define SCAN_T uint
#define SCAN_IDENTITY 0u
uint scan_f32_seg_combine(uint a, uint b) {
  if ((b & 0x80000000u) != 0u) return b;
  float s = uintBitsToFloat(a & 0x7FFFFFFFu) + uintBitsToFloat(b & 0x7FFFFFFFu);
  return (a & 0x80000000u) | (floatBitsToUint(s) & 0x7FFFFFFFu);
}
#define SCAN_COMBINE(a, b) scan_f32_seg_combine(a, b)
