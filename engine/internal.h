/* internal.h: what engine/ and stages/ share but users of canopy.h do not see.
 *
 * - cn_context's layout
 * - error reporting: cn_fail() records a message and returns the code;
 *   CN_VK(call) checks a VkResult and records the call's text, its VkResult
 *   name and file:line. Both only return values: cleanup stays with the caller.
 * - kernels: cn_pipeline_get() builds (once) the compute pipeline of a kernel
 *   from its embedded SPIR-V; cn_dispatch() pushes constants and dispatches any
 *   number of workgroups (past 65535 it splits the grid; kernels rebuild the
 *   linear id with cn_group_id() from common.glsl).
 */
#ifndef CN_INTERNAL_H
#define CN_INTERNAL_H

#include "canopy.h"
#include "cn_shared.h"

#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CN_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define CN_MIN(a, b) ((a) < (b) ? (a) : (b))
#define CN_MAX(a, b) ((a) > (b) ? (a) : (b))
#define CN_DIV_UP(a, b) (((a) + (b) - 1) / (b))

/* cn_fail(code, fmt, ...): cn_error_set() under its internal name. */
#define cn_fail(code, ...) cn_error_set_at(__FILE__, __LINE__, (code), __VA_ARGS__)

/* Maps a failed VkResult to a cn_result and records "call failed: VK_...". */
CN_API cn_result cn__vk_fail_at(const char *file, int line, VkResult vr, const char *call);

/* Evaluates a Vulkan call; on failure evaluates to its cn_result (else CN_OK). */
#define CN_VK(call) cn_vk_check_((call), #call, __FILE__, __LINE__)
static inline cn_result cn_vk_check_(VkResult vr, const char *call, const char *file, int line) {
  return vr == VK_SUCCESS ? CN_OK : cn__vk_fail_at(file, line, vr, call);
}

/* Evaluates r once; returns it from the enclosing function when it is an error.
 * Only for functions with nothing to clean up at that point. */
#define CN_TRY(expr)              \
  do {                            \
    cn_result cn_try_ = (expr);   \
    if (cn_try_ != CN_OK) return cn_try_; \
  } while (0)

/* Statistics kept per kernel: the size of cn_kernel_info.stats. */
#define CN_KERNEL_STATS_MAX ((uint32_t)(sizeof(((cn_kernel_info *)0)->stats) / sizeof(cn_kernel_stat)))

/* One built pipeline per (kernel, specialization) pair. */
typedef struct cn_pipeline_entry {
  int kernel;
  uint32_t spec[CN_MAX_SPEC_CONSTANTS];
  uint32_t nspec;
  uint32_t required_subgroup; /* 0: the driver's choice */
  VkPipeline pipeline;
  uint32_t nstats;             /* captured statistics (context's kernel_statistics) */
  cn_kernel_stat *stats;       /* malloc'd, nstats entries */
} cn_pipeline_entry;

struct cn_context {
  VkInstance instance;
  VkPhysicalDevice physical_device;
  VkDevice device;
  VkQueue queue;
  uint32_t queue_family;
  bool owns_device; /* created by cn_context_create(): destroy on exit */

  VkDebugUtilsMessengerEXT messenger;
  bool validation;
  bool quiet;
  uint32_t validation_count;

  VkCommandPool pool;
  VkFence fence;
  uint64_t timeout_ns;
  uint64_t max_device_bytes; /* budget of the buffers' memory; 0: none */
  uint64_t device_bytes;     /* memory the live buffers hold */

  VkPhysicalDeviceMemoryProperties memory_props;
  cn_device_caps caps;

  VkPipelineLayout layout; /* one layout for every kernel: push constants only */
  VkPipelineCache pipeline_cache; /* VK_NULL_HANDLE: none */
  bool owns_pipeline_cache;       /* created here (standalone): destroy, and save to cache_path */
  char *cache_path;               /* the cache file of a standalone context, or NULL */
  uint32_t pipelines_built;       /* built by this context (the cache file is rewritten when > 0) */
  cn_pipeline_entry *pipelines;
  uint32_t npipelines, cap_pipelines;

