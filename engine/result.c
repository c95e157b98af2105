/* result.c: result names, VkResult names, and the per-thread error message. */
#include "internal.h"

#include <stdio.h>
#include <string.h>

static _Thread_local char cn__error[2048];
static _Thread_local char cn__error_message[2048]; /* the same without source locations */

const char *cn_result_name(cn_result r) {
  static const char *const names[CN_RESULT_COUNT] = {
      [CN_OK] = "CN_OK",
      [CN_ERROR_INVALID_ARGUMENT] = "CN_ERROR_INVALID_ARGUMENT",
      [CN_ERROR_VULKAN] = "CN_ERROR_VULKAN",
      [CN_ERROR_NO_DEVICE] = "CN_ERROR_NO_DEVICE",
      [CN_ERROR_UNSUPPORTED] = "CN_ERROR_UNSUPPORTED",
      [CN_ERROR_OUT_OF_MEMORY] = "CN_ERROR_OUT_OF_MEMORY",
      [CN_ERROR_DEVICE_LOST] = "CN_ERROR_DEVICE_LOST",
      [CN_ERROR_TIMEOUT] = "CN_ERROR_TIMEOUT",
      [CN_ERROR_VALIDATION] = "CN_ERROR_VALIDATION",
      [CN_ERROR_IO] = "CN_ERROR_IO",
      [CN_ERROR_PARSE] = "CN_ERROR_PARSE",
      [CN_ERROR_UNBALANCED] = "CN_ERROR_UNBALANCED",
      [CN_ERROR_LIMIT] = "CN_ERROR_LIMIT",
      [CN_ERROR_STATE] = "CN_ERROR_STATE",
  };
  if ((unsigned)r >= CN_RESULT_COUNT) return "CN_RESULT_UNKNOWN";
  return names[r];
}

const char *cn_last_error(void) { return cn__error; }

const char *cn_last_error_message(void) { return cn__error_message; }

void cn_clear_error(void) { cn__error[0] = cn__error_message[0] = 0; }

/* Length of a source location " (name.c:123)" at s, 0 if there is none: a
 * space, '(', a file name of [A-Za-z0-9_.-] ending in .c or .h, ':', digits, ')'. */
static size_t cn__location_len(const char *s) {
  if (s[0] != ' ' || s[1] != '(') return 0;
  size_t i = 2;
  while ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
         s[i] == '_' || s[i] == '.' || s[i] == '-')
    i++;
  if (i < 5 || s[i - 2] != '.' || (s[i - 1] != 'c' && s[i - 1] != 'h') || s[i] != ':') return 0;
  size_t d = ++i;
  while (s[i] >= '0' && s[i] <= '9') i++;
  return i > d && s[i] == ')' ? i + 1 : 0;
}

cn_result cn_error_set_at(const char *file, int line, cn_result code, const char *fmt, ...) {
  const char *base = strrchr(file, '/');
  base = base ? base + 1 : file;
  /* Format into a copy first: an argument may be cn_last_error() itself. */
  char msg[sizeof cn__error];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg - 64, fmt, ap);
  va_end(ap);
  size_t len = strlen(msg);
  snprintf(msg + len, sizeof msg - len, " (%.40s:%d)", base, line);
  memcpy(cn__error, msg, sizeof cn__error);
  /* The message for people: every location removed, also those of messages
   * nested into this one (a caller that formats cn_last_error() into its own). */
  size_t o = 0;
  for (size_t i = 0; msg[i];) {
    size_t skip = cn__location_len(msg + i);
    if (skip) i += skip;
    else cn__error_message[o++] = msg[i++];
  }
  cn__error_message[o] = 0;
  return code;
}

const char *cn_vk_result_name(VkResult r) {
  switch (r) {
#define CN_VKR(x) case x: return #x;
    CN_VKR(VK_SUCCESS)
    CN_VKR(VK_NOT_READY)
    CN_VKR(VK_TIMEOUT)
    CN_VKR(VK_EVENT_SET)
    CN_VKR(VK_EVENT_RESET)
    CN_VKR(VK_INCOMPLETE)
    CN_VKR(VK_ERROR_OUT_OF_HOST_MEMORY)
    CN_VKR(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    CN_VKR(VK_ERROR_INITIALIZATION_FAILED)
    CN_VKR(VK_ERROR_DEVICE_LOST)
    CN_VKR(VK_ERROR_MEMORY_MAP_FAILED)
    CN_VKR(VK_ERROR_LAYER_NOT_PRESENT)
    CN_VKR(VK_ERROR_EXTENSION_NOT_PRESENT)
    CN_VKR(VK_ERROR_FEATURE_NOT_PRESENT)
    CN_VKR(VK_ERROR_INCOMPATIBLE_DRIVER)
    CN_VKR(VK_ERROR_TOO_MANY_OBJECTS)
    CN_VKR(VK_ERROR_FORMAT_NOT_SUPPORTED)
    CN_VKR(VK_ERROR_FRAGMENTED_POOL)
    CN_VKR(VK_ERROR_UNKNOWN)
    CN_VKR(VK_ERROR_OUT_OF_POOL_MEMORY)
    CN_VKR(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    CN_VKR(VK_ERROR_FRAGMENTATION)
    CN_VKR(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    CN_VKR(VK_PIPELINE_COMPILE_REQUIRED)
    CN_VKR(VK_ERROR_SURFACE_LOST_KHR)
    CN_VKR(VK_ERROR_NATIVE_WINDOW_IN_USE_KHR)
    CN_VKR(VK_SUBOPTIMAL_KHR)
    CN_VKR(VK_ERROR_OUT_OF_DATE_KHR)
    CN_VKR(VK_ERROR_INCOMPATIBLE_DISPLAY_KHR)
    CN_VKR(VK_ERROR_VALIDATION_FAILED_EXT)
    CN_VKR(VK_ERROR_INVALID_SHADER_NV)
#undef CN_VKR
    default: return "VK_RESULT_UNKNOWN";
  }
}

cn_result cn__vk_fail_at(const char *file, int line, VkResult vr, const char *call) {
  cn_result code = CN_ERROR_VULKAN;
  switch (vr) {
    case VK_ERROR_OUT_OF_HOST_MEMORY:
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
    case VK_ERROR_OUT_OF_POOL_MEMORY:
      code = CN_ERROR_OUT_OF_MEMORY;
      break;
    case VK_ERROR_DEVICE_LOST: code = CN_ERROR_DEVICE_LOST; break;
    case VK_TIMEOUT: code = CN_ERROR_TIMEOUT; break;
    case VK_ERROR_FEATURE_NOT_PRESENT:
    case VK_ERROR_EXTENSION_NOT_PRESENT:
    case VK_ERROR_LAYER_NOT_PRESENT:
    case VK_ERROR_INCOMPATIBLE_DRIVER: code = CN_ERROR_UNSUPPORTED; break;
    default: break;
  }
  /* Keep the call text short: up to the opening parenthesis. */
  char name[128];
  size_t i = 0;
  while (call[i] && call[i] != '(' && i + 1 < sizeof name) { name[i] = call[i]; i++; }
  name[i] = 0;
  return cn_error_set_at(file, line, code, "%s failed: %s", name, cn_vk_result_name(vr));
}

const char *cn_version(void) { return CANOPY_VERSION_STRING; }
