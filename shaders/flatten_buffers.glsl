// flatten_buffers.glsl: the buffer types and push constants of the flatten kernels
// (shaders/flatten_*.comp), and accessors for the work buffer's regions
// (layout in cn_flatten_shared.h).
#ifndef CN_FLATTEN_BUFFERS_GLSL
#define CN_FLATTEN_BUFFERS_GLSL

#include "common.glsl"
#include "cn_scene_layout.h"

layout(buffer_reference) buffer ElementBuf;
layout(buffer_reference) buffer PathBuf;
layout(buffer_reference) buffer SegmentBuf;
layout(buffer_reference) buffer TransformBuf;
layout(buffer_reference) buffer StrokeBuf;
layout(buffer_reference) buffer DashBuf;
layout(buffer_reference) buffer WorkBuf;
layout(buffer_reference) buffer LineBuf;
layout(buffer_reference) buffer ElemOutBuf;
layout(buffer_reference) buffer CullBuf;

#define CN_USE_FLATTEN_PUSH
#include "cn_flatten_shared.h"
#include "flatten_finish.glsl" // fl_ord, fl_unord, fl_finish_element

layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer ElementBuf { cn_element v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer PathBuf { cn_path v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer SegmentBuf { cn_segment v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer TransformBuf { cn_transform v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer StrokeBuf { cn_stroke v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer DashBuf { float v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer WorkBuf { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) writeonly buffer LineBuf { cn_line v[]; };
// cn_flatten_elem as 8 words: while the passes run, words 2..5 hold the box as
// order-preserving integers (fl_ord) for atomicMin/Max; the finish pass turns them into floats.
layout(buffer_reference, std430, buffer_reference_align = 4) buffer ElemOutBuf { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer CullBuf { vec4 v[]; };

#define FL_ELEM_WORDS 8u

uint fl_off_pair_lines() { return CN_FL_OFF_PAIR_LINES(pc.element_count); }
uint fl_off_sub_first() { return CN_FL_OFF_SUB_FIRST(pc.element_count, pc.pair_count); }
uint fl_off_sub_last() { return CN_FL_OFF_SUB_LAST(pc.element_count, pc.pair_count, pc.segment_count); }
uint fl_off_dash() { return CN_FL_OFF_DASH(pc.element_count, pc.pair_count, pc.segment_count); }
uint fl_off_agg() { return CN_FL_OFF_AGG(pc.element_count, pc.pair_count, pc.segment_count); }


bool fl_is_drawing(uint tag) { return tag == CN_TAG_FILL || tag == CN_TAG_STROKE || tag == CN_TAG_BEGIN_CLIP; }

#endif
