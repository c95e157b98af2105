/* draw.c: the viewer's graphics pipelines and the render pass of a frame.
 *
 * Three pipelines share one layout (push constants only, vw_push.h):
 * "picture" draws a full-screen triangle that composites the renderer's
 * premultiplied RGBA8 pixels (read by device address) over the background;
 * "geometry" draws straight-alpha triangles (outlines, HUD, legends) pulled by
 * device address from a host-visible buffer; "overlay" draws the debug
 * overlays with no vertex data at all: instanced quads whose vertex shader
 * (overlay.vert) reads the renderer's result boxes, tags, bin offsets and
 * lines by device address; before the render pass a one-workgroup compute
 * pipeline (overlay_prep.comp) writes the instance counts of the draws over
 * lines (drawn with vkCmdDrawIndirect) and the largest bin count. SPIR-V is
 * compiled by glslc at build time and embedded (viewer/CMakeLists.txt).
 */
#include "host.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "vw_push.h"

extern const unsigned char cn_spv_vw_geometry_vert[], cn_spv_vw_geometry_frag[];
extern const unsigned char cn_spv_vw_picture_vert[], cn_spv_vw_picture_frag[], cn_spv_vw_overlay_vert[];
extern const unsigned char cn_spv_vw_overlay_prep_comp[];
extern const unsigned cn_spv_vw_geometry_vert_size, cn_spv_vw_geometry_frag_size;
extern const unsigned cn_spv_vw_picture_vert_size, cn_spv_vw_picture_frag_size, cn_spv_vw_overlay_vert_size;
extern const unsigned cn_spv_vw_overlay_prep_comp_size;

static VkShaderModule vw__module(VkDevice dev, const unsigned char *code, unsigned size) {
  VkShaderModuleCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                 .codeSize = size,
                                 .pCode = (const uint32_t *)(const void *)code};
  VkShaderModule m = VK_NULL_HANDLE;
  if (vkCreateShaderModule(dev, &ci, NULL, &m) != VK_SUCCESS) return VK_NULL_HANDLE;
  return m;
}

