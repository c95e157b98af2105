#version 460
// parens_lookback: single-pass parentheses matching with decoupled look-back
// (see include/canopy/cn_parens.h for the algorithm and the memory-ordering argument).
//   1. take a partition id from the atomic counter (flags[0])
//   2. local: chunk states, workgroup tree, stack slice -> publish AGGREGATE
//   3. walk back over earlier partitions, filling sh_win (the stack before this
//      partition, top first) deep enough for this partition's pops and for
//      its own window; follow a window's bottom entry when it is not deep enough
//   4. publish the top WINDOW entries of the stack after this partition (WINDOW)
//   5. emit outputs
#define PARENS_COHERENT coherent
#define PARENS_WIN_CAP (WG * K + WINDOW)
#include "parens.glsl"

const uint PARENS_SPIN_STEP = 2048u;  // loads per wait before redoing the partition
layout(constant_id = CN_SPEC_PARENS_SPIN) const uint PARENS_SPIN_BUDGET = 16384u; // loads per partition in all
const uint OP_DONE = 0u, OP_SLICE = 1u, OP_WIN = 2u, OP_FILL = 3u, OP_SKIP = 4u;

// Broadcast slots from invocation 0 to the workgroup (sh_scalars, parens.glsl).
#define sh_pid sh_scalars[0]
#define sh_op sh_scalars[1]
#define sh_src sh_scalars[2]
#define sh_cnt sh_scalars[3]
#define sh_redo sh_scalars[4]

// Memory ordering: every flag access is a relaxed atomic, executed by one
// invocation; the ordering comes from workgroup-uniform control barriers with
// device-scope acquire-release semantics on buffer memory, acting as fences:
//   writer: all invocations store (coherent), fence_barrier(), then one
//           invocation stores the flag -- a release fence before the store;
//   reader: one invocation spins until it reads the flag, fence_barrier(),
//           then reads (coherent) what the flag covers -- an acquire fence
//           after the load.
// Fences are kept out of divergent code on purpose: llvmpipe (lavapipe)
// turns a memory barrier inside one invocation's branch into a workgroup
// barrier, which desynchronises the workgroup.
void fence_barrier() {
  controlBarrier(gl_ScopeWorkgroup, gl_ScopeDevice, gl_StorageSemanticsBuffer | gl_StorageSemanticsShared,
                 gl_SemanticsAcquireRelease);
}

