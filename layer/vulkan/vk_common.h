/* SPDX-License-Identifier: MIT */
/* What the Vulkan layer's files share (vk_layer.c: the loader's entry points, instances and devices;
 * vk_modules.c: shader modules, at vkCreateShaderModule and chained into compute pipelines). */
#ifndef SPVCOND_VK_COMMON_H
#define SPVCOND_VK_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include <vulkan/vulkan.h>

#include "spvcond/spvcond.h"

/* A device the application created, by its dispatch key: the next layer's entry points the layer calls, and
 * what the application enabled. */
struct device {
    void *key;
    VkDevice handle;
    PFN_vkGetDeviceProcAddr next_gdpa;
    PFN_vkDestroyDevice destroy;
    PFN_vkCreateShaderModule create_shader_module;
    PFN_vkCreateComputePipelines create_compute_pipelines;
    spvcond_context *ctx;
    spvcond_device_info *info; /* what the application enabled, as the library describes it */
    struct device *next;
};

/* A dispatchable handle's key: the loader's dispatch table pointer, which its children share. */
void *vk_key_of(const void *handle);
/* The device of that key, or NULL. */
struct device *vk_find_device(void *key);
/* A line on standard error under SPVCOND_LAYER_DEBUG. */
void vk_debug(const char *format, ...) __attribute__((format(printf, 1, 2)));
/* A specialized module, into SPVCOND_LAYER_DUMP's folder. */
void vk_dump(const uint32_t *words, size_t count);

VKAPI_ATTR VkResult VKAPI_CALL layer_CreateShaderModule(VkDevice device, const VkShaderModuleCreateInfo *info,
                                                        const VkAllocationCallbacks *allocator, VkShaderModule *out);
VKAPI_ATTR VkResult VKAPI_CALL layer_CreateComputePipelines(VkDevice device, VkPipelineCache cache, uint32_t count,
                                                            const VkComputePipelineCreateInfo *infos,
                                                            const VkAllocationCallbacks *allocator,
                                                            VkPipeline *pipelines);

#endif
