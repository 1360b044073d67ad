/* SPDX-License-Identifier: MIT */
/* What the Vulkan layer's files share (vk_layer.c: the loader's entry points, instances and devices;
 * vk_modules.c: shader modules, at vkCreateShaderModule and chained into compute pipelines;
 * vk_shader_objects.c: shader objects, at vkCreateShadersEXT). */
#ifndef SPVCOND_VK_COMMON_H
#define SPVCOND_VK_COMMON_H

#include <stdbool.h>
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
    PFN_vkVoidFunction create_shaders; /* vkCreateShadersEXT (VK_EXT_shader_object), NULL where the driver lacks it */
    spvcond_context *ctx;
    spvcond_device_info *info; /* what the application enabled, as the library describes it */
    struct device *next;
};

/* SPIR-V code as the driver is to receive it: specialized for the device, in ctx (vk_code_release frees it). */
struct specialized_code {
    spvcond_context *ctx;
    uint32_t *words;
    size_t size; /* in bytes */
};

/* Whether `code` (size bytes) is an annotated module that the library specialized for `d` into `out` (false: a
 * plain module, or one the library cannot read or specialize, which goes to the driver as it came). */
bool vk_code_specialized(const struct device *d, const void *code, size_t size, struct specialized_code *out);
void vk_code_release(struct specialized_code *c);

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
/* vkCreateShadersEXT, its types as vk_shader_objects.c states them (Debian's headers predate them). */
VKAPI_ATTR VkResult VKAPI_CALL layer_CreateShadersEXT(VkDevice device, uint32_t count, const void *infos,
                                                      const VkAllocationCallbacks *allocator, void *shaders);

#endif
