// parens_lm_match.glsl: pass 4 of the LOWMARK variant (parens_lm_match.comp)
// and, with PARENS_LM_SINGLE, the low-mark form of SINGLE (parens_lm_single.comp) (see parens_lm.glsl and
// include/canopy/cn_parens.h). Per partition, in three steps with no per-element search:
//   1. walk: each invocation walks its K (16 or 32) elements in registers
//      with a bitmask of the chunk's '(' still open. An element with an open
//      '(' in the chunk gets its index; else it needs the stack entry at
//      depth v = g(i) relative to the partition, and since the chunk's stack
//      is empty, v - start is minus the chunk's running low, d = 0, 1, ...:
//      the element records d, to be patched. The walk also gives the chunk's
//      sum, low mark, bitmask and how many depths (nq) it asks for.
//   2. queries, per chunk, for its nq depths v = start - d: the answer lies in
//      the last chunk u before it whose low mark is below v (a previous-smaller-
//      value search), as the (v - 1 - low_u)-th lowest unmatched '(' of u,
//      found by a bit select in u's mask (sh_mask); or, with no such chunk (v <= 0), in the
//      window before the partition that parens_lm_window wrote. The searches
//      follow the chunks' previous-smaller links (psv[u]: the last chunk before
//      u with a lower low mark), each found once per chunk by binary lifting
//      over min tables in shared memory; the depths of one chunk are asked in
//      decreasing order, so its walk down the links only moves back. Answers
//      go to the chunk's row of sh_ans, or (REG_ANS) to a private array of the
//      invocation, or patch the outputs in registers (see REG_ANS below).
//   3. patch and store: recorded depths become their answers; the outputs
//      leave as 16-byte stores, staged through shared memory (STAGE != 0) so
//      that a subgroup's stores are contiguous, or straight from registers.
//      With REWALK != 0 the first walk records nothing (no K outputs held in
//      registers across step 2) and a second walk after the queries produces
//      each output and stores each quad as it completes (STAGE is then unused).
// With PARENS_LM_SINGLE one workgroup owns the whole input (n <= WG * K, one
// dispatch, no scratch): a depth with no chunk before it answers -1 (the
// stack before the input is empty) instead of reading the window.
// With PARENS_LM_ONEPASS (parens_lm_onepass.comp) the whole variant is this one
// dispatch: the partition takes its id from a counter, publishes its bicyclic
// value and slice as soon as its scans give them (the reduce pass's work), and
// finds its window by looking back over the earlier partitions' published
// values (parens_lm_onepass.glsl) into shared memory: the input is read once and
// there is no tree or window pass.
#define PARENS_NO_PARTITION
#include "parens.glsl"
#include "parens_lm.glsl"
#ifdef PARENS_LM_ONEPASS
#include "parens_lm_onepass.glsl"
#endif

// Bit 0 (STAGE): stage outputs through shared memory for contiguous stores
// (whole partitions); bit 1 (REWALK): walk twice instead of holding the outputs.
layout(constant_id = CN_SPEC_PARENS_MATCH) const uint MATCH_FORM = 0;
const uint STAGE = MATCH_FORM & 1u;
const uint REWALK = MATCH_FORM & 2u;
// Bit 2 (PSV_TABLES): previous-smaller links by binary lifting over min
// tables (log2(WG) levels, a barrier each) instead of subgroup shuffles and
// a search back over the subgroups' minima (one barrier).
const uint PSV_TABLES = MATCH_FORM & 4u;
// Bit 3 (POS_ROWS): each chunk's unmatched '(' as a row of indices in shared
// memory (K + 1 words per chunk) instead of its bitmask and a bit select per
// query.
const uint POS_ROWS = MATCH_FORM & 8u;
// Bit 5 (PSV_LIFT, without PSV_TABLES): the links inside a subgroup by
// binary lifting over shuffled minima (2 log2(subgroup) - 1 shuffles)
// instead of one shuffle per earlier lane.
const uint PSV_LIFT = MATCH_FORM & 32u;
// Bit 4 (WIN_CACHE): the window's first WG entries are loaded with the
// input (one word per invocation, issued before the walk) into shared
// memory, so that a query below the partition's start reads shared memory
// instead of waiting on a dependent global read inside the query loop (the
// deeper entries, on deep input, are still read from the window).
#if defined(PARENS_LM_SINGLE) || defined(PARENS_LM_ONEPASS)
const uint WIN_CACHE = 0u;
#else
const uint WIN_CACHE = MATCH_FORM & 16u;
#endif

