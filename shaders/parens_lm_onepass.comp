#version 460
// parens_lm_onepass: LOWMARK in one dispatch, its windows by look-back (see
// parens_lm_match.glsl and parens_lm_onepass.glsl).
#define PARENS_COHERENT coherent
#define PARENS_LM_ONEPASS
#include "parens_lm_match.glsl"
