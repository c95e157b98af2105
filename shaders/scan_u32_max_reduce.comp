#version 460
// scan_u32_max_reduce: the reduce pass of the u32 max scan (see scan.glsl).
#define SCAN_T uint
#define SCAN_IDENTITY 0u
#define SCAN_COMBINE(a, b) max(a, b)
#define SCAN_REDUCE
#include "scan.glsl"
