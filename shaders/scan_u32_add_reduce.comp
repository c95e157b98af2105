#version 460
// scan_u32_add_reduce: the reduce pass of the u32 sum scan (see scan.glsl).
#define SCAN_T uint
#define SCAN_IDENTITY 0u
#define SCAN_COMBINE(a, b) ((a) + (b))
#define SCAN_REDUCE
#include "scan.glsl"
