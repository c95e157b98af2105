#version 460
// scan_u32_max: the one-pass u32 maximum scan (see scan_lb.glsl).
#define SCAN_IDENTITY 0u
#define SCAN_COMBINE(a, b) max((a), (b))
#define SCAN_SG_INCLUSIVE(x) subgroupInclusiveMax(x)
#define SCAN_SG_REDUCE(x) subgroupMax(x)
#include "scan_lb.glsl"
