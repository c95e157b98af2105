/* cn_config.h: constants and type macros shared by C and GLSL.
 * Included by cn_shared.h (C) and common.glsl (GLSL); see cn_shared.h. */
#ifndef CN_CONFIG_H
#define CN_CONFIG_H

#ifdef VULKAN /* ---------------------------------------------- GLSL side */
#define CN_PTR(T) T
#define CN_PUSH_BEGIN(name) layout(push_constant, std430) uniform name##_block {
#define CN_PUSH_END(name) } pc;
#define CN_STATIC_ASSERT_SIZE(T, n)
#define CN_U32 uint
#define CN_I32 int
#define CN_F32 float
#else /* ------------------------------------------------------------ C side */
#include <stdint.h>
#define CN_PTR(T) uint64_t
#define CN_PUSH_BEGIN(name) typedef struct name {
#define CN_PUSH_END(name) } name;
#define CN_STATIC_ASSERT_SIZE(T, n) _Static_assert(sizeof(T) == (n), #T " layout")
#define CN_U32 uint32_t
#define CN_I32 int32_t
#define CN_F32 float
#endif

/* The most bytes of push constants any kernel takes (Vulkan guarantees 128). */
#define CN_PUSH_MAX 128
/* Specialization constants a pipeline may take (constant_id 0..N-1). */
#define CN_MAX_SPEC_CONSTANTS 8
/* Workgroups per row of a split dispatch; cn_group_id() undoes the split. */
#define CN_GROUPS_X 32768u

/* Specialization constant ids used by every kernel that takes them. */
#define CN_SPEC_WG_SIZE 0   /* local_size_x */
#define CN_SPEC_ITEMS 1     /* elements per invocation */

#endif