static VkResult vw__pipeline(vw_draw *d, vw_host *h, VkShaderModule vs, VkShaderModule fs, bool blend,
                             VkPipeline *out) {
  VkPipelineShaderStageCreateInfo stages[2] = {
      {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
       .stage = VK_SHADER_STAGE_VERTEX_BIT,
       .module = vs,
       .pName = "main"},
      {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
       .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
       .module = fs,
       .pName = "main"}};
  VkPipelineVertexInputStateCreateInfo vi = {.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo ia = {.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
                                               .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST};
  VkPipelineViewportStateCreateInfo vp = {.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
                                          .viewportCount = 1,
                                          .scissorCount = 1};
  VkPipelineRasterizationStateCreateInfo rs = {.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
                                               .polygonMode = VK_POLYGON_MODE_FILL,
                                               .cullMode = VK_CULL_MODE_NONE,
                                               .frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE,
                                               .lineWidth = 1.0f};
  VkPipelineMultisampleStateCreateInfo ms = {.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
                                             .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT};
  VkPipelineColorBlendAttachmentState att = {
      .blendEnable = blend,
      .srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA,
      .dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA,
      .colorBlendOp = VK_BLEND_OP_ADD,
      .srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE,
      .dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA,
      .alphaBlendOp = VK_BLEND_OP_ADD,
      .colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT |
                        VK_COLOR_COMPONENT_A_BIT};
  VkPipelineColorBlendStateCreateInfo cb = {.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
                                            .attachmentCount = 1,
                                            .pAttachments = &att};
  VkDynamicState dyn[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
  VkPipelineDynamicStateCreateInfo ds = {.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
                                         .dynamicStateCount = 2,
                                         .pDynamicStates = dyn};
  VkGraphicsPipelineCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
                                     .stageCount = 2,
                                     .pStages = stages,
                                     .pVertexInputState = &vi,
                                     .pInputAssemblyState = &ia,
                                     .pViewportState = &vp,
                                     .pRasterizationState = &rs,
                                     .pMultisampleState = &ms,
                                     .pColorBlendState = &cb,
                                     .pDynamicState = &ds,
                                     .layout = d->layout,
                                     .renderPass = h->render_pass,
                                     .subpass = 0};
  return vkCreateGraphicsPipelines(h->device, VK_NULL_HANDLE, 1, &ci, NULL, out);
}

/* overlay_prep.comp's pipeline (its own layout: the same push constants, for
 * the compute stage) and its output buffer, which the indirect draws read:
 * the viewer's own, as canopy's buffers are not made for indirect use. */
static bool vw__create_prep(vw_draw *d, vw_host *h, char *err, size_t errcap) {
  VkPushConstantRange range = {.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .offset = 0, .size = sizeof(vw_push)};
  VkPipelineLayoutCreateInfo lci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                    .pushConstantRangeCount = 1,
                                    .pPushConstantRanges = &range};
  VkResult vr = vkCreatePipelineLayout(h->device, &lci, NULL, &d->prep_layout);
  VkShaderModule cs = vw__module(h->device, cn_spv_vw_overlay_prep_comp, cn_spv_vw_overlay_prep_comp_size);
  if (vr == VK_SUCCESS && !cs) vr = VK_ERROR_INITIALIZATION_FAILED;
  if (vr == VK_SUCCESS) {
    VkComputePipelineCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
                                      .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                                                .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                                                .module = cs,
                                                .pName = "main"},
                                      .layout = d->prep_layout};
    vr = vkCreateComputePipelines(h->device, VK_NULL_HANDLE, 1, &ci, NULL, &d->prep);
  }
  if (cs) vkDestroyShaderModule(h->device, cs, NULL);
  if (vr != VK_SUCCESS) {
    snprintf(err, errcap, "the overlays' compute pipeline: %s", cn_vk_result_name(vr));
    return false;
  }
  VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                            .size = sizeof(vw_ov_prep),
                            .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT |
                                     VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
                            .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
  vr = vkCreateBuffer(h->device, &bci, NULL, &d->prep_buffer);
  VkMemoryRequirements req = {0};
  if (vr == VK_SUCCESS) vkGetBufferMemoryRequirements(h->device, d->prep_buffer, &req);
  uint32_t type = UINT32_MAX;
  for (uint32_t pass = 0; pass < 2 && type == UINT32_MAX; pass++) /* device-local first, else any */
    for (uint32_t i = 0; i < h->memory.memoryTypeCount && type == UINT32_MAX; i++)
      if ((req.memoryTypeBits >> i & 1u) &&
          (pass || (h->memory.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)))
        type = i;
  if (vr == VK_SUCCESS && type == UINT32_MAX) vr = VK_ERROR_FEATURE_NOT_PRESENT;
  if (vr == VK_SUCCESS) {
    VkMemoryAllocateFlagsInfo flags = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
                                       .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT};
    VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                .pNext = &flags,
                                .allocationSize = req.size,
                                .memoryTypeIndex = type};
    vr = vkAllocateMemory(h->device, &mai, NULL, &d->prep_memory);
  }
  if (vr == VK_SUCCESS) vr = vkBindBufferMemory(h->device, d->prep_buffer, d->prep_memory, 0);
  if (vr != VK_SUCCESS) {
    snprintf(err, errcap, "the overlays' indirect-draw buffer: %s", cn_vk_result_name(vr));
    return false;
  }
  VkBufferDeviceAddressInfo dai = {.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, .buffer = d->prep_buffer};
  d->prep_address = vkGetBufferDeviceAddress(h->device, &dai);
  return true;
}