  PFN_vkCmdDispatchBase cmd_dispatch_base;

  /* VK_KHR_pipeline_executable_properties, when requested and offered. */
  bool kernel_statistics;
  PFN_vkGetPipelineExecutablePropertiesKHR get_executable_properties;
  PFN_vkGetPipelineExecutableStatisticsKHR get_executable_statistics;

  cn_tuning tuning; /* the host's choices; 0 fields: per device */
};

/* Returns the pipeline of kernel with the given specialization constants
 * (constant_id i = spec[i]), building it on first use. */
cn_result cn_pipeline_get(cn_context *ctx, int kernel, const uint32_t *spec, uint32_t nspec,
                          VkPipeline *out);

/* Copies the SPIR-V module in[0 .. nwords) to out (room for nwords +
 * CN_SPIRV_SUCF_EXTRA words) with the SubgroupUniformControlFlowKHR
 * execution mode on every entry point and its OpExtension, each added where
 * the module lacks it; returns the words written, 0 where it is not a SPIR-V
 * 1.3+ module this can edit (then out is undefined). */
#define CN_SPIRV_SUCF_EXTRA 32u
size_t cn__spirv_add_sucf(const uint32_t *in, size_t nwords, uint32_t *out);

/* The pipeline cache of a standalone context (engine/pipeline.c): creates
 * ctx->pipeline_cache from the file at path when its header matches the
 * device (else empty); saving writes it back atomically when pipelines were
 * built, recording no error (false when it could not). Loading never fails
 * because of the file. */
cn_result cn__pipeline_cache_open(cn_context *ctx, const char *path);
bool cn__pipeline_cache_save(cn_context *ctx);

/* Binds pipeline, pushes size bytes of constants (size <= CN_PUSH_MAX) and
 * dispatches groups workgroups along one linear axis. groups == 0 records nothing. */
void cn_dispatch(cn_context *ctx, VkCommandBuffer cmd, VkPipeline pipeline,
                 const void *push, uint32_t size, uint64_t groups);

/* The scene stage's single-workgroup kernels (stages/bbox.c, stages/bins.c):
 * the element counts up to which they run (cn_tuning.bbox_small_max and
 * bins_small_max, else the defaults; 0 when turned off), whether bbox_small
 * takes a stream of n elements and group_bound BEGIN/END, and whether
 * bins_small takes n elements on grid g. bbox_small holds at most 4096
 * elements whatever the tuning (stages/bbox.c, CN__BBOX_SMALL_CELLS). */
#define CN_BBOX_SMALL_DEFAULT 4096u
#define CN_BINS_SMALL_DEFAULT 512u
uint32_t cn__bbox_small_max(const cn_context *ctx);
uint32_t cn__bins_small_max(const cn_context *ctx);
bool cn__bbox_small(const cn_context *ctx, uint64_t n, uint64_t group_bound);
struct cn_bins_grid;
bool cn__bins_small_grid(const cn_context *ctx, uint64_t n, const struct cn_bins_grid *g); /* bins_small */
/* The flatten stage's CPU reference with `split` pairs per segment of a
 * stroke of a curved path (1 to 64; cn_flatten_cpu walks unsplit, the kernels
 * use CN_FL_STROKE_SPLIT): the same lines for any split. */
/* The scene stage's record with hook(user, cmd) called once in each of its
 * phases (the path boxes, the boxes, the bins when it bins), after the
 * barrier that begins it: what the hook records runs beside that phase's
 * passes and before their timer marks (a timestamp waits for the work before
 * it: recorded after the stage's mark, the hook's pass would start only when
 * the phase's own had ended). The hook comes before the phase's first
 * dispatch, except beside a bbox_small of several rows (cn__bbox_from_paths).
 * The caller ends the last phase with a barrier. */
struct cn_scene_stage_args;
/* A caller's passes beside binning's (cn__bins_record_beside): called right
 * before each of binning's passes (after the barrier that begins its
 * phase), last true before its last pass; what it records runs beside that
 * pass. It may also record whole phases of its own (each pass followed by a
 * barrier) before the pass it runs beside. */
