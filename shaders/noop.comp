#version 460
// noop: does nothing. One workgroup of it and a barrier is the dispatch floor
// `canopy bench` measures every stage against (cn_cmd_dispatch_empty).
#include "common.glsl"
layout(local_size_x = 64) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer UtilBuf { uint v[]; };
#define CN_USE_UTIL_PUSH
#include "cn_shared.h"

void main() {}
