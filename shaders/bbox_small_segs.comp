#version 460
// bbox_small_segs: bbox_small with FROM_PATHS, the segments folded into the
// paths' key boxes by the same dispatch's other workgroups (see
// bbox_small.glsl, BBOX_SMALL_SEGMENTS).
#define BBOX_SMALL_SEGMENTS
#include "bbox_small.glsl"