typedef cn_result (*cn__beside_fn)(void *user, VkCommandBuffer cmd, bool last);
struct cn_bins_args;
cn_result cn__bins_record_beside(cn_context *ctx, VkCommandBuffer cmd, const struct cn_bins_args *a,
                                 cn__beside_fn beside, void *user);
/* ... and bins_beside(user, ...) beside binning's passes (the boxes are
 * complete by then), where the stage bins. */
cn_result cn__scene_stage_record_hooked(cn_context *ctx, VkCommandBuffer cmd, const struct cn_scene_stage_args *a,
                                        cn_result (*hook)(void *user, VkCommandBuffer cmd), void *user,
                                        cn__beside_fn bins_beside);
/* Whether the stage records a path-box pass before bbox (the hook called
 * beside it; hooked: recorded with a hook): false only where bbox_small_segs
 * folds the segments (never with a hook) and the keys need no pathbox_init
 * (a->path_keys_empty). The stage's phases: this, the bbox phase, and
 * binning where it bins. */
bool cn__scene_stage_path_pass(cn_context *ctx, const struct cn_scene_stage_args *a, bool hooked);
/* Flatten overlapped with the scene stage (stages/scene_gpu.c): a record
 * whose links are ready, split into its passes (the element pass, the
 * pair-base scan, with dashes their lengths and scan, the count pass, the
 * line scan unless the write pass numbers the lines, the write pass), one
 * per step (each must be followed by a barrier before the next); end
 * records the steps left, each with its barrier, then what finishes the
 * elements (after a barrier). end frees the state, also after an error.
 * With culling (cn_flatten_args.cull_boxes) the first step must come after
 * the boxes are complete. step_label names the pass the last step recorded
 * (a timer mark's: "flatten: setup", "flatten: count", ...). */
struct cn_flatten_args;
typedef struct cn__flatten_overlap cn__flatten_overlap;
cn_result cn__flatten_overlap_begin(cn_context *ctx, const struct cn_flatten_args *a, cn__flatten_overlap **out);
cn_result cn__flatten_overlap_step(cn__flatten_overlap *o, VkCommandBuffer cmd);
uint32_t cn__flatten_overlap_steps(const cn__flatten_overlap *o); /* the passes left to record */
const char *cn__flatten_overlap_step_label(const cn__flatten_overlap *o);
cn_result cn__flatten_overlap_end(cn__flatten_overlap *o, VkCommandBuffer cmd);
void cn__flatten_overlap_free(cn__flatten_overlap *o);
struct cn_scene_data;
struct cn_flatten_desc;
struct cn_line;
struct cn_flatten_elem;
cn_result cn__flatten_cpu_split(const struct cn_scene_data *scene, const struct cn_flatten_desc *desc, uint32_t split,
                                struct cn_line **lines, uint32_t *line_count, struct cn_flatten_elem *elems);
/* bins_rows (one workgroup per bin row): the element count up to which it
 * runs (cn_tuning.bins_rows_max, else the default; 0 when turned off) and
 * whether it takes n elements on grid g. */
#define CN_BINS_ROWS_DEFAULT 8192u
uint32_t cn__bins_rows_max(const cn_context *ctx);
bool cn__bins_rows_grid(const cn_context *ctx, uint64_t n, const struct cn_bins_grid *g);
/* Whether the multi-pass binning of n elements on grid g runs by subgroups
 * (bins_sg_count / bins_sg_fill; cn_tuning.bins_sub). */
bool cn__bins_sg_grid(const cn_context *ctx, uint64_t n, const struct cn_bins_grid *g);
/* Path boxes (stages/pathbox.c) in one workgroup and one dispatch
 * (pathbox_small) for scenes of at most cn_tuning.pathbox_small_max segments
 * and elements (else the default) and at most cn__pathbox_small_paths paths
 * (the key boxes it holds in shared memory, by the device's limit): the
 * threshold (0 when turned off) and the workgroup size it runs with for these
 * counts (0: the multi-pass kernels run). */
#define CN_PATHBOX_SMALL_DEFAULT 1024u
/* pathbox_fused (segments, then the last workgroup's element boxes, in one
 * dispatch after pathbox_init) for scenes of at most
 * cn_tuning.pathbox_fused_max elements: the threshold (0 when turned off,
 * the default: slower than the three dispatches on the H200, docs/PERF.md)
 * and its workgroup size for these counts (0: not taken). */
