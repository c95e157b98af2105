/* canopy.h: the public interface of canopy's Vulkan compute runtime.
 *
 * canopy runs the scene-processing stages of a 2D vector renderer on the GPU.
 * This header covers the runtime every stage stands on:
 *
 *   - results:   every call returns a cn_result; cn_last_error() holds the message
 *                (which call failed, the VkResult name, file:line). Nothing here
 *                ever calls exit() or abort().
 *   - contexts:  cn_context_create() makes a headless Vulkan context of its own;
 *                cn_context_adopt() wraps a host engine's instance, device and queue.
 *   - buffers:   device-local, upload and readback buffers, addressed on the GPU
 *                through buffer device addresses passed in push constants.
 *   - recording: stages record into a VkCommandBuffer the caller provides
 *                (cn_cmd_begin()/cn_cmd_submit() give one in standalone use).
 *   - timing:    cn_timer writes GPU timestamps between stages.
 *
 * Conventions: cn_<object>_<verb>; outputs last; zero-initialised *_desc structs
 * mean "the defaults". Objects are not thread safe: one thread records into a
 * context at a time.
 *
 * Embedding: the host's VkDevice must be Vulkan 1.2 or newer and have these
 * features enabled (cn_device_features_require() fills them in for you):
 * bufferDeviceAddress, vulkanMemoryModel, vulkanMemoryModelDeviceScope,
 * shaderInt64 (where supported), and subgroupSizeControl/computeFullSubgroups
 * on Vulkan 1.3 where supported. Optional features the host enabled are named
 * in cn_context_adopt_desc.optional_features.
 */
#ifndef CANOPY_H
#define CANOPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

/* CN_API marks the functions canopy exports; everything else is hidden. */
#if defined(_WIN32) && defined(CANOPY_SHARED)
#  ifdef CANOPY_BUILDING
#    define CN_API __declspec(dllexport)
#  else
#    define CN_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__)
#  define CN_API __attribute__((visibility("default")))
#else
#  define CN_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- results */

typedef enum cn_result {
  CN_OK = 0,
  CN_ERROR_INVALID_ARGUMENT, /* a NULL, a size of 0 where one is needed, a bad enum */
  CN_ERROR_VULKAN,           /* a Vulkan call failed; the message names it */
  CN_ERROR_NO_DEVICE,        /* no Vulkan device with what canopy needs */
  CN_ERROR_UNSUPPORTED,      /* the device lacks a feature canopy needs */
  CN_ERROR_OUT_OF_MEMORY,    /* host or device memory exhausted */
  CN_ERROR_DEVICE_LOST,      /* VK_ERROR_DEVICE_LOST: the context is unusable */
  CN_ERROR_TIMEOUT,          /* GPU work did not finish in time */
  CN_ERROR_VALIDATION,       /* the validation layer reported a problem */
  CN_ERROR_IO,               /* a file could not be read or written */
  CN_ERROR_PARSE,            /* malformed input; the message names where */
  CN_ERROR_UNBALANCED,       /* a BEGIN without END, an END without BEGIN, a mismatched pair */
  CN_ERROR_LIMIT,            /* input beyond a documented limit (size, depth, count) */
  CN_ERROR_STATE,            /* a call at the wrong time (pop with nothing pushed, ...) */
  CN_RESULT_COUNT
} cn_result;

/* Short stable name of a result ("CN_ERROR_VULKAN"); never NULL. */
CN_API const char *cn_result_name(cn_result r);

/* The message of the most recent failure on this thread: what failed, why, and
 * where. Valid until the next failing call on the same thread; "" if none. */
CN_API const char *cn_last_error(void);

/* The same message without the source locations ("(svg_load.c:532)") that
 * cn_last_error() carries: what failed and why, for the people using a tool
 * built on canopy. Valid as long as cn_last_error(). */
CN_API const char *cn_last_error_message(void);

/* Records "message (file:line)" as this thread's last error and returns code:
 * for libraries built on canopy (canopy::svg uses it) and host extensions that
 * report through cn_last_error(). cn_error_set() fills in the caller's place. */
