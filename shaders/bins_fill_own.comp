#version 460
// bins_fill_own: the fill pass of binning with own pairs (see bins.glsl).
#define BINS_FILL
#define BINS_OWN_FILL
#include "bins.glsl"
