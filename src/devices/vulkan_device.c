/* SPDX-License-Identifier: MIT */
/* A Vulkan device as the library sees it (spec/devices.md, "Vulkan devices"): what the application enabled
 * at vkCreateDevice (features, extensions), its API version and subgroup properties, mapped to the SPIR-V
 * capabilities a shader module may declare for it (the Vulkan specification's "SPIR-V Environment"
 * appendix; the float controls' capabilities, which its properties give, are not among them) and to DPC++'s
 * aspects. A capability the device has but the application did not enable is not
 * available: Vulkan forbids a module to declare it. The caller queries; the library needs no Vulkan. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "devices/devices.h"
#include "registry/architectures.h"
#include "registry/aspects.h"
#include "spvcond/spvcond.h"
#include "support/context.h"
#include "support/sized.h"

/* Vulkan's values (vulkan_core.h), restated: the library does not include Vulkan's headers. */
#define VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU 1u
#define VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU 2u
#define VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU 3u
#define VK_PHYSICAL_DEVICE_TYPE_CPU 4u
#define VK_SHADER_STAGE_COMPUTE_BIT 0x20u
#define VK_API_1_1 ((1u << 22) | (1u << 12))
#define VK_API_1_2 ((1u << 22) | (2u << 12))

enum { MAX_ASPECTS = 8, MAX_CAPABILITIES = 64, MAX_SUB_GROUP_SIZES = 8, MAX_FEATURES = 256, MAX_EXTENSIONS = 1024 };

/* What lets a module declare a capability: always (no feature, no version, no extension), an enabled
 * feature (either of two), an API version, or an enabled device extension. */
struct vulkan_capability {
    const char *capability;       /* SPIR-V's name */
    const char *feature, *or_feature;
    uint32_t version;             /* the API version that makes it core (0: none does) */
    const char *extension;        /* or the device extension that brings it */
};

/* The capabilities of compute shaders, in the appendix's order; graphics-only ones (geometry, tessellation,
 * input attachments, fragment shading) are left out: a compute module cannot use them. */
