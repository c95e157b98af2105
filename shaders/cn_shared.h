/* cn_shared.h: push-constant layouts shared by C (engine/, stages/) and GLSL (shaders/).
 *
 * Buffers reach kernels as buffer device addresses in push constants: on the
 * GLSL side a field is a buffer_reference type, on the C side a uint64_t
 * (VkDeviceAddress). CN_PTR(T) writes whichever applies. Every push-constant
 * block is at most CN_PUSH_MAX bytes, and the C side checks each size.
 *
 * Rules for blocks declared here: put 8-byte fields (CN_PTR) first, then
 * 4-byte fields; no vec3; the C struct and GLSL block then have the same layout.
 * A shader may have only one push-constant block, so in GLSL each block is
 * declared only where the kernel asks for it (#define CN_USE_<BLOCK> before the
 * #include), and the kernel declares the buffer_reference types it names.
 */
#ifndef CN_SHARED_H
#define CN_SHARED_H

#include "cn_config.h"

/* ------------------------------------------------------------------ scan --
 * Generic monoid scan (stages/scan.c, shaders/scan_*.comp): reduce-then-scan,
 * as many levels as n needs. A block is wg_size * items elements. */
#if !defined(VULKAN) || defined(CN_USE_SCAN_PUSH)
CN_PUSH_BEGIN(cn_scan_push)
  CN_PTR(ScanBuf) src;        /* n elements */
  CN_PTR(ScanBuf) dst;        /* n elements (may equal src) */
  CN_PTR(ScanBuf) partial;    /* one per block: reduce writes, apply reads */
  CN_U32 n;
  CN_U32 exclusive;           /* apply: 1 writes the exclusive scan */
  CN_U32 has_partial;         /* apply: 0 when there is a single block */
  CN_U32 state_words;         /* one-pass: 0, or the words of each region of a
                                 persistent look-back state at partial */
CN_PUSH_END(cn_scan_push)
CN_STATIC_ASSERT_SIZE(cn_scan_push, 40);
#endif

/* --------------------------------------------------------- utility kernels --
 * iota_u32: dst[i] = base + i.  copy_u32x4: dst[i] = src[i] over 16-byte words
 * (the bandwidth yardstick of the benchmarks). */
#if !defined(VULKAN) || defined(CN_USE_UTIL_PUSH)
CN_PUSH_BEGIN(cn_util_push)
  CN_PTR(UtilBuf) src;
  CN_PTR(UtilBuf) dst;
  CN_U32 n;     /* elements (u32 for iota, uvec4 for copy) */
  CN_U32 base;
CN_PUSH_END(cn_util_push)
CN_STATIC_ASSERT_SIZE(cn_util_push, 24);
#endif

/* --------------------------------------------------------- transform_compose --
 * dst[i] = view after src[i] (cn_transform, six floats, SVG matrix order), for
 * the renderer's scene stage under a view transform. */
#if !defined(VULKAN) || defined(CN_USE_COMPOSE_PUSH)
CN_PUSH_BEGIN(cn_compose_push)
  CN_PTR(XformBuf) src;
  CN_PTR(XformBuf) dst;
  CN_U32 n;
  CN_F32 va, vb, vc, vd, ve, vf; /* the view: x' = va x + vc y + ve, y' = vb x + vd y + vf */
  CN_U32 pad0;
CN_PUSH_END(cn_compose_push)
CN_STATIC_ASSERT_SIZE(cn_compose_push, 48);
#endif

#endif
