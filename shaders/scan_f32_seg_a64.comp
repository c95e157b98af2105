#version 460
// scan_f32_seg_a64: with 64-bit atomics (see scan_lb.glsl), the one-pass segmented float sum (scan_f32_seg.glsl, scan_lb.glsl).
#include "scan_f32_seg.glsl"
#undef SCAN_T
#define SCAN_ATOMIC64
#include "scan_lb.glsl"