// log2(WG): levels of the min tables (WG is a power of two, 32 .. 1024).
const uint LM_LOG = WG >= 1024u ? 10u : WG >= 512u ? 9u : WG >= 256u ? 8u : WG >= 128u ? 7u : WG >= 64u ? 6u : 5u;
// log2 of the largest subgroup the lifted links serve (128 lanes; larger
// subgroups take the shuffle per lane); levels at or above
// log2(gl_SubgroupSize) are skipped at run time.
const uint LM_SG_LOG = 7u;
const uint ROW = LK + 1u; // sh_ans row per chunk: depths 0 .. K (odd stride: no bank conflicts)
const uint MIN_LEVELS = PSV_TABLES != 0u ? LM_LOG : 1u;

// Per partition of the workgroup (LM_PPW of them with PARENS_LM_MULTI, each
// its slice of WG entries at lm_slot() * WG; the other arrays only in forms
// the host runs with one partition per workgroup):
shared int sh_min[MIN_LEVELS * WG * LM_PPW]; // level j, chunk x: min of low marks over chunks (x - 2^j, x]; level 0 = low marks
shared int sh_link[WG * LM_PPW]; // chunk x's low mark (bits 15 up, signed) and 1 + the last chunk before x with a lower one (bits 0-14; 0: none)
shared uint sh_mask[POS_ROWS != 0u ? 1u : WG * LM_PPW]; // chunk x's unmatched '(' (bit j: element j of the chunk)
shared int sh_pos[POS_ROWS != 0u ? WG * (LK + 1u) : 1u]; // POS_ROWS: chunk x's unmatched '(' (indices), lowest first
shared int sh_win[WIN_CACHE != 0u ? WG : 1u]; // WIN_CACHE: window entries 0 .. WG - 1
// Answers outside shared memory (REG_ANS), instead of a row of sh_ans per
// chunk: without sh_ans a workgroup of 32 invocations takes about a fifth of
// the shared memory, and on the H200 lowmark's matching pass with 32 and 64
// invocations is 5-10% faster for it; with 128 and more, and in SINGLE's one
// workgroup, the forms below cost more than they save (docs/PERF.md). Where
// every chunk of the subgroup asks for at most ANS_PRIVATE_MAX depths, the
// answers go to an array of the invocation's own (private memory, indexed by
// depth) and each element that asked reads its answer after the queries;
// else each answer patches the outputs that asked for its depth with a
// select per element (K selects a depth): deep input, whose chunks ask up to
// K + 1 depths each, was slower with the private arrays (most likely as
// every invocation's whole array then outgrows the L1 cache). On
// the H200 at 2^26 (32 x 16) the private array took the matching pass from
// 224 to 176 us on fair-coin input; with selects only above 10 depths it
// was 197, and with the array everywhere 167 but deep input up to 9% slower.
const int ANS_PRIVATE_MAX = 13;
#ifdef PARENS_LM_SINGLE
const bool REG_ANS = false;
#else
const bool REG_ANS = (STAGE | REWALK) == 0u && WG <= 64u;
#endif
// Chunk t's answers at depths start - d, d = 0 .. K (not with REG_ANS); with
// STAGE later the staged outputs.
shared int sh_ans[REG_ANS ? 1u : WG * ROW];

// sh_link's entry: low mark (|low| <= WG * K <= 2^15) and link (< WG <= 1024).
int lm_link(int low, int psv) { return (low << 15) | (psv + 1); }

