/* test_engine.c: the runtime: errors, device selection, buffers, split
 * dispatches, timers, validation counting, and adopting a host's device. */
#include "test.h"
#include "internal.h" /* white-box: CN_VK, the SPIR-V edit */
#include "kernels.gen.h"

#include <ctype.h>
#include <strings.h>
#include <unistd.h>

TEST(result_names) {
  CHECK(strcmp(cn_result_name(CN_OK), "CN_OK") == 0);
  CHECK(strcmp(cn_result_name(CN_ERROR_UNBALANCED), "CN_ERROR_UNBALANCED") == 0);
  CHECK(strcmp(cn_result_name((cn_result)999), "CN_RESULT_UNKNOWN") == 0);
  CHECK(strcmp(cn_vk_result_name(VK_ERROR_OUT_OF_DEVICE_MEMORY), "VK_ERROR_OUT_OF_DEVICE_MEMORY") == 0);
}

static VkResult fake_vkAllocate(int x) { return x ? VK_ERROR_OUT_OF_HOST_MEMORY : VK_SUCCESS; }

TEST(error_message_names_call_result_and_place) {
  cn_result r = CN_VK(VK_ERROR_DEVICE_LOST);
  CHECK(r == CN_ERROR_DEVICE_LOST);
  CHECK_STR_CONTAINS(cn_last_error(), "VK_ERROR_DEVICE_LOST failed: VK_ERROR_DEVICE_LOST (test_engine.c:");
  r = CN_VK(fake_vkAllocate(3));
  CHECK(r == CN_ERROR_OUT_OF_MEMORY);
  CHECK_STR_CONTAINS(cn_last_error(), "fake_vkAllocate failed: VK_ERROR_OUT_OF_HOST_MEMORY (test_engine.c:");
  cn_clear_error();
  CHECK(cn_last_error()[0] == 0);
}

TEST(error_message_for_people_has_no_locations) {
  cn_error_set(CN_ERROR_PARSE, "line %d: bad", 3);
  CHECK_STR_CONTAINS(cn_last_error(), "line 3: bad (test_engine.c:");
  CHECK(strcmp(cn_last_error_message(), "line 3: bad") == 0);
  /* A message formatted around an earlier one loses both locations. */
  cn_error_set(CN_ERROR_IO, "loading a.svg: %s", cn_last_error());
  CHECK(strcmp(cn_last_error_message(), "loading a.svg: line 3: bad") == 0);
  /* Parentheses that are not locations stay. */
  cn_error_set(CN_ERROR_PARSE, "rgb(1,2,3) (x.c) (a.c:) (b.c:1x) (c.cc:1)");
  CHECK(strcmp(cn_last_error_message(), "rgb(1,2,3) (x.c) (a.c:) (b.c:1x) (c.cc:1)") == 0);
  cn_clear_error();
  CHECK(cn_last_error_message()[0] == 0);
}

/* Writes size bytes to path. */
static void put_file(const char *path, const void *data, size_t size) {
  FILE *f = fopen(path, "wb");
  if (f) fwrite(data, 1, size, f), fclose(f);
}

/* Runs the copy kernel on ctx (builds one pipeline). */
static void use_a_pipeline(cn_context *ctx) {
  cn_buffer a, b;
  CHECK_OK(cn_buffer_create(ctx, CN_MEMORY_DEVICE, 256, &a));
  CHECK_OK(cn_buffer_create(ctx, CN_MEMORY_DEVICE, 256, &b));
  VkCommandBuffer cmd;
  CHECK_OK(cn_cmd_begin(ctx, &cmd));
  CHECK_OK(cn_copy_record(ctx, cmd, a.address, b.address, 256));
  CHECK_OK(cn_cmd_submit(ctx, cmd));
  cn_buffer_destroy(ctx, &a);
  cn_buffer_destroy(ctx, &b);
}

/* The file's header is VkPipelineCacheHeaderVersionOne of this device. */
static bool cache_file_valid(const char *path, uint32_t vendor) {
  uint32_t h[8] = {0};
  FILE *f = fopen(path, "rb");
  if (!f) return false;
  size_t got = fread(h, 1, sizeof h, f);
  fclose(f);
  return got == sizeof h && h[0] >= 32 && h[1] == VK_PIPELINE_CACHE_HEADER_VERSION_ONE && h[2] == vendor;
}