void flag_store(uint q, uint state) {
  atomicStore(pc.flags.v[1u + q], state, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
}

// Spins until partition q has published something; returns its state, or
// CN_PARENS_FLAG_NONE when this partition's spin budget runs out, and the
// caller then computes what q would have published itself. Partition q took
// its id before us, so it is running and will publish: on a GPU the budget is
// a formality. It exists for llvmpipe (lavapipe), which ends every loop of an
// invocation once all its loops together have iterated 65535 times (to survive
// runaway shaders): an unbounded spin there would silently cut short every
// loop after it.
uint flag_spin(uint q, inout uint budget) {
  uint f = CN_PARENS_FLAG_NONE;
  for (uint i = 0u; i < PARENS_SPIN_STEP && budget != 0u; i++) {
    budget--;
    f = atomicLoad(pc.flags.v[1u + q], gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
    if (f != CN_PARENS_FLAG_NONE) break;
  }
  return f;
}

// Position of index x in partition q's slice (b entries, ascending).
uint slice_find(uint q, uint b, int x) {
  uint lo = 0u, hi = b;
  while (lo < hi) {
    uint mid = (lo + hi) / 2u;
    if (pc.slices.v[q * P + mid] < x) lo = mid + 1u;
    else hi = mid;
  }
  return lo;
}

void main() {
  uint t = gl_LocalInvocationID.x;
  if (t == 0u) sh_pid = atomicAdd(pc.flags.v[0], 1u);
  barrier();
  uint q = sh_pid;
  uint part = q * P;

  ParensChunk c = parens_load(part);
  uvec2 total = parens_tree_build(c);
  parens_write_slice(q, part, c, total);
  if (t == 0u) pc.tree.v[q] = total;
  fence_barrier();
  if (t == 0u) flag_store(q, CN_PARENS_FLAG_AGGREGATE);

  // Entries of the stack before this partition to find: down to the depth the
  // partition pops into, and enough below that for this partition's window.
  uint need = min(total.x + 1u, P);
  if (total.y < WINDOW) need = max(need, total.x + WINDOW - total.y);
  // Walk state (invocation 0): we read the stack before partition s, skipping
  // its top `skip` entries; or, with `below` >= 0, the entries below index
  // `below` (plus `extra` more skipped) in the partition s - 1 that pushed it.
  uint s = q, skip = 0u, extra = 0u, filled = 0u;
  int below = -1;
  bool rebuilt = false;
  uint budget = PARENS_SPIN_BUDGET;
  for (;;) {
    uint f = CN_PARENS_FLAG_NONE;
    if (t == 0u) {
      sh_redo = 0u;
      if (filled < need && s != 0u) {
        f = flag_spin(s - 1u, budget);
        if (f == CN_PARENS_FLAG_NONE) sh_redo = s; // gave up waiting: redo partition s - 1 here
      }
    }
    fence_barrier(); // acquire what partition s - 1 published
    uint redo = sh_redo;
    if (redo != 0u) {
      // Forward progress without trusting the scheduler: compute the missing
      // partition's aggregate and slice ourselves (the same values it writes).
      uint r = redo - 1u;
      ParensChunk cr = parens_load(r * P);
      uvec2 tr = parens_tree_build(cr);
      parens_write_slice(r, r * P, cr, tr);
      if (t == 0u) pc.tree.v[r] = tr;
      fence_barrier();
      f = CN_PARENS_FLAG_AGGREGATE;
      rebuilt = true;
    }
    if (t == 0u) {
      uint op = OP_DONE, src = 0u, cnt = 0u;
      if (filled < need && s == 0u) {
        op = OP_FILL;
        cnt = need - filled;
      } else if (filled < need) {
        uint r = s - 1u;
        uvec2 ag = pc.tree.v[r];
        if (below >= 0) {
          skip = ag.y - slice_find(r, ag.y, below) + extra;
          below = -1;
        }
        if (f == CN_PARENS_FLAG_WINDOW && skip < WINDOW) {
          // r's window holds depths skip.. of the stack after r: copy them.
          op = OP_WIN;
          cnt = min(need - filled, WINDOW - skip);
          src = r * WINDOW + skip;
          // Continue at depth WINDOW of the stack after r.
          if (ag.y > WINDOW) {
            skip = WINDOW; // still inside r's slice
          } else if (ag.y == WINDOW) {
            skip = ag.x; // just below r's slice: the stack before r
            s = r;
          } else {
            // Below the window's bottom entry, pushed by an earlier partition:
            // follow it (a backlink) instead of stepping over every partition.
            int bottom = pc.win.v[r * WINDOW + WINDOW - 1u];
            extra = 0u;
            if (bottom < 0) {
              s = 0u; // the stack after r ends inside the window
            } else {
              below = bottom;
              s = uint(bottom) / P + 1u;
            }
          }
        } else if (skip < ag.y) { // part of r's slice is on the stack: copy it
          op = OP_SLICE;
          cnt = min(need - filled, ag.y - skip);
          src = r * P + ag.y - 1u - skip;
          skip = ag.x;
          s = r;
        } else if (f == CN_PARENS_FLAG_WINDOW && ag.y < WINDOW) {
          // skip >= WINDOW: jump below the window's bottom entry.
          int bottom = pc.win.v[r * WINDOW + WINDOW - 1u];
          op = OP_SKIP;
          extra = skip - WINDOW;
          if (bottom < 0) {
            s = 0u;
          } else {
            below = bottom;
            s = uint(bottom) / P + 1u;
          }
        } else { // only r's aggregate helps: step over r
          op = OP_SKIP;
          skip = skip - ag.y + ag.x;
          s = r;
        }
      }
      sh_op = op;
      sh_src = src;
      sh_cnt = cnt;
    }
    barrier();
    uint op = sh_op, src = sh_src, cnt = sh_cnt;
    if (op == OP_DONE) break;
    for (uint i = t; i < cnt; i += WG) {
      int v = -1;
      if (op == OP_SLICE) v = pc.slices.v[src - i];
      else if (op == OP_WIN) v = pc.win.v[src + i];
      sh_win[filled + i] = v;
    }
    filled += cnt;
    barrier(); // everyone has read sh_op / sh_redo before invocation 0 rewrites them
  }

  if (rebuilt) parens_tree_build(c); // our own chunk tree again

  // Publish the top WINDOW entries of the stack after this partition.
  for (uint j = t; j < WINDOW; j += WG)
    pc.win.v[q * WINDOW + j] = j < total.y ? pc.slices.v[q * P + total.y - 1u - j] : sh_win[total.x + j - total.y];
  fence_barrier();
  if (t == 0u) flag_store(q, CN_PARENS_FLAG_WINDOW);

  parens_emit(part, c);
}
