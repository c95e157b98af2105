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
#extension GL_EXT_control_flow_attributes : require

#include "cn_config.h"

uint cn_group_id() { return gl_WorkGroupID.y * CN_GROUPS_X + gl_WorkGroupID.x; }

// Per-subgroup totals in a shared array (ARR[s] for subgroup s, written
// before a barrier) summed over the subgroups before this invocation's into
// BEFORE and over all of them into TOTAL (uint variables): the lanes read the
// entries a subgroup's width at a time, every lane the same number of trips
// (clamped, then selected), so nothing branches before the subgroup sums.
#define CN_SUBGROUP_TOTALS(ARR, BEFORE, TOTAL)                                       \
  {                                                                                  \
    uint cn_b_ = 0u, cn_t_ = 0u;                                                     \
    for (uint cn_j0_ = 0u; cn_j0_ < gl_NumSubgroups; cn_j0_ += gl_SubgroupSize) {    \
      uint cn_j_ = cn_j0_ + gl_SubgroupInvocationID;                                 \
      uint cn_v_ = ARR[min(cn_j_, gl_NumSubgroups - 1u)];                            \
      cn_v_ = cn_j_ < gl_NumSubgroups ? cn_v_ : 0u;                                  \
      cn_b_ += cn_j_ < gl_SubgroupID ? cn_v_ : 0u;                                   \
      cn_t_ += cn_v_;                                                                \
    }                                                                                \
    BEFORE = subgroupAdd(cn_b_);                                                     \
    TOTAL = subgroupAdd(cn_t_);                                                      \
  }

// Rows of a workgroup's subgroups: ARR[k * gl_NumSubgroups + s] holds a
// count of row k and subgroup s (written before a barrier), NR entries in
// all. OUT (a uint) becomes the sum of the entries before entry E in
// row-major order, E = k * gl_NumSubgroups + gl_SubgroupID for row k (all
// of the earlier rows, then the earlier subgroups of row k): the lanes read
// the entries a subgroup's width at a time and add them up by subgroupAdd,
// instead of one shared load per subgroup and row. A subgroup operation: no
// branch may separate it from a barrier (shaders/README.md).
#define CN_ENTRIES_BEFORE(ARR, NR, E, OUT)                                           \
  {                                                                                  \
    uint cn_sum_ = 0u;                                                               \
    for (uint cn_r0_ = 0u; cn_r0_ < (NR); cn_r0_ += gl_SubgroupSize) {               \
      uint cn_r_ = cn_r0_ + gl_SubgroupInvocationID;                                 \
      uint cn_v_ = ARR[min(cn_r_, (NR) - 1u)];                                       \
      cn_sum_ += cn_r_ < (E) ? cn_v_ : 0u;                                           \
    }                                                                                \
    OUT = subgroupAdd(cn_sum_);                                                      \
  }

#endif
