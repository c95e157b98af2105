#version 460
// parens_reduce: pass 1 of the multi-pass variants simple and efficient
// (parens_reduce.glsl).
#include "parens_reduce.glsl"
