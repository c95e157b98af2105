#version 460
// geometry.frag: the vertex colour (straight alpha; blending does "over").
layout(location = 0) in vec4 colour;
layout(location = 0) out vec4 result;
void main() { result = colour; }
