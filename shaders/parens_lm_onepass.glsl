// parens_lm_onepass.glsl: the look-back half of LOWMARK's one-pass form
// (parens_lm_onepass.comp, included by parens_lm_match.glsl with
// PARENS_LM_ONEPASS; see include/canopy/cn_parens.h).
//
// Partition q publishes, as soon as its scans give them, its bicyclic value
// (a_q, b_q) at agg[q] and its slice (its b_q unmatched '(', bottom first) at
// slices[q * P], then flag AGGREGATE. Its window (the stack before it, top
// first, need = min(a_q + 1, P) entries) comes from the slices of earlier
// partitions: walking back from r = q - 1 with acc = the bicyclic value of
// the partitions between r and q, window depth d >= acc.y lies at depth
// d - acc.y + acc.x of the stack after r, whose top b_r entries are r's slice.
// Every value the walk needs was published before the partition's own look-
// back, so no partition waits on another's look-back: there is no chain.
//
// Skips keep deep walks short. Once q's window is complete (the walk ended in
// partition e, whose slice held depth need - 1, or at the stack's bottom) the
// partitions strictly between e and q pushed fewer entries than q pops, so
// the stack after q is q's slice on top of the stack after e: q publishes
// (e + 1, W.x) with W = the value of (e, q] (W.y = b_q) and flag SKIP, and a
// later walk reaching q reads q's slice and continues at e instead of
// stepping over every partition in between (on nested input a partition's
// window lies half the input away).
//
// Memory ordering (the argument of parens_lookback.comp): every flag access
// is a relaxed atomic of invocation 0; the writer stores (slice and value, or
// the skip), passes a workgroup control barrier with device-scope acquire-
// release semantics, then stores the flag; the reader sees the flag, passes
// such a barrier, then reads. No memory barrier sits in divergent code:
// llvmpipe (lavapipe) turns one into a workgroup barrier.
//
// Forward progress: partition ids come in the order workgroups start, so the
// partition waited on is running, and it publishes before its own look-back.
// A spin is bounded all the same (SPIN_BUDGET loads per workgroup, SPIN_STEP
// per wait): then the workgroup computes the missing partition's value and
// slice itself, the same values its owner writes. llvmpipe (lavapipe) ends
// every loop of an invocation after 65535 trips in all; the host picks this
// form there only for inputs whose walks fit (stages/parens.c).
#ifndef PARENS_LM_ONEPASS_GLSL
#define PARENS_LM_ONEPASS_GLSL

layout(constant_id = CN_SPEC_PARENS_ONEPASS_SPIN) const uint SPIN_BUDGET = 16384u;
const uint SPIN_STEP = 2048u; // loads per wait before the workgroup computes the partition itself
const uint RUN_BOTTOM = 0xFFFFFFFFu; // a run of -1 (below the stack's bottom)

shared int sh_win1[P];      // the window: the stack before the partition, top first
shared uvec4 sh_run[1];     // a run of window entries: x the slices index of its top entry (RUN_BOTTOM: -1), y its first window depth, z its count
shared uint sh_lb[4];       // broadcast from invocation 0: partition id; unused; done; partition to compute + 1

layout(buffer_reference, std430, buffer_reference_align = 8) PARENS_COHERENT buffer ParensSkip { uvec2 v[]; };

void lm_fence_barrier() {
  controlBarrier(gl_ScopeWorkgroup, gl_ScopeDevice, gl_StorageSemanticsBuffer | gl_StorageSemanticsShared,
                 gl_SemanticsAcquireRelease);
}

// The partition id, in the order workgroups start (all invocations).
uint lm_onepass_id() {
  if (gl_LocalInvocationID.x == 0u) sh_lb[0] = atomicAdd(pc.flags.v[0], 1u);
  barrier();
  return sh_lb[0];
}

// Partition q's slice entries held by this chunk and its value: the chunk's
// k-th lowest unmatched '(' (mask, relative to base) sits at g = low_t + k
// and survives the partition while that is below every later chunk's low
// mark. b: the chunk's unmatched '(', sum: the partition's. All invocations,
// after a barrier (lm_suffix_min's subgroup operations).
uvec2 lm_onepass_slice(uint q, uint base, uint mask, int low_t, int b, int sum) {
  int low;
  int after = lm_suffix_min(low_t, low);
  int surv = after == LM_INF ? b : clamp(after - low_t, 0, b);
  uint slot = q * P + uint(low_t - low);
  for (int k = 0; k < surv; k++) {
    uint bit = uint(findLSB(mask));
    mask ^= 1u << bit;
    pc.slices.v[slot + uint(k)] = int(base + bit);
  }
  uvec2 value = uvec2(uint(-low), uint(sum - low));
  if (gl_LocalInvocationID.x == 0u) pc.tree.v[q] = value;
  return value;
}

// Publishes partition q (its slice and value, then flag AGGREGATE); returns
// its value.
uvec2 lm_onepass_publish(uint q, uint base, uint mask, int low_t, int b, int sum) {
  uvec2 value = lm_onepass_slice(q, base, mask, low_t, b, sum);
  lm_fence_barrier();
  if (gl_LocalInvocationID.x == 0u)
    atomicStore(pc.flags.v[1u + q], CN_PARENS_FLAG_AGGREGATE, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                gl_SemanticsRelaxed);
  return value;
}

