#version 460
// scan_u32_add_a64: with 64-bit atomics (see scan_lb.glsl), the one-pass u32 sum scan (see scan_lb.glsl).
#define SCAN_IDENTITY 0u
#define SCAN_COMBINE(a, b) ((a) + (b))
#define SCAN_SG_INCLUSIVE(x) subgroupInclusiveAdd(x)
#define SCAN_SG_REDUCE(x) subgroupAdd(x)
#define SCAN_ATOMIC64
#include "scan_lb.glsl"