static const struct vulkan_capability capabilities[] = {
    {"Matrix", NULL, NULL, 0, NULL},
    {"Shader", NULL, NULL, 0, NULL},
    {"Sampled1D", NULL, NULL, 0, NULL},
    {"Image1D", NULL, NULL, 0, NULL},
    {"SampledBuffer", NULL, NULL, 0, NULL},
    {"ImageBuffer", NULL, NULL, 0, NULL},
    {"ImageQuery", NULL, NULL, 0, NULL},
    {"DerivativeControl", NULL, NULL, 0, NULL},
    {"Float64", "shaderFloat64", NULL, 0, NULL},
    {"Int64", "shaderInt64", NULL, 0, NULL},
    {"Int16", "shaderInt16", NULL, 0, NULL},
    {"ImageGatherExtended", "shaderImageGatherExtended", NULL, 0, NULL},
    {"StorageImageMultisample", "shaderStorageImageMultisample", NULL, 0, NULL},
    {"UniformBufferArrayDynamicIndexing", "shaderUniformBufferArrayDynamicIndexing", NULL, 0, NULL},
    {"SampledImageArrayDynamicIndexing", "shaderSampledImageArrayDynamicIndexing", NULL, 0, NULL},
    {"StorageBufferArrayDynamicIndexing", "shaderStorageBufferArrayDynamicIndexing", NULL, 0, NULL},
    {"StorageImageArrayDynamicIndexing", "shaderStorageImageArrayDynamicIndexing", NULL, 0, NULL},
    {"StorageImageExtendedFormats", "shaderStorageImageExtendedFormats", NULL, 0, NULL},
    {"StorageImageReadWithoutFormat", "shaderStorageImageReadWithoutFormat", NULL, 0, NULL},
    {"StorageImageWriteWithoutFormat", "shaderStorageImageWriteWithoutFormat", NULL, 0, NULL},
    {"Float16", "shaderFloat16", NULL, 0, NULL},
    {"Int8", "shaderInt8", NULL, 0, NULL},
    {"Int64Atomics", "shaderBufferInt64Atomics", "shaderSharedInt64Atomics", 0, NULL},
    /* uniformAndStorageBuffer16BitAccess covers storage buffers too (its capability implies the other). */
    {"StorageBuffer16BitAccess", "storageBuffer16BitAccess", "uniformAndStorageBuffer16BitAccess", 0, NULL},
    {"UniformAndStorageBuffer16BitAccess", "uniformAndStorageBuffer16BitAccess", NULL, 0, NULL},
    {"StoragePushConstant16", "storagePushConstant16", NULL, 0, NULL},
    {"StorageInputOutput16", "storageInputOutput16", NULL, 0, NULL},
    {"StorageBuffer8BitAccess", "storageBuffer8BitAccess", "uniformAndStorageBuffer8BitAccess", 0, NULL},
    {"UniformAndStorageBuffer8BitAccess", "uniformAndStorageBuffer8BitAccess", NULL, 0, NULL},
    {"StoragePushConstant8", "storagePushConstant8", NULL, 0, NULL},
    {"VariablePointersStorageBuffer", "variablePointersStorageBuffer", NULL, 0, NULL},
    {"VariablePointers", "variablePointers", NULL, 0, NULL},
    {"DeviceGroup", NULL, NULL, VK_API_1_1, "VK_KHR_device_group"},
    {"ShaderNonUniform", NULL, NULL, VK_API_1_2, "VK_EXT_descriptor_indexing"},
    {"RuntimeDescriptorArray", "runtimeDescriptorArray", NULL, 0, NULL},
    {"StorageBufferArrayNonUniformIndexing", "shaderStorageBufferArrayNonUniformIndexing", NULL, 0, NULL},
    {"SampledImageArrayNonUniformIndexing", "shaderSampledImageArrayNonUniformIndexing", NULL, 0, NULL},
    {"StorageImageArrayNonUniformIndexing", "shaderStorageImageArrayNonUniformIndexing", NULL, 0, NULL},
    {"VulkanMemoryModel", "vulkanMemoryModel", NULL, 0, NULL},
    {"VulkanMemoryModelDeviceScope", "vulkanMemoryModelDeviceScope", NULL, 0, NULL},
    {"PhysicalStorageBufferAddresses", "bufferDeviceAddress", NULL, 0, NULL},
    {"DotProductInputAll", "shaderIntegerDotProduct", NULL, 0, NULL},
    {"DotProductInput4x8Bit", "shaderIntegerDotProduct", NULL, 0, NULL},
    {"DotProductInput4x8BitPacked", "shaderIntegerDotProduct", NULL, 0, NULL},
    {"DotProduct", "shaderIntegerDotProduct", NULL, 0, NULL},
    {"AtomicFloat32AddEXT", "shaderBufferFloat32AtomicAdd", "shaderSharedFloat32AtomicAdd", 0, NULL},
    {"AtomicFloat64AddEXT", "shaderBufferFloat64AtomicAdd", "shaderSharedFloat64AtomicAdd", 0, NULL},
    {"AtomicFloat16AddEXT", "shaderBufferFloat16AtomicAdd", "shaderSharedFloat16AtomicAdd", 0, NULL},
    {"AtomicFloat32MinMaxEXT", "shaderBufferFloat32AtomicMinMax", "shaderSharedFloat32AtomicMinMax", 0, NULL},
    {"AtomicFloat64MinMaxEXT", "shaderBufferFloat64AtomicMinMax", "shaderSharedFloat64AtomicMinMax", 0, NULL},
    {"Int64ImageEXT", "shaderImageInt64Atomics", NULL, 0, NULL},
    {"ShaderClockKHR", "shaderSubgroupClock", "shaderDeviceClock", 0, NULL},
    {"CooperativeMatrixKHR", "cooperativeMatrix", NULL, 0, NULL},
    {"IntegerFunctions2INTEL", "shaderIntegerFunctions2", NULL, 0, NULL},
};

