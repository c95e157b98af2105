#version 460
// parens_lm_reduce_tree: parens_lm_reduce that also builds the partition tree
// above level 0 (parens_tree_tail.glsl; cn_parens_args.tickets).
#define PARENS_TREE_FOLD
#include "parens_lm_reduce.glsl"
