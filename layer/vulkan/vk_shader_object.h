/* SPDX-License-Identifier: MIT */
/* VK_EXT_shader_object's structures as the Vulkan specification defines them: the extension is newer than the
 * headers the layer may be built with (Debian's 1.3.239). The layer (vk_shader_objects.c) and the programs that
 * test it (tests/vulkan/) share them. */
#ifndef SPVCOND_VK_SHADER_OBJECT_H
#define SPVCOND_VK_SHADER_OBJECT_H

#include <stdint.h>

#include <vulkan/vulkan.h>

#define SPVCOND_VK_SHADER_OBJECT_FEATURES 1000482000 /* VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_OBJECT_FEATURES_EXT */
#define SPVCOND_VK_SHADER_CREATE_INFO 1000482002     /* VK_STRUCTURE_TYPE_SHADER_CREATE_INFO_EXT */
#define SPVCOND_VK_SHADER_CODE_TYPE_BINARY 0         /* VK_SHADER_CODE_TYPE_BINARY_EXT */
#define SPVCOND_VK_SHADER_CODE_TYPE_SPIRV 1          /* VK_SHADER_CODE_TYPE_SPIRV_EXT */

typedef uint64_t spvcond_vk_shader; /* VkShaderEXT, a non-dispatchable handle */

/* VkPhysicalDeviceShaderObjectFeaturesEXT */
struct spvcond_vk_shader_object_features {
    VkStructureType sType;
    void *pNext;
    VkBool32 shaderObject;
};

/* VkShaderCreateInfoEXT */
struct spvcond_vk_shader_create_info {
    VkStructureType sType;
    const void *pNext;
    VkFlags flags;
    VkShaderStageFlagBits stage;
    VkShaderStageFlags nextStage;
    int32_t codeType;
    size_t codeSize;
    const void *pCode;
    const char *pName;
    uint32_t setLayoutCount;
    const VkDescriptorSetLayout *pSetLayouts;
    uint32_t pushConstantRangeCount;
    const VkPushConstantRange *pPushConstantRanges;
    const VkSpecializationInfo *pSpecializationInfo;
};

typedef VkResult(VKAPI_PTR *spvcond_vk_create_shaders)(VkDevice device, uint32_t count,
                                                       const struct spvcond_vk_shader_create_info *infos,
                                                       const VkAllocationCallbacks *allocator,
                                                       spvcond_vk_shader *shaders);
typedef void(VKAPI_PTR *spvcond_vk_destroy_shader)(VkDevice device, spvcond_vk_shader shader,
                                                   const VkAllocationCallbacks *allocator);
typedef void(VKAPI_PTR *spvcond_vk_bind_shaders)(VkCommandBuffer cb, uint32_t count,
                                                 const VkShaderStageFlagBits *stages,
                                                 const spvcond_vk_shader *shaders);

#endif