#define CN_PATHBOX_FUSED_DEFAULT 0u
uint32_t cn__pathbox_fused_max(const cn_context *ctx);
uint32_t cn__pathbox_fused_wg(const cn_context *ctx, uint64_t segments, uint64_t elements);
#define CN__PATHBOX_SMALL_PATHS 1024u /* paths per 16 KiB of shared memory */
#define CN__PATHBOX_SMALL_ITEMS 4u    /* segments per invocation and round */
uint32_t cn__pathbox_small_max(const cn_context *ctx);
uint32_t cn__pathbox_small_paths(const cn_context *ctx);
uint32_t cn__pathbox_small_wg(const cn_context *ctx, uint64_t segments, uint64_t elements, uint64_t paths);

/* The scene stage's small scenes (stages/scene_stage.c): the path-box
 * stage's element step folded into bbox_small. cn__pathbox_record_keys
 * records pathbox_init (unless keys_empty: the keys hold empty boxes
 * already) and pathbox_segments only (the paths' key boxes in a->scratch, no
 * element boxes), or with init_only pathbox_init alone (no barrier after
 * it; the segments then go to bbox_small_segs, below);
 * cn__bbox_record_from_paths then records bbox_small
 * starting from the scene's elements and those keys, writing tags and the
 * element boxes (a->tags, a->boxes) as pathbox_elements would, and leaving
 * the keys empty again for the next frame.
 * cn__scene_fold_max: the element count up to which the scene stage does so
 * (cn_tuning.pathbox_fold_max, else the default; 0 when turned off). */
typedef struct cn__bbox_from_paths {
  VkDeviceAddress elements, paths, transforms, strokes;
  VkDeviceAddress keys; /* the key boxes: 16-byte aligned, less than 4 GiB past the bbox scratch */
  uint32_t path_count, transform_count, stroke_count;
  /* segments != 0: bbox_small_segs folds them into the keys in the same
   * dispatch (the keys must hold empty boxes and the ivec4 after them 0,
   * as pathbox_init leaves them; cn__bbox_small_segs says where it runs),
   * instead of pathbox_segments before it */
  VkDeviceAddress segments;
  uint32_t segment_count;
  /* the caller's pass beside bbox_small (no barrier between; may be NULL):
   * recorded before its dispatch, or after it where the stream takes more
   * than one row of the workgroup (the one workgroup is then the long pass
   * and takes an SM first) */
  cn_result (*beside)(void *user, VkCommandBuffer cmd);
  void *beside_user;
} cn__bbox_from_paths;
struct cn_pathbox_args;
struct cn_bbox_args;
cn_result cn__pathbox_record_keys(cn_context *ctx, VkCommandBuffer cmd, const struct cn_pathbox_args *a,
                                  bool keys_empty, bool init_only);
cn_result cn__bbox_record_from_paths(cn_context *ctx, VkCommandBuffer cmd, const struct cn_bbox_args *a,
                                     const cn__bbox_from_paths *from);
/* Whether bbox_small_segs takes a stream of n elements and group_bound
 * group nodes (bbox_small does, and the counts and scratch offsets fit its
 * packed push block). */
bool cn__bbox_small_segs(cn_context *ctx, uint64_t n, uint64_t group_bound);
#define CN_PATHBOX_FOLD_DEFAULT 4096u
uint32_t cn__scene_fold_max(const cn_context *ctx);
/* Where the scene stage puts the key boxes when it folds (their byte offset
 * in its scratch, past the bbox scratch), 0 when it does not fold. */
uint64_t cn__scene_fold_keys_at(cn_context *ctx, uint64_t n, uint64_t group_bound, uint64_t segments,
                                uint64_t paths);

/* Highest power of two <= x (x > 0). */
static inline uint32_t cn_floor_pow2(uint32_t x) {
  uint32_t p = 1;
  while (p <= x / 2) p *= 2;
  return p;
}

#ifdef __cplusplus
}
#endif

#endif