bool vw_draw_create(vw_draw *d, vw_host *h, cn_context *cn, char *err, size_t errcap) {
  memset(d, 0, sizeof *d);
  VkPushConstantRange range = {.stageFlags = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT,
                               .offset = 0,
                               .size = sizeof(vw_push)};
  VkPipelineLayoutCreateInfo lci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                    .pushConstantRangeCount = 1,
                                    .pPushConstantRanges = &range};
  VkResult vr = vkCreatePipelineLayout(h->device, &lci, NULL, &d->layout);
  if (vr != VK_SUCCESS) {
    snprintf(err, errcap, "vkCreatePipelineLayout failed: %s", cn_vk_result_name(vr));
    return false;
  }
  VkShaderModule gv = vw__module(h->device, cn_spv_vw_geometry_vert, cn_spv_vw_geometry_vert_size);
  VkShaderModule gf = vw__module(h->device, cn_spv_vw_geometry_frag, cn_spv_vw_geometry_frag_size);
  VkShaderModule pv = vw__module(h->device, cn_spv_vw_picture_vert, cn_spv_vw_picture_vert_size);
  VkShaderModule pf = vw__module(h->device, cn_spv_vw_picture_frag, cn_spv_vw_picture_frag_size);
  VkShaderModule ov = vw__module(h->device, cn_spv_vw_overlay_vert, cn_spv_vw_overlay_vert_size);
  if (!gv || !gf || !pv || !pf || !ov) {
    vr = VK_ERROR_INITIALIZATION_FAILED;
    snprintf(err, errcap, "vkCreateShaderModule failed for the viewer's shaders");
  } else {
    vr = vw__pipeline(d, h, gv, gf, true, &d->geometry);
    if (vr == VK_SUCCESS) vr = vw__pipeline(d, h, pv, pf, false, &d->picture);
    if (vr == VK_SUCCESS) vr = vw__pipeline(d, h, ov, gf, true, &d->overlay);
    if (vr != VK_SUCCESS) snprintf(err, errcap, "vkCreateGraphicsPipelines failed: %s", cn_vk_result_name(vr));
  }
  VkShaderModule mods[] = {gv, gf, pv, pf, ov};
  for (int i = 0; i < 5; i++)
    if (mods[i]) vkDestroyShaderModule(h->device, mods[i], NULL);
  if (vr != VK_SUCCESS) return false;
  if (!vw__create_prep(d, h, err, errcap)) return false;
  /* The digits the overlays write numbers with, and the parameters' buffer. */
  vw_glyph_header gh;
  float quads[VW_MAX_GLYPH_QUADS][4];
  uint32_t nq = vw_digit_glyphs(&gh, quads, VW_MAX_GLYPH_QUADS, &d->glyph_quads);
  cn_result r = cn_buffer_reserve(cn, CN_MEMORY_UPLOAD, sizeof gh + sizeof quads, &d->glyphs);
  if (r == CN_OK) r = cn_buffer_reserve(cn, CN_MEMORY_UPLOAD, sizeof(vw_ov_params), &d->params);
  if (r != CN_OK) {
    snprintf(err, errcap, "overlay buffers: %s", cn_last_error());
    return false;
  }
  memcpy(d->glyphs.mapped, &gh, sizeof gh);
  memcpy((char *)d->glyphs.mapped + sizeof gh, quads, (size_t)nq * sizeof quads[0]);
  return true;
}

void vw_draw_destroy(vw_draw *d, vw_host *h, cn_context *cn) {
  if (cn) {
    cn_buffer_destroy(cn, &d->vertices);
    cn_buffer_destroy(cn, &d->params);
    cn_buffer_destroy(cn, &d->glyphs);
  }
  if (h->device) {
    if (d->geometry) vkDestroyPipeline(h->device, d->geometry, NULL);
    if (d->picture) vkDestroyPipeline(h->device, d->picture, NULL);
    if (d->overlay) vkDestroyPipeline(h->device, d->overlay, NULL);
    if (d->prep) vkDestroyPipeline(h->device, d->prep, NULL);
    if (d->prep_layout) vkDestroyPipelineLayout(h->device, d->prep_layout, NULL);
    if (d->prep_buffer) vkDestroyBuffer(h->device, d->prep_buffer, NULL);
    if (d->prep_memory) vkFreeMemory(h->device, d->prep_memory, NULL);
    if (d->layout) vkDestroyPipelineLayout(h->device, d->layout, NULL);
  }
  memset(d, 0, sizeof *d);
}

bool vw_draw_upload(vw_draw *d, cn_context *cn, const vw_mesh *m, char *err, size_t errcap) {
  size_t bytes = (size_t)m->count * sizeof(vw_vertex);
  if (bytes == 0) return true;
  cn_result r = cn_buffer_reserve(cn, CN_MEMORY_UPLOAD, bytes, &d->vertices);
  if (r != CN_OK) {
    snprintf(err, errcap, "vertex buffer of %zu bytes: %s", bytes, cn_last_error());
    return false;
  }
  memcpy(d->vertices.mapped, m->v, bytes);
  return true;
}

