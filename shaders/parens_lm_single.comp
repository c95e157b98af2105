#version 460
// parens_lm_single: SINGLE's low-mark form, the whole input in one workgroup
// and one dispatch (see parens_lm_match.glsl, PARENS_LM_SINGLE).
#define PARENS_LM_SINGLE
#include "parens_lm_match.glsl"
