// parens_lm_nibble.glsl: the LOWMARK variant's bit helpers (parens_lm.glsl,
// parens_lm_window.comp): tables for four elements at a time (a group of four
// elements is its 4 close bits x, and its walk's low mark and lowest
// unmatched '(' are looked up rather than walked) and a bit select.
#ifndef PARENS_LM_NIBBLE_GLSL
#define PARENS_LM_NIBBLE_GLSL

// -(low mark) of the 4-element walk whose close bits are x (0..4), from a
// table of 16 nibbles: x < 8 in the first word, x >= 8 in the second.
int lm_nibble_drop(uint x) {
  uint tab = x < 8u ? 0x31102010u : 0x42202010u;
  return int(bitfieldExtract(tab, int(4u * (x & 7u)), 4));
}

// The lowest s (0..4, at most the count) of the '(' left unmatched inside a
// group of four elements whose close bits are x, as a 4-bit mask: nibble
// s - 1 of a 16-bit entry per x, two entries a word (x >= 10 leaves none).
uint lm_nibble_lowest(uint x, int s) {
  uint w = x >> 1;
  uint word = w == 0u ? 0xee62f731u : w == 1u ? 0xccc4ccc4u : w == 2u ? 0x88889991u
            : w == 3u ? 0x88888888u : w == 4u ? 0x22223331u : 0u;
  uint e = word >> (16u * (x & 1u));
  return s <= 0 ? 0u : bitfieldExtract(e, 4 * (s - 1), 4);
}

// Position of the k-th lowest set bit of m (k = 0: the lowest; m has more
// than k bits): halves by bit counts, five steps for 32 bits.
uint lm_select_low(uint m, uint k) {
  uint pos = 0u;
  [[unroll]] for (uint w = 16u; w != 0u; w >>= 1) {
    uint c = bitCount(m & ((1u << w) - 1u));
    if (k >= c) {
      k -= c;
      m >>= w;
      pos += w;
    }
  }
  return pos;
}

#endif
