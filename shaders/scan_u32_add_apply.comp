#version 460
// scan_u32_add_apply: the apply pass of the u32 sum scan (see scan.glsl).
#define SCAN_T uint
#define SCAN_IDENTITY 0u
#define SCAN_COMBINE(a, b) ((a) + (b))
#define SCAN_APPLY
#include "scan.glsl"