// Partition r's value and slice computed here (its owner has not published
// them within the spin budget): the same values its owner writes.
void lm_onepass_compute(uint r) {
  uint t = lm_chunk_id();
  LmChunk c = lm_load_bits(r * P, t);
  lm_walk(c);
  int sum;
  int start = lm_excl_add(c.sum, sum, true);
  lm_onepass_slice(r, r * P + t * LK, c.mask, start + c.low, c.sum - c.low, sum);
}

// Waits for partition r's flag (invocation 0, relaxed loads: the acquire is
// the workgroup's fence barrier after it): its state, or NONE when this wait
// or the workgroup's budget runs out.
uint lm_onepass_spin(uint r, inout uint budget) {
  for (uint i = 0u;; i++) { // one load at least, also with the budget spent
    uint f = atomicLoad(pc.flags.v[1u + r], gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
    if (f != CN_PARENS_FLAG_NONE || budget == 0u || i + 1u >= SPIN_STEP) return f;
    budget--;
  }
  return CN_PARENS_FLAG_NONE;
}

// Fills sh_win1[0 .. min(a_q + 1, P)) with the stack before partition q
// (value = (a_q, b_q)), then publishes q's skip. All invocations. One step of
// the walk per round: invocation 0 reads the partition whose flag it saw in
// the last round (its run of window entries, if any, goes to sh_run[0]),
// then waits for the next one's flag; a fence barrier (the acquire, and
// llvmpipe wants memory barriers in uniform control flow) and the copy of the
// run by all invocations follow.
void lm_onepass_window(uint q, uvec2 value) {
  uint lt = gl_LocalInvocationID.x;
  uint need = min(value.x + 1u, P);
  // Invocation 0's walk: the next partition read is s - 1 (s = 0: the
  // stack's bottom); acc = the value of partitions [s, q); filled = the
  // window entries found (acc.y until need); seen = the state of partition
  // s - 1 when its flag was seen (NONE: not yet).
  uint s = q, filled = 0u, budget = SPIN_BUDGET, computed = 0xFFFFFFFFu, seen = CN_PARENS_FLAG_NONE;
  uvec2 acc = uvec2(0u);
  uint end_next = 0u; // where a later walk continues after q: e + 1, 0 for the bottom
  uvec2 end_acc = uvec2(0u);
  for (;;) {
    if (lt == 0u) {
      uvec4 run = uvec4(0u);
      uint redo = 0u;
      if (seen != CN_PARENS_FLAG_NONE) {
        uint r = s - 1u;
        uvec2 v = pc.tree.v[r];
        uint next = r;
        if (seen == CN_PARENS_FLAG_SKIP) { // the value of (e, r], whose slice is r's; continue at e
          uvec2 sk = ParensSkip(pc.win).v[r];
          v.x = sk.y;
          next = sk.x;
        }
        if (v.y > acc.x) { // r's slice holds window depths acc.y ..
          uint cnt = min(v.y - acc.x, need - filled);
          run = uvec4(r * P + v.y - 1u - acc.x, filled, cnt, 0u);
          filled += cnt;
          if (filled >= need) {
            end_next = r + 1u;
            end_acc = acc;
          }
        }
        acc = bic(v, acc);
        s = next;
        seen = CN_PARENS_FLAG_NONE;
      }
      bool done = filled >= need;
      if (!done && s == 0u && run.z == 0u) { // below the bottom of the stack (one run per round)
        run = uvec4(RUN_BOTTOM, filled, need - filled, 0u);
        filled = need;
        end_next = 0u;
        end_acc = acc;
        done = true;
      } else if (!done && s != 0u) {
        uint r = s - 1u;
        seen = r == computed ? CN_PARENS_FLAG_AGGREGATE : lm_onepass_spin(r, budget);
        if (seen == CN_PARENS_FLAG_NONE) redo = r + 1u;
      }
      sh_run[0] = run;
      sh_lb[2] = done ? 1u : 0u;
      sh_lb[3] = redo;
    }
    lm_fence_barrier(); // acquire what partition s - 1 published
    uint redo = sh_lb[3];
    if (redo != 0u) { // uniform
      lm_onepass_compute(redo - 1u);
      lm_fence_barrier();
      computed = redo - 1u;
      if (lt == 0u) seen = CN_PARENS_FLAG_AGGREGATE;
    }
    uvec4 run = sh_run[0];
    for (uint j = lt; j < run.z; j += WG) sh_win1[run.y + j] = run.x == RUN_BOTTOM ? -1 : pc.slices.v[run.x - j];
    bool done = sh_lb[2] != 0u;
    barrier(); // sh_run and sh_lb are read before invocation 0 writes them again; sh_win1 is complete when done
    if (done) break;
  }
  if (lt == 0u) ParensSkip(pc.win).v[q] = uvec2(end_next, bic(end_acc, value).x);
  lm_fence_barrier();
  if (lt == 0u)
    atomicStore(pc.flags.v[1u + q], CN_PARENS_FLAG_SKIP, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                gl_SemanticsRelaxed);
}

#endif
