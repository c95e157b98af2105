#version 460
// bins_sg_fill: the fill pass of binning by subgroups (see bins_sg.glsl).
#define BINS_SG_FILL
#include "bins_sg.glsl"
