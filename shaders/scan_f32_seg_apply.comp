#version 460
// scan_f32_seg_apply: the apply pass of the segmented float sum (scan_f32_seg.glsl).
#include "scan_f32_seg.glsl"
#define SCAN_APPLY
#include "scan.glsl"
