#version 460
// parens_lm_match: pass 4 of the LOWMARK variant (see parens_lm_match.glsl).
// A workgroup holds one partition, or one per subgroup (PARENS_LM_MULTI,
// parens_lm.glsl; the workgroup size is the specialization constant
// CN_SPEC_PARENS_LOCAL).
#define PARENS_LM_MULTI
#include "parens_lm_match.glsl"