CN_API cn_result cn_error_set_at(const char *file, int line, cn_result code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
#define cn_error_set(code, ...) cn_error_set_at(__FILE__, __LINE__, (code), __VA_ARGS__)

/* Clears the message of this thread. */
CN_API void cn_clear_error(void);

/* Name of a VkResult ("VK_ERROR_OUT_OF_DEVICE_MEMORY"); never NULL. */
CN_API const char *cn_vk_result_name(VkResult r);

/* ---------------------------------------------------------------- context */

typedef struct cn_context cn_context;

/* Kernel shapes and other choices that change speed, never results. Every
 * field 0 (or NULL): the library picks per device (from the device's limits
 * and the measurements in docs/PERF.md). Benchmarks and tests set fields to
 * try other shapes; a value the device cannot run is ignored. The library
 * never reads the environment: a host that wants environment knobs reads
 * them itself (the CLI does, see its --help). */
struct cn_parens_tuning; /* cn_parens.h */
struct cn_scan_tuning;   /* cn_scan.h */
#define CN_CLIP_JOIN_DEFAULT 0u /* cn_tuning.bbox_clip_join: chosen by size */
#define CN_CLIP_JOIN_HOP 1u     /* bbox_draws adds what a link leaving a clip partition brings */
#define CN_CLIP_JOIN_NODES 2u   /* a pass over the group nodes (bbox_clip_nodes) gives each its clip box first */
#define CN_SMALL_OFF 0xFFFFFFFFu /* cn_tuning.bins_sub, bins_sg_rounds, bbox_small_max, bins_small_max, pathbox_small_max, bins_rows_max, pathbox_fused_max, pathbox_fold_max, flatten_scan_one_block_max, flatten_write_scan_max, bbox_compact_scan_max, bins_own_fill_from: never that path */
typedef struct cn_tuning {
  /* bbox stage: workgroup size and elements per invocation of the compaction
   * and draws kernels (both the same here; by default the compaction takes
   * four from 2^20 elements, the draws two up to 2^22), workgroup size of
   * bbox_clip_local (powers of two, 32..the device's limit; items 1..8). All
   * three or none. */
  uint32_t bbox_wg, bbox_items, bbox_clip_wg;
  /* bins stage: rounds of 256 elements per chunk of the count matrix (1..64). */
  uint32_t bins_rounds;
  /* binning by subgroups (grids of at most 1024 bins, subgroups of at most
   * 32; cn_bins.h), in subgroup chunks: elements per subgroup chunk of the
   * count matrix (a power of two, 32..4096, a multiple of the subgroup
   * size): that form at any stream size. 0 (the default) or CN_SMALL_OFF:
   * not this form (by default neither form: the workgroup count and fill
   * kernels, faster on the H200 at every measured size, docs/PERF.md). */
  uint32_t bins_sub;
  /* binning by subgroups in workgroup rows: rounds of the workgroup's size
   * per chunk, one count-matrix row per workgroup (1..4): that form at any
   * stream size, unless bins_sub is set. 0 (the default) or CN_SMALL_OFF:
   * never. */
  uint32_t bins_sg_rounds;
  /* scene stage: streams of at most bbox_small_max elements run the bbox
   * stage in one workgroup and one dispatch (bbox_small, instead of about
   * ten), those of at most bins_small_max elements binning (bins_small,
   * instead of three or four), when they fit those kernels' limits
   * (cn_bbox.h, cn_bins.h; bbox_small holds at most 4096 elements). 0: the
   * defaults (4096 and 512, from the H200 measurements in docs/PERF.md);
   * CN_SMALL_OFF: never. */
  uint32_t bbox_small_max, bins_small_max;
  /* path boxes: scenes of at most pathbox_small_max segments and at most as
   * many elements (and at most 2048 paths, 1024 on devices with less than 32
   * KiB of shared memory) run them in one workgroup and one dispatch
   * (pathbox_small, instead of three). 0: the default (1024, from the H200
   * measurements in docs/PERF.md: one workgroup's arithmetic costs more than
   * two dispatches from about 2000 segments on); CN_SMALL_OFF: never. */
  uint32_t pathbox_small_max;
  /* binning: streams of at most bins_rows_max elements on grids of at most
   * 512 bins a row run binning in one dispatch of one workgroup per bin row
   * (bins_rows, before bins_small and the multi-pass kernels are
   * considered), when they fit its limits (cn_bins.h). 0: the default (8192);
   * CN_SMALL_OFF: never. */
  uint32_t bins_rows_max;
  /* path boxes past pathbox_small: scenes of at most pathbox_fused_max
   * elements run the segment and element steps in one dispatch, the last
   * workgroup writing the element boxes (pathbox_fused, two dispatches in all
   * instead of three). 0 (the default) or CN_SMALL_OFF: never (on the H200
   * it is 0.2 - 3.6 µs slower than the three dispatches on every real scene,
   * docs/PERF.md). */
  uint32_t pathbox_fused_max;
  /* scene stage: scenes of at most pathbox_fold_max elements whose bbox
   * stage runs in bbox_small, and whose path boxes take neither
   * pathbox_small nor pathbox_fused, have bbox_small compute the element
   * boxes from the paths' key boxes (one dispatch and barrier fewer than
   * pathbox_elements before it, the same bits). 0: the default (4096, every
   * stream bbox_small takes); CN_SMALL_OFF: never. Where it folds and no
   * caller's passes run beside the stage's (cn_scene_stage_record;
   * cn_scene_gpu frames that do not flatten beside the stage), the segments
   * are folded into the paths' key boxes by other workgroups of
   * bbox_small's dispatch while its one workgroup compacts and matches
   * (bbox_small_segs: one dispatch and barrier fewer again, and the
   * segments' time hidden), unless pathbox_segments_apart. */
  uint32_t pathbox_fold_max;
  /* scene stage, one-workgroup kernels: the workgroup size of bbox_small,
   * on the streams it then holds (at most 8 elements per invocation), and of
   * bins_rows, on grids of at most that many bins a row (powers of two of
   * whole subgroups, 32 up to the device's limit; other values are
   * ignored). 0: the defaults, from the H200 measurements in docs/PERF.md:
   * bbox_small one element per invocation up to 1024 elements (the smallest
   * power of two from 128 that holds the stream), bins_rows 256 up to 2048
   * elements on rows of at most 256 bins, else 1024. Results do not change. */
  uint32_t bbox_small_wg, bins_rows_wg;
  /* flatten: its scans (pair bases, subpath links, line offsets) of more
   * elements than the scan's one-workgroup default covers (16 per invocation)
   * and at most this many run in one workgroup of the device's largest
   * power-of-two size up to 1024, with up to 32 elements per invocation: one
   * dispatch, without the clear and barrier of the look-back state. 0: the
   * default (32 x that workgroup, 32768 on most devices); CN_SMALL_OFF:
   * never. Not used when cn_tuning.scan sets a block shape or two passes. */
  uint32_t flatten_scan_one_block_max;
  /* flatten: scenes of at most this many (element, segment) pairs run no scan
   * between the count and write passes: the count pass adds up each
   * workgroup's lines, the write pass numbers its pairs' lines from those
   * totals and a workgroup scan (one dispatch and barrier fewer; each
   * workgroup of 64 pairs reads the totals of those before it). 0: the
   * default (262144); CN_SMALL_OFF: never. */
  uint32_t flatten_write_scan_max;
  /* cn_scene_gpu frames that flatten with culling (the renderer's): when the
   * last such frame of the scene at the same view and viewport culled
   * nothing, the next one runs flatten's first three passes (element counts,
   * pair bases, line counts) beside the scene stage's three, without culling:
   * the same lines, fewer passes in sequence (the renderer's frames also
   * when culling saved at most 1/16 of the pairs: the same pixels); a frame
   * that culls runs flatten's passes beside binning's (the boxes are complete
   * then), its write pass beside binning's last. true: never (each frame
   * culls and flattens after the stage). */
  bool flatten_no_overlap;
  /* scene stage: where it folds the element boxes into bbox_small
   * (pathbox_fold_max) and no caller's passes run beside it, fold the
   * segments in a dispatch of their own (pathbox_segments, then a barrier)
   * instead of beside bbox_small's compaction and matching. The same bits
   * either way. */
  bool pathbox_segments_apart;
  /* cn_scene_gpu: strokes of paths with curves are flattened in
   * CN_FL_STROKE_SPLIT chunks per segment (cn_flatten_shared.h) when the
   * scene's pairs with the chunks number at most this, else in the most of
   * 8, 4 or 2 chunks that keep them within it, else unsplit. 0: the default
   * (73728, from the H200 measurements in docs/PERF.md: the chunks shorten
   * the longest walk, which bounds small scenes, and cost lanes, which
   * bound large ones: past about one wave of the pair kernel's workgroups
   * fewer chunks are faster); CN_SMALL_OFF: never. */
  uint32_t flatten_split_max;
  /* flatten: scenes of at most this many elements run the element pass and
   * the pair-base scan after it in one dispatch of one workgroup (the
   * device's largest power-of-two size up to 1024, a workgroup scan per row
   * of that many elements): one dispatch and barrier fewer, and in the
   * frames that flatten beside the scene stage the line count and the write
   * pass run beside the stage's second and third passes instead of the third
   * and after the stage. 0: the default (2047, from the H200 measurements in
   * docs/PERF.md); CN_SMALL_OFF: never. */
  uint32_t flatten_setup_fuse_max;
  /* bbox stage, multi-pass kernels: streams of at most this many elements
   * have bbox_compact add up the BEGIN/END counts of the blocks before its
   * own (each workgroup reads up to all of bbox_count's counts) instead of a
   * scan pass between bbox_count and it: one dispatch and barrier fewer, the
   * same results. 0: the default (2^20, from the H200 measurements in
   * docs/PERF.md); CN_SMALL_OFF: never. */
  uint32_t bbox_compact_scan_max;
  /* bbox stage, multi-pass kernels: bbox_compact ORs each BEGIN/END's group
   * byte into its word by an atomic even where the context has 8-bit buffer
   * stores (cn_device_caps.storage_buffer_8bit), which otherwise store the
   * byte. The same results. */
  bool bbox_group_byte_atomics;
  /* bbox stage, multi-pass kernels: where the clip boxes that links leaving
   * bbox_clip_local's partitions bring are added (cn_bbox.h),
   * CN_CLIP_JOIN_*: 0 (the default) in bbox_draws below 2^23 elements, by
   * bbox_clip_nodes from there (from the H200 measurements in
   * docs/PERF.md). The same results. */
  uint32_t bbox_clip_join;
  /* binning, the workgroup fill kernel: streams of at least this many
   * elements run it with own pairs (bins_fill_own, cn_bins.h: an element of
   * at most 4 pairs in a bin slice sets its bits and writes its entries
   * itself, and a round numbers and spreads pairs only when some element has
   * more; a round of small elements only takes two workgroup barriers,
   * one without pairs, instead of five and a pass over the slice). The same
   * results. 0: the default (2^21, from the H200 measurements in
   * docs/PERF.md); CN_SMALL_OFF: never. */
  uint32_t bins_own_fill_from;
  /* binning, the workgroup fill kernels: bins per fill workgroup (a power of
   * two, 32 .. the count kernel's slice of 256 or 512 bins; larger values
   * take the count's). A smaller slice spreads a chunk's pairs over more
   * workgroups (each runs the chunk's rounds with pairs in its count slice).
   * The same results. 0: the default (cn_bins.h). */
  uint32_t bins_fill_slice;
  /* parentheses matching and scans (their headers); the structs pointed to
   * must outlive the context. */
  const struct cn_parens_tuning *parens;
  const struct cn_scan_tuning *scan;
  /* With a timer (cn_bbox_args, cn_scene_stage_args ...): a mark after every
   * pass of the multi-pass bbox stage (compaction's count and scan, each
   * parentheses-matching pass, the clips' local pass, the union pyramid), not
   * only after each stage. The stage's own mark still ends it, so a stage's
   * time is the sum of its spans. Each mark is one more timestamp (about 1.4
   * µs on the H200); results do not change. */
  bool timer_passes;
} cn_tuning;

typedef struct cn_context_desc {
  /* Enable VK_LAYER_KHRONOS_validation and count its messages. Fails with
   * CN_ERROR_UNSUPPORTED when requested and the layer is not installed. */
  bool validation;
  /* Which device: an index into cn_device list order, or a case-insensitive
   * substring of its name. NULL: the best device (discrete > integrated >
   * virtual > CPU). */
  const char *device;
  /* Print each validation message to stderr (default on when validation is on;
   * set quiet to silence). */
  bool quiet;
  /* Seconds cn_cmd_submit() waits for the GPU before CN_ERROR_TIMEOUT. 0: 300. */
  double timeout_s;
  /* A file keeping compiled pipelines between runs (a VkPipelineCache): read
   * at creation when its header matches this device and driver (vendor,
   * device, pipeline cache UUID; a stale, foreign or damaged file is ignored),
   * written back (to a temporary file, then renamed) by cn_context_destroy()
   * when pipelines were built. Its directory must exist. NULL: no cache file.
   * canopy never picks the path itself: tools pass the user's cache directory. */
  const char *pipeline_cache_path;
  /* Ask the driver for each kernel's statistics (registers, spills, shared
   * memory, ...) as it is built, through VK_KHR_pipeline_executable_properties
   * where the device offers it (cn_context_kernel_info()). Off by default:
   * capturing may slow pipeline creation. */
  bool kernel_statistics;
  /* Kernel shapes (NULL: chosen per device). */
  const cn_tuning *tuning;
  /* A budget for the memory canopy allocates on the device (all its buffers
   * together, as the driver sizes them): a cn_buffer_create() that would go
   * past it fails with CN_ERROR_OUT_OF_MEMORY as if the device were full.
   * 0: no budget beyond the device's own. For embedding under a memory cap,
   * and for testing the out-of-memory paths. */
  uint64_t max_device_bytes;
} cn_context_desc;

/* Creates a standalone headless context: its own instance, device, queue and
 * command pool. On failure *out is NULL. */
CN_API cn_result cn_context_create(const cn_context_desc *desc, cn_context **out);

typedef struct cn_context_adopt_desc {
  VkInstance instance;
  VkPhysicalDevice physical_device;
  VkDevice device;
  uint32_t queue_family; /* must support compute */
  VkQueue queue;         /* used only by cn_cmd_submit(); may be VK_NULL_HANDLE */
  uint64_t max_device_bytes; /* as cn_context_desc.max_device_bytes; 0: none */
  /* The device was created with the features canopy needs (see the header
   * comment). canopy checks the physical device supports them; it cannot see
   * what the host enabled. */
  /* The host's pipeline cache, used for every pipeline canopy builds (the host
   * keeps owning it, saving and loading it). VK_NULL_HANDLE: none. */
  VkPipelineCache pipeline_cache;
  const cn_tuning *tuning; /* kernel shapes (NULL: chosen per device) */
  /* Optional features the host enabled on the device, which canopy then uses
   * (CN_DEVICE_FEATURE_* bits; 0: none). A bit the physical device does not
   * support is refused. */
  uint32_t optional_features;
} cn_context_adopt_desc;

/* Optional device features (cn_context_adopt_desc.optional_features):
 *   BUFFER_INT64_ATOMICS: shaderBufferInt64Atomics (Vulkan 1.2 features);
 *     the scan's look-back then takes one 64-bit atomic instead of fences.
 *   SUBGROUP_UNIFORM_CONTROL_FLOW: VK_KHR_shader_subgroup_uniform_control_flow
 *     and its shaderSubgroupUniformControlFlow feature; every kernel then
 *     carries the SubgroupUniformControlFlowKHR execution mode (subgroups
 *     that enter a branch or loop together leave it together: shaders/README.md).
 *   STORAGE_BUFFER_8BIT: storageBuffer8BitAccess (Vulkan 1.2 features); the
 *     bbox compaction then stores each BEGIN/END's group byte instead of an
 *     atomic OR into its word. */
enum {
  CN_DEVICE_FEATURE_BUFFER_INT64_ATOMICS = 1u << 0,
  CN_DEVICE_FEATURE_SUBGROUP_UNIFORM_CONTROL_FLOW = 1u << 1,
  CN_DEVICE_FEATURE_STORAGE_BUFFER_8BIT = 1u << 2,
};

/* Wraps a host application's Vulkan objects. canopy never destroys them; the
 * host keeps them alive until cn_context_destroy(). */
CN_API cn_result cn_context_adopt(const cn_context_adopt_desc *desc, cn_context **out);

/* Replaces the context's tuning (NULL: the per-device defaults) for the
 * recordings that follow (benchmarks sweeping shapes). */
CN_API void cn_context_set_tuning(cn_context *ctx, const cn_tuning *tuning);
/* The tuning in force (the fields the caller set; 0 where the library picks). */
CN_API const cn_tuning *cn_context_tuning(const cn_context *ctx);

/* Waits for the context's own work, frees everything canopy created. NULL is fine. */
CN_API void cn_context_destroy(cn_context *ctx);

/* Fills the Vulkan 1.2 feature struct with what canopy requires, for hosts
 * creating their device; fields already set stay set. */
CN_API void cn_device_features_require(VkPhysicalDeviceVulkan12Features *f12);

/* What canopy reads off the device at start; kernels size themselves from it. */
typedef struct cn_device_caps {
  char name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
  VkPhysicalDeviceType type;
  uint32_t api_version;
  uint32_t driver_version;
  uint32_t vendor_id;
  uint32_t subgroup_size;          /* default subgroup size of compute shaders */
  uint32_t min_subgroup_size, max_subgroup_size;
  bool subgroup_size_control;      /* VK_EXT_subgroup_size_control usable */
  uint32_t max_shared_memory;      /* bytes of workgroup shared memory */
  uint32_t max_workgroup_invocations;
  uint32_t max_workgroup_size[3];
  uint32_t max_workgroup_count[3];
  float timestamp_period_ns;       /* 0 when the queue has no timestamps */
  uint32_t timestamp_valid_bits;
  uint64_t max_allocation_size;
  uint64_t device_local_bytes;     /* the largest device-local heap */
  bool shader_int64;
  bool buffer_int64_atomics;       /* 64-bit atomics on buffers (shaderBufferInt64Atomics), enabled */
  bool storage_buffer_8bit;        /* 8-bit stores to buffers (storageBuffer8BitAccess), enabled */
  /* VK_KHR_shader_subgroup_uniform_control_flow enabled: the kernels carry
   * its execution mode (a subgroup that enters a branch or loop together
   * leaves it together) */
  bool subgroup_uniform_control_flow;
  /* Loop trips an invocation may run in total over all its loops before the
   * driver ends them early; 0: no such limit. llvmpipe (lavapipe) stops every
   * loop of an invocation after 65 535 trips (its loop limiter), which kernels
   * with data-dependent loops size their work against. */
  uint32_t max_loop_iterations;
} cn_device_caps;

CN_API const cn_device_caps *cn_context_caps(const cn_context *ctx);

/* Validation messages of severity warning or error seen so far (0 if off). */
CN_API uint32_t cn_context_validation_count(const cn_context *ctx);
CN_API bool cn_context_validation_enabled(const cn_context *ctx);

CN_API VkDevice cn_context_device(const cn_context *ctx);

/* One statistic the driver reports for a built kernel, as text (an integer,
 * a float or a bool; the name and its meaning are the driver's). */
typedef struct cn_kernel_stat {
  char name[48];
  char value[24];
} cn_kernel_stat;

/* A kernel the context has built: one per (kernel, specialization constants). */
typedef struct cn_kernel_info {
  const char *kernel;  /* the kernel's name (its shaders/<name>.comp) */
  uint32_t spec[8];    /* specialization constants 0 .. nspec-1 (CN_MAX_SPEC_CONSTANTS) */
  uint32_t nspec;
  uint32_t nstats;     /* 0: no statistics (not requested, or not offered by the driver) */
  cn_kernel_stat stats[16];
} cn_kernel_info;

/* Whether this context captures kernel statistics: requested with
 * cn_context_desc.kernel_statistics and offered by the driver. */
CN_API bool cn_context_kernel_statistics(const cn_context *ctx);
/* Kernels built so far, in build order; fills *out for index i < count. */
CN_API uint32_t cn_context_kernel_count(const cn_context *ctx);
CN_API cn_result cn_context_kernel_info(const cn_context *ctx, uint32_t i, cn_kernel_info *out);

/* Devices canopy can see, in the order CANOPY_DEVICE indexes them. Fills at
 * most cap entries of out (may be NULL); *count gets the total. The chosen
 * device of cn_context_create() with the same selection is *chosen. */
CN_API cn_result cn_device_list(const char *select, cn_device_caps *out, uint32_t cap,
                         uint32_t *count, uint32_t *chosen);

/* ---------------------------------------------------------------- buffers */

typedef enum cn_memory {
  CN_MEMORY_DEVICE = 0, /* device-local: what kernels read and write */
  CN_MEMORY_UPLOAD,     /* host-visible, written by the CPU, read by the GPU */
  CN_MEMORY_READBACK,   /* host-visible (cached where possible), written by the GPU */
} cn_memory;

typedef struct cn_buffer {
  VkBuffer buffer;
  VkDeviceMemory memory;
  VkDeviceAddress address; /* what a kernel's push constants receive */
  VkDeviceSize size;
  void *mapped;            /* non-NULL for host-visible memory */
  cn_memory kind;
  VkDeviceSize allocated;  /* the memory it holds (counted against cn_context_desc.max_device_bytes) */
} cn_buffer;

/* Creates a buffer of size bytes (rounded up to 16, at least 16). Storage,
 * transfer source/destination and device address usage. *out is zeroed on failure. */
CN_API cn_result cn_buffer_create(cn_context *ctx, cn_memory kind, VkDeviceSize size, cn_buffer *out);
/* Frees it and zeroes *buf; a zeroed buffer is fine. */
CN_API void cn_buffer_destroy(cn_context *ctx, cn_buffer *buf);
/* Makes sure *buf holds at least size bytes, replacing it (contents lost) when
 * smaller. Grows geometrically so repeated calls do not thrash. */
CN_API cn_result cn_buffer_reserve(cn_context *ctx, cn_memory kind, VkDeviceSize size, cn_buffer *buf);

/* Standalone helpers: copy host memory to a buffer / a buffer to host memory,
 * through a staging buffer when it is not host-visible; each waits for the GPU. */
CN_API cn_result cn_buffer_upload(cn_context *ctx, cn_buffer *dst, VkDeviceSize offset,
                           const void *src, size_t size);
CN_API cn_result cn_buffer_download(cn_context *ctx, const cn_buffer *src, VkDeviceSize offset,
                             void *dst, size_t size);

/* ------------------------------------------------------------- recording */

/* Standalone contexts: a primary command buffer from the context's pool, begun.
 * cn_cmd_submit() ends it, submits it, waits, and frees it (also on failure). */
CN_API cn_result cn_cmd_begin(cn_context *ctx, VkCommandBuffer *out);
CN_API cn_result cn_cmd_submit(cn_context *ctx, VkCommandBuffer cmd);

/* A full compute/transfer memory barrier: all earlier shader and transfer writes
 * become visible to later shader and transfer reads and writes. */
CN_API void cn_cmd_barrier(cn_context *ctx, VkCommandBuffer cmd);
/* Records one workgroup of a kernel that does nothing (no barrier): with a
 * barrier after it, the dispatch floor benchmarks compare stages with. */
CN_API cn_result cn_cmd_dispatch_empty(cn_context *ctx, VkCommandBuffer cmd);
/* Fills size bytes at offset with a 32-bit value (vkCmdFillBuffer). */
CN_API void cn_cmd_fill(cn_context *ctx, VkCommandBuffer cmd, const cn_buffer *buf,
                 VkDeviceSize offset, VkDeviceSize size, uint32_t value);

/* ----------------------------------------------------------------- timing */

typedef struct cn_timer cn_timer;

/* A timer holds up to capacity timestamps per recording. */
CN_API cn_result cn_timer_create(cn_context *ctx, uint32_t capacity, cn_timer **out);
CN_API void cn_timer_destroy(cn_context *ctx, cn_timer *t);
/* Resets the timer inside cmd; call before the first mark of a recording. */
CN_API void cn_timer_reset(cn_context *ctx, cn_timer *t, VkCommandBuffer cmd);
/* Writes a timestamp after all earlier work; label (a string literal or one
 * that outlives the timer's use) names the span that ends here. Marks beyond
 * capacity are ignored and counted. */
CN_API void cn_timer_mark(cn_context *ctx, cn_timer *t, VkCommandBuffer cmd, const char *label);
/* After the recording completed: the number of spans (marks - 1), and for span i
 * its label and nanoseconds. Returns CN_ERROR_UNSUPPORTED without timestamps. */
CN_API cn_result cn_timer_read(cn_context *ctx, cn_timer *t, uint32_t *nspans,
                        const char **labels, double *ns, uint32_t cap);

/* -------------------------------------------------------- utility kernels */

/* dst[i] = base + i for i < n (n < 2^32), as uint32. */
CN_API cn_result cn_iota_record(cn_context *ctx, VkCommandBuffer cmd, VkDeviceAddress dst, uint32_t n, uint32_t base);
/* Copies bytes (a multiple of 16) from src to dst with a compute kernel: the
 * yardstick canopy's benchmarks compare their throughput with. */
CN_API cn_result cn_copy_record(cn_context *ctx, VkCommandBuffer cmd, VkDeviceAddress src, VkDeviceAddress dst,
                         uint64_t bytes);

/* ---------------------------------------------------------------- version */

CN_API const char *cn_version(void);

#ifdef __cplusplus
}
#endif

#endif
