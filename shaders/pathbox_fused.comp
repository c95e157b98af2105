#version 460
// pathbox_fused: the segment and element steps of the path boxes in one
// dispatch (stages/pathbox.c), after pathbox_init, with the results of
// pathbox_segments and pathbox_elements bit for bit (the same steps of
// pathbox.glsl): every workgroup folds WG segments into the key boxes
// (fold_segment); the last workgroup to finish (a ticket counter right after
// the key boxes, zeroed by pathbox_init) then writes every element's box,
// four elements per invocation and round, their loads issued together.
// Memory ordering: the key atomics, then a device-scope acquire-release
// control barrier, then the ticket; the last one's barrier after the ticket
// makes every workgroup's atomics visible to it (as bbox_pyramid), and it
// reads the keys through a coherent reference.
// pc.count = segments, pc.element_count = elements.
#include "common.glsl"
#include "cn_scene_layout.h"

layout(buffer_reference, std430, buffer_reference_align = 16) buffer SegBuf { cn_segment v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer PathBuf { cn_path v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer XformBuf { cn_transform v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) coherent buffer KeyBuf { ivec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer ElemBuf { cn_element v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer StrokeBuf { cn_stroke v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer BoxBuf { vec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer TagBuf { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) coherent buffer TicketBuf { uint v[]; };
#define CN_USE_PATHBOX_PUSH
#define CN_PATHBOX_SEGMENT_PASS
#include "cn_scene_stage_shared.h"

layout(constant_id = CN_SPEC_WG_SIZE) const uint WG = 1024;
layout(local_size_x_id = CN_SPEC_WG_SIZE) in;

#include "scene_box.glsl"
#include "pathbox.glsl"

shared uint sh_last;

void fence_barrier() {
  controlBarrier(gl_ScopeWorkgroup, gl_ScopeDevice, gl_StorageSemanticsBuffer | gl_StorageSemanticsShared,
                 gl_SemanticsAcquireRelease);
}

void main() {
  uint t = gl_LocalInvocationID.x;
  uint groups = max((pc.count + WG - 1u) / WG, 1u);
  fold_segment(cn_group_id() * WG + t);
  fence_barrier(); // release: this workgroup's key atomics before its ticket
  TicketBuf ticket = TicketBuf(uint64_t(pc.keys) + uint64_t(pc.path_count) * 16ul);
  if (t == 0u) sh_last = atomicAdd(ticket.v[0], 1u) == groups - 1u ? 1u : 0u;
  barrier();
  if (sh_last == 0u) return;
  fence_barrier(); // acquire, the last only (uniform in the workgroup): every workgroup's key atomics
  for (uint i0 = 0u; i0 < pc.element_count; i0 += 4u * WG) {
    cn_element e[4];
    ivec4 key[4];
    for (uint k = 0u; k < 4u; k++) {
      uint i = i0 + k * WG + t;
      if (i < pc.element_count) e[k] = pc.elements.v[i];
    }
    for (uint k = 0u; k < 4u; k++) {
      uint i = i0 + k * WG + t;
      key[k] = i < pc.element_count && element_has_path_box(e[k]) ? pc.keys.v[e[k].path] : ivec4(0);
    }
    for (uint k = 0u; k < 4u; k++) {
      uint i = i0 + k * WG + t;
      if (i >= pc.element_count) continue;
      pc.boxes.v[i] = element_has_path_box(e[k]) ? element_box(e[k], key[k]) : BOX_EMPTY;
      if (pc.write_tags != 0u) pc.tags.v[i] = e[k].tag;
    }
  }
}