TEST(pipeline_cache_file) {
  char dir[] = "/tmp/canopy-cache-test-XXXXXX";
  if (!mkdtemp(dir)) { CHECK(!"mkdtemp"); return; }
  char path[128];
  snprintf(path, sizeof path, "%s/pipelines.bin", dir);
  cn_context_desc desc = {.validation = true, .quiet = true, .pipeline_cache_path = path};
  /* No file: created at destroy, with this device's header. */
  cn_context *ctx = NULL;
  CHECK_OK(cn_context_create(&desc, &ctx));
  if (!ctx) return;
  uint32_t vendor = cn_context_caps(ctx)->vendor_id;
  use_a_pipeline(ctx);
  CHECK_EQ_U64(cn_context_validation_count(ctx), 0);
  cn_context_destroy(ctx);
  CHECK(cache_file_valid(path, vendor));
  /* A valid file is loaded (and written back). */
  CHECK_OK(cn_context_create(&desc, &ctx));
  use_a_pipeline(ctx);
  CHECK_EQ_U64(cn_context_validation_count(ctx), 0);
  cn_context_destroy(ctx);
  CHECK(cache_file_valid(path, vendor));
  /* Damaged, truncated, foreign (another vendor's header) and empty files are
   * ignored: the context works and writes a good file back. */
  uint32_t foreign[12] = {48, VK_PIPELINE_CACHE_HEADER_VERSION_ONE, vendor + 1, 7, 1, 2, 3, 4, 5, 6, 7, 8};
  const char garbage[] = "this is not a pipeline cache, but it is long enough to look like one";
  struct { const void *data; size_t size; } bad[] = {{garbage, sizeof garbage}, {foreign, 10}, {foreign, sizeof foreign}, {"", 0}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    put_file(path, bad[i].data, bad[i].size);
    ctx = NULL;
    CHECK_OK(cn_context_create(&desc, &ctx));
    if (!ctx) continue;
    use_a_pipeline(ctx);
    CHECK_EQ_U64(cn_context_validation_count(ctx), 0);
    cn_context_destroy(ctx);
    CHECK(cache_file_valid(path, vendor));
  }
  /* A directory that does not exist: the context works, nothing is written. */
  char missing[160];
  snprintf(missing, sizeof missing, "%s/no/such/dir/pipelines.bin", dir);
  desc.pipeline_cache_path = missing;
  CHECK_OK(cn_context_create(&desc, &ctx));
  if (ctx) use_a_pipeline(ctx), cn_context_destroy(ctx);
  CHECK(access(missing, F_OK) != 0);
  remove(path);
  rmdir(dir);
}

TEST(device_selection) {
  cn_device_caps devs[8];
  uint32_t n = 0, chosen = 99;
  CHECK_OK(cn_device_list(NULL, devs, 8, &n, &chosen));
  CHECK(n >= 1);
  CHECK(chosen < n);
  CHECK_OK(cn_device_list("0", devs, 8, &n, &chosen));
  CHECK_EQ_U64(chosen, 0);
  /* a name, in any case: the last device's name in capitals (the first device
   * of that name is chosen; lavapipe's is "llvmpipe (LLVM ...)") */
  if (n >= 1 && n <= 8) {
    char name[sizeof devs[0].name];
    snprintf(name, sizeof name, "%s", devs[n - 1].name);
    for (char *c = name; *c; c++) *c = (char)toupper((unsigned char)*c);
    CHECK_OK(cn_device_list(name, devs, 8, &n, &chosen));
    CHECK(chosen < n && strcasecmp(devs[chosen].name, name) == 0);
  }
  cn_context *ctx = NULL;
  cn_result r = cn_context_create(&(cn_context_desc){.device = "77"}, &ctx);
  CHECK(r == CN_ERROR_NO_DEVICE);
  CHECK(ctx == NULL);
  CHECK_STR_CONTAINS(cn_last_error(), "no Vulkan device matches \"77\"");
}

TEST(caps_are_queried) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  const cn_device_caps *c = cn_context_caps(ctx);
  CHECK(c->subgroup_size >= 1 && (c->subgroup_size & (c->subgroup_size - 1)) == 0);
  CHECK(c->max_shared_memory >= 16384);
  CHECK(c->max_workgroup_invocations >= 128);
  CHECK(c->timestamp_valid_bits > 0);
  CHECK(cn_context_validation_enabled(ctx));
}

TEST(buffer_roundtrip) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  enum { N = 100000 };
  uint32_t *in = malloc(N * 4), *out = malloc(N * 4);
  for (uint32_t i = 0; i < N; i++) in[i] = (uint32_t)test_rand();
  cn_buffer b;
  CHECK_OK(cn_buffer_create(ctx, CN_MEMORY_DEVICE, N * 4, &b));
  CHECK(b.address != 0);
  CHECK_OK(cn_buffer_upload(ctx, &b, 0, in, N * 4));
  memset(out, 0, N * 4);
  CHECK_OK(cn_buffer_download(ctx, &b, 0, out, N * 4));
  CHECK(memcmp(in, out, N * 4) == 0);
  /* Out of range is refused, not clamped. */
  CHECK(cn_buffer_upload(ctx, &b, 8, in, N * 4) == CN_ERROR_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(cn_last_error(), "exceeds buffer size");
  /* reserve keeps a large enough buffer and grows a small one. */
  VkBuffer before = b.buffer;
  CHECK_OK(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, 1000, &b));
  CHECK(b.buffer == before);
  CHECK_OK(cn_buffer_reserve(ctx, CN_MEMORY_DEVICE, N * 8, &b));
  CHECK(b.size >= N * 8);
  cn_buffer_destroy(ctx, &b);
  CHECK(b.buffer == VK_NULL_HANDLE);
  free(in);
  free(out);
}

/* Device buffers of 512 KiB or more take memory in whole 2 MiB units (see
 * engine/memory.c), smaller ones and host-visible ones what Vulkan requires;
 * `allocated` says which, and the context's budget counts it. */
