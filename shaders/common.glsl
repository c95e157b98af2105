// common.glsl: what every canopy kernel includes first (after #version 460).
// - buffer references (buffers come in as device addresses in push constants)
// - the shared C/GLSL header
// - cn_group_id(): the linear workgroup id of a dispatch that cn_dispatch()
//   may have split into rows of CN_GROUPS_X workgroups.
#ifndef CN_COMMON_GLSL
#define CN_COMMON_GLSL

#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : enable
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require

#include "cn_config.h"

uint cn_group_id() { return gl_WorkGroupID.y * CN_GROUPS_X + gl_WorkGroupID.x; }

#endif
