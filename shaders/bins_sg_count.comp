#version 460
// bins_sg_count: the count pass of binning by subgroups (see bins_sg.glsl).
#include "bins_sg.glsl"
