#version 460
// render_seg_alloc: each tile record's run of piece records. render_tile_seg's
// counting pass left in every record how many pieces of lines it gets
// (seg_count); this pass gives each record seg_count records of the segment
// buffer from seg_first on, and sets seg_next (where the writing pass stores
// the next piece) to seg_first. Each workgroup takes 256 consecutive tile
// records: a workgroup scan of their counts and one atomic add on bump.segs
// (which tile_seg's counting pass also raised for the pieces of elements
// left without records). Past cap_segs the workgroup's records get no run
// (seg_first = seg_next = cap_segs: the writing pass stores nothing, fine
// reads nothing) and CN_FAIL_SEGS is set; the counter still counts, so the
// host learns what the re-run needs.
//
// It runs beside render_backdrop (no barrier between them): the two write
// different words of the records.
#include "render_common.glsl"

layout(local_size_x = 256) in;

shared uint sh_sg[256]; // per subgroup: its total, then its first record (any subgroup size)
shared uint sh_base;

void main() {
  CnRenderConfig cfg = pc.config;
  uint n = min(cfg.bump.v.tiles, cfg.cap_tiles);
  uint first = cn_group_id() * 256u;
  if (first >= n) return; // uniform over the workgroup
  TileBuf tb = cfg.tiles;
  uint i = first + gl_LocalInvocationID.x;
  uint c = tb.v[min(i, n - 1u)].seg_count; // clamped, then selected: no branch before the subgroup scan
  c = i < n ? c : 0u;
  uint ex = subgroupExclusiveAdd(c), sum = subgroupAdd(c);
  if (subgroupElect()) sh_sg[gl_SubgroupID] = sum;
  barrier();
  if (gl_LocalInvocationID.x == 0u) {
    uint total = 0u;
    for (uint s = 0u; s < gl_NumSubgroups; s++) {
      uint v = sh_sg[s];
      sh_sg[s] = total;
      total += v;
    }
    uint base = total > 0u ? atomicAdd(cfg.bump.v.segs, total) : 0u;
    if (base > cfg.cap_segs || total > cfg.cap_segs - base) {
      atomicOr(cfg.bump.v.failed, CN_FAIL_SEGS);
      base = CN_NONE;
    }
    sh_base = base;
  }
  barrier();
  if (i >= n) return;
  uint base = sh_base;
  uint f = base != CN_NONE ? base + sh_sg[gl_SubgroupID] + ex : cfg.cap_segs;
  tb.v[i].seg_first = f;
  tb.v[i].seg_next = f;
}