TEST(buffer_allocation_sizes) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  const VkDeviceSize MiB = 1 << 20;
  const struct { cn_memory kind; VkDeviceSize size, lo, hi; } cases[] = {
      {CN_MEMORY_DEVICE, 100 << 10, 100 << 10, 512 << 10}, /* below the threshold: as required */
      {CN_MEMORY_DEVICE, 512 << 10, 2 * MiB, 2 * MiB},
      {CN_MEMORY_DEVICE, 600 << 10, 2 * MiB, 2 * MiB},
      {CN_MEMORY_DEVICE, 2 * MiB, 2 * MiB, 2 * MiB},
      {CN_MEMORY_DEVICE, 2 * MiB + 16, 4 * MiB, 4 * MiB},
      {CN_MEMORY_DEVICE, 5 * MiB + (1 << 10), 6 * MiB, 6 * MiB},
      {CN_MEMORY_READBACK, 600 << 10, 600 << 10, 2 * MiB - 1}, /* host-visible: not rounded */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cn_buffer b = {0};
    CHECK_OK(cn_buffer_create(ctx, cases[i].kind, cases[i].size, &b));
    if (b.allocated < cases[i].lo || b.allocated > cases[i].hi)
      fprintf(stderr, "  case %zu: %llu bytes asked, %llu allocated, want %llu..%llu\n", i,
              (unsigned long long)cases[i].size, (unsigned long long)b.allocated, (unsigned long long)cases[i].lo,
              (unsigned long long)cases[i].hi);
    CHECK(b.allocated >= cases[i].lo && b.allocated <= cases[i].hi);
    CHECK(b.size >= cases[i].size);
    cn_buffer_destroy(ctx, &b);
  }
}

/* More workgroups than one row of a split dispatch: ids must stay linear. */
TEST(split_dispatch_covers_every_group) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  const uint32_t n = (CN_GROUPS_X + 3) * 64 + 5;
  cn_buffer b, rb;
  CHECK_OK(cn_buffer_create(ctx, CN_MEMORY_DEVICE, (uint64_t)n * 4, &b));
  CHECK_OK(cn_buffer_create(ctx, CN_MEMORY_READBACK, (uint64_t)n * 4, &rb));
  VkCommandBuffer cmd;
  CHECK_OK(cn_cmd_begin(ctx, &cmd));
  cn_cmd_fill(ctx, cmd, &b, 0, (uint64_t)n * 4, 0xFFFFFFFF);
  cn_cmd_barrier(ctx, cmd);
  CHECK_OK(cn_iota_record(ctx, cmd, b.address, n - 1, 7)); /* last element stays untouched */
  cn_cmd_barrier(ctx, cmd);
  CHECK_OK(cn_cmd_submit(ctx, cmd));
  uint32_t *out = malloc((size_t)n * 4);
  CHECK_OK(cn_buffer_download(ctx, &b, 0, out, (size_t)n * 4));
  uint32_t bad = 0;
  for (uint32_t i = 0; i + 1 < n; i++) bad += out[i] != 7 + i;
  CHECK_EQ_U64(bad, 0);
  CHECK_EQ_U64(out[n - 1], 0xFFFFFFFF);
  free(out);
  cn_buffer_destroy(ctx, &b);
  cn_buffer_destroy(ctx, &rb);
}

TEST(copy_kernel) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  const uint32_t words = 3 * 1024 + 17; /* 16-byte words: partial last group */
  cn_buffer a, b;
  CHECK_OK(cn_buffer_create(ctx, CN_MEMORY_DEVICE, words * 16ull, &a));
  CHECK_OK(cn_buffer_create(ctx, CN_MEMORY_DEVICE, words * 16ull + 16, &b));
  uint32_t *in = malloc(words * 16), *out = malloc(words * 16 + 16);
  for (uint32_t i = 0; i < words * 4; i++) in[i] = (uint32_t)test_rand();
  CHECK_OK(cn_buffer_upload(ctx, &a, 0, in, words * 16));
  VkCommandBuffer cmd;
  CHECK_OK(cn_cmd_begin(ctx, &cmd));
  cn_cmd_fill(ctx, cmd, &b, 0, words * 16ull + 16, 0x12345678);
  cn_cmd_barrier(ctx, cmd);
  CHECK_OK(cn_copy_record(ctx, cmd, a.address, b.address, words * 16ull));
  CHECK(cn_copy_record(ctx, cmd, a.address, b.address, 8) == CN_ERROR_INVALID_ARGUMENT);
  cn_cmd_barrier(ctx, cmd);
  CHECK_OK(cn_cmd_submit(ctx, cmd));
  CHECK_OK(cn_buffer_download(ctx, &b, 0, out, words * 16 + 16));
  CHECK(memcmp(in, out, words * 16) == 0);
  CHECK_EQ_U64(out[words * 4], 0x12345678); /* nothing written past the end */
  free(in);
  free(out);
  cn_buffer_destroy(ctx, &a);
  cn_buffer_destroy(ctx, &b);
}