/* Subgroup operations (VkSubgroupFeatureFlagBits, in the compute stage) and the capability each allows. */
static const struct {
    uint32_t bit;
    const char *capability;
} subgroup_capabilities[] = {
    {0x01, "GroupNonUniform"},           {0x02, "GroupNonUniformVote"},
    {0x04, "GroupNonUniformArithmetic"}, {0x08, "GroupNonUniformBallot"},
    {0x10, "GroupNonUniformShuffle"},    {0x20, "GroupNonUniformShuffleRelative"},
    {0x40, "GroupNonUniformClustered"},  {0x80, "GroupNonUniformQuad"},
};

/* One block: the device, its arrays and its name, released with spvcond_free(). */
struct vulkan_block {
    spvcond_device_info info;
    uint32_t aspects[MAX_ASPECTS];
    uint32_t capabilities[MAX_CAPABILITIES];
    uint32_t sub_group_sizes[MAX_SUB_GROUP_SIZES];
    char name[]; /* a copy of the device's name, when given */
};

static bool
listed(const char *const *list, size_t count, const char *name)
{
    for (size_t k = 0; name && k < count; k++)
        if (list[k] && strcmp(list[k], name) == 0)
            return true;
    return false;
}

/* Whether the application enabled what lets a module declare the capability. */
static bool
available(const spvcond_vulkan_device *d, const struct vulkan_capability *c)
{
    if (!c->feature && !c->version && !c->extension)
        return true;
    return listed(d->features, d->feature_count, c->feature) || listed(d->features, d->feature_count, c->or_feature) ||
           (c->version && d->api_version >= c->version) || listed(d->extensions, d->extension_count, c->extension);
}

static void
add(uint32_t *out, size_t *n, const char *capability)
{
    uint32_t value;
    if (*n < MAX_CAPABILITIES && spvcond_capability_value(capability, &value))
        out[(*n)++] = value;
}

