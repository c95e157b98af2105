#version 460
// bbox_compact: the compaction's second pass, each group byte ORed into its
// word by an atomic (see bbox_compact.glsl).
#include "bbox_compact.glsl"