TEST(timer_spans) {
  cn_context *ctx = test_context();
  if (!ctx) return;
  cn_timer *t;
  CHECK_OK(cn_timer_create(ctx, 8, &t));
  cn_buffer b;
  CHECK_OK(cn_buffer_create(ctx, CN_MEMORY_DEVICE, 1 << 20, &b));
  VkCommandBuffer cmd;
  CHECK_OK(cn_cmd_begin(ctx, &cmd));
  cn_timer_reset(ctx, t, cmd);
  cn_timer_mark(ctx, t, cmd, "start");
  CHECK_OK(cn_iota_record(ctx, cmd, b.address, 1 << 18, 0));
  cn_cmd_barrier(ctx, cmd);
  cn_timer_mark(ctx, t, cmd, "iota");
  cn_cmd_fill(ctx, cmd, &b, 0, 1 << 20, 0);
  cn_cmd_barrier(ctx, cmd);
  cn_timer_mark(ctx, t, cmd, "fill");
  CHECK_OK(cn_cmd_submit(ctx, cmd));
  const char *labels[4];
  double ns[4];
  uint32_t spans = 0;
  CHECK_OK(cn_timer_read(ctx, t, &spans, labels, ns, 4));
  CHECK_EQ_U64(spans, 2);
  if (spans == 2) {
    CHECK(strcmp(labels[0], "iota") == 0 && strcmp(labels[1], "fill") == 0);
    CHECK(ns[0] >= 0 && ns[0] < 10e9 && ns[1] >= 0 && ns[1] < 10e9);
  }
  cn_buffer_destroy(ctx, &b);
  cn_timer_destroy(ctx, t);
}

/* The validation check of every test must be able to fail: misuse on purpose. */
TEST(validation_messages_are_counted) {
  cn_context *ctx = NULL;
  CHECK_OK(cn_context_create(&(cn_context_desc){.validation = true, .quiet = true}, &ctx));
  if (!ctx) return;
  CHECK_EQ_U64(cn_context_validation_count(ctx), 0);
  VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = 64, .usage = 0};
  VkBuffer buf = VK_NULL_HANDLE;
  VkResult vr = vkCreateBuffer(cn_context_device(ctx), &bci, NULL, &buf); /* usage 0 is invalid */
  if (vr == VK_SUCCESS) vkDestroyBuffer(cn_context_device(ctx), buf, NULL);
  CHECK(cn_context_validation_count(ctx) > 0);
  VkCommandBuffer cmd;
  CHECK_OK(cn_cmd_begin(ctx, &cmd));
  CHECK(cn_cmd_submit(ctx, cmd) == CN_ERROR_VALIDATION);
  cn_context_destroy(ctx);
}

/* ------------------------------------------------------------ SPIR-V edit */

/* Appends SPIR-V instruction words: an opcode with its operands, or with a
 * string operand (nul-terminated, padded to whole words) after them. */
static size_t spv_op(uint32_t *w, size_t at, uint32_t op, const uint32_t *ops, uint32_t nops, const char *str) {
  uint32_t sw = str ? (uint32_t)(strlen(str) + 4) / 4 : 0;
  w[at] = (1 + nops + sw) << 16 | op;
  for (uint32_t i = 0; i < nops; i++) w[at + 1 + i] = ops[i];
  if (str) {
    memset(&w[at + 1 + nops], 0, sw * 4);
    memcpy(&w[at + 1 + nops], str, strlen(str));
  }
  return at + 1 + nops + sw;
}

/* A small module (capability, extension, import, memory model, entry point,
 * LocalSize, a name, a type) gets the OpExtension after the extensions and
 * the mode after LocalSize; once there, a second edit changes nothing. */
TEST(spirv_subgroup_uniform_control_flow) {
  uint32_t in[64], want[96], out[64 + CN_SPIRV_SUCF_EXTRA], again[64 + 2 * CN_SPIRV_SUCF_EXTRA];
  const uint32_t head[5] = {0x07230203u, 0x00010500u, 0, 8, 0};
  const uint32_t cap[1] = {1}, imp[1] = {1}, mm[2] = {5348, 1}, ep[2] = {5, 4}, ls[5] = {4, 17, 64, 1, 1};
  const uint32_t nm[1] = {4}, ty[1] = {2}, mode[2] = {4, 4421};
  size_t n = 5, m = 5;
  memcpy(in, head, sizeof head);
  memcpy(want, head, sizeof head);
  n = spv_op(in, n, 17, cap, 1, NULL);
  m = spv_op(want, m, 17, cap, 1, NULL);
  n = spv_op(in, n, 10, NULL, 0, "SPV_KHR_vulkan_memory_model");
  m = spv_op(want, m, 10, NULL, 0, "SPV_KHR_vulkan_memory_model");
  m = spv_op(want, m, 10, NULL, 0, "SPV_KHR_subgroup_uniform_control_flow");
  n = spv_op(in, n, 11, imp, 1, "GLSL.std.450");
  m = spv_op(want, m, 11, imp, 1, "GLSL.std.450");
  n = spv_op(in, n, 14, mm, 2, NULL);
  m = spv_op(want, m, 14, mm, 2, NULL);
  n = spv_op(in, n, 15, ep, 2, "main");
  m = spv_op(want, m, 15, ep, 2, "main");
  n = spv_op(in, n, 16, ls, 5, NULL);
  m = spv_op(want, m, 16, ls, 5, NULL);
  m = spv_op(want, m, 16, mode, 2, NULL);
  n = spv_op(in, n, 5, nm, 1, "main");
  m = spv_op(want, m, 5, nm, 1, "main");
  n = spv_op(in, n, 19, ty, 1, NULL);
  m = spv_op(want, m, 19, ty, 1, NULL);
  CHECK_EQ_U64(m, n + 14);
  size_t got = cn__spirv_add_sucf(in, n, out);
  CHECK_EQ_U64(got, m);
  CHECK(got == m && memcmp(out, want, m * 4) == 0);
  CHECK_EQ_U64(cn__spirv_add_sucf(out, got, again), m);
  CHECK(memcmp(again, want, m * 4) == 0);

  /* what it refuses: no magic, SPIR-V 1.2, an instruction past the end, a zero length */
  uint32_t bad[64];
  memcpy(bad, in, n * 4);
  bad[0] = 0x03022307u;
  CHECK_EQ_U64(cn__spirv_add_sucf(bad, n, out), 0);
  memcpy(bad, in, n * 4);
  bad[1] = 0x00010200u;
  CHECK_EQ_U64(cn__spirv_add_sucf(bad, n, out), 0);
  CHECK_EQ_U64(cn__spirv_add_sucf(in, 7, out), 0); /* the OpExtension's words cut off */
  memcpy(bad, in, n * 4);
  bad[5] = 17; /* OpCapability of length 0 */
  CHECK_EQ_U64(cn__spirv_add_sucf(bad, n, out), 0);
}

