#version 460
// bins_count: the count pass of binning (see bins.glsl).
#include "bins.glsl"
