#version 460
// scan_u32_max_a64: with 64-bit atomics (see scan_lb.glsl), the one-pass u32 maximum scan (see scan_lb.glsl).
#define SCAN_IDENTITY 0u
#define SCAN_COMBINE(a, b) max((a), (b))
#define SCAN_SG_INCLUSIVE(x) subgroupInclusiveMax(x)
#define SCAN_SG_REDUCE(x) subgroupMax(x)
#define SCAN_ATOMIC64
#include "scan_lb.glsl"
