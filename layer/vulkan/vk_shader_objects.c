/* SPDX-License-Identifier: MIT */
/* Shader objects (VK_EXT_shader_object, docs/vulkan-layer.md): at vkCreateShadersEXT, each SPIR-V shader that
 * carries conditions is specialized for the device, as a module is at vkCreateShaderModule; binary shaders and
 * plain modules go to the driver as they came. The extension is newer than the headers the layer may be built
 * with (Debian's 1.3.239): its structures are restated in vk_shader_object.h. The loader passes a
 * device function it does not know to the layers' vkGetDeviceProcAddr, so the layer sees the call wherever the
 * driver has it. */
#include <stdlib.h>
#include <string.h>

#include <vulkan/vulkan.h>

#include "vk_common.h"
#include "vk_shader_object.h"

VKAPI_ATTR VkResult VKAPI_CALL
layer_CreateShadersEXT(VkDevice device, uint32_t count, const void *create_infos,
                       const VkAllocationCallbacks *allocator, void *shaders)
{
    struct device *d = vk_find_device(vk_key_of(device));
    if (!d || !d->create_shaders)
        return VK_ERROR_INITIALIZATION_FAILED;
    spvcond_vk_create_shaders create = (spvcond_vk_create_shaders)d->create_shaders;
    const struct spvcond_vk_shader_create_info *infos = create_infos;
    /* The application's array is read-only: the driver gets a copy whose annotated SPIR-V is specialized. */
    struct spvcond_vk_shader_create_info *copy = NULL;
    struct specialized_code *codes = NULL;
    for (uint32_t k = 0; infos && k < count; k++) {
        struct specialized_code code;
        if (infos[k].sType != SPVCOND_VK_SHADER_CREATE_INFO || infos[k].codeType != SPVCOND_VK_SHADER_CODE_TYPE_SPIRV ||
            !vk_code_specialized(d, infos[k].pCode, infos[k].codeSize, &code))
            continue;
        if (!copy) {
            copy = malloc(count * sizeof(*copy));
            codes = calloc(count, sizeof(*codes));
            if (!copy || !codes) {
                vk_code_release(&code);
                free(copy);
                free(codes);
                return VK_ERROR_OUT_OF_HOST_MEMORY;
            }
            memcpy(copy, infos, count * sizeof(*copy));
        }
        codes[k] = code;
        copy[k].pCode = code.words;
        copy[k].codeSize = code.size;
    }
    if (!copy)
        return create(device, count, infos, allocator, shaders);
    VkResult r = create(device, count, copy, allocator, shaders);
    for (uint32_t k = 0; k < count; k++)
        vk_code_release(&codes[k]);
    free(codes);
    free(copy);
    return r;
}
