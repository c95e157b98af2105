#version 460
// scan_f32_seg: the one-pass segmented float sum (scan_f32_seg.glsl, scan_lb.glsl).
#include "scan_f32_seg.glsl"
#undef SCAN_T
#include "scan_lb.glsl"
