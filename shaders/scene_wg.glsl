// scene_wg.glsl: workgroup-wide helpers of the scene-stage kernels.
// Needs WG_SIZE (the workgroup size constant) declared before inclusion.
#ifndef CN_SCENE_WG_GLSL
#define CN_SCENE_WG_GLSL

shared uint sh_wg_sum[WG_SIZE];

// Exclusive sum of x over the invocations of the workgroup, in local
// invocation order (a Hillis-Steele scan in shared memory, which needs no
// assumption on how invocations map to subgroups); total gets the sum of all.
// Every invocation must call it.
uint wg_exclusive_sum(uint x, out uint total) {
  uint t = gl_LocalInvocationID.x;
  uint incl = x;
  sh_wg_sum[t] = incl;
  for (uint off = 1u; off < WG_SIZE; off <<= 1) {
    barrier();
    uint other = t >= off ? sh_wg_sum[t - off] : 0u;
    barrier();
    incl += other;
    sh_wg_sum[t] = incl;
  }
  barrier();
  total = sh_wg_sum[WG_SIZE - 1u];
  barrier();
  return incl - x;
}

#endif
