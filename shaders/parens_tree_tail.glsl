// parens_tree_tail.glsl: the partition tree above level 0 built at the end of
// the reduce pass (parens_reduce, parens_lm_reduce) instead of by parens_tree
// dispatches, when the host passes tickets (pc.flags, zero before the pass and
// left zero after it) and the tree's height (pc.levels, > 0).
//
// Each workgroup writes one level-0 node (its partition's bicyclic value).
// The last workgroup of each run of 256 partitions to finish (a ticket per
// run) builds 8 levels over its run's 256 level-0 nodes; the last of each run
// of 256 of those builds 8 more, and so on until the root: the layout and the
// values are those of the parens_tree dispatches (heap layout,
// parens_tree_off; nodes past the partitions are the identity).
// Memory ordering as bbox_pyramid.comp: stores, a device-scope
// acquire-release control barrier, then the ticket (relaxed atomic); the last
// one's barrier after the ticket makes every member's stores visible to it.
// The last one also sets its ticket back to 0, so the tickets are zero again
// once the pass is done.
// The host folds the tree only over few partitions (stages/parens.c): each
// ticket costs its workgroup a device-scope fence (the last one two).
// Include after parens.glsl.
#ifndef PARENS_TREE_TAIL_GLSL
#define PARENS_TREE_TAIL_GLSL

const uint TAIL_RUN = 256u; // nodes of one level a run covers (8 levels)

// Without PARENS_TREE_FOLD (the kernels the host takes otherwise) only the
// level-0 store is here: those kernels are the same as without a tail.
#ifdef PARENS_TREE_FOLD

// The tree through coherent references (what the fences order; the kernel's
// other buffers, its slices, stay plain).
layout(buffer_reference, std430, buffer_reference_align = 8) coherent buffer TailBic { uvec2 v[]; };

// The partition's level-0 node (invocation 0 of the workgroup).
void parens_tree_store0(uint q, uvec2 total) { TailBic(pc.tree).v[q] = total; }

shared uvec2 sh_tail[2u * TAIL_RUN]; // two rows: a level read, the next written
shared uint sh_tail_last;

void tail_fence() {
  controlBarrier(gl_ScopeWorkgroup, gl_ScopeDevice, gl_StorageSemanticsBuffer | gl_StorageSemanticsShared,
                 gl_SemanticsAcquireRelease);
}

// Whether this workgroup is the last of `members` to take ticket w (after its
// stores; if so, every member's stores are visible to it, and w is 0 again).
bool tail_last_of(uint w, uint members) {
  tail_fence(); // release: this workgroup's nodes before its ticket
  if (gl_LocalInvocationID.x == 0u) {
    bool last = atomicAdd(pc.flags.v[w], 1u) == members - 1u;
    if (last) atomicExchange(pc.flags.v[w], 0u); // every member has taken its ticket
    sh_tail_last = last ? 1u : 0u;
  }
  barrier();
  bool last = sh_tail_last != 0u;
  if (last) tail_fence(); // acquire, the last only (uniform in the workgroup): the members' nodes
  return last;
}

// Levels level + 1 .. level + nlev over run r of level `level` (its nodes
// [r * 256, r * 256 + 256)), from the tree in memory to the tree in memory.
void tail_run(uint r, uint level, uint nlev) {
  uint t = gl_LocalInvocationID.x;
  uint valid = (pc.n1 + (1u << level) - 1u) >> level;
  for (uint i = t; i < TAIL_RUN; i += gl_WorkGroupSize.x) {
    uint x = r * TAIL_RUN + i;
    sh_tail[i] = x < valid ? TailBic(pc.tree).v[parens_tree_off(pc.n1p, level) + x] : uvec2(0u);
  }
  for (uint l = 1u; l <= nlev; l++) {
    barrier();
    uint cnt = TAIL_RUN >> l, src = ((l - 1u) & 1u) * TAIL_RUN, dst = (l & 1u) * TAIL_RUN;
    uint lv = level + l;
    uint valid_l = (pc.n1 + (1u << lv) - 1u) >> lv;
    for (uint i = t; i < cnt; i += gl_WorkGroupSize.x) {
      uvec2 v = bic(sh_tail[src + 2u * i], sh_tail[src + 2u * i + 1u]);
      sh_tail[dst + i] = v;
      uint x = r * cnt + i;
      if (x < valid_l) TailBic(pc.tree).v[parens_tree_off(pc.n1p, lv) + x] = v;
    }
  }
}

// After this workgroup's level-0 node q: the runs it finishes, up to the root.
void parens_tree_tail(uint q) {
  uint level = 0u, idx = q, woff = 0u;
  while (level < pc.levels) { // uniform in the workgroup
    uint valid = (pc.n1 + (1u << level) - 1u) >> level;
    uint run = idx / TAIL_RUN, runs = (valid + TAIL_RUN - 1u) / TAIL_RUN;
    if (!tail_last_of(woff + run, min(TAIL_RUN, valid - run * TAIL_RUN))) return;
    uint nlev = min(8u, pc.levels - level);
    tail_run(run, level, nlev);
    woff += runs;
    level += nlev;
    idx = run;
  }
}

#else

void parens_tree_store0(uint q, uvec2 total) { pc.tree.v[q] = total; }
void parens_tree_tail(uint q) {}

#endif
#endif
