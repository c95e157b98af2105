#version 460
// parens_lm_reduce: pass 1 of the LOWMARK variant (parens_lm_reduce.glsl).
#include "parens_lm_reduce.glsl"
