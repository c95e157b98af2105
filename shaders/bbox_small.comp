#version 460
// bbox_small: the whole bbox stage of a small stream in one workgroup and one
// dispatch (see bbox_small.glsl).
#include "bbox_small.glsl"