void main() {
#if defined(PARENS_LM_SINGLE)
  uint q = 0u, t = lm_chunk_id();
#elif defined(PARENS_LM_ONEPASS)
  uint q = lm_onepass_id(), t = lm_chunk_id();
#else
  uint q = cn_group_id() * LM_PPW + lm_slot(), t = lm_chunk_id();
  if (LM_PPW > 1u && q >= pc.n1) return; // the last workgroup's spare subgroups (no workgroup barrier follows)
#endif
  uint part = q * P;
  uint sb = lm_slot() * WG; // the partition's slice of the per-chunk shared arrays
  LmChunk c = lm_load_bits(part, t); // past n: zero bits, i.e. '(' after every real element
  uint base = part + t * LK;
#if !defined(PARENS_LM_SINGLE) && !defined(PARENS_LM_ONEPASS)
  // Past the window's `need` entries this reads words no pass wrote (unused).
  int win_word = WIN_CACHE != 0u ? pc.win.v[q * P + gl_LocalInvocationID.x] : 0;
#endif

  // 1. Walk. o[j] >= 0 is an answer; o[j] = -1 - d asks for depth start - d.
  int o[LK];
  uint mask = 0u;
  int r = 0;
  [[unroll]] for (uint j = 0u; j < LK; j++) {
    int m = findMSB(mask);
    if (REWALK == 0u) o[j] = m >= 0 ? int(base) + m : r - 1; // r = the running low when mask is empty
    bool cl = (c.closes & (1u << j)) != 0u;
    uint popped = mask & ~(1u << (uint(m) & 31u)); // the top removed (mask is 0 when m = -1)
    mask = cl ? popped : mask | (1u << j);
    r += cl ? -1 : 1;
  }
  int sum;
  int start = lm_excl_add(r, sum, part + P > pc.n); // a partial partition's loads branch per chunk
  int low = r - int(bitCount(mask)); // sum - (unmatched '(')
  int low_t = start + low;
  int nq = 1 - low; // depths d = 0 .. -low (the last is unused when only the chunk's end reaches it)
#ifdef PARENS_LM_ONEPASS
  uvec2 value = lm_onepass_publish(q, base, mask, low_t, r - low, sum);
#endif

  // 2. Min tables, links, queries.
  uint row = t * ROW;
  if (POS_ROWS != 0u)
    for (uint m = mask, k = 0u; m != 0u; m &= m - 1u, k++) sh_pos[row + k] = int(base) + findLSB(m);
  else
    sh_mask[sb + t] = mask;
  sh_min[sb + t] = low_t;
#if !defined(PARENS_LM_SINGLE) && !defined(PARENS_LM_ONEPASS)
  if (WIN_CACHE != 0u) sh_win[gl_LocalInvocationID.x] = win_word; // read after the barriers below
#endif
  if (PSV_TABLES != 0u) {
    for (uint j = 1u; j < MIN_LEVELS; j++) {
      barrier();
      uint h = 1u << (j - 1u);
      int v = sh_min[(j - 1u) * WG + t];
      if (t >= h) v = min(v, sh_min[(j - 1u) * WG + t - h]);
      sh_min[j * WG + t] = v;
    }
    barrier();
    int x = int(t) - 1; // skip back over chunks whose low mark is >= low_t
    for (int j = int(MIN_LEVELS) - 1; j >= 0; j--)
      if (x >= 0 && sh_min[uint(j) * WG + uint(x)] >= low_t) x -= 1 << j;
    sh_link[t] = lm_link(low_t, max(x, -1));
  } else {
    // The nearest earlier lane of this subgroup with a lower low mark (lanes
    // are consecutive chunks), else the last chunk below low_t in the nearest
    // earlier subgroup whose minimum is below it.
    uint lane = gl_SubgroupInvocationID, sg = gl_SubgroupSize;
    int sg_low = subgroupMin(low_t);
    if (LM_PPW == 1u && subgroupElect()) sh_sg[gl_SubgroupID] = sg_low;
    int x = -1;
    if (PSV_LIFT != 0u && sg <= (1u << LM_SG_LOG)) {
      // Binary lifting in registers: mt[j] = the minimum over lanes
      // (lane - 2^j, lane] (from lane 0 where that starts before it), then
      // from lane - 1 back by 2^j while that window holds no lower mark:
      // 2 log2(sg) - 1 shuffles.
      int mt[LM_SG_LOG];
      mt[0] = low_t;
      [[unroll]] for (uint j = 1u; j < LM_SG_LOG; j++) {
        uint h = 1u << (j - 1u);
        int up = subgroupShuffle(mt[j - 1u], lane >= h ? lane - h : lane);
        mt[j] = (2u * h < sg && lane >= h) ? min(mt[j - 1u], up) : mt[j - 1u];
      }
      int xl = int(lane) - 1;
      [[unroll]] for (int j = int(LM_SG_LOG) - 1; j >= 0; j--) {
        int w = subgroupShuffle(mt[j], uint(max(xl, 0)));
        if ((1u << uint(j)) < sg && xl >= 0 && w >= low_t) xl -= 1 << j;
      }
      if (xl >= 0) x = int(t) - int(lane) + xl;
    } else {
      // One shuffle per earlier lane (sg - 1).
      for (uint k = 1u; k < sg; k++) {
        int lk = subgroupShuffle(low_t, lane >= k ? lane - k : lane);
        if (x < 0 && lane >= k && lk < low_t) x = int(t - k);
      }
    }
    lm_barrier();
    if (x < 0 && LM_PPW == 1u) { // with several partitions a workgroup's, each is one subgroup
      int s = int(gl_SubgroupID) - 1;
      while (s >= 0 && sh_sg[s] >= low_t) s--;
      if (s >= 0) {
        x = (s + 1) * int(sg) - 1;
        while (sh_min[x] >= low_t) x--; // ends inside subgroup s: its minimum is below low_t
      }
    }
    sh_link[sb + t] = lm_link(low_t, x);
  }
  lm_barrier();
  bool selects = REG_ANS && subgroupMax(nq) > ANS_PRIVATE_MAX; // after the barrier: uniform control flow
#ifdef PARENS_LM_ONEPASS
  lm_onepass_window(q, value); // sh_win1: the stack before the partition
#endif

  // A hop along the links is one shared load: the next chunk's entry holds
  // its low mark and its own link.
  int u = int(t) - 1, e = u >= 0 ? sh_link[sb + uint(u)] : 0, lu = e >> 15; // a chunk, its entry and low mark
  int ans[LK + 1u]; // REG_ANS: the answers by depth d, where `selects` is false
  for (int d = 0; d < nq; d++) {
    int v = start - d;
    while (u >= 0 && lu >= v) {
      u = (e & 0x7FFF) - 1;
      e = u >= 0 ? sh_link[sb + uint(u)] : 0;
      lu = e >> 15;
    }
    int a;
    if (u >= 0 && POS_ROWS != 0u) a = sh_pos[uint(u) * ROW + uint(v - 1 - lu)];
    else if (u >= 0) a = int(part + uint(u) * LK + lm_select_low(sh_mask[sb + uint(u)], uint(v - 1 - lu)));
#if defined(PARENS_LM_SINGLE)
    else a = -1;
#elif defined(PARENS_LM_ONEPASS)
    else a = sh_win1[min(-v, int(P) - 1)]; // -v = P only for an unused depth
#else
    else if (WIN_CACHE != 0u && -v < int(WG)) a = sh_win[-v];
    else a = pc.win.v[q * P + uint(min(-v, int(P) - 1))]; // -v = P only for an unused depth
#endif
    if (!REG_ANS) sh_ans[row + uint(d)] = a;
    else if (selects)
      [[unroll]] for (uint j = 0u; j < LK; j++) o[j] = o[j] == -1 - d ? a : o[j];
    else
      ans[d] = a;
  }
  if (REG_ANS && !selects)
    [[unroll]] for (uint j = 0u; j < LK; j++)
      if (o[j] < 0) o[j] = ans[-1 - o[j]];

  // 3. Patch (each invocation reads its own row; REWALK: in a second walk)
  // and store.
  if (REWALK != 0u) {
    ParensOut4 dst = ParensOut4(pc.dst);
    bool whole = c.count == LK;
    ivec4 quad = ivec4(0);
    mask = 0u;
    r = 0;
    [[unroll]] for (uint j = 0u; j < LK; j++) {
      int m = findMSB(mask);
      int ov = int(base) + m;
      if (m < 0) ov = sh_ans[row + uint(-r)];
      quad[j % 4u] = ov;
      if (j % 4u == 3u && whole) dst.v[base / 4u + j / 4u] = quad;
      if (!whole && j < c.count) pc.dst.v[base + j] = ov;
      bool cl = (c.closes & (1u << j)) != 0u;
      uint popped = mask & ~(1u << (uint(m) & 31u));
      mask = cl ? popped : mask | (1u << j);
      r += cl ? -1 : 1;
    }
    return;
  }
  if (!REG_ANS)
    [[unroll]] for (uint j = 0u; j < LK; j++)
      if (o[j] < 0) o[j] = sh_ans[row + uint(-1 - o[j])];
  if (STAGE != 0u && part + P <= pc.n) {
    // The chunk's outputs go to its own row (read by no other invocation before the barrier).
    [[unroll]] for (uint j = 0u; j < LK; j++) sh_ans[row + j] = o[j];
    barrier();
    ParensOut4 dst = ParensOut4(pc.dst);
    uint lt = gl_LocalInvocationID.x;
    [[unroll]] for (uint i = 0u; i < LK / 4u; i++) {
      uint e = 4u * (i * WG + lt); // element of the partition; chunk e / LK
      uint s = e + e / LK;         // its place in the rows (four in one row)
      dst.v[(part + e) / 4u] = ivec4(sh_ans[s], sh_ans[s + 1u], sh_ans[s + 2u], sh_ans[s + 3u]);
    }
  } else if (c.count == LK) {
    ParensOut4 dst = ParensOut4(pc.dst);
    [[unroll]] for (uint i = 0u; i < LK / 4u; i++)
      dst.v[base / 4u + i] = ivec4(o[4u * i], o[4u * i + 1u], o[4u * i + 2u], o[4u * i + 3u]);
  } else {
    [[unroll]] for (uint j = 0u; j < LK; j++)
      if (j < c.count) pc.dst.v[base + j] = o[j];
  }
}