static int
by_value(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static size_t
vulkan_capabilities(const spvcond_vulkan_device *d, uint32_t *out)
{
    size_t n = 0;
    for (size_t k = 0; k < sizeof(capabilities) / sizeof(capabilities[0]); k++) {
        if (available(d, &capabilities[k]))
            add(out, &n, capabilities[k].capability);
    }
    if (d->api_version >= VK_API_1_1 && (d->subgroup_stages & VK_SHADER_STAGE_COMPUTE_BIT))
        for (size_t k = 0; k < sizeof(subgroup_capabilities) / sizeof(subgroup_capabilities[0]); k++)
            if (d->subgroup_operations & subgroup_capabilities[k].bit)
                add(out, &n, subgroup_capabilities[k].capability);
    qsort(out, n, sizeof(*out), by_value);
    return n;
}

bool
spvcond_vulkan_capability_optional(uint32_t capability)
{
    uint32_t value;
    for (size_t k = 0; k < sizeof(capabilities) / sizeof(capabilities[0]); k++)
        if (spvcond_capability_value(capabilities[k].capability, &value) && value == capability)
            return capabilities[k].feature || capabilities[k].version || capabilities[k].extension;
    for (size_t k = 0; k < sizeof(subgroup_capabilities) / sizeof(subgroup_capabilities[0]); k++)
        if (spvcond_capability_value(subgroup_capabilities[k].capability, &value) && value == capability)
            return true;
    return false;
}

/* DPC++'s aspects of the device, in number order: its kind, fp16 and fp64 as its features enable them,
 * image (every Vulkan device has storage and sampled images), atomic64 as its features enable it. */
static size_t
vulkan_aspects(const spvcond_vulkan_device *d, uint32_t *out)
{
    size_t n = 0;
    bool gpu = d->device_type >= VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU &&
               d->device_type <= VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU;
    if (d->device_type == VK_PHYSICAL_DEVICE_TYPE_CPU)
        out[n++] = SPVCOND_ASPECT_CPU;
    if (gpu)
        out[n++] = SPVCOND_ASPECT_GPU;
    if (listed(d->features, d->feature_count, "shaderFloat16"))
        out[n++] = SPVCOND_ASPECT_FP16;
    if (listed(d->features, d->feature_count, "shaderFloat64"))
        out[n++] = SPVCOND_ASPECT_FP64;
    out[n++] = SPVCOND_ASPECT_IMAGE;
    if (listed(d->features, d->feature_count, "shaderBufferInt64Atomics"))
        out[n++] = SPVCOND_ASPECT_ATOMIC64;
    return n;
}

/* The sub-group sizes a shader may require: with subgroupSizeControl enabled, each power of two from the
 * smallest to the largest; otherwise the one size the device runs at. */
static size_t
vulkan_sub_group_sizes(const spvcond_vulkan_device *d, uint32_t *out)
{
    size_t n = 0;
    if (listed(d->features, d->feature_count, "subgroupSizeControl") && d->min_subgroup_size &&
        d->max_subgroup_size >= d->min_subgroup_size) {
        for (uint64_t s = 1; s <= d->max_subgroup_size && n < MAX_SUB_GROUP_SIZES; s *= 2)
            if (s >= d->min_subgroup_size)
                out[n++] = (uint32_t)s;
    } else if (d->subgroup_size) {
        out[n++] = d->subgroup_size;
    }
    return n;
}

static bool
strings_valid(const char *const *list, size_t count, size_t max)
{
    if (count > max || (count && !list))
        return false;
    for (size_t k = 0; k < count; k++)
        if (!list[k])
            return false;
    return true;
}

spvcond_result
spvcond_vulkan_device_info(spvcond_context *ctx, const spvcond_vulkan_device *device, spvcond_device_info **out)
{
    if (!ctx)
        return SPVCOND_ERROR_INVALID_ARGUMENT;
    if (!device || !out)
        return spvcond_invalid(ctx, "spvcond_vulkan_device_info", "`device` and `out` must not be NULL");
    *out = NULL;
    spvcond_vulkan_device d;
    spvcond_result r = SPVCOND_SIZED_IN(ctx, device, &d, spvcond_vulkan_device);
    if (r != SPVCOND_OK)
        return r;
    if (!strings_valid(d.features, d.feature_count, MAX_FEATURES))
        return spvcond_invalid(ctx, "spvcond_vulkan_device_info",
                               "`features` must hold `feature_count` (at most 256) names, none NULL");
    if (!strings_valid(d.extensions, d.extension_count, MAX_EXTENSIONS))
        return spvcond_invalid(ctx, "spvcond_vulkan_device_info",
                               "`extensions` must hold `extension_count` (at most 1024) names, none NULL");
    spvcond_device_info *info = spvcond_device_block(ctx, sizeof(struct vulkan_block), offsetof(struct vulkan_block, name), d.name);
    if (!info)
        return SPVCOND_ERROR_OUT_OF_MEMORY;
    struct vulkan_block *b = (struct vulkan_block *)info;
    info->aspects = b->aspects;
    info->aspect_count = vulkan_aspects(&d, b->aspects);
    info->sub_group_sizes = b->sub_group_sizes;
    info->sub_group_size_count = vulkan_sub_group_sizes(&d, b->sub_group_sizes);
    info->max_work_group_size = d.max_compute_work_group_invocations;
    info->has_capabilities = true;
    info->capabilities = b->capabilities;
    info->capability_count = vulkan_capabilities(&d, b->capabilities);
    if (d.device_type == VK_PHYSICAL_DEVICE_TYPE_CPU) {
        info->has_category = true;
        info->category = SPVCOND_ARCH_CATEGORY_CPU;
    } else if (d.device_type >= VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU &&
               d.device_type <= VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU) {
        info->has_category = true;
        info->category = SPVCOND_ARCH_CATEGORY_GPU;
    }
    *out = info;
    return SPVCOND_OK;
}