/* One instanced overlay draw. */
static void vw__overlay(vw_draw *d, VkCommandBuffer cmd, vw_push *push, uint32_t mode, uint32_t flags,
                        uint32_t vertices, uint32_t instances) {
  if (!vertices || !instances) return;
  push->mode = mode;
  push->flags = flags;
  vkCmdPushConstants(cmd, d->layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof *push,
                     push);
  vkCmdDraw(cmd, vertices, instances, 0, 0);
}

/* One draw over the lines, its instance count from overlay_prep.comp (at byte offset of the prep buffer). */
static void vw__overlay_lines(vw_draw *d, VkCommandBuffer cmd, vw_push *push, uint32_t mode, VkDeviceSize offset) {
  push->mode = mode;
  push->flags = 0;
  vkCmdPushConstants(cmd, d->layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof *push,
                     push);
  vkCmdDrawIndirect(cmd, d->prep_buffer, offset, 1, 0);
}

/* The overlays in the order the viewer layers them: bins under everything,
 * then the tile grid, depth, segments, element boxes, groups, the hovered
 * element. */
static void vw__record_overlays(vw_draw *d, VkCommandBuffer cmd, vw_push push, const vw_overlay_pass *ov) {
  const vw_ov_params *p = &ov->params;
  uint32_t m = ov->mask;
  push.data = d->params.address;
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, d->overlay);
  uint32_t text = p->digits * d->glyph_quads * 6; /* vertices of one number */
  if (m & (1u << VW_OVERLAY_BINS)) {
    vw__overlay(d, cmd, &push, VW_OV_DARKEN, 0, 6, 1);
    vw__overlay(d, cmd, &push, VW_OV_BIN_CELLS, 0, 54, p->nbx * p->nby);
    vw__overlay(d, cmd, &push, VW_OV_BIN_COUNTS, 0, text, p->nbx * p->nby * VW_OV_OUTLINE_PASSES);
  }
  if (m & (1u << VW_OVERLAY_TILES) && p->tile >= 2 && p->width && p->height)
    vw__overlay(d, cmd, &push, VW_OV_TILES, 0, 6, (p->width - 1) / p->tile + (p->height - 1) / p->tile);
  if (m & (1u << VW_OVERLAY_DEPTH)) {
    vw__overlay_lines(d, cmd, &push, VW_OV_DEPTH_LINES, offsetof(vw_ov_prep, lines));
    vw__overlay(d, cmd, &push, VW_OV_DEPTH_BOXES, 0, 6, p->count);
  }
  if (m & (1u << VW_OVERLAY_SEGMENTS)) {
    vw__overlay_lines(d, cmd, &push, VW_OV_SEGMENTS, offsetof(vw_ov_prep, lines));
    vw__overlay_lines(d, cmd, &push, VW_OV_SEG_ENDS, offsetof(vw_ov_prep, ends));
  }
  if (m & (1u << VW_OVERLAY_BOXES)) vw__overlay(d, cmd, &push, VW_OV_BOXES, 0, 24, p->count);
  uint32_t groups = (m & (1u << VW_OVERLAY_CLIPS) ? VW_OV_FLAG_CLIPS : 0) |
                    (m & (1u << VW_OVERLAY_BLENDS) ? VW_OV_FLAG_BLENDS : 0);
  if (groups) vw__overlay(d, cmd, &push, VW_OV_GROUPS, groups, 30, p->count);
  if (p->hover < p->count) {
    vw__overlay(d, cmd, &push, VW_OV_HOVER_BOX, 0, 48, 1);
    vw__overlay_lines(d, cmd, &push, VW_OV_HOVER_LINES, offsetof(vw_ov_prep, lines));
  }
}