/* Every kernel takes the edit: 14 words more, one mode per entry point, the
 * rest of the module as it was. */
TEST(spirv_kernels_take_the_mode) {
  uint32_t bad = 0;
  for (int k = 0; k < CN_KERNEL_COUNT; k++) {
    const uint32_t *in = (const uint32_t *)(const void *)cn_kernel_table[k].code;
    size_t n = *cn_kernel_table[k].size / 4;
    uint32_t *out = malloc((n + CN_SPIRV_SUCF_EXTRA) * 4);
    if (!out) { CHECK(!"out of memory"); return; }
    size_t got = cn__spirv_add_sucf(in, n, out);
    uint32_t modes = 0, exts = 0;
    size_t at = 5;
    while (got && at < got) {
      uint32_t op = out[at] & 0xFFFFu, len = out[at] >> 16;
      if (!len) break;
      modes += op == 16 && len == 3 && out[at + 2] == 4421;
      exts += op == 10 && memcmp(&out[at + 1], "SPV_KHR_subgroup_uniform_control_flow", 38) == 0;
      at += len;
    }
    size_t body = 5; /* the first instruction past the entry points' modes */
    while (body < n) {
      uint32_t op = in[body] & 0xFFFFu;
      if (!(op == 17 || op == 10 || op == 11 || op == 14 || op == 15 || op == 16 || op == 331) || !(in[body] >> 16)) break;
      body += in[body] >> 16;
    }
    bool ok = got == n + 14 && at == got && modes == 1 && exts == 1 && memcmp(out, in, 20) == 0 && body < n &&
              memcmp(out + body + 14, in + body, (n - body) * 4) == 0; /* the rest as it was */
    if (!ok) fprintf(stderr, "kernel %s: %zu of %zu words, %u modes, %u extensions\n", cn_kernel_table[k].name, got,
                     n, modes, exts);
    bad += !ok;
    free(out);
  }
  CHECK_EQ_U64(bad, 0);
}

/* The ids a kernel must not write through: every value whose type is a
 * pointer to a block with a NonWritable member (a `readonly` buffer or
 * buffer reference), or a variable decorated NonWritable, and every pointer
 * derived from one (access chains, copies, selects, phis). A store or an
 * atomic through one is undefined behaviour that lavapipe runs as written,
 * while another driver may cache or re-load what it takes for read-only
 * data. Returns the number of such writes in the module. */
