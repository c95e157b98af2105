#version 460
// parens_lm_reduce_multi: pass 1 of the LOWMARK variant (parens_lm_reduce.glsl)
// with one partition per subgroup (PARENS_LM_MULTI, parens_lm.glsl; the
// workgroup size is the specialization constant CN_SPEC_PARENS_LOCAL).
#define PARENS_LM_MULTI
#include "parens_lm_reduce.glsl"
