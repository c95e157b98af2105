#version 460
// parens_single: the whole matching of a small input (n <= WG * K) in one
// workgroup and one dispatch (see include/canopy/cn_parens.h, SINGLE): each
// invocation analyses its chunk of K elements (bitmask of unmatched '('), the
// workgroup builds the bicyclic tree over the chunks in shared memory, and
// each invocation walks its chunk again, answering an element whose chunk
// stack is empty by a tree search over the chunks before it (-1 when the
// stack is empty there too). No scratch, no stack before the partition.
#define PARENS_SINGLE
#define PARENS_WIN_CAP 1
#include "parens.glsl"

void main() {
  ParensChunk c = parens_load(0u);
  parens_tree_build(c);
  parens_emit(0u, c);
}
