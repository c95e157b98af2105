// bbox_keys.glsl: unions as ordered-int keys (pathbox.glsl's f32_key per
// coordinate): a key box is (min x0, min y0, max x1, max y1) of the non-empty
// boxes folded in, so union = componentwise int min/max, exact and in any
// order; nothing folded in is KEY_BOX_EMPTY, which decodes to the empty box.
// Needs scene_box.glsl and pathbox.glsl.
#ifndef CN_BBOX_KEYS_GLSL
#define CN_BBOX_KEYS_GLSL

const ivec4 KEY_BOX_EMPTY = ivec4(0x7FFFFFFF, 0x7FFFFFFF, int(0x80000000u), int(0x80000000u));

ivec4 key_union(ivec4 a, ivec4 b) { return ivec4(min(a.xy, b.xy), max(a.zw, b.zw)); }

// The canonical box of a key box (key order is float order, so the emptiness
// test reads the keys directly).
vec4 key_box(ivec4 k) {
  if (!(k.z > k.x && k.w > k.y)) return BOX_EMPTY;
  return vec4(key_f32(k.x), key_f32(k.y), key_f32(k.z), key_f32(k.w));
}

#endif
