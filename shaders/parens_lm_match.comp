#version 460
// parens_lm_match: pass 4 of the LOWMARK variant (see parens_lm_match.glsl).
#include "parens_lm_match.glsl"