void vw_draw_prepare(vw_draw *d, VkCommandBuffer cmd, const vw_overlay_pass *ov) {
  vw_ov_params p = ov->params;
  p.glyphs = d->glyphs.address;
  p.glyph_quads = d->glyph_quads;
  p.prep = d->prep_address;
  memcpy(d->params.mapped, &p, sizeof p);
  vw_push push = {.data = d->params.address};
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, d->prep);
  vkCmdPushConstants(cmd, d->prep_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
  vkCmdDispatch(cmd, 1, 1, 1);
  VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                        .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                        .dstAccessMask = VK_ACCESS_INDIRECT_COMMAND_READ_BIT | VK_ACCESS_SHADER_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_VERTEX_SHADER_BIT, 0, 1, &mb, 0, NULL, 0,
                       NULL);
}

void vw_draw_record(vw_draw *d, vw_host *h, VkCommandBuffer cmd, uint32_t image, const vw_picture *pic,
                    vw_map map, uint32_t background, uint32_t under, uint32_t over, const vw_overlay_pass *ov) {
  VkClearValue clear;
  float bg[4] = {(background & 255) / 255.0f, ((background >> 8) & 255) / 255.0f,
                 ((background >> 16) & 255) / 255.0f, (background >> 24) / 255.0f};
  memcpy(clear.color.float32, bg, sizeof bg);
  VkRenderPassBeginInfo rbi = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
                               .renderPass = h->render_pass,
                               .framebuffer = h->framebuffers[image],
                               .renderArea = {{0, 0}, h->extent},
                               .clearValueCount = 1,
                               .pClearValues = &clear};
  vkCmdBeginRenderPass(cmd, &rbi, VK_SUBPASS_CONTENTS_INLINE);
  VkViewport vp = {0, 0, (float)h->extent.width, (float)h->extent.height, 0, 1};
  VkRect2D sc = {{0, 0}, h->extent};
  vkCmdSetViewport(cmd, 0, 1, &vp);
  vkCmdSetScissor(cmd, 0, 1, &sc);
  vw_push push = {.inv_w = 1.0f / (float)h->extent.width,
                  .inv_h = 1.0f / (float)h->extent.height,
                  .background = background,
                  .map_k = map.k,
                  .map_ox = map.ox,
                  .map_oy = map.oy};
  const VkShaderStageFlags stages = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
  if (pic && pic->pixels) {
    push.data = pic->pixels;
    push.width = pic->width;
    push.height = pic->height;
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, d->picture);
    vkCmdPushConstants(cmd, d->layout, stages, 0, sizeof push, &push);
    vkCmdDraw(cmd, 3, 1, 0, 0);
  }
  bool have_vertices = d->vertices.buffer != VK_NULL_HANDLE;
  if (under && have_vertices) {
    push.data = d->vertices.address;
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, d->geometry);
    vkCmdPushConstants(cmd, d->layout, stages, 0, sizeof push, &push);
    vkCmdDraw(cmd, under, 1, 0, 0);
  }
  if (ov) vw__record_overlays(d, cmd, push, ov);
  if (over && have_vertices) {
    push.data = d->vertices.address;
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, d->geometry);
    vkCmdPushConstants(cmd, d->layout, stages, 0, sizeof push, &push);
    vkCmdDraw(cmd, over, 1, under, 0);
  }
  if (ov && ov->legend_max) {
    push.data = d->params.address;
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, d->overlay);
    vw__overlay(d, cmd, &push, VW_OV_LEGEND_MAX, 0, ov->params.digits * d->glyph_quads * 6, 1);
  }
  vkCmdEndRenderPass(cmd);
}

void vw_draw_record_readback(vw_host *h, VkCommandBuffer cmd, uint32_t image, const cn_buffer *dst) {
  VkImageMemoryBarrier b = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                            .srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                            .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT,
                            .oldLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
                            .newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                            .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                            .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                            .image = h->images[image],
                            .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL,
                       0, NULL, 1, &b);
  VkBufferImageCopy region = {.bufferOffset = 0,
                              .bufferRowLength = 0,
                              .bufferImageHeight = 0,
                              .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                              .imageOffset = {0, 0, 0},
                              .imageExtent = {h->extent.width, h->extent.height, 1}};
  vkCmdCopyImageToBuffer(cmd, h->images[image], VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst->buffer, 1, &region);
  b.srcAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  b.dstAccessMask = 0;
  b.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  b.newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0, NULL, 0, NULL, 1,
                       &b);
  /* The host reads dst after the fence. */
  VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                        .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                        .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
}