static uint32_t spirv_writes_to_nonwritable(const uint32_t *w, size_t n, uint32_t bound) {
  uint8_t *nw = calloc(bound, 1), *ptype = calloc(bound, 1), *val = calloc(bound, 1);
  uint32_t writes = 0;
  if (!nw || !ptype || !val) {
    free(nw), free(ptype), free(val);
    return UINT32_MAX;
  }
  for (int pass = 0; pass < 8; pass++) { /* a fixpoint: phis may name later ids */
    bool grew = false;
    for (size_t at = 5; at < n;) {
      uint32_t op = w[at] & 0xFFFFu, len = w[at] >> 16;
      if (!len || len > n - at) break;
      const uint32_t *i = &w[at];
#define MARK(set, id)                     \
  do {                                    \
    if ((id) < bound && !(set)[id]) {     \
      (set)[id] = 1;                      \
      grew = true;                        \
    }                                     \
  } while (0)
#define IS(set, id) ((id) < bound && (set)[id])
      if (op == 72 && len >= 4 && i[3] == 24) MARK(nw, i[1]);      /* OpMemberDecorate .. NonWritable */
      if (op == 71 && len >= 3 && i[2] == 24) MARK(val, i[1]);      /* OpDecorate .. NonWritable */
      if (op == 32 && len >= 4 && IS(nw, i[3])) MARK(ptype, i[1]);  /* OpTypePointer */
      /* any result of such a type (not the types, names and decorations,
       * whose first operand is an id but whose second is none) */
      bool no_result = (op >= 19 && op <= 39) || op == 322 || op == 327 || op == 5341 || op == 5 || op == 6 ||
                       op == 71 || op == 72 || op == 332 || op == 5632 || op == 5633;
      if (!no_result && len >= 3 && IS(ptype, i[1])) MARK(val, i[2]);
      if ((op == 65 || op == 66 || op == 67 || op == 70 || op == 83 || op == 124) && len >= 4 && IS(val, i[3]))
        MARK(val, i[2]); /* access chains, OpCopyObject, OpBitcast */
      if (op == 169 && len >= 6 && (IS(val, i[4]) || IS(val, i[5]))) MARK(val, i[2]); /* OpSelect */
      if (op == 245)                                                                   /* OpPhi */
        for (uint32_t k = 3; k + 1 < len; k += 2)
          if (IS(val, i[k])) MARK(val, i[2]);
      at += len;
    }
    if (!grew) break;
  }
  for (size_t at = 5; at < n;) {
    uint32_t op = w[at] & 0xFFFFu, len = w[at] >> 16;
    if (!len || len > n - at) break;
    const uint32_t *i = &w[at];
    bool atomic_rw = (op >= 229 && op <= 242) || op == 318 || op == 5614 || op == 5615 || op == 6035;
    if (((op == 62 || op == 63 || op == 228) && len >= 2 && IS(val, i[1])) || /* OpStore, OpCopyMemory, OpAtomicStore */
        (atomic_rw && len >= 4 && IS(val, i[3])))
      writes++;
    at += len;
  }
#undef MARK
#undef IS
  free(nw), free(ptype), free(val);
  return writes;
}

/* No kernel writes through a readonly buffer or buffer reference. The check
 * finds a store put through a readonly reference on purpose. */
TEST(spirv_kernels_write_no_readonly_buffer) {
  uint32_t bad = 0;
  for (int k = 0; k < CN_KERNEL_COUNT; k++) {
    const uint32_t *w = (const uint32_t *)(const void *)cn_kernel_table[k].code;
    size_t n = *cn_kernel_table[k].size / 4;
    CHECK(n > 5 && w[0] == 0x07230203u);
    uint32_t writes = n > 5 ? spirv_writes_to_nonwritable(w, n, w[3]) : 0;
    if (writes) fprintf(stderr, "kernel %s: %u writes through a readonly buffer\n", cn_kernel_table[k].name, writes);
    bad += writes != 0;
  }
  CHECK_EQ_U64(bad, 0);
  /* A module of its own (only the instructions the check reads): a block
   * with a NonWritable member, a pointer to it from an integer, an access
   * chain into it, a store and an atomic through that. */
  uint32_t m[] = {0x07230203u, 0x00010500u, 0, 20, 0,
                  4u << 16 | 72, 1, 0, 24,          /* OpMemberDecorate %1 0 NonWritable */
                  4u << 16 | 21, 2, 32, 0,          /* %2 = OpTypeInt 32 0 */
                  3u << 16 | 30, 1, 2,              /* %1 = OpTypeStruct %2 */
                  4u << 16 | 32, 3, 5349, 1,        /* %3 = OpTypePointer PhysicalStorageBuffer %1 */
                  4u << 16 | 32, 4, 5349, 2,        /* %4 = OpTypePointer PhysicalStorageBuffer %2 */
                  4u << 16 | 120, 3, 5, 6,          /* %5 = OpConvertUToPtr %3 %6 */
                  5u << 16 | 65, 4, 7, 5, 8,        /* %7 = OpAccessChain %4 %5 %8 */
                  3u << 16 | 62, 7, 9,              /* OpStore %7 %9 */
                  7u << 16 | 234, 2, 10, 7, 11, 12, 13}; /* %10 = OpAtomicIAdd %2 %7 .. */
  size_t mn = sizeof m / sizeof m[0];
  CHECK_EQ_U64(spirv_writes_to_nonwritable(m, mn, 20), 2);
  m[8] = 0; /* RelaxedPrecision in place of NonWritable: a writable block */
  CHECK_EQ_U64(spirv_writes_to_nonwritable(m, mn, 20), 0);
}

static uint32_t host_validation_messages;
static VKAPI_ATTR VkBool32 VKAPI_CALL host_messenger(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                     VkDebugUtilsMessageTypeFlagsEXT types,
                                                     const VkDebugUtilsMessengerCallbackDataEXT *data, void *user) {
  (void)types;
  (void)user;
  if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
    host_validation_messages++;
    fprintf(stderr, "host validation: %s\n", data && data->pMessage ? data->pMessage : "?");
  }
  return VK_FALSE;
}

/* An engine's own instance, device and command buffer, as the viewer will do.
 * The host enables what canopy needs (cn_device_features_require, shaderInt64)
 * and, where the device has it, subgroup uniform control flow, which it names
 * in optional_features; the validation layer watches the host's instance. */
