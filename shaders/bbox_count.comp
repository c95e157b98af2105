#version 460
// bbox_count: first pass of the compaction of BEGIN/END elements (stages/bbox.c).
// Block b of WG_SIZE * ITEMS elements: counts[b] = its BEGIN/END tags. Block 0
// also writes counts[nblocks] = 0 and initialises the status words; every block
// zeroes its share of the tickets and of the group-byte words (bbox_compact
// ORs bytes into them), and sets its share of the gap keys (bbox_draws folds
// draws into them) to the empty key.
#include "common.glsl"
#include "cn_scene_layout.h"

layout(constant_id = CN_SPEC_WG_SIZE) const uint WG_SIZE = 256;
layout(constant_id = CN_SPEC_ITEMS) const uint ITEMS = 2;
layout(local_size_x_id = CN_SPEC_WG_SIZE) in;

layout(buffer_reference, std430, buffer_reference_align = 4) buffer TagBuf { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer U32Buf { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer KeyBuf { int v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer KeyBox { ivec4 v[]; };
#define CN_USE_BBOX_COMPACT_PUSH
#include "cn_scene_stage_shared.h"

shared uint sh_count;

void main() {
  uint b = cn_group_id();
  uint t = gl_LocalInvocationID.x;
  uint block = WG_SIZE * ITEMS;
  if (t == 0u) sh_count = 0u;
  if (b == 0u && t == 0u) {
    pc.counts.v[pc.nblocks] = 0u;
    pc.status.v[0] = 0u;          // group nodes (bbox_groups)
    pc.status.v[1] = 0u;          // END nodes
    pc.status.v[2] = 0xFFFFFFFFu; // first END without a matching BEGIN of its kind
    pc.status.v[3] = 0xFFFFFFFFu; // first unknown tag
    pc.ticket.v[0] = 0u;          // bbox_pyramid's finished runs of 256 workgroups
  }
  // the tickets after word 0: bbox_pyramid's finished workgroups, one counter
  // per run of 256 of them, bbox_clip_local's, then the parentheses
  // matching's (its reduce pass builds the partition tree); fewer than the
  // invocations of the dispatch
  uint x = b * WG_SIZE + t;
  if (x + 1u < pc.ticket_words) pc.ticket.v[1u + x] = 0u;
  uint words = (pc.group_bound + 3u) / 4u;
  for (uint k = 0u; k < ITEMS; k++) {
    uint w = b * (block / 4u) + k * WG_SIZE + t;
    if (k * WG_SIZE + t < block / 4u && w < words) pc.gbytes.v[w] = 0u;
  }
  for (uint k = 0u; k < ITEMS; k++) {
    uint w = b * block + k * WG_SIZE + t;
    // the empty key box: min of nothing, max of nothing (one 16-byte store)
    if (w < pc.group_bound) KeyBox(pc.gap).v[w] = ivec4(0x7FFFFFFF, 0x7FFFFFFF, int(0x80000000u), int(0x80000000u));
  }
  barrier();
  if (b >= pc.nblocks) return;
  // every row's tag in flight at once (rows: coalesced), each loaded at a
  // clamped index and then counted only where it is in the stream
  uint tags[ITEMS];
  for (uint k = 0u; k < ITEMS; k++) tags[k] = pc.tags.v[min(b * block + k * WG_SIZE + t, pc.n - 1u)];
  uint c = 0u;
  for (uint k = 0u; k < ITEMS; k++) {
    uint tag = tags[k];
    c += (b * block + k * WG_SIZE + t < pc.n && tag >= CN_TAG_BEGIN_CLIP && tag <= CN_TAG_END_BLEND) ? 1u : 0u;
  }
  c = subgroupAdd(c);
  if (subgroupElect() && c != 0u) atomicAdd(sh_count, c);
  barrier();
  if (t == 0u) pc.counts.v[b] = sh_count;
}
