#version 460
// bbox_compact_bytes: the compaction's second pass, each group byte stored as
// a byte (8-bit buffer stores; see bbox_compact.glsl).
#define GROUP_BYTE_STORES
#include "bbox_compact.glsl"