TEST(adopt_host_device) {
  VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .apiVersion = VK_API_VERSION_1_2};
  const char *layers[] = {"VK_LAYER_KHRONOS_validation"};
  VkDebugUtilsMessengerCreateInfoEXT mci = {
      .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
      .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
      .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
      .pfnUserCallback = host_messenger};
  const char *inst_exts[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
  VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pNext = &mci,
                              .pApplicationInfo = &app, .enabledLayerCount = 1, .ppEnabledLayerNames = layers,
                              .enabledExtensionCount = 1, .ppEnabledExtensionNames = inst_exts};
  VkInstance inst;
  host_validation_messages = 0;
  if (vkCreateInstance(&ici, NULL, &inst) != VK_SUCCESS) { CHECK(!"host instance"); return; }
  PFN_vkCreateDebugUtilsMessengerEXT create_messenger =
      (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(inst, "vkCreateDebugUtilsMessengerEXT");
  PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger =
      (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(inst, "vkDestroyDebugUtilsMessengerEXT");
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  CHECK(create_messenger && destroy_messenger && create_messenger(inst, &mci, NULL, &messenger) == VK_SUCCESS);
  uint32_t n = 1;
  VkPhysicalDevice pd;
  vkEnumeratePhysicalDevices(inst, &n, &pd);
  float prio = 1;
  VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = 0,
                                 .queueCount = 1, .pQueuePriorities = &prio};
  VkPhysicalDeviceShaderSubgroupUniformControlFlowFeaturesKHR sucf = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_UNIFORM_CONTROL_FLOW_FEATURES_KHR};
  VkPhysicalDeviceFeatures2 have = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  uint32_t next = 0;
  vkEnumerateDeviceExtensionProperties(pd, NULL, &next, NULL);
  VkExtensionProperties *ext = calloc(next + 1, sizeof *ext);
  bool has_sucf = false;
  if (ext && vkEnumerateDeviceExtensionProperties(pd, NULL, &next, ext) == VK_SUCCESS)
    for (uint32_t i = 0; i < next; i++)
      has_sucf |= strcmp(ext[i].extensionName, VK_KHR_SHADER_SUBGROUP_UNIFORM_CONTROL_FLOW_EXTENSION_NAME) == 0;
  free(ext);
  if (has_sucf) have.pNext = &sucf;
  vkGetPhysicalDeviceFeatures2(pd, &have);
  has_sucf = has_sucf && sucf.shaderSubgroupUniformControlFlow;
  VkPhysicalDeviceVulkan12Features f12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  cn_device_features_require(&f12);
  sucf.pNext = &f12;
  VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                  .pNext = has_sucf ? (void *)&sucf : (void *)&f12};
  f2.features.shaderInt64 = have.features.shaderInt64;
  const char *dev_exts[] = {VK_KHR_SHADER_SUBGROUP_UNIFORM_CONTROL_FLOW_EXTENSION_NAME};
  VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &f2, .queueCreateInfoCount = 1,
                            .pQueueCreateInfos = &qci, .enabledExtensionCount = has_sucf ? 1 : 0,
                            .ppEnabledExtensionNames = has_sucf ? dev_exts : NULL};
  VkDevice dev;
  if (vkCreateDevice(pd, &dci, NULL, &dev) != VK_SUCCESS) {
    CHECK(!"host device");
    if (messenger) destroy_messenger(inst, messenger, NULL);
    vkDestroyInstance(inst, NULL);
    return;
  }
  VkQueue q;
  vkGetDeviceQueue(dev, 0, 0, &q);
  uint32_t optional = has_sucf ? CN_DEVICE_FEATURE_SUBGROUP_UNIFORM_CONTROL_FLOW : 0;
  /* a feature the device lacks, or an unknown bit, is refused */
  if (!has_sucf)
    CHECK(cn_context_adopt(&(cn_context_adopt_desc){.instance = inst, .physical_device = pd, .device = dev,
                                                    .queue = q,
                                                    .optional_features = CN_DEVICE_FEATURE_SUBGROUP_UNIFORM_CONTROL_FLOW},
                           &(cn_context *){0}) == CN_ERROR_INVALID_ARGUMENT);
  CHECK(cn_context_adopt(&(cn_context_adopt_desc){.instance = inst, .physical_device = pd, .device = dev, .queue = q,
                                                  .optional_features = 1u << 30},
                         &(cn_context *){0}) == CN_ERROR_INVALID_ARGUMENT);

  /* The host's pipeline cache: canopy's pipelines land in it. */
  VkPipelineCache host_cache;
  VkPipelineCacheCreateInfo pcci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  if (vkCreatePipelineCache(dev, &pcci, NULL, &host_cache) != VK_SUCCESS) host_cache = VK_NULL_HANDLE;
  CHECK(host_cache != VK_NULL_HANDLE);
  cn_context *ctx = NULL;
  CHECK_OK(cn_context_adopt(&(cn_context_adopt_desc){.instance = inst, .physical_device = pd, .device = dev,
                                                      .queue_family = 0, .queue = q, .pipeline_cache = host_cache,
                                                      .optional_features = optional},
                            &ctx));
  if (ctx) CHECK(cn_context_caps(ctx)->subgroup_uniform_control_flow == has_sucf);
  CHECK(cn_context_adopt(&(cn_context_adopt_desc){.instance = inst, .physical_device = pd, .device = dev,
                                                  .queue_family = 99},
                         &(cn_context *){0}) == CN_ERROR_INVALID_ARGUMENT);
  if (ctx) {
    /* Record canopy's work into the host's own command buffer. */
    VkCommandPool pool;
    VkCommandPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, .queueFamilyIndex = 0};
    vkCreateCommandPool(dev, &pci, NULL, &pool);
    VkCommandBuffer cmd;
    VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = pool,
                                      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1};
    vkAllocateCommandBuffers(dev, &ai, &cmd);
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    vkBeginCommandBuffer(cmd, &bi);
    const uint32_t count = 5000;
    cn_buffer data, scratch;
    CHECK_OK(cn_buffer_create(ctx, CN_MEMORY_DEVICE, count * 4, &data));
    CHECK_OK(cn_buffer_create(ctx, CN_MEMORY_DEVICE, cn_scan_scratch_bytes(ctx, &(cn_scan_args){.op = CN_SCAN_U32_ADD, .n = count}) + 16, &scratch));
    CHECK_OK(cn_iota_record(ctx, cmd, data.address, count, 1));
    cn_cmd_barrier(ctx, cmd);
    CHECK_OK(cn_scan_record(ctx, cmd,
                            &(cn_scan_args){.op = CN_SCAN_U32_ADD, .src = data.address, .dst = data.address,
                                            .scratch = scratch.address, .n = count}));
    cn_cmd_barrier(ctx, cmd);
    vkEndCommandBuffer(cmd);
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd};
    vkQueueSubmit(q, 1, &si, VK_NULL_HANDLE);
    vkQueueWaitIdle(q);
    uint32_t *out = malloc(count * 4);
    CHECK_OK(cn_buffer_download(ctx, &data, 0, out, count * 4));
    uint32_t bad = 0;
    for (uint32_t i = 0; i < count; i++) bad += out[i] != (i + 1) * (i + 2) / 2;
    CHECK_EQ_U64(bad, 0);
    free(out);
    cn_buffer_destroy(ctx, &data);
    cn_buffer_destroy(ctx, &scratch);
    /* The bbox stage's multi-pass kernels where the host did not enable 8-bit
     * stores: the compaction's atomic form (the layer would report the byte
     * form's StorageBuffer8BitAccess capability). */
    CHECK(!cn_context_caps(ctx)->storage_buffer_8bit);
    cn_context_set_tuning(ctx, &(cn_tuning){.bbox_small_max = CN_SMALL_OFF});
    const uint32_t m = 3000;
    uint32_t *tags = malloc(m * 4);
    cn_box *boxes = malloc(m * sizeof *boxes), *got = malloc(m * sizeof *got), *want = malloc(m * sizeof *want);
    for (uint32_t i = 0; i < m; i++) {
      tags[i] = i % 6 == 0 ? CN_TAG_BEGIN_CLIP : i % 6 == 5 ? CN_TAG_END_CLIP : i % 12 == 2 ? CN_TAG_STROKE : CN_TAG_FILL;
      boxes[i] = (cn_box){(float)(i % 50), (float)(i % 40), 100.0f + (float)(i % 70), 90.0f + (float)(i % 30)};
    }
    const float vp[4] = {0, 0, 120, 110};
    CHECK_OK(cn_bbox_run(ctx, tags, boxes, m, vp, got));
    CHECK_OK(cn_bbox_cpu(tags, boxes, m, vp, want));
    CHECK(memcmp(got, want, m * sizeof *got) == 0);
    free(tags), free(boxes), free(got), free(want);
    cn_context_destroy(ctx);
    vkDestroyCommandPool(dev, pool, NULL);
    size_t cache_bytes = 0;
    CHECK(vkGetPipelineCacheData(dev, host_cache, &cache_bytes, NULL) == VK_SUCCESS);
    CHECK(cache_bytes >= 16 + VK_UUID_SIZE); /* at least the header; the rest is the driver's choice */
  }
  if (host_cache) vkDestroyPipelineCache(dev, host_cache, NULL); /* canopy left the host's cache alive */
  vkDestroyDevice(dev, NULL); /* the host's objects outlive canopy's context */
  if (messenger) destroy_messenger(inst, messenger, NULL);
  vkDestroyInstance(inst, NULL);
  CHECK_EQ_U64(host_validation_messages, 0);
}

TEST_MAIN(T(result_names), T(error_message_names_call_result_and_place), T(error_message_for_people_has_no_locations),
          T(pipeline_cache_file), T(device_selection), T(caps_are_queried),
          T(buffer_roundtrip), T(buffer_allocation_sizes), T(split_dispatch_covers_every_group), T(copy_kernel), T(timer_spans),
          T(validation_messages_are_counted), T(spirv_subgroup_uniform_control_flow), T(spirv_kernels_take_the_mode),
          T(spirv_kernels_write_no_readonly_buffer),
          T(adopt_host_device))
