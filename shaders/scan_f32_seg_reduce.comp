#version 460
// scan_f32_seg_reduce: the reduce pass of the segmented float sum (scan_f32_seg.glsl).
#include "scan_f32_seg.glsl"
#define SCAN_REDUCE
#include "scan.glsl"
