/* host.h: the viewer's own Vulkan objects, as an engine embedding canopy owns them:
 * instance (with the validation layer and a message counter when asked),
 * device created with canopy's required features, a graphics+compute queue,
 * the window surface and swapchain (recreated on resize), a render pass with
 * one framebuffer per swapchain image, the frame's command buffer and synchronisation.
 */
#ifndef VW_HOST_H
#define VW_HOST_H

#include "vw.h"
#include "vw_overlay.h"

#define VW_MAX_IMAGES 8

typedef struct vw_host {
  GLFWwindow *window;
  VkInstance instance;
  VkDebugUtilsMessengerEXT messenger;
  bool validation;
  uint32_t validation_count; /* warnings and errors the layer reported */
  VkSurfaceKHR surface;
  VkPhysicalDevice gpu;
  char gpu_name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
  VkDevice device;
  uint32_t family;
  VkQueue queue;
  uint32_t optional_features; /* canopy's optional features enabled on the device (CN_DEVICE_FEATURE_*) */
  VkPhysicalDeviceMemoryProperties memory;

  VkSwapchainKHR swapchain;
  VkFormat format;
  bool format_bgr;           /* B8G8R8A8: swap red and blue when reading back */
  VkPresentModeKHR present_mode;
  bool vsync;                /* FIFO (wait for vertical blank) vs MAILBOX, else IMMEDIATE; set before vw_host_swapchain */
  VkExtent2D extent;
  uint32_t image_count;
  VkImage images[VW_MAX_IMAGES];
  VkImageView views[VW_MAX_IMAGES];
  VkFramebuffer framebuffers[VW_MAX_IMAGES];
  VkSemaphore rendered[VW_MAX_IMAGES]; /* per image: drawing done, present may go */
  VkRenderPass render_pass;

  VkCommandPool pool;
  VkCommandBuffer cmd;       /* the frame: canopy's work when the view or scene changed, the picture,
                              * overlays, HUD (and screenshot copy), one submission */
  VkFence fence;
  VkSemaphore acquired;
} vw_host;

/* "FIFO", "MAILBOX", "IMMEDIATE", ...: the present mode's short name. */
const char *vw_present_mode_name(VkPresentModeKHR mode);

/* Creates everything up to the swapchain for window. On failure err says what
 * failed (the VkResult name and the call) and the host is cleaned up. */
bool vw_host_create(vw_host *h, GLFWwindow *window, bool validation, char *err, size_t errcap);
/* (Re)creates the swapchain at the window's framebuffer size; a zero size
 * (minimised) leaves extent 0 and no swapchain. */
bool vw_host_swapchain(vw_host *h, char *err, size_t errcap);
void vw_host_destroy(vw_host *h);

/* Submits cmd (ended) and waits for it; VK_ERROR_DEVICE_LOST and timeouts are
 * returned as the VkResult. */
VkResult vw_host_submit_wait(vw_host *h, VkCommandBuffer cmd, VkSemaphore wait, VkSemaphore signal);
VkResult vw_host_begin(vw_host *h, VkCommandBuffer cmd);


/* ------------------------------------------------------------------ draw */

/* The graphics side of a frame (draw.c): one render pass over the swapchain
 * image drawing the picture (the renderer's premultiplied RGBA8 buffer, or
 * just the background without one), the host's triangles under the overlays
 * (outlines), the overlays (generated on the GPU from the buffers their
 * vw_ov_params name), then the host's triangles over them (HUD, legends). */
typedef struct vw_draw {
  VkPipelineLayout layout, prep_layout;
  VkPipeline geometry, picture, overlay;
  VkPipeline prep;    /* overlay_prep.comp: the draws' instance counts, the bins' maximum */
  VkBuffer prep_buffer; /* vw_ov_prep: storage and indirect-draw arguments, on the device */
  VkDeviceMemory prep_memory;
  VkDeviceAddress prep_address;
  cn_buffer vertices; /* host-visible, pulled by address in geometry.vert */
  cn_buffer params;   /* host-visible: the frame's vw_ov_params */
  cn_buffer glyphs;   /* stb_easy_font's digits for the overlays' numbers (vw_glyph_header, quads) */
  uint32_t glyph_quads; /* the most quads of one digit */
} vw_draw;

/* The overlays of a frame: their parameters (the data's addresses and counts,
 * window, tile size, hover, legend position), which are on, and the hover. */
typedef struct vw_overlay_pass {
  vw_ov_params params;
  uint32_t mask;       /* 1 << VW_OVERLAY_* */
  bool legend_max;     /* the bins legend's largest count (params.legend_*) */
} vw_overlay_pass;

typedef struct vw_picture {
  VkDeviceAddress pixels; /* 0: no picture */
  uint32_t width, height;
} vw_picture;

/* Framebuffer pixel p shows picture pixel p * k + (ox, oy) (a preview of the
 * last picture under a newer view); {1, 0, 0} is the identity. */
typedef struct vw_map {
  float k, ox, oy;
} vw_map;

typedef struct vw_view vw_view;
/* The map from a framebuffer under view `now` to a picture made under view
 * `shown` (view.c). */
vw_map vw_view_map(const vw_view *shown, const vw_view *now);

bool vw_draw_create(vw_draw *d, vw_host *h, cn_context *cn, char *err, size_t errcap);
void vw_draw_destroy(vw_draw *d, vw_host *h, cn_context *cn);
/* Copies the mesh into the vertex buffer (grown as needed). */
bool vw_draw_upload(vw_draw *d, cn_context *cn, const vw_mesh *m, char *err, size_t errcap);
/* Before the render pass, after canopy's work and the barrier to the draw:
 * writes ov's parameters to d->params (so the frame must be submitted before
 * the next call) and records overlay_prep.comp and its barrier to the
 * indirect draws. */
void vw_draw_prepare(vw_draw *d, VkCommandBuffer cmd, const vw_overlay_pass *ov);
/* Records the render pass into cmd for swapchain image i: the picture, the
 * first `under` vertices of the last upload, the overlays of ov (NULL: none;
 * vw_draw_prepare was recorded for it), then `over` vertices after those. */
void vw_draw_record(vw_draw *d, vw_host *h, VkCommandBuffer cmd, uint32_t image, const vw_picture *pic,
                    vw_map map, uint32_t background, uint32_t under, uint32_t over, const vw_overlay_pass *ov);
/* After vw_draw_record: copies swapchain image i (PRESENT_SRC) into dst, tightly
 * packed rows of 4-byte pixels, and returns the image to PRESENT_SRC. */
void vw_draw_record_readback(vw_host *h, VkCommandBuffer cmd, uint32_t image, const cn_buffer *dst);

#endif
