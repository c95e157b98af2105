/* draw.c: the viewer's graphics pipelines and the render pass of a frame.
 *
 * Two pipelines share one layout (push constants only, vw_push.h): "picture"
 * draws a full-screen triangle that composites the renderer's premultiplied
 * RGBA8 pixels (read by device address) over the background, and "geometry"
 * draws straight-alpha triangles (outlines, overlays, HUD) pulled by device
 * address from a host-visible buffer. SPIR-V is compiled by glslc at build
 * time and embedded (viewer/CMakeLists.txt).
 */
#include "host.h"

#include <stdio.h>
#include <string.h>

#include "vw_push.h"

extern const unsigned char cn_spv_vw_geometry_vert[], cn_spv_vw_geometry_frag[];
extern const unsigned char cn_spv_vw_picture_vert[], cn_spv_vw_picture_frag[];
extern const unsigned cn_spv_vw_geometry_vert_size, cn_spv_vw_geometry_frag_size;
extern const unsigned cn_spv_vw_picture_vert_size, cn_spv_vw_picture_frag_size;

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

bool vw_draw_create(vw_draw *d, vw_host *h, char *err, size_t errcap) {
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
  if (!gv || !gf || !pv || !pf) {
    vr = VK_ERROR_INITIALIZATION_FAILED;
    snprintf(err, errcap, "vkCreateShaderModule failed for the viewer's shaders");
  } else {
    vr = vw__pipeline(d, h, gv, gf, true, &d->geometry);
    if (vr == VK_SUCCESS) vr = vw__pipeline(d, h, pv, pf, false, &d->picture);
    if (vr != VK_SUCCESS) snprintf(err, errcap, "vkCreateGraphicsPipelines failed: %s", cn_vk_result_name(vr));
  }
  VkShaderModule mods[] = {gv, gf, pv, pf};
  for (int i = 0; i < 4; i++)
    if (mods[i]) vkDestroyShaderModule(h->device, mods[i], NULL);
  return vr == VK_SUCCESS;
}

void vw_draw_destroy(vw_draw *d, vw_host *h, cn_context *cn) {
  if (cn) cn_buffer_destroy(cn, &d->vertices);
  if (h->device) {
    if (d->geometry) vkDestroyPipeline(h->device, d->geometry, NULL);
    if (d->picture) vkDestroyPipeline(h->device, d->picture, NULL);
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

void vw_draw_record(vw_draw *d, vw_host *h, VkCommandBuffer cmd, uint32_t image, const vw_picture *pic,
                    vw_map map, uint32_t background, uint32_t count) {
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
  if (count && d->vertices.buffer) {
    push.data = d->vertices.address;
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, d->geometry);
    vkCmdPushConstants(cmd, d->layout, stages, 0, sizeof push, &push);
    vkCmdDraw(cmd, count, 1, 0, 0);
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
