#version 460
// bins_fill: the fill pass of binning (see bins.glsl).
#define BINS_FILL
#include "bins.glsl"
